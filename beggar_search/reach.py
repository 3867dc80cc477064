"""Reach: every state whose play enters a given cycle, found by playing backwards.

From a looping deal (or any state that loops) the cycle is found by forward
play; then a breadth-first search over predecessors (``engine.backward``) walks
the whole set of trick-boundary states that enter that cycle, the cycle
included.  The fair deals in that set are the deals whose game loops on it.

States are stored packed in a few 64-bit words (the leader and hand sizes in
one word, the cards in base 5, 27 to a word) in an append-only array that is
also the BFS queue; an open-addressing hash table of indices into it finds
states already seen, confirming every hash match by the words themselves.
The search runs in kernel slices so the Python side can watch the clock.

``reach`` is the call for people and the command line; a hunter that holds a
cycle state calls ``reach_state``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from .deck import N_VALUES, Deal, Deck, DeckError, format_hands
from .engine import backward, rules
from .engine.game import as_deal, play_state, state_cycle
from .engine.rules import CAPACITY
from .jit import kernel

CARDS_PER_WORD = 27  # 5**27 < 2**63
SIZE_BITS = 7  # a hand holds at most 64 cards
LEADER_BITS = 4
SLICE = 2048  # states expanded per kernel call, between looks at the clock
INITIAL_CAPACITY = 1 << 12
DEFAULT_MAX_STATES = 20_000_000

# what a search slice stopped on
S_DONE, S_ROOM, S_BUDGET = 0, 1, 2

POW5 = np.array([5**k for k in range(CARDS_PER_WORD)], dtype=np.int64)


def words_per_state(n_cards: int) -> int:
    return 1 + -(-n_cards // CARDS_PER_WORD)


@kernel
def pack_state(flat, sizes, leader, key):
    """Write a state's packed words into ``key``."""
    header = np.int64(leader)
    for p in range(sizes.shape[0]):
        header |= np.int64(sizes[p]) << (LEADER_BITS + SIZE_BITS * p)
    key[0] = header
    word = 1
    digit = 0
    value = np.int64(0)
    for p in range(sizes.shape[0]):
        for i in range(sizes[p]):
            value += np.int64(flat[p, i]) * POW5[digit]
            digit += 1
            if digit == CARDS_PER_WORD:
                key[word] = value
                word += 1
                digit = 0
                value = 0
    while word < key.shape[0]:
        key[word] = value
        value = 0
        word += 1


@kernel
def unpack_state(key, flat, sizes):
    """Hands into ``flat`` and ``sizes`` from packed words; returns the leader."""
    header = key[0]
    word = 1
    digit = 0
    for p in range(sizes.shape[0]):
        sizes[p] = (header >> (LEADER_BITS + SIZE_BITS * p)) & ((1 << SIZE_BITS) - 1)
        for i in range(sizes[p]):
            flat[p, i] = (key[word] // POW5[digit]) % 5
            digit += 1
            if digit == CARDS_PER_WORD:
                word += 1
                digit = 0
    return header & ((1 << LEADER_BITS) - 1)


@kernel
def _key_hash(key):
    h = np.int64(0x2545F4914F6CDD1D)
    for word in key:
        h = (h ^ word) * np.int64(-7046029254386353131)
        h ^= (h >> 29) & 0x7FFFFFFFF
    return h


@kernel
def _lookup(store, table, key):
    """``(slot, index)``: where ``key`` is in the table, or the empty slot it would take."""
    mask = table.shape[0] - 1
    slot = _key_hash(key) & mask
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
    slot, index = _lookup(store, table, key)
    if index < 0:
        table[slot] = count
        store[count, :] = key
    return index


@kernel
def _contains(store, table, key):
    return _lookup(store, table, key)[1] >= 0


@kernel
def _rebuild_table(store, count, table):
    table[:] = -1
    mask = table.shape[0] - 1
    for index in range(count):
        slot = _key_hash(store[index]) & mask
        while table[slot] >= 0:
            slot = (slot + 1) & mask
        table[slot] = index


@kernel
def _search(store, depth, count, table, index, stop, max_states, players):
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
        leader = unpack_state(store[index], flat, sizes)
        n_found = backward.predecessors_into(flat, sizes, leader, found, scratch)
        if n_found > found.leaders.shape[0]:
            found = backward.new_predecessors(2 * n_found, players)
            n_found = backward.predecessors_into(flat, sizes, leader, found, scratch)
        if count + n_found > capacity or 2 * (count + n_found) > table.shape[0]:
            return index, count, S_ROOM
        for k in range(n_found):
            pack_state(found.flat[k], found.sizes[k], found.leaders[k], key)
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


@dataclass
class ReachResult:
    """The set of states that enter one cycle, as far as the search got."""

    cycle: str  # the cycle id, as Result.cycle of any deal that reaches it
    period_tricks: int
    period_cards: int
    states: int  # states found that enter the cycle, the cycle's own included
    depth: int  # most tricks from a state found to the cycle
    complete: bool  # False: a budget stopped the search and the counts are lower bounds
    stopped_by: str | None  # None, "states" or "seconds"
    seconds: float
    deck: str
    players: int
    fair_deals: list[str] = field(default_factory=list)  # even split, player 1 leads
    fair_deals_swapped: list[str] = field(default_factory=list)  # even split, player 2 leads

    def to_dict(self) -> dict:
        return asdict(self)


class _Store:
    """The packed states found so far, their depths, and the hash table over them."""

    def __init__(self, players: int, n_cards: int, capacity: int = INITIAL_CAPACITY):
        self.players = players
        self.words = words_per_state(n_cards)
        self.keys = np.zeros((capacity, self.words), dtype=np.int64)
        self.depth = np.zeros(capacity, dtype=np.int32)
        self.table = np.full(2 * capacity, -1, dtype=np.int64)
        self.count = 0

    def grow(self, at_least: int = 0) -> None:
        capacity = max(2 * self.keys.shape[0], at_least)
        keys = np.zeros((capacity, self.words), dtype=np.int64)
        keys[: self.count] = self.keys[: self.count]
        depth = np.zeros(capacity, dtype=np.int32)
        depth[: self.count] = self.depth[: self.count]
        self.keys, self.depth = keys, depth
        self.table = np.full(2 * capacity, -1, dtype=np.int64)
        _rebuild_table(self.keys, self.count, self.table)

    def add(self, hands, leader: int) -> None:
        if 2 * (self.count + 1) > self.table.shape[0]:
            self.grow()
        flat, sizes = rules.pack_hands(hands)
        key = np.zeros(self.words, dtype=np.int64)
        pack_state(flat, sizes, leader, key)
        if _find_or_add(self.keys, self.count, self.table, key) < 0:
            self.count += 1

    def hands_at(self, index: int) -> tuple[list[list[int]], int]:
        flat = np.zeros((self.players, CAPACITY), dtype=np.uint8)
        sizes = np.zeros(self.players, dtype=np.int64)
        leader = unpack_state(self.keys[index], flat, sizes)
        return [[int(c) for c in flat[p, : sizes[p]]] for p in range(self.players)], int(leader)

    def with_header(self, sizes: Sequence[int], leader: int) -> list[list[list[int]]]:
        flat = np.zeros((self.players, CAPACITY), dtype=np.uint8)
        key = np.zeros(self.words, dtype=np.int64)
        pack_state(flat, np.array(sizes, dtype=np.int64), leader, key)
        return [self.hands_at(int(i))[0] for i in _matching(self.keys, self.count, key[0])]


def backward_closure(starts, n_cards: int, max_states: int | None, seconds: float | None,
                     started: float | None = None):
    """Every state whose play reaches one of ``starts`` (them included), breadth first.

    Returns the store of states (with their depth in tricks back), whether the
    search finished, and which budget stopped it otherwise ("states" or "seconds").
    """
    started = time.perf_counter() if started is None else started
    players = len(starts[0][0])
    limit = max_states if max_states else np.iinfo(np.int64).max
    store = _Store(players, n_cards)
    for hands, leader in starts:
        store.add(hands, leader)
    index, status = 0, S_DONE
    while index < store.count:
        if seconds is not None and time.perf_counter() - started >= seconds:
            break
        index, store.count, status = _search(store.keys, store.depth, store.count, store.table,
                                             index, index + SLICE, limit, players)
        if status == S_ROOM:
            store.grow()
        elif status == S_BUDGET:
            break
    complete = index >= store.count and status != S_BUDGET
    stopped_by = None if complete else ("states" if status == S_BUDGET else "seconds")
    return store, complete, stopped_by


class NoLoop(ValueError):
    """The game given ends (or stops at a cap): there is no cycle to reach."""


def _deck_of(hands, deck: Deck | str | None) -> Deck:
    counts = [0] * N_VALUES
    for hand in hands:
        for card in hand:
            counts[int(card)] += 1
    if deck is None:
        return Deck(tuple(counts))
    deck = deck if isinstance(deck, Deck) else Deck.parse(deck)
    if tuple(counts) != deck.counts:
        raise DeckError(f"the state's cards do not match deck {deck.spec}")
    return deck


def reach_state(hands: Sequence[Sequence[int]], leader: int = 0,
                deck: Deck | str | None = None, max_states: int | None = DEFAULT_MAX_STATES,
                seconds: float | None = None) -> ReachResult:
    """Every state whose play enters the cycle that ``(hands, leader)`` plays into.

    ``hands`` top card first, ``leader`` from 0; any split.  ``deck`` (by default
    the state's own cards) sets the even split of the fair deals.  The search
    stops when it has ``max_states`` states or has run ``seconds``; the result
    then has ``complete`` False.  Raises ``NoLoop`` when the game ends.
    """
    started = time.perf_counter()
    deck = _deck_of(hands, deck)
    players = len(hands)
    split = deck.split(players)
    if not 0 <= leader < players or not hands[leader]:
        raise ValueError(f"leader {leader} does not hold cards in a game of {players} players")
    result = play_state(hands, leader)
    cycle = state_cycle(hands, leader)
    if not cycle:
        raise NoLoop(f"the game ends ({result.outcome}) after {result.cards} cards and "
                     f"{result.tricks} tricks: it does not loop")
    store, complete, stopped_by = backward_closure(cycle, deck.size, max_states, seconds,
                                                   started)
    fair = sorted(format_hands(h) for h in store.with_header(split, 0))
    swapped = []
    if players == 2:
        swapped = sorted(format_hands(h[::-1]) for h in store.with_header(split, 1))
    return ReachResult(
        cycle=result.cycle,
        period_tricks=result.period_tricks,
        period_cards=result.period_cards,
        states=store.count,
        depth=int(store.depth[: store.count].max()) if store.count else 0,
        complete=complete,
        stopped_by=stopped_by,
        seconds=round(time.perf_counter() - started, 3),
        deck=deck.spec,
        players=players,
        fair_deals=fair,
        fair_deals_swapped=swapped,
    )


def reach(deal: Deal | str | Sequence, deck: Deck | str | None = None,
          max_states: int | None = DEFAULT_MAX_STATES,
          seconds: float | None = None) -> ReachResult:
    """``reach_state`` from a deal (notation or hands, player 1 to lead)."""
    deal = as_deal(deal, deck)
    return reach_state(deal.hands, 0, deal.deck, max_states=max_states, seconds=seconds)
