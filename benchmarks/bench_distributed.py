"""Deals/s of a random search on a 2-worker Dask LocalCluster against the local driver.

    python benchmarks/bench_distributed.py results.json [--chunks N] [--chunk-size N]
        [--engine bitboard|general] [--strategy random|climb] [--deck D]

``--strategy climb`` times the climber (its games: random deals and the extension's) the
same way: 2 Dask workers against 2 local workers, games per second.

Both runs play the same deals (same seed, chunk size, deck and engine; by default the
standard deck's fast kernel and its chunk size) with 2 workers and store
them in a fresh results file.  Reported per run:

- ``deals_per_second``: all deals over the whole run, pool start-up and warm-up included;
- ``steady_deals_per_second``: deals stored after the first chunk over the time between
  the first and the last chunk being stored (start-up excluded);
- ``busy``: worker time inside chunks over worker time in that window (about: the
  chunks each worker started before the window are left out).

Then the per-chunk overhead on the cluster: chunks submitted one at a time, round trip
(submit, schedule, run, send back) minus the chunk's own time inside the kernel.
Figures, never assertions.
"""

from __future__ import annotations

import argparse
import json
import platform
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from beggar_search import __version__, driver
from beggar_search.pools.dask import ClusterOptions, chunk_key
from beggar_search.pools.local import LocalPool
from beggar_search.pools.processes import default_workers
from beggar_search.store import Store
from beggar_search.strategies import STRATEGIES, ChunkJob, execute, warm_up

WORKERS = 2


def run_figures(path: Path, wall: float, workers: int) -> dict:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT deals, seconds, finished FROM chunks ORDER BY finished").fetchall()
    deals = sum(row[0] for row in rows)
    window = rows[-1][2] - rows[0][2]
    later = rows[1:]
    return {
        "deals": deals,
        "chunks": len(rows),
        "wall_seconds": round(wall, 3),
        "deals_per_second": round(deals / wall, 1),
        "steady_deals_per_second": round(sum(r[0] for r in later) / window, 1),
        "busy": round(sum(r[1] for r in rows[workers:]) / (workers * window), 3),
    }


def timed_run(path: Path, params: dict, factory, strategy: str = "random") -> dict:
    with Store(path) as store:
        started = time.perf_counter()
        driver.start(store, strategy, params, WORKERS, quiet=True, pool_factory=factory)
        wall = time.perf_counter() - started
    return run_figures(path, wall, WORKERS)


def chunk_overhead(params: dict, chunks: int, strategy: str = "random") -> dict:
    """Round trip of one chunk at a time on a fresh 2-worker cluster, minus its work."""
    from distributed import Client, LocalCluster

    with (LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True,
                       dashboard_address=":0") as cluster,
          Client(cluster, set_as_default=False) as client):
        client.run(warm_up, strategy, params)
        trips, work = [], []
        for chunk in range(chunks + 1):
            job = ChunkJob(strategy, chunk, params["chunk_size"], params)
            started = time.perf_counter()
            summary = client.submit(execute, job, key=chunk_key("bench", chunk),
                                    pure=False).result()
            if chunk:  # the first round trip warms the connections
                trips.append(time.perf_counter() - started)
                work.append(summary.seconds)
    overhead = [trip - seconds for trip, seconds in zip(trips, work, strict=True)]
    return {
        "chunks": chunks,
        "chunk_deals": params["chunk_size"],
        "median_chunk_seconds": round(statistics.median(work), 5),
        "median_overhead_seconds": round(statistics.median(overhead), 5),
        "overhead_ratio": round(statistics.median(overhead) / statistics.median(work), 5),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path, help="JSON file to write")
    parser.add_argument("--chunks", type=int, default=16, help="chunks per run")
    parser.add_argument("--chunk-size", type=int, default=None,
                        help="deals per chunk [default: the strategy's]")
    parser.add_argument("--engine", default=None,
                        help="bitboard (fast2, its old name) or general [default: fastest]")
    parser.add_argument("--overhead-chunks", type=int, default=10)
    parser.add_argument("--strategy", choices=("random", "climb"), default="random")
    parser.add_argument("--deck", default="standard")
    arguments = parser.parse_args()
    params = STRATEGIES[arguments.strategy].prepare(
        {"deck": arguments.deck, "players": 2, "seed": 2024, "top_k": 100, "max_tricks": None,
         "chunk_size": arguments.chunk_size, "hours": None, "engine": arguments.engine})
    params["deals"] = arguments.chunks * params["chunk_size"]
    with tempfile.TemporaryDirectory() as folder:
        local = timed_run(Path(folder, "local.sqlite"), params, LocalPool,
                          arguments.strategy)
        cluster = timed_run(Path(folder, "cluster.sqlite"), params,
                            ClusterOptions(cluster=f"local:{WORKERS}").pool_factory(),
                            arguments.strategy)
    overhead = chunk_overhead(params, arguments.overhead_chunks, arguments.strategy)
    report = {
        "benchmark": "distributed",
        "version": __version__,
        "machine": {"python": platform.python_version(), "processor": platform.machine(),
                    "cores": default_workers()},
        "workers": WORKERS,
        "strategy": arguments.strategy,
        "params": params,
        "local": local,
        "cluster": cluster,
        "cluster_over_local": round(cluster["steady_deals_per_second"]
                                    / local["steady_deals_per_second"], 3),
        "overhead": overhead,
    }
    for name in ("local", "cluster"):
        figures = report[name]
        print(f"{name:8} {figures['deals_per_second']:>10,.0f} deals/s over the whole run,"
              f" {figures['steady_deals_per_second']:>10,.0f} steady, busy {figures['busy']:.0%}")
    print(f"cluster/local (steady) {report['cluster_over_local']:.3f}")
    print(f"per-chunk overhead {overhead['median_overhead_seconds'] * 1000:.1f} ms against"
          f" {overhead['median_chunk_seconds'] * 1000:.0f} ms of work for"
          f" {overhead['chunk_deals']} deals: ratio {overhead['overhead_ratio']:.4f}")
    arguments.output.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
