"""Climb: long terminating games by backward extension of the longest random games.

A chunk plays ``chunk_size`` random deals (the same deals as the random search's
chunk of that seed and size), then extends the ``extend`` longest distinct deals
it found (the parents, in leaderboard order; in chunk 0 the run's start deal
``start_deal`` comes first; a run whose chunk is sized from its budget and that was given no
``extend`` goes on, up to ``extend_most`` parents, while the chunk's backward searches hold
fewer than ``extension_states`` states).  For each parent it takes the trajectory of its
game (every trick-boundary state before the last one) and searches backwards
(``backward.closure.backward_closure``) for the states whose play reaches one of them,
up to ``closure_states`` states: the parent's merge family (``engine.merging``), as far
as the budget goes.  Every fair state found (even split, player 1 to lead) is a deal
whose game plays some tricks of its own and then merges into the parent's game, the
later fair states of the parent's own game included (``own_states``); between two
players every even-split state with player 2 to lead is read as its mirrored fair deal
(hands swapped, player 1 to lead: ``mirrors``), a member of the mirror family, of the same
length as the game from that state.  A parent that lies inside an earlier parent's
complete closure is not searched again (its in-tree lies inside that one; in runs stored
before own states were read every parent is searched, as then).  All the deals
found are played (by the fastest kernel that applies, like the random deals) and
recorded after the random deals, at positions ``chunk_size`` onwards: the start deal,
then each parent's new deals in sorted order, each deal once per chunk.  The chunk's
``deals`` counts every game played, random and extended.  The closure has a budget in
states only, never in seconds, so a chunk is the same on any worker.

Runs stored before mirrors and own states were read have neither key in their
parameters and keep their deals (``prepare`` sets both for new runs).  Measurements,
the method's settings and what they find: docs/records.md.
"""

from __future__ import annotations

import numpy as np

from .. import games
from ..backward.closure import backward_closure
from ..cards.deck import Deal, DeckError
from ..engine import batch
from ..engine.batch import Recorder
from ..engine.random import chunk_stream
from ..tunables import (
    CLIMB_CHUNKS,
    DEFAULT_CLOSURE_STATES,
    DEFAULT_DEEPEST,
    DEFAULT_EXTEND,
    EXTENSION_ROUNDS,
    EXTENSION_STATES,
    MOST_EXTEND,
    SMALLEST_CHUNK,
)
from .base import ChunkJob, Strategy


def start_sequence(text: str | None, deck, players: int, deal_class=Deal) -> np.ndarray:
    """The start deal (a ``deal_class``: ``Deal`` or ``RankedDeal``) as a card sequence (empty
    without one); DeckError if it does not fit."""
    if not text:
        return np.zeros(0, dtype=np.uint8)
    deal = deal_class.parse(text, deck)
    if deal.players != players:
        raise DeckError(f"the start deal has {deal.players} hands, the run {players} players")
    return np.array(deal.sequence, dtype=np.uint8)


def chunk_for_budget(default: int, deals: int | None) -> int:
    """The climber's chunk for a budget of ``deals`` random deals (None: until stopped):
    ``default``, or less, so that the run is extended at least ``EXTENSION_ROUNDS`` times
    (a chunk of at least ``SMALLEST_CHUNK``, or the whole budget if smaller)."""
    if not deals:
        return default
    rounds = -(-int(deals) // EXTENSION_ROUNDS)
    return max(1, min(default, max(rounds, min(SMALLEST_CHUNK, int(deals)))))


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
    return games.of(params).symmetric


class ClimbStrategy(Strategy):
    """Random deals, then backward extension of the longest; chunk c draws stream (seed, c)."""

    name = "climb"
    unit = "games"  # the random deals and the extension's games
    ends_at_plan = False  # it stores more than its chunks are planned with: the extension's
    sample = "random"  # the random deals are a uniform sample, the extension's games are not

    @classmethod
    def prepare(cls, params: dict) -> dict:
        """The run's parameters with the random kernel, chunk size, ``extend`` and
        ``closure_states`` filled in."""
        defaults = []  # the default chunk, when the chunk is not given

        def chunk(kernel) -> int:
            defaults.append(CLIMB_CHUNKS * kernel.chunk_size if kernel.chunk_size
                            else cls.default_chunk)
            return chunk_for_budget(defaults[0], params.get("deals"))

        params = cls.with_random_kernel(params, chunk)
        # a chunk sized from the budget, and no --extend: more parents, within a budget of
        # states (runs stored before have neither key: exactly ``extend`` parents, as then)
        by_budget = params.get("extend") is None and bool(defaults) and (
            int(params["chunk_size"]) < defaults[0])
        extension = {"extension_states": EXTENSION_STATES, "extend_most": MOST_EXTEND} \
            if by_budget else {}
        return {**params, **extension, "extend": _setting(params, "extend", DEFAULT_EXTEND),
                "closure_states": _setting(params, "closure_states", DEFAULT_CLOSURE_STATES),
                "mirrors": params.get("mirrors", _mirrors_apply(params)),
                "own_states": params.get("own_states", True),
                "distinct_families": params.get("distinct_families", True),
                "deepest": _setting(params, "deepest", DEFAULT_DEEPEST)}

    def __init__(self, params: dict):
        super().__init__(params)
        self.extend = _setting(params, "extend", DEFAULT_EXTEND)
        # more parents, up to ``most``, while the chunk's closures hold fewer than
        # ``extension_states`` states (0: exactly ``extend`` parents)
        self.extension_states = _setting(params, "extension_states", 0)
        self.most = max(self.extend, _setting(params, "extend_most", 0)
                        if self.extension_states else 0)
        self.closure_states = _setting(params, "closure_states", DEFAULT_CLOSURE_STATES)
        self.deal_class = self.game.deal_class
        self.step = self.game.backward_step(self.players)
        # runs stored before these were read keep their deals (neither key: both False)
        self.mirrors = bool(params.get("mirrors")) and _mirrors_apply(params)
        self.own_states = bool(params.get("own_states"))
        self.distinct_families = bool(params.get("distinct_families"))
        self.deepest = _setting(params, "deepest", 0)  # runs stored before: every deal found
        self.start = start_sequence(params.get("start_deal"), self.deck, self.players,
                                    self.deal_class)
        self._samples: dict[int, np.ndarray] = {}  # chunk -> its random deals' histogram

    @property
    def span(self) -> int:
        """Positions a chunk may use: its random deals, the start deal, and each closure's
        new states (at most ``closure_states``) for the parents and the start deal."""
        return self.chunk_size + 1 + (self.most + 1) * self.closure_states

    def number(self, chunk: int, position: int) -> int:
        """The game's number in the run (each chunk has ``span`` numbers)."""
        return chunk * self.span + position

    def warm_up(self, beside: bool = False) -> None:
        """Compile with a small backward search (chunk 1: no start deal); ``beside``: all
        but the backward search, which ``warm_beside`` compiles (on a cold cache about 42 and
        48 CPU s here, of 80 in one process)."""
        if not beside:
            small = self._small_closures()
            small.run_chunk(ChunkJob(self.name, 1, 1, small.params))
            return
        alone = ClimbStrategy({**self.params, "extend": 0, "extension_states": 0})  # no parent
        alone.run_chunk(ChunkJob(self.name, 1, 1, alone.params))
        sample = self.deck.sorted_cards()
        self._trajectory(sample)
        self.engine.play_sequences(sample[None, :])

    def warm_beside(self) -> None:
        """Compile the backward search (from one state of a sample deal): what a worker
        compiles while the parent runs ``warm_up(beside=True)``."""
        small = self._small_closures()
        deal = self.deal_class.from_sequence(self.deck.sorted_cards(), self.players, self.deck)
        small._closure_deals([(deal.hands, 0)])

    def _small_closures(self) -> ClimbStrategy:
        """This climber with backward searches of at most 500 states: a warm-up's, which
        compiles the same kernels as a run's in a fraction of its time."""
        return ClimbStrategy({**self.params, "closure_states": 500})

    @property
    def board_size(self) -> int:
        """Leaderboard places a chunk keeps while it plays: at least the parents it may
        extend."""
        return max(self.top_k, self.most)

    def _fair_ancestors(self, sequence: np.ndarray) -> tuple[list[tuple[int, ...]], set, int]:
        """Fair deals found by the backward search from the game's trajectory, the set
        of them when the search was complete (a parent found in it needs no search of its
        own: its in-tree lies inside this one), else an empty set, and the states the
        search held.

        With ``deepest`` > 0 only that many are returned: the deals whose games are longest
        in tricks (the closure knows each state's tricks to the end; ties by the deal), the
        longest first; else every deal found, sorted."""
        return self._closure_deals(self._trajectory(sequence))

    def _trajectory(self, sequence: np.ndarray) -> list:
        """The trick-boundary states of the game of deal ``sequence``, its end left out (one
        player holding all: shared by any game)."""
        hands = self.deal_class.from_sequence(sequence, self.players, self.deck).hands
        states = self.game.trajectory(hands, 0, self.max_tricks or None)
        if len(states) > 1 and sum(1 for hand in states[-1][0] if hand) == 1:
            states = states[:-1]
        return states

    def _closure_deals(self, states: list) -> tuple[list[tuple[int, ...]], set, int]:
        """``_fair_ancestors`` of a game's trick-boundary states ``states`` (its end left out)."""
        to_end = range(len(states), 0, -1)  # tricks from each state to the game's end
        store, complete, _ = backward_closure(states, self.deck.size, self.closure_states, None,
                                              step=self.step, start_depths=to_end)
        split = self.deck.split(self.players)
        rows, depths = [], []
        for leader in (0, 1) if self.mirrors else (0,):
            indices = store.indices_with_header(split, leader)
            # player 2 to lead: the mirrored fair deal (hands swapped) plays the same game
            rows.append(store.sequences_at(indices, self.deck.size, reverse=leader == 1))
            depths.append(store.depth[indices])
        every, depth = np.concatenate(rows), np.concatenate(depths)
        if not self.own_states:  # runs stored before: the parent's own later states left out
            own = {_joined(h) for h, lead in states if lead == 0 and tuple(map(len, h)) == split}
            keep = np.array([deal not in own for deal in map(tuple, every.tolist())], dtype=bool)
            every, depth = every[keep], depth[keep]
        # each deal once (sorted), with the longest game found for it
        deals, which = np.unique(every, axis=0, return_inverse=True)
        longest = np.zeros(len(deals), dtype=np.int64)
        np.maximum.at(longest, which.reshape(-1), depth)
        found = set(map(tuple, deals.tolist())) if complete else set()
        if self.deepest:  # the longest first, ties in deal order
            deals = deals[np.argsort(-longest, kind="stable")[: self.deepest]]
        return list(map(tuple, deals.tolist())), found, int(store.count)

    def sample_histogram(self, job: ChunkJob) -> np.ndarray | None:
        """The lengths of the chunk's random deals alone (``play`` keeps them)."""
        return self._samples.pop(job.chunk, None)

    def _parents(self, rows: np.ndarray, longest: np.ndarray) -> list[np.ndarray]:
        """The deals the chunk may extend: the ``most`` longest; with ``distinct_families``,
        the ``most`` longest of distinct families, a family and its mirror counting as one (a
        backward search from one member reaches the whole family, and its mirror)."""
        if not self.distinct_families:
            return list(longest[: self.most])
        chosen, names, split = [], set(), self.deck.split(self.players)
        done, window = 0, self.most  # families of the board read a window at a time
        while len(chosen) < self.most and done < len(longest):
            part = slice(done, done + window)
            for deal, family in zip(longest[part], self.game.families(longest[part], rows[part],
                                                                      split), strict=True):
                if len(chosen) < self.most and family.family not in names:
                    chosen.append(deal)
                    names.update({family.family, family.mirror if self.mirrors else None})
            done, window = done + window, 2 * window
        return chosen

    def play(self, job: ChunkJob, recorder: Recorder) -> Recorder:
        """Play the chunk's random deals, then the fair deals the backward search finds from the
        longest (and, in chunk 0, from the start deal); returns ``recorder``."""
        stream = chunk_stream(self.params["seed"], job.chunk)
        recorder = self.engine.random_chunk(stream, job.deals, recorder)
        self._samples[job.chunk] = recorder.histogram.copy()
        _, rows, longest = batch.leaderboard(recorder)
        parents = self._parents(rows, longest)
        seen = {tuple(int(c) for c in deal) for deal in parents}
        played = []
        start = tuple(int(c) for c in self.start)
        if job.chunk == 0 and start and start not in seen:
            parents.insert(0, self.start)
            played.append(start)
            seen.add(start)
        covered: set = set()  # deals inside a complete backward search already made
        searched = states = 0  # the parents' backward searches made, and the states they held
        for parent in parents:
            if self.extension_states and searched >= self.extend and (
                    states >= self.extension_states):
                break  # past ``extend`` parents only within the chunk's budget of states
            if tuple(int(c) for c in parent) in covered:
                continue
            deals, complete, held = self._fair_ancestors(parent)
            if parent is not self.start:  # the start deal comes on top
                searched, states = searched + 1, states + held
            # A run stored before own states searches every parent, as its release did: an
            # earlier parent's search left out that parent's own later fair states, and a
            # later parent inside it finds and plays those (a chunk a deal or two longer)
            if self.own_states:
                covered |= complete
            for deal in deals:
                if deal not in seen:
                    seen.add(deal)
                    played.append(deal)
        sequences = np.array(played, dtype=np.uint8).reshape(len(played), self.deck.size)
        rows = self.engine.play_sequences(sequences)
        return batch.record_rows(job.deals, rows, sequences, recorder)
