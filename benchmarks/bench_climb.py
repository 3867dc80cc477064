"""The climber (backward extension) against plain random search.

For seeds 1..n, runs ``climb`` on ``--deals`` random deals (chunks of
``--chunk-size``), which plays those deals and then the games of the extension,
and compares it with ``random`` search on the same deck and chunk size:

- same games: random search plays exactly as many games as the climber did (its
  first ``--deals`` deals are the climber's random deals);
- same time: random search plays whole chunks until it has run as long as the
  climber did (warm-up excluded for both).

Reports the longest game and the 100th longest distinct deal of each run, and
the means over the seeds; writes the figures as JSON (``--out``).  Times are wall
clock on whatever else the machine is doing.

    python benchmarks/bench_climb.py --seeds 4

With ``--slap-policy`` (none, first:P, turn) the game is Egyptian ratscrew on the standard
ranked deck (``--slap-rules``, ``--no-slap-in``), both searches on the ratscrew kernel:

    python benchmarks/bench_climb.py --seeds 2 --deals 2097152 --chunk-size 1048576 \
        --slap-policy turn
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import count

import numpy as np

from beggar_search.engine.kernels import FAST2
from beggar_search.engine.rules import R_CARDS
from beggar_search.strategies import ChunkJob, strategy_for
from beggar_search.tunables import CLIMB_CHUNKS, DEFAULT_CLOSURE_STATES, DEFAULT_EXTEND

FAST_CLIMB_CHUNK = CLIMB_CHUNKS * FAST2.chunk_size  # the climber's chunk on the standard deck

BOARD = 100


def search(name: str, params: dict, games: int | None = None,
           seconds: float | None = None) -> dict:
    """Run ``name`` by its plan; or, with ``games`` or ``seconds``, random chunks until done."""
    strategy = strategy_for(name, params)
    strategy.warm_up()
    begin = time.perf_counter()
    board = np.zeros(0, dtype=np.int64)
    played = 0
    if games is None and seconds is None:
        jobs = strategy.plan(set())
    else:
        jobs = (ChunkJob(name, chunk, strategy.chunk_size if games is None
                         else min(strategy.chunk_size, games - played), params)
                for chunk in count())
    for job in jobs:
        if (games is not None and played >= games) or (
                seconds is not None and time.perf_counter() - begin >= seconds):
            break
        summary = strategy.run_chunk(job)
        played += summary.deals
        board = np.sort(np.concatenate([board, summary.top_rows[:, R_CARDS]]))[::-1][:BOARD]
    return {"games": played, "longest": int(board[0]), "hundredth": int(board[-1]),
            "seconds": round(time.perf_counter() - begin, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2 * FAST_CLIMB_CHUNK,
                        help="random deals of the climber")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--chunk-size", type=int, default=FAST_CLIMB_CHUNK)
    parser.add_argument("--extend", type=int, default=DEFAULT_EXTEND)
    parser.add_argument("--closure-states", type=int, default=DEFAULT_CLOSURE_STATES)
    parser.add_argument("--slap-policy", default=None,
                        help="play Egyptian ratscrew under this deterministic policy")
    parser.add_argument("--slap-rules", default="pair")
    parser.add_argument("--no-slap-in", dest="slap_in", action="store_false")
    parser.add_argument("--out", default="bench_climb.json")
    args = parser.parse_args()
    game, engine = {}, "bitboard"
    if args.slap_policy:
        game = {"game": "ers", "slap_rules": args.slap_rules, "slap_policy": args.slap_policy,
                "slap_in": args.slap_in}
        engine = "ers"
    figures = {"deals": args.deals, "chunk_size": args.chunk_size, "extend": args.extend,
               "closure_states": args.closure_states, **game,
               "runs": {"climb": [], "random_same_games": [], "random_same_time": []}}
    for seed in range(1, args.seeds + 1):
        base = {"deck": "standard", "players": 2, "seed": seed, "top_k": BOARD,
                "max_tricks": None, "chunk_size": args.chunk_size, "hours": None, **game}
        climb = search("climb", {**base, "deals": args.deals, "extend": args.extend,
                                 "closure_states": args.closure_states})
        random_params = {**base, "engine": engine, "deals": None}
        runs = {"climb": climb,
                "random_same_games": search("random", random_params, games=climb["games"]),
                "random_same_time": search("random", random_params,
                                           seconds=climb["seconds"])}
        for name, result in runs.items():
            figures["runs"][name].append({"seed": seed, **result})
            print(f"seed {seed} {name:17s} games {result['games']:9d}  longest "
                  f"{result['longest']:5d}  100th {result['hundredth']:5d}  "
                  f"{result['seconds']:6.1f} s", flush=True)
    for name, runs in figures["runs"].items():
        for key in ("longest", "hundredth", "games", "seconds"):
            figures[f"{name}_mean_{key}"] = float(np.mean([r[key] for r in runs]))
        print(f"{name:17s} mean longest {figures[f'{name}_mean_longest']:.0f}  "
              f"mean 100th {figures[f'{name}_mean_hundredth']:.0f}  "
              f"mean games {figures[f'{name}_mean_games']:.0f}")
    with open(args.out, "w") as file:
        json.dump(figures, file, indent=2)


if __name__ == "__main__":
    main()
