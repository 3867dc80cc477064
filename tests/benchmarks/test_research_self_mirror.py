"""benchmarks/research/self_mirror.py: the search over one card stream finds self-mirror
cycles exactly, and its estimate of a tree is Knuth's."""

import numpy as np
import pytest
from benchmark_scripts import load_script  # tests/ is on the path

from beggar_search.cards.deck import Deck, format_state, parse_state
from beggar_search.engine.game import play_state
from beggar_search.engine.random import chunk_stream

pytestmark = pytest.mark.slow  # a research script's kernels, compiled for two checks


def given_search(research, state, half, ahead):
    """The search with every card of ``state`` given: (searched through, the tally, the
    first stream found)."""
    hands, _ = parse_state(state)
    given = np.full(half, -1, dtype=np.int64)
    given[:len(hands[0])] = hands[0]
    for i, card in enumerate(hands[1]):
        given[(ahead + i) % half] = card
    found = np.zeros((1, half), dtype=np.int64)
    tally = np.zeros(2, dtype=np.int64)
    counts = np.array(Deck.parse("camicia").counts, dtype=np.int64)
    whole = research.stream_search(half, len(hands[0]), ahead, counts, given, 10**6, found,
                                   tally, chunk_stream(1, 0), False)
    return whole, tally, found[0]


def test_the_reference_cycle_is_met_where_it_reaches_its_mirror():
    """Zanotto's deal reaches its mirror after 273 cards, 134 of them laid by player 1:
    met there, its hands read back from the stream; one card later, not."""
    research = load_script("research/self_mirror")
    whole, tally, row = given_search(research, research.ZANOTTO, 273, 134)
    assert whole == 1.0 and tally[1] == 1
    hands = research.stream_hands(row, 20, 134, 40)
    assert format_state(hands, 0) == research.ZANOTTO
    assert given_search(research, research.ZANOTTO, 273, 135)[1][1] == 0


def test_a_small_deck_s_self_mirror_cycles_and_the_estimate():
    """Hands of 12 and 2 cards of plain=8,J=2,Q=2,K=2 that reach their mirror after 35
    cards, 17 laid by player 1: the two self-mirror 10/70 cycles, searched through in
    73,348 branch points, which Knuth's estimate (8,000 random paths) gives within 10%."""
    research = load_script("research/self_mirror")
    counts = Deck.parse("plain=8,J=2,Q=2,K=2").counts
    cycles, points, done, cut, _ = research.stream_cycles(counts, 35, 10**9, pairs=[(12, 17)])
    assert (points, done, cut) == (73_348, 1, 0)
    assert sorted(format_state(*state) for state in cycles.values()) == [
        "1:--K-Q-K-Q-J-/J-", "1:--Q-K-Q-K-J-/J-"]
    for hands, leader in cycles.values():
        result = play_state(hands, leader)
        assert (result.period_tricks, result.period_cards) == (10, 70)
        assert research.is_self_mirror(hands, leader)
    estimate = research.stream_cycles(counts, 35, 0, 8000, pairs=[(12, 17)])[4]
    assert abs(estimate / points - 1) < 0.1
