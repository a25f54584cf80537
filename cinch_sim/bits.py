"""Bit tricks on 52-bit card masks, as LLVM intrinsics so they cost one instruction.

Jitted code only (the Python layer uses ``int.bit_count``).
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Number of set bits."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [args[0].type])
        r = builder.call(fn, [args[0]])
        width = args[0].type.width
        if width < 64:
            return builder.zext(r, ir.IntType(64))
        return r

    return sig, codegen


@intrinsic
def lowbit_index(typingctx, x):
    """Index of the lowest set bit (undefined for 0)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.cttz", [args[0].type, ir.IntType(1)])
        r = builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])
        width = args[0].type.width
        if width < 64:
            return builder.zext(r, ir.IntType(64))
        return r

    return sig, codegen


@intrinsic
def highbit_index(typingctx, x):
    """Index of the highest set bit (undefined for 0)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctlz", [args[0].type, ir.IntType(1)])
        r = builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])
        width = args[0].type.width
        if width < 64:
            r = builder.zext(r, ir.IntType(64))
        return builder.sub(ir.Constant(ir.IntType(64), width - 1), r)

    return sig, codegen


@njit(inline="always")
def bit(c):
    return np.uint64(1) << np.uint64(c)


@njit(inline="always")
def nth_set_bit(mask, n):
    """Index of the n-th (0-based) set bit of mask, counting from the lowest."""
    m = mask
    for _ in range(n):
        m &= m - np.uint64(1)
    return lowbit_index(m)
