"""Recall of the loop factory against census truth (every looping deal of a small deck).

For each deck: the census truth (``census_truth.py``, cached under benchmarks/data/);
the factory run from nothing (random states, then the closure, then kick rounds until
``--until-idle`` hours pass without a new cycle); one walk from a seed cycle per island
(the seed: the fair cycle reached by most deals not covered yet; the closure alone, no
kicks).
Islands are the groups of cycles joined by the moves and mirror links of every
catalogue made here.  Prints a Markdown table and, with ``--json FILE``, the figures.

    python benchmarks/bench_factory.py [--deck SPEC ...] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from census_truth import census_truth

from beggar_search import driver
from beggar_search.cards.deck import Deck
from beggar_search.store import Store
from beggar_search.store.cycle_families import islands
from beggar_search.strategies import FactoryStrategy, warm_up
from beggar_search.tunables import SEED_CHUNK_TRIES, SEED_ROUNDS

DECKS = (  # every census deck in benchmarks/data that has looping deals, by size
    "plain=8,J=2,Q=2,K=2,A=2", "plain=8,J=2,Q=3,K=3", "plain=9,J=2,Q=2,K=2,A=2",
    "plain=10,J=2,Q=2,K=2,A=2", "plain=10,J=3,Q=2,K=3", "plain=10,J=3,Q=3,K=3",
    "plain=14,J=2,Q=2,K=2", "plain=11,J=3,Q=3,K=3", "plain=15,J=3,Q=3,K=3",
    "plain=16,J=2,Q=3,K=3", "plain=16,J=3,Q=2,K=3", "plain=16,J=2,Q=2,K=2,A=2")


def factory_run(folder: str, name: str, deck: str, starts, seed_chunks: int, workers: int,
                seeding: str = "random", until_idle: float | None = None):
    """One factory run into a fresh file: its catalogue, fair loops, moves and timing.

    Seeding (when ``seed_chunks``) as the command line does from nothing: up to
    ``SEED_ROUNDS`` rounds.  With ``until_idle`` (hours), kick rounds until that long
    passes without a new cycle; without, no kicks."""
    params = FactoryStrategy.prepare({
        "deck": deck, "players": 2, "seed": 1, "top_k": 0, "max_tricks": None,
        "chunk_size": None, "hours": None, "starts": list(starts), "seed_chunks": seed_chunks,
        "seed_rounds": SEED_ROUNDS if seed_chunks else 1, "seeding": seeding,
        **({"until_idle": until_idle} if until_idle else {"kicks": []})})
    with Store(Path(folder) / f"{name}.sqlite") as store:
        clock = time.perf_counter()
        summary = driver.start(store, "factory", params, workers, quiet=True)
        seconds = time.perf_counter() - clock
        rows = store.cycles(summary["run"])
        loops = {}
        for game in store.games(summary["run"], "loops"):
            loops.setdefault(game["cycle"], set()).add(game["deal"])
        return {"rows": rows, "loops": loops, "moves": store.move_stats(summary["run"]),
                "links": store.links(summary["run"]),
                "tries": summary["deals"], "seconds": seconds}


def measure(deck: str, seed_tries: int, workers: int, seeding: str = "random",
            until_idle: float | None = None) -> dict:
    truth = {c: set(d) for c, d in census_truth(Deck.parse(deck))["cycles"].items()}
    fair = set(truth)
    warm_up("factory", FactoryStrategy.prepare({
        "deck": deck, "players": 2, "seed": 1, "top_k": 0, "max_tricks": None,
        "chunk_size": None, "hours": None, "starts": [], "seed_chunks": 0}))
    with tempfile.TemporaryDirectory() as folder:
        nothing = factory_run(folder, "nothing", deck, [], -(-seed_tries // SEED_CHUNK_TRIES),
                              workers, seeding, until_idle)
        walks, covered = [], set()
        while covered < fair:
            seed = min(fair - covered, key=lambda c: (-len(truth[c]), c))
            walk = factory_run(folder, f"walk{len(walks)}", deck, [min(truth[seed])], 0,
                               workers)
            walk["seed"] = seed
            walks.append(walk)
            covered |= {seed} | (fair & set(walk["loops"]))
    rows = [row for run in [nothing, *walks] for row in run["rows"]]
    island = islands(rows, [link for run in [nothing, *walks] for link in run["links"]])
    fair_islands = {island[c] for c in fair if c in island}
    per_island = {i: {c for c in fair if island.get(c) == i} for i in fair_islands}

    def found(run):
        return {c for c in fair if run["loops"].get(c) == truth[c]}  # all its deals

    first = walks[0]
    seed_island = per_island[island[first["seed"]]]
    union = set().union(*(found(w) for w in walks))
    union_deals = set().union(*(d for w in walks for d in w["loops"].values()))
    all_deals = set().union(*truth.values())
    from_nothing = found(nothing)
    return {
        "deck": deck, "fair_cycles": len(fair), "fair_deals": len(all_deals),
        "islands": len(fair_islands),
        "island_sizes": sorted((len(s) for s in per_island.values()), reverse=True),
        "seed": {"cycle": first["seed"], "island": len(seed_island),
                 "found": len(found(first) & seed_island), "tries": first["tries"],
                 "seconds": round(first["seconds"], 1), "cycles_met": len(first["rows"])},
        "walks": [{"seed": w["seed"], "island": len(per_island[island[w["seed"]]]),
                   "found": len(found(w) & per_island[island[w["seed"]]]),
                   "tries": w["tries"], "seconds": round(w["seconds"], 1)} for w in walks],
        "one_seed_per_island": {"found": len(union), "deals": len(union_deals & all_deals),
                                "extra_deals": len(union_deals - all_deals),
                                "tries": sum(w["tries"] for w in walks),
                                "seconds": round(sum(w["seconds"] for w in walks), 1)},
        "from_nothing": {"found": len(from_nothing), "seed_tries": seed_tries,
                         "seeding": seeding,
                         "seeded_rounds": len({r["generation"] for r in nothing["rows"]
                                               if r["move"] in ("random state", "random fair deal",
                                                                "grown")}),
                         "kicked": sorted({r["cycle"] for r in nothing["rows"]
                                           if (r["move"] or "").startswith("kick")}
                                          & set(fair)),
                         "until_idle": until_idle,
                         "tries": nothing["tries"], "seconds": round(nothing["seconds"], 1),
                         "islands_reached": len({island[c] for c in from_nothing}),
                         "cycles_met": len(nothing["rows"]),
                         "moves": nothing["moves"]},
        "load": os.getloadavg()[0],
    }


def table(results) -> str:
    lines = ["| deck | fair cycles / deals | islands (sizes) | one seed: island found, tries, s |"
             " one seed per island: cycles, deals, s | from nothing: cycles, islands,"
             " rounds that met cycles, tries, s |",
             "|---|---|---|---|---|---|"]
    for r in results:
        s, u, z = r["seed"], r["one_seed_per_island"], r["from_nothing"]
        lines.append(
            f"| `{r['deck']}` | {r['fair_cycles']} / {r['fair_deals']} | {r['islands']}"
            f" ({', '.join(map(str, r['island_sizes'][:6]))}{', ...' if r['islands'] > 6 else ''})"
            f" | {s['found']}/{s['island']} ({100 * s['found'] / s['island']:.0f}%),"
            f" {s['tries']:,}, {s['seconds']}"
            f" | {u['found']}/{r['fair_cycles']} ({100 * u['found'] / r['fair_cycles']:.0f}%),"
            f" {u['deals']}/{r['fair_deals']}, {u['seconds']}"
            f" | {z['found']}/{r['fair_cycles']} ({100 * z['found'] / r['fair_cycles']:.0f}%),"
            f" {z['islands_reached']}/{r['islands']}, {z['seeded_rounds']}, {z['tries']:,},"
            f" {z['seconds']} |")
    lines.append("")
    lines.append("Yield per move kind, from nothing (distinct states tried / loops / new cycles):")
    for r in results:
        moves = ", ".join(f"{m['move']} {m['tries']:,}/{m['loops']:,}/{m['cycles']}"
                          for m in r["from_nothing"]["moves"])
        lines.append(f"- `{r['deck']}`: {moves}")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", action="append", default=None)
    parser.add_argument("--seed-tries", type=int, default=16 * SEED_CHUNK_TRIES)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seeding", choices=("random", "grow"), default="random",
                        help="how the run from nothing seeds (grow: two players only)")
    parser.add_argument("--until-idle", type=float, default=0.02,
                        help="the run from nothing kicks until this many hours pass without a"
                             " new cycle (0: no kicks, the closure's own end)")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    results = []
    for deck in args.deck or DECKS:
        results.append(measure(deck, args.seed_tries, args.workers, args.seeding,
                               args.until_idle or None))
        print(json.dumps({k: v for k, v in results[-1].items() if k != "walks"}),
              file=sys.stderr, flush=True)
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
