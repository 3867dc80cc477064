"""Where the 2-player random-deal fast path spends its time: drawing, playing, recording.

    taskset -c 0 nice -n 19 python benchmarks/bench_kernel_parts.py [--deals D] [--rounds R]
    taskset -c 0 python benchmarks/bench_kernel_parts.py --players 3 [--deals D] [--rounds R]

In each of R rounds, interleaved, times (CPU seconds of this process) on D random deals of
the standard deck: the reference C engine (``c_yardstick/bmn_ref.c``, its own clock);
``bitboard.fill_random`` alone (the draw); ``bitboard.play_block`` alone on deals drawn
beforehand (the play); ``bitboard.record_played`` alone on games played beforehand (the
recording); and the whole ``bitboard.random_chunk``.  Prints each as deals/s and as a ratio
to the C engine of the same round, with the load average; the figures are medians.

With ``--players 3`` or ``4``: the play alone split in two, per deal, on D random standard
deals drawn beforehand: the phase with three or four players in
(``bitboard_multi.play_block``) and the two-player ends it leaves (``bitboard.play_splits``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_report import build_c

from beggar_search.cards.deck import STANDARD
from beggar_search.engine import batch, bitboard, bitboard_multi
from beggar_search.engine.bitboard import BLOCK, DRAW_PLACES
from beggar_search.engine.random import chunk_stream

SOURCE = Path(__file__).resolve().parent / "c_yardstick" / "bmn_ref.c"


def reference(binary: str, games: int) -> float:
    out = subprocess.run([binary, str(games)], check=True, capture_output=True, text=True)
    fields = dict(word.split("=", 1) for word in out.stdout.split())
    return float(fields["games/s"])


def cpu() -> float:
    return time.process_time()


def new_blocks(deals: int) -> tuple:
    """Room for ``deals`` deals (at least a block) in blocks: masks and packed results."""
    pens = np.zeros((max(1, deals // BLOCK), BLOCK + 1), dtype=np.int64)
    return pens, np.zeros_like(pens), np.zeros_like(pens), np.zeros_like(pens)


def fill_blocks(pens, los, his) -> None:
    """Random standard deals into every block, from one seed."""
    sorted_cards = STANDARD.sorted_cards()
    stream = chunk_stream(1, 0)
    order = np.arange(sorted_cards.shape[0])
    kinds = bitboard.penalty_kinds(sorted_cards)
    sequence = sorted_cards.copy()
    for b in range(pens.shape[0]):
        bitboard.fill_random(stream, DRAW_PLACES, order, kinds, sequence, pens[b], los[b],
                             his[b], BLOCK)


def parts(deals: int) -> dict:
    """Deals/s of the draw, the play, the recording and the whole chunk, on ``deals`` deals."""
    sorted_cards = STANDARD.sorted_cards()
    split = np.array([26, 26], dtype=np.int64)
    total = sorted_cards.shape[0]
    pens, los, his, packed = new_blocks(deals)
    n_blocks = pens.shape[0]
    n = n_blocks * BLOCK
    start = cpu()
    fill_blocks(pens, los, his)
    draw = cpu() - start
    limit = bitboard.fast_limit(0)
    wide = bitboard.wide_for(sorted_cards)  # as a search plays the deck
    start = cpu()
    for b in range(n_blocks):
        bitboard.play_block(pens[b], los[b], his[b], BLOCK, split, 0, limit, packed[b], None,
                            wide)
    play = cpu() - start
    scratch = bitboard.new_scratch(total, 2, BLOCK)
    recorder = batch.new_recorder(100, total)
    start = cpu()
    for b in range(n_blocks):
        scratch[3][:] = packed[b]
        recorder = bitboard.record_played(pens[b], los[b], his[b], BLOCK, b * BLOCK, split, 0,
                                          0, scratch, recorder)
    record = cpu() - start
    recorder = batch.new_recorder(100, total)
    start = cpu()
    bitboard.random_chunk(chunk_stream(1, 0), n, sorted_cards, split, DRAW_PLACES, 0, recorder,
                          None, wide)
    whole = cpu() - start
    return {"draw": n / draw, "play": n / play, "record": n / record, "whole": n / whole,
            "n": n}


def multi_parts(players: int, deals: int) -> dict:
    """Nanoseconds a deal of the phase with ``players`` in and of the two-player ends it
    leaves, on ``deals`` random standard deals."""
    total = STANDARD.size
    split = np.array(STANDARD.split(players), dtype=np.int64)
    pens, los, his, packed = new_blocks(deals)
    n_blocks = pens.shape[0]
    fill_blocks(pens, los, his)
    limit = bitboard.fast_limit(0)
    left = []
    start = cpu()
    for b in range(n_blocks):
        ends = bitboard_multi.new_ends(BLOCK)
        count = bitboard_multi.play_block(pens[b], los[b], his[b], BLOCK, split, 0, limit,
                                          packed[b], ends)
        left.append((ends, count))
    multi = cpu() - start
    start = cpu()
    for ends, count in left:
        e_pens, e_los, e_his, firsts, _, _, _, e_packed = ends
        for array in (e_pens, e_los, e_his, firsts):
            array[count] = array[0]  # the dummy deal, as bitboard.play_block
        bitboard.play_splits(e_pens, e_los, e_his, firsts, count, total, limit, e_packed)
    two = cpu() - start
    n = n_blocks * BLOCK
    return {"multi": multi / n * 1e9, "ends": two / n * 1e9,
            "ends per deal": sum(count for _, count in left) / n}


def main_multi(players: int, deals: int, rounds: int) -> int:
    multi_parts(players, BLOCK)  # compile
    for number in range(rounds):
        row = multi_parts(players, deals)
        print(f"round {number + 1}: {players} players in {row['multi']:.0f} ns a deal, the "
              f"two-player ends {row['ends']:.0f} ns ({row['ends per deal']:.2f} a deal); "
              f"load {os.getloadavg()[0]:.2f}", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2_000_000)
    parser.add_argument("--games", type=int, default=1_000_000, help="games of the C engine")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                        help="3 or 4: the phase with them in and the two-player ends")
    args = parser.parse_args()
    if args.players > 2:
        return main_multi(args.players, args.deals, args.rounds)
    parts(BLOCK)  # compile
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        binary, _ = build_c(SOURCE, directory)
        for number in range(args.rounds):
            c = reference(binary, args.games)
            row = parts(args.deals)
            row["c"] = c
            row["load"] = os.getloadavg()[0]
            rows.append(row)
            print(f"round {number + 1}: C {c / 1e6:.3f} M/s; "
                  + "; ".join(f"{key} {row[key] / 1e6:.3f} M/s {row[key] / c:.2f}x"
                              for key in ("draw", "play", "record", "whole"))
                  + f"; load {row['load']:.2f}", flush=True)
    print("median: " + "; ".join(
        f"{key} {statistics.median(r[key] / r['c'] for r in rows):.2f}x"
        for key in ("draw", "play", "record", "whole"))
        + "; per deal (ns): " + ", ".join(
        f"{key} {statistics.median(1e9 / r[key] for r in rows):.0f}"
        for key in ("draw", "play", "record", "whole", "c")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
