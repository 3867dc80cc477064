"""The searches' tunables have one home, ``beggar_search/tunables.py``, which imports nothing
(the command line reads it for ``--help`` without loading Numba: ``tests/cli/test_startup.py``)."""

import ast
from pathlib import Path

import beggar_search
from beggar_search import tunables

PACKAGE = Path(beggar_search.__file__).resolve().parent
SOURCE = ast.parse((PACKAGE / "tunables.py").read_text(encoding="utf-8"))


def assigned(tree: ast.Module) -> set[str]:
    """The names a module assigns at its top level."""
    names = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else [])
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Name):
                    names.add(part.id)
    return names


def test_the_tunables_import_nothing():
    assert not [node for node in ast.walk(SOURCE) if isinstance(node, ast.Import | ast.ImportFrom)]
    assert assigned(SOURCE) == {name for name in vars(tunables) if name.isupper()}


def test_no_other_module_defines_a_tunable_again():
    names = assigned(SOURCE)
    again = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name != "tunables.py":
            shared = assigned(ast.parse(path.read_text(encoding="utf-8"))) & names
            if shared:
                again[path.relative_to(PACKAGE).as_posix()] = sorted(shared)
    assert again == {}
