"""What the driver plays a run's chunks on: the ``Pool`` protocol, in one place.

A pool runs ``ChunkJob``s (``strategies.execute``) somewhere and hands back their
``ChunkSummary``s; the driver (``driver.Session``) keeps ``2 * workers`` chunks in flight,
stores each as it finishes and decides when to stop.  Three pools keep the protocol:

- ``pools.local.InlinePool``: one chunk at a time in the calling process (library callers, tests);
- ``pools.local.LocalPool``: worker processes on this machine (the command line's default);
- ``pools.dask.DaskPool``: tasks on a Dask cluster (``--scheduler``, ``--cluster``).

A pool is made by a ``PoolFactory``, ``(workers, strategy name, params) -> Pool``, before
the run's clock starts: it compiles (or loads) the strategy's kernels and starts its
workers then, so that the run's time counts only its chunks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .strategies.base import ChunkJob


class ChunkFuture(Protocol):
    """A chunk submitted to a pool (``concurrent.futures.Future``, or Dask's ``Future``)."""

    def done(self) -> bool:
        """Whether the chunk has finished or failed."""

    def result(self, timeout: float | None = None) -> Any:
        """The chunk's ``ChunkSummary``; its exception when it failed.

        ``BrokenProcessPool`` says a worker process died (after a stop signal that hit the
        workers too, the driver drops the chunks in flight; otherwise the chunk failed).
        """


class Pool(Protocol):
    """Where a run's chunks are played.

    ``workers``: how many chunks the pool plays at once (the driver keeps twice as many in
    flight); a cluster's may change while the run goes on, so it is read at each submit.

    ``wait`` may raise ``errors.PoolLost`` when no chunk in flight can ever finish (the
    machines are gone: a Dask scheduler that died); the run then stops, and the driver says
    how to resume it.  A failed chunk is no ``PoolLost``: its future holds the error.
    """

    workers: int

    def submit(self, job: ChunkJob) -> ChunkFuture:
        """Start (or queue) ``job``; never raises for a broken pool: the future fails."""

    def wait(self, futures: set, timeout: float) -> tuple[set, set]:
        """``(finished, pending)`` among ``futures``: those finished (or failed), waiting up to
        ``timeout`` seconds for the first, and the rest."""

    def close(self) -> None:
        """Stop the pool at once: chunks still running or waiting are dropped."""


class PoolFactory(Protocol):
    """Makes a run's pool: compiles the kernels and starts the workers (not timed)."""

    def __call__(self, workers: int, name: str, params: dict) -> Pool:
        """A pool of ``workers`` for a run of strategy ``name`` with ``params``."""
