"""Tried states per CPU second of the factory's walk and kicks, on the standard deck.

The walk (``walk.expand``) over every move of the states of Casella's cycle, played on
masks and the bitboard kernel (the factory's path for two players since this round),
against the exact engine with its memo (the factory's path before it, still the path for
three players and more), in one process, interleaved rounds, best of each; then kicks
(``perturb.kick_chunk``) of each kind on the fast kernel.

    python benchmarks/bench_walk.py [--states 62] [--rounds 3] [--kicks 2000000]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from beggar_search.cards.deck import Deal
from beggar_search.cycles import kept as cycles
from beggar_search.cycles import moves, perturb, walk
from beggar_search.engine.game import state_cycle
from beggar_search.engine.random import chunk_stream
from beggar_search.games.loops import CASELLA
from beggar_search.tunables import DEFAULT_KICK_MOVES, DEFAULT_KICK_SHIFT, KICK_NAMES


def expand_all(rows, config, fast: bool) -> tuple[int, float]:
    """Every move of every state of ``rows``: (distinct states tried, CPU seconds)."""
    n, players = rows.sequences.shape[1], rows.sizes.shape[1]
    per_state = int(moves.move_count(n, players, config))
    found = cycles.new_kept(per_state + 64, n, players)
    links = walk.new_links(per_state + 64)
    stats = np.zeros((moves.N_KINDS, 3), dtype=np.int64)
    cursor = np.zeros(4, dtype=np.int64)
    seen = walk.seen_scratch(n, players, config, len(rows.leaders), fast)
    tried = cycles.new_tried(per_state if fast else 0, n, players, fast)
    exact = cycles.new_exact(players)
    own = np.zeros(len(rows.leaders), dtype=np.int64)
    clock = time.process_time()
    while cursor[walk.X_ITEM] < len(rows.leaders):
        walk.expand(rows, own, config, np.zeros(0, dtype=np.int64), cursor, found, stats,
                    seen, links, tried, exact, fast)
        if cursor[walk.X_ITEM] < len(rows.leaders):
            found, links = cycles.grown(found), walk.grown_links(links)
    return int(stats[:, walk.ST_TRIES].sum()), time.process_time() - clock


def kicks(rows, kind: str, tries: int) -> float:
    """Kicks of ``kind`` per CPU second."""
    config = perturb.kick_config(kind, *DEFAULT_KICK_MOVES, DEFAULT_KICK_SHIFT)
    found = cycles.new_kept(64, rows.sequences.shape[1], 2)
    counts = np.zeros(3, dtype=np.int64)
    clock = time.process_time()
    perturb.kick_chunk(chunk_stream(1, 0), rows, config, np.zeros(0, dtype=np.int64), tries,
                       found, counts, True)
    return tries / (time.process_time() - clock)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=62)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kicks", type=int, default=2_000_000)
    args = parser.parse_args(argv)
    deal = Deal.parse(CASELLA)
    states = state_cycle([list(h) for h in deal.hands], 0)[::-1][: args.states]
    rows = cycles.state_arrays(states, deal.deck.size, 2)
    config = moves.move_config()
    small = cycles.state_arrays(states[:1], deal.deck.size, 2)
    expand_all(small, config, True), expand_all(small, config, False)  # compile
    kicks(rows, "swaps", 1000), kicks(rows, "mixed", 1000)
    load = os.getloadavg()[0]
    best = {True: 0.0, False: 0.0}
    for _ in range(args.rounds):
        for fast in (True, False):
            tried, seconds = expand_all(rows, config, fast)
            best[fast] = max(best[fast], tried / seconds)
    print(f"walk of {len(states)} Casella states ({tried:,} distinct states tried),"
          f" load {load:.1f}-{os.getloadavg()[0]:.1f}:")
    print(f"| path | tried states per CPU second | ratio |\n|---|---|---|\n"
          f"| exact engine with memo (before) | {best[False]:,.0f} | 1 |\n"
          f"| masks and bitboard kernel | {best[True]:,.0f} | {best[True] / best[False]:.2f}x |")
    for kind in KICK_NAMES:
        rate = kicks(rows, kind, args.kicks)
        print(f"| kicks `{kind}` | {rate:,.0f} | {rate / best[False]:.2f}x |")


if __name__ == "__main__":
    main()
