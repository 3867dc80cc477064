"""The engine: the rules kernel, the fast kernel, the chunk kernels and the facade that
picks among them (``kernels.Engine``); ``game`` is its Python face.  Egyptian ratscrew, the
second game: ``ers`` (its kernel) and ``ers_game`` (its Python face)."""

from .game import Result, TrickRecord, cycle_states, play, play_state, trace

__all__ = ["Result", "TrickRecord", "cycle_states", "play", "play_state", "trace"]
