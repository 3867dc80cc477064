"""The games this tool plays, each one value (``Game``, ``protocol.py``) resolved once from
a run's parameters: ``of(params)``.

Beggar-my-neighbour (``bmn.py``), Egyptian ratscrew (``ers.py``), and the loops the loop
searches record in either (``loops.py``).  A run stores its game as ``game`` in its
parameters; runs stored before there was a second game have none, and are
Beggar-my-neighbour (``DEFAULT``).  ``KINDS`` names each game's class, whose class
attributes (``deck_class``, ``deal_class``, ``letters``, ...) need no run and whose
``from_params`` gives the value; a game added to it is offered by ``--game`` and read back
by the store.  Importing this package loads no game (nor Numba): ``kind`` loads one.
"""

from __future__ import annotations

from importlib import import_module

from .protocol import CycleGame, Game

# name -> the game's class, as "module:Class" in this package (loaded on first use) or the
# class itself
KINDS: dict[str, str | type] = {"bmn": "bmn:BeggarMyNeighbour", "ers": "ers:Ratscrew"}
DEFAULT = "bmn"  # the game of runs that store none


def kind(name: str | None) -> type:
    """The class of the game named ``name`` (None: the default game); a ``ValueError`` for
    a name no game has."""
    try:
        found = KINDS[name or DEFAULT]
    except KeyError:
        raise ValueError(f"unknown game {name!r}: one of {', '.join(KINDS)}") from None
    if isinstance(found, str):
        module, cls = found.split(":")
        found = getattr(import_module(f".{module}", __name__), cls)
    return found


def of(params: dict) -> Game:
    """The game of a run's stored ``params`` (or of a summary holding the same keys): its
    class's ``from_params``."""
    return kind(params.get("game")).from_params(params)


def __getattr__(name: str):
    if name == "BMN":  # Beggar-my-neighbour's value, loaded on first use
        return import_module(".bmn", __name__).BMN
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BMN", "DEFAULT", "KINDS", "CycleGame", "Game", "kind", "of"]
