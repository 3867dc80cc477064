"""Runs a search: plans chunks, hands them to workers, stores each as it finishes.

Only this (parent) process writes to the store, one transaction per chunk.  Workers
are local processes started with ``spawn`` (numba's threading layers are not
fork-safe); the command line always plays in worker processes, so the parent is never
inside a kernel and answers signals at once (``InlinePool``, chunks in the calling
process, is for library callers and tests).

Stopping.  The first Ctrl-C, SIGTERM or SIGHUP (to the parent alone or to its whole
process group, as ``timeout``, systemd and job schedulers send SIGTERM and a shell whose
ssh session dropped sends SIGHUP: workers ignore all three) stops planning and lets the
chunks in flight finish and be stored, for ``STOP_GRACE`` seconds at most; a second
signal, or the end of the grace, drops them.  Messages to a terminal that has gone (the
dropped session) are lost, never an error.  ``--hours`` ends the run the same way at its
deadline.  Either way every stored chunk is whole, the run is marked stopped (or done,
when its time is up), and ``resume`` plays exactly the chunks that are missing.  Workers
die with the parent: a ``kill -9`` of the parent leaves no orphans (and multiprocessing's
resource tracker, which then unlinks the semaphores the parent left, does so without a
warning: ``quiet_resource_tracker``).  A results file that cannot be written (a full
disk) stops the run the same way, with one error line, and ``resume`` completes it once
the file can be written.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import shlex
import signal
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    InvalidStateError,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from tqdm import tqdm

from . import __version__, compiling
from .cards.params import game_of, slap_fields
from .errors import PoolLost, UserError
from .pools import Pool, PoolFactory
from .store import Run, Store, StoreError
from .strategies import (
    PENDING,
    STRATEGIES,
    ChunkJob,
    Strategy,
    execute,
    strategy_for,
    warm_up,
)
from .strategies.units import strategy_class
from .version import commit

DEATH_UNNOTICED = 2.0  # seconds a dead worker may go unnoticed by the executor (see wait)
CYCLE_LINES = 20  # "new cycle" lines a sitting prints; past them one line says so
CYCLE_LINE_WIDTH = 120  # a "new cycle" line past this leaves out its example (a factory's
# state runs to 200 characters and more: a wall of wrapped text in a terminal)
STOP_GRACE = 10.0  # seconds the chunks in flight get to finish after a stop or the deadline
PR_SET_PDEATHSIG = 1  # Linux prctl: a signal the kernel sends us when our parent dies
# the signals that stop a run gracefully: workers ignore them, the parent decides
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# tqdm's monitor is a thread per bar for bars updated rarely: ours are (per chunk), and a
# thread that cannot start (a memory limit) made it warn
tqdm.monitor_interval = 0
# what a terminal sends a whole process group (Ctrl-C, the hang-up of a dropped session)
TERMINAL_SIGNALS = (signal.SIGINT, signal.SIGHUP)


def quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (once) with its stderr on /dev/null.

    When the parent is killed (``kill -9``) the tracker unlinks the semaphores of the
    workers' queues that the parent could not, and then warned of "leaked semaphore
    objects" on the terminal, long after the kill: noise, as the cleaning is done.  It
    ignores a hang-up too (it ignores Ctrl-C and SIGTERM itself): one that killed it made
    the parent start another, which printed a traceback for each semaphore it was told of.
    """
    from multiprocessing import resource_tracker

    sys.stderr.flush()
    saved = os.dup(2)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
        with terminal_signals_ignored():
            resource_tracker.ensure_running()  # keeps the fd 2 and the ignoring it starts with
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@contextlib.contextmanager
def terminal_signals_ignored():
    """Keep Ctrl-C and SIGHUP from the processes started in the block, and hold the parent's.

    The main thread blocks them for the block: processes (and threads) started in it inherit
    the blocked mask, which survives exec, so a signal to the whole group leaves them to the
    parent.  The parent's own signal waits: it is recorded (or pending) and acted on by the
    handler in place before once the block ends, never dropped (an ignored one was: a Ctrl-C
    while a local cluster started was lost and the search ran on).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    heard = []
    saved = {sig: signal.signal(sig, lambda signum, frame: heard.append(signum))
             for sig in TERMINAL_SIGNALS}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, TERMINAL_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # one pending is heard here
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        for signum in dict.fromkeys(heard):
            signal.raise_signal(signum)  # to the handler in place before


class TerminalGone:
    """stderr for progress and messages: a write to a terminal that has hung up (a
    dropped ssh session: EIO) is dropped instead of ending the run."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text``; a terminal that has hung up takes it silently."""
        try:
            return self.stream.write(text)
        except OSError:
            return len(text)

    def flush(self) -> None:
        """Flush the stream; a terminal that has hung up is ignored."""
        try:
            self.stream.flush()
        except OSError:
            pass

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


def working_folder() -> str:
    """The working folder; a ``UserError`` saying so when it has been deleted (worker
    processes start in it, and a relative results file lives there)."""
    try:
        return os.getcwd()
    except FileNotFoundError:
        try:
            where = os.readlink("/proc/self/cwd").removesuffix(" (deleted)")
        except OSError:
            where = os.environ.get("PWD", "the working folder")
        raise UserError(f"the working folder {where} no longer exists (deleted?): cd to a"
                        " folder that exists and run the command again") from None


def _die_with(parent: int) -> None:
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


def _worker_init(name: str, params: dict, parent: int, compiled, ready) -> None:
    for sig in STOP_SIGNALS:  # the parent decides how to stop
        signal.signal(sig, signal.SIG_IGN)
    _die_with(parent)
    compiled.wait()  # the parent has compiled and cached the kernels: only load them
    warm_up(name, params)
    ready.release()  # this worker's kernels are loaded: the parent may start the clock


def _started() -> int:
    """What ``LocalPool`` submits to start a worker: nothing (the worker's process id)."""
    return os.getpid()


class LocalPool:
    """A ``pools.Pool`` of worker processes on this machine (spawn), started and warmed up
    before the run's clock starts, as the parent's compile is: the run's time counts only
    its chunks.

    A worker's start (an interpreter, the imports, its kernels loaded from the cache) takes
    about 0.8 s of a core; counted in the run's time it cost a quarter of the rate of a
    one-worker run of 8 M deals (``benchmarks/bench_search_overhead.py``).  The workers
    start their interpreters and imports while the parent compiles (or loads) the kernels,
    and load them from the cache once it has.
    """

    def __init__(self, workers: int, name: str, params: dict):
        self.workers = workers
        self.death_seen = None  # when wait first found a worker dead
        quiet_resource_tracker()
        context = multiprocessing.get_context("spawn")
        compiled, ready = context.Event(), context.Semaphore(0)
        self.executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=context,
            initializer=_worker_init, initargs=(name, params, os.getpid(), compiled, ready))
        try:
            # each submit while no worker is idle spawns one: all of them start now, deaf to
            # a Ctrl-C or hang-up of the terminal from the start (the compile below may be
            # interrupted while they import)
            with terminal_signals_ignored():
                starts = [self.executor.submit(_started) for _ in range(workers)]
            # compile and cache once here (in a thread: Ctrl-C is answered at once), so that
            # workers only load the cache
            compiling.warm(warm_up, name, params)
            compiled.set()
            compiling.warm(self._wait_ready, ready, starts)
        except BaseException:
            self.close()
            raise

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
    """A ``pools.Pool`` of one worker: chunks run in this process, one at a time, when
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


def default_workers() -> int:
    """Number of CPU cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def make_pool(pool_factory: PoolFactory | None, workers: int, name: str, params: dict) -> Pool:
    """The pool a run plays on: ``pool_factory``'s, or local workers (inline for one)."""
    factory = pool_factory or (InlinePool if workers == 1 else LocalPool)
    return factory(workers, name, params)


def cycle_line(cycle) -> str:
    """The line that says a new cycle was met: its id and period, and its example deal or
    state when the line stays within ``CYCLE_LINE_WIDTH`` (else where to read it)."""
    line = (f"new cycle {cycle.cycle}: period {cycle.period_tricks} tricks /"
            f" {cycle.period_cards} cards")
    if len(line) + 2 + len(cycle.example) <= CYCLE_LINE_WIDTH:
        return f"{line}  {cycle.example}"
    return f"{line} (its state: `export --what cycles`)"


@dataclass
class Sitting:
    """A sitting's stop and deadline bookkeeping, and how its loop ended.

    Ctrl-C, SIGTERM and SIGHUP only ask (the handlers append them to ``stops``): the loop
    decides.  The first stops the planning and gives the chunks in flight their grace; a
    second, or the end of the grace, drops them.  ``--hours`` stops the planning at the
    deadline the same way.
    """

    deadline: float | None = None  # when --hours ends the sitting (time.monotonic); None: never
    stops: list = field(default_factory=list)  # the stop signals heard
    interrupted: bool = False  # a stop signal was heard (and said)
    stopping_since: float | None = None  # when the planning stopped: a stop, or the deadline
    chunk_time: float = 0.0  # the longest a chunk has taken in this sitting (seconds; 0: none)
    exhausted: bool = False  # the plan has no chunk left
    dropped: bool = False  # the chunks in flight were dropped
    out_of_plan: bool = False  # the chunks left were held back: they could not finish in time
    failure: str | None = None  # why the sitting failed (a chunk, the results file, the pool)

    @property
    def stop_signal(self) -> str | None:
        """The name of the first stop signal heard (``SIGINT``...), None when none came."""
        return signal.Signals(self.stops[0]).name if self.stops else None

    @property
    def dropping(self) -> bool:
        """Whether a second stop signal came: the chunks in flight are dropped at once (and a
        wait for the results file's lock given up)."""
        return len(self.stops) >= 2

    def note_stopping(self, now: float) -> None:
        """Stop the planning at a stop signal or at the deadline (from ``now`` on)."""
        if self.stopping_since is None and (
                self.interrupted or (self.deadline is not None and now >= self.deadline)):
            self.stopping_since = now

    def grace(self) -> float:
        """The seconds the chunks in flight get once the planning stopped: ``STOP_GRACE``
        after a stop signal; at the deadline the time a chunk has taken (a climb's chunk
        takes tens of seconds), ``STOP_GRACE`` at least."""
        return STOP_GRACE if self.interrupted else max(STOP_GRACE, 1.5 * self.chunk_time)

    def out_of_grace(self, now: float) -> bool:
        """Whether the chunks in flight have had their grace (at ``now``)."""
        return self.stopping_since is not None and now - self.stopping_since > self.grace()

    def chunk_finished(self, seconds: float) -> None:
        """A chunk finished in ``seconds``: the longest of the sitting, kept > 0."""
        self.chunk_time = max(self.chunk_time, seconds, 1e-9)

    def out_of_time(self) -> bool:
        """Whether the sitting ended for its deadline: the time is up, or the chunks left
        could not finish by it."""
        return self.deadline is not None and (time.monotonic() >= self.deadline
                                              or self.out_of_plan)


@dataclass
class Session:
    """One sitting of a run: from start or resume to the end or a stop."""

    store: Store
    run: Run
    workers: int
    quiet: bool = False
    pool_factory: PoolFactory | None = None  # makes the pool (None: local workers)
    pool: Pool | None = None  # a pool already made (``start`` makes it before the run)
    cycles_said: int = 0  # new cycles met in this sitting (the first CYCLE_LINES are printed)

    def execute(self) -> dict:
        """Play and store the run's chunks until it is done, out of time or stopped; its summary
        (a chunk that fails or cannot be stored is a ``UserError``)."""
        strategy = strategy_for(self.run.strategy, self.run.params)
        jobs = self._plan(strategy)
        bar = self._open_bar(strategy)
        sitting = Sitting()
        handlers = self._hear_stops(sitting)
        try:
            pool = self._open_pool()
        except BaseException:
            self._restore(handlers)
            bar.close()
            raise
        self._start_clock(sitting, bar)
        try:
            self._play(strategy, jobs, pool, sitting, bar)
        except BaseException:  # no run left marked running by what went wrong here
            self._set_status(self.run.id, "stopped")
            raise
        finally:
            self._restore(handlers)
            pool.close()
            bar.close()
        self._end_status(sitting, bar)
        return {**summarise(self.store, self.run.id), "stop_signal": sitting.stop_signal}

    def _plan(self, strategy: Strategy) -> Iterator:
        """The chunks the run has not stored, as the strategy plans them (lazily)."""
        done = self.store.done_chunks(self.run.id)
        strategy.attach(self.store, self.run)
        return strategy.plan(done)

    def _open_bar(self, strategy: Strategy) -> tqdm:
        """The progress bar, shown on a terminal unless quiet.

        It counts what the run stores, as the summary, its JSON and ``show`` do, in the
        strategy's unit (deals, tries, games); its total is the plan's only where the run's
        deals end at it (a climb also plays the extension's games).
        """
        show = not self.quiet and sys.stderr.isatty()
        bar = tqdm(total=strategy.total if strategy.ends_at_plan else None,
                   initial=self.run.deals,
                   unit=" " + strategy.unit, unit_scale=True, dynamic_ncols=True,
                   disable=not show, file=TerminalGone(sys.stderr), smoothing=0.1)
        self._describe(strategy, bar)
        return bar

    @staticmethod
    def _hear_stops(sitting: Sitting) -> dict:
        """Make the stop signals ask (``sitting.stops``); the handlers they had, to restore."""
        return {sig: signal.signal(sig, lambda signum, frame: sitting.stops.append(signum))
                for sig in STOP_SIGNALS}

    @staticmethod
    def _restore(handlers: dict) -> None:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)

    def _open_pool(self) -> Pool:
        """The pool ``start`` made, or a new one (it compiles the kernels: not timed)."""
        return self.pool or make_pool(self.pool_factory, self.workers, self.run.strategy,
                                      self.run.params)

    def _start_clock(self, sitting: Sitting, bar) -> None:
        """Start the sitting's time (and its ``--hours`` deadline); a wait for the results
        file's lock is said on the bar and given up at a second stop signal."""
        self.store.on_wait = lambda text: self._message(bar, text, always=True)
        self.store.stop_waiting = lambda: sitting.dropping
        self.elapsed_before = self.run.elapsed
        self.started = time.monotonic()
        hours = self.run.params.get("hours")
        sitting.deadline = (None if hours is None else
                            self.started + hours * 3600 - self.run.elapsed)

    def _play(self, strategy: Strategy, jobs, pool: Pool, sitting: Sitting, bar) -> None:
        """The run loop: keep the pool busy with the plan's chunks and store each as it
        finishes, until the plan is done, a stop, the deadline or a failure ends it."""
        in_flight: dict = {}  # each chunk in flight's job, by its future
        while True:
            if not self._file_in_place(sitting):
                return
            now = time.monotonic()
            self._note_stops(sitting, bar, len(in_flight), now)
            if in_flight and (sitting.dropping or sitting.out_of_grace(now)):
                self._drop(sitting, bar, len(in_flight))
                return
            held = False  # a chunk not started: it could not finish by the deadline
            if sitting.stopping_since is None:
                ended, held = submit(pool, jobs, in_flight,
                                     chunks_left(sitting.deadline, now, sitting.chunk_time))
                sitting.exhausted = sitting.exhausted or ended
            if not in_flight:
                sitting.out_of_plan = held  # the rest could not finish by the deadline: done
                return
            finished, sitting.failure = self._finished(pool, in_flight)  # failure: ends below
            self._take_finished(strategy, finished, in_flight, sitting, bar)
            if sitting.failure or (sitting.dropped and sitting.stops):
                return

    def _file_in_place(self, sitting: Sitting) -> bool:
        """Whether the results file is still there: one moved or deleted under us is caught
        at once, not a chunk later (``sitting.failure`` says so)."""
        try:
            self.store.rescue_if_moved()
        except StoreError as error:
            sitting.failure = str(error)
            return False
        return True

    def _note_stops(self, sitting: Sitting, bar, in_flight: int, now: float) -> None:
        """Say the first stop signal (once), and stop the planning at a stop or the deadline."""
        if sitting.stops and not sitting.interrupted:
            sitting.interrupted = True
            self._message(bar, "stopping: finishing the chunks in flight"
                               f" ({in_flight}; Ctrl-C again to drop them)", always=True)
        sitting.note_stopping(now)

    def _drop(self, sitting: Sitting, bar, in_flight: int) -> None:
        """Drop the chunks in flight (a second stop signal, or their grace is over), saying so."""
        sitting.dropped = True
        why = ("" if sitting.dropping else
               f" (not finished {sitting.grace():.0f} s after the stop;"
               " a smaller --chunk-size stores more often)")
        self._message(bar, f"dropped the chunks in flight ({in_flight}){why}", always=True)

    @staticmethod
    def _finished(pool: Pool, in_flight: dict) -> tuple[set, str | None]:
        """The chunks finished within half a second; or none, and why none can finish (the
        pool lost its machines: a Dask scheduler that died)."""
        try:
            return pool.wait(set(in_flight), timeout=0.5)[0], None
        except PoolLost as error:
            return set(), str(error)

    def _take_finished(self, strategy: Strategy, finished: set, in_flight: dict,
                       sitting: Sitting, bar) -> None:
        """Store the ``finished`` chunks (out of ``in_flight``), until one failed or cannot be
        stored (``sitting.failure``), or the stop signals killed the workers too
        (``sitting.dropped``)."""
        for future in finished:
            job = in_flight.pop(future)
            try:
                summary = future.result()
                sitting.chunk_finished(float(getattr(summary, "seconds", 0)))
            except BrokenProcessPool:
                if sitting.stops:  # the workers were hit by the stop signal too
                    sitting.dropped = True
                    return
                sitting.failure = f"chunk {job.chunk} failed (a worker process died)"
                return
            except Exception as error:  # a chunk failed
                sitting.failure = f"chunk {job.chunk} failed ({type(error).__name__}: {error})"
                return
            try:
                self.store.rescue_if_moved()
                self._store(strategy, job, summary, bar)
            except StoreError as error:  # the file deleted or replaced under us
                sitting.failure = str(error)
                return
            except sqlite3.Error as error:  # a full disk, a read-only file
                sitting.failure = f"cannot store chunk {job.chunk} in {self.store.path}: {error}"
                return

    def _end_status(self, sitting: Sitting, bar) -> None:
        """Mark the run done (its plan played, or its time up with a chunk stored) or stopped;
        a ``UserError`` saying how to continue when the sitting failed."""
        failure = sitting.failure
        complete = not failure and ((sitting.exhausted and not sitting.dropped)
                                    or (sitting.out_of_time() and not sitting.interrupted
                                        and self._something_stored(bar)))
        if not self._set_status(self.run.id, "done" if complete else "stopped"):
            # never a summary saying 'running' (exit 0) for a run that ended
            failure = (f"{failure} (the run could not even be marked stopped)" if failure else
                       f"the run's end could not be recorded in {self.store.path}: it still"
                       " reads running")
        if failure:
            # the file may have changed (``rescue_if_moved``): the advice names the store's
            raise UserError(f"{failure}; the chunks stored so far are kept: continue"
                            " with `beggar-search search resume --db"
                            f" {shlex.quote(str(self.store.path))} --run {self.run.id}`")

    def _something_stored(self, bar) -> bool:
        """Whether the run stored a chunk: one out of time before its first is stopped, not
        done (a done run is never resumed), saying how to go on."""
        if self.store.run(self.run.id).chunks:
            return True
        self._message(bar, "no chunk finished within --hours (a chunk is at least one whole"
                           " state or deal): the run is stopped, not done; continue with more"
                           " time: `beggar-search search resume --db"
                           f" {shlex.quote(str(self.store.path))} --run {self.run.id}`",
                      always=True)
        return False

    def _set_status(self, run_id: int, status: str) -> bool:
        """Record the run's status; False when the file cannot be written (a full disk)."""
        try:
            self.store.set_status(run_id, status)
        except (StoreError, sqlite3.Error):
            return False
        return True

    def _store(self, strategy: Strategy, job, summary, bar) -> None:
        elapsed = self.elapsed_before + time.monotonic() - self.started
        record = strategy.record(job, summary)
        news = self.store.add_chunk(self.run, record, strategy.top_k, elapsed)
        bar.update(record.deals)  # what the run's deals count (a factory's tries stored)
        if news.record:
            self._message(bar, f"new longest game: {news.record['cards']} cards, "
                               f"{news.record['tricks']} tricks  {news.record['deal']}")
        for cycle in news.new_cycles:
            self.cycles_said += 1
            if self.cycles_said <= CYCLE_LINES:
                self._message(bar, cycle_line(cycle))
            elif self.cycles_said == CYCLE_LINES + 1:
                self._message(bar, f"more new cycles: not printed past the first {CYCLE_LINES}"
                                   " (`show` and `export --what cycles` list them all)")
        self._describe(strategy, bar)

    def _describe(self, strategy: Strategy, bar) -> None:
        """The bar's progress line, as the strategy words it (when the bar is shown)."""
        if bar.disable:
            return
        line = strategy.progress(self.store, self.store.run(self.run.id))
        if line is not None:
            bar.set_postfix_str(line, refresh=False)

    def _message(self, bar, text: str, always: bool = False) -> None:
        if self.quiet and not always:
            return
        if bar.disable:
            print(text, file=TerminalGone(sys.stderr), flush=True)
        else:
            tqdm.write(text, file=TerminalGone(sys.stderr))


def chunks_left(deadline: float | None, now: float, chunk_time: float) -> float | None:
    """How many chunk-times are left before ``deadline`` (None: no deadline), by the longest
    chunk of this sitting (``chunk_time``); 1 while no chunk has finished: until a chunk's
    time is known, one chunk a worker, never a second queued behind it that starts however
    little time is left (a climb's chunks take tens of seconds: ``--hours 0.01`` ran 55 s)."""
    if deadline is None:
        return None
    return (deadline - now) / chunk_time if chunk_time > 0 else 1.0


def submit(pool: Pool, jobs: Iterator, in_flight: dict,
           chunks_left: float | None) -> tuple[bool, bool]:
    """Submit ``jobs`` to ``pool`` until twice its workers are busy (``in_flight``, each
    future's job); (the plan is exhausted, a chunk was held back because it could not finish
    in the ``chunks_left`` chunk-times before the deadline)."""
    while len(in_flight) < 2 * pool.workers:
        if chunks_left is not None and 1 + len(in_flight) // pool.workers > chunks_left:
            return False, True
        job = next(jobs, None)
        if job is PENDING and not in_flight:  # waited on chunks now stored
            job = next(jobs, None)
        if job is PENDING:
            return False, False
        if job is None:
            return True, False
        in_flight[pool.submit(job)] = job
    return False, False


def summarise(store: Store, run_id: int) -> dict:
    """A run's figures, as ``search --json`` and ``show --json`` print them."""
    run = store.run(run_id)
    longest = store.games(run_id, "longest", limit=1)
    elapsed = run.elapsed
    return {
        "run": run.id,
        "strategy": run.strategy,
        "status": run.status,
        "deck": run.params["deck"],
        "players": run.players,
        "seed": run.params.get("seed"),
        "deals": run.deals,
        "wins": run.wins,
        "loops": run.loops,
        "caps": run.caps,
        "cycles": store.count_cycles(run_id),
        "cards": run.cards,
        "longest": ({key: longest[0][key] for key in ("deal", "cards", "tricks", "winner",
                                                      "number")} if longest else None),
        "seconds": round(elapsed, 3),
        "deals_per_second": round(run.deals / elapsed, 1) if elapsed > 0 else None,
        "version": run.version,
        "game": game_of(run.params),
        **slap_fields(run.params),
        **strategy_class(run.strategy).summary_figures(store, run_id),  # a factory's family
    }


def start(store: Store, strategy: str, params: dict, workers: int, quiet: bool = False,
          pool_factory=None) -> dict:
    """Create a run and search until it is done or stopped; returns its summary.

    The pool comes first: workers or a cluster that cannot start leave no empty run behind.
    """
    params = STRATEGIES[strategy].prepare(params)
    pool = make_pool(pool_factory, workers, strategy, params)
    try:
        run = store.create_run(strategy, {**params, "commit": commit()}, __version__)
    except BaseException:
        pool.close()
        raise
    return Session(store, run, workers, quiet, pool=pool).execute()


def resume(store: Store, run_id: int | None, workers: int, quiet: bool = False,
           pool_factory=None) -> dict:
    """Continue a run (the latest by default) with the chunks it has not stored."""
    run = store.run(run_id)
    if run.status == "damaged":
        raise UserError(f"run {run.id} was recovered from a damaged file and lost chunks; its"
                        " totals still count them, so it cannot be resumed: start a new run")
    return Session(store, run, workers, quiet, pool_factory).execute()
