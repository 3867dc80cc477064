"""The ``Engine`` a strategy plays its chunks on: each with the fastest kernel that applies
(``engine.kernels.choose``), on the CPU kernels or, for ``--device gpu``, on the GPU engine
(``gpu/``).

Outside ``engine/`` so that the kernel folder, whose sources ``jit`` digests for the cache,
imports nothing above it: the CPU kernels and the GPU engine are two variants this face
picks between.
"""

from __future__ import annotations

import numpy as np

from . import games
from .cards.deck import Deck
from .engine import bitboard
from .engine.batch import Recorder
from .engine.kernels import (
    ENUMERATE,
    FAST2,
    GPU_DRAWS,
    RANDOM,
    SEQUENCES,
    Kernel,
    choose,
    random_kernel,
)
from .engine.rules import RESULT_LEN
from .gpu import engine as gpu


class Engine:
    """Plays a run's chunks, each with the fastest kernel that applies."""

    def __init__(self, deck: Deck, players: int, max_tricks: int = 0,
                 random: Kernel | None = None, game: games.Game = games.BMN,
                 device: str = gpu.CPU):
        """``game``: the ``games.Game`` whose deals these are (``deck`` is of its deck
        class), whose kernels play them with its ``kernel_args``.  ``device``: ``gpu``
        plays random and enumerated deals on the GPU engine (two players of a game it
        plays, Beggar-my-neighbour; the same results)."""
        self.deck = deck
        self.players = players
        self.max_tricks = int(max_tricks or 0)
        self.split = np.array(deck.split(players), dtype=np.int64)
        self.game = game.kernel
        self.game_args = game.kernel_args(players)
        self.random = random or choose(deck, players, RANDOM, self.game)
        if not self.random.serves(RANDOM, deck, players, self.game):
            raise ValueError(f"engine {self.random.name} cannot play deck {deck.spec} "
                             f"between {players} players")
        self.device = device
        self.fast_long = FAST2.serves(RANDOM, deck, players, self.game)  # warm_long
        if device != gpu.CPU and (not game.gpu or players != 2
                                  or self.random.name not in GPU_DRAWS):
            raise ValueError(f"device {device} cannot play {game.name} deals of engine "
                             f"{self.random.name} between {players} players")

    @classmethod
    def for_run(cls, params: dict, game: games.Game | None = None) -> Engine:
        """The engine that plays a run's chunks, from its stored ``params`` and its ``game``
        (by default ``games.of(params)``; a run stored with ``device: gpu`` resumed where no
        GPU is usable: a ``UserError``)."""
        game = game or games.of(params)
        deck = game.deck(params["deck"])
        device = params.get("device") or gpu.CPU
        gpu.check_device(device, int(params["players"]), not game.gpu)
        return cls(deck, int(params["players"]), int(params.get("max_tricks") or 0),
                   random_kernel(params, deck, game.kernel), game, device)

    def random_chunk(self, stream: np.ndarray, n_deals: int, recorder: Recorder) -> Recorder:
        """``n_deals`` random deals drawn from ``stream`` by the run's random kernel."""
        if self.device == gpu.GPU:
            return Recorder(*gpu.random_chunk(stream, n_deals, self.deck.sorted_cards(),
                                              self.split, GPU_DRAWS[self.random.name],
                                              self.max_tricks, recorder))
        return Recorder(*self.random.random(stream, n_deals, self.deck, self.split,
                                            self.max_tricks, recorder, *self.game_args))

    def enumerate_chunk(self, first_sequence: np.ndarray, n_deals: int,
                        recorder: Recorder) -> Recorder:
        """``n_deals`` consecutive deals in index order from ``first_sequence``."""
        if self.device == gpu.GPU:
            return Recorder(*gpu.enumerate_chunk(first_sequence, n_deals, self.split,
                                                 self.max_tricks, recorder))
        kernel = choose(self.deck, self.players, ENUMERATE, self.game)
        return Recorder(*kernel.enumerate(first_sequence, n_deals, self.split, self.max_tricks,
                                          recorder, *self.game_args))

    def warm_long(self) -> None:
        """Compile the fast kernels' replay of a long game by the general engine, which a
        search compiles only when it meets one (``beggar-search compile`` does it ahead)."""
        if self.fast_long:
            bitboard.warm_long(self.deck.sorted_cards(), self.split, self.max_tricks)

    def play_sequences(self, sequences: np.ndarray) -> np.ndarray:
        """Result rows (``rules.R_*``) of the deals ``sequences`` (one card sequence a row)."""
        rows = np.zeros((len(sequences), RESULT_LEN), dtype=np.int64)
        kernel = choose(self.deck, self.players, SEQUENCES, self.game)
        kernel.sequences(sequences, self.split, self.max_tricks, rows, *self.game_args)
        return rows
