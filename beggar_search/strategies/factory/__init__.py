"""The loop factory: a breadth-first closure over cycles, by small moves of their states.

Loops are found near loops.  Every trick-boundary state of a known cycle is changed
by every move of ``cycles.moves`` (swap two cards, move a card, move a block of cards
within a hand or to another, change the leader, move the split), each distinct
result is played, and every cycle met that the run did not know joins the next
generation.  Generation 0 is the run's starting cycles; the run ends when a
generation brings nothing new.  Each cycle is catalogued with its in-tree (``reach``:
every state whose play enters it, its depth, its fair deals for either leader) and
how it was found (parent cycle and move).  Players renamed (for two players: the
mirror image, hands swapped) a cycle is the same up to names: it is catalogued, its
fair deals stored, but its states are not expanded a second time.

Kicks.  Beside the closure, and as the whole work once it has run dry, kick rounds try
compound perturbations of the states of every known cycle (``cycles.perturb``: two or
three random moves and a shift of the split, played on the fast kernel): single moves do
not cross between islands of cycles, kicks do.  Every new cycle a kick meets is
catalogued (its parent the cycle kicked, its move 'kick KIND') and walked in turn.  A run
with kicks goes on until its hours are up, Ctrl-C, or ``until_idle`` hours without a new
cycle; without kicks it ends when a generation and the seeding bring nothing new.

Chunks.  A run may begin with a seeding round: ``seed_chunks`` chunks of random states,
or ``GROW_CHUNKS`` lineages of skeleton and pad (``seeding = 'grow'``, see ``seeding``), for a
deck where nothing is known; the cycles they meet join generation 0.  A lineage is played as
pieces of about ``grow_tries`` pad tries (``seeding.pad_piece``), ``GROW_STAGE`` pieces of each
lineage at a time: a round ends after the stage that met a new cycle (the next round goes on
with the same lineages) or once its lineages are padded through (``grow_budget`` pad tries,
or a stage whose last pieces played nothing); runs from before ``grow_tries`` played a
lineage as one chunk.  Once the walk has
closed, further rounds (up to ``seed_rounds``) seek cycles in islands that no move
reaches, while nothing is known yet, then until ``SEED_PATIENCE`` rounds in a row (or
as many as the first cycle took) have met nothing new.  Each generation
is a list of whole states (cycles by id, each cycle's states in notation order)
packed into chunks of about ``chunk_size`` move numbers, numbered on from the last
chunk of the generation before.  The chunks of a generation are planned only when
every chunk before them is stored, and the generation's cycles are read back from
the results file, where each cycle keeps the place (chunk, position) it was met at
first: so a chunk is a pure function of the run's parameters and what the earlier
generations stored, whatever the workers, the order chunks finish in, or a resume.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field

import numpy as np

from ... import games, tunables
from ...cards.deck import Deck, DeckError
from ...cycles import kept as cycles
from ...cycles import moves, perturb, walk
from ...engine import batch, rules
from ...engine.batch import ChunkSummary
from ...engine.game import cycle_key, cycle_name
from ...engine.kernels import RANDOM, choose
from ...engine.random import chunk_stream
from ...games.bmn import BMN_CYCLES
from ...store.cycle_families import figures
from ...store.records import CATALOGUED, MET, CycleRecord, InTree
from ...text import plural, short
from ...tunables import (
    FACTORY_CHUNK,
    GROW_CHUNK_TRIES,
    GROW_CHUNKS,
    GROW_PATIENCE,
    GROW_STAGE,
    KICK_CHUNK_TRIES,
    KICK_CHUNKS,
    KICK_EVERY,
    KICK_FOUND,
    KICK_NAMES,
    KICK_STATES,
    MOVE_NAMES,
    PAD_BUDGET,
    REACH_STATES,
    SEED_CHUNK_FAIR,
    SEED_CHUNK_TRIES,
    SEED_FOUND,
    SEED_PATIENCE,
    SMALL_DECK_TRIES,
)
from ..base import PENDING, ChunkJob, Strategy
from . import seeding
from .progress import COLUMNS, KICKING, SEEDING, WALKING, tries_figures

KICK_SAMPLE_PART = 2  # the chunk's stream (beside its kicks' own) drawing its KICK_STATES sample
FAMILY_EVERY = 10.0  # seconds between two readings of the family for the progress line


class StartError(ValueError):
    """A starting point that is not a looping state or deal of the run's deck."""


@dataclass(frozen=True)
class CycleNode:
    """A cycle as the factory handles it: its id, canonical state and renamed copies."""

    cycle: str
    state: str  # the least state text on the cycle
    states: tuple[str, ...]  # every state on it, in play order from ``state``
    period_tricks: int
    period_cards: int
    renamed: tuple[str, ...]  # ids of the cycle with the players renamed (itself included)


def _hands(text: str, deck: Deck, game=BMN_CYCLES):
    """(hands, leader) of a state text ('leader:hands') or a deal (player 1 leads)."""
    if ":" in text:
        hands, leader = game.parse_state(text)
    else:
        hands, leader = game.parse_deal(text, deck), 0
    return hands, leader


def cycle_node(hands, leader: int, game=BMN_CYCLES) -> CycleNode | None:
    """The cycle a state plays into, or None when its game ends (``game``: the run's
    ``CycleGame``, ``games.protocol``)."""
    states = game.state_cycle(hands, leader)
    if not states:
        return None
    result = game.play_state(hands, leader)
    texts = [game.format_state(h, lead) for h, lead in states]
    first = texts.index(min(texts))
    texts = tuple(texts[first:] + texts[:first])  # play order from the least state
    first_hands, first_leader = game.parse_state(texts[0])
    renamed = tuple(sorted({game.play_state(h, lead).cycle
                            for h, lead in game.renamings(first_hands, first_leader)}))
    return CycleNode(result.cycle, texts[0], texts, result.period_tricks, result.period_cards,
                     renamed)


def start_node(text: str, deck: Deck, players: int, game=BMN_CYCLES) -> CycleNode:
    """The cycle of a starting point; ``StartError`` when it does not loop or fit."""
    try:
        hands, leader = _hands(text, deck, game)
    except (DeckError, ValueError) as error:
        raise StartError(f"{text}: {error}") from None
    cards = sorted(c for hand in hands for c in hand)
    if cards != sorted(deck.sorted_cards().tolist()):
        raise StartError(f"{text}: its cards are not those of deck {deck.spec}")
    if len(hands) != players or not 0 <= leader < players or not hands[leader]:
        raise StartError(f"{text}: not a state of {players} players")
    node = cycle_node(hands, leader, game)
    if node is None:
        result = game.play_state(hands, leader)
        raise StartError(f"{text}: does not loop (the game ends after {result.tricks} tricks)")
    return node


def renamed_states(text: str, game=BMN_CYCLES) -> list[str]:
    """A state with the players renamed, keeping their order of play (two players: swapped),
    where that keeps the game."""
    hands, leader = game.parse_state(text)
    return [game.format_state(h, lead) for h, lead in list(game.renamings(hands, leader))[1:]]


def family_figures(store, run_id: int) -> dict:
    """A factory run's cycles, fair-reachable cycles, fair deals and islands
    (``family.figures``), and how far it has come in tries (``progress.tries_figures``: its
    first cycle, its last new one, each phase's tries), read from the results file."""
    family = figures(store.cycles(run_id), store.links(run_id),
                     len(store.games(run_id, "loops")))
    places = list(store.iter_cycles(run_id, columns=COLUMNS))
    return {**family, **tries_figures(places, store.chunk_tries(run_id),
                                      store.move_stats(run_id))}


def progress_line(family: dict, phase: str | None = None) -> str:
    """A factory run's progress in a line: its cycles and islands, fair ones, the phase
    planned (``phase``, when known) and the tries since its last new cycle."""
    line = (f"{plural(family['cycles'], 'cycle')} in {plural(family['islands'], 'island')},"
            f" {family['fair_cycles']:,} fair ({plural(family['fair_deals'], 'deal')})")
    if phase:
        line += f"; {phase}"
    since = family.get("tries_since_new_cycle")
    if since is not None:
        line += f"; {short(since)} tries since a new cycle"
    return line


class FactoryStrategy(Strategy):
    """Breadth-first closure over cycles, with kicks; a chunk is whole states and all their
    moves, a seeding round's share, or a kick round's share.

    The run's ``deals`` counts the distinct states tried.
    """

    name = "factory"
    default_chunk = FACTORY_CHUNK  # move numbers per chunk (whole states)
    unit = "tries"  # distinct states tried
    of_cycles = True
    counts_caps = False
    family_read = -math.inf  # when the progress line last read the run's family
    phase = ""  # what the plan is at: 'seeding (round 2)', 'walking (generation 3)', ...

    @classmethod
    def prepare(cls, params: dict) -> dict:
        """The run's parameters with the factory's defaults (also the command line's)."""
        params = super().prepare(params)
        params.setdefault("moves", list(tunables.DEFAULT_MOVES))
        params.setdefault("blocks", list(tunables.DEFAULT_BLOCKS))
        params.setdefault("exchanges", list(tunables.DEFAULT_EXCHANGES))
        params.setdefault("seed_chunks", 0)
        params.setdefault("seeding", "random")
        params.setdefault("seed_rounds", 1)
        params.setdefault("seed_fair_deals", SEED_CHUNK_FAIR)
        params.setdefault("grow_tries", GROW_CHUNK_TRIES)  # absent from older runs: whole chunks
        params.setdefault("grow_budget", PAD_BUDGET)
        params.setdefault("kicks", list(tunables.DEFAULT_KICKS))
        params.setdefault("kick_moves", list(tunables.DEFAULT_KICK_MOVES))
        params.setdefault("kick_shift", tunables.DEFAULT_KICK_SHIFT)
        params.setdefault("kick_tries", KICK_CHUNK_TRIES)
        params.setdefault("until_idle", None)
        params.setdefault("kick_rounds", None)
        params.setdefault("kick_every", KICK_EVERY)  # absent from older runs: no interleave
        if not params.get("engine"):  # the kernel the seeding's fair deals are played with
            game = games.of(params)
            params["engine"] = choose(game.deck(params["deck"]), int(params["players"]), RANDOM,
                                      game.kernel).name
        params.setdefault("reach_states", REACH_STATES)
        return params

    def __init__(self, params: dict):
        super().__init__(params)
        self.config = moves.move_config(params.get("moves", tunables.DEFAULT_MOVES),
                                        params.get("blocks", tunables.DEFAULT_BLOCKS),
                                        params.get("exchanges", tunables.DEFAULT_EXCHANGES))
        self.cycles = self.game.cycle_game()  # how the run's game's states are played, written
        self.fast = self.players == 2 and self.cycles.masks  # tried states on the bitboard kernel
        self.store = None
        self.run_id = None

    @property
    def total(self) -> int | None:
        """None: the run ends when nothing new comes (no kicks left), or when stopped."""
        return None  # the run ends when nothing new comes (no kicks), or when stopped

    def progress(self, store, run) -> str | None:
        """The run's family so far (cycles, islands, fair ones, fair deals), the phase
        planned and the tries since the last new cycle (``progress_line``); read every
        ``FAMILY_EVERY`` seconds at most (reading every cycle, tens of thousands overnight,
        is for a person), None in between."""
        if time.monotonic() - self.family_read < FAMILY_EVERY:
            return None
        self.family_read = time.monotonic()
        return progress_line(family_figures(store, run.id), self.phase)

    @classmethod
    def summary_figures(cls, store, run_id: int) -> dict:
        """The run's family figures (``family_figures``)."""
        return family_figures(store, run_id)

    def attach(self, store, run) -> None:
        """Keep the store and run id: later chunks are planned from the cycles stored."""
        self.store, self.run_id = store, run.id

    # planning (in the parent) ---------------------------------------------

    def plan(self, done: set[int]):
        """Seeding rounds, generations and kick rounds, in the order ``_Plan`` says."""
        return _Plan(self, done).jobs()

    def stored(self, chunks: range) -> bool:
        """Whether every chunk of ``chunks`` is in the results file."""
        return set(chunks) <= self.store.done_chunks(self.run_id)

    def chunk_tries(self, chunks: range) -> dict[int, int]:
        """The tries of each stored chunk of ``chunks``."""
        return {chunk: tries for chunk, tries in self.store.chunk_tries(self.run_id)
                if chunk in chunks}

    def job(self, chunk: int, deals: int, work: dict) -> ChunkJob:
        """A chunk of this run: number ``chunk``, ``deals`` tries, and its phase's ``work``."""
        return ChunkJob(self.name, chunk, deals, self.params, work)

    def generation_nodes(self, generation: int, chunks: range) -> list[CycleNode]:
        """The cycles the results file holds as met in ``generation`` first within
        ``chunks`` (one step of the plan), first met first.

        Reading only the step's own chunks keeps a resumed plan from seeing, too early, what
        a later step (a seeding or kick round of the same generation) stored before a stop.
        """
        nodes = []
        for row in self.store.family(self.run_id, generation):
            if row["state_chunk"] in chunks:
                nodes.append(cycle_node(*self.cycles.parse_state(row["state"]), self.cycles))
        return nodes

    def pack(self, frontier: list[CycleNode]) -> list[list[dict]]:
        """The generation's states, in order, packed into chunks of about chunk_size moves."""
        per_state = int(moves.move_count(self.deck.size, self.players, self.config))
        chunks, current, size = [], [], 0
        for node in frontier:
            for text in reversed(node.states):  # backwards: see walk.expand
                current.append({"cycle": node.cycle, "state": text, "owner": text == node.state,
                                "moves": per_state})
                size += per_state
                if size >= self.chunk_size:
                    chunks.append(current)
                    current, size = [], 0
        if current:
            chunks.append(current)
        return chunks

    # a chunk (in a worker) -------------------------------------------------

    def warm_up(self, beside: bool = False) -> None:
        """Compile the move, seeding, kick and backward-search kernels on a tiny deck;
        ``beside``: the move and seeding kernels only, ``warm_beside`` compiling the rest (on
        a cold cache 95 and 75 CPU s here of about 170 in all)."""
        small, item = self._tiny(with_cycle=True)
        small.run_chunk(small.job(0, 1, {"phase": "walk", "generation": 0, "known": [],
                                         "items": [item]}))
        small.run_chunk(small.job(0, 16, {"phase": "seed", "known": []}))
        if not beside:
            self.warm_beside()

    def warm_beside(self) -> None:
        """Compile the kick kernels on a tiny deck, the backward search and the replay of a
        looping deal: what a worker compiles while the parent runs ``warm_up(beside=True)``."""
        # the item unnamed: naming its cycle plays it in the general engine, the parent's
        small, item = self._tiny(with_cycle=False)
        small.run_chunk(small.job(0, 16, {"phase": "kick", "known": [], "generation": 0,
                                          "kick": KICK_NAMES[0], "items": [item]}))
        self.cycles.warm_up()

    def _tiny(self, with_cycle: bool) -> tuple[FactoryStrategy, dict]:
        """A factory of this one's game on its tiny deck, and a work item of its tiny state
        (``with_cycle``: named by its cycle, which plays it in the general engine)."""
        game = self.cycles
        tiny_deck, tiny_hands = game.tiny(self.players)
        node = cycle_node(tiny_hands, 0, game) if with_cycle else None
        small = FactoryStrategy({**self.params, "deck": tiny_deck, "seed_fair_deals": 16})
        return small, {"cycle": node.cycle if node else "",
                       "state": game.format_state(tiny_hands, 0), "owner": False, "moves": 0}

    def run_chunk(self, job: ChunkJob) -> ChunkSummary:
        """Play one chunk of its phase (seeding, kick or generation walk), timed."""
        clock = time.perf_counter()
        work = job.work
        if work["phase"] == "seed":
            summary = (self._grow_chunk(job.chunk, work) if self.params.get("seeding") == "grow"
                       else self._seed_chunk(job.chunk, job.deals, work))
        elif work["phase"] == "kick":
            summary = self._kick_chunk(job.chunk, job.deals, work)
        else:
            summary = self._walk_chunk(job.chunk, work)
        summary.seconds = time.perf_counter() - clock
        return summary

    def _seed_chunk(self, chunk: int, tries: int, work: dict) -> ChunkSummary:
        """Random states (shuffled cards, random split and leader), then random fair deals;
        the new cycles they meet.

        Either finds first cycles faster on some decks: random states on decks whose
        uneven splits loop readily, fair deals (played by the fast kernels) where only
        fair-reachable cycles have a basin worth the name.
        """
        n, players = self.deck.size, self.players
        known = _keys(work["known"])
        generation = int(work.get("generation", 0))
        met = perturb.random_state_cycles(chunk_stream(self.params["seed"], chunk),
                                          self.deck.sorted_cards(), players, known, tries,
                                          SEED_FOUND, self.cycles.new_exact(players))
        found, names = [], set()
        for sequence, sizes, leader, position in zip(met.sequences, met.sizes, met.leaders,
                                                     met.tries_at, strict=True):
            node = cycle_node(cycles.state_hands(sequence, sizes), int(leader), self.cycles)
            names.add(node.cycle)
            found.append(_met(node, int(position), generation, None, "random state"))
        deals = int(self.params.get("seed_fair_deals") or 0)
        recorder = batch.Recorder(*self.engine.random_chunk(
            chunk_stream(self.params["seed"], chunk, part=1), deals,
            batch.new_recorder(0, n)))
        split = np.array(self.deck.split(players), dtype=np.int64)
        for k in range(int(recorder.counts[batch.C_LOOPS_KEPT])):
            key = recorder.loop_rows[k, rules.R_CYCLE]
            cycle = cycle_name(key)
            if cycle in names or key in known or len(found) >= 2 * SEED_FOUND:
                continue
            names.add(cycle)
            node = cycle_node(cycles.state_hands(recorder.loop_deals[k], split), 0, self.cycles)
            found.append(_met(node, tries + int(recorder.loop_positions[k]), generation, None,
                              "random fair deal"))
        return ChunkSummary.of_tries(batch.new_recorder(0, n), players,
                                     met.tries + int(recorder.counts[batch.C_DEALS]),
                                     met.loops + int(recorder.counts[batch.C_LOOPS]), found)

    def _grow_chunk(self, chunk: int, work: dict) -> ChunkSummary:
        """Skeleton and pad: full-size cycles grown from a small deck's (see ``seeding``),
        one piece of a lineage (``work['lineage']``, ``work['piece']``), or a whole skeleton
        and pad (runs from before pieces)."""
        if "lineage" in work:
            grown = seeding.pad_piece(self.deck, self.params["seed"], self.players,
                                      int(work["lineage"]), int(work["piece"]),
                                      int(self.params["grow_tries"]),
                                      int(self.params["grow_budget"]),
                                      small_tries=int(self.params.get(
                                          "grow_small_tries", SMALL_DECK_TRIES)))
        else:
            grown = seeding.skeleton_and_pad(self.deck, self.params["seed"], self.players,
                                             chunk=chunk)
        known = set(work["known"])
        generation = int(work.get("generation", 0))
        found = []
        for position, (hands, leader) in enumerate(grown.states):
            node = cycle_node(hands, leader, self.cycles)
            if node is not None and node.cycle not in known:
                found.append(_met(node, position, generation, None, "grown"))
        return ChunkSummary.of_tries(batch.new_recorder(0, self.deck.size), self.players,
                                     grown.tries, grown.loops, found)

    def _kick_chunk(self, chunk: int, tries: int, work: dict) -> ChunkSummary:
        """Kick the round's states (``work['items']``) ``tries`` times; the new cycles met,
        each with the cycle kicked as its parent."""
        n, players = self.deck.size, self.players
        items = work["items"]
        seeds = cycles.state_arrays([self.cycles.parse_state(item["state"]) for item in items], n,
                                    players)
        kick = work["kick"]
        low, high = self.params.get("kick_moves", tunables.DEFAULT_KICK_MOVES)
        config = perturb.kick_config(kick, int(low), int(high),
                                     int(self.params.get("kick_shift", 0)))
        found = cycles.new_kept(KICK_FOUND, n, players)
        counts = np.zeros(3, dtype=np.int64)
        kept = perturb.kick_chunk_with(chunk_stream(self.params["seed"], chunk), seeds, config,
                                       _keys(work["known"]), tries, found, counts, self.fast,
                                       self.cycles.new_exact(players))
        entries = []
        for f in range(kept):
            node = cycle_node(cycles.state_hands(found.sequences[f], found.sizes[f]),
                              int(found.leaders[f]), self.cycles)
            entries.append(_met(node, int(found.places[f]), int(work["generation"]),
                                items[int(found.moves[f])]["cycle"], f"kick {kick}"))
        summary = ChunkSummary.of_tries(batch.new_recorder(0, n), players, int(counts[0]),
                                        int(counts[1]), entries)
        summary.move_stats = [{"move": f"kick {kick}", "tries": int(counts[0]),
                               "loops": int(counts[1]), "cycles": int(counts[2])}]
        return summary

    def _walk_chunk(self, chunk: int, work: dict) -> ChunkSummary:
        """Every move of the chunk's states; catalogue the cycles whose first state it holds."""
        n, players = self.deck.size, self.players
        items = work["items"]
        states = [self.cycles.parse_state(item["state"]) for item in items]
        per_state = int(moves.move_count(n, players, self.config))
        capacity = per_state + 64
        found = cycles.new_kept(capacity, n, players)
        links = walk.new_links(capacity)
        own = np.array([cycle_key(item["cycle"]) if item["cycle"] else 0 for item in items],
                       dtype=np.int64)
        stats = np.zeros((moves.N_KINDS, 3), dtype=np.int64)
        cursor = np.zeros(4, dtype=np.int64)
        rows = cycles.state_arrays(states, n, players)
        seen = walk.seen_scratch(n, players, self.config, len(items), self.fast)
        tried = cycles.new_tried(per_state if self.fast else 0, n, players, self.fast)
        exact = self.cycles.new_exact(players)
        known = _keys(work["known"])
        while cursor[walk.X_ITEM] < len(items):
            walk.expand(rows, own, self.config, known, cursor, found, stats,
                         seen, links, tried, exact, self.fast)
            if cursor[walk.X_ITEM] < len(items):
                found, links = cycles.grown(found), walk.grown_links(links)
        generation = int(work["generation"])
        entries = []
        for f in range(int(cursor[walk.X_KEPT])):
            node = cycle_node(cycles.state_hands(found.sequences[f], found.sizes[f]),
                              int(found.leaders[f]), self.cycles)
            where = int(found.places[f])
            entries.append(_met(
                node, where * per_state + int(found.moves[f]), generation + 1,
                items[where]["cycle"],
                moves.describe_move(n, players, int(found.moves[f]), self.config)))
        recorder = batch.new_recorder(0, n)
        for where, item_work in enumerate(items):
            if item_work["owner"]:
                recorder, catalogued = self._catalogue(states[where], where * per_state,
                                                       generation, recorder)
                entries += catalogued
        summary = ChunkSummary.of_tries(recorder, players, stats[:, walk.ST_TRIES].sum(),
                                        stats[:, walk.ST_LOOPS].sum(), entries)
        summary.links = sorted({(items[int(links.items[k])]["cycle"],
                                 cycle_name(links.keys[k]))
                                for k in range(int(cursor[walk.X_LINKS]))})
        summary.move_stats = [
            {"move": name, "tries": int(stats[k, 0]), "loops": int(stats[k, 1]),
             "cycles": int(stats[k, 2])} for k, name in enumerate(MOVE_NAMES)]
        return summary

    def _catalogue(self, state, position: int, generation: int, recorder):
        """A cycle's in-tree (and its renamed copies'), its fair deals recorded as loops at
        ``position``; returns the recorder and the cycle's catalogue records.  A game with
        no backward search (``game.reach`` None) catalogues its cycles without in-trees."""
        game = self.cycles
        hands, leader = state
        node = cycle_node(hands, leader, game)
        budget = self.params["reach_states"]
        reached = game.reach(hands, leader, self.deck, budget)
        deals = list(reached.fair_deals) if reached else []
        renamed = {}  # the cycle with the players renamed: its own backward search
        if self.players == 2 and self.deck.size % 2 == 0 and game.symmetric:
            deals += reached.fair_deals_swapped if reached else []  # or player 2 leading
        else:
            for text in renamed_states(node.state, game):
                other_state = game.parse_state(text)
                other = game.reach(*other_state, self.deck, budget)
                cycle = other.cycle if other else game.play_state(*other_state).cycle
                if cycle != node.cycle and cycle not in renamed:
                    renamed[cycle] = (text, other)
                    deals += other.fair_deals if other else []
        for text in deals:
            recorder = game.record_loop(recorder, position, text, self.deck)
        return recorder, _catalogue_records(node, reached, renamed, generation, game)


@dataclass
class _Plan:
    """A factory run's plan as it unfolds: what the steps (seeding rounds, generations,
    kick rounds) share, and the stop rule.

    ``base`` is the next chunk number; ``known`` every cycle id met (renamed copies
    included); ``frontier`` the cycles the next generation expands.
    """

    factory: FactoryStrategy
    done: set[int]
    base: int = 0
    generation: int = 0
    round: int = 0
    rounds: int = 0  # seeding rounds at most (lowered once the seeding is over)
    per_round: int = 0  # chunks a seeding round
    floor: int = SEED_PATIENCE
    patience: int = SEED_PATIENCE  # rounds in a row meeting nothing new that end seeding
    idle: int = 0  # seeding rounds in a row that met nothing new
    pieces: int = 0  # pieces of a skeleton-and-pad lineage (0: a lineage is one chunk)
    lineage: int = 0  # the first lineage of the seeding round planned next
    piece: int = 0  # the piece its lineages go on from
    kick_round: int = 0
    kicked: int = 0  # kick chunks planned so far (their kinds go in turn)
    known: set[str] = field(default_factory=set)
    walked: list[CycleNode] = field(default_factory=list)  # every cycle expanded, in order
    frontier: list[CycleNode] = field(default_factory=list)
    last_new: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        params = self.factory.params
        grows = params.get("seeding") == "grow"
        self.per_round = int(params.get("seed_chunks") or 0)
        if grows and self.per_round:
            self.per_round = GROW_CHUNKS
            if "grow_tries" in params:
                self.pieces = seeding.lineage_pieces(int(params["grow_tries"]),
                                                     int(params["grow_budget"]))
        self.rounds = int(params.get("seed_rounds") or 1) if self.per_round else 0
        self.floor = self.patience = GROW_PATIENCE if grows else SEED_PATIENCE
        starts = [start_node(text, self.factory.deck, self.factory.players, self.factory.cycles)
                  for text in params["starts"]]
        self.frontier = self._new(starts)

    def jobs(self):
        """Chunks to play, in order (``PENDING`` while the next step waits on stored ones)."""
        while True:
            if self.round < self.rounds:
                yield from self._seeding_round()
            if self.frontier:
                yield from self._walk()
                continue
            if self.round < self.rounds:
                continue
            if not self._kicking():
                return
            yield from self._kicks()

    def _new(self, nodes) -> list[CycleNode]:
        """The nodes not known yet, one per renaming class; they become known."""
        chosen = _representatives(nodes, self.known)
        if chosen:
            self.last_new = time.monotonic()
        return chosen

    def _wait(self, chunks: range):
        while not self.factory.stored(chunks):
            yield PENDING

    def _seeding_round(self):
        """One seeding round; its cycles join the generation about to be walked.  Seeding
        ends once ``patience`` rounds in a row (or as many as the first cycle took) met
        nothing new."""
        if self.pieces:
            seeded = yield from self._grown()
        else:
            chunks = range(self.base, self.base + self.per_round)
            self.factory.phase = f"{SEEDING} (round {self.round + 1})"
            for chunk in chunks:
                if chunk not in self.done:
                    yield self.factory.job(chunk, SEED_CHUNK_TRIES,
                                           {"phase": "seed", "known": sorted(self.known),
                                            "generation": self.generation, "round": self.round})
            yield from self._wait(chunks)
            self.base = self.base + self.per_round
            seeded = self._new(self.factory.generation_nodes(self.generation, chunks))
        self.round += 1
        if not self.known:
            self.patience = max(self.floor, self.round + 1)
        self.idle = 0 if seeded else self.idle + 1
        if self.known and self.idle >= self.patience:
            self.rounds = self.round  # seeding is done
        self.frontier += seeded

    def _grown(self):
        """A skeleton-and-pad round: the pieces of its ``GROW_CHUNKS`` lineages, ``GROW_STAGE``
        of each at a time (piece by piece, lineage by lineage), until a stage meets a new
        cycle (the next round goes on from the next piece) or the lineages are padded through
        (the next round takes the next lineages).  Returns the new cycles met."""
        known, seeded = sorted(self.known), []
        lineages = range(self.lineage, self.lineage + GROW_CHUNKS)
        tries = int(self.factory.params["grow_tries"])
        while self.piece < self.pieces and not seeded:
            stage = range(self.piece, min(self.piece + GROW_STAGE, self.pieces))
            self.factory.phase = (f"{SEEDING} (round {self.round + 1}, pieces"
                                  f" {stage.start + 1}-{stage.stop} of {self.pieces})")
            chunks = range(self.base, self.base + len(stage) * len(lineages))
            for chunk, (piece, lineage) in zip(chunks, itertools.product(stage, lineages),
                                               strict=True):
                if chunk not in self.done:
                    yield self.factory.job(chunk, tries, {
                        "phase": "seed", "known": known, "generation": self.generation,
                        "round": self.round, "lineage": lineage, "piece": piece})
            yield from self._wait(chunks)
            self.base, self.piece = chunks.stop, stage.stop
            seeded = self._new(self.factory.generation_nodes(self.generation, chunks))
            last = chunks[-len(lineages):]  # each lineage's last piece of the stage
            if stage.stop > 1 and not any(self.factory.chunk_tries(last).values()):
                self.piece = self.pieces  # padded through: its last pieces played nothing
        if self.piece >= self.pieces:
            self.lineage, self.piece = lineages.stop, 0
        return seeded

    def _walk(self):
        """Generations until one brings nothing new (a kick round after each, with kicks).

        With kicks, a generation of many chunks has a kick chunk after every ``kick_every``
        walk chunks, so that kicks go on while a large island is walked (tens of minutes a
        generation); their cycles join the next generation with the walk's.
        """
        while self.frontier:
            self.frontier.sort(key=lambda node: node.cycle)
            self.walked += self.frontier
            # the generation walked: its cycles' (0: the starts and the seeding's)
            self.factory.phase = (f"{WALKING} (generation {self.generation},"
                                  f" {plural(len(self.frontier), 'cycle')})")
            known = sorted(self.known)
            works = self._interleaved(self.factory.pack(self.frontier), known)
            for offset, (deals, work) in enumerate(works):
                if self.base + offset not in self.done:
                    yield self.factory.job(self.base + offset, deals, work)
            walked = range(self.base, self.base + len(works))
            yield from self._wait(walked)
            self.base += len(works)
            self.generation += 1
            self.frontier = self._new(self.factory.generation_nodes(self.generation, walked))
            if self._kicking():
                yield from self._kicks()

    def _interleaved(self, chunks: list[list[dict]], known: list[str]) -> list[tuple]:
        """A generation's chunks as (tries, work) in chunk order: its walk chunks, with a kick
        chunk after every ``kick_every`` of them while kicks go on (decided from the plan
        alone, never the clock, so that a resumed run plans the same chunks)."""
        params = self.factory.params
        every = int(params.get("kick_every") or 0)
        most = params.get("kick_rounds")
        kicks = bool(params.get("kicks")) and every > 0 and (
            most is None or self.kick_round < int(most))
        works = []
        for offset, items in enumerate(chunks):
            works.append((sum(i["moves"] for i in items),
                          {"phase": "walk", "generation": self.generation, "items": items,
                           "known": known}))
            if kicks and (offset + 1) % every == 0 and offset + 1 < len(chunks):
                chunk = self.base + len(works)
                works.append((int(params["kick_tries"]),
                              self._kick_work(chunk, known, self.generation + 1)))
        return works

    def _kick_work(self, chunk: int, known: list[str], generation: int) -> dict:
        """The work of kick chunk ``chunk``: the next kind in turn, kicking a random sample of
        at most ``KICK_STATES`` states of the cycles expanded so far (drawn from the run's
        seed and the chunk number); its cycles are met in ``generation``."""
        kinds = self.factory.params["kicks"]
        kind = kinds[self.kicked % len(kinds)]
        self.kicked += 1
        ends = np.cumsum([len(node.states) for node in self.walked])
        chosen = np.arange(int(ends[-1]))
        # runs from before kick_every kicked every state; they resume as they began
        if "kick_every" in self.factory.params and len(chosen) > KICK_STATES:
            sample = np.random.default_rng(np.random.SeedSequence(
                int(self.factory.params["seed"]), spawn_key=(chunk, KICK_SAMPLE_PART)))
            chosen = np.sort(sample.choice(len(chosen), KICK_STATES, replace=False))
        owners = np.searchsorted(ends, chosen, side="right")
        items = []
        for k, owner in zip(chosen.tolist(), owners.tolist(), strict=True):
            node = self.walked[owner]
            items.append({"cycle": node.cycle,
                          "state": node.states[k - (int(ends[owner - 1]) if owner else 0)]})
        return {"phase": "kick", "kick": kind, "items": items, "known": known,
                "generation": generation}

    def _kicking(self) -> bool:
        """Whether kick rounds go on: kicks asked for, cycles to kick, fewer rounds than
        ``kick_rounds`` (when given), and (with ``until_idle``) a new cycle met within that
        many hours."""
        params = self.factory.params
        if not params.get("kicks") or not self.walked:
            return False
        most = params.get("kick_rounds")
        if most is not None and self.kick_round >= int(most):
            return False
        idle = params.get("until_idle")
        return idle is None or time.monotonic() - self.last_new < float(idle) * 3600

    def _kicks(self):
        """One kick round: ``KICK_CHUNKS`` chunks, kick kinds in turn, each kicking random
        states of every cycle expanded so far; the new cycles join the next generation."""
        known = sorted(self.known)
        chunks = range(self.base, self.base + KICK_CHUNKS)
        self.factory.phase = f"{KICKING} (round {self.kick_round + 1})"
        for chunk in chunks:
            work = self._kick_work(chunk, known, self.generation)
            if chunk not in self.done:
                yield self.factory.job(chunk, int(self.factory.params["kick_tries"]), work)
        yield from self._wait(chunks)
        self.base += KICK_CHUNKS
        self.kick_round += 1
        self.frontier += self._new(self.factory.generation_nodes(self.generation, chunks))


def _representatives(nodes, known: set[str]) -> list[CycleNode]:
    """Nodes whose cycle (under any renaming) is not in ``known``, one per renaming class.

    ``nodes`` come in order of precedence; ``known`` receives every id they cover.
    """
    chosen = []
    for node in nodes:
        if node is None or node.cycle in known:
            continue
        chosen.append(node)
        known.update(node.renamed)
        known.add(node.cycle)
    return chosen


def _keys(names) -> np.ndarray:
    """Cycle ids as the sorted keys the kernels take."""
    return np.array(sorted(cycle_key(name) for name in names), dtype=np.int64)


def _met(node: CycleNode, position: int, generation: int, parent: str | None,
         move: str) -> CycleRecord:
    return CycleRecord(MET, node.cycle, node.period_tricks, node.period_cards, node.state,
                       position, generation, parent, move)


def _in_tree(result, swapped: bool = False) -> InTree | None:
    if result is None:
        return None
    fair, other = len(result.fair_deals), len(result.fair_deals_swapped)
    return InTree(result.states, result.complete, result.depth,
                  other if swapped else fair, fair if swapped else other)


def _catalogue_records(node: CycleNode, reached, renamed: dict, generation: int,
                       game=BMN_CYCLES) -> list[CycleRecord]:
    """The catalogue records of an expanded cycle and of its renamed copies.

    ``renamed``: cycle id -> (state, backward search) of each copy searched on its own;
    empty for two players and an even deck, where ``reached`` serves both (player 2
    leading, hands swapped, is the mirror's player 1 leading).  A game that renaming the
    players does not keep (ratscrew under ``first:P``) has no mirrors.
    """
    others = [c for c in node.renamed if c != node.cycle]
    mirror = others[0] if others else node.cycle if game.symmetric else None

    def record(cycle, state, tree, mirror_of, parent):
        return CycleRecord(CATALOGUED, cycle, node.period_tricks, node.period_cards, state,
                           generation=generation, parent=parent,
                           move="mirror" if parent else "start", in_tree=tree,
                           mirror=mirror_of,
                           own_mirror=None if mirror_of is None else mirror_of == cycle)

    records = [record(node.cycle, node.state, _in_tree(reached), mirror, None)]
    if renamed:
        for cycle, (text, result) in sorted(renamed.items()):
            records.append(record(cycle, cycle_node(*game.parse_state(text), game).state,
                                  _in_tree(result), node.cycle, node.cycle))
    elif mirror not in (None, node.cycle):
        mirrored = game.parse_state(renamed_states(node.state, game)[0])
        records.append(record(mirror, cycle_node(*mirrored, game).state,
                              _in_tree(reached, swapped=True), node.cycle, node.cycle))
    return records
