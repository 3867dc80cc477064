"""The strategy interface shared by every search."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count

import numpy as np

from .. import games
from ..chunk_engine import Engine
from ..engine.batch import ChunkSummary, Recorder, new_recorder
from ..engine.kernels import RANDOM, choose, random_kernel
from ..store.records import ChunkRecord
from ..text import plural
from ..tunables import DEFAULT_CHUNK

PENDING = "pending"  # what ``plan`` yields while its next chunks wait on chunks in flight


@dataclass(frozen=True)
class ChunkJob:
    """One chunk of a run: everything a worker needs, picklable."""

    strategy: str
    chunk: int
    deals: int
    params: dict
    work: dict | None = None  # what this chunk does, where it is more than its number

    def __hash__(self) -> int:
        return hash((self.strategy, self.chunk))


class Strategy:
    """Plans a run as chunks and plays a chunk.

    Subclasses set ``name`` and ``play`` (or, for a chunk that is more than recorded
    games, ``run_chunk``).  ``self.engine`` plays deals with the fastest kernel that
    applies; ``run_chunk`` times the chunk and summarises what ``play`` recorded.

    What a run of the strategy says of itself (the progress bar, the summary, ``show``,
    ``runs`` and their JSON) is the class's to say, never a branch on its name elsewhere:
    ``unit``, ``ends_at_plan``, ``of_cycles``, ``counts_caps``, ``number_label``,
    ``progress`` and ``summary_figures``.
    """

    name = ""
    default_chunk = DEFAULT_CHUNK
    unit = "deals"  # what the run's ``deals`` counts: deals, tries or games
    ends_at_plan = True  # whether the run's ``deals`` end at its planned ``total``
    of_cycles = False  # a search of cycles: it plays no whole games (no wins to count)
    counts_caps = True  # whether its summary counts the games stopped at ``max_tricks``
    number_label = "game no."  # what a leaderboard game's number is in the run
    # which of its games are a uniform random sample of the deck's deals (the tail fit of
    # ``odds`` reads them): "all" its games, "random" (the random deals of each chunk, kept
    # apart in the store's sample histogram), or "none" (an enumeration, tried states)
    sample = "none"

    @classmethod
    def prepare(cls, params: dict) -> dict:
        """The run's parameters with the strategy's defaults filled in, before it is stored."""
        return {**params, "chunk_size": params.get("chunk_size") or cls.default_chunk}

    @classmethod
    def with_random_kernel(cls, params: dict, chunk_size) -> dict:
        """``params`` with the random kernel chosen and stored as ``engine`` (see
        ``engine.kernels``), and the chunk size ``chunk_size(kernel)`` unless one is given."""
        game = games.of(params)
        deck = game.deck(params["deck"])
        engine = params.get("engine") or choose(deck, int(params["players"]), RANDOM,
                                                game.kernel).name
        with_engine = {**params, "engine": engine}
        chunk = params.get("chunk_size") or chunk_size(random_kernel(with_engine, deck,
                                                                     game.kernel))
        return {**with_engine, "chunk_size": chunk}

    def __init__(self, params: dict):
        self.params = params
        self.game = games.of(params)  # the run's game (``games.Game``), its rules bound
        self.deck = self.game.deck(params["deck"])
        self.players = int(params["players"])
        self.chunk_size = int(params["chunk_size"])
        self.top_k = int(params["top_k"])
        self.max_tricks = int(params.get("max_tricks") or 0)
        self.engine = Engine.for_run(params, self.game)

    def progress(self, store, run) -> str | None:
        """The progress bar's line after a chunk of ``run`` is stored in ``store``: the
        longest game so far and the loops met; None leaves the line as it was."""
        best = store.games(run.id, "longest", limit=1)
        return f"best {best[0]['cards'] if best else '-'} cards, {plural(run.loops, 'loop')}"

    @classmethod
    def summary_figures(cls, store, run_id: int) -> dict:
        """What the strategy adds to a run's summary (``driver.summarise``): nothing."""
        return {}

    def attach(self, store, run) -> None:
        """Let ``plan`` read what the run has stored (a strategy whose plan grows on it)."""

    @property
    def total(self) -> int | None:
        """Deals the whole run plays; None when it runs until stopped."""
        return self.params.get("deals")

    def plan(self, done: set[int]) -> Iterator[ChunkJob]:
        """Chunks still to play, in order.

        A strategy whose later chunks depend on earlier ones yields ``PENDING`` until
        those are stored; the driver then asks again once a chunk in flight is stored.
        """
        total = self.total
        chunks = count() if total is None else range(-(-total // self.chunk_size))
        for chunk in chunks:
            if chunk not in done:
                yield ChunkJob(self.name, chunk, self.chunk_deals(chunk), self.params)

    def chunk_deals(self, chunk: int) -> int:
        """The deals (or tries) chunk number ``chunk`` is planned to play."""
        if self.total is None:
            return self.chunk_size
        return min(self.chunk_size, self.total - chunk * self.chunk_size)

    def number(self, chunk: int, position: int) -> int:
        """The deal's number in the run: its index for an enumeration."""
        return chunk * self.chunk_size + position

    @property
    def board_size(self) -> int:
        """Leaderboard places a chunk's recorder keeps while it plays (``top_k`` are stored)."""
        return self.top_k

    def play(self, job: ChunkJob, recorder: Recorder) -> Recorder:
        """Play the chunk's games into ``recorder``; returns it."""
        raise NotImplementedError

    def sample_histogram(self, job: ChunkJob):
        """The lengths of the chunk's random sample when it is only part of its games
        (``sample`` "random": an int64 histogram that ``play`` kept), else None."""
        return None

    def record(self, job: ChunkJob, summary: ChunkSummary) -> ChunkRecord:
        """A finished chunk as the plain records the store keeps (deals numbered in the run)."""
        return ChunkRecord.from_summary(job.chunk, summary, self.deck.split(self.players),
                                        lambda position: self.number(job.chunk, position),
                                        self.game.notation)

    def run_chunk(self, job: ChunkJob, families: bool = True) -> ChunkSummary:
        """Play a chunk (``play``) and summarise what it recorded, with the seconds it took and
        (unless ``families`` is False: a warm-up leaving them to ``warm_beside``) the merge
        family of each game it keeps on the leaderboard."""
        started = time.perf_counter()
        recorder = self.play(job, new_recorder(self.board_size, self.deck.size))
        summary = ChunkSummary.from_recorder(recorder, self.players, top_k=self.top_k)
        summary.sample_histogram = self.sample_histogram(job)
        if families:
            summary.top_families = self.game.families(summary.top_deals, summary.top_rows,
                                                      self.deck.split(self.players))
        summary.seconds = time.perf_counter() - started
        return summary

    def warm_up(self, beside: bool = False) -> None:
        """Compile the chunk's kernels by playing chunk 0 with one deal; ``beside``: all but
        those ``warm_beside`` compiles (a worker does, meanwhile)."""
        self.run_chunk(ChunkJob(self.name, 0, 1, self.params), families=not beside)

    def warm_beside(self) -> None:
        """Compile what ``warm_up(beside=True)`` leaves out, on one sample deal: the merge
        family kernel of the leaderboard's games (a third of a sweep's compile).  A worker
        process compiles it while the parent compiles the rest, on a second core.  Nothing for
        a search of cycles (``of_cycles``: no games kept, so no families)."""
        if self.of_cycles:
            return
        from ..engine.rules import R_TRICKS, RESULT_LEN

        sequences = self.deck.sorted_cards()[None, :]  # uint8, as a chunk's deals
        rows = np.zeros((1, RESULT_LEN), dtype=np.int64)
        rows[:, R_TRICKS] = 1  # the deal itself is its last state: nothing to play
        self.game.families(sequences, rows, self.deck.split(self.players))
