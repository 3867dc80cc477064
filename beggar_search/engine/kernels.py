"""Which kernel plays a chunk: every chunk kernel, and the one rule that picks among them.

Strategies never name a kernel.  They ask an ``Engine`` (``chunk_engine``) to play a chunk
of deals from a *source*: random deals (``RANDOM``), consecutive deal indices
(``ENUMERATE``) or given deals (``SEQUENCES``); the engine plays it with the first kernel
of ``KERNELS`` that serves that source for the run's deck and players.  The general engine
(``batch``/``rules``) serves every source for any deck, last, so there is always one.

The kernels: ``BITBOARD`` (``engine/bitboard.py``: 2 players on bitboards, 16 games in
lockstep; 3 and 4 players 16 games in lockstep too until two are left in,
``engine/bitboard_multi.py``; any deck of up to 64 cards), then ``GENERAL``
(``engine/rules.py`` through ``engine/batch.py``).

A random kernel draws its deals its own way (the bitboard kernel draws penalty
places, the general one shuffles the deck), and that is part of a random run's
identity: the random deals a seed gives depend on it.  So a run stores the id of its
random kernel (``engine`` in its parameters, chosen when the run is created) and
resuming looks the kernel up by that id (``by_name``).  The ids of existing runs stay
valid and keep their deals: ``"fast2"`` (the bitboard kernel's old name, standard deck)
draws as ``"bitboard"`` does, and ``"general"`` shuffles as before, its deals then
played by the bitboard kernel wherever it applies (every kernel gives the general
engine's results exactly).
Enumeration and given deals give the same results with any kernel: they are chosen
afresh each time.

Each kernel plays one game's cards: its ``game`` is the kernels' name for it, which a
game's value names as its ``kernel`` (``games.Game.kernel``).  Egyptian ratscrew's kernel,
``ERS_KERNEL`` (``engine/ers.py``), serves every source for ranked decks; its functions
take the run's slap rules (``engine.ers.Slaps``) as one more argument, which the engine
passes (``games.Game.kernel_args``).  ``choose`` picks among the kernels of one game only.

Adding a kernel: write its chunk functions with the signatures of ``Kernel``'s fields,
add one ``Kernel`` entry to ``KERNELS`` before the ones it is faster than, with ``fits``
saying which decks and player counts it takes, and check it against the general engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cards.deck import STANDARD, Deck
from ..tunables import BITBOARD_CHUNK
from . import batch, bitboard, ers, rules
from .bitboard import DRAW_PLACES, DRAW_SHUFFLE, multi_for, wide_for

RANDOM, ENUMERATE, SEQUENCES = "random", "enumerate", "sequences"
BMN_KERNELS, ERS_KERNELS = "bmn", "ers"  # the cards each kernel plays: ``Kernel.game``
SOURCES = (RANDOM, ENUMERATE, SEQUENCES)


@dataclass(frozen=True)
class Kernel:
    """One chunk kernel: what it takes and how it plays each source of deals it serves.

    ``random(stream, n_deals, deck, split, max_tricks, recorder) -> recorder``,
    ``enumerate(first_sequence, n_deals, split, max_tricks, recorder) -> recorder`` and
    ``sequences(sequences, split, max_tricks, rows)`` (rows filled in place); None for a
    source it does not serve.  Recorders are ``batch.Recorder``; positions in a chunk
    start at 0 and the leaderboard and loops follow ``batch.record``.
    """

    name: str  # the id a run stores
    fits: Callable[[Deck, int], bool]  # (deck, players): can it play these deals
    random: Callable | None = None
    enumerate: Callable | None = None
    sequences: Callable | None = None
    chunk_size: int | None = None  # random deals in about a second; None: the strategy's
    game: str = BMN_KERNELS  # the cards it plays; an ``ERS_KERNELS`` kernel takes the slaps

    def serves(self, source: str, deck: Deck, players: int, game: str = BMN_KERNELS) -> bool:
        """Whether this kernel plays ``source`` deals (``random``, ``enumerate``, ``sequences``) of
        ``game`` with this deck and number of players."""
        return (self.game == game and getattr(self, source) is not None
                and self.fits(deck, players))


BITBOARD_PLAYERS = (2, 3, 4)


def _bitboard_fits(deck: Deck, players: int) -> bool:
    return players in BITBOARD_PLAYERS


def _places_random(stream, n_deals, deck, split, max_tricks, recorder):
    cards = deck.sorted_cards()
    return bitboard.random_chunk(stream, n_deals, cards, split, DRAW_PLACES, max_tricks,
                                 recorder, multi_for(split), wide_for(cards))


def _bitboard_enumerate(first_sequence, n_deals, split, max_tricks, recorder):
    return bitboard.enumerate_chunk(first_sequence, n_deals, split, max_tricks, recorder,
                                    multi_for(split), wide_for(first_sequence))


def _bitboard_sequences(sequences, split, max_tricks, rows):
    bitboard.play_sequences(sequences, split, 0, max_tricks, rows, multi_for(split),
                            wide_for(sequences[:1]))  # every deal holds the deck's cards


def _general_random(stream, n_deals, deck, split, max_tricks, recorder):
    """The general engine's draw (the whole deck shuffled), played by the fastest kernel."""
    cards = deck.sorted_cards()
    if _bitboard_fits(deck, len(split)):
        return bitboard.random_chunk(stream, n_deals, cards, split, DRAW_SHUFFLE, max_tricks,
                                     recorder, multi_for(split), wide_for(cards))
    return batch.random_chunk(stream, n_deals, cards, split, max_tricks, recorder)


def _general_sequences(sequences, split, max_tricks, rows):
    rules.play_sequences(sequences, split, 0, max_tricks, rows)


BITBOARD = Kernel(
    name="bitboard",  # engine/bitboard.py and engine/bitboard_multi.py
    fits=_bitboard_fits,
    random=_places_random,
    enumerate=_bitboard_enumerate,
    sequences=_bitboard_sequences,
    chunk_size=BITBOARD_CHUNK,
)
FAST2 = Kernel(
    name="fast2",  # the bitboard kernel's draw, as runs of the standard deck stored it before
    fits=lambda deck, players: deck == STANDARD and players == 2,
    random=_places_random,
    sequences=_bitboard_sequences,
    chunk_size=BITBOARD_CHUNK,
)
GENERAL = Kernel(
    name="general",  # engine/rules.py through engine/batch.py: any deck, 2-8 players
    fits=lambda deck, players: True,
    random=_general_random,
    enumerate=batch.enumerate_chunk,
    sequences=_general_sequences,
)


def _ers_random(stream, n_deals, deck, split, max_tricks, recorder, slaps):
    return ers.random_chunk(stream, n_deals, deck.sorted_cards(), split, max_tricks, recorder,
                            slaps)


def _ers_sequences(sequences, split, max_tricks, rows, slaps):
    ers.play_sequences(sequences, split, 0, max_tricks, slaps, rows)


ERS_KERNEL = Kernel(
    name="ers",  # engine/ers.py: Egyptian ratscrew, any ranked deck, 2-8 players
    fits=lambda deck, players: True,
    random=_ers_random,
    enumerate=ers.enumerate_chunk,
    sequences=_ers_sequences,
    game=ERS_KERNELS,
)
KERNELS = (BITBOARD, FAST2, GENERAL, ERS_KERNEL)  # fastest first, per game
# the random kernels the GPU engine (``gpu/engine.py``) plays, and how each draws its deals
GPU_DRAWS = {BITBOARD.name: DRAW_PLACES, FAST2.name: DRAW_PLACES, GENERAL.name: DRAW_SHUFFLE}


def choose(deck: Deck, players: int, source: str, game: str = BMN_KERNELS) -> Kernel:
    """The fastest kernel of ``game`` that plays ``source`` deals of ``deck`` between
    ``players``."""
    if source not in SOURCES:
        raise ValueError(f"unknown source of deals {source!r}: one of {', '.join(SOURCES)}")
    return next(k for k in KERNELS if k.serves(source, deck, players, game))


def by_name(name: str) -> Kernel:
    """The kernel a run stored as its ``engine``."""
    for kernel in KERNELS:
        if kernel.name == name:
            return kernel
    raise ValueError(f"unknown engine {name!r}: one of {', '.join(k.name for k in KERNELS)}")


def random_kernel(params: dict, deck: Deck | None = None, game: str = BMN_KERNELS) -> Kernel:
    """A run's random kernel: the one it stored as ``engine``; ``deck`` is the run's (by
    default its ``deck`` of values) and ``game`` the kernels of its game
    (``games.Game.kernel``).

    A run that stored none had, on Beggar-my-neighbour's kernels (the climber's, before it
    stored one), the fast kernel exactly when it fits, and keeps it; on another game's (a
    ratscrew enumeration stores none), the one ``choose`` picks.
    """
    if params.get("engine"):
        return by_name(params["engine"])
    deck, players = deck or Deck.parse(params["deck"]), int(params["players"])
    if game != FAST2.game:
        return choose(deck, players, RANDOM, game)
    return FAST2 if FAST2.fits(deck, players) else GENERAL


def kernel_name(players: int) -> str:
    """The module that plays deals between ``players`` players: what ``bench`` reports."""
    if players not in BITBOARD_PLAYERS:
        return "general"
    return "bitboard" if players == 2 else "bitboard_multi"
