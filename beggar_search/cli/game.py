"""``--game bmn|ers`` and the slap options of Egyptian ratscrew, built into one object.

``game_options`` adds ``--game``, ``--slap-rules``, ``--slap-policy`` and
``--slap-in/--no-slap-in`` and hands the command one ``GameChoice`` as ``game``;
``bmn_only(command)`` adds a ``--game`` that refuses ``ers`` with one line, for the
searches that play Beggar-my-neighbour only.
"""

from __future__ import annotations

from dataclasses import dataclass

import click

from ..cards.deck import Deck, DeckError
from ..cards.params import BMN, ERS, GAMES
from ..cards.ranked import RankedDeck
from ..cards.slaps import SlapRules
from .common import UserError
from .gathered import gathered


@dataclass(frozen=True)
class GameChoice:
    """The game a command plays, with Egyptian ratscrew's slap options."""

    game: str = BMN
    slap_rules: str = "pair"
    slap_policy: str = "none"
    slap_in: bool = True

    @property
    def ers(self) -> bool:
        """Whether the game is Egyptian ratscrew."""
        return self.game == ERS

    def deck(self, spec: str) -> Deck | RankedDeck:
        """The deck ``--deck`` names for this game (ranked for ratscrew); one line if bad."""
        try:
            return RankedDeck.parse(spec) if self.ers else Deck.parse(spec)
        except DeckError as error:
            raise UserError(str(error)) from None

    def slaps(self, players: int, seed: int | None = None) -> SlapRules:
        """The slap rules for ``players`` (a policy for a player who does not exist, or odds
        that do not sum to 1, are one line)."""
        try:
            return SlapRules.parse(self.slap_rules, self.slap_policy, self.slap_in, players, seed)
        except DeckError as error:
            raise UserError(str(error)) from None

    def run_params(self, players: int, seed: int | None, max_tricks: int | None) -> dict:
        """What a run stores about its game (nothing for Beggar-my-neighbour, as before);
        under odds a run without a cap gets ``ODDS_CAP``, stored."""
        from ..engine.ers import ODDS_CAP

        if not self.ers:
            return {}
        slaps = self.slaps(players, seed)
        cap = max_tricks if max_tricks or slaps.deterministic else ODDS_CAP
        return {"game": ERS, **slaps.to_params(), "max_tricks": cap}


GAME_OPTIONS = [
    ("game", click.option("--game", type=click.Choice(GAMES), default=BMN, show_default=True,
                          help="bmn: Beggar-my-neighbour; ers: Egyptian ratscrew (ranked cards,"
                               " slaps).")),
    ("slap_rules", click.option("--slap-rules", default="pair", show_default=True,
                                help="ers: patterns that may be slapped: pair or pair,sandwich.")),
    ("slap_policy", click.option("--slap-policy", default="none", show_default=True,
                                 help="ers: who wins a slap: none, first:P, turn, or "
                                      "odds:p1,...,pN (drawn from the seed).")),
    ("slap_in", click.option("--slap-in/--no-slap-in", default=True, show_default=True,
                             help="ers: players out of cards may slap back in.")),
]


def _game_choice(values: dict) -> GameChoice:
    """The ``GameChoice`` of the game options; slap options without ``--game ers`` are one
    line."""
    choice = GameChoice(**values)
    if not choice.ers and (choice.slap_rules, choice.slap_policy, choice.slap_in) != (
            "pair", "none", True):
        raise UserError("the slap options are for --game ers")
    return choice


# the game options; the command gets one ``GameChoice`` as ``game``
game_options = gathered(GameChoice, "game", GAME_OPTIONS, _game_choice)


def bmn_only(name: str, why: str = ""):
    """A ``--game`` option for a command that plays Beggar-my-neighbour only (``why``: the
    reason, said in the refusal)."""

    def refuse(ctx, param, value):
        if value == ERS:
            raise UserError(f"{name} plays Beggar-my-neighbour only{why}: --game ers is not "
                            "supported there (use search random, search enumerate or search "
                            "climb)")
        return value

    return click.option("--game", type=click.Choice(GAMES), default=BMN, expose_value=False,
                        callback=refuse, hidden=True,
                        help="bmn only (Egyptian ratscrew: search random, search enumerate).")
