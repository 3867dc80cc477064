"""The fastest kernel that applies: every search plays its deals through here.

Every kernel gives the general engine's results exactly, so which one plays a
deal never changes a result; only the way random deals are drawn does.  A run
stores that as its engine id:

- ``"bitboard"``: penalty places drawn (``bitboard.DRAW_PLACES``).  ``"fast2"``
  is the same draw under the name runs of the standard deck stored before;
- ``"general"``: the general engine's shuffle (``bitboard.DRAW_SHUFFLE``).

The kernel is chosen by the number of players: the bitboard kernel for 2
(``engine/bitboard.py``, 16 games in lockstep), its one-game-at-a-time form for 3
and 4 (``engine/bitboard_multi.py``), the general engine (``engine/batch.py``)
otherwise.
"""

from __future__ import annotations

import numpy as np

from ..deck import Deck
from . import batch, bitboard, rules
from .bitboard import DRAW_PLACES, DRAW_SHUFFLE

BITBOARD, GENERAL = "bitboard", "general"
ENGINE_DRAWS = {BITBOARD: DRAW_PLACES, "fast2": DRAW_PLACES, GENERAL: DRAW_SHUFFLE}
FAST_PLAYERS = (2, 3, 4)  # player counts a fast kernel plays


def has_fast_kernel(players: int) -> bool:
    return int(players) in FAST_PLAYERS


def engine_for(players: int) -> str:
    """The engine id a new run stores: the fast path's draw wherever a fast kernel plays."""
    return BITBOARD if has_fast_kernel(players) else GENERAL


def draw_of(engine: str | None) -> int:
    """How a run with this stored engine id draws its random deals."""
    if engine not in ENGINE_DRAWS:
        raise ValueError(f"unknown engine {engine!r}: one of {', '.join(ENGINE_DRAWS)}")
    return ENGINE_DRAWS[engine]


def _split(deck: Deck, players: int) -> np.ndarray:
    return np.array(deck.split(players), dtype=np.int64)


def random_chunk(stream, n_deals: int, deck: Deck, players: int, draw: int, max_tricks: int,
                 recorder):
    """Play ``n_deals`` random deals drawn by ``draw``; the recorder as ``batch.random_chunk``."""
    split = _split(deck, players)
    if has_fast_kernel(players):
        return bitboard.random_chunk(stream, n_deals, deck.sorted_cards(), split, draw,
                                     max_tricks, recorder)
    if draw != DRAW_SHUFFLE:
        raise ValueError(f"no kernel draws penalty places for {players} players")
    return batch.random_chunk(stream, n_deals, deck.sorted_cards(), split, max_tricks, recorder)


def enumerate_chunk(first_sequence: np.ndarray, n_deals: int, deck: Deck, players: int,
                    max_tricks: int, recorder):
    """Play ``n_deals`` consecutive deals in index order from ``first_sequence``."""
    split = _split(deck, players)
    if has_fast_kernel(players):
        return bitboard.enumerate_chunk(first_sequence, n_deals, split, max_tricks, recorder)
    return batch.enumerate_chunk(first_sequence, n_deals, split, max_tricks, recorder)


def play_sequences(sequences: np.ndarray, split: np.ndarray, leader: int, max_tricks: int,
                   results: np.ndarray) -> None:
    """Play a list of deals, as ``rules.play_sequences``."""
    if has_fast_kernel(len(split)):
        bitboard.play_sequences(sequences, split, leader, max_tricks, results)
    else:
        rules.play_sequences(sequences, split, leader, max_tricks, results)


def kernel_name(players: int) -> str:
    """The kernel that plays deals between ``players`` players."""
    if not has_fast_kernel(players):
        return "general"
    return "bitboard" if int(players) == 2 else "bitboard_multi"
