"""The games this tool plays, and what a run's parameters say about its game.

``bmn`` (Beggar-my-neighbour, the first game: ``deck``, ``engine/rules.py``) and ``ers``
(Egyptian ratscrew: ranked cards, ``ranked``, slaps, ``engine/ers.py``).  A run stores
its game as ``game`` in its parameters; runs stored before there was a second game have
none, and are ``bmn``.
"""

from __future__ import annotations

from .deck import Deck, format_hands
from .ranked import RankedDeck, format_ranked_hands

BMN, ERS = "bmn", "ers"
GAMES = (BMN, ERS)


def game_of(params: dict) -> str:
    """The game a run's ``params`` name; ``bmn`` for runs stored before there was a second game."""
    return params.get("game") or BMN


def deck_of(params: dict) -> Deck | RankedDeck:
    """The run's deck: value counts for Beggar-my-neighbour, rank counts for ratscrew."""
    if game_of(params) == ERS:
        return RankedDeck.parse(params["deck"])
    return Deck.parse(params["deck"])


def notation_of(params: dict):
    """How the run's deals are written: ``format_hands`` or ``format_ranked_hands``."""
    return format_ranked_hands if game_of(params) == ERS else format_hands


def describe(fields: dict) -> str:
    """The game in words, from a run's parameters (or a summary holding the same keys):
    ``Beggar-my-neighbour``, ``Egyptian ratscrew, slaps pair by turn``."""
    if game_of(fields) != ERS:
        return "Beggar-my-neighbour"
    return (f"Egyptian ratscrew, slaps {fields['slap_rules']} by {fields['slap_policy']}"
            f"{'' if fields.get('slap_in', True) else ', no slap-in'}")


def slap_fields(params: dict) -> dict:
    """The slap parameters a ratscrew run stored (nothing for Beggar-my-neighbour)."""
    if game_of(params) != ERS:
        return {}
    return {key: params.get(key) for key in ("slap_rules", "slap_policy", "slap_in")}
