"""Merge families of terminating games: the games that join one trajectory, and its name.

Play is deterministic, so two games that reach one trick-boundary state play the same
from there on: they *merge*.  Two terminating games merge exactly when both pass through
the last state before the end (the trick-boundary state one trick before one player holds
every card), since each game's states after the merge are the other's.  Merging is
therefore an equivalence between terminating games, and the last state before the end
names the class: a game's **family** is the 64-bit fingerprint of that state
(``rules.fingerprint``, written as 16 hex digits like a cycle id).  It is a function of the
deal alone (not of the run, its chunks or its workers), and every fair deal of a family
lies in the backward closure of that state (``backward.closure``), the family's longest
included.  The end state itself is left out because every game of a deck ends in one of
a few such states.

Between two players a family has a **mirror**: the hands swapped and the other player to
lead.  The mirror of a game plays the same tricks with the players renamed, so the mirror
family holds games of exactly the same lengths; its name is the fingerprint of the
mirrored last state (``mirror``).  The climber reads a closure's fair states with player
2 to lead as their mirrored fair deals, members of the mirror family.

Where a game meets the family's longest game (its *merge point*): ``merge_point``.
Beggar-my-neighbour's families come from a kernel over many deals (``bmn_families``); any
other game's (Egyptian ratscrew under a deterministic slap policy) from its trick played
state by state (``families``, with the game's ``trick_function``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..jit import kernel
from . import rules
from .game import cycle_name
from .rules import CAPACITY, I_LEADER, R_TRICKS, RING


@kernel
def _mirrored_fingerprint(state, flat, sizes, swapped):
    """The fingerprint of a two-player state with the hands swapped and the other player to
    lead (``flat``, ``sizes`` and ``swapped`` are scratch)."""
    for p in range(2):
        q = 1 - p
        sizes[q] = state.size[p]
        for j in range(state.size[p]):
            flat[q, j] = state.hands[p, (state.head[p] + j) & RING]
    rules.load_into(flat, sizes, 1 - state.info[I_LEADER], swapped)
    return rules.fingerprint(swapped.size, swapped.hashes, swapped.info)


@kernel
def bmn_family_keys(sequences, split, tricks, keys, mirror_keys):
    """Beggar-my-neighbour: fill ``keys[i]`` with the fingerprint of the last state before
    the end of deal ``sequences[i]`` (dealt as ``split``, player 1 to lead), whose game
    ends after ``tricks[i]`` tricks, and (two players) ``mirror_keys[i]`` with its mirror's."""
    players = split.shape[0]
    state = rules.new_state(players)
    swapped = rules.new_state(players)
    pile = rules.new_pile()
    flat = np.zeros((players, CAPACITY), dtype=np.uint8)
    sizes = np.zeros(players, dtype=np.int64)
    for i in range(sequences.shape[0]):
        rules.deal_out(sequences[i], split, flat)
        rules.load_into(flat, split, 0, state)
        for _ in range(tricks[i] - 1):
            rules.play_trick(state.hands, state.head, state.size, state.hashes, state.out,
                             state.info, pile)
        keys[i] = rules.fingerprint(state.size, state.hashes, state.info)
        if players == 2:
            mirror_keys[i] = _mirrored_fingerprint(state, flat, sizes, swapped)


def last_state(hands: Sequence[Sequence[int]], tricks: int, trick) -> rules.State:
    """The state after ``tricks - 1`` tricks of the game of ``hands`` (player 1 to lead),
    ``trick(state, pile)`` playing one trick of it: for a game of ``tricks`` tricks, its last
    state before the end."""
    state = rules.State.from_hands(hands, 0)
    pile = rules.new_pile()
    for _ in range(tricks - 1):
        trick(state, pile)
    return state


def state_name(state: rules.State) -> str:
    """A state's fingerprint as 16 hex digits."""
    return cycle_name(rules.fingerprint(state.size, state.hashes, state.info))


def mirror_name(state: rules.State) -> str:
    """The fingerprint of a two-player state mirrored (hands swapped, the other to lead)."""
    hands = state.hand_list()[::-1]
    return state_name(rules.State.from_hands(hands, 1 - state.leader))


@dataclass(frozen=True)
class Family:
    """A terminating game's family (and, between two players, its mirror family's name)."""

    family: str
    mirror: str | None


def family_of(hands: Sequence[Sequence[int]], game) -> Family | None:
    """The family of the game of ``hands`` (player 1 to lead) in ``game`` (a
    ``games.Game``: its ``play_state`` and ``trick_function``); None when it does not
    terminate."""
    result = game.play_state(hands, 0)
    if result.outcome != "win":
        return None
    state = last_state(hands, result.tricks, game.trick_function(len(hands)))
    return Family(state_name(state), mirror_name(state) if len(hands) == 2 else None)


def bmn_families(sequences: np.ndarray, rows: np.ndarray, split: Sequence[int]) -> list[Family]:
    """The families of terminating games of Beggar-my-neighbour, from one kernel over the
    deals: deal ``sequences[i]`` (dealt as ``split``) played to result row ``rows[i]``
    (``rules.R_*``; its tricks are read)."""
    sizes = np.asarray(split, dtype=np.int64)
    tricks = np.ascontiguousarray(rows[:, R_TRICKS], dtype=np.int64)
    keys = np.zeros(len(sequences), dtype=np.int64)
    mirrors = np.zeros(len(sequences), dtype=np.int64)
    bmn_family_keys(np.ascontiguousarray(sequences, dtype=np.uint8), sizes, tricks, keys,
                    mirrors)
    return [Family(cycle_name(k), cycle_name(m) if len(sizes) == 2 else None)
            for k, m in zip(keys, mirrors, strict=True)]


def families(sequences: np.ndarray, rows: np.ndarray, split: Sequence[int],
             trick) -> list[Family]:
    """The families of terminating games of any game, played state by state:
    ``trick(state, pile)`` plays one trick of it (``games.Game.trick_function``); deal
    ``sequences[i]`` (dealt as ``split``) played to result row ``rows[i]``."""
    sizes = np.asarray(split, dtype=np.int64)
    tricks = np.ascontiguousarray(rows[:, R_TRICKS], dtype=np.int64)
    players = len(sizes)
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    found = []
    for sequence, count in zip(sequences, tricks, strict=True):
        hands = [[int(c) for c in sequence[bounds[p]:bounds[p + 1]]] for p in range(players)]
        state = last_state(hands, int(count), trick)
        found.append(Family(state_name(state), mirror_name(state) if players == 2 else None))
    return found


@dataclass(frozen=True)
class MergePoint:
    """Where a game joins another: after ``tricks`` tricks of its own it is at the state the
    other reaches after ``trunk_tricks``."""

    tricks: int
    trunk_tricks: int


def merge_point(trajectory: Sequence, trunk: Sequence) -> MergePoint | None:
    """The first state of ``trajectory`` (a game's trick-boundary states, as
    ``game.trajectory`` gives them) that ``trunk``'s trajectory holds, the end state left
    out; None when they never meet before it."""
    where = {_key(state): index for index, state in enumerate(trunk[:-1])}
    for index, state in enumerate(trajectory[:-1]):
        if _key(state) in where:
            return MergePoint(index, where[_key(state)])
    return None


def _key(state) -> tuple:
    hands, leader = state
    return leader, tuple(tuple(hand) for hand in hands)
