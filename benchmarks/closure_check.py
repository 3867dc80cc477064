"""An independent check of the factory's closure: every single move, breadth first.

Uses only ``engine.moves.apply_move``, the rules engine and ``grow.play_and_keep`` (not
``moves.expand``, its memo or the factory's planning): every move (swap, card, block
2-20, leader, split) of every state of every cycle met, mirrors included, is played until
no new cycle comes.
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
from beggar_search.engine.grow import play_and_keep
from beggar_search.engine.moves import state_hands
from beggar_search.engine.random import below, chunk_stream
from beggar_search.engine.rules import CAPACITY, RESULT_LEN
from beggar_search.jit import kernel
from beggar_search.strategies.hunt import CASELLA

ROOM = 100_000  # cycles kept per generation (the known ones first)


@kernel
def _scratch(n, players):
    """A changed state's cards and hand sizes, a move's parameters, and a game's scratch."""
    return (np.zeros(n, dtype=np.uint8), np.zeros(players, dtype=np.int64),
            np.zeros(4, dtype=np.int64), np.zeros((players, CAPACITY), dtype=np.uint8),
            np.zeros(RESULT_LEN, dtype=np.int64), rules.new_scratch(players))


@kernel
def every_move(sequences, sizes, leaders, config, kept, keys, states, state_sizes,
               state_leaders, counts):
    """Play every move of every state; keep one state of each cycle not in ``keys[:kept]``
    (the known ones).  Returns the cycles now in ``keys``."""
    n, players = sequences.shape[1], sizes.shape[1]
    out, out_sizes, params, flat, row, scratch = _scratch(n, players)
    for s in range(sequences.shape[0]):
        for m in range(moves.move_count(n, players, config)):
            leader = moves.apply_move(sequences[s], sizes[s], leaders[s], m, config, out,
                                      out_sizes, params)
            if leader >= 0:
                kept = play_and_keep(out, out_sizes, leader, flat, row, scratch, counts,
                                     kept, keys, states, state_sizes, state_leaders)
    return kept


@kernel
def random_pairs(sequences, sizes, leaders, config, stream, tries, kept, keys, states,
                 state_sizes, state_leaders, counts):
    """Play ``tries`` random pairs of moves of random states, as ``every_move`` keeps."""
    n, players = sequences.shape[1], sizes.shape[1]
    first, first_sizes = np.zeros(n, dtype=np.uint8), np.zeros(players, dtype=np.int64)
    out, out_sizes, params, flat, row, scratch = _scratch(n, players)
    total = moves.move_count(n, players, config)
    while counts[0] < tries:
        s = below(stream, sequences.shape[0])
        leader = moves.apply_move(sequences[s], sizes[s], leaders[s], below(stream, total),
                                  config, first, first_sizes, params)
        if leader < 0:
            continue
        leader = moves.apply_move(first, first_sizes, leader, below(stream, total), config,
                                  out, out_sizes, params)
        if leader >= 0:
            kept = play_and_keep(out, out_sizes, leader, flat, row, scratch, counts, kept,
                                 keys, states, state_sizes, state_leaders)
    return kept


def _arrays(n, known):
    """Room for ``ROOM`` cycles, the ``known`` ones (ids) first, and the counts."""
    keys = np.zeros(ROOM, dtype=np.int64)
    keys[:len(known)] = [cycle_key(c) for c in known]
    return (keys, np.zeros((ROOM, n), dtype=np.uint8), np.zeros((ROOM, 2), dtype=np.int64),
            np.zeros(ROOM, dtype=np.int64), np.zeros(2, dtype=np.int64))


def _new(known, kept, keys, states, state_sizes, state_leaders):
    """The cycles kept after the known ones: (id, (hands, leader)) each."""
    return [(cycle_name(keys[k]), (state_hands(states[k], state_sizes[k]),
                                   int(state_leaders[k]))) for k in range(len(known), kept)]


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
        arrays = _arrays(deck.size, known)
        kept = every_move(sequences, sizes, leaders, config, len(known), *arrays)
        counts = arrays[-1]
        games, loops = games + int(counts[0]), loops + int(counts[1])
        frontier = [state for _, state in _new(known, kept, *arrays[:-1])]
        print(f"{len(states)} states: {int(counts[0]):,} games, {int(counts[1]):,} loops,"
              f" {len(frontier)} new cycles ({time.perf_counter() - clock:.0f} s)", flush=True)
    periods = collections.Counter(known.values())
    print(f"closure: {len(known)} cycles (mirrors included), {games:,} games, {loops:,} loops;"
          f" periods (tricks/cards): {dict(periods)}")
    if args.pairs:
        sequences, sizes, leaders = moves.state_arrays(start_states, deck.size, 2)
        arrays = _arrays(deck.size, known)
        kept = random_pairs(sequences, sizes, leaders, config, chunk_stream(args.seed, 0),
                            args.pairs, len(known), *arrays)
        counts, outside = arrays[-1], _new(known, kept, *arrays[:-1])
        print(f"random pairs of moves: {int(counts[0]):,} games, {int(counts[1]):,} loops,"
              f" {len(outside)} cycles outside the closure")
        for cycle, state in outside:
            print(f"  {cycle} {state}")

if __name__ == "__main__":
    main()
