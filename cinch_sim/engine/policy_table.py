"""Policies handed to the kernel as a table of addresses, not as function objects.

numba unboxes a first-class function argument by calling back into Python for
its two addresses, on every kernel call: for the 24 plug-point slots that was
most of a call's fixed cost (about 0.15 ms, paid again by every thread's range).
The kernel takes instead a uint64 table, two addresses a slot (numba's C
wrapper and its own-callconv function, exactly what that unboxing reads), and
``policy_at`` rebuilds the function value where a policy is called. A call goes
through the own-callconv address, so a user policy's exception still reaches
Python as before.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

from cinch_sim.signatures import POLICY_TYPE

ADDRESSES = 2  # per slot: the C wrapper's address, then the function's own


@intrinsic
def policy_at(typingctx, table, slot):
    """The policy function of ``slot`` in a flat uint64 address table."""
    if not (isinstance(table, types.Array) and table.ndim == 1 and table.dtype == types.uint64):
        return None
    sig = POLICY_TYPE(table, slot)

    def codegen(context, builder, signature, args):
        arr = make_array(signature.args[0])(context, builder, value=args[0])
        first = builder.mul(
            context.cast(builder, args[1], signature.args[1], types.intp),
            context.get_constant(types.intp, ADDRESSES),
        )
        second = builder.add(first, context.get_constant(types.intp, 1))
        voidptr = context.get_value_type(types.voidptr)
        fn = cgutils.create_struct_proxy(POLICY_TYPE)(context, builder)
        fn.c_addr = builder.inttoptr(builder.load(builder.gep(arr.data, [first])), voidptr)
        fn.py_addr = voidptr(None)  # never boxed: the kernel only calls it
        fn.jit_addr = builder.inttoptr(builder.load(builder.gep(arr.data, [second])), voidptr)
        return fn._getvalue()

    return sig, codegen
