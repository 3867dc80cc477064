"""Egyptian ratscrew's two-player fast path (``engine/ers_two.py``) against the general
engine: every chunk kernel plays two players through it, and leaves to the general engine
what it does not finish (loops, long games, the cap)."""

import numpy as np
import pytest
from ers_cases import LOOP_DECK, random_sequences

from beggar_search.cards.ranked import STANDARD_RANKED, RankedDeal, RankedDeck
from beggar_search.cards.slaps import SlapRules
from beggar_search.engine import ers, ers_two, rules

SMALL_DECK = RankedDeck.parse("2=3,5=3,9=2,J=2,Q=2,K=1,A=1")  # 14 cards, odd splits too
BIG_DECK = RankedDeck.parse("2=8,3=8,4=8,5=8,6=4,J=7,Q=7,K=7,A=7")  # 64 cards


def general_rows(sequences, split, leader, max_tricks, slaps):
    """Every deal played alone (``ers.play_game``: the general engine only)."""
    rows = np.zeros((len(sequences), rules.RESULT_LEN), dtype=np.int64)
    flat = np.zeros((2, rules.CAPACITY), dtype=np.uint8)
    for row, sequence in zip(rows, sequences, strict=True):
        rules.deal_out(sequence, split, flat)
        ers.play_game(flat, split, leader, max_tricks, slaps, row)
    return rows


def chunk_rows(sequences, split, leader, max_tricks, slaps):
    """The deals played by the chunk kernel of given deals (the fast path first)."""
    rows = np.zeros((len(sequences), rules.RESULT_LEN), dtype=np.int64)
    ers.play_sequences(sequences, split, leader, max_tricks, slaps, rows)
    return rows


CASES = [  # (deck, policy, slap rules, slap-in, cap, deals)
    (STANDARD_RANKED, "none", "pair", True, 0, 1500),
    (STANDARD_RANKED, "turn", "pair", True, 0, 1500),
    (STANDARD_RANKED, "first:2", "pair,sandwich", False, 0, 1000),
    (STANDARD_RANKED, "odds:0.3,0.7", "pair,sandwich", True, 0, 1000),
    (STANDARD_RANKED, "turn", "pair", True, 40, 1000),
    (STANDARD_RANKED, "odds:0.5,0.5", "pair", True, 30, 1000),
    (LOOP_DECK, "turn", "pair", True, 0, 3000),
    (LOOP_DECK, "first:1", "pair,sandwich", True, 0, 3000),
    (LOOP_DECK, "none", "pair", True, 9, 3000),
    (SMALL_DECK, "turn", "pair,sandwich", True, 0, 3000),
    (SMALL_DECK, "odds:0.9,0.1", "pair", True, 0, 2000),
    (BIG_DECK, "turn", "pair", True, 0, 500),
]


@pytest.mark.parametrize("deck, policy, patterns, slap_in, cap, deals", CASES)
@pytest.mark.parametrize("leader", [0, 1])
def test_the_fast_path_agrees_with_the_general_engine(deck, policy, patterns, slap_in, cap,
                                                      deals, leader):
    slaps = ers.slaps_of(SlapRules.parse(patterns, policy, slap_in, 2, 7), 2)
    sequences = random_sequences(deals, 5 + leader, deck)
    split = np.array(deck.split(2), dtype=np.int64)
    fast = chunk_rows(sequences, split, leader, cap, slaps)
    general = general_rows(sequences, split, leader, cap, slaps)
    differ = np.flatnonzero((fast != general).any(axis=1))
    assert differ.size == 0, [str(RankedDeal.from_sequence(sequences[i], 2, deck))
                              for i in differ[:3]]
    assert (fast[:, rules.R_OUTCOME] == rules.WIN).any()


def test_what_the_fast_path_leaves_is_played_again():
    """Loops, caps and wins all seen on the loop deck, each as the general engine says."""
    slaps = ers.slaps_of(SlapRules.parse("pair", "turn", True, 2), 2)
    sequences = random_sequences(4000, 3, LOOP_DECK)
    split = np.array(LOOP_DECK.split(2), dtype=np.int64)
    for cap in (0, 6):
        rows = chunk_rows(sequences, split, 0, cap, slaps)
        outcomes = set(rows[:, rules.R_OUTCOME].tolist())
        assert rules.WIN in outcomes and (rules.LOOP in outcomes or cap and rules.CAP in outcomes)
        assert np.array_equal(rows, general_rows(sequences, split, 0, cap, slaps))


def _ring(deal, deck):
    return rules.pack_hands(RankedDeal.parse(deal, deck).hands)


def test_play_two_plays_the_worked_example_and_stops_a_loop():
    """``play_two`` itself: the rule texts' example to its end, and the slaps' loop left
    unfinished at the limit (the row untouched)."""
    slaps = ers.slaps_of(SlapRules.parse("pair", "first:1", True, 2), 2)
    game = ers.new_scratch(2, slaps).game
    pile = rules.new_pile()
    ring, (a, b) = _ring("Q4427/5K386", "2=1,3=1,4=2,5=1,6=1,7=1,8=1,Q=1,K=1")
    row = np.full(rules.RESULT_LEN, -1, dtype=np.int64)
    assert ers_two.play_two(game, ring, a, b, 0, pile, 100, row)
    want = ers_game_row("Q4427/5K386", "2=1,3=1,4=2,5=1,6=1,7=1,8=1,Q=1,K=1", "first:1")
    assert np.array_equal(row, want)
    assert row[rules.R_OUTCOME] == rules.WIN and row[rules.R_WINNER] == 1
    turn = ers.slaps_of(SlapRules.parse("pair", "turn", True, 2), 2)
    ring, (a, b) = _ring("T99JTT/9KTQJ9", "9=4,T=4,J=2,Q=1,K=1")
    row[:] = -1
    assert not ers_two.play_two(ers.new_scratch(2, turn).game, ring, a, b, 0, pile,
                                ers_two.LONG_TRICKS, row)
    assert (row == -1).all()


def ers_game_row(deal, deck, policy):
    ranked = RankedDeal.parse(deal, deck)
    flat, sizes = rules.pack_hands(ranked.hands)
    row = np.zeros(rules.RESULT_LEN, dtype=np.int64)
    ers.play_game(flat, sizes, 0, 0, ers.slaps_of(SlapRules.parse("pair", policy, True, 2), 2),
                  row)
    return row
