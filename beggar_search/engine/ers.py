"""Egyptian ratscrew, once: a Numba kernel for ranked decks and 2 to 8 players.

Beggar-my-neighbour play (``engine/rules.py``'s state arrays, hashes and "next player")
on hands of rank codes (0-12, ``ranked.RANKS``), plus the slap: after every card laid,
if the pile shows a pattern of the rule set, the policy names who slaps and takes the
pile, and that ends the trick.  The rules are written out in docs/rules.md (Egyptian
ratscrew); ``tests/naive_ers.py`` is the oracle this kernel is checked against.

Results are rows of ``rules``' layout (``R_*``).  Under the deterministic policies a game
is a function of the deal, and loops are found as ``rules`` finds them (Brent's
algorithm over trick-boundary states); under ``odds`` every game has its own random
stream, seeded from the run's slap key and the game's starting hands (``seed_game``),
nothing is a loop, and a game still going at the cap (``ODDS_CAP`` tricks unless a cap
is given) is capped.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..cards.ranked import RANK_VALUES
from ..cards.slaps import POLICIES
from ..jit import kernel
from . import batch
from .random import next_u64, shuffle
from .rules import (
    CAP,
    CAPACITY,
    I_IN,
    I_LEADER,
    I_TRICKS,
    MIX,
    R_CYCLE,
    R_TRICKS,
    RESULT_LEN,
    WIN,
    StateArrays,
    after_card,
    cap_winner,
    copy_state,
    deal_out,
    drop_out,
    fingerprint,
    hold_cap,
    lay_card,
    load_into,
    mix64,
    new_pile,
    new_state,
    same_state,
    same_states,
    state_hash,
    take_pile,
    trick_start,
    write_cap,
    write_end,
    write_loop_row,
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
    odds: np.ndarray  # float64 (players,): the odds policy's shares


class ErsScratch(NamedTuple):
    """Working space of ``play_game_with``, allocated once per chunk (``new_scratch``)."""

    state: StateArrays
    saved: StateArrays
    first: StateArrays
    later: StateArrays
    pile: np.ndarray  # uint8 (2, CAPACITY)
    cap_sizes: np.ndarray  # int64 (players,)
    stream: np.ndarray  # int64 (4,): the game's random stream under odds


class RankedExact(NamedTuple):
    """What the loop searches need to play one ratscrew state by ``play_game_with``
    (``new_exact``; ``engine.exact`` plays it): the game of ``engine.exact.ExactScratch``,
    with the slap rules."""

    flat: np.ndarray  # uint8 (players, CAPACITY): the hands to play
    row: np.ndarray  # int64 (RESULT_LEN,): the result
    scratch: ErsScratch
    slaps: Slaps


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
    odds = np.zeros(players, dtype=np.float64)
    odds[:len(slap_rules.odds)] = slap_rules.odds
    return Slaps(flags, odds)


@kernel
def new_scratch(players):
    """Working space of ``play_game_with`` for ``players`` players, to allocate once per chunk."""
    return ErsScratch(new_state(players), new_state(players), new_state(players),
                      new_state(players), new_pile(), np.zeros(players, dtype=np.int64),
                      np.zeros(4, dtype=np.int64))


@kernel
def new_exact(players, slaps):
    """A ``RankedExact`` for games of ``players`` players under ``slaps``."""
    return RankedExact(np.zeros((players, CAPACITY), dtype=np.uint8),
                       np.zeros(RESULT_LEN, dtype=np.int64), new_scratch(players), slaps)


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
def shows_pattern(pile, pile_len, patterns):
    """Whether the pile's top shows a slap pattern: a pair, or a sandwich (top and third)."""
    top = pile[0, pile_len - 1]
    if patterns & PAIR and pile_len >= 2 and pile[0, pile_len - 2] == top:
        return True
    return (patterns & SANDWICH) != 0 and pile_len >= 3 and pile[0, pile_len - 3] == top


@kernel
def choose_slapper(flags, odds, out, layer, stream):
    """Who wins the slap on a card ``layer`` laid, or -1: the policy's choice among the
    players who may slap (those still in; everyone with slap-in)."""
    players = out.shape[0]
    policy = flags[F_POLICY]
    slap_in = flags[F_SLAP_IN] != 0
    if policy == NONE:
        return -1
    if policy == FIRST or policy == TURN:
        start = flags[F_TARGET] if policy == FIRST else (layer + 1) % players
        for step in range(players):
            p = (start + step) % players
            if slap_in or out[p] == 0:
                return p
        return -1
    u = np.float64((next_u64(stream) >> 11) & np.int64(0x1FFFFFFFFFFFFF)) * UNIT
    total = 0.0
    for p in range(players):
        if slap_in or out[p] == 0:
            total += odds[p]
    if total <= 0.0:
        return -1
    target = u * total
    acc = 0.0
    chosen = -1
    for p in range(players):
        if (slap_in or out[p] == 0) and odds[p] > 0.0:
            acc += odds[p]
            chosen = p
            if target < acc:
                return p
    return chosen


@kernel
def play_trick(hands, head, size, hashes, out, info, pile, slaps, stream):
    """Play one trick of Egyptian ratscrew from a trick boundary.

    As ``rules.play_trick`` (same arrays, same counters; ``pile`` holds the cards laid and
    who laid them), plus the slap.  Returns ``(taker, slapped)``.
    """
    flags, odds = slaps
    patterns = flags[F_SLAPS]
    slapping = flags[F_POLICY] != NONE
    current, players_in, players, gone = trick_start(out, info)
    pile_len = 0
    owed = 0
    last_penalty = -1
    winner = -1
    slapped = False
    while True:
        if size[current] == 0:
            gone, players_in, winner, current = drop_out(out, gone, current, players_in,
                                                         last_penalty, players)
            if winner >= 0:
                break
            continue
        card = lay_card(hands, head, size, hashes, pile, pile_len, current)
        pile_len += 1
        if slapping and shows_pattern(pile, pile_len, patterns):
            slapper = choose_slapper(flags, odds, out, current, stream)
            if slapper >= 0:
                winner = slapper
                out[slapper] = 0
                slapped = True
                break
        value = card - JACK + 1 if card >= JACK else 0  # RANK_VALUE[card], without a load
        owed, last_penalty, current, winner = after_card(value, owed, last_penalty, current,
                                                         gone, players)
        if winner >= 0:
            break
    take_pile(hands, head, size, hashes, out, info, pile, pile_len, winner)
    return winner, slapped


@kernel
def _trick(state, pile, slaps, stream):
    return play_trick(state.hands, state.head, state.size, state.hashes, state.out, state.info,
                      pile, slaps, stream)[0]


@kernel
def _write_loop(flat, sizes, leader, period, slaps, scratch, result):
    """A loop of ``period`` tricks (deterministic policies): find where its cycle starts
    (Brent's second phase, replaying from the deal) and write the row."""
    a, b, pile, stream = scratch.first, scratch.later, scratch.pile, scratch.stream
    load_into(flat, sizes, leader, a)
    load_into(flat, sizes, leader, b)
    for _ in range(period):
        _trick(b, pile, slaps, stream)
    mu = 0
    while not same_states(a, b):
        _trick(a, pile, slaps, stream)
        _trick(b, pile, slaps, stream)
        mu += 1
    write_loop_row(mu, period, a, b, sizes.shape[0], result)
    least = fingerprint(b.size, b.hashes, b.info)
    for _ in range(period - 1):
        _trick(b, pile, slaps, stream)
        least = min(least, fingerprint(b.size, b.hashes, b.info))
    result[R_CYCLE] = least


@kernel
def _play_odds(state, max_tricks, slaps, pile, stream, result):
    """A game under odds: no loops; stopped at the cap."""
    cap = max_tricks if max_tricks > 0 else ODDS_CAP
    hands, head, size, hashes, out, info = state
    while True:
        winner = play_trick(hands, head, size, hashes, out, info, pile, slaps, stream)[0]
        if info[I_IN] <= 1:
            write_end(WIN, state, winner + 1, result)
            return
        if info[I_TRICKS] >= cap:
            write_end(CAP, state, cap_winner(size), result)
            return


@kernel
def _period_from(state, start, pile, slaps, stream, limit):
    """Tricks until ``state`` comes back to itself, at most ``limit``; 0 if it does not."""
    copy_state(state.hands, state.head, state.size, state.hashes, state.out, state.info,
               start.hands, start.head, start.size, start.hashes, start.out, start.info)
    for step in range(1, limit + 1):
        _trick(state, pile, slaps, stream)
        if state.info[I_IN] <= 1:
            return 0
        if same_states(state, start):
            return step
    return 0


@kernel
def play_game_with(flat, sizes, leader, max_tricks, slaps, result, scratch):
    """Play a game of Egyptian ratscrew from hands ``flat[p, :sizes[p]]``; write its row.

    As ``rules.play_game_with``: a win, a loop (deterministic policies: a trick-boundary
    state met again) or the cap (``max_tricks`` > 0; under odds ``ODDS_CAP`` when 0).
    """
    state, saved, pile, stream = scratch.state, scratch.saved, scratch.pile, scratch.stream
    flags = slaps[0]
    load_into(flat, sizes, leader, state)
    for k in range(RESULT_LEN):
        result[k] = 0
    if state.info[I_IN] <= 1:
        write_end(WIN, state, state.info[I_LEADER] + 1, result)
        return
    if flags[F_POLICY] == ODDS:
        seed_game(flags[F_KEY], flat, sizes, stream)
        _play_odds(state, max_tricks, slaps, pile, stream, result)
        return
    hands, head, size, hashes, out, info = state
    s_hands, s_head, s_size, s_hashes, s_out, s_info = saved
    copy_state(hands, head, size, hashes, out, info, s_hands, s_head, s_size, s_hashes, s_out,
               s_info)
    saved_hash = state_hash(size, hashes, info)
    power = 1
    lam = 0
    while True:
        winner = play_trick(hands, head, size, hashes, out, info, pile, slaps, stream)[0]
        if info[I_IN] <= 1:
            write_end(WIN, state, winner + 1, result)
            return
        lam += 1
        current_hash = state_hash(size, hashes, info)
        if current_hash == saved_hash and same_state(hands, head, size, info, s_hands, s_head,
                                                     s_size, s_info):
            _write_loop(flat, sizes, leader, lam, slaps, scratch, result)
            return
        if lam == power:
            copy_state(hands, head, size, hashes, out, info, s_hands, s_head, s_size, s_hashes,
                       s_out, s_info)
            saved_hash = current_hash
            power *= 2
            lam = 0
        if max_tricks > 0 and info[I_TRICKS] >= max_tricks:
            break
    # the cap: a repeat by now means this state is on a cycle of at most max_tricks
    cap_tricks, cap_cards = hold_cap(state, scratch.cap_sizes)
    period = _period_from(state, saved, pile, slaps, stream, max_tricks)
    if period > 0:
        _write_loop(flat, sizes, leader, period, slaps, scratch, result)
        if result[R_TRICKS] <= max_tricks:
            return
    write_cap(scratch.cap_sizes, cap_tricks, cap_cards, result)

@kernel
def play_game(flat, sizes, leader, max_tricks, slaps, result):
    """``play_game_with`` for one game: allocates its own scratch space."""
    play_game_with(flat, sizes, leader, max_tricks, slaps, result, new_scratch(sizes.shape[0]))


@kernel
def play_sequences(sequences, split, leader, max_tricks, slaps, results):
    """Play many deals: row i of ``sequences`` (rank codes) dealt out as ``split``."""
    flat = np.zeros((split.shape[0], CAPACITY), dtype=np.uint8)
    scratch = new_scratch(split.shape[0])
    for d in range(sequences.shape[0]):
        deal_out(sequences[d], split, flat)
        play_game_with(flat, split, leader, max_tricks, slaps, results[d], scratch)


@kernel
def random_chunk(stream, n_deals, sorted_cards, split, max_tricks, recorder, slaps):
    """``n_deals`` uniformly random ranked deals (the deck shuffled) drawn from ``stream``."""
    flat = np.zeros((split.shape[0], CAPACITY), dtype=np.uint8)
    row = np.zeros(RESULT_LEN, dtype=np.int64)
    scratch = new_scratch(split.shape[0])
    sequence = sorted_cards.copy()
    for position in range(n_deals):
        shuffle(sequence, stream)
        deal_out(sequence, split, flat)
        play_game_with(flat, split, 0, max_tricks, slaps, row, scratch)
        recorder = batch.record(position, row, sequence, recorder)
    return recorder


@kernel
def enumerate_chunk(first_sequence, n_deals, split, max_tricks, recorder, slaps):
    """``n_deals`` consecutive ranked deals in index order, from ``first_sequence``."""
    flat = np.zeros((split.shape[0], CAPACITY), dtype=np.uint8)
    row = np.zeros(RESULT_LEN, dtype=np.int64)
    scratch = new_scratch(split.shape[0])
    sequence = first_sequence.copy()
    for position in range(n_deals):
        if position > 0:
            batch.next_permutation(sequence)
        deal_out(sequence, split, flat)
        play_game_with(flat, split, 0, max_tricks, slaps, row, scratch)
        recorder = batch.record(position, row, sequence, recorder)
    return recorder
