"""Sweeps: uniformly random deals, and every deal of a deck in index order."""

from __future__ import annotations

from ..cards.deck import unrank_sequence
from ..engine.batch import Recorder
from ..engine.random import chunk_stream
from .base import ChunkJob, Strategy


class RandomStrategy(Strategy):
    """Uniformly random deals; chunk c draws from stream (seed, c).

    The engine plays them with the fastest kernel that applies (``engine.kernels``); that
    kernel is part of the run's parameters (``engine``), since kernels may draw their
    deals differently.
    """

    name = "random"
    sample = "all"  # every game is a uniformly random deal

    @classmethod
    def prepare(cls, params: dict) -> dict:
        """The run's parameters with the random kernel and its chunk size filled in."""
        return cls.with_random_kernel(params, lambda kernel: kernel.chunk_size or cls.default_chunk)

    def play(self, job: ChunkJob, recorder: Recorder) -> Recorder:
        """Play the chunk's random deals, drawn from stream (seed, chunk); returns ``recorder``."""
        stream = chunk_stream(self.params["seed"], job.chunk)
        return self.engine.random_chunk(stream, job.deals, recorder)


class EnumerateStrategy(Strategy):
    """Deals ``start`` to ``start + deals - 1`` in index order (see ``deck``'s ranking)."""

    name = "enumerate"
    number_label = "deal index"  # a game's number is its deal's index (``deal --index``)

    def number(self, chunk: int, position: int) -> int:
        """The deal's index in the deck's order: ``start`` plus its number in the run."""
        return int(self.params["start"]) + super().number(chunk, position)

    def play(self, job: ChunkJob, recorder: Recorder) -> Recorder:
        """Play the chunk's deals in index order, from its first deal's index; returns
        ``recorder``."""
        first = unrank_sequence(self.number(job.chunk, 0), self.deck)
        return self.engine.enumerate_chunk(first, job.deals, recorder)
