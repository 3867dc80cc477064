"""The SQLite results store: runs, chunks, leaderboard, loops, cycles, histogram.

One file holds every run.  Only the process that plans a search writes to it,
one transaction per finished chunk (WAL mode, synchronous FULL), so a kill at
any moment loses at most the chunks in flight and the file stays consistent.
Several searches may share a file: SQLite's locking serialises their commits, as long as
they all name it alike (see ``file_safety.NameLock``: two names of one file are refused).
A deal is kept once per board (leaderboard, loops), at its first place in the run,
and a cycle counts the distinct deals that reach it.

This module holds the reads and writes (``Store``); the tables, the results format and
its migrations are in ``schema``, and opening, locking, waiting, checkpoints and the
rescue of a moved file in ``file_safety`` (``ResultsFile``, which ``Store`` extends).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from .. import games
from ..cards.deck import Deck
from ..cards.ranked import RankedDeck
from . import readback
from .errors import StoreError, UnreadableRun
from .file_safety import (
    CHECKPOINT_EVERY,
    DEFAULT_LOCK_WAIT,
    LOCK_WAIT_VARIABLE,
    NameLock,
    ResultsFile,
    lock_wait_setting,
    on_read_only_media,
    rescue_target,
)
from .records import CATALOGUED, MET, ChunkRecord, CycleNews, CycleRecord, GameRecord
from .schema import (
    APPLICATION_ID,
    CATALOGUE,
    GAME_COLUMNS,
    MIGRATIONS,
    SCHEMA,
    SCHEMA_RELEASES,
    SCHEMA_VERSION,
    committed,
)

# what callers have imported from here since before the split, kept importable
__all__ = ["APPLICATION_ID", "CATALOGUE", "CHECKPOINT_EVERY", "DEFAULT_LOCK_WAIT", "GAME_COLUMNS",
           "LOCK_WAIT_VARIABLE", "MIGRATIONS", "SCHEMA", "SCHEMA_RELEASES", "SCHEMA_VERSION",
           "ChunkNews", "NameLock", "Run", "Store", "StoreError", "UnreadableRun",
           "lock_wait_setting", "on_read_only_media", "rescue_target"]


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
        return self.game.deck(self.params["deck"])

    @property
    def game(self) -> games.Game:
        """The run's game (``games.of`` its parameters)."""
        return games.of(self.params)

    @property
    def players(self) -> int:
        """Number of players."""
        return int(self.params["players"])


@dataclass
class ChunkNews:
    """What a stored chunk changed: a new longest game, new cycles."""

    record: dict | None
    new_cycles: list[CycleNews]


class Store(ResultsFile):
    """A results file.  ``Store(path)`` creates it if missing and checks it otherwise
    (``ResultsFile``); its methods read and write runs, chunks, games and cycles."""

    # runs ---------------------------------------------------------------

    def create_run(self, strategy: str, params: dict, version: str) -> Run:
        """A new run of ``strategy`` with ``params`` and ``version``, stored as ``running``."""
        now = time.time()
        cursor = self.patiently(lambda: self.db.execute(
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
        self.patiently(lambda: self.db.execute(
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
        self.patiently(lambda: self.db.execute("BEGIN IMMEDIATE"), patience=None)
        with committed(self.db):
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
        wanted = games.of({"players": players, **(game or {})}).fields()
        found = {}
        for run in self.runs():
            if run.params["deck"] != deck.spec or run.players != players:
                continue
            if run.game.fields() != wanted:  # another game's, or other rules
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
        if run.game is not games.BMN:
            raise StoreError(f"cycle {cycle} is a cycle of {run.game.label} (run {run.id}):"
                             " reach takes cycle ids of Beggar-my-neighbour only; give a deal"
                             f" on it with --game {run.game.name} and the run's --deck and"
                             f" --slap-policy (`export --run {run.id} --what cycles` lists one"
                             " per cycle)")
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
