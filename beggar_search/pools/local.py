"""Two pools that keep ``protocol.Pool`` on this machine: ``LocalPool``, worker processes
(spawn) that die with the parent, and ``InlinePool``, chunks in the calling process."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    InvalidStateError,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import compiling
from ..errors import UserError
from ..strategies import execute, prepare, warm_beside, warm_up
from .processes import STOP_SIGNALS, quiet_resource_tracker, terminal_signals_ignored

if TYPE_CHECKING:
    from ..strategies import ChunkJob

DEATH_UNNOTICED = 2.0  # seconds a dead worker may go unnoticed by the executor (see wait)
PR_SET_PDEATHSIG = 1  # Linux prctl: a signal the kernel sends us when our parent dies


def die_with(parent: int) -> None:
    """Exit as soon as process ``parent`` is gone, even in the middle of a kernel.

    On Linux the kernel itself kills us (``PR_SET_PDEATHSIG``); elsewhere a thread polls,
    which works whenever a kernel releases the interpreter between chunks.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        armed = False
    if os.getppid() != parent:  # the parent died before we could ask
        os._exit(1)
    if not armed:
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1.0)
            os._exit(1)

        threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def serve(parent: int) -> None:
    """The start of a process that works for ``parent``: the stop signals are left to it
    (``STOP_SIGNALS`` ignored: the parent decides how to stop), and this process exits as
    soon as it is gone (``die_with``)."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    die_with(parent)


def _worker_init(name: str, params: dict, parent: int, compiled, ready, beside) -> None:
    serve(parent)
    if beside.claim.acquire(block=False):  # the first worker in compiles, beside the parent,
        compile_beside(name, params, beside)  # what the parent's warm-up leaves out
    else:  # the others import and set up Numba meanwhile: loading the kernels then is quick
        prepare(name, params)
    compiled.wait()  # the parent has compiled and cached the kernels: only load them
    beside.done.wait()
    warm_up(name, params)
    ready.release()  # this worker's kernels are loaded: the parent may start the clock


class Beside(NamedTuple):
    """What a worker compiles beside the parent's warm-up: who does (``claim``), when it is
    done, and what it compiled (``figures``: kernels, and when it ended on the monotonic
    clock, which processes share)."""

    claim: Any
    done: Any
    figures: Any


def compile_beside(name: str, params: dict, beside: Beside) -> None:
    """A worker's head start on a cold cache: compile what the parent's warm-up leaves out
    (``warm_beside``), say what it compiled and when it ended in ``beside.figures``, and set
    ``beside.done`` however it ends."""
    watch = compiling.listen()
    watch.quiet = True  # the parent's notice says it
    before = watch.done
    try:
        warm_beside(name, params)
    except Exception:  # a head start only: each worker's own warm-up compiles (or loads)
        pass           # what is missing, and fails there, as before, if it cannot
    finally:
        beside.figures[0], beside.figures[1] = watch.done - before, time.monotonic()
        beside.done.set()


def _started() -> int:
    """What ``LocalPool`` submits to start a worker: nothing (the worker's process id)."""
    return os.getpid()


class LocalPool:
    """A ``protocol.Pool`` of worker processes on this machine (spawn), started and warmed up
    before the run's clock starts, as the parent's compile is: the run's time counts only
    its chunks.

    A worker's start (an interpreter, the imports, its kernels loaded from the cache) takes
    about 0.8 s of a core; counted in the run's time it cost a quarter of the rate of a
    one-worker run of 8 M deals (``benchmarks/bench_search_overhead.py``).  The workers
    start their interpreters, import the strategy's modules and set Numba up
    (``strategies.prepare``) while the parent compiles (or loads) the kernels, and load them
    from the cache once it has (a tenth of a second).  On a cold cache the first worker in compiles
    meanwhile what the parent's warm-up leaves out (``Strategy.warm_beside``: a sweep's
    merge-family kernel, a third of its compile): a second core shortens the first run
    (``benchmarks/bench_first_compile.py``).
    """

    def __init__(self, workers: int, name: str, params: dict):
        self.workers = workers
        self.death_seen = None  # when wait first found a worker dead
        quiet_resource_tracker()
        context = multiprocessing.get_context("spawn")
        compiled, ready = context.Event(), context.Semaphore(0)
        beside = Beside(context.Lock(), context.Event(), context.Array("d", 2))
        self.executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_worker_init,
            initargs=(name, params, os.getpid(), compiled, ready, beside))
        try:
            # each submit while no worker is idle spawns one: all of them start now, deaf to
            # a Ctrl-C or hang-up of the terminal from the start (the compile below may be
            # interrupted while they import)
            with terminal_signals_ignored():
                starts = [self.executor.submit(_started) for _ in range(workers)]
            # compile and cache once here (in a thread: Ctrl-C is answered at once), so that
            # workers only load the cache
            compiling.warm(self._warm, name, params, compiled, beside, ready, starts)
        except BaseException:
            self.close()
            raise

    def _warm(self, name: str, params: dict, compiled, beside: Beside, ready,
              starts: list[Future]) -> None:
        """Compile (or load) the kernels but those a worker compiles beside, let the workers
        load them, and wait until they have; the worker's compile counts as the command's."""
        warm_up(name, params, beside=True)
        own_done = time.monotonic()
        compiled.set()
        self._wait_ready(ready, starts)
        kernels, ended = beside.figures
        if kernels:  # a cold cache: the wait for the worker past our own compile counts too
            compiling.WATCH.add_beside(int(kernels), max(ended - own_done, 0.0))

    def _wait_ready(self, ready, starts: list[Future]) -> None:
        """Wait until every worker has loaded its kernels; a ``UserError`` when one died."""
        for _ in range(self.workers):
            while not ready.acquire(timeout=0.1):
                failed = next((f for f in starts if f.done() and f.exception()), None)
                if failed is not None or self._a_worker_died():
                    raise UserError("a worker process died while it started"
                                    f" ({failed.exception() if failed else 'killed'})")

    def submit(self, job: ChunkJob) -> Future:
        """Start ``job`` on a worker; a pool broken by a dead worker gives a failed future."""
        try:
            return self.executor.submit(execute, job)
        except BrokenProcessPool as error:  # a worker died since the last wait
            future = Future()
            future.set_exception(error)
            return future

    def wait(self, futures: set, timeout: float) -> tuple[set, set]:
        """The futures finished within ``timeout``, and those pending; the pending ones fail
        when a worker died and the executor has not noticed."""
        finished, pending = wait(futures, timeout=timeout, return_when=FIRST_COMPLETED)
        if finished or not self._a_worker_died():
            return finished, pending
        # A worker killed while it wrote a result leaves half a message in the result pipe;
        # the executor's thread then waits for the rest and never marks the pool broken, so
        # the chunks in flight would never end.  When it has not noticed the death for a
        # while (it does within milliseconds otherwise), end them here.
        self.death_seen = self.death_seen or time.monotonic()
        if time.monotonic() - self.death_seen < DEATH_UNNOTICED or self.executor._broken:
            return finished, pending
        for future in pending:
            try:
                future.set_exception(BrokenProcessPool("a worker process died"))
            except InvalidStateError:  # the executor got there after all
                pass
        # its thread, woken when close() ends the pipe, would fail them a second time
        self.executor._pending_work_items.clear()
        return set(futures), set()

    def _a_worker_died(self) -> bool:
        processes = list((self.executor._processes or {}).values())  # no public way
        return any(process.exitcode is not None for process in processes)

    def close(self) -> None:
        """Stop the workers at once; chunks still running or waiting are dropped."""
        processes = list(self.executor._processes.values())  # no public way to stop them
        results = self.executor._result_queue
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()  # they ignore SIGTERM
        for process in processes:
            process.join(timeout=5)
        # A worker killed while it wrote a result leaves half a message in the result pipe,
        # and the executor's thread would wait for the rest forever (and the interpreter for
        # that thread at exit): closing our writing end lets that read end in EOF instead.
        results._writer.close()


class InlinePool:
    """A ``protocol.Pool`` of one worker: chunks run in this process, one at a time, when
    waited for."""

    def __init__(self, workers: int, name: str, params: dict):
        self.workers = 1
        self.queue = []
        compiling.warm(warm_up, name, params)

    def submit(self, job: ChunkJob) -> Future:
        """Queue ``job``; it runs when waited for."""
        future = Future()
        self.queue.append((future, job))
        return future

    def wait(self, futures: set, timeout: float) -> tuple[set, set]:
        """Run the oldest queued job here: its future (with its result or error) and the rest."""
        future, job = self.queue.pop(0)
        try:
            future.set_result(execute(job))
        except Exception as error:  # reported by the driver, as a worker's would be
            future.set_exception(error)
        return {future}, set(futures) - {future}

    def close(self) -> None:
        """Nothing to close: the pool has no processes."""
        pass


