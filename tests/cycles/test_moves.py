"""Moves as kernels: every move of a state, checked against a plain enumeration."""

from collections import Counter

import numpy as np
import pytest

from beggar_search.cycles import moves
from beggar_search.tunables import DEFAULT_EXCHANGES, MOVE_NAMES


def naive_moves(hands, leader, kinds, blocks, exchanges=DEFAULT_EXCHANGES):
    """Every state one move away, by kind, as (hands tuple, leader); duplicates kept."""
    players = len(hands)
    sequence = [c for hand in hands for c in hand]
    sizes = [len(h) for h in hands]
    found = []

    def keep(kind, new_hands, new_leader):
        new_hands = tuple(tuple(h) for h in new_hands)
        if any(not h for h in new_hands):
            return
        if new_hands == tuple(tuple(h) for h in hands) and new_leader == leader:
            return
        found.append((kind, new_hands, new_leader))

    def split(seq, sizes):
        out, start = [], 0
        for size in sizes:
            out.append(seq[start:start + size])
            start += size
        return out

    if "swap" in kinds:
        for i in range(len(sequence)):
            for j in range(i + 1, len(sequence)):
                if sequence[i] != sequence[j]:
                    s = list(sequence)
                    s[i], s[j] = s[j], s[i]
                    keep("swap", split(s, sizes), leader)
    lengths = ([1] if "card" in kinds else []) + (
        list(range(blocks[0], blocks[1] + 1)) if "block" in kinds else [])
    for length in lengths:
        if length >= len(sequence):
            continue
        kind = "card" if length == 1 else "block"
        for h in range(players):
            for i in range(len(hands[h]) - length + 1):
                rest = [list(x) for x in hands]
                block = rest[h][i:i + length]
                del rest[h][i:i + length]
                for q in range(players):
                    for pos in range(len(rest[q]) + 1):
                        new = [list(x) for x in rest]
                        new[q][pos:pos] = block
                        keep(kind, new, leader)
    if "leader" in kinds:
        for k in range(1, players):
            keep("leader", hands, (leader + k) % players)
    if "split" in kinds:
        for b in range(players - 1):
            low = sum(sizes[:b])
            high = low + sizes[b] + sizes[b + 1]
            for cut in range(low + 1, high):
                new_sizes = list(sizes)
                new_sizes[b], new_sizes[b + 1] = cut - low, high - cut
                keep("split", split(sequence, new_sizes), leader)
    if "exchange" in kinds:
        for length in range(exchanges[0], exchanges[1] + 1):
            for i in range(len(sequence) - length + 1):
                for j in range(i + length, len(sequence) - length + 1):
                    s = list(sequence)
                    s[i:i + length], s[j:j + length] = sequence[j:j + length], \
                        sequence[i:i + length]
                    keep("exchange", split(s, sizes), leader)
    return found


def kernel_moves(hands, leader, config):
    sequence = np.array([c for hand in hands for c in hand], dtype=np.uint8)
    sizes = np.array([len(h) for h in hands], dtype=np.int64)
    out = np.zeros_like(sequence)
    out_sizes = np.zeros_like(sizes)
    params = np.zeros(4, dtype=np.int64)
    found = []
    for index in range(moves.move_count(len(sequence), len(hands), config)):
        new_leader = moves.apply_move(sequence, sizes, leader, index, config, out, out_sizes,
                                      params)
        if new_leader < 0:
            continue
        new_hands, start = [], 0
        for size in out_sizes:
            new_hands.append(tuple(int(c) for c in out[start:start + size]))
            start += size
        found.append((MOVE_NAMES[params[3]], tuple(new_hands), int(new_leader)))
    return found


@pytest.mark.parametrize("hands,leader", [
    ([[0, 1, 0, 2], [0, 0, 3]], 0),
    ([[4, 0, 0], [1, 0, 2, 0, 0], [3, 0]], 2),
    ([[0, 0, 1, 0, 0, 2, 0], [0, 3, 0, 4, 0, 0, 1, 0]], 1),
])
@pytest.mark.parametrize("kinds,blocks", [
    (MOVE_NAMES, (2, 20)),
    (("exchange",), (2, 2)),
    (("block",), (3, 4)),
    (("swap", "split"), (2, 2)),
])
def test_kernel_moves_are_the_plain_enumeration(hands, leader, kinds, blocks):
    config = moves.move_config(kinds, blocks)
    assert Counter(kernel_moves(hands, leader, config)) == Counter(
        naive_moves(hands, leader, kinds, blocks))


def test_describe_move():
    config = moves.move_config(MOVE_NAMES[:-1])  # exchange, the last kind, left out
    assert moves.describe_move(10, 2, 0, config) == "swap 0 1"
    last = moves.move_count(10, 2, config) - 1
    assert moves.describe_move(10, 2, last, config) == "split 0 at 9"
    config = moves.move_config()  # the last move: the only two blocks of 5 in 10 cards
    last = moves.move_count(10, 2, config) - 1
    assert moves.describe_move(10, 2, last, config) == "exchange 5 at 0 and 5"


@pytest.mark.parametrize("spec", ["plain=8,J=2,Q=2,K=2,A=2", "plain=20,J=4,Q=4,K=4,A=4",
                                  "plain=36,J=4,Q=4,K=4,A=4"])
def test_moves_on_masks_are_apply_moves(spec):
    """Every move of random two-player states, on masks (``maskmoves``), gives the masks
    of the state ``apply_move`` gives, and no move where it gives none."""
    from beggar_search.cards.deck import Deck
    from beggar_search.cycles import kept as cycles
    from beggar_search.cycles import maskmoves
    from beggar_search.engine import bitboard

    deck = Deck.parse(spec)
    n = deck.size
    rng = np.random.default_rng(n)
    config = moves.move_config()
    counts = moves.kind_counts(n, 2, config)
    out = np.zeros(n, dtype=np.uint8)
    out_sizes = np.zeros(2, dtype=np.int64)
    params = np.zeros(4, dtype=np.int64)
    words, moved = np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64)
    total = int(moves.move_count(n, 2, config))
    for _ in range(3):
        sequence = rng.permutation(deck.sorted_cards())
        first, leader = int(rng.integers(1, n)), int(rng.integers(0, 2))
        sizes = np.array([first, n - first], dtype=np.int64)
        cycles.state_words(sequence, first, leader, words)
        for index in rng.choice(total, size=min(total, 20000), replace=False):
            new_leader = moves.apply_move(sequence, sizes, leader, index, config, out,
                                          out_sizes, params)
            ok = maskmoves.move_masks(words, n, index, config, counts, params, moved)
            assert ok == (new_leader >= 0), moves.describe_move(n, 2, index, config)
            if ok:
                assert tuple(moved) == (*bitboard.masks_from(out, 0, 0, 0, 0), out_sizes[0],
                                        new_leader)
                laid = (np.concatenate([out[out_sizes[0]:], out[:out_sizes[0]]])
                        if new_leader else out)
                assert cycles.laid_masks(moved, n) == (
                    *bitboard.masks_from(laid, 0, 0, 0, 0), out_sizes[new_leader])


def counted_off(n, index, row_first, second_offset):
    """The (first place, second place) of a swap or exchange numbered ``index`` by counting
    the rows of the triangle off one by one (the numbering ``decode_move`` keeps)."""
    i, row = 0, row_first
    while index >= row:
        index -= row
        i += 1
        row -= 1
    return i, i + second_offset + index


@pytest.mark.parametrize("n", [4, 9, 26, 52, 64])
def test_swap_and_exchange_numbers_decode_as_counted_off(n):
    config = moves.move_config(("swap", "exchange"), exchanges=(1, 6))
    counts = moves.kind_counts(n, 2, config)
    params = np.zeros(4, dtype=np.int64)
    swaps = moves.swap_places(n)  # the kicks' table of the same numbering
    assert swaps.shape == (counts[moves.M_SWAP], 2)
    for index in range(int(counts[moves.M_SWAP])):
        assert moves.decode_move(n, 2, index, config, params) == moves.M_SWAP
        assert (params[0], params[1]) == counted_off(n, index, n - 1, 1)
        assert tuple(swaps[index]) == (params[0], params[1])
    index = int(counts[moves.M_SWAP])
    for length in range(1, 7):
        pairs = max(n - 2 * length + 1, 0) * max(n - 2 * length + 2, 0) // 2
        for k in range(pairs):
            assert moves.decode_move(n, 2, index, config, params) == moves.M_EXCHANGE
            assert params[0] == length
            assert (params[1], params[2]) == counted_off(n, k, n - 2 * length + 1, length)
            index += 1
    assert index == moves.move_count(n, 2, config)
