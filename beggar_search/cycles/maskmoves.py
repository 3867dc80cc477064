"""The factory's moves on two-player states held as bitboard masks: O(1) each.

A two-player state of ``n`` cards is five words (``cycles.W_*``): the masks of its sequence
(hand 1 then hand 2, top card first; ``bitboard.masks_from``), hand 1's size, the leader.  Moves
are numbered exactly as ``moves.apply_move`` numbers them, and ``move_masks`` gives the masks
of the state ``apply_move`` gives (``tests/cycles/test_moves.py`` checks every move of many
states): a swap exchanges two bits, a card or block move cuts a run of bits out and puts it
back elsewhere, a split move changes hand 1's size, an exchange swaps two runs of bits.  No
move touches the cards one by one, so the factory's walk generates states about as fast as
the bitboard kernel plays them.
"""

from __future__ import annotations

import numpy as np

from ..jit import inlined_kernel, kernel
from .kept import W_FIRST, W_HI, W_LEADER, W_LO, W_PEN, low_bits
from .moves import M_BLOCK, M_CARD, M_EXCHANGE, M_LEADER, M_SPLIT, M_SWAP, decode_counted


@kernel
def _cut_insert(x, first, length, place):
    """The bits of ``x`` with bits first..first+length-1 cut out and put back at ``place``
    of what is left."""
    block = (x >> first) & low_bits(length)
    rest = (x & low_bits(first)) | ((x >> (first + length)) << first)
    return (rest & low_bits(place)) | (block << place) | ((rest >> place) << (place + length))


@kernel
def _exchange(x, i, j, length):
    """The bits of ``x`` with the runs at i and j (length ``length``, i + length <= j) swapped."""
    mask = low_bits(length)
    a = (x >> i) & mask
    b = (x >> j) & mask
    return (x & ~(mask << i) & ~(mask << j)) | (b << i) | (a << j)


@kernel
def _write(out, pen, lo, hi, first, leader):
    out[W_PEN] = pen
    out[W_LO] = lo
    out[W_HI] = hi
    out[W_FIRST] = first
    out[W_LEADER] = leader


@inlined_kernel
def move_masks(state, n, index, config, counts, params, out):
    """Apply move number ``index`` (``moves`` numbering, ``counts``: ``moves.kind_counts``)
    to the state's words ``state`` into ``out``; False when it is no move.

    ``params`` receives the move's parameters and, last, its kind (as ``apply_move``).
    """
    kind = decode_counted(n, 2, index, config, counts, params)
    params[3] = kind
    return apply_masks(state, n, kind, params, out)


@inlined_kernel
def apply_masks(state, n, kind, params, out):
    """``move_masks`` of a move decoded already (``moves.decode_counted``: its ``kind`` and
    ``params``).  A hot loop decodes, then calls this: the decode inlined inside an
    inlined ``move_masks`` ran a swap kick 2x slower (``cycles.perturb``'s kicks: 290
    against 150 ns of drawing a kick of two or three swaps)."""
    pen, lo, hi = state[W_PEN], state[W_LO], state[W_HI]
    first, leader = state[W_FIRST], state[W_LEADER]
    second = n - first
    if kind == M_SWAP:
        i, j = params[0], params[1]
        vi = ((pen >> i) & 1) | (((lo >> i) & 1) << 1) | (((hi >> i) & 1) << 2)
        vj = ((pen >> j) & 1) | (((lo >> j) & 1) << 1) | (((hi >> j) & 1) << 2)
        if vi == vj:
            return False
        flip = (np.int64(1) << i) | (np.int64(1) << j)
        _write(out, pen ^ (flip * (((pen >> i) ^ (pen >> j)) & 1)),
               lo ^ (flip * (((lo >> i) ^ (lo >> j)) & 1)),
               hi ^ (flip * (((hi >> i) ^ (hi >> j)) & 1)), first, leader)
        return True
    if kind == M_CARD or kind == M_BLOCK:
        length, start, slot = params[0], params[1], params[2]
        if start < first:  # hand 1
            if start + length > first:
                return False
            sizes0, sizes1 = first - length, second
        else:
            if start + length > n:
                return False
            sizes0, sizes1 = first, second - length
        if slot <= sizes0:
            place = slot
            sizes0 += length
        else:
            slot -= sizes0 + 1
            if slot > sizes1:
                return False
            place = sizes0 + slot
            sizes1 += length
        if sizes0 < 1 or sizes1 < 1:
            return False
        _write(out, _cut_insert(pen, start, length, place), _cut_insert(lo, start, length, place),
               _cut_insert(hi, start, length, place), sizes0, leader)
    elif kind == M_LEADER:
        _write(out, pen, lo, hi, first, (leader + params[0]) % 2)
    elif kind == M_SPLIT:
        cut = params[1]
        if cut <= 0 or cut >= n or cut == first:
            return False
        _write(out, pen, lo, hi, cut, leader)
    elif kind == M_EXCHANGE:
        length, i, j = params[0], params[1], params[2]
        mask = low_bits(length)
        if (((pen >> i) ^ (pen >> j)) & mask) == 0 and (((lo >> i) ^ (lo >> j)) & mask) == 0 \
                and (((hi >> i) ^ (hi >> j)) & mask) == 0:
            return False
        _write(out, _exchange(pen, i, j, length), _exchange(lo, i, j, length),
               _exchange(hi, i, j, length), first, leader)
    else:
        return False
    return not (out[W_PEN] == pen and out[W_LO] == lo and out[W_HI] == hi
                and out[W_FIRST] == first and out[W_LEADER] == leader)
