"""Copying what is readable from a damaged results file into a new one.

The damaged file is opened read-only (never written, not even checkpointed) and each table
is read in rowid order, straight from the table (no index, which may be what is damaged).
Where a read fails, the copy skips ahead (1, 2, 4, ... rows) until it reads again, so one
damaged page loses the rows on it, not the rest of the table.  The rows are checked by
the new file as by any other on reading (``readback``): a run that holds values
beggar-search never writes is named by the commands that read it.

A run that lost chunks cannot be completed: its totals (deals, wins, histogram) still count
the lost chunks, so resuming would count them twice.  Such a run is marked ``damaged``
(``search resume`` refuses it); the others are marked ``stopped`` if they were running.
"""

from __future__ import annotations

import sqlite3
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from .results import Store, StoreError

TABLES = ("runs", "chunks", "games", "cycles", "moves", "links", "histogram",
          "sample_histogram")
BATCH = 10_000  # rows inserted per statement batch
MAX_ROWID = 1 << 63


@dataclass
class Recovery:
    """What ``recover`` copied: rows per table, stretches it skipped, runs left incomplete."""

    rows: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)  # unreadable stretches per table
    damaged_runs: list[int] = field(default_factory=list)
    integrity: str = ""


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def _rows(source: sqlite3.Connection, table: str, columns: list[str], recovery: Recovery):
    """The readable rows of ``table``, skipping ahead past each place that cannot be read."""
    query = (f"SELECT rowid, {', '.join(columns)} FROM {table} NOT INDEXED"
             " WHERE rowid > ? ORDER BY rowid")
    after, step = 0, 1  # the tables' rowids start at 1
    while after < MAX_ROWID:
        try:
            for row in source.execute(query, (after,)):
                after, step = row[0], 1
                yield row[1:]
            return
        except sqlite3.DatabaseError:
            if step == 1:
                recovery.skipped[table] = recovery.skipped.get(table, 0) + 1
            after, step = after + step, step * 2  # the row after ``after`` is unreadable


def _open_read_only(damaged: Path) -> tuple[sqlite3.Connection, set[str]]:
    """A read-only connection to ``damaged`` and the names of its tables.

    With no write-ahead log beside it, as an unchanging file (``immutable``): nothing is
    created beside it (``mode=ro`` on a WAL file leaves a ``-wal`` and a ``-shm``).  With a
    log, whose rows may be the last ones written, read-only with it (``mode=ro``), or,
    where that cannot open (a read-only folder without the ``-shm``), immutable.
    """
    address = f"file:{urllib.parse.quote(str(damaged.resolve()))}"
    failure = None
    log = damaged.with_name(damaged.name + "-wal")
    with_log = log.exists() and log.stat().st_size > 0
    for mode in ("mode=ro", "immutable=1") if with_log else ("immutable=1", "mode=ro"):
        try:
            source = sqlite3.connect(f"{address}?{mode}", uri=True)
        except sqlite3.Error as error:
            failure = error
            continue
        try:
            return source, {row[0] for row in source.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as error:
            source.close()
            failure = error
    raise StoreError(f"nothing can be read from {damaged} ({failure}): not even the list of"
                     " its tables")


def recover(damaged: str | Path, out: str | Path) -> Recovery:
    """Copy every readable row of the results file ``damaged`` into the new file ``out``."""
    damaged, out = Path(damaged), Path(out)
    if not damaged.is_file():
        raise StoreError(f"no results file at {damaged}")
    if out.exists() or out.is_symlink():
        raise StoreError(f"{out} exists: recover writes a new file; choose another --out")
    source, tables = _open_read_only(damaged)
    if "runs" not in tables:
        source.close()
        raise StoreError(f"{damaged} holds no runs table: it is not a beggar-search results"
                         " file, or too damaged to recover anything from")
    recovery = Recovery()
    try:
        with Store(out) as store:
            db = store.db
            for table in TABLES:
                if table not in tables:
                    continue
                try:
                    columns = [c for c in _columns(db, table) if c in _columns(source, table)]
                except sqlite3.DatabaseError:
                    recovery.skipped[table] = recovery.skipped.get(table, 0) + 1
                    continue
                insert = (f"INSERT OR IGNORE INTO {table} ({', '.join(columns)})"
                          f" VALUES ({', '.join('?' * len(columns))})")
                copied, batch = 0, []
                db.execute("BEGIN")
                for row in _rows(source, table, columns, recovery):
                    batch.append(row)
                    if len(batch) >= BATCH:
                        copied += _insert(db, insert, batch)
                        batch = []
                copied += _insert(db, insert, batch)
                db.execute("COMMIT")
                recovery.rows[table] = copied
            _mark_runs(db, recovery)
            recovery.integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        source.close()
    return recovery


def _insert(db: sqlite3.Connection, insert: str, rows: list) -> int:
    before = db.total_changes
    for row in rows:  # one at a time: a row the new schema refuses (a NULL) is left out
        try:
            db.execute(insert, row)
        except sqlite3.IntegrityError:
            pass
    return db.total_changes - before


def _mark_runs(db: sqlite3.Connection, recovery: Recovery) -> None:
    """Runs whose chunks were not all read are ``damaged``; running ones are ``stopped``."""
    for run_id, chunks, kept in db.execute(
            "SELECT id, chunks, (SELECT count(*) FROM chunks WHERE run_id = runs.id)"
            " FROM runs").fetchall():
        if kept != chunks:
            recovery.damaged_runs.append(run_id)
            db.execute("UPDATE runs SET status = 'damaged' WHERE id = ?", (run_id,))
    db.execute("UPDATE runs SET status = 'stopped' WHERE status = 'running'")

