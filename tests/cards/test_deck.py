"""Decks, deal notation and the deal index."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from published import CASELLA

from beggar_search import Deal, Deck, DeckError
from beggar_search.cards.deck import rank_sequence, unrank_sequence


def test_named_and_custom_decks():
    assert Deck.parse("standard").counts == (36, 4, 4, 4, 4)
    assert Deck.parse("camicia").counts == (28, 4, 4, 4, 0)
    assert Deck.parse("plain=14,J=2,Q=2,K=2").counts == (14, 2, 2, 2, 0)
    assert Deck.parse("plain=14, j=2 ,Q=2,K=2").spec == "plain=14,J=2,Q=2,K=2"
    assert Deck.parse("camicia").split(3) == (14, 13, 13)
    assert Deck.parse("standard").split(3) == (18, 17, 17)


@pytest.mark.parametrize("spec", ["nope", "plain=-1,J=2", "plain=x", "plain=70", "J=1",
                                  "plain=2,plain=3", "Z=3", ""])
def test_bad_decks_are_refused(spec):
    with pytest.raises(DeckError):
        Deck.parse(spec)


def test_notation_round_trip_and_digits():
    text = CASELLA
    deal = Deal.parse(text)
    assert str(deal) == text
    assert str(Deal.parse(text.replace("-", "0").replace("J", "1").replace("Q", "2")
                          .replace("K", "3").replace("A", "4"))) == text


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty deal"),
    ("--x-/----", "characters 'x'"),
    ("-" * 52, "one hand found"),
    ("---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----K-", "does not match deck"),
    ("---K---Q-KQAJ-----AAJ--J---/---------Q----KQ-J-----KA", "not the even split"),
])
def test_bad_deals_are_refused_with_a_reason(text, message):
    with pytest.raises(DeckError, match=message):
        Deal.parse(text)


def test_standard_deck_count():
    assert Deck.parse("standard").count_deals() == 653_534_134_886_878_245_000
    assert Deck.parse("plain=14,J=2,Q=2,K=2").count_deals() == 3_488_400


@pytest.mark.parametrize("spec", ["plain=4,J=1,Q=1", "plain=3,J=2,K=2,A=1", "plain=5,J=2,Q=1,K=1"])
def test_rank_is_a_bijection_in_lexicographic_order(spec):
    deck = Deck.parse(spec)
    orderings = sorted(set(itertools.permutations(deck.sorted_cards().tolist())))
    assert len(orderings) == deck.count_deals()
    for index, sequence in enumerate(orderings):
        assert rank_sequence(sequence, deck) == index
        assert tuple(unrank_sequence(index, deck)) == sequence


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=653_534_134_886_878_245_000 - 1))
def test_rank_unrank_standard_samples(index):
    deck = Deck.parse("standard")
    assert rank_sequence(unrank_sequence(index, deck), deck) == index
    deal = Deal.unrank(index, deck)
    assert deal.rank() == index


def test_index_out_of_range():
    deck = Deck.parse("plain=4,J=1,Q=1")
    with pytest.raises(DeckError, match="out of range"):
        unrank_sequence(math.factorial(6) // math.factorial(4), deck)
    with pytest.raises(DeckError):
        unrank_sequence(-1, deck)


def test_first_and_last_deal():
    deck = Deck.parse("standard")
    assert str(Deal.unrank(0, deck)) == "-" * 26 + "/" + "-" * 10 + "JJJJQQQQKKKKAAAA"
    last = deck.count_deals() - 1
    assert np.array_equal(unrank_sequence(last, deck), deck.sorted_cards()[::-1])
