"""Egyptian ratscrew, 2 players, standard deck: the chance that player 1 wins against the
share p of slaps player 1 wins (``odds:p,1-p``), game length in cards by policy, and the
looping deals per million under each deterministic policy.  Writes the figures as JSON
and the plot ``docs/images/ers-slap-odds.png``.

    .venv/bin/python benchmarks/ers_slap_odds.py --deals 100000 --loop-deals 1000000
"""

from __future__ import annotations

import argparse
import json
import math
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from beggar_search.cards.ranked import STANDARD_RANKED
from beggar_search.cards.slaps import SlapRules
from beggar_search.chunk_engine import Engine
from beggar_search.engine import batch
from beggar_search.engine.random import chunk_stream
from beggar_search.games.ers import Ratscrew

CHUNK = 1 << 16


def sweep(policy: str, rules: str, deals: int, seed: int, max_tricks: int = 0) -> dict:
    """Random 2-player standard deals under one policy: counts, wins, the length histogram."""
    slaps = SlapRules.parse(rules, policy, True, 2, seed)
    engine = Engine(STANDARD_RANKED, 2, max_tricks, game=Ratscrew(slaps, 2))
    recorder = batch.new_recorder(0, STANDARD_RANKED.size)
    started = time.perf_counter()
    for chunk in range(-(-deals // CHUNK)):
        n = min(CHUNK, deals - chunk * CHUNK)
        recorder = engine.random_chunk(chunk_stream(seed, chunk), n, recorder)
    counts = recorder.counts
    n = int(counts[batch.C_DEALS])
    return {"policy": policy, "rules": rules, "deals": n, "loops": int(counts[batch.C_LOOPS]),
            "caps": int(counts[batch.C_CAPS]),
            "wins": [int(counts[batch.C_WINS]), int(counts[batch.C_WINS + 1])],
            "mean_cards": float(counts[batch.C_CARDS]) / n,
            "histogram": recorder.histogram.copy(),
            "seconds": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals per point")
    parser.add_argument("--loop-deals", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default="docs/images/ers-slap-odds.png")
    parser.add_argument("--json", default="benchmarks/data/ers_slap_odds.json")
    args = parser.parse_args()

    points = []
    for p in np.linspace(0, 1, 11):
        p = round(float(p), 2)
        r = sweep(f"odds:{p!r},{round(1 - p, 2)!r}", "pair", args.deals, args.seed)
        win = r["wins"][0] / r["deals"]
        half = 1.96 * math.sqrt(max(win * (1 - win), 1e-12) / r["deals"])
        points.append({"p": p, "p1_wins": win, "ci95": half, "caps": r["caps"],
                       "mean_cards": r["mean_cards"], "deals": r["deals"]})
        print(f"odds:{p},{round(1 - p, 2)}  P(player 1 wins) {win:.4f} +- {half:.4f}  "
              f"caps {r['caps']}  mean {r['mean_cards']:.0f} cards  ({r['deals']} deals, "
              f"{r['seconds']:.1f} s)", flush=True)

    lengths, loops = [], []
    for policy in ("none", "first:1", "first:2", "turn"):
        for rules in ("pair", "pair,sandwich"):
            if policy == "none" and rules != "pair":
                continue
            r = sweep(policy, rules, args.loop_deals, args.seed + 1)
            per_million = r["loops"] * 1e6 / r["deals"]
            loops.append({"policy": policy, "rules": rules, "deals": r["deals"],
                          "loops": r["loops"], "per_million": per_million,
                          "mean_cards": r["mean_cards"], "wins": r["wins"],
                          "deals_per_second": r["deals"] / r["seconds"]})
            lengths.append((f"{policy} ({rules})", r["histogram"]))
            print(f"{policy:<8} {rules:<14} {r['loops']} looping deals in {r['deals']} "
                  f"({per_million:.1f} per million), mean {r['mean_cards']:.0f} cards, "
                  f"wins {r['wins']}  ({r['seconds']:.1f} s)", flush=True)
    odds = sweep("odds:0.5,0.5", "pair", args.loop_deals, args.seed + 1)
    lengths.append(("odds:0.5,0.5 (pair)", odds["histogram"]))
    print(f"odds:0.5,0.5 pair: mean {odds['mean_cards']:.0f} cards, caps {odds['caps']}")

    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    ps = [pt["p"] for pt in points]
    left.errorbar(ps, [pt["p1_wins"] for pt in points], yerr=[pt["ci95"] for pt in points],
                  fmt="o-", capsize=3)
    left.axhline(0.5, color="grey", lw=0.5)
    left.set_xlabel("share of slaps player 1 wins (odds:p,1-p)")
    left.set_ylabel("P(player 1 wins)")
    left.set_title(f"Egyptian ratscrew, 2 players, standard deck\n{args.deals:,} deals a "
                   "point, 95% intervals")
    for name, histogram in lengths:
        cards = np.arange(len(histogram))
        total = histogram.sum()
        mean = (cards * histogram).sum() / total
        keep = cards < 3000
        smooth = np.convolve(histogram[keep] / total, np.ones(20), mode="same")
        right.plot(cards[keep], smooth, label=f"{name}: mean {mean:.0f}")
    right.set_xlabel("game length (cards laid), finished games")
    right.set_ylabel("share of games per 20 cards")
    right.set_title(f"game length by policy ({args.loop_deals:,} deals each)")
    right.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(args.out, dpi=110)
    with open(args.json, "w") as handle:
        json.dump({"points": points, "policies": loops, "seed": args.seed}, handle, indent=1)
    print("wrote", args.out, "and", args.json)


if __name__ == "__main__":
    main()
