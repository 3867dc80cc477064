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

import numpy as np

from ..cards.deck import Deal, Deck, format_state, parse_state
from ..cycles.kept import new_kept, state_arrays, state_hands
from ..cycles.perturb import perturb_chunk
from ..engine import batch
from ..engine.batch import ChunkSummary
from ..engine.game import cycle_key, play_state, state_cycle
from ..engine.random import chunk_stream
from ..games.loops import CASELLA, record_loop, rotations
from ..store.records import MET, CycleRecord, InTree
from ..tunables import HUNT_CHUNK, HUNT_FOUND
from .base import ChunkJob, Strategy


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
    default_chunk = HUNT_CHUNK
    unit = "tries"  # perturbations tried
    of_cycles = True

    def warm_up(self, beside: bool = False) -> None:
        """Compile the perturbation kernel, the backward search and the loop recorder (all of
        them, ``beside`` or not: its chunks keep no games, so no merge families)."""
        from ..backward.reach import reach_state

        self.run_chunk(ChunkJob(self.name, 0, 1, self.params))
        casella = Deal.parse(CASELLA)  # any deck's kernels are the same compiled code
        reach_state([list(h) for h in casella.hands], 0, max_states=3000, game=self.game)
        record_loop(batch.new_recorder(0, casella.deck.size), 0, casella)

    def _seed_arrays(self):
        return state_arrays([parse_state(text) for text in self.params["seeds"]],
                            self.deck.size, self.players)

    def run_chunk(self, job: ChunkJob) -> ChunkSummary:
        """Perturb the seed states ``job.deals`` times; each new cycle met is searched backward and
        its fair deals recorded as loops."""
        from ..backward.reach import reach_state

        clock = time.perf_counter()
        known = np.array(sorted(cycle_key(name) for name in self.params["known"]),
                         dtype=np.int64)
        found = new_kept(HUNT_FOUND, self.deck.size, self.players)
        counts = np.zeros(3, dtype=np.int64)
        kept = perturb_chunk(chunk_stream(self.params["seed"], job.chunk),
                             self.deck.sorted_cards(), self._seed_arrays(), known, job.deals,
                             found, counts)
        recorder = batch.new_recorder(0, self.deck.size)
        cycles = []
        for f in range(kept):
            hands = state_hands(found.sequences[f], found.sizes[f])
            leader, position = int(found.leaders[f]), int(found.places[f])
            reached = reach_state(hands, leader, self.deck,  # a states budget: deterministic
                                  max_states=self.params["reach_states"], game=self.game)
            swapped = reached.fair_deals_swapped if self.deck.size % 2 == 0 else []
            for text in reached.fair_deals + swapped:  # swapped: the renamed cycle's deals
                recorder = record_loop(recorder, position, Deal.parse(text, self.deck))
            cycles.append(CycleRecord(
                MET, reached.cycle, reached.period_tricks, reached.period_cards,
                format_state(hands, leader), position,
                in_tree=InTree(reached.states, reached.complete)))
        summary = ChunkSummary.from_recorder(recorder, self.players, time.perf_counter() - clock)
        summary.deals = int(counts[0])
        summary.loops = int(counts[1])
        summary.cycles = cycles
        return summary
