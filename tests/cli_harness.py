"""The suite's one way to run the command line: ``run`` in this process, ``command`` for a
real one.

``run("show", "--db", path, "--json")`` calls ``beggar_search.cli.main`` with those words, as
the ``beggar-search`` entry point does after its Numba check (``console.main``): click's
parsing, and main's own handling of errors (one line on stderr, exit status 2), of Ctrl-C
(130) and of a full or closed stdout are the real ones.  (click's ``CliRunner.invoke(cli)``
skips main: it turns every exception into exit status 1, so that a traceback passed.)  An
exception main lets through, which a real process would print as a traceback, is raised
here: the test fails on it.  What the command writes on ``sys.stdout`` and ``sys.stderr``
comes back as a ``Ran``, whose fields are named as ``subprocess.CompletedProcess``'s, so
one check takes either (``hostile_helpers.fails_in_one_line``).  It needs no fixture: a
module fixture may call it.

A test whose point is a real process (signals, kills, locks from another process, the
module entry point, a memory limit) runs ``command(*args)`` with ``subprocess``, under the
``process`` marker.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass

import click.formatting
import pytest

from beggar_search.cli import main


def command(*args) -> list[str]:
    """The argv of ``beggar-search ARGS`` in a real process, this interpreter's module entry
    point (``python -m beggar_search``), for ``subprocess.run`` or ``Popen``."""
    return [sys.executable, "-m", "beggar_search", *(str(arg) for arg in args)]


@dataclass(frozen=True)
class Ran:
    """A command run by ``run``: its words, exit status and the text of stdout and stderr."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> list[str]:
        """The lines of stdout."""
        return self.stdout.splitlines()

    @property
    def error_lines(self) -> list[str]:
        """The lines of stderr."""
        return self.stderr.splitlines()

    @property
    def output(self) -> str:
        """stdout, then stderr: for a failed assertion's message."""
        return self.stdout + self.stderr

    def json(self):
        """stdout read as one JSON document."""
        return json.loads(self.stdout)

    def json_lines(self) -> list:
        """stdout read as one JSON value a line (``--json``), blank lines left out."""
        return [json.loads(line) for line in self.lines if line.strip()]


class _Stream(io.TextIOWrapper):
    """A text stream over bytes, as a standard stream is (it has ``buffer``, is no
    terminal), whose text is read back at the end."""

    def __init__(self, data: bytes = b"", errors: str = "strict"):
        super().__init__(io.BytesIO(data), encoding="utf-8", errors=errors, newline=None,
                         write_through=True)

    def text(self) -> str:
        self.flush()
        return self.buffer.getvalue().decode("utf-8", errors="replace")


def _status(end: SystemExit, stderr: io.TextIOBase) -> int:
    """The exit status a process ending with ``end`` has (as the interpreter does it: a
    message is printed on stderr and is status 1)."""
    if end.code is None:
        return 0
    if isinstance(end.code, int):
        return end.code
    print(end.code, file=stderr)
    return 1


def run(*args, input: str | None = None, env: Mapping[str, str | None] | None = None,
        cwd: str | os.PathLike | None = None, width: int = 80) -> Ran:
    """``beggar-search ARGS`` in this process: ``main`` with the words ``str(arg)``.

    ``input`` is stdin's text (none: an empty stdin); ``env`` the variables to set for the
    call only (a value None unsets one; a whole environment such as ``{**os.environ, ...}``
    does too); ``cwd`` the folder it runs in; ``width`` the terminal's columns that help
    text wraps at (80, as click's CliRunner; a real process asks its terminal, up to 100).
    """
    words = [str(arg) for arg in args]
    stdin, stdout, stderr = _Stream((input or "").encode()), _Stream(), _Stream(
        errors="backslashreplace")
    with pytest.MonkeyPatch.context() as patch, contextlib.ExitStack() as streams:
        if cwd is not None:
            patch.chdir(cwd)
        for name, value in (env or {}).items():
            if value is None:
                patch.delenv(name, raising=False)
            elif os.environ.get(name) != value:
                patch.setenv(name, value)
        patch.setattr(sys, "stdin", stdin)
        patch.setattr(click.formatting, "FORCED_WIDTH", width)
        streams.enter_context(contextlib.redirect_stdout(stdout))
        streams.enter_context(contextlib.redirect_stderr(stderr))
        try:
            main(words)
            code = 0
        except SystemExit as end:
            code = _status(end, stderr)
        except BaseException as error:  # a defect: the test fails on it, showing the streams
            error.add_note(f"beggar-search {' '.join(words)}\nstdout: {stdout.text()!r}"
                           f"\nstderr: {stderr.text()!r}")
            raise
    return Ran(tuple(words), code, stdout.text(), stderr.text())
