"""The Numba engine against the oracle (tests/oracles/naive.py) and the values of docs/rules.md."""

import zlib

import numpy as np
import pytest
from naive import play_naive, trick_naive
from published import CASELLA, LONG_GAMES

from beggar_search import Deal, Deck, play, play_state, trace
from beggar_search.engine import rules
from beggar_search.engine.game import Result

FIELDS = ("outcome", "cards", "tricks", "winner", "hand_sizes", "preperiod_tricks",
          "preperiod_cards", "period_tricks", "period_cards")


def as_naive(result: Result) -> dict:
    data = {key: getattr(result, key) for key in FIELDS}
    data["hand_sizes"] = list(data["hand_sizes"])
    return data


@pytest.mark.parametrize(("deal", "cards", "tricks"), LONG_GAMES)
def test_published_long_games(deal, cards, tricks):
    result = play(deal)
    assert (result.outcome, result.cards, result.tricks) == ("win", cards, tricks)
    assert sum(result.hand_sizes) == 52 and max(result.hand_sizes) == 52


def test_tiny_reference_deals():
    # '-' / '-' and 'J' / '-J' of docs/rules.md
    assert as_naive(play_state([[0], [0]]))["cards"] == 2
    two = play_state([[0], [0]])
    assert (two.outcome, two.cards, two.tricks, two.winner) == ("win", 2, 1, 2)
    five = play_state([[1], [0, 1]])
    assert (five.outcome, five.cards, five.tricks, five.winner) == ("win", 5, 2, 2)


def test_casella_loop():
    result = play(CASELLA)
    assert result.outcome == "loop" and result.winner == 0
    assert (result.preperiod_tricks, result.preperiod_cards) == (4, 34)
    assert (result.period_tricks, result.period_cards) == (62, 440)
    assert (result.tricks, result.cards) == (66, 474)


def test_cap_against_loop_boundary():
    assert play(CASELLA, max_tricks=66).outcome == "loop"
    capped = play(CASELLA, max_tricks=65)
    assert (capped.outcome, capped.tricks) == ("cap", 65)
    assert capped.winner == 1 + int(np.argmax(capped.hand_sizes))
    assert play(LONG_GAMES[0][0], max_tricks=1163).outcome == "cap"
    assert play(LONG_GAMES[0][0], max_tricks=1164).outcome == "win"


def test_cap_tie_has_no_winner():
    # each player lays one plain card per trick pair; tie of 2/2 at the cap
    result = play_state([[0, 1, 0], [0, 0, 0, 0]], max_tricks=1)
    naive = play_naive([[0, 1, 0], [0, 0, 0, 0]], max_tricks=1)
    assert as_naive(result) == naive


def test_worked_example_ana_and_ben():
    # Ana lays Q; Ben pays 5 then K; Ana pays 4, 9, 2; Ben takes Q 5 K 4 9 2 and leads
    ana, ben = [2, 0, 0, 0, 0], [0, 3, 0]
    state = rules.State.from_hands([ana, ben])
    pile = rules.new_pile()
    taker = rules.play_trick(*state.arrays(), pile)
    assert taker == 1 and state.leader == 1
    assert state.hand_list() == [[0], [0, 2, 0, 3, 0, 0, 0]]
    assert list(pile[1, :6]) == [0, 1, 1, 0, 0, 0]  # who laid each card
    assert trick_naive([ana, ben], 0)[0] == state.hand_list()


def random_sequences(deck: Deck, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(deck.sorted_cards()) for _ in range(count)], dtype=np.uint8)


CASES = [
    ("standard", 2, 1500),
    ("plain=10,J=2,Q=2,K=2,A=2", 2, 3000),
    ("plain=6,J=2,Q=1,K=1", 2, 2000),
    ("plain=5,J=2,Q=1,K=1", 3, 2000),
    ("camicia", 2, 600),
    ("standard", 3, 400),
    ("standard", 4, 400),
    ("plain=8,J=2,Q=2,K=1,A=1", 3, 2000),
    ("plain=9,J=2,Q=2,K=2,A=1", 4, 2000),
]


@pytest.mark.parametrize(("spec", "players", "count"), CASES)
def test_kernel_agrees_with_oracle(spec, players, count):
    deck = Deck.parse(spec)
    sequences = random_sequences(deck, count, seed=zlib.crc32(f"{spec}/{players}".encode()))
    split = np.array(deck.split(players), dtype=np.int64)
    results = np.zeros((count, rules.RESULT_LEN), dtype=np.int64)
    rules.play_sequences(sequences, split, 0, 0, results)
    for sequence, row in zip(sequences, results, strict=True):
        deal = Deal.from_sequence(sequence, players, deck)
        expected = play_naive([list(h) for h in deal.hands])
        assert as_naive(Result.from_row(row, players)) == expected, str(deal)


@pytest.mark.parametrize(("spec", "players"), [
    ("plain=5,J=2,Q=1,K=1", 2), ("plain=6,J=2,Q=2", 3), ("plain=7,J=2,Q=1,K=1,A=1", 4),
    ("plain=8,J=2,Q=2,K=2", 2),
])
def test_looping_deals_agree_with_oracle(spec, players):
    """Loops are rare: play many deals fast, then check every loop with the oracle."""
    deck = Deck.parse(spec)
    sequences = random_sequences(deck, 40000, seed=players)
    results = np.zeros((len(sequences), rules.RESULT_LEN), dtype=np.int64)
    rules.play_sequences(sequences, np.array(deck.split(players)), 0, 0, results)
    loops = np.flatnonzero(results[:, rules.R_OUTCOME] == rules.LOOP)
    assert len(loops) >= 5
    for i in loops:
        deal = Deal.from_sequence(sequences[i], players, deck)
        expected = play_naive([list(h) for h in deal.hands])
        assert expected["outcome"] == "loop"
        assert as_naive(Result.from_row(results[i], players)) == expected, str(deal)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_agrees_with_oracle_under_cap(players):
    deck = Deck.parse("plain=8,J=2,Q=2,K=2,A=1")
    sequences = random_sequences(deck, 600, seed=players)
    split = np.array(deck.split(players), dtype=np.int64)
    rng = np.random.default_rng(players)
    for sequence in sequences:
        deal = Deal.from_sequence(sequence, players, deck)
        cap = int(rng.integers(1, 40))
        expected = play_naive([list(h) for h in deal.hands], max_tricks=cap)
        assert as_naive(play(deal, max_tricks=cap)) == expected, (str(deal), cap)
    assert split.sum() == deck.size


def test_arbitrary_states_and_leaders():
    rng = np.random.default_rng(7)
    for _ in range(1500):
        players = int(rng.integers(2, 5))
        cards = rng.permutation(np.repeat(np.arange(5), [8, 2, 2, 1, 1]))
        cuts = np.sort(rng.integers(0, len(cards) + 1, players - 1))
        hands = [list(map(int, h)) for h in np.split(cards, cuts)]
        if sum(1 for h in hands if h) < 1:
            continue
        leader = int(rng.integers(players))
        expected = play_naive(hands, leader=leader)
        assert as_naive(play_state(hands, leader)) == expected, (hands, leader)


def test_trace_follows_the_game():
    records, result = trace(CASELLA)
    assert len(records) == result.tricks == 66
    assert records[-1].cards == 474
    assert sum(len(r.laid) for r in records) == 474
    assert "cycle starts" in records[3].marks[0]
    assert records[-1].marks and all(sum(r.hand_sizes) == 52 for r in records)
    # replay the oracle trick by trick: same takers and hands
    hands, leader = Deal.parse(CASELLA).hands, 0
    hands = [list(h) for h in hands]
    for record in records:
        hands, leader, laid, taker, _over = trick_naive(hands, leader)
        assert (laid, taker + 1) == (len(record.laid), record.taker)
        assert [len(h) for h in hands] == record.hand_sizes


def test_cycle_id_does_not_depend_on_entry_state():
    from beggar_search.engine import cycle_states
    from beggar_search.engine.game import cycle_name

    base = play(CASELLA)
    states = cycle_states(CASELLA)
    assert len(states) == 62
    for hands, leader in states[::7]:
        entered = play_state(hands, leader)
        assert entered.outcome == "loop" and entered.preperiod_tricks == 0
        assert entered.cycle == base.cycle
    swapped = play_state(list(reversed(Deal.parse(CASELLA).hands)))
    assert swapped.cycle != base.cycle or swapped.outcome != "loop"
    assert len(cycle_name(-1)) == 16


@pytest.mark.parametrize("players", [2, 3])
def test_scratch_reused_across_games_changes_nothing(players):
    # one GameScratch for a mix of wins, loops and caps gives each game its own result
    rng = np.random.default_rng(players)
    split = np.array(Deck.parse("standard").split(players), dtype=np.int64)
    casella = np.array(Deal.parse(CASELLA).sequence, dtype=np.uint8)
    scratch = rules.new_scratch(players)
    flat = np.zeros((players, rules.CAPACITY), dtype=np.uint8)
    shared = np.zeros(rules.RESULT_LEN, dtype=np.int64)
    fresh = np.zeros(rules.RESULT_LEN, dtype=np.int64)
    outcomes = set()
    for game in range(300):
        sequence = casella if game % 50 == 7 else rng.permutation(casella)
        rules.deal_out(sequence, split, flat)
        max_tricks = int(rng.choice([0, 0, 30, 200]))
        rules.play_game_with(flat, split, 0, max_tricks, shared, scratch)
        rules.play_game(flat, split, 0, max_tricks, fresh)
        np.testing.assert_array_equal(shared, fresh)
        outcomes.add(int(shared[rules.R_OUTCOME]))
    assert {rules.WIN, rules.CAP} <= outcomes
    assert (rules.LOOP in outcomes) == (players == 2)
