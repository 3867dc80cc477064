"""Do card swaps of long deals give long games?  The census decks' answer.

    python benchmarks/research/swap_neighbours.py [DECK]   # default plain=18,J=2,Q=2,K=2

For the census truth of DECK (``benchmarks/data/records-*.json``, made by
``bench_records.py census``), plays every swap of two different cards of the 20 longest deals,
of ranks 201-220 and 901-920, and of the 20 longest of 200,000 random deals, and prints the
mean length of the swapped deals and the share of them in the top 50 or of the greatest
length, beside 200,000 random deals (docs/records-benchmark.md quotes the 24-card deck).
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import numpy as np

from beggar_search.cards.deck import Deal, Deck
from beggar_search.engine import rules

DATA = Path(__file__).resolve().parents[1] / "data"


def lengths(deck: Deck, sequences: np.ndarray) -> np.ndarray:
    """Cards played in each deal's game (the general engine)."""
    rows = np.zeros((len(sequences), rules.RESULT_LEN), dtype=np.int64)
    half = deck.size // 2
    rules.play_sequences(np.ascontiguousarray(sequences, dtype=np.uint8),
                         np.array([half, deck.size - half], dtype=np.int64), 0, 0, rows)
    return rows[:, rules.R_CARDS]


def swaps(sequence: np.ndarray) -> np.ndarray:
    """Every deal made by swapping two different cards of ``sequence``."""
    out = []
    for i, j in itertools.combinations(range(len(sequence)), 2):
        if sequence[i] != sequence[j]:
            swapped = sequence.copy()
            swapped[i], swapped[j] = swapped[j], swapped[i]
            out.append(swapped)
    return np.array(out)


def main() -> None:
    spec = sys.argv[1] if len(sys.argv) > 1 else "plain=18,J=2,Q=2,K=2"
    deck = Deck.parse(spec)
    data = json.loads((DATA / f"records-{deck.spec.replace('=', '').replace(',', '-')}.json")
                      .read_text())
    top = data["top"]
    cut, longest = top[49][1], top[0][1]
    rng = np.random.default_rng(1)
    base = np.array(Deal.parse(top[0][0], deck).sequence, dtype=np.uint8)
    random = np.array([rng.permutation(base) for _ in range(200_000)])
    random_lengths = lengths(deck, random)
    print(f"{spec}: 200,000 random deals: mean {random_lengths.mean():.1f} cards, "
          f"share in the top 50 {np.mean(random_lengths >= cut):.2g}")
    best = [random[k] for k in np.argsort(-random_lengths)[:20]]
    groups = [("the 20 longest", top[:20]), ("ranks 201-220", top[200:220]),
              ("ranks 901-920", top[900:920])]
    for label, deals in [(name, [np.array(Deal.parse(d, deck).sequence, dtype=np.uint8)
                                 for d, _ in chosen]) for name, chosen in groups] + [
            ("the 20 longest of the random deals", best)]:
        played = np.concatenate([lengths(deck, swaps(deal)) for deal in deals])
        print(f"swaps of {label}: {len(played):,} deals, mean {played.mean():.1f} cards, "
              f"in the top 50 {np.mean(played >= cut):.2g}, of the greatest length "
              f"{np.mean(played == longest):.2g}")


if __name__ == "__main__":
    main()
