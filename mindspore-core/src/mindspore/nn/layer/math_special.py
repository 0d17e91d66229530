"""Special-function Cells of ``mindspore.nn``: ``LGamma``, ``DiGamma``, ``IGamma``, ``LBeta`` and ``MatDet``.

Each is a thin Cell over the ``ops`` function of the same maths (``ops.lgamma`` / ``digamma`` / ``igamma`` /
``cholesky``), so they differentiate and trace under ``@jit`` as those do. What is MindSpore's own on top:

- the dtype checks (float16/float32; ``IGamma`` float32 only, ``y``/``x`` the dtype of the first input), with
  MindSpore's messages;
- ``LGamma(+-inf) = +inf`` (Lanczos + reflection, as MindSpore documents);
- ``IGamma(a, 0) = 0`` and NaN where ``a < 0`` or ``x < 0``;
- ``LBeta(x, y) = lgamma(x) + lgamma(y) - lgamma(x + y)``, evaluated in float64 (MindSpore uses a Stirling series
  above 8 for the same purpose: avoiding the cancellation of large lgammas in float32);
- ``MatDet`` is the determinant of a positive-definite matrix (MindSpore goes through the Cholesky factor,
  ``prod(diag(L)) ** 2``; ``ops.det`` gives the same value with the full, unsymmetrised gradient).
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSTypeError
from mindspore.common import dtype as mstype
from mindspore.nn.cell import Cell

__all__ = ["LGamma", "DiGamma", "IGamma", "LBeta", "MatDet"]

_HALF_FLOAT = (mstype.float16, mstype.float32)


def _check_dtype(op, name, dtype, allowed):
    if dtype in allowed:
        return
    if len(allowed) == 1:
        raise MSTypeError(f"For '{op}', the '{name}' should be {allowed[0]}, but got 'mindspore.{str(dtype).lower()}'.")
    listed = ", ".join(f"mindspore.{str(t).lower()}" for t in allowed)
    raise MSTypeError(f"For '{op}', the '{name}' should be one of [{listed}], but got "
                      f"'mindspore.{str(dtype).lower()}'.")


def _in_float32(fn, *inputs):
    """``fn`` on float32 copies of float16 ``inputs`` (the special-function kernels' widest common type)."""
    dtype = inputs[0].dtype
    if dtype == mstype.float16:
        return fn(*(x.astype(mstype.float32) for x in inputs)).astype(dtype)
    return fn(*inputs)


class LGamma(Cell):
    r"""``log|Gamma(x)|`` elementwise: ``+inf`` at the poles (integers <= 0) and at ``+-inf``.

    Inputs:
        - **x** (Tensor) - float16 or float32.

    Outputs:
        Tensor of the shape and dtype of ``x``.

    Raises:
        TypeError: If ``x`` is neither float16 nor float32.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> out = nn.LGamma()(ms.Tensor(np.array([2., 3., 4.], np.float32)))
        >>> out.asnumpy().astype(np.float64).round(4).tolist()
        [0.0, 0.6931, 1.7918]
    """

    def __init__(self):
        super().__init__()

    def construct(self, x):
        _check_dtype("LGamma", "x", x.dtype, _HALF_FLOAT)
        out = _in_float32(ops.lgamma, x)
        return ops.select(ops.isinf(x), ops.abs(x).astype(out.dtype), out)


class DiGamma(Cell):
    r"""The digamma function ``d/dx log Gamma(x)`` elementwise (``-inf`` at 0, NaN at negative integers).

    Inputs:
        - **x** (Tensor) - float16 or float32.

    Outputs:
        Tensor of the shape and dtype of ``x``.

    Raises:
        TypeError: If ``x`` is neither float16 nor float32.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> out = nn.DiGamma()(ms.Tensor(np.array([1.5, 2.0, 2.5], np.float32)))
        >>> out.asnumpy().astype(np.float64).round(4).tolist()
        [0.0365, 0.4228, 0.7032]
    """

    def __init__(self):
        super().__init__()

    def construct(self, x):
        _check_dtype("DiGamma", "x", x.dtype, _HALF_FLOAT)
        return _in_float32(ops.digamma, x)


class IGamma(Cell):
    r"""The lower regularized incomplete gamma function ``P(a, x) = gamma(a, x) / Gamma(a)`` (broadcast).

    Inputs:
        - **a** (Tensor) - float32.
        - **x** (Tensor) - float32.

    Outputs:
        Tensor of the broadcast shape, float32: 0 where ``x == 0``, NaN where ``a < 0`` or ``x < 0``.

    Raises:
        TypeError: If ``a`` is not float32 or ``x`` is not of ``a``'s dtype.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> a = ms.Tensor(np.array([2.0, 4.0, 6.0, 8.0], np.float32))
        >>> x = ms.Tensor(np.array([2.0, 3.0, 4.0, 5.0], np.float32))
        >>> nn.IGamma()(a, x).asnumpy().astype(np.float64).round(4).tolist()
        [0.594, 0.3528, 0.2149, 0.1334]
    """

    def __init__(self):
        super().__init__()

    def construct(self, a, x):
        _check_dtype("IGamma", "a", a.dtype, (mstype.float32,))
        _check_dtype("IGamma", "x", x.dtype, (a.dtype,))
        out = ops.igamma(a, x)
        out = ops.select(ops.equal(x, 0).broadcast_to(out.shape), ops.zeros_like(out), out)
        domain_error = ops.logical_or(ops.less(x, 0), ops.less(a, 0)).broadcast_to(out.shape)
        return ops.select(domain_error, ops.full_like(out, np.nan), out)


class LBeta(Cell):
    r"""``log|Beta(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y)`` (broadcast), free of the float32
    cancellation between large lgammas.

    Inputs:
        - **x** (Tensor) - float16 or float32.
        - **y** (Tensor) - of ``x``'s dtype.

    Outputs:
        Tensor of the broadcast shape and ``x``'s dtype.

    Raises:
        TypeError: If ``x`` is neither float16 nor float32, or ``y`` is not of ``x``'s dtype.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.array([2.0, 4.0, 6.0, 8.0], np.float32))
        >>> y = ms.Tensor(np.array([2.0, 3.0, 14.0, 15.0], np.float32))
        >>> nn.LBeta()(x, y).asnumpy().astype(np.float64).round(3).tolist()
        [-1.792, -4.094, -12.0, -14.755]
    """

    def __init__(self):
        super().__init__()

    def construct(self, x, y):
        _check_dtype("LBeta", "x", x.dtype, _HALF_FLOAT)
        _check_dtype("LBeta", "y", y.dtype, (x.dtype,))
        x64, y64 = x.astype(mstype.float64), y.astype(mstype.float64)
        out = ops.lgamma(x64) + ops.lgamma(y64) - ops.lgamma(x64 + y64)
        return out.astype(x.dtype)


class MatDet(Cell):
    r"""The determinant of a (batch of) positive-definite matrix.

    Inputs:
        - **a** (Tensor) - float16 or float32, shape (..., M, M), positive definite.

    Outputs:
        Tensor of shape ``a.shape[:-2]`` and ``a``'s dtype.

    Raises:
        TypeError: If ``a`` is neither float16 nor float32.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> a = ms.Tensor(np.array([[4., 12., -16.], [12., 37., -43.], [-16., -43., 98.]], np.float32))
        >>> round(float(nn.MatDet()(a)), 3)
        36.0
    """

    def __init__(self):
        super().__init__()

    def construct(self, a):
        _check_dtype("MatDet", "input_a", a.dtype, _HALF_FLOAT)
        return _in_float32(ops.det, a)
