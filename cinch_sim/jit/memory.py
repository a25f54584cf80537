"""Borrowed array views for the kernel's hot loop.

A numba slice carries a reference count, and every view made and dropped
costs two atomic operations: measured at about 17 ns per policy call, more
than the call itself. ``borrow`` makes a view with no reference count; the
kernel only borrows from arrays that outlive the view (its per-block buffers).
"""

from numba import types
from numba.core.cpu import CPUTargetOptions
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


@intrinsic
def borrow(typingctx, arr, start, length):
    """``arr[start:start + length]`` of a 1-D contiguous array, without a refcount."""
    if not (isinstance(arr, types.Array) and arr.ndim == 1 and arr.layout == "C"):
        return None
    rettype = arr.copy(layout="C", readonly=False)
    sig = rettype(arr, start, length)

    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        src = make_array(aty)(context, builder, value=args[0])
        first = context.cast(builder, args[1], signature.args[1], types.intp)
        n = context.cast(builder, args[2], signature.args[2], types.intp)
        out = make_array(rettype)(context, builder)
        itemsize = context.get_constant(
            types.intp, context.get_abi_sizeof(context.get_data_type(aty.dtype))
        )
        populate_array(
            out,
            data=builder.gep(src.data, [first]),
            shape=[n],
            strides=[itemsize],
            itemsize=itemsize,
            meminfo=None,
        )
        return out._getvalue()

    return sig, codegen


@intrinsic
def address(typingctx, arr):
    """The data pointer of a 1-D contiguous array: one machine word to pass where the
    array is seven; ``view_at(pointer, length)`` makes the view again."""
    if not (isinstance(arr, types.Array) and arr.ndim == 1 and arr.layout == "C"):
        return None
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):
        return make_array(signature.args[0])(context, builder, value=args[0]).data

    return sig, codegen


@intrinsic
def view_at(typingctx, pointer, length):
    """The 1-D array of ``length`` items at ``pointer`` (from ``address``), unowned:
    ``numba.carray`` without its compiled helper, which a function compiled without
    the reference-count runtime (``NO_REFCOUNT``) may not call."""
    if not isinstance(pointer, types.CPointer):
        return None
    rettype = types.Array(pointer.dtype, 1, "C")
    sig = rettype(pointer, length)

    def codegen(context, builder, signature, args):
        return _unowned(context, builder, rettype, args[0], args[1], signature.args[1])

    return sig, codegen


def _unowned(context, builder, rettype, data, length, length_type):
    """The codegen of an unowned 1-D C array of ``length`` items at ``data``."""
    out = make_array(rettype)(context, builder)
    size = context.get_abi_sizeof(context.get_data_type(rettype.dtype))
    itemsize = context.get_constant(types.intp, size)
    n = context.cast(builder, length, length_type, types.intp)
    populate_array(out, data=data, shape=[n], strides=[itemsize], itemsize=itemsize, meminfo=None)
    return out._getvalue()


@intrinsic
def address_word(typingctx, arr):
    """``address`` as an int64, to keep in an int64 array (a policy's scratch);
    ``words_at(word, length)`` makes the int64 view again."""
    if not (isinstance(arr, types.Array) and arr.ndim == 1 and arr.layout == "C"):
        return None
    if arr.dtype != types.int64:
        return None
    sig = types.int64(arr)

    def codegen(context, builder, signature, args):
        data = make_array(signature.args[0])(context, builder, value=args[0]).data
        return builder.ptrtoint(data, context.get_value_type(types.int64))

    return sig, codegen


@intrinsic
def words_at(typingctx, word, length):
    """The int64 array of ``length`` items at the address ``word`` (from
    ``address_word``), unowned."""
    if not isinstance(word, types.Integer):
        return None
    rettype = types.Array(types.int64, 1, "C")
    sig = rettype(word, length)

    def codegen(context, builder, signature, args):
        data = builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int64)))
        return _unowned(context, builder, rettype, data, args[1], signature.args[1])

    return sig, codegen


# numba's ``_nrt`` target option: a function compiled without the runtime emits no
# reference counting. The kernel's hand loop and the built-in policies allocate
# nothing and see only borrowed views, yet numba still called NRT_incref/decref
# for every array argument of every call (about 45 calls a hand in play_hand;
# dropping them bought about 8% on W2/W3, bit-identical). An older or newer numba
# without the option just keeps its refcounting.
NO_REFCOUNT = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}
