"""Random perturbations of states, as kernels: the hunter's, random states, and kicks.

- ``perturb_chunk``: the hunter's try (a swap of two cards of different values, a shift of
  the split by one card, or both, of a random seed state), or a random state (any split,
  any leader) when there are no seeds; played by the exact engine.
- ``kick_chunk``: the factory's kicks, compound perturbations of random states of known
  cycles: ``k`` random moves (``KICK_NAMES``: swaps, single cards, blocks of ``KICK_BLOCKS``
  cards, exchanges of two such blocks, or a mix of them), then the split moved by up to
  ``shift`` cards either way; played in batches on the fast kernel (``cycles.play_tried``).

Every try is drawn from the chunk's stream, so a chunk is a pure function of its seed and
its seed states.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..engine import rules
from ..engine.exact import masks_apply, play_exact
from ..engine.random import below, shuffle
from ..jit import inlined_kernel, kernel
from ..tunables import KICK_BLOCKS, KICK_NAMES
from . import moves
from .kept import (
    N_WORDS,
    TRIED_BLOCK,
    W_FIRST,
    KeptCycles,
    StateRows,
    is_new_cycle,
    keep_cycle,
    keep_new_cycles,
    new_exact,
    new_kept,
    new_tried,
    play_tried,
    queue_tried,
    queue_words,
    state_words,
)
from .maskmoves import apply_masks

# kick kinds (``tunables.KICK_NAMES``): the moves a kick is made of
K_SWAPS, K_CARDS, K_BLOCKS, K_EXCHANGES, K_MIXED = range(len(KICK_NAMES))
# a kick's config (int64[4]): its kind, fewest and most moves, the largest split shift
KC_KIND, KC_MIN, KC_MAX, KC_SHIFT = range(4)
# the moves a kick draws from: moves.apply_move's numbering under this config
KICK_MOVES = moves.move_config(("swap", "card", "block", "exchange"), KICK_BLOCKS, KICK_BLOCKS)


def kick_config(kind: str, fewest: int, most: int, shift: int) -> np.ndarray:
    """The config array of a kick: its kind name, how many moves, the largest split shift."""
    return np.array([KICK_NAMES.index(kind), fewest, most, shift], dtype=np.int64)


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
def perturb_chunk(stream, cards, seeds, known, tries, found, counts):
    """Perturb seed states (``StateRows``) ``tries`` times; keep one state of each cycle not
    in ``known`` (sorted keys) in ``found`` (``KeptCycles``; places are try numbers).

    With no seeds, every try is a random state of the deck ``cards`` instead.
    ``counts`` receives [tries, loops met, new cycles met] and the number kept is returned.
    """
    return perturb_chunk_for(stream, cards, seeds, known, tries, found, counts,
                             new_exact(seeds.sizes.shape[1]))


@kernel
def perturb_chunk_for(stream, cards, seeds, known, tries, found, counts, exact):
    """``perturb_chunk`` of the game of ``exact`` (``engine.exact``): where its two-player
    states take masks (Beggar-my-neighbour: ``masks_apply``, as the kicks decide), played on
    the bitboard kernel (``perturb_chunk_fast``: the same results); else by that exact
    engine (``perturb_chunk_with``)."""
    if seeds.sizes.shape[1] == 2 and masks_apply(exact):
        return perturb_chunk_fast(stream, cards, seeds, known, tries, found, counts)
    return perturb_chunk_with(stream, cards, seeds, known, tries, found, counts, exact)


@inlined_kernel
def _perturbed(seeds, sequence, sizes, stream):
    """The next try of ``perturb_chunk``, drawn into ``sequence`` and ``sizes``: a seed
    state perturbed, or a random state when there are no seeds; returns its leader."""
    players = sizes.shape[0]
    if seeds.sequences.shape[0] == 0:
        _random_state(sequence, sizes, stream)
        return below(stream, players)
    s = below(stream, seeds.sequences.shape[0])
    sequence[:] = seeds.sequences[s]
    sizes[:] = seeds.sizes[s]
    move = below(stream, 4)
    if move != 1:
        _swap(sequence, stream)
    if move == 1 or move == 2:
        _shift(sizes, stream)
    if move == 3:
        _swap(sequence, stream)
    return seeds.leaders[s]


@kernel
def perturb_chunk_with(stream, cards, seeds, known, tries, found, counts, exact):
    """``perturb_chunk`` played by the exact engine of ``exact``'s game (``engine.exact``)."""
    players = seeds.sizes.shape[1]
    sequence = cards.copy()
    sizes = np.empty(players, dtype=np.int64)
    kept = 0
    for attempt in range(tries):
        leader = _perturbed(seeds, sequence, sizes, stream)
        rules.deal_out(sequence, sizes, exact.flat)
        play_exact(exact, sizes, leader)
        counts[0] += 1
        if exact.row[rules.R_OUTCOME] != rules.LOOP:
            continue
        counts[1] += 1
        key = exact.row[rules.R_CYCLE]
        if not is_new_cycle(known, found.keys, kept, key):
            continue
        counts[2] += 1
        kept = keep_cycle(found, kept, key, sequence, sizes, leader, attempt, -1)
    return kept


@kernel
def perturb_chunk_fast(stream, cards, seeds, known, tries, found, counts):
    """``perturb_chunk`` for two players of Beggar-my-neighbour: the same tries (the same
    draws, in the same order) played in batches on the bitboard kernel (``kept.play_tried``),
    the exact engine replaying only the games it hands back (loops and the very long); the
    same cycles kept in the same order, with the same try numbers, and the same ``counts``."""
    sequence = cards.copy()
    sizes = np.empty(2, dtype=np.int64)
    exact = new_exact(2)
    tried = new_tried(TRIED_BLOCK, cards.shape[0], 2, True)
    queued = 0
    kept = 0
    for attempt in range(tries):
        leader = _perturbed(seeds, sequence, sizes, stream)
        queued = queue_tried(tried, queued, sequence, sizes, leader, attempt, -1)
        counts[0] += 1
        if queued == TRIED_BLOCK or attempt == tries - 1:
            play_tried(tried, queued, exact, True)
            kept, new = keep_new_cycles(tried, queued, known, found, kept, counts)
            counts[2] += new
            queued = 0
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
                        tries: int, room: int, exact=None) -> RandomCycles:
    """``tries`` random states of the deck ``cards`` (any split, any leader); one state of
    each cycle not in ``known`` (sorted keys) they met, ``room`` at most.  ``exact``: the
    exact engine's scratch of the game to play (``engine.exact``; Beggar-my-neighbour's
    when None); two players of Beggar-my-neighbour are played on the bitboard kernel
    (``perturb_chunk_for``)."""
    n = len(cards)
    found = new_kept(room, n, players)
    counts = np.zeros(3, dtype=np.int64)
    no_seeds = StateRows(np.zeros((0, n), dtype=np.uint8),
                         np.zeros((0, players), dtype=np.int64), np.zeros(0, dtype=np.int64))
    kept = perturb_chunk_for(stream, cards, no_seeds, known, tries, found, counts,
                             new_exact(players) if exact is None else exact)
    return RandomCycles(found.sequences[:kept], found.sizes[:kept], found.leaders[:kept],
                        found.places[:kept], int(counts[0]), int(counts[1]))


# ---- kicks -------------------------------------------------------------------------------

@kernel
def _kick_move(kind, sequence, sizes, leader, stream, out, out_sizes, params):
    """One random move of a kick of kind ``kind`` applied to the state, in place; False
    when none applied (a draw that is no move, eight times)."""
    n = sequence.shape[0]
    players = sizes.shape[0]
    if kind == K_MIXED:
        kind = below(stream, K_MIXED)
    if kind == K_SWAPS:
        return _swap(sequence, stream)
    move_kind = moves.M_CARD
    if kind == K_BLOCKS:
        move_kind = moves.M_BLOCK
    elif kind == K_EXCHANGES:
        move_kind = moves.M_EXCHANGE
    first = np.int64(0)
    for k in range(move_kind):
        first += moves.kind_count(k, n, players, KICK_MOVES)
    count = moves.kind_count(move_kind, n, players, KICK_MOVES)
    if count == 0:
        return False
    for _ in range(8):
        index = first + below(stream, count)
        if moves.apply_move(sequence, sizes, leader, index, KICK_MOVES, out, out_sizes,
                            params) >= 0:
            sequence[:] = out
            sizes[:] = out_sizes
            return True
    return False


@kernel
def _shift_by(sizes, stream, most):
    """Move one split (a random one between neighbours) by -most..most cards, keeping every
    hand one card or more."""
    if most <= 0:
        return
    players = sizes.shape[0]
    cut = below(stream, players - 1)
    delta = below(stream, 2 * most + 1) - most
    if sizes[cut] + delta >= 1 and sizes[cut + 1] - delta >= 1:
        sizes[cut] += delta
        sizes[cut + 1] -= delta


@kernel
def kick(seeds, config, stream, sequence, sizes, out, out_sizes, params):
    """Draw a seed state and kick it into ``sequence`` and ``sizes`` (``config``:
    ``kick_config``; the leader stays); returns the seed's row."""
    s = below(stream, seeds.sequences.shape[0])
    sequence[:] = seeds.sequences[s]
    sizes[:] = seeds.sizes[s]
    leader = seeds.leaders[s]
    count = config[KC_MIN] + below(stream, config[KC_MAX] - config[KC_MIN] + 1)
    for _ in range(count):
        _kick_move(config[KC_KIND], sequence, sizes, leader, stream, out, out_sizes, params)
    _shift_by(sizes, stream, config[KC_SHIFT])
    return s


@kernel
def _move_kind(kind, stream):
    """The ``moves`` kind of one move of a kick of kind ``kind`` (a mixed kick draws it)."""
    if kind == K_MIXED:
        kind = below(stream, K_MIXED)
    if kind == K_SWAPS:
        return moves.M_SWAP
    if kind == K_CARDS:
        return moves.M_CARD
    if kind == K_BLOCKS:
        return moves.M_BLOCK
    return moves.M_EXCHANGE


@kernel
def _kick_words(seeds, config, stream, n, counts, swaps, params, words, moved):
    """Draw a two-player seed state (rows of ``cycles.state_words``) and kick it into
    ``words``, its moves made on masks (``maskmoves``): as ``kick`` does on cards, a swap
    drawn again until its cards differ (64 draws at most), any other move 8.  ``swaps``:
    ``moves.swap_places(n)``, the swaps' places by number.  Returns the seed's row."""
    s = below(stream, seeds.shape[0])
    for k in range(N_WORDS):  # (a slice copy: 13 ns, about the loop's whole move)
        words[k] = seeds[s, k]
    count = config[KC_MIN] + below(stream, config[KC_MAX] - config[KC_MIN] + 1)
    for _ in range(count):
        move_kind = _move_kind(config[KC_KIND], stream)
        first = np.int64(0)
        for k in range(move_kind):
            first += counts[k]
        if counts[move_kind] == 0:
            continue
        for _ in range(64 if move_kind == moves.M_SWAP else 8):
            index = below(stream, counts[move_kind])
            if move_kind == moves.M_SWAP:  # the decode's numbering, read from its table
                kind = moves.M_SWAP
                params[0], params[1] = swaps[index, 0], swaps[index, 1]
            else:
                kind = moves.decode_counted(n, 2, first + index, KICK_MOVES, counts, params)
            if apply_masks(words, n, kind, params, moved):
                for k in range(N_WORDS):
                    words[k] = moved[k]
                break
    most = config[KC_SHIFT]
    if most > 0:  # the split moved by -most..most cards, each hand keeping one or more
        delta = below(stream, 2 * most + 1) - most
        if 1 <= words[W_FIRST] + delta <= n - 1:
            words[W_FIRST] += delta
    return s


@kernel
def kick_chunk(stream, seeds, config, known, tries, found, counts, fast):
    """Kick seed states (``StateRows``) ``tries`` times and play them; keep one state of each
    cycle not in ``known`` in ``found`` (``KeptCycles``: places are try numbers, ``moves``
    the row of the seed kicked; at most its room).  ``counts`` gets [tries, loops met, new
    cycles met]; returns the number kept.

    ``fast``: two players, played on the bitboard kernel (see ``cycles.play_tried``).
    """
    return kick_chunk_with(stream, seeds, config, known, tries, found, counts, fast,
                           new_exact(seeds.sizes.shape[1]))


@kernel
def _queue_called(tried, queued, sequence, sizes, leader, move, slot):
    """``queue_tried`` as a call, for the kicks' branch of states kicked on cards (ratscrew,
    three or four players): inlined there (``queue_tried`` is, since ``e975fd0``), its code
    slowed the masks' branch of the same loop, two players' kicks, 1.4x (docs/factory.md)."""
    return queue_tried(tried, queued, sequence, sizes, leader, move, slot)


@kernel
def kick_chunk_with(stream, seeds, config, known, tries, found, counts, fast, exact):
    """``kick_chunk`` played by the exact engine of ``exact``'s game (``engine.exact``):
    Egyptian ratscrew's states are kicked on cards, never on masks, and ``fast`` must be
    False for them."""
    players = seeds.sizes.shape[1]
    n = seeds.sequences.shape[1]
    sequence = np.zeros(n, dtype=np.uint8)
    sizes = np.zeros(players, dtype=np.int64)
    out = np.zeros(n, dtype=np.uint8)
    out_sizes = np.zeros(players, dtype=np.int64)
    params = np.zeros(4, dtype=np.int64)
    # two players of Beggar-my-neighbour: kicked on masks, whichever engine plays them
    masked = players == 2 and masks_apply(exact)
    tried = new_tried(TRIED_BLOCK, n, players, masked)
    seed_words = np.zeros((seeds.sequences.shape[0] if masked else 0, N_WORDS),
                          dtype=np.int64)
    for s in range(seed_words.shape[0]):
        state_words(seeds.sequences[s], seeds.sizes[s, 0], seeds.leaders[s], seed_words[s])
    counts_of = moves.kind_counts(n, players, KICK_MOVES)
    swaps = moves.swap_places(n if masked else 0)
    words = np.zeros(N_WORDS, dtype=np.int64)
    moved = np.zeros(N_WORDS, dtype=np.int64)
    kept = 0
    queued = 0
    for attempt in range(tries):
        if masked:
            s = _kick_words(seed_words, config, stream, n, counts_of, swaps, params, words,
                            moved)
            queued = queue_words(tried, queued, words, attempt, s)
        else:
            s = kick(seeds, config, stream, sequence, sizes, out, out_sizes, params)
            queued = _queue_called(tried, queued, sequence, sizes, seeds.leaders[s], attempt,
                                   s)
        if queued == TRIED_BLOCK or attempt == tries - 1:
            play_tried(tried, queued, exact, fast)
            counts[0] += queued
            kept, new = keep_new_cycles(tried, queued, known, found, kept, counts)
            counts[2] += new
            queued = 0
    return kept


__all__ = ["KeptCycles", "RandomCycles", "kick_chunk",
           "kick_chunk_with", "kick_config", "perturb_chunk", "perturb_chunk_with",
           "perturb_chunk_fast", "perturb_chunk_for", "random_state_cycles"]
