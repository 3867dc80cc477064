"""Moves as kernels: every move of a state, checked against a plain enumeration."""

from collections import Counter

import numpy as np
import pytest

from beggar_search.engine import moves


def naive_moves(hands, leader, kinds, blocks):
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
        found.append((moves.MOVE_NAMES[params[3]], tuple(new_hands), int(new_leader)))
    return found


@pytest.mark.parametrize("hands,leader", [
    ([[0, 1, 0, 2], [0, 0, 3]], 0),
    ([[4, 0, 0], [1, 0, 2, 0, 0], [3, 0]], 2),
    ([[0, 0, 1, 0, 0, 2, 0], [0, 3, 0, 4, 0, 0, 1, 0]], 1),
])
@pytest.mark.parametrize("kinds,blocks", [
    (moves.MOVE_NAMES, (2, 20)),
    (("block",), (3, 4)),
    (("swap", "split"), (2, 2)),
])
def test_kernel_moves_are_the_plain_enumeration(hands, leader, kinds, blocks):
    config = moves.move_config(kinds, blocks)
    assert Counter(kernel_moves(hands, leader, config)) == Counter(
        naive_moves(hands, leader, kinds, blocks))


def test_describe_move():
    config = moves.move_config()
    assert moves.describe_move(10, 2, 0, config) == "swap 0 1"
    last = moves.move_count(10, 2, config) - 1
    assert moves.describe_move(10, 2, last, config) == "split 0 at 9"
