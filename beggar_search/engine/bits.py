"""Bit tricks the bitboard kernels share: count trailing zeros, a game's packed result, cards
leaving a hand, laid on the pile and taken with it, a hand's penalty values in order; and the
hint that has LLVM vectorise the locksteps with 512-bit vectors."""

import contextlib
import platform

import numpy as np
from llvmlite import binding, ir
from numba import types
from numba.core import config
from numba.extending import intrinsic

from ..jit import inlined_kernel

# a game's packed result: cards | tricks << PACK | status << 2 * PACK
PACK = 20
PACK_MASK = (1 << PACK) - 1
S_LONG = 1  # played LONG_TRICKS (or the cap) without an end: the general engine replays it
S_WIN1 = 2  # S_WIN1 + p: player p (from 0) has won


def _zero_bits(end):
    """An intrinsic counting the zero bits of an int64 from its ``end`` ("trailing": the
    low end, LLVM's cttz; "leading": the high end, ctlz); 64 for 0."""
    build = {"trailing": "cttz", "leading": "ctlz"}[end]

    @intrinsic
    def count(typingctx, value):
        if not isinstance(value, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            return getattr(builder, build)(args[0], ir.Constant(ir.IntType(1), 0))

        return types.int64(types.int64), codegen

    return count


cttz = _zero_bits("trailing")  # a mask's lowest bit set
ctlz = _zero_bits("leading")  # a mask's highest bit set is ``63 - ctlz(mask)``


@intrinsic
def shr(typingctx, value, count):
    """``value`` shifted right by ``count`` (0 to 63), zeros shifted in (a logical shift:
    ``>>`` on an int64 copies the sign bit, which a mask of 64 places may hold)."""
    if not (isinstance(value, types.Integer) and isinstance(count, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        return builder.lshr(args[0], args[1])

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def prefer_wide_vectors(typingctx):
    """Mark the kernel that calls this (after Numba's inlining) to be vectorised with the
    widest vectors the CPU has: LLVM's ``"prefer-vector-width"="512"``.  LLVM's own choice
    on AVX-512 CPUs is 256 bits (``prefer-256-bit``, for the clock cost of 512-bit units on
    older chips); the lockstep's lane loop runs a quarter faster with 512 (measured on this
    project's Rocket Lake: 8 games a vector instead of 4).  A CPU without AVX-512 keeps its
    own widest (the attribute is a preference), and one without x86 ignores it."""

    def codegen(context, builder, signature, args):
        # llvmlite's FunctionAttributes takes only the attributes it knows by name; a string
        # attribute is written as LLVM IR spells it, past that check (a llvmlite where that
        # no longer works compiles the kernel without it: the same results, LLVM's width)
        with contextlib.suppress(TypeError, ValueError):
            set.add(builder.function.attributes, '"prefer-vector-width"="512"')
        return context.get_dummy_value()

    return types.none(), codegen


@intrinsic
def realign_stack(typingctx):
    """Mark the kernel that calls this to realign its stack frame (LLVM's ``"stackrealign"``):
    its spilled 512-bit vectors then sit on whole 64-byte lines.  The stack is only 16 bytes
    aligned at a call, and where it happened to be half a line off (a process's start
    decides it), every spill and reload spanned two lines: the 4-player step, which spills
    most, ran 1.10-1.18x slower in such processes (measured on a Rocket Lake, the lab's
    copies in four processes)."""

    def codegen(context, builder, signature, args):
        with contextlib.suppress(TypeError, ValueError):  # as prefer_wide_vectors
            set.add(builder.function.attributes, '"stackrealign"')
        return context.get_dummy_value()

    return types.none(), codegen


@inlined_kernel
def aligned_zeros(n):
    """``n`` int64 zeros from the start of a 64-byte cache line.  Numba allocates arrays 32
    bytes aligned, so a lockstep's state (a field's lanes read and written as 512-bit
    vectors) could start half a line in, every such load and store then spanning two lines
    (the 3- and 4-player step ran 1.05-1.10x slower so, in the processes where it did)."""
    raw = np.zeros(n + 8, dtype=np.int64)
    skip = ((-raw.ctypes.data) & 63) >> 3
    return raw[skip:skip + n]


@intrinsic
def popcount(typingctx, value):
    """Count the bits set in an int64 (LLVM's ctpop)."""
    if not isinstance(value, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


# CPUs that have BMI2 but run pext and pdep in microcode (AMD before Zen 3: tens to hundreds of
# cycles an instruction, by the mask's bits), where the loop over the penalty cards is faster:
# on a Zen 1 core `bench` played 1.07-1.08x the deals with the loop (2026-12-05, docs/results.md)
SLOW_BMI2 = ("znver1", "znver2", "bdver")


def _target() -> tuple[str, list[str] | None]:
    """The CPU Numba compiles for: its LLVM name and features (``+bmi2``, ``-avx512f``...), the
    host's unless ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` name another target (features
    None where a name is given alone); ("", None) off x86, where none of this applies."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return "", None
    name = config.CPU_NAME if config.CPU_NAME not in (None, "host") else None
    if config.CPU_FEATURES is not None:
        features = config.CPU_FEATURES
    elif name is not None:
        return name, None
    else:
        features = binding.get_host_cpu_features().flatten()
    return name or binding.get_host_cpu_name(), features.split(",")


def _has(features: list[str] | None, feature: str) -> bool:
    return features is not None and f"+{feature}" in features


_NAME, _FEATURES = _target()
# whether the target has BMI2 (``pext``, ``pdep``), and whether they are fast there (not in
# ``SLOW_BMI2``)
BMI2 = _has(_FEATURES, "bmi2")
FAST_BMI2 = BMI2 and not _NAME.startswith(SLOW_BMI2)
# The two-player fast path plays its games 16 at a time in vector lanes (``bitboard``'s
# lockstep) where the target has AVX-512, else one at a time with branches: on a Zen 1 core
# (AVX2 on 128-bit units) one at a time plays 1.9x the deals of the lockstep (2026-12-05,
# docs/results.md); on the AVX-512 CPU of the earlier figures the lockstep took 260-279 ns a
# deal, 2.4x less than a study's scalar engine of the same kind.  Frozen into the kernels.
LOCKSTEP = _has(_FEATURES, "avx512f")


def _bmi(name):
    @intrinsic
    def operation(typingctx, value, mask):
        """BMI2's pext or pdep on int64s (only on a target that has BMI2)."""

        def codegen(context, builder, signature, args):
            fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
            function = builder.module.declare_intrinsic(f"llvm.x86.bmi.{name}.64", fnty=fnty)
            return builder.call(function, args)

        return types.int64(types.int64, types.int64), codegen

    return operation


pext = _bmi("pext")
pdep = _bmi("pdep")
EVEN_BITS = np.int64(0x5555555555555555)
ODD_BITS = np.int64(-0x5555555555555556)  # 0xAAAA...AAAA


@inlined_kernel
def values_by_bmi2(pen, lo, hi):
    """``hand_values`` by BMI2's pext and pdep (only on a target that has BMI2)."""
    return pdep(pext(lo, pen), EVEN_BITS) | pdep(pext(hi, pen), ODD_BITS)


@inlined_kernel
def values_by_loop(pen, lo, hi):
    """``hand_values`` by a loop over the penalty cards (any target)."""
    values = np.int64(0)
    shift = np.int64(0)
    while pen != 0:
        place = cttz(pen)
        values |= (((lo >> place) & 1) | (((hi >> place) & 1) << 1)) << shift
        shift += 2
        pen &= pen - 1
    return values


# hand_values(pen, lo, hi): the (value - 1) of a hand's penalty cards (bit planes over its
# places), 2 bits each in the order they are laid: the first in bits 0-1 (at most 32 penalty
# cards).  BMI2's pext and pdep where the target has them fast (``FAST_BMI2``), else a loop over
# the penalty cards (the same values): chosen once, frozen into the kernels that call it.
hand_values = values_by_bmi2 if FAST_BMI2 else values_by_loop


@inlined_kernel
def take_pile(pen, lo, hi, n, ppen, plo, phi, pn, take):
    """A hand (bit planes ``pen lo hi``, ``n`` cards) with the pile (``ppen plo phi``,
    ``pn`` cards) put under it, first laid first out, where the mask ``take`` is all
    ones (-1); unchanged where it is 0.  Returns the hand's planes and size."""
    return (pen | ((ppen << n) & take), lo | ((plo << n) & take), hi | ((phi << n) & take),
            n + (pn & take))


@inlined_kernel
def clear_pile(ppen, plo, phi, pn, taken):
    """The pile emptied where the mask ``taken`` is all ones (-1)."""
    return ppen & ~taken, plo & ~taken, phi & ~taken, pn & ~taken


@inlined_kernel
def drop_top(pen, lo, hi, n, k):
    """A hand (bit planes ``pen lo hi``, ``n`` cards) without its top ``k`` cards."""
    return pen >> k, lo >> k, hi >> k, n - k


@inlined_kernel
def lay_on_pile(ppen, plo, phi, pn, laid, bit_lo, bit_hi):
    """The pile with one penalty card (value bits ``bit_lo bit_hi``) laid on it where
    ``laid`` is 1; unchanged where it is 0."""
    return ppen | (laid << pn), plo | ((laid & bit_lo) << pn), phi | ((laid & bit_hi) << pn), \
        pn + laid
