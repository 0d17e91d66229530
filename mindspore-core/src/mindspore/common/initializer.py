"""Parameter initializers (``mindspore.common.initializer``).

Design
------
An :class:`Initializer` fills a host NumPy array in place: ``init(arr)`` calls ``init._initialize(arr)``,
exactly MindSpore's contract, so user subclasses that override ``_initialize(self, arr)`` keep working.
:func:`initializer` does not draw anything: it returns a *lazily initialised* Tensor
(``Tensor(shape=..., dtype=..., init=<Initializer>)``); the draw happens when the data is first needed
(``Tensor.init_data()``, which calls :meth:`Initializer._generate`).

Formulas and defaults follow MindSpore 2.10:

* fan_in / fan_out: for a 2-D weight ``(out, in)`` they are ``in`` / ``out``; for a convolution weight
  ``(out, in, *kernel)`` both are multiplied by the receptive field ``prod(kernel)``.
* ``HeUniform``: ``U(-b, b)`` with ``b = gain * sqrt(3 / fan)``; ``HeNormal``: ``N(0, (gain / sqrt(fan))^2)``;
  ``gain`` is ``sqrt(2 / (1 + negative_slope^2))`` for leaky_relu (``negative_slope=0`` -> ``sqrt(2)``).
* ``XavierUniform``: ``U(-b, b)``, ``b = gain * sqrt(6 / (fan_in + fan_out))``; ``XavierNormal``:
  ``N(0, (gain * sqrt(2 / (fan_in + fan_out)))^2)``.
* ``TruncatedNormal(sigma, mean, a, b)``: ``N(mean, sigma^2)`` restricted to the absolute interval ``[a, b]``
  (inverse-CDF sampling, like MindSpore's kernel).
* ``VarianceScaling``: ``scale / n`` with ``n`` = fan_in, fan_out or their mean; untruncated normal with std
  ``sqrt(scale / n)``, otherwise uniform with limit ``sqrt(3 * scale / n)`` (2.10 compares the distribution with
  a misspelt ``'truncated_norm'``, so ``'truncated_normal'``, its default, draws the uniform one).

Random streams are MindSpore 2.10's, bit for bit: each random fill takes one ``np.random.randint(1, 2**63)`` from
NumPy's global legacy generator (which ``ms.set_seed(s)`` seeds with ``s``) and fills a float32 buffer from the
Philox stream of that seed (:mod:`mindspore.common._philox`, or a plugin's native fill of the same bits offered
through the ``ms_random_fills`` hook: the CPU backend's C++); other dtypes are cast from it. ``Sparse`` draws its
zero rows with ``np.random.permutation``. So ``ms.set_seed(s); nn.Dense(2, 3)`` starts from 2.10's weights, and
so does a network built after the user's own ``np.random.seed(s)``.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore._plugin import manager as _plugins
from mindspore.common import _philox
from mindspore.common.tensor import Tensor

__all__ = [
    "Initializer", "initializer", "TruncatedNormal", "Normal", "Uniform", "HeUniform", "HeNormal",
    "XavierUniform", "XavierNormal", "One", "Zero", "Constant", "Identity", "Sparse", "Dirac", "Orthogonal",
    "VarianceScaling",
]

_INITIALIZER_ALIAS = {}


class Initializer:
    """The base class of initializers: a subclass fills a NumPy array in ``_initialize(self, arr)``.

    Args:
        kwargs (dict): the initializer's arguments (kept in ``self._kwargs``).

    Examples:
        >>> import numpy as np
        >>> from mindspore.common.initializer import Initializer, initializer
        >>> class Twos(Initializer):
        ...     def _initialize(self, arr):
        ...         arr.fill(2)
        >>> print(initializer(Twos(), [2], np.float32).init_data())
        [2. 2.]
    """

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._seed = None

    @property
    def seed(self):
        return self._seed

    @seed.setter
    def seed(self, value):
        self._seed = value

    def _initialize(self, arr):
        raise MSTypeError(f"'{type(self).__name__}' must override '_initialize(self, arr)' to be an initializer.")

    def __call__(self, arr):
        """Fill the NumPy array ``arr`` in place."""
        return self._initialize(arr)

    def _generate(self, shape, dtype):
        """A host array of ``shape`` and MindSpore ``dtype`` filled by this initializer."""
        np_dtype = mstype.to_ms_dtype(dtype).to_numpy()
        if np_dtype is None:
            raise MSTypeError(f"For 'initializer', the dtype {dtype} can not hold initialized data.")
        arr = np.zeros(tuple(shape), dtype=np_dtype)
        self(arr)
        return arr

    # no __repr__: as in 2.10, a Cell's repr shows "weight_init=<mindspore.common.initializer.HeUniform object
    # at 0x...>"


def _register(*aliases):
    """Register a class under its lower-cased name and ``aliases`` (what ``initializer('name')`` looks up)."""
    def reg(cls):
        for name in (cls.__name__.lower(),) + aliases:
            _INITIALIZER_ALIAS.setdefault(name, cls)
        return cls
    return reg


def _assignment(arr, value):
    """Write ``value`` (array or scalar) into ``arr`` in place, casting to ``arr``'s dtype."""
    with np.errstate(invalid="ignore", over="ignore"):
        arr[...] = np.asarray(value).astype(arr.dtype, copy=False) if np.ndim(value) else value
    return arr


def _numpy_seed():
    """The seed of one random fill: a draw from NumPy's global legacy generator, as 2.10 makes it (so building a
    network moves that stream exactly as far as 2.10 does)."""
    return int(np.random.randint(low=1, high=(1 << 63), dtype=np.int64))


def _random_fill(kind, seed, out, *args):
    """Fill the float32 array ``out`` in place, in C order, from 2.10's ``kind`` stream of ``seed`` (``"uniform"``
    (a, b), ``"normal"`` (mean, sigma), ``"truncated_normal"`` (a, b, mean, sigma)): with a plugin's native fill
    when one is offered (``ms_random_fills``, the CPU backend's C++), else with core's NumPy one; same bits."""
    fill = _plugins.random_fill(kind)
    buf = out if out.flags.c_contiguous and out.flags.writeable else np.empty(out.shape, np.float32)
    if fill is not None:
        fill(seed, buf, *args)
    else:
        buf[...] = getattr(_philox, kind)(seed, buf.size, *args).reshape(buf.shape)
    if buf is not out:
        out[...] = buf
    return out


def _fill(arr, kind, *args):
    """Fill ``arr`` in place from one fresh seed's ``kind`` stream (through a float32 buffer, cast, for other
    dtypes, as 2.10 does)."""
    if arr.dtype == np.float32:
        return _random_fill(kind, _numpy_seed(), arr, *args)
    return _assignment(arr, _random_fill(kind, _numpy_seed(), np.empty(arr.shape, np.float32), *args))


def _fill_uniform(arr, low, high):
    """Fill ``arr`` in place from 2.10's U[low, high) stream."""
    return _fill(arr, "uniform", low, high)


def _fill_normal(arr, mean, sigma):
    """Fill ``arr`` in place from 2.10's N(mean, sigma^2) stream."""
    if sigma < 0:
        raise MSValueError("sigma < 0")
    return _fill(arr, "normal", mean, sigma)


def _fill_truncated_normal(arr, a, b, mean, sigma):
    """Fill ``arr`` in place from 2.10's truncated normal stream (N(mean, sigma^2) within [a, b])."""
    if sigma < 0:
        raise MSValueError("sigma < 0")
    if sigma == 0:
        raise RuntimeError(f"TruncatedNormal: invalid sigma {float(sigma):g}.")
    return _fill(arr, "truncated_normal", a, b, mean, sigma)


# MindSpore 2.10's private draw helpers under their names (MindNLP's ``nn.init`` imports ``_init_random_uniform``):
# float32 arrays of ``shape``, drawn as the initializers above draw
def _init_random_uniform(a, b, shape):
    return _fill_uniform(np.empty(shape, np.float32), a, b)


def _init_random_normal(mean, sigma, shape):
    return _fill_normal(np.empty(shape, np.float32), mean, sigma)


def _init_truncated_normal(a, b, mean, sigma, shape):
    return _fill_truncated_normal(np.empty(shape, np.float32), a, b, mean, sigma)


def _calculate_fan_in_and_fan_out(shape):
    """(fan_in, fan_out) of a weight: ``(out, in)`` for 2-D, times the receptive field for conv weights."""
    dimensions = len(shape)
    if dimensions < 2:
        raise MSValueError("'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 dimensions, "
                           f"but got dimensions {dimensions}.")
    receptive_field = 1
    for s in shape[2:]:
        receptive_field *= s
    return shape[1] * receptive_field, shape[0] * receptive_field


def _calculate_correct_fan(shape, mode):
    mode = mode.lower() if isinstance(mode, str) else mode
    if mode not in ("fan_in", "fan_out"):
        raise MSValueError(f"'mode' {mode} not supported, please use one of ['fan_in', 'fan_out'].")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    return fan_in if mode == "fan_in" else fan_out


def _calculate_gain(nonlinearity, param=None):
    """The recommended gain for ``nonlinearity`` (torch's table, as MindSpore uses it)."""
    linear_fns = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d", "sigmoid")
    if nonlinearity in linear_fns:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise MSValueError(f"For 'HeUniform', 'negative_slope' {param} is not a valid number. When "
                               "'nonlinearity' has been set to 'leaky_relu', 'negative_slope' should be int or "
                               f"float type, but got {type(param)}.")
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise MSValueError("For 'HeUniform', the argument 'nonlinearity' should be one of ['sigmoid', 'tanh', 'relu' "
                       f"or 'leaky_relu'], but got {nonlinearity}.")


@_register("zeros")
class Zero(Initializer):
    """Fills with zeros (``initializer('zeros', ...)``).

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, Zero
        >>> print(initializer(Zero(), [2], mindspore.float32).init_data())
        [0. 0.]
    """

    def _initialize(self, arr):
        arr.fill(0)


@_register("ones")
class One(Initializer):
    """Fills with ones (``initializer('ones', ...)``).

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, One
        >>> print(initializer(One(), [2], mindspore.float32).init_data())
        [1. 1.]
    """

    def _initialize(self, arr):
        arr.fill(1)


class Constant(Initializer):
    """Fills with ``value`` (a number or an array broadcastable to the shape).

    Args:
        value (Union[int, float, numpy.ndarray]): the value.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, Constant
        >>> print(initializer(Constant(3), [2], mindspore.float32).init_data())
        [3. 3.]
    """

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr):
        value = self.value.asnumpy() if isinstance(self.value, Tensor) else self.value
        _assignment(arr, np.broadcast_to(value, arr.shape) if np.ndim(value) else value)


@_register("xavier_normal")
class XavierNormal(Initializer):
    r"""Xavier (Glorot) normal: :math:`N(0, \sigma^2)`, :math:`\sigma = gain\sqrt{2 / (fan_{in} + fan_{out})}`.

    Args:
        gain (float): scaling factor. Default: ``1``.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, XavierNormal
        >>> w = initializer(XavierNormal(), [3, 4], mindspore.float32)
    """

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        std = self.gain * math.sqrt(2.0 / float(fan_in + fan_out))
        _fill_normal(arr, 0, std)


@_register("xavier_uniform")
class XavierUniform(Initializer):
    r"""Xavier (Glorot) uniform: :math:`U(-b, b)`, :math:`b = gain\sqrt{6 / (fan_{in} + fan_{out})}`.

    Args:
        gain (float): scaling factor. Default: ``1``.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, XavierUniform
        >>> w = initializer('xavier_uniform', [3, 4], mindspore.float32)
    """

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        _fill_uniform(arr, -bound, bound)


@_register("he_uniform")
class HeUniform(Initializer):
    r"""He (Kaiming) uniform: :math:`U(-b, b)`, :math:`b = gain\sqrt{3 / fan\_mode}`.

    Args:
        negative_slope (Union[int, float]): slope of the rectifier after this layer (leaky_relu only). Default: ``0``.
        mode (str): ``'fan_in'`` or ``'fan_out'``. Default: ``'fan_in'``.
        nonlinearity (str): ``'relu'``, ``'leaky_relu'``, ``'tanh'``, ``'sigmoid'``, ``'linear'``...
            Default: ``'leaky_relu'``.

    Examples:
        >>> import math
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, HeUniform
        >>> w = initializer(HeUniform(negative_slope=math.sqrt(5)), [8, 3, 3, 3], mindspore.float32)
    """

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = mode
        self.nonlinearity = nonlinearity

    def _initialize(self, arr):
        fan = _calculate_correct_fan(arr.shape, self.mode)
        gain = _calculate_gain(self.nonlinearity, self.negative_slope)
        bound = math.sqrt(3.0) * (gain / math.sqrt(fan))   # 2.10's rounding order (the bound is a float32)
        _fill_uniform(arr, -bound, bound)


@_register("he_normal")
class HeNormal(Initializer):
    r"""He (Kaiming) normal: :math:`N(0, \sigma^2)`, :math:`\sigma = gain / \sqrt{fan\_mode}`.

    Args:
        negative_slope (Union[int, float]): slope of the rectifier after this layer (leaky_relu only). Default: ``0``.
        mode (str): ``'fan_in'`` or ``'fan_out'``. Default: ``'fan_in'``.
        nonlinearity (str): the non-linearity. Default: ``'leaky_relu'``.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, HeNormal
        >>> w = initializer(HeNormal(), [8, 3, 3, 3], mindspore.float32)
    """

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = mode
        self.nonlinearity = nonlinearity

    def _initialize(self, arr):
        fan = _calculate_correct_fan(arr.shape, self.mode)
        gain = _calculate_gain(self.nonlinearity, self.negative_slope)
        _fill_normal(arr, 0, gain / math.sqrt(fan))


@_register()
class Identity(Initializer):
    """The 2-D identity matrix (``numpy.eye``; non-square shapes get ones on the main diagonal).

    Raises:
        ValueError: if the tensor is not 2-D.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, Identity
        >>> print(initializer(Identity(), [2, 3], mindspore.float32).init_data())
        [[1. 0. 0.]
         [0. 1. 0.]]
    """

    def _initialize(self, arr):
        if arr.ndim != 2:
            raise MSValueError("For Identity initializer, the dimension of the initialized tensor should be 2, "
                               f"but got {arr.ndim}.")
        _assignment(arr, np.eye(arr.shape[0], arr.shape[1]))


@_register()
class Sparse(Initializer):
    """A 2-D matrix drawn from ``N(0, sigma^2)`` with ``ceil(sparsity * rows)`` zeros in every column.

    Args:
        sparsity (float): the fraction of each column set to zero.
        sigma (float): standard deviation of the non-zero values. Default: ``0.01``.

    Raises:
        ValueError: if the tensor is not 2-D.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, Sparse
        >>> w = initializer(Sparse(sparsity=0.1, sigma=0.01), [5, 8], mindspore.float32)
    """

    def __init__(self, sparsity, sigma=0.01):
        super().__init__(sparsity=sparsity, sigma=sigma)
        self.sparsity = sparsity
        self.sigma = sigma

    def _initialize(self, arr):
        if arr.ndim != 2:
            raise MSValueError("For Sparse initializer, the dimension of the initialized tensor should be 2, "
                               f"but got {arr.ndim}.")
        rows, cols = arr.shape
        zero_num = int(np.ceil(self.sparsity * rows))
        data = _init_random_normal(0, self.sigma, arr.shape)
        # one permutation of the rows per column from NumPy's global stream, column by column, as 2.10 draws them
        for col in range(cols):
            data[np.random.permutation(rows)[:zero_num], col] = 0.
        _assignment(arr, data)


@_register()
class Dirac(Initializer):
    """The Dirac delta for 3-D/4-D/5-D convolution weights: a convolution with it is the identity (per group).

    Args:
        groups (int): the number of groups of the convolution. Default: ``1``.

    Raises:
        ValueError: if the tensor is not 3-D, 4-D or 5-D, or its first dimension is not divisible by ``groups``.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, Dirac
        >>> w = initializer(Dirac(groups=2), [6, 4, 3, 3], mindspore.float32)
    """

    def __init__(self, groups=1):
        super().__init__(groups=groups)
        self.groups = groups

    def _initialize(self, arr):
        shape = arr.shape
        if len(shape) not in (3, 4, 5):
            raise MSValueError("For Dirac initializer, only support to initialize tensor with dimension of 3, 4 or 5, "
                               f"but got {len(shape)}.")
        if shape[0] % self.groups != 0:
            raise MSValueError("For Dirac initializer, the first dimension of the initialized tensor must be divisible "
                               f"by groups, but got first dimension {shape[0]}, groups {self.groups}.")
        out_per_group = shape[0] // self.groups
        min_dim = min(out_per_group, shape[1])
        data = np.zeros(shape)
        group, dim = np.meshgrid(np.arange(self.groups), np.arange(min_dim), indexing="ij")
        centre = tuple(s // 2 for s in shape[2:])
        data[((group * out_per_group + dim).ravel(), dim.ravel()) + centre] = 1
        _assignment(arr, data)


@_register()
class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix (trailing dimensions flattened), scaled by ``gain``.

    Args:
        gain (float): scaling factor. Default: ``1.``.

    Raises:
        ValueError: if the tensor has fewer than 2 dimensions.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, Orthogonal
        >>> w = initializer(Orthogonal(gain=2.), [2, 3, 4], mindspore.float32)
    """

    def __init__(self, gain=1.):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        if arr.ndim < 2:
            raise MSValueError("For Orthogonal initializer, the dimension of the initialized tensor should be no less "
                               f"than 2, but got {arr.ndim}.")
        rows = arr.shape[0]
        cols = int(np.prod(arr.shape)) // rows
        data = _init_random_normal(0, 1, (rows, cols))   # float32, and so is the QR below, as in 2.10
        if rows < cols:
            data = data.T
        q, r = np.linalg.qr(data)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        _assignment(arr, (q * self.gain).reshape(arr.shape))


@_register()
class VarianceScaling(Initializer):
    r"""Scaled random values: std :math:`\sqrt{scale / n}` with :math:`n` from ``mode``.

    Args:
        scale (float): the scaling factor, > 0. Default: ``1.0``.
        mode (str): ``'fan_in'``, ``'fan_out'`` or ``'fan_avg'``. Default: ``'fan_in'``.
        distribution (str): ``'truncated_normal'``, ``'untruncated_normal'`` or ``'uniform'``.
            Default: ``'truncated_normal'``.

    Raises:
        ValueError: if ``scale`` is not positive, or ``mode``/``distribution`` is not one of the above.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, VarianceScaling
        >>> w = initializer(VarianceScaling(scale=1.0, mode='fan_out', distribution='untruncated_normal'),
        ...                 [2, 3], mindspore.float32)
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal"):
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0.:
            raise MSValueError(f"For VarianceScaling initializer, the argument 'scale' must be greater than 0, "
                               f"but got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise MSValueError(f"For VarianceScaling initializer, the argument 'mode' must be fan_in, fan_out or "
                               f"fan_avg, but got {mode}.")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise MSValueError(f"For VarianceScaling initializer, the argument 'distribution' must be uniform, "
                               f"truncated_normal or untruncated_normal, but got {distribution}.")
        self.scale = scale
        self.mode = mode
        self.distribution = distribution

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.}[self.mode]
        scale = self.scale / max(1., n)
        # 2.10 tests for 'truncated_norm', which no accepted 'distribution' equals: 'truncated_normal' draws the
        # uniform branch there, and so it does here (the same weights as 2.10)
        if self.distribution == "untruncated_normal":
            _assignment(arr, _init_random_normal(0, math.sqrt(scale), arr.shape))
        else:
            limit = math.sqrt(3.0 * scale)
            _assignment(arr, _init_random_uniform(-limit, limit, arr.shape))


@_register()
class Uniform(Initializer):
    """Uniform values in ``[-scale, scale]``.

    Args:
        scale (float): the bound. Default: ``0.07``.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, Uniform
        >>> w = initializer(Uniform(), [1, 2, 3], mindspore.float32)
    """

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr):
        _fill_uniform(arr, -self.scale, self.scale)


@_register()
class Normal(Initializer):
    """Normal values :math:`N(mean, sigma^2)`.

    Args:
        sigma (float): standard deviation. Default: ``0.01``.
        mean (float): mean. Default: ``0.0``.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, Normal
        >>> w = initializer(Normal(), [1, 2, 3], mindspore.float32)
    """

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = sigma
        self.mean = mean

    def _initialize(self, arr):
        _fill_normal(arr, self.mean, self.sigma)


@_register()
class TruncatedNormal(Initializer):
    """Normal values :math:`N(mean, sigma^2)` restricted to the interval ``[a, b]``.

    Args:
        sigma (float): standard deviation of the untruncated normal. Default: ``0.01``.
        mean (float): mean of the untruncated normal. Default: ``0.0``.
        a (float): lower bound. Default: ``-2.0``.
        b (float): upper bound. Default: ``2.0``.

    Examples:
        >>> import mindspore
        >>> from mindspore.common.initializer import initializer, TruncatedNormal
        >>> w = initializer(TruncatedNormal(), [1, 2, 3], mindspore.float32)
        >>> w = initializer('truncatedNormal', [1, 2, 3], mindspore.float32)
    """

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma = sigma
        self.mean = mean
        self.a = a
        self.b = b

    def _initialize(self, arr):
        _fill_truncated_normal(arr, self.a, self.b, self.mean, self.sigma)


def _check_shape(shape):
    if isinstance(shape, list):
        shape = tuple(shape)
    elif isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, tuple) or any(
            isinstance(s, bool) or not isinstance(s, numbers.Integral) or s <= 0 for s in shape):
        raise MSValueError(f"For 'initializer', the argument 'shape' is invalid, the value of 'shape' must be "
                           f"positive integer, but got {shape}")
    return tuple(int(s) for s in shape)


def _given_tensor(init, shape, dtype):
    if isinstance(init, np.ndarray):
        init = Tensor(init, dtype=dtype)
    if shape is not None:
        expected = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
        if tuple(init.shape) != expected:
            raise MSValueError("For 'initializer', the shape of the 'init' argument should be same as the argument "
                               f"'shape', but got the 'init' shape {list(init.shape)} and the 'shape' "
                               f"{list(expected)}.")
    return init


def initializer(init, shape=None, dtype=mstype.float32):
    """A lazily initialised Tensor of ``shape`` and ``dtype`` whose data ``init`` will produce.

    The data is drawn when first needed (``Tensor.init_data()``, or any use of the tensor).

    Args:
        init (Union[Tensor, numpy.ndarray, str, Initializer, numbers.Number]): how to fill the tensor:

            - ``str``: the (case-insensitive) name of an initializer class or alias: ``'normal'``, ``'ones'``,
              ``'zeros'``, ``'uniform'``, ``'truncatedNormal'``, ``'xavier_uniform'``, ``'he_uniform'``, ...;
            - an :class:`Initializer` instance;
            - a number: :class:`Constant` of that number;
            - a Tensor (returned as it is) or a NumPy array (converted to ``dtype``); its shape must match ``shape``.

        shape (Union[tuple, list, int]): the shape, positive integers. Default: ``None``.
        dtype (:class:`mindspore.dtype`): the element type. Default: ``mindspore.float32``.

    Returns:
        Tensor.

    Raises:
        TypeError: if ``init`` has a wrong type.
        ValueError: if ``shape`` is invalid, ``init`` names no initializer, or a given tensor's shape differs
            from ``shape``.

    Examples:
        >>> import numpy as np
        >>> import mindspore
        >>> from mindspore import Tensor
        >>> from mindspore.common.initializer import initializer, One
        >>> data = Tensor(np.zeros([1, 2, 3]), mindspore.float32)
        >>> tensor1 = initializer(data, [1, 2, 3], mindspore.float32)
        >>> tensor2 = initializer('ones', [1, 2, 3], mindspore.float32)
        >>> tensor3 = initializer(One(), [1, 2, 3], mindspore.float32)
        >>> tensor4 = initializer(0, [1, 2, 3], mindspore.float32)
        >>> print(tensor2.init_data().shape)
        (1, 2, 3)
    """
    if not isinstance(init, (Tensor, np.ndarray, numbers.Number, str, Initializer)):
        raise MSTypeError("For 'initializer', the type of the 'init' argument should be 'Tensor', 'number', 'string' "
                          f"or 'initializer', but got {type(init)}.")
    dtype = mstype.to_ms_dtype(dtype)
    if isinstance(init, (Tensor, np.ndarray)):
        return _given_tensor(init, shape, dtype)
    if shape is None:
        shape = getattr(init, "shape", None)
        if shape is None:
            raise MSValueError("For 'initializer', the argument 'shape' must be given when 'init' is not a Tensor.")
    shape = _check_shape(shape)
    if isinstance(init, str):
        cls = _INITIALIZER_ALIAS.get(init.lower())
        if cls is None:
            raise MSValueError(f"For 'initializer', the class corresponding to '{init}' was not found.")
        init = cls()
    elif isinstance(init, numbers.Number):
        init = Constant(init)
    return Tensor(dtype=dtype, shape=shape, init=init)
