"""Moves in the space of states, as kernels: every small change of a trick-boundary state.

A state is its cards (hands concatenated, top card first), its hand sizes and its
leader.  The moves of a state are numbered from 0, kind by kind in the order of
``MOVE_NAMES``, so a move is one integer and a range of moves is a piece of work:

- ``swap``: exchange two cards of different values (pairs i < j of places);
- ``card``: take one card out and put it back at any place of any hand;
- ``block``: the same with a run of ``block_min``..``block_max`` consecutive cards
  of one hand, put back in the same hand or another;
- ``leader``: another player leads;
- ``split``: move the boundary between two neighbouring hands to another place.

A move that gives back the state itself, leaves a hand empty or (a swap) exchanges
two cards of one value is not a move: ``apply_move`` returns -1 for it.
``expand`` plays every move of a list of states and keeps the first state met of
each cycle that a list of known cycles does not hold.
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel
from . import rules
from .closure import _lookup  # the set of states tried is a table as closure's states
from .rules import CAPACITY, LOOP, R_CYCLE, R_OUTCOME, RESULT_LEN

MOVE_NAMES = ("swap", "card", "block", "leader", "split")
M_SWAP, M_CARD, M_BLOCK, M_LEADER, M_SPLIT = range(len(MOVE_NAMES))
N_KINDS = len(MOVE_NAMES)
DEFAULT_MOVES = MOVE_NAMES
DEFAULT_BLOCKS = (2, 20)

# config layout: a bit per enabled kind, then the block lengths
CFG_KINDS, CFG_BLOCK_MIN, CFG_BLOCK_MAX = range(3)
CFG_LEN = 3

# stats layout: per kind, moves tried / loops met / new cycles met
ST_TRIES, ST_LOOPS, ST_NEW = range(3)
MEMO_TRICKS = 2  # tricks a game is followed looking for a state tried already


def move_config(kinds=DEFAULT_MOVES, blocks=DEFAULT_BLOCKS) -> np.ndarray:
    """The config array of a move set: kind names and (shortest, longest) block."""
    config = np.zeros(CFG_LEN, dtype=np.int64)
    for name in kinds:
        config[CFG_KINDS] |= 1 << MOVE_NAMES.index(name)
    config[CFG_BLOCK_MIN] = max(2, int(blocks[0]))
    config[CFG_BLOCK_MAX] = int(blocks[1])
    return config


@kernel
def kind_count(kind, n, players, config):
    """How many move numbers kind ``kind`` takes for a state of ``n`` cards."""
    if (config[CFG_KINDS] >> kind) & 1 == 0:
        return np.int64(0)
    if kind == M_SWAP:
        return np.int64(n * (n - 1) // 2)
    if kind == M_CARD:
        return np.int64(n * (n - 1 + players))
    if kind == M_BLOCK:
        total = np.int64(0)
        for length in range(config[CFG_BLOCK_MIN], min(config[CFG_BLOCK_MAX], n - 1) + 1):
            total += n * (n - length + players)
        return total
    if kind == M_LEADER:
        return np.int64(players - 1)
    return np.int64((players - 1) * (n - 1))


@kernel
def move_count(n, players, config):
    """Move numbers of a state of ``n`` cards (some of them not moves: see ``apply_move``)."""
    total = np.int64(0)
    for kind in range(N_KINDS):
        total += kind_count(kind, n, players, config)
    return total


@kernel
def decode_move(n, players, index, config, params):
    """The kind of move number ``index``; its parameters go into ``params[0:3]``.

    swap: (i, j) places; card and block: (length, first place, target slot);
    leader: (players to advance,); split: (boundary, new cut place).
    """
    for kind in range(N_KINDS):
        count = kind_count(kind, n, players, config)
        if index >= count:
            index -= count
            continue
        if kind == M_SWAP:
            i = np.int64(0)
            row = n - 1
            while index >= row:
                index -= row
                i += 1
                row -= 1
            params[0] = i
            params[1] = i + 1 + index
        elif kind == M_CARD:
            slots = n - 1 + players
            params[0] = 1
            params[1] = index // slots
            params[2] = index % slots
        elif kind == M_BLOCK:
            length = config[CFG_BLOCK_MIN]
            while True:
                size = n * (n - length + players)
                if index < size:
                    break
                index -= size
                length += 1
            slots = n - length + players
            params[0] = length
            params[1] = index // slots
            params[2] = index % slots
        elif kind == M_LEADER:
            params[0] = index + 1
        else:
            params[0] = index // (n - 1)
            params[1] = index % (n - 1) + 1
        return kind
    return np.int64(-1)


@kernel
def _move_block(sequence, sizes, length, first, slot, out, out_sizes):
    """Cut ``length`` cards at ``first`` (inside one hand) and insert them at ``slot``.

    Slots number the places of the hands left after the cut, hand by hand, each
    hand of m cards having m + 1.  False when the block straddles two hands.
    """
    players = sizes.shape[0]
    start = np.int64(0)
    hand = -1
    for p in range(players):
        if start <= first < start + sizes[p]:
            hand = p
            break
        start += sizes[p]
    if hand < 0 or first + length > start + sizes[hand]:
        return False
    for p in range(players):
        out_sizes[p] = sizes[p]
    out_sizes[hand] -= length
    target = -1
    place = np.int64(0)  # where the slot is among the cards left
    for p in range(players):
        if slot <= out_sizes[p]:
            target = p
            place += slot
            break
        slot -= out_sizes[p] + 1
        place += out_sizes[p]
    if target < 0:
        return False
    out_sizes[target] += length
    n = sequence.shape[0]
    write = 0
    read = 0
    while write < n:
        if write == place:
            for k in range(length):
                out[write] = sequence[first + k]
                write += 1
            continue
        if read == first:
            read += length
        out[write] = sequence[read]
        write += 1
        read += 1
    return True


@kernel
def apply_move(sequence, sizes, leader, index, config, out, out_sizes, params):
    """Apply move number ``index`` to a state; returns the new leader, or -1 if no move.

    ``params`` (int64[4]) receives the move's parameters and, last, its kind.
    """
    n = sequence.shape[0]
    players = sizes.shape[0]
    kind = decode_move(n, players, index, config, params)
    params[3] = kind
    new_leader = leader
    if kind == M_SWAP:
        i, j = params[0], params[1]
        if sequence[i] == sequence[j]:
            return np.int64(-1)
        out[:] = sequence
        out[i], out[j] = sequence[j], sequence[i]
        out_sizes[:] = sizes
        return np.int64(leader)
    if kind == M_CARD or kind == M_BLOCK:
        if not _move_block(sequence, sizes, params[0], params[1], params[2], out, out_sizes):
            return np.int64(-1)
    elif kind == M_LEADER:
        out[:] = sequence
        out_sizes[:] = sizes
        new_leader = (leader + params[0]) % players
    elif kind == M_SPLIT:
        boundary, cut = params[0], params[1]
        out[:] = sequence
        out_sizes[:] = sizes
        low = np.int64(0)
        for p in range(boundary):
            low += sizes[p]
        old = low + sizes[boundary]
        high = old + sizes[boundary + 1]
        if cut <= low or cut >= high or cut == old:
            return np.int64(-1)
        out_sizes[boundary] = cut - low
        out_sizes[boundary + 1] = high - cut
    else:
        return np.int64(-1)
    for p in range(players):
        if out_sizes[p] < 1:
            return np.int64(-1)
    if new_leader == leader:
        same = True
        for p in range(players):
            if out_sizes[p] != sizes[p]:
                same = False
        if same:
            for i in range(n):
                if out[i] != sequence[i]:
                    same = False
                    break
        if same:
            return np.int64(-1)
    return np.int64(new_leader)


@kernel
def _known(known, key):
    where = np.searchsorted(known, key)
    return where < known.shape[0] and known[where] == key


@kernel
def is_new_cycle(known, found_keys, kept, key):
    """Whether a cycle key is neither in ``known`` (sorted) nor among ``found_keys[:kept]``."""
    if _known(known, key):
        return False
    for f in range(kept):
        if found_keys[f] == key:
            return False
    return True


def seen_scratch(n: int, players: int, config: np.ndarray, states: int):
    """Scratch for ``expand`` over ``states`` states: the table and rows of states tried,
    and each one's outcome."""
    moves = int(move_count(n, players, config)) * max(1, states)
    table = np.full(1 << max(4, (2 * moves).bit_length()), -1, dtype=np.int64)
    return (table, np.zeros((moves, n + players + 1), dtype=np.uint8),
            np.zeros(moves, dtype=np.int64), np.zeros(moves, dtype=np.uint8))


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
def _outcome(flat, sizes, leader, n, state, pile, trick_row, table, rows, keys, loops, own,
             result, scratch):
    """Whether a state's game loops, and into which cycle (0 when it ends).

    Its first ``MEMO_TRICKS`` tricks are played looking for a state tried already
    (``rows`` other than ``own``): the outcome is then that state's.
    """
    hands, head, size, hashes, out, info = state
    rules.load_state(flat, sizes, leader, hands, head, size, hashes, out, info)
    for _ in range(MEMO_TRICKS):
        if info[rules.I_IN] <= 1:
            break
        rules.play_trick(hands, head, size, hashes, out, info, pile)
        if info[rules.I_IN] <= 1:
            break
        _state_row(hands, head, size, info, n, trick_row)
        index = _lookup(rows, table, trick_row)[1]
        if index >= 0 and index != own:
            return loops[index] == 1, keys[index]
    rules.play_game_with(flat, sizes, leader, 0, result, scratch)
    if result[R_OUTCOME] == LOOP:
        return True, result[R_CYCLE]
    return False, np.int64(0)


@kernel
def expand(sequences, sizes, leaders, own_keys, config, known, item, kept, found_keys,
           found_sequences, found_sizes, found_leaders, found_items, found_moves, stats,
           seen_table, seen_rows, seen_keys, seen_loops, used, link_items, link_keys, links):
    """Play every move of every state ``s``, from state ``item`` on.

    State ``s`` is ``sequences[s]`` dealt as ``sizes[s]`` with ``leaders[s]`` to lead.
    A state that moves give more than once is played once (``seen_*``: scratch from
    ``seen_scratch``, ``used`` rows of it filled), and a game that reaches a state
    played already within ``MEMO_TRICKS`` tricks takes its outcome: list a cycle's
    states backwards in play order and most moves of a state are moves of the one
    after it, one trick later.  Each loop into a cycle whose key is neither in
    ``known`` (sorted) nor kept already is kept (``kept`` so far): its key, the state
    played, the item and the move number.  A loop into a known cycle other than
    ``own_keys[s]`` (state s's own) is a link: (item, key) kept once per item in
    ``link_*`` (``links`` so far).  ``stats`` (int64[N_KINDS, 3]) counts the distinct
    states tried, loops and new cycles by kind.  Returns ``(item, kept, used, links)``:
    the first state not expanded when the found or link arrays could fill up before
    its end (call again with them grown), or ``len(sequences)`` when done.
    """
    players = sizes.shape[1]
    n = sequences.shape[1]
    out = np.zeros(n, dtype=np.uint8)
    out_sizes = np.zeros(players, dtype=np.int64)
    params = np.zeros(4, dtype=np.int64)
    flat = np.zeros((players, CAPACITY), dtype=np.uint8)
    result = np.zeros(RESULT_LEN, dtype=np.int64)
    start_row = np.zeros(n + players + 1, dtype=np.uint8)
    trick_row = np.zeros(n + players + 1, dtype=np.uint8)
    state = rules.new_state(players)
    scratch = rules.new_scratch(players)
    pile = rules.new_pile()
    total = move_count(n, players, config)
    while item < sequences.shape[0]:
        if kept + total > found_keys.shape[0] or links + total > link_keys.shape[0]:
            return item, kept, used, links
        for move in range(total):
            new_leader = apply_move(sequences[item], sizes[item], leaders[item], move, config,
                                    out, out_sizes, params)
            if new_leader < 0:
                continue
            start_row[:n] = out
            for p in range(players):
                start_row[n + p] = out_sizes[p]
            start_row[n + players] = new_leader
            slot, index = _lookup(seen_rows, seen_table, start_row)
            if index >= 0:
                continue
            seen_table[slot] = used
            seen_rows[used, :] = start_row
            kind = params[3]
            stats[kind, ST_TRIES] += 1
            rules.deal_out(out, out_sizes, flat)
            loop, key = _outcome(flat, out_sizes, new_leader, n, state, pile, trick_row,
                                 seen_table, seen_rows, seen_keys, seen_loops, used, result,
                                 scratch)
            seen_keys[used] = key
            seen_loops[used] = 1 if loop else 0
            used += 1
            if not loop:
                continue
            stats[kind, ST_LOOPS] += 1
            if not is_new_cycle(known, found_keys, kept, key):
                if key != own_keys[item] and _known(known, key):
                    fresh = True
                    for k in range(links - 1, -1, -1):
                        if link_items[k] != item:
                            break
                        if link_keys[k] == key:
                            fresh = False
                            break
                    if fresh:
                        link_items[links] = item
                        link_keys[links] = key
                        links += 1
                continue
            stats[kind, ST_NEW] += 1
            found_keys[kept] = key
            found_sequences[kept] = out
            found_sizes[kept] = out_sizes
            found_leaders[kept] = new_leader
            found_items[kept] = item
            found_moves[kept] = move
            kept += 1
        item += 1
    return item, kept, used, links


def state_arrays(states, n: int, players: int):
    """States ``(hands, leader)`` as the arrays the kernels take: cards, hand sizes, leaders."""
    sequences = np.zeros((len(states), n), dtype=np.uint8)
    sizes = np.zeros((len(states), players), dtype=np.int64)
    leaders = np.zeros(len(states), dtype=np.int64)
    for s, (hands, leader) in enumerate(states):
        sequences[s] = [c for hand in hands for c in hand]
        sizes[s] = [len(hand) for hand in hands]
        leaders[s] = leader
    return sequences, sizes, leaders


def state_hands(sequence, sizes) -> list[list[int]]:
    """The hands of a state laid out as kernel arrays (its cards and hand sizes), as lists:
    the inverse of ``state_arrays`` for one state."""
    return [list(map(int, hand)) for hand in np.split(sequence, np.cumsum(sizes)[:-1])]


def describe_move(n: int, players: int, index: int, config: np.ndarray) -> str:
    """A move number in words, e.g. 'block 5 from 12 to slot 30' (places from 0)."""
    params = np.zeros(4, dtype=np.int64)
    kind = int(decode_move(n, players, index, config, params))
    a, b, c = (int(x) for x in params[:3])
    if kind == M_SWAP:
        return f"swap {a} {b}"
    if kind in (M_CARD, M_BLOCK):
        what = "card" if kind == M_CARD else f"block {a}"
        return f"{what} from {b} to slot {c}"
    if kind == M_LEADER:
        return f"leader +{a}"
    return f"split {a} at {b}"
