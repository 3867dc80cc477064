"""Kicks (compound perturbations of cycle states) and tried states on the fast kernel,
against the exact engine."""

import numpy as np
import pytest

from beggar_search import Deal, play
from beggar_search.cards.deck import Deck, format_state
from beggar_search.cycles import kept as cycles
from beggar_search.cycles import perturb
from beggar_search.engine.game import cycle_key, cycle_name, play_state, state_cycle
from beggar_search.engine.random import chunk_stream
from beggar_search.games.loops import CASELLA
from beggar_search.tunables import KICK_NAMES

EIGHT = "plain=8,J=2,Q=2,K=2,A=2"
EIGHT_LOOP = "---A-J--/JQ-K-KQA"  # a looping deal of EIGHT


def seeds_of(deal: str):
    hands = [list(h) for h in Deal.parse(deal, EIGHT if deal == EIGHT_LOOP else None).hands]
    states = state_cycle(hands, 0)
    return cycles.state_arrays(states, sum(len(h) for h in hands), 2)


def kicked(seeds, kind, tries, known, fast, seed=3):
    found = cycles.new_kept(64, seeds.sequences.shape[1], 2)
    counts = np.zeros(3, dtype=np.int64)
    config = perturb.kick_config(kind, 2, 4, 3)
    kept = perturb.kick_chunk(chunk_stream(seed, 0), seeds, config, known, tries, found,
                              counts, fast)
    return kept, found, counts


@pytest.mark.parametrize("kind", KICK_NAMES)
@pytest.mark.parametrize("deal", [CASELLA, EIGHT_LOOP])
def test_kicks_on_the_fast_kernel_are_the_exact_engines(deal, kind):
    """The same kicks played on the bitboard kernel and by the exact engine: the same
    loops, the same new cycles at the same tries."""
    seeds = seeds_of(deal)
    tries = 20_000 if deal == CASELLA else 200_000
    fast = kicked(seeds, kind, tries, np.zeros(0, dtype=np.int64), True)
    exact = kicked(seeds, kind, tries, np.zeros(0, dtype=np.int64), False)
    assert fast[0] == exact[0] and tuple(fast[2]) == tuple(exact[2])
    for a, b in zip(fast[1], exact[1], strict=True):
        np.testing.assert_array_equal(a[:fast[0]], b[:fast[0]])
    assert fast[2][0] == tries
    if deal == EIGHT_LOOP:  # kicks near a small deck's cycle loop often
        assert fast[2][1] > 0


@pytest.mark.parametrize("kind", ["swaps", "mixed"])
def test_every_cycle_a_kick_keeps_is_a_new_loop_when_replayed(kind):
    seeds = seeds_of(EIGHT_LOOP)
    own = play(Deal.parse(EIGHT_LOOP, EIGHT)).cycle
    known = np.array([cycle_key(own)], dtype=np.int64)
    kept, found, counts = kicked(seeds, kind, 300_000, known, True)
    assert kept == min(int(counts[2]), 64) > 0  # new cycles, kept while there is room
    names = set()
    for k in range(kept):
        hands = cycles.state_hands(found.sequences[k], found.sizes[k])
        result = play_state(hands, int(found.leaders[k]))
        assert result.outcome == "loop", format_state(hands, int(found.leaders[k]))
        assert cycle_key(result.cycle) == found.keys[k]
        assert result.cycle != own and result.cycle not in names
        names.add(result.cycle)
        seed = found.moves[k]  # the row of the seed state kicked
        assert 0 <= seed < len(seeds.leaders) and found.leaders[k] == seeds.leaders[seed]
    assert all(cycle_name(key) in names for key in found.keys[:kept])


@pytest.mark.parametrize(("deck", "tries", "room"), [
    (EIGHT, 30_000, 64),  # 13 cycles met (batches of 8,192 tries: three whole, one part)
    (EIGHT, 30_000, 2),  # the room full before the last new cycles: counted, not kept
    ("plain=8,J=2,Q=3,K=3", 30_000, 64),  # 13 loops, 12 cycles: one met twice
    ("camicia", 20_000, 8)])  # random camicia states practically never loop
def test_random_states_on_the_fast_kernel_are_the_exact_engines(deck, tries, room):
    """``random_state_cycles`` of two players (on the bitboard kernel) and one by one on the
    exact engine (``perturb_chunk_with``), with no cycle known and with the first two
    known: the same states kept, in the same order, at the same tries, and the same tries
    and loops."""
    cards = Deck.parse(deck).sorted_cards()
    none = np.zeros(0, dtype=np.int64)
    first = perturb.random_state_cycles(chunk_stream(7, 0), cards, 2, none, tries, 64)
    names = [play_state(cycles.state_hands(sequence, sizes), int(leader)).cycle
             for sequence, sizes, leader in zip(first.sequences[:2], first.sizes[:2],
                                                first.leaders[:2], strict=True)]
    no_seeds = cycles.StateRows(np.zeros((0, len(cards)), dtype=np.uint8),
                                np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64))
    for known in (none, np.sort(np.array([cycle_key(n) for n in names], dtype=np.int64))):
        fast = perturb.random_state_cycles(chunk_stream(7, 0), cards, 2, known, tries, room)
        one = cycles.new_kept(room, len(cards), 2)  # the exact engine's, one by one
        counts = np.zeros(3, dtype=np.int64)
        kept = perturb.perturb_chunk_with(chunk_stream(7, 0), cards, no_seeds, known, tries,
                                          one, counts, cycles.new_exact(2))
        assert (fast.tries, fast.loops) == (counts[0], counts[1]) == (tries, first.loops)
        assert len(fast.leaders) == kept <= room
        for a, b in zip(fast[:4], (one.sequences, one.sizes, one.leaders, one.places),
                        strict=True):
            np.testing.assert_array_equal(a, b[:kept])
    if deck == "camicia":
        assert first.loops == 0
    else:  # loops into several cycles: the known ones are not kept again
        assert first.loops > 0 and len(first.leaders) > 2


@pytest.mark.parametrize("deal", [CASELLA, EIGHT_LOOP])
def test_the_hunters_tries_on_the_fast_kernel_are_the_exact_engines(deal):
    """``perturb_chunk`` (the hunter's tries: a cycle's states with two cards swapped or the
    split shifted) of two players on the bitboard kernel, and one by one on the exact
    engine (``perturb_chunk_with``): the same states kept at the same tries, the same
    counts."""
    seeds = seeds_of(deal)
    n, tries = seeds.sequences.shape[1], 20_000
    cards = np.sort(seeds.sequences[0])
    runs = []
    for play_chunk in (perturb.perturb_chunk, perturb.perturb_chunk_with):
        found = cycles.new_kept(64, n, 2)
        counts = np.zeros(3, dtype=np.int64)
        extra = () if play_chunk is perturb.perturb_chunk else (cycles.new_exact(2),)
        kept = play_chunk(chunk_stream(5, 0), cards, seeds, np.zeros(0, dtype=np.int64),
                          tries, found, counts, *extra)
        runs.append((kept, found, counts))
    (kept, fast, counts), (kept_exact, exact, counts_exact) = runs
    assert kept == kept_exact > 0 and tuple(counts) == tuple(counts_exact)
    assert counts[0] == tries and counts[1] > 0
    for a, b in zip(fast, exact, strict=True):
        np.testing.assert_array_equal(a[:kept], b[:kept])
