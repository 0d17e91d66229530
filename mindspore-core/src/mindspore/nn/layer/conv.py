"""Convolution layers: ``Conv1d``, ``Conv2d``, ``Conv3d`` and ``Conv2dTranspose``.

MindSpore 2.10 conventions:

* ``pad_mode`` defaults to ``'same'`` (TensorFlow style: the output is ``ceil(in / stride)`` and an odd
  total padding puts the extra element at the bottom/right) and ``has_bias`` to ``False``.
* ``padding`` must be 0 unless ``pad_mode='pad'``; it is an int, or per-side values: (left, right) for
  1-D, (top, bottom, left, right) (or (pad_h, pad_w)) for 2-D, (head, tail, top, bottom, left, right)
  (or 3 values) for 3-D.
* Weights are (out_channels, in_channels / group, \\*kernel_size); the transposed convolution's weight is
  (in_channels, out_channels / group, kh, kw). Convolution is cross-correlation.
* Default init: ``HeUniform(negative_slope=sqrt(5))`` for the weight, i.e. U(-1/sqrt(fan_in), 1/sqrt(fan_in)),
  and ``Uniform(1/sqrt(fan_in))`` for the bias, ``fan_in = weight.shape[1] * prod(kernel_size)``.
"""
from __future__ import annotations

import math

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import HeUniform, Uniform, initializer
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk

__all__ = ["Conv1d", "Conv2d", "Conv3d", "Conv2dTranspose", "Conv1dTranspose"]


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class _Conv(Cell):
    """Argument checks, Parameters and their default initialisation shared by every convolution layer."""

    _nd = 2
    _format = "NCHW"

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                 weight_init, bias_init, data_format, transposed=False, dtype=mstype.float32):
        super().__init__()
        op, nd = type(self).__name__, self._nd
        self.in_channels = chk.check_positive_int(op, "in_channels", in_channels)
        self.out_channels = chk.check_positive_int(op, "out_channels", out_channels)
        self.kernel_size = chk.int_tuple(op, "kernel_size", kernel_size, nd)
        self.stride = chk.int_tuple(op, "stride", stride, nd)
        self.dilation = chk.int_tuple(op, "dilation", dilation, nd)
        self.pad_mode = chk.check_str(op, "pad_mode", pad_mode, ("same", "valid", "pad"))
        self._padding_arg = padding     # as given (shown by repr, as in MindSpore)
        self.padding = self._check_padding(op, padding)
        if self.pad_mode != "pad" and any(self.padding):
            raise MSValueError(f"For '{op}', the 'padding' must be zero when 'pad_mode' is not 'pad', but got "
                               f"'padding': {padding} and 'pad_mode': {pad_mode}.")
        self.group = chk.check_positive_int(op, "group", group)
        if in_channels % group or out_channels % group:
            raise MSValueError(f"For '{op}', the attr 'in_channels' and 'out_channels' must be divisible by 'group', "
                               f"but got 'in_channels': {in_channels}, 'out_channels': {out_channels} and 'group': "
                               f"{group}.")
        self.has_bias = chk.check_bool(op, "has_bias", has_bias)
        if data_format != self._format:
            raise MSValueError(f"For '{op}', the 'data_format' must be '{self._format}' on CPU, but got "
                               f"'{data_format}'.")
        self.format = data_format
        kernel = self._weight_kernel()
        if transposed:
            shape = [in_channels, out_channels // group, *kernel]
        else:
            shape = [out_channels, in_channels // group, *kernel]
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight_init = weight_init
        self.weight = Parameter(initializer(weight_init, shape, dtype=dtype), name="weight")
        self.bias = None
        self.bias_init = bias_init
        if self.has_bias:
            if bias_init is None:
                fan_in = shape[1] * math.prod(self.kernel_size)
                bias_init = Uniform(1 / math.sqrt(fan_in)) if fan_in else "zeros"
                self.bias_init = bias_init
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")
        self.bias_add = ops.BiasAdd()

    def _weight_kernel(self):
        """The kernel dimensions of the weight's shape."""
        return self.kernel_size

    def _check_padding(self, op, padding):
        """``padding`` as a (before, after) pair per spatial axis, flattened."""
        nd = self._nd
        if _is_int(padding):
            chk.check_int(op, "padding", padding, lo=0)
            return (padding,) * (2 * nd)
        if not isinstance(padding, tuple):
            raise MSTypeError(f"For '{op}', the type of 'padding' must be int or tuple(int), but got "
                              f"{type(padding).__name__}.")
        for p in padding:
            chk.check_int(op, "padding item", p, lo=0)
        if len(padding) == 2 * nd:
            return tuple(padding)
        if len(padding) == nd and nd > 1:
            return tuple(p for p in padding for _ in range(2))
        want = f"{2 * nd}" if nd == 1 else f"{nd} or {2 * nd}"
        raise MSValueError(f"For '{op}', the length of 'padding' must be {want}, but got {len(padding)}.")

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self._padding_arg}, dilation={self.dilation}, group={self.group}, "
                f"has_bias={self.has_bias}, weight_init={self.weight_init}, bias_init={self.bias_init}, "
                f"format={self.format}")


class Conv2d(_Conv):
    r"""2-D convolution over an (N, C_in, H, W) input.

    Args:
        in_channels (int): input channels C_in.
        out_channels (int): output channels C_out.
        kernel_size (Union[int, tuple[int]]): (kh, kw) or one int for both.
        stride (Union[int, tuple[int]]): Default: ``1``.
        pad_mode (str): ``'same'`` (default), ``'valid'`` or ``'pad'``.
        padding (Union[int, tuple[int]]): with ``'pad'``: an int, (pad_h, pad_w) or (top, bottom, left, right).
        dilation (Union[int, tuple[int]]): Default: ``1``.
        group (int): channel groups; must divide both channel counts. Default: ``1``.
        has_bias (bool): Default: ``False``.
        weight_init, bias_init: initializers (``None``: torch-like HeUniform / Uniform).
        data_format (str): ``'NCHW'``.
        dtype (mindspore.dtype): Parameter dtype. Default: ``mindspore.float32``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Conv2d(3, 8, 3)
        >>> net(ms.Tensor(np.ones((1, 3, 7, 7), np.float32))).shape
        (1, 8, 7, 7)
        >>> net.weight.shape
        (8, 3, 3, 3)
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCHW",
                 dtype=mstype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype=dtype)
        self.conv2d = ops.Conv2D(out_channel=out_channels, kernel_size=self.kernel_size, mode=1,
                                 pad_mode=self.pad_mode, pad=self.padding, stride=self.stride,
                                 dilation=self.dilation, group=group)

    def construct(self, x):
        output = self.conv2d(x, self.weight)
        if self.has_bias:
            output = self.bias_add(output, self.bias)
        return output


class Conv1d(_Conv):
    r"""1-D convolution over an (N, C_in, L) input, computed as a 2-D one over a height of 1; the weight is
    (out_channels, in_channels / group, 1, kernel_size) as in MindSpore (whose checkpoints store it so).

    ``kernel_size``, ``stride`` and ``dilation`` are ints; ``padding`` is an int or (left, right). The
    other arguments are as in :class:`Conv2d` (``pad_mode='same'``, ``has_bias=False`` by default).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.Conv1d(3, 4, 3)(ms.Tensor(np.ones((2, 3, 10), np.float32))).shape
        (2, 4, 10)
    """

    _nd = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        for name, value in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)):
            if not _is_int(value):
                raise MSTypeError(f"For 'Conv1d', the '{name}' must be an int, but got {type(value).__name__}.")
        if isinstance(weight_init, Tensor):
            # MindSpore takes a Tensor initializer as (out_channels, in_channels / group, kernel_size)
            if weight_init.ndim != 3:
                raise MSValueError(f"For 'Conv1d', the 'weight_init_shape' must be int and must = 3, but got "
                                   f"'{weight_init.ndim}' with type 'int'.")
            weight_init = ops.expand_dims(weight_init, 2)
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, "NCHW", dtype=dtype)
        self.conv2d = ops.Conv2D(out_channel=out_channels, kernel_size=(1, kernel_size), mode=1,
                                 pad_mode=self.pad_mode, pad=(0, 0) + self.padding, stride=(1, stride),
                                 dilation=(1, dilation), group=group)

    def construct(self, x):
        chk.check_rank("Conv1d", "x", x, (3,))
        x = ops.expand_dims(x, 2)
        output = self.conv2d(x, self.weight)
        if self.has_bias:
            output = self.bias_add(output, self.bias)
        return ops.squeeze(output, 2)

    def _weight_kernel(self):
        return (1, *self.kernel_size)


class Conv3d(_Conv):
    r"""3-D convolution over an (N, C_in, D, H, W) input; weight (out, in / group, kd, kh, kw).

    ``padding`` is an int, 3 ints (per axis) or (head, tail, top, bottom, left, right); the other
    arguments are as in :class:`Conv2d`.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.Conv3d(2, 4, 3)(ms.Tensor(np.ones((1, 2, 5, 6, 7), np.float32))).shape
        (1, 4, 5, 6, 7)
    """

    _nd = 3
    _format = "NCDHW"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW",
                 dtype=mstype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype=dtype)
        self.conv3d = ops.Conv3D(out_channel=out_channels, kernel_size=self.kernel_size, mode=1,
                                 pad_mode=self.pad_mode, pad=self.padding, stride=self.stride,
                                 dilation=self.dilation, group=group)

    def construct(self, x):
        chk.check_rank("Conv3d", "x", x, (5,))
        output = self.conv3d(x, self.weight)
        if self.has_bias:
            output = self.bias_add(output, self.bias)
        return output


def _deconv_length(pad_mode, size, kernel, stride, dilation, pad_total):
    """Output length of a transposed convolution along one axis, as MindSpore computes it."""
    eff = kernel + (kernel - 1) * (dilation - 1)
    if pad_mode == "valid":
        return size * stride + max(eff - stride, 0)
    if pad_mode == "same":
        return size * stride
    return size * stride - pad_total + eff - stride


class Conv2dTranspose(_Conv):
    r"""2-D transposed convolution ("deconvolution") of an (N, C_in, H, W) input.

    The weight is (in_channels, out_channels / group, kh, kw). Output size per axis, with
    ``e = dilation * (k - 1) + 1``: ``'same'``: ``H * stride``; ``'valid'``: ``H * stride + max(e - stride, 0)``;
    ``'pad'``: ``(H - 1) * stride + e - (top + bottom)``. ``output_padding`` (``'pad'`` mode only) appends that
    many zero rows/columns at the bottom/right of the result, after the bias, as MindSpore does.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Conv2dTranspose(3, 64, 4, has_bias=False, weight_init='normal', pad_mode='pad')
        >>> net(ms.Tensor(np.ones((1, 3, 16, 50), np.float32))).shape
        (1, 64, 19, 53)
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0,
                 output_padding=0, dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
                 dtype=mstype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, "NCHW", transposed=True, dtype=dtype)
        out_pad = chk.int_tuple("Conv2dTranspose", "output_padding", output_padding, 2, min_value=0)
        for i, axis in enumerate(("h", "w")):
            if out_pad[i] >= max(self.dilation[i], self.stride[i]):
                raise MSValueError(f"For 'Conv2dTranspose', the 'output_padding[{i}]' must be in range of [0, "
                                   f"max(stride_{axis}, dilation_{axis})), but got {output_padding}.")
        if any(out_pad) and self.pad_mode != "pad":
            raise MSValueError("For 'Conv2dTranspose', when 'output_padding' is not zero, 'pad_mode' must be 'pad', "
                               f"but got '{pad_mode}'.")
        self.output_padding = output_padding
        self._out_pad = out_pad
        self.conv2d_transpose = ops.Conv2DTranspose(out_channel=in_channels, kernel_size=self.kernel_size,
                                                    pad_mode=self.pad_mode, pad=self.padding, stride=self.stride,
                                                    dilation=self.dilation, group=group)
        self.pad = ops.Pad(((0, 0), (0, 0), (0, out_pad[0]), (0, out_pad[1]))) if any(out_pad) else None

    def construct(self, x):
        chk.check_rank("Conv2dTranspose", "x", x, (4,))
        n, _, h, w = x.shape
        top, bottom, left, right = self.padding
        h_out = _deconv_length(self.pad_mode, h, self.kernel_size[0], self.stride[0], self.dilation[0], top + bottom)
        w_out = _deconv_length(self.pad_mode, w, self.kernel_size[1], self.stride[1], self.dilation[1], left + right)
        output = self.conv2d_transpose(x, self.weight, (n, self.out_channels, h_out, w_out))
        if self.has_bias:
            output = self.bias_add(output, self.bias)
        if self.pad is not None:
            output = self.pad(output)
        return output


class Conv1dTranspose(Conv2dTranspose):
    r"""1-D transposed convolution of an (N, C_in, L) input, computed as a :class:`Conv2dTranspose` over a height
    of 1; the weight is (in_channels, out_channels / group, 1, kernel_size) as in MindSpore.

    ``kernel_size``, ``stride``, ``dilation`` and ``padding`` (``'pad'`` mode: both ends) are ints.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Conv1dTranspose(3, 64, 4, has_bias=False, weight_init='normal', pad_mode='pad')
        >>> net(ms.Tensor(np.ones((1, 3, 50), np.float32))).shape
        (1, 64, 53)
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        for name, value in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation),
                            ("padding", padding)):
            if not _is_int(value):
                raise MSTypeError(f"For 'Conv1dTranspose', the '{name}' must be an int, but got "
                                  f"{type(value).__name__}.")
        if isinstance(weight_init, Tensor):
            # MindSpore takes a Tensor initializer as (in_channels, out_channels / group, kernel_size)
            if weight_init.ndim != 3:
                raise MSValueError(f"For 'Conv1dTranspose', the 'weight_init_shape' must be int and must = 3, but got "
                                   f"'{weight_init.ndim}' with type 'int'.")
            weight_init = ops.expand_dims(weight_init, 2)
        super().__init__(in_channels, out_channels, (1, kernel_size), stride=(1, stride), pad_mode=pad_mode,
                         padding=(0, 0, padding, padding), dilation=(1, dilation), group=group, has_bias=has_bias,
                         weight_init=weight_init, bias_init=bias_init, dtype=dtype)

    def construct(self, x):
        chk.check_rank("Conv1dTranspose", "x", x, (3,))
        return ops.squeeze(super().construct(ops.expand_dims(x, 2)), 2)


# MindSpore groups mindspore.nn's cells into its own modules: a cell imported from its `nn.layer.conv` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.nn")
