"""Random numbers inside kernels: xoshiro256** with explicit state, seeded by SeedSequence.

Every chunk of a search gets its own stream, derived from the run's seed and the
chunk's number only, so results do not depend on how chunks are spread over workers.
"""

import numpy as np

from ..jit import inlined_kernel, kernel


def chunk_stream(seed: int, chunk: int, part: int = 0) -> np.ndarray:
    """The generator state (int64[4]) for chunk number ``chunk`` of a run seeded ``seed``
    (``part`` > 0: another stream of the same chunk, for a second kind of draw)."""
    key = (int(chunk),) if part == 0 else (int(chunk), int(part))
    sequence = np.random.SeedSequence(entropy=int(seed), spawn_key=key)
    state = sequence.generate_state(4, dtype=np.uint64).view(np.int64)
    if not state.any():  # xoshiro's one forbidden state
        state[0] = 1
    return state


@kernel
def _rotl(x, k):
    return (x << k) | ((x >> (64 - k)) & ((np.int64(1) << k) - 1))


@kernel
def next_u64(state):
    """The next 64 random bits (as int64) of xoshiro256**; advances ``state``."""
    result = _rotl(state[1] * 5, 7) * 9
    t = state[1] << 17
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@inlined_kernel
def xoshiro(s0, s1, s2, s3):
    """``next_u64`` on a state held in four variables: (the 64 bits, the next state)."""
    result = _rotl(s1 * 5, 7) * 9
    t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@inlined_kernel
def below_held(bits, bound, s0, s1, s2, s3):
    """``below_from`` on a state held in four variables: (the integer, the next state)."""
    low_mask = np.int64(0xFFFFFFFF)
    product = bits * bound
    low = product & low_mask
    if low < bound:
        threshold = ((low_mask + 1) - bound) % bound
        while low < threshold:
            word, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
            product = ((word >> 32) & low_mask) * bound
            low = product & low_mask
    return product >> 32, s0, s1, s2, s3


@kernel
def below_from(bits, bound, state):
    """A uniform integer in [0, bound) from 32 random ``bits`` (Lemire's method, unbiased).

    Redraws from ``state`` in the rare case the bits fall in the biased zone: ``below_held``
    on the array's state, written back.
    """
    value, s0, s1, s2, s3 = below_held(bits, bound, state[0], state[1], state[2], state[3])
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return value


@kernel
def below(state, bound):
    """A uniform integer in [0, bound), bound < 2**31 (the product of 32 bits and the
    bound is an int64)."""
    return below_from((next_u64(state) >> 32) & np.int64(0xFFFFFFFF), bound, state)


@kernel
def shuffle(cards, state):
    """Fisher-Yates shuffle of ``cards`` in place."""
    for i in range(cards.shape[0] - 1, 0, -1):
        j = below(state, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
