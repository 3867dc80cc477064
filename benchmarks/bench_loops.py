"""The loop factory from nothing: groups and looping deals found against tries and CPU seconds.

For each deck and seed, a factory run from nothing (as ``search factory --deck D`` plans it
with nothing known: 16 seeding chunks a round, up to 64 rounds, random seeding up to 24
cards and ``grow`` above, the walk, kicks) is planned and played inline, one chunk at a time
(``--workers 1`` equivalent), until it has found every group of the census truth, or after
``--tries`` tries or ``--cpu`` CPU seconds.  A group is a fair-reachable cycle as the
census counts them (a cycle and its mirror are two); a group is found, and its deals, when
the run stores a fair looping deal of it (the chunk that catalogues it).  Tries are counted
as the run counts them (in its order of chunks, the same for any workers or load; a busy
machine costs seconds, not tries); CPU seconds are this process's, chunk by chunk.

Truth: the census of a small deck (``census_truth.py``, cached under benchmarks/data/), or
for camicia its published totals (15 groups, 162 looping deals; every fair-reachable cycle
the factory finds is one of them, so what it finds is counted against those totals).

Prints a Markdown table (one row a deck and seed, then the median seed) and, with ``--json
FILE``, every figure, with the curve: each (tries, CPU s, groups, deals) where something
new was found.

    python benchmarks/bench_loops.py [--deck SPEC ...] [--seeds 1-5] [--tries N] [--cpu S]
    python benchmarks/bench_loops.py --table out.json [more.json ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from itertools import accumulate
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_first_cycle import seeds_of
from census_truth import census_truth

from beggar_search import driver
from beggar_search.cards.deck import Deck
from beggar_search.store import Store
from beggar_search.strategies import PENDING, FactoryStrategy, execute, warm_up
from beggar_search.tunables import SEED_CHUNK_TRIES, SEED_ROUNDS

# two census decks of 24 cards with two islands each (docs/results.md), and camicia
DECKS = ("plain=15,J=3,Q=3,K=3", "plain=16,J=3,Q=2,K=3", "camicia")
CAMICIA = {"groups": 15, "deals": 162}  # the census of camicia (docs/results.md)
MILESTONES = (10**6, 3 * 10**6, 10**7, 3 * 10**7, 10**8, 10**9)  # tries the table reads at


def truth_of(deck: str) -> dict:
    """{"groups": n, "deals": n, "cycles": {id: set(deals)} or None} of ``deck``."""
    if Deck.parse(deck).spec == Deck.parse("camicia").spec:
        return {**CAMICIA, "cycles": None}
    cycles = {c: set(d) for c, d in census_truth(Deck.parse(deck))["cycles"].items()}
    return {"groups": len(cycles), "deals": sum(map(len, cycles.values())), "cycles": cycles}


def params_of(deck: str, seed: int) -> dict:
    """A run from nothing as the command line plans it (``search factory --deck D``)."""
    size = Deck.parse(deck).size
    return FactoryStrategy.prepare({
        "deck": deck, "players": 2, "seed": seed, "top_k": 0, "max_tricks": None,
        "chunk_size": None, "hours": None, "starts": [], "seed_chunks": 16,
        "seed_rounds": SEED_ROUNDS, "seeding": "random" if size <= 24 else "grow"})


def recall(folder: str, deck: str, seed: int, truth: dict, most_tries: int,
           most_cpu: float) -> dict:
    """A factory run from nothing on ``deck`` with ``seed``, played chunk by chunk until every
    group of ``truth`` is found, ``most_tries`` tries or ``most_cpu`` CPU seconds: the groups
    and deals found against tries and CPU seconds."""
    params = params_of(deck, seed)
    cycles = truth["cycles"]
    with Store(Path(folder) / f"{abs(hash((deck, seed)))}.sqlite") as store:
        run = store.create_run("factory", params, "bench")
        strategy = driver.strategy_for("factory", params)
        strategy.attach(store, run)
        cpu, stop, found = {}, "plan done", 0
        for job in strategy.plan(set()):
            if job is PENDING:
                continue
            clock = time.process_time()
            store.add_chunk(run, strategy.record(job, execute(job)), 0, 1.0)
            cpu[job.chunk] = time.process_time() - clock
            if cycles is not None:
                found = len({g["cycle"] for g in store.games(run.id, "loops")} & set(cycles))
            if found >= truth["groups"]:
                stop = "all found"
                break
            if store.run(run.id).deals >= most_tries:
                stop = "tries"
                break
            if sum(cpu.values()) >= most_cpu:
                stop = "cpu"
                break
        chunk_tries = store.chunk_tries(run.id)
        loops = store.games(run.id, "loops")
        summary = driver.summarise(store, run.id)
    order = [chunk for chunk, _ in chunk_tries]
    tries_through = dict(zip(order, accumulate(t for _, t in chunk_tries), strict=True))
    cpu_through = dict(zip(order, accumulate(cpu.get(c, 0.0) for c in order), strict=True))
    groups, deals, curve = set(), set(), []
    for game in sorted(loops, key=lambda g: (g["chunk"], g["position"])):
        if cycles is not None and game["deal"] not in cycles.get(game["cycle"], ()):
            continue  # not a census deal (none should be)
        before = (len(groups), len(deals))
        groups.add(game["cycle"])
        deals.add(game["deal"])
        point = {"tries": tries_through[game["chunk"]],
                 "cpu_seconds": round(cpu_through[game["chunk"]], 2),
                 "groups": len(groups), "deals": len(deals)}
        if (len(groups), len(deals)) != before:
            if curve and curve[-1]["tries"] == point["tries"]:
                curve[-1] = point
            else:
                curve.append(point)
    return {"deck": deck, "seed": seed, "seeding": params["seeding"],
            "groups_total": truth["groups"], "deals_total": truth["deals"],
            "groups": len(groups), "deals": len(deals), "cycles": summary["cycles"],
            "islands": summary["islands"], "first_cycle_tries": summary["first_cycle_tries"],
            "tries": summary["deals"], "cpu_seconds": round(sum(cpu.values()), 2),
            "chunks": len(order), "stop": stop, "curve": curve,
            "load": os.getloadavg()[0]}


def at(curve: list[dict], tries: int) -> int:
    """The groups found within ``tries``."""
    return max([p["groups"] for p in curve if p["tries"] <= tries], default=0)


def reached(row: dict, tries: int) -> bool:
    """Whether ``row``'s run says what it had found within ``tries``: it played that many,
    or it had found every group before."""
    return row["tries"] >= tries or row["stop"] == "all found"


def at_cell(row: dict, tries: int) -> str:
    """The table's cell at ``tries``: the groups found within them, or '-' where the run
    stopped short of them (more tries might have found more)."""
    return str(at(row["curve"], tries)) if reached(row, tries) else "-"


def last_group(row: dict) -> dict | None:
    """The curve's point where the run's last new group came."""
    points = [p for p in row["curve"] if p["groups"] == row["groups"]]
    return points[0] if points else None


def table(rows: list[dict]) -> str:
    """One Markdown row a deck and seed, and a median row a deck."""
    heads = [f"groups within {t:.0e}".replace("e+0", "e") for t in MILESTONES]
    lines = ["| deck | seed | groups found | deals found | first cycle, tries |"
             " last new group: tries, CPU s | " + " | ".join(heads) +
             " | played: tries, CPU s | stopped by |",
             "|---|---|---:|---:|---:|---:|" + "---:|" * len(heads) + "---:|---|"]
    for deck in dict.fromkeys(row["deck"] for row in rows):
        mine = [row for row in rows if row["deck"] == deck]
        for row in mine:
            last = last_group(row)
            first = row["first_cycle_tries"]
            came = f"{last['tries']:,}, {last['cpu_seconds']:.1f}" if last else "-"
            lines.append(
                f"| `{deck}` | {row['seed']} | {row['groups']}/{row['groups_total']} |"
                f" {row['deals']}/{row['deals_total']} |"
                f" {'-' if first is None else f'{first:,}'} |"
                f" {came} | "
                + " | ".join(at_cell(row, t) for t in MILESTONES) +
                f" | {row['tries']:,}, {row['cpu_seconds']:.1f} | {row['stop']} |")
        if len(mine) > 1:
            def median(values):
                return statistics.median(values)
            lasts = [last_group(row) for row in mine]
            tries = [p["tries"] for p in lasts if p]
            seconds = [p["cpu_seconds"] for p in lasts if p]
            lines.append(
                f"| `{deck}` | median | {median([r['groups'] for r in mine]):g} |"
                f" {median([r['deals'] for r in mine]):g} | - |"
                f" {f'{median(tries):,.0f}, {median(seconds):.1f}' if tries else '-'} | "
                + " | ".join(f"{median([at(r['curve'], t) for r in mine]):g}"
                             if all(reached(r, t) for r in mine) else "-"
                             for t in MILESTONES) +
                f" | {median([r['tries'] for r in mine]):,.0f},"
                f" {median([r['cpu_seconds'] for r in mine]):.1f} | - |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", action="append", help="deck spec (repeat); default: DECKS")
    parser.add_argument("--seeds", default="1-5", help="seeds, '1-5' or '1,4,9'")
    parser.add_argument("--tries", type=int, default=100 * SEED_CHUNK_TRIES * 16,
                        help="tries at most a seed (default: 100 rounds of random seeding)")
    parser.add_argument("--cpu", type=float, default=600.0, help="CPU seconds at most a seed")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    parser.add_argument("--table", type=Path, nargs="+", metavar="JSON",
                        help="print the table of figures written before by --json, and stop")
    args = parser.parse_args(argv)
    if args.table:
        print(table([row for path in args.table for row in json.loads(path.read_text())]))
        return
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for deck in args.deck or DECKS:
            truth = truth_of(deck)
            warm_up("factory", params_of(deck, 0))
            for seed in seeds_of(args.seeds):
                row = recall(folder, deck, seed, truth, args.tries, args.cpu)
                print(json.dumps({k: v for k, v in row.items() if k != "curve"}),
                      file=sys.stderr, flush=True)
                rows.append(row)
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
