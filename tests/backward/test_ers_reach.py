"""Egyptian ratscrew's in-trees against brute force: on a small ranked deck every deal is
played forward, and the looping deals of each cycle must be exactly the fair deals
``reach`` finds in that cycle's in-tree (a census, per policy, rule set and players)."""

from collections import defaultdict

import numpy as np
import pytest
from cli_harness import run

from beggar_search.backward.reach import NoLoop, reach, reach_state
from beggar_search.cards.ranked import RankedDeal, RankedDeck
from beggar_search.cards.slaps import SlapRules
from beggar_search.engine import ers, rules
from beggar_search.engine.batch import next_permutation
from beggar_search.engine.game import cycle_name
from beggar_search.games.ers import Ratscrew


def reach_ers(deal, slap_rules, deck=None, **budget):
    """``backward.reach.reach`` of a ranked deal under ``slap_rules`` (two players)."""
    return reach(deal, deck, game=Ratscrew(slap_rules, 2), **budget)


CENSUS_DECK = RankedDeck.parse("8=2,9=2,T=2,J=2,Q=1,K=1")  # 226,800 deals, 180 cycles a policy
README_DECK = RankedDeck.parse("9=4,T=4,J=2,Q=1,K=1")


def all_sequences(deck) -> np.ndarray:
    sequence = deck.sorted_cards().copy()
    rows = [sequence.copy()]
    while next_permutation(sequence):
        rows.append(sequence.copy())
    return np.array(rows)


def looping_deals(deck, players, slap_rules):
    """Every deal of the even split that loops, by cycle id: {cycle: {deal notation}}."""
    sequences = all_sequences(deck)
    split = np.array(deck.split(players), dtype=np.int64)
    rows = np.zeros((len(sequences), rules.RESULT_LEN), dtype=np.int64)
    ers.play_sequences(sequences, split, 0, 0, ers.slaps_of(slap_rules, players), rows)
    found = defaultdict(set)
    for row, sequence in zip(rows, sequences, strict=True):
        if row[rules.R_OUTCOME] == rules.LOOP:
            deal = RankedDeal.from_sequence(sequence, players, deck)
            found[cycle_name(row[rules.R_CYCLE])].add(str(deal))
    return found


def census(players, policy, slap_rules, slap_in=True):
    rules_ = SlapRules.parse(slap_rules, policy, slap_in, players)
    by_cycle = looping_deals(CENSUS_DECK, players, rules_)
    assert by_cycle
    for cycle, deals in by_cycle.items():
        reached = reach_ers(min(deals), rules_, CENSUS_DECK)
        assert reached.complete and reached.cycle == cycle and reached.game == "ers"
        assert set(reached.fair_deals) == deals, cycle
    return len(by_cycle)


CENSUS_CASES = [(players, policy, slap_rules, slap_in)
                for players in (2, 3)
                for policy in ("none", "first:1", "turn")
                for slap_rules in ("pair", "pair,sandwich")
                for slap_in in ((True,) if players == 2 else (True, False))
                if not (policy == "none" and (slap_rules != "pair" or not slap_in))]
FAST_CASES = [(2, "turn", "pair,sandwich", True), (3, "first:1", "pair,sandwich", False)]


@pytest.mark.parametrize("case", FAST_CASES)
def test_census(case):
    assert census(*case) >= 20


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CENSUS_CASES if c not in FAST_CASES])
def test_census_every_policy(case):
    assert census(*case) >= 20


def test_readme_deal():
    """``T99JTT/9KTQJ9`` loops under turn (README): it is among its in-tree's fair deals,
    each of which plays into the same cycle."""
    rules_ = SlapRules.parse("pair", "turn", True, 2)
    reached = reach_ers("T99JTT/9KTQJ9", rules_, README_DECK)
    assert reached.complete and "T99JTT/9KTQJ9" in reached.fair_deals
    assert reached.deck == README_DECK.spec and reached.players == 2
    from beggar_search.engine import ers_game

    for text in reached.fair_deals:
        assert ers_game.play(text, rules_, README_DECK).cycle == reached.cycle
    for text in reached.fair_deals_swapped:  # player 2 leading: the hands swapped back
        hands = [list(h) for h in RankedDeal.parse(text, README_DECK).hands[::-1]]
        assert ers_game.play_state(hands, 1, rules_).cycle == reached.cycle


def test_refusals():
    rules_ = SlapRules.parse("pair", "turn", True, 2)
    with pytest.raises(NoLoop):
        reach_ers("TTTT99/99JJQK", SlapRules(), README_DECK)
    with pytest.raises(ValueError, match="not a function"):
        reach_ers("T99JTT/9KTQJ9", SlapRules.parse("pair", "odds:0.5,0.5", True, 2),
                  README_DECK)
    with pytest.raises(ValueError):
        reach_state([[7, 7], []], 1, None, game=Ratscrew(rules_, 2))


def test_command():
    base = ["reach", "--game", "ers", "--deck", README_DECK.spec, "T99JTT/9KTQJ9"]
    result = run(*base, "--slap-policy", "turn", "--json")
    assert result.returncode == 0, result.output
    data = result.json()
    assert data["game"] == "ers" and data["slap_policy"] == "turn" and data["complete"]
    assert "T99JTT/9KTQJ9" in data["fair_deals"]
    for extra, message in ((["--slap-policy", "odds:0.5,0.5"], "not a function of the deal"),
                           (["--slap-policy", "none"], "does not loop")):
        refused = run(*base, *extra)
        assert refused.returncode == 2
        assert message in refused.stderr


def all_looping_states(deck, players, slap_rules):
    """Every trick-boundary state (any split, any leader holding cards), by cycle:
    {cycle: (number of states, most tricks before the cycle)}."""
    sequences = all_sequences(deck)
    found = defaultdict(lambda: [0, 0])
    arrays = ers.slaps_of(slap_rules, players)
    for first in range(deck.size + 1):
        sizes = np.array([first, deck.size - first], dtype=np.int64)
        for leader in range(players):
            if sizes[leader] == 0:
                continue
            rows = np.zeros((len(sequences), rules.RESULT_LEN), dtype=np.int64)
            ers.play_sequences(sequences, sizes, leader, 0, arrays, rows)
            for row in rows[rows[:, rules.R_OUTCOME] == rules.LOOP]:
                entry = found[cycle_name(row[rules.R_CYCLE])]
                entry[0] += 1
                entry[1] = max(entry[1], int(row[rules.R_PRE_TRICKS]))
    return {cycle: tuple(entry) for cycle, entry in found.items()}


@pytest.mark.slow
@pytest.mark.parametrize(("policy", "slap_rules"), [("turn", "pair"),
                                                    ("first:2", "pair,sandwich")])
def test_in_trees_equal_brute_force_on_all_states(policy, slap_rules):
    """Two players on the 10-card deck: every state of every split and leader played
    forward; each cycle's in-tree has exactly the states that loop on it, and its depth is
    their longest way in."""
    rules_ = SlapRules.parse(slap_rules, policy, True, 2)
    expected = all_looping_states(CENSUS_DECK, 2, rules_)
    by_cycle = looping_deals(CENSUS_DECK, 2, rules_)
    assert set(by_cycle) <= set(expected)
    for cycle, deals in by_cycle.items():
        reached = reach_ers(min(deals), rules_, CENSUS_DECK)
        assert (reached.states, reached.depth) == expected[cycle], cycle
