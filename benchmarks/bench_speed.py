"""Reproduce the speed figures of issue 4 as JSON; or check the bitboard kernel on many deals.

    python benchmarks/bench_speed.py figures.json [--deals N] [--workers 1 2 ...]
    python benchmarks/bench_speed.py --verify N [--chunk M]

The figures: the card-by-card baseline kernel (beggar_search/engine/baseline.py)
and the fast kernel (engine/bitboard.py) on one worker (per second of its CPU time),
then the fast kernel on each worker count (wall-clock rates, against one worker's),
measured as ``beggar-search bench`` does; plus the start-up time of a fresh process
that loads the numba cache and plays its first deals.
``--verify`` plays N random deals with both the bitboard kernel and the general engine
(rules.play_sequences) and stops at the first row that differs.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import numpy as np
from bench_report import finish

from beggar_search.bench.speed import Workload, time_one, time_parallel
from beggar_search.cards.deck import STANDARD

STANDARD_RANDOM = Workload()

START_UP = (
    "import time; t = time.perf_counter()\n"
    "from beggar_search.bench.speed import Workload, play\n"
    "play(Workload(), 'fast', 0, 1000, 1)\n"
    "print(time.perf_counter() - t)\n"
)


def start_up_seconds() -> float:
    """Seconds for a fresh process to import, load the cache and play 1000 deals."""
    subprocess.run([sys.executable, "-c", START_UP], check=True, capture_output=True)  # cache
    out = subprocess.run([sys.executable, "-c", START_UP], check=True, capture_output=True,
                         text=True).stdout
    return float(out.split()[-1])


def figures(n_deals: int, workers: list[int]) -> dict:
    baseline_deals = max(n_deals // 4, 1)
    base = time_one(STANDARD_RANDOM, "baseline", baseline_deals)
    one = time_one(STANDARD_RANDOM, "fast", n_deals)
    data = {
        "deals": n_deals,
        "baseline_deals_per_second": base.deals_per_second,
        "baseline_cards_per_second": base.cards_per_second,
        "one_worker_deals_per_second": one.deals_per_second,
        "one_worker_cards_per_second": one.cards_per_second,
        "ratio_to_baseline": one.deals_per_second / base.deals_per_second,
        "parallel": [],
    }
    for count in workers:  # wall-clock rates, against one worker's wall-clock rate
        timing = (time_one(STANDARD_RANDOM, "fast", n_deals) if count == 1
                  else time_parallel(STANDARD_RANDOM, "fast", n_deals, count))
        data["parallel"].append({
            "workers": count,
            "deals_per_second": timing.deals / timing.wall,
            "cards_per_second": timing.cards / timing.wall,
            "speedup": timing.deals / timing.wall / (one.deals / one.wall),
        })
    data["start_up_seconds"] = start_up_seconds()
    data["machine"] = {"processor": platform.processor() or platform.machine(),
                       "python": platform.python_version()}
    return data


def verify(n_deals: int, chunk: int, max_tricks: int = 0) -> int:
    """Compare the bitboard kernel with the general engine on ``n_deals`` random deals;
    returns mismatches."""
    from beggar_search.engine import bitboard, rules
    from beggar_search.engine.random import chunk_stream

    stream = chunk_stream(4, 0)
    done = 0
    while done < n_deals:
        size = min(chunk, n_deals - done)
        deals = bitboard.generate(stream, size, STANDARD.sorted_cards())
        fast = np.zeros((size, rules.RESULT_LEN), dtype=np.int64)
        general = np.zeros_like(fast)
        split = np.array([26, 26], dtype=np.int64)
        bitboard.play_sequences(deals, split, 0, max_tricks, fast)
        rules.play_sequences(deals, split, 0, max_tricks, general)
        bad = np.flatnonzero((fast != general).any(axis=1))
        if bad.size:
            print(f"mismatch at deal {done + bad[0]}: {deals[bad[0]].tolist()}")
            return int(bad.size)
        done += size
        print(f"{done:,} deals agree", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="JSON file for the figures")
    parser.add_argument("--deals", type=int, default=4_000_000, help="deals per worker")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--verify", type=int, metavar="N", help="check N deals instead")
    parser.add_argument("--chunk", type=int, default=500_000)
    parser.add_argument("--max-tricks", type=int, default=0)
    args = parser.parse_args()
    if args.verify:
        return 1 if verify(args.verify, args.chunk, args.max_tricks) else 0
    if not args.output:
        parser.error("give a JSON output path (or --verify N)")
    started = time.time()
    data = figures(args.deals, args.workers)
    return finish(data, __file__, started, lambda d: json.dumps(d, indent=2), args.output)


if __name__ == "__main__":
    sys.exit(main())
