"""The loop hunter: loops are found near loops.

Random deals of the standard deck practically never loop, but states a card swap or a
small shift of the split away from a cycle's states fall into other cycles at a rate of
about one in a million tries.  A chunk takes the states of the cycles the run starts from
(the Casella cycle, built in, plus every cycle already in the results file), perturbs
random ones (swap two cards of different values, move the split by one card, or both),
plays each perturbed state, and keeps one state of each cycle it did not know.  For each
such cycle it then searches backwards (``reach``) for the fair deals whose play enters it;
those deals are the loops the chunk reports, and the cycle is reported even when no fair
deal reaches it.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from ..deck import Deal, Deck, format_state, parse_state
from ..engine import batch, rules
from ..engine.batch import ChunkSummary
from ..engine.game import cycle_key, play_state, state_cycle
from ..engine.moves import is_new_cycle, state_arrays, state_hands
from ..engine.random import below, chunk_stream, shuffle
from ..jit import kernel
from .base import ChunkJob, Strategy

CASELLA = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
MAX_FOUND = 64  # new cycles kept per chunk; more are counted, not kept


@kernel
def _swap(sequence, stream):
    """Swap two cards of different values; False when the sequence has one value only."""
    n = sequence.shape[0]
    for _ in range(64):
        i = below(stream, n)
        j = below(stream, n)
        if sequence[i] != sequence[j]:
            sequence[i], sequence[j] = sequence[j], sequence[i]
            return True
    return False


@kernel
def _shift(sizes, stream):
    """Move the split between two neighbouring players by one card."""
    players = sizes.shape[0]
    cut = below(stream, players - 1)
    if below(stream, 2) == 0:
        if sizes[cut] > 1:
            sizes[cut] -= 1
            sizes[cut + 1] += 1
    elif sizes[cut + 1] > 1:
        sizes[cut + 1] -= 1
        sizes[cut] += 1


@kernel
def _random_state(sequence, sizes, stream):
    """A random state: shuffled cards, a random split (every hand holds one card or more)."""
    shuffle(sequence, stream)
    players = sizes.shape[0]
    sizes[:] = 1
    for _ in range(sequence.shape[0] - players):
        sizes[below(stream, players)] += 1


@kernel
def hunt_chunk(stream, cards, seeds, seed_sizes, seed_leaders, known, tries, found_keys,
               found_sequences, found_sizes, found_leaders, found_tries, counts):
    """Perturb seed states ``tries`` times; keep one state of each cycle not in ``known``.

    ``seeds[s]`` is a state's cards (hands concatenated), ``seed_sizes[s]`` its hand sizes,
    ``known`` the sorted cycle keys already known.  With no seeds, every try is a random
    state of the deck's ``cards`` instead.  ``counts`` receives [tries, loops met, new
    cycles met] and the number kept is returned.
    """
    players = seed_sizes.shape[1]
    sequence = cards.copy()
    sizes = np.empty(players, dtype=np.int64)
    flat = np.zeros((players, rules.CAPACITY), dtype=np.uint8)
    row = np.zeros(rules.RESULT_LEN, dtype=np.int64)
    scratch = rules.new_scratch(players)
    kept = 0
    for attempt in range(tries):
        if seeds.shape[0] == 0:
            _random_state(sequence, sizes, stream)
            leader = below(stream, players)
        else:
            s = below(stream, seeds.shape[0])
            sequence[:] = seeds[s]
            sizes[:] = seed_sizes[s]
            leader = seed_leaders[s]
            move = below(stream, 4)
            if move != 1:
                _swap(sequence, stream)
            if move == 1 or move == 2:
                _shift(sizes, stream)
            if move == 3:
                _swap(sequence, stream)
        rules.deal_out(sequence, sizes, flat)
        rules.play_game_with(flat, sizes, leader, 0, row, scratch)
        counts[0] += 1
        if row[rules.R_OUTCOME] != rules.LOOP:
            continue
        counts[1] += 1
        key = row[rules.R_CYCLE]
        if not is_new_cycle(known, found_keys, kept, key):
            continue
        counts[2] += 1
        if kept < found_keys.shape[0]:
            found_keys[kept] = key
            found_sequences[kept] = sequence
            found_sizes[kept] = sizes
            found_leaders[kept] = leader
            found_tries[kept] = attempt
            kept += 1
    return kept


class RandomCycles(NamedTuple):
    """One state of each new cycle that random states met (rows 0.. of the arrays)."""

    sequences: np.ndarray  # uint8 (found, cards): the state's hands concatenated
    sizes: np.ndarray  # int64 (found, players)
    leaders: np.ndarray  # int64 (found,)
    tries_at: np.ndarray  # int64 (found,): the try that met it
    tries: int
    loops: int


def random_state_cycles(stream, cards: np.ndarray, players: int, known: np.ndarray,
                        tries: int, room: int) -> RandomCycles:
    """``tries`` random states of the deck ``cards`` (any split, any leader); one state of
    each cycle not in ``known`` (sorted keys) they met, ``room`` at most."""
    n = len(cards)
    keys = np.zeros(room, dtype=np.int64)
    sequences = np.zeros((room, n), dtype=np.uint8)
    sizes = np.zeros((room, players), dtype=np.int64)
    leaders = np.zeros(room, dtype=np.int64)
    tries_at = np.zeros(room, dtype=np.int64)
    counts = np.zeros(3, dtype=np.int64)
    kept = hunt_chunk(stream, cards, np.zeros((0, n), dtype=np.uint8),
                      np.zeros((0, players), dtype=np.int64), np.zeros(0, dtype=np.int64),
                      known, tries, keys, sequences, sizes, leaders, tries_at, counts)
    return RandomCycles(sequences[:kept], sizes[:kept], leaders[:kept], tries_at[:kept],
                        int(counts[0]), int(counts[1]))


def rotations(hands, leader: int):
    """The state under every renaming of the players that keeps their order of play."""
    players = len(hands)
    for k in range(players):
        yield [hands[(p + k) % players] for p in range(players)], (leader - k) % players


def starting_points(entries, deck: Deck, players: int) -> tuple[list[str], list[str]]:
    """Seed states and known cycle ids from cycles given as states or looping deals.

    ``entries`` holds state texts ('leader:hands') or deals.  Seeds are the states of
    each cycle; known ids include every renaming of the players of each cycle, so that
    a renamed copy of a known cycle is not reported as new.
    """
    seeds, known = [], set()
    for entry in entries:
        hands, leader = parse_state(entry) if ":" in entry else (
            [list(h) for h in Deal.parse(entry, deck).hands], 0)
        if len(hands) != players:
            continue
        for rotated, rotated_leader in rotations(hands, leader):
            result = play_state(rotated, rotated_leader)
            if result.outcome == "loop":
                known.add(result.cycle)
        states = state_cycle(hands, leader)
        seeds += [format_state(h, lead) for h, lead in states]
    return sorted(set(seeds)), sorted(known)


class HuntStrategy(Strategy):
    """Perturb known cycles' states; report new cycles and the fair deals reaching them.

    A chunk is ``chunk_size`` tries; the run's ``deals`` counts tries too.
    """

    name = "hunt"
    default_chunk = 1 << 17

    def warm_up(self) -> None:
        """Compile the perturbation kernel, the backward search and the loop recorder."""
        from ..reach import reach_state

        self.run_chunk(ChunkJob(self.name, 0, 1, self.params))
        casella = Deal.parse(CASELLA)  # any deck's kernels are the same compiled code
        reach_state([list(h) for h in casella.hands], 0, max_states=3000)
        _record_loop(batch.new_recorder(0, casella.deck.size), 0, casella)

    def _seed_arrays(self):
        return state_arrays([parse_state(text) for text in self.params["seeds"]],
                            self.deck.size, self.players)

    def run_chunk(self, job: ChunkJob) -> ChunkSummary:
        from ..reach import reach_state

        clock = time.perf_counter()
        sequences, sizes, leaders = self._seed_arrays()
        known = np.array(sorted(cycle_key(name) for name in self.params["known"]),
                         dtype=np.int64)
        found_keys = np.zeros(MAX_FOUND, dtype=np.int64)
        found_sequences = np.zeros((MAX_FOUND, self.deck.size), dtype=np.uint8)
        found_sizes = np.zeros((MAX_FOUND, self.players), dtype=np.int64)
        found_leaders = np.zeros(MAX_FOUND, dtype=np.int64)
        found_tries = np.zeros(MAX_FOUND, dtype=np.int64)
        counts = np.zeros(3, dtype=np.int64)
        kept = hunt_chunk(chunk_stream(self.params["seed"], job.chunk), self.deck.sorted_cards(),
                          sequences, sizes, leaders, known, job.deals, found_keys,
                          found_sequences, found_sizes, found_leaders, found_tries, counts)
        recorder = batch.new_recorder(0, self.deck.size)
        cycles = []
        for f in range(kept):
            hands = state_hands(found_sequences[f], found_sizes[f])
            leader, position = int(found_leaders[f]), int(found_tries[f])
            reached = reach_state(hands, leader, self.deck,  # a states budget: deterministic
                                  max_states=self.params["reach_states"])
            swapped = reached.fair_deals_swapped if self.deck.size % 2 == 0 else []
            for text in reached.fair_deals + swapped:  # swapped: the renamed cycle's deals
                recorder = _record_loop(recorder, position, Deal.parse(text, self.deck))
            cycles.append({
                "cycle": reached.cycle, "period_tricks": reached.period_tricks,
                "period_cards": reached.period_cards, "state": format_state(hands, leader),
                "position": position, "fair_deals": len(reached.fair_deals),
                "reach_states": reached.states, "reach_complete": reached.complete,
            })
        summary = ChunkSummary.from_recorder(recorder, self.players, time.perf_counter() - clock)
        summary.deals = int(counts[0])
        summary.loops = int(counts[1])
        summary.cycles = cycles
        return summary


def _record_loop(recorder, position: int, deal: Deal):
    """Add a looping deal (played again for its figures) to a chunk's recorder."""
    flat, sizes = rules.pack_hands(deal.hands)
    row = np.zeros(rules.RESULT_LEN, dtype=np.int64)
    rules.play_game(flat, sizes, 0, 0, row)
    positions, rows, deals = batch.record_loop(
        position, row, np.array(deal.sequence, dtype=np.uint8), recorder.counts,
        recorder.loop_positions, recorder.loop_rows, recorder.loop_deals)
    return recorder._replace(loop_positions=positions, loop_rows=rows, loop_deals=deals)
