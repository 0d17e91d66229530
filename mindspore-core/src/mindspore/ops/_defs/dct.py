"""Discrete cosine transforms of MindSpore 2.10 (``mindspore.ops.auto_generate``; the primitives behind
``mindspore.scipy.fft``): ``DCT``, ``IDCT`` (one axis, signal length ``n``) and ``DCTN``, ``IDCTN`` (several
``axes``, signal sizes ``s``).

Each primitive is one block: class, ``infer_shape``, ``infer_dtype``, ``bprop``. As in 2.10 the transform's
parameters are inputs (``DCT()(x, type, n, axis, norm)``) and only the orthonormal type II is implemented
(``type=2``, ``norm`` None or "ortho"); the inverse is the orthonormal type III. The input is zero-padded or
truncated to ``n``/``s`` first. Integer and half inputs give float32, float64 and complex inputs keep their dtype.
The orthonormal DCT-II is an orthogonal matrix ``C``, so the adjoint of ``DCT`` is ``IDCT`` (``C^T = C^-1``) and
the other way round, followed by the adjoint of the padding/truncation (``fft._fit`` back to the input's sizes).
Kernels live in the backends' ``kernels/dct.py`` (``scipy.fft``).
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs.fft import _fit
from mindspore._core.primitive import Primitive, prim_attr_register

_IN_TYPES = (mstype.int16, mstype.int32, mstype.int64, mstype.float16, mstype.float32, mstype.float64,
             mstype.complex64, mstype.complex128)
_KEEP = (mstype.float64, mstype.complex64, mstype.complex128)


def _check_type_norm(type_, norm):
    if type_ != 2:
        raise MSValueError("Only dct type II is supported currently.")
    if norm not in (None, "ortho"):
        raise MSValueError('Only norm "ortho" is supported currently.')


def _check_ints(op, name, v):
    values = v if isinstance(v, (tuple, list)) else (v,)
    if any(isinstance(i, bool) or not isinstance(i, int) for i in values):
        raise MSTypeError(f"For '{op}', the '{name}' must be int or a tuple of int, but got {v}.")
    return tuple(values)


def _axis_in_range(op, name, axis, ndim):
    if not -ndim <= axis < ndim:
        raise MSValueError(f"For primitive[{op}], the {name} must be in [{-ndim},{ndim}), but got {axis}.")
    return axis % ndim


def _out_dtype(op, x):
    rules.check_dtype_in(op, "x", x, _IN_TYPES)
    return x if x in _KEEP else mstype.float32


def _plan_1d(op, shape, n, axis):
    """The axis (made non-negative) and the signal length of a one-axis transform."""
    _check_ints(op, "axis", axis)
    axis = _axis_in_range(op, "axis", axis, len(shape))
    if n is None:
        return axis, shape[axis]
    _check_ints(op, "n", n)
    if n < 1:
        raise MSValueError(f"The argument[n] must be greater than 0, but got {n}.")
    return axis, n


def _plan_nd(op, shape, s, axes):
    """The axes (non-negative) and signal sizes of an N-axis transform: every axis by default, the last
    ``len(s)`` when only ``s`` is given."""
    ndim = len(shape)
    if axes is None:
        axes = tuple(range(ndim)) if s is None else tuple(range(ndim - len(_check_ints(op, "s", s)), ndim))
    axes = tuple(_axis_in_range(op, "axes", a, ndim) for a in _check_ints(op, "axes", axes))
    if len(set(axes)) != len(axes):
        raise MSValueError("The dims must be unique.")
    if s is None:
        return axes, tuple(shape[a] for a in axes)
    s = _check_ints(op, "s", s)
    if len(s) != len(axes):
        raise MSValueError("When given, dim and s arguments must have the same length.")
    for v in s:
        if v < 1:
            raise MSValueError(f"The argument[s] must be greater than 0, but got {v}.")
    return axes, s


def _resized(shape, axes, sizes):
    out = list(shape)
    for a, v in zip(axes, sizes):
        out[a] = v
    return tuple(out)


class _DCT1(Primitive):
    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "type", "n", "axis", "norm"], outputs=["y"])

    def infer_shape(self, x, type_, n, axis, norm):
        _check_type_norm(type_, norm)
        axis, n = _plan_1d(self.name, x, n, axis)
        return _resized(x, (axis,), (n,))

    def infer_dtype(self, x, type_, n, axis, norm):
        return _out_dtype(self.name, x)

    def bprop(self, x, type_, n, axis, norm, out, dout):
        adjoint = IDCT if isinstance(self, DCT) else DCT
        g = self._grad_prim(adjoint)(dout, 2, None, axis, "ortho")
        return _fit(g, x.shape, (axis,)), None, None, None, None


class DCT(_DCT1):
    """``DCT()(x, type=2, n=None, axis=-1, norm=None)``: the orthonormal DCT-II of ``x`` along ``axis``."""


class IDCT(_DCT1):
    """``IDCT()(x, type=2, n=None, axis=-1, norm=None)``: the inverse of the orthonormal DCT-II (a DCT-III)."""


class _DCTN(Primitive):
    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "type", "s", "axes", "norm"], outputs=["y"])

    def infer_shape(self, x, type_, s, axes, norm):
        _check_type_norm(type_, norm)
        axes, s = _plan_nd(self.name, x, s, axes)
        return _resized(x, axes, s)

    def infer_dtype(self, x, type_, s, axes, norm):
        return _out_dtype(self.name, x)

    def bprop(self, x, type_, s, axes, norm, out, dout):
        axes, _ = _plan_nd(self.name, x.shape, s, axes)
        adjoint = IDCTN if isinstance(self, DCTN) else DCTN
        g = self._grad_prim(adjoint)(dout, 2, None, axes, "ortho")
        return _fit(g, x.shape, axes), None, None, None, None


class DCTN(_DCTN):
    """``DCTN()(x, type=2, s=None, axes=None, norm=None)``: the orthonormal DCT-II of ``x`` over ``axes``."""


class IDCTN(_DCTN):
    """``IDCTN()(x, type=2, s=None, axes=None, norm=None)``: the inverse of ``DCTN``."""


PRIMITIVES = [DCT, IDCT, DCTN, IDCTN]
