"""Backward play against forward play: the true predecessor is always listed, and
every listed predecessor plays one trick (engine and oracle) to the given state."""

import numpy as np
import pytest
from naive import parse_deal, trick_naive
from published import CASELLA

from beggar_search.backward.step import predecessors
from beggar_search.cards.deck import Deal, Deck
from beggar_search.engine import rules

SMALL_DECKS = [(5, 2, 1, 1, 0), (6, 2, 2, 1, 0), (8, 2, 1, 1, 1), (14, 2, 2, 2, 2)]


def check_step(hands, leader, checked=2000):
    """Play one trick from ``(hands, leader)`` and check backward play on the result."""
    new_hands, _, _, taker, _ = trick_naive(hands, leader)
    found = predecessors(new_hands, taker)
    assert (hands, leader) in found
    assert len({(tuple(map(tuple, h)), lead) for h, lead in found}) == len(found)
    for previous, previous_leader in found[:checked]:
        assert len(previous[previous_leader]) > 0
        oracle_hands, _, _, oracle_taker, _ = trick_naive(previous, previous_leader)
        assert (oracle_hands, oracle_taker) == (new_hands, taker)
        state = rules.State.from_hands(previous, previous_leader)
        assert rules.play_trick(*state.arrays(), rules.new_pile()) == taker
        assert state.hand_list() == new_hands
    return new_hands, taker, len(found)


def walk(hands, leader, tricks):
    """Check backward play at every trick of a game, up to ``tricks`` tricks."""
    hands = [list(hand) for hand in hands]
    counts = []
    for _ in range(tricks):
        if sum(1 for hand in hands if hand) < 2:
            break
        hands, leader, count = check_step(hands, leader)
        counts.append(count)
    return counts


def test_casella_game():
    counts = walk(Deal.parse(CASELLA).hands, 0, 140)
    assert len(counts) == 140 and min(counts) >= 1


def test_worked_example():
    # Ana lays Q; Ben pays 5 then K; Ana pays 4, 9, 2; Ben takes Q 5 K 4 9 2
    hands = [[2, 0, 0, 0, 1], [0, 3, 0]]
    new_hands, taker, _ = check_step(hands, 0)
    assert taker == 1 and new_hands == [[1], [0, 2, 0, 3, 0, 0, 0]]


def test_tiny_states():
    # the leader took a pile of one card: no trick lays fewer than two
    assert predecessors([[0], [0, 0]], 0) == []
    # player 2 led '-', player 1 laid J, player 2 had nothing to pay with
    assert predecessors([[0, 1], []], 0) == [([[1], [0]], 1)]
    # '-' and '-', then the leader had no card: the other took the pile and won
    assert predecessors([[0, 0], []], 0) == [([[0], [0]], 1)]
    assert predecessors([[], [1, 0]], 0) == []  # a leader holding no cards


@pytest.mark.parametrize("seed", range(3))
def test_standard_random_deals(seed):
    rng = np.random.default_rng(seed)
    for _ in range(4):
        cards = rng.permutation(Deck.parse("standard").sorted_cards())
        deal = Deal.from_sequence(cards, 2)
        assert len(walk(deal.hands, 0, 300)) > 0


@pytest.mark.parametrize("counts", SMALL_DECKS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_small_decks(counts, players):
    deck = Deck(counts)
    rng = np.random.default_rng([*counts, players])
    for _ in range(25):
        deal = Deal.from_sequence(rng.permutation(deck.sorted_cards()), players, deck)
        walk(deal.hands, int(rng.integers(players)), 60)


@pytest.mark.slow  # the small twin below runs by default
def test_states_with_players_out(states=600):
    """Random states of any split (hands may be empty), 2 to 6 players."""
    rng = np.random.default_rng(7)
    steps = 0
    for _ in range(states):
        players = int(rng.integers(2, 7))
        n_cards = int(rng.integers(players, 22))
        plain = rng.random()
        cards = [0 if rng.random() < plain else int(rng.integers(1, 5)) for _ in range(n_cards)]
        cuts = sorted(int(c) for c in rng.integers(0, n_cards + 1, players - 1))
        hands = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, n_cards], strict=True)]
        holding = [p for p, hand in enumerate(hands) if hand]
        if len(holding) < 2:
            continue
        leader = int(rng.choice(holding))
        for _ in range(int(rng.integers(1, 12))):
            if sum(1 for hand in hands if hand) < 2:
                break
            hands, leader, _ = check_step(hands, leader, checked=300)
            steps += 1
    assert steps > 1000 * states // 600


def test_states_with_players_out_small():
    """The twin of the above on a quarter of the states."""
    test_states_with_players_out(states=150)


def test_notation_states():
    hands = parse_deal("-J-Q/--K-/J---")
    for leader in range(3):
        walk(hands, leader, 30)
