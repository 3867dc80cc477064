"""What the driver hands the store for one finished chunk: plain records, no kernel arrays.

A chunk's summary (``engine.batch.ChunkSummary``) holds kernel rows and card sequences
numbered by their place in the chunk.  ``ChunkRecord.from_summary`` turns it, once, in
the process that writes the results file, into deals in notation, results by field
name and deal numbers in the run (the strategy's numbering), so the store stores what
it is given and never calls back into the engine or the strategy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..cards.deck import format_hands

if TYPE_CHECKING:  # the engine (Numba) loads only where a chunk's records are made
    from ..engine.batch import ChunkSummary


@dataclass(frozen=True)
class GameRecord:
    """One game a chunk keeps: on the leaderboard (``longest``) or as a loop (``loops``)."""

    board: str
    deal: str  # notation
    number: int  # the deal's number in the run (its index for an enumeration)
    position: int  # its place in the chunk
    outcome: str
    cards: int
    tricks: int
    winner: int
    preperiod_tricks: int
    preperiod_cards: int
    period_tricks: int
    period_cards: int
    cycle: str | None
    family: str | None = None  # a terminating game's merge family (``engine.merging``)

    @classmethod
    def from_row(cls, board: str, row: np.ndarray, sequence: np.ndarray, position: int,
                 number: int, split: Sequence[int],
                 notation: Callable = format_hands, family: str | None = None) -> GameRecord:
        """The record of one game from a kernel's result ``row`` and the deal's card ``sequence``,
        written with ``notation``; ``family``: its merge family, where the chunk found it."""
        from ..engine.game import Result

        result = Result.from_row(row, len(split))
        return cls(board=board, deal=_notation(sequence, split, notation), number=number,
                   position=position, outcome=result.outcome, cards=result.cards,
                   tricks=result.tricks, winner=result.winner,
                   preperiod_tricks=result.preperiod_tricks,
                   preperiod_cards=result.preperiod_cards, period_tricks=result.period_tricks,
                   period_cards=result.period_cards, cycle=result.cycle, family=family)


MET, CATALOGUED = "met", "catalogued"  # how a chunk reports a cycle (``CycleRecord.role``)


@dataclass(frozen=True)
class InTree:
    """A backward search's figures for a cycle (``reach``): its in-tree and fair deals."""

    states: int
    complete: bool
    depth: int | None = None  # the hunter does not store it
    fair_deals: int | None = None
    fair_deals_swapped: int | None = None


@dataclass(frozen=True)
class CycleRecord:
    """A cycle a chunk reports as a state, not as a deal (the hunter, the factory).

    ``role`` MET: a state of it was met at ``position`` of the chunk (by a move, a kick, a
    perturbation or seeding); with ``generation`` (the factory) the place it was met at
    first in the run keeps its ``parent`` and ``move``.  CATALOGUED: the factory expanded
    it, and brings its in-tree and its mirror.
    """

    role: str
    cycle: str
    period_tricks: int
    period_cards: int
    state: str  # 'leader:hands'
    position: int = 0
    generation: int | None = None
    parent: str | None = None
    move: str | None = None
    in_tree: InTree | None = None
    mirror: str | None = None
    own_mirror: bool | None = None


@dataclass(frozen=True)
class CycleNews:
    """A cycle the results file did not hold before a chunk was stored."""

    cycle: str
    period_tricks: int
    period_cards: int
    example: str  # a deal or state on it


@dataclass(frozen=True)
class ChunkRecord:
    """One finished chunk, as the store keeps it."""

    chunk: int
    deals: int
    loops: int
    caps: int
    cards: int
    wins: tuple[int, ...]
    seconds: float
    histogram: tuple[tuple[int, int], ...]  # (cards, games) of every bin that is not empty
    games: tuple[GameRecord, ...]  # the leaderboard in its order, then the loops
    cycles: tuple[CycleRecord, ...] = field(default=())  # cycles met as states
    move_stats: tuple[dict, ...] = field(default=())  # the factory's tries by move kind
    links: tuple[tuple[str, str], ...] = field(default=())  # the factory: cycle -> known one
    # (cards, games) of the chunk's random sample, where it is only part of its games
    sample_histogram: tuple[tuple[int, int], ...] = field(default=())

    @classmethod
    def from_summary(cls, chunk: int, summary: ChunkSummary, split: Sequence[int],
                     number: Callable[[int], int],
                     notation: Callable = format_hands) -> ChunkRecord:
        """``split``: the hand sizes deals are dealt in; ``number(position)``: a deal's
        number in the run; ``notation(hands)``: how its deals are written (the game's)."""
        top_families = [f.family for f in summary.top_families] or [None] * len(summary.top_rows)
        games = [
            GameRecord.from_row(board, row, sequence, int(position), number(int(position)),
                                split, notation, family)
            for board, positions, rows, sequences, names in (
                ("longest", summary.top_positions, summary.top_rows, summary.top_deals,
                 top_families),
                ("loops", summary.loop_positions, summary.loop_rows, summary.loop_deals,
                 [None] * len(summary.loop_rows)))
            for position, row, sequence, family in zip(positions, rows, sequences, names,
                                                       strict=True)
        ]
        bins = np.flatnonzero(summary.histogram)
        sample = summary.sample_histogram
        sample_bins = () if sample is None else np.flatnonzero(sample)
        return cls(chunk=chunk, deals=summary.deals, loops=summary.loops, caps=summary.caps,
                   cards=summary.cards, wins=tuple(int(w) for w in summary.wins),
                   seconds=summary.seconds,
                   histogram=tuple((int(b), int(summary.histogram[b])) for b in bins),
                   games=tuple(games), cycles=tuple(summary.cycles),
                   move_stats=tuple(summary.move_stats), links=tuple(summary.links),
                   sample_histogram=tuple((int(b), int(sample[b])) for b in sample_bins))


def _notation(sequence: np.ndarray, split: Sequence[int], notation: Callable) -> str:
    hands, start = [], 0
    for size in split:
        hands.append(sequence[start:start + size])
        start += size
    return notation(hands)
