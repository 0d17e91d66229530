"""The last array/math primitives of ``mindspore.ops`` (MindSpore 2.10's names, signatures and rules):

* ``EmbeddingLookup()(params, indices, offset)``: the rows ``indices - offset`` of ``params`` (rank 1 or 2);
  rows out of ``[0, params.shape[0])`` read as zeros (the slice of a table sharded over devices). Its gradient
  sums ``dout`` back into the rows that were read (dense here; 2.10 hands back a row-sparse tensor).
* ``FFTWithSize(signal_ndim, inverse, real, norm='backward', onesided=True, signal_sizes=())(x)``: the older
  DFT entry point over the last ``signal_ndim`` (1..3) axes: complex to complex (``real=False``), real to the
  one-sided (or full, ``onesided=False``) spectrum, and the one-sided spectrum back to a real signal
  (``real=True, inverse=True``, ``signal_sizes`` the output's sizes, by default ``2 * (n - 1)`` on the last
  axis). Its gradient is the one of the ``FFTN`` / ``RFFTN`` / ``IRFFTN`` it amounts to.
* The view primitives of 2.10: ``TransposeView()(input, input_perm)``, ``TransposeExtView()(input, dim0,
  dim1)``, ``SelectView()(input, index, dim)`` (``input`` indexed at ``index`` along ``dim``, that dim
  removed). Their results equal the ``Transpose`` / ``swapaxes`` / indexing results; in PYNATIVE, on a
  runtime whose buffers can alias (the CPU's NumPy arrays), the result shares memory with ``input`` as in
  2.10 (writes through one are seen by the other). In graph mode they are ordinary (copying) ops.
* ``CopyWithSlice()(self, src)``: ``src`` (same shape and dtype) copied into ``self`` in place (where the
  buffer can be written), the updated values returned.
* ``TensorToTuple()(x)``: the elements of a 1-D tensor as a tuple of Python scalars, read when it runs
  (PYNATIVE); a graph can not hold a tuple whose values are only known when it runs, so tracing it in graph
  mode is a TypeError that says so.

Kernels live in the backends' ``kernels/array_prims.py``.
"""
from mindspore._errors import MSIndexError, MSIndexValueError, MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.array import check_perm, invert_perm
from mindspore.ops._defs.array_more import BatchToSpaceND
from mindspore.ops._defs.complex_ops import Real
from mindspore.ops._defs.fft import _COMPLEX, _COMPLEX_OF, _REAL_OF, FFTN, IRFFTN, RFFTN
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, TensorSpec, constexpr, prim_attr_register

_INDEX = (mstype.int32, mstype.int64)


# --- EmbeddingLookup ----------------------------------------------------------------------------------------
class EmbeddingLookup(Primitive):
    """``EmbeddingLookup()(input_params, input_indices, offset)``: ``input_params[input_indices - offset]``,
    zeros for the rows out of range; shape ``input_indices.shape + input_params.shape[1:]``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, params, indices, offset):
        if len(params) not in (1, 2):
            raise MSValueError(f"For primitive[{self.name}], the dimension of params must be in [1,2], but got "
                               f"{len(params)}.")
        return tuple(indices) + tuple(params[1:])

    def infer_dtype(self, params, indices, offset):
        if isinstance(offset, bool) or not isinstance(offset, int):
            got = "Float32" if isinstance(offset, float) else type(offset).__name__
            raise MSTypeError(f"For primitive[{self.name}], the input argument[offset] must be a type of "
                              f"{{Int32, Int64}}, but got {got}.")
        if indices not in _INDEX:
            raise MSTypeError(f"For primitive[{self.name}], the input argument[indices] must be a type of "
                              f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{indices}].")
        return rules.check_dtype_in(self.name, "input_params", params, rules.ALL_TYPES)

    def bprop(self, params, indices, offset, out, dout):
        rows = params.shape[0]
        local = fops.sub(indices, fops.cast(fops.scalar_to_tensor(offset), indices.dtype))
        valid = fops.logical_and(fops.ge(local, 0), fops.lt(local, rows))
        local = fops.where(valid, local, fops.zeros_like(local))
        mask = fops.reshape(fops.cast(valid, dout.dtype), _mask_shape(tuple(indices.shape), len(params.shape)))
        g = fops.scatter_nd(fops.expand_dims(local, -1), fops.mul(dout, mask), tuple(params.shape))
        return g, None, None


@constexpr
def _mask_shape(ishape, prank):
    return ishape + (1,) * (prank - 1)


# --- FFTWithSize --------------------------------------------------------------------------------------------
_REAL_IN = (mstype.bool_, mstype.float32, mstype.float64, mstype.int16, mstype.int32, mstype.int64, mstype.int8,
            mstype.uint8)


class FFTWithSize(Primitive):
    """``FFTWithSize(signal_ndim, inverse, real, norm='backward', onesided=True, signal_sizes=())(x)``."""

    @prim_attr_register
    def __init__(self, signal_ndim, inverse, real, norm="backward", onesided=True, signal_sizes=()):
        rules.check_int(self.name, "signal_ndim", signal_ndim)
        for name, v in (("inverse", inverse), ("real", real), ("onesided", onesided)):
            rules.check_bool(self.name, name, v)
        if norm not in ("backward", "forward", "ortho"):
            raise MSValueError(f"Failed to convert the value \"{norm}\" of input 'norm' of '{self.name}' to enum.")
        rules.check_int_tuple(self.name, "signal_sizes", signal_sizes)

    def _plan(self, shape):
        """``(kind, axes, sizes)``: the FFTN/RFFTN/IRFFTN this call amounts to on an input of ``shape``."""
        nd = self.signal_ndim
        if not 1 <= nd <= 3 or len(shape) < nd:
            raise MSRuntimeError(f"For '{self.name}', x_dims must not be less than signal_ndim. signal_ndim must be "
                                 f"in [1, 3], but got x shape {tuple(shape)} and signal_ndim {nd}.")
        axes = tuple(range(len(shape) - nd, len(shape)))
        dims = tuple(shape[a] for a in axes)
        if not self.real:
            return "c2c", axes, dims
        if not self.inverse:
            return ("r2c" if self.onesided else "r2c_full"), axes, dims
        sizes = tuple(self.signal_sizes)
        if sizes and len(sizes) != nd:
            raise MSValueError(f"For '{self.name}', the length of 'signal_sizes' must be signal_ndim {nd}, but "
                               f"got {sizes}.")
        if not self.onesided:                       # the real part of the inverse of a full spectrum
            return "c2r_full", axes, sizes or dims
        return "c2r", axes, sizes or dims[:-1] + (2 * (dims[-1] - 1),)

    def _inner(self, shape):
        kind, axes, sizes = self._plan(shape)
        if any(s < 1 for s in sizes):
            raise MSValueError(f"For '{self.name}', the signal sizes must be positive, but got {sizes}.")
        if kind == "c2c":
            return FFTN(axes, sizes, self.norm, self.inverse)
        if kind == "r2c":
            return RFFTN(axes, sizes, self.norm)
        if kind == "r2c_full":
            return FFTN(axes, sizes, self.norm, False)
        if kind == "c2r_full":
            return FFTN(axes, sizes, self.norm, True)
        return IRFFTN(axes, sizes, self.norm)

    def infer_shape(self, x):
        return self._inner(x).infer_shape(x)

    def infer_dtype(self, x):
        if not self.real:
            if x not in _COMPLEX:
                raise MSTypeError(f"For primitive[{self.name}], the input argument[x] in fft/ifft mode must be a "
                                  f"type of {{Complex128, Complex64}}, but got {x}.")
            return x
        if not self.inverse:
            if x not in _REAL_IN:
                raise MSTypeError(f"For primitive[{self.name}], the input argument[x] in rfft mode must be a type "
                                  f"of {{Bool, Float32, Float64, Int16, Int32, Int64, Int8, UInt8}}, but got {x}.")
            return mstype.complex128 if x == mstype.float64 else mstype.complex64
        if x not in _COMPLEX:
            raise MSTypeError(f"For primitive[{self.name}], the input argument[x] in irfft mode must be a type of "
                              f"{{Complex128, Complex64}}, but got {x}.")
        return _REAL_OF[x]

    def bprop(self, x, out, dout):
        inner = self._inner(tuple(x.shape))
        if isinstance(inner, FFTN) and self.real and not self.inverse:     # full spectrum of a real signal
            return (self._grad_prim(Real)(inner.bprop(fops.cast(x, _COMPLEX_OF[x.dtype]), out, dout)[0]),)
        if isinstance(inner, FFTN) and self.real:                          # real part of an inverse FFT
            return inner.bprop(x, out, fops.cast(dout, _COMPLEX_OF[dout.dtype]))
        return inner.bprop(x, out, dout)


# --- view primitives ----------------------------------------------------------------------------------------
class TransposeView(Primitive):
    """``TransposeView()(input, input_perm)``: ``Transpose``'s result, a view of ``input`` in PYNATIVE."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, perm):
        perm = check_perm(self.name, perm, len(x))
        return tuple(x[p] for p in perm)

    def infer_dtype(self, x, perm):
        return x

    def bprop(self, x, perm, out, dout):
        return fops.transpose(dout, invert_perm(check_perm(self.name, perm, len(x.shape)))), None


def _dim(op, dim, ndim):
    rules.check_int(op, "dim", dim)
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise MSIndexValueError(f"For '{op}', Dimension out of range (expected to be in range of [{-max(ndim, 1)}, "
                           f"{max(ndim, 1)}), but got {dim}).")
    return dim % max(ndim, 1)


class TransposeExtView(Primitive):
    """``TransposeExtView()(input, dim0, dim1)``: ``input`` with ``dim0`` and ``dim1`` swapped (a view in
    PYNATIVE)."""

    @prim_attr_register
    def __init__(self):
        pass

    def perm(self, ndim, dim0, dim1):
        d0, d1 = _dim(self.name, dim0, ndim), _dim(self.name, dim1, ndim)
        perm = list(range(ndim))
        if ndim:
            perm[d0], perm[d1] = perm[d1], perm[d0]
        return tuple(perm)

    def infer_shape(self, x, dim0, dim1):
        return tuple(x[p] for p in self.perm(len(x), dim0, dim1))

    def infer_dtype(self, x, dim0, dim1):
        return x

    def bprop(self, x, dim0, dim1, out, dout):
        return self._grad_prim(TransposeExtView)(dout, dim0, dim1), None, None


class SelectView(Primitive):
    """``SelectView()(input, index, dim)``: ``input`` at ``index`` along ``dim``, that dim removed (a view in
    PYNATIVE)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, index, dim):
        if not x:
            raise MSValueError(f"For '{self.name}', the 'input' must have at least 1 dimension, but got a scalar.")
        d = _dim(self.name, dim, len(x))
        rules.check_int(self.name, "index", index)
        if index < 0:
            raise MSRuntimeError(f"For '{self.name}', The int64_t value({index}) is less than 0.")
        if x[d] >= 0 and index >= x[d]:
            raise MSIndexError(f"For '{self.name}', the 'index' must be in [0, {x[d]}) for dim {dim} of shape "
                               f"{tuple(x)}, but got {index}.")
        return tuple(x[:d]) + tuple(x[d + 1:])

    def infer_dtype(self, x, index, dim):
        return x

    def bprop(self, x, index, dim, out, dout):
        d = dim % len(x.shape)
        g = fops.expand_dims(dout, d)
        g = fops.pad(g, _select_pad(len(x.shape), d, index, x.shape[d]))
        return g, None, None


@constexpr
def _select_pad(ndim, d, index, size):
    spec = [0] * (2 * ndim)                # ops.pad: (before, after) pairs from the last axis
    spec[2 * (ndim - 1 - d)] = index
    spec[2 * (ndim - 1 - d) + 1] = size - index - 1
    return tuple(spec)


class CopyWithSlice(Primitive):
    """``CopyWithSlice()(self, src)``: ``src`` copied into ``self`` in place; the copied values returned."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, src):
        if tuple(x) != tuple(src):
            raise MSRuntimeError(f"For '{self.name}', the shape of 'src' must equal the shape of 'self', but got "
                                 f"{tuple(src)} and {tuple(x)}.")
        return tuple(x)

    def infer_dtype(self, x, src):
        if x != src:
            raise MSRuntimeError(f"For '{self.name}', the dtype of 'src' must equal the dtype of 'self', but got "
                                 f"{src} and {x}.")
        return x

    def bprop(self, x, src, out, dout):
        return fops.zeros_like(x), dout


# --- TensorToTuple ------------------------------------------------------------------------------------------
class TensorToTuple(Primitive):
    """``TensorToTuple()(x)``: the elements of the 1-D tensor ``x`` as a tuple of Python scalars (PYNATIVE)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x):
        if isinstance(x, Tensor) and not isinstance(x, TensorSpec):
            if len(x.shape) != 1:
                raise MSValueError(f"For '{self.name}', the input 'x' must be a 1-D tensor, but got shape "
                                   f"{tuple(x.shape)}.")
            return tuple(x.asnumpy().tolist())
        return super().__call__(x)

    def infer_value(self, x):
        if isinstance(x, TensorSpec):
            raise MSTypeError(f"For '{self.name}', the values of the input tensor (shape {tuple(x.shape)}) are "
                              f"only known when the graph runs, so they can not become a tuple in graph mode; "
                              f"call it in PYNATIVE mode or pass the tuple in.")
        raise MSTypeError(f"For '{self.name}', the input 'x' must be a Tensor, but got {type(x).__name__}.")

    bprop = NON_DIFFERENTIABLE


# --- BatchToSpaceNDV2 ---------------------------------------------------------------------------------------
class BatchToSpaceNDV2(Primitive):
    """``BatchToSpaceNDV2()(input_x, block_shape, crops)``: ``BatchToSpaceND`` with ``block_shape`` (M,) and
    ``crops`` (M, 2) given as int tensors; the output's sizes depend on their values, so the kernel settles
    them when it runs (dims unknown before: -1)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, block_shape, crops):
        rules.check_rank(self.name, "block_shape", block_shape, 1)
        rules.check_rank(self.name, "crops", crops, 2)
        m = block_shape[0]
        if m >= 0 and (crops[0] != m and crops[0] >= 0 or crops[1] not in (2, -1)):
            raise MSValueError(f"For '{self.name}', the shape of 'crops' must be (M, 2) = ({m}, 2) for "
                               f"'block_shape' of shape {tuple(block_shape)}, but got {tuple(crops)}.")
        if m >= 0 and len(x) < m + 1:
            raise MSValueError(f"For '{self.name}', the rank of 'input_x' must be at least M + 1 = {m + 1}, but got "
                               f"shape {tuple(x)}.")
        lead = len(x) - m if m >= 0 else 1
        return (-1,) + tuple(x[1:lead]) + (-1,) * (len(x) - lead)

    def infer_dtype(self, x, block_shape, crops):
        for name, d in (("block_shape", block_shape), ("crops", crops)):
            if d not in _INDEX:
                raise MSTypeError(f"For '{self.name}', the '{name}' must be an int32 or int64 Tensor, but got "
                                  f"{d if isinstance(d, mstype.Type) else type(d).__name__}.")
        return rules.check_dtype_in(self.name, "input_x", x, rules.ALL_TYPES)

    def geometry(self, x_shape, block_shape, crops):
        """``(blocks, crops)`` as int tuples from the values, checked as ``BatchToSpaceND`` checks them."""
        blocks = tuple(int(b) for b in block_shape)
        pairs = tuple((int(c0), int(c1)) for c0, c1 in crops)
        if any(b < 1 for b in blocks) or any(min(p) < 0 for p in pairs):
            raise MSValueError(f"For '{self.name}', the values of 'block_shape' must be >= 1 and of 'crops' >= 0, "
                               f"but got {blocks} and {pairs}.")
        BatchToSpaceND(blocks, pairs).infer_shape(tuple(x_shape))
        return blocks, pairs

    bprop = NON_DIFFERENTIABLE


# --- RNNTLoss -----------------------------------------------------------------------------------------------
class RNNTLoss(Primitive):
    """``RNNTLoss(blank_label=0)(acts, labels, input_lengths, label_lengths)``: the RNN transducer loss
    (Graves, 2012) of the logits ``acts`` (B, T, U, V) (a log-softmax over V is applied inside) for the padded
    ``labels`` (B, U - 1), and its gradient with respect to ``acts``: ``(costs (B,), grads (B, T, U, V))``.

    ``costs[b]`` is ``-log`` of the summed probability of every alignment of the ``label_lengths[b]`` labels
    over the first ``input_lengths[b]`` frames (each ends with a blank at the last frame); ``grads`` is zero
    beyond the lengths. The bprop scales ``grads`` by the cost's gradient (as 2.10's: the ``grads`` output
    itself is not differentiated further).
    """

    @prim_attr_register
    def __init__(self, blank_label=0):
        rules.check_int(self.name, "blank_label", blank_label)

    def infer_shape(self, acts, labels, input_lengths, label_lengths):
        rules.check_rank(self.name, "acts", acts, 4)
        rules.check_rank(self.name, "labels", labels, 2)
        rules.check_rank(self.name, "input_lengths", input_lengths, 1)
        rules.check_rank(self.name, "label_lengths", label_lengths, 1)
        b, _, u, v = acts
        for name, shape in (("labels", labels), ("input_lengths", input_lengths), ("label_lengths", label_lengths)):
            if shape[0] != b and -1 not in (shape[0], b):
                raise MSValueError(f"For '{self.name}', the first dimension of '{name}' must be the batch size {b} "
                                   f"of 'acts', but got shape {tuple(shape)}.")
        if labels[1] != u - 1 and -1 not in (labels[1], u):
            raise MSValueError(f"For '{self.name}', the shape of 'labels' must be (B, U - 1) = ({b}, {u - 1}) for "
                               f"'acts' of shape {tuple(acts)}, but got {tuple(labels)}.")
        if v >= 0 and not 0 <= self.blank_label < v:
            raise MSValueError(f"For '{self.name}', the 'blank_label' must be in [0, {v}), but got "
                               f"{self.blank_label}.")
        return (b,), tuple(acts)

    def infer_dtype(self, acts, labels, input_lengths, label_lengths):
        rules.check_dtype_in(self.name, "acts", acts, (mstype.float16, mstype.float32, mstype.float64))
        for name, d in (("labels", labels), ("input_lengths", input_lengths), ("label_lengths", label_lengths)):
            rules.check_dtype_in(self.name, name, d, (mstype.int32,))
        return acts, acts

    def bprop(self, acts, labels, input_lengths, label_lengths, out, dout):
        scale = fops.reshape(dout[0], _batch_col(acts.shape[0]))
        return fops.mul(out[1], scale), None, None, None


@constexpr
def _batch_col(b):
    return (b, 1, 1, 1)


# --- ConfusionMatrix ----------------------------------------------------------------------------------------
_CM_DTYPES = {"int32": mstype.int32, "int64": mstype.int64, "float16": mstype.float16, "float32": mstype.float32,
              "float64": mstype.float64}


class ConfusionMatrix(Primitive):
    """``ConfusionMatrix(num_classes, dtype='int32')(labels, predictions, weights=None)``: the
    (num_classes, num_classes) matrix counting (or summing ``weights`` of) each (label, prediction) pair."""

    @prim_attr_register
    def __init__(self, num_classes, dtype="int32"):
        if isinstance(num_classes, bool) or not isinstance(num_classes, int):
            raise MSTypeError(f"For '{self.name}', the 'num_classes' must be an int, but got "
                              f"{type(num_classes).__name__}.")
        if num_classes < 1:
            raise MSValueError(f"For '{self.name}', the 'num_classes' must be positive, but got {num_classes}.")
        if not isinstance(dtype, str):
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be a str, but got {type(dtype).__name__}.")
        if dtype not in _CM_DTYPES:
            raise MSValueError(f"For '{self.name}', the 'dtype' must be one of {sorted(_CM_DTYPES)}, but got "
                               f"{dtype!r}.")

    def infer_shape(self, labels, predictions, weights=None):
        rules.check_rank(self.name, "labels", labels, 1)
        names = (("predictions", predictions),) + ((("weights", weights),) if weights is not None else ())
        for name, shape in names:
            if tuple(shape) != tuple(labels):
                raise MSValueError(f"For '{self.name}', the shape of '{name}' must equal the shape of 'labels' "
                                   f"{tuple(labels)}, but got {tuple(shape)}.")
        return self.num_classes, self.num_classes

    def infer_dtype(self, labels, predictions, weights=None):
        rules.check_dtype_in(self.name, "labels", labels, rules.INT_TYPES)
        rules.check_dtype_in(self.name, "predictions", predictions, rules.INT_TYPES)
        if weights is not None:
            rules.check_dtype_in(self.name, "weights", weights, rules.NUMBER_TYPES)
        return _CM_DTYPES[self.dtype]

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [EmbeddingLookup, FFTWithSize, TransposeView, TransposeExtView, SelectView, CopyWithSlice,
              TensorToTuple, RNNTLoss, ConfusionMatrix, BatchToSpaceNDV2]
