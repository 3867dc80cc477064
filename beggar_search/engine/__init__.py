"""The rules engine: one general kernel (any deck, 2-8 players) and its Python face."""

from .game import Result, TrickRecord, cycle_states, play, play_state, trace

__all__ = ["Result", "TrickRecord", "cycle_states", "play", "play_state", "trace"]
