"""The yardstick: the shared reference C engine against `bench` and `search random`, one run.

    taskset -c 0 python benchmarks/bench_yardstick.py [results.json] [--games N]
        [--deals D] [--search-deals S] [--rounds R]

Builds ``benchmarks/c_yardstick/bmn_ref.c`` (a copy of the shared reference engine
``shared/yardstick/bmn_ref.c``: random standard deals shuffled and played card by card)
with ``gcc -O3 -march=native``, then in each of R rounds, interleaved, runs

- ``bmn_ref N`` (its games/s, per second of its CPU time: ``clock()``);
- ``beggar-search bench --workers 1 --deals D --json`` (the fast path's deals/s, per second
  of CPU time);
- ``beggar-search search random --workers 1 --deals S --json`` (its summary's deals/s, per
  second of the wall clock: a run's rate; beside it the rate over every CPU second the
  command took, its start-up included, and its steady rate per CPU second: the CPU seconds
  of the same command with ``--deals 1``, run in the same round, taken off, so that only
  the deals' own cost is left, which a busy machine does not change);

and prints each rate as a ratio to the C engine of the same round, with the load average;
the figures are the medians of the rounds.  Run it pinned to one core (``taskset -c 0``):
the children inherit the pinning.  The mean cards of a game are checked to agree (within
2%) between the C engine and the fast path: the two play the same game.  Exits 2 with one
line on stderr when no C compiler is found.
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

from bench_report import C_FLAGS, build_c, finish

SOURCE = Path(__file__).resolve().parent / "c_yardstick" / "bmn_ref.c"
FLAGS = C_FLAGS
SEED = 11


def build(directory: str) -> tuple[str, str]:
    """The reference engine built in ``directory``, and the compiler's version line."""
    return build_c(SOURCE, directory)


def reference(binary: str, games: int) -> dict:
    """The reference engine's figures on ``games`` games (its ``key=value`` line)."""
    out = subprocess.run([binary, str(games)], check=True, capture_output=True, text=True)
    fields = dict(word.split("=", 1) for word in out.stdout.split())
    return {"games": int(fields["games"]), "seconds": float(fields["secs"]),
            "deals_per_second": float(fields["games/s"]),
            "mean_cards": float(fields["mean_cards"])}


def children_cpu() -> float:
    """CPU seconds of the children that have ended (and of theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command(*args: str) -> tuple[dict, float]:
    """``beggar-search ARGS --json``'s object, and the CPU seconds the command took."""
    cpu = children_cpu()
    out = subprocess.run([sys.executable, "-m", "beggar_search", *args, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out), children_cpu() - cpu


def measure(binary: str, games: int, deals: int, search_deals: int, rounds: int,
            directory: str) -> dict:
    rows = []
    for number in range(rounds):
        c = reference(binary, games)
        bench, _ = command("bench", "--workers", "1", "--deals", str(deals))
        db = os.path.join(directory, f"search-{number}.sqlite")
        search, search_cpu = command("search", "random", "--workers", "1", "--deals",
                                     str(search_deals), "--seed", str(SEED + number), "--db", db,
                                     "--quiet")
        _, start_cpu = command("search", "random", "--workers", "1", "--deals", "1", "--seed",
                               str(SEED), "--db", db + "-start", "--quiet")
        fast = bench["fast"]
        row = {"c": c["deals_per_second"], "bench": fast["deals_per_second"],
               "search": search["deals_per_second"], "search_all_cpu": search_deals / search_cpu,
               "search_steady_cpu": (search_deals - 1) / (search_cpu - start_cpu),
               "search_start_cpu_seconds": start_cpu,
               "c_mean_cards": c["mean_cards"], "bench_mean_cards": fast["cards"] / fast["deals"],
               "load": os.getloadavg()[0]}
        drift = abs(row["c_mean_cards"] / row["bench_mean_cards"] - 1)
        if drift > 0.02:
            raise AssertionError(f"mean cards a game: C {row['c_mean_cards']:.1f}, fast path"
                                 f" {row['bench_mean_cards']:.1f}: not the same game?")
        rows.append(row)
        print(f"round {number + 1}: C {row['c'] / 1e6:.3f} M/s; bench {row['bench'] / 1e6:.3f} M/s"
              f" {row['bench'] / row['c']:.2f}x; search random {row['search'] / 1e6:.3f} M/s"
              f" {row['search'] / row['c']:.2f}x ({row['search'] / row['bench']:.2f}x bench;"
              f" all CPU {row['search_all_cpu'] / 1e6:.3f} M/s"
              f" {row['search_all_cpu'] / row['c']:.2f}x; steady per CPU s"
              f" {row['search_steady_cpu'] / 1e6:.3f} M/s"
              f" {row['search_steady_cpu'] / row['c']:.2f}x,"
              f" start-up {row['search_start_cpu_seconds']:.2f} CPU s); load {row['load']:.2f}",
              file=sys.stderr, flush=True)
    median = {key: statistics.median(row[key] for row in rows)
              for key in ("c", "bench", "search", "search_all_cpu", "search_steady_cpu",
                          "search_start_cpu_seconds")}
    return {"rounds": rows, "median": median,
            "bench_ratio": statistics.median(row["bench"] / row["c"] for row in rows),
            "search_ratio": statistics.median(row["search"] / row["c"] for row in rows),
            "search_all_cpu_ratio": statistics.median(row["search_all_cpu"] / row["c"]
                                                      for row in rows),
            "search_steady_cpu_ratio": statistics.median(row["search_steady_cpu"] / row["c"]
                                                         for row in rows),
            "search_to_bench": statistics.median(row["search"] / row["bench"] for row in rows),
            "search_steady_to_bench": statistics.median(row["search_steady_cpu"] / row["bench"]
                                                        for row in rows)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="JSON file for the figures")
    parser.add_argument("--games", type=int, default=2_000_000, help="games of the C engine")
    parser.add_argument("--deals", type=int, default=4_000_000, help="deals of bench")
    parser.add_argument("--search-deals", type=int, default=8_000_000,
                        help="deals of search random")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    started = time.time()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as directory:
        try:
            binary, compiler = build(directory)
        except FileNotFoundError as error:
            print(f"bench_yardstick: {error}", file=sys.stderr)
            return 2
        data = {"compiler": compiler, "flags": " ".join(FLAGS), "games": args.games,
                "deals": args.deals, "search_deals": args.search_deals,
                "cpus": sorted(os.sched_getaffinity(0)), "load_average_before": load_before}
        data.update(measure(binary, args.games, args.deals, args.search_deals, args.rounds,
                            directory))
    data["load_average"] = os.getloadavg()
    return finish(data, __file__, started, describe, args.output)


def describe(data: dict) -> str:
    median = data["median"]
    return (f"reference C {median['c'] / 1e6:.3f} M deals/s; bench --workers 1"
            f" {median['bench'] / 1e6:.3f} M: {data['bench_ratio']:.2f}x; search random"
            f" --workers 1 {median['search'] / 1e6:.3f} M: {data['search_ratio']:.2f}x"
            f" ({data['search_to_bench']:.2f}x bench; over all its CPU"
            f" {data['search_all_cpu_ratio']:.2f}x; steady per CPU s"
            f" {median['search_steady_cpu'] / 1e6:.3f} M: {data['search_steady_cpu_ratio']:.2f}x,"
            f" {data['search_steady_to_bench']:.2f}x bench);"
            f" medians of {len(data['rounds'])} rounds,"
            f" cpus {data['cpus']}, load {data['load_average_before'][0]:.2f} before,"
            f" {data['load_average'][0]:.2f} after")


if __name__ == "__main__":
    sys.exit(main())
