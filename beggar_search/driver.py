"""Runs a search: plans chunks, hands them to workers, stores each as it finishes.

Only this (parent) process writes to the store, one transaction per chunk.  Workers
are local processes started with ``spawn`` (numba's threading layers are not
fork-safe); the command line always plays in worker processes, so the parent is never
inside a kernel and answers signals at once (``InlinePool``, chunks in the calling
process, is for library callers and tests; both in ``pools.local``).

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
warning: ``pools.processes.quiet_resource_tracker``).  A results file that cannot be written (a full
disk) stops the run the same way, with one error line, and ``resume`` completes it once
the file can be written.
"""

from __future__ import annotations

import shlex
import signal
import sqlite3
import sys
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tqdm import tqdm

from . import __version__
from .errors import PoolLost, UserError
from .pools.local import InlinePool, LocalPool
from .pools.processes import STOP_SIGNALS
from .pools.protocol import Pool, PoolFactory
from .store import Run, Store, StoreError
from .strategies import strategy_for
from .strategies.units import strategy_class
from .text import short
from .version import commit

if TYPE_CHECKING:
    from .strategies import Strategy

CYCLE_LINES = 20  # "new cycle" lines a sitting prints; past them one line says so
CYCLE_LINE_WIDTH = 120  # a "new cycle" line past this leaves out its example (a factory's
# state runs to 200 characters and more: a wall of wrapped text in a terminal)
CPU_WINDOW = 60.0  # chunk seconds (summed over workers) a reading of the workers' CPU spans
CPU_LOW = 0.75  # a share of their CPU below this is said, once (other jobs on the machine)
CPU_BACK = 0.9  # and once it is back above this
PROGRESS_EVERY = 600.0  # seconds between two progress lines where no bar is shown (a log)
STOP_GRACE = 10.0  # seconds the chunks in flight get to finish after a stop or the deadline
# tqdm's monitor is a thread per bar for bars updated rarely: ours are (per chunk), and a
# thread that cannot start (a memory limit) made it warn
tqdm.monitor_interval = 0


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
class CpuWatch:
    """Whether the workers get the CPU they ask for: the CPU seconds their chunks' threads
    got against the chunks' seconds, over the last ``CPU_WINDOW`` seconds of chunks.

    A share below ``CPU_LOW`` (other jobs on the machine) is said once, with the rate it
    leaves against the best one of the sitting: the run then plays fewer tries an hour, the
    same finds per try.  Its end is said once the share is back above ``CPU_BACK``.  A
    reading needs a full window, so that a short or bursty sitting says nothing.
    """

    unit: str = "deals"
    chunks: deque = field(default_factory=deque)  # (seconds, cpu seconds, deals) a chunk
    best: float = 0.0  # the best rate of a full window, a worker (unit/s)
    low: bool = False  # the share is low (said)

    def add(self, seconds: float, cpu: float | None, deals: int) -> str | None:
        """A chunk stored: its seconds, its thread's CPU seconds (None: not measured) and its
        deals; the line to say, when the share has just fallen or come back."""
        if cpu is None or seconds <= 0:
            return None
        self.chunks.append((seconds, cpu, deals))
        wall = sum(chunk[0] for chunk in self.chunks)
        while len(self.chunks) > 1 and wall - self.chunks[0][0] >= CPU_WINDOW:
            wall -= self.chunks.popleft()[0]
        if wall < CPU_WINDOW:
            return None
        share = min(sum(chunk[1] for chunk in self.chunks) / wall, 1.0)
        rate = sum(chunk[2] for chunk in self.chunks) / wall
        self.best = max(self.best, rate)
        if not self.low and share < CPU_LOW:
            self.low = True
            return (f"slowed: workers got {share:.0%} of their CPU over {wall:.0f} s (other"
                    f" jobs?): {short(rate)} {self.unit}/s each, best {short(self.best)};"
                    " finds per try unchanged")
        if self.low and share > CPU_BACK:
            self.low = False
            return (f"back to speed: workers got {share:.0%} of their CPU over"
                    f" {wall:.0f} s: {short(rate)} {self.unit}/s each")
        return None


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
    compiled_in_search: float = 0.0  # the workers' compiles during chunks, per worker (s)
    cpu: CpuWatch = field(default_factory=CpuWatch)  # whether the workers get their CPU
    # when the last progress line went to a log (time.monotonic; the sitting's start)
    progress_said: float = field(default_factory=time.monotonic)

    def execute(self) -> dict:
        """Play and store the run's chunks until it is done, out of time or stopped; its summary
        (a chunk that fails or cannot be stored is a ``UserError``)."""
        strategy = strategy_for(self.run.strategy, self.run.params)
        self.cpu.unit = strategy.unit
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
            try:  # a stop signal while the workers close is heard, not a KeyboardInterrupt
                pool.close()  # that would leave the run marked running (seen in .ci/run)
            finally:
                self._restore(handlers)
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
        self.started = self.progress_said = time.monotonic()
        self.compiled_in_search = 0.0
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
                self._not_search_time(sitting, float(getattr(summary, "compile_seconds", 0)))
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

    def _not_search_time(self, sitting: Sitting, compiled: float) -> None:
        """A chunk compiled for ``compiled`` seconds (a kernel its warm-up did not reach, or
        lost in a cold-cache race: issue 38 C7): not the run's time, nor its ``--hours``;
        one worker of ``workers`` stood still meanwhile."""
        share = compiled / max(self.workers, 1)
        self.compiled_in_search += share
        if sitting.deadline is not None:
            sitting.deadline += share

    def _store(self, strategy: Strategy, job, summary, bar) -> None:
        elapsed = (self.elapsed_before + time.monotonic() - self.started
                   - self.compiled_in_search)
        record = strategy.record(job, summary)
        news = self.store.add_chunk(self.run, record, strategy.top_k, elapsed)
        bar.update(record.deals)  # what the run's deals count (a factory's tries stored)
        slowed = self.cpu.add(float(getattr(summary, "seconds", 0)),
                              getattr(summary, "cpu_seconds", None), record.deals)
        if slowed:
            self._message(bar, slowed)
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
        """The bar's progress line, as the strategy words it; where no bar is shown (stderr
        not a terminal: a log), the same line every ``PROGRESS_EVERY`` seconds, unless
        quiet."""
        if bar.disable:
            self._log_progress(strategy, bar)
            return
        line = strategy.progress(self.store, self.store.run(self.run.id))
        if line is not None:
            bar.set_postfix_str(line, refresh=False)

    def _log_progress(self, strategy: Strategy, bar) -> None:
        now = time.monotonic()
        if self.quiet or not hasattr(self, "started") or now - self.progress_said < \
                PROGRESS_EVERY:
            return
        run = self.store.run(self.run.id)
        line = strategy.progress(self.store, run)
        if line is None:
            return
        self.progress_said = now
        elapsed = self.elapsed_before + now - self.started - self.compiled_in_search
        self._message(bar, f"progress: {run.deals:,} {strategy.unit} in {elapsed:,.0f} s;"
                           f" {line}")

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
    from .strategies import PENDING

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
        **run.game.fields(),  # game, and its rules (ratscrew's slaps)
        **strategy_class(run.strategy).summary_figures(store, run_id),  # a factory's family
    }


def start(store: Store, strategy: str, params: dict, workers: int, quiet: bool = False,
          pool_factory=None) -> dict:
    """Create a run and search until it is done or stopped; returns its summary.

    The pool comes first: workers or a cluster that cannot start leave no empty run behind.
    """
    from .strategies import class_of

    params = class_of(strategy).prepare(params)
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
