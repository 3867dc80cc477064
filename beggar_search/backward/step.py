"""Backward play: every trick-boundary state one trick before a given one.

A trick ends with its taker ``W`` (the new leader) putting the pile under their
hand, so the pile is the last ``L`` cards of ``W``'s hand for some length ``L``.
For each ``L``, each choice of which players were in at the start of the trick
and each possible previous leader, the pile's cards are replayed under the rules
of docs/rules.md to see who laid which card; the trick must end exactly at its last
card (or at a player going out right after it) with ``W`` taking the pile.  Each
player's laid cards then go back on top of their hand.

The only freedom in the replay is a player who holds no cards now (other than
the pile): whenever such a player, having already laid a card this trick, is
asked to lay again, either they still had a card (the next one of the pile) or
they had none and went out.  The replay is a depth-first search over those
choices.  Players with cards now always had a card to lay; players with no cards
now and none laid were out before the trick.

Why ``L >= 2``: at a trick boundary every player still in holds a card and at
least two are in, so the leader lays a card and the next player in holds one;
whether the first card demands payment or not, that player lays a second card
before the trick can end (a trick ends only when a payment completes, when a
payer has no card, or when one player is left in after someone goes out, and no
one can go out before every player in has laid once).

Enumeration is free to be clever; the rules are not restated here as a second
source of truth: every candidate is played forward with ``rules.play_trick`` and
kept only if it gives exactly the target state.  So a bug in the enumeration can
lose predecessors (the tests check the true one is always found) but never
invent one.

Egyptian ratscrew (``ranked``: rank codes, its ``slaps`` rules, a deterministic policy) takes
the same replay: a pile that shows a slap pattern before its last card cannot be one trick;
one that shows it at its last card ended by that slap (``ers_backward`` says more); every
candidate is played forward with ``ers.play_trick`` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..engine import ers, rules
from ..engine.rules import CAPACITY
from ..jit import inlined_kernel, kernel

INITIAL_ROOM = 256


class Predecessors(NamedTuple):
    """Where ``predecessors_into`` writes: predecessor k is ``flat[k, p, :sizes[k, p]]``
    with ``leaders[k]`` to lead."""

    flat: np.ndarray  # uint8 (room, players, CAPACITY)
    sizes: np.ndarray  # int64 (room, players)
    leaders: np.ndarray  # int64 (room,)


class Trick(NamedTuple):
    """One way of replaying a trick: the target state's hands, who took the pile (the
    target's leader), the pile's length, who led it and who was in at its start; and the
    game (Egyptian ratscrew: ``ranked``, its ``slaps``, whether a slap ended the trick)."""

    tflat: np.ndarray  # uint8 (players, CAPACITY): the target's hands
    tsizes: np.ndarray  # int64 (players,)
    winner: int
    length: int
    leader: int
    in_mask: int  # bit p: player p was in when the trick started
    by_slap: bool  # ratscrew: the pile's last card shows a pattern, a slap on it ended the trick
    ranked: bool  # ratscrew's rank codes and trick (its rules passed beside), else
    # Beggar-my-neighbour's; scalars only: a tuple holding arrays costs reference counts
    slap_in: bool  # ratscrew: a player out of cards may slap back in


class BackwardScratch(NamedTuple):
    """Working space of ``predecessors_into``: allocated once (``new_scratch``), reused."""

    target: rules.StateArrays  # the state predecessors must play into
    candidate: rules.StateArrays  # a candidate predecessor, played forward
    pile: np.ndarray  # uint8 (2, CAPACITY)
    flat: np.ndarray  # uint8 (players, CAPACITY): the candidate's hands
    sizes: np.ndarray  # int64 (players,)
    remaining: np.ndarray  # int64 (players,): cards each held before laying this trick's
    layer: np.ndarray  # int64 (CAPACITY,): who laid each card of the pile
    laid: np.ndarray  # int64 (players,): cards each laid so far in the replay
    stack: np.ndarray  # int64 (depth, S_LEN): the replay's open choices
    stack_laid: np.ndarray  # int64 (depth, players)
    stream: np.ndarray  # int64 (4,): ratscrew's trick takes a random stream (never drawn
    # on under a deterministic policy)


# a stack row: where the replay was when a player out of cards could also have gone out
S_POSITION, S_CURRENT, S_OWED, S_LAST_PENALTY, S_OUT_MASK, S_PLAYERS_IN = range(6)
S_LEN = 6


@kernel
def new_scratch(players):
    """A ``BackwardScratch`` for states of ``players`` players."""
    depth = CAPACITY + players + 1
    return BackwardScratch(rules.new_state(players), rules.new_state(players), rules.new_pile(),
                           np.zeros((players, CAPACITY), dtype=np.uint8),
                           np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
                           np.zeros(CAPACITY, dtype=np.int64), np.zeros(players, dtype=np.int64),
                           np.zeros((depth, S_LEN), dtype=np.int64),
                           np.zeros((depth, players), dtype=np.int64),
                           np.zeros(4, dtype=np.int64))


def no_slaps() -> ers.Slaps:
    """The ``slaps`` of a Beggar-my-neighbour step (never read)."""
    return ers.Slaps(np.zeros(ers.FLAGS_LEN, dtype=np.int64), np.zeros(1, dtype=np.float64))


@kernel
def new_predecessors(room, players):
    """Room for ``room`` predecessors of ``players`` players."""
    return Predecessors(np.zeros((room, players, CAPACITY), dtype=np.uint8),
                        np.zeros((room, players), dtype=np.int64), np.zeros(room, dtype=np.int64))


@kernel
def popcount(mask):
    """Number of bits set in ``mask``."""
    count = 0
    while mask:
        count += mask & 1
        mask >>= 1
    return count


@inlined_kernel
def _emit(trick, scratch, found, count, slaps):
    """Build the candidate from a replay, check it forward, and keep it; returns the new count."""
    # unpacked, not read field by field: measured faster (see batch.record)
    tflat, tsizes, winner, length, leader, in_mask, _, ranked, _ = trick
    target, candidate, pile, flat, sizes, remaining, layer, laid, _, _, stream = scratch
    players = tsizes.shape[0]
    for p in range(players):
        # a player in at the start held a card, so laid one if they hold none now
        if (in_mask >> p) & 1 and remaining[p] == 0 and laid[p] == 0:
            return count
    start = tsizes[winner] - length
    for p in range(players):
        sizes[p] = 0
    for i in range(length):
        p = layer[i]
        flat[p, sizes[p]] = tflat[winner, start + i]
        sizes[p] += 1
    for p in range(players):
        for i in range(remaining[p]):
            flat[p, sizes[p]] = tflat[p, i]
            sizes[p] += 1
    hands, head, size, hashes, out, info = candidate
    rules.load_state(flat, sizes, leader, hands, head, size, hashes, out, info)
    if info[rules.I_LEADER] != leader or info[rules.I_IN] < 2:
        return count
    if ranked:
        ers.play_trick(hands, head, size, hashes, out, info, pile, slaps, stream)
    else:
        rules.play_trick(hands, head, size, hashes, out, info, pile)
    t_hands, t_head, t_size, _, _, t_info = target
    if not rules.same_state(hands, head, size, info, t_hands, t_head, t_size, t_info):
        return count
    found_flat, found_sizes, found_leaders = found
    if count < found_flat.shape[0]:
        for p in range(players):
            found_sizes[count, p] = sizes[p]
            for i in range(sizes[p]):
                found_flat[count, p, i] = flat[p, i]
        found_leaders[count] = leader
    return count + 1


@inlined_kernel
def _replay(trick, scratch, found, count, slaps):
    """Replay the last ``trick.length`` cards of the winner's hand as a trick led by
    ``trick.leader``.

    Every way the trick can go that ends exactly at the pile's last card with
    ``trick.winner`` taking it (ratscrew: or slapping it, when ``trick.by_slap``) is built
    and checked by ``_emit``.
    """
    tflat, tsizes, winner, length, leader, in_mask, by_slap, ranked, slap_in = trick
    _, _, _, _, _, remaining, layer, laid, stack, stack_laid, _ = scratch
    players = tsizes.shape[0]
    start = tsizes[winner] - length
    # the taker goes out during the trick only to slap back in
    winner_may_leave = by_slap and slap_in
    jack = np.int64(ers.JACK if ranked else 1)  # the lowest card that demands payment
    position = 0
    current = leader
    owed = 0
    last_penalty = -1
    out_mask = ((1 << players) - 1) & ~in_mask
    players_in = popcount(in_mask)
    for p in range(players):
        laid[p] = 0
    top = 0
    force_out = False
    while True:
        alive = True
        # a way that ends the trick as the target's: built and checked once the inner loop
        # ends (one call site: ``_emit`` is inlined, and with four ``predecessors_into``
        # compiled in 21 s instead of 13)
        emit = False
        while alive:
            # ``current`` must lay a card
            may_go_out = (remaining[current] == 0 and laid[current] > 0
                          and (current != winner or winner_may_leave))
            if force_out:
                lay = False
                force_out = False
            elif position < length:
                lay = True
                if may_go_out:  # the other branch: they had no card left
                    stack[top, S_POSITION] = position
                    stack[top, S_CURRENT] = current
                    stack[top, S_OWED] = owed
                    stack[top, S_LAST_PENALTY] = last_penalty
                    stack[top, S_OUT_MASK] = out_mask
                    stack[top, S_PLAYERS_IN] = players_in
                    for p in range(players):
                        stack_laid[top, p] = laid[p]
                    top += 1
            elif may_go_out and not by_slap:
                lay = False
            else:
                break  # they hold a card, but the pile has no more
            if lay:
                card = np.int64(tflat[winner, start + position])
                layer[position] = current
                position += 1
                laid[current] += 1
                if by_slap and position == length:
                    emit = True  # slapped on its last card
                    alive = False
                elif card >= jack:
                    last_penalty = current
                    owed = card - jack + 1
                    current = rules.next_in(out_mask, current, players)
                elif last_penalty >= 0:
                    owed -= 1
                    if owed == 0:
                        emit = position == length and last_penalty == winner
                        alive = False
                else:
                    current = rules.next_in(out_mask, current, players)
            else:
                out_mask |= 1 << current
                players_in -= 1
                if last_penalty >= 0:
                    emit = position == length and last_penalty == winner
                    alive = False
                elif players_in == 1:
                    emit = (position == length
                            and rules.next_in(out_mask, current, players) == winner)
                    alive = False
                else:
                    current = rules.next_in(out_mask, current, players)
        if emit:
            count = _emit(trick, scratch, found, count, slaps)
        if top == 0:
            return count
        top -= 1
        position = stack[top, S_POSITION]
        current = stack[top, S_CURRENT]
        owed = stack[top, S_OWED]
        last_penalty = stack[top, S_LAST_PENALTY]
        out_mask = stack[top, S_OUT_MASK]
        players_in = stack[top, S_PLAYERS_IN]
        for p in range(players):
            laid[p] = stack_laid[top, p]
        force_out = True


@kernel
def first_pattern(pile, length, patterns):
    """The first pile length (2 to ``length``) at which the cards ``pile[0, :length]``, laid
    in order, show a slap pattern (bits of ``patterns``); 0 if none does."""
    for n in range(2, length + 1):
        if ers.shows_pattern(pile, n, patterns):
            return n
    return 0


@kernel
def _pile_lengths(tflat, tsizes, winner, players_in):
    """The shortest and longest piles a Beggar-my-neighbour trick taken by ``winner`` can have
    put under their hand, read off the hand's last cards alone; ``(0, 0)`` when no trick can
    have (every length is still replayed and checked forward: these are bounds only).

    While two players or more are in after the trick, it ended on a payment: the pile holds
    a penalty card (value v, the payment owed) and its last cards are the ``k`` plain cards
    paid for the last penalty card laid.  A payment ends at v cards, or earlier when the
    payer goes out (which, between two players, ends the game): so ``k <= v``, ``k == v``
    for two players, and the pile holds at least those ``k + 1`` cards.  Between two players
    no one goes out during such a trick, so a penalty card of value u laid earlier in the
    pile is followed by fewer than u plain cards before the next penalty card (the payment
    it asked for did not complete): the pile starts after the first penalty card, going
    back up the hand, that breaks this.  A trick that leaves one player in (the game's end)
    may hold no penalty card: no bounds then.
    """
    size = tsizes[winner]
    if players_in < 2:
        return 2, size
    plain = 0
    while plain < size and tflat[winner, size - 1 - plain] == 0:
        plain += 1
    if plain == size:
        return 0, 0
    owed = np.int64(tflat[winner, size - 1 - plain])
    if plain > owed or (tsizes.shape[0] == 2 and plain != owed):
        return 0, 0
    shortest = max(2, plain + 1)
    if tsizes.shape[0] != 2:
        return shortest, size
    run = 0  # plain cards since the penalty card below
    for i in range(size - 2 - plain, -1, -1):
        card = np.int64(tflat[winner, i])
        if card == 0:
            run += 1
        elif run >= card:
            return shortest, size - 1 - i
        else:
            run = 0
    return shortest, size


@kernel
def _pile_leader(tflat, tsizes, winner, length, penalties, first):
    """Who led a two-player Beggar-my-neighbour pile of ``length`` cards taken by ``winner``
    (a trick that leaves both players in), given the ``penalties`` penalty cards and the
    index ``first`` of the first of them in its ``length - 1`` last cards (-1: none).

    The penalty cards of such a pile were laid by the two players in turn, the last by the
    taker, and before the first one the players laid plain cards in turn from the leader.
    """
    start = tsizes[winner] - length
    if tflat[winner, start] != 0:
        penalties += 1
        first = start
    owner = winner if penalties % 2 == 1 else 1 - winner
    return owner if (first - start) % 2 == 0 else 1 - owner


@kernel
def predecessors_into(tflat, tsizes, winner, ranked, slaps, found, scratch):
    """Every state one trick before the state ``tflat[p, :tsizes[p]]`` led by ``winner``:
    Beggar-my-neighbour's, or (``ranked``) Egyptian ratscrew's under the slap rules
    ``slaps`` (an ``ers.Slaps`` of a deterministic policy).

    Writes the predecessors into ``found`` (a ``Predecessors``) and returns how many
    there are; when that is more than its rows, only the first rows are written (call
    again with more room).  A target whose leader holds no cards has none.  ``scratch``
    is a ``BackwardScratch`` for this many players (``new_scratch``), allocated once
    per search.
    """
    players = tsizes.shape[0]
    if tsizes[winner] < 2:
        return 0
    target, pile = scratch.target, scratch.pile
    rules.load_state(tflat, tsizes, winner, target.hands, target.head, target.size,
                     target.hashes, target.out, target.info)
    if target.info[rules.I_LEADER] != winner:
        return 0
    shortest, longest = 2, tsizes[winner]
    if not ranked:
        shortest, longest = _pile_lengths(tflat, tsizes, winner, target.info[rules.I_IN])
        if shortest == 0:
            return 0
    flags = slaps.flags
    patterns = flags[ers.F_SLAPS] if ranked and flags[ers.F_POLICY] != ers.NONE else 0
    slap_in = ranked and flags[ers.F_SLAP_IN] != 0
    remaining = scratch.remaining
    full = (1 << players) - 1
    count = 0
    # between two players, who led a Beggar-my-neighbour pile follows from its cards
    by_parity = not ranked and players == 2 and target.info[rules.I_IN] >= 2
    penalties, first = 0, -1  # penalty cards in the pile, where its first one lies
    for i in range(tsizes[winner] - 1, tsizes[winner] - shortest, -1):
        if tflat[winner, i] != 0:
            penalties += 1
            first = i
    for length in range(shortest, longest + 1):
        only = -1
        if by_parity:
            only = _pile_leader(tflat, tsizes, winner, length, penalties, first)
            if tflat[winner, tsizes[winner] - length] != 0:
                penalties += 1
                first = tsizes[winner] - length
        slap_at = 0
        if patterns:
            start = tsizes[winner] - length
            for i in range(length):
                pile[0, i] = tflat[winner, start + i]
            slap_at = first_pattern(pile, length, patterns)
            if 0 < slap_at < length:
                continue  # a slap would have ended the trick before its last card
        empty_mask = 0
        for p in range(players):
            remaining[p] = tsizes[p] - (length if p == winner else 0)
            if remaining[p] == 0:
                empty_mask |= 1 << p
        # which players holding nothing but what they laid were in at the start
        subset = 0
        while True:
            in_mask = (full & ~empty_mask) | subset
            if popcount(in_mask) >= 2:
                for leader in range(players):
                    if (in_mask >> leader) & 1 and (only < 0 or leader == only):
                        trick = Trick(tflat, tsizes, winner, length, leader, in_mask,
                                      slap_at == length, ranked, slap_in)
                        count = _replay(trick, scratch, found, count, slaps)
            if subset == empty_mask:
                break
            subset = (subset - empty_mask) & empty_mask  # next subset of empty_mask
    return count


@kernel
def predecessor_arrays(tflat, tsizes, winner, ranked, slaps, room):
    """``predecessors_into`` with a ``Predecessors`` of its own, grown until it fits."""
    players = tsizes.shape[0]
    scratch = new_scratch(players)
    while True:
        found = new_predecessors(room, players)
        count = predecessors_into(tflat, tsizes, winner, ranked, slaps, found, scratch)
        if count <= room:
            return count, found
        room = count


def predecessors(hands: Sequence[Sequence[int]], leader: int) -> list[tuple[list[list[int]], int]]:
    """Every state one trick before ``(hands, leader)``: a list of ``(hands, leader)``.

    Hands are top card first, players and leader counted from 0; players with no
    cards are out.  Playing one trick from each returned state gives exactly
    ``(hands, leader)``.
    """
    return predecessor_list(hands, leader, False, no_slaps())


def predecessor_list(hands: Sequence[Sequence[int]], leader: int, ranked: bool,
                     slaps: ers.Slaps) -> list[tuple[list[list[int]], int]]:
    """``predecessors`` of either game (``predecessors_into``'s ``ranked`` and ``slaps``)."""
    if not 2 <= len(hands) <= rules.MAX_PLAYERS:
        raise ValueError(f"players must be 2 to {rules.MAX_PLAYERS}, got {len(hands)}")
    if not 0 <= leader < len(hands):
        raise ValueError(f"leader {leader} out of range for {len(hands)} players")
    flat, sizes = rules.pack_hands(hands)
    count, found = predecessor_arrays(flat, sizes, int(leader), ranked, slaps, INITIAL_ROOM)
    return [
        ([[int(c) for c in found.flat[k, p, : found.sizes[k, p]]] for p in range(len(hands))],
         int(found.leaders[k]))
        for k in range(count)
    ]
