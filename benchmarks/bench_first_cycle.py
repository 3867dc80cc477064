"""The factory's seeding from nothing, apart from the walk: tries until the first cycle.

For each deck and seed, a factory run from nothing is planned and played inline (one
worker) chunk by chunk until its first cycle is stored, or until ``--most`` tries.  The
tries are counted as the run counts them (``first_cycle_tries``: in the run's order of
chunks, the same for any workers or load); CPU seconds are this process's.  Prints a
Markdown table (one row a deck: the tries of each seed, their median and spread) and, with
``--json FILE``, every figure.

    python benchmarks/bench_first_cycle.py [--deck SPEC ...] [--seeds 1-5] [--most N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from beggar_search import driver
from beggar_search.cards.deck import Deck
from beggar_search.store import Store
from beggar_search.strategies import PENDING, FactoryStrategy, execute, warm_up
from beggar_search.tunables import SEED_CHUNK_TRIES, SEED_ROUNDS

# the small decks the tests use, and census decks of 24 cards (random seeding at most)
DECKS = ("plain=5,J=2,Q=1,K=1", "plain=8,J=2,Q=2,K=2,A=2", "plain=15,J=3,Q=3,K=3",
         "plain=16,J=2,Q=2,K=2,A=2")


def first_cycle(folder: str, deck: str, seed: int, most: int, seeding: str | None = None
                ) -> dict:
    """A factory run from nothing on ``deck`` with ``seed``, played chunk by chunk until its
    first cycle is stored (or ``most`` tries): its tries until then, how it met it, and the
    CPU seconds and chunks it took."""
    seeding = seeding or ("random" if Deck.parse(deck).size <= 24 else "grow")
    params = FactoryStrategy.prepare({
        "deck": deck, "players": 2, "seed": seed, "top_k": 0, "max_tricks": None,
        "chunk_size": None, "hours": None, "starts": [],
        "seed_chunks": 1, "seed_rounds": SEED_ROUNDS, "seeding": seeding, "kicks": []})
    with Store(Path(folder) / f"{abs(hash((deck, seed)))}.sqlite") as store:
        run = store.create_run("factory", params, "bench")
        strategy = driver.strategy_for("factory", params)
        strategy.attach(store, run)
        clock = time.process_time()
        chunks = 0
        for job in strategy.plan(set()):
            if job is PENDING:
                continue
            store.add_chunk(run, strategy.record(job, execute(job)), 0, 1.0)
            chunks += 1
            if store.count_cycles(run.id) or store.run(run.id).deals >= most:
                break
        seconds = time.process_time() - clock
        summary = driver.summarise(store, run.id)
        moves = sorted({row["move"] for row in store.cycles(run.id)})
    return {"deck": deck, "seed": seed, "seeding": seeding,
            "first_cycle_tries": summary["first_cycle_tries"], "tries": summary["deals"],
            "chunks": chunks, "met_by": moves, "cpu_seconds": round(seconds, 3)}


def table(rows: list[dict]) -> str:
    """One Markdown row a deck: each seed's tries until the first cycle, median, spread."""
    lines = ["| deck | seeding | tries until the first cycle, seeds in order | median |"
             " max / min | met by | CPU s (all seeds) |", "|---|---|---|---:|---:|---|---:|"]
    for deck in dict.fromkeys(row["deck"] for row in rows):
        mine = [row for row in rows if row["deck"] == deck]
        tries = [row["first_cycle_tries"] for row in mine]
        found = [t for t in tries if t is not None]
        median = f"{statistics.median(found):,.0f}" if len(found) == len(tries) else "-"
        spread = f"{max(found) / min(found):.1f}" if found and len(found) == len(tries) else "-"
        cells = ", ".join("none in " + f"{row['tries']:,}" if t is None else f"{t:,}"
                          for row, t in zip(mine, tries, strict=True))
        met = ", ".join(sorted({m for row in mine for m in row["met_by"]}))
        lines.append(f"| `{deck}` | {mine[0]['seeding']} | {cells} | {median} | {spread} |"
                     f" {met} | {sum(row['cpu_seconds'] for row in mine):.1f} |")
    return "\n".join(lines)


def seeds_of(text: str) -> list[int]:
    """``1-5`` or ``1,4,9``: the seeds."""
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(part) for part in text.split(",")]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", action="append", help="deck spec (repeat); default: DECKS")
    parser.add_argument("--seeds", default="1-5", help="seeds, '1-5' or '1,4,9'")
    parser.add_argument("--most", type=int, default=SEED_ROUNDS * 5 * SEED_CHUNK_TRIES,
                        help="tries at most a seed (default: 64 rounds of random seeding)")
    parser.add_argument("--seeding", choices=["random", "grow"], default=None,
                        help="default: random up to 24 cards, grow above (as the command)")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for deck in args.deck or DECKS:
            warm_up("factory", FactoryStrategy.prepare({
                "deck": deck, "players": 2, "seed": 0, "top_k": 0, "max_tricks": None,
                "chunk_size": None, "hours": None, "starts": [], "seed_chunks": 1,
                "kicks": []}))
            for seed in seeds_of(args.seeds):
                row = first_cycle(folder, deck, seed, args.most, args.seeding)
                print(json.dumps(row), file=sys.stderr, flush=True)
                rows.append(row)
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
