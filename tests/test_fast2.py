"""The fast standard-deck kernel (engine/fast2.py) against the general engine."""

import numpy as np
import pytest
from published import CASELLA, NESSLER

from beggar_search import Deal
from beggar_search.deck import STANDARD
from beggar_search.engine import batch, fast2, rules
from beggar_search.engine.random import chunk_stream

STANDARD_CARDS = STANDARD.sorted_cards()


def sequence(text: str) -> np.ndarray:
    deal = Deal.parse(text)
    return np.array([card for hand in deal.hands for card in hand], dtype=np.uint8)


def random_sequences(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    deals = [rng.permutation(STANDARD_CARDS) for _ in range(count)]
    return np.array(deals, dtype=np.uint8).reshape(count, 52)


def both(sequences: np.ndarray, max_tricks: int = 0):
    fast = np.full((len(sequences), rules.RESULT_LEN), -7, dtype=np.int64)
    general = np.zeros_like(fast)
    fast2.play_sequences(sequences, max_tricks, fast)
    rules.play_sequences(sequences, fast2.SPLIT, 0, max_tricks, general)
    return fast, general


def test_random_deals_agree_with_general_engine():
    fast, general = both(random_sequences(20000, seed=1))
    np.testing.assert_array_equal(fast, general)


@pytest.mark.parametrize("count", [0, 1, 5, 17, fast2.BLOCK + 3])
def test_any_number_of_deals(count):
    fast, general = both(random_sequences(count, seed=count))
    np.testing.assert_array_equal(fast, general)


def test_published_games():
    fast, general = both(np.array([sequence(CASELLA), sequence(NESSLER)]))
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
    fast, general = both(deals)
    np.testing.assert_array_equal(fast, general)
    for cap in (1, 40, 65, 66, 200):
        fast, general = both(deals[:300], max_tricks=cap)
        np.testing.assert_array_equal(fast, general)


def test_random_caps():
    rng = np.random.default_rng(7)
    sequences = random_sequences(3000, seed=8)
    for cap in rng.integers(1, 120, size=6):
        fast, general = both(sequences, max_tricks=int(cap))
        np.testing.assert_array_equal(fast, general)


def test_long_games_are_exact_past_the_hand_over():
    fast, general = both(np.array([sequence(NESSLER)] * 3), max_tricks=fast2.LONG_TRICKS - 1)
    np.testing.assert_array_equal(fast, general)


def test_generate_is_deterministic_and_valid():
    first = fast2.generate(chunk_stream(3, 1), 4000)
    again = fast2.generate(chunk_stream(3, 1), 4000)
    np.testing.assert_array_equal(first, again)
    for value in range(5):
        assert ((first == value).sum(axis=1) == (36 if value == 0 else 4)).all()
    # every place holds a penalty card with frequency 16/52
    frequency = (first > 0).mean(axis=0)
    assert np.abs(frequency - 16 / 52).max() < 0.035
    # each penalty value equally often at each place
    aces = (first == 4).mean(axis=0)
    assert np.abs(aces - 4 / 52).max() < 0.02


def general_summary(deals: np.ndarray, max_tricks: int, top_k: int):
    recorder = batch.new_recorder(top_k, 52)
    flat = np.zeros((2, rules.CAPACITY), dtype=np.uint8)
    row = np.zeros(rules.RESULT_LEN, dtype=np.int64)
    scratch = rules.new_scratch(2)
    for position, deal in enumerate(deals):
        rules.deal_out(deal, fast2.SPLIT, flat)
        rules.play_game_with(flat, fast2.SPLIT, 0, max_tricks, row, scratch)
        recorder = batch.record(position, row, deal, recorder)
    return batch.ChunkSummary.from_recorder(recorder, 2)


@pytest.mark.parametrize(("seed", "n_deals", "max_tricks", "top_k"),
                         [(1, 20000, 0, 25), (2, 5000, 60, 10), (3, 300, 0, 0), (4, 0, 0, 5)])
def test_random_chunk_summary_matches_general_engine(seed, n_deals, max_tricks, top_k):
    deals = fast2.generate(chunk_stream(seed, 9), n_deals)
    stream = chunk_stream(seed, 9)
    recorder = fast2.random_chunk(stream, n_deals, max_tricks, batch.new_recorder(top_k, 52))
    fast = batch.ChunkSummary.from_recorder(recorder, 2)
    general = general_summary(deals, max_tricks, top_k)
    assert (fast.deals, fast.loops, fast.caps, fast.cards) == (
        general.deals, general.loops, general.caps, general.cards)
    np.testing.assert_array_equal(fast.wins, general.wins)
    np.testing.assert_array_equal(fast.histogram, general.histogram)
    for name in ("top_positions", "top_rows", "top_deals", "loop_positions", "loop_rows",
                 "loop_deals"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(general, name), err_msg=name)
    # the stream advanced exactly as generate() advances it
    np.testing.assert_array_equal(stream, _advanced(seed, n_deals))


def _advanced(seed: int, n_deals: int) -> np.ndarray:
    stream = chunk_stream(seed, 9)
    fast2.generate(stream, n_deals)
    return stream


@pytest.mark.slow
def test_a_million_random_deals():
    deals = fast2.generate(chunk_stream(11, 0), 1_000_000)
    fast, general = both(deals)
    np.testing.assert_array_equal(fast, general)
