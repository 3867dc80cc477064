"""The SQLite results store: runs, chunks, leaderboard, loops, cycles, histogram.

One file holds every run.  Only the process that plans a search writes to it,
one transaction per finished chunk (WAL mode, synchronous FULL), so a kill at
any moment loses at most the chunks in flight and the file stays consistent.
Several searches may share a file: SQLite's locking serialises their commits, as long as
they all name it alike (see ``NameLock``: two names of one file are refused).
A deal is kept once per board (leaderboard, loops), at its first place in the run,
and a cycle counts the distinct deals that reach it.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import shlex
import sqlite3
import struct
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..cards.deck import Deck
from ..cards.params import deck_of, game_of, slap_fields
from ..cards.ranked import RankedDeck
from . import readback
from .records import CATALOGUED, MET, ChunkRecord, CycleNews, CycleRecord, GameRecord

try:
    import fcntl
except ImportError:  # not a Unix: no name locks
    fcntl = None

APPLICATION_ID = 0x42454747  # "BEGG" in the SQLite header
SCHEMA_VERSION = 4  # 2: the cycle catalogue (generation, parent, move, mirror, in-tree);
# 3: the merge family of each longest game; 4: the climber's random sample apart
# (sample_histogram)

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    strategy TEXT NOT NULL,
    params TEXT NOT NULL,
    version TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    deals INTEGER NOT NULL DEFAULT 0,
    loops INTEGER NOT NULL DEFAULT 0,
    caps INTEGER NOT NULL DEFAULT 0,
    cards INTEGER NOT NULL DEFAULT 0,
    wins TEXT NOT NULL DEFAULT '[]',
    chunks INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,  -- worker time summed over chunks
    elapsed REAL NOT NULL DEFAULT 0   -- wall-clock time spent searching, over all sittings
);
CREATE TABLE IF NOT EXISTS chunks (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    chunk INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    loops INTEGER NOT NULL,
    cards INTEGER NOT NULL,
    seconds REAL NOT NULL,
    finished REAL NOT NULL,
    PRIMARY KEY (run_id, chunk)
);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    board TEXT NOT NULL,              -- 'longest' or 'loops'
    deal TEXT NOT NULL,
    number TEXT NOT NULL,             -- deal index or deal number in the run (may exceed 2**63)
    chunk INTEGER NOT NULL,
    position INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    cards INTEGER NOT NULL,
    tricks INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    preperiod_tricks INTEGER NOT NULL,
    preperiod_cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    period_cards INTEGER NOT NULL,
    cycle TEXT,
    found REAL NOT NULL,
    family TEXT                       -- a longest game's merge family (engine/merging.py)
);
CREATE INDEX IF NOT EXISTS games_board ON games (run_id, board, cards DESC, chunk, position);
CREATE INDEX IF NOT EXISTS games_deal ON games (run_id, board, deal);
CREATE TABLE IF NOT EXISTS cycles (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    cycle TEXT NOT NULL,
    period_tricks INTEGER NOT NULL,
    period_cards INTEGER NOT NULL,
    deals INTEGER NOT NULL,           -- distinct deals reaching it
    example TEXT NOT NULL,            -- the deal reaching it met first in the run
    found REAL NOT NULL,
    example_chunk INTEGER NOT NULL,
    example_position INTEGER NOT NULL,
    state TEXT,                       -- a state on the cycle, 'leader:hands' (the hunter)
    state_chunk INTEGER,              -- where the run met that state first
    state_position INTEGER,
    reach_states INTEGER,             -- states whose play enters it (the hunter's reach)
    reach_complete INTEGER,           -- whether that backward search finished
    generation INTEGER,               -- the factory: 0 for a start, parent's + 1 for a find
    parent TEXT,                      -- the cycle whose state a move turned into this one
    move TEXT,                        -- that move ('start', 'random state', 'mirror', ...)
    mirror TEXT,                      -- the cycle with the players renamed (hands swapped)
    own_mirror INTEGER,               -- whether it is its own mirror
    reach_depth INTEGER,              -- most tricks from a state of its in-tree to it
    fair_deals INTEGER,               -- fair deals entering it, player 1 to lead
    fair_deals_swapped INTEGER,       -- fair deals entering it, player 2 to lead
    PRIMARY KEY (run_id, cycle)
);
CREATE TABLE IF NOT EXISTS moves (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    move TEXT NOT NULL,               -- a kind of move of the factory
    tries INTEGER NOT NULL,           -- distinct states that kind of move gave and played
    loops INTEGER NOT NULL,
    cycles INTEGER NOT NULL,          -- new cycles met (counted per chunk)
    PRIMARY KEY (run_id, move)
);
CREATE TABLE IF NOT EXISTS links (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    source TEXT NOT NULL,             -- a factory's cycle whose state a move changed
    target TEXT NOT NULL,             -- a cycle known already that the changed state entered
    PRIMARY KEY (run_id, source, target)
);
CREATE TABLE IF NOT EXISTS histogram (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    cards INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (run_id, cards)
);
CREATE TABLE IF NOT EXISTS sample_histogram (  -- the climber's random deals alone (format 4)
    run_id INTEGER NOT NULL REFERENCES runs(id),
    cards INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (run_id, cards)
);
"""

SCHEMA_STATEMENTS = [statement for statement in SCHEMA.split(";") if statement.strip()]

# what opening a file of an older schema version changes in its tables, version by
# version; the tables a version added come from SCHEMA itself (all IF NOT EXISTS)
MIGRATIONS = {
    1: [f"ALTER TABLE cycles ADD COLUMN {column}" for column in (
        "generation INTEGER", "parent TEXT", "move TEXT", "mirror TEXT", "own_mirror INTEGER",
        "reach_depth INTEGER", "fair_deals INTEGER", "fair_deals_swapped INTEGER")],
    2: ["ALTER TABLE games ADD COLUMN family TEXT"],  # NULL: stored before families were
}
CATALOGUE = ("generation", "parent", "move", "mirror", "own_mirror", "reach_depth", "fair_deals",
             "fair_deals_swapped")

GAME_COLUMNS = ("deal", "number", "chunk", "position", "outcome", "cards", "tricks", "winner",
                "preperiod_tricks", "preperiod_cards", "period_tricks", "period_cards", "cycle",
                "found", "family")




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

class StoreError(Exception):
    """The file is not a results store (or cannot be used as one), or a run is not in it."""


class UnreadableRun(StoreError):
    """A run whose stored values are not what beggar-search writes (``readback``)."""


# results format -> the beggar-search releases that write it
SCHEMA_RELEASES = {1: "0.1", 2: "0.2", 3: "0.3", 4: "0.4"}
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


# seconds between two checkpoints while chunks are stored (see ``Store.checkpoint``)
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


def _busy(error: Exception) -> bool:
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error).lower()


def _is_sqlite(path: Path) -> bool:
    with path.open("rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    return header == SQLITE_HEADER or header == b""


@dataclass
class Run:
    id: int
    strategy: str
    params: dict
    version: str
    status: str
    created: float
    updated: float
    deals: int
    loops: int
    caps: int
    cards: int
    wins: list[int]
    chunks: int
    seconds: float
    elapsed: float

    @property
    def deck(self) -> Deck | RankedDeck:
        """The run's deck (for Egyptian ratscrew, counts per rank)."""
        return deck_of(self.params)

    @property
    def players(self) -> int:
        """Number of players."""
        return int(self.params["players"])


@dataclass
class ChunkNews:
    """What a stored chunk changed: a new longest game, new cycles."""

    record: dict | None
    new_cycles: list[CycleNews]


class Store:
    """A results file.  ``Store(path)`` creates it if missing and checks it otherwise."""

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
        if self.path.exists() and not _is_sqlite(self.path):
            raise StoreError(f"{self.path} is not a beggar-search results file"
                             " (not an SQLite database)")
        if writing:
            self._check_writable()
        self.name_lock = None
        self.checkpointed = -math.inf
        self.immutable = not writing and on_read_only_media(self.path)
        self._connect()
        try:
            self._patiently(lambda: self._check_or_create(create, writing))
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
        """
        now = time.monotonic()
        if not force and now - self.checkpointed < CHECKPOINT_EVERY:
            return
        self.checkpointed = now
        with contextlib.suppress(sqlite3.Error):
            self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

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

    def _patiently(self, action, patience: float | None | str = "default"):
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
                if not _busy(error):
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
        """Check the file is a results store we can use; make a new or empty file one.

        Two searches may create the same file at once: the check and the creation
        happen in one write transaction, and a lock held by the other is waited out.
        """
        application = self.db.execute("PRAGMA application_id").fetchone()[0]
        tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if application == 0 and tables == 0 and create:
            self.db.execute("BEGIN IMMEDIATE")
            with self._committed():
                application = self.db.execute("PRAGMA application_id").fetchone()[0]
                tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                if application == 0 and tables == 0:
                    for statement in SCHEMA_STATEMENTS:
                        self.db.execute(statement)
                    self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        elif application != APPLICATION_ID:
            raise StoreError(f"{self.path} is not a beggar-search results file")
        self._check_schema(self.db.execute("PRAGMA user_version").fetchone()[0])
        # one line: SQLite's messages may hold line breaks
        check = [" ".join(row[0].split()) for row in self.db.execute("PRAGMA quick_check(5)")]
        if check != ["ok"]:
            raise StoreError(self._damaged("; ".join(check)))
        if writing:
            self.db.execute("BEGIN IMMEDIATE")  # a read-only file or folder fails here
            self.db.execute("ROLLBACK")
            self._wal()
            self.db.execute("PRAGMA synchronous=FULL")

    def _check_schema(self, version: int) -> None:
        if version == SCHEMA_VERSION:
            return
        if 1 <= version < SCHEMA_VERSION:
            self._migrate()
            return
        from .. import __version__

        known = ", ".join(f"{v} (beggar-search {r})" for v, r in SCHEMA_RELEASES.items())
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} is in results format {version}, written by a newer"
                             f" beggar-search; this is beggar-search {__version__}, which"
                             f" reads format {known}: upgrade beggar-search to read it")
        raise StoreError(f"{self.path} is in results format {version}, which beggar-search"
                         f" {__version__} does not know (it reads format {known})")

    def _migrate(self) -> None:
        """Bring a file of an older results format up to this one, in one transaction."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise StoreError(f"{self.path} is in an older results format and cannot be"
                             f" upgraded here ({error})") from None
        with self._committed():
            version = self.db.execute("PRAGMA user_version").fetchone()[0]  # may be done now
            for step in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS.get(step, []):
                    self.db.execute(statement)
            for statement in SCHEMA_STATEMENTS:  # the tables newer formats added
                self.db.execute(statement)
            self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @contextlib.contextmanager
    def _committed(self):
        """Commit the transaction begun before the block when it ends; roll it back on error.

        A block may end the transaction itself (a ROLLBACK when there is nothing to write).
        """
        try:
            yield
            if self.db.in_transaction:
                self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

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

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # runs ---------------------------------------------------------------

    def create_run(self, strategy: str, params: dict, version: str) -> Run:
        """A new run of ``strategy`` with ``params`` and ``version``, stored as ``running``."""
        now = time.time()
        cursor = self._patiently(lambda: self.db.execute(
            "INSERT INTO runs (strategy, params, version, status, created, updated, wins)"
            " VALUES (?, ?, ?, 'running', ?, ?, ?)",
            (strategy, json.dumps(params), version, now, now,
             json.dumps([0] * int(params["players"])))))
        self.checkpoint(force=True)
        return self.run(cursor.lastrowid)

    def run(self, run_id: int | None = None) -> Run:
        """A run by id, or the latest run."""
        if run_id is None:
            row = self.db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                raise StoreError(f"{self.path} holds no runs yet")
        else:
            row = self.db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                raise StoreError(f"no run {run_id} in {self.path}")
        try:
            return Run(**readback.run_fields(row))
        except readback.BadValue as error:
            raise self._unreadable(row["id"], error) from None

    def _unreadable(self, run_id, error: readback.BadValue) -> UnreadableRun:
        return UnreadableRun(f"run {readback.ascii_text(run_id)} in {self.path} is unreadable:"
                             f" it holds {error}, which beggar-search never writes (the file"
                             " was altered, or not written by beggar-search)")

    def runs(self) -> list[Run]:
        """Every readable run; each unreadable one is named through ``on_warning`` and skipped."""
        found = []
        for row in self.db.execute("SELECT * FROM runs ORDER BY id").fetchall():
            try:
                found.append(Run(**readback.run_fields(row)))
            except readback.BadValue as error:
                self.on_warning(f"{self._unreadable(row['id'], error)}; skipped")
        return found

    def set_status(self, run_id: int, status: str) -> None:
        """Set a run's status (``running``, ``done``, ``stopped``) and its update time.

        A lock held by another process is waited out however long it takes (until
        ``stop_waiting()``), as for a chunk: a search's end is never dropped for a lock.
        """
        self._patiently(lambda: self.db.execute(
            "UPDATE runs SET status = ?, updated = ? WHERE id = ?", (status, time.time(), run_id)),
            patience=None)
        self.checkpoint(force=True)

    def done_chunks(self, run_id: int) -> set[int]:
        """The numbers of a run's chunks already stored."""
        return {row[0] for row in self.db.execute(
            "SELECT chunk FROM chunks WHERE run_id = ?", (run_id,))}

    def chunk_tries(self, run_id: int) -> list[tuple[int, int]]:
        """(chunk, deals) of a run's stored chunks, by chunk number (a factory's tries)."""
        return [(int(row[0]), int(row[1])) for row in self.db.execute(
            "SELECT chunk, deals FROM chunks WHERE run_id = ? ORDER BY chunk", (run_id,))]

    # chunks -------------------------------------------------------------

    def add_chunk(self, run: Run, chunk: ChunkRecord, top_k: int, elapsed: float) -> ChunkNews:
        """Store one finished chunk (plain records, see ``records``) in one transaction.

        A chunk already stored (a retried task) is ignored, so nothing counts twice.
        """
        now = time.time()
        self._patiently(lambda: self.db.execute("BEGIN IMMEDIATE"), patience=None)
        with self._committed():
            if self.db.execute("SELECT 1 FROM chunks WHERE run_id = ? AND chunk = ?",
                               (run.id, chunk.chunk)).fetchone():
                self.db.execute("ROLLBACK")
                return ChunkNews(None, [])
            best_before = self._best_cards(run.id)
            self.db.execute(
                "INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?)",
                (run.id, chunk.chunk, chunk.deals, chunk.loops, chunk.cards, chunk.seconds, now),
            )
            row = self.db.execute("SELECT wins FROM runs WHERE id = ?", (run.id,)).fetchone()
            wins = [a + b for a, b in zip(json.loads(row[0]), chunk.wins, strict=True)]
            self.db.execute(
                "UPDATE runs SET deals = deals + ?, loops = loops + ?, caps = caps + ?,"
                " cards = cards + ?, wins = ?, chunks = chunks + 1, seconds = seconds + ?,"
                " elapsed = max(elapsed, ?), updated = ? WHERE id = ?",
                (chunk.deals, chunk.loops, chunk.caps, chunk.cards, json.dumps(wins),
                 chunk.seconds, elapsed, now, run.id),
            )
            self.db.executemany(
                "INSERT INTO histogram VALUES (?, ?, ?) ON CONFLICT (run_id, cards)"
                " DO UPDATE SET count = count + excluded.count",
                [(run.id, cards, count) for cards, count in chunk.histogram],
            )
            self.db.executemany(
                "INSERT INTO sample_histogram VALUES (?, ?, ?) ON CONFLICT (run_id, cards)"
                " DO UPDATE SET count = count + excluded.count",
                [(run.id, cards, count) for cards, count in chunk.sample_histogram],
            )
            new_cycles = [CycleNews(c.cycle, c.period_tricks, c.period_cards, c.state)
                          for c in chunk.cycles if self._write_cycle(run.id, c, chunk.chunk, now)]
            self.db.executemany(
                "INSERT INTO moves VALUES (?, ?, ?, ?, ?) ON CONFLICT (run_id, move) DO UPDATE"
                " SET tries = tries + excluded.tries, loops = loops + excluded.loops,"
                " cycles = cycles + excluded.cycles",
                [(run.id, m["move"], m["tries"], m["loops"], m["cycles"])
                 for m in chunk.move_stats])
            self.db.executemany("INSERT OR IGNORE INTO links VALUES (?, ?, ?)",
                                [(run.id, source, target) for source, target in chunk.links])
            for game in chunk.games:
                new = self._insert_game(run.id, game, chunk.chunk, now)
                if game.board == "loops":
                    cycle = self._count_cycle(run.id, game, chunk.chunk, now, new)
                    if cycle:
                        new_cycles.append(cycle)
            self.db.execute(
                "DELETE FROM games WHERE run_id = ? AND board = 'longest' AND rowid NOT IN ("
                " SELECT rowid FROM games WHERE run_id = ? AND board = 'longest'"
                " ORDER BY cards DESC, chunk, position LIMIT ?)",
                (run.id, run.id, top_k),
            )
            best_after = self._best_cards(run.id)
            record = None
            if best_after is not None and (best_before is None or best_after > best_before):
                record = self.games(run.id, "longest", limit=1)[0]
        self.checkpoint()
        return ChunkNews(record, new_cycles)

    def _best_cards(self, run_id: int) -> int | None:
        return self.db.execute(
            "SELECT max(cards) FROM games WHERE run_id = ? AND board = 'longest'", (run_id,)
        ).fetchone()[0]

    def _insert_game(self, run_id, game: GameRecord, chunk: int, now) -> bool:
        """Keep a deal on a board once, at its first place (chunk, position) in the run.

        Returns whether the deal is new on that board.  Keeping the first place makes
        the stored results independent of the order in which chunks finish.
        """
        board, deal, position = game.board, game.deal, game.position
        place = self.db.execute(
            "SELECT rowid, chunk, position FROM games WHERE run_id = ? AND board = ? AND deal = ?",
            (run_id, board, deal)).fetchone()
        if place is None:
            self.db.execute(
                f"INSERT INTO games (run_id, board, {', '.join(GAME_COLUMNS)})"
                f" VALUES (?, ?, {', '.join('?' * len(GAME_COLUMNS))})",
                (run_id, board, deal, str(game.number), chunk, position, game.outcome,
                 game.cards, game.tricks, game.winner, game.preperiod_tricks,
                 game.preperiod_cards, game.period_tricks, game.period_cards, game.cycle, now,
                 game.family),
            )
            return True
        if (chunk, position) < (place["chunk"], place["position"]):
            self.db.execute("UPDATE games SET number = ?, chunk = ?, position = ?, found = ?"
                            " WHERE rowid = ?", (str(game.number), chunk, position, now, place[0]))
        return False

    def _count_cycle(self, run_id, game: GameRecord, chunk: int, now,
                     new_deal: bool) -> CycleNews | None:
        """Count a deal reaching a cycle (once: ``new_deal``); return the cycle if it is new.

        The cycle's example is the deal met first in the run's order of chunks, whatever
        the order in which chunks finish.
        """
        deal, position = game.deal, game.position
        known = self.db.execute(
            "SELECT example, example_chunk, example_position FROM cycles"
            " WHERE run_id = ? AND cycle = ?", (run_id, game.cycle)).fetchone()
        if known is not None:
            if new_deal:
                self.db.execute("UPDATE cycles SET deals = deals + 1"
                                " WHERE run_id = ? AND cycle = ?", (run_id, game.cycle))
            if not known["example"] or (chunk, position) < tuple(known)[1:]:
                self.db.execute(
                    "UPDATE cycles SET example = ?, example_chunk = ?, example_position = ?"
                    " WHERE run_id = ? AND cycle = ?",
                    (deal, chunk, position, run_id, game.cycle))
            return None
        self.db.execute("INSERT INTO cycles (run_id, cycle, period_tricks, period_cards, deals,"
                        " example, found, example_chunk, example_position)"
                        " VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)",
                        (run_id, game.cycle, game.period_tricks, game.period_cards, deal, now,
                         chunk, position))
        return CycleNews(game.cycle, game.period_tricks, game.period_cards, deal)

    def _write_cycle(self, run_id, record: CycleRecord, chunk: int, now) -> bool:
        """Record a cycle reported as a state (see ``records.CycleRecord``); True when a
        MET cycle is new to the run.

        The state kept is the one met first in the run's order of chunks (chunk,
        position), whatever the order chunks finish in; with it go the factory's
        generation, parent and move.  A CATALOGUED cycle brings its in-tree and mirror,
        and its place only if no move met it first.
        """
        known = self.db.execute("SELECT state_chunk, state_position, generation FROM cycles"
                                " WHERE run_id = ? AND cycle = ?",
                                (run_id, record.cycle)).fetchone()
        place = (chunk, record.position)
        tree = record.in_tree
        if known is None:
            self.db.execute(
                "INSERT INTO cycles (run_id, cycle, period_tricks, period_cards, deals, example,"
                " found, example_chunk, example_position, state, state_chunk, state_position,"
                " generation, parent, move, reach_states, reach_complete)"
                " VALUES (?, ?, ?, ?, 0, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (run_id, record.cycle, record.period_tricks, record.period_cards, now, *place,
                 record.state, *place, record.generation, record.parent, record.move,
                 tree and tree.states, tree and tree.complete))
        elif (known["state_chunk"] is None or place < tuple(known)[:2]) if record.role == MET \
                else known["generation"] is None:
            self.db.execute("UPDATE cycles SET state = ?, state_chunk = ?, state_position = ?"
                            " WHERE run_id = ? AND cycle = ?",
                            (record.state, *place, run_id, record.cycle))
            if record.generation is not None:
                self.db.execute("UPDATE cycles SET generation = ?, parent = ?, move = ?"
                                " WHERE run_id = ? AND cycle = ?",
                                (record.generation, record.parent, record.move, run_id,
                                 record.cycle))
            if tree is not None:
                self.db.execute("UPDATE cycles SET reach_states = ?, reach_complete = ?"
                                " WHERE run_id = ? AND cycle = ?",
                                (tree.states, tree.complete, run_id, record.cycle))
        if record.role == CATALOGUED and tree is None:  # a game with no backward search
            self.db.execute("UPDATE cycles SET mirror = ?, own_mirror = ?"
                            " WHERE run_id = ? AND cycle = ?",
                            (record.mirror, record.own_mirror, run_id, record.cycle))
        elif record.role == CATALOGUED:
            self.db.execute(
                "UPDATE cycles SET reach_states = ?, reach_complete = ?, reach_depth = ?,"
                " mirror = ?, own_mirror = ?, fair_deals = ?, fair_deals_swapped = ?"
                " WHERE run_id = ? AND cycle = ?",
                (tree.states, tree.complete, tree.depth, record.mirror, record.own_mirror,
                 tree.fair_deals, tree.fair_deals_swapped, run_id, record.cycle))
        return known is None and record.role == MET

    def family(self, run_id: int, generation: int) -> list[dict]:
        """A factory run's cycles of one generation, in the order they were first met."""
        rows = self.db.execute(
            "SELECT cycle, state, parent, move, state_chunk FROM cycles"
            " WHERE run_id = ? AND generation = ? ORDER BY state_chunk, state_position, cycle",
            (run_id, generation))
        deck = self.run(run_id).deck
        return [self._checked(run_id, readback.cycle_row, dict(row), deck) for row in rows]

    def links(self, run_id: int) -> list[tuple[str, str]]:
        """A factory run's links: (cycle, known cycle that a move of its states entered)."""
        return [self._checked(run_id, readback.link, tuple(row)) for row in self.db.execute(
            "SELECT source, target FROM links WHERE run_id = ? ORDER BY source, target",
            (run_id,))]

    def move_stats(self, run_id: int) -> list[dict]:
        """A run's tries, loops and new cycles per kind of move (a factory's), by move."""
        rows = self.db.execute("SELECT move, tries, loops, cycles FROM moves WHERE run_id = ?"
                               " ORDER BY move", (run_id,))
        return [dict(row) for row in rows]

    def known_cycles(self, deck: Deck, players: int, game: dict | None = None) -> dict[str, str]:
        """Every cycle in the file for this deck and player count: id -> a state or deal on it.

        ``game``: the game's parameters (``game``, the slap rules; none: Beggar-my-neighbour);
        only runs of the same game under the same rules count.  A state is written
        'leader:hands'; a deal (player 1 leads) as plain notation.  A run that cannot be
        read (``readback``) is named through ``on_warning`` and skipped.
        """
        game = game or {}
        wanted = (game_of(game), slap_fields(game))
        found = {}
        for run in self.runs():
            if run.params["deck"] != deck.spec or run.players != players:
                continue
            if (game_of(run.params), slap_fields(run.params)) != wanted:  # another game's
                continue
            rows = [dict(row) for row in self.db.execute(
                "SELECT cycle, state, example FROM cycles WHERE run_id = ?", (run.id,))]
            try:
                rows = [readback.cycle_row(row, run.deck) for row in rows]
            except readback.BadValue as error:
                self.on_warning(f"{self._unreadable(run.id, error)}; its cycles skipped")
                continue
            for row in rows:
                found.setdefault(row["cycle"], row["state"] or row["example"])
        return found

    def cycle_entry(self, cycle: str) -> tuple[str, Deck]:
        """A state ('leader:hands') or deal on a stored cycle, and its deck."""
        row = self.db.execute("SELECT run_id, state, example FROM cycles WHERE cycle = ?"
                              " ORDER BY run_id LIMIT 1", (cycle,)).fetchone()
        if row is None:
            raise StoreError(f"no cycle {cycle} in {self.path}")
        run = self.run(row["run_id"])
        if run.params.get("game", "bmn") != "bmn":
            raise StoreError(f"cycle {cycle} is a cycle of Egyptian ratscrew (run {run.id}):"
                             " reach takes cycle ids of Beggar-my-neighbour only; give a deal"
                             " on it with --game ers and the run's --deck and --slap-policy"
                             f" (`export --run {run.id} --what cycles` lists one per cycle)")
        row = self._checked(run.id, readback.cycle_row, {"cycle": cycle, **dict(row)},
                            run.deck)
        return row["state"] or row["example"], run.deck

    # reading ------------------------------------------------------------

    def _checked(self, run_id, check, row, *args):
        """``check(row, *args)``: the row if it holds only what beggar-search writes."""
        try:
            return check(row, *args)
        except readback.BadValue as error:
            raise self._unreadable(run_id, error) from None

    def games(self, run_id: int, board: str, limit: int | None = None) -> list[dict]:
        """A board's games as a list (``iter_games`` one at a time)."""
        return list(self.iter_games(run_id, board, limit))

    def iter_games(self, run_id: int, board: str, limit: int | None = None):
        """A board's games, best first ('longest') or in the run's order ('loops'), one at a
        time (an export of millions of rows never holds them all), each checked."""
        deck = self.run(run_id).deck
        order = "cards DESC, chunk, position" if board == "longest" else "chunk, position"
        rows = self.db.execute(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE run_id = ? AND board = ?"
            f" ORDER BY {order} LIMIT ?", (run_id, board, -1 if limit is None else limit))
        for row in rows:
            yield self._checked(run_id, readback.game, dict(row), deck)

    def cycles(self, run_id: int) -> list[dict]:
        """A run's cycles as a list, most reached first (``iter_cycles`` one at a time)."""
        return list(self.iter_cycles(run_id))

    def iter_cycles(self, run_id: int, limit: int | None = None,
                    columns: str | None = None):
        """A run's cycles, most reached first, one at a time, each checked.

        ``columns``: the columns to read (SQL), by default every one ``cycles`` gives.
        """
        deck = self.run(run_id).deck
        columns = columns or ("cycle, period_tricks, period_cards, deals, example, found, state,"
                              f" reach_states, reach_complete, {', '.join(CATALOGUE)}")
        rows = self.db.execute(
            f"SELECT {columns} FROM cycles WHERE run_id = ?"
            " ORDER BY deals DESC, period_tricks, cycle LIMIT ?",
            (run_id, -1 if limit is None else limit))
        for row in rows:
            yield self._checked(run_id, readback.cycle_row, dict(row), deck)

    def count_cycles(self, run_id: int) -> int:
        """Number of distinct cycles a run has stored."""
        return self.db.execute("SELECT count(*) FROM cycles WHERE run_id = ?",
                               (run_id,)).fetchone()[0]

    def histogram(self, run_id: int, table: str = "histogram") -> list[tuple[int, int]]:
        """A run's game lengths: (cards, count) pairs, shortest first, each checked;
        ``table`` "sample_histogram": its random sample's alone, where it keeps them apart
        (the climber's random deals; empty for a run stored before results format 4)."""
        if table not in ("histogram", "sample_histogram"):
            raise ValueError(f"no histogram table {table!r}")
        return [self._checked(run_id, readback.histogram_bin, tuple(row)) for row in
                self.db.execute(f"SELECT cards, count FROM {table} WHERE run_id = ?"
                                " ORDER BY cards", (run_id,))]
