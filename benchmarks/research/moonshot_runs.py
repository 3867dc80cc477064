"""Moonshot: seeds for a deck's unseen islands, padding skeletons with plain cards in runs.

The factory's ``grow`` seeding stops growing once every penalty card is in (a skeleton)
and pads the missing plain cards in as one run per hand.  On the standard deck that met no
loop; the study behind the factory names padding in *several short runs* as the next thing
to try.  This script tries it at random: a random state of a random skeleton cycle (either
leader, mirrored too), the missing plain cards cut into ``--runs`` runs of random lengths,
each run put at a random place of either hand; every result is played, and each cycle met
is printed with one of its states.

    python benchmarks/moonshot_runs.py [--deck standard] [--seconds 600] [--runs 2-6]
                                       [--workers 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time

import numpy as np

from beggar_search.cards.deck import Deck, format_state, parse_state
from beggar_search.cycles.kept import (
    new_exact,
    new_kept,
    play_and_keep,
    state_arrays,
    state_hands,
)
from beggar_search.engine.game import cycle_name, play_state
from beggar_search.engine.random import below, chunk_stream
from beggar_search.jit import kernel
from beggar_search.strategies.factory.seeding import grow_skeletons, skeleton_states

CHUNK = 1 << 18  # tries between two looks at the clock
KEEP = 64  # cycles kept per chunk


@kernel
def pad_random_runs(skeletons, missing, fewest, most, stream, tries, found, counts):
    """``tries`` paddings of random skeleton states (``StateRows``, see the module); returns
    the cycles kept in ``found``."""
    sequences, sizes, leaders = skeletons
    n = sequences.shape[1]
    out = np.zeros(n + missing, dtype=np.uint8)
    out_sizes = np.zeros(2, dtype=np.int64)
    exact = new_exact(2)
    inserts = np.zeros(n + 2, dtype=np.int64)  # plain cards before each card of a hand or at
    lengths = np.zeros(missing + 1, dtype=np.int64)  # its end; the runs' lengths
    kept = 0
    for _ in range(tries):
        s = below(stream, sequences.shape[0])
        first, second = sizes[s, 0], sizes[s, 1]
        runs = min(missing, fewest + below(stream, most - fewest + 1))
        inserts[:] = 0
        lengths[:runs] = 1  # each run one card, then every other card to a random run
        for _ in range(missing - runs):
            lengths[below(stream, runs)] += 1
        for r in range(runs):
            inserts[below(stream, first + second + 2)] += lengths[r]
        w = 0
        for k in range(first + 1):
            for _ in range(inserts[k]):
                out[w] = 0
                w += 1
            if k < first:
                out[w] = sequences[s, k]
                w += 1
        out_sizes[0] = w
        for k in range(second + 1):
            for _ in range(inserts[first + 1 + k]):
                out[w] = 0
                w += 1
            if k < second:
                out[w] = sequences[s, first + k]
                w += 1
        out_sizes[1] = w - out_sizes[0]
        if out_sizes[0] == 0 or out_sizes[1] == 0:
            continue
        kept = play_and_keep(out, out_sizes, leaders[s], exact, counts, found, kept)
    return kept


def work(deck_spec: str, seed: int, worker: int, seconds: float, fewest: int, most: int,
         skeletons, queue) -> None:
    deck = Deck.parse(deck_spec)
    n = sum(len(h) for h in skeletons[0][0])
    rows = state_arrays(skeletons, n, 2)
    missing = deck.size - n
    counts = np.zeros(2, dtype=np.int64)
    met = {}
    deadline = time.monotonic() + seconds
    chunk = 0
    while time.monotonic() < deadline:
        found = new_kept(KEEP, deck.size, 2)
        stream = chunk_stream(seed, (worker << 32) + chunk)
        kept = pad_random_runs(rows, missing, fewest, most, stream, CHUNK, found, counts)
        for k in range(kept):
            met.setdefault(cycle_name(found.keys[k]),
                           format_state(state_hands(found.sequences[k], found.sizes[k]),
                                        int(found.leaders[k])))
        chunk += 1
    queue.put((int(counts[0]), int(counts[1]), met))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default="standard")
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--runs", default="2-6", help="fewest-most runs the plain cards make")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    fewest, _, most = args.runs.partition("-")
    fewest, most = int(fewest), int(most or fewest)
    deck = Deck.parse(args.deck)
    clock = time.perf_counter()
    grown = grow_skeletons(deck, args.seed)
    if not grown.states:
        sys.exit(f"growth stalled: {grown.steps}")
    skeletons = skeleton_states(grown.states)
    n = grown.steps[-1][0]
    print(f"skeletons: {len(grown.states)} cycles of {n} cards ({len(skeletons)} states),"
          f" {grown.tries:,} tries, {time.perf_counter() - clock:.0f} s", flush=True)
    clock = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    procs = [context.Process(target=work, args=(args.deck, args.seed, w, args.seconds, fewest,
                                                most, skeletons, queue))
             for w in range(args.workers)]
    for proc in procs:
        proc.start()
    tries = loops = 0
    met = {}
    for _ in procs:
        t, lp, m = queue.get()
        tries, loops = tries + t, loops + lp
        met.update(m)
    for proc in procs:
        proc.join()
    print(f"padding {deck.size - n} plain cards in {args.runs} runs: {tries:,} tries,"
          f" {loops:,} loops, {len(met)} cycles, {time.perf_counter() - clock:.0f} s")
    for cycle, state in sorted(met.items()):
        result = play_state(*parse_state(state))
        print(f"  {cycle} {result.period_tricks}/{result.period_cards} {state}")


if __name__ == "__main__":
    main()
