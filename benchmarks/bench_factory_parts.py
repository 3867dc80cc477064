"""Where the factory's time goes: a one-worker run broken down by part, in CPU seconds.

Runs ``search factory --workers 1`` in this process (the inline pool: chunks run here), from
the Casella cycle on the standard deck for ``--hours``, with CPU-time timers
(``time.process_time``) around each part of a chunk and of the plan:

- tries played: the walk's kernel (``walk.expand``: moves on masks, their dedup and
  ``play_tried``) and the kicks' (``perturb.kick_chunk_with``: drawing kicks and
  ``play_tried``);
- catalogue: each expanded cycle's backward search (``game.reach``) and its fair deals
  recorded;
- cycle nodes: the cycles met read back as ``CycleNode`` (played by the general engine);
- chunk set-up: the rest of ``run_chunk`` (parsing states, arrays, records);
- planning: the plan's generator (``FactoryStrategy.plan``: packing, reading generations);
- storing: ``Store.add_chunk``;
- the rest of the sitting (progress lines, the family read every 10 s, the summary).

Each round first times the sweep (``bench``'s fast path, standard deck, 2,000,000 random
deals per CPU second, ``bench.speed.time_one``) in the same process, so that the factory's
tried states per CPU second come with their ratio to it, same core, same run.  Prints a
Markdown table per round; ``--json FILE`` writes the figures.

    taskset -c 0 python benchmarks/bench_factory_parts.py [--hours 0.01] [--rounds 2]
        [--seed 7] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from beggar_search import driver
from beggar_search.bench.speed import Workload, time_one
from beggar_search.cycles import perturb, walk
from beggar_search.games.loops import CASELLA
from beggar_search.store import Store
from beggar_search.strategies import FactoryStrategy
from beggar_search.strategies import factory as factory_module

PARTS = ("walk kernel", "kick kernel", "catalogue", "cycle nodes", "chunk set-up",
         "planning", "storing")


class Timers:
    """CPU seconds and calls by part; ``wrap`` times a function under a part's name."""

    def __init__(self):
        self.seconds = dict.fromkeys(PARTS, 0.0)
        self.calls = dict.fromkeys(PARTS, 0)
        self.tries = {"walk": 0, "kick": 0}

    def wrap(self, part: str, function):
        def timed(*args, **kwargs):
            clock = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[part] += time.process_time() - clock
                self.calls[part] += 1
        return timed

    def generator(self, part: str, function):
        def timed(*args, **kwargs):
            inner = function(*args, **kwargs)
            while True:
                clock = time.process_time()
                try:
                    item = next(inner)
                except StopIteration:
                    self.seconds[part] += time.process_time() - clock
                    return
                self.seconds[part] += time.process_time() - clock
                yield item
        return timed


def patched_run(hours: float, seed: int, folder: str) -> tuple[dict, Timers, float, float]:
    """The run with its parts timed: (summary, timers, CPU seconds of the sitting, CPU
    seconds of its chunks as the workers count them)."""
    params = {"deck": "standard", "players": 2, "seed": seed, "top_k": 100,
              "max_tricks": None, "chunk_size": None, "hours": hours, "starts": [CASELLA]}
    FactoryStrategy(FactoryStrategy.prepare(dict(params))).warm_up()  # before the timers
    timers = Timers()
    originals = (walk.expand, perturb.kick_chunk_with, FactoryStrategy._catalogue,
                 factory_module.cycle_node, FactoryStrategy.run_chunk, FactoryStrategy.plan,
                 Store.add_chunk)
    walk.expand = timers.wrap("walk kernel", originals[0])
    perturb.kick_chunk_with = timers.wrap("kick kernel", originals[1])
    FactoryStrategy._catalogue = timers.wrap("catalogue", originals[2])
    factory_module.cycle_node = timers.wrap("cycle nodes", originals[3])
    chunk_clock = {"seconds": 0.0}

    def run_chunk(self, job):
        clock = time.process_time()
        summary = originals[4](self, job)
        chunk_clock["seconds"] += time.process_time() - clock
        timers.tries[job.work["phase"]] = timers.tries.get(job.work["phase"], 0) + summary.deals
        return summary

    FactoryStrategy.run_chunk = run_chunk
    FactoryStrategy.plan = timers.generator("planning", originals[5])
    Store.add_chunk = timers.wrap("storing", originals[6])
    try:
        with Store(Path(folder) / "parts.sqlite") as store:
            clock = time.process_time()
            summary = driver.start(store, "factory", params, 1, quiet=True)
            sitting = time.process_time() - clock
    finally:
        (walk.expand, perturb.kick_chunk_with, FactoryStrategy._catalogue,
         factory_module.cycle_node, FactoryStrategy.run_chunk, FactoryStrategy.plan,
         Store.add_chunk) = originals
    inside = sum(timers.seconds[p] for p in ("walk kernel", "kick kernel", "catalogue",
                                               "cycle nodes"))
    timers.seconds["chunk set-up"] = chunk_clock["seconds"] - inside
    return summary, timers, sitting, chunk_clock["seconds"]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args(argv)
    rounds = []
    for _ in range(args.rounds):
        rounds.append(one_round(args))
    if args.json:
        args.json.write_text(json.dumps(rounds, indent=1) + "\n")


def one_round(args) -> dict:
    """The sweep, then the factory run by parts; prints the round and returns its figures."""
    load = os.getloadavg()[0]
    sweep = time_one(Workload(), "fast", 2_000_000).deals_per_second
    with tempfile.TemporaryDirectory() as folder:
        summary, timers, sitting, chunks = patched_run(args.hours, args.seed, folder)
    tries = int(summary["deals"])
    print(f"factory, standard deck from Casella's cycle, seed {args.seed}, --hours {args.hours},"
          f" one worker in this process; load {load:.1f}-{os.getloadavg()[0]:.1f}:")
    print(f"sweep (bench's fast path) {sweep:,.0f} deals per CPU second; factory"
          f" {tries:,} tries ({timers.tries.get('walk', 0):,} walking,"
          f" {timers.tries.get('kick', 0):,} kicking), {sitting:.2f} CPU s:"
          f" {tries / sitting:,.0f} tries per CPU second of the sitting"
          f" (**{tries / sitting / sweep:.2f}x the sweep**),"
          f" {tries / chunks:,.0f} per CPU second of its chunks")
    print("| part | CPU s | share | calls |\n|---|---|---|---|")
    rest = sitting - sum(timers.seconds.values())
    for part in PARTS:
        print(f"| {part} | {timers.seconds[part]:.2f} | {timers.seconds[part] / sitting:.1%}"
              f" | {timers.calls[part]:,} |")
    print(f"| the rest of the sitting | {rest:.2f} | {rest / sitting:.1%} | |")
    for phase, part in (("walk", "walk kernel"), ("kick", "kick kernel")):
        if timers.seconds[part] > 0:
            print(f"{phase}: {timers.tries.get(phase, 0) / timers.seconds[part]:,.0f} tries per"
                  f" CPU second of its kernel")
    return {"sweep_deals_per_second": sweep, "tries": tries, "sitting_cpu": sitting,
            "chunks_cpu": chunks, "parts": timers.seconds, "calls": timers.calls,
            "phase_tries": timers.tries, "load": [load, os.getloadavg()[0]]}

if __name__ == "__main__":
    sys.exit(main())
