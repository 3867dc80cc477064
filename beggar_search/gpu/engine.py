"""The GPU engine: sweeps of two-player deals played by a CUDA kernel, recorded as on the CPU.

``--device gpu`` (``search random``, ``search enumerate``, ``bench``) plays a chunk's
deals here instead of on the CPU's bitboard lockstep, with the same results field for
field.  A chunk goes block by block (``GPU_BLOCK`` deals):

1. the CPU draws the block's deals from the chunk's stream exactly as the CPU engine
   does (``bitboard.fill_random`` with the run's draw, or ``bitboard.fill_enumerated``
   for an index range): the stream is sequential (a draw may take more random words than
   another), so the deals are drawn where the CPU draws them and shipped as masks;
2. the device plays every deal to ``bitboard.fast_limit(max_tricks)`` tricks
   (``gpu/play.py``, one game per thread, no cycle detection) and sends back the
   packed results, the same as ``bitboard.play_block`` gives;
3. the CPU records them with ``bitboard.record_played``, the CPU path's own recording:
   counts, histogram, leaderboard, and every game past the limit replayed from the start
   by the general engine (cycle detection, loops, the agreed cap).

numba-cuda is optional (the ``[gpu]`` extra); ``NUMBA_ENABLE_CUDASIM=1`` runs the kernel
on Numba's CUDA simulator (slow, pure Python: a few hundred deals), which is how the
tests check it without a device.  See docs/gpu.md for the design and its figures.
"""

from __future__ import annotations

import importlib.util
import os

import numpy as np

from ..errors import UserError

CPU, GPU = "cpu", "gpu"
DEVICES = (CPU, GPU)
GPU_BLOCK = 1 << 22  # deals per kernel launch (32 MB of masks up, 32 MB of results down)
# the persistent grid: the blocks of 256 threads one multiprocessor holds at once (ptxas
# gives the kernel 54 registers a thread on sm_80 and sm_90, no spills: 4 blocks of 256)
BLOCKS_PER_SM = 4
INSTALL_HINT = "pip install 'beggar-search[gpu]'"


def simulated() -> bool:
    """Whether Numba's CUDA simulator stands in for a device (``NUMBA_ENABLE_CUDASIM=1``)."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")


def unavailable_reason() -> str | None:
    """Why ``--device gpu`` cannot run here (one line), or None when it can."""
    if importlib.util.find_spec("numba_cuda") is None:
        return f"--device gpu needs numba-cuda, which is not installed: {INSTALL_HINT}"
    from numba import cuda

    if not cuda.is_available():
        return ("--device gpu: no CUDA GPU is usable here (numba.cuda.is_available() is false;"
                " set NUMBA_ENABLE_CUDASIM=1 for the slow simulator)")
    return None


def check_device(device: str, players: int, ers: bool = False) -> None:
    """Refuse ``device`` for this workload (a ``UserError``: one line, exit 2) unless it
    can play it: the CPU plays everything, the GPU two players of Beggar-my-neighbour."""
    if device == CPU:
        return
    if device not in DEVICES:
        raise UserError(f"unknown device {device!r}: one of {', '.join(DEVICES)}")
    if ers:
        raise UserError("--device gpu plays Beggar-my-neighbour only: drop --game ers")
    if players != 2:
        raise UserError(f"--device gpu plays 2 players only, not {players}")
    reason = unavailable_reason()
    if reason:
        raise UserError(reason)


class DevicePlayer:
    """The device's arrays for blocks of up to ``block`` deals, and the kernel that plays them
    between the two hands of ``split`` (player 1 leads) to ``limit`` tricks.

    ``DevicePlayer.played`` counts the deals this process has played on the device (the
    identity check reads it: the GPU path was taken, not the CPU's).
    """

    played = 0

    def __init__(self, block: int, split: np.ndarray, limit: int):
        from numba import cuda

        from . import play

        self.cuda, self.play_deals = cuda, play.play_deals
        self.first, self.total = int(split[0]), int(split.sum())
        self.limit = int(limit)
        self.masks = [cuda.device_array(block + 1, dtype=np.int64) for _ in range(3)]
        self.packed = cuda.device_array(block + 1, dtype=np.int64)
        try:
            processors = cuda.get_current_device().MULTIPROCESSOR_COUNT
        except AttributeError:  # the simulator's device has no such attribute
            processors = 1
        self.blocks = max(1, int(processors)) * BLOCKS_PER_SM
        self.grid_blocks = play.grid_blocks

    def play(self, pens: np.ndarray, los: np.ndarray, his: np.ndarray, size: int,
             packed: np.ndarray) -> None:
        """Play deals 0..size-1 of the masks; their packed results into ``packed[:size]``."""
        self.load(pens, los, his, size)
        self.run(size)
        self.fetch(size, packed)

    def load(self, pens: np.ndarray, los: np.ndarray, his: np.ndarray, size: int) -> None:
        """Copy deals 0..size-1 of the masks to the device."""
        for host, device in zip((pens, los, his), self.masks, strict=True):
            device[:size].copy_to_device(host[:size])

    def run(self, size: int) -> None:
        """Play the ``size`` deals loaded (returns once the device has played them)."""
        from .play import THREADS_PER_BLOCK

        blocks = self.grid_blocks(size, self.blocks)
        self.play_deals[blocks, THREADS_PER_BLOCK](*self.masks, size, self.first, self.total,
                                                   0, self.limit, self.packed)
        self.cuda.synchronize()

    def fetch(self, size: int, packed: np.ndarray) -> None:
        """The packed results of the ``size`` deals played, into ``packed[:size]``."""
        packed[:size] = self.packed[:size].copy_to_host()
        DevicePlayer.played += size


def _block(n_deals: int) -> int:
    return max(1, min(GPU_BLOCK, int(n_deals)))


def random_chunk(stream, n_deals, sorted_cards, split, draw, max_tricks, recorder):
    """``bitboard.random_chunk`` with the games played on the GPU: the same deals (drawn from
    ``stream`` by ``draw``), the same recorder; two players only."""
    from ..engine import bitboard

    total = sorted_cards.shape[0]
    order = np.arange(total)
    kinds = bitboard.penalty_kinds(sorted_cards)
    sequence = sorted_cards.copy()
    block = _block(n_deals)
    pens, los, his, _ = bitboard.new_masks(block)
    scratch = bitboard.new_scratch(total, split.shape[0], block)
    player = DevicePlayer(block, split, bitboard.fast_limit(max_tricks))
    for base in range(0, n_deals, block):
        size = min(block, n_deals - base)
        bitboard.fill_random(stream, draw, order, kinds, sequence, pens, los, his, size)
        player.play(pens, los, his, size, scratch[3])
        recorder = bitboard.record_played(pens, los, his, size, base, split, 0, max_tricks,
                                          scratch, recorder)
    return recorder


def enumerate_chunk(first_sequence, n_deals, split, max_tricks, recorder):
    """``bitboard.enumerate_chunk`` with the games played on the GPU (two players only)."""
    from ..engine import bitboard

    sequence = first_sequence.copy()
    block = _block(n_deals)
    pens, los, his, _ = bitboard.new_masks(block)
    scratch = bitboard.new_scratch(sequence.shape[0], split.shape[0], block)
    player = DevicePlayer(block, split, bitboard.fast_limit(max_tricks))
    for base in range(0, n_deals, block):
        size = min(block, n_deals - base)
        bitboard.fill_enumerated(sequence, base > 0, pens, los, his, size)
        player.play(pens, los, his, size, scratch[3])
        recorder = bitboard.record_played(pens, los, his, size, base, split, 0, max_tricks,
                                          scratch, recorder)
    return recorder


def play_masks(pens: np.ndarray, los: np.ndarray, his: np.ndarray, split: np.ndarray,
               limit: int) -> np.ndarray:
    """Packed results of the deals ``pens, los, his`` played on the GPU to ``limit`` tricks
    (what ``bitboard.play_block`` gives): for the identity checks and the benchmark."""
    size = len(pens)
    player = DevicePlayer(size, split, limit)
    packed = np.zeros(size + 1, dtype=np.int64)
    player.play(pens, los, his, size, packed)
    return packed[:size]
