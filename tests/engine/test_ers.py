"""Egyptian ratscrew: ranked decks, slap rules, the kernel against the oracle, and
``--slap-policy none`` against Beggar-my-neighbour (docs/rules.md, Egyptian ratscrew)."""

import numpy as np
import pytest
from ers_cases import (
    LOOP_DECK,
    bmn_differences,
    combinations,
    disagreements,
    kernel_rows,
    random_sequences,
)
from naive_ers import parse_ranked, play_ers_naive

from beggar_search.cards.deck import DeckError
from beggar_search.cards.ranked import STANDARD_RANKED, RankedDeal, RankedDeck
from beggar_search.cards.slaps import SlapError, SlapRules
from beggar_search.engine import ers_game, play

# the worked example of the rule texts, with a pair: Ana lays a queen; Ben pays a five,
# then a king; Ana owes three and pays a four, then another four: a pair
EXAMPLE_DECK = "2=1,3=1,4=2,5=1,6=1,7=1,8=1,Q=1,K=1"
EXAMPLE = "Q4427/5K386"


def first_trick(policy):
    records, _ = ers_game.trace(EXAMPLE, SlapRules.parse("pair", policy), EXAMPLE_DECK)
    return records[0]


def test_ranked_deck_and_notation():
    assert STANDARD_RANKED.size == 52 and STANDARD_RANKED.spec == "standard"
    deck = RankedDeck.parse("9=2,T=2,J=2,Q=2,K=2,A=2")
    assert deck.size == 12 and deck.spec == "9=2,T=2,J=2,Q=2,K=2,A=2"
    assert deck.bmn_deck.counts == (4, 2, 2, 2, 2)
    deal = RankedDeal.parse("9TJQKA/AKQJT9", deck)
    assert str(deal) == "9TJQKA/AKQJT9"
    assert str(deal.to_bmn()) == "--JQKA/AKQJ--"
    assert RankedDeal.unrank(deal.rank(), deck, 2) == deal
    assert RankedDeal.unrank(0, deck, 2).rank() == 0
    last = deck.count_deals(2) - 1
    assert str(RankedDeal.unrank(last, deck, 2)) == "AAKKQQ/JJTT99"


@pytest.mark.parametrize("text, deck, message", [
    ("9TJQKX/AKQJT9", "9=2,T=2,J=2,Q=2,K=2,A=2", "unknown rank letters 'X'"),
    ("9TJQKA/AKQJT8", "9=2,T=2,J=2,Q=2,K=2,A=2", "deal does not match ranked deck"),
    ("9TJQKA/AKQJT9", "9=2,T=2,J=2,Q=2,K=2,B=2", "unknown rank 'B'"),
])
def test_bad_ranked_input_is_one_line(text, deck, message):
    with pytest.raises(DeckError, match=message) as error:
        RankedDeal.parse(text, deck)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("rules, policy, players, message", [
    ("pair,triple", "none", 2, "unknown slap rules"),
    ("pair", "first:3", 2, "no player 3"),
    ("pair", "odds:0.5,0.4", 2, "sum to 0.9"),
    ("pair", "odds:0.5,0.5", 3, "2 odds for 3 players"),
    ("pair", "sometimes", 2, "unknown slap policy"),
])
def test_bad_slap_rules(rules, policy, players, message):
    with pytest.raises(SlapError, match=message):
        SlapRules.parse(rules, policy, True, players)


def test_worked_example_without_a_slap_is_beggar_my_neighbour():
    trick = first_trick("none")
    # Ana pays 4, 4, 2: all plain, Ben takes the six cards in the order laid
    assert [c for _, c in trick.laid] == [10, 3, 11, 2, 2, 0]
    assert trick.taker == 2 and trick.slapper == 0


@pytest.mark.parametrize("policy, slapper", [("first:1", 1), ("first:2", 2), ("turn", 2)])
def test_worked_example_pair_slapped(policy, slapper):
    trick = first_trick(policy)
    # the second four makes a pair during Ana's payment: slapped at once
    assert [c for _, c in trick.laid] == [10, 3, 11, 2, 2]
    assert trick.taker == slapper and trick.slapper == slapper
    assert trick.hand_sizes == ([7, 3] if slapper == 1 else [2, 8])
    assert "SLAP by player" in trick.describe()


def test_sandwich_only_with_its_rule():
    # 2, then 5, then 2 (both laid by player 1): a sandwich, slapped by player 2 under turn
    deck = "2=2,3=1,5=1,6=1,7=1"
    pair_only = ers_game.trace("227/536", SlapRules.parse("pair", "turn"), deck)[0][0]
    assert pair_only.slapper == 0
    both = ers_game.trace("227/536", SlapRules.parse("pair,sandwich", "turn"), deck)[0][0]
    assert both.slapper == 2 and [c for _, c in both.laid] == [0, 3, 0]


@pytest.mark.slow  # the small twin below runs by default
def test_kernel_agrees_with_the_oracle_on_random_deals(deals=300):
    for players, policy, slap_rules, slap_in in combinations():
        wrong, _ = disagreements(players, policy, slap_rules, slap_in, deals, 11)
        assert wrong == [], (players, policy, slap_rules, slap_in, wrong[:3])


def test_kernel_agrees_with_the_oracle_on_random_deals_small():
    """The twin of the above on a quarter of the deals, every combination of rules."""
    test_kernel_agrees_with_the_oracle_on_random_deals(deals=75)


def test_kernel_agrees_with_the_oracle_on_loops_and_caps():
    outcomes = {}
    for players, policy, slap_rules, slap_in in combinations():
        if players == 4:
            continue
        for cap in (0, 7):
            wrong, seen = disagreements(players, policy, slap_rules, slap_in, 400, 5,
                                        LOOP_DECK, cap)
            assert wrong == [], (players, policy, slap_rules, slap_in, cap, wrong[:3])
            for outcome, n in seen.items():
                outcomes[outcome] = outcomes.get(outcome, 0) + n
    assert outcomes["loop"] > 0 and outcomes["cap"] > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_slaps_is_beggar_my_neighbour(players):
    different, _ = bmn_differences(players, 1000, 3)
    assert different == []


def test_no_slaps_is_beggar_my_neighbour_on_loops():
    sequences = random_sequences(3000, 9, LOOP_DECK)
    rows = kernel_rows(sequences, 2, SlapRules(), 0, LOOP_DECK)
    loops = 0
    for sequence, row in zip(sequences, rows, strict=True):
        deal = RankedDeal.from_sequence(sequence, 2, LOOP_DECK)
        bmn = ers_game.Result.from_row(row, 2)
        want = play(deal.to_bmn())
        loops += want.outcome == "loop"
        assert (bmn.outcome, bmn.cards, bmn.tricks, bmn.winner, bmn.preperiod_tricks,
                bmn.period_tricks) == (want.outcome, want.cards, want.tricks, want.winner,
                                       want.preperiod_tricks, want.period_tricks)
    assert loops > 0


def test_odds_are_deterministic_for_a_seed():
    sequences = random_sequences(200, 4)
    one = kernel_rows(sequences, 2, SlapRules.parse("pair", "odds:0.5,0.5", True, 2, 1), 2000)
    again = kernel_rows(sequences, 2, SlapRules.parse("pair", "odds:0.5,0.5", True, 2, 1), 2000)
    other = kernel_rows(sequences, 2, SlapRules.parse("pair", "odds:0.5,0.5", True, 2, 2), 2000)
    assert np.array_equal(one, again)
    assert not np.array_equal(one, other)


def test_odds_game_is_a_function_of_deal_and_seed():
    """The stream is seeded from the deal itself: the same game wherever it is played."""
    rules = SlapRules.parse("pair", "odds:0.3,0.7", True, 2, 8)
    deal = RankedDeal.from_sequence(random_sequences(1, 2)[0], 2)
    alone = ers_game.play(deal, rules, max_tricks=2000)
    naive = play_ers_naive([list(h) for h in deal.hands], 0, ("pair",), ("odds", (0.3, 0.7)),
                           True, 2000, rules.key)
    assert (alone.outcome, alone.cards, alone.tricks) == (naive["outcome"], naive["cards"],
                                                          naive["tricks"])


def test_slap_rules_round_trip_through_params():
    rules = SlapRules.parse("pair,sandwich", "odds:0.1,0.2,0.7", False, 3, 5)
    params = {"players": 3, "seed": 5, **rules.to_params()}
    assert SlapRules.from_params(params) == rules


def test_a_loop_made_by_slaps():
    """On a 12-card deck: the game ends without slaps, and loops when they go by turn."""
    deck = "9=4,T=4,J=2,Q=1,K=1"
    plain = ers_game.play("T99JTT/9KTQJ9", SlapRules(), deck)
    assert (plain.outcome, plain.cards, plain.tricks, plain.winner) == ("win", 35, 6, 1)
    looping = ers_game.play("T99JTT/9KTQJ9", SlapRules.parse("pair", "turn"), deck)
    assert (looping.outcome, looping.preperiod_tricks, looping.preperiod_cards,
            looping.period_tricks, looping.period_cards) == ("loop", 2, 7, 10, 40)
    naive = play_ers_naive(parse_ranked("T99JTT/9KTQJ9"), 0, ("pair",), ("turn",))
    assert (naive["outcome"], naive["period_tricks"], naive["slaps"]) == ("loop", 10, 3)
