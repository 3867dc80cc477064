"""The bitboard game for 3 and 4 players: one game at a time, hands as bit masks, until
two players are left in; the 2-player lockstep (``engine/bitboard.py``) plays the rest.

Hands are the 2-player kernel's masks (``engine/bitboard.py``: penalty places and
two bits of value per hand, plus a size), one set per player, and the pile the
same.  A trick is a few events:

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

At the end of a trick every player left without cards is out; the game is won
when one player is left in.  When two are left in, the rules are the 2-player
rules, and the game's state (two hands, the leader's first, and the cards and
tricks played) is handed to the 2-player lockstep, 16 games at a time: most of a
3- or 4-player game is played between the last two, and the lockstep plays a
trick in about half the time.  As in the 2-player kernel, games past ``limit``
tricks come back as ``S_LONG`` for the general engine to replay from the deal, so
loops and the cap stay exact.
"""

import numpy as np

from ..jit import kernel
from .bits import PACK, S_LONG, S_WIN1, cttz

PEN, LO, HI, SIZE = 0, 1, 2, 3  # rows of a hands array (4, players)


@kernel
def _go_out(after, player):
    """Take ``player`` out of the ring of players still in (``after[p]``: the next one in)."""
    before = player
    while after[before] != player:
        before = after[before]
    after[before] = after[player]


@kernel
def _lay(hands, player, k):
    """Player lays its top ``k`` cards."""
    hands[PEN, player] >>= k
    hands[LO, player] >>= k
    hands[HI, player] >>= k
    hands[SIZE, player] -= k


@kernel
def _pile_penalty(ppen, plo, phi, pn, value_lo, value_hi):
    """The pile with a penalty card (value bits ``value_lo``, ``value_hi``) laid at place pn."""
    return (ppen | (np.int64(1) << pn), plo | (value_lo << pn), phi | (value_hi << pn),
            pn + 1)


@kernel
def _next_penalty(hands, player):
    """Place of the player's next penalty card, or its size when it holds none."""
    return min(cttz(hands[PEN, player]), hands[SIZE, player])


@kernel
def play_game(pen, lo, hi, split, leader, limit, hands, after, ends, end):
    """Play one deal (masks over the deal sequence, hands of ``split`` cards, none empty)
    until it is over or two players are left in.

    Returns the packed result (``bits.PACK``), or -1 when two players are left in: the
    game's state then goes to row ``end`` of ``ends`` (see ``new_ends``), for the
    2-player lockstep to finish.  ``hands`` (4, players) and ``after`` (players) are
    scratch.
    """
    players = split.shape[0]
    start = 0
    one = np.int64(1)
    for p in range(players):
        n = split[p]
        mask = (one << n) - 1
        hands[PEN, p] = (pen >> start) & mask
        hands[LO, p] = (lo >> start) & mask
        hands[HI, p] = (hi >> start) & mask
        hands[SIZE, p] = n
        start += n
        after[p] = p + 1 if p + 1 < players else 0
    players_in = players
    lead = leader
    cards = np.int64(0)
    tricks = np.int64(0)
    while True:
        ppen = np.int64(0)
        plo = np.int64(0)
        phi = np.int64(0)
        pn = np.int64(0)
        current = lead
        last = -1  # who laid the last penalty card
        owed = 0
        winner = -1
        while winner < 0:
            if last < 0:
                # plain phase: the first event in turn order
                best = np.int64(1) << 40
                event = current
                q = current
                event_at = 0
                event_rank = 0
                for r in range(players_in):
                    a = _next_penalty(hands, q)
                    at = a * players_in + r
                    better = at < best
                    best = min(at, best)
                    event = q if better else event
                    event_at = a if better else event_at
                    event_rank = r if better else event_rank
                    q = after[q]
                penalty = event_at < hands[SIZE, event]  # else it must lay and has none
                value_lo = (hands[LO, event] >> event_at) & 1
                value_hi = (hands[HI, event] >> event_at) & 1
                q = current
                for r in range(players_in):  # every plain card, and the penalty card
                    _lay(hands, q, event_at + (r < event_rank) + (penalty and r == event_rank))
                    q = after[q]
                pn += best
                if penalty:
                    ppen, plo, phi, pn = _pile_penalty(ppen, plo, phi, pn, value_lo, value_hi)
                    last, owed, current = event, 1 + value_lo + 2 * value_hi, after[event]
                else:  # out
                    current = after[event]
                    _go_out(after, event)
                    players_in -= 1
                    if players_in == 1:
                        winner = current
            else:
                a = _next_penalty(hands, current)
                if a >= owed:  # pays in full
                    _lay(hands, current, owed)
                    pn += owed
                    winner = last
                elif a < hands[SIZE, current]:  # a penalty card: the demand passes on
                    value_lo = (hands[LO, current] >> a) & 1
                    value_hi = (hands[HI, current] >> a) & 1
                    _lay(hands, current, a + 1)
                    ppen, plo, phi, pn = _pile_penalty(ppen, plo, phi, pn + a, value_lo,
                                                       value_hi)
                    last, owed, current = current, 1 + value_lo + 2 * value_hi, after[current]
                else:  # runs out while paying: out, the pile goes to the last penalty card
                    _lay(hands, current, a)
                    pn += a
                    _go_out(after, current)
                    players_in -= 1
                    winner = last
        size = hands[SIZE, winner]
        hands[PEN, winner] |= ppen << size
        hands[LO, winner] |= plo << size
        hands[HI, winner] |= phi << size
        hands[SIZE, winner] = size + pn
        cards += pn
        tricks += 1
        q = winner
        for _ in range(players_in - 1):
            q = after[q]
            if hands[SIZE, q] == 0:
                _go_out(after, q)
                players_in -= 1
        if players_in <= 1:
            return cards | (tricks << PACK) | ((S_WIN1 + winner) << (2 * PACK))
        if tricks >= limit:
            return cards | (tricks << PACK) | (S_LONG << (2 * PACK))
        if players_in == 2:  # the winner leads: its hand first, then the other's
            e_pens, e_los, e_his, firsts, starts, ids, _, _ = ends
            other = after[winner]
            size = hands[SIZE, winner]
            e_pens[end] = hands[PEN, winner] | (hands[PEN, other] << size)
            e_los[end] = hands[LO, winner] | (hands[LO, other] << size)
            e_his[end] = hands[HI, winner] | (hands[HI, other] << size)
            firsts[end] = size
            starts[end] = cards | (tricks << PACK)
            ids[2 * end] = winner
            ids[2 * end + 1] = other
            return -1
        lead = winner


@kernel
def new_ends(n):
    """Room for ``n`` games left with two players (and a dummy): their hands as masks (the
    leader's first), the leader's size, cards and tricks played (packed), the two players,
    the deal each came from, and the lockstep's packed results."""
    return (np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
            np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
            np.zeros(n + 1, dtype=np.int64), np.zeros(2 * n + 2, dtype=np.int64),
            np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64))


@kernel
def play_block(pens, los, his, n, split, leader, limit, packed, ends):
    """Play deals 0..n-1 (masks) until over or two players are left in; packed results per
    deal, the others go to ``ends``.  Returns how many did."""
    hands = np.zeros((4, split.shape[0]), dtype=np.int64)
    after = np.zeros(split.shape[0], dtype=np.int64)
    deals = ends[6]
    count = 0
    for i in range(n):
        result = play_game(pens[i], los[i], his[i], split, leader, limit, hands, after, ends,
                           count)
        if result >= 0:
            packed[i] = result
        else:
            deals[count] = i
            count += 1
    return count


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
