"""The GPU engine's CPU side, timed without a device: what one core can feed the GPU.

``--device gpu`` draws every block's deals on the CPU (``bitboard.fill_random``, or
``bitboard.fill_enumerated`` for an index range) and records every block's results there
(``bitboard.record_played``); only the games are played on the device (``gpu/engine.py``).
This times those two steps per deal on one core, as the GPU engine calls them (blocks of
``--block`` deals, the results the device would send back computed beforehand by the CPU's
own ``bitboard.play_block``, which gives them bit for bit), in interleaved rounds, CPU
seconds, and says what they cap a host of ``--cores`` cores at (every core a process
feeding the device, the best case) against ``--goal`` deals/s.

    taskset -c 0 python benchmarks/bench_gpu_host.py [--deals N] [--rounds R] [--json F]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from beggar_search.bench.speed import SEED, enumeration_start
from beggar_search.cards.deck import Deck, unrank_sequence
from beggar_search.engine import batch, bitboard
from beggar_search.engine.random import chunk_stream

WORKLOADS = (("standard", "random", bitboard.DRAW_PLACES), ("camicia", "enumerate", None),
             ("standard", "random (shuffle draw)", bitboard.DRAW_SHUFFLE))
TOP_K = 10  # the leaderboard a search keeps (``search --top-k`` default)


def workload_steps(spec: str, source: str, draw, block: int):
    """Two callables for a workload, each doing one block: drawing its deals as the GPU
    engine does, and recording its (precomputed) results as the GPU engine does."""
    deck = Deck.parse(spec)
    cards = deck.sorted_cards()
    split = np.array(deck.split(2), dtype=np.int64)
    pens, los, his, _ = bitboard.new_masks(block)
    scratch = bitboard.new_scratch(deck.size, 2, block)
    order, kinds, sequence = np.arange(deck.size), bitboard.penalty_kinds(cards), cards.copy()
    stream = chunk_stream(SEED, 0)
    first = unrank_sequence(enumeration_start(deck, 2, SEED, 0, block), deck)
    state = {"started": False, "base": 0, "recorder": batch.new_recorder(TOP_K, deck.size)}

    def draw_block() -> None:
        if draw is None:
            bitboard.fill_enumerated(first, state["started"], pens, los, his, block)
            state["started"] = True
        else:
            bitboard.fill_random(stream, draw, order, kinds, sequence, pens, los, his, block)

    def record_block() -> None:
        state["recorder"] = bitboard.record_played(pens, los, his, block, state["base"], split,
                                                   0, 0, scratch, state["recorder"])
        state["base"] += block

    def play_block() -> None:  # the device's part, here on the CPU: untimed
        bitboard.play_block(pens, los, his, block, split, 0, bitboard.fast_limit(0), scratch[3],
                            bitboard.multi_for(split), bitboard.wide_for(cards))

    return draw_block, record_block, play_block


def measure(spec: str, source: str, draw, deals: int, block: int, rounds: int) -> dict:
    """Nanoseconds a deal (CPU time, median of ``rounds`` interleaved rounds of ``deals``
    deals each) of drawing and of recording."""
    draw_block, record_block, play_block = workload_steps(spec, source, draw, block)
    draw_block()  # compiled or loaded from the cache: untimed
    play_block()
    record_block()
    times = {"draw": [], "record": []}
    for _ in range(rounds):
        for _ in range(max(1, deals // block)):
            clock = time.process_time()
            draw_block()
            times["draw"].append(time.process_time() - clock)
            play_block()
            clock = time.process_time()
            record_block()
            times["record"].append(time.process_time() - clock)
    per_deal = {step: statistics.median(values) / block * 1e9 for step, values in times.items()}
    both = per_deal["draw"] + per_deal["record"]
    return {"deck": spec, "source": source, "block": block, "blocks": len(times["draw"]),
            "draw_ns": round(per_deal["draw"], 2), "record_ns": round(per_deal["record"], 2),
            "both_ns": round(both, 2), "deals_per_second_one_core": round(1e9 / both, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1 << 22, help="deals a round")
    parser.add_argument("--block", type=int, default=1 << 20,
                        help="deals a block (the GPU engine: 4,194,304)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cores", type=int, default=16, help="the host's cores")
    parser.add_argument("--goal", type=float, default=1e9, help="deals/s the device aims at")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    affinity = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    rows = []
    for spec, source, draw in WORKLOADS:
        row = measure(spec, source, draw, args.deals, args.block, args.rounds)
        row["host_cap"] = round(row["deals_per_second_one_core"] * args.cores, 1)
        row["host_cap_over_goal"] = round(row["host_cap"] / args.goal, 3)
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    print(f"one core (CPU time; cores allowed {affinity}), load {load:.2f} before,"
          f" {os.getloadavg()[0]:.2f} after; a host of {args.cores} cores against"
          f" {args.goal:.0e} deals/s")
    print("| workload | draw ns/deal | record ns/deal | both | one core, deals/s |"
          f" {args.cores} cores | of the goal |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['deck']} {row['source']} | {row['draw_ns']:.1f} | {row['record_ns']:.1f}"
              f" | {row['both_ns']:.1f} | {row['deals_per_second_one_core'] / 1e6:.1f} M |"
              f" {row['host_cap'] / 1e6:,.0f} M | {row['host_cap_over_goal']:.2f} |")
    if args.json:
        args.json.write_text(json.dumps({"load_before": load, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
