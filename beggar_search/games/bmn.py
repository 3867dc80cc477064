"""What a loop search needs of its run's game: states played, written, read, renamed.

The factory is written once for both games; what differs is here.  ``cycle_game(params)``
gives the run's ``CycleGame``: ``BMN_CYCLES`` for Beggar-my-neighbour (the engine of
``engine/rules.py``, value notation, the backward search of ``reach``), or an
``games.ers.ErsCycles`` for Egyptian ratscrew under a deterministic slap policy.

A ``CycleGame`` has:

- ``play_state(hands, leader)`` -> ``engine.game.Result``; ``state_cycle(hands, leader)``:
  the cycle's states in play order from the first met (or []);
- ``format_state(hands, leader)`` / ``parse_state(text)``: ``'leader:hands'``;
  ``parse_deal(text, deck)``: a deal's hands;
- ``renamings(hands, leader)``: the state under each renaming of the players that keeps
  the game (itself first): a cycle and these are one class, expanded once;
- ``symmetric``: whether every rotation of the players keeps the game (then two players'
  mirror cycles pair up, and a cycle's fair deals with player 2 leading are its mirror's);
- ``masks``: whether two-player states may take the bitboard fast path (values only);
- ``new_exact(players)``: the exact engine's scratch (``engine.exact``), which decides
  the game every search kernel plays;
- ``record_loop(recorder, position, deal, deck)``: a fair looping deal into a chunk's
  recorder; ``reach(hands, leader, deck, max_states)``: the cycle's in-tree
  (``backward.reach.ReachResult``), or None where the game has no backward search;
- ``tiny(players)``: a deck spec and a state of it, to compile the kernels on;
  ``warm_up()``: compile the rest (the backward search, the replay of a fair deal).
"""

from __future__ import annotations

from ..cards.deck import Deal, format_state, parse_state
from ..cards.params import ERS, game_of
from ..cycles import kept as cycles
from ..engine import batch, game
from .loops import CASELLA, record_loop, rotations


class BmnCycles:
    """Beggar-my-neighbour's states (``CycleGame``)."""

    name = "bmn"
    masks = True
    symmetric = True

    @staticmethod
    def play_state(hands, leader: int):
        """The game from a state, to its end."""
        return game.play_state(hands, leader)

    @staticmethod
    def state_cycle(hands, leader: int):
        """The states of the cycle the state plays into (or [])."""
        return game.state_cycle(hands, leader)

    @staticmethod
    def format_state(hands, leader: int) -> str:
        """``'leader:hands'`` in value notation."""
        return format_state(hands, leader)

    @staticmethod
    def parse_state(text: str):
        """(hands, 0-based leader) of ``'leader:hands'``."""
        return parse_state(text)

    @staticmethod
    def parse_deal(text: str, deck):
        """The hands of a deal of ``deck``."""
        return [list(hand) for hand in Deal.parse(text, deck).hands]

    @staticmethod
    def renamings(hands, leader: int):
        """Every rotation of the players (itself first)."""
        return rotations(hands, leader)

    @staticmethod
    def new_exact(players: int):
        """The exact engine's scratch (``engine.exact``)."""
        return cycles.new_exact(players)

    @staticmethod
    def record_loop(recorder, position: int, deal: str, deck):
        """A fair looping deal, played again, into the chunk's recorder."""
        return record_loop(recorder, position, Deal.parse(deal, deck))

    @staticmethod
    def reach(hands, leader: int, deck, max_states: int):
        """The in-tree of the cycle the state plays into (``backward.reach.reach_state``)."""
        from ..backward.reach import reach_state

        return reach_state(hands, leader, deck, max_states=max_states)

    @staticmethod
    def tiny(players: int):
        """A deck spec and a state of it (a jack, queens and plain cards)."""
        return f"plain={players},J=1,Q={players - 1}", [[0, 1]] + [[0, 2]] * (players - 1)

    @staticmethod
    def warm_up() -> None:
        """Compile the backward search and the replay of a fair looping deal (Casella's)."""
        from ..backward.reach import reach_state

        casella = Deal.parse(CASELLA)
        reach_state([list(h) for h in casella.hands], 0, max_states=3000)
        record_loop(batch.new_recorder(0, casella.deck.size), 0, casella)


BMN_CYCLES = BmnCycles()


def cycle_game(params: dict):
    """The ``CycleGame`` of a run (its stored parameters)."""
    if game_of(params) == ERS:
        from .ers import ErsCycles

        return ErsCycles.for_run(params)
    return BMN_CYCLES
