"""What each kick kind finds: distinct new cycles per million kicks, out of Casella's island.

The standard deck's closure from the Casella cycle (``search factory --kicks none``: its 4
cycles and their mirrors, every single move tried) is the island a run starts in; nothing
one move away leads out of it.  This script kicks that island's states with each kick kind
and number of moves (``perturb.kick_chunk``, the factory's kick chunks, on the fast kernel)
and counts, per million kicks: the kicks that loop at all, those that loop into a cycle
outside the island, and the distinct such cycles (the figure that opens new islands).

    python benchmarks/bench_kick_yield.py [--tries 16000000] [--moves 2-2,2-3,3-4]
        [--kinds swaps,cards,blocks,exchanges,mixed] [--shifts 2] [--json yield.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from beggar_search import driver
from beggar_search.cards.deck import parse_state
from beggar_search.cycles import kept as cycles
from beggar_search.cycles import perturb
from beggar_search.engine.game import cycle_key
from beggar_search.engine.random import chunk_stream
from beggar_search.games.loops import CASELLA
from beggar_search.store import Store
from beggar_search.strategies import FactoryStrategy
from beggar_search.strategies.factory import cycle_node
from beggar_search.tunables import DEFAULT_KICK_SHIFT, KICK_NAMES

CHUNK = 1 << 21  # kicks a chunk (the factory's default --kick-tries)
ROOM = 1 << 12  # distinct new cycles a chunk may keep


def casella_island() -> list:
    """Every cycle of the closure from the Casella cycle (a factory run without kicks)."""
    params = FactoryStrategy.prepare({
        "deck": "standard", "players": 2, "seed": 1, "top_k": 0, "max_tricks": None,
        "chunk_size": 1 << 19, "hours": None, "starts": [CASELLA], "seed_chunks": 0,
        "kicks": []})
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "c.sqlite") as store:
        run = driver.start(store, "factory", params, 2, quiet=True)["run"]
        return [cycle_node(*parse_state(row["state"])) for row in store.cycles(run)]


def kick_yield(island, kind: str, fewest: int, most: int, tries: int,
               shift: int = DEFAULT_KICK_SHIFT) -> dict:
    """Kick the island's states ``tries`` times (chunks of ``CHUNK``, each its own stream)."""
    seeds = cycles.state_arrays([parse_state(text) for node in island for text in node.states],
                                52, 2)
    known = np.array(sorted({cycle_key(c) for node in island for c in node.renamed}),
                     dtype=np.int64)
    config = perturb.kick_config(kind, fewest, most, shift)
    counts = np.zeros(3, dtype=np.int64)
    distinct = set()
    clock = time.process_time()
    for chunk in range(-(-tries // CHUNK)):
        found = cycles.new_kept(ROOM, 52, 2)
        kept = perturb.kick_chunk(chunk_stream(2026, chunk), seeds, config, known,
                                  min(CHUNK, tries - chunk * CHUNK), found, counts, True)
        distinct.update(int(key) for key in found.keys[:kept])
    seconds = time.process_time() - clock
    million = int(counts[0]) / 1e6
    return {"kind": kind, "moves": f"{fewest}-{most}", "shift": shift, "tries": int(counts[0]),
            "loops": int(counts[1]), "outside": int(counts[2]), "distinct": len(distinct),
            "loops_per_million": int(counts[1]) / million,
            "distinct_per_million": len(distinct) / million,
            "kicks_per_cpu_second": int(counts[0]) / seconds}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=16_000_000)
    parser.add_argument("--moves", default="2-2,2-3,3-4")
    parser.add_argument("--kinds", default=",".join(KICK_NAMES))
    parser.add_argument("--shifts", default=str(DEFAULT_KICK_SHIFT),
                        help="largest split shifts, comma-separated")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    island = casella_island()
    print(f"Casella's island: {len(island)} cycles, {sum(len(n.states) for n in island)} states"
          f" kicked; {args.tries:,} kicks per row")
    print("| kind | moves | shift | loops per M | kicks out of the island (chunk-distinct) |"
          " distinct new cycles | per M | kicks per CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for shift, span, kind in itertools.product(
            [int(x) for x in args.shifts.split(",")], args.moves.split(","),
            args.kinds.split(",")):
        fewest, most = (int(x) for x in span.split("-"))
        row = kick_yield(island, kind, fewest, most, args.tries, shift)
        rows.append(row)
        print(f"| `{kind}` | {row['moves']} | {shift} | {row['loops_per_million']:.1f} |"
              f" {row['outside']:,} | {row['distinct']:,} |"
              f" {row['distinct_per_million']:.2f} | {row['kicks_per_cpu_second']:,.0f} |",
              flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
