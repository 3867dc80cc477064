"""Egyptian ratscrew between two players, card by card with nothing else: the chunk
kernels' fast path.

The general engine (``rules.trick_with`` on ``ers.SlapPlay``) plays any number of players
and keeps a rolling hash of every hand, updated at each card laid and taken, so that its
game loop finds loops (Brent's algorithm).  Two players need neither: whoever does not lay
plays next in the plain phase, nobody is out while the game goes on (a two-player game ends
the moment a player is), and a game that ends needs no loop check.  So ``play_two`` plays
on two rings of ranks and a handful of integers, and what the game asks of the rules it asks
as the general trick does (``rules.trick_with``): the pattern on the pile
(``rules.slap_shows``) and who slaps (``rules.slap_taker``, the odds policy's draws
included), and what a rank demands (``rules.card_value``), all ratscrew's (``ers``).

A game still going after ``LONG_TRICKS`` tricks, or 25 a card of a smaller deck (none of
300,000 standard deals under ``turn`` passed 590; every loop gets there), or at the agreed
cap, is left to the general engine, which plays it again from its deal: loops, their cycle
ids and caps are its own.
The chunk kernels (``rules.play_dealt``, through ``ers``' ``plays_dealt``) take this path;
one game played alone (``ers.play_game``) and the loop searches' exact engine, whose tried
states often loop, play on the general engine.
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel
from .ers import F_KEY, F_POLICY, ODDS, odds_cap, seed_game
from .rules import (
    R_CARDS,
    R_OUTCOME,
    R_SIZES,
    R_TRICKS,
    R_WINNER,
    RESULT_LEN,
    RING,
    WIN,
    card_value,
    deal_out,
    slap_check,
    slap_shows,
    slap_taker,
)

LONG_TRICKS = 1500  # past this many tricks a game is played again by the general engine
TRICKS_PER_CARD = 25  # and past this many a card of the deck (small decks loop early)


@kernel
def play_dealt_two(game, ring, pile, sequence, split, leader, max_tricks, result):
    """Play the two-player deal ``sequence`` (dealt out as ``split``, ``leader`` to lead) of
    ``game`` (an ``ers.SlapPlay``) on scratch arrays of its ``rules.GameScratch``: ``ring``
    (a state's hands, free while the general engine has found no loop) and ``pile``.
    Returns whether the game ended within the fast path's tricks, its row written into
    ``result``."""
    if split[0] == 0 or split[1] == 0:
        return False  # nothing to play: the general engine says who holds the cards
    deal_out(sequence, split, ring)
    flags = game.slaps.flags
    cap = max_tricks
    if flags[F_POLICY] == ODDS:
        seed_game(flags[F_KEY], ring, split, game.stream)  # as the general engine seeds
        cap = odds_cap(max_tricks)
    limit = min(LONG_TRICKS, TRICKS_PER_CARD * (split[0] + split[1]))
    if cap > 0:
        limit = min(limit, cap)
    return play_two(game, ring, split[0], split[1], leader, pile, limit, result)


@kernel
def play_two(game, ring, size0, size1, leader, pile, limit, result):
    """Play a two-player game of ``game`` (an ``ers.SlapPlay``) from the hands laid out in
    ``ring`` (uint8 (2, CAPACITY): ``size0`` and ``size1`` cards from place 0, both at
    least one) with ``leader`` to lead; ``pile`` is scratch (uint8 (2, CAPACITY):
    ``pile[0]`` the cards laid).  Who slaps is the general trick's own
    (``rules.slap_taker`` on the game's ``rules.slap_check``), nobody out; under odds its
    draws advance the stream's words the check carries, not ``game.stream`` (a game played
    again is seeded again).

    Returns True with the game's row written into ``result`` when it ends within ``limit``
    tricks; False when it has not ended after ``limit`` tricks (a loop, a long game or the
    cap), ``result`` untouched.
    """
    check = slap_check(game)
    head0, tail0 = 0, size0
    head1, tail1 = 0, size1
    p = leader
    cards = 0
    tricks = 0
    laid = 0
    owed = 0
    last = -1  # who laid the trick's last penalty card (-1: the plain phase)
    while True:
        if p == 0:
            if head0 == tail0:  # must lay and cannot: out, the other takes the pile
                return _won(1, laid, cards, tricks, tail0 - head0, tail1 - head1, result)
            card = np.int64(ring[0, head0 & RING])
            head0 += 1
        else:
            if head1 == tail1:
                return _won(0, laid, cards, tricks, tail0 - head0, tail1 - head1, result)
            card = np.int64(ring[1, head1 & RING])
            head1 += 1
        pile[0, laid] = card
        laid += 1
        taker = -1
        if slap_shows(check, pile, laid):
            taker, check = slap_taker(check, 0, 2, p)
        if taker < 0:
            value = card_value(check, card)
            if value > 0:
                owed = value
                last = p
                p ^= 1
            elif last >= 0:
                owed -= 1
                if owed == 0:
                    taker = last
            else:
                p ^= 1
        if taker >= 0:  # the pile goes under the taker's hand in the order laid
            if taker == 0:
                for i in range(laid):
                    ring[0, tail0 & RING] = pile[0, i]
                    tail0 += 1
            else:
                for i in range(laid):
                    ring[1, tail1 & RING] = pile[0, i]
                    tail1 += 1
            cards += laid
            tricks += 1
            laid = 0
            owed = 0
            last = -1
            p = taker
            if head0 == tail0 or head1 == tail1:  # the other has nothing left: out
                return _won(taker, 0, cards, tricks - 1, tail0 - head0, tail1 - head1,
                            result)
            if tricks >= limit:
                return False


@kernel
def _won(winner, laid, cards, tricks, size0, size1, result):
    """The row of a game that ``winner`` (from 0) wins by taking the last pile: ``laid``
    cards still on it, and that trick, not counted yet."""
    for k in range(RESULT_LEN):
        result[k] = 0
    result[R_OUTCOME] = WIN
    result[R_CARDS] = cards + laid
    result[R_TRICKS] = tricks + 1
    result[R_WINNER] = winner + 1
    result[R_SIZES] = size0 + (laid if winner == 0 else 0)
    result[R_SIZES + 1] = size1 + (laid if winner == 1 else 0)
    return True
