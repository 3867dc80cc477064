"""The ``Engine`` a strategy plays its chunks on: each with the fastest kernel that applies
(``engine.kernels.choose``), on the CPU kernels or, for ``--device gpu``, on the GPU engine
(``gpu/``).

Outside ``engine/`` so that the kernel folder, whose sources ``jit`` digests for the cache,
imports nothing above it: the CPU kernels and the GPU engine are two variants this face
picks between.
"""

from __future__ import annotations

import numpy as np

from .cards.deck import Deck
from .cards.params import BMN, ERS, deck_of, game_of
from .cards.slaps import SlapRules
from .engine import bitboard, ers
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
                 random: Kernel | None = None, slaps: SlapRules | None = None,
                 device: str = gpu.CPU):
        """``slaps``: Egyptian ratscrew's slap rules (``deck`` then a ranked deck); None
        for Beggar-my-neighbour.  ``device``: ``gpu`` plays random and enumerated deals on
        the GPU engine (two players of Beggar-my-neighbour; the same results)."""
        self.deck = deck
        self.players = players
        self.max_tricks = int(max_tricks or 0)
        self.split = np.array(deck.split(players), dtype=np.int64)
        self.game = BMN if slaps is None else ERS
        self.game_args = () if slaps is None else (ers.slaps_of(slaps, players),)
        self.random = random or choose(deck, players, RANDOM, self.game)
        if not self.random.serves(RANDOM, deck, players, self.game):
            raise ValueError(f"engine {self.random.name} cannot play deck {deck.spec} "
                             f"between {players} players")
        self.device = device
        if device != gpu.CPU and (self.game != BMN or players != 2
                                  or self.random.name not in GPU_DRAWS):
            raise ValueError(f"device {device} cannot play {self.game} deals of engine "
                             f"{self.random.name} between {players} players")

    @classmethod
    def for_run(cls, params: dict) -> Engine:
        """The engine that plays a run's chunks, from its stored ``params`` (a run stored
        with ``device: gpu`` resumed where no GPU is usable: a ``UserError``)."""
        slaps = SlapRules.from_params(params) if game_of(params) == ERS else None
        device = params.get("device") or gpu.CPU
        gpu.check_device(device, int(params["players"]), slaps is not None)
        return cls(deck_of(params), int(params["players"]),
                   int(params.get("max_tricks") or 0), random_kernel(params), slaps, device)

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
        if self.game == BMN and FAST2.fits(self.deck, self.players):
            bitboard.warm_long(self.deck.sorted_cards(), self.split, self.max_tricks)

    def play_sequences(self, sequences: np.ndarray) -> np.ndarray:
        """Result rows (``rules.R_*``) of the deals ``sequences`` (one card sequence a row)."""
        rows = np.zeros((len(sequences), RESULT_LEN), dtype=np.int64)
        kernel = choose(self.deck, self.players, SEQUENCES, self.game)
        kernel.sequences(sequences, self.split, self.max_tricks, rows, *self.game_args)
        return rows
