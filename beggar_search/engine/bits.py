"""Bit tricks the bitboard kernels share: count trailing zeros, and a game's packed result."""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

# a game's packed result: cards | tricks << PACK | status << 2 * PACK
PACK = 20
PACK_MASK = (1 << PACK) - 1
S_LONG = 1  # played LONG_TRICKS (or the cap) without an end: the general engine replays it
S_WIN1 = 2  # S_WIN1 + p: player p (from 0) has won


@intrinsic
def cttz(typingctx, value):
    """Count trailing zero bits of an int64 (LLVM's cttz; 64 for 0)."""
    if not isinstance(value, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@intrinsic
def popcount(typingctx, value):
    """Count the bits set in an int64 (LLVM's ctpop)."""
    if not isinstance(value, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen
