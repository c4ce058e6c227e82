"""Software prefetch of one table's slice of a batch array, for the kernels' loops over tables.

A step of one table touches a few cache lines in each of some thirty arrays
(:mod:`envs.batch.kernels`): the engine's and the observer's state of that
table, one slice per array. Walking the tables in order, that is thirty
streams at once, more than the hardware prefetcher follows, so each step
waits on memory for most of its lines. :func:`prefetch_table` asks for the
lines of a table a few iterations ahead, while the current table computes.

A prefetch is a hint: it changes no value and cannot fault (LLVM's
``llvm.prefetch``), so the kernels' results are the same with or without it.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba.core import cgutils, types
from numba.core.extending import intrinsic

__all__ = ["prefetch_table", "LINE"]

LINE = 64
"""Bytes per cache line."""


@intrinsic
def prefetch_table(typingctx: Any, arr: types.Array, t: types.Integer,  # type: ignore[no-untyped-def]
                   lines: types.Integer):
    """Prefetch (for writing) up to ``lines`` cache lines of ``arr[t]``, a C-contiguous array's
    slice along its first axis; nothing when ``t`` is past the first axis."""
    if not isinstance(arr, types.Array) or arr.layout != "C" or arr.ndim < 1:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        ary = context.make_array(signature.args[0])(context, builder, value=args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        count = context.cast(builder, args[2], signature.args[2], types.intp)
        rows = builder.extract_value(ary.shape, 0)
        stride = builder.extract_value(ary.strides, 0)
        intp = context.get_value_type(types.intp)
        byte_ptr = ir.IntType(8).as_pointer()
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_ptr, ir.IntType(32),
                                                            ir.IntType(32), ir.IntType(32)]),
            "llvm.prefetch.p0")
        inside = builder.and_(builder.icmp_signed(">=", index, intp(0)),
                              builder.icmp_signed("<", index, rows))
        with builder.if_then(inside, likely=True):
            start = builder.add(builder.ptrtoint(ary.data, intp), builder.mul(index, stride))
            span = builder.sdiv(builder.add(stride, intp(LINE - 1)), intp(LINE))
            total = builder.select(builder.icmp_signed("<", span, count), span, count)
            with cgutils.for_range(builder, total) as loop:
                address = builder.add(start, builder.mul(loop.index, intp(LINE)))
                builder.call(fn, [builder.inttoptr(address, byte_ptr), ir.IntType(32)(1),
                                  ir.IntType(32)(3), ir.IntType(32)(1)])
        return context.get_dummy_value()

    return types.none(arr, t, lines), codegen
