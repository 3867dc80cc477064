"""Backward closure: every trick-boundary state whose play reaches given states.

A breadth-first search over predecessors from a set of start states (a cycle's
states, or a game's trajectory) walks every state whose play enters them, the
starts included.  The game's backward step is ``Step``'s, both played by
``backward.predecessors_into``: Beggar-my-neighbour's (``BMN_STEP``) or Egyptian
ratscrew's under a deterministic slap policy (``ers_step``: rank codes, its slap rules).

States are stored packed in a few 64-bit words (the leader and hand sizes in
one word, the cards in base 5, 27 to a word; ranked cards in base 13, 17 to a
word) in an append-only array that is also the BFS queue; an open-addressing
hash table of indices into it finds states already seen, confirming every hash
match by the words themselves.  The search runs in kernel slices so the Python
side can watch the clock.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..engine import ers, rules
from ..engine.rules import CAPACITY, MIX
from ..jit import kernel
from . import ers_step as ers_backward
from . import step as backward

CARDS_PER_WORD = 27  # 5**27 < 2**63
RANKED_PER_WORD = 17  # 13**17 < 2**63
SIZE_BITS = 7  # a hand holds at most 64 cards
LEADER_BITS = 4
SLICE = 2048  # states expanded per kernel call, between looks at the clock
INITIAL_CAPACITY = 1 << 12

# what a search slice stopped on
S_DONE, S_ROOM, S_BUDGET = 0, 1, 2

POW5 = np.array([5**k for k in range(CARDS_PER_WORD)], dtype=np.int64)
POW13 = np.array([13**k for k in range(RANKED_PER_WORD)], dtype=np.int64)


class Step(NamedTuple):
    """The backward step of a closure's game, as its kernels read it (a Numba named tuple)."""

    ranked: bool  # Egyptian ratscrew (rank codes, slaps) rather than Beggar-my-neighbour
    slaps: ers.Slaps  # its slap rules, a deterministic policy (read only when ranked)
    powers: np.ndarray  # int64: the card digits' place values in a packed word (POW5, POW13)


BMN_STEP = Step(False, backward.no_slaps(), POW5)


def ers_step(slap_rules, players: int) -> Step:
    """Egyptian ratscrew's backward step under ``slap_rules`` (``slaps.SlapRules``, a
    deterministic policy: ``ValueError`` otherwise) for ``players`` players."""
    ers_backward.check_rules(slap_rules)
    return Step(True, ers.slaps_of(slap_rules, players), POW13)


def words_per_state(n_cards: int, step: Step = BMN_STEP) -> int:
    """Number of int64 words a packed state of ``n_cards`` cards takes: a header, then 27 cards a
    word (17 ranked cards)."""
    per_word = step.powers.shape[0]
    return 1 + -(-n_cards // per_word)


@kernel
def predecessors_of(flat, sizes, leader, step, found, scratch):
    """The game's backward step (``backward.predecessors_into``, ratscrew's when
    ``step.ranked``)."""
    return backward.predecessors_into(flat, sizes, leader, step.ranked, step.slaps, found,
                                      scratch)


@kernel
def pack_state(flat, sizes, leader, key, powers):
    """Write a state's packed words into ``key`` (cards as digits of ``powers``)."""
    header = np.int64(leader)
    for p in range(sizes.shape[0]):
        header |= np.int64(sizes[p]) << (LEADER_BITS + SIZE_BITS * p)
    key[0] = header
    per_word = powers.shape[0]
    word = 1
    digit = 0
    value = np.int64(0)
    for p in range(sizes.shape[0]):
        for i in range(sizes[p]):
            value += np.int64(flat[p, i]) * powers[digit]
            digit += 1
            if digit == per_word:
                key[word] = value
                word += 1
                digit = 0
                value = 0
    while word < key.shape[0]:
        key[word] = value
        value = 0
        word += 1


@kernel
def unpack_state(key, flat, sizes, powers):
    """Hands into ``flat`` and ``sizes`` from packed words; returns the leader."""
    header = key[0]
    per_word = powers.shape[0]
    base = powers[1]
    word = 1
    digit = 0
    for p in range(sizes.shape[0]):
        sizes[p] = (header >> (LEADER_BITS + SIZE_BITS * p)) & ((1 << SIZE_BITS) - 1)
        for i in range(sizes[p]):
            flat[p, i] = (key[word] // powers[digit]) % base
            digit += 1
            if digit == per_word:
                word += 1
                digit = 0
    return header & ((1 << LEADER_BITS) - 1)


@kernel
def state_hash(key):
    """Hash of a packed state's words ``key`` (for the hash table)."""
    h = np.int64(0x2545F4914F6CDD1D)
    for word in key:
        h = (h ^ word) * MIX
        h ^= (h >> 29) & 0x7FFFFFFFF
    return h


@kernel
def lookup(store, table, key):
    """``(slot, index)``: where ``key`` is in the table, or the empty slot it would take."""
    mask = table.shape[0] - 1
    slot = state_hash(key) & mask
    width = key.shape[0]
    while True:
        index = table[slot]
        if index < 0:
            return slot, np.int64(-1)
        same = True
        for w in range(width):
            if store[index, w] != key[w]:
                same = False
                break
        if same:
            return slot, index
        slot = (slot + 1) & mask


@kernel
def _find_or_add(store, count, table, key):
    """Index of ``key`` in ``store`` (via ``table``), or -1 after adding it at ``count``."""
    slot, index = lookup(store, table, key)
    if index < 0:
        table[slot] = count
        store[count, :] = key
    return index


@kernel
def _contains(store, table, key):
    return lookup(store, table, key)[1] >= 0


@kernel
def _rebuild_table(store, count, table):
    table[:] = -1
    mask = table.shape[0] - 1
    for index in range(count):
        slot = state_hash(store[index]) & mask
        while table[slot] >= 0:
            slot = (slot + 1) & mask
        table[slot] = index


@kernel
def _search(store, depth, count, table, index, stop, max_states, players, step):
    """Expand states ``index`` .. ``stop - 1`` (the queue grows as it goes).

    Returns ``(index, count, status)``: the next state to expand, the states
    stored, and ``S_DONE`` (slice done or queue empty), ``S_ROOM`` (the store is
    too full to take this state's predecessors: grow it and call again) or
    ``S_BUDGET`` (a new state was met with ``max_states`` already stored).
    """
    flat = np.zeros((players, CAPACITY), dtype=np.uint8)
    sizes = np.zeros(players, dtype=np.int64)
    key = np.zeros(store.shape[1], dtype=np.int64)
    scratch = backward.new_scratch(players)
    found = backward.new_predecessors(backward.INITIAL_ROOM, players)
    capacity = store.shape[0]
    while index < count and index < stop:
        leader = unpack_state(store[index], flat, sizes, step.powers)
        n_found = predecessors_of(flat, sizes, leader, step, found, scratch)
        if n_found > found.leaders.shape[0]:
            found = backward.new_predecessors(2 * n_found, players)
            n_found = predecessors_of(flat, sizes, leader, step, found, scratch)
        if count + n_found > capacity or 2 * (count + n_found) > table.shape[0]:
            return index, count, S_ROOM
        for k in range(n_found):
            pack_state(found.flat[k], found.sizes[k], found.leaders[k], key, step.powers)
            if count >= max_states:
                if not _contains(store, table, key):
                    return index, count, S_BUDGET
                continue
            if _find_or_add(store, count, table, key) < 0:
                depth[count] = depth[index] + 1
                count += 1
        index += 1
    return index, count, S_DONE


@kernel
def _matching(store, count, header):
    """Indices of stored states whose header word (leader and sizes) is ``header``."""
    hits = np.zeros(count, dtype=np.int64)
    found = 0
    for index in range(count):
        if store[index, 0] == header:
            hits[found] = index
            found += 1
    return hits[:found]


@kernel
def _sequences_at(keys, indices, powers, players, n_cards, reverse):
    """The card sequences (hands in player order, or in reverse order) of the stored states
    at ``indices``, each of ``n_cards`` cards, one row each."""
    out = np.zeros((indices.shape[0], n_cards), dtype=np.uint8)
    flat = np.zeros((players, CAPACITY), dtype=np.uint8)
    sizes = np.zeros(players, dtype=np.int64)
    for row in range(indices.shape[0]):
        unpack_state(keys[indices[row]], flat, sizes, powers)
        at = 0
        for q in range(players):
            p = players - 1 - q if reverse else q
            for i in range(sizes[p]):
                out[row, at] = flat[p, i]
                at += 1
    return out


class StateSet:
    """The packed states found so far, their depths, and the hash table over them."""

    def __init__(self, players: int, n_cards: int, capacity: int = INITIAL_CAPACITY,
                 step: Step = BMN_STEP):
        self.players = players
        self.step = step
        self.words = words_per_state(n_cards, step)
        self.keys = np.zeros((capacity, self.words), dtype=np.int64)
        self.depth = np.zeros(capacity, dtype=np.int32)
        self.table = np.full(2 * capacity, -1, dtype=np.int64)
        self.count = 0

    def grow(self, at_least: int = 0) -> None:
        """Make room for ``at_least`` states, or twice the room if that is more; the hash table
        is rebuilt."""
        capacity = max(2 * self.keys.shape[0], at_least)
        keys = np.zeros((capacity, self.words), dtype=np.int64)
        keys[: self.count] = self.keys[: self.count]
        depth = np.zeros(capacity, dtype=np.int32)
        depth[: self.count] = self.depth[: self.count]
        self.keys, self.depth = keys, depth
        self.table = np.full(2 * capacity, -1, dtype=np.int64)
        _rebuild_table(self.keys, self.count, self.table)

    def add(self, hands, leader: int, depth: int = 0) -> None:
        """Add the state of ``hands`` led by ``leader`` at ``depth``, unless it is already in
        the set."""
        if 2 * (self.count + 1) > self.table.shape[0]:
            self.grow()
        flat, sizes = rules.pack_hands(hands)
        key = np.zeros(self.words, dtype=np.int64)
        pack_state(flat, sizes, leader, key, self.step.powers)
        if _find_or_add(self.keys, self.count, self.table, key) < 0:
            self.depth[self.count] = depth
            self.count += 1

    def hands_at(self, index: int) -> tuple[list[list[int]], int]:
        """The hands and leader (from 0) of the state stored at ``index``."""
        flat = np.zeros((self.players, CAPACITY), dtype=np.uint8)
        sizes = np.zeros(self.players, dtype=np.int64)
        leader = unpack_state(self.keys[index], flat, sizes, self.step.powers)
        return [[int(c) for c in flat[p, : sizes[p]]] for p in range(self.players)], int(leader)

    def sequences_at(self, indices: np.ndarray, n_cards: int, reverse: bool = False) -> np.ndarray:
        """The states at ``indices`` (each of ``n_cards`` cards) as card sequences, one row
        each: the hands in player order (``reverse``: the last player's first)."""
        return _sequences_at(self.keys, np.asarray(indices, dtype=np.int64), self.step.powers,
                             self.players, n_cards, reverse)

    def indices_with_header(self, sizes: Sequence[int], leader: int) -> np.ndarray:
        """Where the states with these hand ``sizes`` and ``leader`` are stored."""
        flat = np.zeros((self.players, CAPACITY), dtype=np.uint8)
        key = np.zeros(self.words, dtype=np.int64)
        pack_state(flat, np.array(sizes, dtype=np.int64), leader, key, self.step.powers)
        return _matching(self.keys, self.count, key[0])

    def with_header(self, sizes: Sequence[int], leader: int) -> list[list[list[int]]]:
        """The hands of every stored state with these hand ``sizes`` and ``leader``."""
        return [self.hands_at(int(i))[0] for i in self.indices_with_header(sizes, leader)]


def backward_closure(starts, n_cards: int, max_states: int | None, seconds: float | None,
                     started: float | None = None, step: Step = BMN_STEP,
                     start_depths: Sequence[int] | None = None):
    """Every state whose play reaches one of ``starts`` (them included), breadth first,
    by the backward step ``step`` (Beggar-my-neighbour's by default).

    Returns the store of states (with their depth in tricks back), whether the
    search finished, and which budget stopped it otherwise ("states" or "seconds").
    A state's depth is its start's depth (``start_depths``, 0 without) plus the tricks
    from it to that start: play is deterministic, so a state is met only through the
    state its next trick leads to.  Given a game's trajectory and each state's tricks to
    the game's end, every depth is the tricks from that state to the end.
    """
    started = time.perf_counter() if started is None else started
    players = len(starts[0][0])
    limit = max_states if max_states else np.iinfo(np.int64).max
    store = StateSet(players, n_cards, step=step)
    depths = [0] * len(starts) if start_depths is None else start_depths
    for (hands, leader), depth in zip(starts, depths, strict=True):
        store.add(hands, leader, depth)
    index, status = 0, S_DONE
    while index < store.count:
        if seconds is not None and time.perf_counter() - started >= seconds:
            break
        index, store.count, status = _search(store.keys, store.depth, store.count, store.table,
                                             index, index + SLICE, limit, players, step)
        if status == S_ROOM:
            store.grow()
        elif status == S_BUDGET:
            break
    complete = index >= store.count and status != S_BUDGET
    stopped_by = None if complete else ("states" if status == S_BUDGET else "seconds")
    return store, complete, stopped_by
