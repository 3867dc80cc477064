"""The Egyptian ratscrew agreement check, shared by ``tests/engine/test_ers.py`` (a few hundred
deals per combination) and ``benchmarks/ers_agreement.py`` (10^4 and more): the kernel
against the oracle ``naive_ers`` on random deals, per (policy, rule set, players, slap-in);
and ``--slap-policy none`` against Beggar-my-neighbour on the mapped deals."""

from __future__ import annotations

import numpy as np
from naive_ers import play_ers_naive  # tests/ is on the path (pytest, benchmarks)

from beggar_search.cards.ranked import STANDARD_RANKED, RankedDeal, RankedDeck
from beggar_search.cards.slaps import SlapRules
from beggar_search.engine import ers, rules

ODDS_CHECK_CAP = 2000  # the cap both engines get under odds in the check
LOOP_DECK = RankedDeck.parse("8=2,9=2,T=2,J=2,Q=1,K=1")  # 10 cards: about 0.4% of deals loop
FIELDS = ("outcome", "cards", "tricks", "winner", "hand_sizes", "preperiod_tricks",
          "preperiod_cards", "period_tricks", "period_cards")


def policies(players: int) -> list[str]:
    """The policies checked for ``players``: none, first for the first and last player,
    turn, and odds (uneven shares, one player at 0 with three or more)."""
    odds = {2: "odds:0.3,0.7", 3: "odds:0.5,0.5,0", 4: "odds:0.1,0.2,0.3,0.4"}[players]
    return ["none", "first:1", f"first:{players}", "turn", odds]


def combinations():
    """(players, policy, rules, slap_in) to check: slap rules and slap-in do not matter
    under none, and slap-in not with two players (a player out ends the game)."""
    for players in (2, 3, 4):
        for policy in policies(players):
            for slap_rules in (("pair",) if policy == "none" else ("pair", "pair,sandwich")):
                for slap_in in ((True,) if policy == "none" or players == 2 else (True, False)):
                    yield players, policy, slap_rules, slap_in


def oracle_policy(rules_: SlapRules):
    if rules_.policy == "first":
        return ("first", rules_.target)
    if rules_.policy == "odds":
        return ("odds", rules_.odds)
    return (rules_.policy,)


def random_sequences(n_deals: int, seed: int, deck=STANDARD_RANKED) -> np.ndarray:
    rng = np.random.default_rng(seed)
    cards = deck.sorted_cards()
    return np.array([rng.permutation(cards) for _ in range(n_deals)], dtype=np.uint8)


def kernel_rows(sequences, players, slap_rules: SlapRules, max_tricks=0, deck=STANDARD_RANKED):
    split = np.array(deck.split(players), dtype=np.int64)
    rows = np.zeros((len(sequences), rules.RESULT_LEN), dtype=np.int64)
    ers.play_sequences(sequences, split, 0, max_tricks, ers.slaps_of(slap_rules, players), rows)
    return rows


def row_dict(row, players):
    return {"outcome": rules.OUTCOMES[int(row[rules.R_OUTCOME])],
            "cards": int(row[rules.R_CARDS]), "tricks": int(row[rules.R_TRICKS]),
            "winner": int(row[rules.R_WINNER]),
            "hand_sizes": [int(x) for x in row[rules.R_SIZES:rules.R_SIZES + players]],
            "preperiod_tricks": int(row[rules.R_PRE_TRICKS]),
            "preperiod_cards": int(row[rules.R_PRE_CARDS]),
            "period_tricks": int(row[rules.R_PERIOD_TRICKS]),
            "period_cards": int(row[rules.R_PERIOD_CARDS])}


def disagreements(players, policy, slap_rules, slap_in, n_deals, seed,
                  deck=STANDARD_RANKED, max_tricks=0):
    """Deals (notation) on which the kernel and the oracle differ, and the outcomes seen."""
    rules_ = SlapRules.parse(slap_rules, policy, slap_in, players, seed)
    cap = max_tricks or (ODDS_CHECK_CAP if not rules_.deterministic else 0)
    sequences = random_sequences(n_deals, seed, deck)
    rows = kernel_rows(sequences, players, rules_, cap, deck)
    wrong, outcomes = [], {}
    for sequence, row in zip(sequences, rows, strict=True):
        deal = RankedDeal.from_sequence(sequence, players, deck)
        expected = play_ers_naive([list(h) for h in deal.hands], 0, rules_.patterns,
                                  oracle_policy(rules_), rules_.slap_in, cap or None, rules_.key)
        got = row_dict(row, players)
        outcomes[got["outcome"]] = outcomes.get(got["outcome"], 0) + 1
        if any(got[k] != expected[k] for k in FIELDS):
            wrong.append(str(deal))
    return wrong, outcomes


def bmn_differences(players, n_deals, seed, deck=STANDARD_RANKED):
    """Deals whose game under ``--slap-policy none`` differs from Beggar-my-neighbour's on
    the mapped deal (every field but the cycle id, which hashes ranks), and the loops."""
    sequences = random_sequences(n_deals, seed, deck)
    rows = kernel_rows(sequences, players, SlapRules(), 0, deck)
    split = np.array(deck.split(players), dtype=np.int64)
    mapped = np.array([RankedDeal.from_sequence(s, players, deck).to_bmn().sequence
                       for s in sequences], dtype=np.uint8)
    bmn = np.zeros_like(rows)
    rules.play_sequences(mapped, split, 0, 0, bmn)
    same = (rows[:, :rules.R_CYCLE] == bmn[:, :rules.R_CYCLE]).all(axis=1) & (
        rows[:, rules.R_SIZES:] == bmn[:, rules.R_SIZES:]).all(axis=1)
    loops = int((bmn[:, rules.R_OUTCOME] == rules.LOOP).sum())
    return [str(RankedDeal.from_sequence(s, players, deck)) for s in sequences[~same]], loops
