"""Sweeps: uniformly random deals, and every deal of a deck in index order."""

from __future__ import annotations

import time

import numpy as np

from ..deck import STANDARD, Deck, unrank_sequence
from ..engine import batch, fast2
from ..engine.batch import ChunkSummary
from ..engine.random import chunk_stream
from .base import ChunkJob, Strategy

FAST_CHUNK = 1 << 21  # about a second of the fast kernel


def fits_fast_kernel(params: dict) -> bool:
    """Whether a run's deals are the fast kernel's: the standard deck between 2 players."""
    return Deck.parse(params["deck"]) == STANDARD and int(params["players"]) == 2


class RandomStrategy(Strategy):
    """Uniformly random deals; chunk c draws from stream (seed, c).

    The standard deck between 2 players uses the fast kernel (``engine/fast2.py``), any
    other deck or player count the general one; the engine is part of the run's
    parameters, since the two draw their deals differently.
    """

    name = "random"

    @classmethod
    def prepare(cls, params: dict) -> dict:
        engine = params.get("engine") or ("fast2" if fits_fast_kernel(params) else "general")
        chunk = params.get("chunk_size") or (FAST_CHUNK if engine == "fast2" else cls.default_chunk)
        return {**params, "engine": engine, "chunk_size": chunk}

    def run_chunk(self, job: ChunkJob) -> ChunkSummary:
        start = time.perf_counter()
        recorder = batch.new_recorder(self.top_k, self.deck.size)
        stream = chunk_stream(self.params["seed"], job.chunk)
        if self.params.get("engine") == "fast2":
            recorder = fast2.random_chunk(stream, job.deals, self.max_tricks, recorder)
        else:
            recorder = batch.random_chunk(
                stream, job.deals, self.deck.sorted_cards(),
                np.array(self.deck.split(self.players), dtype=np.int64), self.max_tricks,
                recorder)
        return ChunkSummary.from_recorder(recorder, self.players, time.perf_counter() - start)


class EnumerateStrategy(Strategy):
    """Deals ``start`` to ``start + deals - 1`` in index order (see ``deck``'s ranking)."""

    name = "enumerate"

    def number(self, chunk: int, position: int) -> int:
        return int(self.params["start"]) + super().number(chunk, position)

    def run_chunk(self, job: ChunkJob) -> ChunkSummary:
        start = time.perf_counter()
        recorder = batch.new_recorder(self.top_k, self.deck.size)
        first = unrank_sequence(self.number(job.chunk, 0), self.deck)
        recorder = batch.enumerate_chunk(
            first, job.deals, np.array(self.deck.split(self.players), dtype=np.int64),
            self.max_tricks, recorder)
        return ChunkSummary.from_recorder(recorder, self.players, time.perf_counter() - start)
