"""Bit tricks on 52-bit card masks, as LLVM intrinsics so they cost one instruction.

Jitted code only (the Python layer uses ``int.bit_count``). ``deposit`` and
``extract`` are BMI2's pdep/pext where the CPU has them (one instruction, no
data-dependent branch); elsewhere a loop gives the same result (tested). numba
keys its disk cache on the CPU's features (``codegen.magic_tuple``), so a cache
never crosses between the two.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.registry import cpu_target
from numba.extending import intrinsic


def _has_bmi2() -> bool:
    try:
        return "+bmi2" in cpu_target.target_context.codegen()._tm_features
    except Exception:  # noqa: BLE001 - a numba without the attribute: use the loops
        return False


HAS_BMI2 = _has_bmi2()


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


def _bmi2_intrinsic(name):
    def impl(typingctx, x, m):
        sig = types.uint64(types.uint64, types.uint64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fn = builder.module.declare_intrinsic(name, fnty=ir.FunctionType(i64, [i64, i64]))
            return builder.call(fn, args)

        return sig, codegen

    return intrinsic(impl)


_pdep = _bmi2_intrinsic("llvm.x86.bmi.pdep.64")
_pext = _bmi2_intrinsic("llvm.x86.bmi.pext.64")


SUIT13 = np.uint64((1 << 13) - 1)  # one suit's 13 cards at the low end of a mask


@njit(inline="always")
def bit(c):
    """The mask of card c."""
    return np.uint64(1) << np.uint64(c)


@njit(inline="always")
def has(mask, c):
    """Whether card c is in mask."""
    return ((mask >> np.uint64(c)) & np.uint64(1)) != np.uint64(0)


@njit(inline="always")
def suit_mask(s):
    """The mask of suit s's 13 cards (cards.suit_mask is its plain-Python twin)."""
    return SUIT13 << np.uint64(13 * s)


@njit(inline="always")
def deposit_loop(x, mask):
    """pdep without BMI2: the low bits of x, placed in order at the set bits of mask."""
    out = np.uint64(0)
    m = np.uint64(mask)
    k = np.uint64(0)
    while m:
        low = m & (~m + np.uint64(1))
        if (np.uint64(x) >> k) & np.uint64(1):
            out |= low
        m ^= low
        k += np.uint64(1)
    return out


@njit(inline="always")
def extract_loop(x, mask):
    """pext without BMI2: the bits of x at mask's set bits, packed to the low end."""
    out = np.uint64(0)
    m = np.uint64(mask)
    k = np.uint64(0)
    while m:
        low = m & (~m + np.uint64(1))
        if np.uint64(x) & low:
            out |= np.uint64(1) << k
        m ^= low
        k += np.uint64(1)
    return out


@njit(inline="always")
def deposit_bmi2(x, mask):
    return _pdep(np.uint64(x), np.uint64(mask))


@njit(inline="always")
def extract_bmi2(x, mask):
    return _pext(np.uint64(x), np.uint64(mask))


# pdep/pext: the low bits of x placed at mask's set bits / mask's bits of x packed low
deposit = deposit_bmi2 if HAS_BMI2 else deposit_loop
extract = extract_bmi2 if HAS_BMI2 else extract_loop


@njit(inline="always")
def nth_set_bit(mask, n):
    """Index of the n-th (0-based) set bit of mask, counting from the lowest."""
    return lowbit_index(deposit(np.uint64(1) << np.uint64(n), mask))
