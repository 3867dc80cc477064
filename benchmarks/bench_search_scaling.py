"""`search random` on W workers against one worker, and what the climber and the factory gain.

    python benchmarks/bench_search_scaling.py [results.json] [--workers W] [--deals D]
        [--rounds R] [--other SRC] [--climb-deals C] [--factory-hours H]

Each round runs, interleaved, ``beggar-search search random --workers 1 --deals D`` and
``--workers W --deals W*D`` and prints the parallel efficiency: the W-worker run's rate
(its summary's deals/s, wall clock) over W times the one-worker run's.  Needs W idle cores
(the figure is for an idle machine; the load average is printed).

With ``--other SRC`` (another commit's source tree: ``git worktree`` or ``git archive``)
each round also runs the same commands from that tree, and one-worker runs of
``search climb --deals C`` and ``search factory --hours H`` from both, so one run shows
what each search gained from one version to the other (the ratio of their summaries'
rates: deals/s, the climber's games/s, the factory's tries/s).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_report import finish

SEED = 13


def search(args: list[str], directory: str, source: str | None = None) -> float:
    """The summary's deals (games, tries) per second of ``beggar-search search ARGS``, run
    from this checkout or from the source tree ``source``."""
    db = os.path.join(directory, f"run-{time.monotonic_ns()}.sqlite")
    env = dict(os.environ)
    if source:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
    out = subprocess.run([sys.executable, "-m", "beggar_search", "search", *args, "--seed",
                          str(SEED), "--db", db, "--quiet", "--json"], check=True,
                         capture_output=True, text=True, env=env).stdout
    os.unlink(db)
    return json.loads(out)["deals_per_second"]


def commands(workers: int, deals: int, climb_deals: int, factory_hours: float,
             other: bool) -> dict[str, list[str]]:
    """The commands of a round, by name."""
    named = {"random-1": ["random", "--workers", "1", "--deals", str(deals)],
             f"random-{workers}": ["random", "--workers", str(workers), "--deals",
                                   str(workers * deals)]}
    if other:
        named["climb-1"] = ["climb", "--workers", "1", "--deals", str(climb_deals)]
        named["factory-1"] = ["factory", "--workers", "1", "--hours", str(factory_hours)]
    return named


def measure(args) -> dict:
    named = commands(args.workers, args.deals, args.climb_deals, args.factory_hours,
                     bool(args.other))
    sources = {"this": None, **({"other": args.other} if args.other else {})}
    rates = {f"{tree} {name}": [] for name in named for tree in sources}
    efficiency = {tree: [] for tree in sources}
    with tempfile.TemporaryDirectory() as directory:
        for source in sources.values():  # kernels compiled or loaded: untimed
            search(["random", "--workers", "1", "--deals", "1"], directory, source)
        for number in range(args.rounds):
            line = []
            for name, command in named.items():
                for tree, source in sources.items():
                    rates[f"{tree} {name}"].append(search(command, directory, source))
                    line.append(f"{tree} {name} {rates[f'{tree} {name}'][-1] / 1e6:.3f} M/s")
            for tree in sources:
                one = rates[f"{tree} random-1"][-1]
                many = rates[f"{tree} random-{args.workers}"][-1]
                efficiency[tree].append(many / (args.workers * one))
                line.append(f"{tree} efficiency {efficiency[tree][-1]:.2f}")
            if args.other:
                line += [f"{name} this/other"
                         f" {rates[f'this {name}'][-1] / rates[f'other {name}'][-1]:.2f}x"
                         for name in named]
            print(f"round {number + 1}: " + ", ".join(line) + f"; load {os.getloadavg()[0]:.2f}",
                  file=sys.stderr, flush=True)
    data = {"workers": args.workers, "deals": args.deals, "rounds": args.rounds, "rates": rates,
            "efficiency": efficiency,
            "median_efficiency": {tree: statistics.median(v) for tree, v in efficiency.items()}}
    if args.other:
        data["gain"] = {name: statistics.median(
            t / o for t, o in zip(rates[f"this {name}"], rates[f"other {name}"], strict=True))
            for name in named}
    return data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="JSON file for the figures")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--deals", type=int, default=8_000_000, help="deals a worker")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--other", metavar="SRC", help="another source tree to compare with")
    parser.add_argument("--climb-deals", type=int, default=2_000_000)
    parser.add_argument("--factory-hours", type=float, default=0.002)
    args = parser.parse_args()
    started = time.time()
    load_before = os.getloadavg()
    data = measure(args)
    data.update(other=args.other, cpus=sorted(os.sched_getaffinity(0)),
                load_average_before=load_before, load_average=os.getloadavg())
    return finish(data, __file__, started, describe, args.output)


def describe(data: dict) -> str:
    efficiency = ", ".join(f"{tree} {value:.2f}"
                           for tree, value in data["median_efficiency"].items())
    gain = "".join(f"; {name} gained {value:.2f}x" for name, value in data.get("gain", {}).items())
    return (f"search random on {data['workers']} workers against {data['workers']} x one worker"
            f" (median of {data['rounds']} rounds): {efficiency}{gain}; cpus {data['cpus']},"
            f" load {data['load_average_before'][0]:.2f} before,"
            f" {data['load_average'][0]:.2f} after")


if __name__ == "__main__":
    sys.exit(main())
