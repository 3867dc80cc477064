"""Writing an output file (an export, a picture) without ever destroying a results file.

An output is refused, before any work, when its path is a results file the command reads
(the same path or the same file through a link), any existing SQLite database, or a
companion file SQLite keeps beside a database (its ``-wal``, ``-shm`` or ``-journal``,
under that name, through a link, or recognised by its contents): such a file is never
overwritten, since replacing a companion under a running search damages the database.

The output is written to a temporary file beside the target and renamed over it only once
complete, so a failed write never leaves half a file; a SIGTERM or SIGHUP while it is
written removes the temporary file before the process ends.  A target that is not a
regular file (``/dev/null``, ``/dev/stdout``, a FIFO) is written directly: it is never
replaced.
"""

from __future__ import annotations

import contextlib
import os
import signal
import struct
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from .errors import UserError

SQLITE_HEADER = b"SQLite format 3\x00"
COMPANIONS = ("-wal", "-shm", "-journal")  # the files SQLite keeps beside a database
WAL_MAGIC = (0x377F0682, 0x377F0683)  # the first 4 bytes (big-endian) of a -wal file
SHM_VERSION = 3007000  # the first 4 bytes (native order) of a -shm file
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")  # a -journal file's header
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                     if hasattr(signal, name))


def is_sqlite(path: str | Path) -> bool:
    """Whether ``path`` is an existing regular file that starts with SQLite's header."""
    if not os.path.isfile(path):  # never read a FIFO or a device: it may block
        return False
    try:
        with open(path, "rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def is_companion(path: str | Path) -> bool:
    """Whether ``path`` is an existing regular file whose contents are a -wal, -shm or -journal.

    An empty file is not recognised this way (nothing in it to lose); its name is checked
    by ``companion_of``.
    """
    if not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as handle:
            head = handle.read(8)
    except OSError:
        return False
    if len(head) < 8:
        return False
    return (struct.unpack(">I", head[:4])[0] in WAL_MAGIC
            or struct.unpack("=I", head[:4])[0] == SHM_VERSION or head == JOURNAL_MAGIC)


def companion_of(path: str | Path) -> str | None:
    """The SQLite database ``path`` is a companion of by its name (``F-wal`` of ``F``), if any.

    The name SQLite gives a companion is the database's own path with links resolved, so
    ``path`` is read the same way; the database must exist and be an SQLite file.
    """
    real = os.path.realpath(path)
    for suffix in COMPANIONS:
        for name in {str(path), real}:
            if name.endswith(suffix) and is_sqlite(name[:-len(suffix)]):
                return name[:-len(suffix)]
    return None


def _same_file(one: str | Path, other: str | Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return os.path.abspath(one) == os.path.abspath(other)


def check_output(out: str | Path, protect: tuple[str | Path, ...] = ()) -> None:
    """Refuse ``out`` if it is one of the ``protect`` files, any SQLite database, or a
    companion (``-wal``, ``-shm``, ``-journal``) of either, however it is named."""
    for path in protect:
        if path is None:
            continue
        if _same_file(out, path):
            raise UserError(f"refusing to write {str(out)!r}: it is the results file "
                            f"{str(path)!r}; choose another --out")
        for name in {str(path), os.path.realpath(path)}:
            for suffix in COMPANIONS:
                if _same_file(out, name + suffix):
                    raise UserError(f"refusing to write {str(out)!r}: it is {name + suffix!r},"
                                    f" which SQLite keeps beside the results file {str(path)!r}"
                                    "; choose another --out")
    database = companion_of(out)
    if database is not None or is_companion(out):
        of = f" of {database!r}" if database else ""
        raise UserError(f"refusing to write {str(out)!r}: it is a file SQLite keeps beside a"
                        f" database (a -wal, -shm or -journal{of}); choose another --out")
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
def _stop_signals_raise(out) -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP end the process through ``SystemExit``.

    Their default action kills the process where it stands, leaving the temporary file
    behind; raised as an exception, they let the caller remove it first.  Only signals
    left at their default are taken (a search's own handlers stay), in the main thread.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        name = signal.Signals(signum).name
        os.write(2, f"beggar-search: stopped by {name}; {str(out)!r} was not written\n"
                    .encode(errors="backslashreplace"))
        raise SystemExit(128 + signum)

    taken = {sig: signal.signal(sig, stop) for sig in STOP_SIGNALS
             if signal.getsignal(sig) == signal.SIG_DFL}
    try:
        yield
    finally:
        for sig, handler in taken.items():
            signal.signal(sig, handler)


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
    with _stop_signals_raise(out):
        descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                                 dir=folder)
        try:
            mode = "wb" if binary else "w"
            with os.fdopen(descriptor, mode,
                           **({} if binary else {"newline": newline})) as handle:
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
