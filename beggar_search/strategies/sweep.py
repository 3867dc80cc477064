"""Sweeps: uniformly random deals, and every deal of a deck in index order."""

from __future__ import annotations

import time

import numpy as np

from ..deck import unrank_sequence
from ..engine import batch
from ..engine.batch import ChunkSummary
from ..engine.random import chunk_stream
from .base import ChunkJob, Strategy


class RandomStrategy(Strategy):
    """Uniformly random deals; chunk c draws from stream (seed, c)."""

    name = "random"

    def run_chunk(self, job: ChunkJob) -> ChunkSummary:
        start = time.perf_counter()
        recorder = batch.new_recorder(self.top_k, self.deck.size)
        stream = chunk_stream(self.params["seed"], job.chunk)
        recorder = batch.random_chunk(
            stream, job.deals, self.deck.sorted_cards(),
            np.array(self.deck.split(self.players), dtype=np.int64), self.max_tricks, recorder)
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
