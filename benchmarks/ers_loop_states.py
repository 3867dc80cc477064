"""Egyptian ratscrew, standard deck: do cycles exist at all?  Plays random trick-boundary
states (the deck shuffled, a random split, player 1 to lead) under each deterministic
policy and counts those that loop; prints one state of each cycle met (``leader:hands``,
leader from 1, as ``deck.format_state`` writes states).

    .venv/bin/python benchmarks/ers_loop_states.py --states 2000000
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from beggar_search.cards.ranked import STANDARD_RANKED, format_ranked_state
from beggar_search.cards.slaps import SlapRules
from beggar_search.engine import ers
from beggar_search.engine.game import cycle_name
from beggar_search.engine.random import below, chunk_stream, shuffle
from beggar_search.engine.rules import (
    CAPACITY,
    LOOP,
    R_CYCLE,
    R_OUTCOME,
    RESULT_LEN,
    play_game_with,
)
from beggar_search.jit import kernel


@kernel
def play_random_states(stream, n, cards, players, slaps, keys, examples, example_sizes):
    """Play ``n`` random states; the cycle key of each loop goes to ``keys`` (0 otherwise),
    its state to ``examples``/``example_sizes``."""
    flat = np.zeros((players, CAPACITY), dtype=np.uint8)
    sizes = np.zeros(players, dtype=np.int64)
    row = np.zeros(RESULT_LEN, dtype=np.int64)
    scratch = ers.new_scratch(players, slaps)
    sequence = cards.copy()
    for t in range(n):
        shuffle(sequence, stream)
        sizes[:] = 1
        for _ in range(sequence.shape[0] - players):
            sizes[below(stream, players)] += 1
        start = 0
        for p in range(players):
            for i in range(sizes[p]):
                flat[p, i] = sequence[start + i]
            start += sizes[p]
        play_game_with(flat, sizes, 0, 0, row, scratch)
        keys[t] = row[R_CYCLE] if row[R_OUTCOME] == LOOP else 0
        if row[R_OUTCOME] == LOOP:
            examples[t, :] = sequence
            example_sizes[t, :] = sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2028)
    args = parser.parse_args()
    cards = STANDARD_RANKED.sorted_cards()
    chunk = 100_000
    for policy in ("none", "first:1", "first:2", "turn"):
        slaps = ers.slaps_of(SlapRules.parse("pair", policy, True, args.players), args.players)
        cycles, loops, started = {}, 0, time.perf_counter()
        for c in range(-(-args.states // chunk)):
            n = min(chunk, args.states - c * chunk)
            keys = np.zeros(n, dtype=np.int64)
            examples = np.zeros((n, cards.size), dtype=np.uint8)
            sizes = np.zeros((n, args.players), dtype=np.int64)
            play_random_states(chunk_stream(args.seed, c), n, cards, args.players, slaps, keys,
                               examples, sizes)
            for t in np.flatnonzero(keys):
                loops += 1
                hands, start = [], 0
                for size in sizes[t]:
                    hands.append(examples[t, start:start + size])
                    start += size
                cycles.setdefault(cycle_name(keys[t]), format_ranked_state(hands, 0))
        print(f"{policy:<8} {loops} looping states in {args.states} random states, "
              f"{len(cycles)} cycles ({time.perf_counter() - started:.0f} s)", flush=True)
        for name, state in sorted(cycles.items())[:10]:
            print(f"   cycle {name}  e.g. {state}")


if __name__ == "__main__":
    main()
