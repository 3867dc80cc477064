"""Where deals come from.  A strategy plans a run as numbered chunks of work.

Each chunk is a ``ChunkJob`` that any worker (a local process or a Dask worker)
turns into a ``ChunkSummary`` with ``execute``; the chunk's content depends on
the run's parameters and the chunk number only, never on which worker runs it.
"""

from __future__ import annotations

import time

from .. import compiling
from .base import PENDING, ChunkJob, Strategy
from .climb import ClimbStrategy
from .factory import FactoryStrategy
from .hunt import HuntStrategy
from .sweep import EnumerateStrategy, RandomStrategy

STRATEGIES: dict[str, type[Strategy]] = {
    RandomStrategy.name: RandomStrategy,
    EnumerateStrategy.name: EnumerateStrategy,
    ClimbStrategy.name: ClimbStrategy,
    HuntStrategy.name: HuntStrategy,
    FactoryStrategy.name: FactoryStrategy,
}


def strategy_for(name: str, params: dict) -> Strategy:
    """The strategy named ``name`` (``random``, ``enumerate``, ``climb``, ``hunt``, ``factory``) for
    a run with ``params``."""
    return STRATEGIES[name](params)


def execute(job: ChunkJob):
    """Worker entry point: run one chunk; the seconds its kernels compiled (a kernel the
    warm-up did not reach, or lost in a cold-cache race) are in ``compile_seconds``, not in
    its ``seconds``; the CPU seconds its thread got in ``cpu_seconds``."""
    if not compiling.listening():
        compiling.WATCH.quiet = True  # a worker process: the command said it
    cpu = time.thread_time()
    summary, compiled = compiling.compiling_in(
        strategy_for(job.strategy, job.params).run_chunk, job)
    summary.compile_seconds = compiled
    summary.seconds = max(float(summary.seconds) - compiled, 0.0)
    # the CPU the chunk's thread got: below its seconds when other jobs share the machine
    summary.cpu_seconds = max(time.thread_time() - cpu - compiled, 0.0)
    return summary


def warm_up(name: str, params: dict, whole: bool = False) -> None:
    """Compile (or load from cache) the kernels the strategy uses, before any timing;
    ``whole``: also those it uses only now and then (a long game's replay by the general
    engine: ``beggar-search compile``, for an image whose cache is read-only)."""
    strategy = strategy_for(name, params)
    strategy.warm_up()
    engine = getattr(strategy, "engine", None)
    if whole and engine is not None:
        engine.warm_long()


__all__ = ["PENDING", "STRATEGIES", "ChunkJob", "Strategy", "execute", "strategy_for", "warm_up"]
