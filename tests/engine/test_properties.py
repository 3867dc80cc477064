"""Property tests (hypothesis) of the engine."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from beggar_search import Deck, play_state
from beggar_search.engine import rules

SMALL = Deck.parse("plain=6,J=2,Q=1,K=1,A=1")


@st.composite
def states(draw, deck=SMALL):
    """Any trick-boundary state of a deck: hands of any sizes, any leader holding cards."""
    players = draw(st.integers(2, 4))
    cards = draw(st.permutations(deck.sorted_cards().tolist()))
    cuts = sorted(draw(st.lists(st.integers(0, len(cards)), min_size=players - 1,
                                max_size=players - 1)))
    hands = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)]
    holders = [p for p, hand in enumerate(hands) if hand]
    return hands, draw(st.sampled_from(holders))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states())
def test_no_card_is_created_or_lost(state):
    hands, leader = state
    game = rules.State.from_hands(hands, leader)
    pile = rules.new_pile()
    deck = sorted(c for hand in hands for c in hand)
    for _ in range(200):
        if game.info[rules.I_IN] <= 1:
            break
        before = game.info[rules.I_CARDS]
        rules.play_trick(*game.arrays(), pile)
        assert game.info[rules.I_CARDS] - before >= 1
        assert sorted(c for hand in game.hand_list() for c in hand) == deck


@settings(max_examples=300, deadline=None)
@given(states())
def test_result_depends_on_the_deal_only(state):
    hands, leader = state
    first = play_state(hands, leader)
    play_state([[0, 0, 1], [0, 2]], 0)  # anything in between changes nothing
    assert play_state(hands, leader) == first
    flat, sizes = rules.pack_hands(hands)
    row = np.zeros(rules.RESULT_LEN, dtype=np.int64)
    rules.play_game(flat, sizes, leader, 0, row)
    rules.play_game(flat, sizes, leader, 0, row)  # reusing the output row is harmless
    assert play_state(hands, leader).cards == row[rules.R_CARDS]


def replay(hands, leader, tricks):
    game = rules.State.from_hands(hands, leader)
    pile = rules.new_pile()
    for _ in range(tricks):
        rules.play_trick(*game.arrays(), pile)
    return game


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
def test_reported_cycle_replays(seed, players):
    deck = Deck.parse("plain=5,J=2,Q=1,K=1")
    rng = np.random.default_rng(seed)
    for _ in range(400):  # look for a looping state from this seed
        cards = rng.permutation(deck.sorted_cards()).tolist()
        cuts = np.sort(rng.integers(0, len(cards) + 1, players - 1)).tolist()
        hands = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)]
        leader = next(p for p, hand in enumerate(hands) if hand)
        result = play_state(hands, leader)
        if result.outcome == "loop":
            break
    else:
        return
    start = replay(hands, leader, result.preperiod_tricks)
    cycle_start = (start.hand_list(), start.leader)
    cards_before = int(start.info[rules.I_CARDS])
    pile = rules.new_pile()
    seen = [cycle_start]
    for _ in range(result.period_tricks):
        rules.play_trick(*start.arrays(), pile)
        seen.append((start.hand_list(), start.leader))
    assert seen[-1] == cycle_start
    assert cycle_start not in seen[1:-1]  # the period is the least one
    assert int(start.info[rules.I_CARDS]) - cards_before == result.period_cards
    assert list(result.hand_sizes) == [len(h) for h in cycle_start[0]]
    # no state before the cycle's start is on the cycle: the pre-period is the least one
    if result.preperiod_tricks:
        before = replay(hands, leader, result.preperiod_tricks - 1)
        assert (before.hand_list(), before.leader) not in seen
