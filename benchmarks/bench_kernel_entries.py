"""CPU ns a deal of the bitboard kernel's entry points, for comparing two source trees.

    PYTHONPATH=SRC NUMBA_CACHE_DIR=CACHE taskset -c 0 nice -n 19 \
        python benchmarks/bench_kernel_entries.py [--deals D] [--rounds R]

Times (best of R, CPU time of this process) on D deals: the sweep (``random_chunk``, standard
deck, 2 players), the climber's given deals (``play_sequences``), the factory's tried states
(``play_splits`` on deals of ``plain=10,J=2,Q=2,K=2,A=2`` with random splits), and 3 and 4
players (``play_block``, standard deck).  The kernels are those of the ``beggar_search`` that
Python imports: run it alternately from two trees (each with its own ``NUMBA_CACHE_DIR``) and
compare the lines; the check figures (sums of the results) must agree between the trees.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

from beggar_search.cards.deck import STANDARD, Deck
from beggar_search.engine import batch, bitboard
from beggar_search.engine.bitboard import DRAW_PLACES
from beggar_search.engine.random import chunk_stream
from beggar_search.engine.rules import RESULT_LEN

SMALL = "plain=10,J=2,Q=2,K=2,A=2"


def best(play, n: int, rounds: int) -> float:
    """The best CPU ns a deal of ``play()`` over ``rounds`` (after one untimed call)."""
    play()
    seconds = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        play()
        seconds = min(seconds, time.process_time() - start)
    return seconds / n * 1e9


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1 << 19)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    n = args.deals
    cards = STANDARD.sorted_cards()
    two = np.array([26, 26], dtype=np.int64)
    figures = {"sweep": best(lambda: bitboard.random_chunk(
        chunk_stream(3, 0), n, cards, two, DRAW_PLACES, 0, batch.new_recorder(100, 52), None,
        bitboard.wide_for(cards)),
        n, args.rounds)}
    deals = bitboard.generate(chunk_stream(4, 0), n, cards)
    rows = np.zeros((n, RESULT_LEN), dtype=np.int64)
    figures["climber (play_sequences)"] = best(
        lambda: bitboard.play_sequences(deals, two, 0, 0, rows, None, bitboard.wide_for(cards)),
        n, args.rounds)
    checks = [int(rows.sum())]
    small = Deck.parse(SMALL).sorted_cards()
    total = small.shape[0]
    pens, los, his, packed = bitboard.new_masks(n)
    bitboard.fill_random(chunk_stream(5, 0), DRAW_PLACES, np.arange(total),
                         bitboard.penalty_kinds(small), small.copy(), pens, los, his, n)
    firsts = np.random.default_rng(1).integers(1, total, n + 1)
    figures[f"factory (play_splits, {total} cards)"] = best(
        lambda: bitboard.play_splits(pens, los, his, firsts, n, total, 1500, packed), n,
        args.rounds)
    checks.append(int(packed[:n].sum()))
    pens, los, his, packed = bitboard.new_masks(n)
    bitboard.fill_random(chunk_stream(1, 0), DRAW_PLACES, np.arange(52),
                         bitboard.penalty_kinds(cards), cards.copy(), pens, los, his, n)
    for split in ([18, 17, 17], [13, 13, 13, 13]):
        split = np.array(split, dtype=np.int64)
        figures[f"{len(split)} players"] = best(
            lambda split=split: bitboard.play_block(pens, los, his, n, split, 0, 1500, packed),
            n, args.rounds)
        checks.append(int(packed[:n].sum()))
    print("; ".join(f"{name} {ns:.1f}" for name, ns in figures.items())
          + f" (CPU ns a deal); check {' '.join(str(c % 1000003) for c in checks)};"
          f" load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
