"""The GPU engine against every CPU core, in one run, and the camicia census on one GPU.

    python benchmarks/bench_gpu.py [results.json] [--deals N] [--cpu-deals N]
        [--gpu-workers W] [--workers W] [--simulate]

Two workloads: random standard deals (what ``search random`` plays) and consecutive
camicia deals (``search enumerate``: the camicia census).  For each, measured in this run:

- ``kernel``: the device alone on N deals drawn beforehand (``gpu.DevicePlayer.run``),
  wall clock: the GPU's ceiling; ``kernel_with_copies``: with the masks' copy up and the
  results' copy down;
- ``engine``: the GPU engine in one process (``bench.speed.time_one(..., "gpu")``: the CPU
  draws the deals, the device plays them, the CPU records them), wall clock;
- ``engine_workers``: the GPU engine on W processes sharing the device (``--gpu-workers``,
  default: every core), what ``search --device gpu --workers W`` does;
- ``cpu``: the CPU fast path on every core (``--workers``, default all;
  ``bench.speed.time_parallel``), the figure the GPU has to beat.

The census projection: every deal of camicia (``Deck.count_deals(2)``: 1.94e14) at the
best GPU rate measured (the engine on W processes), and at the kernel's ceiling.  The
figures depend on the machine and its load: the load average is printed beside them.

``--simulate``: Numba's CUDA simulator (pure Python) and tiny sizes, to show the script
works where there is no GPU; its rates mean nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

if "--simulate" in sys.argv:  # before anything imports numba.cuda
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

sys.path.insert(0, str(Path(__file__).parent))

import numpy as np
from bench_report import finish

from beggar_search.bench.speed import (
    SEED,
    Timing,
    Workload,
    enumeration_start,
    time_one,
    time_parallel,
)
from beggar_search.cards.deck import Deck, unrank_sequence
from beggar_search.engine import bitboard
from beggar_search.engine.bits import PACK_MASK
from beggar_search.gpu import engine as gpu

WORKLOADS = (("standard", "random"), ("camicia", "enumerate"))
SECONDS_PER_DAY = 86400.0


def drawn_masks(deck: Deck, source: str, n_deals: int) -> tuple:
    """``n_deals`` deals of the workload as masks, drawn as the CPU engine draws them."""
    pens, los, his, _ = bitboard.new_masks(n_deals)
    if source == "random":
        from beggar_search.engine.random import chunk_stream

        cards = deck.sorted_cards()
        bitboard.fill_random(chunk_stream(SEED, 0), bitboard.DRAW_PLACES,
                             np.arange(deck.size), bitboard.penalty_kinds(cards), cards.copy(),
                             pens, los, his, n_deals)
    else:
        first = unrank_sequence(enumeration_start(deck, 2, SEED, 0, n_deals), deck)
        bitboard.fill_enumerated(first, False, pens, los, his, n_deals)
    return pens[:n_deals], los[:n_deals], his[:n_deals]


def time_kernel(deck: Deck, source: str, n_deals: int) -> tuple[Timing, Timing]:
    """The device alone on ``n_deals`` deals (compiled on a few first), wall clock: the
    kernel by itself, and with the masks' copy up and the results' copy down."""
    split = np.array(deck.split(2), dtype=np.int64)
    pens, los, his = drawn_masks(deck, source, n_deals)
    player = gpu.DevicePlayer(n_deals, split, bitboard.fast_limit(0))
    packed = np.zeros(n_deals + 1, dtype=np.int64)
    player.play(pens, los, his, min(64, n_deals), packed)  # compiled or loaded: untimed
    started = time.perf_counter()
    player.load(pens, los, his, n_deals)
    loaded = time.perf_counter()
    player.run(n_deals)
    played = time.perf_counter()
    player.fetch(n_deals, packed)
    fetched = time.perf_counter()
    cards = int((packed[:n_deals] & PACK_MASK).sum())
    return (Timing(n_deals, cards, played - loaded, played - loaded),
            Timing(n_deals, cards, fetched - started, fetched - started))


def measure(spec: str, source: str, args) -> dict:
    deck = Deck.parse(spec)
    workload = Workload(deck.spec, 2, source)
    kernel, with_copies = time_kernel(deck, source, args.deals)
    figures = {"deck": deck.spec, "source": source, "kernel": kernel.as_dict(),
               "kernel_with_copies": with_copies.as_dict(),
               "engine": time_one(workload, "gpu", args.deals).as_dict()}
    if args.gpu_workers > 1:
        figures["engine_workers"] = time_parallel(workload, "gpu", args.deals // args.gpu_workers,
                                                  args.gpu_workers).as_dict()
    figures["cpu"] = time_parallel(workload, "fast", args.cpu_deals, args.workers).as_dict()
    best = max(figures.get("engine_workers", figures["engine"])["deals_per_second"],
               figures["engine"]["deals_per_second"])
    figures["best_gpu_deals_per_second"] = best
    figures["gpu_over_cpu"] = best / figures["cpu"]["deals_per_second"]
    figures["kernel_over_cpu"] = (figures["kernel"]["deals_per_second"]
                                  / figures["cpu"]["deals_per_second"])
    print(f"{spec} {source}: done, load {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
    return figures


def describe(data: dict) -> str:
    where = "CUDA simulator: rates mean nothing" if data["simulated"] else "device"
    lines = [f"GPU engine ({where}) against {data['workers']} CPU workers;"
             f" load {data['load_average'][0]:.2f}"]
    for figures in data["workloads"]:
        lines.append(f"{figures['deck']}, {figures['source']} deals")
        rows = [("kernel alone (device)", figures["kernel"]),
                ("kernel and copies", figures["kernel_with_copies"]),
                ("gpu engine, 1 process", figures["engine"])]
        if "engine_workers" in figures:
            rows.append((f"gpu engine, {data['gpu_workers']} processes",
                         figures["engine_workers"]))
        rows.append((f"cpu fast path, {data['workers']} workers", figures["cpu"]))
        lines += [f"  {name:<30}{row['deals_per_second']:>16,.0f} deals/s" for name, row in rows]
        lines.append(f"  {'best gpu / cpu':<30}{figures['gpu_over_cpu']:>15.2f}x"
                     f"  (kernel alone {figures['kernel_over_cpu']:.2f}x)")
    census = data["census"]
    lines.append(f"camicia census ({census['deals']:.3g} deals) on one GPU: "
                 f"{census['days_at_best']:,.1f} days at the best engine rate, "
                 f"{census['days_at_kernel']:,.1f} days at the kernel's ceiling; "
                 f"{census['days_on_cpu']:,.1f} days on the {data['workers']} CPU workers")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="JSON file for the figures")
    parser.add_argument("--deals", type=int, default=1 << 26, help="deals on the GPU")
    parser.add_argument("--cpu-deals", type=int, default=1 << 22,
                        help="deals per CPU worker")
    cores = len(os.sched_getaffinity(0))
    parser.add_argument("--workers", type=int, default=cores, help="CPU workers")
    parser.add_argument("--gpu-workers", type=int, default=cores,
                        help="processes sharing the GPU")
    parser.add_argument("--simulate", action="store_true",
                        help="the CUDA simulator, tiny sizes (no GPU needed)")
    args = parser.parse_args()
    if args.simulate:
        args.deals, args.cpu_deals, args.workers, args.gpu_workers = 64, 2000, 1, 1
    reason = gpu.unavailable_reason()
    if reason:
        print(f"bench_gpu: {reason}", file=sys.stderr)
        return 2
    started = time.time()
    data = {"simulated": gpu.simulated(), "deals": args.deals, "cpu_deals": args.cpu_deals,
            "workers": args.workers, "gpu_workers": args.gpu_workers,
            "workloads": [measure(spec, source, args) for spec, source in WORKLOADS]}
    camicia = data["workloads"][1]
    deals = Deck.parse("camicia").count_deals(2)
    data["census"] = {
        "deals": deals,
        "days_at_best": deals / camicia["best_gpu_deals_per_second"] / SECONDS_PER_DAY,
        "days_at_kernel": deals / camicia["kernel"]["deals_per_second"] / SECONDS_PER_DAY,
        "days_on_cpu": deals / camicia["cpu"]["deals_per_second"] / SECONDS_PER_DAY}
    data["load_average"] = os.getloadavg()
    return finish(data, __file__, started, describe, args.output)


if __name__ == "__main__":
    sys.exit(main())
