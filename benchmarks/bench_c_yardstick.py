"""The fast path against a card-by-card C engine compiled here, one worker, in the same run.

    python benchmarks/bench_c_yardstick.py [results.json] [--deals N] [--rounds R] [--check M]

Compiles ``benchmarks/c_yardstick/beggar.c`` with ``cc -O3 -march=native``, checks it
(M shuffled deals from the same xoshiro stream as ``engine/baseline.py``: the same total
of cards and wins; M deals drawn by the fast path, written to a file: cards, tricks and
winner of every one equal to the general engine's), then times it and the fast path's
standard random sweep (``beggar-search bench``'s workload: draw, play, record) in
interleaved rounds, each on one core, per second of CPU time.  Both rates are the best
round of R (the machine may be shared: other processes lower some rounds, never raise
one); the ratio of the best rounds, and the median of the per-round ratios, are reported
with the load average.  Exits 2 with one line on stderr when no C compiler is found.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import numpy as np
from bench_report import C_FLAGS, build_c, finish

from beggar_search.bench.speed import SEED, Workload, time_one
from beggar_search.cards.deck import STANDARD
from beggar_search.engine import baseline, bitboard, rules
from beggar_search.engine.random import chunk_stream

SOURCE = Path(__file__).resolve().parent / "c_yardstick" / "beggar.c"
FLAGS = C_FLAGS


def compile_yardstick(directory: str) -> tuple[str, str]:
    """The compiled program's path and the compiler's version line."""
    return build_c(SOURCE, directory)


def run_random(binary: str, stream: np.ndarray, n_deals: int) -> dict:
    """The C program on ``n_deals`` shuffled deals from the xoshiro state ``stream``."""
    words = [str(int(w)) for w in stream.astype(np.int64)]
    out = subprocess.run([binary, "random", *words, str(n_deals)], check=True,
                         capture_output=True, text=True).stdout.split()
    deals, cards, tricks, wins1, wins2, unfinished = map(int, out[:6])
    return {"deals": deals, "cards": cards, "tricks": tricks, "wins": [wins1, wins2],
            "unfinished": unfinished, "cpu_seconds": float(out[6])}


def check(binary: str, n_deals: int, directory: str) -> dict:
    """The C program's games against the project's engines; raises when one differs."""
    c = run_random(binary, chunk_stream(SEED, 5), n_deals)
    cards, wins1, wins2 = baseline.random_games(chunk_stream(SEED, 5), n_deals)
    if (c["cards"], c["wins"]) != (int(cards), [int(wins1), int(wins2)]):
        raise AssertionError(f"C shuffled deals: cards {c['cards']} wins {c['wins']}, "
                             f"baseline cards {cards} wins {[wins1, wins2]}")
    deals = bitboard.generate(chunk_stream(SEED, 6), n_deals, STANDARD.sorted_cards())
    path = os.path.join(directory, "deals.txt")
    with open(path, "w") as handle:
        handle.writelines("".join(map(str, deal)) + "\n" for deal in deals.tolist())
    out = subprocess.run([binary, "file", path], check=True, capture_output=True,
                         text=True).stdout
    c_rows = np.array([line.split() for line in out.splitlines()], dtype=np.int64)
    rows = np.zeros((n_deals, rules.RESULT_LEN), dtype=np.int64)
    rules.play_sequences(deals, np.array([26, 26], dtype=np.int64), 0, 0, rows)
    general = rows[:, [rules.R_CARDS, rules.R_TRICKS, rules.R_WINNER]]
    differ = int((c_rows != general).any(axis=1).sum())
    if differ:
        raise AssertionError(f"C against the general engine: {differ} of {n_deals} deals differ")
    return {"shuffled_deals": n_deals, "shuffled_cards": c["cards"], "given_deals": n_deals,
            "given_cards": int(general[:, 0].sum()), "differ": 0}


def measure(binary: str, n_deals: int, rounds: int) -> dict:
    c_rates, fast_rates, ratios = [], [], []
    for number in range(rounds):
        c = run_random(binary, chunk_stream(SEED, 100 + number), n_deals)
        fast = time_one(Workload(), "fast", n_deals)
        c_rates.append(c["deals"] / c["cpu_seconds"])
        fast_rates.append(fast.deals_per_second)
        ratios.append(fast_rates[-1] / c_rates[-1])
        print(f"round {number + 1}: C {c_rates[-1] / 1e6:.3f} M deals/s, fast path "
              f"{fast_rates[-1] / 1e6:.3f} M deals/s, ratio {ratios[-1]:.2f}x, "
              f"load {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
    return {"c_deals_per_second": max(c_rates), "fast_deals_per_second": max(fast_rates),
            "ratio_best": max(fast_rates) / max(c_rates),
            "ratio_median": statistics.median(ratios), "rounds": rounds,
            "round_ratios": ratios}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="JSON file for the figures")
    parser.add_argument("--deals", type=int, default=2_000_000, help="deals a round, each side")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--check", type=int, default=100_000, metavar="M",
                        help="deals checked against the project's engines (0: none)")
    args = parser.parse_args()
    started = time.time()
    with tempfile.TemporaryDirectory() as directory:
        try:
            binary, compiler = compile_yardstick(directory)
        except FileNotFoundError as error:
            print(f"bench_c_yardstick: {error}", file=sys.stderr)
            return 2
        data = {"compiler": compiler, "flags": " ".join(FLAGS)}
        if args.check:
            data["check"] = check(binary, args.check, directory)
            print(f"C yardstick agrees on {args.check:,} shuffled and {args.check:,} given deals",
                  file=sys.stderr)
        data.update(measure(binary, args.deals, args.rounds))
    data["deals"] = args.deals
    data["load_average"] = os.getloadavg()
    return finish(data, __file__, started, describe, args.output)


def describe(data):
    return (f"C card-by-card {data['c_deals_per_second'] / 1e6:.3f} M deals/s, fast path "
            f"{data['fast_deals_per_second'] / 1e6:.3f} M deals/s: {data['ratio_best']:.2f}x "
            f"(median of rounds {data['ratio_median']:.2f}x), load "
            f"{data['load_average'][0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
