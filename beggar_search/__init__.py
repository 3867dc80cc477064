"""Search Beggar-my-neighbour deals: games that never end, and the longest games that do.

The names below are loaded on first use, so that the command line (``console``) can check
the environment Numba reads before anything imports Numba.
"""

from importlib import import_module

from .version import package_version

__version__ = package_version()  # 0.0.0 when running from a source tree never installed

__all__ = ["Deal", "Deck", "DeckError", "Result", "__version__", "play", "play_state", "trace"]
_LAZY = {"Deal": ".cards.deck", "Deck": ".cards.deck", "DeckError": ".cards.deck",
         "Result": ".engine", "play": ".engine", "play_state": ".engine", "trace": ".engine"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
