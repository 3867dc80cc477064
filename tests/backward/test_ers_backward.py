"""Egyptian ratscrew's backward step against forward play: on random states of small and
standard ranked decks, 2 to 4 players, every deterministic policy, both rule sets, with and
without slap-in, the true predecessor is always listed (completeness), and every listed
predecessor plays one trick, in the kernel and in the oracle, to exactly the given state."""

from collections import deque

import numpy as np
import pytest
from naive_ers import play_trick as naive_trick

from beggar_search.backward.ers_step import predecessors
from beggar_search.cards.ranked import STANDARD_RANKED, RankedDeck
from beggar_search.cards.slaps import SlapRules
from beggar_search.engine import ers, rules

# few ranks, so pairs and sandwiches come often; and the standard deck
DECKS = [RankedDeck.parse(spec) for spec in
         ("9=4,T=4,J=2,Q=1,K=1", "8=2,9=2,T=2,J=2,Q=1,K=1", "2=3,3=3,J=2,Q=2,A=2")]
DECKS.append(STANDARD_RANKED)


def combinations():
    """(players, policy, rules, slap_in): the deterministic policies (first for the first
    and the last player), both rule sets, slap-in on and off."""
    for players in (2, 3, 4):
        for policy in ("none", "first:1", f"first:{players}", "turn"):
            for slap_rules in ("pair", "pair,sandwich"):
                for slap_in in (True, False):
                    yield players, policy, slap_rules, slap_in


COMBINATIONS = list(combinations())


def forward(hands, leader, slap_rules):
    """One trick in the kernel: the new hands, the taker, whether it was slapped."""
    state = rules.State.from_hands(hands, leader)
    taker, slapped = ers.play_trick(*state.arrays(), rules.new_pile(),
                                    ers.slaps_of(slap_rules, len(hands)),
                                    np.zeros(4, dtype=np.int64))
    return state.hand_list(), int(taker), bool(slapped)


def oracle_policy(slap_rules):
    return ("first", slap_rules.target) if slap_rules.policy == "first" else (slap_rules.policy,)


def oracle(hands, leader, slap_rules):
    """One trick in the oracle: the new hands and the taker."""
    working = [deque(hand) for hand in hands]
    taker, _, _ = naive_trick(working, leader, set(slap_rules.patterns),
                              oracle_policy(slap_rules), slap_rules.slap_in, None)
    return [list(hand) for hand in working], taker


def check_step(hands, leader, slap_rules, checked):
    """Play one trick from ``(hands, leader)``; check the backward step on the result.
    Returns the new state, the number of predecessors, whether the trick was slapped."""
    new_hands, taker, slapped = forward(hands, leader, slap_rules)
    found = predecessors(new_hands, taker, slap_rules)
    assert (hands, leader) in found, (hands, leader, new_hands, taker)
    assert len({(tuple(map(tuple, h)), lead) for h, lead in found}) == len(found)
    for previous, previous_leader in found[:checked]:
        assert len(previous[previous_leader]) > 0
        assert forward(previous, previous_leader, slap_rules)[:2] == (new_hands, taker)
        assert oracle(previous, previous_leader, slap_rules) == (new_hands, taker)
    return new_hands, taker, len(found), slapped


def random_state(rng, deck, players):
    """A random state: the deck shuffled, cut anywhere into ``players`` hands (some may be
    empty), a leader holding cards; None when fewer than two hold cards."""
    cards = [int(c) for c in rng.permutation(deck.sorted_cards())]
    cuts = sorted(int(c) for c in rng.integers(0, len(cards) + 1, players - 1))
    hands = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)]
    holding = [p for p, hand in enumerate(hands) if hand]
    if len(holding) < 2:
        return None
    return hands, int(rng.choice(holding))


def walk_states(case, n_states, tricks, checked):
    """From ``n_states`` random states of each deck, check up to ``tricks`` tricks of play;
    returns the steps checked and how many were slapped."""
    players, policy, slap_rules, slap_in = case
    rules_ = SlapRules.parse(slap_rules, policy, slap_in, players)
    rng = np.random.default_rng([players, len(policy), len(slap_rules), int(slap_in)])
    steps = slapped = 0
    for deck in DECKS:
        for _ in range(n_states):
            state = random_state(rng, deck, players)
            for _ in range(tricks if state else 0):
                hands, leader = state
                if sum(1 for hand in hands if hand) < 2:
                    break
                hands, leader, _, was_slapped = check_step(hands, leader, rules_, checked)
                state = (hands, leader)
                steps += 1
                slapped += was_slapped
    return steps, slapped


@pytest.mark.parametrize("case", COMBINATIONS)
def test_random_states(case):
    steps, slapped = walk_states(case, 8, 10, 30)
    assert steps >= 60
    assert (slapped > 0) == (case[1] != "none")


@pytest.mark.slow
@pytest.mark.parametrize("case", COMBINATIONS)
def test_random_states_many(case):
    steps, slapped = walk_states(case, 200, 30, 60)
    assert steps >= 2000 and (slapped > 0) == (case[1] != "none")


def test_looping_deal_of_the_readme():
    """``T99JTT/9KTQJ9`` loops under turn: every state of its cycle has its cycle
    predecessor among its predecessors."""
    rules_ = SlapRules.parse("pair", "turn", True, 2)
    state = ([[8, 7, 7, 9, 8, 8], [7, 11, 8, 10, 9, 7]], 0)  # rank codes: T=8, 9=7, J=9...
    seen = []
    while state not in seen:
        seen.append(state)
        hands, taker, _, _ = check_step(*state, rules_, 100)
        state = (hands, taker)
    assert len(seen) - seen.index(state) > 1  # a cycle, not a fixed point


def test_policy_none_is_beggar_my_neighbour():
    """Under policy none the step is Beggar-my-neighbour's on the mapped cards, as many
    predecessors (ranks 2 to T kept apart, so at most as many)."""
    from beggar_search.backward.step import predecessors as bmn_predecessors
    from beggar_search.cards.ranked import RANK_VALUES

    rng = np.random.default_rng(3)
    compared = 0
    for _ in range(200):
        state = random_state(rng, STANDARD_RANKED, int(rng.integers(2, 5)))
        if state is None:
            continue
        hands, taker, _ = forward(*state, SlapRules())
        ranked = predecessors(hands, taker)
        plain = bmn_predecessors([[RANK_VALUES[c] for c in h] for h in hands], taker)
        mapped = {(tuple(tuple(RANK_VALUES[c] for c in h) for h in previous), lead)
                  for previous, lead in ranked}
        assert mapped <= {(tuple(map(tuple, h)), lead) for h, lead in plain}
        compared += 1
    assert compared > 150


def test_tiny_states():
    pair = SlapRules.parse("pair", "first:2", True, 2)
    # 9 and 9, whoever led: a pair, player 2 slapped it
    assert sorted(predecessors([[], [7, 7]], 1, pair)) == [([[7], [7]], 0), ([[7], [7]], 1)]
    # without slaps: player 1 led, then had no card to lay and is out; player 2 takes
    assert predecessors([[], [7, 7]], 1) == [([[7], [7]], 0)]
    assert predecessors([[7], [7]], 0, pair) == []  # a leader who took one card
    with pytest.raises(ValueError, match="not a function"):
        predecessors([[7, 8], [9]], 0, SlapRules.parse("pair", "odds:0.5,0.5", True, 2))
