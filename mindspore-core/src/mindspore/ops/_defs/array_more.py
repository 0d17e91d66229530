"""More array primitives of MindSpore 2.10: ``Roll``, ``Diag``/``DiagPart``/``Trace``, ``MatrixBandPart``,
``FillDiagonal``, ``DepthToSpace``/``SpaceToDepth``, ``ReverseSequence``, ``IndexAdd``, ``IndexFill``,
``MaskedScatter``, the ``Inplace*`` row updates, ``UnravelIndex``, ``TrilIndices``/``TriuIndices``,
``UniqueConsecutive``, ``Padding``, ``IdentityN`` and the batch/space rearrangements ``BatchToSpaceND``,
``SpaceToBatchND``, ``BatchToSpace``, ``SpaceToBatch`` (each other's adjoints).

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop`` (or
``NON_DIFFERENTIABLE``). Semantics follow MindSpore 2.10 (CPU): ``DepthToSpace``/``SpaceToDepth`` use the NCHW
"DCR" channel order, ``FillDiagonal(wrap=True)`` restarts the diagonal every ``ncols + 1`` rows of a tall matrix,
``UniqueConsecutive`` always has three outputs (values, inverse indices, counts; int64), ``UnravelIndex`` stacks
the coordinates per dimension (``(len(dims),) + indices.shape``). ``IndexAdd`` and the ``Inplace*`` primitives
compute a new tensor; the functional forms write it back into a Parameter, as ``ops.scatter_add`` does.
Kernels live in the backends' ``kernels/array_more.py``.
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

_ANY = range(0, 9)
_INDEX = (mstype.int32, mstype.int64)


def _as_tuple(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


# --- Roll -----------------------------------------------------------------------------------
class Roll(Primitive):
    """``Roll(shifts, dims=None)(x)``: elements shifted cyclically along ``dims`` (all of ``x`` flattened
    when ``dims`` is None)."""

    @prim_attr_register
    def __init__(self, shifts, dims=None):
        shifts_t = _as_tuple(shifts)
        for s in shifts_t:
            rules.check_int(self.name, "shifts", s)
        if dims is not None:
            dims_t = _as_tuple(dims)
            for d in dims_t:
                rules.check_int(self.name, "dims", d)
            if len(dims_t) != len(shifts_t):
                raise MSValueError(f"For '{self.name}', the length of 'shifts' and 'dims' must be equal, but got "
                                   f"{len(shifts_t)} and {len(dims_t)}.")
        elif len(shifts_t) != 1:
            raise MSValueError(f"For '{self.name}', 'shifts' must be an int when 'dims' is None, but got {shifts}.")

    def infer_shape(self, x):
        if self.dims is not None:
            for d in _as_tuple(self.dims):
                rules.check_axis(self.name, d, len(x), "dims")
        return tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input", x, rules.ALL_TYPES)

    def bprop(self, x, out, dout):
        back = tuple(-s for s in _as_tuple(self.shifts))
        return (self._grad_prim(Roll, back, self.dims)(dout),)


# --- Diag / DiagPart / Trace ------------------------------------------------------------------
class Diag(Primitive):
    """``Diag()(x)``: the tensor of rank ``2k`` with ``x`` (rank ``k``) on its diagonal."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, range(1, 5))
        return tuple(x) + tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input_x", x, rules.ALL_TYPES)

    def bprop(self, x, out, dout):
        return (self._grad_prim(DiagPart)(dout),)


class DiagPart(Primitive):
    """``DiagPart()(x)``: the diagonal of ``x`` of shape ``d + d`` (``Diag``'s inverse), of shape ``d``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, (2, 4, 6, 8))
        k = len(x) // 2
        if tuple(x[:k]) != tuple(x[k:]):
            raise MSValueError(f"For '{self.name}', the shape of 'input_x' must be d + d, but got {tuple(x)}.")
        return tuple(x[:k])

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input_x", x, rules.ALL_TYPES)

    def bprop(self, x, out, dout):
        return (self._grad_prim(Diag)(dout),)


class Trace(Primitive):
    """``Trace()(x)``: the sum of the main diagonal of a 2-D tensor (a 0-d tensor of its dtype)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        rules.check_rank(self.name, "input", x, 2)
        return ()

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input", x, rules.NUMBER_TYPES)

    def bprop(self, x, out, dout):
        shape = fops.shape(x)
        return (fops.mul(fops.eye(shape[0], shape[1], fops.dtype(dout)), dout),)


# --- MatrixBandPart / FillDiagonal ------------------------------------------------------------
class MatrixBandPart(Primitive):
    """``MatrixBandPart()(x, lower, upper)``: each innermost matrix with everything outside the band of
    ``lower`` sub- and ``upper`` super-diagonals zeroed (a negative count keeps the whole triangle)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, lower, upper):
        rules.check_rank(self.name, "x", x, range(2, 9))
        rules.check_int(self.name, "lower", lower)
        rules.check_int(self.name, "upper", upper)
        return tuple(x)

    def infer_dtype(self, x, lower, upper):
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)

    def bprop(self, x, lower, upper, out, dout):
        return self._grad_prim(MatrixBandPart)(dout, lower, upper), None, None


class FillDiagonal(Primitive):
    """``FillDiagonal(fill_value, wrap=False)(x)``: ``x`` with its main diagonal set to ``fill_value``
    (a 2-D tensor, or one whose dimensions are all equal); ``wrap`` continues a tall matrix's diagonal
    after every ``ncols + 1`` rows."""

    @prim_attr_register
    def __init__(self, fill_value, wrap=False):
        if isinstance(fill_value, bool) or not isinstance(fill_value, (int, float)):
            raise MSTypeError(f"For '{self.name}', the 'fill_value' must be a float, but got "
                              f"{type(fill_value).__name__}.")
        rules.check_bool(self.name, "wrap", wrap)

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, range(2, 9))
        if len(x) > 2 and len(set(x)) != 1:
            raise MSValueError(f"For '{self.name}', all dimensions of 'input_x' must be equal when its rank is "
                               f"more than 2, but got shape {tuple(x)}.")
        return tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input_x", x, rules.NUMBER_TYPES)

    def bprop(self, x, out, dout):
        return (self._grad_prim(FillDiagonal, 0.0, self.wrap)(dout),)


# --- DepthToSpace / SpaceToDepth ---------------------------------------------------------------
class _BlockRearrange(Primitive):
    @prim_attr_register
    def __init__(self, block_size):
        rules.check_int(self.name, "block_size", block_size)
        if block_size < 2:
            raise MSValueError(f"For '{self.name}', the 'block_size' must be greater than or equal to 2, but got "
                               f"{block_size}.")

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)


class DepthToSpace(_BlockRearrange):
    """``DepthToSpace(block_size)(x)``: NCHW ``(N, C*b*b, H, W)`` to ``(N, C, H*b, W*b)`` (DCR order)."""

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, 4)
        b = self.block_size
        if x[1] % (b * b):
            raise MSValueError(f"For '{self.name}', the channels of 'x' must be divisible by block_size * "
                               f"block_size = {b * b}, but got {x[1]}.")
        return (x[0], x[1] // (b * b), x[2] * b, x[3] * b)

    def bprop(self, x, out, dout):
        return (self._grad_prim(SpaceToDepth, self.block_size)(dout),)


class SpaceToDepth(_BlockRearrange):
    """``SpaceToDepth(block_size)(x)``: NCHW ``(N, C, H*b, W*b)`` to ``(N, C*b*b, H, W)`` (DCR order)."""

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, 4)
        b = self.block_size
        if x[2] % b or x[3] % b:
            raise MSValueError(f"For '{self.name}', the height and width of 'x' must be divisible by "
                               f"'block_size' {b}, but got shape {tuple(x)}.")
        return (x[0], x[1] * b * b, x[2] // b, x[3] // b)

    def bprop(self, x, out, dout):
        return (self._grad_prim(DepthToSpace, self.block_size)(dout),)


# --- ReverseSequence --------------------------------------------------------------------------
class ReverseSequence(Primitive):
    """``ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths)``: for each batch entry ``i``, the first
    ``seq_lengths[i]`` elements along ``seq_dim`` reversed."""

    @prim_attr_register
    def __init__(self, seq_dim, batch_dim=0):
        rules.check_int(self.name, "seq_dim", seq_dim)
        rules.check_int(self.name, "batch_dim", batch_dim)

    def infer_shape(self, x, seq_lengths):
        seq = rules.check_axis(self.name, self.seq_dim, len(x), "seq_dim")
        batch = rules.check_axis(self.name, self.batch_dim, len(x), "batch_dim")
        if seq == batch:
            raise MSValueError(f"For '{self.name}', the 'batch_dim' should be != seq_dim: {self.seq_dim}, but got "
                               f"{self.batch_dim}.")
        rules.check_rank(self.name, "seq_lengths", seq_lengths, 1)
        if seq_lengths[0] != x[batch] and -1 not in (seq_lengths[0], x[batch]):
            raise MSValueError(f"For '{self.name}', the length of 'seq_lengths' must be equal to x.shape[batch_dim] "
                               f"= {x[batch]}, but got {seq_lengths[0]}.")
        return tuple(x)

    def infer_dtype(self, x, seq_lengths):
        rules.check_dtype_in(self.name, "seq_lengths", seq_lengths, _INDEX)
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)

    def bprop(self, x, seq_lengths, out, dout):
        grad = self._grad_prim(ReverseSequence, self.seq_dim, self.batch_dim)(dout, seq_lengths)
        return grad, fops.zeros_like(seq_lengths)


# --- IndexAdd / IndexFill / MaskedScatter -------------------------------------------------------
class IndexAdd(Primitive):
    """``IndexAdd(axis)(x, indices, y)``: ``x`` with slice ``y[.., k, ..]`` added to slice
    ``x[.., indices[k], ..]`` along ``axis`` (repeated indices accumulate)."""

    @prim_attr_register
    def __init__(self, axis, use_lock=True, check_index_bound=True):
        rules.check_int(self.name, "axis", axis)
        rules.check_bool(self.name, "use_lock", use_lock)
        rules.check_bool(self.name, "check_index_bound", check_index_bound)

    def infer_shape(self, x, indices, y):
        axis = rules.check_axis(self.name, self.axis, len(x))
        rules.check_rank(self.name, "indices", indices, 1)
        want = tuple(x[:axis]) + (indices[0],) + tuple(x[axis + 1:])
        if not rules.same_shape(y, want):
            raise MSValueError(f"For '{self.name}', the shape of 'y' must be {want}, but got {tuple(y)}.")
        return tuple(x)

    def infer_dtype(self, x, indices, y):
        rules.check_dtype_in(self.name, "indices", indices, (mstype.int32,))
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, ("x", "y"), (x, y))

    def bprop(self, x, indices, y, out, dout):
        return dout, fops.zeros_like(indices), fops.gather(dout, indices, self.axis)


class IndexFill(Primitive):
    """``IndexFill()(x, dim, index, value)``: ``x`` with the slices ``index`` along ``dim`` (an int) set to
    ``value`` (a 0-d tensor of ``x``'s dtype)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, dim, index, value):
        rules.check_int(self.name, "dim", dim)
        rules.check_axis(self.name, dim, max(len(x), 1), "dim")
        rules.check_rank(self.name, "index", index, (0, 1))
        rules.check_rank(self.name, "value", value, 0)
        return tuple(x)

    def infer_dtype(self, x, dim, index, value):
        rules.check_dtype_in(self.name, "index", index, _INDEX)
        if value != x:
            raise MSTypeError(f"For '{self.name}', the dtype of 'value' must be the same as 'x' {x}, but got "
                              f"{value}.")
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)

    def bprop(self, x, dim, index, value, out, dout):
        dx = self._grad_prim(IndexFill)(dout, dim, index, fops.zeros_like(value))
        return dx, None, fops.zeros_like(index), fops.reduce_sum(fops.sub(dout, dx))


class MaskedScatter(Primitive):
    """``MaskedScatter()(x, mask, updates)``: ``x`` with the positions where ``mask`` (broadcast to ``x``)
    is True filled, in row-major order, from the leading elements of ``updates``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, mask, updates):
        shape = rules.broadcast_shapes(self.name, x, mask)
        if not rules.same_shape(shape, x):
            raise MSValueError(f"For '{self.name}', the shape of 'mask' must broadcast to x's {tuple(x)}, but got "
                               f"{tuple(mask)}.")
        return tuple(x)

    def infer_dtype(self, x, mask, updates):
        rules.check_dtype_in(self.name, "mask", mask, (mstype.bool_,))
        rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)
        return rules.check_same_dtype(self.name, ("x", "updates"), (x, updates))

    def bprop(self, x, mask, updates, out, dout):
        full = fops.broadcast_to(mask, fops.shape(x))
        dx = fops.select(full, fops.zeros_like(dout), dout)
        taken = self._grad_prim(MaskedScatterGrad)(dout, full, updates)
        return dx, fops.zeros_like(mask), taken


class MaskedScatterGrad(Primitive):
    """``MaskedScatter``'s gradient for ``updates``: ``dout``'s masked elements in row-major order, in the
    leading positions of a zero tensor shaped like ``updates``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, dout, mask, updates):
        return tuple(updates)

    def infer_dtype(self, dout, mask, updates):
        return dout

    bprop = NON_DIFFERENTIABLE


# --- InplaceAdd / InplaceSub / InplaceUpdate / InplaceUpdateV2 ----------------------------------
class _InplaceRows(Primitive):
    @prim_attr_register
    def __init__(self, indices):
        for i in _as_tuple(indices):
            rules.check_int(self.name, "indices", i)

    def _rows(self):
        return _as_tuple(self.indices)

    def infer_shape(self, x, v):
        rows = self._rows()
        if len(v) != len(x) or tuple(v[1:]) != tuple(x[1:]) or v[0] != len(rows):
            raise MSValueError(f"For '{self.name}', the shape of 'v' must be {(len(rows),) + tuple(x[1:])}, but "
                               f"got {tuple(v)}.")
        for i in rows:
            if not -x[0] <= i < x[0]:
                raise MSValueError(f"For '{self.name}', the value of 'indices' must be in [{-x[0]}, {x[0]}), but "
                                   f"got {i}.")
        return tuple(x)

    def infer_dtype(self, x, v):
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, ("x", "v"), (x, v))

    def _gather_rows(self, dout):
        return fops.gather(dout, fops.tuple_to_array(self._rows()), 0)


class InplaceAdd(_InplaceRows):
    """``InplaceAdd(indices)(x, v)``: ``x`` with ``v[k]`` added to row ``indices[k]``."""

    def bprop(self, x, v, out, dout):
        return dout, self._gather_rows(dout)


class InplaceSub(_InplaceRows):
    """``InplaceSub(indices)(x, v)``: ``x`` with ``v[k]`` subtracted from row ``indices[k]``."""

    def bprop(self, x, v, out, dout):
        return dout, fops.neg(self._gather_rows(dout))


class InplaceUpdate(_InplaceRows):
    """``InplaceUpdate(indices)(x, v)``: ``x`` with row ``indices[k]`` replaced by ``v[k]``."""

    def bprop(self, x, v, out, dout):
        return self._grad_prim(InplaceUpdate, self.indices)(dout, fops.zeros_like(v)), self._gather_rows(dout)


class InplaceUpdateV2(Primitive):
    """``InplaceUpdateV2()(x, indices, v)``: ``InplaceUpdate`` with the row indices as an input (a tensor, an int
    or a tuple of ints, as 2.10 takes them)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, indices, v):
        if isinstance(indices, (int, tuple, list)) and not isinstance(indices, bool):
            from mindspore.common.tensor import Tensor
            indices = Tensor(list(indices) if isinstance(indices, (tuple, list)) else indices, mstype.int32)
        return super().__call__(x, indices, v)

    def infer_shape(self, x, indices, v):
        rules.check_rank(self.name, "indices", indices, (0, 1))
        n = indices[0] if indices else 1
        if len(v) != len(x) or tuple(v[1:]) != tuple(x[1:]) or (n != -1 and v[0] != n):
            raise MSValueError(f"For '{self.name}', the shape of 'v' must be {(n,) + tuple(x[1:])}, but got "
                               f"{tuple(v)}.")
        return tuple(x)

    def infer_dtype(self, x, indices, v):
        rules.check_dtype_in(self.name, "indices", indices, _INDEX)
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, ("x", "v"), (x, v))

    def bprop(self, x, indices, v, out, dout):
        rows = fops.reshape(indices, (-1,))
        dx = self._grad_prim(InplaceUpdateV2)(dout, indices, fops.zeros_like(v))
        return dx, fops.zeros_like(indices), fops.reshape(fops.gather(dout, rows, 0), fops.shape(v))


# --- UnravelIndex / TrilIndices / TriuIndices / UniqueConsecutive --------------------------------
class UnravelIndex(Primitive):
    """``UnravelIndex()(indices, dims)``: the coordinates of flat ``indices`` in a tensor of shape ``dims``,
    of shape ``(len(dims),) + indices.shape``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, indices, dims):
        rules.check_rank(self.name, "indices", indices, (0, 1))
        rules.check_rank(self.name, "dims", dims, 1)
        return (dims[0],) + tuple(indices)

    def infer_dtype(self, indices, dims):
        rules.check_dtype_in(self.name, "indices", indices, _INDEX)
        return rules.check_same_dtype(self.name, ("indices", "dims"), (indices, dims))

    bprop = NON_DIFFERENTIABLE


class _TriIndices(Primitive):
    lower = True

    @prim_attr_register
    def __init__(self, row, col, offset=0, dtype=mstype.int32):
        for name, v in (("row", row), ("col", col), ("offset", offset)):
            rules.check_int(self.name, name, v)
        if row < 0 or col < 0:
            raise MSValueError(f"For '{self.name}', the 'row' and 'col' must be non-negative, but got {row} and "
                               f"{col}.")
        if dtype not in _INDEX:
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be int32 or int64, but got {dtype}.")

    def count(self):
        """The number of (row, col) pairs in the triangle."""
        if self.lower:
            return sum(max(0, min(self.col, r + self.offset + 1)) for r in range(self.row))
        return sum(max(0, self.col - max(0, r + self.offset)) for r in range(self.row))

    def infer_shape(self):
        return (2, self.count())

    def infer_dtype(self):
        return self.dtype

    bprop = NON_DIFFERENTIABLE


class TrilIndices(_TriIndices):
    """``TrilIndices(row, col, offset=0, dtype=int32)()``: the (row, col) coordinates of the lower triangle
    of a ``row x col`` matrix (diagonal ``offset``), a ``(2, N)`` tensor in row-major order."""


class TriuIndices(_TriIndices):
    """``TriuIndices(row, col, offset=0, dtype=int32)()``: as ``TrilIndices``, for the upper triangle."""

    lower = False


class UniqueConsecutive(Primitive):
    """``UniqueConsecutive(return_inverse=False, return_counts=False, dim=None)(x)``: ``(y, idx, counts)``:
    ``x`` (flattened when ``dim`` is None) with runs of equal consecutive elements (slices along ``dim``)
    collapsed, each element's run number, and each run's length (int64)."""

    @prim_attr_register
    def __init__(self, return_inverse=False, return_counts=False, dim=None):
        rules.check_bool(self.name, "return_inverse", return_inverse)
        rules.check_bool(self.name, "return_counts", return_counts)
        if dim is not None:
            rules.check_int(self.name, "dim", dim)

    def infer_shape(self, x):
        if self.dim is None:
            return (-1,), tuple(x), (-1,)
        axis = rules.check_axis(self.name, self.dim, len(x), "dim")
        return tuple(x[:axis]) + (-1,) + tuple(x[axis + 1:]), (x[axis],), (-1,)

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)
        return x, mstype.int64, mstype.int64

    bprop = NON_DIFFERENTIABLE


# --- Padding / IdentityN ----------------------------------------------------------------------------------
class Padding(Primitive):
    """``Padding(pad_dim_size=8)(x)``: ``x`` (..., 1) widened to (..., pad_dim_size) with zeros after it."""

    @prim_attr_register
    def __init__(self, pad_dim_size=8):
        rules.check_int(self.name, "pad_dim_size", pad_dim_size)
        if pad_dim_size < 1:
            raise MSValueError(f"For '{self.name}', the 'pad_dim_size' must be positive, but got {pad_dim_size}.")

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, range(1, 9))
        if x[-1] != 1:
            raise MSValueError(f"For '{self.name}', the last dimension of 'x' must be 1, but got shape {tuple(x)}.")
        return tuple(x[:-1]) + (self.pad_dim_size,)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)

    def bprop(self, x, out, dout):
        return (fops.narrow(dout, -1, 0, 1),)


class IdentityN(Primitive):
    """``IdentityN()(x)``: the tensors of the list or tuple ``x``, unchanged (as a tuple)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        if not isinstance(x, (tuple, list)) or not x:
            raise MSTypeError(f"For '{self.name}', the 'x' must be a non-empty list or tuple of Tensors.")
        return tuple(tuple(s) for s in x)

    def infer_dtype(self, x):
        return tuple(x)

    def bprop(self, x, out, dout):
        return (dout,)


# --- BatchToSpaceND / SpaceToBatchND / BatchToSpace / SpaceToBatch ---------------------------------------------
def _space_pairs(op, name, pairs, spatial):
    pairs = tuple(tuple(p) for p in pairs)
    if len(pairs) != spatial or any(len(p) != 2 or min(p) < 0 for p in pairs):
        raise MSValueError(f"For '{op}', the '{name}' must be {spatial} pairs of non-negative ints, but got {pairs}.")
    return pairs


def _space_blocks(op, block, spatial):
    blocks = (block,) * spatial if isinstance(block, int) else tuple(block)
    if len(blocks) != spatial or any(isinstance(b, bool) or not isinstance(b, int) or b < 1 for b in blocks):
        raise MSValueError(f"For '{op}', the block shape must be {spatial} positive ints, but got {block}.")
    return blocks


class _BatchSpace(Primitive):
    spatial = None       # number of spatial dims: fixed (2) for the 2-D forms, from the block for the N-D ones

    def _geometry(self, block, pairs, name):
        spatial = self.spatial or (1 if isinstance(block, int) else len(block))
        return _space_blocks(self.name, block, spatial), _space_pairs(self.name, name, pairs, spatial)


class BatchToSpaceND(_BatchSpace):
    """``BatchToSpaceND(block_shape, crops)(x)``: blocks of the batch moved into the spatial dimensions (the
    trailing ``len(block_shape)`` of NC + spatial), then cropped."""

    @prim_attr_register
    def __init__(self, block_shape, crops):
        self._geometry(block_shape, crops, "crops")

    def infer_shape(self, x):
        blocks, crops = self._geometry(self.block_shape, self.crops, "crops")
        prod = 1
        for b in blocks:
            prod *= b
        if len(x) < len(blocks) + 1 or x[0] % prod:
            raise MSValueError(f"For '{self.name}', the batch {x[0]} must be divisible by the product of "
                               f"'block_shape' {prod}, but got shape {tuple(x)}.")
        lead = len(x) - len(blocks)
        out = [x[0] // prod] + list(x[1:lead])
        for size, b, (c0, c1) in zip(x[lead:], blocks, crops):
            if c0 + c1 > size * b:
                raise MSValueError(f"For '{self.name}', the crops {(c0, c1)} exceed the size {size * b}.")
            out.append(size * b - c0 - c1)
        return tuple(out)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input_x", x, rules.ALL_TYPES)

    def bprop(self, x, out, dout):
        return (self._grad_prim(SpaceToBatchND, self.block_shape, self.crops)(dout),)


class SpaceToBatchND(_BatchSpace):
    """``SpaceToBatchND(block_shape, paddings)(x)``: the spatial dimensions zero-padded, then their blocks
    moved into the batch."""

    @prim_attr_register
    def __init__(self, block_shape, paddings):
        self._geometry(block_shape, paddings, "paddings")

    def infer_shape(self, x):
        blocks, pads = self._geometry(self.block_shape, self.paddings, "paddings")
        lead = len(x) - len(blocks)
        if lead < 1:
            raise MSValueError(f"For '{self.name}', the 'input_x' of shape {tuple(x)} has too few dimensions.")
        prod = 1
        out = list(x[1:lead])
        for size, b, (p0, p1) in zip(x[lead:], blocks, pads):
            if (size + p0 + p1) % b:
                raise MSValueError(f"For '{self.name}', the padded spatial size {size + p0 + p1} must be divisible "
                                   f"by the block size {b}.")
            out.append((size + p0 + p1) // b)
            prod *= b
        return (x[0] * prod,) + tuple(out)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input_x", x, rules.ALL_TYPES)

    def bprop(self, x, out, dout):
        return (self._grad_prim(BatchToSpaceND, self.block_shape, self.paddings)(dout),)


class BatchToSpace(BatchToSpaceND):
    """``BatchToSpace(block_size, crops)(x)``: ``BatchToSpaceND`` over the two spatial dims of NCHW."""

    spatial = 2

    @prim_attr_register
    def __init__(self, block_size, crops):
        self.block_shape = block_size
        self._geometry(block_size, crops, "crops")

    def bprop(self, x, out, dout):
        return (self._grad_prim(SpaceToBatch, self.block_size, self.crops)(dout),)


class SpaceToBatch(SpaceToBatchND):
    """``SpaceToBatch(block_size, paddings)(x)``: ``SpaceToBatchND`` over the two spatial dims of NCHW."""

    spatial = 2

    @prim_attr_register
    def __init__(self, block_size, paddings):
        self.block_shape = block_size
        self._geometry(block_size, paddings, "paddings")

    def bprop(self, x, out, dout):
        return (self._grad_prim(BatchToSpace, self.block_size, self.paddings)(dout),)


PRIMITIVES = [Roll, Diag, DiagPart, Trace, MatrixBandPart, FillDiagonal, DepthToSpace, SpaceToDepth, ReverseSequence,
              IndexAdd, IndexFill, MaskedScatter, MaskedScatterGrad, InplaceAdd, InplaceSub, InplaceUpdate,
              InplaceUpdateV2, UnravelIndex, TrilIndices, TriuIndices, UniqueConsecutive, Padding, IdentityN,
              BatchToSpaceND, SpaceToBatchND, BatchToSpace, SpaceToBatch]
