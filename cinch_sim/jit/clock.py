"""A monotonic clock for jitted code (numba has none in nopython mode).

``monotonic_ns`` calls the C library's ``clock_gettime(CLOCK_MONOTONIC)`` by name,
not through a ctypes pointer, so the functions that read it stay cacheable. For
time budgets only: anything that stops on a clock gives machine-dependent results.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

CLOCK_MONOTONIC = 1  # Linux's number for it


@intrinsic
def monotonic_ns(typingctx):
    """Nanoseconds of the monotonic clock (an arbitrary start): int64."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])
        ts = cgutils.alloca_once(builder, timespec)
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        builder.call(fn, [ir.Constant(ir.IntType(32), CLOCK_MONOTONIC), ts])
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)

    return sig, codegen
