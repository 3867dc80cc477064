"""Egyptian ratscrew, once: a Numba kernel for ranked decks and 2 to 8 players.

Beggar-my-neighbour play (``engine/rules.py``'s state arrays, hashes and "next player")
on hands of rank codes (0-12, ``ranked.RANKS``), plus the slap: after every card laid,
if the pile shows a pattern of the rule set, the policy names who slaps and takes the
pile, and that ends the trick.  The rules are written out in docs/rules.md (Egyptian
ratscrew); ``tests/naive_ers.py`` is the oracle this kernel is checked against.

Games are played by ``rules``' one game loop (``rules.play_game_with``) on this game's
scratch (``new_scratch``: its game is ``SlapPlay``, the slap rules), whose trick is
``play_trick``: Numba compiles the loop once per game (``rules.game_trick``).  Results
are rows of ``rules``' layout (``R_*``).  Under the deterministic policies a game is a
function of the deal, and loops are found as ``rules`` finds them (Brent's algorithm over
trick-boundary states); under ``odds`` every game has its own random stream, seeded from
the run's slap key and the game's starting hands (``seed_game``), nothing is a loop, and a
game still going at the cap (``ODDS_CAP`` tricks unless a cap is given) is capped
(``rules.plays_apart``).  The chunk kernels play two players' deals first on
``ers_two``'s fast path (``rules.plays_dealt``).

Who slaps is said from numbers only (``seat_slapper``, ``odds_slapper``, through
``SlapCheck``): the trick then holds no array of the game's (see ``SlapCheck``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.extending import overload

from ..cards.deck import MAX_PLAYERS
from ..cards.ranked import RANK_VALUES
from ..cards.slaps import POLICIES
from ..jit import inlined_kernel, kernel
from . import batch, rules
from .exact import ExactScratch
from .random import xoshiro
from .rules import (
    CAP,
    CAPACITY,
    I_IN,
    I_TRICKS,
    MIX,
    OVERLOAD_OPTIONS,
    RESULT_LEN,
    WIN,
    GameScratch,
    cap_winner,
    game_is,
    mix64,
    new_pile,
    new_state,
    write_end,
)

# slap patterns (bits of F_SLAPS)
PAIR, SANDWICH = 1, 2
# policies (F_POLICY)
NONE, FIRST, TURN, ODDS = 0, 1, 2, 3
# the fields of Slaps.flags
F_SLAPS, F_POLICY, F_TARGET, F_SLAP_IN, F_KEY = range(5)
FLAGS_LEN = 5

ODDS_CAP = 10_000  # the cap of a game under odds when none is given
RANK_VALUE = np.array(RANK_VALUES, dtype=np.int64)
JACK = 9  # the rank code of the jack: codes from it on owe 1, 2, 3, 4
assert all(RANK_VALUE[r] == (r - JACK + 1 if r >= JACK else 0) for r in range(len(RANK_VALUE)))
UNIT = 1.0 / (1 << 53)


class Slaps(NamedTuple):
    """The slap rules as the kernel reads them (a Numba named tuple; ``slaps.SlapRules``
    builds it)."""

    flags: np.ndarray  # int64 (FLAGS_LEN,): patterns, policy, its player, slap-in, key
    odds: np.ndarray  # float64 (MAX_PLAYERS,): the odds policy's shares, 0 past the players


class SlapPlay(NamedTuple):
    """What a trick of Egyptian ratscrew reads beyond the state (``rules.GameScratch.game``,
    whose type makes ``rules.play_game_with`` play this game): the slap rules and the
    game's random stream."""

    slaps: Slaps
    stream: np.ndarray  # int64 (4,): the game's random stream under odds


def slaps_of(slap_rules, players: int) -> Slaps:
    """The kernels' ``Slaps`` of ``slap_rules`` (``cards.slaps.SlapRules``) for games of
    ``players`` players."""
    flags = np.zeros(FLAGS_LEN, dtype=np.int64)
    flags[F_SLAPS] = sum(bit for name, bit in (("pair", PAIR), ("sandwich", SANDWICH))
                         if name in slap_rules.patterns)
    flags[F_POLICY] = POLICIES.index(slap_rules.policy)
    flags[F_TARGET] = slap_rules.target
    flags[F_SLAP_IN] = int(slap_rules.slap_in)
    flags[F_KEY] = slap_rules.key
    odds = np.zeros(MAX_PLAYERS, dtype=np.float64)  # read as a tuple of all (SlapCheck)
    odds[:len(slap_rules.odds)] = slap_rules.odds
    return Slaps(flags, odds)


@kernel
def new_scratch(players, slaps):
    """A ``rules.GameScratch`` for Egyptian ratscrew between ``players`` players under
    ``slaps``, to allocate once per chunk."""
    return GameScratch(new_state(players), new_state(players), new_state(players),
                       new_state(players), new_pile(), np.zeros(players, dtype=np.int64),
                       SlapPlay(slaps, np.zeros(4, dtype=np.int64)))


@kernel
def new_exact(players, slaps):
    """An ``exact.ExactScratch`` for games of ``players`` players under ``slaps``."""
    return ExactScratch(np.zeros((players, CAPACITY), dtype=np.uint8),
                        np.zeros(RESULT_LEN, dtype=np.int64), new_scratch(players, slaps))


@kernel
def seed_game(key, flat, sizes, stream):
    """A game's xoshiro256** words: the slap key, mixed with every starting card in order."""
    z = key
    for p in range(sizes.shape[0]):
        for i in range(sizes[p]):
            z = mix64(z + np.int64(flat[p, i]) + 1)
    for i in range(4):
        stream[i] = mix64(z + np.int64(i + 1) * MIX)
    if stream[0] == 0 and stream[1] == 0 and stream[2] == 0 and stream[3] == 0:
        stream[0] = 1


@kernel
def odds_cap(max_tricks):
    """The cap of a game under odds: the agreed one, else ``ODDS_CAP``."""
    return max_tricks if max_tricks > 0 else ODDS_CAP


@kernel
def shows_pattern(pile, pile_len, patterns):
    """Whether the pile's top shows a slap pattern: a pair, or a sandwich (top and third)."""
    top = pile[0, pile_len - 1]
    if patterns & PAIR and pile_len >= 2 and pile[0, pile_len - 2] == top:
        return True
    return (patterns & SANDWICH) != 0 and pile_len >= 3 and pile[0, pile_len - 3] == top


@kernel
def seat_slapper(policy, target, slap_in, gone, players, layer):
    """Who slaps under a policy that names a seat (none, first, turn), from numbers only
    (``gone``: bit p set when player p is out): the first player who may slap from player
    ``target`` on (first), or from the one after ``layer`` (turn); -1 under none or when
    nobody may."""
    if policy == NONE:
        return -1
    p = target if policy == FIRST else layer + 1
    for _ in range(players):
        p = p - players if p >= players else p
        if slap_in or (gone >> p) & 1 == 0:
            return p
        p += 1
    return -1


@inlined_kernel
def odds_slapper(odds, slap_in, gone, players, bits):
    """Who slaps under odds, from 64 random ``bits``: a draw u in [0, 1) picks among the
    players who may slap with shares ``odds`` (a tuple of MAX_PLAYERS numbers; -1 when
    theirs sum to 0)."""
    u = np.float64((bits >> 11) & np.int64(0x1FFFFFFFFFFFFF)) * UNIT
    total = 0.0
    for p in range(players):
        if slap_in or (gone >> p) & 1 == 0:
            total += _share(odds, p)
    if total <= 0.0:
        return -1
    target = u * total
    acc = 0.0
    chosen = -1
    for p in range(players):
        share = _share(odds, p)
        if (slap_in or (gone >> p) & 1 == 0) and share > 0.0:
            acc += share
            chosen = p
            if target < acc:
                return p
    return chosen


@kernel
def _share(odds, p):
    """``odds[p]`` by constant indices: a tuple indexed by a variable can raise, and a trick
    that can raise counts the references of its arrays (see ``SlapCheck``).  A kernel of
    its own, which LLVM inlines (the trick still counts no reference), not Numba: unrolled
    by Numba into every copy of the trick it cost 8 s of compiling a first search."""
    if p < 4:
        if p < 2:
            return odds[0] if p == 0 else odds[1]
        return odds[2] if p == 2 else odds[3]
    if p < 6:
        return odds[4] if p == 4 else odds[5]
    return odds[6] if p == 6 else odds[7]


@kernel
def play_trick(hands, head, size, hashes, out, info, pile, slaps, stream):
    """Play one trick of Egyptian ratscrew from a trick boundary.

    As ``rules.play_trick`` (same arrays, same counters; ``pile`` holds the cards laid and
    who laid them), plus the slap.  Returns ``(taker, slapped)``.
    """
    return rules.trick_with(SlapPlay(slaps, stream), hands, head, size, hashes, out, info,
                            pile)


class SlapCheck(NamedTuple):
    """What a ratscrew trick reads at every card (``rules.slap_check``): numbers only.  A
    trick that reads an array of ``game`` in its loop counts its references (Numba's
    reference counts of every array the trick holds, then kept at its entry and exit:
    measured, 3 players under turn 30 M cards a second against 58-59 M), so the odds
    policy's shares and its stream's four words come in as numbers, and the stream goes
    back at the trick's end (``rules.slap_end``).  Anyone may slap unless the policy is
    ``NONE``."""

    patterns: int  # the patterns that may be slapped (PAIR, SANDWICH bits)
    policy: int  # NONE, FIRST, TURN or ODDS
    target: int  # the player of first:P (from 0)
    slap_in: bool  # players out may slap
    odds: tuple  # float64 x MAX_PLAYERS: the odds policy's shares (0 past the players)
    stream: tuple  # int64 x 4: the game's stream, as far as the trick has drawn


@overload(rules.slap_check, jit_options=OVERLOAD_OPTIONS, inline="always")
def _slap_check(game):
    if game_is(game, SlapPlay):
        def check(game):
            flags, odds, stream = game.slaps.flags, game.slaps.odds, game.stream
            return SlapCheck(flags[F_SLAPS], flags[F_POLICY], flags[F_TARGET],
                             flags[F_SLAP_IN] != 0,
                             (odds[0], odds[1], odds[2], odds[3], odds[4], odds[5], odds[6],
                              odds[7]),
                             (stream[0], stream[1], stream[2], stream[3]))
        return check
    return None


@overload(rules.slap_shows, jit_options=OVERLOAD_OPTIONS, inline="always")
def _slap_shows(check, pile, pile_len):
    if game_is(check, SlapCheck):
        return lambda check, pile, pile_len: (check.policy != NONE
                                              and shows_pattern(pile, pile_len, check.patterns))
    return None


@overload(rules.slap_taker, jit_options=OVERLOAD_OPTIONS, inline="always")
def _slap_taker(check, gone, players, layer):
    if game_is(check, SlapCheck):
        def taker(check, gone, players, layer):
            if check.policy != ODDS:
                return seat_slapper(check.policy, check.target, check.slap_in, gone, players,
                                    layer), check
            bits, s0, s1, s2, s3 = xoshiro(check.stream[0], check.stream[1], check.stream[2],
                                           check.stream[3])
            slapper = odds_slapper(check.odds, check.slap_in, gone, players, bits)
            return slapper, SlapCheck(check.patterns, check.policy, check.target,
                                      check.slap_in, check.odds, (s0, s1, s2, s3))
        return taker
    return None


@overload(rules.slap_end, jit_options=OVERLOAD_OPTIONS, inline="always")
def _slap_end(game, check):
    if game_is(game, SlapPlay):
        def end(game, check):
            if check.policy == ODDS:
                stream = game.stream
                for i in range(4):
                    stream[i] = check.stream[i]
        return end
    return None


@overload(rules.card_value, jit_options=OVERLOAD_OPTIONS, inline="always")
def _card_value(check, card):
    if game_is(check, SlapCheck):
        return lambda check, card: card - JACK + 1 if card >= JACK else 0  # RANK_VALUE[card]
    return None


@overload(rules.game_trick, jit_options=OVERLOAD_OPTIONS)
def _game_trick(game, hands, head, size, hashes, out, info, pile):
    if game_is(game, SlapPlay):
        def trick(game, hands, head, size, hashes, out, info, pile):
            return rules.trick_with(game, hands, head, size, hashes, out, info, pile)[0]
        return trick
    return None


@overload(rules.plays_dealt, jit_options=OVERLOAD_OPTIONS, inline="always")
def _plays_dealt(game, scratch, sequence, split, leader, max_tricks, result):
    if game_is(game, SlapPlay):
        from .ers_two import play_dealt_two  # it reads this module's rules

        # the arrays it plays on, not the scratch: a call counts the references of every
        # array its arguments hold (the scratch's 29: 400 ns a deal, measured)
        return lambda game, scratch, sequence, split, leader, max_tricks, result: (
            split.shape[0] == 2
            and play_dealt_two(game, scratch.first.hands, scratch.pile, sequence, split,
                               leader, max_tricks, result))
    return None


@overload(rules.plays_apart, jit_options=OVERLOAD_OPTIONS, inline="always")
def _plays_apart(game, scratch, flat, sizes, max_tricks, result):
    if game_is(game, SlapPlay):
        def odds(game, scratch, flat, sizes, max_tricks, result):
            flags = game.slaps.flags
            if flags[F_POLICY] != ODDS:
                return False
            seed_game(flags[F_KEY], flat, sizes, game.stream)
            _play_odds(scratch.state, max_tricks, game, scratch.pile, result)
            return True
        return odds
    return None


@kernel
def _play_odds(state, max_tricks, game, pile, result):
    """A game under odds: no loops; stopped at the cap."""
    cap = odds_cap(max_tricks)
    hands, head, size, hashes, out, info = state
    while True:
        winner = rules.game_trick(game, hands, head, size, hashes, out, info, pile)
        if info[I_IN] <= 1:
            write_end(WIN, state, winner + 1, result)
            return
        if info[I_TRICKS] >= cap:
            write_end(CAP, state, cap_winner(size), result)
            return


@kernel
def play_game(flat, sizes, leader, max_tricks, slaps, result):
    """Play a game of Egyptian ratscrew from hands ``flat[p, :sizes[p]]`` under ``slaps``;
    write its row: ``rules.play_game_with`` on a scratch of its own (a win, a loop under
    the deterministic policies, or the cap: ``max_tricks`` > 0; under odds ``ODDS_CAP``
    when 0)."""
    rules.play_game_with(flat, sizes, leader, max_tricks, result,
                         new_scratch(sizes.shape[0], slaps))


@kernel
def play_sequences(sequences, split, leader, max_tricks, slaps, results):
    """Play many deals: row i of ``sequences`` (rank codes) dealt out as ``split``."""
    rules.play_sequences_with(sequences, split, leader, max_tricks, results,
                              new_scratch(split.shape[0], slaps))


@kernel
def random_chunk(stream, n_deals, sorted_cards, split, max_tricks, recorder, slaps):
    """``n_deals`` uniformly random ranked deals (the deck shuffled) drawn from ``stream``."""
    return batch.random_chunk_with(stream, n_deals, sorted_cards, split, max_tricks, recorder,
                                   new_scratch(split.shape[0], slaps))


@kernel
def enumerate_chunk(first_sequence, n_deals, split, max_tricks, recorder, slaps):
    """``n_deals`` consecutive ranked deals in index order, from ``first_sequence``."""
    return batch.enumerate_chunk_with(first_sequence, n_deals, split, max_tricks, recorder,
                                      new_scratch(split.shape[0], slaps))
