"""Climb: long terminating games by backward extension of the longest random games.

A chunk plays ``chunk_size`` random deals (the same deals as the random search's
chunk of that seed and size), then extends the ``extend`` longest distinct deals
it found (the parents, in leaderboard order; in chunk 0 the run's start deal
``start_deal`` comes first).  For each parent it takes the trajectory of its
game (every trick-boundary state before the last one) and searches backwards
(``engine.closure.backward_closure``) for the states whose play reaches one of them,
up to ``closure_states`` states.  Every fair state found (even split, player 1
to lead) that is not on the trajectory itself is a deal whose game plays some
tricks of its own and then merges into the parent's game: longer than the
parent whenever its own tricks lay more cards than the parent's game had laid
up to the state where they meet.  All of them are played (by the fastest kernel
that applies, like the random deals) and recorded after the random deals,
at positions ``chunk_size`` onwards: the start deal, then each parent's new
deals in sorted order, each deal once per chunk.  The chunk's ``deals`` counts
every game played, random and extended.  The closure has a budget in states
only, never in seconds, so a chunk is the same on any worker.

Measured on the standard deck: extending the top 50 of 2,000,000 random deals
(200,000 states each, about 18,000 states and 0.4 s per closure on average)
gave best games of 3298 and 3482 cards where random search found 2941 and 2924
for the same seeds, and 45-48 of the 50 parents gained a longer ancestor.
benchmarks/bench_climb.py, seeds 1-4, two chunks of 2**23 random deals and 8
parents each (16.78 million games in all, about 6,400 of them the extension's):
the climber's longest games were 3543, 3904, 3723 and 3767 cards (mean 3734,
100th longest 3405) against random search's 3477, 3443, 3502, 3426 (mean 3462,
100th 2524) with the same number of games; with the same wall time (random
search 41.9 million games in 13.5 s against the climber's 11.7 s) random search
reached 3477, 3672, 3562, 3882 (mean 3648, 100th 2702): the climber is ahead
on the mean and on 3 seeds of 4, by little.  Most closures finish (a 50,000-state
budget gave the same figures), so the extension costs a fixed 0.4-0.5 s per
parent; with chunks of 2**21 the extension takes most of a chunk's time and
random search at equal time draws level (mean 3563 against 3578).  Timings were
taken with another search using both cores.
Egyptian ratscrew (``game`` "ers", a deterministic slap policy) climbs the same way:
its random deals by the ERS kernel, its trajectories and closures by ratscrew's forward
and backward step (``engine.ers_backward`` through ``closure.ers_step``).  Measured
(``bench_climb.py --slap-policy P``, standard deck, seeds 1-2, two chunks of 2**20
random deals, 8 parents, 200,000 states): under turn the climber's longest games were
3663 and 4553 cards (mean 4108) against random search's 3504 and 3508 with the same
number of games, and 3684 and 3807 given more time than the climber took; under first:1
games are short and their in-trees large (closures run to their budget), so the
extension took most of the time: 1845 and 1862 against 1830 and 1781 with the same
games, but 2199 and 1822 for random search with the same time (with 20,000 states:
1838 and 1800 against 1830 and 1781 either way).

The method cannot go on forever: the whole trajectory of the longest known
game (Nessler 2022, 8344 cards; its last state left out) has a complete
closure of 57,114 states whose 919 other fair deals, 7 of them later states of
the record's own game, are all shorter (the longest 8340 cards).
"""

from __future__ import annotations

import numpy as np

from ..deck import Deal, DeckError
from ..engine import batch, ers_game
from ..engine.batch import Recorder
from ..engine.closure import BMN_STEP, backward_closure, ers_step
from ..engine.game import trajectory
from ..engine.random import chunk_stream
from ..games import ERS, game_of
from ..ranked import RankedDeal
from ..slaps import SlapRules
from .base import ChunkJob, Strategy

CLIMB_CHUNKS = 4  # random deals per chunk: this many of a random search's (see the docstring)
DEFAULT_EXTEND = 8  # parents extended per chunk
DEFAULT_CLOSURE_STATES = 200_000  # budget of each parent's backward search


def start_sequence(text: str | None, deck, players: int, deal_class=Deal) -> np.ndarray:
    """The start deal (a ``deal_class``: ``Deal`` or ``RankedDeal``) as a card sequence (empty
    without one); DeckError if it does not fit."""
    if not text:
        return np.zeros(0, dtype=np.uint8)
    deal = deal_class.parse(text, deck)
    if deal.players != players:
        raise DeckError(f"the start deal has {deal.players} hands, the run {players} players")
    return np.array(deal.sequence, dtype=np.uint8)


def _setting(params: dict, key: str, default: int) -> int:
    value = params.get(key)
    return default if value is None else int(value)


def _joined(hands) -> tuple[int, ...]:
    return tuple(int(c) for hand in hands for c in hand)


def _mirrors_apply(params: dict) -> bool:
    """Whether a state with player 2 to lead plays the game of its mirrored fair deal (hands
    swapped, player 1 to lead): between two players, unless a slap policy favours one seat."""
    if int(params["players"]) != 2:
        return False
    return game_of(params) != ERS or SlapRules.from_params(params).policy != "first"


class ClimbStrategy(Strategy):
    """Random deals, then backward extension of the longest; chunk c draws stream (seed, c)."""

    name = "climb"

    @classmethod
    def prepare(cls, params: dict) -> dict:
        """The run's parameters with the random kernel, chunk size, ``extend`` and
        ``closure_states`` filled in."""
        params = cls.with_random_kernel(params, lambda kernel: (
            CLIMB_CHUNKS * kernel.chunk_size if kernel.chunk_size else cls.default_chunk))
        return {**params, "extend": _setting(params, "extend", DEFAULT_EXTEND),
                "closure_states": _setting(params, "closure_states", DEFAULT_CLOSURE_STATES),
                "mirrors": params.get("mirrors", _mirrors_apply(params)),
                "own_states": params.get("own_states", True)}

    def __init__(self, params: dict):
        super().__init__(params)
        self.extend = _setting(params, "extend", DEFAULT_EXTEND)
        self.closure_states = _setting(params, "closure_states", DEFAULT_CLOSURE_STATES)
        self.deal_class = Deal if self.slap_rules is None else RankedDeal
        self.step = BMN_STEP if self.slap_rules is None else ers_step(self.slap_rules,
                                                                        self.players)
        # runs stored before these were read keep their deals (neither key: both False)
        self.mirrors = bool(params.get("mirrors")) and _mirrors_apply(params)
        self.own_states = bool(params.get("own_states"))
        self.start = start_sequence(params.get("start_deal"), self.deck, self.players,
                                    self.deal_class)

    @property
    def span(self) -> int:
        """Positions a chunk may use: its random deals, the start deal, and each closure's
        new states (at most ``closure_states``) for the parents and the start deal."""
        return self.chunk_size + 1 + (self.extend + 1) * self.closure_states

    def number(self, chunk: int, position: int) -> int:
        """The game's number in the run (each chunk has ``span`` numbers)."""
        return chunk * self.span + position

    def warm_up(self) -> None:
        """Compile with a small backward search (chunk 1: no start deal)."""
        small = ClimbStrategy({**self.params, "closure_states": 500})
        small.run_chunk(ChunkJob(self.name, 1, 1, small.params))

    @property
    def board_size(self) -> int:
        """Leaderboard places a chunk keeps while it plays: at least the ``extend`` it extends."""
        return max(self.top_k, self.extend)

    def _fair_ancestors(self, sequence: np.ndarray) -> tuple[list[tuple[int, ...]], set]:
        """Fair deals found by the backward search from the game's trajectory, sorted, and
        the set of them when the search was complete (a parent found in it needs no search
        of its own: its in-tree lies inside this one), else an empty set."""
        hands = self.deal_class.from_sequence(sequence, self.players, self.deck).hands
        if self.slap_rules is None:
            states = trajectory(hands, 0, self.max_tricks or None)
        else:
            states = ers_game.trajectory(hands, 0, self.slap_rules, self.max_tricks or None)
        if len(states) > 1 and sum(1 for hand in states[-1][0] if hand) == 1:
            states = states[:-1]  # the end, one player holding all: shared by any game
        store, complete, _ = backward_closure(states, self.deck.size, self.closure_states, None,
                                              step=self.step)
        split = self.deck.split(self.players)
        found = {_joined(h) for h in store.with_header(split, 0)}
        if self.mirrors:  # player 2 to lead: the mirrored fair deal plays the same game
            found |= {_joined(h[::-1]) for h in store.with_header(split, 1)}
        if not self.own_states:  # runs stored before: the parent's own later states left out
            found -= {_joined(h) for h, lead in states
                      if lead == 0 and tuple(map(len, h)) == split}
        return sorted(found), (found if complete else set())

    def play(self, job: ChunkJob, recorder: Recorder) -> Recorder:
        """Play the chunk's random deals, then the fair deals the backward search finds from the
        longest (and, in chunk 0, from the start deal); returns ``recorder``."""
        stream = chunk_stream(self.params["seed"], job.chunk)
        recorder = self.engine.random_chunk(stream, job.deals, recorder)
        _, _, longest = batch.leaderboard(recorder)
        parents = list(longest[: self.extend])
        seen = {tuple(int(c) for c in deal) for deal in parents}
        played = []
        start = tuple(int(c) for c in self.start)
        if job.chunk == 0 and start and start not in seen:
            parents.insert(0, self.start)
            played.append(start)
            seen.add(start)
        covered: set = set()  # deals inside a complete backward search already made
        for parent in parents:
            if tuple(int(c) for c in parent) in covered:
                continue
            deals, complete = self._fair_ancestors(parent)
            covered |= complete
            for deal in deals:
                if deal not in seen:
                    seen.add(deal)
                    played.append(deal)
        sequences = np.array(played, dtype=np.uint8).reshape(len(played), self.deck.size)
        rows = self.engine.play_sequences(sequences)
        return batch.record_rows(job.deals, rows, sequences, recorder)
