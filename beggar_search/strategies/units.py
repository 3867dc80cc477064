"""What a stored run's strategy says of its work, by the strategy's name: its class's
``unit`` (deals, tries or games: what the run's ``deals`` counts), and the rest a
``Strategy`` class says of itself.  A name this version does not know reads as the base
``Strategy``: deals."""

from __future__ import annotations

from . import STRATEGIES
from .base import Strategy


def strategy_class(name: str) -> type[Strategy]:
    """The class of the strategy named ``name``; ``Strategy`` itself for an unknown name."""
    return STRATEGIES.get(name, Strategy)


def unit_of(name: str) -> str:
    """The unit of a ``name`` run's ``deals``: ``deals``, ``tries`` or ``games``."""
    return strategy_class(name).unit
