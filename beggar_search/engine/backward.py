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
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..jit import kernel
from . import rules
from .rules import CAPACITY

INITIAL_ROOM = 256


@kernel
def _popcount(mask):
    count = 0
    while mask:
        count += mask & 1
        mask >>= 1
    return count


@kernel
def _emit(tflat, tsizes, winner, length, leader, in_mask, remaining, layer, laid, target,
          candidate, flat, sizes, pile, out_flat, out_sizes, out_leaders, count):
    """Build the candidate from a replay, check it forward, and keep it; returns the new count."""
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
    rules.play_trick(hands, head, size, hashes, out, info, pile)
    if not rules.same_state(hands, head, size, info, target[0], target[1], target[2], target[5]):
        return count
    if count < out_flat.shape[0]:
        for p in range(players):
            out_sizes[count, p] = sizes[p]
            for i in range(sizes[p]):
                out_flat[count, p, i] = flat[p, i]
        out_leaders[count] = leader
    return count + 1


@kernel
def _replay(tflat, tsizes, winner, length, leader, in_mask, remaining, layer, laid, out_now,
            stack, stack_laid, stack_out, target, candidate, flat, sizes, pile, out_flat,
            out_sizes, out_leaders, count):
    """Replay the last ``length`` cards of the winner's hand as a trick led by ``leader``.

    Every way the trick can go that ends exactly at the pile's last card with
    ``winner`` taking it is built and checked by ``_emit``.
    """
    players = tsizes.shape[0]
    start = tsizes[winner] - length
    position = 0
    current = leader
    owed = 0
    last_penalty = -1
    players_in = _popcount(in_mask)
    for p in range(players):
        laid[p] = 0
        out_now[p] = 1 - ((in_mask >> p) & 1)
    top = 0
    force_out = False
    while True:
        alive = True
        while alive:
            # ``current`` must lay a card
            may_go_out = remaining[current] == 0 and laid[current] > 0 and current != winner
            if force_out:
                lay = False
                force_out = False
            elif position < length:
                lay = True
                if may_go_out:  # the other branch: they had no card left
                    stack[top, 0] = position
                    stack[top, 1] = current
                    stack[top, 2] = owed
                    stack[top, 3] = last_penalty
                    stack[top, 4] = players_in
                    for p in range(players):
                        stack_laid[top, p] = laid[p]
                        stack_out[top, p] = out_now[p]
                    top += 1
            elif may_go_out:
                lay = False
            else:
                break  # they hold a card, but the pile has no more
            if lay:
                card = tflat[winner, start + position]
                layer[position] = current
                position += 1
                laid[current] += 1
                if card > 0:
                    last_penalty = current
                    owed = card
                    current = rules.next_in(out_now, current)
                elif last_penalty >= 0:
                    owed -= 1
                    if owed == 0:
                        if position == length and last_penalty == winner:
                            count = _emit(tflat, tsizes, winner, length, leader, in_mask,
                                          remaining, layer, laid, target, candidate, flat, sizes,
                                          pile, out_flat, out_sizes, out_leaders, count)
                        alive = False
                else:
                    current = rules.next_in(out_now, current)
            else:
                out_now[current] = 1
                players_in -= 1
                if last_penalty >= 0:
                    if position == length and last_penalty == winner:
                        count = _emit(tflat, tsizes, winner, length, leader, in_mask, remaining,
                                      layer, laid, target, candidate, flat, sizes, pile,
                                      out_flat, out_sizes, out_leaders, count)
                    alive = False
                elif players_in == 1:
                    if position == length and rules.next_in(out_now, current) == winner:
                        count = _emit(tflat, tsizes, winner, length, leader, in_mask, remaining,
                                      layer, laid, target, candidate, flat, sizes, pile,
                                      out_flat, out_sizes, out_leaders, count)
                    alive = False
                else:
                    current = rules.next_in(out_now, current)
        if top == 0:
            return count
        top -= 1
        position = stack[top, 0]
        current = stack[top, 1]
        owed = stack[top, 2]
        last_penalty = stack[top, 3]
        players_in = stack[top, 4]
        for p in range(players):
            laid[p] = stack_laid[top, p]
            out_now[p] = stack_out[top, p]
        force_out = True


@kernel
def predecessors_into(tflat, tsizes, winner, out_flat, out_sizes, out_leaders):
    """Every state one trick before the state ``tflat[p, :tsizes[p]]`` led by ``winner``.

    Writes predecessor ``k`` as hands ``out_flat[k, p, :out_sizes[k, p]]`` with
    leader ``out_leaders[k]`` and returns how many there are; when that is more
    than the rows of ``out_flat``, only the first rows are written (call again
    with more room).  A target whose leader holds no cards has none.
    """
    players = tsizes.shape[0]
    if tsizes[winner] < 2:
        return 0
    target = rules._new_state(players)
    rules.load_state(tflat, tsizes, winner, *target)
    if target[5][rules.I_LEADER] != winner:
        return 0
    candidate = rules._new_state(players)
    pile = rules.new_pile()
    flat = np.zeros((players, CAPACITY), dtype=np.uint8)
    sizes = np.zeros(players, dtype=np.int64)
    remaining = np.zeros(players, dtype=np.int64)
    layer = np.zeros(CAPACITY, dtype=np.int64)
    laid = np.zeros(players, dtype=np.int64)
    out_now = np.zeros(players, dtype=np.uint8)
    stack = np.zeros((CAPACITY + players + 1, 5), dtype=np.int64)
    stack_out = np.zeros((CAPACITY + players + 1, players), dtype=np.uint8)
    stack_laid = np.zeros((CAPACITY + players + 1, players), dtype=np.int64)
    full = (1 << players) - 1
    count = 0
    for length in range(2, tsizes[winner] + 1):
        empty_mask = 0
        for p in range(players):
            remaining[p] = tsizes[p] - (length if p == winner else 0)
            if remaining[p] == 0:
                empty_mask |= 1 << p
        # which players holding nothing but what they laid were in at the start
        subset = 0
        while True:
            in_mask = (full & ~empty_mask) | subset
            if _popcount(in_mask) >= 2:
                for leader in range(players):
                    if (in_mask >> leader) & 1:
                        count = _replay(tflat, tsizes, winner, length, leader, in_mask, remaining,
                                        layer, laid, out_now, stack, stack_laid, stack_out,
                                        target, candidate, flat,
                                        sizes, pile, out_flat, out_sizes, out_leaders, count)
            if subset == empty_mask:
                break
            subset = (subset - empty_mask) & empty_mask  # next subset of empty_mask
    return count


@kernel
def predecessor_arrays(tflat, tsizes, winner, room):
    """``predecessors_into`` with output arrays of its own, grown until they fit."""
    players = tsizes.shape[0]
    while True:
        out_flat = np.zeros((room, players, CAPACITY), dtype=np.uint8)
        out_sizes = np.zeros((room, players), dtype=np.int64)
        out_leaders = np.zeros(room, dtype=np.int64)
        count = predecessors_into(tflat, tsizes, winner, out_flat, out_sizes, out_leaders)
        if count <= room:
            return count, out_flat, out_sizes, out_leaders
        room = count


def predecessors(hands: Sequence[Sequence[int]], leader: int) -> list[tuple[list[list[int]], int]]:
    """Every state one trick before ``(hands, leader)``: a list of ``(hands, leader)``.

    Hands are top card first, players and leader counted from 0; players with no
    cards are out.  Playing one trick from each returned state gives exactly
    ``(hands, leader)``.
    """
    if not 2 <= len(hands) <= rules.MAX_PLAYERS:
        raise ValueError(f"players must be 2 to {rules.MAX_PLAYERS}, got {len(hands)}")
    if not 0 <= leader < len(hands):
        raise ValueError(f"leader {leader} out of range for {len(hands)} players")
    flat, sizes = rules.pack_hands(hands)
    count, out_flat, out_sizes, out_leaders = predecessor_arrays(flat, sizes, int(leader),
                                                                 INITIAL_ROOM)
    return [
        ([[int(c) for c in out_flat[k, p, : out_sizes[k, p]]] for p in range(len(hands))],
         int(out_leaders[k]))
        for k in range(count)
    ]
