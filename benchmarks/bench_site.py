"""How long ``beggar-search report`` takes to write the site of a big results file.

Builds a synthetic results file through the store's own writers (``Store.create_run``,
``Store.add_chunk`` with ``records.ChunkRecord``): a factory-like run of CYCLES cycles
(parents, moves, generations, mirrors, in-trees, kicks that start new islands) and a
random run whose leaderboard holds ROWS real deals of the standard deck, then times
``report.site.write_site`` on it (the replays and cycle states are played for real).

    python benchmarks/bench_site.py [--cycles 50000] [--rows 10000] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_report import finish

from beggar_search.cards.deck import STANDARD, Deal, format_state
from beggar_search.cli.results import export_rows
from beggar_search.report.data import ReportOptions
from beggar_search.report.site import write_site
from beggar_search.store import Store
from beggar_search.store.records import (
    CATALOGUED,
    MET,
    ChunkRecord,
    CycleRecord,
    GameRecord,
    InTree,
)

CHUNK_CYCLES = 5000


def random_deal(rng: random.Random) -> Deal:
    cards = list(STANDARD.sorted_cards())
    rng.shuffle(cards)
    return Deal.from_sequence(cards, 2, STANDARD)


def cycle_records(count: int, rng: random.Random):
    """CYCLES cycles in mirror pairs, each pair found from an earlier pair (or by a kick)."""
    names = [f"{rng.getrandbits(64):016x}" for _ in range(count)]
    place = {name: index for index, name in enumerate(names)}
    records = []
    generation = {}
    for index, name in enumerate(names):
        pair = index - index % 2
        mirror = names[index ^ 1] if index ^ 1 < count else None
        if index < 2 or (index % 2 == 0 and rng.random() < 0.02):
            parent, move = None, "start" if index < 2 else "kick 2 exchanges"
        elif index % 2 == 0:
            parent, move = names[rng.randrange(max(0, pair - 400), pair)], "exchange"
        else:  # the mirror of the pair's first: found from the mirror of its parent
            parent, move = records[pair][0].parent, records[pair][0].move
            if parent is not None:
                parent = names[place[parent] ^ 1]
        generation[name] = 0 if parent is None else generation.get(parent, 0) + 1
        deal = random_deal(rng)
        state = format_state(deal.hands, rng.randrange(2))
        period = rng.randrange(1, 400)
        met = CycleRecord(MET, name, period, period * 8, state, position=index,
                          generation=generation[name], parent=parent, move=move)
        tree = InTree(states=rng.randrange(1, 10**6), complete=rng.random() < 0.9,
                      depth=rng.randrange(1, 200), fair_deals=rng.randrange(0, 3) // 2,
                      fair_deals_swapped=0)
        catalogued = CycleRecord(CATALOGUED, name, period, period * 8, state, position=index,
                                 in_tree=tree, mirror=mirror, own_mirror=False)
        records.append((met, catalogued))
    return records


def build(path: Path, cycles: int, rows: int, seed: int = 1) -> None:
    """A results file with a factory-like run of ``cycles`` cycles and a random run of
    ``rows`` leaderboard rows, written through the store."""
    rng = random.Random(seed)
    base = {"deck": "standard", "players": 2, "seed": seed, "max_tricks": None,
            "hours": None, "chunk_size": 1000}
    with Store(path) as store:
        run = store.create_run("factory", {**base, "top_k": 0}, "bench")
        records = cycle_records(cycles, rng)
        for chunk, start in enumerate(range(0, cycles, CHUNK_CYCLES)):
            part = records[start:start + CHUNK_CYCLES]
            store.add_chunk(run, ChunkRecord(
                chunk=chunk, deals=len(part), loops=len(part), caps=0, cards=0, wins=(0, 0),
                seconds=1.0, histogram=(), games=(),
                cycles=tuple(r for pair in part for r in pair)), 0, float(chunk + 1))
        store.set_status(run.id, "done")
        run = store.create_run("random", {**base, "top_k": rows, "deals": rows}, "bench")
        games = tuple(GameRecord("longest", str(random_deal(rng)), position, position,
                                 "win", 10_000 - position // 3, 1000 - position // 30, 1,
                                 0, 0, 0, 0, None) for position in range(rows))
        store.add_chunk(run, ChunkRecord(
            chunk=0, deals=rows, loops=0, caps=0, cards=sum(g.cards for g in games),
            wins=(rows, 0), seconds=1.0,
            histogram=tuple((g.cards, 1) for g in games[::-1] if g.position % 3 == 0),
            games=games), rows, 1.0)
        store.set_status(run.id, "done")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=50_000)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--keep", help="folder to keep the results file and site in")
    parser.add_argument("--out", help="write the figures as JSON to this file")
    args = parser.parse_args(argv)
    started = time.time()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="bench_site."))
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "big.sqlite"
    if db.exists():
        db.unlink()
    t0 = time.perf_counter()
    build(db, args.cycles, args.rows)
    built = time.perf_counter() - t0
    # a warm-up write of a small site compiles the engine's kernels (cached on disk)
    with Store(db, create=False, writing=False) as store:
        write_site(store, [2], folder / "warm", ReportOptions(replays=1, cycle_pages=0))
        t0 = time.perf_counter()  # the baseline: what `export` reads of the same rows
        for run in store.runs():
            for what in ("cycles", "longest"):
                sum(1 for _ in export_rows(store, run, what))
        read = time.perf_counter() - t0
        t0 = time.perf_counter()
        written = write_site(store, [], folder / "site")
        seconds = time.perf_counter() - t0
    data = {"cycles": args.cycles, "rows": args.rows, "build_seconds": round(built, 2),
            "export_read_seconds": round(read, 2), "write_seconds": round(seconds, 2),
            "write_over_export": round(seconds / read, 2), "files": written["files"],
            "data_megabytes": round(written["bytes"] / 1e6, 1), "site": str(folder / "site"),
            "load": os.getloadavg()[0], "browser": browser_times(folder / "site")}
    return finish(data, __file__, started, summary, args.out)


def summary(d: dict) -> str:
    lines = [f"{d['cycles']:,} cycles and {d['rows']:,} leaderboard rows: site written in"
             f" {d['write_seconds']:.1f} s, {d['write_over_export']:.1f}x the"
             f" {d['export_read_seconds']:.1f} s that export takes to read the same rows"
             f" ({d['files']:,} files, {d['data_megabytes']} MB of data; results file built in"
             f" {d['build_seconds']:.1f} s); load {d['load']:.1f}"]
    for page, times in d["browser"].items():
        lines.append(f"  {page}: first rows {times.get('firstRowsMs')} ms, every row"
                     f" {times.get('allRowsMs')} ms, Chromium start to DOM {times['wall_ms']} ms")
    return "\n".join(lines)


def browser_times(site: Path) -> dict:
    """For each table page: when headless Chromium (real time, no virtual clock) showed its
    first rows and all of them (the page notes both on its body), and the whole run's wall
    time from starting Chromium to its DOM after 3 s; {} without Chromium."""
    chromium = shutil.which("chromium")
    if not chromium:
        return {}
    times = {}
    for page in ("index", "leaderboard", "loops", "cycles", "family"):
        t0 = time.perf_counter()
        html = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                               "--timeout=3000", "--dump-dom", (site / f"{page}.html").as_uri()],
                              capture_output=True, text=True, timeout=120).stdout
        body = re.search(r"<body([^>]*)>", html)
        found = dict(re.findall(r'data-(first-rows-ms|all-rows-ms)="(\d+)"', body.group(1))) \
            if body else {}
        times[page] = {"firstRowsMs": found.get("first-rows-ms"),
                       "allRowsMs": found.get("all-rows-ms"),
                       "wall_ms": round((time.perf_counter() - t0) * 1000)}
    return times


if __name__ == "__main__":
    sys.exit(main())
