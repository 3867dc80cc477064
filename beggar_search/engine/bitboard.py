"""The bitboard kernel: two players, any deck of up to 64 cards, 16 games in lockstep where the
CPU has AVX-512, else one at a time (``play_narrow``).

Representation.  A hand of up to 63 cards is three 64-bit masks indexed by the
card's place from the top (bit 0 = the card laid next) plus its size:

- ``pen``: bit i set when card i is a penalty card;
- ``lo`` and ``hi``: bits 0 and 1 of (value - 1) of the penalty card at i.

A run of k plain cards is never touched card by card: the next penalty card of
a hand is ``cttz(pen | 1 << size)`` (the size bit is an end marker, so running
out of cards is found by the same scan), laying k cards is a shift of the three
masks, and taking the pile is a shift and an or.  The pile is built the same
way.  In play (the lockstep below) a hand keeps ``pen`` and, instead of ``lo`` and
``hi``, its penalty cards' values in the order they are laid, 2 bits each in one
word: laying plain cards then shifts only ``pen``, and the penalty card laid is
always the hand's first (its value the word's low 2 bits).  The lockstep plays 16 games
side by side without a branch (vector lanes: with AVX-512, two vectors of 8); a CPU
without AVX-512 plays the same steps one game at a time with branches (``_play_one``),
1.9x faster on a Zen 1 core than the lockstep there.  A deck of more than
``MAX_VALUED`` (31) penalty cards plays on ``lo`` and ``hi`` (the wide lockstep).  A trick is
then a handful of bit scans: the plain-card phase (both players laying in turn
until one lays a penalty card) costs one scan per player, and every payment one
scan of the payer's hand.  While a game is in
play neither hand holds every card (the other hand or the pile holds one), so
sizes stay below 64 and every shift is defined.

Nothing in the step depends on the deck: the counts of plain cards and of each
penalty value, the split (hand 1 holds ``first`` cards, hand 2 the rest, both
at least one) and who leads are data.  A deal is its masks over the places of
the deal sequence (hand 1 then hand 2, top first).

Games longer than ``LONG_TRICKS`` tricks (none of the published terminating
games comes close; about one random standard deal in 10**5 gets there) and
games that reach the agreed cap are handed to the general engine
(``rules.play_game``) from the start, so loops, their cycle ids and the cap
agree with it exactly while ordinary games pay nothing for loop detection.

Where deals come from (each fills blocks of masks that the lockstep plays):

- ``DRAW_PLACES``: a uniformly random deal drawn as an ordered choice of the P
  penalty places out of N (a partial Fisher-Yates shuffle of a persistent
  permutation of 0..N-1, P draws), the i-th chosen place getting the i-th
  penalty value of the deck in sorted order; every deal arises from exactly
  (J! Q! K! A!) ordered choices, so deals are uniform.  Each 64-bit output of
  the stream yields two 32-bit draws (Lemire's method, unbiased).  For the
  standard deck this is the draw of the engine id "fast2", unchanged.
- ``DRAW_SHUFFLE``: the general engine's draw (``batch.random_chunk``): a
  Fisher-Yates shuffle of the whole sequence, shuffled again for each deal.
  Runs stored with the engine id "general" draw this way and play here.
- ``enumerate_chunk``: consecutive deal indices.  The next deal in index order
  is the next permutation of the sequence (``next_deal``), and only the places
  from its first changed card on are written into the masks again.
- ``play_sequences``: a given list of deals.
"""

from __future__ import annotations

import numpy as np

from ..jit import inlined_kernel, kernel
from . import batch, bitboard_multi, bits, rules
from .batch import next_deal
from .bits import (
    LOCKSTEP,
    PACK,
    PACK_MASK,
    S_LONG,
    S_WIN1,
    ctlz,
    cttz,
    hand_values,
    popcount,
    prefer_wide_vectors,
    shr,
)
from .random import below_held, shuffle, xoshiro
from .rules import (
    CAPACITY,
    R_CARDS,
    R_OUTCOME,
    R_SIZES,
    R_TRICKS,
    R_WINNER,
    RESULT_LEN,
    WIN,
)

MULTI = 1  # ``multi`` of the kernels below: any number, 2 to 4 players (None: 2 only)
WIDE = 1  # ``wide`` of the kernels below: any number of penalty cards (None: MAX_VALUED at most)
LONG_TRICKS = 1500  # past this many tricks a game is replayed by the general engine
LOW32 = np.int64(0xFFFFFFFF)
DRAW_PLACES, DRAW_SHUFFLE = 0, 1  # how random_chunk draws its deals (see the docstring)

# Lockstep play.  LANES games run side by side; the state of lane g is field f at
# state[f * LANES + g] (constant offsets, so LLVM vectorises the lane loop: with
# AVX-512 a step of 16 games is two vectors).  A hand in play is its penalty mask by
# place with an end bit past its last card (``pen``: the deal's mask and ``1 << size``,
# so its next penalty card or its end is one ``cttz``, and its size ``63 - ctlz``), and
# its penalty cards' values in the order they are laid, 2 bits each in one word (``val``:
# the next one in bits 0-1; ``bits.hand_values``).  Laying plain cards shifts only the
# mask (a logical shift, ``bits.shr``: a mask of 64 places may hold bit 63), laying a
# penalty card reads its value as ``val & 3`` and shifts ``val`` by 2, and a hand taking
# the pile puts the pile's cards above its own (its end bit replaced by the pile's mask
# and end bit, one add) and the pile's values above its own (2 bits per penalty card it
# holds).  The pile is its mask, values and size (no end bit).  A lane's state is always
# a payment: "A" owes ``owed`` cards, "B" laid the last penalty card (and takes the pile
# when A pays in full).  A step is one penalty card laid (or a game's end), branch-free:
# A pays up to its next penalty card or the cards owed; when it pays in full B takes the
# pile and the free play that follows (B leads, both lay plain cards in turn) is
# resolved in the same step, up to the next penalty card laid, which makes its layer "B"
# and the other the payer.  A deal starts as B (the leader) taking an empty pile (owed 0;
# that take counts a trick, taken off when the result is stored).  A step computes only
# what a game going on needs: a game that ends in it is flagged in ``F_DONE`` (A paid its
# last card, a player ran out, or the trick count passed the limit) and its result is
# made when its lane is refilled (``_refill``: the pile a player ran out under is added
# there), its other fields left as the step made them.  A deck of more than
# ``MAX_VALUED`` penalty cards plays in the wide lockstep below (the values as bit planes
# by place, as the deal's masks).
LANES = 16
(F_APEN, F_AVAL, F_BPEN, F_BVAL, F_PPEN, F_PVAL, F_PN, F_OWED, F_COUNT,
 F_DONE) = (f * LANES for f in range(10))
N_FIELDS = 10
F_BIAS = N_FIELDS * LANES  # after the lanes: the run's ``_long_bias``
# F_COUNT: the game's cards laid, its tricks plus one (the leader's first take of the empty
# pile counts) plus ``_long_bias(limit)`` << PACK, and who is "A" (the mover: 0 for player 1)
# in bit MOVER_BIT; after a game's last step, the mover bit is its winner (0 for player 1)
TRICK = np.int64(1 << PACK)
MOVER_BIT = 62
MOVER = np.int64(1 << MOVER_BIT)
LONG_BIT = np.int64(1 << (2 * PACK - 1))  # set in F_COUNT once the tricks pass the limit
# F_DONE of a game that has ended: LONG_BIT when its tricks passed the limit, RAN_OUT when
# a player ran out (the other takes the pile), PAID_LAST when A paid its last card (B has
# won; before the others)
RAN_OUT, PAID_LAST = np.int64(2), np.int64(4)
# penalty cards whose values fit one word, 2 bits each, with every shift by twice a count
# of them below 64 (also in a lane whose game has just ended, whose fields are not read)
MAX_VALUED = 31
BLOCK = 8192  # deals generated, played and recorded together


@inlined_kernel
def _long_bias(limit):
    """What ``F_COUNT``'s tricks start above, so that they reach LONG_BIT as they pass
    ``limit`` (a test of one bit a step instead of a shift, a mask and a comparison).
    ``limit`` is at most ``LONG_TRICKS`` (``fast_limit``), far below the 2**19 this
    leaves room for."""
    return ((np.int64(1) << (PACK - 1)) - 1 - limit) << PACK


@inlined_kernel
def _step(state):
    """Advance every lane by one penalty card laid; returns a bit mask of the lanes whose
    game has ended (``F_DONE`` set, see above)."""
    one = np.int64(1)
    ended = np.int64(0)
    for g in range(LANES):
        apen = state[F_APEN + g]
        aval = state[F_AVAL + g]
        bpen = state[F_BPEN + g]
        bval = state[F_BVAL + g]
        ppen = state[F_PPEN + g]
        pval = state[F_PVAL + g]
        pn = state[F_PN + g]
        owed = state[F_OWED + g]
        count = state[F_COUNT + g]
        # masks are all ones (-1) or 0
        a = cttz(apen)  # A's next penalty card, or its end
        # A pays: the plain cards before its next penalty card, or the cards owed
        take = -np.int64(a >= owed)  # paid in full: B takes the pile
        paid = min(a, owed)
        apen = shr(apen, paid)  # plain cards only: A's values stay
        pn += paid
        emptied = take & -np.int64(apen == 1)  # A paid its last card: B has won
        # B takes the pile under its hand, first laid first out: the pile's cards and end
        # bit in place of B's end bit (at B's size), the pile's values above B's own
        bn = 63 - ctlz(bpen)
        bval |= (pval << ((popcount(bpen) << 1) - 2)) & take
        bpen += (((ppen | (one << pn)) - 1) << bn) & take
        count += (pn + TRICK) & take  # the pile's cards, and one trick
        ppen &= ~take
        pval &= ~take
        pn &= ~take
        # the next event: A's penalty card (or its end) at once when it did not pay in
        # full; else the free play, B leading: B meets its event first iff its next
        # penalty card is no further than A's
        a -= paid
        b = cttz(bpen)
        on_a = ~take | -np.int64(a < b)
        k = min(a, b) & take
        # the player whose event it is runs out when its hand holds no penalty card
        runs_out = -np.int64(popcount((apen & on_a) | (bpen & ~on_a)) == 1)
        # else it lays its first penalty card, of value bits 0-1 of its values
        value = ((aval & on_a) | (bval & ~on_a)) & 3
        laid_a = on_a & 1
        # (A meets its penalty card first: B, leading, lays one plain card more, - (-1))
        apen = shr(apen, k + laid_a)
        aval = ((aval >> 2) & on_a) | (aval & ~on_a)
        bpen = shr(bpen, k - (on_a & take) + (laid_a ^ 1))
        bval = (bval & on_a) | ((bval >> 2) & ~on_a)
        pn += k + k - (on_a & take)
        pval |= value << (popcount(ppen) << 1)  # above the pile's penalty cards
        ppen |= one << pn
        pn += 1
        owed = 1 + value
        # B acts next (pays) after A's penalty card; the mover bit of a game that has
        # ended (A paid its last card, or the player of the event ran out) is its winner
        swap = on_a | emptied
        state[F_APEN + g] = (bpen & swap) | (apen & ~swap)
        state[F_BPEN + g] = (apen & swap) | (bpen & ~swap)
        state[F_AVAL + g] = (bval & swap) | (aval & ~swap)
        state[F_BVAL + g] = (aval & swap) | (bval & ~swap)
        state[F_OWED + g] = owed
        state[F_PPEN + g] = ppen
        state[F_PVAL + g] = pval
        state[F_PN + g] = pn
        state[F_COUNT + g] = count ^ (swap & MOVER)
        done = (count & LONG_BIT) | (runs_out & RAN_OUT) | (emptied & PAID_LAST)
        state[F_DONE + g] = done
        ended |= np.int64(done != 0) << g
    return ended


@kernel
def _load(state, g, pen, lo, hi, first, total, leader, start):
    """Put a deal in lane g: places 0..first-1 are hand 1, the rest hand 2; ``leader`` leads.

    ``start``: cards and tricks already played (packed as a result), for a game that
    comes from ``bitboard_multi`` with two players left in.  The leader starts as B,
    taking an empty pile (see the step).
    """
    one = np.int64(1)
    low = (one << first) - 1
    rest = (one << (total - first)) - 1  # total - first < 64; drops a sign bit
    pen_one = pen & low
    pen_two = (pen >> first) & rest
    hand_one = (pen_one | (one << first), hand_values(pen_one, lo & low, hi & low))
    hand_two = (pen_two | (one << (total - first)),
                hand_values(pen_two, (lo >> first) & rest, (hi >> first) & rest))
    a, b = (hand_one, hand_two) if leader == 1 else (hand_two, hand_one)
    state[F_APEN + g], state[F_AVAL + g] = a
    state[F_BPEN + g], state[F_BVAL + g] = b
    for f in (F_PPEN, F_PVAL, F_PN, F_OWED, F_DONE):
        state[f + g] = 0
    state[F_COUNT + g] = (start + state[F_BIAS]) | ((1 - leader) << MOVER_BIT)


@inlined_kernel
def _result(state, g):
    """The packed result of the game that has ended in lane g (see the step)."""
    done = state[F_DONE + g]
    count = state[F_COUNT + g]
    if done & RAN_OUT and not done & PAID_LAST:
        # the other player takes the pile (less the penalty card the step counted laid)
        count += state[F_PN + g] - 1 + TRICK
    if done & LONG_BIT and not done & PAID_LAST:
        status = S_LONG
    else:
        status = S_WIN1 + ((count >> MOVER_BIT) & 1)
    return ((count & ~MOVER) - TRICK - state[F_BIAS]) | (status << (2 * PACK))


@kernel
def _refill(ended, state, index, pens, los, his, firsts, starts, n, total, leader, packed):
    """Store the games of the lanes in bit mask ``ended`` and start each such lane's next
    deal; returns how many of them had their last deal below n (now idle).

    Lane g plays deals g, g + LANES, g + 2 * LANES, ... (deal n is a dummy that
    idle lanes play and whose result is dropped into ``packed[n]``).
    """
    idle = 0
    while ended != 0:
        g = cttz(ended)
        ended &= ended - 1
        i = index[g]
        packed[i] = _result(state, g)
        idle += (i < n) & (i + LANES >= n)
        i = min(i + LANES, n)
        index[g] = i
        _load(state, g, pens[i], los[i], his[i], firsts[i], total, leader, starts[i])
    return idle


@kernel
def lockstep_block(pens, los, his, firsts, starts, n, total, leader, limit, packed):
    """Play deals 0..n-1 of at most ``MAX_VALUED`` penalty cards 16 at a time in vector lanes
    (the step above; index n a dummy deal): ``play_narrow`` where the CPU has AVX-512."""
    prefer_wide_vectors()
    state = np.zeros(N_FIELDS * LANES + 1, dtype=np.int64)
    state[F_BIAS] = _long_bias(limit)
    index = np.zeros(LANES, dtype=np.int64)
    for g in range(LANES):
        i = min(g, n)
        index[g] = i
        _load(state, g, pens[i], los[i], his[i], firsts[i], total, leader, starts[i])
    busy = min(n, LANES)
    while busy > 0:
        ended = _step(state)
        if ended:
            busy -= _refill(ended, state, index, pens, los, his, firsts, starts, n, total,
                            leader, packed)


@inlined_kernel
def _ended(count, status):
    """A game's packed result from its ``F_COUNT`` and its end (``S_LONG``, ``S_WIN1 + p``)."""
    return ((count & ~MOVER) - TRICK) | (status << (2 * PACK))


@inlined_kernel
def _first_penalty(plain, value):
    """The pile (``ppen, pval, pn``) when a penalty card of ``value`` (its value - 1) is laid
    on ``plain`` plain cards of a free play, and the cards the next player owes."""
    return np.int64(1) << plain, value, plain + 1, 1 + value


@inlined_kernel
def _play_one(pen, lo, hi, first, total, leader, start, limit):
    """One game of ``_step``'s lockstep, played alone with branches: the same payer "A" and
    layer "B" and the same packed result, but only the work of the case at hand."""
    one = np.int64(1)
    low = (one << first) - 1
    rest = (one << (total - first)) - 1  # total - first < 64; drops a sign bit
    pen_one = pen & low
    pen_two = (pen >> first) & rest
    val_one = hand_values(pen_one, lo & low, hi & low)
    val_two = hand_values(pen_two, (lo >> first) & rest, (hi >> first) & rest)
    if leader == 1:
        apen, aval, an, bpen, bval, bn = pen_one, val_one, first, pen_two, val_two, total - first
    else:
        apen, aval, an, bpen, bval, bn = pen_two, val_two, total - first, pen_one, val_one, first
    ppen = pval = pn = owed = np.int64(0)
    count = start | ((1 - leader) << MOVER_BIT)
    while True:
        a = cttz(apen | (one << an))  # A's next penalty card, or its size
        if a < owed:
            # A lays its plain cards and then its penalty card, or runs out, not paying in full
            apen >>= a
            an -= a
            pn += a
            if an == 0:  # the other player takes the pile and has won
                return _ended(count + pn + TRICK, S_WIN1 + (((count >> MOVER_BIT) & 1) ^ 1))
            value = aval & 3
            apen >>= 1
            an -= 1
            aval >>= 2
            pval |= value << ((popcount(ppen) << 1) & 63)  # above the pile's penalty cards
            ppen |= one << pn
            pn += 1
            owed = 1 + value
            apen, aval, an, bpen, bval, bn = bpen, bval, bn, apen, aval, an  # B pays next
            count ^= MOVER
            continue
        # A pays in full: B takes the pile, and the free play follows, B leading
        apen >>= owed
        an -= owed
        pn += owed
        bval |= pval << ((popcount(bpen) << 1) & 63)
        bpen |= ppen << bn
        bn += pn
        count += pn + TRICK
        ppen = pval = pn = np.int64(0)
        if an == 0:  # A paid its last card: B has won
            return _ended(count, S_WIN1 + (((count >> MOVER_BIT) & 1) ^ 1))
        long_game = ((count >> PACK) & PACK_MASK) > limit
        a -= owed
        b = cttz(bpen | (one << (bn & 63)))
        if a < b:  # A meets its penalty card (or its end) first: B lays a + 1 plain cards
            if a == an:  # A runs out
                status = S_LONG if long_game else S_WIN1 + (((count >> MOVER_BIT) & 1) ^ 1)
                return _ended(count + a + a + 1 + TRICK, status)
            value = aval & 3
            apen >>= a + 1
            an -= a + 1
            aval >>= 2
            bpen >>= a + 1
            bn -= a + 1
            ppen, pval, pn, owed = _first_penalty(a + a + 1, value)
            if long_game:
                return _ended(count, S_LONG)
            apen, aval, an, bpen, bval, bn = bpen, bval, bn, apen, aval, an  # B pays next
            count ^= MOVER
        else:  # B meets its penalty card (or its end) first, no further than A's
            if b == bn:  # B runs out
                status = S_LONG if long_game else S_WIN1 + ((count >> MOVER_BIT) & 1)
                return _ended(count + b + b + TRICK, status)
            value = bval & 3
            apen >>= b
            an -= b
            bpen >>= b + 1
            bn -= b + 1
            bval >>= 2
            ppen, pval, pn, owed = _first_penalty(b + b, value)
            if long_game:
                return _ended(count, S_LONG)


@kernel
def one_by_one_block(pens, los, his, firsts, starts, n, total, leader, limit, packed):
    """``lockstep_block``'s results, the games played one at a time with branches:
    ``play_narrow`` where the CPU has no AVX-512."""
    for i in range(n):
        packed[i] = _play_one(pens[i], los[i], his[i], firsts[i], total, leader, starts[i],
                              limit)


# play_narrow(pens, los, his, firsts, starts, n, total, leader, limit, packed): the deals of at
# most MAX_VALUED penalty cards, packed results; the form the CPU plays faster (bits.LOCKSTEP)
play_narrow = lockstep_block if LOCKSTEP else one_by_one_block


@kernel
def _play_block(pens, los, his, firsts, starts, n, total, leader, limit, packed, wide=WIDE):
    """Play deals 0..n-1 (masks, hand 1's size ``firsts``, cards and tricks already played
    ``starts``; index n a dummy deal); packed results per deal.  A deck of more than
    ``MAX_VALUED`` penalty cards (every deal holds all of the deck's) plays in the wide
    lockstep; ``wide`` None: the deck has no more (``wide_for``), and the wide lockstep is
    left out of the compiled kernel (a branch on None that Numba prunes, as ``multi``'s)."""
    if wide is not None:
        if n > 0 and popcount(pens[0]) > MAX_VALUED:
            _play_block_wide(pens, los, his, firsts, starts, n, total, leader, limit, packed)
            return
    play_narrow(pens, los, his, firsts, starts, n, total, leader, limit, packed)


# The wide lockstep: the same step on the value bit planes by place (``lo``, ``hi``), for a
# deck of more than ``MAX_VALUED`` penalty cards (whose values do not fit 2 bits each in one
# word with the shifts the lockstep makes).
(W_APEN, W_ALO, W_AHI, W_AN, W_BPEN, W_BLO, W_BHI, W_BN, W_PPEN, W_PLO, W_PHI, W_PN,
 W_OWED, W_MOVER, W_CARDS, W_TRICKS, W_DONE) = (f * LANES for f in range(17))
W_FIELDS = 17


@inlined_kernel
def _step_wide(state, limit):
    """``_step`` on the value planes by place; returns nonzero when some game has finished.

    A finished lane has ``state[W_DONE + g]`` set to S_WIN1 + player (a player has
    won) or S_LONG (``limit`` tricks played without an end); its other fields
    then hold the game's cards and tricks.
    """
    one = np.int64(1)
    any_done = np.int64(0)
    for g in range(LANES):
        apen = state[W_APEN + g]
        alo = state[W_ALO + g]
        ahi = state[W_AHI + g]
        an = state[W_AN + g]
        bpen = state[W_BPEN + g]
        blo = state[W_BLO + g]
        bhi = state[W_BHI + g]
        bn = state[W_BN + g]
        ppen = state[W_PPEN + g]
        plo = state[W_PLO + g]
        phi = state[W_PHI + g]
        pn = state[W_PN + g]
        owed = state[W_OWED + g]
        mover = state[W_MOVER + g]
        tricks = state[W_TRICKS + g]
        cards = state[W_CARDS + g]
        # masks are all ones (-1) or 0
        a = cttz(apen | (one << an))  # A's next penalty card, or its size
        # A pays: the plain cards before its next penalty card, or the cards owed
        take = -np.int64(a >= owed)  # paid in full: B takes the pile
        paid = min(a, owed)
        apen, alo, ahi, an = bits.drop_top(apen, alo, ahi, an, paid)
        pn += paid
        # B takes the pile under its hand, first laid first out
        bpen, blo, bhi, bn = bits.take_pile(bpen, blo, bhi, bn, ppen, plo, phi, pn, take)
        cards += pn & take
        tricks -= take
        ppen, plo, phi, pn = bits.clear_pile(ppen, plo, phi, pn, take)
        emptied = take & -np.int64(an == 0)  # A paid its last card: B has won
        long_game = take & ~emptied & -np.int64(tricks >= limit)
        # the next event: A's penalty card (or running out) at once when it did not pay
        # in full; else the free play, B leading: B meets its event first iff its next
        # penalty card is no further than A's
        a -= paid
        b = cttz(bpen | (one << (bn & 63)))  # (bn is 64 only in a game already over)
        on_a = ~take | -np.int64(a < b)
        k = min(a, b) & take
        where = (a & on_a) | (b & ~on_a)
        size = (an & on_a) | (bn & ~on_a)
        runs_out = ~emptied & -np.int64(where == size)
        penalty = ~emptied & ~runs_out
        bit_lo = (((alo & on_a) | (blo & ~on_a)) >> where) & 1
        bit_hi = (((ahi & on_a) | (bhi & ~on_a)) >> where) & 1
        laid = penalty & 1
        shift_a = k + (laid & on_a)
        shift_b = k - (on_a & take) + (laid & ~on_a)
        apen, alo, ahi, an = bits.drop_top(apen, alo, ahi, an, shift_a)
        bpen, blo, bhi, bn = bits.drop_top(bpen, blo, bhi, bn, shift_b)
        pn += k + k - (on_a & take)
        ppen, plo, phi, pn = bits.lay_on_pile(ppen, plo, phi, pn, laid, bit_lo, bit_hi)
        owed = (1 + bit_lo + 2 * bit_hi) & penalty
        # running out: the other player takes the pile and has won
        cards += pn & runs_out
        tricks -= runs_out
        over = emptied | runs_out
        winner = mover ^ ((emptied | on_a) & 1)  # 0 for player 1
        # B acts next (pays) after A's penalty card
        swap = penalty & on_a
        state[W_APEN + g] = (bpen & swap) | (apen & ~swap)
        state[W_BPEN + g] = (apen & swap) | (bpen & ~swap)
        state[W_ALO + g] = (blo & swap) | (alo & ~swap)
        state[W_BLO + g] = (alo & swap) | (blo & ~swap)
        state[W_AHI + g] = (bhi & swap) | (ahi & ~swap)
        state[W_BHI + g] = (ahi & swap) | (bhi & ~swap)
        state[W_AN + g] = (bn & swap) | (an & ~swap)
        state[W_BN + g] = (an & swap) | (bn & ~swap)
        state[W_MOVER + g] = mover ^ (swap & 1)
        state[W_OWED + g] = owed
        state[W_PPEN + g] = ppen
        state[W_PLO + g] = plo
        state[W_PHI + g] = phi
        state[W_PN + g] = pn
        state[W_TRICKS + g] = tricks
        state[W_CARDS + g] = cards
        done = (S_LONG & long_game) | ((S_WIN1 + winner) & over & ~long_game)
        state[W_DONE + g] = done
        any_done |= done
    return any_done


@kernel
def _load_wide(state, g, pen, lo, hi, first, total, leader, start):
    """Put a deal in lane g: places 0..first-1 are hand 1, the rest hand 2; ``leader`` leads.

    ``start``: cards and tricks already played (packed as a result), for a game that
    comes from ``bitboard_multi`` with two players left in.  The leader starts as B,
    taking an empty pile (see the step).
    """
    low = (np.int64(1) << first) - 1
    rest = (np.int64(1) << (total - first)) - 1  # total - first < 64; drops a sign bit
    one = (pen & low, lo & low, hi & low, first)
    two = ((pen >> first) & rest, (lo >> first) & rest, (hi >> first) & rest, total - first)
    a, b = (one, two) if leader == 1 else (two, one)
    state[W_APEN + g], state[W_ALO + g], state[W_AHI + g], state[W_AN + g] = a
    state[W_BPEN + g], state[W_BLO + g], state[W_BHI + g], state[W_BN + g] = b
    for f in (W_PPEN, W_PLO, W_PHI, W_PN, W_OWED, W_DONE):
        state[f + g] = 0
    state[W_CARDS + g] = start & PACK_MASK
    state[W_TRICKS + g] = (start >> PACK) - 1
    state[W_MOVER + g] = 1 - leader


@kernel
def _refill_wide(state, index, pens, los, his, firsts, starts, n, total, leader, packed):
    """Store finished games and start each such lane's next deal; returns lanes still busy.

    Lane g plays deals g, g + LANES, g + 2 * LANES, ... (deal n is a dummy that
    idle lanes play and whose result is dropped into ``packed[n]``).
    """
    busy = 0
    for g in range(LANES):
        done = state[W_DONE + g]
        i = index[g]
        if done != 0:
            packed[i] = (state[W_CARDS + g] | (state[W_TRICKS + g] << PACK)
                         | (done << (2 * PACK)))
            i = min(i + LANES, n)
            index[g] = i
            _load_wide(state, g, pens[i], los[i], his[i], firsts[i], total, leader, starts[i])
        busy += i < n
    return busy


@kernel
def _play_block_wide(pens, los, his, firsts, starts, n, total, leader, limit, packed):
    """``_play_block`` for a deck of more than ``MAX_VALUED`` penalty cards."""
    prefer_wide_vectors()
    state = np.zeros(W_FIELDS * LANES, dtype=np.int64)
    index = np.zeros(LANES, dtype=np.int64)
    for g in range(LANES):
        i = min(g, n)
        index[g] = i
        _load_wide(state, g, pens[i], los[i], his[i], firsts[i], total, leader, starts[i])
    busy = min(n, LANES)
    while busy > 0:
        if _step_wide(state, limit):
            busy = _refill_wide(state, index, pens, los, his, firsts, starts, n, total, leader,
                           packed)


@kernel
def play_splits(pens, los, his, firsts, n, total, limit, packed):
    """Play deals 0..n-1 of ``total`` cards, each with its own split: hand 1 (which leads)
    holds places 0..firsts[i]-1, hand 2 the rest; index n is a dummy deal.  Packed results
    as ``play_block`` (a game past ``limit`` tricks comes back S_LONG, unplayed further).

    This is how states of any split and either leader are played fast: lay the leader's
    hand first (``firsts`` its size) and read the winner back accordingly.
    """
    starts = np.zeros(n + 1, dtype=np.int64)
    _play_block(pens, los, his, firsts, starts, n, total, 0, limit, packed)


# ---- deals as masks over the places of the deal sequence -------------------------------

def penalty_kinds(sorted_cards) -> np.ndarray:
    """(value - 1) of each penalty card of the deck, in sorted order (what DRAW_PLACES deals).
    Plain numpy, called from Python only: a kernel would be one more for a cold search to
    compile before its first deal."""
    cards = np.asarray(sorted_cards)
    return np.sort(cards[cards > 0]).astype(np.int64) - 1


@inlined_kernel
def _draw_places(s0, s1, s2, s3, order, kinds):
    """Choose the next deal's penalty places from the generator state ``s0..s3``; returns
    its masks and the state after (see DRAW_PLACES)."""
    n_cards = order.shape[0]
    n_penalty = kinds.shape[0]
    for i in range(0, n_penalty, 2):
        word, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        j, s0, s1, s2, s3 = below_held((word >> 32) & LOW32, n_cards - i, s0, s1, s2, s3)
        j += i
        order[i], order[j] = order[j], order[i]
        if i + 1 < n_penalty:
            j, s0, s1, s2, s3 = below_held(word & LOW32, n_cards - 1 - i, s0, s1, s2, s3)
            j += i + 1
            order[i + 1], order[j] = order[j], order[i + 1]
    pen = np.int64(0)
    lo = np.int64(0)
    hi = np.int64(0)
    for i in range(n_penalty):
        place = np.int64(1) << order[i]
        value = kinds[i]
        pen |= place
        lo |= place * (value & 1)
        hi |= place * (value >> 1)
    return pen, lo, hi, s0, s1, s2, s3


@inlined_kernel
def masks_from(sequence, start, pen, lo, hi):
    """The masks of ``sequence``, given ``pen, lo, hi`` already right below place ``start``."""
    keep = (np.int64(1) << start) - 1
    pen &= keep
    lo &= keep
    hi &= keep
    for p in range(start, sequence.shape[0]):
        value = np.int64(sequence[p])
        penalty = -np.int64(value > 0)
        code = (value - 1) & penalty
        pen |= (penalty & 1) << p
        lo |= (code & 1) << p
        hi |= (code >> 1) << p
    return pen, lo, hi


@inlined_kernel
def to_sequence(pen, lo, hi, deal):
    """The deal's card values, place by place (``deal.shape[0]`` places)."""
    for p in range(deal.shape[0]):
        bit = (pen >> p) & 1
        deal[p] = np.uint8(bit * (1 + ((lo >> p) & 1) + 2 * ((hi >> p) & 1)))


@kernel
def fill_random(stream, draw, order, kinds, sequence, pens, los, his, size):
    """Draw ``size`` random deals into the mask arrays (``draw``: DRAW_PLACES or DRAW_SHUFFLE;
    None: DRAW_PLACES, and the shuffle is left out of the compiled kernel, a branch on None
    that Numba prunes, as ``multi``'s: a cold search compiles a second less).

    ``order`` (0..N-1 permuted) and ``sequence`` (the deck's cards) persist from one
    block to the next, as the draws require.
    """
    if draw is None or draw == DRAW_PLACES:
        s0, s1, s2, s3 = stream[0], stream[1], stream[2], stream[3]
        for i in range(size):
            pens[i], los[i], his[i], s0, s1, s2, s3 = _draw_places(s0, s1, s2, s3, order, kinds)
        stream[0], stream[1], stream[2], stream[3] = s0, s1, s2, s3
    else:
        for i in range(size):
            shuffle(sequence, stream)
            pens[i], los[i], his[i] = masks_from(sequence, 0, 0, 0, 0)
    pens[size], los[size], his[size] = pens[0], los[0], his[0]


@kernel
def fill_enumerated(sequence, started, pens, los, his, size):
    """The next ``size`` deals in index order after ``sequence`` (from it when not
    ``started``); leaves ``sequence`` at the last one."""
    pen, lo, hi = masks_from(sequence, 0, 0, 0, 0)
    for i in range(size):
        if started or i > 0:
            changed = next_deal(sequence)
            if changed >= 0:
                pen, lo, hi = masks_from(sequence, changed, pen, lo, hi)
        pens[i], los[i], his[i] = pen, lo, hi
    pens[size], los[size], his[size] = pens[0], los[0], his[0]


@kernel
def new_masks(size):
    """Mask arrays for blocks of ``size`` deals (and the dummy deal) and their packed results."""
    return (np.zeros(size + 1, dtype=np.int64), np.zeros(size + 1, dtype=np.int64),
            np.zeros(size + 1, dtype=np.int64), np.zeros(size + 1, dtype=np.int64))


# ---- results ---------------------------------------------------------------------------

@inlined_kernel
def _write_row(result, total, row):
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
    row[R_SIZES + winner - 1] = total  # the winner holds every card
    return True


@kernel
def play_general(deal, split, leader, max_tricks, flat, row):
    """Hand a game (long, capped, or not the fast path's) to the general engine."""
    rules.deal_out(deal, split, flat)
    rules.play_game(flat, split, leader, max_tricks, row)


@inlined_kernel
def fast_limit(max_tricks):
    """Tricks after which a fast path gives a game to the general engine."""
    return LONG_TRICKS if max_tricks <= 0 else min(LONG_TRICKS, max_tricks)


@kernel
def _record_from(pens, los, his, size, start, base, scratch, recorder):
    """Record a played block's games (packed results in ``scratch``'s last array, as
    ``play_block`` gives them with ``fast_limit(max_tricks)``) from ``start`` on, at
    positions ``base``..; stops at a game too long for the fast path, its deal in
    ``scratch``'s first array.  Returns the recorder and that game's index (``size``: none).
    """
    deal, _, row, packed = scratch
    total = deal.shape[0]
    counts, histogram = recorder.counts, recorder.histogram
    top_positions, top_rows, top_deals = (recorder.top_positions, recorder.top_rows,
                                          recorder.top_deals)
    for i in range(start, size):
        result = packed[i]
        if result >> (2 * PACK) == S_LONG:
            to_sequence(pens[i], los[i], his[i], deal)
            return recorder, i
        cards = result & PACK_MASK
        if not batch.admits(counts, top_rows, cards):  # most games: only counted
            batch.count_win(counts, histogram, cards, (result >> (2 * PACK)) - S_WIN1 + 1, True)
            continue
        # record_game reads the deal only when it keeps the game on the leaderboard
        _write_row(result, total, row)
        to_sequence(pens[i], los[i], his[i], deal)
        batch.record_game(base + i, row, deal, counts, histogram, top_positions, top_rows,
                          top_deals)
    return recorder, size


@kernel
def replay_long(position, split, leader, max_tricks, scratch, recorder):
    """Play the deal in ``scratch``'s first array with the general engine and record it at
    ``position``: a game too long (or capped) for the fast path.  A kernel of its own,
    called from Python, so that the general engine compiles only for a search that meets
    such a game (a random deal of the standard deck practically never: a cold search then
    compiles half as much)."""
    deal, flat, row, _ = scratch
    play_general(deal, split, leader, max_tricks, flat, row)
    return batch.record(position, row, deal, recorder)


def record_played(pens, los, his, size, base, split, leader, max_tricks, scratch, recorder):
    """Record a played block (its packed results in ``scratch``'s last array, as
    ``play_block`` gives them with ``fast_limit(max_tricks)``) at positions ``base``..;
    a game too long for the fast path is replayed by the general engine (``replay_long``),
    in its place in the order.  Returns the recorder.  The GPU engine (``gpu/engine.py``)
    records its blocks here too."""
    start = 0
    while True:
        recorder, stop = _record_from(pens, los, his, size, start, base, scratch, recorder)
        if stop >= size:
            return recorder
        recorder = replay_long(base + stop, split, leader, max_tricks, scratch, recorder)
        start = stop + 1


@kernel
def play_block(pens, los, his, n, split, leader, limit, packed, multi=MULTI, wide=WIDE):
    """Play deals 0..n-1 between the hands of ``split`` (2 to 4, none empty); packed results.

    With 3 or 4 players, ``bitboard_multi`` plays each game until two players are left in;
    the lockstep plays those ends from there.  ``multi`` None: ``split`` is 2 players, and
    the 3- and 4-player code is left out of the compiled kernel (a branch on None that
    Numba prunes when it compiles: a cold 2-player search compiles a fifth less).
    ``wide``: see ``_play_block``.
    """
    total = np.int64(0)
    for hand in split:  # loops, not split.sum(), np.full, np.zeros: each numpy function is
        total += hand   # one more for a cold search to compile (a second of the first search)
    if multi is None or split.shape[0] == 2:
        firsts = np.empty(n + 1, dtype=np.int64)
        starts = np.empty(n + 1, dtype=np.int64)
        for i in range(n + 1):
            firsts[i], starts[i] = split[0], 0
        _play_block(pens, los, his, firsts, starts, n, total, leader, limit, packed, wide)
        return
    ends = bitboard_multi.new_ends(n)
    count = bitboard_multi.play_block(pens, los, his, n, split, leader, limit, packed, ends)
    if count > 0:
        e_pens, e_los, e_his, firsts, starts, _, _, e_packed = ends
        for array in (e_pens, e_los, e_his, firsts, starts):
            array[count] = array[0]  # the dummy deal
        _play_block(e_pens, e_los, e_his, firsts, starts, count, total, 0, limit, e_packed,
                    wide)
        bitboard_multi.merge_ends(ends, count, packed)


def new_scratch(total, players, block):
    """The scratch arrays of ``record_played``: one deal, the hands, a result row and the
    packed results of a block of ``block`` deals (and the dummy deal).  Made in Python: a
    kernel of its own would be one more to compile."""
    return (np.zeros(total, dtype=np.uint8), np.zeros((players, CAPACITY), dtype=np.uint8),
            np.zeros(RESULT_LEN, dtype=np.int64), np.zeros(block + 1, dtype=np.int64))


# ---- the chunk kernels -----------------------------------------------------------------

def multi_for(split) -> int | None:
    """The kernels' ``multi`` for hands of ``split``: None for 2 players (the kernel then
    compiles without the 3- and 4-player code), ``MULTI`` otherwise."""
    return None if len(split) == 2 else MULTI


def wide_for(cards) -> int | None:
    """The kernels' ``wide`` for deals of ``cards`` (a deal's or the deck's card values):
    None where their penalty cards fit one word (the kernel then compiles without the wide
    lockstep), ``WIDE`` otherwise."""
    return None if np.count_nonzero(cards) <= MAX_VALUED else WIDE


class _Blocks:
    """What a chunk kernel keeps from one call to the next: its masks, its scratch and
    ``progress`` (the block in flight: its first position, the next game to record, its
    size), so that it can hand a long game to ``replay_long`` and go on where it stopped."""

    def __init__(self, total: int, players: int):
        self.masks = tuple(np.zeros((3, BLOCK + 1), dtype=np.int64))  # as new_masks
        self.scratch = new_scratch(total, players, BLOCK)
        self.progress = np.zeros(3, dtype=np.int64)


@inlined_kernel
def _next_block(progress, n_deals):
    """The next block of a chunk once the one in flight is recorded: its size (0 after the
    last; -1 while a block is in flight); ``progress`` updated."""
    if progress[1] < progress[2]:
        return -1
    base = progress[0] + progress[2]
    size = max(min(BLOCK, n_deals - base), 0)
    progress[0], progress[1], progress[2] = base, 0, size
    return size


@inlined_kernel
def _record_block(masks, split, max_tricks, scratch, progress, recorder, multi, wide):
    """Play the block just filled (``progress[1]`` 0) and record the block in flight from
    ``progress`` on: (the recorder, the position of a game the fast path does not finish,
    or -1 when the block is all recorded)."""
    pens, los, his = masks
    base, start, size = progress[0], progress[1], progress[2]
    if start == 0:
        play_block(pens, los, his, size, split, 0, fast_limit(max_tricks), scratch[3], multi,
                   wide)
    recorder, stop = _record_from(pens, los, his, size, start, base, scratch, recorder)
    progress[1] = stop + 1 if stop < size else size
    return recorder, base + stop if stop < size else -1


@kernel
def _random_blocks(stream, n_deals, split, draw, max_tricks, recorder, draws, masks, scratch,
                   progress, multi, wide):
    """``random_chunk``'s blocks from ``progress`` on (``draws``: what ``fill_random`` keeps
    from block to block); stops at a game the fast path does not finish: (the recorder,
    that game's position), or -1 when the chunk is done."""
    order, kinds, sequence = draws
    pens, los, his = masks
    position = -1
    while position < 0:
        size = _next_block(progress, n_deals)
        if size > 0:
            fill_random(stream, draw, order, kinds, sequence, pens, los, his, size)
        elif size == 0:
            break
        recorder, position = _record_block(masks, split, max_tricks, scratch, progress,
                                           recorder, multi, wide)
    return recorder, position


def _replaying(blocks, split, max_tricks, scratch, recorder):
    """``blocks(recorder)`` (a chunk's blocks) until the chunk is done, each game it stops at
    replayed by the general engine (``replay_long``) in its place; the recorder."""
    while True:
        recorder, position = blocks(recorder)
        if position < 0:
            return recorder
        recorder = replay_long(position, split, 0, max_tricks, scratch, recorder)


def places_or(draw: int) -> int | None:
    """The kernels' ``draw`` for ``draw``: None for DRAW_PLACES (the kernel then compiles
    without the shuffle, see ``fill_random``), DRAW_SHUFFLE as it is."""
    return None if draw == DRAW_PLACES else draw


def random_chunk(stream, n_deals, sorted_cards, split, draw, max_tricks, recorder, multi=MULTI,
                 wide=WIDE):
    """Play ``n_deals`` uniformly random deals of the deck ``sorted_cards`` between the
    hands of ``split`` (player 1 leads), drawn from ``stream`` by ``draw``; ``multi`` and
    ``wide``: see ``play_block`` (``multi_for`` and ``wide_for`` give them).

    Same semantics and recorder as ``batch.random_chunk`` (positions 0..n_deals-1); with
    DRAW_SHUFFLE the deals are the ones ``batch.random_chunk`` plays.
    """
    blocks = _Blocks(len(sorted_cards), len(split))
    draws = (np.arange(len(sorted_cards), dtype=np.int64), penalty_kinds(sorted_cards),
             sorted_cards.copy())
    kernel_draw = places_or(draw)
    return _replaying(
        lambda recorder: _random_blocks(stream, n_deals, split, kernel_draw, max_tricks,
                                        recorder, draws, blocks.masks, blocks.scratch,
                                        blocks.progress, multi, wide),
        split, max_tricks, blocks.scratch, recorder)


@kernel
def _enumerated_blocks(sequence, n_deals, split, max_tricks, recorder, masks, scratch,
                       progress, multi, wide):
    """``enumerate_chunk``'s blocks from ``progress`` on, as ``_random_blocks``."""
    pens, los, his = masks
    position = -1
    while position < 0:
        size = _next_block(progress, n_deals)
        if size > 0:
            fill_enumerated(sequence, progress[0] > 0, pens, los, his, size)
        elif size == 0:
            break
        recorder, position = _record_block(masks, split, max_tricks, scratch, progress,
                                           recorder, multi, wide)
    return recorder, position


def enumerate_chunk(first_sequence, n_deals, split, max_tricks, recorder, multi=MULTI,
                    wide=WIDE):
    """Play ``n_deals`` consecutive deals in index order from ``first_sequence``
    as ``batch.enumerate_chunk``; ``multi`` and ``wide``: see ``play_block``."""
    blocks = _Blocks(len(first_sequence), len(split))
    sequence = first_sequence.copy()
    return _replaying(
        lambda recorder: _enumerated_blocks(sequence, n_deals, split, max_tricks, recorder,
                                            blocks.masks, blocks.scratch, blocks.progress,
                                            multi, wide),
        split, max_tricks, blocks.scratch, recorder)


@kernel
def _play_fast(sequences, split, leader, max_tricks, results, pending, multi, wide):
    """``play_sequences``' fast path: each deal's row, but for those too long for it, whose
    indices go to ``pending``; returns how many."""
    total = sequences.shape[1]
    pens, los, his, packed = new_masks(BLOCK)
    limit = fast_limit(max_tricks)
    n_deals = sequences.shape[0]
    count = 0
    for base in range(0, n_deals, BLOCK):
        size = min(BLOCK, n_deals - base)
        for i in range(size):
            pens[i], los[i], his[i] = masks_from(sequences[base + i], 0, 0, 0, 0)
        pens[size], los[size], his[size] = pens[0], los[0], his[0]
        play_block(pens, los, his, size, split, leader, limit, packed, multi, wide)
        for i in range(size):
            if not _write_row(packed[i], total, results[base + i]):
                pending[count] = base + i
                count += 1
    return count


@kernel
def _play_long(sequences, indices, split, leader, max_tricks, results):
    """The rows of the deals ``indices``, by the general engine (see ``replay_long``)."""
    flat = np.zeros((split.shape[0], CAPACITY), dtype=np.uint8)
    for i in indices:
        play_general(sequences[i], split, leader, max_tricks, flat, results[i])


def warm_long(sorted_cards, split, max_tricks) -> None:
    """Compile (or load) ``replay_long`` and ``_play_long`` for these hands, with the types
    the chunk kernels give them: what a search compiles only when it meets a long game, and
    ``beggar-search compile`` compiles ahead (an image's cache holds it)."""
    scratch = new_scratch(len(sorted_cards), len(split), 1)
    scratch[0][:] = sorted_cards
    replay_long(0, split, 0, max_tricks, scratch, batch.new_recorder(1, len(sorted_cards)))
    _play_long(np.ascontiguousarray(sorted_cards[None, :]), np.zeros(1, dtype=np.int64),
               split, 0, max_tricks, np.zeros((1, RESULT_LEN), dtype=np.int64))


def play_sequences(sequences, split, leader, max_tricks, results, multi=MULTI, wide=WIDE):
    """Play deals (rows of card values, hand 1 then hand 2) as ``rules.play_sequences``;
    ``multi`` and ``wide``: see ``play_block``."""
    if split.min() == 0:  # an empty hand: not the fast path's
        rules.play_sequences(sequences, split, leader, max_tricks, results)
        return
    pending = np.zeros(len(sequences), dtype=np.int64)
    count = _play_fast(sequences, split, leader, max_tricks, results, pending, multi, wide)
    if count:
        _play_long(sequences, pending[:count], split, leader, max_tricks, results)


@kernel
def _generate(stream, n_deals, sorted_cards, kinds, draw, deals):
    order = np.arange(sorted_cards.shape[0])
    sequence = sorted_cards.copy()
    pens, los, his, _ = new_masks(1)
    for d in range(n_deals):
        fill_random(stream, draw, order, kinds, sequence, pens, los, his, 1)
        to_sequence(pens[0], los[0], his[0], deals[d])


def generate(stream: np.ndarray, n_deals: int, sorted_cards: np.ndarray,
             draw: int = DRAW_PLACES) -> np.ndarray:
    """The deals ``random_chunk`` plays from ``stream``, in order (uint8 (n, N)); advances it."""
    deals = np.zeros((int(n_deals), len(sorted_cards)), dtype=np.uint8)
    cards = np.asarray(sorted_cards, dtype=np.uint8)
    _generate(stream, int(n_deals), cards, penalty_kinds(cards), draw, deals)
    return deals


__all__ = ["DRAW_PLACES", "DRAW_SHUFFLE", "enumerate_chunk", "generate", "lockstep_block",
           "multi_for", "next_deal", "one_by_one_block", "play_narrow",
           "play_sequences", "play_splits", "random_chunk", "warm_long", "wide_for"]
