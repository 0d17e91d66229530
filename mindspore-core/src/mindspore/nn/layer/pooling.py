"""Pooling layers: ``MaxPool1d/2d/3d``, ``AvgPool1d/2d/3d``, ``AdaptiveAvgPool1d/2d/3d``, ``AdaptiveMaxPool1d/2d``.

MindSpore 2.10 conventions: ``kernel_size=1, stride=1, pad_mode='valid'`` by default; ``pad_mode`` is
case-insensitive. Max pooling with ``'valid'``/``'same'`` uses ``MaxPool`` (``'same'`` pads TensorFlow style,
the padding never wins); ``padding``, ``dilation``, ``return_indices`` and ``ceil_mode`` need
``pad_mode='pad'`` (an argmax pooling with implicit -inf padding of at most half the kernel). Average pooling
with ``'pad'`` mode, ``ceil_mode``, ``count_include_pad=False`` or ``divisor_override`` goes through ``AvgPool3D``.
A missing batch axis is added and removed again. ``AdaptiveAvgPool1d``/``AdaptiveMaxPool1d`` use MindSpore's
window rule ``stride = L // out``, ``kernel = L - (out - 1) * stride`` (the usual bins when ``L`` divides
evenly); the 2-D/3-D adaptive pools use the bins ``[floor(i * L / out), ceil((i + 1) * L / out))``.
"""
from __future__ import annotations

import functools

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk

__all__ = ["MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d",
           "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "LPPool1d", "LPPool2d",
           "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d"]


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _int_or_tuple(op, name, value, nd):
    """A positive int or a tuple of ``nd`` positive ints (a 1-tuple is repeated), as an ``nd``-tuple."""
    if not _is_int(value) and not isinstance(value, tuple):
        raise MSTypeError(f"For '{op}', the '{name}' must be an int or a tuple, but got {type(value).__name__}.")
    values = (value,) if _is_int(value) else value
    if not values or not all(_is_int(v) and v > 0 for v in values):
        raise MSValueError(f"For '{op}', the '{name}' must be an positive int number or a tuple of positive int "
                           f"numbers, but got {value}.")
    if len(values) == 1:
        return values * nd
    if len(values) != nd:
        raise MSValueError(f"For '{op}', the length of '{name}' must be equal to {nd}, but got {len(values)}.")
    return tuple(values)


def _padding(op, padding, nd):
    """Symmetric padding: an int or a tuple/list of 1 or ``nd`` non-negative ints, as an ``nd``-tuple."""
    if _is_int(padding):
        values = (padding,)
    elif isinstance(padding, (tuple, list)):
        values = tuple(padding)
    else:
        raise MSTypeError(f"For '{op}', the 'padding' must be an int, tuple or list, but got "
                          f"{type(padding).__name__}.")
    if not values or not all(_is_int(v) and v >= 0 for v in values):
        raise MSValueError(f"For '{op}', the 'padding' must be non-negative ints, but got {padding}.")
    if len(values) == 1:
        return values * nd
    if len(values) != nd:
        want = "one int" if nd == 1 else f"1 or {nd} ints"
        raise MSValueError(f"For '{op}', the padding must be a int or tuple/list contains {want}, but got "
                           f"tuple/list with length:{len(values)}.")
    return values


def _dilation(op, dilation, nd):
    if _is_int(dilation):
        return (dilation,) * nd
    if isinstance(dilation, tuple) and len(dilation) in (1, nd) and all(_is_int(d) and d > 0 for d in dilation):
        return dilation * nd if len(dilation) == 1 else dilation
    raise MSValueError(f"For '{op}', the 'dilation' must be an int or a tuple of 1 or {nd} positive ints, but got "
                       f"{dilation}.")


class _PoolNd(Cell):
    """pad_mode / data_format / kernel_size / stride checks shared by the pooling layers."""

    _nd = 2

    def __init__(self, kernel_size, stride, pad_mode, data_format="NCHW"):
        super().__init__()
        op = type(self).__name__
        self.pad_mode = chk.check_str(op, "pad_mode", pad_mode, ("VALID", "SAME", "PAD"), upper=True)
        self.format = chk.check_str(op, "data_format", data_format, ("NCHW", "NHWC"))
        if self.format == "NHWC":
            raise MSValueError(f"For '{op}', the 'NHWC' format only support in GPU target, but got device target "
                               f"CPU.")
        self.kernel_size = _int_or_tuple(op, "kernel_size", kernel_size, self._nd)
        self.stride = self.kernel_size if stride is None else _int_or_tuple(op, "stride", stride, self._nd)
        # what repr shows, as MindSpore: the arguments as given (a 1-D pooling as its 2-D form)
        given = (kernel_size, kernel_size if stride is None else stride)
        self._repr_window = tuple((1, g) if self._nd == 1 and _is_int(g) else g for g in given)

    def _batched(self, x):
        """``x`` with a batch axis, and whether one was added."""
        chk.check_rank(type(self).__name__, "x", x, (self._nd + 1, self._nd + 2))
        if x.ndim == self._nd + 1:
            return ops.expand_dims(x, 0), True
        return x, False

    @staticmethod
    def _unbatched(out, added):
        if not added:
            return out
        if isinstance(out, tuple):
            return tuple(ops.squeeze(o, 0) for o in out)
        return ops.squeeze(out, 0)

    def extend_repr(self):
        kernel_size, stride = self._repr_window
        return f"kernel_size={kernel_size}, stride={stride}, pad_mode={self.pad_mode}"


class _MaxPoolNd(_PoolNd):
    """Max pooling over the last ``_nd`` axes (1 and 2 run as 2-D pooling)."""

    def __init__(self, kernel_size, stride, pad_mode, padding, dilation, return_indices, ceil_mode, data_format):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        op, nd = type(self).__name__, self._nd
        self.return_indices = chk.check_bool(op, "return_indices", return_indices)
        self.ceil_mode = chk.check_bool(op, "ceil_mode", ceil_mode)
        self.use_pad = False
        if nd == 3:
            self._init_3d(op, pad_mode, padding, dilation, return_indices, ceil_mode)
        elif self.pad_mode == "PAD":
            lead = (1,) * (2 - nd)
            self.use_pad = True
            self.padding = _padding(op, padding, nd)
            self.dilation = _dilation(op, dilation, nd)
            self.max_pool = ops.MaxPoolWithArgmaxV2(lead + self.kernel_size, lead + self.stride,
                                                    (0,) * len(lead) + self.padding, lead + self.dilation,
                                                    ceil_mode)
        else:
            if padding != 0 or dilation != 1 or return_indices or ceil_mode:
                raise MSValueError(f"For {op}, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' "
                                   f"can not be set to non-default value when pad_mode is not 'pad', but got "
                                   f"pad_mode:{pad_mode}.")
            lead = (1,) * (2 - nd)
            self.max_pool = ops.MaxPool(lead + self.kernel_size, lead + self.stride, self.pad_mode)

    def _init_3d(self, op, pad_mode, padding, dilation, return_indices, ceil_mode):
        # MindSpore's MaxPool3d: argmax pooling only for dilation or indices (and then 'pad' mode is required);
        # otherwise MaxPool3D in any pad_mode, with the padding and ceil_mode passed through
        self.padding = _padding(op, padding, 3)
        self.dilation = _dilation(op, dilation, 3)
        if any(d != 1 for d in self.dilation) or return_indices:
            if self.pad_mode != "PAD":
                raise MSValueError(f"For {op}, the pad_mode must be 'pad' when dilation is not 1 or return_indices is "
                                   f"True, but got pad_mode:{pad_mode}.")
            self.use_pad = True
            self.max_pool = ops.MaxPool3DWithArgmax(self.kernel_size, self.stride, self.padding, self.dilation,
                                                    ceil_mode)
        else:
            pads = tuple(p for p in self.padding for _ in range(2))
            self.max_pool = ops.MaxPool3D(self.kernel_size, self.stride, self.pad_mode, pads,
                                          True if ceil_mode else None)

    def construct(self, x):
        x, added = self._batched(x)
        if self._nd == 1:
            x = ops.expand_dims(x, 2)
        out = self.max_pool(x)
        if self._nd == 1:
            out = tuple(ops.squeeze(o, 2) for o in out) if isinstance(out, tuple) else ops.squeeze(out, 2)
        out = self._unbatched(out, added)
        if self.use_pad and not self.return_indices:
            return out[0]
        return out


class MaxPool1d(_MaxPoolNd):
    r"""1-D max pooling of an (N, C, L) or (C, L) input.

    Args:
        kernel_size (int): window size. Default: ``1``.
        stride (int): window step. Default: ``1``.
        pad_mode (str): ``'valid'`` (default), ``'same'`` or ``'pad'``.
        padding (Union[int, tuple[int]]): with ``'pad'``: -inf padding on both sides. Default: ``0``.
        dilation (Union[int, tuple[int]]): with ``'pad'``. Default: ``1``.
        return_indices (bool): with ``'pad'``: also return the argmax. Default: ``False``.
        ceil_mode (bool): with ``'pad'``: ceil instead of floor for the output length. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.MaxPool1d(kernel_size=3, stride=1)(ms.Tensor(np.ones((1, 2, 4), np.float32))).shape
        (1, 2, 2)
    """

    _nd = 1

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        for name, value in (("kernel_size", kernel_size), ("stride", stride)):
            if not _is_int(value):
                raise MSTypeError(f"For 'MaxPool1d', the '{name}' must be an int, but got {type(value).__name__}.")
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices, ceil_mode, "NCHW")


class MaxPool2d(_MaxPoolNd):
    r"""2-D max pooling of an (N, C, H, W) or (C, H, W) input.

    Args:
        kernel_size (Union[int, tuple[int]]): window size. Default: ``1``.
        stride (Union[int, tuple[int]]): window step. Default: ``1``.
        pad_mode (str): ``'valid'`` (default), ``'same'`` or ``'pad'`` (case-insensitive).
        padding (Union[int, tuple[int]]): with ``'pad'``: an int or (pad_h, pad_w). Default: ``0``.
        dilation (Union[int, tuple[int]]): with ``'pad'``. Default: ``1``.
        return_indices (bool): with ``'pad'``: also return the int64 argmax (flat index in each H * W plane).
        ceil_mode (bool): with ``'pad'``: ceil instead of floor for the output size. Default: ``False``.
        data_format (str): ``'NCHW'``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> pool = nn.MaxPool2d(kernel_size=2, stride=2)
        >>> pool(ms.Tensor(np.ones((1, 2, 4, 4), np.float32))).shape
        (1, 2, 2, 2)
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices, ceil_mode, data_format)


class MaxPool3d(_MaxPoolNd):
    r"""3-D max pooling of an (N, C, D, H, W) or (C, D, H, W) input; arguments as in :class:`MaxPool2d`
    (``padding`` an int or 3 ints). ``dilation`` and ``return_indices`` need ``pad_mode='pad'``."""

    _nd = 3

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices, ceil_mode, "NCHW")


class _AvgPoolNd(_PoolNd):
    """Average pooling over the last ``_nd`` axes, plain (``AvgPool``) or extended (``AvgPool3D``)."""

    def __init__(self, kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad, divisor_override,
                 data_format):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        op, nd = type(self).__name__, self._nd
        chk.check_bool(op, "ceil_mode", ceil_mode)
        chk.check_bool(op, "count_include_pad", count_include_pad)
        if divisor_override is not None:
            chk.check_int(op, "divisor_override", divisor_override)
            if divisor_override <= 0:
                raise MSValueError(f"For '{op}', the 'divisor_override' must be > 0, but got {divisor_override}.")
        pads = _padding(op, padding, nd)
        if self.pad_mode != "PAD" and any(pads):
            raise MSValueError(f"For '{op}', the 'padding' must be 0 when 'pad_mode' is not 'pad', but got "
                               f"padding {padding} and pad_mode '{pad_mode}'.")
        self.expand = nd == 3 or self.pad_mode == "PAD" or any(pads) or ceil_mode or not count_include_pad \
            or divisor_override is not None
        lead = (1,) * (3 - nd)
        if self.expand:
            pad6 = (0, 0) * (3 - nd) + tuple(p for p in pads for _ in range(2))
            self.avg_pool = ops.AvgPool3D(lead + self.kernel_size, lead + self.stride, self.pad_mode.lower(), pad6,
                                          ceil_mode, count_include_pad, divisor_override or 0)
        else:
            self.avg_pool = ops.AvgPool(lead[1:] + self.kernel_size, lead[1:] + self.stride, self.pad_mode)

    def construct(self, x):
        x, added = self._batched(x)
        nd = self._nd
        if self.expand:
            shape = tuple(x.shape)
            out = self.avg_pool(ops.reshape(x, shape[:2] + (1,) * (3 - nd) + shape[2:]) if nd < 3 else x)
            out = ops.reshape(out, tuple(out.shape[:2]) + tuple(out.shape[5 - nd:])) if nd < 3 else out
        elif nd == 1:
            out = self._avg_pool_1d(x)
        else:
            out = self.avg_pool(x)
        return self._unbatched(out, added)

    def _avg_pool_1d(self, x):
        # MindSpore's shortcut: a window as wide as the input (or a single valid window) is a plain mean,
        # whatever the pad_mode
        width, k, s = x.shape[2], self.kernel_size[0], self.stride[0]
        if width == k:
            return ops.mean(x, 2, keep_dims=True)
        if width - k < s:
            return ops.mean(x[:, :, 0:k], 2, keep_dims=True)
        return ops.squeeze(self.avg_pool(ops.expand_dims(x, 2)), 2)


class AvgPool1d(_AvgPoolNd):
    r"""1-D average pooling of an (N, C, L) or (C, L) input.

    Args:
        kernel_size (int): window size. Default: ``1``.
        stride (int): window step. Default: ``1``.
        pad_mode (str): ``'valid'`` (default), ``'same'`` or ``'pad'``.
        padding (Union[int, tuple[int]]): zeros on both sides (``'pad'`` mode only). Default: ``0``.
        ceil_mode (bool): ceil instead of floor for the output length. Default: ``False``.
        count_include_pad (bool): count the padding in the divisor. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.AvgPool1d(kernel_size=6, stride=1)(ms.Tensor(np.ones((1, 3, 6), np.float32))).shape
        (1, 3, 1)
    """

    _nd = 1

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True):
        for name, value in (("kernel_size", kernel_size), ("stride", stride)):
            if not _is_int(value):
                raise MSTypeError(f"For 'AvgPool1d', the '{name}' must be an int, but got {type(value).__name__}.")
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad, None, "NCHW")


class AvgPool2d(_AvgPoolNd):
    r"""2-D average pooling of an (N, C, H, W) or (C, H, W) input.

    Args:
        kernel_size (Union[int, tuple[int]]): window size. Default: ``1``.
        stride (Union[int, tuple[int]]): window step. Default: ``1``.
        pad_mode (str): ``'valid'`` (default), ``'same'`` or ``'pad'``.
        padding (Union[int, tuple[int]]): zeros on both sides, an int or (pad_h, pad_w) (``'pad'`` only).
        ceil_mode (bool): Default: ``False``. count_include_pad (bool): Default: ``True``.
        divisor_override (int): if given, the divisor of every window. Default: ``None``.
        data_format (str): ``'NCHW'``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.AvgPool2d(kernel_size=3, stride=1)(ms.Tensor(np.ones((1, 2, 4, 4), np.float32))).shape
        (1, 2, 2, 2)
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad, divisor_override,
                         data_format)


class AvgPool3d(_AvgPoolNd):
    r"""3-D average pooling of an (N, C, D, H, W) or (C, D, H, W) input; arguments as in :class:`AvgPool2d`
    (``padding`` an int or 3 ints)."""

    _nd = 3

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad, divisor_override,
                         "NCHW")


def _check_float_input(op, x, allowed=(mstype.float16, mstype.float32)):
    chk.check_tensor(op, "input", x)
    if x.dtype not in allowed:
        names = ", ".join(str(d) for d in allowed)
        raise MSTypeError(f"For {op}, the x_dtype must be {names}, but got {x.dtype}.")


@functools.lru_cache(maxsize=256)
def _window_pool(kind, kernel, stride):
    return (ops.AvgPool if kind == "avg" else ops.MaxPool)(kernel, stride)


class _AdaptivePool1d(Cell):
    _kind = "avg"

    def __init__(self, output_size):
        super().__init__()
        op = type(self).__name__
        self.output_size = chk.check_int(op, "output_size", output_size, lo=1)

    def construct(self, input):
        op = type(self).__name__
        _check_float_input(op, input)
        chk.check_rank(op, "input", input, (3,))
        width = input.shape[2]
        if width < self.output_size:
            raise MSValueError(f"For {op}, input's last dimension must be greater or equal to output size "
                               f"{self.output_size}, but got {width}.")
        stride = width // self.output_size
        kernel = width - (self.output_size - 1) * stride
        pool = _window_pool(self._kind, (1, kernel), (1, stride))
        return ops.squeeze(pool(ops.expand_dims(input, 2)), 2)


class AdaptiveAvgPool1d(_AdaptivePool1d):
    r"""Adaptive 1-D average pooling of (N, C, L) to (N, C, output_size): windows of ``L - (out - 1) * s``
    elements every ``s = L // out``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.AdaptiveAvgPool1d(output_size=2)(ms.Tensor(np.ones((1, 3, 6), np.float32))).shape
        (1, 3, 2)
    """

    _kind = "avg"


class AdaptiveMaxPool1d(_AdaptivePool1d):
    r"""Adaptive 1-D max pooling of (N, C, L) to (N, C, output_size); windows as in :class:`AdaptiveAvgPool1d`."""

    _kind = "max"


class AdaptiveAvgPool2d(Cell):
    r"""Adaptive 2-D average pooling of (N, C, H, W) or (C, H, W) to ``output_size`` (an int, or (H_out, W_out)
    where ``None`` keeps that size).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.AdaptiveAvgPool2d(2)(ms.Tensor(np.ones((3, 3, 3), np.float32))).shape
        (3, 2, 2)
    """

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size
        self.adaptive_avgpool2d = ops.AdaptiveAvgPool2D(output_size)

    def construct(self, input):
        return self.adaptive_avgpool2d(input)


class AdaptiveMaxPool2d(Cell):
    r"""Adaptive 2-D max pooling of (N, C, H, W) or (C, H, W) to ``output_size``; with ``return_indices`` also
    the int64 argmax."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.return_indices = chk.check_bool("AdaptiveMaxPool2d", "return_indices", return_indices)
        self.output_size = output_size
        self.adaptive_max_pool2d = ops.AdaptiveMaxPool2D(output_size)

    def construct(self, input):
        output = self.adaptive_max_pool2d(input)
        return output if self.return_indices else output[0]


class AdaptiveAvgPool3d(Cell):
    r"""Adaptive 3-D average pooling of (N, C, D, H, W) or (C, D, H, W) to ``output_size`` (an int or (D, H, W),
    ``None`` keeping that size), by :class:`mindspore.ops.AdaptiveAvgPool3D`."""

    def __init__(self, output_size):
        super().__init__()
        if _is_int(output_size):
            output_size = (output_size,) * 3
        if not isinstance(output_size, (tuple, list)) or len(output_size) != 3 or \
                not all(v is None or (_is_int(v) and v > 0) for v in output_size):
            raise MSValueError(f"For 'AdaptiveAvgPool3d', the 'output_size' must be a positive int or a tuple of 3 "
                               f"positive ints or None, but got {output_size}.")
        self.output_size = tuple(output_size)
        self.pool = ops.AdaptiveAvgPool3D(self.output_size)

    def construct(self, input):
        chk.check_rank("AdaptiveAvgPool3d", "input", input, (4, 5))
        return self.pool(input)


def _lp_pool(op, x, norm_type, kernel_size, stride, ceil_mode, nd):
    if isinstance(norm_type, bool) or not isinstance(norm_type, (float, int)):
        raise MSTypeError(f"For {op}, the type of 'norm_type' must be float or int, but got {type(norm_type)}")
    norm_type = float(norm_type)
    if norm_type == 0:
        raise MSValueError(f"For {op}, the value of 'norm_type' can not be 0.")
    if nd == 1:
        squeeze = x.ndim == 2
        if squeeze:
            x = ops.expand_dims(x, 0)
        stride = kernel_size if stride is None else stride
        out = ops.avg_pool1d(ops.pow(x, norm_type), kernel_size=kernel_size, stride=stride, padding=0,
                             ceil_mode=ceil_mode)
        if squeeze:
            out = ops.squeeze(out, 0)
        count = kernel_size
    else:
        kernel = kernel_size if isinstance(kernel_size, tuple) else (kernel_size, kernel_size)
        stride = kernel if stride is None else stride
        out = ops.avg_pool2d(ops.pow(x, norm_type), kernel_size=kernel, stride=stride, padding=0, ceil_mode=ceil_mode)
        count = kernel[0] * kernel[1]
    return ops.pow(ops.sign(out) * ops.relu(ops.abs(out)) * count, 1.0 / norm_type)


class LPPool1d(Cell):
    r"""Power-average pooling over (N, C, L) or (C, L): ``(sum over the window of x^p) ^ (1/p)``, computed as
    MindSpore does (``avg_pool1d(x^p) * kernel_size``, negatives clamped to 0, then the 1/p power).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.arange(2 * 3 * 4).reshape((2, 3, 4)), ms.float32)
        >>> nn.LPPool1d(norm_type=1, kernel_size=3, stride=1)(x).asnumpy()[0, 0].tolist()
        [3.0, 6.0]
    """

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def construct(self, x):
        return _lp_pool("lp_pool1d", x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode, 1)


class LPPool2d(Cell):
    r"""Power-average pooling over (N, C, H, W) (see :class:`LPPool1d`).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.arange(2 * 3 * 4 * 5).reshape((2, 3, 4, 5)), ms.float32)
        >>> nn.LPPool2d(norm_type=1, kernel_size=3, stride=1)(x).asnumpy()[0, 0, 0].tolist()
        [54.0, 63.0, 72.0]
    """

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def construct(self, x):
        return _lp_pool("lp_pool2d", x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode, 2)


class _MaxUnpoolNd(Cell):
    """Partial inverse of a max pooling: ``x`` is scattered to the flat positions ``indices`` (per sample and
    channel) of a zero output whose spatial size is ``(in - 1) * stride - 2 * padding + kernel_size`` per axis,
    or ``output_size``."""

    _nd = 2

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        op, nd = type(self).__name__, self._nd
        self.kernel_size = chk.int_tuple(op, "kernel_size", kernel_size, nd)
        self.stride = self.kernel_size if stride is None else chk.int_tuple(op, "stride", stride, nd)
        self.padding = chk.int_tuple(op, "padding", padding, nd, min_value=0)

    def construct(self, x, indices, output_size=None):
        op, nd = type(self).__name__, self._nd
        chk.check_rank(op, "x", x, (nd + 1, nd + 2))
        if x.shape != indices.shape:
            raise MSValueError(f"For '{op}', the shape of 'x' and 'indices' must be the same, but got {x.shape} and "
                               f"{indices.shape}.")
        if nd == 2:
            return ops.max_unpool2d(x, indices, self.kernel_size, self.stride, self.padding, output_size)
        if nd == 3:
            return ops.max_unpool3d(x, indices, self.kernel_size, self.stride, self.padding, output_size)
        spatial = x.shape[-nd:]
        if output_size is None or len(output_size) == 0:
            out = tuple((s - 1) * st - 2 * p + k
                        for s, st, p, k in zip(spatial, self.stride, self.padding, self.kernel_size))
        else:
            out = tuple(output_size)[-nd:]
        lead = x.shape[:-nd]
        size_in, size_out = 1, 1
        for s in spatial:
            size_in *= s
        for s in out:
            size_out *= s
        flat_x = ops.reshape(x, lead + (size_in,))
        flat_idx = ops.reshape(ops.cast(indices, mstype.int64), lead + (size_in,))
        base = ops.zeros(lead + (size_out,), x.dtype)
        return ops.reshape(ops.tensor_scatter_elements(base, flat_idx, flat_x, len(lead), "none"), lead + out)


class MaxUnpool1d(_MaxUnpoolNd):
    """1-D max unpooling of (N, C, L) or (C, L) (see ``_MaxUnpoolNd``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.array([[[2., 4.]]], np.float32))
        >>> idx = ms.Tensor(np.array([[[1, 2]]], np.int64))
        >>> nn.MaxUnpool1d(2)(x, idx).asnumpy().tolist()
        [[[0.0, 2.0, 4.0, 0.0]]]
    """

    _nd = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """2-D max unpooling of (N, C, H, W) or (C, H, W) (see ``_MaxUnpoolNd``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.array([[[[5.]]]], np.float32))
        >>> nn.MaxUnpool2d(2)(x, ms.Tensor(np.array([[[[3]]]], np.int64))).asnumpy().ravel().tolist()
        [0.0, 0.0, 0.0, 5.0]
    """

    _nd = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """3-D max unpooling of (N, C, D, H, W) or (C, D, H, W) (see ``_MaxUnpoolNd``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.ones((1, 1, 1, 1, 1), np.float32))
        >>> nn.MaxUnpool3d(2)(x, ms.Tensor(np.array([7]).reshape(1, 1, 1, 1, 1))).shape
        (1, 1, 2, 2, 2)
    """

    _nd = 3


# MindSpore groups mindspore.nn's cells into its own modules: a cell imported from its `nn.layer.pooling` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.nn")
