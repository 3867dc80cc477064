"""Cards/s of every workload against the standard random sweep, in one run; or check the fast
path against the general engine on N deals of every workload.

    python benchmarks/bench_kernels.py [results.json] [--deals N] [--rounds R] [--workers W]
    python benchmarks/bench_kernels.py --verify N

The table (the issue's): for each workload (deck, players, source of deals), the fast
path's and the general engine's cards laid per second of one worker's CPU time, each as a
ratio to the fast path on the standard random sweep measured in the same run, and the
fast path on W worker processes against one (wall-clock rates).  Every workload is
measured once per round, rounds interleaved, and its best round kept: on a shared machine
the other processes' work lowers some rounds, never raises one.  The fast path plays N
deals a round, the general engine N/10.

``--verify N``: every workload's N deals played by the fast path and by the general engine
(``rules.play_sequences``), every field of every result row compared; random deals are
drawn as the fast path draws them, enumerated ones start at a random index.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import numpy as np
from bench_report import finish

from beggar_search.bench.speed import Workload, enumeration_start, time_one, time_parallel
from beggar_search.cards.deck import Deck, unrank_sequence
from beggar_search.chunk_engine import Engine
from beggar_search.engine import bitboard, rules
from beggar_search.engine.kernels import kernel_name
from beggar_search.engine.random import chunk_stream

STANDARD_RANDOM = Workload("standard", 2, "random")
WORKLOADS = [
    STANDARD_RANDOM,
    Workload("camicia", 2, "random"),
    Workload("standard", 2, "enumerate"),
    Workload("camicia", 2, "enumerate"),
    Workload("standard", 3, "random"),
    Workload("standard", 4, "random"),
]
VERIFY = WORKLOADS + [
    Workload("plain=10,J=2,Q=2,K=2,A=2", 2, "random"),
    Workload("plain=10,J=2,Q=2,K=2,A=2", 2, "enumerate"),
    Workload("standard", 3, "enumerate"),
    Workload("standard", 4, "enumerate"),
    Workload("camicia", 3, "random"),
    Workload("camicia", 4, "random"),
]


def table(n_deals: int, rounds: int, workers: int) -> dict:
    best: dict[tuple[Workload, str], dict] = {}
    for _ in range(rounds):
        for workload in WORKLOADS:
            for engine, deals in (("fast", n_deals), ("general", max(n_deals // 10, 1))):
                timing = time_one(workload, engine, deals).as_dict()
                key = (workload, engine)
                if key not in best or timing["cards_per_second"] > best[key]["cards_per_second"]:
                    best[key] = timing
    base = best[(STANDARD_RANDOM, "fast")]["cards_per_second"]
    rows = []
    for workload in WORKLOADS:
        fast, general = best[(workload, "fast")], best[(workload, "general")]
        row = {"deck": Deck.parse(workload.deck).spec, "players": workload.players,
               "source": workload.source, "kernel": kernel_name(workload.players),
               "fast": fast, "general": general,
               "fast_ratio": fast["cards_per_second"] / base,
               "general_ratio": general["cards_per_second"] / base}
        if workers > 1:
            one = time_one(workload, "fast", n_deals)
            many = time_parallel(workload, "fast", n_deals, workers)
            row["parallel_speedup"] = many.cards_per_second * one.wall / one.cards
        rows.append(row)
    return {"deals": n_deals, "rounds": rounds, "workers": workers, "rows": rows,
            "load_average": os.getloadavg()}


def describe(data: dict) -> str:
    lines = [f"{'workload':<36}{'fast cards/s':>16}{'ratio':>8}{'general cards/s':>18}"
             f"{'ratio':>8}" + (f"{data['workers']:>5} workers" if data["workers"] > 1 else "")]
    for row in data["rows"]:
        name = f"{row['source']} {row['deck']}, {row['players']}p"
        line = (f"{name:<36}{row['fast']['cards_per_second']:>16,.0f}{row['fast_ratio']:>7.2f}x"
                f"{row['general']['cards_per_second']:>18,.0f}{row['general_ratio']:>7.2f}x")
        if "parallel_speedup" in row:
            line += f"{row['parallel_speedup']:>10.2f}x"
        lines.append(line)
    return "\n".join(lines)


def deals_of(workload: Workload, n_deals: int, seed: int) -> np.ndarray:
    """The deals the fast path plays for the workload: drawn, or consecutive indices."""
    deck = Deck.parse(workload.deck)
    if workload.source == "random":
        return bitboard.generate(chunk_stream(seed, 0), n_deals, deck.sorted_cards())
    sequence = unrank_sequence(enumeration_start(deck, workload.players, seed, 0, n_deals), deck)
    deals = np.empty((n_deals, deck.size), dtype=np.uint8)
    for i in range(n_deals):
        if i:
            bitboard.next_deal(sequence)
        deals[i] = sequence
    return deals


def verify(n_deals: int, chunk: int = 200_000) -> int:
    """Rows that differ, over every workload of VERIFY."""
    bad = 0
    for number, workload in enumerate(VERIFY):
        deck = Deck.parse(workload.deck)
        split = np.array(deck.split(workload.players), dtype=np.int64)
        engine = Engine(deck, workload.players)
        deals = deals_of(workload, n_deals, seed=number)
        differ = 0
        for first in range(0, n_deals, chunk):
            part = deals[first:first + chunk]
            fast = engine.play_sequences(part)
            general = np.zeros_like(fast)
            rules.play_sequences(part, split, 0, 0, general)
            differ += int((fast != general).any(axis=1).sum())
        print(f"{workload.describe()}: {n_deals:,} deals, {differ} differ", flush=True)
        bad += differ
    return bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="JSON file for the figures")
    parser.add_argument("--deals", type=int, default=1_000_000, help="fast-path deals a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--verify", type=int, metavar="N", help="check N deals a workload")
    args = parser.parse_args()
    if args.verify:
        return 1 if verify(args.verify) else 0
    started = time.time()
    data = table(args.deals, args.rounds, args.workers)
    return finish(data, __file__, started, describe, args.output)


if __name__ == "__main__":
    sys.exit(main())
