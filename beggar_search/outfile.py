"""Writing an output file (an export, a picture) without ever destroying a results file.

An output is refused, before any work, when its path is a results file the command reads
(the same path or the same file through a link), or any existing SQLite database: such a
file is never overwritten. The output is written to a temporary file beside the target and
renamed over it only once complete, so a failed write never leaves half a file.  A target
that is not a regular file (``/dev/null``, ``/dev/stdout``, a FIFO) is written directly: it
is never replaced.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import UserError

SQLITE_HEADER = b"SQLite format 3\x00"


def is_sqlite(path: str | Path) -> bool:
    """Whether ``path`` is an existing regular file that starts with SQLite's header."""
    if not os.path.isfile(path):  # never read a FIFO or a device: it may block
        return False
    try:
        with open(path, "rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _same_file(one: str | Path, other: str | Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return os.path.abspath(one) == os.path.abspath(other)


def check_output(out: str | Path, protect: tuple[str | Path, ...] = ()) -> None:
    """Refuse ``out`` if it is one of the ``protect`` files or any SQLite database."""
    for path in protect:
        if path is not None and _same_file(out, path):
            raise UserError(f"refusing to write {str(out)!r}: it is the results file "
                            f"{str(path)!r}; choose another --out")
    if is_sqlite(out):
        raise UserError(f"refusing to write {str(out)!r}: it is an SQLite database "
                        f"(perhaps a results file); choose another --out")
    if os.path.isdir(out):
        raise UserError(f"cannot write {str(out)!r}: it is a folder")


def _mode_for(target: Path) -> int:
    """The permissions of the file being replaced, or the usual ones for a new file."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


@contextlib.contextmanager
def atomic_output(out: str | Path, protect: tuple[str | Path, ...] = (), *,
                  binary: bool = False, newline: str | None = None) -> Iterator:
    """A file object whose contents replace ``out`` only when the block ends without error.

    ``out`` is checked first (see ``check_output``). The temporary file lives in the target's
    folder, so the final rename is atomic; it is removed if anything fails.
    """
    check_output(out, protect)
    if os.path.exists(out) and not os.path.isfile(out):  # /dev/null, /dev/stdout, a FIFO
        with open(out, "wb" if binary else "w",
                  **({} if binary else {"newline": newline})) as handle:
            yield handle
        return
    target = Path(os.path.realpath(out)) if os.path.islink(out) else Path(out)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"cannot write {str(out)!r}: no folder {str(folder)!r}")
    descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                             dir=folder)
    try:
        mode = "wb" if binary else "w"
        with os.fdopen(descriptor, mode, **({} if binary else {"newline": newline})) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, _mode_for(target))
        check_output(out, protect)  # nothing became a database while we wrote
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
