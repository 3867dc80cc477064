"""The game is a value: outside ``games/`` no module of the package tests which game a run
plays (a name compared, ``slap_rules is None`` read as Beggar-my-neighbour)."""

import ast
from pathlib import Path

import beggar_search
from beggar_search import games

PACKAGE = Path(beggar_search.__file__).parent
NAMES = set(games.KINDS)  # the shipped games' names
SENTINELS = {"slap_rules", "slaps"}  # once None for Beggar-my-neighbour


def _named(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def game_tests(tree: ast.AST):
    """Line numbers of comparisons with a game's name, and of ``slap_rules``/``slaps``
    compared with None."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        if any(isinstance(side, ast.Constant) and side.value in NAMES for side in sides):
            yield node.lineno
        if any(_named(side) in SENTINELS for side in sides) and any(
                isinstance(side, ast.Constant) and side.value is None for side in sides):
            yield node.lineno


def test_no_module_outside_games_compares_a_game_name():
    found = [f"{path.relative_to(PACKAGE)}:{line}"
             for path in sorted(PACKAGE.rglob("*.py")) if "games" not in path.parts
             for line in game_tests(ast.parse(path.read_text()))]
    assert found == []


def test_the_check_sees_what_it_forbids():
    seen = list(game_tests(ast.parse('if game_of(p) == "ers" or slap_rules is None: pass')))
    assert len(seen) == 2
