"""What a census of the camicia deck costs: deals per core-hour of its enumeration, old and
new kernel, and the wall time of the whole census on N cores.

    python benchmarks/census_projection.py [results.json] [--deals N] [--rounds R]
        [--old REV] [--cores 1 2 16 ...] [--scaling S] [--deck SPEC]

Measured in one run, rounds interleaved, best round kept (CPU time of one worker):
the 2-player enumeration of the deck (consecutive deal indices from a random start,
as ``beggar-search bench`` plays them, with the leaderboard and histogram recorded)
by the bitboard kernel of this checkout and by ``engine/bitboard.py`` as it was at git
revision REV (default: the commit before the speed work), loaded from ``git show``.
Then the fast path on 2 worker processes against one (wall-clock rates, as
``bench_kernels.py`` measures it): each core of a cluster is taken to deliver the
one-worker rate times (2-worker speed-up / 2), the loss measured when both cores of
this machine are busy (``--scaling S`` uses S as the 2-worker speed-up instead, e.g.
one measured on a quiet machine).  The census: every deal of the deck
(``Deck.count_deals(2)``: 1.94e14 for camicia) on N such cores, Dask's own overhead
not counted (chunks of ~10 s make it negligible, see bench_distributed.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import numpy as np
from bench_report import finish

from beggar_search.bench.speed import SEED, Workload, enumeration_start, time_one, time_parallel
from beggar_search.cards.deck import Deck, unrank_sequence
from beggar_search.engine import batch, bitboard

OLD_REVISION = "9ab6b4d"  # the bitboard kernel before issue 21's speed work
KERNEL_PATH = "beggar_search/engine/bitboard.py"
CORES = (1, 2, 16, 64, 256, 1024)
SECONDS_PER_YEAR = 365.25 * 86400


def old_kernel(revision: str):
    """``engine/bitboard.py`` at ``revision``, imported as a module of its own."""
    root = Path(__file__).resolve().parent.parent
    text = subprocess.run(["git", "show", f"{revision}:{KERNEL_PATH}"], cwd=root, check=True,
                          capture_output=True, text=True).stdout
    for relative, absolute in (("from ..jit import", "from beggar_search.jit import"),
                               ("from . import", "from beggar_search.engine import"),
                               ("from .", "from beggar_search.engine.")):
        text = text.replace(relative, absolute)
    path = Path(tempfile.mkdtemp()) / f"bitboard_{revision}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def enumeration_rate(module, deck: Deck, n_deals: int, chunk: int) -> float:
    """Deals per CPU second of ``module.enumerate_chunk`` on ``n_deals`` consecutive deals."""
    split = np.array(deck.split(2), dtype=np.int64)
    first = unrank_sequence(enumeration_start(deck, 2, SEED, chunk, n_deals), deck)
    recorder = batch.new_recorder(10, deck.size)
    started = time.process_time()
    module.enumerate_chunk(first, n_deals, split, 0, recorder)
    return n_deals / (time.process_time() - started)


def measure(deck: Deck, n_deals: int, rounds: int, old) -> dict:
    kernels = {"new": bitboard} | ({"old": old} if old is not None else {})
    for module in kernels.values():
        enumeration_rate(module, deck, 2000, 1 << 30)  # compiled or loaded: untimed
    best = {name: 0.0 for name in kernels}
    for number in range(rounds):
        rates = {name: enumeration_rate(module, deck, n_deals, number)
                 for name, module in kernels.items()}
        for name, rate in rates.items():
            best[name] = max(best[name], rate)
        print(f"round {number + 1}: " + ", ".join(f"{name} {rate / 1e6:.3f} M deals/s"
                                                  for name, rate in rates.items())
              + f", load {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
    return best


def two_worker_speedup(deck: Deck, n_deals: int) -> float:
    workload = Workload(deck.spec, 2, "enumerate")
    one = time_one(workload, "fast", n_deals)
    many = time_parallel(workload, "fast", n_deals, 2)
    return (many.deals / many.wall) / (one.deals / one.wall)


def projection(deals: int, rate: float, efficiency: float, cores: list[int]) -> list[dict]:
    rows = []
    for count in cores:
        seconds = deals / (rate * count * (efficiency if count > 1 else 1.0))
        rows.append({"cores": count, "seconds": seconds, "days": seconds / 86400})
    return rows


def describe(data: dict) -> str:
    lines = [f"census of {data['deck']} ({data['census_deals']:.3g} deals), 2-worker "
             f"speed-up {data['two_worker_speedup']:.2f}x ({data['scaling_source']}), "
             f"load {data['load_average'][0]:.2f}"]
    for name, figures in data["kernels"].items():
        lines.append(f"{name:>4}: {figures['deals_per_second'] / 1e6:7.3f} M deals/s, "
                     f"{figures['deals_per_core_hour']:.3g} deals per core-hour, "
                     f"{figures['core_years']:.2f} core-years")
    if "speedup_new_over_old" in data:
        lines.append(f"new / old: {data['speedup_new_over_old']:.2f}x")
    header = f"{'cores':>7}" + "".join(f"{name + ' (days)':>14}" for name in data["kernels"])
    lines.append(header)
    for i, count in enumerate(data["cores"]):
        lines.append(f"{count:>7}" + "".join(
            f"{figures['census'][i]['days']:>14,.1f}" for figures in data["kernels"].values()))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="JSON file for the figures")
    parser.add_argument("--deck", default="camicia")
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--old", default=OLD_REVISION, metavar="REV",
                        help="git revision of the old kernel ('' to skip it)")
    parser.add_argument("--cores", type=int, nargs="+", default=list(CORES))
    parser.add_argument("--scaling", type=float, help="2-worker speed-up to assume")
    args = parser.parse_args()
    started = time.time()
    deck = Deck.parse(args.deck)
    old = None
    if args.old:
        try:
            old = old_kernel(args.old)
        except (OSError, subprocess.CalledProcessError) as error:
            print(f"census_projection: old kernel at {args.old} not loaded ({error}); "
                  "measuring the new one only", file=sys.stderr)
    rates = measure(deck, args.deals, args.rounds, old)
    if args.scaling:
        speedup, source = args.scaling, "given"
    else:
        speedup, source = two_worker_speedup(deck, args.deals), "measured"
    census = deck.count_deals(2)
    data = {"deck": deck.spec, "census_deals": census, "deals": args.deals,
            "rounds": args.rounds, "old_revision": args.old if old is not None else None,
            "two_worker_speedup": speedup, "scaling_source": source,
            "cores": args.cores, "kernels": {}}
    for name, rate in rates.items():
        data["kernels"][name] = {
            "deals_per_second": rate, "deals_per_core_hour": rate * 3600,
            "core_years": census / rate / SECONDS_PER_YEAR,
            "census": projection(census, rate, speedup / 2, args.cores)}
    if "old" in rates:
        data["speedup_new_over_old"] = rates["new"] / rates["old"]
    data["load_average"] = os.getloadavg()
    return finish(data, __file__, started, describe, args.output)


if __name__ == "__main__":
    sys.exit(main())
