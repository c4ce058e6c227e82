"""Many arrays behind one small array: how the compiled functions hand a table (or the observer) on.

numba passes an array argument as its whole descriptor (data pointer, shape,
strides and three more words). A table is ten arrays
(:mod:`envs.batch.kernels_table`: the rules vector ``r``, the bet ladder
``lad``, ``tt``, ``se``, ``hf``, ``cd``, ``pile``, ``disc``, the generator
``g`` and the row buffer ``rows``), the batch observer two dozen
(:mod:`envs.batch.obs_kernels`), so a call that hands them over pushes one
to three hundred words on the stack, and a step makes dozens of calls. perf,
one thread, random play: ``push`` instructions were the largest share of the
compiled code's time, more than the rules' own work.

A *handle* is one int64 array holding each array's data address and shape.
``pack_*`` writes it, ``*_arrays`` rebuilds the arrays (views of the same
memory) from it, and a call passes the handle alone. Both are numba
intrinsics: a few stores and loads, inlined where they are called.

* :func:`pack_table` / :func:`table_arrays`: one table, :data:`TABLE_HANDLE`
  entries, packed by a kernel for each table it moves (the ten arrays are
  that table's slices of the batch's);
* :func:`pack_observer` / :func:`observer_arrays`: the batch observer's
  arrays, :data:`OBSERVER_HANDLE` entries, packed once per kernel call.

A handle holds raw addresses: it is valid only while the arrays it was packed
from are alive and unmoved, so a kernel packs it from the arrays it was given,
uses it within that call and never keeps it. Each array must have the dtype
and dimensions of its place in the layout and be C-contiguous (a batch array's
slice along its first axis is); anything else is refused when numba compiles
the caller.
"""

from __future__ import annotations

from typing import Any, Final

from llvmlite import ir
from numba.core import cgutils, types
from numba.core.extending import intrinsic
from numba.np.arrayobj import populate_array

__all__ = ["TABLE_HANDLE", "OBSERVER_HANDLE", "pack_table", "table_arrays", "pack_observer",
           "observer_arrays"]

_I8, _I64, _U64, _F32, _F64, _BOOL = (types.int8, types.int64, types.uint64, types.float32,
                                      types.float64, types.boolean)

_TABLE_LAYOUT: Final = ((_I64, 1), (_I64, 1), (_I64, 1), (_I64, 2), (_I64, 2), (_I8, 3),
                        (_I8, 1), (_I8, 1), (_U64, 1), (_I64, 2))
"""dtype and dimensions of ``r, lad, tt, se, hf, cd, pile, disc, g, rows``."""

_OBSERVER_LAYOUT: Final = ((_F32, 2), (_F32, 3), (_F32, 3), (_I64, 4), (_I64, 2), (_I64, 2),
                           (_I64, 2), (_I64, 2), (_I64, 1), (_I64, 1), (_I64, 2), (_BOOL, 1),
                           (_BOOL, 2), (_I64, 1), (_I64, 1), (_F64, 1), (_I64, 1), (_I64, 2),
                           (_F32, 1), (_F32, 1), (_BOOL, 1))
"""dtype and dimensions of the observer's ``pub, own, tab, views, nhands, current, status,
side, hand_bank, bank, seen, stale, dirty, error, ints, floats, half, wild_sums, wipe_dealt,
wipe_empty, wiped`` (:meth:`envs.batch.observer.BatchObserver.kernel_arrays`)."""


def _size(layout: tuple[tuple[Any, int], ...]) -> int:
    """Entries of a handle: per array, its data address and then its shape."""
    return sum(1 + ndim for _, ndim in layout)


TABLE_HANDLE: Final = _size(_TABLE_LAYOUT)
"""Entries of a table's handle."""
OBSERVER_HANDLE: Final = _size(_OBSERVER_LAYOUT)
"""Entries of the observer's handle."""


def _is_handle(h: Any) -> bool:
    return isinstance(h, types.Array) and h.dtype == _I64 and h.ndim == 1


def _fits(arrays: tuple[Any, ...], layout: tuple[tuple[Any, int], ...]) -> bool:
    return len(arrays) == len(layout) and all(
        isinstance(a, types.Array) and a.layout == "C" and (a.dtype, a.ndim) == spec
        for a, spec in zip(arrays, layout))


def _entry(builder: ir.IRBuilder, handle: Any, position: int) -> Any:
    """A pointer to the handle's entry ``position``."""
    return builder.gep(handle.data, [ir.Constant(ir.IntType(64), position)])


def _pack(context, builder, signature, args):  # type: ignore[no-untyped-def]
    """Codegen: each array's address and shape into the handle (the first argument)."""
    handle = context.make_array(signature.args[0])(context, builder, value=args[0])
    int64 = ir.IntType(64)
    position = 0
    for array_type, value in zip(signature.args[1:], args[1:]):
        array = context.make_array(array_type)(context, builder, value=value)
        builder.store(builder.ptrtoint(array.data, int64), _entry(builder, handle, position))
        position += 1
        for size in cgutils.unpack_tuple(builder, array.shape, array_type.ndim):
            builder.store(size, _entry(builder, handle, position))
            position += 1
    return context.get_dummy_value()


def _unpack(context, builder, signature, args):  # type: ignore[no-untyped-def]
    """Codegen: the tuple of C-contiguous arrays the handle describes."""
    handle = context.make_array(signature.args[0])(context, builder, value=args[0])
    values = []
    position = 0
    for array_type in signature.return_type:
        array = context.make_array(array_type)(context, builder)
        address = builder.load(_entry(builder, handle, position))
        shape = [builder.load(_entry(builder, handle, position + 1 + k))
                 for k in range(array_type.ndim)]
        position += 1 + array_type.ndim
        itemsize = context.get_abi_sizeof(context.get_data_type(array_type.dtype))
        strides = [ir.Constant(ir.IntType(64), itemsize)]
        for size in reversed(shape[1:]):
            strides.insert(0, builder.mul(strides[0], size))
        populate_array(array, data=builder.inttoptr(address, array.data.type), shape=shape,
                       strides=strides, itemsize=itemsize, meminfo=None)
        values.append(array._getvalue())
    return context.make_tuple(builder, signature.return_type, values)


def _arrays_type(layout: tuple[tuple[Any, int], ...]) -> Any:
    return types.Tuple(tuple(types.Array(dtype, ndim, "C") for dtype, ndim in layout))


@intrinsic
def pack_table(typingctx, h, r, lad, tt, se, hf, cd, pile, disc, g, rows):  # type: ignore[no-untyped-def]
    """Write one table's ten arrays into the handle ``h`` (int64, :data:`TABLE_HANDLE` entries)."""
    arrays = (r, lad, tt, se, hf, cd, pile, disc, g, rows)
    if not (_is_handle(h) and _fits(arrays, _TABLE_LAYOUT)):
        return None
    return types.none(h, *arrays), _pack


@intrinsic
def table_arrays(typingctx, h):  # type: ignore[no-untyped-def]
    """``(r, lad, tt, se, hf, cd, pile, disc, g, rows)`` from a handle :func:`pack_table` wrote."""
    if not _is_handle(h):
        return None
    return _arrays_type(_TABLE_LAYOUT)(h), _unpack


@intrinsic
def pack_observer(typingctx, h, pub, own, tab, views, nhands, current, status, side, hand_bank,  # type: ignore[no-untyped-def]
                  bank, seen, stale, dirty, error, ints, floats, half, wild_sums, wipe_dealt,
                  wipe_empty, wiped):
    """Write the observer's arrays into the handle ``h`` (int64, :data:`OBSERVER_HANDLE`
    entries)."""
    arrays = (pub, own, tab, views, nhands, current, status, side, hand_bank, bank, seen,
              stale, dirty, error, ints, floats, half, wild_sums, wipe_dealt, wipe_empty, wiped)
    if not (_is_handle(h) and _fits(arrays, _OBSERVER_LAYOUT)):
        return None
    return types.none(h, *arrays), _pack


@intrinsic
def observer_arrays(typingctx, h):  # type: ignore[no-untyped-def]
    """The observer's arrays, in :func:`pack_observer`'s order, from its handle."""
    if not _is_handle(h):
        return None
    return _arrays_type(_OBSERVER_LAYOUT)(h), _unpack
