"""Constants an option shows in ``--help``, read from the module that defines them without
importing it.

The searches' modules load the engine and Numba (1-2 s on a loaded machine), which
``--help``, a bad option or ``show`` never need.  ``read_constants("strategies.factory",
"SEED_ROUNDS")`` reads that module's source, finds each name's module-level assignment and
evaluates it: literals, tuples, arithmetic (``1 << 16``) and names assigned so before it.
A name assigned anything else (a call, an attribute) is imported after all, which
``tests/cli/test_startup.py`` reports (the help then loads Numba), and it checks every value
read against the module's own.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
PLAIN = (ast.Expression, ast.Constant, ast.Tuple, ast.List, ast.BinOp, ast.UnaryOp,
         ast.operator, ast.unaryop, ast.Load)


def source_of(module: str) -> Path:
    """The source file of ``module``, named from the package (``strategies.factory``)."""
    base = PACKAGE.joinpath(*module.split("."))
    single = base.with_suffix(".py")
    return single if single.is_file() else base / "__init__.py"


def _plain_value(node: ast.expr, known: dict, where: str):
    """``node``'s value when it is made of literals and names in ``known``; else ``KeyError``."""
    expression = ast.Expression(node)
    for part in ast.walk(expression):
        if isinstance(part, ast.Name) and part.id in known:
            continue
        if not isinstance(part, PLAIN):
            raise KeyError(where)
    return eval(compile(expression, where, "eval"), {"__builtins__": {}}, dict(known))


def _assignments(tree: ast.Module):
    """``(name, value node)`` of each module-level assignment of one name or a tuple of names
    from a tuple of values, in order."""
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                yield target.id, value
            elif (isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
                  and len(target.elts) == len(value.elts)):
                for name, part in zip(target.elts, value.elts, strict=True):
                    if isinstance(name, ast.Name):
                        yield name.id, part


def read_constants(module: str, *names: str) -> tuple:
    """The values of ``names``, module-level constants of ``module``, in that order."""
    path = source_of(module)
    known: dict = {}
    for name, value in _assignments(ast.parse(path.read_text(encoding="utf-8"))):
        try:
            known[name] = _plain_value(value, known, f"{path}:{name}")
        except (KeyError, ArithmeticError, TypeError):
            known.pop(name, None)  # reassigned to something not plain: not a constant here
    missing = [name for name in names if name not in known]
    if missing:  # imported after all: slower (tests/cli/test_startup.py fails), never wrong
        from importlib import import_module

        imported = import_module(f"{__package__.rpartition('.')[0]}.{module}")
        known.update({name: getattr(imported, name) for name in missing})
    return tuple(known[name] for name in names)
