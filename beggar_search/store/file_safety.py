"""The results file kept safe: opening it (or refusing it) with one clear line, the name
locks, waiting out another process's lock, write-ahead logging and checkpoints, and the
rescue of what a search held when its file was deleted or replaced under it.

``ResultsFile`` is the connection with those guarantees; ``results.Store`` adds the reads
and writes of runs, chunks, games and cycles on top of it.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import shlex
import sqlite3
import struct
import sys
import time
import zlib
from pathlib import Path
from typing import Self

from . import schema
from .errors import StoreError

try:
    import fcntl
except ImportError:  # not a Unix: no name locks
    fcntl = None


def on_read_only_media(path: Path) -> bool:
    """Whether ``path`` is on a file system mounted read-only (an image, a read-only share)
    with no ``-wal`` beside it: no process can change it, so it is read as immutable (in
    WAL mode SQLite must otherwise create a ``-shm``, and cannot there)."""
    try:
        read_only = bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY)
    except OSError:
        return False
    return read_only and path.is_file() and not path.with_name(path.name + "-wal").exists()

def rescue_target(path: Path) -> Path:
    """A new, empty file beside ``path`` for what a search held when ``path`` was deleted or
    replaced under it: ``NAME.rescued-TIME.sqlite`` (``-2``, ``-3``... when taken), created
    here, so no other process has it.  Never ``path`` itself: a new search may have just
    created its file there, and ``VACUUM INTO`` fills an empty file (issue 38, U1)."""
    stem = f"{path.name}.rescued-{int(time.time())}"
    for attempt in itertools.count(1):
        target = path.with_name(f"{stem}{'' if attempt == 1 else f'-{attempt}'}.sqlite")
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            continue
        return target


# seconds a command waits for another process's lock before it gives up (a search that is
# running waits as long as it takes, so that no finished chunk is dropped)
LOCK_WAIT_VARIABLE = "BEGGAR_SEARCH_LOCK_WAIT"
DEFAULT_LOCK_WAIT = 600.0


def lock_wait_setting() -> tuple[float, str | None]:
    """``BEGGAR_SEARCH_LOCK_WAIT`` seconds if it is a number >= 0, else ten minutes; and
    then a line saying the variable was ignored (None when it was not)."""
    text = os.environ.get(LOCK_WAIT_VARIABLE)
    if text is None or not text.strip():
        return DEFAULT_LOCK_WAIT, None
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if math.isfinite(seconds) and seconds >= 0:
        return seconds, None
    return DEFAULT_LOCK_WAIT, (f"ignored {LOCK_WAIT_VARIABLE}={text.strip()[:40]!r}: not a number"
                               f" of seconds >= 0; waiting up to {DEFAULT_LOCK_WAIT:.0f} s for"
                               " a lock")


# seconds between two checkpoints while chunks are stored (see ``ResultsFile.checkpoint``)
CHECKPOINT_EVERY = 1.0
BUSY_SLICE = 1.0  # seconds SQLite itself waits for a lock before we look again
WAIT_NOTICE = 60.0  # seconds between two "still waiting for the lock" messages
SQLITE_HEADER = b"SQLite format 3\x00"


# Byte offsets of the name locks, far past the bytes SQLite locks (near 1 GiB): each process
# that opens a results file holds a shared lock on the byte of the name it opened it by.
NAME_LOCKS = 1 << 62
NAME_SLOTS = 1 << 24


class NameLock:
    """Who else has this file open under another name (a hard link): a lock on its inode.

    SQLite finds a database's ``-wal`` and ``-shm`` by name, so two names of one file
    give two write-ahead logs and two lock tables: two searches would both commit, and
    one would silently lose the other's chunks.  Each opener holds a shared
    open-file-description lock on one byte chosen by the name (the real path, as SQLite
    resolves it); an opener who finds a lock on any other byte of the range refuses.
    Linux only (``F_OFD_SETLK``); elsewhere, or where the file system has no locks, it
    checks nothing.  The descriptor must outlive the SQLite connection: closing any
    descriptor of a file drops the process's POSIX locks on it, SQLite's included.
    """

    def __init__(self, path: Path):
        self.descriptor = None
        if not (sys.platform.startswith("linux") and hasattr(fcntl, "F_OFD_SETLK")):
            return
        name = os.path.realpath(path).encode("utf-8", "surrogateescape")
        self.slot = NAME_LOCKS + zlib.crc32(name) % NAME_SLOTS
        try:
            self.descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            self._lock(fcntl.F_OFD_SETLK, fcntl.F_RDLCK, self.slot, 1)
        except OSError:
            self.close()

    def _lock(self, command: int, kind: int, start: int, length: int) -> int:
        record = struct.pack("hhqqi4x", kind, os.SEEK_SET, start, length, 0)
        return struct.unpack("hhqqi4x", fcntl.fcntl(self.descriptor, command, record))[0]

    def other_name(self) -> bool:
        """Whether another opener holds the file under another name."""
        if self.descriptor is None:
            return False
        try:
            return any(self._lock(fcntl.F_OFD_GETLK, fcntl.F_WRLCK, start, length)
                       != fcntl.F_UNLCK for start, length in (
                           (NAME_LOCKS, self.slot - NAME_LOCKS),
                           (self.slot + 1, NAME_LOCKS + NAME_SLOTS - self.slot - 1)) if length)
        except OSError:
            return False

    def close(self) -> None:
        """Release the lock (close the file); closing twice does nothing."""
        if self.descriptor is not None:
            os.close(self.descriptor)
            self.descriptor = None


def is_busy(error: Exception) -> bool:
    """Whether ``error`` is SQLite saying another process holds a lock on the file."""
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error).lower()


def is_sqlite(path: Path) -> bool:
    """Whether the file at ``path`` is an SQLite database (or empty)."""
    with path.open("rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    return header == SQLITE_HEADER or header == b""


class ResultsFile:
    """An open results file, checked, locked by name, and upgraded to this results format."""

    def __init__(self, path: str | Path, create: bool = True, writing: bool | None = None,
                 on_wait=None, patience: float | None | str = "default", on_warning=None):
        """Open (or with ``create``, make) the results file at ``path``.

        ``writing`` (default: ``create``): the caller will write, so a read-only or damaged
        file is refused now, before any work.  A lock held by another process is waited
        for, saying so through ``on_wait(text)``, for ``patience`` seconds (None: forever).
        ``on_warning(text)`` hears what is skipped: a run that cannot be read, an
        unusable ``BEGGAR_SEARCH_LOCK_WAIT``.
        """
        if str(path).endswith(("/", os.sep)) and not Path(path).is_dir():
            raise StoreError(f"{path} ends in a slash, so it names a folder, not a results"
                             " file: drop the slash")
        self.path = Path(path)
        self.on_wait = on_wait or (lambda text: None)
        self.on_warning = on_warning or (lambda text: None)
        if patience == "default":
            patience, ignored = lock_wait_setting()
            if ignored:
                self.on_warning(ignored)
        self.patience = patience
        self.stop_waiting = lambda: False  # a search may give up waiting when it is stopped
        writing = create if writing is None else writing
        self._refuse_orphaned_log()
        if not self.path.exists() and not create:
            raise StoreError(f"no results file at {self.path}: start one with"
                             " `beggar-search search random`, or name one with --db")
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a results file")
        if self.path.exists() and not self.path.is_file():
            raise StoreError(f"{self.path} is not a regular file (a device or a FIFO), not a"
                             " results file")
        if not self.path.parent.is_dir():
            raise StoreError(f"cannot create {self.path}: folder {self.path.parent} does not exist")
        if self.path.exists() and not is_sqlite(self.path):
            raise StoreError(f"{self.path} is not a beggar-search results file"
                             " (not an SQLite database)")
        if writing:
            self._check_writable()
        self.name_lock = None
        self.checkpointed = -math.inf
        self.immutable = not writing and on_read_only_media(self.path)
        self._connect()
        try:
            self.patiently(lambda: self._check_or_create(create, writing))
            self.identity = self._identity()
        except sqlite3.DatabaseError as error:
            self.close()
            raise StoreError(self._explain(error)) from None
        except BaseException:
            self.close()
            raise

    def _refuse_orphaned_log(self) -> None:
        """Refuse a missing or empty file beside a ``-wal`` that holds something: the log of
        a file killed mid-search and then moved or deleted without it.  SQLite would delete
        that log on opening a new file there, and with it whatever it held."""
        log = self.path.with_name(self.path.name + "-wal")
        try:
            if log.stat().st_size == 0 or (self.path.exists() and self.path.stat().st_size):
                return
        except OSError:  # no log (or no folder): nothing to lose
            return
        shm = log.with_name(self.path.name + "-shm")
        raise StoreError(f"{log} lies beside no results file: it is the log of a results file"
                         " that a search was writing when it was killed, moved or deleted"
                         " without it, and may hold its latest chunks. Put that file back"
                         f" beside it as {self.path} (SQLite then folds the log in), or move"
                         f" {log} and {shm} away to start a new file here")

    def checkpoint(self, force: bool = False) -> None:
        """Copy what the write-ahead log holds into the file itself (a PASSIVE checkpoint:
        it waits for no reader), at most every ``CHECKPOINT_EVERY`` seconds unless ``force``.

        Then the file alone, moved or copied after a kill -9 without its ``-wal``, is at most
        that far behind (``resume`` plays the rest).  Best effort: a busy file is left as it is.
        A checkpoint that could not copy the whole log (another process reading an older
        snapshot, such as a ``show`` while the search runs) is tried again at the next call,
        not a second later: else the run created just before could stay only in the log.
        """
        now = time.monotonic()
        if not force and now - self.checkpointed < CHECKPOINT_EVERY:
            return
        self.checkpointed = now
        with contextlib.suppress(sqlite3.Error):
            busy, logged, copied = self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if busy or copied < logged:
                self.checkpointed = -math.inf

    def _connect(self) -> None:
        """Open the connection, once no other name of the file is in use (``NameLock``)."""
        busy = BUSY_SLICE if self.patience is None else min(BUSY_SLICE, self.patience)
        try:
            if self.immutable:  # nothing can change it, and SQLite could make no -shm there
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?immutable=1",
                                          uri=True, timeout=busy, isolation_level=None)
            else:
                self.db = sqlite3.connect(self.path, timeout=busy, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open {self.path}: {error}") from None
        self.db.row_factory = sqlite3.Row
        self.name_lock = NameLock(self.path)
        if self.name_lock.other_name():
            self.close()
            raise StoreError(f"{self.path} is open under another name (a hard link, or another"
                             " mount of its folder): SQLite finds a file's log by its name,"
                             " so two names at once would lose results; use one name for it")

    def _check_writable(self) -> None:
        """Refuse a file (or folder) this process may not write, saying which and why."""
        for target, what in ((self.path, "file"), (self.path.parent, "folder")):
            if target.exists() and not os.access(target, os.W_OK):
                raise StoreError(f"cannot write {self.path}: the {what} {target} is read-only"
                                 " (permission denied)")

    def _explain(self, error: sqlite3.DatabaseError) -> str:
        """One line saying what is wrong with the file, from SQLite's error."""
        text = str(error)
        if "readonly" in text or "read-only" in text:
            return f"cannot write {self.path}: it is read-only ({text})"
        if "malformed" in text or "corrupt" in text:
            return self._damaged(text)
        if "full" in text or "I/O" in text:
            return f"cannot write {self.path}: {text}"
        if "not a database" in text:
            return f"{self.path} is not a beggar-search results file ({text})"
        return f"cannot use {self.path}: {text}"

    def _damaged(self, detail: str) -> str:
        return (f"{self.path} is damaged ({detail}); nothing was written to it. Copy what is"
                " readable into a new file with: beggar-search recover --db"
                f" {shlex.quote(str(self.path))} --out recovered.sqlite")

    def patiently(self, action, patience: float | None | str = "default"):
        """``action()``, retried while another process holds a lock on the file.

        Says it is waiting (``on_wait``) at once and every minute after; gives up with a
        ``StoreError`` after ``patience`` seconds or when ``stop_waiting()`` says so.
        """
        patience = self.patience if patience == "default" else patience
        started = time.monotonic()
        told = None
        while True:
            try:
                return action()
            except sqlite3.OperationalError as error:
                if not is_busy(error):
                    raise
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                now = time.monotonic()
                waited = now - started  # SQLite's own wait (BUSY_SLICE) included
                if (patience is not None and waited >= patience) or self.stop_waiting():
                    raise StoreError(f"{self.path} is locked by another process (waited"
                                     f" {waited:.0f} s); try again once it lets go") from None
                if told is None or now - told >= WAIT_NOTICE:
                    self.on_wait(f"waiting for a lock on {self.path} held by another process"
                                 f" (waited {waited:.0f} s so far)")
                    told = now
                time.sleep(0.1)

    def _check_or_create(self, create: bool, writing: bool) -> None:
        """Check the file is a results store we can use (``schema.prepare``), whole and, for
        ``writing``, writable; then write-ahead logging and synchronous FULL."""
        schema.prepare(self.db, self.path, create)
        # one line: SQLite's messages may hold line breaks
        check = [" ".join(row[0].split()) for row in self.db.execute("PRAGMA quick_check(5)")]
        if check != ["ok"]:
            raise StoreError(self._damaged("; ".join(check)))
        if writing:
            self.db.execute("BEGIN IMMEDIATE")  # a read-only file or folder fails here
            self.db.execute("ROLLBACK")
            self._wal()
            self.db.execute("PRAGMA synchronous=FULL")

    def _wal(self) -> None:
        """Switch to write-ahead logging (once per file; SQLite may refuse it while busy)."""
        self.db.execute("PRAGMA journal_mode=WAL")

    def _identity(self) -> tuple[int, int] | None:
        try:
            status = self.path.stat()
        except OSError:
            return None
        return status.st_dev, status.st_ino

    def rescue_if_moved(self) -> None:
        """Raise a ``StoreError`` if the file was deleted or replaced since it was opened.

        What this connection holds is then written out whole (``VACUUM INTO``) to a new
        file beside it (``rescue_target``), never back to the path, where a new search may
        be creating its file, so nothing stored is lost with the file nor written over
        another.
        The old file's ``-wal`` and ``-shm`` are emptied and removed first: SQLite finds them
        by name, and would apply them to whatever file now has that name.  The store then
        goes on with the copy (``path`` names it), which marks its running runs stopped.
        """
        if self._identity() == self.identity:
            return
        with contextlib.suppress(sqlite3.Error):  # all the log in the old file, the log empty
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        target, reserved, failed = self.path.with_name(f"{self.path.name}.rescued-*.sqlite"), \
            False, None
        try:
            target = rescue_target(self.path)
            reserved = True
            self.db.execute("VACUUM INTO ?", (str(target),))
        except (sqlite3.Error, OSError) as error:
            failed = error
        companions = {}
        for suffix in ("-wal", "-shm"):
            companion = self.path.with_name(self.path.name + suffix)
            with contextlib.suppress(OSError):
                found = companion.stat()
                companions[companion] = (found.st_dev, found.st_ino)
        self.close()  # the last connection to the old file: SQLite removes its log itself
        for companion, identity in companions.items():
            with contextlib.suppress(OSError):
                found = companion.stat()
                if (found.st_dev, found.st_ino) == identity:  # left: still the old file's
                    companion.unlink()
        if failed is not None:
            with contextlib.suppress(OSError):  # the empty file reserved for it
                if reserved and target.stat().st_size == 0:
                    target.unlink()
            raise StoreError(f"{self.path} was deleted or replaced while the search ran, and"
                             f" the copy of what was stored could not be written to {target}"
                             f" ({failed})")
        with contextlib.closing(sqlite3.connect(target)) as copy, copy:
            # nothing runs on the copy: its runs can be resumed from it
            copy.execute("UPDATE runs SET status = 'stopped' WHERE status = 'running'")
        moved = self.path
        self.path = target
        self._connect()
        self._wal()
        self.db.execute("PRAGMA synchronous=FULL")
        self.identity = self._identity()
        raise StoreError(f"{moved} was deleted or replaced while the search ran;"
                         f" everything stored so far was written to {target}")

    def close(self) -> None:
        """Close the connection, then the name lock (never the other way: see ``NameLock``)."""
        self.db.close()
        if self.name_lock is not None:
            self.name_lock.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

