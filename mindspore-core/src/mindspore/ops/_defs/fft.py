"""Discrete Fourier transforms: ``FFTN`` (complex to complex, forward or inverse), ``RFFTN`` (real to the
one-sided complex spectrum) and ``IRFFTN`` (one-sided spectrum to real), each over ``axes`` with the signal
``sizes`` (zero-padded or truncated first, as NumPy's ``s``) and a ``norm`` of "backward", "forward" or
"ortho". The functional API (``ops.fft``, ``ops.rfft2``, ``ops.hfftn``, ...) is built on these three.

Each primitive is one block: class, ``infer_shape``, ``infer_dtype``, ``bprop``. Gradients follow MindSpore's
(and PyTorch's) convention for complex tensors (``dL/dRe + i dL/dIm``): the adjoint of a transform is the
opposite transform under the dual normalisation (backward <-> forward, ortho stays), followed by the adjoint of
the padding/truncation (a truncation or a zero padding back to the input's sizes); ``RFFTN``'s adjoint zero-pads
the half spectrum and keeps the real part of the inverse, ``IRFFTN``'s is ``RFFTN`` with the bins that stand for
two conjugate bins doubled. Kernels live in the backends' ``kernels/fft.py`` (``numpy.fft`` / ``cupy.fft``).
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.complex_ops import Real
from mindspore._core.primitive import Primitive, constexpr, prim_attr_register

_COMPLEX = (mstype.complex64, mstype.complex128)
_REAL = (mstype.float32, mstype.float64)
_REAL_OF = {mstype.complex64: mstype.float32, mstype.complex128: mstype.float64}
_COMPLEX_OF = {mstype.float32: mstype.complex64, mstype.float64: mstype.complex128}
_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


class _Transform(Primitive):
    @prim_attr_register
    def __init__(self, axes, sizes, norm="backward"):
        self._check(axes, sizes, norm)

    def _check(self, axes, sizes, norm):
        if norm not in _DUAL:
            raise MSValueError(f"For '{self.name}', the 'norm' must be 'backward', 'forward' or 'ortho', but got "
                               f"{norm!r}.")
        if len(axes) != len(sizes) or len(set(axes)) != len(axes) or not axes:
            raise MSValueError(f"For '{self.name}', 'axes' {axes} must be distinct and match 'sizes' {sizes}.")
        if any(s < 1 for s in sizes):
            raise MSValueError(f"For '{self.name}', the signal sizes must be positive, but got {sizes}.")

    def _axes(self, shape):
        return tuple(rules.check_axis(self.name, a, len(shape)) for a in self.axes)

    def _out_shape(self, shape, last=None):
        out = list(shape)
        for a, s in zip(self._axes(shape), self.sizes):
            out[a] = s
        if last is not None:
            out[self._axes(shape)[-1]] = last
        return tuple(out)


@constexpr
def _fit_plan(shape, target, axes):
    """Per axis of ``axes``: ('narrow', length) or ('pad', amount) taking ``shape`` to ``target``."""
    plan = []
    for a in axes:
        a = a % len(shape)
        if shape[a] > target[a]:
            plan.append((a, "narrow", target[a]))
        elif shape[a] < target[a]:
            plan.append((a, "pad", target[a] - shape[a]))
    return tuple(plan)


@constexpr
def _pad_spec(ndim, axis, amount):
    spec = [0] * (2 * ndim)
    spec[2 * (ndim - 1 - axis) + 1] = amount       # ops.pad takes (before, after) pairs from the last axis
    return tuple(spec)


def _fit(g, target, axes):
    """``g`` truncated or zero-padded along ``axes`` to the sizes of ``target``."""
    for a, how, n in _fit_plan(g.shape, target, axes):
        if how == "narrow":
            g = fops.narrow(g, a, 0, n)
        else:
            g = fops.pad(g, _pad_spec(len(g.shape), a, n))
    return g


@constexpr
def _half_weights(n, m):
    """The weights of the one-sided bins (length m) of a real signal of length n: 2 for the bins standing for
    a conjugate pair, 1 for the zero (and, n even, the Nyquist) bin."""
    return tuple(1.0 if k == 0 or (n % 2 == 0 and k == n // 2) else 2.0 for k in range(m))


# --- FFTN ------------------------------------------------------------------------------------
class FFTN(_Transform):
    """``FFTN(axes, sizes, norm='backward', inverse=False)(x)``: the complex DFT of ``x`` over ``axes``."""

    @prim_attr_register
    def __init__(self, axes, sizes, norm="backward", inverse=False):
        self._check(axes, sizes, norm)
        rules.check_bool(self.name, "inverse", inverse)

    def infer_shape(self, x):
        return self._out_shape(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input", x, _COMPLEX)

    def bprop(self, x, out, dout):
        g = self._grad_prim(FFTN, self.axes, self.sizes, _DUAL[self.norm], not self.inverse)(dout)
        return (_fit(g, x.shape, self.axes),)


class RFFTN(_Transform):
    """``RFFTN(axes, sizes, norm='backward')(x)``: the DFT of real ``x`` over ``axes``, the last of them kept
    one-sided (``sizes[-1] // 2 + 1`` bins)."""

    def infer_shape(self, x):
        return self._out_shape(x, self.sizes[-1] // 2 + 1)

    def infer_dtype(self, x):
        return _COMPLEX_OF[rules.check_dtype_in(self.name, "input", x, _REAL)]

    def bprop(self, x, out, dout):
        full = _fit(dout, self._out_shape(x.shape), self.axes[-1:])
        g = self._grad_prim(Real)(self._grad_prim(FFTN, self.axes, self.sizes, _DUAL[self.norm], True)(full))
        return (_fit(g, x.shape, self.axes),)


class IRFFTN(_Transform):
    """``IRFFTN(axes, sizes, norm='backward')(x)``: the real signal (``sizes`` long over ``axes``) whose
    one-sided spectrum over ``axes`` is ``x`` (its last axis fitted to ``sizes[-1] // 2 + 1`` bins)."""

    def infer_shape(self, x):
        return self._out_shape(x)

    def infer_dtype(self, x):
        return _REAL_OF[rules.check_dtype_in(self.name, "input", x, _COMPLEX)]

    def bprop(self, x, out, dout):
        n = self.sizes[-1]
        g = self._grad_prim(RFFTN, self.axes, self.sizes, _DUAL[self.norm])(dout)
        last = self.axes[-1] % len(x.shape)
        weights = fops.tuple_to_array(_half_weights(n, n // 2 + 1))
        shape = _weight_shape(len(x.shape), last, n // 2 + 1)
        g = fops.mul(g, fops.cast(fops.reshape(weights, shape), fops.dtype(g)))
        return (_fit(g, x.shape, self.axes),)


@constexpr
def _weight_shape(ndim, axis, m):
    return tuple(m if i == axis else 1 for i in range(ndim))


def check_norm(op, norm):
    """``norm`` (None means "backward") checked as the functional API does."""
    norm = "backward" if norm is None else norm
    if norm not in _DUAL:
        raise MSValueError(f"For '{op}', the 'norm' must be 'backward', 'forward' or 'ortho', but got {norm!r}.")
    return norm


def swap_norm(norm):
    """The normalisation the Hermitian transforms hand to their real counterparts (backward <-> forward)."""
    return _DUAL[norm]


def real_dtype_error(op, dtype):
    return MSTypeError(f"For '{op}', the 'input' must be a real tensor, but got {dtype}.")


PRIMITIVES = [FFTN, RFFTN, IRFFTN]
