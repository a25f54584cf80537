"""Branch-probability hints for jitted code (LLVM's ``llvm.expect``).

The kernel's hot loops share a body with rare paths: a user policy's call,
a broken policy's error exit, the trace written only for records. Telling
LLVM which side is rare lets its register allocator keep the hot path's
values in registers and move the spills around the rare calls instead.
"""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def unlikely(typingctx, cond):
    """``cond``, with the hint that it is almost always false."""
    if not isinstance(cond, types.Boolean):
        return None
    sig = types.boolean(cond)

    def codegen(context, builder, signature, args):
        i1 = ir.IntType(1)
        fn = builder.module.declare_intrinsic("llvm.expect", fnty=ir.FunctionType(i1, [i1, i1]))
        return builder.call(fn, [args[0], ir.Constant(i1, 0)])

    return sig, codegen
