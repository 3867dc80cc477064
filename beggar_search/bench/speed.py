"""Timing a workload (a deck, a player count, a source of deals) on the fast path, on the
general engine, and on the card-by-card baseline; what ``beggar-search bench`` and the
benchmarks measure.

Every kernel is compiled (or loaded from the cache) before anything is timed.  One
worker's rate is per second of its CPU time (``time.process_time``): on a shared
machine wall time would count the other processes' work too; the wall time is kept
beside it.  The parallel figure runs W worker processes (``spawn``); each warms up, waits at a
barrier, plays its share and reports its start and end on the system-wide monotonic
clock; throughput is all deals over the span from the first start to the last end.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from dataclasses import dataclass

import numpy as np

from .. import compiling
from ..cards.deck import Deck, unrank_sequence
from ..jit import ctrl_c_deferred

SEED = 20240601
WARM_DEALS = 2000
PIECE = 1 << 18  # deals per kernel call: 0.1 s on the fast path, 1-3 s on the others
GPU_PIECE = 1 << 22  # on the GPU engine (its block: gpu/engine.py): a fraction of a second
SOURCES = ("random", "enumerate")
ENGINES = ("fast", "general", "baseline", "gpu")  # gpu: the fast path on the GPU engine
WALL_CLOCK = ("gpu",)  # engines timed by the wall clock: their work is not this process's CPU


@dataclass(frozen=True)
class Workload:
    """What is played: ``deck`` (a spec), ``players``, ``source`` (random or enumerate)."""

    deck: str = "standard"
    players: int = 2
    source: str = "random"

    def deals(self, n_deals: int) -> int:
        """Deals a chunk of ``n_deals`` plays (an enumeration stops at the deck's last deal)."""
        if self.source == "random":
            return n_deals
        return min(n_deals, Deck.parse(self.deck).count_deals(self.players))

    def describe(self) -> str:
        """The workload in one line: deck, players and where the deals come from."""
        return f"{Deck.parse(self.deck).spec}, {self.players} players, {self.source} deals"


@dataclass(frozen=True)
class Timing:
    """Deals played, cards laid, the seconds they took (CPU time of one worker, or the wall
    time of several) and the wall time."""

    deals: int
    cards: int
    seconds: float
    wall: float

    @property
    def deals_per_second(self) -> float:
        """Deals played per second."""
        return self.deals / self.seconds

    @property
    def cards_per_second(self) -> float:
        """Cards laid per second."""
        return self.cards / self.seconds

    def as_dict(self) -> dict:
        """The timing and its rates as a plain dict (for ``--json``)."""
        return {"deals": self.deals, "cards": self.cards, "seconds": self.seconds,
                "wall_seconds": self.wall,
                "deals_per_second": self.deals_per_second,
                "cards_per_second": self.cards_per_second}


def enumeration_start(deck: Deck, players: int, seed: int, chunk: int, n_deals: int) -> int:
    """Where chunk ``chunk`` of an enumeration benchmark starts: a random index range."""
    room = max(deck.count_deals(players) - n_deals, 1)
    rng = np.random.default_rng([seed, chunk])
    return min(int(rng.random() * room), room - 1)


def play(workload: Workload, engine: str, chunk: int, n_deals: int, seed: int = SEED) -> int:
    """Play ``n_deals`` deals of the workload with ``engine``; returns the cards laid.

    In kernel calls of ``PIECE`` deals at most: a Ctrl-C, which Python can only answer
    between two, stops a benchmark of any length within a second or so.
    """
    with ctrl_c_deferred() as asked:  # from the first kernel call: loading one from the
        # cache or compiling it swallows a KeyboardInterrupt raised meanwhile
        return _play_pieces(workload, engine, chunk, n_deals, seed, asked)


def _play_pieces(workload: Workload, engine: str, chunk: int, n_deals: int, seed: int,
                 asked: list) -> int:
    """``play``'s body, inside its Ctrl-C deferral (``asked``)."""
    from ..chunk_engine import Engine
    from ..engine import baseline, batch
    from ..engine.random import chunk_stream

    deck = Deck.parse(workload.deck)
    players = workload.players
    recorder = batch.new_recorder(10, deck.size)
    split = np.array(deck.split(players), dtype=np.int64)
    stream = chunk_stream(seed, chunk)  # each call draws on from where the last stopped
    if engine == "baseline":
        if deck != Deck.parse("standard") or players != 2 or workload.source != "random":
            raise ValueError("the baseline plays random standard deals between 2 players")
        return sum(int(baseline.random_games(stream, piece)[0])
                   for _, piece in pieces(n_deals, asked))
    fast = Engine(deck, players, device=engine) if engine == "gpu" else (
        Engine(deck, players) if engine == "fast" else None)
    size = GPU_PIECE if engine == "gpu" else PIECE
    if workload.source == "random":
        for _, piece in pieces(n_deals, asked, size):
            if fast is not None:
                recorder = fast.random_chunk(stream, piece, recorder)
            else:
                recorder = batch.random_chunk(stream, piece, deck.sorted_cards(), split, 0,
                                              recorder)
    else:
        start = enumeration_start(deck, players, seed, chunk, n_deals)
        for offset, piece in pieces(workload.deals(n_deals), asked, size):
            first = unrank_sequence(start + offset, deck)
            if fast is not None:
                recorder = fast.enumerate_chunk(first, piece, recorder)
            else:
                recorder = batch.enumerate_chunk(first, piece, split, 0, recorder)
    return int(recorder[0][batch.C_CARDS])


def pieces(n_deals: int, asked: list, piece: int = PIECE):
    """``(offset, deals)`` of each kernel call (``piece`` deals at most) for ``n_deals``
    deals; KeyboardInterrupt before the next one once ``asked`` (see ``jit.ctrl_c_deferred``)."""
    for offset in range(0, n_deals, piece):
        if asked:
            raise KeyboardInterrupt
        yield offset, min(piece, n_deals - offset)


def time_one(workload: Workload, engine: str, n_deals: int, seed: int = SEED) -> Timing:
    """``n_deals`` deals in this process (warm-up untimed, in a thread: a Ctrl-C while it
    compiles is answered at once), per CPU second (per second of the wall clock for the
    engines of ``WALL_CLOCK``, warmed up on at most ``n_deals``: the GPU's simulator plays a
    few hundred deals a second)."""
    warm = min(WARM_DEALS, n_deals) if engine in WALL_CLOCK else WARM_DEALS
    compiling.warm(play, workload, engine, 1 << 30, warm, seed)
    wall, cpu = time.perf_counter(), time.process_time()
    cards = play(workload, engine, 0, n_deals, seed)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return Timing(workload.deals(n_deals), cards, wall if engine in WALL_CLOCK else cpu, wall)


def _worker(workload, engine, seed, chunk, n_deals, barrier, results) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it ends us
    play(workload, engine, (1 << 30) + chunk, WARM_DEALS, seed)
    barrier.wait()
    start = time.monotonic()
    cards = play(workload, engine, chunk, n_deals, seed)
    results.put((chunk, start, time.monotonic(), cards))


def time_parallel(workload: Workload, engine: str, n_deals: int, workers: int,
                  seed: int = SEED) -> Timing:
    """``n_deals`` deals per worker on ``workers`` processes, timed together."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(workers)
    results = context.Queue()
    # daemons: a Ctrl-C that stops this process ends them too, instead of waiting for them
    processes = [context.Process(target=_worker,
                                 args=(workload, engine, seed, chunk, n_deals, barrier, results),
                                 daemon=True)
                 for chunk in range(workers)]
    for process in processes:
        process.start()
    reports = [results.get() for _ in processes]
    for process in processes:
        process.join()
        if process.exitcode != 0:
            raise RuntimeError(f"bench worker failed with exit status {process.exitcode}")
    span = max(end for _, _, end, _ in reports) - min(start for _, start, _, _ in reports)
    return Timing(workload.deals(n_deals) * workers, sum(cards for *_, cards in reports), span,
                  span)


def play_game(deck, players: int, game, chunk: int, n_deals: int, seed: int = SEED) -> int:
    """Play ``n_deals`` random deals of ``deck`` in ``game`` (a ``games.Game``: Egyptian
    ratscrew under its slap rules, on its own kernel); returns the cards laid."""
    from ..chunk_engine import Engine
    from ..engine import batch
    from ..engine.random import chunk_stream

    engine = Engine(deck, players, 0, game=game)
    recorder = engine.random_chunk(chunk_stream(seed, chunk), n_deals,
                                   batch.new_recorder(10, deck.size))
    return int(recorder[0][batch.C_CARDS])


def time_game(deck, players: int, game, n_deals: int, seed: int = SEED) -> Timing:
    """``n_deals`` random deals of ``game`` in this process (warm-up untimed, as
    ``time_one``)."""
    compiling.warm(play_game, deck, players, game, 1 << 30, WARM_DEALS, seed)
    wall, cpu = time.perf_counter(), time.process_time()
    cards = play_game(deck, players, game, 0, n_deals, seed)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return Timing(n_deals, cards, cpu, wall)
