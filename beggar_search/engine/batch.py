"""Chunks of games: play many deals in one kernel call and summarise them.

A chunk summary is what the search driver stores: the deals played, won by each
player, looped and capped; a histogram of game lengths in cards; the K longest
terminating games with their deals; and every looping deal.  Kernels fill a
``Recorder`` (plain arrays); ``ChunkSummary`` is its Python form.

Positions are deal numbers inside the chunk.  The leaderboard order is cards
descending, then position ascending, so merging chunk leaderboards gives the
same result however chunks were spread over workers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..cards.deck import MAX_PLAYERS
from ..jit import inlined_kernel, kernel
from . import rules
from .random import shuffle
from .rules import CAPACITY, LOOP, R_CARDS, R_OUTCOME, R_WINNER, RESULT_LEN

HIST_LEN = 1 << 15  # bins of one card; the last bin counts every longer game

# counts layout
C_DEALS, C_LOOPS, C_CAPS, C_CARDS, C_TOP_FILLED, C_TOP_MIN, C_LOOPS_KEPT = range(7)
C_WINS = 7  # MAX_PLAYERS win counters follow
COUNTS_LEN = C_WINS + MAX_PLAYERS

INITIAL_LOOP_ROOM = 16


class Recorder(NamedTuple):
    """The arrays a chunk kernel fills (a Numba named tuple); ``ChunkSummary`` is its Python form.

    The leaderboard is ``top_*`` (kept in no order: ``leaderboard`` sorts it), the loops
    ``loop_*`` (``counts[C_LOOPS_KEPT]`` rows used; ``record`` grows them).
    """

    counts: np.ndarray  # int64 (COUNTS_LEN,), the C_* layout
    histogram: np.ndarray  # int64 (HIST_LEN,)
    top_positions: np.ndarray  # int64 (top_k,)
    top_rows: np.ndarray  # int64 (top_k, RESULT_LEN)
    top_deals: np.ndarray  # uint8 (top_k, cards)
    loop_positions: np.ndarray  # int64 (room,)
    loop_rows: np.ndarray  # int64 (room, RESULT_LEN)
    loop_deals: np.ndarray  # uint8 (room, cards)


def new_recorder(top_k: int, n_cards: int) -> Recorder:
    """Arrays a chunk kernel fills: counts, histogram, leaderboard, loops."""
    counts = np.zeros(COUNTS_LEN, dtype=np.int64)
    histogram = np.zeros(HIST_LEN, dtype=np.int64)
    top_positions = np.full(max(top_k, 0), -1, dtype=np.int64)
    top_rows = np.zeros((max(top_k, 0), RESULT_LEN), dtype=np.int64)
    top_deals = np.zeros((max(top_k, 0), n_cards), dtype=np.uint8)
    loop_positions = np.zeros(INITIAL_LOOP_ROOM, dtype=np.int64)
    loop_rows = np.zeros((INITIAL_LOOP_ROOM, RESULT_LEN), dtype=np.int64)
    loop_deals = np.zeros((INITIAL_LOOP_ROOM, n_cards), dtype=np.uint8)
    return Recorder(counts, histogram, top_positions, top_rows, top_deals,
                    loop_positions, loop_rows, loop_deals)


@kernel
def _grown(array, used):
    if used < array.shape[0]:
        return array
    bigger = np.zeros((2 * array.shape[0],) + array.shape[1:], dtype=array.dtype)
    # element by element, not ``bigger[:used] = array[:used]``: a slice assignment
    # compiles Numba's shape-mismatch error (string formatting), seconds of a cold start
    source, target = array.reshape(array.size), bigger.reshape(bigger.size)
    for i in range(used * (array.size // array.shape[0])):
        target[i] = source[i]
    return bigger


@kernel
def _same_deal(a, b):
    for i in range(a.shape[0]):
        if a[i] != b[i]:
            return False
    return True


@kernel
def admits(counts, top_rows, cards):
    """Whether a terminating game of ``cards`` cards goes on the leaderboard ``top_rows``.

    It does while the board has room, and then only when longer than the shortest kept
    (ties go to the earlier deal).  The one admission test of every chunk kernel.
    """
    k = top_rows.shape[0]
    return k > 0 and (counts[C_TOP_FILLED] < k or cards > top_rows[counts[C_TOP_MIN], R_CARDS])


@kernel
def count_win(counts, histogram, cards, winner, whole):
    """Count a won game of ``cards`` cards (``winner`` from 1): its wins and histogram bin,
    and when ``whole`` its deal and cards too (``record_game`` counts those first)."""
    if whole:
        counts[C_DEALS] += 1
        counts[C_CARDS] += cards
    counts[C_WINS + winner - 1] += 1
    histogram[min(cards, HIST_LEN - 1)] += 1


@kernel
def record_game(position, row, deal, counts, histogram, top_positions, top_rows, top_deals):
    """Count one game and keep it on the leaderboard if it is long enough.

    The leaderboard holds distinct deals.

    Loops are counted here but kept by ``record_loop``, which may grow its arrays.
    """
    counts[C_DEALS] += 1
    counts[C_CARDS] += row[R_CARDS]
    outcome = row[R_OUTCOME]
    if outcome == LOOP:
        counts[C_LOOPS] += 1
        return
    if outcome == rules.CAP:
        counts[C_CAPS] += 1
        return
    count_win(counts, histogram, row[R_CARDS], row[R_WINNER], False)
    if not admits(counts, top_rows, row[R_CARDS]):
        return
    k = top_positions.shape[0]
    filled = counts[C_TOP_FILLED]
    for i in range(filled):  # a deal met again (small decks) is kept once, at its first place
        if top_rows[i, R_CARDS] == row[R_CARDS] and _same_deal(top_deals[i], deal):
            return
    if filled < k:
        slot = filled
        counts[C_TOP_FILLED] = filled + 1
    else:
        slot = counts[C_TOP_MIN]
    top_positions[slot] = position
    for i in range(row.shape[0]):  # not slices: see ``_grown``
        top_rows[slot, i] = row[i]
    for i in range(deal.shape[0]):
        top_deals[slot, i] = deal[i]
    if counts[C_TOP_FILLED] == k:  # find the new shortest: fewest cards, latest position
        worst = 0
        for i in range(1, k):
            if (top_rows[i, R_CARDS] < top_rows[worst, R_CARDS]
                    or (top_rows[i, R_CARDS] == top_rows[worst, R_CARDS]
                        and top_positions[i] > top_positions[worst])):
                worst = i
        counts[C_TOP_MIN] = worst


@kernel
def record_loop(position, row, deal, counts, loop_positions, loop_rows, loop_deals):
    """Keep a looping deal; returns the (possibly grown) loop arrays."""
    kept = counts[C_LOOPS_KEPT]
    loop_positions = _grown(loop_positions, kept)
    loop_rows = _grown(loop_rows, kept)
    loop_deals = _grown(loop_deals, kept)
    loop_positions[kept] = position
    for i in range(row.shape[0]):  # not slices: see ``_grown``
        loop_rows[kept, i] = row[i]
    for i in range(deal.shape[0]):
        loop_deals[kept, i] = deal[i]
    counts[C_LOOPS_KEPT] = kept + 1
    return loop_positions, loop_rows, loop_deals


@kernel
def record(position, row, deal, recorder):
    """Record one played game (and keep it if it loops); returns the recorder.

    Unpacked and built again rather than read field by field: measured, that keeps the
    chunk kernels as fast as with plain tuples (reading fields cost 30% on a small deck).
    """
    counts, histogram, top_positions, top_rows, top_deals, loop_pos, loop_rows, loop_deals = (
        recorder)
    record_game(position, row, deal, counts, histogram, top_positions, top_rows, top_deals)
    if row[R_OUTCOME] == LOOP:
        loop_pos, loop_rows, loop_deals = record_loop(
            position, row, deal, counts, loop_pos, loop_rows, loop_deals)
    return Recorder(counts, histogram, top_positions, top_rows, top_deals, loop_pos, loop_rows,
                    loop_deals)


@kernel
def record_rows(first_position, rows, sequences, recorder):
    """Record played games (``rows``, their deals ``sequences``) from ``first_position`` on."""
    for i in range(rows.shape[0]):
        recorder = record(first_position + i, rows[i], sequences[i], recorder)
    return recorder


@kernel
def random_chunk(stream, n_deals, sorted_cards, split, max_tricks, recorder):
    """Play ``n_deals`` uniformly random deals drawn from ``stream`` (any deck, any players)."""
    return random_chunk_with(stream, n_deals, sorted_cards, split, max_tricks, recorder,
                             rules.new_scratch(split.shape[0]))


@inlined_kernel
def random_chunk_with(stream, n_deals, sorted_cards, split, max_tricks, recorder, scratch):
    """``random_chunk`` of the game of ``scratch`` (see ``rules.play_game_with``)."""
    flat = np.zeros((split.shape[0], CAPACITY), dtype=np.uint8)
    row = np.zeros(RESULT_LEN, dtype=np.int64)
    sequence = sorted_cards.copy()
    for position in range(n_deals):
        shuffle(sequence, stream)
        rules.play_dealt(sequence, split, flat, 0, max_tricks, row, scratch)
        recorder = record(position, row, sequence, recorder)
    return recorder


@kernel
def next_deal(sequence):
    """Step to the next ordering in index (lexicographic) order, in place.

    Returns the first place that changed; -1 after the last ordering (unchanged).
    """
    n = sequence.shape[0]
    i = n - 2
    while i >= 0 and sequence[i] >= sequence[i + 1]:
        i -= 1
    if i < 0:
        return -1
    j = n - 1
    while sequence[j] <= sequence[i]:
        j -= 1
    sequence[i], sequence[j] = sequence[j], sequence[i]
    low, high = i + 1, n - 1  # reversed in place (not slices: see ``_grown``)
    while low < high:
        sequence[low], sequence[high] = sequence[high], sequence[low]
        low += 1
        high -= 1
    return i


@kernel
def next_permutation(sequence):
    """Step to the next ordering in lexicographic order; False after the last."""
    return next_deal(sequence) >= 0


@kernel
def enumerate_chunk(first_sequence, n_deals, split, max_tricks, recorder):
    """Play ``n_deals`` consecutive deals in index order, from ``first_sequence``."""
    return enumerate_chunk_with(first_sequence, n_deals, split, max_tricks, recorder,
                                rules.new_scratch(split.shape[0]))


@inlined_kernel
def enumerate_chunk_with(first_sequence, n_deals, split, max_tricks, recorder, scratch):
    """``enumerate_chunk`` of the game of ``scratch`` (see ``rules.play_game_with``)."""
    flat = np.zeros((split.shape[0], CAPACITY), dtype=np.uint8)
    row = np.zeros(RESULT_LEN, dtype=np.int64)
    sequence = first_sequence.copy()
    for position in range(n_deals):
        if position > 0:
            next_permutation(sequence)
        rules.play_dealt(sequence, split, flat, 0, max_tricks, row, scratch)
        recorder = record(position, row, sequence, recorder)
    return recorder


def leaderboard(recorder) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The recorder's leaderboard in its order (positions, rows, deals; copies): cards
    descending, then position ascending."""
    recorder = Recorder(*recorder)
    filled = int(recorder.counts[C_TOP_FILLED])
    positions = recorder.top_positions[:filled]
    order = np.lexsort((positions, -recorder.top_rows[:filled, R_CARDS]))
    return positions[order], recorder.top_rows[:filled][order], recorder.top_deals[:filled][order]


@dataclass
class ChunkSummary:
    """One chunk's results, ready to store (picklable, no kernel state)."""

    deals: int
    loops: int
    caps: int
    cards: int
    wins: np.ndarray  # int64[players]
    histogram: np.ndarray  # int64[HIST_LEN]
    top_positions: np.ndarray
    top_rows: np.ndarray
    top_deals: np.ndarray
    loop_positions: np.ndarray
    loop_rows: np.ndarray
    loop_deals: np.ndarray
    seconds: float = 0.0
    compile_seconds: float = 0.0  # compiling during the chunk (``strategies.execute``)
    cycles: list = field(default_factory=list)  # records.CycleRecord: cycles met as states
    move_stats: list[dict] = field(default_factory=list)  # the factory's tries by move kind
    links: list[tuple[str, str]] = field(default_factory=list)  # the factory: cycle -> known one
    top_families: list = field(default_factory=list)  # merging.Family of each top game (or [])
    # the histogram of the chunk's uniform random sample where that is only part of its
    # games (the climber's random deals); None where it is all of them or none
    sample_histogram: np.ndarray | None = None

    @classmethod
    def of_tries(cls, recorder, players: int, tries: int, loops: int,
                 cycles=()) -> ChunkSummary:
        """The summary of a chunk of tried states (the loop searches): ``tries`` and
        ``loops`` met, the cycles it reports (``records.CycleRecord``), and the looping
        deals ``recorder`` holds."""
        summary = cls.from_recorder(recorder, players)
        summary.deals, summary.loops, summary.cycles = int(tries), int(loops), list(cycles)
        return summary

    @classmethod
    def from_recorder(cls, recorder, players: int, seconds: float = 0.0,
                      top_k: int | None = None) -> ChunkSummary:
        """The summary of a filled recorder; ``top_k`` keeps only the first of the leaderboard."""
        recorder = Recorder(*recorder)
        counts = recorder.counts
        top_positions, top_rows, top_deals = leaderboard(recorder)
        kept = int(counts[C_LOOPS_KEPT])
        return cls(
            deals=int(counts[C_DEALS]),
            loops=int(counts[C_LOOPS]),
            caps=int(counts[C_CAPS]),
            cards=int(counts[C_CARDS]),
            wins=counts[C_WINS:C_WINS + players].copy(),
            histogram=recorder.histogram,
            top_positions=top_positions[:top_k],
            top_rows=top_rows[:top_k],
            top_deals=top_deals[:top_k],
            loop_positions=recorder.loop_positions[:kept].copy(),
            loop_rows=recorder.loop_rows[:kept].copy(),
            loop_deals=recorder.loop_deals[:kept].copy(),
            seconds=seconds,
        )
