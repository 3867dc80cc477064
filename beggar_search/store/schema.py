"""The results file's tables and format: the schema, the format version and the
migrations that bring a file of an older format up to this one.

A results file is an SQLite database whose header carries ``APPLICATION_ID`` and whose
``user_version`` is its results format (``SCHEMA_VERSION``).  ``prepare`` makes a new, empty
file one and checks (or upgrades) any other; ``committed`` is the transaction both it and
the writes of ``results.Store`` use.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from .errors import StoreError

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

# the columns of a game on a board, as ``results.Store`` writes and reads them
GAME_COLUMNS = ("deal", "number", "chunk", "position", "outcome", "cards", "tricks", "winner",
                "preperiod_tricks", "preperiod_cards", "period_tricks", "period_cards", "cycle",
                "found", "family")

# results format -> the beggar-search releases that write it
SCHEMA_RELEASES = {1: "0.1", 2: "0.2", 3: "0.3", 4: "0.4"}


@contextlib.contextmanager
def committed(db: sqlite3.Connection):
    """Commit the transaction begun before the block when it ends; roll it back on error.

    A block may end the transaction itself (a ROLLBACK when there is nothing to write).
    """
    try:
        yield
        if db.in_transaction:
            db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def prepare(db: sqlite3.Connection, path: Path, create: bool) -> None:
    """Check ``db`` (the file at ``path``) is a results store in a format this release reads,
    upgrading an older one; with ``create``, make a new or empty file one.

    Two searches may create the same file at once: the check and the creation
    happen in one write transaction, and a lock held by the other is waited out
    (by the caller: a busy file raises ``sqlite3.OperationalError``).
    """
    application, tables = mark_and_tables(db)
    if application == 0 and tables == 0 and create:
        db.execute("BEGIN IMMEDIATE")
        with committed(db):
            application, tables = mark_and_tables(db)
            if application == 0 and tables == 0:
                for statement in SCHEMA_STATEMENTS:
                    db.execute(statement)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    elif application != APPLICATION_ID:
        raise StoreError(f"{path} is not a beggar-search results file")
    check_format(db, path, db.execute("PRAGMA user_version").fetchone()[0])


def mark_and_tables(db: sqlite3.Connection) -> tuple[int, int]:
    """The file's application id and its number of schema objects, read in one statement,
    so from one snapshot.

    Read in two, another search's creation could commit between them: an application id of
    0 from before it and tables from after would look like some other program's database.
    """
    row = db.execute("SELECT (SELECT application_id FROM pragma_application_id()),"
                     " (SELECT count(*) FROM sqlite_master)").fetchone()
    return int(row[0]), int(row[1])


def check_format(db: sqlite3.Connection, path: Path, version: int) -> None:
    """Accept this release's results format, upgrade an older one, refuse any other."""
    if version == SCHEMA_VERSION:
        return
    if 1 <= version < SCHEMA_VERSION:
        migrate(db, path)
        return
    from .. import __version__

    known = ", ".join(f"{v} (beggar-search {r})" for v, r in SCHEMA_RELEASES.items())
    if version > SCHEMA_VERSION:
        raise StoreError(f"{path} is in results format {version}, written by a newer"
                         f" beggar-search; this is beggar-search {__version__}, which"
                         f" reads format {known}: upgrade beggar-search to read it")
    raise StoreError(f"{path} is in results format {version}, which beggar-search"
                     f" {__version__} does not know (it reads format {known})")


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring a file of an older results format up to this one, in one transaction."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        raise StoreError(f"{path} is in an older results format and cannot be"
                         f" upgraded here ({error})") from None
    with committed(db):
        version = db.execute("PRAGMA user_version").fetchone()[0]  # may be done now
        for step in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS.get(step, []):
                db.execute(statement)
        for statement in SCHEMA_STATEMENTS:  # the tables newer formats added
            db.execute(statement)
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
