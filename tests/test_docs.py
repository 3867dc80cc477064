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
