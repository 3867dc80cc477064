"""First cycles of a deck where none is known: skeleton and pad.

1. Random states of a small, penalty-rich deck (up to 8 plain cards, 2 jacks and 3 of
   each other penalty value of the target deck) loop often: keep their cycles.
2. Grow: insert one missing penalty card at every place of every state of those cycles
   (either leader), keep what still loops, up to ``GROW_MAX_CYCLES`` cycles a size, until
   every penalty card is in; when no penalty card alone keeps a loop, a penalty card
   with a plain card next to it, then a plain card, then two.
3. Pad: insert the missing plain cards as one run in each hand, at every pair of
   places, into every state of those skeleton cycles and their mirrors, either leader.
Everything is a pure function of the deck and the seed.

A factory run plays a skeleton and pad as a *lineage* of chunks (``pad_piece``): every
piece grows the lineage's skeleton again (seconds, once per process: it is cached) and pads
its own share of the skeleton states, whole states of about ``piece_tries`` pad tries in
order, so that a piece takes seconds where the whole padding takes minutes; piece 0 also
counts the growth's tries.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ...cards.deck import N_VALUES, Deck
from ...cycles import grow
from ...cycles.kept import StateRows, new_kept, state_arrays, state_hands
from ...cycles.perturb import random_state_cycles
from ...engine.game import state_cycle
from ...engine.random import chunk_stream
from ...tunables import (
    GROW_MAX_CYCLES,
    GROW_MAX_STATES,
    PAD_BUDGET,
    PAD_WANT,
    SMALL_DECK,
    SMALL_DECK_TRIES,
)

LINEAGE_PART = 3  # the random stream (beside a chunk's own) of a lineage's small deck


@dataclass
class Seeding:
    """What a skeleton-and-pad seeding met: full-size cycle states and its tries."""

    states: list = field(default_factory=list)  # (hands, leader) of full-size cycles
    tries: int = 0
    loops: int = 0
    steps: list = field(default_factory=list)  # (cards, cycles) per size reached


def _cycle_states(found, both_leaders: bool):
    """Every state of each found cycle (and, with ``both_leaders``, the other leader),
    cycle after cycle until ``GROW_MAX_STATES``."""
    states = []
    for hands, leader in found:
        if len(states) >= GROW_MAX_STATES:
            break
        for cycle_hands, cycle_leader in state_cycle(hands, leader):
            states.append((cycle_hands, cycle_leader))
            if both_leaders:
                for other in range(len(cycle_hands)):
                    if other != cycle_leader and cycle_hands[other]:
                        states.append((cycle_hands, other))
    return states


def _kept(found, kept):
    """The first ``kept`` states of a ``KeptCycles`` (or ``RandomCycles``) as (hands, leader)."""
    return [(state_hands(found.sequences[k], found.sizes[k]), int(found.leaders[k]))
            for k in range(kept)]


def grow_skeletons(deck: Deck, seed: int, players: int = 2, small_tries: int = SMALL_DECK_TRIES,
                   chunk: int = 0, part: int = 0) -> Seeding:
    """Steps 1 and 2: skeleton cycles of ``deck`` (every penalty card in, plain cards
    missing) grown from a small deck's cycles (random states from the stream of chunk
    ``chunk`` of the run seeded ``seed``, its part ``part``).  ``states`` holds one state of
    each skeleton cycle, none when growth stalled before every penalty card was in; ``steps`` lists
    (cards, cycles) per size reached."""
    target = list(deck.counts)
    counts = [min(c, most) for c, most in zip(target, SMALL_DECK, strict=True)]
    result = Seeding()
    cards = np.repeat(np.arange(N_VALUES, dtype=np.uint8), counts)
    n = len(cards)
    met = random_state_cycles(chunk_stream(seed, chunk, part), cards, players,
                              np.zeros(0, dtype=np.int64), small_tries, GROW_MAX_CYCLES)
    result.tries += met.tries
    result.loops += met.loops
    found = _kept(met, len(met.leaders))
    result.steps.append((n, len(found)))
    while found and counts[1:] != target[1:]:
        grown = []
        for block in _blocks(counts, target):
            grown = _grow(found, block, n, players, result)
            if grown:
                for card in block:
                    counts[card] += 1
                n += len(block)
                break
        found = grown
        result.steps.append((n, len(found)))
    result.states = found
    return result


def skeleton_states(found) -> list:
    """Every state of the skeleton cycles ``found``, either leader, as they are and
    mirrored."""
    states = _cycle_states(found, both_leaders=True)
    return states + [(hands[::-1], (leader + 1) % 2) for hands, leader in states]


def skeleton_and_pad(deck: Deck, seed: int, players: int = 2, small_tries: int = SMALL_DECK_TRIES,
                     pad_budget: int = PAD_BUDGET, want: int = PAD_WANT,
                     chunk: int = 0) -> Seeding:
    """Full-size cycle states of ``deck`` (two players), grown from a small deck's cycles
    (random states from the stream of chunk ``chunk`` of the run seeded ``seed``)."""
    result = grow_skeletons(deck, seed, players, small_tries, chunk)
    found, result.states = result.states, []
    if not found:  # growth stalled before every penalty card was in
        return result
    n = result.steps[-1][0]
    states = state_arrays(skeleton_states(found), n, players)
    missing = deck.size - n
    out = new_kept(want, n + missing, players)
    pad_counts = np.zeros(2, dtype=np.int64)
    kept = grow.pad_runs(states, missing, out, pad_counts, pad_budget)
    result.tries += int(pad_counts[0])
    result.loops += int(pad_counts[1])
    result.states = _kept(out, kept)
    return result


@dataclass(frozen=True)
class Skeleton:
    """A lineage's skeleton, ready to pad: its growth and every state the padding starts
    from, with the pad try each state's padding starts at."""

    grown: Seeding  # the growth's tries, loops and steps (its states: one per skeleton cycle)
    rows: StateRows | None  # every skeleton state (``skeleton_states``), None if it stalled
    starts: np.ndarray  # int64: the pad tries of the states before each
    cards: int  # the skeleton's cards


def pad_tries(sizes: np.ndarray, missing: int) -> np.ndarray:
    """The tries ``grow.pad_runs`` plays on each state of hand sizes ``sizes`` (states, 2):
    every division p of the run and pair of places, but for an empty hand."""
    first, second = sizes[:, 0], sizes[:, 1]
    tries = np.zeros(len(sizes), dtype=np.int64)
    for p in range(missing + 1):
        tries += ((first + p > 0) & (second + missing - p > 0)) * (first + 1) * (second + 1)
    return tries


@functools.lru_cache(maxsize=4)
def lineage_skeleton(spec: str, seed: int, players: int, lineage: int,
                     small_tries: int = SMALL_DECK_TRIES) -> Skeleton:
    """The skeleton of lineage ``lineage`` of the run seeded ``seed`` (its small deck's random
    states from the lineage's own stream), cached: the pieces of a lineage share it."""
    deck = Deck.parse(spec)
    grown = grow_skeletons(deck, seed, players, small_tries, lineage, LINEAGE_PART)
    if not grown.states:
        return Skeleton(grown, None, np.zeros(0, dtype=np.int64), grown.steps[-1][0])
    n = grown.steps[-1][0]
    rows = state_arrays(skeleton_states(grown.states), n, players)
    tries = pad_tries(rows.sizes, deck.size - n)
    return Skeleton(grown, rows, np.cumsum(tries) - tries, n)


def pad_piece(deck: Deck, seed: int, players: int, lineage: int, piece: int,
              piece_tries: int, budget: int = PAD_BUDGET, want: int = PAD_WANT,
              small_tries: int = SMALL_DECK_TRIES) -> Seeding:
    """Piece ``piece`` of a lineage's skeleton and pad: the full-size cycles met padding the
    skeleton states whose padding starts within pad tries [piece x ``piece_tries``, (piece +
    1) x ``piece_tries``) and below ``budget`` (whole states, so a piece plays about
    ``piece_tries``).  Piece 0 also counts the growth's tries and loops."""
    skeleton = lineage_skeleton(deck.spec, seed, players, lineage, small_tries)
    grown = skeleton.grown
    result = Seeding(steps=list(grown.steps))
    if piece == 0:
        result.tries, result.loops = grown.tries, grown.loops
    if skeleton.rows is None:
        return result
    starts = skeleton.starts
    chosen = np.flatnonzero((starts // piece_tries == piece) & (starts < budget))
    if not len(chosen):
        return result
    rows = StateRows(skeleton.rows.sequences[chosen], skeleton.rows.sizes[chosen],
                     skeleton.rows.leaders[chosen])
    out = new_kept(want, deck.size, players)
    counts = np.zeros(2, dtype=np.int64)
    kept = grow.pad_runs(rows, deck.size - skeleton.cards, out, counts, 1 << 62)
    result.tries += int(counts[0])
    result.loops += int(counts[1])
    result.states = _kept(out, kept)
    return result


def lineage_pieces(piece_tries: int, budget: int = PAD_BUDGET) -> int:
    """The pieces of a lineage whose pieces pad about ``piece_tries`` each."""
    return max(1, -(-int(budget) // int(piece_tries)))


def _blocks(counts, target):
    """What to insert next, in order: a missing penalty card alone, then with a plain card
    before or after it, then a plain card, then two."""
    missing = [v for v in range(1, N_VALUES) if counts[v] < target[v]]
    plain = target[0] - counts[0]
    blocks = [(v,) for v in missing]
    if plain >= 1:
        blocks += [(v, 0) for v in missing] + [(0, v) for v in missing] + [(0,)]
    if plain >= 2:
        blocks.append((0, 0))
    return blocks


def _grow(found, block, n: int, players: int, result: Seeding):
    states = _cycle_states(found, both_leaders=True)
    out = new_kept(GROW_MAX_CYCLES, n + len(block), players)
    counts = np.zeros(2, dtype=np.int64)
    kept = grow.grow_one(state_arrays(states, n, players), np.array(block, dtype=np.uint8), out,
                         counts)
    result.tries += int(counts[0])
    result.loops += int(counts[1])
    return _kept(out, kept)
