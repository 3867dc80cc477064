"""An independent check of the factory's closure: every single move, breadth first.

Uses only ``engine.moves.apply_move`` and the rules engine (not ``moves.expand``, its
memo or the factory's planning): every move (swap, card, block 2-20, leader, split) of
every state of every cycle met, mirrors included, is played until no new cycle comes.
With ``--pairs N`` it then plays N random pairs of moves from the start's cycle states.

    python benchmarks/closure_check.py [--from DEAL|STATE] [--deck standard] [--pairs N]
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np

from beggar_search.deck import Deal, Deck, parse_state
from beggar_search.engine import moves, rules
from beggar_search.engine.game import cycle_key, cycle_name, play_state, state_cycle
from beggar_search.engine.random import below, chunk_stream
from beggar_search.engine.rules import CAPACITY, LOOP, R_CYCLE, R_OUTCOME, RESULT_LEN
from beggar_search.jit import kernel
from beggar_search.strategies.hunt import CASELLA

ROOM = 100_000  # new cycles kept per generation


@kernel
def every_move(sequences, sizes, leaders, config, known, keys, states, state_sizes,
               state_leaders, counts):
    """Play every move of every state; keep one state of each cycle not in ``known``."""
    n, players = sequences.shape[1], sizes.shape[1]
    out = np.zeros(n, dtype=np.uint8)
    out_sizes = np.zeros(players, dtype=np.int64)
    params = np.zeros(4, dtype=np.int64)
    flat = np.zeros((players, CAPACITY), dtype=np.uint8)
    row = np.zeros(RESULT_LEN, dtype=np.int64)
    scratch = rules.new_scratch(players)
    kept = 0
    for s in range(sequences.shape[0]):
        for m in range(moves.move_count(n, players, config)):
            leader = moves.apply_move(sequences[s], sizes[s], leaders[s], m, config, out,
                                      out_sizes, params)
            if leader >= 0:
                kept = _play(out, out_sizes, leader, known, flat, row, scratch, keys, states,
                             state_sizes, state_leaders, kept, counts)
    return kept


@kernel
def random_pairs(sequences, sizes, leaders, config, known, stream, tries, keys, states,
                 state_sizes, state_leaders, counts):
    """Play ``tries`` random pairs of moves of random states, as ``every_move`` keeps."""
    n, players = sequences.shape[1], sizes.shape[1]
    first = np.zeros(n, dtype=np.uint8)
    first_sizes = np.zeros(players, dtype=np.int64)
    out = np.zeros(n, dtype=np.uint8)
    out_sizes = np.zeros(players, dtype=np.int64)
    params = np.zeros(4, dtype=np.int64)
    flat = np.zeros((players, CAPACITY), dtype=np.uint8)
    row = np.zeros(RESULT_LEN, dtype=np.int64)
    scratch = rules.new_scratch(players)
    total = moves.move_count(n, players, config)
    kept = 0
    while counts[0] < tries:
        s = below(stream, sequences.shape[0])
        leader = moves.apply_move(sequences[s], sizes[s], leaders[s], below(stream, total),
                                  config, first, first_sizes, params)
        if leader < 0:
            continue
        leader = moves.apply_move(first, first_sizes, leader, below(stream, total), config,
                                  out, out_sizes, params)
        if leader >= 0:
            kept = _play(out, out_sizes, leader, known, flat, row, scratch, keys, states,
                         state_sizes, state_leaders, kept, counts)
    return kept


@kernel
def _play(out, out_sizes, leader, known, flat, row, scratch, keys, states, state_sizes,
          state_leaders, kept, counts):
    rules.deal_out(out, out_sizes, flat)
    rules.play_game_with(flat, out_sizes, leader, 0, row, scratch)
    counts[0] += 1
    if row[R_OUTCOME] != LOOP:
        return kept
    counts[1] += 1
    key = row[R_CYCLE]
    for k in range(known.shape[0]):
        if known[k] == key:
            return kept
    for k in range(kept):
        if keys[k] == key:
            return kept
    if kept < keys.shape[0]:
        keys[kept] = key
        states[kept] = out
        state_sizes[kept] = out_sizes
        state_leaders[kept] = leader
        kept += 1
    return kept


def _found(kept, states, state_sizes, state_leaders):
    found = []
    for k in range(kept):
        cards, first = states[k].tolist(), int(state_sizes[k, 0])
        found.append(([cards[:first], cards[first:]], int(state_leaders[k])))
    return found


def _arrays(n):
    return (np.zeros(ROOM, dtype=np.int64), np.zeros((ROOM, n), dtype=np.uint8),
            np.zeros((ROOM, 2), dtype=np.int64), np.zeros(ROOM, dtype=np.int64),
            np.zeros(2, dtype=np.int64))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="start", default=CASELLA)
    parser.add_argument("--deck", default="standard")
    parser.add_argument("--pairs", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    deck = Deck.parse(args.deck)
    if ":" in args.start:
        start = parse_state(args.start)
    else:
        start = ([list(h) for h in Deal.parse(args.start, deck).hands], 0)
    config = moves.move_config()
    known: dict[str, tuple[int, int]] = {}
    frontier, clock, games, loops = [start], time.perf_counter(), 0, 0
    start_states = None
    while frontier:
        states = []
        for hands, leader in frontier:
            for cycle in (state_cycle(hands, leader),
                          state_cycle(hands[::-1], (leader + 1) % 2)):  # and its mirror
                result = play_state(*cycle[0])
                if result.cycle not in known:
                    known[result.cycle] = (result.period_tricks, result.period_cards)
                    states += cycle
        start_states = start_states or states
        if not states:
            break
        sequences, sizes, leaders = moves.state_arrays(states, deck.size, 2)
        keys, found, found_sizes, found_leaders, counts = _arrays(deck.size)
        kept = every_move(sequences, sizes, leaders, config,
                          np.array([cycle_key(c) for c in known], dtype=np.int64), keys, found,
                          found_sizes, found_leaders, counts)
        games, loops = games + int(counts[0]), loops + int(counts[1])
        frontier = _found(kept, found, found_sizes, found_leaders)
        print(f"{len(states)} states: {int(counts[0]):,} games, {int(counts[1]):,} loops,"
              f" {kept} new cycles ({time.perf_counter() - clock:.0f} s)", flush=True)
    periods = collections.Counter(known.values())
    print(f"closure: {len(known)} cycles (mirrors included), {games:,} games, {loops:,} loops;"
          f" periods (tricks/cards): {dict(periods)}")
    if args.pairs:
        sequences, sizes, leaders = moves.state_arrays(start_states, deck.size, 2)
        keys, found, found_sizes, found_leaders, counts = _arrays(deck.size)
        kept = random_pairs(sequences, sizes, leaders, config,
                            np.array([cycle_key(c) for c in known], dtype=np.int64),
                            chunk_stream(args.seed, 0), args.pairs, keys, found, found_sizes,
                            found_leaders, counts)
        print(f"random pairs of moves: {int(counts[0]):,} games, {int(counts[1]):,} loops,"
              f" {kept} cycles outside the closure")
        for key, state in zip(keys[:kept], _found(kept, found, found_sizes, found_leaders),
                              strict=True):
            print(f"  {cycle_name(key)} {state}")


if __name__ == "__main__":
    main()
