"""The user guide's shell examples run as written.

A fenced ``sh`` block right after a ``<!-- runnable -->`` line in a page of docs/ is run by
bash in an empty folder, with this environment's ``beggar-search`` first on PATH; every
command in it must exit 0 and print something, never a traceback.  ``<!-- runnable: slow -->``
blocks (minutes of play) run with the slow tests.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCK = re.compile(r"^<!-- runnable(?P<slow>: slow)? -->\n```sh\n(?P<body>.*?)^```", re.M | re.S)


def runnable_blocks():
    """(page, number, slow, commands) of every runnable block of the guide."""
    blocks = []
    for page in sorted(DOCS.glob("*.md")):
        for number, match in enumerate(BLOCK.finditer(page.read_text()), start=1):
            commands = [line for line in match["body"].splitlines()
                        if line.strip() and not line.lstrip().startswith("#")]
            blocks.append(pytest.param(page.name, commands, id=f"{page.stem}-{number}",
                                       marks=[pytest.mark.slow] if match["slow"] else []))
    return blocks


def test_the_guide_has_runnable_examples():
    fast = [block for block in runnable_blocks() if not block.marks]
    pages = {block.values[0] for block in fast}
    assert {"play.md", "search.md", "reach.md"} <= pages
    assert all(block.values[1] for block in runnable_blocks())


@pytest.mark.parametrize(("page", "commands"), runnable_blocks())
def test_runnable_example(page, commands, tmp_path):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for command in commands:
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=900)
        assert done.returncode == 0, (page, command, done.stderr[-2000:])
        assert "Traceback" not in done.stderr, (page, command, done.stderr[-2000:])
        assert done.stdout.strip() or "wrote" in done.stderr, (page, command)


FENCE_LINE = re.compile(r"^[ \t]*(```+|~~~+)", re.M)
FENCED = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+).*?^(?P=indent)(?P=fence)[ \t]*$",
                    re.M | re.S)
# the lines of a Python module that a page's prose never holds: a docstring's quotes, imports,
# definitions (docs/records.md once ended with a module's docstring and imports, and the site
# showed them; mkdocs --strict does not see it)
STRAY_CODE = re.compile(r"^(\"\"\"|'''|from [\w.]+ import |import \w[\w.]*( as \w+)?[ \t]*$"
                        r"|def \w+\(|class \w+[(:]|if __name__ ==)", re.M)


def stray_code(text):
    """The lines of a page outside its fenced blocks that are Python source."""
    return [match.group(0) for match in STRAY_CODE.finditer(FENCED.sub("", text))]


def test_stray_code_is_found_outside_fences_only():
    page = 'Prose.\n\n```python\nimport numpy as np\n```\n\nMore.\n"""\n\nimport numpy as np\n'
    assert stray_code(page) == ['"""', "import numpy as np"]
    assert stray_code("Prose.\n\n  ```py\n  from a import b\n  ```\n") == []


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=lambda page: page.name)
def test_no_page_holds_code_outside_fences(page):
    text = page.read_text()
    assert len(FENCE_LINE.findall(text)) % 2 == 0, f"{page.name}: a fence is left open"
    assert stray_code(text) == [], f"{page.name}: Python source outside a fenced block"


def figure(value: int) -> str:
    """``value`` as the guide writes it: 2,097,152."""
    return f"{value:,}"


def tunables_in_the_guide():
    """(page, text the page must hold): the guide's figures of the tunables, formatted from
    ``beggar_search/tunables.py``, so that a changed default fails here until the page says
    it (issue 36's "derive such figures from the code, never by hand")."""
    from beggar_search import tunables as t

    return [
        ("first-run.md", f"`search random` {figure(t.BITBOARD_CHUNK)} deals"),
        ("first-run.md", f"else {figure(t.DEFAULT_CHUNK)}; `search enumerate`"
                         f" {figure(t.DEFAULT_CHUNK)} deals"),
        ("first-run.md", f"({figure(t.CLIMB_CHUNKS * t.BITBOARD_CHUNK)} deals)"),
        ("first-run.md", f"`search factory` {figure(t.FACTORY_CHUNK)} moves"),
        ("first-run.md", f"`search hunt` {figure(t.HUNT_CHUNK)} tries"),
        ("factory.md", f"`--blocks {t.DEFAULT_BLOCKS[0]}-{t.DEFAULT_BLOCKS[1]}`"),
        ("factory.md", f"`--exchanges {t.DEFAULT_EXCHANGES[0]}-{t.DEFAULT_EXCHANGES[1]}`"),
        ("factory.md", f"{t.KICK_CHUNKS} chunks of `--kick-tries` {figure(t.KICK_CHUNK_TRIES)}"
                       " kicks a round"),
        ("factory.md", f"`--kick-moves {t.DEFAULT_KICK_MOVES[0]}-{t.DEFAULT_KICK_MOVES[1]}`"),
        ("factory.md", f"`--kick-shift {t.DEFAULT_KICK_SHIFT}`"),
        ("factory.md", f"blocks of {t.KICK_BLOCKS[0]}-{t.KICK_BLOCKS[1]} cards"),
        ("factory.md", f"`--kick-every {t.KICK_EVERY}`"),
        ("factory.md", f"at most {figure(t.KICK_STATES)}\nstates"),
        ("factory.md", f"each seeding chunk plays {figure(t.SEED_CHUNK_TRIES)} random states"),
        ("factory.md", f"then {figure(t.SEED_CHUNK_FAIR)} random fair deals"),
        ("climb.md", f"`--extend` longest games (default {t.DEFAULT_EXTEND}; a run of `--deals`"
                     f" without `--chunk-size` or `--extend` extends more, up to"
                     f" {t.MOST_EXTEND}, while the chunk's backward searches hold fewer than"
                     f" {t.EXTENSION_STATES:,} states"),
        ("records.md", f"at least {t.DEFAULT_EXTEND} parents and at most {t.MOST_EXTEND}"),
        ("records.md", f"{t.EXTENSION_STATES:,} states"),
    ]


def test_the_guide_s_figures_of_the_tunables_are_the_tunables():
    pages = {name: (DOCS / name).read_text(encoding="utf-8") for name, _ in
             tunables_in_the_guide()}
    missing = [(name, text) for name, text in tunables_in_the_guide()
               if " ".join(text.split()) not in " ".join(pages[name].split())]
    assert not missing, missing
