"""Search Beggar-my-neighbour deals: games that never end, and the longest games that do."""

from importlib.metadata import PackageNotFoundError, version

from .cards.deck import Deal, Deck, DeckError
from .engine import Result, play, play_state, trace

try:
    __version__ = version("beggar-search")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.0.0"

__all__ = ["Deal", "Deck", "DeckError", "Result", "__version__", "play", "play_state", "trace"]
