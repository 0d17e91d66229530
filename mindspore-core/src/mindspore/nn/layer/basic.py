"""Basic layers: ``Dense``, dropouts, ``Flatten``/``Unflatten``, ``Identity``, ``Pad``, ``ClipByNorm``, ...

Semantics follow MindSpore 2.10:

* ``Dense(in, out)`` keeps its weight as (out, in) and computes ``x @ W.T + b`` on any input rank
  (leading axes are flattened and restored). The default initialisation is torch-like:
  ``HeUniform(negative_slope=sqrt(5))`` for the weight, i.e. U(-1/sqrt(in), 1/sqrt(in)), and
  ``Uniform(1/sqrt(in))`` for the bias.
* ``Dropout(keep_prob=0.5, p=None)``: ``p`` is the drop probability and wins when given; ``keep_prob`` is
  the deprecated spelling. A Cell starts with ``training=False``, so dropout is the identity until
  ``set_train()``; in training the survivors are scaled by ``1 / (1 - p)``.
"""
from __future__ import annotations

import math

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import HeUniform, Uniform, initializer
from mindspore.common.parameter import Parameter
from mindspore.common.seed import _get_graph_seed
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk
from mindspore.nn.layer.activation import get_activation
from mindspore.ops.primitive import Primitive

__all__ = ["Dense", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "Flatten", "Unflatten", "Identity",
           "ClipByNorm", "Norm", "OneHot", "Pad", "Upsample", "L1Regularizer", "MatMul"]


class Dense(Cell):
    r"""Fully connected layer: :math:`\text{activation}(X W^T + b)`.

    Args:
        in_channels (int): size of the last input axis.
        out_channels (int): size of the last output axis.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): the weight, shape
            (out_channels, in_channels). Default: ``None`` (``HeUniform(math.sqrt(5))``).
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): the bias, shape (out_channels,).
            Default: ``None`` (``Uniform(1 / sqrt(in_channels))``).
        has_bias (bool): whether to add a bias. Default: ``True``.
        activation (Union[str, Cell, Primitive, None]): applied to the output, by name (``'relu'``) or
            as a Cell/Primitive. Default: ``None``.
        dtype (mindspore.dtype): dtype of the Parameters. Default: ``mindspore.float32``.

    Inputs:
        - **x** (Tensor) - shape (\*, in_channels).

    Outputs:
        Tensor of shape (\*, out_channels).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Dense(3, 4)
        >>> net(ms.Tensor(np.ones((2, 5, 3), np.float32))).shape
        (2, 5, 4)
    """

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True, activation=None,
                 dtype=mstype.float32):
        super().__init__()
        self.in_channels = chk.check_positive_int("Dense", "in_channels", in_channels)
        self.out_channels = chk.check_positive_int("Dense", "out_channels", out_channels)
        self.has_bias = chk.check_bool("Dense", "has_bias", has_bias)
        # MindSpore's operator attributes, which subclasses' construct use (MindPet's LoRADense: shape_op, reshape)
        self.reshape = ops.Reshape()
        self.shape_op = ops.Shape()
        if isinstance(weight_init, Tensor) and (weight_init.ndim != 2 or weight_init.shape[0] != out_channels
                                                or weight_init.shape[1] != in_channels):
            raise MSValueError(f"For 'Dense', weight init shape error. The ndim of 'weight_init' must be equal to 2, "
                               f"and the first dim must be equal to 'out_channels', and the second dim must be equal "
                               f"to 'in_channels'. But got 'weight_init' shape: {tuple(weight_init.shape)}, "
                               f"'out_channels': {out_channels}, 'in_channels': {in_channels}.")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype=dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and (bias_init.ndim != 1 or bias_init.shape[0] != out_channels):
                raise MSValueError(f"For 'Dense', bias init shape error. The ndim of 'bias_init' must be equal to 1, "
                                   f"and the first dim must be equal to 'out_channels'. But got 'bias_init' shape: "
                                   f"{tuple(bias_init.shape)}, 'out_channels': {out_channels}.")
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")
            self.bias_add = ops.BiasAdd()
        self.matmul = ops.MatMul(transpose_b=True)
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if activation is not None and not isinstance(self.activation, (Cell, Primitive)):
            raise MSTypeError(f"For 'Dense', the 'activation' must be str or Cell or Primitive, but got "
                              f"{type(activation).__name__}.")
        self.activation_flag = self.activation is not None

    def construct(self, x):
        x_shape = x.shape
        if len(x_shape) != 2:
            x = ops.reshape(x, (-1, x_shape[-1]))
        x = self.matmul(x, self.weight)
        if self.has_bias:
            x = self.bias_add(x, self.bias)
        if self.activation_flag:
            x = self.activation(x)
        if len(x_shape) != 2:
            x = ops.reshape(x, tuple(x_shape[:-1]) + (x.shape[-1],))
        return x

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Dropout(Cell):
    r"""Randomly zeroes elements with probability ``p`` in training; survivors are scaled by ``1 / (1 - p)``.

    Args:
        keep_prob (float): deprecated: the keep probability, in (0, 1]. Used only when ``p`` is ``None``.
            Default: ``0.5``.
        p (Union[float, int, None]): the drop probability, in [0, 1). Default: ``None``.
        dtype (mindspore.dtype): kept for compatibility. Default: ``mindspore.float32``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Dropout(p=0.2)
        >>> x = ms.Tensor(np.ones((2, 3)), ms.float32)
        >>> bool((net(x) == x).all())   # identity until set_train()
        True
    """

    def __init__(self, keep_prob=0.5, p=None, dtype=mstype.float32):
        super().__init__()
        if p is None:
            if isinstance(keep_prob, bool) or not isinstance(keep_prob, float):
                raise MSTypeError(f"For 'Dropout', the 'keep_prob' must be float, but got "
                                  f"{type(keep_prob).__name__}.")
            if keep_prob <= 0 or keep_prob > 1:
                raise MSValueError(f"For 'Dropout', the 'keep_prob' must be a number in range (0, 1], but got "
                                   f"{keep_prob}.")
            keep = keep_prob
        else:
            if isinstance(p, bool) or not isinstance(p, (float, int)):
                raise MSTypeError(f"For 'Dropout', the 'p' must be float or int, but got {type(p).__name__}.")
            if p < 0 or p >= 1:
                raise MSValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), but got {p}.")
            keep = 1.0 - p
        self.p = p
        self.keep_prob = keep_prob
        self.dtype = dtype
        # as in 2.10, the op's seed pair is drawn at construction (so after set_seed its masks are 2.10's)
        seed0, seed1 = _get_graph_seed(0, "dropout")
        self.dropout = ops.Dropout(float(keep), seed0, seed1) if keep < 1 else None

    def construct(self, x):
        if not self.training or self.dropout is None:
            return x
        return self.dropout(x)[0]

    def extend_repr(self):
        return f"keep_prob={self.keep_prob}" if self.p is None else f"p={self.p}"


class _DropoutNd(Cell):
    """Channel-wise dropout: whole feature maps are zeroed with probability ``p`` in training."""

    _func = None

    def __init__(self, p=0.5):
        super().__init__()
        name = type(self).__name__
        if isinstance(p, bool) or not isinstance(p, float):
            raise MSTypeError(f"For '{name}', the 'p' must be float, but got {type(p).__name__}.")
        if p < 0 or p > 1:
            raise MSValueError(f"For '{name}', the 'p' must be a number in range [0, 1], but got {p}.")
        self.p = p
        self.keep_prob = 1.0 - p

    def construct(self, x):
        if not self.training or self.p == 0:
            return x
        return getattr(ops, self._func)(x, self.p)

    def extend_repr(self):
        return f"p={self.p}"


class Dropout1d(_DropoutNd):
    """Zeroes whole channels of an (N, C, L) or (C, L) input with probability ``p`` (default 0.5) in training."""

    _func = "dropout1d"


class Dropout2d(_DropoutNd):
    """Zeroes whole channels of an (N, C, H, W) input with probability ``p`` (default 0.5) in training."""

    _func = "dropout2d"


class Dropout3d(_DropoutNd):
    """Zeroes whole channels of an (N, C, D, H, W) input with probability ``p`` (default 0.5) in training."""

    _func = "dropout3d"


class Flatten(Cell):
    """Merges the axes ``start_dim`` to ``end_dim`` (defaults 1 and -1, so axis 0 is kept).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.Flatten()(ms.Tensor(np.ones((2, 3, 4), np.float32))).shape
        (2, 12)
    """

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = chk.check_int("Flatten", "start_dim", start_dim)
        self.end_dim = chk.check_int("Flatten", "end_dim", end_dim)

    def construct(self, x):
        return ops.flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


class Unflatten(Cell):
    """Splits axis ``axis`` into the shape ``unflattened_size`` (one entry may be -1)."""

    def __init__(self, axis, unflattened_size):
        super().__init__()
        self.axis = chk.check_int("Unflatten", "axis", axis)
        if not isinstance(unflattened_size, (tuple, list)):
            raise MSTypeError(f"For 'Unflatten', the 'unflattened_size' must be tuple or list, but got "
                              f"{type(unflattened_size).__name__}.")
        self.unflattened_size = tuple(unflattened_size)

    def construct(self, input):
        shape = tuple(input.shape)
        axis = self.axis % max(len(shape), 1)
        return ops.reshape(input, shape[:axis] + self.unflattened_size + shape[axis + 1:])


class Identity(Cell):
    """Returns its input unchanged, whatever it is (a Tensor, a tuple of gradients ...); arguments given to the
    constructor are ignored (as in MindSpore 2.10, for ``torch.nn.Identity``-style code).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> print(nn.Identity()(ms.Tensor([1, 2])))
        [1 2]
    """

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, input):  # noqa: A002 - MindSpore's name
        return input


class ClipByNorm(Cell):
    r"""Scales ``x`` so that its L2 norm (over ``axis``; all axes when ``None``) is at most ``clip_norm``:
    :math:`x \cdot clip\_norm / \max(\|x\|_2, clip\_norm)`. The result is float32.

    Inputs:
        - **x** (Tensor) - float16 or float32.
        - **clip_norm** (Tensor) - a scalar (or broadcastable) tensor.
    """

    def __init__(self, axis=None):
        super().__init__()
        if axis is not None and not isinstance(axis, (int, tuple)):
            raise MSTypeError(f"For 'ClipByNorm', the 'axis' must be None, int or tuple, but got "
                              f"{type(axis).__name__}.")
        self.axis = () if axis is None else axis

    def construct(self, x, clip_norm):
        chk.check_tensor("ClipByNorm", "x", x)
        if x.dtype not in (mstype.float16, mstype.float32):
            raise MSTypeError(f"For 'ClipByNorm', the 'x' dtype must be float32 or float16, but got {x.dtype}.")
        x32 = ops.cast(x, mstype.float32)
        l2sum = ops.reduce_sum(ops.square(x32), self.axis, keep_dims=True)
        positive = ops.greater(l2sum, 0)
        safe = ops.select(positive, l2sum, ops.ones_like(l2sum))
        l2norm = ops.select(positive, ops.sqrt(safe), l2sum)
        clip = ops.cast(clip_norm, mstype.float32) if isinstance(clip_norm, Tensor) else float(clip_norm)
        return ops.div(ops.mul(x32, clip), ops.maximum(l2norm, clip))


class Norm(Cell):
    """Euclidean norm ``sqrt(sum(x^2, axis))``; ``axis=()`` (the default) means every axis."""

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        self.axis = axis
        self.keep_dims = chk.check_bool("Norm", "keep_dims", keep_dims)

    def construct(self, x):
        return ops.sqrt(ops.reduce_sum(ops.square(x), self.axis, keep_dims=self.keep_dims))


class OneHot(Cell):
    """One-hot encoding of integer ``indices`` with ``depth`` classes on a new axis ``axis``."""

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=mstype.float32):
        super().__init__()
        self.onehot = ops.OneHot(axis)
        self.depth = chk.check_int("OneHot", "depth", depth, lo=0)
        self.on_value = Tensor(on_value, dtype)
        self.off_value = Tensor(off_value, dtype)

    def construct(self, indices):
        return self.onehot(indices, self.depth, self.on_value, self.off_value)


def _mirror_pad(x, paddings, symmetric):
    """``x`` padded by mirroring, per axis (before, after); the edge is repeated when ``symmetric``."""
    for axis, (before, after) in enumerate(paddings):
        if not before and not after:
            continue
        n = x.shape[axis]
        skip = 0 if symmetric else 1
        pieces = []
        if before:
            head = ops.narrow(x, axis, skip, before)
            pieces.append(ops.flip(head, (axis,)))
        pieces.append(x)
        if after:
            tail = ops.narrow(x, axis, n - after - skip, after)
            pieces.append(ops.flip(tail, (axis,)))
        x = ops.concat(pieces, axis)
    return x


class Pad(Cell):
    """Pads ``x`` by ``paddings`` ((before, after) per axis) with zeros (``'CONSTANT'``) or by mirroring
    without (``'REFLECT'``) or with (``'SYMMETRIC'``) the edge element.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> pad = nn.Pad(paddings=((1, 1), (2, 2)))
        >>> pad(ms.Tensor(np.ones((2, 3), np.float32))).shape
        (4, 7)
    """

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        self.mode = chk.check_str("Pad", "mode", mode, ("CONSTANT", "REFLECT", "SYMMETRIC"))
        if not isinstance(paddings, tuple):
            raise MSTypeError(f"For 'Pad', the type of 'paddings' must be tuple, but got {type(paddings).__name__}.")
        for item in paddings:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise MSValueError(f"For 'Pad', the dimension of 'paddings' must be (n, 2), but got {paddings}.")
            for v in item:
                chk.check_int("Pad", "paddings", v, lo=0)
        if len(paddings) > 4:
            raise MSValueError(f"For 'Pad', only 'paddings' up to 4 dims is supported, but got {len(paddings)}.")
        self.paddings = tuple(tuple(int(v) for v in item) for item in paddings)
        self.pad = ops.Pad(self.paddings) if self.mode == "CONSTANT" else None

    def construct(self, x):
        if self.pad is not None:
            return self.pad(x)
        chk.check_tensor("Pad", "x", x)
        if len(self.paddings) != x.ndim:
            raise MSValueError(f"For 'Pad', the length of 'paddings' must equal the rank of 'x' {x.ndim}, but got "
                               f"{len(self.paddings)}.")
        symmetric = self.mode == "SYMMETRIC"
        for axis, (before, after) in enumerate(self.paddings):
            limit = x.shape[axis] if symmetric else x.shape[axis] - 1
            if before > limit or after > limit:
                raise MSValueError(f"For 'Pad', in '{self.mode}' mode each padding of axis {axis} must be at most "
                                   f"{limit} (the input size {x.shape[axis]}{'' if symmetric else ' - 1'}), but got "
                                   f"{(before, after)}.")
        return _mirror_pad(x, self.paddings, symmetric)


class Upsample(Cell):
    """Resizes the input to ``size`` or by ``scale_factor``; see :func:`mindspore.ops.interpolate`."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, x):
        return ops.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                               self.recompute_scale_factor)


class L1Regularizer(Cell):
    """``scale * sum(|weights|)``; ``scale`` must be a positive, finite number."""

    def __init__(self, scale):
        super().__init__()
        chk.check_number("L1Regularizer", "scale", scale, types=(int, float))
        if scale <= 0:
            raise MSValueError(f"For 'L1Regularizer', the 'scale' must be greater than 0, but got {scale}.")
        if math.isinf(scale) or math.isnan(scale):
            raise MSValueError(f"For 'L1Regularizer', the 'scale' can not be INF or NAN, but got {scale}.")
        self.scale = Tensor(scale, dtype=mstype.float32)

    def construct(self, weights):
        return ops.mul(self.scale, ops.reduce_sum(ops.abs(weights)))


class MatMul(Cell):
    """Matrix product of ``x1`` and ``x2`` with batch broadcasting; a 1-D operand is treated as a row (``x1``)
    or column (``x2``) and its added axis removed from the result.

    Args:
        transpose_x1 (bool): transpose the last two axes of ``x1`` first. Default: ``False``.
        transpose_x2 (bool): transpose the last two axes of ``x2`` first. Default: ``False``.
        dtype (mindspore.dtype): kept for compatibility. Default: ``mindspore.float32``.
    """

    def __init__(self, transpose_x1=False, transpose_x2=False, dtype=mstype.float32):
        super().__init__()
        self.transpose_x1 = chk.check_bool("MatMul", "transpose_x1", transpose_x1)
        self.transpose_x2 = chk.check_bool("MatMul", "transpose_x2", transpose_x2)
        self.dtype = dtype

    def construct(self, x1, x2):
        chk.check_tensor("MatMul", "x1", x1)
        chk.check_tensor("MatMul", "x2", x2)
        squeeze = []
        if x1.ndim == 1:
            x1 = ops.expand_dims(x1, 0)
            squeeze.append(-2)
        if x2.ndim == 1:
            x2 = ops.expand_dims(x2, 1)
            squeeze.append(-1)
        if self.transpose_x1:
            x1 = ops.swapaxes(x1, -1, -2)
        if self.transpose_x2:
            x2 = ops.swapaxes(x2, -1, -2)
        out = ops.matmul(x1, x2)
        for axis in sorted(squeeze):
            out = ops.squeeze(out, axis)
        return out


# MindSpore groups mindspore.nn's cells into its own modules: a cell imported from its `nn.layer.basic` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.nn")
