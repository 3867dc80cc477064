"""Where deals come from.  A strategy plans a run as numbered chunks of work.

Each chunk is a ``ChunkJob`` that any worker (a local process or a Dask worker)
turns into a ``ChunkSummary`` with ``execute``; the chunk's content depends on
the run's parameters and the chunk number only, never on which worker runs it.
"""

from __future__ import annotations

import time
from importlib import import_module
from typing import TYPE_CHECKING

from .. import compiling

if TYPE_CHECKING:
    from .base import ChunkJob, Strategy

# The strategies and what they stand on (the engine, Numba: 1-2 s) load at first use of
# these names: reading a results file (``units``) and --help need none of it.
_LAZY = {"PENDING": ".base", "ChunkJob": ".base", "Strategy": ".base",
         "RandomStrategy": ".sweep", "EnumerateStrategy": ".sweep",
         "ClimbStrategy": ".climb", "HuntStrategy": ".hunt", "FactoryStrategy": ".factory"}
# ``STRATEGIES``: each class by its run name, in this order; a run of one strategy loads
# only that one's module (a worker of a random search imports no factory, hunt or climb)
_BY_NAME = {"random": "RandomStrategy", "enumerate": "EnumerateStrategy",
            "climb": "ClimbStrategy", "hunt": "HuntStrategy", "factory": "FactoryStrategy"}


_CLASSES: dict[str, type[Strategy]] = {}  # those loaded so far (``STRATEGIES``, once whole)


def class_of(name: str) -> type[Strategy]:
    """The class of the strategy named ``name`` (a ``KeyError`` for a name this version does
    not know), its module imported: only that strategy's."""
    if name not in _CLASSES:
        class_name = _BY_NAME[name]
        _CLASSES[name] = getattr(import_module(_LAZY[class_name], __name__), class_name)
    return _CLASSES[name]


def _strategies() -> dict[str, type[Strategy]]:
    """Every strategy's class, loaded, in ``_BY_NAME``'s order (then any added to it)."""
    if any(name not in _CLASSES for name in _BY_NAME):
        loaded = {name: class_of(name) for name in _BY_NAME}
        others = {name: kind for name, kind in _CLASSES.items() if name not in loaded}
        _CLASSES.clear()
        _CLASSES.update({**loaded, **others})
    return _CLASSES


def __getattr__(name: str):
    if name == "STRATEGIES":
        return _strategies()
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def strategy_for(name: str, params: dict) -> Strategy:
    """The strategy named ``name`` (``random``, ``enumerate``, ``climb``, ``hunt``, ``factory``) for
    a run with ``params``."""
    return class_of(name)(params)


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


def warm_up(name: str, params: dict, whole: bool = False, beside: bool = False) -> None:
    """Compile (or load from cache) the kernels the strategy uses, before any timing;
    ``whole``: also those it uses only now and then (a long game's replay by the general
    engine: ``beggar-search compile``, for an image whose cache is read-only); ``beside``:
    all but those ``warm_beside`` compiles."""
    strategy = strategy_for(name, params)
    strategy.warm_up(beside=beside)
    engine = getattr(strategy, "engine", None)
    if whole and engine is not None:
        engine.warm_long()


def prepare(name: str, params: dict) -> None:
    """What a worker can do before the kernels are compiled: the strategy's modules imported
    and Numba set up (``jit.set_up``), compiling nothing; its warm-up then only loads."""
    from ..jit import set_up

    strategy_for(name, params)
    set_up()


def warm_beside(name: str, params: dict) -> None:
    """Compile (or load) the kernels that ``warm_up(..., beside=True)`` leaves out: what a
    worker compiles while the parent compiles the rest (``Strategy.warm_beside``)."""
    strategy_for(name, params).warm_beside()


__all__ = ["PENDING", "STRATEGIES", "ChunkJob", "Strategy", "class_of", "execute", "prepare",
           "strategy_for", "warm_beside", "warm_up"]
