"""Standard streams a command may find closed (``>&-``, ``2>&-``: a daemon, a cron line) or
full (``/dev/full``).

- A closed descriptor 0, 1 or 2 is opened on ``/dev/null`` first, so that no file or pipe
  the command (or a worker) opens takes its number, and workers inherit something harmless.
- A closed stderr: messages go nowhere; the exit status is all that is left.
- A closed stdout is an error at the first write, like a full one (``OSError``), which the
  command line reports in one line on stderr with exit status 2.
"""

import errno
import io
import os
import sys

import click

CLOSED_STDOUT = "standard output is closed"


class ClosedOutput(io.RawIOBase):
    """Where results go when stdout was closed: every write fails, saying so."""

    def writable(self) -> bool:
        """A closed stdout looks writable, so that the write itself fails."""
        return True

    def write(self, data) -> int:
        """Fail: nothing can be written to a closed stdout."""
        raise OSError(errno.EBADF, CLOSED_STDOUT)


def guard_standard_streams() -> None:
    """Give closed standard descriptors ``/dev/null`` and closed streams a stand-in."""
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != descriptor:
                os.dup2(null, descriptor)
                os.close(null)
    if sys.stdout is None:
        sys.stdout = io.TextIOWrapper(ClosedOutput(), encoding="utf-8", write_through=True)
    if sys.stderr is None:
        sys.stderr = open(2, "w", closefd=False, errors="backslashreplace")


def complain(text: str) -> None:
    """Write an error line to stderr; a stderr that cannot take it (full) is passed over: the
    exit status still tells."""
    try:
        click.echo(text, err=True)
    except OSError:
        pass
