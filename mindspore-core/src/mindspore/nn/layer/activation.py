"""Activation Cells (``nn.ReLU``, ``nn.GELU``, ...) and :func:`get_activation`.

Each Cell holds the primitive it calls (built once in ``__init__``), as MindSpore's do. Defaults are
MindSpore 2.10's: ``GELU(approximate=True)`` is the tanh formula, ``LeakyReLU(alpha=0.2)``,
``Softmax(axis=-1)``; ``PReLU`` keeps its slope in a Parameter named ``'a'`` (attribute ``w``) that is
clamped to be non-negative on every training call.
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk
from mindspore.ops.function.nn_func import _underflow_kept

__all__ = ["Softmin", "Softmax", "Softmax2d", "LogSoftmax", "ReLU", "ReLU6", "RReLU", "SeLU", "SiLU", "Tanh",
           "Tanhshrink", "Hardtanh", "GELU", "FastGelu", "Sigmoid", "Softsign", "PReLU", "get_activation",
           "LeakyReLU", "HSigmoid", "HSwish", "ELU", "LogSigmoid", "LRN", "SoftShrink", "HShrink", "CELU",
           "Threshold", "Mish", "GLU", "Softplus"]


def _check_axis(op, axis):
    if isinstance(axis, (tuple, list)):
        for a in axis:
            chk.check_int(op, "axis", a)
        return tuple(axis)
    return chk.check_int(op, "axis", axis)


class Softmax(Cell):
    """``exp(x) / sum(exp(x), axis)``.

    Args:
        axis (Union[int, tuple[int]]): the axis to normalise over. Default: ``-1``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> print(nn.Softmax()(ms.Tensor([1.0, 1.0])))
        [0.5 0.5]
    """

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _check_axis(type(self).__name__, axis)
        self.softmax = ops.Softmax(self.axis)

    def construct(self, x):
        return self.softmax(x)


class Softmin(Cell):
    """``softmax(-x, axis)``. ``axis`` defaults to ``-1``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _check_axis(type(self).__name__, axis)
        self.softmax = ops.Softmax(self.axis)

    def construct(self, x):
        return self.softmax(ops.neg(x))


class Softmax2d(Cell):
    """Softmax over the channels (axis -3) of a (C, H, W) or (N, C, H, W) input."""

    def __init__(self):
        super().__init__()
        self.softmax = ops.Softmax(axis=-3)

    def construct(self, x):
        chk.check_rank("Softmax2d", "x", x, (3, 4))
        return self.softmax(x)


class LogSoftmax(Cell):
    """``x - log(sum(exp(x), axis))``; ``axis`` defaults to ``-1``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = chk.check_int(type(self).__name__, "axis", axis)
        self.log_softmax = ops.LogSoftmax(self.axis)

    def construct(self, x):
        return self.log_softmax(x)


class _PrimActivation(Cell):
    """An activation that is one argument-free primitive applied to the input."""

    _prim = None

    def __init__(self):
        super().__init__()
        self.act = getattr(ops, self._prim)()

    def construct(self, x):
        return self.act(x)


class ReLU(_PrimActivation):
    """``max(x, 0)``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> print(nn.ReLU()(ms.Tensor([-1.0, 2.0])))
        [0. 2.]
    """

    _prim = "ReLU"


class ReLU6(_PrimActivation):
    """``min(max(x, 0), 6)``."""

    _prim = "ReLU6"


class Sigmoid(_PrimActivation):
    """``1 / (1 + exp(-x))``."""

    _prim = "Sigmoid"


class Tanh(_PrimActivation):
    """Hyperbolic tangent."""

    _prim = "Tanh"


class HSwish(_PrimActivation):
    """Hard swish: ``x * relu6(x + 3) / 6``."""

    _prim = "HSwish"


class HSigmoid(_PrimActivation):
    """Hard sigmoid: ``relu6(x + 3) / 6``."""

    _prim = "HSigmoid"


class Mish(_PrimActivation):
    """``x * tanh(softplus(x))``."""

    _prim = "Mish"


class SeLU(_PrimActivation):
    """Scaled ELU with the self-normalising constants."""

    _prim = "SeLU"


class Softsign(_PrimActivation):
    """``x / (1 + |x|)``."""

    _prim = "Softsign"


class FastGelu(_PrimActivation):
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``."""

    _prim = "FastGeLU"


class SiLU(Cell):
    """``x * sigmoid(x)``."""

    def __init__(self):
        super().__init__()
        self.sigmoid = ops.Sigmoid()

    def construct(self, x):
        return ops.mul(x, self.sigmoid(x))


class Tanhshrink(Cell):
    """``x - tanh(x)``."""

    def __init__(self):
        super().__init__()
        self.tanh = ops.Tanh()

    def construct(self, x):
        return ops.sub(x, self.tanh(x))


class LogSigmoid(Cell):
    """``log(sigmoid(x))``, composed as MindSpore 2.10's cell composes it: ``log(1 / (exp(x * -1) + 1))`` (its numbers,
    forward and gradient) from x = -44 on; ``x`` itself below, where that composition's gradient underflows to 0 in
    2.10 (and its value to -inf below -88)."""

    def construct(self, x):
        return _underflow_kept(x, _log_reciprocal_sigmoid, -44.0)


def _log_reciprocal_sigmoid(v):
    return ops.log(ops.reciprocal(ops.add(ops.exp(ops.mul(v, -1)), 1)))


class GELU(Cell):
    """Gaussian error linear unit.

    Args:
        approximate (bool): ``True`` (the default, as in MindSpore) uses the tanh approximation
            ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``; ``False`` the exact ``x * Phi(x)``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.GELU()(ms.Tensor([1.0])).shape
        (1,)
    """

    def __init__(self, approximate=True):
        super().__init__()
        self.approximate = chk.check_bool("GELU", "approximate", approximate)
        self.gelu = ops.GeLU() if approximate else None

    def construct(self, x):
        if self.approximate:
            return self.gelu(x)
        return ops.gelu(x, approximate="none")


class LeakyReLU(Cell):
    """``max(alpha * x, x)`` (``min`` when ``alpha > 1``).

    Args:
        alpha (Union[int, float]): the slope for ``x < 0``. Default: ``0.2``.
    """

    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = chk.check_number("LeakyReLU", "alpha", alpha, types=(int, float))
        self.select_op = ops.Minimum() if alpha > 1 else ops.Maximum()

    def construct(self, x):
        return self.select_op(ops.mul(x, self.alpha), x)


class ELU(Cell):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` otherwise. ``alpha`` defaults to ``1.0``."""

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = chk.check_number("ELU", "alpha", alpha, types=(float,))
        self.elu = ops.Elu(float(alpha))

    def construct(self, x):
        return self.elu(x)


class CELU(Cell):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``; ``alpha`` (default 1.0) must not be 0."""

    def __init__(self, alpha=1.0):
        super().__init__()
        alpha = chk.check_number("CELU", "alpha", alpha, types=(float, int))
        if alpha == 0:
            raise MSValueError("For 'CELU', the 'alpha' can not be 0.")
        self.alpha = float(alpha)
        self.celu = ops.CeLU(self.alpha)

    def construct(self, x):
        return self.celu(x)


class Softplus(Cell):
    """``log(1 + exp(beta * x)) / beta``, linear where ``beta * x > threshold``."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = chk.check_number("Softplus", "beta", beta, types=(int, float))
        self.threshold = chk.check_number("Softplus", "threshold", threshold, types=(int, float))

    def construct(self, x):
        return ops.softplus(x, self.beta, self.threshold)


class Hardtanh(Cell):
    """``x`` clamped to ``[min_val, max_val]`` (defaults -1 and 1)."""

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        self.min_val = chk.check_number("Hardtanh", "min_val", min_val, types=(int, float))
        self.max_val = chk.check_number("Hardtanh", "max_val", max_val, types=(int, float))
        if self.min_val > self.max_val:
            raise MSValueError(f"For 'Hardtanh', the 'min_val' must be less than or equal to 'max_val', but got "
                               f"min_val {min_val} and max_val {max_val}.")

    def construct(self, x):
        return ops.hardtanh(x, self.min_val, self.max_val)


class SoftShrink(Cell):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 between (``lambd`` default 0.5)."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = chk.check_number("SoftShrink", "lambd", lambd, lo=0, types=(int, float))
        self.softshrink = ops.SoftShrink(float(lambd))

    def construct(self, input_x):
        return self.softshrink(input_x)


class HShrink(Cell):
    """``x`` where ``|x| > lambd``, 0 elsewhere (``lambd`` default 0.5)."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = chk.check_number("HShrink", "lambd", lambd, types=(int, float))
        self.hshrink = ops.HShrink(float(lambd))

    def construct(self, input_x):
        return self.hshrink(input_x)


class Threshold(Cell):
    """``x`` where ``x > threshold``, ``value`` elsewhere."""

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = chk.check_number("Threshold", "threshold", threshold, types=(int, float))
        self.value = chk.check_number("Threshold", "value", value, types=(int, float))

    def construct(self, input_x):
        return ops.threshold(input_x, self.threshold, self.value)


class GLU(Cell):
    """Gated linear unit: ``a * sigmoid(b)``, ``a`` and ``b`` the halves of the input along ``axis``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.dim = chk.check_int("GLU", "axis", axis)

    def construct(self, x):
        return ops.glu(x, self.dim)


class RReLU(Cell):
    """Randomized leaky ReLU: the negative slope is drawn from U(lower, upper) per element in training and
    is ``(lower + upper) / 2`` otherwise."""

    def __init__(self, lower=1 / 8, upper=1 / 3):
        super().__init__()
        self.lower = chk.check_number("RReLU", "lower", lower, types=(int, float))
        self.upper = chk.check_number("RReLU", "upper", upper, types=(int, float))
        if lower > upper:
            raise MSValueError(f"For 'RReLU', the value of 'upper' must be greater than or equal to 'lower', but got "
                               f"upper: {upper}, lower: {lower}.")
        self.uniform = ops.UniformReal()

    def construct(self, x):
        chk.check_tensor("RReLU", "x", x)
        if self.training:
            u = ops.cast(self.uniform(tuple(x.shape)), x.dtype)
            slope = ops.add(ops.mul(u, self.upper - self.lower), self.lower)
        else:
            slope = (self.lower + self.upper) / 2
        neg = ops.cast(ops.less(x, 0), x.dtype)
        return ops.mul(x, ops.add(ops.mul(neg, ops.sub(slope, 1)), 1))


class PReLU(Cell):
    """``x`` where positive, ``w * x`` otherwise, with a learnable per-channel slope ``w``.

    The slope is the Parameter ``w`` (named ``'a'`` while the cell is top level, as in MindSpore); it is
    passed through ``relu`` before use, and in training the clamped value is written back.

    Args:
        channel (int): number of slopes: 1 or the channel count of the input. Default: ``1``.
        w (Union[float, list, Tensor]): the initial slope(s). Default: ``0.25``.
    """

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        chk.check_positive_int("PReLU", "channel", channel)
        if isinstance(w, (float, np.float32)):
            w = Tensor(np.full((channel,), w, np.float32))
        elif isinstance(w, list):
            if len(w) != channel:
                raise MSValueError(f"For 'PReLU', the length of 'w' must be equal to the 'channel' when the 'w' is "
                                   f"a list, but got the length of 'w': {len(w)}, the 'channel': {channel}.")
            if not all(isinstance(i, (float, np.float32)) for i in w):
                raise MSValueError(f"For 'PReLU', all elements in 'w' must be float when the 'w' is a list, "
                                   f"but got {w}.")
            w = Tensor(np.asarray(w, np.float32))
        elif isinstance(w, Tensor):
            if w.dtype not in (mstype.float16, mstype.float32):
                raise MSValueError(f"For 'PReLU', the dtype of 'w' must be float16 or float32 when the 'w' is a "
                                   f"tensor, but got {w.dtype}.")
            if w.ndim != 1 or w.shape[0] != channel:
                raise MSValueError(f"For 'PReLU', the dimension of 'w' must be 1, and the elements number must be "
                                   f"equal to the 'channel' when the 'w' is a tensor, but got the shape of 'w': "
                                   f"{tuple(w.shape)}, the 'channel': {channel}.")
        else:
            raise MSTypeError(f"For 'PReLU', the 'w' only supported float, list and tensor, but got "
                              f"{type(w).__name__}.")
        self.w = Parameter(w, name="a")
        self.prelu = ops.PReLU()
        self.relu = ops.ReLU()

    def construct(self, x):
        u = self.relu(self.w)
        v = self.prelu(x, ops.cast(u, x.dtype))
        if self.training:
            ops.assign(self.w, u)
        return v


class LRN(Cell):
    """Local response normalisation over channels: ``x / (bias + alpha * sum(x^2 over a window)) ** beta``.

    Args:
        depth_radius (int): half-width of the channel window. Default: ``5``.
        bias (float): Default: ``1.0``. alpha (float): Default: ``1.0``. beta (float): Default: ``0.5``.
        norm_region (str): only ``'ACROSS_CHANNELS'``.
    """

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
        super().__init__()
        self.depth_radius = chk.check_int("LRN", "depth_radius", depth_radius, lo=0)
        self.bias = float(chk.check_number("LRN", "bias", bias, types=(int, float)))
        self.alpha = float(chk.check_number("LRN", "alpha", alpha, types=(int, float)))
        self.beta = float(chk.check_number("LRN", "beta", beta, types=(int, float)))
        chk.check_str("LRN", "norm_region", norm_region, ("ACROSS_CHANNELS",))

    def construct(self, x):
        chk.check_rank("LRN", "x", x, (4,))
        return ops.lrn(x, self.depth_radius, self.bias, self.alpha, self.beta)


_ACTIVATIONS = {
    "softmin": Softmin,
    "softmax": Softmax,
    "softmax2d": Softmax2d,
    "logsoftmax": LogSoftmax,
    "relu": ReLU,
    "relu6": ReLU6,
    "rrelu": RReLU,
    "silu": SiLU,
    "tanh": Tanh,
    "tanhshrink": Tanhshrink,
    "hardtanh": Hardtanh,
    "gelu": GELU,
    "fast_gelu": FastGelu,
    "elu": ELU,
    "sigmoid": Sigmoid,
    "softsign": Softsign,
    "prelu": PReLU,
    "leakyrelu": LeakyReLU,
    "hswish": HSwish,
    "hsigmoid": HSigmoid,
    "logsigmoid": LogSigmoid,
    "softshrink": SoftShrink,
    "hshrink": HShrink,
    "threshold": Threshold,
    "mish": Mish,
}


def get_activation(name, prim_name=None):
    """A new activation Cell from its lower-case name (``'relu'``, ``'gelu'``, ``'leakyrelu'``, ...).

    Args:
        name (str): the activation's name; ``None`` gives ``None``.
        prim_name (str, optional): the caller's name, used in error messages.

    Raises:
        TypeError: if ``name`` is not a str.
        KeyError: if ``name`` is not a known activation.

    Examples:
        >>> from mindspore import nn
        >>> nn.get_activation('relu')
        ReLU<>
    """
    prefix = f"For '{prim_name}', the" if prim_name else "The"
    if name is None:
        return None
    if not isinstance(name, str):
        raise MSTypeError(f"{prefix} 'name' must be str, but got {type(name).__name__}.")
    if name not in _ACTIVATIONS:
        raise KeyError(f"{prefix} 'name' must be in {list(_ACTIVATIONS)}, but got {name}.")
    return _ACTIVATIONS[name]()


# MindSpore groups mindspore.nn's cells into its own modules: a cell imported from its `nn.layer.activation` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.nn")
