"""Growing cycles of small decks into cycles of a large one, as kernels.

Random states of a large deck practically never loop; those of a small, penalty-rich
deck often do.  ``grow_one`` inserts a card, or a short block of cards, at every place of
every hand of each state given and keeps the cycles the results fall into (cycles of a
slightly bigger deck); ``pad_runs`` inserts the missing plain cards as one run in each of two
hands, at every pair of places and every division of the run, and keeps the cycles met.
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel
from .kept import TRIED_BLOCK, keep_new_cycles, new_exact, new_tried, play_tried, queue_tried

# The tries are played in batches of ``TRIED_BLOCK`` (``kept.play_tried``): two players on
# the bitboard kernel, the exact engine replaying only the games it hands back (loops and the
# very long); the same tries, loops and cycles kept, in the same order, as one by one on the
# exact engine.


@kernel
def _keep_played(tried, queued, exact, counts, found, kept):
    """Play the tries queued in ``tried`` and keep the new cycles they meet; returns the
    cycles kept."""
    play_tried(tried, queued, exact, tried.words.shape[0] > 0)
    return keep_new_cycles(tried, queued, found.keys[:0], found, kept, counts)[0]


@kernel
def grow_one(states, block, found, counts):
    """Insert the cards ``block`` (in that order) at every place of each of ``states``
    (``cycles.StateRows``); keep the cycles met in ``found`` (``cycles.KeptCycles`` of
    states ``len(block)`` cards longer).  Returns the cycles kept; ``counts`` gets [tries,
    loops].
    """
    sequences, sizes, leaders = states
    players = sizes.shape[1]
    n = sequences.shape[1]
    width = block.shape[0]
    out = np.zeros(n + width, dtype=np.uint8)
    out_sizes = np.zeros(players, dtype=np.int64)
    exact = new_exact(players)
    tried = new_tried(TRIED_BLOCK, n + width, players, players == 2)
    queued = 0
    kept = 0
    for s in range(sequences.shape[0]):
        start = 0
        for hand in range(players):
            for place in range(sizes[s, hand] + 1):
                at = start + place
                out[:at] = sequences[s, :at]
                out[at:at + width] = block
                out[at + width:] = sequences[s, at:]
                out_sizes[:] = sizes[s]
                out_sizes[hand] += width
                # written out in each loop: as an inlined helper taking the batches (named
                # tuples of arrays) it made the seeding's tries 1.3x slower (docs/factory.md)
                queued = queue_tried(tried, queued, out, out_sizes, leaders[s], counts[0], -1)
                counts[0] += 1
                if queued == TRIED_BLOCK:
                    kept = _keep_played(tried, queued, exact, counts, found, kept)
                    queued = 0
            start += sizes[s, hand]
    return _keep_played(tried, queued, exact, counts, found, kept)


@kernel
def pad_runs(states, missing, found, counts, budget):
    """Insert ``missing`` plain cards as a run in each of two hands (two players).

    For each of ``states`` (``cycles.StateRows``): p cards at every place of hand 1 and
    ``missing - p`` at every place of hand 2, for every p.  Stops after ``budget`` tries;
    returns the cycles kept in ``found``; ``counts`` gets [tries, loops].
    """
    sequences, sizes, leaders = states
    n = sequences.shape[1]
    out = np.zeros(n + missing, dtype=np.uint8)
    out_sizes = np.zeros(2, dtype=np.int64)
    exact = new_exact(2)
    tried = new_tried(TRIED_BLOCK, n + missing, 2, True)
    queued = 0
    kept = 0
    for s in range(sequences.shape[0]):
        first, second = sizes[s, 0], sizes[s, 1]
        for p in range(missing + 1):
            for i in range(first + 1):
                for j in range(second + 1):
                    if counts[0] >= budget:
                        return _keep_played(tried, queued, exact, counts, found, kept)
                    w = 0
                    for k in range(first):
                        if k == i:
                            for _ in range(p):
                                out[w] = 0
                                w += 1
                        out[w] = sequences[s, k]
                        w += 1
                    if i == first:
                        for _ in range(p):
                            out[w] = 0
                            w += 1
                    for k in range(second):
                        if k == j:
                            for _ in range(missing - p):
                                out[w] = 0
                                w += 1
                        out[w] = sequences[s, first + k]
                        w += 1
                    if j == second:
                        for _ in range(missing - p):
                            out[w] = 0
                            w += 1
                    out_sizes[0] = first + p
                    out_sizes[1] = second + missing - p
                    if out_sizes[0] == 0 or out_sizes[1] == 0:
                        continue
                    queued = queue_tried(tried, queued, out, out_sizes, leaders[s],
                                         counts[0], -1)
                    counts[0] += 1
                    if queued == TRIED_BLOCK:  # as in grow_one
                        kept = _keep_played(tried, queued, exact, counts, found, kept)
                        queued = 0
    return _keep_played(tried, queued, exact, counts, found, kept)
