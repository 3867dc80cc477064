"""The exact engine of either game, as the loop searches play a tried state: one seam.

The searches that try states (the factory's walk and kicks, the hunter, the growth of
small decks' cycles) play each one with the exact engine, through the scratch space
they were given: ``ExactScratch`` (``new_exact``) plays Beggar-my-neighbour
(``engine/rules.py``), ``ers.RankedExact`` (``ers.new_exact``) plays Egyptian ratscrew
under its slap rules (``engine/ers.py``).  ``play_exact`` and ``trick_exact`` are
resolved by Numba from the scratch's type when a kernel is compiled, so each kernel
specialises to one game: Beggar-my-neighbour's code is the direct call it was, and no
search kernel is written twice.  ``masks_apply`` says whether a state may be moved and
played on bitboard masks (Beggar-my-neighbour's two-player fast path: masks hold the
five values, not ranks).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.extending import overload

from ..jit import kernel
from . import ers, rules
from .rules import CAPACITY, RESULT_LEN


class ExactScratch(NamedTuple):
    """What the exact engine needs to play one Beggar-my-neighbour state (``new_exact``)."""

    flat: np.ndarray
    row: np.ndarray
    scratch: tuple


@kernel
def new_exact(players):
    """An ``ExactScratch`` for games of ``players`` players."""
    return ExactScratch(np.zeros((players, CAPACITY), dtype=np.uint8),
                        np.zeros(RESULT_LEN, dtype=np.int64), rules.new_scratch(players))


def play_exact(exact, sizes, leader):
    """Play the state laid out in ``exact.flat`` (hand sizes ``sizes``, ``leader`` from 0)
    to its end, loop or win, uncapped; the result row is ``exact.row``.  In kernels only."""
    raise NotImplementedError("play_exact is called from kernels")


def trick_exact(exact, state, pile):
    """Play one trick of a ``rules.StateArrays`` state (its game: ``exact``'s); returns who
    took the pile.  In kernels only."""
    raise NotImplementedError("trick_exact is called from kernels")


def masks_apply(exact):
    """Whether the game of ``exact`` is Beggar-my-neighbour, whose two-player states may be
    moved and played on masks.  In kernels only."""
    raise NotImplementedError("masks_apply is called from kernels")


def _game_of(exact) -> str:
    """'bmn' or 'ers': the game a scratch type plays (Numba typing time)."""
    kind = getattr(exact, "instance_class", None)
    if kind is ExactScratch:
        return "bmn"
    if kind is ers.RankedExact:
        return "ers"
    raise TypeError(f"not an exact engine's scratch: {exact}")


@overload(play_exact, jit_options={"nogil": True, "error_model": "numpy"})
def _play_exact(exact, sizes, leader):
    if _game_of(exact) == "bmn":
        def play_bmn(exact, sizes, leader):
            rules.play_game_with(exact.flat, sizes, leader, 0, exact.row, exact.scratch)
        return play_bmn

    def play_ers(exact, sizes, leader):
        ers.play_game_with(exact.flat, sizes, leader, 0, exact.slaps, exact.row, exact.scratch)
    return play_ers


@overload(trick_exact, jit_options={"nogil": True, "error_model": "numpy"})
def _trick_exact(exact, state, pile):
    if _game_of(exact) == "bmn":
        def trick_bmn(exact, state, pile):
            return rules.play_trick(state.hands, state.head, state.size, state.hashes,
                                    state.out, state.info, pile)
        return trick_bmn

    def trick_ers(exact, state, pile):
        return ers.play_trick(state.hands, state.head, state.size, state.hashes, state.out,
                              state.info, pile, exact.slaps, exact.scratch.stream)[0]
    return trick_ers


@overload(masks_apply, jit_options={"nogil": True, "error_model": "numpy"})
def _masks_apply(exact):
    masked = _game_of(exact) == "bmn"
    return lambda exact: masked


__all__ = ["ExactScratch", "masks_apply", "new_exact", "play_exact", "trick_exact"]
