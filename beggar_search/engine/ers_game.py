"""Python face of the Egyptian ratscrew kernel: play one ranked deal, trace it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..cards.ranked import RANKS, RankedDeal, RankedDeck
from ..cards.slaps import SlapRules
from . import ers, rules
from .game import Result, TrickRecord, game_states, mark_cycle
from .rules import RESULT_LEN


def as_ranked_deal(deal: RankedDeal | str | Sequence,
                   deck: RankedDeck | str | None = None) -> RankedDeal:
    """``deal`` as a ``RankedDeal``: notation or hands of rank codes are read against ``deck``."""
    if isinstance(deal, RankedDeal):
        return deal
    if isinstance(deal, str):
        return RankedDeal.parse(deal, deck)
    return RankedDeal.from_hands(deal, deck)


def play_state(hands: Sequence[Sequence[int]], leader: int = 0,
               slap_rules: SlapRules | None = None, max_tricks: int | None = None) -> Result:
    """Play Egyptian ratscrew from any trick-boundary state (rank codes, 0-based leader)."""
    slap_rules = slap_rules or SlapRules()
    if max_tricks is not None and max_tricks < 0:
        raise ValueError(f"max_tricks must be positive, got {max_tricks}")
    flat, sizes = rules.pack_hands(hands)
    row = np.zeros(RESULT_LEN, dtype=np.int64)
    ers.play_game(flat, sizes, int(leader), int(max_tricks or 0),
                  ers.slaps_of(slap_rules, len(hands)), row)
    return Result.from_row(row, len(hands))


def play(deal: RankedDeal | str | Sequence, slap_rules: SlapRules | None = None,
         deck: RankedDeck | str | None = None, max_tricks: int | None = None) -> Result:
    """Play a ranked deal (``'2J9Q/KA3T'`` or hands of rank codes) to its end."""
    deal = as_ranked_deal(deal, deck)
    return play_state(deal.hands, 0, slap_rules, max_tricks)


def trick_function(slap_rules: SlapRules, players: int):
    """One trick of Egyptian ratscrew under ``slap_rules`` as ``game.game_states`` takes it
    (``trick(state, pile)`` on a ``rules.State``); a deterministic policy never draws on the
    stream, which is zero."""
    slaps = ers.slaps_of(slap_rules, players)
    stream = np.zeros(4, dtype=np.int64)

    def trick(state: rules.State, pile) -> None:
        ers.play_trick(*state.arrays(), pile, slaps, stream)

    return trick


def state_cycle(hands: Sequence[Sequence[int]], leader: int = 0,
                slap_rules: SlapRules | None = None):
    """The states of the cycle that a state plays into under a deterministic policy, from the
    first one met (or [] when the game ends), as ``game.state_cycle``."""
    slap_rules = slap_rules or SlapRules()
    result = play_state(hands, leader, slap_rules)
    if result.outcome != "loop":
        return []
    return game_states(hands, leader, result.preperiod_tricks, result.period_tricks,
                       trick_function(slap_rules, len(hands)))


def trajectory(hands: Sequence[Sequence[int]], leader: int = 0,
               slap_rules: SlapRules | None = None, max_tricks: int | None = None):
    """Every trick-boundary state of a game under a deterministic policy, as
    ``game.trajectory``: to its last state, or a loop up to its first repeat."""
    slap_rules = slap_rules or SlapRules()
    result = play_state(hands, leader, slap_rules, max_tricks)
    count = result.tricks if result.outcome == "loop" else result.tricks + 1
    return game_states(hands, leader, 0, count, trick_function(slap_rules, len(hands)))


@dataclass
class RankedTrickRecord(TrickRecord):
    """One trick of a traced Egyptian ratscrew game; ``slapper`` is who slapped (from 1),
    0 when the pile was won by payment."""

    slapper: int = 0

    def describe(self) -> str:
        """The trick in one line: the cards laid, who took the pile (by payment or by a slap), the
        hand sizes and any marks."""
        laid = " ".join(f"{player}:{RANKS[card]}" for player, card in self.laid)
        sizes = "/".join(map(str, self.hand_sizes))
        how = f"SLAP by player {self.slapper}, takes" if self.slapper else \
            f"player {self.taker} takes"
        marks = "".join(f"  <- {mark}" for mark in self.marks)
        return (f"trick {self.number:5d}  lead {self.leader}  {laid}  -> {how} "
                f"{len(self.laid)}  hands {sizes}{marks}")


def trace(deal: RankedDeal | str | Sequence, slap_rules: SlapRules | None = None,
          deck: RankedDeck | str | None = None,
          max_tricks: int | None = None) -> tuple[list[RankedTrickRecord], Result]:
    """Every trick of a game and its result; a loop is traced to its first repeat."""
    slap_rules = slap_rules or SlapRules()
    deal = as_ranked_deal(deal, deck)
    result = play(deal, slap_rules, max_tricks=max_tricks)
    state = rules.State.from_hands(deal.hands)
    pile = rules.new_pile()
    slaps = ers.slaps_of(slap_rules, deal.players)
    flat, sizes = rules.pack_hands(deal.hands)
    stream = np.zeros(4, dtype=np.int64)
    ers.seed_game(slaps.flags[ers.F_KEY], flat, sizes, stream)
    records = []
    for number in range(1, result.tricks + 1):
        leader = state.leader
        before = state.info[rules.I_CARDS]
        taker, slapped = ers.play_trick(*state.arrays(), pile, slaps, stream)
        laid_count = int(state.info[rules.I_CARDS] - before)
        record = RankedTrickRecord(
            number=number, leader=leader + 1,
            laid=[(int(pile[1, i]) + 1, int(pile[0, i])) for i in range(laid_count)],
            taker=int(taker) + 1, hand_sizes=[int(x) for x in state.size],
            cards=int(state.info[rules.I_CARDS]), slapper=int(taker) + 1 if slapped else 0)
        records.append(record)
    mark_cycle(records, result)
    return records, result
