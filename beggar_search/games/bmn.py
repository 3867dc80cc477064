"""Beggar-my-neighbour, the first game: its ``Game`` value (``BMN``) and the states its
loop searches play (``BMN_CYCLES``, a ``CycleGame``: ``games.protocol``).

Cards are values 0-4 (plain, then the cards a jack, queen, king and ace ask for:
``cards.deck``), played by the kernels of ``engine/rules.py`` and the bitboards
(``engine.kernels``: the ``bmn`` kernels), searched backwards by ``backward.closure``'s
``BMN_STEP``.  A run of it stores no ``game`` in its parameters (runs stored before there
was a second game have none).
"""

from __future__ import annotations

from ..cards.deck import LETTERS, Deal, Deck, format_hands, format_state, parse_state
from .loops import CASELLA, record_loop, rotations

# The engine, the loop kernels and the backward search (Numba) load in the methods that
# play: reading a run's game (``show``, ``runs``, ``--help``) needs none of them.

class BmnCycles:
    """Beggar-my-neighbour's states (``CycleGame``)."""

    name = "bmn"
    masks = True
    symmetric = True

    @staticmethod
    def play_state(hands, leader: int):
        """The game from a state, to its end."""
        from ..engine import game

        return game.play_state(hands, leader)

    @staticmethod
    def state_cycle(hands, leader: int):
        """The states of the cycle the state plays into (or [])."""
        from ..engine import game

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
        from ..cycles import kept as cycles

        return cycles.new_exact(players)

    @staticmethod
    def record_loop(recorder, position: int, deal: str, deck):
        """A fair looping deal, played again, into the chunk's recorder."""
        return record_loop(recorder, position, Deal.parse(deal, deck))

    @staticmethod
    def reach(hands, leader: int, deck, max_states: int):
        """The in-tree of the cycle the state plays into (``backward.reach.reach_state``)."""
        from ..backward.reach import reach_state

        return reach_state(hands, leader, deck, max_states=max_states, game=BMN)

    @staticmethod
    def tiny(players: int):
        """A deck spec and a state of it (a jack, queens and plain cards)."""
        return f"plain={players},J=1,Q={players - 1}", [[0, 1]] + [[0, 2]] * (players - 1)

    @staticmethod
    def warm_up() -> None:
        """Compile the backward search and the replay of a fair looping deal (Casella's)."""
        from ..backward.reach import reach_state
        from ..engine import batch

        casella = Deal.parse(CASELLA)
        reach_state([list(h) for h in casella.hands], 0, max_states=3000, game=BMN)
        record_loop(batch.new_recorder(0, casella.deck.size), 0, casella)


BMN_CYCLES = BmnCycles()



def trace_record(record) -> dict:
    """A traced trick as ``play --trace --json`` writes it."""
    return {"trick": record.number, "leader": record.leader,
            "laid": [[p, c] for p, c in record.laid], "taker": record.taker,
            "hand_sizes": record.hand_sizes, "cards": record.cards, "marks": record.marks}


class BeggarMyNeighbour:
    """Beggar-my-neighbour (``Game``): one value, since the game has no options."""

    name = "bmn"
    label = "Beggar-my-neighbour"
    kernel = "bmn"
    deck_class = Deck
    deal_class = Deal
    letters = LETTERS
    deterministic = True
    symmetric = True
    gpu = True
    tag = ""  # before the deck in the list of runs
    takes_slaps = False  # the command line's slap options
    seeded = False  # whether its games draw on a seed

    @classmethod
    def from_params(cls, params: dict) -> BeggarMyNeighbour:
        """The game of a run's parameters: there is one."""
        return BMN

    def deck(self, spec):
        """The deck ``spec`` names (value counts)."""
        return spec if isinstance(spec, self.deck_class) else self.deck_class.parse(spec)

    def notation(self, hands) -> str:
        """A deal's hands in value notation."""
        return format_hands(hands)

    def format_state(self, hands, leader: int) -> str:
        """``'leader:hands'`` in value notation."""
        return format_state(hands, leader)

    def parse_state(self, text: str):
        """(hands, 0-based leader) of ``'leader:hands'``."""
        return parse_state(text)

    def describe(self) -> str:
        """The game in words."""
        return self.label

    def run_params(self) -> dict:
        """What a run stores about its game: nothing (as before there was a second game)."""
        return {}

    def fields(self) -> dict:
        """What a summary, a figure or a report says of the game."""
        return {"game": self.name}

    def kernel_args(self, players: int) -> tuple:
        """What its kernels take beyond the deals: nothing."""
        return ()

    def cap(self, max_tricks: int | None) -> int | None:
        """The cap a game plays under: the agreed one, if any."""
        return int(max_tricks) if max_tricks else None

    def play(self, deal, max_tricks: int | None = None):
        """A deal played to its end (``engine.game.Result``)."""
        from ..engine import game

        return game.play(deal, max_tricks=max_tricks)

    def trace(self, deal, max_tricks: int | None = None):
        """A deal played trick by trick: (``TrickRecord`` list, ``Result``)."""
        from ..engine import game

        return game.trace(deal, max_tricks=max_tricks)

    trace_record = staticmethod(trace_record)

    def play_state(self, hands, leader: int = 0, max_tricks: int | None = None):
        """The game from a state, to its end."""
        from ..engine import game

        return game.play_state(hands, leader, max_tricks)

    def state_cycle(self, hands, leader: int = 0):
        """The states of the cycle the state plays into (or [])."""
        from ..engine import game

        return game.state_cycle(hands, leader)

    def trajectory(self, hands, leader: int = 0, max_tricks: int | None = None):
        """Every trick-boundary state of the game (``engine.game.trajectory``)."""
        from ..engine import game

        return game.trajectory(hands, leader, max_tricks)

    def trick_function(self, players: int):
        """One trick on a ``rules.State`` (``engine.merging``)."""
        from ..engine import game

        return game.bmn_trick

    def families(self, sequences, rows, split):
        """The merge families of terminating games, from the family kernel."""
        from ..engine import merging

        return merging.bmn_families(sequences, rows, split)

    def backward_step(self, players: int):
        """The backward step of ``backward.closure``."""
        from ..backward.closure import BMN_STEP

        return BMN_STEP

    def cycle_game(self):
        """What the loop searches play its states with."""
        return BMN_CYCLES

    def bench_against(self, deck) -> str | None:
        """``bench`` times its own fast path against the general engine."""
        return None

    def play_words(self, params: dict) -> list[str]:
        """``play`` takes no game options for it."""
        return []


BMN = BeggarMyNeighbour()
