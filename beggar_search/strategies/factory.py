"""The loop factory: a breadth-first closure over cycles, by small moves of their states.

Loops are found near loops.  Every trick-boundary state of a known cycle is changed
by every move of ``engine.moves`` (swap two cards, move a card, move a block of cards
within a hand or to another, change the leader, move the split), each distinct
result is played, and every cycle met that the run did not know joins the next
generation.  Generation 0 is the run's starting cycles; the run ends when a
generation brings nothing new.  Each cycle is catalogued with its in-tree (``reach``:
every state whose play enters it, its depth, its fair deals for either leader) and
how it was found (parent cycle and move).  Players renamed (for two players: the
mirror image, hands swapped) a cycle is the same up to names: it is catalogued, its
fair deals stored, but its states are not expanded a second time.

Chunks.  A run may begin with a seeding round: ``seed_chunks`` chunks of random states,
or ``GROW_CHUNKS`` chunks of skeleton and pad (``seeding = 'grow'``, see ``seeding``), for a deck
where nothing is known; the cycles they meet join generation 0.  Once the walk has
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

import time
from dataclasses import dataclass

import numpy as np

from ..deck import Deal, Deck, DeckError, format_state, parse_state
from ..engine import batch, moves, rules
from ..engine.batch import ChunkSummary
from ..engine.game import cycle_key, cycle_name, play_state, state_cycle
from ..engine.kernels import RANDOM, choose
from ..engine.random import chunk_stream
from .base import PENDING, ChunkJob, Strategy
from .hunt import CASELLA, _record_loop, random_state_cycles, rotations

SEED_CHUNK_TRIES = 1 << 16  # random states per seeding chunk
SEED_FOUND = 64  # cycles a seeding chunk keeps
SEED_ROUNDS = 64  # seeding rounds of a run from nothing, at most
GROW_CHUNKS = 2  # skeleton-and-pad chunks a round (each its own stream), for two workers
SEED_PATIENCE = 8  # rounds in a row meeting nothing new that end the seeding, at least
GROW_PATIENCE = 2  # the same for skeleton-and-pad rounds (minutes each on a large deck)
# random fair deals a random seeding chunk also plays (the fast kernels play them about
# four times as fast as the general engine plays random states)
SEED_CHUNK_FAIR = 4 * SEED_CHUNK_TRIES


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


def _hands(text: str, deck: Deck):
    """(hands, leader) of a state text ('leader:hands') or a deal (player 1 leads)."""
    if ":" in text:
        hands, leader = parse_state(text)
    else:
        hands, leader = [list(h) for h in Deal.parse(text, deck).hands], 0
    return hands, leader


def cycle_node(hands, leader: int) -> CycleNode | None:
    """The cycle a state plays into, or None when its game ends."""
    states = state_cycle(hands, leader)
    if not states:
        return None
    result = play_state(hands, leader)
    texts = [format_state(h, lead) for h, lead in states]
    first = texts.index(min(texts))
    texts = tuple(texts[first:] + texts[:first])  # play order from the least state
    first_hands, first_leader = parse_state(texts[0])
    renamed = tuple(sorted({play_state(h, lead).cycle
                            for h, lead in rotations(first_hands, first_leader)}))
    return CycleNode(result.cycle, texts[0], texts, result.period_tricks, result.period_cards,
                     renamed)


def start_node(text: str, deck: Deck, players: int) -> CycleNode:
    """The cycle of a starting point; ``StartError`` when it does not loop or fit."""
    try:
        hands, leader = _hands(text, deck)
    except (DeckError, ValueError) as error:
        raise StartError(f"{text}: {error}") from None
    cards = sorted(c for hand in hands for c in hand)
    if cards != sorted(deck.sorted_cards().tolist()):
        raise StartError(f"{text}: its cards are not those of deck {deck.spec}")
    if len(hands) != players or not 0 <= leader < players or not hands[leader]:
        raise StartError(f"{text}: not a state of {players} players")
    node = cycle_node(hands, leader)
    if node is None:
        result = play_state(hands, leader)
        raise StartError(f"{text}: does not loop (the game ends after {result.tricks} tricks)")
    return node


def renamed_states(text: str) -> list[str]:
    """A state with the players renamed, keeping their order of play (two players: swapped)."""
    hands, leader = parse_state(text)
    return [format_state(h, lead) for h, lead in list(rotations(hands, leader))[1:]]


class FactoryStrategy(Strategy):
    """Breadth-first closure over cycles; a chunk is whole states and all their moves.

    The run's ``deals`` counts the distinct states tried.
    """

    name = "factory"
    default_chunk = 1 << 19  # move numbers per chunk (whole states)

    @classmethod
    def prepare(cls, params: dict) -> dict:
        params = super().prepare(params)
        params.setdefault("moves", list(moves.DEFAULT_MOVES))
        params.setdefault("blocks", list(moves.DEFAULT_BLOCKS))
        params.setdefault("seed_chunks", 0)
        params.setdefault("seeding", "random")
        params.setdefault("seed_rounds", 1)
        params.setdefault("seed_fair_deals", SEED_CHUNK_FAIR)
        if not params.get("engine"):  # the kernel the seeding's fair deals are played with
            params["engine"] = choose(Deck.parse(params["deck"]), int(params["players"]),
                                      RANDOM).name
        params.setdefault("reach_states", 5_000_000)
        return params

    def __init__(self, params: dict):
        super().__init__(params)
        self.config = moves.move_config(params.get("moves", moves.DEFAULT_MOVES),
                                        params.get("blocks", moves.DEFAULT_BLOCKS))
        self.store = None
        self.run_id = None

    @property
    def total(self) -> int | None:
        return None  # the run ends when a generation finds nothing new

    def attach(self, store, run) -> None:
        self.store, self.run_id = store, run.id

    # planning (in the parent) ---------------------------------------------

    def _stored(self, chunks: range) -> bool:
        return set(chunks) <= self.store.done_chunks(self.run_id)

    def _job(self, chunk: int, deals: int, work: dict) -> ChunkJob:
        return ChunkJob(self.name, chunk, deals, {**self.params, "job": work})

    def plan(self, done: set[int]):
        """Seeding rounds and generations, until nothing new comes of either.

        A seeding round is ``seed_chunks`` chunks of random states (or ``GROW_CHUNKS``
        chunks of skeleton and pad); the cycles it meets join the generation about to be
        walked.
        Up to ``seed_rounds`` rounds: the first before any walk, each later one once the
        walk has closed, while the run knows no cycle yet, then until ``SEED_PATIENCE``
        rounds in a row (``GROW_PATIENCE`` for skeleton and pad), or as many as it took to
        meet the first cycle if more, have met no new one (new islands: moves never led
        there).
        """
        grows = self.params.get("seeding") == "grow"
        per_round = int(self.params.get("seed_chunks") or 0)
        if grows and per_round:
            per_round = GROW_CHUNKS
        rounds = int(self.params.get("seed_rounds") or 1) if per_round else 0
        starts = [start_node(text, self.deck, self.players) for text in self.params["starts"]]
        known: set[str] = set()
        frontier = _representatives(starts, known)
        base, generation, round_ = 0, 0, 0
        floor = GROW_PATIENCE if grows else SEED_PATIENCE
        patience, idle = floor, 0  # rounds in a row that met nothing new, and how many end
        # the seeding
        while True:
            if round_ < rounds:
                chunks = range(base, base + per_round)
                for chunk in chunks:
                    if chunk not in done:
                        yield self._job(chunk, SEED_CHUNK_TRIES,
                                        {"phase": "seed", "known": sorted(known),
                                         "generation": generation, "round": round_})
                while not self._stored(chunks):
                    yield PENDING
                base, round_ = base + per_round, round_ + 1
                seeded = _representatives(self._generation_nodes(generation), known)
                if not known:
                    patience = max(floor, round_ + 1)
                idle = 0 if seeded else idle + 1
                if known and idle >= patience:
                    rounds = round_  # seeding is done
                frontier += seeded
            if not frontier:
                if round_ < rounds:
                    continue
                return
            while frontier:
                frontier.sort(key=lambda node: node.cycle)
                chunks = self._pack(frontier)
                known_list = sorted(known)
                for offset, items in enumerate(chunks):
                    if base + offset not in done:
                        yield self._job(base + offset, sum(i["moves"] for i in items),
                                        {"phase": "walk", "generation": generation,
                                         "items": items, "known": known_list})
                while not self._stored(range(base, base + len(chunks))):
                    yield PENDING
                base += len(chunks)
                generation += 1
                frontier = _representatives(self._generation_nodes(generation), known)

    def _generation_nodes(self, generation: int) -> list[CycleNode]:
        nodes = []
        for row in self.store.family(self.run_id, generation):
            hands, leader = parse_state(row["state"])
            nodes.append(cycle_node(hands, leader))
        return nodes

    def _pack(self, frontier: list[CycleNode]) -> list[list[dict]]:
        """The generation's states, in order, packed into chunks of about chunk_size moves."""
        per_state = int(moves.move_count(self.deck.size, self.players, self.config))
        chunks, current, size = [], [], 0
        for node in frontier:
            for text in reversed(node.states):  # backwards: see moves.expand
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

    def warm_up(self) -> None:
        """Compile the move, seeding and backward-search kernels on a tiny deck."""
        from ..reach import reach_state

        players = self.players
        tiny = format_state([[0, 1]] + [[0, 2]] * (players - 1), 0)
        hands, leader = parse_state(tiny)
        node = cycle_node(hands, leader)
        work = {"phase": "walk", "generation": 0, "known": [],
                "items": [{"cycle": node.cycle if node else "", "state": tiny, "owner": False,
                           "moves": 0}]}
        tiny_params = {**self.params, "deck": f"plain={players},J=1,Q={players - 1}",
                       "job": work}
        FactoryStrategy(tiny_params).run_chunk(ChunkJob(self.name, 0, 1, tiny_params))
        seed_params = {**tiny_params, "seed_fair_deals": 16,
                       "job": {"phase": "seed", "known": []}}
        FactoryStrategy(seed_params)._seed_chunk(0, 16)
        casella = Deal.parse(CASELLA)
        reach_state([list(h) for h in casella.hands], 0, max_states=3000)
        _record_loop(batch.new_recorder(0, casella.deck.size), 0, casella)

    def run_chunk(self, job: ChunkJob) -> ChunkSummary:
        work = job.params["job"]
        if work["phase"] == "seed":
            if self.params.get("seeding") == "grow":
                return self._grow_chunk(job.chunk)
            return self._seed_chunk(job.chunk, job.deals)
        return self._walk_chunk(job.chunk, work)

    def _known(self, work) -> np.ndarray:
        return np.array(sorted(cycle_key(name) for name in work["known"]), dtype=np.int64)

    def _seed_generation(self) -> int:
        """The generation a seeding round's cycles join (the walk that follows it)."""
        return int(self.params["job"].get("generation", 0))

    def _seed_chunk(self, chunk: int, tries: int) -> ChunkSummary:
        """Random states (shuffled cards, random split and leader), then random fair deals;
        the new cycles they meet.

        Either finds first cycles faster on some decks: random states on decks whose
        uneven splits loop readily, fair deals (played by the fast kernels) where only
        fair-reachable cycles have a basin worth the name.
        """
        clock = time.perf_counter()
        n, players = self.deck.size, self.players
        known = self._known(self.params["job"])
        met = random_state_cycles(chunk_stream(self.params["seed"], chunk),
                                  self.deck.sorted_cards(), players, known, tries, SEED_FOUND)
        found, names = [], set()
        for sequence, sizes, leader, position in zip(met.sequences, met.sizes, met.leaders,
                                                     met.tries_at, strict=True):
            node = cycle_node(moves.state_hands(sequence, sizes), int(leader))
            names.add(node.cycle)
            found.append(_found_entry(node, int(position), self._seed_generation(), None,
                                      "random state"))
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
            node = cycle_node(moves.state_hands(recorder.loop_deals[k], split), 0)
            found.append(_found_entry(node, tries + int(recorder.loop_positions[k]),
                                      self._seed_generation(), None, "random fair deal"))
        summary = ChunkSummary.from_recorder(batch.new_recorder(0, n), players,
                                             time.perf_counter() - clock)
        summary.deals = met.tries + int(recorder.counts[batch.C_DEALS])
        summary.loops = met.loops + int(recorder.counts[batch.C_LOOPS])
        summary.cycles = found
        return summary

    def _grow_chunk(self, chunk: int) -> ChunkSummary:
        """Skeleton and pad: full-size cycles grown from a small deck's (see ``seeding``)."""
        from .seeding import skeleton_and_pad

        clock = time.perf_counter()
        grown = skeleton_and_pad(self.deck, self.params["seed"], self.players, chunk=chunk)
        known = set(self.params["job"]["known"])
        found = []
        for position, (hands, leader) in enumerate(grown.states):
            node = cycle_node(hands, leader)
            if node is not None and node.cycle not in known:
                found.append(_found_entry(node, position, self._seed_generation(), None,
                                          "grown"))
        summary = ChunkSummary.from_recorder(batch.new_recorder(0, self.deck.size),
                                             self.players, time.perf_counter() - clock)
        summary.deals, summary.loops = grown.tries, grown.loops
        summary.cycles = found
        return summary

    def _walk_chunk(self, chunk: int, work: dict) -> ChunkSummary:
        """Every move of the chunk's states; catalogue the cycles whose first state it holds."""
        from ..reach import reach_state

        clock = time.perf_counter()
        n, players = self.deck.size, self.players
        items = work["items"]
        states = [parse_state(item["state"]) for item in items]
        sequences, sizes, leaders = moves.state_arrays(states, n, players)
        per_state = int(moves.move_count(n, players, self.config))
        capacity = per_state + 64
        found = _FoundArrays(capacity, n, players)
        own = np.array([cycle_key(item["cycle"]) if item["cycle"] else 0 for item in items],
                       dtype=np.int64)
        link_items = np.zeros(capacity, dtype=np.int64)
        link_keys = np.zeros(capacity, dtype=np.int64)
        stats = np.zeros((moves.N_KINDS, 3), dtype=np.int64)
        seen = moves.seen_scratch(n, players, self.config, len(items))
        known = self._known(work)
        item, kept, used, links = 0, 0, 0, 0
        while item < len(items):
            item, kept, used, links = moves.expand(
                sequences, sizes, leaders, own, self.config, known, item, kept,
                *found.arrays(), stats, *seen, used, link_items, link_keys, links)
            if item < len(items):
                found.grow()
                link_items = np.concatenate([link_items, np.zeros_like(link_items)])
                link_keys = np.concatenate([link_keys, np.zeros_like(link_keys)])
        generation = int(work["generation"])
        entries = []
        for f in range(kept):
            node = cycle_node(moves.state_hands(found.sequences[f], found.sizes[f]),
                              int(found.leaders[f]))
            where = int(found.items[f])
            entries.append(_found_entry(
                node, where * per_state + int(found.moves[f]), generation + 1,
                items[where]["cycle"],
                moves.describe_move(n, players, int(found.moves[f]), self.config)))
        recorder = batch.new_recorder(0, n)
        for where, item_work in enumerate(items):
            if not item_work["owner"]:
                continue
            hands, leader = states[where]
            node = cycle_node(hands, leader)
            reached = reach_state(hands, leader, self.deck,
                                  max_states=self.params["reach_states"])
            deals = list(reached.fair_deals)
            renamed = {}  # the cycle with the players renamed: its own backward search
            if players == 2 and self.deck.size % 2 == 0:  # or player 2 leading, swapped
                deals += reached.fair_deals_swapped
            else:
                for text in renamed_states(node.state):
                    other = reach_state(*parse_state(text), self.deck,
                                        max_states=self.params["reach_states"])
                    if other.cycle != node.cycle and other.cycle not in renamed:
                        renamed[other.cycle] = (text, other)
                        deals += other.fair_deals
            for text in deals:
                recorder = _record_loop(recorder, where * per_state, Deal.parse(text, self.deck))
            entries += _catalogue_entries(node, reached, renamed, generation, players)
        summary = ChunkSummary.from_recorder(recorder, players, time.perf_counter() - clock)
        summary.deals = int(stats[:, moves.ST_TRIES].sum())
        summary.loops = int(stats[:, moves.ST_LOOPS].sum())
        summary.cycles = entries
        summary.links = sorted({(items[int(link_items[k])]["cycle"], cycle_name(link_keys[k]))
                                for k in range(links)})
        summary.move_stats = [
            {"move": name, "tries": int(stats[k, 0]), "loops": int(stats[k, 1]),
             "cycles": int(stats[k, 2])} for k, name in enumerate(moves.MOVE_NAMES)]
        return summary


class _FoundArrays:
    """The arrays ``moves.expand`` keeps new cycles in, grown when they may fill up."""

    def __init__(self, capacity: int, n: int, players: int):
        self.keys = np.zeros(capacity, dtype=np.int64)
        self.sequences = np.zeros((capacity, n), dtype=np.uint8)
        self.sizes = np.zeros((capacity, players), dtype=np.int64)
        self.leaders = np.zeros(capacity, dtype=np.int64)
        self.items = np.zeros(capacity, dtype=np.int64)
        self.moves = np.zeros(capacity, dtype=np.int64)

    def arrays(self):
        return self.keys, self.sequences, self.sizes, self.leaders, self.items, self.moves

    def grow(self) -> None:
        for name in ("keys", "sequences", "sizes", "leaders", "items", "moves"):
            array = getattr(self, name)
            bigger = np.zeros((2 * array.shape[0],) + array.shape[1:], dtype=array.dtype)
            bigger[: array.shape[0]] = array
            setattr(self, name, bigger)


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


def _found_entry(node: CycleNode, position: int, generation: int, parent: str | None,
                 move: str) -> dict:
    return {"kind": "found", "cycle": node.cycle, "period_tricks": node.period_tricks,
            "period_cards": node.period_cards, "state": node.state, "position": position,
            "generation": generation, "parent": parent, "move": move}


def _catalogue_entries(node: CycleNode, reached, renamed: dict, generation: int,
                       players: int) -> list[dict]:
    """The catalogue rows of an expanded cycle and of its renamed copies.

    ``renamed``: cycle id -> (state, backward search) of each copy searched on its own;
    empty for two players and an even deck, where ``reached`` serves both (player 2
    leading, hands swapped, is the mirror's player 1 leading).
    """
    others = [c for c in node.renamed if c != node.cycle]
    mirror = others[0] if others else node.cycle
    common = {"kind": "node", "period_tricks": node.period_tricks,
              "period_cards": node.period_cards, "start_generation": generation}

    def searched(result):
        return {"reach_states": result.states, "reach_complete": result.complete,
                "reach_depth": result.depth, "fair_deals": len(result.fair_deals),
                "fair_deals_swapped": len(result.fair_deals_swapped)}

    entries = [{**common, **searched(reached), "cycle": node.cycle, "state": node.state,
                "mirror": mirror, "own_mirror": mirror == node.cycle, "parent": None}]
    if renamed:
        for cycle, (text, result) in sorted(renamed.items()):
            entries.append({**common, **searched(result), "cycle": cycle,
                            "state": cycle_node(*parse_state(text)).state,
                            "mirror": node.cycle, "own_mirror": False, "parent": node.cycle})
    elif mirror != node.cycle:
        entries.append({**common, **searched(reached), "cycle": mirror,
                        "state": cycle_node(*parse_state(renamed_states(node.state)[0])).state,
                        "mirror": node.cycle, "own_mirror": False, "parent": node.cycle,
                        "fair_deals": len(reached.fair_deals_swapped),
                        "fair_deals_swapped": len(reached.fair_deals)})
    return entries
