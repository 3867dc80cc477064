"""Recall of ``search factory --game ers`` against census truth, per slap policy.

For each ranked deck and deterministic slap policy: the census (every deal played by
``search enumerate --game ers``; its looping deals grouped by cycle), then the factory
from nothing (random states and fair deals, then the closure; ``--kicks none``, so it
ends by itself; ``--seed-tries`` random states a round, one seeding chunk by default, a
sixteenth of the command's default) and from one seed (the smallest deal of the cycle
most deals reach, ``--from DEAL --ignore-known --kicks none``).  Cycles found: census
cycles the factory catalogued; fair deals found: the census's looping deals the factory
stored (from the in-trees), and any it stored that the census does not have (must be
0).  Every command runs into fresh files under a temporary folder.

    python benchmarks/ers_factory_recall.py [--deck SPEC ...] [--policy P ...] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from beggar_search.store import Store
from beggar_search.tunables import SEED_CHUNK_TRIES

DECKS = ("8=2,9=2,T=2,J=2,Q=1,K=1", "9=4,T=4,J=2,Q=1,K=1", "T=8,J=2,Q=2,K=2,A=2")
POLICIES = ("none", "first:1", "turn")
COMMAND = [sys.executable, "-m", "beggar_search"]


def run(args: list[str]) -> tuple[dict, float]:
    """One command (its --json summary) and its wall seconds."""
    clock = time.perf_counter()
    done = subprocess.run(COMMAND + args, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1]), time.perf_counter() - clock


def loops_by_cycle(path: Path) -> tuple[dict[str, set[str]], list[dict]]:
    """A file's one run: its looping deals by cycle, and its cycles."""
    with Store(path, create=False) as store:
        run_id = store.run().id
        loops = {}
        for game in store.iter_games(run_id, "loops"):
            loops.setdefault(game["cycle"], set()).add(game["deal"])
        return loops, store.cycles(run_id)


def measure(deck: str, policy: str, workers: int, folder: Path, seed_tries: int) -> dict:
    game = ["--game", "ers", "--deck", deck, "--slap-policy", policy, "--workers",
            str(workers), "--quiet", "--json"]
    census_file = folder / "census.sqlite"
    census, census_seconds = run(["search", "enumerate", *game, "--db", str(census_file)])
    truth, _ = loops_by_cycle(census_file)
    deals = set().union(*truth.values()) if truth else set()
    result = {"deck": deck, "policy": policy, "deals": census["deals"],
              "census_seconds": round(census_seconds, 1), "cycles": len(truth),
              "fair_deals": len(deals)}
    if not truth:
        return result
    seed_cycle = min(truth, key=lambda c: (-len(truth[c]), c))
    factory = ["search", "factory", *game, "--seed", "1", "--kicks", "none"]
    for name, extra in (("nothing", ["--seed-tries", str(seed_tries)]),
                        ("seed", ["--from", min(truth[seed_cycle]), "--ignore-known"])):
        path = folder / f"{name}.sqlite"
        summary, seconds = run([*factory, *extra, "--db", str(path)])
        loops, rows = loops_by_cycle(path)
        stored = set().union(*loops.values()) if loops else set()
        result[name] = {"cycles": len(set(truth) & {row["cycle"] for row in rows}),
                        "deals": len(stored & deals), "extra_deals": len(stored - deals),
                        "catalogued": len(rows), "islands": summary.get("islands"),
                        "tries": summary["deals"], "seconds": round(seconds, 1)}
    return result


def table(results: list[dict]) -> str:
    lines = ["| deck | policy | census: deals, looping deals, cycles, s | from nothing: cycles,"
             " fair deals, tries, s | from one seed: cycles, fair deals, tries, s |",
             "|---|---|---|---|---|"]
    for r in results:
        row = (f"| `{r['deck']}` | {r['policy']} | {r['deals']:,}, {r['fair_deals']:,},"
               f" {r['cycles']}, {r['census_seconds']} |")
        for name in ("nothing", "seed"):
            z = r.get(name)
            if z is None:
                row += " - |"
                continue
            extra = f" (+{z['extra_deals']} not in census)" if z["extra_deals"] else ""
            row += (f" {z['cycles']}/{r['cycles']}, {z['deals']:,}/{r['fair_deals']:,}{extra},"
                    f" {z['tries']:,}, {z['seconds']} |")
        lines.append(row)
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", action="append")
    parser.add_argument("--policy", action="append")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed-tries", type=int, default=SEED_CHUNK_TRIES,
                        help="random states a seeding round of the run from nothing tries"
                             " (the command's default from nothing: 16 times this)")
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)
    results = []
    for deck in args.deck or DECKS:
        for policy in args.policy or POLICIES:
            with tempfile.TemporaryDirectory() as folder:
                results.append(measure(deck, policy, args.workers, Path(folder),
                                       args.seed_tries))
            print(json.dumps(results[-1]), file=sys.stderr, flush=True)
    print(f"load {os.getloadavg()[0]:.1f}")
    print(table(results))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
