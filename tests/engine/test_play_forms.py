"""The two forms of the bitboard kernels' play, which the CPU chooses between (``bits.LOCKSTEP``):
16 games in lockstep (vector lanes, where the CPU has AVX-512) and one game at a time with
branches (elsewhere).  Whichever this CPU plays is checked against the general engine by
``test_bitboard.py``; here the other is checked against it, game for game."""

import zlib

import numpy as np
import pytest
from published import CASELLA

from beggar_search import Deal, Deck
from beggar_search.engine import bitboard, bitboard_multi, bits
from beggar_search.engine.bits import PACK, S_LONG, S_WIN1
from beggar_search.engine.random import chunk_stream

# one worker: the form this CPU does not play compiles for these tests alone, once
pytestmark = pytest.mark.xdist_group("play_forms")


@pytest.mark.parametrize("spec", ["standard", "camicia", "plain=10,J=2,Q=2,K=2,A=2",
                                  "plain=6,J=2,Q=1,K=1", "plain=25,J=4,K=4,A=4",
                                  "plain=32,J=8,Q=8,K=8,A=8", "J=3,A=2"])
def test_both_forms_of_the_narrow_play_give_the_same_games(spec):
    """The lockstep (16 games in vector lanes, where the CPU has AVX-512) and the games one at
    a time (elsewhere) give the same packed results, on any split, either leader, cards and
    tricks already played, and small trick limits: whichever this CPU plays is checked
    against the general engine by test_bitboard.py, the other against it here."""
    assert bitboard.play_narrow is (bitboard.lockstep_block if bits.LOCKSTEP
                                    else bitboard.one_by_one_block)
    deck = Deck.parse(spec)
    total = deck.size
    rng = np.random.default_rng(zlib.crc32(f"narrow/{spec}".encode()))
    n = 3000
    sequences = np.array([rng.permutation(deck.sorted_cards()) for _ in range(n)])
    if spec == "standard":
        sequences[0] = Deal.parse(CASELLA).sequence
    pens, los, his, _ = bitboard.new_masks(n)
    for i in range(n):
        pens[i], los[i], his[i] = bitboard.masks_from(sequences[i], 0, 0, 0, 0)
    pens[n], los[n], his[n] = pens[0], los[0], his[0]
    firsts = rng.integers(1, total, size=n + 1).astype(np.int64)
    firsts[: n // 2] = total // 2
    starts = np.where(rng.random(n + 1) < 0.5, 0,
                      rng.integers(0, 200, size=n + 1) | (rng.integers(0, 40, size=n + 1)
                                                           << PACK)).astype(np.int64)
    statuses = set()
    for leader in (0, 1):
        for limit in (0, 3, 40, 1500):
            lockstep = np.full(n + 1, -7, dtype=np.int64)
            one_by_one = np.full(n + 1, -7, dtype=np.int64)
            bitboard.lockstep_block(pens, los, his, firsts, starts, n, total, leader, limit,
                                    lockstep)
            bitboard.one_by_one_block(pens, los, his, firsts, starts, n, total, leader, limit,
                                      one_by_one)
            np.testing.assert_array_equal(one_by_one[:n], lockstep[:n],
                                          err_msg=f"leader {leader}, limit {limit}")
            statuses |= set((lockstep[:n] >> (2 * PACK)).tolist())
    assert statuses == {S_LONG, S_WIN1, S_WIN1 + 1}  # games past the limit, won by either


@pytest.mark.parametrize("spec", ["standard", "camicia", "plain=10,J=2,Q=2,K=2,A=2",
                                  "plain=6,J=2,Q=1,K=1", "plain=40,J=6,Q=6,K=6", "J=3,A=2"])
def test_both_forms_of_the_multi_player_play_give_the_same_games(spec):
    """3 and 4 players until two are left in: the lockstep and the games one at a time give
    the same packed results and the same ends (hands, leader's size, cards and tricks
    played, the two players, by deal; the lockstep lists them as its lanes finish), every
    leader, small trick limits; whichever this CPU plays is checked against the general
    engine by test_bitboard.py, the other against it here."""
    assert bitboard_multi.play_block is (bitboard_multi.lockstep_block if bits.LOCKSTEP
                                         else bitboard_multi.one_by_one_block)
    deck = Deck.parse(spec)
    n = 2000
    deals = bitboard.generate(chunk_stream(zlib.crc32(f"multi/{spec}".encode()), 0), n,
                              deck.sorted_cards())
    pens, los, his, _ = bitboard.new_masks(n)
    for i in range(n):
        pens[i], los[i], his[i] = bitboard.masks_from(deals[i], 0, 0, 0, 0)
    pens[n], los[n], his[n] = pens[0], los[0], his[0]
    outcomes = set()
    for players in (3, 4):
        split = np.array(deck.split(players), dtype=np.int64)
        for leader in range(players):
            for limit in (1, 5, 40, 1500):
                games = []
                for form in (bitboard_multi.lockstep_block, bitboard_multi.one_by_one_block):
                    packed = np.full(n + 1, -7, dtype=np.int64)
                    ends = bitboard_multi.new_ends(n)
                    count = form(pens, los, his, n, split, leader, limit, packed, ends)
                    e_pens, e_los, e_his, firsts, starts, ids, by_deal, _ = ends
                    order = np.argsort(by_deal[:count])
                    rows = np.vstack([a[:count][order] for a in
                                     (by_deal, e_pens, e_los, e_his, firsts, starts)]
                                    + [ids[:2 * count].reshape(-1, 2)[order].T])
                    games.append((packed[:n], rows))
                (packed, rows), (other_packed, other_rows) = games
                where = f"{players} players, leader {leader}, limit {limit}"
                np.testing.assert_array_equal(other_packed, packed, err_msg=where)
                np.testing.assert_array_equal(other_rows, rows, err_msg=where)
                outcomes |= set((packed[packed != -7] >> (2 * PACK)).tolist())
                outcomes.add("two left" if rows.shape[1] else "none left two")
    assert {S_LONG, S_WIN1, "two left"} <= outcomes, outcomes
