"""Python face of the rules kernel: play one game, trace it, name its cycle."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from ..cards.deck import LETTERS, Deal, Deck
from . import rules
from .rules import (
    OUTCOMES,
    R_CARDS,
    R_CYCLE,
    R_OUTCOME,
    R_PERIOD_CARDS,
    R_PERIOD_TRICKS,
    R_PRE_CARDS,
    R_PRE_TRICKS,
    R_SIZES,
    R_TRICKS,
    R_WINNER,
    RESULT_LEN,
)


def cycle_name(key: int) -> str:
    """A cycle id as 16 hex digits (the kernel's int64 key read unsigned)."""
    return f"{int(key) & 0xFFFFFFFFFFFFFFFF:016x}"


def cycle_key(name: str) -> int:
    """The kernel's int64 key of a cycle id (inverse of ``cycle_name``)."""
    key = int(name, 16)
    return key - (1 << 64) if key >= 1 << 63 else key


@dataclass(frozen=True)
class Result:
    """What happened in one game; fields as in ``beggar-search play --json``."""

    outcome: str
    cards: int
    tricks: int
    winner: int
    hand_sizes: tuple[int, ...]
    preperiod_tricks: int = 0
    preperiod_cards: int = 0
    period_tricks: int = 0
    period_cards: int = 0
    cycle: str | None = None

    @classmethod
    def from_row(cls, row: np.ndarray, players: int) -> Result:
        """The result in a kernel's result ``row`` of a game of ``players`` players."""
        loop = int(row[R_OUTCOME]) == rules.LOOP
        return cls(
            outcome=OUTCOMES[int(row[R_OUTCOME])],
            cards=int(row[R_CARDS]),
            tricks=int(row[R_TRICKS]),
            winner=int(row[R_WINNER]),
            hand_sizes=tuple(int(x) for x in row[R_SIZES : R_SIZES + players]),
            preperiod_tricks=int(row[R_PRE_TRICKS]),
            preperiod_cards=int(row[R_PRE_CARDS]),
            period_tricks=int(row[R_PERIOD_TRICKS]),
            period_cards=int(row[R_PERIOD_CARDS]),
            cycle=cycle_name(row[R_CYCLE]) if loop else None,
        )

    def to_dict(self) -> dict:
        """The result as a plain dict (for ``--json``); the loop fields only for a loop."""
        data = asdict(self)
        data["hand_sizes"] = list(self.hand_sizes)
        if self.outcome != "loop":
            for key in ("preperiod_tricks", "preperiod_cards", "period_tricks",
                        "period_cards", "cycle"):
                data.pop(key)
        return data


def as_deal(deal: Deal | str | Sequence, deck: Deck | str | None = None) -> Deal:
    """A deal from notation, from hand arrays, or as it is."""
    if isinstance(deal, Deal):
        return deal
    if isinstance(deal, str):
        return Deal.parse(deal, deck)
    return Deal.from_hands(deal, deck)


def _cap(max_tricks: int | None) -> int:
    if max_tricks is not None and max_tricks < 0:
        raise ValueError(f"max_tricks must be positive, got {max_tricks}")
    return int(max_tricks or 0)


def play_state(hands: Sequence[Sequence[int]], leader: int = 0,
               max_tricks: int | None = None) -> Result:
    """Play from any trick-boundary state (hands top card first, 0-based leader)."""
    flat, sizes = rules.pack_hands(hands)
    row = np.zeros(RESULT_LEN, dtype=np.int64)
    rules.play_game(flat, sizes, int(leader), _cap(max_tricks), row)
    return Result.from_row(row, len(hands))


def play(deal: Deal | str | Sequence, deck: Deck | str | None = None,
         max_tricks: int | None = None) -> Result:
    """Play a deal (notation such as ``'--J-/Q---'`` or hand arrays) to its end.

    ``deck`` is a spec string as on the command line (standard by default);
    ``max_tricks`` is the agreed cap of the rules.
    """
    deal = as_deal(deal, deck)
    return play_state(deal.hands, 0, max_tricks)


@dataclass
class TrickRecord:
    """One trick of a traced game."""

    number: int
    leader: int
    laid: list[tuple[int, int]]  # (player from 1, card value) in laying order
    taker: int
    hand_sizes: list[int]
    cards: int  # cards laid so far
    marks: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """The trick in one line: the cards laid, who took the pile, the hand sizes and any
        marks."""
        laid = " ".join(f"{player}:{LETTERS[card]}" for player, card in self.laid)
        sizes = "/".join(map(str, self.hand_sizes))
        marks = "".join(f"  <- {mark}" for mark in self.marks)
        return (f"trick {self.number:5d}  lead {self.leader}  {laid}  -> player {self.taker} "
                f"takes {len(self.laid)}  hands {sizes}{marks}")


def trace(deal: Deal | str | Sequence, deck: Deck | str | None = None,
          max_tricks: int | None = None) -> tuple[list[TrickRecord], Result]:
    """Every trick of a game, and its result; a loop is traced to its first repeat."""
    deal = as_deal(deal, deck)
    result = play(deal, max_tricks=max_tricks)
    state = rules.State.from_hands(deal.hands)
    pile = rules.new_pile()
    records = []
    for number in range(1, result.tricks + 1):
        leader = state.leader
        before = state.info[rules.I_CARDS]
        taker = rules.play_trick(*state.arrays(), pile)
        laid_count = int(state.info[rules.I_CARDS] - before)
        record = TrickRecord(
            number=number,
            leader=leader + 1,
            laid=[(int(pile[1, i]) + 1, int(pile[0, i])) for i in range(laid_count)],
            taker=int(taker) + 1,
            hand_sizes=[int(x) for x in state.size],
            cards=int(state.info[rules.I_CARDS]),
        )
        records.append(record)
    mark_cycle(records, result)
    return records, result


def mark_cycle(records, result) -> None:
    """Mark a looping game's trace (``records`` of tricks from 1): where its cycle starts
    and where the state repeats."""
    if result.outcome != "loop":
        return
    for record in records:
        if record.number == result.preperiod_tricks:
            record.marks.append("the cycle starts after this trick")
        if record.number == result.tricks:
            record.marks.append("state repeats: one turn of the cycle done")
    if result.preperiod_tricks == 0 and records:
        records[0].marks.insert(0, "the cycle starts at the deal")


def cycle_states(deal: Deal | str | Sequence, deck: Deck | str | None = None):
    """The trick-boundary states of a looping deal's cycle, from its first state.

    Each state is ``(hands, leader)`` with 0-based leader.  Empty for a game that ends.
    """
    return state_cycle(as_deal(deal, deck).hands, 0)


def bmn_trick(state: rules.State, pile) -> None:
    """One trick of Beggar-my-neighbour on a ``rules.State``."""
    rules.play_trick(*state.arrays(), pile)


def game_states(hands: Sequence[Sequence[int]], leader: int, skip: int, count: int,
                trick: Callable = bmn_trick):
    """``count`` consecutive trick-boundary states of a game, after its first ``skip`` tricks;
    ``trick(state, pile)`` plays one trick on a ``rules.State`` (the game's; by default
    Beggar-my-neighbour's)."""
    state = rules.State.from_hands(hands, leader)
    pile = rules.new_pile()
    for _ in range(skip):
        trick(state, pile)
    states = []
    for index in range(count):
        if index:
            trick(state, pile)
        states.append((state.hand_list(), state.leader))
    return states


def state_cycle(hands: Sequence[Sequence[int]], leader: int = 0):
    """The states of the cycle that a state plays into, from the first one met (or [])."""
    result = play_state(hands, leader)
    if result.outcome != "loop":
        return []
    return game_states(hands, leader, result.preperiod_tricks, result.period_tricks)


def trajectory(hands: Sequence[Sequence[int]], leader: int = 0,
               max_tricks: int | None = None):
    """Every trick-boundary state of a game as ``(hands, leader)``, the start included.

    A game that ends (or stops at the cap ``max_tricks``) is followed to its last
    state, one player holding every card; a loop up to its first repeat, each
    state once.
    """
    result = play_state(hands, leader, max_tricks)
    count = result.tricks if result.outcome == "loop" else result.tricks + 1
    return game_states(hands, leader, 0, count)
