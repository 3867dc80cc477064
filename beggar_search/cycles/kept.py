"""States as kernel arrays, the cycles a search keeps, and tried states played in batches.

The loop searches (the hunter, the factory's moves and kicks, the growth of small decks'
cycles) all do one thing with a state they try: play it, and when it loops into a cycle
they did not know, keep one state of that cycle.  This module holds that, once:

- ``StateArrays``-like rows: a state is its cards (hands concatenated, top card first),
  its hand sizes and its leader (``state_arrays``, ``state_hands``);
- ``KeptCycles``: the cycles kept (key, the state met, where it was met, the move), and
  ``keep_cycle``, the one kernel that keeps one;
- ``TriedBatch``: states queued for play and played together (``play_tried``): with the
  bitboard kernel for two players (any split, either leader; games past its limit, which
  hold every loop, are replayed by the exact engine for their cycle), with the exact
  engine otherwise.

The exact engine is either game's (``engine.exact``): the scratch a search passes
(``new_exact``, kept here for its callers, or ``ers.new_exact``) decides which.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..engine import bitboard, rules
from ..engine.bits import PACK, S_LONG
from ..engine.exact import new_exact as new_exact  # re-exported: the searches take it from here
from ..engine.exact import play_exact
from ..engine.rules import LOOP, R_CYCLE, R_OUTCOME
from ..jit import inlined_kernel, kernel

TRIED_BLOCK = 8192  # tried states played together
# a two-player state as five words: the masks of its sequence (hand 1 then hand 2, top card
# first; ``bitboard.masks_from``), hand 1's size, the leader
W_PEN, W_LO, W_HI, W_FIRST, W_LEADER = range(5)
N_WORDS = 5


def state_arrays(states, n: int, players: int) -> StateRows:
    """States ``(hands, leader)`` as the arrays the kernels take: cards, hand sizes, leaders."""
    sequences = np.zeros((len(states), n), dtype=np.uint8)
    sizes = np.zeros((len(states), players), dtype=np.int64)
    leaders = np.zeros(len(states), dtype=np.int64)
    for s, (hands, leader) in enumerate(states):
        sequences[s] = [c for hand in hands for c in hand]
        sizes[s] = [len(hand) for hand in hands]
        leaders[s] = leader
    return StateRows(sequences, sizes, leaders)


def state_hands(sequence, sizes) -> list[list[int]]:
    """The hands of a state laid out as kernel arrays (its cards and hand sizes), as lists:
    the inverse of ``state_arrays`` for one state."""
    return [list(map(int, hand)) for hand in np.split(sequence, np.cumsum(sizes)[:-1])]


class StateRows(NamedTuple):
    """States as kernel arrays (``state_arrays``): row s is state s."""

    sequences: np.ndarray  # uint8 (states, cards): hands concatenated, top card first
    sizes: np.ndarray  # int64 (states, players)
    leaders: np.ndarray  # int64 (states,)


class KeptCycles(NamedTuple):
    """One state of each cycle a search kept, rows 0..kept-1 (``new_kept``)."""

    keys: np.ndarray  # int64: the cycle's key
    sequences: np.ndarray  # uint8 (room, cards): the state met
    sizes: np.ndarray  # int64 (room, players)
    leaders: np.ndarray  # int64
    places: np.ndarray  # int64: where it was met (a try number, or a state of the chunk)
    moves: np.ndarray  # int64: the move number that made the state (-1: none)


def new_kept(room: int, n: int, players: int) -> KeptCycles:
    """Room for ``room`` kept cycles of states of ``n`` cards."""
    return KeptCycles(np.zeros(room, dtype=np.int64), np.zeros((room, n), dtype=np.uint8),
                      np.zeros((room, players), dtype=np.int64), np.zeros(room, dtype=np.int64),
                      np.zeros(room, dtype=np.int64), np.full(room, -1, dtype=np.int64))


def grown(kept: KeptCycles) -> KeptCycles:
    """The same cycles with twice the room."""
    bigger = []
    for array in kept:
        more = np.zeros((2 * array.shape[0],) + array.shape[1:], dtype=array.dtype)
        more[: array.shape[0]] = array
        bigger.append(more)
    return KeptCycles(*bigger)


@kernel
def in_sorted(known, key):
    """Whether ``key`` is in the sorted array ``known``."""
    where = np.searchsorted(known, key)
    return where < known.shape[0] and known[where] == key


@kernel
def is_new_cycle(known, kept_keys, kept, key):
    """Whether a cycle key is neither in ``known`` (sorted) nor among ``kept_keys[:kept]``."""
    if in_sorted(known, key):
        return False
    for f in range(kept):
        if kept_keys[f] == key:
            return False
    return True


@kernel
def keep_cycle(cycles, kept, key, sequence, sizes, leader, place, move):
    """Keep a state met of cycle ``key`` at row ``kept`` of ``cycles`` (a ``KeptCycles``);
    returns the new count (unchanged when the rows are full)."""
    if kept >= cycles.keys.shape[0]:
        return kept
    cycles.keys[kept] = key
    cycles.sequences[kept, :] = sequence
    cycles.sizes[kept, :] = sizes
    cycles.leaders[kept] = leader
    cycles.places[kept] = place
    cycles.moves[kept] = move
    return kept + 1


@kernel
def low_bits(k):
    """The mask of bits 0..k-1 (k from 0 to 63)."""
    return (np.int64(1) << k) - 1


@kernel
def state_words(sequence, first, leader, words):
    """A two-player state's five words (``sequence``: hand 1 then hand 2)."""
    words[W_PEN], words[W_LO], words[W_HI] = bitboard.masks_from(sequence, 0, 0, 0, 0)
    words[W_FIRST] = first
    words[W_LEADER] = leader


@kernel
def laid_masks(words, n):
    """(pen, lo, hi, first) with the leader's hand laid first, as ``bitboard.play_splits``
    takes a state of ``n`` cards."""
    pen, lo, hi, first = words[W_PEN], words[W_LO], words[W_HI], words[W_FIRST]
    if words[W_LEADER] == 0:
        return pen, lo, hi, first
    second = n - first
    low, high = low_bits(first), low_bits(second)
    return (((pen >> first) & high) | ((pen & low) << second),
            ((lo >> first) & high) | ((lo & low) << second),
            ((hi >> first) & high) | ((hi & low) << second), second)


@kernel
def play_and_keep(state, sizes, leader, exact, counts, cycles, kept):
    """Play a state with the exact engine (``exact``: ``new_exact``, or ``ers.new_exact``
    for ratscrew); when it loops into a cycle not kept yet, keep it (``counts`` gets
    [tries, loops]).  Returns the cycles kept."""
    rules.deal_out(state, sizes, exact.flat)
    play_exact(exact, sizes, leader)
    counts[0] += 1
    if exact.row[R_OUTCOME] != LOOP:
        return kept
    counts[1] += 1
    key = exact.row[R_CYCLE]
    if not is_new_cycle(cycles.keys[:0], cycles.keys, kept, key):
        return kept
    return keep_cycle(cycles, kept, key, state, sizes, leader, counts[0] - 1, -1)


class TriedBatch(NamedTuple):
    """States queued to be played together, rows 0..count-1 (``new_tried``).

    After ``play_tried``, ``keys[i]`` is the cycle state i loops into (0: its game ends).
    """

    sequences: np.ndarray  # uint8 (room, cards)
    sizes: np.ndarray  # int64 (room, players)
    leaders: np.ndarray  # int64
    keys: np.ndarray  # int64
    pens: np.ndarray  # the bitboard kernel's masks (room + 1: a dummy deal last)
    los: np.ndarray
    his: np.ndarray
    firsts: np.ndarray
    packed: np.ndarray
    words: np.ndarray  # int64 (room, N_WORDS) for the bitboard kernel, (0, N_WORDS) when
    # the exact engine plays the batch
    moves: np.ndarray  # int64: what the caller tags each state with (a move, a try)
    slots: np.ndarray  # int64: a second tag (the factory: the state's row of states tried)


@kernel
def new_tried(room, n, players, fast):
    """A ``TriedBatch`` with room for ``room`` states of ``n`` cards (``fast``: with their
    masks for the bitboard kernel)."""
    pens, los, his, packed = bitboard.new_masks(room)
    return TriedBatch(np.zeros((room, n), dtype=np.uint8),
                      np.zeros((room, players), dtype=np.int64),
                      np.zeros(room, dtype=np.int64), np.zeros(room, dtype=np.int64),
                      pens, los, his, np.ones(room + 1, dtype=np.int64), packed,
                      np.zeros((room if fast else 0, N_WORDS), dtype=np.int64),
                      np.zeros(room, dtype=np.int64),
                      np.zeros(room, dtype=np.int64))


@inlined_kernel
def queue_tried(batch, count, sequence, sizes, leader, move, slot):
    """Queue a state at row ``count`` of ``batch`` tagged ``move`` and ``slot``; returns
    ``count + 1``.  A batch for the bitboard kernel also gets the state's words.  Inlined,
    its rows copied one by one, as ``queue_words``."""
    for k in range(sequence.shape[0]):
        batch.sequences[count, k] = sequence[k]
    for k in range(sizes.shape[0]):
        batch.sizes[count, k] = sizes[k]
    batch.leaders[count] = leader
    if batch.words.shape[0] > 0:
        state_words(sequence, sizes[0], leader, batch.words[count])
        _lay(batch, count)
    batch.moves[count] = move
    batch.slots[count] = slot
    return count + 1


@inlined_kernel
def queue_words(batch, count, words, move, slot):
    """Queue a two-player state given as its words (``state_words``) for the bitboard
    kernel; its cards are laid out only if its game must be replayed.  Inlined, and the
    words copied one by one: called for every kick and every walk move, a call passing
    ``batch`` (a named tuple of 13 arrays) with a slice copy took 150 ns, the inlined
    form 5 (``benchmarks/bench_factory_parts.py``)."""
    for k in range(N_WORDS):
        batch.words[count, k] = words[k]
    batch.leaders[count] = words[W_LEADER]
    _lay(batch, count)
    batch.moves[count] = move
    batch.slots[count] = slot
    return count + 1


@kernel
def _lay(batch, count):
    n = batch.sequences.shape[1]
    batch.pens[count], batch.los[count], batch.his[count], batch.firsts[count] = laid_masks(
        batch.words[count], n)


@kernel
def tried_key(words, key):
    """A two-player state's four words of identity (masks, hand 1's size and the leader)."""
    key[0] = words[W_PEN]
    key[1] = words[W_LO]
    key[2] = words[W_HI]
    key[3] = words[W_FIRST] | (words[W_LEADER] << 8)


@kernel
def _lay_cards(batch, i, n):
    """A state queued as words, laid out as cards and hand sizes for the exact engine."""
    words = batch.words[i]
    bitboard.to_sequence(words[W_PEN], words[W_LO], words[W_HI], batch.sequences[i])
    batch.sizes[i, 0] = words[W_FIRST]
    batch.sizes[i, 1] = n - words[W_FIRST]


@kernel
def _exact_key(batch, i, exact):
    rules.deal_out(batch.sequences[i], batch.sizes[i], exact.flat)
    play_exact(exact, batch.sizes[i], batch.leaders[i])
    if exact.row[R_OUTCOME] == LOOP:
        return exact.row[R_CYCLE]
    return np.int64(0)


@kernel
def play_tried(batch, count, exact, fast):
    """Play the queued states 0..count-1; ``batch.keys`` gets each one's cycle (0: ends),
    and each one queued as words gets its cards and hand sizes if it loops.

    ``fast``: two players on the bitboard kernel (the states' words); a game it gives back
    unfinished (past ``bitboard.LONG_TRICKS`` tricks: every loop, and the rare very long
    game) is replayed by the exact engine, so the keys are the exact engine's.  Otherwise
    every state is played by the exact engine.
    """
    if count == 0:
        return
    n = batch.sequences.shape[1]
    if not fast:
        for i in range(count):
            if batch.words.shape[0] > 0:
                _lay_cards(batch, i, n)
            batch.keys[i] = _exact_key(batch, i, exact)
        return
    batch.pens[count], batch.los[count], batch.his[count] = batch.pens[0], batch.los[0], \
        batch.his[0]
    batch.firsts[count] = batch.firsts[0]
    bitboard.play_splits(batch.pens, batch.los, batch.his, batch.firsts, count, n,
                         bitboard.LONG_TRICKS, batch.packed)
    for i in range(count):
        if batch.packed[i] >> (2 * PACK) == S_LONG:
            _lay_cards(batch, i, n)
            batch.keys[i] = _exact_key(batch, i, exact)
        else:
            batch.keys[i] = 0


@kernel
def keep_new_cycles(batch, count, known, cycles, kept, counts):
    """After ``play_tried``: keep, in order, each state of ``batch`` (rows 0..count-1) that
    loops into a cycle neither in ``known`` nor kept yet, tagged with its ``moves`` and
    ``slots`` (``keep_cycle``: at most the room of ``cycles``); ``counts[1]`` gets the
    loops.  Returns the cycles kept and how many new ones were met (kept or not)."""
    new = 0
    for q in range(count):
        key = batch.keys[q]
        if key == 0:
            continue
        counts[1] += 1
        if not is_new_cycle(known, cycles.keys, kept, key):
            continue
        new += 1
        kept = keep_cycle(cycles, kept, key, batch.sequences[q], batch.sizes[q],
                          batch.leaders[q], batch.moves[q], batch.slots[q])
    return kept, new
