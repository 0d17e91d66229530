"""``Tensor.__getitem__`` / ``Tensor.__setitem__``: NumPy indexing semantics built from primitives.

Algorithm
---------
``tensor_getitem`` first parses the index into entries over the input's dimensions: ``int``,
``slice``, ``None`` (new axis), ``...`` (expanded), integer index tensors ("advanced" indices) and
boolean masks (a ``k``-D mask becomes ``k`` advanced index vectors through ``NonZero``; a Python
bool is a new axis indexed by ``[0]`` or ``[]``, exactly as in NumPy).

* Without advanced indices the whole index is **one** ``StridedSlice`` (ints shrink, ``None`` is a
  new axis, slices keep their steps), whose gradient is ``StridedSliceGrad``.
* With advanced indices, ints count as advanced too (NumPy's rule). A ``StridedSlice`` applies the
  slices and new axes while keeping the advanced dimensions whole; then a single advanced index is
  one ``Gather``, and several are broadcast, stacked and applied by one ``GatherNd`` after moving
  their dimensions to the front. As in NumPy, the broadcast index dimensions replace the advanced
  ones in place when those were adjacent, and go first otherwise.

Every step is a differentiable primitive (``NonZero`` only computes index values), so ``x[idx]``
is differentiable with respect to ``x``; no NumPy touches tensor data here.

``tensor_setitem`` uses the same machinery on an ``arange`` of flat positions shaped like ``x``:
``positions[index]`` says which elements the index selects, and one ``TensorScatterUpdate`` on the
flattened tensor writes the (cast, broadcast) value there. A boolean mask shaped like ``x`` with a
scalar value takes the shortcut ``MaskedFill``. The result's buffer then replaces ``x``'s, so the
update is in place (``x``'s dtype never changes).

Views (PYNATIVE)
----------------
When nothing records or stages (no gradient tape, no graph being built), a basic index (ints, slices,
``None``, ``...``) is MindSpore's view: ``x[1:3]`` is a tensor over ``x``'s memory (the runtime's
``view``), and ``x[0, 1:] = v`` writes into ``x``'s memory (the runtime's ``write``), so each sees the
other's writes, and a tensor made by ``Tensor.from_numpy`` writes into its array. As in MindSpore 2.10,
an assignment through a boolean mask or an integer-tensor index makes a new buffer instead (earlier
views keep the old values). Under a tape or while staging, the results are copies and assignments
rebind: a recorded value is never changed behind the tape's back.
"""
import numbers

import numpy as np

from mindspore._autodiff import tape as _tape
from mindspore._core import interpreters as _interpreters
from mindspore._core import primitive as _primitive
from mindspore._errors import MSIndexValueError, MSTypeError, MSTypeIndexError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs import array as A
from mindspore.ops._defs import indexing as I
from mindspore.ops._defs.array import cached_prim
from mindspore.ops._defs.indexing import MSIndexError
from mindspore._runtime import backend as _backend

__all__ = ["tensor_getitem", "tensor_setitem"]

# Entry kinds: a new axis, an int, a slice, an advanced index tensor on an input dimension, and an
# advanced index on a new axis (a Python bool or 0-D bool mask, as in NumPy).
_NEW, _INT, _SLICE, _ADV, _NEWADV = "new", "int", "slice", "adv", "newadv"
_FULL = slice(None)
_reshape = A.Reshape()
_cast = A.Cast()
_transpose = A.Transpose()
_identity = A.Identity()
_non_zero = I.NonZero()


def _index_error_type(item):
    return MSTypeError(
        "Only support integers, slices(`:`), ellipsis(`...`), None, bool, tensor with int or bool, list and tuple "
        f"as index, but got {type(item).__name__} with value {item!r}.")


def _to_index_tensor(item):
    """A Tensor for an array-like index item (list, nested tuple, ndarray)."""
    if not isinstance(item, np.ndarray) and any(isinstance(v, Tensor) for v in item):
        return Tensor(item)
    try:
        arr = np.asarray(item)
    except (TypeError, ValueError) as exc:
        raise _index_error_type(item) from exc
    if arr.dtype.kind not in "biu":
        if arr.size == 0:
            arr = arr.astype(np.int64)
        else:
            raise _index_error_type(item)
    return Tensor(arr)


def _normalize_items(index):
    if not isinstance(index, tuple):
        index = (index,)
    items = []
    for item in index:
        if isinstance(item, (list, tuple, range, np.ndarray)):
            item = _to_index_tensor(item)
        if isinstance(item, np.generic):
            item = item.item()
        items.append(item)
    return items


def _parse(shape, index):
    """Entries ``(kind, value, dim)`` covering ``shape``; ``dim`` is the input dimension consumed (or None)."""
    items = _normalize_items(index)
    used = 0
    for item in items:
        if isinstance(item, Tensor) and item.dtype is mstype.bool_:
            used += len(item.shape)
        elif not (item is None or item is Ellipsis or isinstance(item, bool)):
            used += 1
    if used > len(shape):
        raise MSIndexError(f"too many indices for tensor of dimension {len(shape)}")
    if sum(1 for item in items if item is Ellipsis) > 1:
        raise MSIndexError("an index can only have a single ellipsis ('...')")
    entries, dim = [], 0
    for item in items:
        if item is None:
            entries.append((_NEW, None, None))
        elif item is Ellipsis:
            for _ in range(len(shape) - used):
                entries.append((_SLICE, _FULL, dim))
                dim += 1
        elif isinstance(item, bool):
            entries.append((_NEWADV, Tensor(np.zeros(1 if item else 0, np.int64)), None))
        elif isinstance(item, numbers.Integral):
            n = shape[dim]
            if not -n <= item < n:
                raise MSIndexError(f"index {item} is out of bounds for dimension {dim} with size {n}")
            entries.append((_INT, int(item) % n, dim))
            dim += 1
        elif isinstance(item, slice):
            entries.append((_SLICE, _check_slice(item), dim))
            dim += 1
        elif isinstance(item, Tensor):
            dim = _parse_tensor(entries, item, shape, dim)
        else:
            raise _index_error_type(item)
    for _ in range(len(shape) - dim):
        entries.append((_SLICE, _FULL, dim))
        dim += 1
    return entries


def _check_slice(item):
    parts = []
    for v in (item.start, item.stop, item.step):
        if v is not None and not isinstance(v, numbers.Integral):
            if isinstance(v, Tensor) or hasattr(v, "__index__"):
                v = v.__index__()
            else:
                raise _index_error_type(item)
        parts.append(None if v is None else int(v))
    if parts[2] == 0:
        raise MSValueError("slice step cannot be zero")
    return slice(*parts)


def _parse_tensor(entries, item, shape, dim):
    if item.dtype is mstype.bool_:
        k = len(item.shape)
        if k == 0:
            coords = _non_zero(_reshape(item, (1,)))
            entries.append((_NEWADV, _reshape(coords, (-1,)), None))
            return dim
        for j in range(k):
            if item.shape[j] != shape[dim + j]:
                # a ValueError too, as MindSpore 2.10 (torch raises IndexError)
                raise MSIndexValueError(f"boolean index did not match indexed tensor along dimension {dim + j}; "
                                        f"dimension is {shape[dim + j]} but corresponding boolean dimension is "
                                        f"{item.shape[j]}")
        coords = _non_zero(item)
        columns = (_reshape(coords, (-1,)),) if k == 1 else cached_prim(A.Unstack, 1, k)(coords)
        for j in range(k):
            entries.append((_ADV, columns[j], dim + j))
        return dim + k
    if not mstype.is_int(item.dtype):
        raise MSTypeIndexError(f"Tensor index must be an integer or bool tensor, but got {item.dtype}.")
    entries.append((_ADV, item, dim))
    return dim + 1


def _strided_slice(x, entries):
    """One StridedSlice applying the basic entries; advanced entries keep their dimension whole."""
    begin, end, strides = [], [], []
    begin_mask = end_mask = new_mask = shrink_mask = 0
    for i, (kind, value, _) in enumerate(entries):
        bit = 1 << i
        if kind in (_NEW, _NEWADV):
            b, e, s = 0, 1, 1
            new_mask |= bit
        elif kind == _INT:
            b, e, s = value, value + 1, 1
            shrink_mask |= bit
        elif kind == _SLICE:
            b, e, s = value.start, value.stop, 1 if value.step is None else value.step
            if b is None:
                b, begin_mask = 0, begin_mask | bit
            if e is None:
                e, end_mask = 0, end_mask | bit
        else:
            b, e, s = 0, 0, 1
            begin_mask, end_mask = begin_mask | bit, end_mask | bit
        begin.append(b)
        end.append(e)
        strides.append(s)
    if not (new_mask or shrink_mask) and all(kind != _SLICE or value == _FULL for kind, value, _ in entries):
        return x if _has_advanced(entries) else _identity(x)
    prim = cached_prim(I.StridedSlice, begin_mask, end_mask, 0, new_mask, shrink_mask)
    return prim(x, tuple(begin), tuple(end), tuple(strides))


def _has_advanced(entries):
    return any(kind in (_ADV, _NEWADV) for kind, _, _ in entries)


def _broadcast(op, shapes):
    try:
        return rules.broadcast_shapes(op, *shapes)
    except MSValueError:
        raise MSIndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                           + " ".join(str(tuple(s)) for s in shapes)) from None


def _advanced(y, entries):
    """Apply the advanced entries to ``y``, whose dimensions correspond 1:1 to ``entries`` (then trailing)."""
    positions = [i for i, (kind, _, _) in enumerate(entries) if kind in (_ADV, _NEWADV)]
    tensors = [entries[i][1] for i in positions]
    if len(positions) == 1:
        return cached_prim(I.Gather, 0)(y, tensors[0], positions[0])
    bshape = _broadcast("getitem", [t.shape for t in tensors])
    cols = []
    for t in tensors:
        if t.dtype is not mstype.int64:
            t = _cast(t, mstype.int64)
        if tuple(t.shape) != bshape:
            t = cached_prim(A.BroadcastTo, bshape)(t)
        cols.append(t)
    coords = cached_prim(A.Stack, -1)(tuple(cols))
    ndim = len(y.shape)
    rest = [d for d in range(ndim) if d not in positions]
    perm = tuple(positions) + tuple(rest)
    if perm != tuple(range(ndim)):
        y = _transpose(y, perm)
    out = cached_prim(I.GatherNd)(y, coords)
    first = positions[0]
    adjacent = positions == list(range(first, first + len(positions)))
    if adjacent and first > 0:
        nb = len(bshape)
        order = tuple(range(nb, nb + first)) + tuple(range(nb)) + tuple(range(nb + first, len(out.shape)))
        out = _transpose(out, order)
    return out


def _view_index(x, entries):
    """The basic index for the runtime equivalent to ``entries``, when views apply now (see the module
    docstring), else None. A trailing ``...`` keeps an all-int index a 0-d buffer rather than a scalar."""
    if _has_advanced(entries) or not _interpreters.only_eager() or _primitive.CALL_HOOK[0] is not None:
        return None
    basic = []
    for kind, value, _ in entries:
        basic.append(None if kind == _NEW else value)
    basic.append(Ellipsis)
    return tuple(basic)


def tensor_getitem(x, index):
    """``x[index]`` with NumPy semantics, differentiable with respect to ``x``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> x = ms.Tensor(np.arange(12).reshape(3, 4))
        >>> x[1:, ::2]
        Tensor(shape=[2, 2], dtype=Int64, value=
        [[ 4,  6],
         [ 8, 10]])
    """
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For 'tensor_getitem', the input must be a Tensor, but got {type(x).__name__}.")
    entries = _parse(x.shape, index)
    basic = _view_index(x, entries)
    if basic is not None:
        buf = _backend.view_buffer(x._buffer(), basic)
        if buf is not None:
            return Tensor._make(buf, x.dtype)
    if not _has_advanced(entries):
        return _strided_slice(x, entries)
    # NumPy: next to an advanced index, an int is an advanced (0-D) index too.
    entries = [(_ADV, Tensor(v, dtype=mstype.int64), d) if k == _INT else (k, v, d) for k, v, d in entries]
    return _advanced(_strided_slice(x, entries), entries)


def _value_tensor(value, dtype):
    if isinstance(value, Tensor):
        return value if value.dtype is dtype else A.Cast()(value, dtype)
    if isinstance(value, (bool, numbers.Number, np.generic)):
        return Tensor(value, dtype=dtype)
    if isinstance(value, (list, tuple, np.ndarray)):
        return Tensor(value, dtype=dtype)
    raise MSTypeError(f"For 'tensor_setitem', the value must be a Tensor, number, list, tuple or numpy.ndarray, "
                      f"but got {type(value).__name__}.")


def _fit(value, shape):
    """``value`` broadcast to ``shape`` (leading size-1 dimensions beyond ``shape``'s rank are dropped)."""
    vshape = tuple(value.shape)
    extra = len(vshape) - len(shape)
    if extra > 0:
        if any(s != 1 for s in vshape[:extra]):
            raise MSValueError(f"For 'tensor_setitem', the value of shape {vshape} could not be broadcast to the "
                               f"indexing result of shape {tuple(shape)}.")
        value = _reshape(value, vshape[extra:])
        vshape = vshape[extra:]
    if vshape == tuple(shape):
        return value
    try:
        return cached_prim(A.BroadcastTo, tuple(shape))(value)
    except MSValueError:
        raise MSValueError(f"For 'tensor_setitem', the value of shape {vshape} could not be broadcast to the "
                           f"indexing result of shape {tuple(shape)}.") from None


def _is_full_mask(x, index):
    return isinstance(index, Tensor) and index.dtype is mstype.bool_ and tuple(index.shape) == tuple(x.shape)


def tensor_setitem_value(x, index, value):
    """The tensor ``x`` with ``x[index] = value`` applied (a new tensor; ``x`` is unchanged)."""
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For 'tensor_setitem', the input must be a Tensor, but got {type(x).__name__}.")
    dtype = x.dtype
    v = _value_tensor(value, dtype)
    if _is_full_mask(x, index) and v.size == 1:
        return cached_prim(I.MaskedFill)(x, index, _reshape(v, ()))
    positions = _reshape(cached_prim(A.Range, 2 ** 62)(0, x.size, 1), x.shape)
    selected = tensor_getitem(positions, index)
    v = _fit(v, selected.shape)
    flat = _reshape(x, (x.size,))
    coords = _reshape(selected, (selected.size, 1))
    result = cached_prim(I.TensorScatterUpdate)(flat, coords, _reshape(v, (selected.size,)))
    return _reshape(result, x.shape)


def _fits(vshape, shape):
    """Whether a value of ``vshape`` broadcasts to ``shape`` (leading size-1 dimensions beyond it dropped)."""
    extra = len(vshape) - len(shape)
    if extra > 0:
        if any(s != 1 for s in vshape[:extra]):
            return False
        vshape = vshape[extra:]
    return all(v in (1, s) for v, s in zip(reversed(vshape), reversed(shape)))


def _write_in_place(x, index, value):
    """``x[index] = value`` written into ``x``'s memory when views apply (see the module docstring); False
    when the assignment must go the functional way instead."""
    if x._data is None and x._init is not None and not callable(getattr(x._init, "_generate", None)):
        return False
    entries = _parse(x.shape, index)
    basic = _view_index(x, entries)
    if basic is None:
        return False
    buf = x._buffer()
    target = _backend.view_buffer(buf, basic)
    if target is None:
        return False
    v = _value_tensor(value, x.dtype)
    vshape, shape = tuple(v.shape), tuple(target.shape)
    if not _fits(vshape, shape):
        raise MSValueError(f"For 'tensor_setitem', the value of shape {vshape} could not be broadcast to the "
                           f"indexing result of shape {shape}.")
    vbuf = v._buffer()
    if len(vshape) > len(shape):
        vbuf = _backend.view_buffer(vbuf, (0,) * (len(vshape) - len(shape)) + (Ellipsis,))
        if vbuf is None:
            return False
    return _backend.write_buffer(buf, basic, vbuf)


def tensor_setitem(x, index, value):
    """``x[index] = value`` in place (``value`` is cast to ``x``'s dtype and broadcast); returns ``x``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> x = ms.Tensor(np.zeros((2, 3), np.float32))
        >>> x[0, 1:] = 5
        >>> x
        Tensor(shape=[2, 3], dtype=Float32, value=
        [[0., 5., 5.],
         [0., 0., 0.]])
    """
    if isinstance(x, Tensor) and index is not Ellipsis and _write_in_place(x, index, value):
        return x    # (MindSpore 2.10 rebinds for a lone ``...``: earlier views keep their values)
    result = tensor_setitem_value(x, index, value)
    if result._data is None:   # a value computed by a graph being compiled: x (a constant) can not hold it
        from mindspore._errors import MSRuntimeError
        raise MSRuntimeError("In graph mode, a tensor that is a compile-time constant can not be updated in place "
                             "with a value the graph computes; build the new tensor functionally instead.")
    if result._ad:              # recorded on a gradient tape: x now stands for the update's node
        _tape.rebind(x, result)
    else:
        x._data = result._data
    return x
