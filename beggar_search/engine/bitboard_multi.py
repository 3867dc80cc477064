"""The bitboard game for 3 and 4 players, hands as bit masks, until two players are left in:
16 games in lockstep where the CPU has AVX-512, else one at a time with branches
(``play_block``); the 2-player kernel (``engine/bitboard.py``) plays the rest.

Hands are the 2-player kernel's masks (``engine/bitboard.py``: penalty places and
two bits of value per hand, plus a size), one set per player slot (four slots in the
state whatever the player count; a step for 3 players and one for 4), and the pile
the same.  A step is up to three events of a trick, branch-free in every lane:

- the plain phase (no penalty card on the pile yet): the players still in lay in
  turn from the leader.  With m players in and each player's next penalty card at
  place ``a`` (or its size when it has none), the player in turn position r meets
  its event after ``a * m + r`` cards in all; the first such event decides the
  phase.  Everyone lays its share of plain cards by a shift; the event is a
  penalty card laid, or a player who must lay and has none going out (the
  general engine's rules: with one player left in, that player takes the pile).
- payments: the payer's next penalty card is one bit scan away; it pays in full
  (the last penalty card's player takes the pile), lays a penalty card (the demand
  passes on), or runs out (goes out; the last penalty card's player takes the pile).
- a penalty card laid (either way) is answered in the same step: the next player in
  pays, and its next penalty card is already known (the scan done for the first
  event, less the plain cards it has just laid); and a penalty card laid in that
  payment is answered by the player after, with three or more players in.  A step
  is up to three events, and a trick takes about 1.4 steps instead of 3.4 (one event
  a step; standard deck, 3 players).

At the end of a trick every player left without cards is out; the game is won
when one player is left in.  When two are left in, the rules are the 2-player
rules, and the game's state (two hands, the leader's first, and the cards and
tricks played) is handed to the 2-player lockstep: most of a 3- or 4-player game
is played between the last two, and that lockstep plays a trick in about half the
time.  As in the 2-player kernel, games past ``limit`` tricks come back as
``S_LONG`` for the general engine to replay from the deal, so loops and the cap
stay exact.
"""

import numpy as np

from ..jit import inlined_kernel, kernel
from .bits import (
    LOCKSTEP,
    PACK,
    PACK_MASK,
    S_LONG,
    S_WIN1,
    aligned_zeros,
    clear_pile,
    cttz,
    drop_top,
    lay_on_pile,
    popcount,
    prefer_wide_vectors,
    realign_stack,
    take_pile,
)


@kernel
def new_ends(n):
    """Room for ``n`` games left with two players (and a dummy): their hands as masks (the
    leader's first), the leader's size, cards and tricks played (packed), the two players,
    the deal each came from, and the lockstep's packed results."""
    return (np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
            np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
            np.zeros(n + 1, dtype=np.int64), np.zeros(2 * n + 2, dtype=np.int64),
            np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64))


# ---- the lockstep: LANES games side by side, as in engine/bitboard.py ------------------
# Four player slots whatever the player count (a slot never dealt to is out from the
# start; three players step by ``_step3``, which leaves slot 3 alone and has all three in
# at a step's start: a player out in a trick's plain phase stops the lane, and ``_resume``
# plays the rest of that trick alone; four players step by ``_step4`` until a trick leaves
# three, whose game then goes on in ``_step3``'s lanes, its hands moved to slots 0-2 and
# its players' names kept beside); the state of lane g is field f
# at state[f * LANES + g].  A step is one event of a trick, branch-free: in the plain
# phase (no penalty card on the pile) the first event in turn order, during a payment
# the payer's next penalty card, full payment or running out; after a penalty card
# laid, the next players' payments too.  A trick's end is resolved in the step that
# ends it: the taker takes the pile, players left without cards go out, and the taker
# leads the next trick.
LANES = 16
F_PEN, F_LO, F_HI, F_N = 0, 4, 8, 12  # + slot
(F_PPEN, F_PLO, F_PHI, F_PN, F_OWED, F_CUR, F_LAST, F_IN, F_CARDS, F_TRICKS,
 F_DONE) = range(16, 27)
N_FIELDS = 27
S_TWO = S_WIN1 + 8  # two players left in: the 2-player lockstep plays the rest
S_RESUME = S_WIN1 + 9  # three in, one out in the plain phase: the trick's rest alone
S_THREE = S_WIN1 + 10  # four players down to three: ``_step3``'s lockstep plays on


@inlined_kernel
def _load_slot(state, g, slot):
    """One player slot's hand of lane ``g``: penalty bits, card bits, size."""
    return (state[(F_PEN + slot) * LANES + g], state[(F_LO + slot) * LANES + g],
            state[(F_HI + slot) * LANES + g], state[(F_N + slot) * LANES + g])


@inlined_kernel
def _store_slot(state, g, slot, pen, lo, hi, n):
    """Store one player slot's hand (penalty bits, card bits, size) of lane group ``g``."""
    state[(F_PEN + slot) * LANES + g] = pen
    state[(F_LO + slot) * LANES + g] = lo
    state[(F_HI + slot) * LANES + g] = hi
    state[(F_N + slot) * LANES + g] = n


@inlined_kernel
def _load_rest(state, g):
    """Lane g's pile (penalty bits, value bits, cards), the cards owed, the player to act,
    the last penalty card's player (-1 in the plain phase), the cards and tricks played."""
    return (state[F_PPEN * LANES + g], state[F_PLO * LANES + g], state[F_PHI * LANES + g],
            state[F_PN * LANES + g], state[F_OWED * LANES + g], state[F_CUR * LANES + g],
            state[F_LAST * LANES + g], state[F_CARDS * LANES + g],
            state[F_TRICKS * LANES + g])


@inlined_kernel
def _store_rest(state, g, pile, owed, cur, last, players_in, cards, tricks, done):
    """Store lane g's fields but its hands (``_load_rest``'s, the players in and the end)."""
    (state[F_PPEN * LANES + g], state[F_PLO * LANES + g], state[F_PHI * LANES + g],
     state[F_PN * LANES + g]) = pile
    state[F_OWED * LANES + g] = owed
    state[F_CUR * LANES + g] = cur
    state[F_LAST * LANES + g] = last
    state[F_IN * LANES + g] = players_in
    state[F_CARDS * LANES + g] = cards
    state[F_TRICKS * LANES + g] = tricks
    state[F_DONE * LANES + g] = done


@inlined_kernel
def _answered(d, n, laid, c_owed, active):
    """A payment for a penalty card of value ``c_owed + 1``, where the mask ``active`` is all
    ones: the payer's next penalty card at place ``d`` (its size ``n`` when it has none),
    ``laid`` of its cards already laid in this step.  Returns the cards it pays and the
    masks: paid in full, ran out, laid a penalty card (the next player pays in turn)."""
    owed = 1 + c_owed
    left = d - laid  # the payer's cards before its next penalty card
    paid = min(left, owed) & active
    full = active & -np.int64(left >= owed)
    runs_out = active & ~full & -np.int64(d == n)
    return paid, full, runs_out, active & ~full & ~runs_out


@inlined_kernel
def _piled(pile, first, laid, c_e, paid_a, laid_a, c_a, paid_b, laid_b, c_b):
    """The pile (``ppen, plo, phi, pn``) after a step's events: ``first`` cards (the plain
    phase's, or the first payment's), the event's penalty card where ``laid`` is 1 (its
    value - 1 ``c_e``), the second event's ``paid_a`` cards and penalty card, the third's."""
    ppen, plo, phi, pn = pile
    pn += first
    ppen, plo, phi, pn = lay_on_pile(ppen, plo, phi, pn, laid, c_e & 1, c_e >> 1)
    pn += paid_a
    ppen, plo, phi, pn = lay_on_pile(ppen, plo, phi, pn, laid_a, c_a & 1, c_a >> 1)
    pn += paid_b
    return lay_on_pile(ppen, plo, phi, pn, laid_b, c_b & 1, c_b >> 1)


@inlined_kernel
def _outcome(plain, last, players, first, second, third):
    """What a step's events did, every player in at its start: ``players`` the event's
    player and the three after it in turn (slots; the third is the event's own with three
    players), ``first`` to ``third`` each event's masks (paid in full, ran out, laid a
    penalty card).  Returns the players out (bits), the mask of a player out in the plain
    phase (its trick goes on without it: ``_resume``), the mask of a trick's end, who
    takes the pile, and who acts next."""
    e, after_e, after_a, after_b = players
    full, runs_out, penalty = first
    full_a, runs_out_a, penalty_a = second
    full_b, runs_out_b, penalty_b = third
    one = np.int64(1)
    out = (((one << e) & runs_out) | ((one << after_e) & runs_out_a)
           | ((one << after_a) & runs_out_b))
    ends = full | (runs_out & ~plain) | full_a | runs_out_a | full_b | runs_out_b
    taker = (((last & ~plain) & ~penalty) | (e & penalty & ~penalty_a)
             | (after_e & penalty_a))
    return (out, plain & runs_out, ends, taker,
            (after_b & penalty_b) | (after_e & ~penalty_a))


@inlined_kernel
def _ended(cards, tricks, pn, players_in, empty, ends, limit):
    """Where the mask ``ends`` is all ones, a trick's end: its ``pn`` cards and one trick
    counted, and every player left without cards (bits ``empty``) out.  Returns the cards,
    tricks, players in, and the masks: the game over, too long, down to two players."""
    cards += pn & ends
    tricks -= ends
    players_in &= ~(empty & ends)
    left = popcount(players_in)
    over = ends & -np.int64(left <= 1)
    long_game = ends & ~over & -np.int64(tricks >= limit)
    return (cards, tricks, players_in, over, long_game,
            ends & ~over & ~long_game & -np.int64(left == 2))


@inlined_kernel
def _slot(g, f, q):
    return (f + q) * LANES + g


@kernel
def _step4(state, limit):
    """``_step3`` for four players, all four in at a step's start (turn order is slot order
    from the current player).  A player out in the plain phase stops the lane
    (``S_RESUME``) for ``_resume``; a trick that leaves three players stops it
    (``S_THREE``): its game goes on in ``_step3``'s lanes."""
    realign_stack()
    prefer_wide_vectors()  # a kernel of its own, so said again (as in _lanes)
    one = np.int64(1)
    finished = np.int64(0)
    for g in range(LANES):
        pen0, lo0, hi0, n0 = _load_slot(state, g, 0)
        pen1, lo1, hi1, n1 = _load_slot(state, g, 1)
        pen2, lo2, hi2, n2 = _load_slot(state, g, 2)
        pen3, lo3, hi3, n3 = _load_slot(state, g, 3)
        ppen, plo, phi, pn, owed, cur, last, cards, tricks = _load_rest(state, g)
        d0 = cttz(pen0 | (one << n0))
        d1 = cttz(pen1 | (one << n1))
        d2 = cttz(pen2 | (one << n2))
        d3 = cttz(pen3 | (one << n3))
        c0 = ((lo0 >> d0) & 1) | (((hi0 >> d0) & 1) << 1)
        c1 = ((lo1 >> d1) & 1) | (((hi1 >> d1) & 1) << 1)
        c2 = ((lo2 >> d2) & 1) | (((hi2 >> d2) & 1) << 1)
        c3 = ((lo3 >> d3) & 1) | (((hi3 >> d3) & 1) << 1)
        plain = -np.int64(last < 0)
        r0 = (0 - cur) & 3  # turn positions from the current player
        r1 = (1 - cur) & 3
        r2 = (2 - cur) & 3
        r3 = (3 - cur) & 3
        k0 = ((d0 << 2) & plain) + r0  # as in _step3: d * 4 + r, or the payer's r = 0
        k1 = ((d1 << 2) & plain) + r1
        k2 = ((d2 << 2) & plain) + r2
        k3 = ((d3 << 2) & plain) + r3
        best = min(min(k0, k1), min(k2, k3))
        is0 = -np.int64(k0 == best)
        is1 = -np.int64(k1 == best)
        is2 = -np.int64(k2 == best)
        is3 = -np.int64(k3 == best)
        e = (1 & is1) | (2 & is2) | (3 & is3)
        d_e = (d0 & is0) | (d1 & is1) | (d2 & is2) | (d3 & is3)
        n_e = (n0 & is0) | (n1 & is1) | (n2 & is2) | (n3 & is3)
        c_e = (c0 & is0) | (c1 & is1) | (c2 & is2) | (c3 & is3)
        r_e = (r0 & is0) | (r1 & is1) | (r2 & is2) | (r3 & is3)
        paid = min(d_e, owed)
        full = ~plain & -np.int64(d_e >= owed)
        runs_out = ~full & -np.int64(d_e == n_e)
        penalty = ~full & ~runs_out
        laid = penalty & 1
        lay0 = (((d_e - -np.int64(r0 < r_e)) & plain) | (paid & is0 & ~plain)) + (laid & is0)
        lay1 = (((d_e - -np.int64(r1 < r_e)) & plain) | (paid & is1 & ~plain)) + (laid & is1)
        lay2 = (((d_e - -np.int64(r2 < r_e)) & plain) | (paid & is2 & ~plain)) + (laid & is2)
        lay3 = (((d_e - -np.int64(r3 < r_e)) & plain) | (paid & is3 & ~plain)) + (laid & is3)
        # the next players: slots e + 1 and e + 2 (and e + 3 owes after a third penalty card)
        ia0, ia1, ia2, ia3 = is3, is0, is1, is2
        ib0, ib1, ib2, ib3 = is2, is3, is0, is1
        after_e = (1 & is0) | (2 & is1) | (3 & is2)
        after_a = (2 & is0) | (3 & is1) | (1 & is3)
        after_b = (3 & is0) | (1 & is2) | (2 & is3)
        lay_a = (lay0 & ia0) | (lay1 & ia1) | (lay2 & ia2) | (lay3 & ia3)
        d_a = (d0 & ia0) | (d1 & ia1) | (d2 & ia2) | (d3 & ia3)
        n_a = (n0 & ia0) | (n1 & ia1) | (n2 & ia2) | (n3 & ia3)
        c_a = (c0 & ia0) | (c1 & ia1) | (c2 & ia2) | (c3 & ia3)
        paid_a, full_a, runs_out_a, penalty_a = _answered(d_a, n_a, lay_a, c_e, penalty)
        laid_a = penalty_a & 1
        lay_a = paid_a + laid_a
        lay_b = (lay0 & ib0) | (lay1 & ib1) | (lay2 & ib2) | (lay3 & ib3)
        d_b = (d0 & ib0) | (d1 & ib1) | (d2 & ib2) | (d3 & ib3)
        n_b = (n0 & ib0) | (n1 & ib1) | (n2 & ib2) | (n3 & ib3)
        c_b = (c0 & ib0) | (c1 & ib1) | (c2 & ib2) | (c3 & ib3)
        paid_b, full_b, runs_out_b, penalty_b = _answered(d_b, n_b, lay_b, c_a, penalty_a)
        laid_b = penalty_b & 1
        lay_b = paid_b + laid_b
        lay0 += (lay_a & ia0) + (lay_b & ib0)
        lay1 += (lay_a & ia1) + (lay_b & ib1)
        lay2 += (lay_a & ia2) + (lay_b & ib2)
        lay3 += (lay_a & ia3) + (lay_b & ib3)
        pen0, lo0, hi0, n0 = drop_top(pen0, lo0, hi0, n0, lay0)
        pen1, lo1, hi1, n1 = drop_top(pen1, lo1, hi1, n1, lay1)
        pen2, lo2, hi2, n2 = drop_top(pen2, lo2, hi2, n2, lay2)
        pen3, lo3, hi3, n3 = drop_top(pen3, lo3, hi3, n3, lay3)
        ppen, plo, phi, pn = _piled((ppen, plo, phi, pn), (best & plain) | (paid & ~plain),
                                    laid, c_e, paid_a, laid_a, c_a, paid_b, laid_b, c_b)
        out, resume, ends, taker, after = _outcome(
            plain, last, (e, after_e, after_a, after_b), (full, runs_out, penalty),
            (full_a, runs_out_a, penalty_a), (full_b, runs_out_b, penalty_b))
        take0 = ends & -np.int64(taker == 0)
        take1 = ends & -np.int64(taker == 1)
        take2 = ends & -np.int64(taker == 2)
        take3 = ends & -np.int64(taker == 3)
        pen0, lo0, hi0, n0 = take_pile(pen0, lo0, hi0, n0, ppen, plo, phi, pn, take0)
        pen1, lo1, hi1, n1 = take_pile(pen1, lo1, hi1, n1, ppen, plo, phi, pn, take1)
        pen2, lo2, hi2, n2 = take_pile(pen2, lo2, hi2, n2, ppen, plo, phi, pn, take2)
        pen3, lo3, hi3, n3 = take_pile(pen3, lo3, hi3, n3, ppen, plo, phi, pn, take3)
        empty = ((1 & -np.int64(n0 == 0)) | (2 & -np.int64(n1 == 0))
                 | (4 & -np.int64(n2 == 0)) | (8 & -np.int64(n3 == 0)))
        cards, tricks, players_in, over, long_game, two = _ended(
            cards, tricks, pn, 15 & ~out, empty, ends, limit)
        three_left = ends & ~over & ~long_game & ~two & -np.int64(players_in != 15)
        ppen, plo, phi, pn = clear_pile(ppen, plo, phi, pn, ends)
        _store_slot(state, g, 0, pen0, lo0, hi0, n0)
        _store_slot(state, g, 1, pen1, lo1, hi1, n1)
        _store_slot(state, g, 2, pen2, lo2, hi2, n2)
        _store_slot(state, g, 3, pen3, lo3, hi3, n3)
        done = (((S_WIN1 + taker) & over) | (S_LONG & long_game) | (S_TWO & two)
                | (S_THREE & three_left) | (S_RESUME & resume))
        _store_rest(state, g, (ppen, plo, phi, pn), (1 + c_b) & penalty_b,
                    (taker & ends) | (after & ~ends), (after_a & penalty_b) | ~penalty_b,
                    players_in, cards, tricks, done)
        finished |= -np.int64(done != 0) & (one << g)
    return finished


@kernel
def _step3(state, limit):
    """Advance every lane by up to three events (the module's docstring); returns the lanes
    whose game is over, too long or down to two players (bit g for lane g; ``state[F_DONE]``
    says which).  Three players, all three in at a step's start: turn order is slot order
    from the current player, so the players after an event's are known without ranks; a
    player out in the plain phase stops the lane (``S_RESUME``) for ``_resume``."""
    realign_stack()
    prefer_wide_vectors()
    one = np.int64(1)
    three = np.int64(3)
    finished = np.int64(0)
    for g in range(LANES):
        pen0, lo0, hi0, n0 = _load_slot(state, g, 0)
        pen1, lo1, hi1, n1 = _load_slot(state, g, 1)
        pen2, lo2, hi2, n2 = _load_slot(state, g, 2)
        ppen, plo, phi, pn, owed, cur, last, cards, tricks = _load_rest(state, g)
        d0 = cttz(pen0 | (one << n0))
        d1 = cttz(pen1 | (one << n1))
        d2 = cttz(pen2 | (one << n2))
        c0 = ((lo0 >> d0) & 1) | (((hi0 >> d0) & 1) << 1)
        c1 = ((lo1 >> d1) & 1) | (((hi1 >> d1) & 1) << 1)
        c2 = ((lo2 >> d2) & 1) | (((hi2 >> d2) & 1) << 1)
        plain = -np.int64(last < 0)
        # turn positions from the current player (the payer in a payment: position 0)
        r0 = (three - cur) & -np.int64(cur != 0)
        r1 = one - cur + (three & -np.int64(cur == 2))
        r2 = 2 - cur
        # plain phase: the event after d * 3 + r cards; in a payment, the payer's (r = 0)
        k0 = ((d0 * 3) & plain) + r0
        k1 = ((d1 * 3) & plain) + r1
        k2 = ((d2 * 3) & plain) + r2
        best = min(min(k0, k1), k2)
        is0 = -np.int64(k0 == best)
        is1 = -np.int64(k1 == best)
        is2 = -np.int64(k2 == best)
        e = (1 & is1) | (2 & is2)
        d_e = (d0 & is0) | (d1 & is1) | (d2 & is2)
        n_e = (n0 & is0) | (n1 & is1) | (n2 & is2)
        c_e = (c0 & is0) | (c1 & is1) | (c2 & is2)
        r_e = (r0 & is0) | (r1 & is1) | (r2 & is2)
        paid = min(d_e, owed)
        full = ~plain & -np.int64(d_e >= owed)
        runs_out = ~full & -np.int64(d_e == n_e)
        penalty = ~full & ~runs_out
        laid = penalty & 1
        lay0 = (((d_e - -np.int64(r0 < r_e)) & plain) | (paid & is0 & ~plain)) + (laid & is0)
        lay1 = (((d_e - -np.int64(r1 < r_e)) & plain) | (paid & is1 & ~plain)) + (laid & is1)
        lay2 = (((d_e - -np.int64(r2 < r_e)) & plain) | (paid & is2 & ~plain)) + (laid & is2)
        # the next player (slot e + 1) and the one after it (e + 2): slot order
        ia0, ia1, ia2 = is2, is0, is1
        ib0, ib1, ib2 = is1, is2, is0
        after_e = (1 & is0) | (2 & is1)
        after_a = (1 & is2) | (2 & is0)
        lay_a = (lay0 & ia0) | (lay1 & ia1) | (lay2 & ia2)
        d_a = (d0 & ia0) | (d1 & ia1) | (d2 & ia2)
        n_a = (n0 & ia0) | (n1 & ia1) | (n2 & ia2)
        c_a = (c0 & ia0) | (c1 & ia1) | (c2 & ia2)
        paid_a, full_a, runs_out_a, penalty_a = _answered(d_a, n_a, lay_a, c_e, penalty)
        laid_a = penalty_a & 1
        lay_a = paid_a + laid_a
        lay_b = (lay0 & ib0) | (lay1 & ib1) | (lay2 & ib2)
        d_b = (d0 & ib0) | (d1 & ib1) | (d2 & ib2)
        n_b = (n0 & ib0) | (n1 & ib1) | (n2 & ib2)
        c_b = (c0 & ib0) | (c1 & ib1) | (c2 & ib2)
        paid_b, full_b, runs_out_b, penalty_b = _answered(d_b, n_b, lay_b, c_a, penalty_a)
        laid_b = penalty_b & 1
        lay_b = paid_b + laid_b
        lay0 += (lay_a & ia0) + (lay_b & ib0)
        lay1 += (lay_a & ia1) + (lay_b & ib1)
        lay2 += (lay_a & ia2) + (lay_b & ib2)
        pen0, lo0, hi0, n0 = drop_top(pen0, lo0, hi0, n0, lay0)
        pen1, lo1, hi1, n1 = drop_top(pen1, lo1, hi1, n1, lay1)
        pen2, lo2, hi2, n2 = drop_top(pen2, lo2, hi2, n2, lay2)
        ppen, plo, phi, pn = _piled((ppen, plo, phi, pn), (best & plain) | (paid & ~plain),
                                    laid, c_e, paid_a, laid_a, c_a, paid_b, laid_b, c_b)
        # out at once: a payer who runs out (one who runs out in the plain phase: resumed)
        out, resume, ends, taker, after = _outcome(
            plain, last, (e, after_e, after_a, e), (full, runs_out, penalty),
            (full_a, runs_out_a, penalty_a), (full_b, runs_out_b, penalty_b))
        take0 = ends & -np.int64(taker == 0)
        take1 = ends & -np.int64(taker == 1)
        take2 = ends & -np.int64(taker == 2)
        pen0, lo0, hi0, n0 = take_pile(pen0, lo0, hi0, n0, ppen, plo, phi, pn, take0)
        pen1, lo1, hi1, n1 = take_pile(pen1, lo1, hi1, n1, ppen, plo, phi, pn, take1)
        pen2, lo2, hi2, n2 = take_pile(pen2, lo2, hi2, n2, ppen, plo, phi, pn, take2)
        empty = (1 & -np.int64(n0 == 0)) | (2 & -np.int64(n1 == 0)) | (4 & -np.int64(n2 == 0))
        cards, tricks, players_in, over, long_game, two = _ended(
            cards, tricks, pn, 7 & ~out, empty, ends, limit)
        ppen, plo, phi, pn = clear_pile(ppen, plo, phi, pn, ends)
        _store_slot(state, g, 0, pen0, lo0, hi0, n0)
        _store_slot(state, g, 1, pen1, lo1, hi1, n1)
        _store_slot(state, g, 2, pen2, lo2, hi2, n2)
        done = (((S_WIN1 + taker) & over) | (S_LONG & long_game) | (S_TWO & two)
                | (S_RESUME & resume))
        _store_rest(state, g, (ppen, plo, phi, pn), (1 + c_b) & penalty_b,
                    (taker & ends) | (after & ~ends), (after_a & penalty_b) | ~penalty_b,
                    players_in, cards, tricks, done)
        finished |= -np.int64(done != 0) & (one << g)
    return finished


@kernel
def _resume(state, g, limit, hands):
    """Lane ``g``'s trick after a player went out in its plain phase, played alone by the
    players left (``_trick``), and the lane's state written back as a step writes a trick's
    end: over, too long, or down to two or three players."""
    for q in range(4):
        hands[0, q] = state[_slot(g, F_PEN, q)]
        hands[1, q] = state[_slot(g, F_LO, q)]
        hands[2, q] = state[_slot(g, F_HI, q)]
        hands[3, q] = state[_slot(g, F_N, q)]
    players_in = state[F_IN * LANES + g]
    cur = state[F_CUR * LANES + g]
    ring = m = np.int64(0)
    for k in range(4):  # the players in, in turn order from the current one
        q = (cur + k) & 3
        if (players_in >> q) & 1:
            ring |= q << (2 * m)
            m += 1
    ring, m, pn = _trick(hands, ring, m, state[F_PN * LANES + g])
    ring, m = _without_empty(hands, ring, m)
    taker = ring & 3
    tricks = state[F_TRICKS * LANES + g] + 1
    players_in = np.int64(0)
    for j in range(m):
        players_in |= np.int64(1) << _at(ring, j)
    for q in range(4):
        state[_slot(g, F_PEN, q)] = hands[0, q]
        state[_slot(g, F_LO, q)] = hands[1, q]
        state[_slot(g, F_HI, q)] = hands[2, q]
        state[_slot(g, F_N, q)] = hands[3, q]
    state[F_CARDS * LANES + g] += pn
    state[F_TRICKS * LANES + g] = tricks
    state[F_CUR * LANES + g] = taker
    state[F_IN * LANES + g] = players_in
    if m <= 1:
        return S_WIN1 + taker
    if tricks >= limit:
        return np.int64(S_LONG)
    return np.int64(S_TWO) if m == 2 else np.int64(S_THREE)


@inlined_kernel
def _dealt(pen, lo, hi, start, n):
    """The hand of a deal's places ``start``..``start + n - 1`` (masks over the deal
    sequence): its bit planes and size."""
    mask = (np.int64(1) << n) - 1
    return (pen >> start) & mask, (lo >> start) & mask, (hi >> start) & mask, np.int64(n)


@inlined_kernel
def _load(state, g, pen, lo, hi, sizes, leader, players_in, played):
    """Deal ``pen, lo, hi`` (masks over a deal sequence) to lane g at a trick's start: slot q
    takes the next ``(sizes >> 8 * q) & 255`` cards; ``leader`` leads, ``players_in``
    (bits) are in, and ``played`` cards and tricks (packed) are already played."""
    start = np.int64(0)
    for q in range(4):
        n = (sizes >> (8 * q)) & 255
        (state[_slot(g, F_PEN, q)], state[_slot(g, F_LO, q)], state[_slot(g, F_HI, q)],
         state[_slot(g, F_N, q)]) = _dealt(pen, lo, hi, start, n)
        start += n
    for f in (F_PPEN, F_PLO, F_PHI, F_PN, F_OWED, F_DONE):
        state[f * LANES + g] = 0
    state[F_CARDS * LANES + g] = played & PACK_MASK
    state[F_TRICKS * LANES + g] = played >> PACK
    state[F_CUR * LANES + g] = leader
    state[F_LAST * LANES + g] = -1
    state[F_IN * LANES + g] = players_in


@inlined_kernel
def _store_end(ends, count, deal, winner, other, played, size, pen, lo, hi):
    """Row ``count`` of ``ends``: the game of ``deal`` left with players ``winner`` (who
    leads, holding ``size`` cards) and ``other``, its two hands as one deal's masks (the
    leader's first), and the cards and tricks ``played``."""
    e_pens, e_los, e_his, firsts, starts, ids, deals, _ = ends
    e_pens[count] = pen
    e_los[count] = lo
    e_his[count] = hi
    firsts[count] = size
    starts[count] = played
    ids[2 * count] = winner
    ids[2 * count + 1] = other
    deals[count] = deal


@kernel
def new_threes(n):
    """Room for ``n`` four-player games down to three players: their hands as one deal's
    masks in turn order from the leader, the three sizes (8 bits each), cards and tricks
    played (packed), the players (2 bits each, in the same order), the deal."""
    return (np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
            np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
            np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
            np.zeros(n + 1, dtype=np.int64))


@inlined_kernel
def _load_row(state, g, threes, j):
    """Row ``j`` of ``threes`` to lane g, its leader in slot 0; returns its players."""
    pens, los, his, sizes, starts, ids, _ = threes
    _load(state, g, pens[j], los[j], his[j], sizes[j], np.int64(0), np.int64(7), starts[j])
    return ids[j]


@inlined_kernel
def _store_row(threes, j, state, g, deal, players, played):
    """Lane g's game (of ``deal``, its slots' players ``players``), down to three players
    at a trick's end, to row ``j`` of ``threes``: the leader's hand first."""
    pens, los, his, sizes, starts, ids, deals = threes
    cur = state[F_CUR * LANES + g]
    gone = (cttz(~state[F_IN * LANES + g]) - cur) & 3  # the player out, in turn from cur
    pen = lo = hi = size = order = start = np.int64(0)
    for k in range(3):  # the leader, then the others in turn order (no branch)
        q = (cur + k + np.int64(k >= gone)) & 3
        n = state[_slot(g, F_N, q)]
        pen |= state[_slot(g, F_PEN, q)] << start
        lo |= state[_slot(g, F_LO, q)] << start
        hi |= state[_slot(g, F_HI, q)] << start
        size |= n << (8 * k)
        order |= ((players >> (2 * q)) & 3) << (2 * k)
        start += n
    pens[j], los[j], his[j], sizes[j], ids[j] = pen, lo, hi, size, order
    starts[j] = played
    deals[j] = deal


@kernel
def lockstep_block(pens, los, his, n, split, leader, limit, packed, ends):
    """``play_block`` 16 games at a time in vector lanes: where the CPU has AVX-512.  Three
    players step by ``_step3`` from their deal; four by ``_step4`` until down to three, then
    by ``_step3``: each step a kernel of its own, compiled once."""
    threes = new_threes(n if split.shape[0] == 4 else 0)
    count, rows = _lanes(pens, los, his, n, split, leader, limit, packed, ends, 0, threes,
                         False)
    if rows > 0:
        for array in threes[:6]:
            array[rows] = array[0]  # the dummy row: a copy, of the dummy deal
        threes[6][rows] = n
        count, _ = _lanes(pens, los, his, rows, split, leader, limit, packed, ends, count,
                          threes, True)
    return count


@kernel
def _lanes(pens, los, his, n, split, leader, limit, packed, ends, count, threes, rows):
    """``lockstep_block``'s lanes over deals 0..n-1 (``rows`` False), or over the first
    ``n`` rows of ``threes`` (True); ``count`` rows of ``ends`` are full.  Returns the rows
    of ``ends`` and of ``threes`` full after."""
    realign_stack()
    prefer_wide_vectors()  # as the 2-player lockstep (bits.prefer_wide_vectors)
    state = aligned_zeros(N_FIELDS * LANES)  # a cache line's start (bits.aligned_zeros)
    index = np.zeros(LANES, dtype=np.int64)
    players = np.zeros(LANES, dtype=np.int64)  # each lane's slots' players, 2 bits each
    hands = np.zeros((4, 4), dtype=np.int64)  # _resume's
    three = rows or split.shape[0] == 3
    identity = np.int64(0b11100100)
    dealt = np.int64(0)  # a deal's hand sizes, 8 bits a slot (as threes' rows hold them)
    for q in range(split.shape[0]):
        dealt |= split[q] << (8 * q)
    everyone = (np.int64(1) << split.shape[0]) - 1
    handed = 0
    for g in range(LANES):
        i = min(g, n)
        index[g] = i
        if rows:
            players[g] = _load_row(state, g, threes, i)
        else:
            _load(state, g, pens[i], los[i], his[i], dealt, leader, everyone, np.int64(0))
            players[g] = identity
    busy = min(n, LANES)
    while busy > 0:
        finished = _step3(state, limit) if three else _step4(state, limit)
        while finished != 0:
            g = cttz(finished)
            finished &= finished - 1
            i = index[g]
            deal = threes[6][i] if rows else i
            # lane g's game of deal i is over, too long or down to two or three players: its
            # packed result, or (not the dummy deal's) its state to a row of ends or threes
            done = state[F_DONE * LANES + g]
            if done == S_RESUME:
                done = _resume(state, g, limit, hands)
            played = state[F_CARDS * LANES + g] | (state[F_TRICKS * LANES + g] << PACK)
            if done == S_THREE:
                if i < n:
                    _store_row(threes, handed, state, g, deal, players[g], played)
                    handed += 1
            elif done != S_TWO:
                if rows and done >= S_WIN1:  # the winner's slot, as its player
                    done = S_WIN1 + ((players[g] >> (2 * (done - S_WIN1))) & 3)
                packed[deal] = played | (done << (2 * PACK))
            elif i < n:
                winner = state[F_CUR * LANES + g]  # the taker leads: its hand first
                other = cttz(state[F_IN * LANES + g] & ~(np.int64(1) << winner))
                size = state[_slot(g, F_N, winner)]
                _store_end(ends, count, deal, (players[g] >> (2 * winner)) & 3,
                           (players[g] >> (2 * other)) & 3, played, size,
                           state[_slot(g, F_PEN, winner)] | (state[_slot(g, F_PEN, other)] << size),
                           state[_slot(g, F_LO, winner)] | (state[_slot(g, F_LO, other)] << size),
                           state[_slot(g, F_HI, winner)] | (state[_slot(g, F_HI, other)] << size))
                count += 1
            following = min(i + LANES, n)
            index[g] = following
            busy -= (following == n) & (i < n)
            if rows:
                players[g] = _load_row(state, g, threes, following)
            else:
                _load(state, g, pens[following], los[following], his[following], dealt,
                      leader, everyone, np.int64(0))
    return count, handed


# ---- one game at a time, with branches (a CPU without AVX-512) ---------------------------
# The hands are rows of ``hands`` (penalty bits, value bits lo and hi, size) by player slot;
# the players in are ``ring``, two bits a slot in turn order from the one who acts next (the
# leader, or the payer), ``m`` of them.  A turn passes by rotating the ring, and a player
# going out leaves it: only the case at hand is worked out, and the first event of a trick
# is a minimum, not a branch per player.  With three in, ``_three_in`` holds the hands in
# registers instead.  Compiling counts: with every function below inlined by Numba,
# ``one_by_one_block`` took 15 s to compile, and 6.3 s with all but ``_trick`` and
# ``_one_game`` kernels of their own (LLVM inlines the small ones all the same; 3.9 s before
# ``_three_in``).  ``_trick`` is inlined, and called once: called, four players played
# 1.17x slower; each inlined copy costs seconds.

@kernel
def _at(ring, j):
    """The slot in turn position ``j``."""
    return (ring >> (j << 1)) & 3


@kernel
def _turned(ring, m, k):
    """The ring of ``m`` players from the one ``k`` places on (0 <= k < m)."""
    width = m << 1
    shift = k << 1
    return ((ring >> shift) | (ring << (width - shift))) & ((np.int64(1) << width) - 1)


@kernel
def _next_penalty(hands, q):
    """The place of slot ``q``'s next penalty card, or its size when it has none."""
    return cttz(hands[0, q] | (np.int64(1) << hands[3, q]))


@kernel
def _lay(hands, q, k):
    """Slot ``q``'s hand without its top ``k`` cards."""
    hands[0, q], hands[1, q], hands[2, q], hands[3, q] = drop_top(
        hands[0, q], hands[1, q], hands[2, q], hands[3, q], k)


@kernel
def _lay_penalty(hands, q, ppen, plo, phi, pn):
    """Slot ``q`` lays its top card, a penalty card, on the pile: the pile after, and the
    cards the next player owes."""
    value = (hands[1, q] & 1) | ((hands[2, q] & 1) << 1)  # its value - 1
    ppen, plo, phi, pn = lay_on_pile(ppen, plo, phi, pn, np.int64(1), value & 1, value >> 1)
    _lay(hands, q, 1)
    return ppen, plo, phi, pn, 1 + value


@kernel
def _loaded(hands, q):
    """Slot ``q``'s hand: (penalty bits, value bits lo, hi, size)."""
    return hands[0, q], hands[1, q], hands[2, q], hands[3, q]


@kernel
def _stored(hands, q, hand):
    """Store ``hand`` as slot ``q``'s."""
    hands[0, q], hands[1, q], hands[2, q], hands[3, q] = hand


@kernel
def _dropped(hand, k):
    """``hand`` without its top ``k`` cards."""
    return drop_top(hand[0], hand[1], hand[2], hand[3], k)


@kernel
def _three_in(hands, ring, cards, tricks, limit):
    """Whole tricks while three players are in, their hands in registers (a turn passes by
    naming them anew): from a trick's start, led by the ring's first, until a trick leaves a
    player without cards or ``limit`` tricks are played (the pile taken, the ring from its
    taker, nobody taken out yet: returns the ring, cards, tricks, 0 and False), or a player
    goes out in the plain phase (the ring from that player, still in, and the plain cards on
    the pile: returns ..., their count and True).  The hands are stored back either way.
    (Four players' hands do not fit the registers: with four in, ``_trick`` plays faster.)
    A hand's next penalty card and its top card's value are written out here as in
    ``_next_penalty`` and ``_lay_penalty``: as kernels on the hand's tuple, shared by the
    three, the phase with three or four in took 2-5% longer (2026-12-06)."""
    one = np.int64(1)
    three = np.int64(3)
    a = _loaded(hands, _at(ring, 0))
    b = _loaded(hands, _at(ring, 1))
    c = _loaded(hands, _at(ring, 2))
    while True:
        da = cttz(a[0] | (one << a[3]))
        db = cttz(b[0] | (one << b[3]))
        dc = cttz(c[0] | (one << c[3]))
        # the first event in turn order; the players before it lay one card more
        if da <= db and da <= dc:
            a, b, c = _dropped(a, da), _dropped(b, da), _dropped(c, da)
            pn = 3 * da
        elif db <= dc:
            a, b, c = _dropped(b, db), _dropped(c, db), _dropped(a, db + 1)
            pn = 3 * db + 1
            ring = _turned(ring, three, one)
        else:
            a, b, c = _dropped(c, dc), _dropped(a, dc + 1), _dropped(b, dc + 1)
            pn = 3 * dc + 2
            ring = _turned(ring, three, 2 * one)
        if a[3] == 0:  # the event's player must lay and has none: it goes out
            _stored(hands, ring & 3, a)
            _stored(hands, _at(ring, 1), b)
            _stored(hands, _at(ring, 2), c)
            return ring, cards, tricks, pn, True
        value = (a[1] & 1) | ((a[2] & 1) << 1)  # its penalty card's value - 1
        ppen, plo, phi, pn = lay_on_pile(np.int64(0), np.int64(0), np.int64(0), pn, one,
                                         value & 1, value >> 1)
        owed = 1 + value
        while True:  # the next player pays
            a, b, c = b, c, _dropped(a, 1)
            ring = _turned(ring, three, one)
            k = cttz(a[0] | (one << a[3]))
            if k >= owed:  # in full
                a = _dropped(a, owed)
                pn += owed
                break
            a = _dropped(a, k)
            pn += k
            if a[3] == 0:  # runs out (out at the trick's end)
                break
            value = (a[1] & 1) | ((a[2] & 1) << 1)
            ppen, plo, phi, pn = lay_on_pile(ppen, plo, phi, pn, one, value & 1, value >> 1)
            owed = 1 + value
        # the last penalty card's player takes the pile and leads
        a, b, c = take_pile(c[0], c[1], c[2], c[3], ppen, plo, phi, pn, -one), a, b
        ring = _turned(ring, three, 2 * one)
        cards += pn
        tricks += 1
        if b[3] == 0 or c[3] == 0 or tricks >= limit:
            _stored(hands, ring & 3, a)
            _stored(hands, _at(ring, 1), b)
            _stored(hands, _at(ring, 2), c)
            return ring, cards, tricks, np.int64(0), False


@kernel
def _without_empty(hands, ring, m):
    """The ring of ``m`` players after a trick, without those left without cards (its first,
    the taker, has cards): (the ring, how many)."""
    j = m - 1
    while j > 0:
        if hands[3, _at(ring, j)] == 0:
            low = (np.int64(1) << (j << 1)) - 1
            ring = (ring & low) | ((ring >> 2) & ~low)
            m -= 1
        j -= 1
    return ring, m


@inlined_kernel
def _trick(hands, ring, m, pn):
    """A trick, or the rest of one whose plain phase has put ``pn`` plain cards on the pile,
    led by the ring's first, ``m`` players in: (the ring from its taker, who has taken the
    pile, the players in, the pile's cards).  A player who runs out is out at once; the
    others left without cards are still in."""
    ppen = plo = phi = np.int64(0)
    owed = np.int64(0)
    while True:
        # the plain phase: the player in turn position j meets its event (its next penalty
        # card, or having none to lay) after d * m + j cards in all: the first event is the
        # smallest d, the earliest in turn order among equals
        q0 = _at(ring, 0)
        q1 = _at(ring, 1)
        q2 = _at(ring, 2)
        q3 = _at(ring, 3)
        first = min(_next_penalty(hands, q0) << 2, (_next_penalty(hands, q1) << 2) | 1)
        if m >= 3:
            first = min(first, (_next_penalty(hands, q2) << 2) | 2)
            if m == 4:
                first = min(first, (_next_penalty(hands, q3) << 2) | 3)
        d_e = first >> 2
        j_e = first & 3
        # the players before the event's lay one card more
        _lay(hands, q0, d_e + (j_e > 0))
        _lay(hands, q1, d_e + (j_e > 1))
        if m >= 3:
            _lay(hands, q2, d_e + (j_e > 2))
            if m == 4:
                _lay(hands, q3, d_e)
        pn += d_e * m + j_e
        ring = _turned(ring, m, j_e)  # the event's player first
        e = ring & 3
        if hands[3, e] != 0:  # it lays its penalty card; the next player pays
            ppen, plo, phi, pn, owed = _lay_penalty(hands, e, ppen, plo, phi, pn)
            ring = _turned(ring, m, np.int64(1))
            break
        # it must lay and has none: out; with one player left in, that one takes the pile
        ring >>= 2
        m -= 1
        if m == 1:
            break
    if owed > 0:
        while True:  # payments: the ring's first pays the last penalty card, its last's
            p = ring & 3
            k = _next_penalty(hands, p)
            if k >= owed:  # in full: the last penalty card's player takes the pile
                _lay(hands, p, owed)
                pn += owed
                break
            _lay(hands, p, k)
            pn += k
            if hands[3, p] == 0:  # runs out: out, and the last penalty card takes the pile
                ring >>= 2
                m -= 1
                break
            ppen, plo, phi, pn, owed = _lay_penalty(hands, p, ppen, plo, phi, pn)
            ring = _turned(ring, m, np.int64(1))
        ring = _turned(ring, m, m - 1)  # the last player, who takes it, first
    t = ring & 3
    hands[0, t], hands[1, t], hands[2, t], hands[3, t] = take_pile(
        hands[0, t], hands[1, t], hands[2, t], hands[3, t], ppen, plo, phi, pn, np.int64(-1))
    return ring, m, pn


@inlined_kernel
def _one_game(pen, lo, hi, split, leader, limit, hands):
    """One game of ``lockstep_block``, played alone, event by event with branches, until it
    is over, too long or down to two players: (its end as ``state[F_DONE]``, cards and
    tricks played (packed), the ring of the players in, the taker's slot first); the hands
    are left in ``hands``."""
    start = np.int64(0)
    for q in range(4):
        n = np.int64(split[q]) if q < split.shape[0] else np.int64(0)
        hands[0, q], hands[1, q], hands[2, q], hands[3, q] = _dealt(pen, lo, hi, start, n)
        start += n
    m = np.int64(split.shape[0])
    ring = _turned(np.int64(0b11100100) & ((np.int64(1) << (m << 1)) - 1), m, np.int64(leader))
    cards = np.int64(0)
    tricks = np.int64(0)
    while True:  # three or four players in (two: handed to the 2-player kernel)
        pn = np.int64(0)
        rest = True
        if m == 3:  # tricks with three in, until one ends with a player out
            ring, cards, tricks, pn, rest = _three_in(hands, ring, cards, tricks, limit)
            if rest:  # the ring's first goes out in the plain phase, and the trick goes on
                ring >>= 2
                m -= 1
        if rest:  # (one call: each copy of the trick inlined takes seconds to compile)
            ring, m, pn = _trick(hands, ring, m, pn)
            cards += pn
            tricks += 1
        # the trick has ended: the taker leads next; every player left without cards is out
        ring, m = _without_empty(hands, ring, m)
        played = cards | (tricks << PACK)
        if m <= 1:
            return S_WIN1 + (ring & 3), played, ring
        if tricks >= limit:
            return np.int64(S_LONG), played, ring
        if m == 2:
            return np.int64(S_TWO), played, ring


@kernel
def one_by_one_block(pens, los, his, n, split, leader, limit, packed, ends):
    """``lockstep_block``'s results and ends, the games played one at a time with branches:
    where the CPU has no AVX-512."""
    hands = np.zeros((4, 4), dtype=np.int64)
    count = 0
    for i in range(n):
        done, played, ring = _one_game(pens[i], los[i], his[i], split, leader, limit, hands)
        if done != S_TWO:
            packed[i] = played | (done << (2 * PACK))
            continue
        winner = ring & 3  # the taker leads: its hand first
        other = (ring >> 2) & 3
        size = hands[3, winner]
        _store_end(ends, count, i, winner, other, played, size,
                   hands[0, winner] | (hands[0, other] << size),
                   hands[1, winner] | (hands[1, other] << size),
                   hands[2, winner] | (hands[2, other] << size))
        count += 1
    return count


# play_block(pens, los, his, n, split, leader, limit, packed, ends): play deals 0..n-1 (masks;
# index n a dummy deal) until over or two players are left in; packed results per deal, the
# others go to ``ends``; returns how many did.  The form the CPU plays faster (bits.LOCKSTEP,
# as ``bitboard.play_narrow``).
play_block = lockstep_block if LOCKSTEP else one_by_one_block


@kernel
def merge_ends(ends, count, packed):
    """The lockstep's results of the games in ``ends``, under each deal and its player."""
    ids, deals, results = ends[5], ends[6], ends[7]
    low = (np.int64(1) << (2 * PACK)) - 1
    for j in range(count):
        result = results[j]
        status = result >> (2 * PACK)
        if status != S_LONG:
            result = (result & low) | ((S_WIN1 + ids[2 * j + status - S_WIN1]) << (2 * PACK))
        packed[deals[j]] = result
