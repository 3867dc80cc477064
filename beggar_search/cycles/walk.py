"""The factory's walk: every move of a list of states, played, as one kernel (``expand``).

Each distinct state the moves give is played once; every loop into a cycle that the run
does not know keeps the state met (the first of each cycle), and a loop into a known
cycle other than the state's own is a link (the islands).  Two-player states are moved on
their masks (``maskmoves``, O(1) a move) and played in batches on the bitboard kernel
(``cycles.play_tried``); other states by the exact engine, with a memo of the states
played (a game that reaches one within ``MEMO_TRICKS`` tricks takes its outcome).
The exact engine plays the game of the scratch ``exact`` (``engine.exact``): Egyptian
ratscrew's states take this path whatever the players (masks hold values, not ranks).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..backward.closure import lookup  # the set of states tried is a table as closure's states
from ..engine import rules
from ..engine.exact import play_exact, trick_exact
from ..jit import kernel
from .kept import (
    in_sorted,
    is_new_cycle,
    keep_cycle,
    play_tried,
    queue_words,
    state_words,
    tried_key,
)
from .maskmoves import apply_masks
from .moves import apply_counted, decode_counted, kind_counts, move_count

# stats layout: per kind, moves tried / loops met / new cycles met
ST_TRIES, ST_LOOPS, ST_NEW = range(3)
MEMO_TRICKS = 2  # tricks a game is followed looking for a state tried already


class Seen(NamedTuple):
    """The distinct states a chunk has tried (``seen_scratch``): a hash table of rows into
    ``rows``, each row's cycle key (0: its game ends) and whether it loops.  A row is the
    state's cards, hand sizes and leader (uint8), or for the fast path its four words
    (``cycles.tried_key``)."""

    table: np.ndarray
    rows: np.ndarray
    keys: np.ndarray
    loops: np.ndarray


class Links(NamedTuple):
    """Loops from a state into a known cycle other than its own: (item, key) rows."""

    items: np.ndarray
    keys: np.ndarray


# expand's cursor (int64[4]): the next state, cycles kept, rows of Seen used, links kept
X_ITEM, X_KEPT, X_USED, X_LINKS = range(4)


def seen_scratch(n: int, players: int, config: np.ndarray, states: int, fast: bool) -> Seen:
    """Scratch for ``expand`` over ``states`` states: the table and rows of states tried,
    and each one's outcome.  ``fast``: rows of four words, for one state's moves at a time
    (a table that stays in cache; the moves of two states of a cycle give the same state
    about once in 400 distinct ones, which is then played twice)."""
    moves = int(move_count(n, players, config)) * (1 if fast else max(1, states))
    table = np.full(1 << max(4, (2 * moves).bit_length()), -1, dtype=np.int64)
    rows = (np.zeros((moves, 4), dtype=np.int64) if fast
            else np.zeros((moves, n + players + 1), dtype=np.uint8))
    return Seen(table, rows, np.zeros(moves, dtype=np.int64), np.zeros(moves, dtype=np.uint8))


def new_links(room: int) -> Links:
    """Empty ``Links`` with room for ``room`` rows."""
    return Links(np.zeros(room, dtype=np.int64), np.zeros(room, dtype=np.int64))


def grown_links(links: Links) -> Links:
    """``links`` with twice the room, its rows kept."""
    return Links(*(np.concatenate([a, np.zeros_like(a)]) for a in links))


@kernel
def _state_row(hands, head, size, info, n, row):
    """A kernel state (ring buffers) as a row: cards, hand sizes, leader."""
    players = size.shape[0]
    w = 0
    for p in range(players):
        for i in range(size[p]):
            row[w] = hands[p, (head[p] + i) & rules.RING]
            w += 1
    for p in range(players):
        row[n + p] = size[p]
    row[n + players] = info[rules.I_LEADER]


@kernel
def _memo_key(sequence, sizes, leader, seen, own, exact, state, pile, trick_row):
    """The cycle a state's game loops into (0 when it ends), by the exact engine (either
    game's: ``exact``'s, see ``engine.exact``).

    Its first ``MEMO_TRICKS`` tricks are played looking for a state tried already
    (rows of ``seen`` other than ``own``): the outcome is then that state's.
    """
    n = sequence.shape[0]
    hands, head, size, hashes, out, info = state
    rules.deal_out(sequence, sizes, exact.flat)
    rules.load_state(exact.flat, sizes, leader, hands, head, size, hashes, out, info)
    for _ in range(MEMO_TRICKS):
        if info[rules.I_IN] <= 1:
            break
        trick_exact(exact, state, pile)
        if info[rules.I_IN] <= 1:
            break
        _state_row(hands, head, size, info, n, trick_row)
        index = lookup(seen.rows, seen.table, trick_row)[1]
        if index >= 0 and index != own:
            return seen.keys[index]
    play_exact(exact, sizes, leader)
    if exact.row[rules.R_OUTCOME] == rules.LOOP:
        return exact.row[rules.R_CYCLE]
    return np.int64(0)


@kernel
def _account(cursor, key, move, kind, sequence, sizes, leader, own_key, known, found, stats,
             links):
    """Count a tried state's outcome (``key``: its cycle, 0 when it ends); keep a new cycle
    (place: the state ``cursor[X_ITEM]``, and the move), or a link into a known one."""
    if key == 0:
        return
    stats[kind, ST_LOOPS] += 1
    item = cursor[X_ITEM]
    if not is_new_cycle(known, found.keys, cursor[X_KEPT], key):
        if key != own_key and in_sorted(known, key):
            for k in range(cursor[X_LINKS] - 1, -1, -1):
                if links.items[k] != item:
                    break
                if links.keys[k] == key:
                    return
            links.items[cursor[X_LINKS]] = item
            links.keys[cursor[X_LINKS]] = key
            cursor[X_LINKS] += 1
        return
    stats[kind, ST_NEW] += 1
    cursor[X_KEPT] = keep_cycle(found, cursor[X_KEPT], key, sequence, sizes, leader, item, move)


@kernel
def _state_key(sequence, sizes, leader, row):
    """A state as a row of ``Seen`` (the exact engine's path): cards, sizes, leader."""
    n = sequence.shape[0]
    players = sizes.shape[0]
    row[:n] = sequence
    for p in range(players):
        row[n + p] = sizes[p]
    row[n + players] = leader


@kernel
def _remember(seen, used, row):
    """Add the state ``row`` to ``seen`` at row ``used``; False when it was there already."""
    slot, index = lookup(seen.rows, seen.table, row)
    if index >= 0:
        return False
    seen.table[slot] = used
    seen.rows[used, :] = row
    return True


@kernel
def expand(states, own_keys, config, known, cursor, found, stats, seen, links, tried, exact,
           fast):
    """Play every move of every state of ``states`` (``StateRows``), from state
    ``cursor[X_ITEM]`` on.

    A state that moves give more than once is played once (``seen``, rows
    ``cursor[X_USED]`` on free; with ``fast``, within the moves of one state).  With
    ``fast`` (two players) a state's moves are made on its masks and the moved states
    played together on the bitboard kernel (``cycles.play_tried``; scratch ``tried`` with
    room for one state's moves); otherwise
    by the exact engine, where a game that reaches a state played already within
    ``MEMO_TRICKS`` tricks takes its outcome (list a cycle's states backwards in play
    order and most moves of a state are moves of the one after it, one trick later).
    Each loop into a cycle neither in ``known`` (sorted) nor kept already is kept in
    ``found`` (``KeptCycles``; places are states, with the move number).  A loop into a
    known cycle other than ``own_keys[s]`` (state s's own) is a link, kept once per state
    in ``links``.  ``stats`` (int64[N_KINDS, 3]) counts the distinct states tried, loops
    and new cycles by kind.  Stops before a state whose moves could fill ``found`` or
    ``links`` (grow them and call again); ``cursor[X_ITEM]`` is ``len(states)`` when done.
    """
    sequences, sizes, leaders = states
    n = sequences.shape[1]
    total = move_count(n, sizes.shape[1], config)
    counts = kind_counts(n, sizes.shape[1], config)
    while cursor[X_ITEM] < sequences.shape[0]:
        if (cursor[X_KEPT] + total > found.keys.shape[0]
                or cursor[X_LINKS] + total > links.keys.shape[0]):
            return
        if fast:
            _expand_masks(states, own_keys, config, counts, known, cursor, found, stats, seen,
                          links, tried, exact)
        else:
            _expand_exact(states, own_keys, config, counts, known, cursor, found, stats, seen,
                          links, exact)
        cursor[X_ITEM] += 1


@kernel
def _expand_masks(states, own_keys, config, counts, known, cursor, found, stats, seen, links,
                  tried, exact):
    """Every move of state ``cursor[X_ITEM]`` (two players), on masks, played together."""
    sequences, sizes, leaders = states
    n = sequences.shape[1]
    item = cursor[X_ITEM]
    params = np.zeros(4, dtype=np.int64)
    words = np.zeros(5, dtype=np.int64)
    moved = np.zeros(5, dtype=np.int64)
    key = np.zeros(4, dtype=np.int64)
    state_words(sequences[item], sizes[item, 0], leaders[item], words)
    seen.table[:] = -1  # the states this state's moves give (a table that fits in cache)
    queued = 0
    for move in range(move_count(n, 2, config)):
        kind = decode_counted(n, 2, move, config, counts, params)
        if not apply_masks(words, n, kind, params, moved):
            continue
        tried_key(moved, key)
        if not _remember(seen, queued, key):
            continue
        stats[kind, ST_TRIES] += 1
        queued = queue_words(tried, queued, moved, move, queued)
    play_tried(tried, queued, exact, True)
    for q in range(queued):
        outcome = tried.keys[q]
        if outcome != 0:
            kind = decode_counted(n, 2, tried.moves[q], config, counts, params)
            _account(cursor, outcome, tried.moves[q], kind, tried.sequences[q],
                     tried.sizes[q], tried.leaders[q], own_keys[item], known, found, stats,
                     links)


@kernel
def _expand_exact(states, own_keys, config, counts, known, cursor, found, stats, seen, links,
                  exact):
    """Every move of state ``cursor[X_ITEM]``, each played by the exact engine (memo)."""
    sequences, sizes, leaders = states
    players = sizes.shape[1]
    n = sequences.shape[1]
    item = cursor[X_ITEM]
    out = np.zeros(n, dtype=np.uint8)
    out_sizes = np.zeros(players, dtype=np.int64)
    params = np.zeros(4, dtype=np.int64)
    start_row = np.zeros(n + players + 1, dtype=np.uint8)
    trick_row = np.zeros(n + players + 1, dtype=np.uint8)
    state = rules.new_state(players)
    pile = rules.new_pile()
    for move in range(move_count(n, players, config)):
        new_leader = apply_counted(sequences[item], sizes[item], leaders[item], move, config,
                                   counts, out, out_sizes, params)
        if new_leader < 0:
            continue
        _state_key(out, out_sizes, new_leader, start_row)
        used = cursor[X_USED]
        if not _remember(seen, used, start_row):
            continue
        cursor[X_USED] += 1
        stats[params[3], ST_TRIES] += 1
        outcome = _memo_key(out, out_sizes, new_leader, seen, used, exact, state, pile,
                            trick_row)
        seen.keys[used] = outcome
        seen.loops[used] = outcome != 0
        _account(cursor, outcome, move, params[3], out, out_sizes, new_leader, own_keys[item],
                 known, found, stats, links)
