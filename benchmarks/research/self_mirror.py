"""Self-mirror cycles: how to meet the camicia islands a walk cannot bridge (issue 18).

Three of the camicia deck's four islands of fair-reachable cycles are single cycles that are
their own mirror (periods 84/546, 20/156, 36/188 tricks/cards; 90, 28 and 26 fair deals).
This script measures ways to generate that structure from nothing.  None met a target.
The reference for 84/546 is Riccardo Zanotto's published looping deal (2017,
github.com/drago-96/cavacamisa, infinite/20170217.txt), ``ZANOTTO`` below: it is used only
to measure the methods against (what lies around it), never as a seed.

    python benchmarks/research/self_mirror.py fraction   # self-mirror share of small decks
    python benchmarks/research/self_mirror.py twins      # (A, A rotated) half-deck copies
    python benchmarks/research/self_mirror.py grow [--any-cycle --room 500 --limit 20000]
    python benchmarks/research/self_mirror.py shapes     # penalty shapes that come back
    python benchmarks/research/self_mirror.py relabel    # penalty values re-dealt in place
    python benchmarks/research/self_mirror.py isolation  # what lies around the 84/546 cycle
    python benchmarks/research/self_mirror.py stream     # the mirror condition searched

Figures (2-core machine shared with other jobs, load 4-9; Dec 2026):

- fraction (2^20 random states a deck, any split and leader, seed 1): 8,2,3,3 (plain,J,Q,K):
  75 cycles, 4 self-mirror (all 20/180); 8,2,2,2: 6 cycles, 2 self-mirror (10/70);
  10,2,2,2: 1 cycle, self-mirror (16/72); 12,2,4,4: 5 cycles, none; 4/6,2,2,2, 8,2,4,4 and
  8/12,4,4,4: no cycle at all (2-3 s a deck).  Many small cycles cover a shorter cycle of
  their penalty *shape* (penalty places, values merged, leader's hand first): of 8,2,3,3's
  75, period/shape period is 1 for 33, 2 for 25, 5 for 8, 6 for 5 and 10 for the 4
  self-mirror ones.
- twins (player 1 leads): (A, A) for every arrangement A of 14 plain, 2 J, 2 Q, 2 K:
  3,488,400 states, 0 loops (15 s); (A, A rotated by 1..19): 66,279,600 states, 0 loops
  (43 s); (A, A reversed and rotated by 0..19): 69,768,000 states, 0 loops (45 s).
- grow, self-mirror only (seeds: the 7 self-mirror cycles of 2^21 states of 8,2,3,3,
  8,2,2,2, 10,2,2,2; each size: 13 one-hand blocks (a card, two plain, a penalty card
  with a plain card, K-J, Q-J) and 5 two-hand pairs (the same card or two plain cards in
  each hand, every pair of places), either leader, 300 cycles kept a step): self-mirror
  cycles per size 14:2, 16:11, 17:14, 18:24, 19:45, 20:35, 21:7, 22:2, then none;
  1,237,804 tries, 35-41 s.  The third jack never goes in: the blocks holding a jack
  (J alone, J and a plain card, K-J, Q-J, a J in each hand) made 462,724 tries, 360
  loops, none of them self-mirror (2 J is all the seeds hold).  Loops made
  by inserting into self-mirror cycles are often self-mirror again (plain pairs: 86 of 86,
  single plain card: 576 of 600; Q or K pairs: 5 of 34), so the property is kept where a
  loop is kept at all; growth stalls for lack of loops, as skeleton-and-pad's does.
- grow --any-cycle --room 500 --limit 20000 (every cycle kept): cycles per size 14:2,
  16:55, 17:311, 18:437, 19:406, 20:328, 21:338, 22:628, 23:924; 75,323,404 tries in
  532 s; 87 cycles of 24 cards hold every penalty card; padded with 8 plain cards in each
  hand (one run a hand, every pair of places, either leader): 814,794 tries, 0 loops.
- shapes: 4,000,000 random fair camicia states played up to 300 tricks: the penalty shape
  never came back (0; the 84/546 reference comes back after 14 tricks), 42-50 s.
- relabel: every arrangement of the 12 penalty values over the penalty places of every
  state, either leader.  The reference cycle's 84 states: 5,821,200 states, 252 loops, all
  into the reference cycle itself (15 s).  The 16 full-size cycles that the ``grow``
  seeding (skeleton and pad, seed 1, 276 s) meets, 726 states: 50,311,800 states,
  9,504 loops into 25 cycles (16 x 33/232, 1 x 33/233, 8 x 66/464), none self-mirror,
  no target (31 s).  Relabelling does not cross from the seeding's island.
- isolation (the reference, ``ZANOTTO``): reach 2,430 states, 90 fair deals (it is the
  90-deal island).  Its penalty shape repeats every 14 of its 84 tricks: 14 tricks take a
  state to its mirror with the five Q/K cards of "--K-Q-Q-K-K" permuted (order 3), so the
  cycle is a 6-fold cover of a 14-trick shape cycle.  Changing one card's value, again
  and again, reaches a closed family of 8 cycles (28/182 in plain=28,J=4,Q=3,K=5 and
  Q=6,K=2; 96/546 and 32/182 with 27 plain and 5 J; all self-mirror) and nothing else
  (115,200 states).  Taking out of any of its 84 states any card, two neighbouring cards,
  a run of up to 6 equal cards or a same-valued card from each hand (93,284 states, either
  leader) loops once (84/534, 39 cards) and from there never: no growth step of
  ``seeding`` (one card or a two-card block at a time) from any smaller loop can make
  it.  Taking one plain run out of each hand (2+ cards in all) of its cycle states:
  165,432 states, 0 loops; 8-14 plain cards out of any of its 2,430 in-tree states:
  228,684 states, 0 loops: no 26-32 card skeleton padded as ``pad_runs`` pads meets it.

- stream (2-core AVX-512 Xeon, alone; Dec 6): the self-mirror condition as one card
  stream.  A state (A, B), player 1 leading, that reaches its mirror after laying ``half``
  cards, ``ahead`` of them by player 1: player 1's stream (A, then the piles it wins)
  repeats every ``half`` cards and player 2's is the same stream ``ahead`` cards on.  A
  depth-first search chooses each card when it is first laid and writes every won pile
  into the stream ahead (assigning a card not laid yet, or checking one laid).  It is
  exact and complete: each of the reference cycle's 84 states, its cards given, is met at
  its (first, ahead); over every (first, ahead) of a half period it finds every
  self-mirror cycle that 2^20 random states met on three small decks, and none more
  (8,2,2,2 half 35: 2 of 2, 45 M branch points, 12 s; 10,2,2,2 half 36: 1 of 1, 121 M,
  30 s; 3.5-4 M branch points a second; ``--decks plain=8,J=2,Q=3,K=3``, half 90: 4 of 4,
  5.9 G branch points, 596 s on a first version that did 10-13 M a second).  But a
  write meets a card already laid only once the stream has come round, when nearly every
  card is chosen, so the tree is nearly every state.  Knuth's estimate of the tree (2,000
  random paths a pair) gives the small decks' counts within 0.3% (44.89 M, 121.0 M); on
  camicia it is 2.3e16 branch points for half period 78 (the 20/156 cycle's), 8.1e16 for 94
  (36/188's), 3.5e14 for the reference's 11 own (first, ahead) pairs of half 273; the deck
  has 1.5e16 states (every deal, split and leader).  2 min 56 s in all.  Centuries on one
  core for one half period: no better than playing every state.

So the 84/546 island is rigid: no smaller loop lies below it, no value change leaves its
8-cycle family, relabelling and kicks from the seeding's island do not reach it.  A
method that meets it from nothing has to build the whole 40-card state at once: exhaustive
search of a structured subspace (the census), or a solver for the mirror-with-relabelling
condition T^k(S) = mirror(relabel(S)) seen above.  Not built here.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

import numpy as np

from beggar_search.cards.deck import N_VALUES, Deck, format_state
from beggar_search.cycles.kept import (
    TRIED_BLOCK,
    is_new_cycle,
    keep_cycle,
    new_exact,
    new_kept,
    new_tried,
    play_tried,
    queue_tried,
    state_arrays,
    state_hands,
)
from beggar_search.cycles.perturb import random_state_cycles
from beggar_search.engine import rules
from beggar_search.engine.game import play_state, state_cycle
from beggar_search.engine.random import below, chunk_stream, shuffle
from beggar_search.jit import inlined_kernel, kernel

TARGETS = {(84, 546): 90, (20, 156): 28, (36, 188): 26}  # camicia's self-mirror islands


# ---- kernels ------------------------------------------------------------------------------

@kernel
def mirror_key(sequence, sizes, leader, exact, mirrored, mirrored_sizes):
    """The cycle key of a two-player state with the hands swapped and the other player
    leading (0: its game ends)."""
    first, second = sizes[0], sizes[1]
    mirrored[:second] = sequence[first:]
    mirrored[second:] = sequence[:first]
    mirrored_sizes[0] = second
    mirrored_sizes[1] = first
    rules.deal_out(mirrored, mirrored_sizes, exact.flat)
    rules.play_game_with(exact.flat, mirrored_sizes, 1 - leader, 0, exact.row, exact.scratch)
    if exact.row[rules.R_OUTCOME] == rules.LOOP:
        return exact.row[rules.R_CYCLE]
    return np.int64(0)


@kernel
def flush(batch, count, exact, known, found, kept, counts, need_mirror, scratch):
    """Play the queued states; keep each new cycle (self-mirror ones only when
    ``need_mirror``).  ``counts``: [tries, loops, self-mirror loops, new cycles kept]."""
    mirrored, mirrored_sizes = scratch
    play_tried(batch, count, exact, True)
    counts[0] += count
    for i in range(count):
        key = batch.keys[i]
        if key == 0:
            continue
        counts[1] += 1
        is_self = mirror_key(batch.sequences[i], batch.sizes[i], batch.leaders[i], exact,
                             mirrored, mirrored_sizes) == key
        if is_self:
            counts[2] += 1
        if need_mirror and not is_self:
            continue
        if not is_new_cycle(known, found.keys, kept, key):
            continue
        new = keep_cycle(found, kept, key, batch.sequences[i], batch.sizes[i],
                         batch.leaders[i], counts[0] - count + i, batch.moves[i])
        if new > kept:
            counts[3] += 1
        kept = new
    return kept


@kernel
def pair_insert(states, block, flip, known, found, counts, need_mirror):
    """Insert ``block`` into both hands of each of ``states`` (``StateRows``, two players),
    at every pair of places (i in hand 1, j in hand 2); with ``flip`` also with the other
    player leading.  Keeps new cycles in ``found`` (``flush``); returns how many."""
    sequences, sizes, leaders = states
    n = sequences.shape[1]
    width = block.shape[0]
    m = n + 2 * width
    batch = new_tried(TRIED_BLOCK, m, 2, True)
    exact = new_exact(2)
    scratch = (np.zeros(m, dtype=np.uint8), np.zeros(2, dtype=np.int64))
    out = np.zeros(m, dtype=np.uint8)
    out_sizes = np.zeros(2, dtype=np.int64)
    kept = 0
    count = 0
    for s in range(sequences.shape[0]):
        first, second = sizes[s, 0], sizes[s, 1]
        out_sizes[0] = first + width
        out_sizes[1] = second + width
        for i in range(first + 1):
            for j in range(second + 1):
                out[:i] = sequences[s, :i]
                out[i:i + width] = block
                out[i + width:first + width] = sequences[s, i:first]
                h = first + width
                out[h:h + j] = sequences[s, first:first + j]
                out[h + j:h + j + width] = block
                out[h + j + width:] = sequences[s, first + j:n]
                for lead in range(2 if flip else 1):
                    leader = leaders[s] if lead == 0 else 1 - leaders[s]
                    count = queue_tried(batch, count, out, out_sizes, leader, s, 0)
                    if count == TRIED_BLOCK:
                        kept = flush(batch, count, exact, known, found, kept, counts,
                                     need_mirror, scratch)
                        count = 0
    return flush(batch, count, exact, known, found, kept, counts, need_mirror, scratch)


@inlined_kernel
def next_value(used, counts, after):
    """The least value above ``after`` with a card left (``counts.shape[0]``: none)."""
    card = after + 1
    while card < counts.shape[0] and used[card] >= counts[card]:
        card += 1
    return card


@inlined_kernel
def drawn_value(used, counts, stream):
    """A value with a card left, drawn uniformly, and how many there were to draw from."""
    room = 0
    for v in range(counts.shape[0]):
        room += used[v] < counts[v]
    pick = below(stream, room)
    for v in range(counts.shape[0]):
        if used[v] < counts[v]:
            if pick == 0:
                return v, room
            pick -= 1
    return -1, room


@inlined_kernel
def set_card(at, card, cards, free, used, counts, trail, trails):
    """Give the stream's card ``at`` its value (counted when it is one of the state's own):
    (whether the deck holds one more of the value, the trail's new length)."""
    if free[at]:
        if used[card] >= counts[card]:
            return False, trails
        used[card] += 1
    cards[at] = card
    trail[trails] = at
    return True, trails + 1


@inlined_kernel
def unset_cards(cards, free, used, trail, trails, to):
    """Undo the trail's cards from ``trails`` back to ``to``."""
    while trails > to:
        trails -= 1
        at = trail[trails]
        if free[at]:
            used[cards[at]] -= 1
        cards[at] = -1


@inlined_kernel
def won_pile(game, start, cards, free, used, counts, trail, trails):
    """Write the pile into the stream of its winner (``game[6]``, its stream from
    ``start``): (whether every card agrees with the stream, the trail's new length)."""
    winner = game[6]
    half = cards.shape[0]
    for i in range(game[7]):
        at = (start + game[2 + winner]) % half
        game[2 + winner] += 1
        if cards[at] < 0:
            ok, trails = set_card(at, game[8 + i], cards, free, used, counts, trail, trails)
            if not ok:
                return False, trails
        elif cards[at] != game[8 + i]:
            return False, trails
    return True, trails


@kernel
def stream_search(half, first, ahead, counts, given, budget, found, tally, stream, probe):
    """Self-mirror states (``first`` cards with player 1, who leads) whose game lays
    ``half`` cards, ``ahead`` of them by player 1, before it reaches its mirror, by a depth-
    first search over one card stream.

    Player 1's stream (its hand, then the piles it wins) then repeats every ``half`` cards,
    and player 2's is the same stream ``ahead`` cards on, so both are one array ``cards``
    of ``half`` values.  A card is chosen when it is first laid (its value within
    ``counts``); a won pile is written into the stream ahead of its player, assigning cards
    not laid yet or checking those laid; ``given`` fixes cards of the stream beforehand
    (-1: free).  States found go to ``found`` (row: the stream, read with ``first`` and
    ``ahead``; ``tally``: [branch points, states found]).  Returns 1.0 when the tree is
    searched through, 0.0 when ``budget`` branch points ran out first; with ``probe``
    (Knuth's estimate) one random path is followed, its choices drawn from ``stream``, and
    the tree's estimated size returned."""
    total = counts.sum()
    second = total - first
    cards = given.copy()
    free = np.zeros(half, dtype=np.bool_)
    free[:first] = True
    for i in range(second):
        free[(ahead + i) % half] = True
    used = np.zeros(counts.shape[0], dtype=np.int64)
    for i in range(half):
        if cards[i] >= 0 and free[i]:  # the state's own cards; the rest are their copies
            used[cards[i]] += 1
    trail = np.zeros(half + 1, dtype=np.int64)
    frames = np.zeros((total + 1, 3 + 8 + total), dtype=np.int64)  # where, value, trail, game
    # the game: cards laid by each player, cards each player's stream holds, the player to
    # lay, cards owed, who set the demand, cards on the pile; then the pile
    game = np.zeros(8 + total, dtype=np.int64)
    game[2], game[3] = first, second
    start = np.array([0, ahead])
    most = np.array([ahead, half - ahead])
    trails = depth = 0
    estimate, weight = 0.0, 1.0
    while True:
        player = game[4]
        fail = game[player] >= game[2 + player] or game[player] >= most[player]
        if not fail:
            at = (start[player] + game[player]) % half
            card = cards[at]
            if card < 0:  # a card first laid: a branch point
                tally[0] += 1
                card = next_value(used, counts, -1)
                if probe:  # this branch point, weighted by the choices that led to it
                    estimate += weight
                    card, room = drawn_value(used, counts, stream)
                    weight *= room
                frames[depth, 0], frames[depth, 1], frames[depth, 2] = at, card, trails
                frames[depth, 3:11 + game[7]] = game[:8 + game[7]]
                depth += 1
                trails = set_card(at, card, cards, free, used, counts, trail, trails)[1]
            game[player] += 1
            game[8 + game[7]] = card
            game[7] += 1
            if card > 0:
                game[4], game[5], game[6] = 1 - player, card, player
            elif game[5] > 1:
                game[5] -= 1
            elif game[5] == 0:
                game[4] = 1 - player
            else:  # the setter wins the pile: it is written into its stream
                winner = game[6]
                ok, trails = won_pile(game, start[winner], cards, free, used, counts, trail,
                                      trails)
                fail = not ok
                game[4], game[5], game[7] = winner, 0, 0
                if not fail and game[0] + game[1] >= half:
                    if game[0] == ahead and winner == 1 and game[2] - game[0] == second:
                        if tally[1] < found.shape[0]:
                            found[tally[1], :] = cards
                        tally[1] += 1
                    fail = True
        if not fail:
            continue
        if probe:
            return estimate
        card = counts.shape[0]
        while card == counts.shape[0]:  # back to the last branch point with a value left
            if depth == 0:
                return 1.0
            depth -= 1
            unset_cards(cards, free, used, trail, trails, frames[depth, 2])
            trails = frames[depth, 2]
            card = next_value(used, counts, frames[depth, 1])
        if tally[0] >= budget:
            return 0.0
        game[:8] = frames[depth, 3:11]
        game[8:8 + game[7]] = frames[depth, 11:11 + game[7]]
        frames[depth, 1] = card
        depth += 1
        trails = set_card(frames[depth - 1, 0], card, cards, free, used, counts, trail,
                          trails)[1]


# ---- helpers ------------------------------------------------------------------------------

def is_self_mirror(hands, leader) -> bool:
    """Whether the state loops into a cycle that is its own mirror."""
    result = play_state(hands, leader)
    return result.outcome == "loop" and play_state(hands[::-1], 1 - leader).cycle == result.cycle


def kept_states(found, kept):
    """The first ``kept`` states of a ``KeptCycles`` as (hands, leader)."""
    return [(state_hands(found.sequences[k], found.sizes[k]), int(found.leaders[k]))
            for k in range(kept)]


def half_states(cycles, limit):
    """Every state of each cycle (the first half of a self-mirror one: the rest are their
    mirrors), up to ``limit`` states."""
    states = []
    for hands, leader in cycles:
        ring = state_cycle(hands, leader)
        if is_self_mirror(hands, leader):
            ring = ring[: (len(ring) + 1) // 2]
        states.extend(ring)
        if len(states) >= limit:
            break
    return states[:limit]


def shape_text(hands, leader):
    """A state's penalty shape: the leader's hand first, every penalty card an X."""
    return "/".join("".join("-" if c == 0 else "X" for c in hand)
                    for hand in (hands[leader], hands[1 - leader]))


def cover_order(hands, leader):
    """A cycle's period over the period of its penalty shape (leader's hand first)."""
    ring = state_cycle(hands, leader)
    shapes = [shape_text(*state) for state in ring]
    period = next(k for k in range(1, len(ring) + 1)
                  if all(shapes[i] == shapes[(i + k) % len(ring)] for i in range(len(ring))))
    return len(ring) // period


def small_cycles(counts, tries, seed, need_mirror=True):
    """Cycles (one state each) of random states of the small deck ``counts``."""
    cards = np.repeat(np.arange(N_VALUES, dtype=np.uint8), counts)
    met = random_state_cycles(chunk_stream(seed, 0), cards, 2, np.zeros(0, np.int64), tries,
                              100_000)
    found = [(state_hands(met.sequences[k], met.sizes[k]), int(met.leaders[k]))
             for k in range(len(met.leaders))]
    if need_mirror:
        found = [(h, lead) for h, lead in found if is_self_mirror(h, lead)]
    return found, met.tries


def grow_pairs(cycles, block, room, flip, need_mirror, limit):
    """One growth step: ``block`` inserted into both hands of the cycles' states."""
    states = half_states(cycles, limit)
    n = sum(len(h) for h in states[0][0])
    found = new_kept(room, n + 2 * len(block), 2)
    counts = np.zeros(4, dtype=np.int64)
    kept = pair_insert(state_arrays(states, n, 2), np.array(block, dtype=np.uint8), flip,
                       np.zeros(0, dtype=np.int64), found, counts, need_mirror)
    return kept_states(found, kept), counts, len(states)


def describe(hands, leader):
    r = play_state(hands, leader)
    return f"{r.period_tricks}/{r.period_cards} {format_state(hands, leader)}"


@kernel
def next_permutation(a):
    """The next arrangement of ``a`` in lexicographic order, in place; False after the last."""
    n = a.shape[0]
    i = n - 2
    while i >= 0 and a[i] >= a[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = n - 1
    while a[j] <= a[i]:
        j -= 1
    a[i], a[j] = a[j], a[i]
    a[i + 1:] = a[i + 1:][::-1].copy()
    return True


@kernel
def twin_states(hand, shifts, reverse, limit, known, found, counts):
    """Every arrangement A of the cards ``hand`` (from the one given, in lexicographic
    order, ``limit`` at most), played as the state (A, A rotated left by r) for each r of
    ``shifts`` (with ``reverse``: A reversed, then rotated), player 1 leading.  Keeps new
    cycles in ``found``; returns how many."""
    half = hand.shape[0]
    m = 2 * half
    a = hand.copy()
    batch = new_tried(TRIED_BLOCK, m, 2, True)
    exact = new_exact(2)
    scratch = (np.zeros(m, dtype=np.uint8), np.zeros(2, dtype=np.int64))
    out = np.zeros(m, dtype=np.uint8)
    out_sizes = np.zeros(2, dtype=np.int64)
    out_sizes[0] = half
    out_sizes[1] = half
    kept = 0
    count = 0
    done = 0
    while done < limit:
        out[:half] = a
        for r in shifts:
            for k in range(half):
                out[half + k] = a[half - 1 - (k + r) % half] if reverse else a[(k + r) % half]
            count = queue_tried(batch, count, out, out_sizes, 0, done, r)
            if count == TRIED_BLOCK:
                kept = flush(batch, count, exact, known, found, kept, counts, False, scratch)
                count = 0
        done += 1
        if not next_permutation(a):
            break
    return flush(batch, count, exact, known, found, kept, counts, False, scratch)


@kernel
def single_insert(states, block, flip, known, found, counts, need_mirror):
    """Insert ``block`` at every place of either hand of each of ``states`` (``StateRows``,
    two players); with ``flip`` also with the other player leading.  Keeps new cycles in
    ``found`` (``flush``); returns how many."""
    sequences, sizes, leaders = states
    n = sequences.shape[1]
    width = block.shape[0]
    m = n + width
    batch = new_tried(TRIED_BLOCK, m, 2, True)
    exact = new_exact(2)
    scratch = (np.zeros(m, dtype=np.uint8), np.zeros(2, dtype=np.int64))
    out = np.zeros(m, dtype=np.uint8)
    out_sizes = np.zeros(2, dtype=np.int64)
    kept = 0
    count = 0
    for s in range(sequences.shape[0]):
        for at in range(n + 2):  # hand 1: places 0..first; hand 2: first+1..n+1
            first = sizes[s, 0]
            hand = 0 if at <= first else 1
            place = at if hand == 0 else at - 1
            out[:place] = sequences[s, :place]
            out[place:place + width] = block
            out[place + width:] = sequences[s, place:]
            out_sizes[0] = first + (width if hand == 0 else 0)
            out_sizes[1] = n - first + (width if hand == 1 else 0)
            for lead in range(2 if flip else 1):
                leader = leaders[s] if lead == 0 else 1 - leaders[s]
                count = queue_tried(batch, count, out, out_sizes, leader, s, 0)
                if count == TRIED_BLOCK:
                    kept = flush(batch, count, exact, known, found, kept, counts, need_mirror,
                                 scratch)
                    count = 0
    return flush(batch, count, exact, known, found, kept, counts, need_mirror, scratch)


def grow_single(cycles, block, room, flip, need_mirror, limit):
    """One growth step: ``block`` inserted at every place of either hand."""
    states = half_states(cycles, limit)
    n = sum(len(h) for h in states[0][0])
    found = new_kept(room, n + len(block), 2)
    counts = np.zeros(4, dtype=np.int64)
    kept = single_insert(state_arrays(states, n, 2), np.array(block, dtype=np.uint8), flip,
                         np.zeros(0, dtype=np.int64), found, counts, need_mirror)
    return kept_states(found, kept), counts, len(states)


SINGLE_BLOCKS = [(0,), (1,), (2,), (3,), (0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (0, 3),
                 (3, 1), (2, 1)]
PAIR_BLOCKS = [(0,), (1,), (2,), (3,), (0, 0)]


def composition(hands):
    counts = [0] * N_VALUES
    for hand in hands:
        for card in hand:
            counts[card] += 1
    return tuple(counts)


def mirror_growth(seeds, target, room, limit, need_mirror=True, log=print, kinds="sp",
                  deadline=None):
    """Breadth-first growth over sizes: every block of ``SINGLE_BLOCKS`` (one hand) and
    ``PAIR_BLOCKS`` (both hands) into the states of every kept cycle of a size, keeping
    up to ``room`` new self-mirror cycles (any cycle without ``need_mirror``) per size and
    composition (at most ``target``).  Returns (cycles per size, tries, (size, cycles) per
    size reached)."""
    levels = {}
    for hands, leader in seeds:
        levels.setdefault(sum(map(len, hands)), []).append((hands, leader))
    size = sum(target)
    tries = 0
    seen = set()
    history = []
    for n in range(min(levels), size):
        cycles = levels.get(n, [])
        if deadline and time.perf_counter() > deadline:
            break
        if not cycles:
            continue
        history.append((n, len(cycles)))
        log(f"size {n}: {len(cycles)} cycles")
        by_comp = {}
        for c in cycles:
            by_comp.setdefault(composition(c[0]), []).append(c)
        jobs = [("s", b) for b in SINGLE_BLOCKS] * ("s" in kinds) + \
            [("p", b) for b in PAIR_BLOCKS] * ("p" in kinds)
        for kind, block in jobs:
            add = [0] * N_VALUES
            for v in block:
                add[v] += 2 if kind == "p" else 1
            chosen = [c for comp, cs in by_comp.items()
                      if all(a + b <= t for a, b, t in zip(comp, add, target, strict=True))
                      for c in cs]
            if not chosen:
                continue
            grow = grow_single if kind == "s" else grow_pairs
            grown, counts, _ = grow(chosen, block, room, True, need_mirror, limit)
            tries += int(counts[0])
            m = n + sum(2 if kind == "p" else 1 for _ in block)
            new = 0
            for hands, leader in grown:
                key = play_state(hands, leader).cycle
                if key in seen:
                    continue
                seen.add(key)
                levels.setdefault(m, []).append((hands, leader))
                new += 1
            if new or counts[1] or any(v == 1 for v in block):
                log(f"   {kind}{block}: tries {counts[0]} loops {counts[1]} self-mirror "
                    f"{counts[2]} new {new} -> size {m}")
        levels[m] = levels.get(m, [])
    return levels, tries, history


# ---- experiments --------------------------------------------------------------------------

SMALL_DECKS = [(8, 2, 3, 3, 0), (6, 2, 2, 2, 0), (8, 2, 2, 2, 0), (10, 2, 2, 2, 0),
               (4, 2, 2, 2, 0), (8, 2, 4, 4, 0), (12, 2, 4, 4, 0), (8, 4, 4, 4, 0),
               (12, 4, 4, 4, 0)]
# Riccardo Zanotto's looping camicia deal (2017, github.com/drago-96/cavacamisa,
# infinite/20170217.txt, 0 = plain, 1-3 = J-K): a reference to measure against, never a seed
ZANOTTO = "1:--K-Q-Q-K-KJ-----KJ-/--J--Q----Q-------J-"


def run_fraction(args):
    """How many of small decks' cycles (random states) are their own mirror."""
    for counts in SMALL_DECKS:
        started = time.perf_counter()
        found, tries = small_cycles(counts, args.tries, args.seed, need_mirror=False)
        mirrors = [c for c in found if is_self_mirror(*c)]
        periods = sorted({describe(*c).split()[0] for c in mirrors})
        covers = {}
        for c in found:
            key = ("self-mirror" if is_self_mirror(*c) else "pair", cover_order(*c))
            covers[key] = covers.get(key, 0) + 1
        print(f"{Deck(counts).spec}: {tries:,} states, {len(found)} cycles, "
              f"{len(mirrors)} self-mirror {periods}, (kind, period / shape period): cycles "
              f"{sorted(covers.items())}, {time.perf_counter() - started:.1f}s", flush=True)


def run_twins(args):
    """States (A, A rotated by r), A every arrangement of half the camicia deck."""
    hand = np.repeat(np.arange(4, dtype=np.uint8), (14, 2, 2, 2))
    for shifts, reverse in (([0], False), (list(range(1, 20)), False),
                            (list(range(20)), True)):
        started = time.perf_counter()
        found = new_kept(100_000, 40, 2)
        counts = np.zeros(4, dtype=np.int64)
        kept = twin_states(hand, np.array(shifts, dtype=np.int64), reverse, args.limit,
                           np.zeros(0, np.int64), found, counts)
        mirrors = sum(is_self_mirror(*c) for c in kept_states(found, kept))
        print(f"shifts {shifts[0]}..{shifts[-1]}{' reversed' if reverse else ''}: "
              f"{counts[0]:,} states, {counts[1]} loops, {kept} cycles ({mirrors} self-mirror), "
              f"{time.perf_counter() - started:.1f}s")


def run_grow(args):
    """Self-mirror growth from small decks' self-mirror cycles, breadth first over sizes."""
    started = time.perf_counter()
    seeds = []
    for counts in [(8, 2, 3, 3, 0), (8, 2, 2, 2, 0), (10, 2, 2, 2, 0)]:
        found, _ = small_cycles(counts, args.tries, args.seed)
        seeds += found
    print(f"{len(seeds)} self-mirror seed cycles")
    levels, tries, history = mirror_growth(
        seeds, Deck.parse("camicia").counts, args.room, args.limit,
        need_mirror=not args.any_cycle, deadline=started + args.seconds)
    print(f"cycles per size {history}; {tries:,} tries, {time.perf_counter() - started:.0f}s")
    for hands, leader in levels.get(40, []):
        result = play_state(hands, leader)
        hit = (result.period_tricks, result.period_cards) in TARGETS
        print(("HIT " if hit else "") + describe(hands, leader))
    target = Deck.parse("camicia").counts
    skeletons = [c for n, cycles in levels.items() if n < 40 and (40 - n) % 2 == 0
                 for c in cycles if composition(c[0])[1:] == target[1:]]
    print(f"{len(skeletons)} cycles kept hold every penalty card and an even number of "
          f"plain cards less than the deck")
    for hands, leader in skeletons:
        run = (40 - sum(map(len, hands))) // 2
        started = time.perf_counter()
        grown, counts, states = grow_pairs([(hands, leader)], (0,) * run, 100, True, False,
                                           args.limit)
        print(f"   {describe(hands, leader)} padded with {run} plain cards in each hand "
              f"(every pair of places, either leader): {counts[0]:,} tries, {counts[1]} loops, "
              f"{counts[2]} self-mirror, {[describe(*c) for c in grown]}, "
              f"{time.perf_counter() - started:.0f}s")


def deletions(hands, longest):
    """States with two neighbouring cards or a run of 1..``longest`` equal cards taken out
    of one hand (the inverse of every block ``seeding`` grows by), or one card of a value
    taken out of each hand."""
    for hand in range(2):
        cards = hands[hand]
        for p in range(len(cards)):
            for k in range(1, longest + 1):
                if p + k > len(cards) or (k > 2 and len(set(cards[p:p + k])) != 1):
                    break
                smaller = [list(hands[0]), list(hands[1])]
                del smaller[hand][p:p + k]
                yield smaller
    for i, j in itertools.product(range(len(hands[0])), range(len(hands[1]))):
        if hands[0][i] == hands[1][j]:
            smaller = [list(hands[0]), list(hands[1])]
            del smaller[0][i]
            del smaller[1][j]
            yield smaller


def plain_runs(cards):
    """(start, length) of every run of plain cards of a hand, and (None, 0)."""
    runs = [(None, 0)]
    for p in range(len(cards)):
        for k in range(1, len(cards) - p + 1):
            if any(cards[p:p + k]):
                break
            runs.append((p, k))
    return runs


def value_family(hands, leader):
    """Cycles met by changing one card's value in a state of the cycle, then of each cycle
    so met, until no new one comes (the deck changes with each change)."""
    started = time.perf_counter()
    level, seen, tries = [(hands, leader)], {play_state(hands, leader).cycle}, 0
    while level:
        changed = []
        for cycle_hands, cycle_leader in level:
            for cards, lead in state_cycle(cycle_hands, cycle_leader):
                for hand, place, value in itertools.product(range(2), range(40), range(4)):
                    if place >= len(cards[hand]) or cards[hand][place] == value:
                        continue
                    other = [list(cards[0]), list(cards[1])]
                    other[hand][place] = value
                    for leading in (lead, 1 - lead):
                        tries += 1
                        result = play_state(other, leading)
                        if result.outcome == "loop" and result.cycle not in seen:
                            seen.add(result.cycle)
                            changed.append((other, leading))
        print(f"   one card's value changed in {len(level)} cycle(s): {len(changed)} new: "
              f"{[(describe(*c).split()[0], Deck(composition(c[0])).spec) for c in changed]}",
              flush=True)
        level = changed
    print(f"value changes: {tries:,} states tried, {len(seen)} cycles in the family, "
          f"{time.perf_counter() - started:.0f}s", flush=True)


def cycles_below(hands, leader, longest):
    """Cycles met by deleting a run or a pair (``deletions``) from the cycle's states, then
    from those cycles' states, until none loops."""
    started = time.perf_counter()
    level, seen, tries = [(hands, leader)], set(), 0
    while level:
        below = []
        for cycle_hands, cycle_leader in level:
            for cards, lead in state_cycle(cycle_hands, cycle_leader):
                for smaller in deletions(cards, longest):
                    if not smaller[0] or not smaller[1]:
                        continue
                    for leading in (lead, 1 - lead):
                        tries += 1
                        result = play_state(smaller, leading)
                        if result.outcome == "loop" and result.cycle not in seen:
                            seen.add(result.cycle)
                            below.append((smaller, leading))
        print(f"   one deletion from {len(level)} cycle(s): {len(below)} cycle(s) below "
              f"{[describe(*c) for c in below[:3]]}", flush=True)
        level = below
    print(f"deletions: {tries:,} states tried, {time.perf_counter() - started:.0f}s",
          flush=True)


def unpadded(states, fewest, most):
    """(states tried, loops) of ``states`` with a plain run (fewest..most cards in all)
    taken out of each hand: a loop would be a padded skeleton state."""
    tries = loops = 0
    for (first, second), lead in states:
        for (p, k), (q, m) in itertools.product(plain_runs(first), plain_runs(second)):
            if not fewest <= k + m <= most:
                continue
            smaller = [first if p is None else first[:p] + first[p + k:],
                       second if q is None else second[:q] + second[q + m:]]
            if smaller[0] and smaller[1]:
                for leading in (lead, 1 - lead):
                    tries += 1
                    loops += play_state(smaller, leading).outcome == "loop"
    return tries, loops


def run_isolation(args):
    """The reference cycle (Zanotto's deal): its fair deals, its penalty shape's period,
    its family under value changes, and whether any smaller deck's loop lies below it (the
    inverse of growth and of padding)."""
    from beggar_search.backward.closure import backward_closure
    from beggar_search.backward.reach import reach_state
    from beggar_search.cards.deck import parse_state

    hands, leader = parse_state(args.state)
    print(describe(hands, leader), "self-mirror" if is_self_mirror(hands, leader) else "")
    started = time.perf_counter()
    reached = reach_state(hands, leader, deck=Deck.parse("camicia"))
    print(f"reach: {reached.states} states, {len(reached.fair_deals)} fair deals, "
          f"{time.perf_counter() - started:.1f}s")
    ring = state_cycle(hands, leader)
    print(f"penalty shape (leader's hand first, penalty values merged) repeats every "
          f"{len(ring) // cover_order(hands, leader)} of {len(ring)} tricks", flush=True)
    value_family(hands, leader)
    cycles_below(hands, leader, args.longest)
    started = time.perf_counter()
    tries, loops = unpadded(ring, 2, 40)
    print(f"two plain runs (one per hand, 2+ cards) taken out of its cycle states: "
          f"{tries:,} states, {loops} loops, {time.perf_counter() - started:.0f}s", flush=True)
    started = time.perf_counter()
    store, _, _ = backward_closure(ring, 40, None, None, started)
    tries, loops = unpadded([store.hands_at(i) for i in range(store.count)], args.fewest,
                            args.most)
    print(f"two plain runs ({args.fewest}-{args.most} cards in all, one run per hand) taken "
          f"out of the {store.count} states of its in-tree: {tries:,} states, {loops} loops, "
          f"{time.perf_counter() - started:.0f}s")


def stream_hands(row, first, ahead, total):
    """The two hands (player 1 to lead) a stream found by ``stream_search`` starts from."""
    half = len(row)
    return [[int(row[i]) for i in range(first)],
            [int(row[(ahead + i) % half]) for i in range(total - first)]]


def stream_cycles(counts, half, budget, probes=0, seed=1, pairs=None):
    """Every self-mirror cycle whose half period lays ``half`` cards (player 1's hand no
    longer than what it lays in it, and so for player 2), by ``stream_search`` over every
    (first, ahead), or over ``pairs``.  Returns (cycles: id -> state, branch points, pairs
    searched through, pairs cut by ``budget``, Knuth's estimate of the trees summed)."""
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    found = np.zeros((64, half), dtype=np.int64)
    free = np.full(half, -1, dtype=np.int64)
    cycles, points, done, cut, estimate = {}, 0, 0, 0, 0.0
    if pairs is None:
        pairs = [(first, ahead) for first in range(1, total)
                 for ahead in range(first, half - (total - first) + 1)]
    for index, (first, ahead) in enumerate(pairs):
        if probes:
            for probe in range(probes):
                estimate += stream_search(half, first, ahead, counts, free, 0, found,
                                          np.zeros(2, dtype=np.int64),
                                          chunk_stream(seed, index, probe), True) / probes
            continue
        tally = np.zeros(2, dtype=np.int64)
        whole = stream_search(half, first, ahead, counts, free, budget, found, tally,
                              chunk_stream(seed, index), False)
        points += int(tally[0])
        done += whole == 1.0
        cut += whole == 0.0
        for row in found[: min(int(tally[1]), found.shape[0])]:
            hands = stream_hands(row, first, ahead, total)
            result = play_state(hands, 0)
            if result.outcome == "loop" and result.cycle not in cycles:
                cycles[result.cycle] = (hands, 0)
    return cycles, points, done, cut, estimate


def run_stream(args):
    """Self-mirror cycles by a search over one card stream: checked on the reference cycle,
    complete on a small deck against random states, its cost estimated on camicia."""
    from beggar_search.cards.deck import parse_state

    camicia = np.array(Deck.parse("camicia").counts, dtype=np.int64)
    hands, leader = parse_state(ZANOTTO)
    half = play_state(hands, leader).period_cards // 2
    started = time.perf_counter()
    met = []
    for cards, lead in state_cycle(hands, leader):
        if lead == 1:
            cards, lead = cards[::-1], 0
        first, second = len(cards[0]), len(cards[1])
        for ahead in range(first, half - second + 1):
            given = np.full(half, -1, dtype=np.int64)
            given[:first] = cards[0]
            for i in range(second):
                given[(ahead + i) % half] = cards[1][i]
            tally = np.zeros(2, dtype=np.int64)
            stream_search(half, first, ahead, camicia, given, 10**6,
                          np.zeros((1, half), dtype=np.int64), tally, chunk_stream(1, 0), False)
            if tally[1]:
                met.append((first, ahead))
    print(f"reference cycle, half period {half} cards: {len(met)} of its "
          f"{len(state_cycle(hands, leader))} states, each given, met ({len(set(met))} "
          f"(first, ahead) pairs), {time.perf_counter() - started:.1f}s")
    started = time.perf_counter()
    estimate = stream_cycles(camicia, half, 0, args.probes, pairs=sorted(set(met)))[4]
    print(f"  the free search at those pairs: about {estimate:.3g} branch points "
          f"(Knuth, {args.probes} probes a pair), {time.perf_counter() - started:.0f}s")
    for spec in args.decks:
        counts = Deck.parse(spec).counts
        random_found, tries = small_cycles(counts, args.tries, args.seed, need_mirror=False)
        wanted = {play_state(*c).cycle: c for c in random_found if is_self_mirror(*c)}
        halves = sorted({play_state(*c).period_cards // 2 for c in wanted.values()})
        for half in halves:
            started = time.perf_counter()
            cycles, points, done, cut, _ = stream_cycles(counts, half, args.budget)
            seconds = time.perf_counter() - started
            estimate = stream_cycles(counts, half, 0, args.probes)[4]
            mine = [c for c in wanted if play_state(*wanted[c]).period_cards // 2 == half]
            print(f"{Deck(counts).spec}, half period {half} cards: {len(cycles)} self-mirror "
                  f"cycles, {sum(c in cycles for c in mine)} of the {len(mine)} that "
                  f"{tries:,} random states met; {points:,} branch points (Knuth's "
                  f"estimate {estimate:,.0f}), "
                  f"{done} pairs searched through, {cut} cut, {seconds:.1f}s "
                  f"({points / seconds / 1e6:.1f} M a second)")
    for half in args.halves:
        started = time.perf_counter()
        estimate = stream_cycles(camicia, half, 0, args.probes)[4]
        print(f"camicia, half period {half} cards: about {estimate:.3g} branch points over "
              f"every (first, ahead) (Knuth, {args.probes} probes a pair), "
              f"{time.perf_counter() - started:.0f}s")


def run_shapes(args):
    """Random fair camicia states whose penalty shape comes back within --tricks tricks."""
    cards = np.repeat(np.arange(4, dtype=np.uint8), Deck.parse("camicia").counts[:4])
    found = np.zeros((10_000, 41), dtype=np.int64)
    counts = np.zeros(2, dtype=np.int64)
    started = time.perf_counter()
    shape_returns(chunk_stream(args.seed, 0), cards, args.tries, args.tricks, found, counts)
    loops = 0
    for k in range(min(int(counts[1]), found.shape[0])):
        sequence = found[k, :40].tolist()
        loops += play_state([sequence[:20], sequence[20:]], 0).outcome == "loop"
    print(f"{counts[0]:,} random fair states, {counts[1]} shape returns within {args.tricks} "
          f"tricks, {loops} of them loop, {time.perf_counter() - started:.0f}s")


def main():
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    fraction = sub.add_parser("fraction", help=run_fraction.__doc__)
    fraction.add_argument("--tries", type=int, default=1 << 20)
    fraction.add_argument("--seed", type=int, default=1)
    twins = sub.add_parser("twins", help=run_twins.__doc__)
    twins.add_argument("--limit", type=int, default=10**8, help="arrangements A at most")
    grow = sub.add_parser("grow", help=run_grow.__doc__)
    grow.add_argument("--tries", type=int, default=1 << 21, help="random small states a deck")
    grow.add_argument("--seed", type=int, default=1)
    grow.add_argument("--room", type=int, default=300, help="new cycles kept per step")
    grow.add_argument("--limit", type=int, default=5000, help="states a step starts from")
    grow.add_argument("--seconds", type=float, default=480)
    grow.add_argument("--any-cycle", action="store_true",
                      help="keep every cycle, not only self-mirror ones")
    isolation = sub.add_parser("isolation", help=run_isolation.__doc__)
    isolation.add_argument("--state", default=ZANOTTO)
    isolation.add_argument("--longest", type=int, default=6, help="longest run taken out")
    isolation.add_argument("--fewest", type=int, default=8,
                           help="fewest plain cards taken out of in-tree states")
    isolation.add_argument("--most", type=int, default=14,
                           help="most plain cards taken out of in-tree states")
    shapes = sub.add_parser("shapes", help=run_shapes.__doc__)
    shapes.add_argument("--tries", type=int, default=4_000_000)
    shapes.add_argument("--tricks", type=int, default=300)
    shapes.add_argument("--seed", type=int, default=7)
    relabelled = sub.add_parser("relabel", help=run_relabel.__doc__)
    relabelled.add_argument("--seed", type=int, default=1)
    relabelled.add_argument("--want", type=int, default=16, help="full-size cycles to seed")
    streams = sub.add_parser("stream", help=run_stream.__doc__)
    streams.add_argument("--tries", type=int, default=1 << 20,
                         help="random small states a deck, to compare with")
    streams.add_argument("--seed", type=int, default=1)
    streams.add_argument("--budget", type=int, default=10**9,
                         help="branch points a (first, ahead) pair at most")
    streams.add_argument("--probes", type=int, default=2000,
                         help="random paths a pair for Knuth's estimate")
    streams.add_argument("--decks", nargs="*",
                         default=["plain=8,J=2,Q=2,K=2", "plain=10,J=2,Q=2,K=2"],
                         help="small decks searched through, against random states")
    streams.add_argument("--halves", type=int, nargs="*", default=[78, 94],
                         help="camicia half periods (cards) to estimate")
    args = parser.parse_args()
    {"fraction": run_fraction, "twins": run_twins, "grow": run_grow,
     "isolation": run_isolation, "relabel": run_relabel, "shapes": run_shapes,
     "stream": run_stream}[args.what](args)



@kernel
def relabel_states(states, values, flip, known, found, counts):
    """Every state of ``states`` with its penalty cards (kept in place) given every
    arrangement of the penalty values ``values`` (sorted); with ``flip`` either leader.
    Keeps new cycles in ``found``; returns how many."""
    sequences, sizes, leaders = states
    n = sequences.shape[1]
    batch = new_tried(TRIED_BLOCK, n, 2, True)
    exact = new_exact(2)
    scratch = (np.zeros(n, dtype=np.uint8), np.zeros(2, dtype=np.int64))
    out = np.zeros(n, dtype=np.uint8)
    places = np.zeros(values.shape[0], dtype=np.int64)
    kept = 0
    count = 0
    for s in range(sequences.shape[0]):
        k = 0
        for p in range(n):
            if sequences[s, p] > 0:
                places[k] = p
                k += 1
        a = values.copy()
        out[:] = sequences[s]
        while True:
            for q in range(k):
                out[places[q]] = a[q]
            for lead in range(2 if flip else 1):
                leader = leaders[s] if lead == 0 else 1 - leaders[s]
                count = queue_tried(batch, count, out, sizes[s], leader, s, 0)
                if count == TRIED_BLOCK:
                    kept = flush(batch, count, exact, known, found, kept, counts, False,
                                 scratch)
                    count = 0
            if not next_permutation(a):
                break
    return flush(batch, count, exact, known, found, kept, counts, False, scratch)


@kernel
def same_shape(state, start, first, lead0):
    """Whether a state (``rules.State`` arrays) has the penalty places of the start state
    (cards ``start``, hand 1 of ``first`` cards, ``lead0`` leading), both read leader's hand
    first; penalty values ignored."""
    hands, head, size, info = state[0], state[1], state[2], state[5]
    leader = info[rules.I_LEADER]
    n = start.shape[0]
    lead_size = first if lead0 == 0 else n - first
    if size[leader] != lead_size:
        return False
    lead_start = 0 if lead0 == 0 else first
    other_start = first if lead0 == 0 else 0
    for i in range(lead_size):
        if (hands[leader, (head[leader] + i) & rules.RING] > 0) != (start[lead_start + i] > 0):
            return False
    other = 1 - leader
    for i in range(n - lead_size):
        if (hands[other, (head[other] + i) & rules.RING] > 0) != (start[other_start + i] > 0):
            return False
    return True


@kernel
def shape_returns(stream, cards, tries, most_tricks, found, counts):
    """Random states of ``cards`` (20/20 split, player 1 leading) played up to
    ``most_tricks`` tricks; a state whose penalty shape comes back (leader's hand first,
    values ignored) is kept in ``found`` (rows: the state, the tricks, ``counts[1]`` kept).
    ``counts``: [tries, shape returns]."""
    n = cards.shape[0]
    deck = cards.copy()
    sizes = np.zeros(2, dtype=np.int64)
    sizes[0] = n // 2
    sizes[1] = n - n // 2
    flat = np.zeros((2, rules.CAPACITY), dtype=np.uint8)
    state = rules.new_state(2)
    pile = rules.new_pile()
    for _ in range(tries):
        shuffle(deck, stream)
        counts[0] += 1
        flat[0, :sizes[0]] = deck[:sizes[0]]
        flat[1, :sizes[1]] = deck[sizes[0]:]
        rules.load_state(flat, sizes, 0, state[0], state[1], state[2], state[3], state[4],
                         state[5])
        for t in range(1, most_tricks + 1):
            rules.play_trick(state[0], state[1], state[2], state[3], state[4], state[5], pile)
            if state[5][rules.I_IN] == 1:
                break
            if same_shape(state, deck, sizes[0], 0):
                k = counts[1]
                if k < found.shape[0]:
                    found[k, :n] = deck
                    found[k, n] = t
                counts[1] += 1
                break


def relabel(cycles, room=10_000, flip=True):
    """Cycles met by giving the states of ``cycles`` every arrangement of their penalty
    values (penalty places kept)."""
    states = []
    for hands, leader in cycles:
        states.extend(state_cycle(hands, leader))
    n = sum(len(h) for h in states[0][0])
    values = np.array(sorted(c for c in sum(states[0][0], []) if c), dtype=np.uint8)
    found = new_kept(room, n, 2)
    counts = np.zeros(4, dtype=np.int64)
    kept = relabel_states(state_arrays(states, n, 2), values, flip, np.zeros(0, np.int64),
                          found, counts)
    return kept_states(found, kept), counts, len(states)


def run_relabel(args):
    """Every arrangement of the penalty values on the penalty places of every state of
    (a) the reference cycle, (b) the full-size cycles the ``grow`` seeding meets."""
    from beggar_search.cards.deck import parse_state
    from beggar_search.strategies.factory.seeding import skeleton_and_pad

    started = time.perf_counter()
    seeded = skeleton_and_pad(Deck.parse("camicia"), args.seed, want=args.want)
    print(f"skeleton and pad (seed {args.seed}): {len(seeded.states)} full-size cycles, "
          f"{time.perf_counter() - started:.0f}s")
    for name, cycles in (("reference cycle", [parse_state(ZANOTTO)]),
                         ("grow seeding's cycles", seeded.states)):
        started = time.perf_counter()
        found, counts, states = relabel(cycles)
        kinds = {}
        for hands, leader in found:
            result = play_state(hands, leader)
            key = (result.period_tricks, result.period_cards, is_self_mirror(hands, leader))
            kinds[key] = kinds.get(key, 0) + 1
        hits = [describe(*c) for c in found if is_self_mirror(*c)
                and tuple(map(int, describe(*c).split()[0].split("/"))) in TARGETS]
        print(f"{name}: {states} states, {counts[0]:,} relabelled, {counts[1]} loops, "
              f"{len(found)} cycles (period tricks, cards, self-mirror: count) "
              f"{sorted(kinds.items())}, targets met {hits}, {time.perf_counter() - started:.0f}s")


if __name__ == "__main__":
    main()
