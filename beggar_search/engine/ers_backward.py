"""Backward play for Egyptian ratscrew: every trick-boundary state one trick before a given one.

As ``backward`` does for Beggar-my-neighbour, under a deterministic slap policy (``none``,
``first:P``, ``turn``; under ``odds`` a trick is not a function of the state).  A trick
ends with its taker ``W`` (the new leader) putting the pile under their hand, so the pile
is the last ``L`` cards of ``W``'s hand for some ``L``.  For each ``L``, each set of
players in at the start and each leader among them, the pile's cards are replayed to see
who laid which card; each player's laid cards then go back on top of their hand.

What the slap adds.  Whether a slap pattern shows depends on the pile's cards alone, not
on who laid them, and under a deterministic policy other than ``none`` a pattern always
ends the trick (the player who just laid a card may always slap).  So for each ``L`` the
pile either shows no pattern before its last card (otherwise there is no trick of that
length) and then: a pattern at its last card means the trick ended by that slap there,
no pattern means it ended as in Beggar-my-neighbour (a payment completed, or players ran
out).  With slap-in the taker of a slap may be a player who was out at the start, or
who went out during the trick; without it, and in a trick not ended by a slap, the
taker never goes out.  ``L >= 2`` still: a slap needs two cards on the pile.

Nothing of who slaps is restated here: every candidate is played forward with
``ers.play_trick`` and kept only if it gives exactly the target state, so the replay may
offer too many candidates (it does: every slap candidate, whoever the policy names) but
the answer holds only true predecessors.  The tests check the true one is always found.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..jit import inlined_kernel, kernel
from ..slaps import SlapRules
from . import ers, rules
from .backward import (
    INITIAL_ROOM,
    S_CURRENT,
    S_LAST_PENALTY,
    S_LEN,
    S_OUT_MASK,
    S_OWED,
    S_PLAYERS_IN,
    S_POSITION,
    new_predecessors,
    popcount,
)
from .rules import CAPACITY


class ErsTrick(NamedTuple):
    """One way of replaying a trick: ``backward.Trick``'s fields, whether the pile ends on
    a slap pattern (the trick ended by a slap) and the slap rules."""

    tflat: np.ndarray  # uint8 (players, CAPACITY): the target's hands
    tsizes: np.ndarray  # int64 (players,)
    winner: int
    length: int
    leader: int
    in_mask: int  # bit p: player p was in when the trick started
    by_slap: bool  # the pile's last card shows a pattern: the trick ended by a slap on it
    slaps: ers.Slaps


class ErsBackwardScratch(NamedTuple):
    """Working space of ``predecessors_into``: allocated once (``new_scratch``), reused.
    ``backward.BackwardScratch``'s fields and the random stream ``ers.play_trick`` takes
    (never drawn on under the deterministic policies)."""

    target: rules.StateArrays
    candidate: rules.StateArrays
    pile: np.ndarray  # uint8 (2, CAPACITY): the forward check's pile; row 0 also the replayed one
    flat: np.ndarray  # uint8 (players, CAPACITY): the candidate's hands
    sizes: np.ndarray  # int64 (players,)
    remaining: np.ndarray  # int64 (players,): cards each held before laying this trick's
    layer: np.ndarray  # int64 (CAPACITY,): who laid each card of the pile
    laid: np.ndarray  # int64 (players,): cards each laid so far in the replay
    stack: np.ndarray  # int64 (depth, S_LEN): the replay's open choices
    stack_laid: np.ndarray  # int64 (depth, players)
    stream: np.ndarray  # int64 (4,)


@kernel
def new_scratch(players):
    """An ``ErsBackwardScratch`` for states of ``players`` players."""
    depth = CAPACITY + players + 1
    return ErsBackwardScratch(rules.new_state(players), rules.new_state(players),
                              rules.new_pile(), np.zeros((players, CAPACITY), dtype=np.uint8),
                              np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
                              np.zeros(CAPACITY, dtype=np.int64),
                              np.zeros(players, dtype=np.int64),
                              np.zeros((depth, S_LEN), dtype=np.int64),
                              np.zeros((depth, players), dtype=np.int64),
                              np.zeros(4, dtype=np.int64))


@inlined_kernel
def _emit(trick, scratch, found, count):
    """Build the candidate from a replay, check it forward, and keep it; returns the new count."""
    tflat, tsizes, winner, length, leader, in_mask, _, slaps = trick
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
    ers.play_trick(hands, head, size, hashes, out, info, pile, slaps, stream)
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
def _replay(trick, scratch, found, count):
    """Replay the last ``trick.length`` cards of the winner's hand as a trick led by
    ``trick.leader`` (``backward``'s replay, on rank values, ending at the slap when
    ``trick.by_slap``); every way that ends exactly at the pile's last card is checked by
    ``_emit``."""
    tflat, tsizes, winner, length, leader, in_mask, by_slap, slaps = trick
    _, _, _, _, _, remaining, layer, laid, stack, stack_laid, _ = scratch
    players = tsizes.shape[0]
    start = tsizes[winner] - length
    # the taker goes out during the trick only to slap back in
    winner_may_leave = by_slap and slaps.flags[ers.F_SLAP_IN] != 0
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
                    count = _emit(trick, scratch, found, count)  # slapped on its last card
                    alive = False
                elif card >= ers.JACK:
                    last_penalty = current
                    owed = card - ers.JACK + 1
                    current = rules.next_in(out_mask, current, players)
                elif last_penalty >= 0:
                    owed -= 1
                    if owed == 0:
                        if position == length and last_penalty == winner:
                            count = _emit(trick, scratch, found, count)
                        alive = False
                else:
                    current = rules.next_in(out_mask, current, players)
            else:
                out_mask |= 1 << current
                players_in -= 1
                if last_penalty >= 0:
                    if position == length and last_penalty == winner:
                        count = _emit(trick, scratch, found, count)
                    alive = False
                elif players_in == 1:
                    if position == length and rules.next_in(out_mask, current, players) == winner:
                        count = _emit(trick, scratch, found, count)
                    alive = False
                else:
                    current = rules.next_in(out_mask, current, players)
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
    in order, show a slap pattern; 0 if none does."""
    for n in range(2, length + 1):
        if ers.shows_pattern(pile, n, patterns):
            return n
    return 0


@kernel
def predecessors_into(tflat, tsizes, winner, slaps, found, scratch):
    """Every state one trick before the state ``tflat[p, :tsizes[p]]`` (rank codes) led by
    ``winner``, under the slap rules ``slaps`` (an ``ers.Slaps`` of a deterministic policy).

    As ``backward.predecessors_into``: writes into ``found`` (a ``backward.Predecessors``),
    returns how many there are (only the first rows are written when that is more than
    its rows).  ``scratch`` is an ``ErsBackwardScratch`` (``new_scratch``).
    """
    players = tsizes.shape[0]
    if tsizes[winner] < 2:
        return 0
    target, pile = scratch.target, scratch.pile
    rules.load_state(tflat, tsizes, winner, target.hands, target.head, target.size,
                     target.hashes, target.out, target.info)
    if target.info[rules.I_LEADER] != winner:
        return 0
    flags = slaps[0]
    patterns = flags[ers.F_SLAPS] if flags[ers.F_POLICY] != ers.NONE else 0
    remaining = scratch.remaining
    full = (1 << players) - 1
    count = 0
    for length in range(2, tsizes[winner] + 1):
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
        subset = 0
        while True:
            in_mask = (full & ~empty_mask) | subset
            if popcount(in_mask) >= 2:
                for leader in range(players):
                    if (in_mask >> leader) & 1:
                        trick = ErsTrick(tflat, tsizes, winner, length, leader, in_mask,
                                         slap_at == length, slaps)
                        count = _replay(trick, scratch, found, count)
            if subset == empty_mask:
                break
            subset = (subset - empty_mask) & empty_mask  # next subset of empty_mask
    return count


@kernel
def predecessor_arrays(tflat, tsizes, winner, slaps, room):
    """``predecessors_into`` with a ``Predecessors`` of its own, grown until it fits."""
    players = tsizes.shape[0]
    scratch = new_scratch(players)
    while True:
        found = new_predecessors(room, players)
        count = predecessors_into(tflat, tsizes, winner, slaps, found, scratch)
        if count <= room:
            return count, found
        room = count


def check_rules(slap_rules: SlapRules) -> None:
    """``ValueError`` unless a game under ``slap_rules`` is a function of its state."""
    if not slap_rules.deterministic:
        raise ValueError(f"slap policy {slap_rules.policy_spec}: a game is not a function of "
                         "the deal, so it has no backward step")


def predecessors(hands: Sequence[Sequence[int]], leader: int,
                 slap_rules: SlapRules | None = None) -> list[tuple[list[list[int]], int]]:
    """Every state one trick before ``(hands, leader)`` (rank codes, top card first,
    players from 0) under ``slap_rules`` (default: pair, policy none): a list of
    ``(hands, leader)``, each of which plays one trick into exactly ``(hands, leader)``.
    """
    slap_rules = slap_rules or SlapRules()
    check_rules(slap_rules)
    if not 2 <= len(hands) <= rules.MAX_PLAYERS:
        raise ValueError(f"players must be 2 to {rules.MAX_PLAYERS}, got {len(hands)}")
    if not 0 <= leader < len(hands):
        raise ValueError(f"leader {leader} out of range for {len(hands)} players")
    flat, sizes = rules.pack_hands(hands)
    count, found = predecessor_arrays(flat, sizes, int(leader), slap_rules.arrays(len(hands)),
                                      INITIAL_ROOM)
    return [
        ([[int(c) for c in found.flat[k, p, : found.sizes[k, p]]] for p in range(len(hands))],
         int(found.leaders[k]))
        for k in range(count)
    ]
