"""The bitboard kernels (engine/bitboard.py for 2 players, engine/bitboard_multi.py for 3 and
4) against the general engine, on every source of deals: random (both draws), consecutive
indices, and a given list."""

import hashlib
import zlib

import numpy as np
import pytest
from published import CASELLA

from beggar_search import Deal, Deck
from beggar_search.cards.deck import STANDARD, unrank_sequence
from beggar_search.engine import batch, bitboard, bits, rules
from beggar_search.engine.bitboard import DRAW_PLACES, DRAW_SHUFFLE, multi_for, wide_for
from beggar_search.engine.bits import PACK, PACK_MASK, S_LONG, S_WIN1
from beggar_search.engine.random import chunk_stream

LONGEST = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
SPLIT = np.array([26, 26], dtype=np.int64)
# decks of every shape the kernel takes: named, small, 64 cards, counts of 0, odd sizes,
# 31 penalty cards (the most the lockstep takes: ``MAX_VALUED``) in 64 cards, and more (the
# wide lockstep)
DECKS = ["standard", "camicia", "plain=10,J=2,Q=2,K=2,A=2", "plain=40,J=6,Q=6,K=6,A=6",
         "plain=20,Q=3,A=1", "plain=6,J=2,Q=1,K=1", "plain=25,J=4,K=4,A=4", "plain=5",
         "J=3,A=2", "plain=33,J=8,Q=8,K=8,A=7", "plain=32,J=8,Q=8,K=8,A=8",
         "plain=10,J=10,Q=10,K=10,A=10"]
N_DEALS = 10_000  # per deck, players and source
PLAYERS = (2, 3, 4)
CASES = [(spec, players) for spec in DECKS for players in PLAYERS]


def sequence(text: str) -> np.ndarray:
    return np.array(Deal.parse(text).sequence, dtype=np.uint8)


def seed_of(*key) -> int:
    return zlib.crc32("/".join(map(str, key)).encode())


def split_of(deck: Deck, players: int = 2) -> np.ndarray:
    return np.array(deck.split(players), dtype=np.int64)


def both(sequences, split=SPLIT, leader=0, max_tricks=0):
    fast = np.full((len(sequences), rules.RESULT_LEN), -7, dtype=np.int64)
    general = np.zeros_like(fast)
    bitboard.play_sequences(sequences, split, leader, max_tricks, fast)
    rules.play_sequences(sequences, split, leader, max_tricks, general)
    return fast, general


def assert_same_summary(fast, general, players):
    fast = batch.ChunkSummary.from_recorder(fast, players)
    general = batch.ChunkSummary.from_recorder(general, players)
    assert (fast.deals, fast.loops, fast.caps, fast.cards) == (
        general.deals, general.loops, general.caps, general.cards)
    for name in ("wins", "histogram", "top_positions", "top_rows", "top_deals",
                 "loop_positions", "loop_rows", "loop_deals"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(general, name), err_msg=name)


def general_recorder(deals, split, max_tricks, top_k):
    """The general engine's chunk over a given list of deals."""
    rows = np.zeros((len(deals), rules.RESULT_LEN), dtype=np.int64)
    rules.play_sequences(deals, split, 0, max_tricks, rows)
    return batch.record_rows(0, rows, deals, batch.new_recorder(top_k, deals.shape[1]))


@pytest.mark.parametrize(("spec", "players"), CASES)
def test_given_deals_any_split_any_leader(spec, players):
    deck = Deck.parse(spec)
    deals = bitboard.generate(chunk_stream(seed_of(spec), 0), N_DEALS, deck.sorted_cards())
    splits = {deck.split(players), (1,) * (players - 1) + (deck.size - players + 1,),
              (deck.size - players + 1,) + (1,) * (players - 1)}
    for split in sorted(splits):
        for leader in range(players):
            fast, general = both(deals, np.array(split, dtype=np.int64), leader)
            np.testing.assert_array_equal(fast, general, err_msg=f"{split} {leader}")


@pytest.mark.parametrize(("spec", "players"), CASES)
@pytest.mark.parametrize(("max_tricks", "top_k"), [(0, 25), (40, 5)])
def test_random_places_chunk_matches_general_engine(spec, players, max_tricks, top_k):
    deck = Deck.parse(spec)
    split = split_of(deck, players)
    stream = chunk_stream(seed_of(spec, players, max_tricks), 3)
    deals = bitboard.generate(stream.copy(), N_DEALS, deck.sorted_cards())
    fast = bitboard.random_chunk(stream, N_DEALS, deck.sorted_cards(), split, DRAW_PLACES,
                                 max_tricks, batch.new_recorder(top_k, deck.size),
                                 multi_for(split), wide_for(deck.sorted_cards()))  # as a search
    assert_same_summary(fast, general_recorder(deals, split, max_tricks, top_k), players)
    after = chunk_stream(seed_of(spec, players, max_tricks), 3)
    bitboard.generate(after, N_DEALS, deck.sorted_cards())
    np.testing.assert_array_equal(stream, after)  # advanced exactly as generate() advances it


@pytest.mark.parametrize(("spec", "players"), CASES)
def test_random_shuffle_chunk_is_the_general_engines_chunk(spec, players):
    """DRAW_SHUFFLE plays exactly batch.random_chunk's deals: runs stored as "general"."""
    deck = Deck.parse(spec)
    split = split_of(deck, players)
    fast_stream, general_stream = (chunk_stream(seed_of(spec, players), 5) for _ in range(2))
    fast = bitboard.random_chunk(fast_stream, N_DEALS, deck.sorted_cards(), split, DRAW_SHUFFLE,
                                 0, batch.new_recorder(20, deck.size))
    general = batch.random_chunk(general_stream, N_DEALS, deck.sorted_cards(), split, 0,
                                 batch.new_recorder(20, deck.size))
    assert_same_summary(fast, general, players)
    np.testing.assert_array_equal(fast_stream, general_stream)


@pytest.mark.parametrize(("spec", "players"), CASES)
def test_enumerated_chunk_matches_general_engine(spec, players):
    deck = Deck.parse(spec)
    split = split_of(deck, players)
    total = deck.count_deals()
    rng = np.random.default_rng(seed_of(spec, players))
    starts = {0, max(total - N_DEALS // 3, 0), min(int(rng.random() * total), total - 1)}
    for start in sorted(starts):
        first = unrank_sequence(start, deck)
        count = min(N_DEALS, total - start)
        fast = bitboard.enumerate_chunk(first, count, split, 0, batch.new_recorder(20, deck.size),
                                        multi_for(split), wide_for(first))  # as a search
        general = batch.enumerate_chunk(first, count, split, 0, batch.new_recorder(20, deck.size))
        assert_same_summary(fast, general, players)


def test_the_wide_lockstep_is_left_out_only_where_the_deck_fits_one_word():
    """``wide_for``: None (the kernels compile without the wide lockstep) for decks of at most
    ``MAX_VALUED`` penalty cards, the wide lockstep kept for more; the tests above play both
    through it as a search does."""
    assert bitboard.wide_for(Deck.parse("standard").sorted_cards()) is None
    assert bitboard.wide_for(Deck.parse("plain=33,J=8,Q=8,K=8,A=7").sorted_cards()) is None
    for spec in ("plain=32,J=8,Q=8,K=8,A=8", "plain=10,J=10,Q=10,K=10,A=10"):
        assert bitboard.wide_for(Deck.parse(spec).sorted_cards()) == bitboard.WIDE
    assert bitboard.MAX_VALUED == 31


def test_next_deal_steps_through_every_index():
    deck = Deck.parse("plain=4,J=2,Q=1,A=1")
    sequence = unrank_sequence(0, deck)
    for index in range(1, deck.count_deals()):
        changed = bitboard.next_deal(sequence)
        expected = unrank_sequence(index, deck)
        np.testing.assert_array_equal(sequence, expected)
        previous = unrank_sequence(index - 1, deck)
        assert changed == np.flatnonzero(previous != expected)[0]
    assert bitboard.next_deal(sequence) == -1


def test_published_games():
    fast, general = both(np.array([sequence(CASELLA), sequence(LONGEST)]))
    np.testing.assert_array_equal(fast, general)
    assert fast[0, rules.R_OUTCOME] == rules.LOOP
    assert (fast[0, rules.R_PRE_TRICKS], fast[0, rules.R_PERIOD_TRICKS]) == (4, 62)
    assert (fast[1, rules.R_CARDS], fast[1, rules.R_TRICKS]) == (8344, 1164)


def near_casella() -> np.ndarray:
    """Casella's deal, its hands swapped, and every deal one swap of two cards away."""
    base = sequence(CASELLA)
    deals = [base, np.concatenate([base[26:], base[:26]])]
    for i in range(52):
        for j in range(i + 1, 52):
            if base[i] != base[j]:
                swapped = base.copy()
                swapped[i], swapped[j] = base[j], base[i]
                deals.append(swapped)
    return np.array(deals, dtype=np.uint8)


def test_deals_around_the_casella_loop():
    deals = near_casella()
    for leader in (0, 1):
        fast, general = both(deals, leader=leader)
        np.testing.assert_array_equal(fast, general)
    for cap in (1, 40, 65, 66, 200):
        fast, general = both(deals[:300], max_tricks=cap)
        np.testing.assert_array_equal(fast, general)


@pytest.mark.parametrize("count", [0, 1, 5, 17, bitboard.BLOCK + 3])
def test_any_number_of_deals(count):
    deals = bitboard.generate(chunk_stream(count, 1), count, STANDARD.sorted_cards())
    fast, general = both(deals)
    np.testing.assert_array_equal(fast, general)


def test_an_empty_hand_is_the_general_engines_game():
    deals = bitboard.generate(chunk_stream(2, 2), 50, Deck.parse("plain=6,J=2").sorted_cards())
    for split in ([8, 0], [0, 8]):
        fast, general = both(deals, np.array(split, dtype=np.int64))
        np.testing.assert_array_equal(fast, general)


def test_long_games_are_exact_past_the_hand_over():
    fast, general = both(np.array([sequence(LONGEST)] * 3),
                         max_tricks=bitboard.LONG_TRICKS - 1)
    np.testing.assert_array_equal(fast, general)


def test_draw_gives_the_deals_stored_runs_hold():
    """DRAW_PLACES is part of a random run's identity: a seed's deals never change.  The
    digest is of the deals (and the stream after) drawn before the draw held its generator
    state in variables (commit 7e417bd)."""
    stream = chunk_stream(2026, 3)
    standard = bitboard.generate(stream, 20_000, STANDARD.sorted_cards())
    small = bitboard.generate(stream, 3000, Deck.parse("plain=10,J=2,Q=2,K=2,A=2").sorted_cards())
    digest = hashlib.sha256(standard.tobytes() + small.tobytes() + stream.tobytes()).hexdigest()
    assert digest == "92469b5393c66350e070e3a13e2a80cafbc447f1220fa78a1b4611337c9c1365"


def test_standard_draw_is_uniform():
    first = bitboard.generate(chunk_stream(3, 1), 4000, STANDARD.sorted_cards())
    again = bitboard.generate(chunk_stream(3, 1), 4000, STANDARD.sorted_cards())
    np.testing.assert_array_equal(first, again)
    for value in range(5):
        assert ((first == value).sum(axis=1) == (36 if value == 0 else 4)).all()
    # every place holds a penalty card with frequency 16/52
    frequency = (first > 0).mean(axis=0)
    assert np.abs(frequency - 16 / 52).max() < 0.035
    # each penalty value equally often at each place
    aces = (first == 4).mean(axis=0)
    assert np.abs(aces - 4 / 52).max() < 0.02


def test_every_deal_of_a_small_deck_is_drawn_equally_often():
    deck = Deck.parse("plain=3,J=1,K=2")  # 60 deals
    deals = bitboard.generate(chunk_stream(9, 0), 60_000, deck.sorted_cards())
    indices = [Deal.from_sequence(d, 2, deck).rank() for d in deals]
    counts = np.bincount(indices, minlength=60)
    assert counts.min() > 850 and counts.max() < 1150


@pytest.mark.slow
def test_a_million_random_deals():
    deals = bitboard.generate(chunk_stream(11, 0), 1_000_000, STANDARD.sorted_cards())
    fast, general = both(deals)
    np.testing.assert_array_equal(fast, general)


@pytest.mark.parametrize("form", ["hand_values", "values_by_loop", "values_by_bmi2"])
def test_hand_values_are_the_penalty_values_in_order(form):
    """``bits.hand_values``: each penalty card's (value - 1), 2 bits each, top card first; and
    both its forms, the loop and BMI2's pext and pdep (where the CPU has them, fast or slow):
    the one chosen for this CPU (``bits.FAST_BMI2``) must agree with the other's."""
    if form == "values_by_bmi2" and not bits.BMI2:
        pytest.skip("this CPU has no BMI2")
    hand_values = getattr(bits, form)
    rng = np.random.default_rng(5)
    for _ in range(300):
        size = int(rng.integers(1, 64))
        cards = rng.integers(0, 5, size=size)
        while np.count_nonzero(cards) > 32:
            cards[rng.integers(0, size)] = 0
        pen, lo, hi = bitboard.masks_from(cards.astype(np.uint8), 0, 0, 0, 0)
        expected = 0
        for ordinal, value in enumerate(int(v) for v in cards if v > 0):
            expected |= (value - 1) << (2 * ordinal)
        assert hand_values(pen, lo, hi) & (2 ** 64 - 1) == expected


@pytest.mark.parametrize("spec", ["standard", "camicia", "plain=10,J=2,Q=2,K=2,A=2",
                                  "plain=33,J=8,Q=8,K=8,A=7", "plain=32,J=8,Q=8,K=8,A=8",
                                  "plain=10,J=10,Q=10,K=10,A=10"])
def test_play_splits_plays_any_split_as_the_general_engine(spec):
    """States of every split (hand 1 leads): the packed results are the general engine's
    games, and games the kernel hands back as long are exactly the general engine's loops
    and games past the limit."""
    deck = Deck.parse(spec)
    total = deck.size
    rng = np.random.default_rng(seed_of("splits", spec))
    n = 4000
    sequences = np.array([rng.permutation(deck.sorted_cards())
                          for _ in range(n)])
    firsts = rng.integers(1, total, size=n + 1).astype(np.int64)
    if spec == "standard":  # a loop among them
        sequences[0], firsts[0] = sequence(CASELLA), 26
    pens, los, his, packed = bitboard.new_masks(n)
    for i in range(n):
        pens[i], los[i], his[i] = bitboard.masks_from(sequences[i], 0, 0, 0, 0)
    pens[n], los[n], his[n] = pens[0], los[0], his[0]
    limit = 300
    bitboard.play_splits(pens, los, his, firsts, n, total, limit, packed)
    row = np.zeros(rules.RESULT_LEN, dtype=np.int64)
    longs = 0
    for i in range(n):
        split = np.array([firsts[i], total - firsts[i]], dtype=np.int64)
        rules.play_sequences(sequences[i:i + 1], split, 0, 0, row[None, :])
        status = packed[i] >> (2 * PACK)
        if status == S_LONG:
            longs += 1
            assert row[rules.R_OUTCOME] == rules.LOOP or row[rules.R_TRICKS] >= limit
        else:
            assert row[rules.R_OUTCOME] == rules.WIN
            assert status - S_WIN1 + 1 == row[rules.R_WINNER]
            assert packed[i] & PACK_MASK == row[rules.R_CARDS]
            assert (packed[i] >> PACK) & PACK_MASK == row[rules.R_TRICKS]
    assert longs < n
    if spec == "standard":
        assert packed[0] >> (2 * PACK) == S_LONG  # Casella's loop goes to the exact engine
