"""The kernels' random stream: the generator held in variables (``xoshiro``, ``below_held``)
gives exactly what the one in an array gives (``next_u64``, ``below_from``)."""

import numba
import numpy as np

from beggar_search.engine.random import below_from, below_held, chunk_stream, next_u64, xoshiro


@numba.njit
def _words_held(state, n, out):
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(n):
        out[i], s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@numba.njit
def _words(state, n, out):
    for i in range(n):
        out[i] = next_u64(state)


@numba.njit
def _draws_held(state, bounds, out):
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(bounds.shape[0]):
        word, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        out[i], s0, s1, s2, s3 = below_held((word >> 32) & np.int64(0xFFFFFFFF), bounds[i],
                                            s0, s1, s2, s3)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@numba.njit
def _draws(state, bounds, out):
    for i in range(bounds.shape[0]):
        out[i] = below_from((next_u64(state) >> 32) & np.int64(0xFFFFFFFF), bounds[i], state)


def test_held_generator_gives_the_same_words():
    held, array = chunk_stream(5, 1), chunk_stream(5, 1)
    words_held, words = np.zeros(1000, dtype=np.int64), np.zeros(1000, dtype=np.int64)
    _words_held(held, 1000, words_held)
    _words(array, 1000, words)
    np.testing.assert_array_equal(words_held, words)
    np.testing.assert_array_equal(held, array)
    assert len(set(words.tolist())) == 1000


def test_held_draws_give_the_same_integers_redraws_included():
    # bounds just past 2**30 redraw about a quarter of the time (Lemire's biased zone); the
    # int64 product of 32 bits and the bound holds bounds below 2**31
    bounds = np.array([2, 3, 52, 37, (1 << 30) + 1, (1 << 30) + 3, (1 << 31) - 1] * 300,
                      dtype=np.int64)
    held, array = chunk_stream(6, 0), chunk_stream(6, 0)
    drawn_held, drawn = np.zeros(len(bounds), dtype=np.int64), np.zeros(len(bounds), np.int64)
    _draws_held(held, bounds, drawn_held)
    _draws(array, bounds, drawn)
    np.testing.assert_array_equal(drawn_held, drawn)
    np.testing.assert_array_equal(held, array)  # the redraws consumed the same words
    assert ((drawn >= 0) & (drawn < bounds)).all()
    plain = chunk_stream(6, 0)  # one word a draw, no redraws: the redraw path was taken
    _words(plain, len(bounds), np.zeros(len(bounds), dtype=np.int64))
    assert held.tolist() != plain.tolist()


def _lemire(words, bounds):
    """Lemire's unbiased draw in plain Python, on a list of xoshiro words: the reference the
    kernels' draws are checked against."""
    mask, stream, out = 0xFFFFFFFF, iter(words), []
    for bound in bounds:
        product = ((next(stream) >> 32) & mask) * bound
        if (product & mask) < bound:
            threshold = ((mask + 1) - bound) % bound
            while (product & mask) < threshold:
                product = ((next(stream) >> 32) & mask) * bound
        out.append(product >> 32)
    return out


def test_draws_are_lemire_s_redraws_included():
    bounds = [2, 3, 52, 37, (1 << 30) + 1, (1 << 30) + 3, (1 << 31) - 1] * 300
    words = np.zeros(4 * len(bounds), dtype=np.int64)
    _words(chunk_stream(6, 0), len(words), words)
    drawn = np.zeros(len(bounds), dtype=np.int64)
    _draws(chunk_stream(6, 0), np.array(bounds, dtype=np.int64), drawn)
    assert drawn.tolist() == _lemire(words.tolist(), bounds)
