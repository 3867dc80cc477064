"""Where `search random --workers 1` loses against `bench`'s fast path, step by step, one run.

    taskset -c 0 python benchmarks/bench_search_overhead.py [results.json] [--deals N] [--rounds R]

Each round times the same standard random sweep of N deals (2 players) built up layer by
layer, interleaved, per second of the wall clock (a search's own rate is deals over its
elapsed wall time):

1. ``bench``: the fast path as ``beggar-search bench`` plays it (``bench.speed.time_one``: 2**18
   deals a kernel call, a leaderboard of 10; its CPU-time rate is printed beside it);
2. ``kernel``: the run's chunks (the random strategy's chunk size) through ``Engine``, a
   leaderboard of 100;
3. ``chunk``: the same chunks as a worker runs them (``strategies.execute``: the recorder,
   its summary, the leaderboard's merge families);
4. ``store``: the whole run in this process (``driver.start`` with ``InlinePool``): the
   driver's loop and each chunk written to a results file;
5. ``pool``: the same with the command line's pool (``LocalPool``, one spawned worker);
6. ``cli``: ``beggar-search search random --workers 1 --json`` as a user runs it, its
   summary's ``deals_per_second``;
7. with ``--other SRC``, ``other``: the same command from another source tree (another
   commit's ``git worktree`` or ``git archive``), as step 6, to compare two versions in one run.

Every rate is printed as a ratio to step 1 of the same round, with the load average, twice:
per second of the wall clock (what a search's summary says: on a busy machine it counts the
other processes' work too) and per CPU second of everything the step ran (this process and
its children, worker start-ups and the command's own start included: ``cpu``).  Pin it to
one core (``taskset -c 0``): the steps then share one core, as the parent and its worker do
under ``taskset``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_report import finish

from beggar_search import driver
from beggar_search.bench.speed import Workload, time_one
from beggar_search.cards.deck import STANDARD
from beggar_search.engine.batch import new_recorder
from beggar_search.engine.random import chunk_stream
from beggar_search.pools.local import InlinePool, LocalPool
from beggar_search.store import Store
from beggar_search.strategies import STRATEGIES, execute, strategy_for
from beggar_search.strategies.base import ChunkJob

SEED = 7
STEPS = ("bench", "kernel", "chunk", "store", "pool", "cli")


def run_params(n_deals: int) -> dict:
    """The parameters ``search random`` gives a run of ``n_deals`` standard deals."""
    params = {"deck": STANDARD.spec, "players": 2, "seed": SEED, "top_k": 100, "max_tricks": 0,
              "chunk_size": None, "hours": None, "deals": n_deals, "game": "bmn"}
    return STRATEGIES["random"].prepare(params)


def kernel_only(params: dict) -> float:
    """Seconds (wall) to play the run's chunks through the engine alone."""
    strategy = strategy_for("random", params)
    started = time.perf_counter()
    for job in strategy.plan(set()):
        recorder = new_recorder(strategy.top_k, strategy.deck.size)
        strategy.engine.random_chunk(chunk_stream(params["seed"], job.chunk), job.deals,
                                     recorder)
    return time.perf_counter() - started


def chunks(params: dict) -> float:
    """Seconds (wall) to run the run's chunks as a worker does (``execute``)."""
    strategy = strategy_for("random", params)
    started = time.perf_counter()
    for job in strategy.plan(set()):
        execute(ChunkJob(job.strategy, job.chunk, job.deals, job.params))
    return time.perf_counter() - started


def whole_run(params: dict, directory: str, pool_factory) -> float:
    """Deals per second of a run in this process (``driver.start``), as its summary says."""
    path = os.path.join(directory, f"run-{time.monotonic_ns()}.db")
    with Store(path) as store:
        summary = driver.start(store, "random", dict(params), 1, quiet=True,
                               pool_factory=pool_factory)
    os.unlink(path)
    return summary["deals_per_second"]


def cli(n_deals: int, directory: str, source: str | None = None) -> float:
    """Deals per second of ``beggar-search search random --workers 1`` (its summary), from
    this checkout or from the source tree ``source``."""
    path = os.path.join(directory, f"cli-{time.monotonic_ns()}.db")
    env = dict(os.environ)
    if source:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
    out = subprocess.run([sys.executable, "-m", "beggar_search", "search", "random", "--workers",
                          "1", "--deals", str(n_deals), "--seed", str(SEED), "--db", path,
                          "--json", "--quiet"], check=True, capture_output=True, text=True,
                         env=env)
    os.unlink(path)
    return json.loads(out.stdout)["deals_per_second"]


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have ended."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(step):
    """``(step(), the CPU seconds it took)``."""
    cpu = cpu_seconds()
    value = step()
    return value, cpu_seconds() - cpu


def measure(n_deals: int, rounds: int, other: str | None = None) -> dict:
    names = STEPS + (("other",) if other else ())
    params = run_params(n_deals)
    rates, ratios, cpu_rates, cpu_ratios = ({step: [] for step in names} for _ in range(4))
    with tempfile.TemporaryDirectory() as directory:
        whole_run(run_params(1), directory, InlinePool)  # compiled or loaded: untimed
        if other:
            cli(1, directory, other)  # the other tree's kernels compiled or loaded: untimed
        for number in range(rounds):
            bench = time_one(Workload(), "fast", n_deals)
            steps = {"kernel": lambda: n_deals / kernel_only(params),
                     "chunk": lambda: n_deals / chunks(params),
                     "store": lambda: whole_run(params, directory, InlinePool),
                     "pool": lambda: whole_run(params, directory, LocalPool),
                     "cli": lambda: cli(n_deals, directory)}
            if other:
                steps["other"] = lambda: cli(n_deals, directory, other)
            row = {"bench": n_deals / bench.wall}
            cpu = {"bench": bench.deals_per_second}
            for step, function in steps.items():
                row[step], seconds = timed(function)
                cpu[step] = n_deals / seconds
            for step in names:
                rates[step].append(row[step])
                ratios[step].append(row[step] / row["bench"])
                cpu_rates[step].append(cpu[step])
                cpu_ratios[step].append(cpu[step] / cpu["bench"])
            print(f"round {number + 1}: " + ", ".join(
                f"{step} {row[step] / 1e6:.2f} M {row[step] / row['bench']:.2f}x"
                f" (cpu {cpu[step] / 1e6:.2f} M {cpu[step] / cpu['bench']:.2f}x)"
                for step in names) + f"; load {os.getloadavg()[0]:.2f}",
                  file=sys.stderr, flush=True)
    return {"deals": n_deals, "rounds": rounds, "chunk_size": params["chunk_size"],
            "rates": rates, "ratios": ratios, "cpu_rates": cpu_rates, "cpu_ratios": cpu_ratios,
            "median_ratios": {step: statistics.median(ratios[step]) for step in names},
            "median_cpu_ratios": {step: statistics.median(cpu_ratios[step]) for step in names}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="JSON file for the figures")
    parser.add_argument("--deals", type=int, default=8_000_000, help="deals a step, each round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--other", metavar="SRC",
                        help="another source tree whose search random is timed too (step 7)")
    args = parser.parse_args()
    started = time.time()
    load_before = os.getloadavg()
    data = measure(args.deals, args.rounds, args.other)
    data["other"] = args.other
    data["load_average_before"] = load_before
    data["load_average"] = os.getloadavg()
    data["cpus"] = sorted(os.sched_getaffinity(0))
    return finish(data, __file__, started, describe, args.output)


def describe(data: dict) -> str:
    steps = ", ".join(f"{step} {data['median_ratios'][step]:.2f}x"
                      f" (cpu {data['median_cpu_ratios'][step]:.2f}x)"
                      for step in data["median_ratios"])
    return (f"{data['deals']:,} deals a step, median of {data['rounds']} rounds, against"
            f" bench's fast path (wall; all CPU): {steps}; load"
            f" {data['load_average_before'][0]:.2f} before, {data['load_average'][0]:.2f}"
            f" after, cpus {data['cpus']}")


if __name__ == "__main__":
    sys.exit(main())
