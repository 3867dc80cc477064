"""The exact engine of either game, as the loop searches play a tried state: one seam.

The searches that try states (the factory's walk and kicks, the hunter, the growth of
small decks' cycles) play each one with the exact engine, through the scratch space
they were given, an ``ExactScratch``: ``new_exact``'s plays Beggar-my-neighbour
(``engine/rules.py``), ``ers.new_exact``'s plays Egyptian ratscrew under its slap rules
(``engine/ers.py``).  ``play_exact`` and ``trick_exact`` play the game of the scratch:
the one game loop (``rules.play_game_with``) and its trick (``rules.game_trick``) are
resolved by Numba from the type of the scratch's game when a kernel is compiled, so each
kernel specialises to one game: Beggar-my-neighbour's code is the direct call it was, and
no search kernel is written twice.  ``masks_apply`` says whether a state may be moved and
played on bitboard masks (Beggar-my-neighbour's two-player fast path: masks hold the
five values, not ranks)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.extending import overload

from ..jit import kernel
from . import rules
from .rules import CAPACITY, RESULT_LEN


class ExactScratch(NamedTuple):
    """What the exact engine needs to play one state (``new_exact``, ``ers.new_exact``)."""

    flat: np.ndarray  # uint8 (players, CAPACITY): the hands to play
    row: np.ndarray  # int64 (RESULT_LEN,): the result
    scratch: rules.GameScratch  # its ``game`` is the game played


@kernel
def new_exact(players):
    """An ``ExactScratch`` for games of Beggar-my-neighbour between ``players`` players."""
    return ExactScratch(np.zeros((players, CAPACITY), dtype=np.uint8),
                        np.zeros(RESULT_LEN, dtype=np.int64), rules.new_scratch(players))


@kernel
def play_exact(exact, sizes, leader):
    """Play the state laid out in ``exact.flat`` (hand sizes ``sizes``, ``leader`` from 0)
    to its end, loop or win, uncapped; the result row is ``exact.row``."""
    rules.play_game_with(exact.flat, sizes, leader, 0, exact.row, exact.scratch)


@kernel
def trick_exact(exact, state, pile):
    """Play one trick of a ``rules.StateArrays`` state (its game: ``exact``'s); returns who
    took the pile."""
    return rules.game_trick(exact.scratch.game, state.hands, state.head, state.size,
                            state.hashes, state.out, state.info, pile)


def masks_apply(exact):
    """Whether the game of ``exact`` is Beggar-my-neighbour, whose two-player states may be
    moved and played on masks.  In kernels only."""
    raise NotImplementedError("masks_apply is called from kernels")


def _field(named, name):
    """The Numba type of field ``name`` of the named tuple type ``named`` (typing time)."""
    return named.types[named.fields.index(name)]


@overload(masks_apply, jit_options=rules.OVERLOAD_OPTIONS)
def _masks_apply(exact):
    masked = rules.game_is(_field(_field(exact, "scratch"), "game"), rules.Bmn)
    return lambda exact: masked


__all__ = ["ExactScratch", "masks_apply", "new_exact", "play_exact", "trick_exact"]
