"""Runs a search: plans chunks, hands them to workers, stores each as it finishes.

Only this (parent) process writes to the store, one transaction per chunk.  Workers
are local processes started with ``spawn`` (numba's threading layers are not
fork-safe), or the calling process itself for one worker.  The first Ctrl-C (or
SIGTERM) stops planning and lets the chunks in flight finish and be stored; a
second one drops them.  Signals only set a flag that the loop reads between
chunks: a kernel is never interrupted in the middle.  Either way every stored
chunk is whole, and ``resume`` plays exactly the chunks that are missing.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass

from tqdm import tqdm

from . import __version__
from .errors import UserError
from .store import Run, Store
from .strategies import STRATEGIES, execute, strategy_for, warm_up


def _worker_init(name: str, params: dict) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides how to stop
    warm_up(name, params)


class LocalPool:
    """Worker processes on this machine (spawn), warmed up before their first chunk."""

    def __init__(self, workers: int, name: str, params: dict):
        warm_up(name, params)  # compile and cache once here, so workers only load the cache
        self.workers = workers
        self.executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_init, initargs=(name, params))

    def submit(self, job) -> Future:
        return self.executor.submit(execute, job)

    def wait(self, futures, timeout: float):
        return wait(futures, timeout=timeout, return_when=FIRST_COMPLETED)

    def close(self) -> None:
        """Stop the workers at once; chunks still running or waiting are dropped."""
        processes = list(self.executor._processes.values())  # no public way to stop them
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()


class InlinePool:
    """One worker: chunks run in this process, one at a time, when waited for."""

    def __init__(self, workers: int, name: str, params: dict):
        self.workers = 1
        self.queue = []
        warm_up(name, params)

    def submit(self, job) -> Future:
        future = Future()
        self.queue.append((future, job))
        return future

    def wait(self, futures, timeout: float):
        future, job = self.queue.pop(0)
        try:
            future.set_result(execute(job))
        except Exception as error:  # reported by the driver, as a worker's would be
            future.set_exception(error)
        return {future}, set(futures) - {future}

    def close(self) -> None:
        pass


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


@dataclass
class Session:
    """One sitting of a run: from start or resume to the end or a stop."""

    store: Store
    run: Run
    workers: int
    quiet: bool = False
    pool_factory: type | None = None  # (workers, strategy name, params) -> pool

    def execute(self) -> dict:
        run = self.run
        strategy = strategy_for(run.strategy, run.params)
        done = self.store.done_chunks(run.id)
        jobs = strategy.plan(done)
        hours = run.params.get("hours")
        factory = self.pool_factory or (InlinePool if self.workers == 1 else LocalPool)
        show = not self.quiet and sys.stderr.isatty()
        # the bar counts the deals chunks are planned with (a climb also plays extra games)
        bar = tqdm(total=strategy.total, initial=sum(map(strategy.chunk_deals, done)),
                   unit=" deals", unit_scale=True,
                   dynamic_ncols=True, disable=not show, file=sys.stderr, smoothing=0.1)
        self._describe(bar)
        interrupted = dropped = exhausted = False
        failure = None
        in_flight: dict = {}
        pool = factory(self.workers, run.strategy, run.params)  # compiles: not timed
        stops = []  # Ctrl-C and SIGTERM only ask: a kernel must never be cut in the middle
        handlers = {sig: signal.signal(sig, lambda signum, frame: stops.append(signum))
                    for sig in (signal.SIGINT, signal.SIGTERM)}
        self.elapsed_before = run.elapsed
        self.started = time.monotonic()
        deadline = None if hours is None else self.started + hours * 3600 - run.elapsed
        try:
            while True:
                if len(stops) >= 2:
                    dropped = True
                    self._message(bar, f"dropped the chunks in flight ({len(in_flight)})",
                                  always=True)
                    break
                if stops and not interrupted:
                    interrupted = True
                    self._message(bar, "stopping: finishing the chunks in flight"
                                       f" ({len(in_flight)}; Ctrl-C again to drop them)",
                                  always=True)
                while (not interrupted and len(in_flight) < 2 * pool.workers
                       and (deadline is None or time.monotonic() < deadline)):
                    job = next(jobs, None)
                    if job is None:
                        exhausted = True
                        break
                    in_flight[pool.submit(job)] = job
                if not in_flight:
                    break
                finished, _ = pool.wait(set(in_flight), timeout=0.5)
                for future in finished:
                    job = in_flight.pop(future)
                    try:
                        summary = future.result()
                    except Exception as error:  # a worker died, or a chunk failed
                        failure = f"chunk {job.chunk} failed ({type(error).__name__}: {error})"
                        break
                    self._store(strategy, job, summary, bar)
                if failure:
                    break
        finally:
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
            pool.close()
            bar.close()
        out_of_time = deadline is not None and time.monotonic() >= deadline
        complete = not failure and ((exhausted and not dropped)
                                    or (out_of_time and not interrupted))
        self.store.set_status(run.id, "done" if complete else "stopped")
        if failure:
            raise UserError(f"{failure}; the chunks stored so far are kept: continue with"
                            f" `beggar-search search resume --run {run.id}`")
        return summarise(self.store, run.id)

    def _store(self, strategy, job, summary, bar) -> None:
        elapsed = self.elapsed_before + time.monotonic() - self.started
        news = self.store.add_chunk(self.run, job.chunk, summary,
                                    lambda position: strategy.number(job.chunk, position),
                                    strategy.top_k, elapsed)
        bar.update(job.deals)
        if news.record:
            self._message(bar, f"new longest game: {news.record['cards']} cards, "
                               f"{news.record['tricks']} tricks  {news.record['deal']}")
        for cycle in news.new_cycles:
            self._message(bar, f"new cycle {cycle['cycle']}: period {cycle['period_tricks']} "
                               f"tricks / {cycle['period_cards']} cards  {cycle['example']}")
        self._describe(bar)

    def _describe(self, bar) -> None:
        if bar.disable:
            return
        run = self.store.run(self.run.id)
        best = self.store.games(run.id, "longest", limit=1)
        bar.set_postfix_str(f"best {best[0]['cards'] if best else '-'} cards, "
                            f"{run.loops} loops", refresh=False)

    def _message(self, bar, text: str, always: bool = False) -> None:
        if self.quiet and not always:
            return
        if bar.disable:
            print(text, file=sys.stderr, flush=True)
        else:
            tqdm.write(text, file=sys.stderr)


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
        "cycles": len(store.cycles(run_id)),
        "cards": run.cards,
        "longest": ({key: longest[0][key] for key in ("deal", "cards", "tricks", "winner",
                                                      "number")} if longest else None),
        "seconds": round(elapsed, 3),
        "deals_per_second": round(run.deals / elapsed, 1) if elapsed > 0 else None,
        "version": run.version,
    }


def start(store: Store, strategy: str, params: dict, workers: int, quiet: bool = False,
          pool_factory=None) -> dict:
    """Create a run and search until it is done or stopped; returns its summary."""
    run = store.create_run(strategy, STRATEGIES[strategy].prepare(params), __version__)
    return Session(store, run, workers, quiet, pool_factory).execute()


def resume(store: Store, run_id: int | None, workers: int, quiet: bool = False,
           pool_factory=None) -> dict:
    """Continue a run (the latest by default) with the chunks it has not stored."""
    run = store.run(run_id)
    return Session(store, run, workers, quiet, pool_factory).execute()
