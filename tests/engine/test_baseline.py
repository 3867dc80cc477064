"""The card-by-card yardstick of ``beggar-search bench`` (engine/baseline.py) against the oracle."""

import numpy as np
import pytest
from naive import play_naive
from published import LONG_GAMES

from beggar_search import Deal
from beggar_search.engine import baseline
from beggar_search.engine.random import chunk_stream, shuffle


def play_baseline(hands) -> tuple[int, int, int]:
    rings = np.zeros((2, baseline.RING + 1), dtype=np.uint8)
    for p, hand in enumerate(hands):
        rings[p, : len(hand)] = hand
    size = np.array([len(hand) for hand in hands], dtype=np.int64)
    head = np.zeros(2, dtype=np.int64)
    pile = np.zeros(baseline.RING + 1, dtype=np.uint8)
    cards, tricks, winner = baseline.play_cards(rings, head, size, pile)
    return int(cards), int(tricks), int(winner)


def naive_figures(hands) -> tuple[int, int, int]:
    result = play_naive([list(hand) for hand in hands])
    assert result["outcome"] == "win"
    return result["cards"], result["tricks"], result["winner"]


@pytest.mark.parametrize("deal", [deal for deal, _, _ in LONG_GAMES])
def test_published_games(deal):
    hands = Deal.parse(deal).hands
    assert play_baseline(hands) == naive_figures(hands)


def test_random_deals_agree_with_oracle():
    rng = np.random.default_rng(11)
    cards = baseline.STANDARD_CARDS
    for _ in range(300):
        sequence = rng.permutation(cards)
        hands = [sequence[: baseline.HAND], sequence[baseline.HAND :]]
        assert play_baseline(hands) == naive_figures(hands)


def test_random_games_plays_the_shuffled_deals():
    stream = chunk_stream(5, 0)
    deck = baseline.STANDARD_CARDS.copy()
    replay = stream.copy()
    total, wins = 0, [0, 0, 0]
    for _ in range(100):
        shuffle(deck, replay)
        cards, _, winner = naive_figures([deck[: baseline.HAND], deck[baseline.HAND :]])
        total += cards
        wins[winner] += 1
    assert baseline.random_games(stream, 100) == (total, wins[1], wins[2])
