"""Moves in the space of states, as kernels: every small change of a trick-boundary state.

A state is its cards (hands concatenated, top card first), its hand sizes and its
leader.  The moves of a state are numbered from 0, kind by kind in the order of
``MOVE_NAMES``, so a move is one integer and a range of moves is a piece of work:

- ``swap``: exchange two cards of different values (pairs i < j of places);
- ``card``: take one card out and put it back at any place of any hand;
- ``block``: the same with a run of ``block_min``..``block_max`` consecutive cards
  of one hand, put back in the same hand or another;
- ``leader``: another player leads;
- ``split``: move the boundary between two neighbouring hands to another place;
- ``exchange``: exchange two blocks of ``exchange_min``..``exchange_max`` cards that do not
  overlap, anywhere in the hands read as one sequence (hand sizes unchanged).

A move that gives back the state itself, leaves a hand empty or (a swap) exchanges
two cards of one value is not a move: ``apply_move`` returns -1 for it.
``walk.expand`` plays every move of a list of states and keeps the first state met of
each cycle that a list of known cycles does not hold.  Kinds are numbered in the order
of ``MOVE_NAMES``, ``exchange`` last, so the move numbers of the other kinds are those of
runs made before it existed.
"""

from __future__ import annotations

import numpy as np

from ..jit import inlined_kernel, kernel
from ..tunables import DEFAULT_BLOCKS, DEFAULT_EXCHANGES, DEFAULT_MOVES, MOVE_NAMES

M_SWAP, M_CARD, M_BLOCK, M_LEADER, M_SPLIT, M_EXCHANGE = range(len(MOVE_NAMES))
N_KINDS = len(MOVE_NAMES)

# config layout: a bit per enabled kind, then the block lengths, then the exchanged ones
CFG_KINDS, CFG_BLOCK_MIN, CFG_BLOCK_MAX, CFG_EXCH_MIN, CFG_EXCH_MAX = range(5)
CFG_LEN = 5



def move_config(kinds=DEFAULT_MOVES, blocks=DEFAULT_BLOCKS,
                exchanges=DEFAULT_EXCHANGES) -> np.ndarray:
    """The config array of a move set: kind names, (shortest, longest) block moved and
    block exchanged."""
    config = np.zeros(CFG_LEN, dtype=np.int64)
    for name in kinds:
        config[CFG_KINDS] |= 1 << MOVE_NAMES.index(name)
    config[CFG_BLOCK_MIN] = max(2, int(blocks[0]))
    config[CFG_BLOCK_MAX] = int(blocks[1])
    config[CFG_EXCH_MIN] = max(1, int(exchanges[0]))
    config[CFG_EXCH_MAX] = int(exchanges[1])
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
    if kind == M_SPLIT:
        return np.int64((players - 1) * (n - 1))
    total = np.int64(0)
    for length in range(config[CFG_EXCH_MIN], config[CFG_EXCH_MAX] + 1):
        total += _exchange_pairs(n, length)
    return total


@kernel
def _exchange_pairs(n, length):
    """Pairs of places i < j where two blocks of ``length`` cards fit without overlapping."""
    m = n - 2 * length
    if m < 0:
        return np.int64(0)
    return np.int64((m + 1) * (m + 2) // 2)


@kernel
def move_count(n, players, config):
    """Move numbers of a state of ``n`` cards (some of them not moves: see ``apply_move``)."""
    total = np.int64(0)
    for kind in range(N_KINDS):
        total += kind_count(kind, n, players, config)
    return total


@kernel
def kind_counts(n, players, config):
    """``kind_count`` of every kind (int64[N_KINDS]), for ``decode_move`` in a hot loop."""
    counts = np.zeros(N_KINDS, dtype=np.int64)
    for kind in range(N_KINDS):
        counts[kind] = kind_count(kind, n, players, config)
    return counts


@inlined_kernel
def _triangle_start(i, row):
    """The first number of row ``i`` of a triangle whose row k holds ``row - k`` numbers."""
    return i * row - i * (i - 1) // 2


@inlined_kernel
def _triangle_row(index, row):
    """The row of number ``index`` in that triangle (row k holds ``row - k`` numbers): the
    largest i with ``_triangle_start(i, row) <= index``, in O(1) (the root of the quadratic,
    corrected by whole steps) where counting the rows off one by one took O(row)."""
    b = 2 * row + 1
    i = np.int64((b - np.sqrt(float(max(b * b - 8 * index, 0)))) // 2)
    i = max(i, np.int64(0))
    while i > 0 and _triangle_start(i, row) > index:
        i -= 1
    while _triangle_start(i + 1, row) <= index:
        i += 1
    return i


@kernel
def swap_places(n):
    """The places (i, j) of every swap of ``n`` cards, row k for swap number k (the
    numbering ``decode_counted`` decodes): a kick draws its swaps from this table, a load
    where the decode's square root and corrections took 60 ns of a swap kick's 220
    (``cycles.perturb``)."""
    places = np.zeros((max(n * (n - 1) // 2, 0), 2), dtype=np.int64)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            places[k, 0] = i
            places[k, 1] = j
            k += 1
    return places


@kernel
def decode_move(n, players, index, config, params):
    """The kind of move number ``index``; its parameters go into ``params[0:3]``.

    swap: (i, j) places; card and block: (length, first place, target slot);
    leader: (players to advance,); split: (boundary, new cut place); exchange:
    (length, first block's place, second block's place).
    """
    return decode_counted(n, players, index, config, kind_counts(n, players, config), params)


@inlined_kernel
def decode_counted(n, players, index, config, counts, params):
    """``decode_move`` with the kinds' move counts given (``kind_counts``)."""
    for kind in range(N_KINDS):
        count = counts[kind]
        if index >= count:
            index -= count
            continue
        if kind == M_SWAP:
            i = _triangle_row(index, n - 1)
            params[0] = i
            params[1] = i + 1 + index - _triangle_start(i, n - 1)
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
        elif kind == M_SPLIT:
            params[0] = index // (n - 1)
            params[1] = index % (n - 1) + 1
        else:
            length = config[CFG_EXCH_MIN]
            while index >= _exchange_pairs(n, length):
                index -= _exchange_pairs(n, length)
                length += 1
            row = n - 2 * length + 1  # second places for the first block at 0
            i = _triangle_row(index, row)
            params[0] = length
            params[1] = i
            params[2] = i + length + index - _triangle_start(i, row)
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
    counts = kind_counts(sequence.shape[0], sizes.shape[0], config)
    return apply_counted(sequence, sizes, leader, index, config, counts, out, out_sizes, params)


@kernel
def apply_counted(sequence, sizes, leader, index, config, counts, out, out_sizes, params):
    """``apply_move`` with the kinds' move counts given (``kind_counts``)."""
    n = sequence.shape[0]
    players = sizes.shape[0]
    kind = decode_counted(n, players, index, config, counts, params)
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
    elif kind == M_EXCHANGE:
        length, i, j = params[0], params[1], params[2]
        out[:] = sequence
        same = True
        for k in range(length):
            out[i + k] = sequence[j + k]
            out[j + k] = sequence[i + k]
            same = same and sequence[i + k] == sequence[j + k]
        if same:
            return np.int64(-1)
        out_sizes[:] = sizes
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
    if kind == M_SPLIT:
        return f"split {a} at {b}"
    return f"exchange {a} at {b} and {c}"
