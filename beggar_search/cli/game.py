"""``--game bmn|ers`` and the slap options of Egyptian ratscrew, built into one object.

``game_options`` adds ``--game``, ``--slap-rules``, ``--slap-policy`` and
``--slap-in/--no-slap-in`` and hands the command one ``GameChoice`` as ``game``;
``bmn_only(command)`` adds a ``--game`` that refuses any game but the default
(Beggar-my-neighbour) with one line, for the searches that play it only.
"""

from __future__ import annotations

from dataclasses import dataclass

import click

from .. import games
from ..cards.deck import DeckError
from .common import UserError
from .gathered import gathered

SLAP_DEFAULTS = {"slap_rules": "pair", "slap_policy": "none", "slap_in": True}


@dataclass(frozen=True)
class GameChoice:
    """The game a command plays (``--game``), with the options of its rules (Egyptian
    ratscrew's slaps); ``value`` resolves it to the one ``games.Game`` the command asks."""

    game: str = games.DEFAULT
    slap_rules: str = "pair"
    slap_policy: str = "none"
    slap_in: bool = True

    @property
    def kind(self) -> type:
        """The game's class: what needs no players (``deck_class``, ``deal_class``)."""
        return games.kind(self.game)

    def deck(self, spec: str):
        """The deck ``--deck`` names for this game (ranked for ratscrew); one line if bad."""
        try:
            return self.kind.deck_class.parse(spec)
        except DeckError as error:
            raise UserError(str(error)) from None

    def value(self, players: int, seed: int | None = None) -> games.Game:
        """The game between ``players`` (``seed``: what its rules draw from, ratscrew's odds),
        its rules checked: a policy for a player who does not exist, or odds that do not sum
        to 1, are one line."""
        try:
            return self.kind.from_params({"game": self.game, "players": players, "seed": seed,
                                          "slap_rules": self.slap_rules,
                                          "slap_policy": self.slap_policy,
                                          "slap_in": self.slap_in})
        except DeckError as error:
            raise UserError(str(error)) from None

    def run_params(self, players: int, seed: int | None, max_tricks: int | None) -> dict:
        """What a run stores about its game (nothing for Beggar-my-neighbour, as before);
        a game whose rules draw (ratscrew under odds) without a cap gets its cap, stored."""
        value = self.value(players, seed)
        stored = value.run_params()
        return {**stored, "max_tricks": value.cap(max_tricks)} if stored else {}


GAME_OPTIONS = [
    ("game", click.option("--game", type=click.Choice(tuple(games.KINDS)), default=games.DEFAULT,
                          show_default=True,
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
    slaps = {key: values[key] for key in SLAP_DEFAULTS}
    if slaps != SLAP_DEFAULTS and not choice.kind.takes_slaps:
        takers = [name for name in games.KINDS if games.kind(name).takes_slaps]
        raise UserError(f"the slap options are for {' or '.join(f'--game {n}' for n in takers)}")
    return choice


# the game options; the command gets one ``GameChoice`` as ``game``
game_options = gathered(GameChoice, "game", GAME_OPTIONS, _game_choice)


def bmn_only(name: str, why: str = ""):
    """A ``--game`` option for a command that plays Beggar-my-neighbour only (``why``: the
    reason, said in the refusal)."""

    def refuse(ctx, param, value):
        if value != games.DEFAULT:
            raise UserError(f"{name} plays {games.kind(games.DEFAULT).label} only{why}: --game"
                            f" {value} is not supported there (use search random, search"
                            " enumerate or search climb)")
        return value

    return click.option("--game", type=click.Choice(tuple(games.KINDS)), default=games.DEFAULT,
                        expose_value=False,
                        callback=refuse, hidden=True,
                        help="bmn only (Egyptian ratscrew: search random, search enumerate).")
