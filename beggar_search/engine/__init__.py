"""The engine: the rules kernel, the fast kernel, the chunk kernels and the table that
picks among them (``kernels.KERNELS``; the facade that plays a run's chunks on them or on
the GPU is ``chunk_engine.Engine``, outside this folder); ``game`` is its Python face.
Egyptian ratscrew, the second game: ``ers`` (its kernel) and ``ers_game`` (its Python face)."""

from .game import Result, TrickRecord, cycle_states, play, play_state, trace

__all__ = ["Result", "TrickRecord", "cycle_states", "play", "play_state", "trace"]
