"""An independent check of the factory's closure: every single move, breadth first.

Uses only ``cycles.moves.apply_move``, the rules engine and ``cycles.play_and_keep`` (not
``moves.expand``, its fast kernel or the factory's planning): every move (swap, card,
block 2-20, leader, split, and exchange unless ``--moves`` leaves it out) of every state
of every cycle met, mirrors included, is played until no new cycle comes.
With ``--pairs N`` it then plays N random pairs of moves from the start's cycle states.

    python benchmarks/research/closure_check.py [--from DEAL|STATE] [--deck standard]
        [--pairs N] [--moves swap,card,block,leader,split,exchange]
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np

from beggar_search.cards.deck import Deal, Deck, parse_state
from beggar_search.cycles import moves
from beggar_search.cycles.kept import (
    KeptCycles,
    new_exact,
    play_and_keep,
    state_arrays,
    state_hands,
)
from beggar_search.engine.game import cycle_key, cycle_name, play_state, state_cycle
from beggar_search.engine.random import below, chunk_stream
from beggar_search.games.loops import CASELLA
from beggar_search.jit import kernel
from beggar_search.tunables import MOVE_NAMES

ROOM = 100_000  # cycles kept per generation (the known ones first)


@kernel
def _scratch(n, players):
    """A changed state's cards and hand sizes, a move's parameters, and a game's scratch."""
    return (np.zeros(n, dtype=np.uint8), np.zeros(players, dtype=np.int64),
            np.zeros(4, dtype=np.int64), new_exact(players))


@kernel
def every_move(states, config, kept, found, counts):
    """Play every move of every state (``StateRows``); keep one state of each cycle not in
    ``found.keys[:kept]`` (the known ones).  Returns the cycles now in ``found``."""
    sequences, sizes, leaders = states
    n, players = sequences.shape[1], sizes.shape[1]
    out, out_sizes, params, exact = _scratch(n, players)
    for s in range(sequences.shape[0]):
        for m in range(moves.move_count(n, players, config)):
            leader = moves.apply_move(sequences[s], sizes[s], leaders[s], m, config, out,
                                      out_sizes, params)
            if leader >= 0:
                kept = play_and_keep(out, out_sizes, leader, exact, counts, found, kept)
    return kept


@kernel
def random_pairs(states, config, stream, tries, kept, found, counts):
    """Play ``tries`` random pairs of moves of random states, as ``every_move`` keeps."""
    sequences, sizes, leaders = states
    n, players = sequences.shape[1], sizes.shape[1]
    first, first_sizes = np.zeros(n, dtype=np.uint8), np.zeros(players, dtype=np.int64)
    out, out_sizes, params, exact = _scratch(n, players)
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
            kept = play_and_keep(out, out_sizes, leader, exact, counts, found, kept)
    return kept


def _arrays(n, known):
    """Room for ``ROOM`` cycles, the ``known`` ones (ids) first, and the counts."""
    found = KeptCycles(np.zeros(ROOM, dtype=np.int64), np.zeros((ROOM, n), dtype=np.uint8),
                       np.zeros((ROOM, 2), dtype=np.int64), np.zeros(ROOM, dtype=np.int64),
                       np.zeros(ROOM, dtype=np.int64), np.zeros(ROOM, dtype=np.int64))
    found.keys[:len(known)] = [cycle_key(c) for c in known]
    return found, np.zeros(2, dtype=np.int64)


def _new(known, kept, found):
    """The cycles kept after the known ones: (id, (hands, leader)) each."""
    return [(cycle_name(found.keys[k]), (state_hands(found.sequences[k], found.sizes[k]),
                                         int(found.leaders[k])))
            for k in range(len(known), kept)]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="start", default=CASELLA)
    parser.add_argument("--deck", default="standard")
    parser.add_argument("--pairs", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", default=",".join(MOVE_NAMES))
    args = parser.parse_args(argv)
    deck = Deck.parse(args.deck)
    if ":" in args.start:
        start = parse_state(args.start)
    else:
        start = ([list(h) for h in Deal.parse(args.start, deck).hands], 0)
    config = moves.move_config(args.moves.split(","))
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
        found, counts = _arrays(deck.size, known)
        kept = every_move(state_arrays(states, deck.size, 2), config, len(known), found, counts)
        games, loops = games + int(counts[0]), loops + int(counts[1])
        frontier = [state for _, state in _new(known, kept, found)]
        print(f"{len(states)} states: {int(counts[0]):,} games, {int(counts[1]):,} loops,"
              f" {len(frontier)} new cycles ({time.perf_counter() - clock:.0f} s)", flush=True)
    periods = collections.Counter(known.values())
    print(f"closure: {len(known)} cycles (mirrors included), {games:,} games, {loops:,} loops;"
          f" periods (tricks/cards): {dict(periods)}")
    if args.pairs:
        found, counts = _arrays(deck.size, known)
        kept = random_pairs(state_arrays(start_states, deck.size, 2), config,
                            chunk_stream(args.seed, 0), args.pairs, len(known), found, counts)
        outside = _new(known, kept, found)
        print(f"random pairs of moves: {int(counts[0]):,} games, {int(counts[1]):,} loops,"
              f" {len(outside)} cycles outside the closure")
        for cycle, state in outside:
            print(f"  {cycle} {state}")

if __name__ == "__main__":
    main()
