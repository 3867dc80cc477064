"""The GPU engine against the CPU path, field for field, on every workload it serves.

    python benchmarks/gpu_identity.py [--deals N] [--json results.json]

Each workload is a run's parameters as the CLI makes them (``search.run_params``), played
chunk by chunk by its strategy (``strategies/sweep.py``, what a worker does) once on the
CPU and once with ``device: gpu``; every chunk's summary is turned into the record the
driver stores (``Strategy.record``) and the two are compared whole (counts, wins,
histogram, leaderboard, loops, cycles; only the seconds differ).  Workloads:

- ``standard``: random standard deals, the bitboard draw (penalty places), 2 chunks;
- ``standard-shuffled``: random standard deals, the general engine's draw (the whole deck
  shuffled), with an agreed cap of 60 tricks: capped games and games past the GPU's
  trick limit replayed on the CPU;
- ``camicia``: random camicia deals, 2 chunks;
- ``enumerate``: deals 50.. of the 10-card deck plain=6,J=2,Q=1,K=1 in index order, 2
  chunks (loops at deals 86 and 88, found by the CPU replay with cycle detection; at
  most its 2,470 deals from there);
- ``camicia-enumerate``: camicia deals from index 10**13 in index order, 2 chunks (what
  the census plays).

Without a GPU, run it under Numba's CUDA simulator with a few hundred deals (the default):
``NUMBA_ENABLE_CUDASIM=1 python benchmarks/gpu_identity.py``.  Exit status 1 when any
workload differs.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time

from beggar_search.cards.deck import Deck
from beggar_search.cli.options import SearchOptions
from beggar_search.cli.search import run_params
from beggar_search.gpu.engine import GPU, DevicePlayer, simulated
from beggar_search.strategies import STRATEGIES, strategy_for

SEED = 20261202
# name: (strategy, deck, options beyond the seed and deals, extra run parameters)
WORKLOADS = {
    "standard": ("random", "standard", {}, {"engine": "bitboard"}),
    "standard-shuffled": ("random", "standard", {"max_tricks": 60}, {"engine": "general"}),
    "camicia": ("random", "camicia", {}, {}),
    "enumerate": ("enumerate", "plain=6,J=2,Q=1,K=1", {}, {"start": 50}),
    "camicia-enumerate": ("enumerate", "camicia", {}, {"start": 10**13}),
}


def params_of(name: str, n_deals: int, device: str | None) -> tuple[str, dict]:
    """The strategy and the prepared run parameters of workload ``name`` on ``device``."""
    strategy, deck, options, extra = WORKLOADS[name]
    if strategy == "enumerate":
        n_deals = min(n_deals, Deck.parse(deck).count_deals(2) - extra["start"])
    chunk = max(1, -(-n_deals // 2))
    search = SearchOptions(seed=SEED, top_k=10, chunk_size=chunk, **options)
    on_device = {"device": device} if device else {}
    params = run_params(deck, 2, search, deals=n_deals, **extra, **on_device)
    return strategy, STRATEGIES[strategy].prepare(params)


def play(name: str, n_deals: int, device: str | None) -> tuple[list, float]:
    """Every chunk of the workload as the store would keep it (seconds zeroed), and the
    seconds the chunks took."""
    strategy_name, params = params_of(name, n_deals, device)
    strategy = strategy_for(strategy_name, params)
    records, seconds = [], 0.0
    for job in strategy.plan(set()):
        summary = strategy.run_chunk(job)
        seconds += summary.seconds
        records.append(dataclasses.replace(strategy.record(job, summary), seconds=0.0))
    return records, seconds


def compare(name: str, n_deals: int) -> dict:
    """One workload on the CPU and on the GPU: whether every stored field agrees."""
    cpu, cpu_seconds = play(name, n_deals, None)
    before = DevicePlayer.played
    gpu, gpu_seconds = play(name, n_deals, GPU)
    on_device = DevicePlayer.played - before
    differing = sorted({field.name for one, other in zip(cpu, gpu, strict=True)
                        for field in dataclasses.fields(one)
                        if getattr(one, field.name) != getattr(other, field.name)})
    return {"workload": name, "deals": sum(r.deals for r in cpu), "chunks": len(cpu),
            "deals_on_device": on_device, "identical": cpu == gpu, "differing_fields": differing,
            "loops": sum(r.loops for r in cpu), "caps": sum(r.caps for r in cpu),
            "cards": sum(r.cards for r in cpu),
            "longest": max((g.cards for r in cpu for g in r.games if g.board == "longest"),
                           default=0),
            "cpu_seconds": cpu_seconds, "gpu_seconds": gpu_seconds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="Deals per workload.")
    parser.add_argument("--workloads", nargs="+", choices=sorted(WORKLOADS),
                        default=list(WORKLOADS))
    parser.add_argument("--json", dest="output", help="Write the results here.")
    args = parser.parse_args()
    started = time.time()
    results = [compare(name, args.deals) for name in args.workloads]
    data = {"simulator": simulated(), "results": results,
            "all_identical": all(r["identical"] for r in results),
            "wall_seconds": time.time() - started}
    for r in results:
        verdict = "identical" if r["identical"] else f"DIFFERENT: {r['differing_fields']}"
        print(f"{r['workload']:<18} {r['deals']:>10,} deals in {r['chunks']} chunks:"
              f" {verdict} ({r['loops']} loops, {r['caps']} caps, longest {r['longest']} cards)")
    if args.output:
        with open(args.output, "w") as handle:
            json.dump(data, handle, indent=2)
    return 0 if data["all_identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
