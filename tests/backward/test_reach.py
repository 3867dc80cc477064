"""Reach against brute force: on small decks every deal (and every state) is played
forward, and the ones whose play enters a cycle must be exactly what reach finds."""

import json
from collections import defaultdict
from itertools import combinations

import numpy as np
import pytest
from cli_harness import run
from published import CASELLA, NESSLER

from beggar_search.backward.closure import POW5, POW13, pack_state, unpack_state
from beggar_search.backward.reach import NoLoop, reach_state
from beggar_search.backward.reach import reach as reach_of
from beggar_search.cards.deck import Deal, Deck, format_hands
from beggar_search.engine import play, play_state, rules
from beggar_search.engine.batch import next_permutation
from beggar_search.engine.game import cycle_name
from beggar_search.games import BMN


def reach(deal, deck=None, **budget):
    """``backward.reach.reach`` of a Beggar-my-neighbour deal."""
    return reach_of(deal, deck, game=BMN, **budget)


def all_sequences(deck: Deck) -> np.ndarray:
    sequence = deck.sorted_cards().copy()
    rows = [sequence.copy()]
    while next_permutation(sequence):
        rows.append(sequence.copy())
    return np.array(rows)


def play_all(sequences, sizes, leader):
    results = np.zeros((len(sequences), rules.RESULT_LEN), dtype=np.int64)
    rules.play_sequences(sequences, np.array(sizes, dtype=np.int64), leader, 0, results)
    return results


def hands_of(sequence, sizes):
    cuts = np.cumsum(sizes)[:-1]
    return [list(map(int, hand)) for hand in np.split(sequence, cuts)]


def looping_deals(deck: Deck, players: int, leader: int):
    """Deals of the even split with ``leader`` to lead, by cycle id: {cycle: [hands]}."""
    sequences = all_sequences(deck)
    split = deck.split(players)
    results = play_all(sequences, split, leader)
    found = defaultdict(list)
    for row, sequence in zip(results, sequences, strict=True):
        if row[rules.R_OUTCOME] == rules.LOOP:
            found[cycle_name(row[rules.R_CYCLE])].append(hands_of(sequence, split))
    return found


def compositions(total, parts):
    for cuts in combinations(range(total + parts - 1), parts - 1):
        edges = (-1, *cuts, total + parts - 1)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(parts))


def all_looping_states(deck: Deck, players: int):
    """Every trick-boundary state (any split, any leader holding cards), by cycle:
    {cycle: (number of states, most tricks before the cycle)}."""
    sequences = all_sequences(deck)
    found = defaultdict(lambda: [0, 0])
    for sizes in compositions(deck.size, players):
        for leader in range(players):
            if sizes[leader] == 0:
                continue
            results = play_all(sequences, sizes, leader)
            loops = results[results[:, rules.R_OUTCOME] == rules.LOOP]
            for row in loops:
                entry = found[cycle_name(row[rules.R_CYCLE])]
                entry[0] += 1
                entry[1] = max(entry[1], int(row[rules.R_PRE_TRICKS]))
    return {cycle: tuple(entry) for cycle, entry in found.items()}


@pytest.mark.parametrize(("counts", "players"), [
    ((5, 2, 1, 1, 0), 2), ((5, 2, 1, 1, 0), 3), ((5, 2, 1, 1, 0), 4), ((5, 2, 2, 0, 0), 2),
    ((5, 2, 2, 0, 0), 3), ((6, 2, 2, 1, 0), 2), ((6, 2, 2, 1, 0), 3), ((7, 2, 2, 1, 0), 2),
])
def test_reach_equals_brute_force_on_all_states(counts, players):
    deck = Deck(counts)
    states = all_looping_states(deck, players)
    leading = [looping_deals(deck, players, 0)]
    if players == 2:
        leading.append(looping_deals(deck, players, 1))
    assert states
    for cycle, (count, depth) in states.items():
        start = [found[cycle][0] for found in leading if cycle in found]
        if not start:
            continue  # no fair deal reaches this cycle: reached from a state below
        result = reach_state(start[0], 0 if cycle in leading[0] else 1, deck, game=BMN)
        assert result.cycle == cycle and result.complete
        assert (result.states, result.depth) == (count, depth)
        assert result.fair_deals == sorted(format_hands(h) for h in leading[0].get(cycle, []))
        if players == 2:
            assert result.fair_deals_swapped == sorted(
                format_hands(h[::-1]) for h in leading[1].get(cycle, []))


def test_reach_from_any_state_of_a_cycle():
    deck = Deck((5, 2, 1, 1, 0))
    states = all_looping_states(deck, 2)
    # a state off the even split: every cycle is reached from somewhere
    for sizes in compositions(deck.size, 2):
        if 0 in sizes:
            continue
        for sequence in all_sequences(deck)[::97]:
            hands = hands_of(sequence, sizes)
            result = play_state(hands, 0)
            if result.outcome == "loop":
                reached = reach_state(hands, 0, deck, game=BMN)
                assert reached.states == states[result.cycle][0]


@pytest.mark.parametrize(("counts", "players"), [
    ((6, 2, 2, 1, 0), 2), ((6, 2, 2, 1, 0), 3), ((6, 2, 2, 1, 0), 4), ((7, 2, 2, 1, 0), 2),
])
def test_reach_equals_brute_force_on_fair_deals(counts, players):
    deck = Deck(counts)
    first = looping_deals(deck, players, 0)
    second = looping_deals(deck, players, 1) if players == 2 else {}
    assert first
    for cycle, deals in first.items():
        result = reach(Deal.from_hands(deals[0], deck), deck)
        assert result.cycle == cycle and result.complete
        assert result.fair_deals == sorted(format_hands(h) for h in deals)
        if players == 2:
            assert result.fair_deals_swapped == sorted(
                format_hands(h[::-1]) for h in second.get(cycle, []))


def test_casella():
    expected = play(CASELLA)
    result = reach(CASELLA)
    assert result.complete and result.stopped_by is None
    assert result.cycle == expected.cycle
    assert (result.period_tricks, result.period_cards) == (62, 440)
    assert CASELLA in result.fair_deals
    assert result.depth >= expected.preperiod_tricks == 4
    assert result.states >= 62 + 4
    for deal in result.fair_deals:
        assert play(deal).cycle == expected.cycle
    for deal in result.fair_deals_swapped:  # the same games with the players renamed
        assert play(deal).outcome == "loop"


def test_swapped_deals_play_from_player_two():
    result = reach(CASELLA)
    assert result.fair_deals_swapped
    for deal in result.fair_deals_swapped:
        second, first = Deal.parse(deal).hands
        assert play_state([list(first), list(second)], 1).cycle == result.cycle


def test_budgets():
    small = reach(CASELLA, max_states=100)
    assert not small.complete and small.stopped_by == "states" and small.states == 100
    timed = reach(CASELLA, seconds=0)
    assert not timed.complete and timed.stopped_by == "seconds" and timed.states == 62


def test_no_loop():
    with pytest.raises(NoLoop):
        reach(NESSLER)


@pytest.mark.parametrize(("powers", "base"), [(POW5, 5), (POW13, 13)])
def test_packing_round_trip(powers, base):
    rng = np.random.default_rng(3)
    for _ in range(200):
        players = int(rng.integers(2, 9))
        n = int(rng.integers(players, 65))
        cards = rng.integers(0, base, n).astype(np.uint8)
        sizes = np.array(sorted(rng.integers(0, n + 1, players - 1)), dtype=np.int64)
        sizes = np.diff(np.concatenate(([0], sizes, [n])))
        flat, _ = rules.pack_hands(hands_of(cards, sizes))
        leader = int(rng.integers(players))
        key = np.zeros(1 + -(-n // len(powers)), dtype=np.int64)
        pack_state(flat, sizes, leader, key, powers)
        back = np.zeros_like(flat)
        back_sizes = np.zeros(players, dtype=np.int64)
        assert unpack_state(key, back, back_sizes, powers) == leader
        assert (back_sizes == sizes).all() and (back == flat).all()


def test_command():
    out = run("reach", "--json", "--", CASELLA)
    assert out.returncode == 0, out.output
    data = json.loads(out.stdout)
    assert data["complete"] and CASELLA in data["fair_deals"] and data["period_tricks"] == 62
    text = run("reach", "--max-states", "100", "--", CASELLA)
    assert text.returncode == 0 and "stopped by the states budget" in text.stdout
    deck = Deck((5, 2, 1, 1, 0))
    cycle, deals = sorted(looping_deals(deck, 2, 0).items())[0]
    deal = format_hands(deals[0])
    small = run("reach", "--json", "--deck", deck.spec, "--", deal)
    assert small.returncode == 0, small.output
    data = json.loads(small.stdout)
    assert data["cycle"] == cycle and deal in data["fair_deals"]


def test_command_rejects_a_game_that_ends():
    assert run("reach", "--", NESSLER).returncode == 2


@pytest.mark.slow
@pytest.mark.parametrize(("counts", "players"), [
    ((7, 2, 2, 1, 0), 3), ((6, 2, 2, 1, 0), 4), ((9, 2, 2, 1, 0), 2),
])
def test_reach_equals_brute_force_on_all_states_bigger(counts, players):
    test_reach_equals_brute_force_on_all_states(counts, players)
