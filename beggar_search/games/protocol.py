"""What a game is to the rest of the tool: ``Game``, one value per run, and ``CycleGame``,
what the loop searches play states with.

A ``Game`` is resolved once from a run's parameters (``games.of(params)``) or from the
command line's ``--game`` (``cli.game.GameChoice.value``) and then asked: its deck and deal
classes and their notation, the kernels that play it (``kernel``, ``kernel_args``), a deal
played, traced and followed state by state, its merge families, its backward step, its
cycle game, its bench workload, and what a report writes of it (letters, slaps, the words
that replay a deal).  Nothing outside ``games/`` tests which game a run plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Game(Protocol):
    """One game as a run plays it: its rules bound (Egyptian ratscrew's slap rules and
    players), so every method answers for that run."""

    name: str  # what a run stores as its ``game`` (Beggar-my-neighbour stores nothing)
    label: str  # the game's name for people
    kernel: str  # the kernels that play it: ``engine.kernels.Kernel.game``
    deck_class: type  # ``cards.deck.Deck`` or ``cards.ranked.RankedDeck``
    deal_class: type  # ``Deal`` or ``RankedDeal``: parse, rank, unrank, format
    letters: str  # the letter of each card code (the report's replays)
    deterministic: bool  # whether a deal fixes its game (cycles, reach, the loop searches)
    symmetric: bool  # whether renaming the players keeps the game (no seat favoured)
    gpu: bool  # whether the GPU engine plays it (``--device gpu``)
    takes_slaps: bool  # whether it takes the command line's slap options (ratscrew's)
    seeded: bool  # whether its games may draw on a seed (``play --seed``)
    tag: str  # before a run's deck in the list of runs: "ers "; "" for the game that lists
    # and summaries leave unnamed (Beggar-my-neighbour, the default)

    def deck(self, spec):
        """The deck ``spec`` names (a ``DeckError`` if bad)."""

    def notation(self, hands) -> str:
        """A deal's hands written in the game's notation."""

    def format_state(self, hands, leader: int) -> str:
        """``'leader:hands'``."""

    def parse_state(self, text: str):
        """(hands, 0-based leader) of ``'leader:hands'``."""

    def describe(self) -> str:
        """The game in words."""

    def run_params(self) -> dict:
        """What a run stores about its game."""

    def fields(self) -> dict:
        """What a summary, a figure, a report says: ``game``, rules."""

    def kernel_args(self, players: int) -> tuple:
        """What its kernels take past the deal."""

    def cap(self, max_tricks: int | None) -> int | None:
        """The cap a game plays under."""

    def play(self, deal, max_tricks: int | None = None):
        """The deal played to its end (``engine.game.Result``)."""

    def trace(self, deal, max_tricks: int | None = None):
        """The deal played trick by trick: (trick records, ``Result``)."""

    def trace_record(self, record) -> dict:
        """A trick record as ``play --trace --json``."""

    def play_state(self, hands, leader: int = 0, max_tricks: int | None = None):
        """The game from a state, to its end."""

    def state_cycle(self, hands, leader: int = 0) -> list:
        """The cycle's states (or [])."""

    def trajectory(self, hands, leader: int = 0, max_tricks: int | None = None) -> list:
        """Every trick-boundary state of the game, the start included."""

    def trick_function(self, players: int):
        """One trick on a ``rules.State``."""

    def families(self, sequences, rows, split: Sequence[int]) -> list:
        """Merge families."""

    def backward_step(self, players: int):
        """Its ``backward.closure.Step`` (a ``ValueError`` where a deal does not fix the
        game)."""

    def cycle_game(self) -> CycleGame:
        """What the loop searches play states with."""

    def bench_against(self, deck) -> str | None:
        """The bench workload: None, the fast path against the general engine; else the
        Beggar-my-neighbour deck whose general engine the game's own kernel is timed
        against (random deals, one worker)."""

    def play_words(self, params: dict) -> list[str]:
        """``play`` options past the deck."""


class CycleGame(Protocol):
    """What a loop search (the hunter, the factory, its seeding) needs of its run's game:
    states played, written, read, renamed (``games.bmn.BmnCycles``, ``games.ers.ErsCycles``).

    ``renamings`` gives the state under each renaming of the players that keeps the game
    (itself first): a cycle and these are one class, expanded once; ``symmetric``: whether
    every rotation of the players keeps the game (then two players' mirror cycles pair up,
    and a cycle's fair deals with player 2 leading are its mirror's); ``masks``: whether
    two-player states may take the bitboard fast path (values only); ``new_exact``: the
    exact engine's scratch (``engine.exact``), which decides the game every search kernel
    plays; ``reach``: the cycle's in-tree (``backward.reach.ReachResult``); ``tiny``: a deck
    spec and a state of it, to compile the kernels on; ``warm_up``: compile the rest.
    """

    name: str
    masks: bool
    symmetric: bool

    def play_state(self, hands, leader: int):
        """The game from a state, to its end."""

    def state_cycle(self, hands, leader: int):
        """The states of the cycle the state plays into (or [])."""

    def format_state(self, hands, leader: int) -> str:
        """``'leader:hands'``."""

    def parse_state(self, text: str):
        """(hands, 0-based leader) of ``'leader:hands'``."""

    def parse_deal(self, text: str, deck):
        """The hands of a deal of ``deck``."""

    def renamings(self, hands, leader: int):
        """The state under each renaming of the players that keeps the game, itself first."""

    def new_exact(self, players: int):
        """The exact engine's scratch."""

    def record_loop(self, recorder, position: int, deal: str, deck):
        """A fair looping deal, played again, into a chunk's recorder."""

    def reach(self, hands, leader: int, deck, max_states: int):
        """The in-tree of the cycle the state plays into."""

    def tiny(self, players: int):
        """A deck spec and a state of it, to compile the kernels on."""

    def warm_up(self) -> None:
        """Compile the rest."""
