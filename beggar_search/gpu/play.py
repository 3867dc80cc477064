"""The CUDA kernel of the GPU engine: two-player deals on bitboards, one game per thread.

Imported only by ``gpu/engine.py`` once numba-cuda is known to be there (importing this
module imports ``numba.cuda``).  The same source runs under the CUDA simulator
(``NUMBA_ENABLE_CUDASIM=1``, pure Python, for the tests) and compiles to PTX for a device.

Each thread holds one game in registers, as the CPU lockstep holds one lane
(``engine/bitboard.py``, whose docstring describes the masks): A's, B's and the pile's
three bit planes and sizes, the cards owed, who is B, the cards and tricks played.  A
step lays one penalty card (or ends the game), branch-free, the CPU lockstep's step on
scalars.  The grid is persistent: thread t plays deals t, t + T, t + 2T, ... (T threads
in the grid); a thread whose game ends writes its packed result and loads its next deal
in the same loop, so the threads of a warp keep playing until the last deals, whatever
the lengths of their games.  There is no cycle detection: a game still going after
``limit`` tricks stops with status S_LONG, and the CPU replays it with the general
engine (``bitboard.record_played``), exactly as the CPU's own fast path does; the
packed results are those of ``bitboard.play_block``, bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..engine.bits import PACK, S_LONG, S_WIN1

THREADS_PER_BLOCK = 256


@cuda.jit(device=True, inline=True)
def _mask(condition):
    """All ones (-1) where ``condition`` holds, else 0."""
    return -np.int64(condition)


@cuda.jit(device=True, inline=True)
def _cttz(value):
    """Trailing zero bits of a nonzero int64, through a population count (the one bit
    intrinsic whose simulator form is exact for 64 bits)."""
    return np.int64(cuda.popc((value & -value) - np.int64(1)))


@cuda.jit(device=True, inline=True)
def _pick(mask, yes, no):
    """``yes`` where ``mask`` is all ones, ``no`` where it is 0."""
    return (yes & mask) | (no & ~mask)


@cuda.jit(cache=True)
def play_deals(pens, los, his, n, first, total, leader, limit, packed):
    """Play deals 0..n-1 (places 0..first-1 hand 1, the rest hand 2; ``leader`` 0 for
    player 1, 1 for player 2); ``packed[i]``: deal i's result as ``bitboard.play_block``
    packs it (``limit`` tricks at most)."""
    one = np.int64(1)
    stride = np.int64(cuda.gridsize(1))
    i = np.int64(cuda.grid(1)) - stride  # the deal this thread plays (none yet)
    apen = alo = ahi = an = bpen = blo = bhi = bn = np.int64(0)
    ppen = plo = phi = pn = owed = mover = cards = tricks = np.int64(0)
    done = np.int64(1)
    low = (one << first) - one
    rest = (one << (total - first)) - one  # total - first < 64; drops a sign bit
    while True:
        if done != 0:
            if i >= 0:
                packed[i] = cards | (tricks << PACK) | (done << (2 * PACK))
            i += stride
            if i >= n:
                break
            pen = pens[i]
            lo = los[i]
            hi = his[i]
            # the leader starts as B, taking an empty pile (see bitboard's step): hand 1
            # is A when player 2 leads
            swap = _mask(leader == 1)
            one_pen, one_lo, one_hi = pen & low, lo & low, hi & low
            two_pen, two_lo, two_hi = ((pen >> first) & rest, (lo >> first) & rest,
                                       (hi >> first) & rest)
            apen = _pick(swap, one_pen, two_pen)
            alo = _pick(swap, one_lo, two_lo)
            ahi = _pick(swap, one_hi, two_hi)
            an = _pick(swap, first, total - first)
            bpen = _pick(swap, two_pen, one_pen)
            blo = _pick(swap, two_lo, one_lo)
            bhi = _pick(swap, two_hi, one_hi)
            bn = _pick(swap, total - first, first)
            ppen = plo = phi = pn = owed = cards = np.int64(0)
            tricks = np.int64(-1)
            mover = one - leader
            done = np.int64(0)
        # A pays up to its next penalty card or the cards owed
        a = _cttz(apen | (one << an))
        take = _mask(a >= owed)  # paid in full: B takes the pile
        paid = min(a, owed)
        apen >>= paid
        alo >>= paid
        ahi >>= paid
        an -= paid
        pn += paid
        # B takes the pile under its hand, first laid first out
        bpen |= (ppen << bn) & take
        blo |= (plo << bn) & take
        bhi |= (phi << bn) & take
        bn += pn & take
        cards += pn & take
        tricks -= take
        ppen &= ~take
        plo &= ~take
        phi &= ~take
        pn &= ~take
        emptied = take & _mask(an == 0)  # A paid its last card: B has won
        long_game = take & ~emptied & _mask(tricks >= limit)
        # the next event: A's at once when it did not pay in full, else the free play
        a -= paid
        b = _cttz(bpen | (one << (bn & 63)))  # (bn is 64 only in a game already over)
        on_a = ~take | _mask(a < b)
        k = min(a, b) & take
        where = _pick(on_a, a, b)
        size = _pick(on_a, an, bn)
        runs_out = ~emptied & _mask(where == size)
        penalty = ~emptied & ~runs_out
        bit_lo = (_pick(on_a, alo, blo) >> where) & one
        bit_hi = (_pick(on_a, ahi, bhi) >> where) & one
        laid = penalty & one
        shift_a = k + (laid & on_a)
        shift_b = k - (on_a & take) + (laid & ~on_a)
        apen >>= shift_a
        alo >>= shift_a
        ahi >>= shift_a
        an -= shift_a
        bpen >>= shift_b
        blo >>= shift_b
        bhi >>= shift_b
        bn -= shift_b
        pn += k + k - (on_a & take)
        ppen |= laid << pn
        plo |= (laid & bit_lo) << pn
        phi |= (laid & bit_hi) << pn
        pn += laid
        owed = (one + bit_lo + 2 * bit_hi) & penalty
        # running out: the other player takes the pile and has won
        cards += pn & runs_out
        tricks -= runs_out
        over = emptied | runs_out
        winner = mover ^ ((emptied | on_a) & one)  # 0 for player 1
        # B acts next (pays) after A's penalty card
        swap = penalty & on_a
        apen, bpen = _pick(swap, bpen, apen), _pick(swap, apen, bpen)
        alo, blo = _pick(swap, blo, alo), _pick(swap, alo, blo)
        ahi, bhi = _pick(swap, bhi, ahi), _pick(swap, ahi, bhi)
        an, bn = _pick(swap, bn, an), _pick(swap, an, bn)
        mover ^= swap & one
        done = (S_LONG & long_game) | ((S_WIN1 + winner) & over & ~long_game)


def grid_blocks(n_deals: int, blocks: int) -> int:
    """Blocks to launch for ``n_deals`` deals: ``blocks`` (a persistent grid sized to the
    device), fewer when there are not enough deals for them."""
    return max(1, min(blocks, -(-int(n_deals) // THREADS_PER_BLOCK)))
