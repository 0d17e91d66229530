"""More convolution-shaped layers of ``mindspore.nn``: ``Conv3dTranspose``, ``Unfold`` and ``AdaptiveMaxPool3d``.

- ``Conv3dTranspose`` is computed as a direct ``Conv3D``: the input is dilated by ``stride`` (``stride - 1``
  zeros between elements, by reshapes), padded by ``dilation * (k - 1)`` on each side and convolved with the
  weight flipped in space and with its channel axes swapped (per group). That gives the full transposed output of
  length ``(n - 1) * stride + e`` (``e = dilation * (k - 1) + 1``) per axis, which is then cropped as MindSpore
  does: ``'pad'``: ``head`` elements at the start, length ``full - (head + tail) + output_padding`` (the output
  padding rows are computed values); ``'same'``: length ``n * stride``, start ``max(e - stride, 0) // 2``;
  ``'valid'``: length ``n * stride + max(e - stride, 0)`` from the start. Where the wanted length passes the end
  of the full output (``stride > e``), zeros follow.
- ``Unfold`` is MindSpore's ``ExtractImagePatches`` on NCHW: output (N, C * kh * kw, out_h, out_w), the channel
  axis ordered (row in the patch, column in the patch, input channel), TensorFlow's patch layout; ``'same'``
  pads ``max((out - 1) * stride + e - in, 0)`` split with the smaller half first, ``'valid'`` does not pad.
- ``AdaptiveMaxPool3d``: output cell ``i`` of ``out`` covers ``[floor(i * n / out), ceil((i + 1) * n / out))``
  (PyTorch's rule, MindSpore's too); indices are flat over D*H*W, int32 as in MindSpore 2.10 on CPU.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk
from mindspore.nn.layer.conv import _Conv

__all__ = ["Conv3dTranspose", "Unfold", "AdaptiveMaxPool3d"]


class Conv3dTranspose(_Conv):
    r"""3-D transposed convolution ("deconvolution") of an (N, C_in, D, H, W) input.

    The weight is (in_channels, out_channels / group, kd, kh, kw). Output size per axis, with
    ``e = dilation * (k - 1) + 1``: ``'same'``: ``D * stride``; ``'valid'``: ``D * stride + max(e - stride, 0)``;
    ``'pad'``: ``(D - 1) * stride + e - (head + tail) + output_padding``.

    Args:
        in_channels (int), out_channels (int), kernel_size (Union[int, tuple[int]]): as in :class:`Conv3d`.
        stride, pad_mode, padding, dilation, group, has_bias, weight_init, bias_init: as in :class:`Conv3d`.
        output_padding (Union[int, tuple[int]]): Extra output length at the end of each axis (``'pad'`` mode),
            less than ``max(stride, dilation)``. Default ``0``.
        data_format (str): ``'NCDHW'``.
        dtype: The Parameters' dtype. Default ``mindspore.float32``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Conv3dTranspose(3, 4, 3, stride=2, pad_mode='pad', padding=1, output_padding=1)
        >>> net(ms.Tensor(np.ones((1, 3, 4, 4, 4), np.float32))).shape
        (1, 4, 8, 8, 8)
    """

    _nd = 3
    _format = "NCDHW"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, output_padding=0, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW",
                 dtype=mstype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, transposed=True, dtype=dtype)
        if self.dilation[0] != 1:
            raise MSValueError(f"For 'Conv3DTranspose', the depth of parameter 'dilation' must be 1, but got "
                               f"{self.dilation[0]}.")
        if not 1 <= self.kernel_size[0] * self.kernel_size[1] * self.kernel_size[2] <= 343:
            raise MSValueError("For 'Conv3DTranspose', the product of height, width and depth of 'kernel_size' must "
                               f"be in [1, 343], but got {self.kernel_size}.")
        out_pad = chk.int_tuple("Conv3dTranspose", "output_padding", output_padding, 3, min_value=0)
        for i, value in enumerate(out_pad):
            if value >= max(self.dilation[i], self.stride[i]):
                raise MSValueError("For 'Conv3dTranspose', the 'output_padding' must be less than max(stride, "
                                   f"dilation) on each axis, but got {output_padding}.")
        if any(out_pad) and self.pad_mode != "pad":
            raise MSValueError("For 'Conv3dTranspose', when 'output_padding' is not zero, 'pad_mode' must be 'pad', "
                               f"but got '{pad_mode}'.")
        self.output_padding = output_padding
        self._out_pad = out_pad
        self.conv3d_transpose = ops.Conv3DTranspose(in_channels, out_channels, self.kernel_size, mode=1,
                                                    pad_mode=self.pad_mode, pad=self.padding, stride=self.stride,
                                                    dilation=self.dilation, group=group, output_padding=out_pad)

    def construct(self, x):
        chk.check_rank("Conv3dTranspose", "x", x, (5,))
        if x.shape[1] != self.in_channels:
            raise MSValueError(f"For 'Conv3dTranspose', the 'x' shape[1] must be equal to 'in_channels' "
                               f"{self.in_channels}, but got {x.shape[1]}.")
        output = self.conv3d_transpose(x, self.weight)
        if self.has_bias:
            output = self.bias_add(output, self.bias)
        return output


def _check_patch_arg(op, name, value):
    if not isinstance(value, (tuple, list)):
        raise MSTypeError(f"For '{op}', the type of '{name}s' must be one of [tuple, list], but got "
                          f"{type(value).__name__}.")
    if len(value) != 4 or value[0] != 1 or value[3] != 1:
        raise MSValueError(f"For '{op}' the format of '{name}s' must be [1, {name}_row, {name}_col, 1], but got "
                           f"{value}.")
    row, col = value[1], value[2]
    if not (isinstance(row, int) and isinstance(col, int)) or row < 1 or col < 1:
        raise MSValueError(f"For '{op}' the {name}_row and {name}_col in '{name}s' must be an positive integer number, "
                           f"but got {name}_row is {row}, {name}_col is {col}")
    return row, col


class Unfold(Cell):
    r"""Extracts the ``ksizes`` patches of an (N, C, H, W) image into the channel axis.

    Args:
        ksizes (Union[tuple[int], list[int]]): ``[1, ksize_row, ksize_col, 1]``.
        strides (Union[tuple[int], list[int]]): ``[1, stride_row, stride_col, 1]``: distance between patches.
        rates (Union[tuple[int], list[int]]): ``[1, rate_row, rate_col, 1]``: the dilation inside a patch.
        padding (str): ``'same'`` or ``'valid'`` (case-insensitive). Default ``'valid'``.

    Inputs:
        - **x** (Tensor) - (N, C, H, W).

    Outputs:
        Tensor (N, C * ksize_row * ksize_col, out_row, out_col); channel ``(i * ksize_col + j) * C + c`` holds
        input channel ``c`` at patch position ``(i, j)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Unfold(ksizes=[1, 2, 2, 1], strides=[1, 2, 2, 1], rates=[1, 2, 2, 1])
        >>> net(ms.Tensor(np.ones((2, 3, 6, 6), np.float16))).shape
        (2, 12, 2, 2)
    """

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        self.ksize = _check_patch_arg("Unfold", "ksize", ksizes)
        self.stride = _check_patch_arg("Unfold", "stride", strides)
        self.rate = _check_patch_arg("Unfold", "rate", rates)
        if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
            raise MSValueError(f"For 'Unfold', the 'padding' must be 'same' or 'valid', but got {padding}.")
        self.padding = padding.upper()

    def construct(self, x):
        chk.check_rank("Unfold", "x", x, (4,))
        pads, outs = [], []
        for axis in range(2):
            n, k, s, r = x.shape[2 + axis], self.ksize[axis], self.stride[axis], self.rate[axis]
            e = (k - 1) * r + 1
            if self.padding == "VALID":
                out = (n - e) // s + 1 if n >= e else 0
                pads.append((0, 0))
            else:
                out = -(-n // s)
                total = max((out - 1) * s + e - n, 0)
                pads.append((total // 2, total - total // 2))
            if out <= 0:
                raise MSValueError(f"For 'Unfold', the patch (size {k}, rate {r}) does not fit in the input of size "
                                   f"{n}.")
            outs.append(out)
        if any(p for pair in pads for p in pair):
            x = ops.pad(x, pads[1] + pads[0])
        patches = []
        for i in range(self.ksize[0]):
            for j in range(self.ksize[1]):
                top, left = i * self.rate[0], j * self.rate[1]
                patches.append(x[:, :, top:top + (outs[0] - 1) * self.stride[0] + 1:self.stride[0],
                                 left:left + (outs[1] - 1) * self.stride[1] + 1:self.stride[1]])
        return ops.concat(patches, 1)


class AdaptiveMaxPool3d(Cell):
    r"""3-D adaptive max pooling: an (N, C, D, H, W) or (C, D, H, W) input to ``output_size`` cells, each the
    maximum over its ``[floor(i * n / out), ceil((i + 1) * n / out))`` window per axis.

    Args:
        output_size (Union[int, tuple]): (D, H, W) of the output; an int for all three; ``None`` keeps an axis.
        return_indices (bool): Also return the argmax, flat over D*H*W. Default ``False``.

    Outputs:
        Tensor, or (Tensor, indices int32) with ``return_indices``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.arange(48, dtype=np.float32).reshape(1, 1, 3, 4, 4))
        >>> nn.AdaptiveMaxPool3d((1, 2, 2))(x).asnumpy().ravel().tolist()
        [37.0, 39.0, 45.0, 47.0]
    """

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        if isinstance(output_size, int) and not isinstance(output_size, bool):
            output_size = (output_size,) * 3
        if not isinstance(output_size, (tuple, list)) or len(output_size) != 3 or not all(
                o is None or (isinstance(o, int) and not isinstance(o, bool) and o > 0) for o in output_size):
            raise MSValueError("For 'AdaptiveMaxPool3d', the 'output_size' must be an int or a tuple of 3 positive "
                               f"ints or None, but got {output_size}.")
        self.output_size = tuple(output_size)
        self.return_indices = chk.check_bool("AdaptiveMaxPool3d", "return_indices", return_indices)

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise MSTypeError(f"For 'AdaptiveMaxPool3d', the 'x' must be a Tensor, but got {type(x).__name__}.")
        chk.check_rank("AdaptiveMaxPool3d", "x", x, (4, 5))
        return ops.adaptive_max_pool3d(x, self.output_size, self.return_indices)
