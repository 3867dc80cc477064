"""The fast batch kernel: the standard 52-card deck, 2 players, player 1 leading.

Representation.  A hand of up to 52 cards is three 64-bit masks indexed by the
card's place from the top (bit 0 = the card laid next) plus its size:

- ``pen``: bit i set when card i is a penalty card;
- ``lo`` and ``hi``: bits 0 and 1 of (value - 1) of the penalty card at i.

A run of k plain cards is never touched card by card: the next penalty card of
a hand is ``cttz(pen | 1 << size)`` (the size bit is an end marker, so running
out of cards is found by the same scan), laying k cards is a shift of the three
masks, and taking the pile is a shift and an or.  The pile is built the same
way.  A trick is then a handful of bit scans: the plain-card phase (both
players laying in turn until one lays a penalty card) costs one scan per
player, and every payment one scan of the payer's hand.

Games longer than ``LONG_TRICKS`` tricks (none of the published terminating
games comes close; about one random deal in 10**5 gets there) and games that
reach the agreed cap are handed to the general engine (``rules.play_game``)
from the start, so loops, their cycle ids and the cap agree with it exactly
while ordinary games pay nothing for loop detection.

Deals.  A uniformly random deal of the standard deck is drawn as an ordered
choice of 16 distinct places out of 52 (a partial Fisher-Yates shuffle of a
persistent permutation of 0..51, 16 draws), the i-th chosen place getting value
``1 + i // 4`` (four each of J, Q, K, A); every deal arises from exactly
(4!)**4 ordered choices, so deals are uniform.  Each 64-bit output of the
stream yields two 32-bit draws (Lemire's method, unbiased), so a deal costs 8
outputs of ``next_u64`` in the common case.  Place p < 26 is card p of player 1,
place p >= 26 card p - 26 of player 2 (the deal sequence, top first).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ..jit import kernel
from . import batch, rules
from .random import below_from, next_u64
from .rules import (
    CAPACITY,
    LOOP,
    R_CARDS,
    R_OUTCOME,
    R_SIZES,
    R_TRICKS,
    R_WINNER,
    RESULT_LEN,
    WIN,
)

N_CARDS = 52
HAND = 26
N_PENALTY = 16
LONG_TRICKS = 1500  # past this many tricks a game is replayed by the general engine
LOW32 = np.int64(0xFFFFFFFF)
HAND_MASK = np.int64((1 << HAND) - 1)
SPLIT = np.array([HAND, HAND], dtype=np.int64)

@intrinsic
def cttz(typingctx, value):
    """Count trailing zero bits of an int64 (LLVM's cttz; 64 for 0)."""
    if not isinstance(value, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


# Lockstep play.  LANES games run side by side; the state of lane g is field f at
# state[f * LANES + g] (constant offsets, so LLVM vectorises the lane loop: with
# AVX-512 a step of 16 games is two vectors).  A step is one event of a game,
# branch-free: in the plain-card phase both players lay up to the first penalty
# card in turn order, in the payment phase the payer lays up to its next penalty
# card or the cards owed.  "A" is the player to act (the leader, or the payer),
# "B" the other.
LANES = 16
(F_APEN, F_ALO, F_AHI, F_AN, F_BPEN, F_BLO, F_BHI, F_BN, F_PPEN, F_PLO, F_PHI, F_PN,
 F_OWED, F_MOVER, F_CARDS, F_TRICKS, F_DONE) = (f * LANES for f in range(17))
N_FIELDS = 17
BLOCK = 8192  # deals generated, played and recorded together
# a lane's packed result: cards | tricks << 20 | status << 40
S_LONG, S_WIN1, S_WIN2 = 1, 2, 3
PACK = 20
PACK_MASK = (1 << PACK) - 1


@kernel
def _step(state, limit):
    """Advance every lane by one event; returns nonzero when some game has finished.

    A finished lane has ``state[F_DONE + g]`` set to S_WIN1/S_WIN2 (a player has
    won) or S_LONG (``limit`` tricks played without an end); its other fields
    then hold the game's cards and tricks.
    """
    one = np.int64(1)
    any_done = np.int64(0)
    for g in range(LANES):
        apen = state[F_APEN + g]
        alo = state[F_ALO + g]
        ahi = state[F_AHI + g]
        an = state[F_AN + g]
        bpen = state[F_BPEN + g]
        blo = state[F_BLO + g]
        bhi = state[F_BHI + g]
        bn = state[F_BN + g]
        ppen = state[F_PPEN + g]
        plo = state[F_PLO + g]
        phi = state[F_PHI + g]
        pn = state[F_PN + g]
        owed = state[F_OWED + g]
        mover = state[F_MOVER + g]
        tricks = state[F_TRICKS + g]
        cards = state[F_CARDS + g]
        # masks are all ones (-1) or 0
        a = cttz(apen | (one << an))  # A's next penalty card, or its size
        b = cttz(bpen | (one << bn))
        plain = -np.int64(owed == 0)
        k = min(a, b)
        a_first = -np.int64(a <= b)
        on_a = a_first | ~plain  # the event (penalty card or running out) is A's
        full = ~plain & -np.int64(a >= owed)  # A pays in full: B takes the pile
        # plain cards laid by A and by B before the event
        a_plain = ((k + 1 + a_first) & plain) | (min(a, owed) & ~plain)
        b_plain = k & plain
        where = (a & on_a) | (b & ~on_a)
        size = (an & on_a) | (bn & ~on_a)
        runs_out = ~full & -np.int64(where == size)
        penalty = ~full & ~runs_out
        bit_lo = (((alo & on_a) | (blo & ~on_a)) >> where) & 1
        bit_hi = (((ahi & on_a) | (bhi & ~on_a)) >> where) & 1
        laid = penalty & 1
        shift_a = a_plain + (laid & on_a)
        shift_b = b_plain + (laid & ~on_a)
        apen >>= shift_a
        alo >>= shift_a
        ahi >>= shift_a
        an -= shift_a
        bpen >>= shift_b
        blo >>= shift_b
        bhi >>= shift_b
        bn -= shift_b
        pn += a_plain + b_plain
        ppen |= laid << pn
        plo |= (laid & bit_lo) << pn
        phi |= (laid & bit_hi) << pn
        pn += laid
        owed = (1 + bit_lo + 2 * bit_hi) & penalty
        # B takes the pile under its hand, first laid first out
        bpen |= (ppen << bn) & full
        blo |= (plo << bn) & full
        bhi |= (phi << bn) & full
        bn += pn & full
        ends = full | runs_out
        cards += pn & ends
        tricks -= ends
        ppen &= ~ends
        plo &= ~ends
        phi &= ~ends
        pn &= ~ends
        # B acts next after A's penalty card or when B took the pile
        swap = full | (penalty & on_a)
        over = runs_out | (full & -np.int64(an == 0))
        winner = mover ^ ((full | on_a) & 1)  # 0 for player 1
        long_game = ~over & -np.int64(tricks >= limit)
        state[F_APEN + g] = (bpen & swap) | (apen & ~swap)
        state[F_BPEN + g] = (apen & swap) | (bpen & ~swap)
        state[F_ALO + g] = (blo & swap) | (alo & ~swap)
        state[F_BLO + g] = (alo & swap) | (blo & ~swap)
        state[F_AHI + g] = (bhi & swap) | (ahi & ~swap)
        state[F_BHI + g] = (ahi & swap) | (bhi & ~swap)
        state[F_AN + g] = (bn & swap) | (an & ~swap)
        state[F_BN + g] = (an & swap) | (bn & ~swap)
        state[F_MOVER + g] = mover ^ (swap & 1)
        state[F_OWED + g] = owed
        state[F_PPEN + g] = ppen
        state[F_PLO + g] = plo
        state[F_PHI + g] = phi
        state[F_PN + g] = pn
        state[F_TRICKS + g] = tricks
        state[F_CARDS + g] = cards
        done = ((S_WIN1 + winner) & over) | (S_LONG & long_game)
        state[F_DONE + g] = done
        any_done |= done
    return any_done


@kernel
def _load(state, g, pen, lo, hi):
    """Put a deal (masks over 52 places) in lane g, player 1 to lead."""
    state[F_APEN + g] = pen & HAND_MASK
    state[F_ALO + g] = lo & HAND_MASK
    state[F_AHI + g] = hi & HAND_MASK
    state[F_AN + g] = HAND
    state[F_BPEN + g] = pen >> HAND
    state[F_BLO + g] = lo >> HAND
    state[F_BHI + g] = hi >> HAND
    state[F_BN + g] = HAND
    for f in (F_PPEN, F_PLO, F_PHI, F_PN, F_OWED, F_MOVER, F_CARDS, F_TRICKS, F_DONE):
        state[f + g] = 0


@kernel
def _refill(state, index, pens, los, his, n, packed):
    """Store finished games and start each such lane's next deal; returns lanes still busy.

    Lane g plays deals g, g + LANES, g + 2 * LANES, ... (deal n is a dummy that
    idle lanes play and whose result is dropped into ``packed[n]``).
    """
    busy = 0
    for g in range(LANES):
        done = state[F_DONE + g]
        i = index[g]
        if done != 0:
            packed[i] = (state[F_CARDS + g] | (state[F_TRICKS + g] << PACK)
                         | (done << (2 * PACK)))
            i = min(i + LANES, n)
            index[g] = i
            _load(state, g, pens[i], los[i], his[i])
        busy += i < n
    return busy


@kernel
def _play_block(pens, los, his, n, limit, packed):
    """Play deals 0..n-1 (masks; ``pens[n]`` etc. a dummy deal); packed results per deal."""
    state = np.zeros(N_FIELDS * LANES, dtype=np.int64)
    index = np.zeros(LANES, dtype=np.int64)
    for g in range(LANES):
        index[g] = min(g, n)
        _load(state, g, pens[index[g]], los[index[g]], his[index[g]])
    busy = min(n, LANES)
    while busy > 0:
        if _step(state, limit):
            busy = _refill(state, index, pens, los, his, n, packed)


@kernel
def _draw(stream, order):
    """Choose the next deal; returns its penalty mask and value planes over 52 places."""
    for i in range(0, N_PENALTY, 2):
        bits = next_u64(stream)
        j = i + below_from((bits >> 32) & LOW32, N_CARDS - i, stream)
        order[i], order[j] = order[j], order[i]
        j = i + 1 + below_from(bits & LOW32, N_CARDS - 1 - i, stream)
        order[i + 1], order[j] = order[j], order[i + 1]
    pen = np.int64(0)
    lo = np.int64(0)
    hi = np.int64(0)
    for i in range(N_PENALTY):
        place = np.int64(1) << order[i]
        value = i >> 2  # value - 1: four each of J, Q, K, A
        pen |= place
        lo |= place * (value & 1)
        hi |= place * (value >> 1)
    return pen, lo, hi


@kernel
def _new_order():
    return np.arange(N_CARDS, dtype=np.int64)


@kernel
def _to_sequence(pen, lo, hi, deal):
    """The deal as 52 card values, player 1's hand then player 2's, top first."""
    for p in range(N_CARDS):
        bit = (pen >> p) & 1
        deal[p] = np.uint8(bit * (1 + ((lo >> p) & 1) + 2 * ((hi >> p) & 1)))


@kernel
def _from_sequence(deal):
    pen = np.int64(0)
    lo = np.int64(0)
    hi = np.int64(0)
    for p in range(N_CARDS):
        value = np.int64(deal[p])
        if value > 0:
            pen |= np.int64(1) << p
            lo |= ((value - 1) & 1) << p
            hi |= ((value - 1) >> 1) << p
    return pen, lo, hi


@kernel
def _write_row(result, row):
    """A finished game's row from its packed result; False when it was too long to finish."""
    status = result >> (2 * PACK)
    if status == S_LONG:
        return False
    winner = status - S_WIN1 + 1
    for k in range(RESULT_LEN):
        row[k] = 0
    row[R_OUTCOME] = WIN
    row[R_CARDS] = result & PACK_MASK
    row[R_TRICKS] = (result >> PACK) & PACK_MASK
    row[R_WINNER] = winner
    row[R_SIZES + winner - 1] = N_CARDS  # the winner holds every card
    return True


@kernel
def _play_general(deal, max_tricks, flat, row):
    """Hand a long or capped game to the general engine."""
    for i in range(HAND):
        flat[0, i] = deal[i]
        flat[1, i] = deal[HAND + i]
    rules.play_game(flat, SPLIT, 0, max_tricks, row)


@kernel
def _limit(max_tricks):
    """Tricks after which the fast path gives a game to the general engine."""
    return LONG_TRICKS if max_tricks <= 0 else min(LONG_TRICKS, max_tricks)


@kernel
def _buffers(size):
    return (np.zeros(size + 1, dtype=np.int64), np.zeros(size + 1, dtype=np.int64),
            np.zeros(size + 1, dtype=np.int64), np.zeros(size + 1, dtype=np.int64))


@kernel
def random_chunk(stream, n_deals, max_tricks, recorder):
    """Play ``n_deals`` uniformly random standard deals drawn from ``stream``.

    Same semantics and recorder as ``batch.random_chunk`` (``batch.new_recorder(top_k,
    52)``, positions 0..n_deals-1, returned); the deals are ``generate(stream, n_deals)``.
    """
    counts, histogram, top_positions, top_rows, top_deals, loop_pos, loop_rows, loop_deals = (
        recorder)
    order = _new_order()
    pens, los, his, packed = _buffers(BLOCK)
    deal = np.zeros(N_CARDS, dtype=np.uint8)
    flat = np.zeros((2, CAPACITY), dtype=np.uint8)
    row = np.zeros(RESULT_LEN, dtype=np.int64)
    top_k = top_positions.shape[0]
    limit = _limit(max_tricks)
    for first in range(0, n_deals, BLOCK):
        size = min(BLOCK, n_deals - first)
        for i in range(size):
            pens[i], los[i], his[i] = _draw(stream, order)
        pens[size], los[size], his[size] = pens[0], los[0], his[0]
        _play_block(pens, los, his, size, limit, packed)
        for i in range(size):
            position = first + i
            if _write_row(packed[i], row):
                # record_game reads the deal only when it keeps the game on the leaderboard
                if top_k > 0 and (counts[batch.C_TOP_FILLED] < top_k
                                  or row[R_CARDS] > top_rows[counts[batch.C_TOP_MIN], R_CARDS]):
                    _to_sequence(pens[i], los[i], his[i], deal)
                batch.record_game(position, row, deal, counts, histogram, top_positions,
                                  top_rows, top_deals)
                continue
            _to_sequence(pens[i], los[i], his[i], deal)
            _play_general(deal, max_tricks, flat, row)
            batch.record_game(position, row, deal, counts, histogram, top_positions,
                              top_rows, top_deals)
            if row[R_OUTCOME] == LOOP:
                loop_pos, loop_rows, loop_deals = batch.record_loop(
                    position, row, deal, counts, loop_pos, loop_rows, loop_deals)
    return (counts, histogram, top_positions, top_rows, top_deals, loop_pos, loop_rows,
            loop_deals)


@kernel
def play_sequences(sequences, max_tricks, results):
    """Play standard deals (rows of 52 values, hand 1 then hand 2) as ``rules.play_sequences``."""
    flat = np.zeros((2, CAPACITY), dtype=np.uint8)
    pens, los, his, packed = _buffers(BLOCK)
    limit = _limit(max_tricks)
    n_deals = sequences.shape[0]
    for first in range(0, n_deals, BLOCK):
        size = min(BLOCK, n_deals - first)
        for i in range(size):
            pens[i], los[i], his[i] = _from_sequence(sequences[first + i])
        pens[size], los[size], his[size] = pens[0], los[0], his[0]
        _play_block(pens, los, his, size, limit, packed)
        for i in range(size):
            if not _write_row(packed[i], results[first + i]):
                _play_general(sequences[first + i], max_tricks, flat, results[first + i])


@kernel
def _generate(stream, n_deals, deals):
    order = _new_order()
    for d in range(n_deals):
        pen, lo, hi = _draw(stream, order)
        _to_sequence(pen, lo, hi, deals[d])


def generate(stream: np.ndarray, n_deals: int) -> np.ndarray:
    """The deals ``random_chunk`` plays from ``stream``, in order (uint8 (n, 52)); advances it."""
    deals = np.zeros((int(n_deals), N_CARDS), dtype=np.uint8)
    _generate(stream, int(n_deals), deals)
    return deals


__all__ = ["generate", "play_sequences", "random_chunk"]
