"""Search Beggar-my-neighbour deals: games that never end, and the longest games that do."""

from .cards.deck import Deal, Deck, DeckError
from .engine import Result, play, play_state, trace
from .version import package_version

__version__ = package_version()  # 0.0.0 when running from a source tree never installed

__all__ = ["Deal", "Deck", "DeckError", "Result", "__version__", "play", "play_state", "trace"]
