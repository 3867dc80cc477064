"""The climber against plain random search, with the same number of games each.

For seeds 1..n, plays ``--games`` games with ``climb`` and with ``random`` (same
deck, same chunk size) and reports the longest game each found, the mean of the
longest games over the seeds, and the 100th longest distinct deal of each run.
Writes the figures as JSON (``--out``).

    python benchmarks/bench_climb.py --games 2000000 --seeds 4
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from beggar_search.deck import Deck
from beggar_search.engine.rules import R_CARDS
from beggar_search.strategies import strategy_for
from beggar_search.strategies.climb import DEFAULT_EXPLORE, DEFAULT_POOL, default_chunk_size


def search(name: str, params: dict, games: int) -> dict:
    strategy = strategy_for(name, params)
    strategy.warm_up()
    begin = time.perf_counter()
    board = np.zeros(0, dtype=np.int64)
    played = 0
    for job in strategy.plan(set()):
        summary = strategy.run_chunk(job)
        played += summary.deals
        board = np.sort(np.concatenate([board, summary.top_rows[:, R_CARDS]]))[::-1][:100]
    assert played == games
    return {"longest": int(board[0]), "hundredth": int(board[-1]),
            "seconds": round(time.perf_counter() - begin, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--deck", default="standard")
    parser.add_argument("--explore", type=float, default=DEFAULT_EXPLORE)
    parser.add_argument("--pool", type=int, default=DEFAULT_POOL)
    parser.add_argument("--out", default="bench_climb.json")
    args = parser.parse_args()
    chunk = default_chunk_size(Deck.parse(args.deck), 2)
    figures = {"games": args.games, "deck": args.deck, "chunk_size": chunk,
               "explore": args.explore, "pool": args.pool, "runs": {"climb": [], "random": []}}
    for seed in range(1, args.seeds + 1):
        base = {"deck": args.deck, "players": 2, "seed": seed, "top_k": 100,
                "max_tricks": None, "chunk_size": chunk, "deals": args.games}
        for name, extra in (("climb", {"explore": args.explore, "pool": args.pool}),
                            ("random", {})):
            result = search(name, {**base, **extra}, args.games)
            figures["runs"][name].append({"seed": seed, **result})
            print(f"seed {seed} {name:6s} longest {result['longest']:5d}  "
                  f"100th {result['hundredth']:5d}  {result['seconds']:.1f} s", flush=True)
    for name, runs in figures["runs"].items():
        figures[f"{name}_mean_longest"] = float(np.mean([r["longest"] for r in runs]))
        figures[f"{name}_mean_hundredth"] = float(np.mean([r["hundredth"] for r in runs]))
        print(f"{name:6s} mean longest {figures[f'{name}_mean_longest']:.0f}  "
              f"mean 100th {figures[f'{name}_mean_hundredth']:.0f}")
    with open(args.out, "w") as file:
        json.dump(figures, file, indent=2)


if __name__ == "__main__":
    main()
