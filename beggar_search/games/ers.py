"""Egyptian ratscrew: its ``Game`` value (``Ratscrew``, under one run's slap rules) and its
states for the loop searches (``ErsCycles``, a ``CycleGame``: ``games.protocol``).

Cards are rank codes 0-12 (``cards.ranked``), played by ``engine/ers.py`` (the ``ers``
kernel), which takes the slap rules as one more argument (``engine.ers.Slaps``).

Under a deterministic slap policy (``none``, ``first:P``, ``turn``) a game is a function
of its trick-boundary state, so the factory's closure and kicks work on ratscrew's states
as on Beggar-my-neighbour's: states are hands of rank codes (``ranked``), written
``'leader:hands'`` in ranks, played by ``engine/ers.py`` (``ers.new_exact`` is the scratch
that makes every search kernel play ratscrew, see ``engine.exact``).  What differs:

- no fast path: the bitboard masks hold five values, not thirteen ranks;
- renamings: under ``none`` and ``turn`` every rotation of the players keeps the game
  (``turn`` names the player after the one who laid the card); under ``first:P`` none
  does (player P wins every slap), so each cycle is a class of its own and has no mirror;
- ``odds`` has no cycles: refused;
- in-trees and fair deals come from ratscrew's own backward search (``backward.reach.reach_state``
  with the slap rules, ``backward/ers_step.py``).
"""

from __future__ import annotations

import numpy as np

from ..cards.ranked import (
    RANKS,
    RankedDeal,
    RankedDeck,
    format_ranked_hands,
    format_ranked_state,
    parse_ranked_state,
)
from ..cards.slaps import SlapRules
from .loops import record_row, rotations

SYMMETRIC_POLICIES = ("none", "turn")  # renaming the players (a rotation) keeps the game
WARM_DECK, WARM_DEAL = "8=2,9=2,T=1,J=2,Q=1", "88J9/J9TQ"  # loops under none, turn, first:1

# The engine and the backward search (Numba) load in the methods that play: reading a
# run's game (``show``, ``runs``, ``--help``) needs none of them.

class ErsCycles:
    """Egyptian ratscrew's states under one run's slap rules (``CycleGame``)."""

    name = "ers"
    masks = False

    def __init__(self, slap_rules: SlapRules, players: int):
        from ..engine import ers

        if not slap_rules.deterministic:
            raise ValueError("the loop searches need a deterministic slap policy (none,"
                             f" first:P or turn), not {slap_rules.policy_spec}")
        self.slap_rules = slap_rules
        self.players = players
        self.slaps = ers.slaps_of(slap_rules, players)
        self.symmetric = slap_rules.policy in SYMMETRIC_POLICIES

    @classmethod
    def for_run(cls, params: dict) -> ErsCycles:
        """The run's slap rules, from its stored parameters."""
        return cls(SlapRules.from_params(params), int(params["players"]))

    def play_state(self, hands, leader: int):
        """The game from a state, to its end."""
        from ..engine import ers_game

        return ers_game.play_state(hands, leader, self.slap_rules)

    def state_cycle(self, hands, leader: int):
        """The states of the cycle the state plays into (or [])."""
        from ..engine import ers_game

        return ers_game.state_cycle(hands, leader, self.slap_rules)

    @staticmethod
    def format_state(hands, leader: int) -> str:
        """``'leader:hands'`` in ranks."""
        return format_ranked_state(hands, leader)

    @staticmethod
    def parse_state(text: str):
        """(hands, 0-based leader) of ``'leader:hands'`` in ranks."""
        return parse_ranked_state(text)

    @staticmethod
    def parse_deal(text: str, deck):
        """The hands of a ranked deal of ``deck``."""
        return [list(hand) for hand in RankedDeal.parse(text, deck).hands]

    def renamings(self, hands, leader: int):
        """The state itself, then (``none``, ``turn``) every other rotation of the players."""
        if self.symmetric:
            return rotations(hands, leader)
        return iter([([list(hand) for hand in hands], leader)])

    def new_exact(self, players: int):
        """The exact engine's scratch for ratscrew under the run's slap rules."""
        from ..engine import ers

        return ers.new_exact(players, self.slaps)

    def record_loop(self, recorder, position: int, deal: str, deck):
        """A fair looping ranked deal, played again, into the chunk's recorder."""
        from ..engine import ers
        from ..engine.rules import RESULT_LEN, pack_hands

        ranked = RankedDeal.parse(deal, deck)
        flat, sizes = pack_hands(ranked.hands)
        row = np.zeros(RESULT_LEN, dtype=np.int64)
        ers.play_game(flat, sizes, 0, 0, self.slaps, row)
        return record_row(recorder, position, row, ranked.sequence)

    def reach(self, hands, leader: int, deck, max_states: int):
        """The in-tree of the cycle the state plays into, searched backwards under the
        run's slap rules (``backward.reach.reach_state``; fair deals in ranks)."""
        from ..backward.reach import reach_state

        return reach_state(hands, leader, deck, max_states=max_states,
                           game=Ratscrew(self.slap_rules, self.players))

    @staticmethod
    def tiny(players: int):
        """A ranked deck spec and a state of it (a jack, queens and twos): an even deal."""
        return f"2={players},J=1,Q={players - 1}", [[0, 9]] + [[0, 10]] * (players - 1)

    def warm_up(self) -> None:
        """Compile the backward search and the replay of a fair deal, on a looping deal of a
        tiny deck (the backward search compiles once, whatever the slap rules)."""
        from ..engine import batch

        deck = RankedDeck.parse(WARM_DECK)
        hands = RankedDeal.parse(WARM_DEAL, deck).hands
        result = self.play_state(hands, 0)
        if result.outcome == "loop":
            self.reach(hands, 0, deck, 3000)
        self.record_loop(batch.new_recorder(0, deck.size), 0, WARM_DEAL, deck)


class Ratscrew:
    """Egyptian ratscrew under one run's slap rules (``Game``)."""

    name = "ers"
    label = "Egyptian ratscrew"
    kernel = "ers"
    deck_class = RankedDeck
    deal_class = RankedDeal
    letters = RANKS
    gpu = False
    tag = "ers "
    takes_slaps = True  # the command line's slap options
    seeded = True  # under odds, its slaps are drawn from the run's seed

    def __init__(self, slap_rules: SlapRules, players: int):
        self.slap_rules = slap_rules
        self.players = players
        self.deterministic = slap_rules.deterministic
        self.symmetric = slap_rules.policy != "first"  # no seat wins every slap

    @classmethod
    def from_params(cls, params: dict) -> Ratscrew:
        """The game of a run's parameters: its slap rules, players (and seed, under odds)."""
        return cls(SlapRules.from_params(params), int(params["players"]))

    def deck(self, spec):
        """The ranked deck ``spec`` names (rank counts)."""
        return spec if isinstance(spec, self.deck_class) else self.deck_class.parse(spec)

    def notation(self, hands) -> str:
        """A deal's hands in ranks."""
        return format_ranked_hands(hands)

    def format_state(self, hands, leader: int) -> str:
        """``'leader:hands'`` in ranks."""
        return format_ranked_state(hands, leader)

    def parse_state(self, text: str):
        """(hands, 0-based leader) of ``'leader:hands'`` in ranks."""
        return parse_ranked_state(text)

    def describe(self) -> str:
        """``Egyptian ratscrew, slaps pair by turn`` (and ``, no slap-in``)."""
        rules = self.slap_rules
        return (f"{self.label}, slaps {rules.rules_spec} by {rules.policy_spec}"
                f"{'' if rules.slap_in else ', no slap-in'}")

    def run_params(self) -> dict:
        """What a run stores about its game: ``game`` and the slap rules."""
        return {"game": self.name, **self.slap_rules.to_params()}

    def fields(self) -> dict:
        """What a summary, a figure or a report says of the game."""
        return self.run_params()

    def kernel_args(self, players: int) -> tuple:
        """The slap rules as the kernel reads them (``engine.ers.Slaps``)."""
        from ..engine import ers

        return (ers.slaps_of(self.slap_rules, players),)

    def cap(self, max_tricks: int | None) -> int | None:
        """The cap a game plays under: the agreed one; under odds ``ODDS_CAP`` without one."""
        from ..engine import ers

        if not max_tricks and not self.deterministic:
            return ers.ODDS_CAP
        return int(max_tricks) if max_tricks else None

    def play(self, deal, max_tricks: int | None = None):
        """A ranked deal played to its end."""
        from ..engine import ers_game

        return ers_game.play(deal, self.slap_rules, max_tricks=max_tricks)

    def trace(self, deal, max_tricks: int | None = None):
        """A ranked deal played trick by trick, slaps and all."""
        from ..engine import ers_game

        return ers_game.trace(deal, self.slap_rules, max_tricks=max_tricks)

    @staticmethod
    def trace_record(record) -> dict:
        """A traced trick as ``play --trace --json`` writes it (with its slapper)."""
        return {"trick": record.number, "leader": record.leader,
                "laid": [[p, c] for p, c in record.laid], "taker": record.taker,
                "slapper": record.slapper, "hand_sizes": record.hand_sizes,
                "cards": record.cards, "marks": record.marks}

    def play_state(self, hands, leader: int = 0, max_tricks: int | None = None):
        """The game from a state, to its end."""
        from ..engine import ers_game

        return ers_game.play_state(hands, leader, self.slap_rules, max_tricks)

    def state_cycle(self, hands, leader: int = 0):
        """The states of the cycle the state plays into (or [])."""
        from ..engine import ers_game

        return ers_game.state_cycle(hands, leader, self.slap_rules)

    def trajectory(self, hands, leader: int = 0, max_tricks: int | None = None):
        """Every trick-boundary state of the game (a deterministic policy)."""
        from ..engine import ers_game

        return ers_game.trajectory(hands, leader, self.slap_rules, max_tricks)

    def trick_function(self, players: int):
        """One trick on a ``rules.State`` (``engine.merging``)."""
        from ..engine import ers_game

        return ers_game.trick_function(self.slap_rules, players)

    def families(self, sequences, rows, split):
        """The merge families of terminating games, played state by state."""
        from ..engine import merging

        return merging.families(sequences, rows, split, self.trick_function(len(split)))

    def backward_step(self, players: int):
        """Ratscrew's backward step (``ValueError`` under odds)."""
        from ..backward.closure import ers_step

        return ers_step(self.slap_rules, players)

    def cycle_game(self):
        """What the loop searches play its states with (``ValueError`` under odds)."""
        return ErsCycles(self.slap_rules, self.players)

    def bench_against(self, deck) -> str | None:
        """``bench`` times the ratscrew kernel against the general engine on the same cards
        (ranks 2 to T plain)."""
        return deck.bmn_deck.spec

    def play_words(self, params: dict) -> list[str]:
        """The ``play`` options of the game: ``--game``, the slap rules, the seed under odds."""
        rules = self.slap_rules
        words = ["--game", self.name, "--slap-rules", rules.rules_spec, "--slap-policy",
                 rules.policy_spec]
        if not rules.slap_in:
            words.append("--no-slap-in")
        if not rules.deterministic:
            words += ["--seed", str(int(params.get("seed") or 0))]
        return words
