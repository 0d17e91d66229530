"""Fractional max pooling of ``mindspore.nn`` (Graham 2014, https://arxiv.org/abs/1412.6071):
``FractionalMaxPool2d`` and ``FractionalMaxPool3d``.

Each output position ``i`` of an axis (input ``n``, kernel ``k``, output ``m``) pools the window
``[s_i, s_i + k)`` with ``alpha = (n - k) / (m - 1)``, ``s_i = floor((i + u) * alpha) - floor(u * alpha)`` for
``i < m - 1`` and ``s_{m-1} = n - k``, where ``u`` in [0, 1) is the pseudo-random sample of that (image, channel)
and axis (``_random_samples``: (N, C, 2) for 2-D, ordered (width, height); (N, C, 3) for 3-D, ordered
(depth, height, width); drawn with ``ops.rand`` when not given). The layers call ``ops.fractional_max_pool2d`` /
``ops.fractional_max_pool3d`` (the ``FractionalMaxPool*WithFixedKsize`` primitives). Indices are flat over the
spatial axes, int64.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = ["FractionalMaxPool2d", "FractionalMaxPool3d"]


def _tuple(op, name, value, nd):
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * nd
    if not isinstance(value, (tuple, list)) or len(value) != nd or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
        raise MSValueError(f"For '{op}', the '{name}' must be a positive int or a tuple of {nd} positive ints, but "
                           f"got {value}.")
    return tuple(value)


class _FractionalMaxPool(Cell):
    _nd = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        op = type(self).__name__
        fn = "fractional_max_pool2d" if self._nd == 2 else "fractional_max_pool3d"
        if output_size is None and output_ratio is None:
            raise MSValueError(f"For {fn}, 'output_size' and 'output_ratio' can not be Noneat the same time, but got "
                               f"{output_ratio} and {output_size} .")
        self.kernel_size = _tuple(op, "kernel_size", kernel_size, self._nd)
        self.output_size = None if output_size is None else _tuple(op, "output_size", output_size, self._nd)
        if output_size is None:
            ratio = (output_ratio,) * self._nd if isinstance(output_ratio, (int, float)) else tuple(output_ratio)
            if isinstance(output_ratio, int) and not isinstance(output_ratio, bool):
                raise MSTypeError(f"For '{fn}', the type of 'output_ratio' must be float, but got int.")
            for i, r in enumerate(ratio):
                if not 0.0 < r < 1.0:
                    raise MSValueError(f"For '{fn}', the 'output_ratio[{i}]' must be in range (0.0, 1.0), but got "
                                       f"{r}.")
            self.output_ratio = ratio
        else:
            self.output_ratio = output_ratio
        if not isinstance(return_indices, bool):
            raise MSTypeError(f"For '{fn}', the 'return_indices' must be bool, but got "
                              f"{type(return_indices).__name__}.")
        self.return_indices = return_indices
        self._random_samples = _random_samples

    def construct(self, x):
        op, nd = type(self).__name__, self._nd
        if not isinstance(x, Tensor):
            raise MSTypeError(f"For '{op}', the 'input' must be a Tensor, but got {type(x).__name__}.")
        if x.ndim not in (nd + 1, nd + 2):
            raise MSValueError(f"For '{op}', the 'input' must be a {nd + 1}-D or {nd + 2}-D tensor, but got "
                               f"{x.ndim}-D.")
        fn = ops.fractional_max_pool2d if nd == 2 else ops.fractional_max_pool3d
        return fn(x, self.kernel_size, self.output_size, self.output_ratio, self.return_indices, self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPool):
    r"""2-D fractional max pooling of an (N, C, H, W) or (C, H, W) input.

    Args:
        kernel_size (Union[int, tuple[int]]): The window (kH, kW).
        output_size (Union[int, tuple[int]]): (oH, oW); wins over ``output_ratio``. Default ``None``.
        output_ratio (Union[float, tuple[float]]): Output size as a fraction of the input's, in (0, 1).
            Default ``None``.
        return_indices (bool): Also return the argmax, flat over H*W. Default ``False``.
        _random_samples (Tensor): (N, C, 2) samples in [0, 1) (width, height). Default ``None``: drawn.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5))
        >>> net = nn.FractionalMaxPool2d(2, output_size=(2, 2),
        ...                              _random_samples=ms.Tensor(np.array([[[0.3, 0.7]]], np.float32)))
        >>> net(x).asnumpy().ravel().tolist()
        [6.0, 9.0, 21.0, 24.0]
    """

    _nd = 2


class FractionalMaxPool3d(_FractionalMaxPool):
    r"""3-D fractional max pooling of an (N, C, D, H, W) or (C, D, H, W) input.

    Args:
        kernel_size (Union[int, tuple[int]]): The window (kD, kH, kW).
        output_size (Union[int, tuple[int]]): (oD, oH, oW); wins over ``output_ratio``. Default ``None``.
        output_ratio (Union[float, tuple[float]]): Output size as a fraction of the input's. Default ``None``.
        return_indices (bool): Also return the argmax, flat over D*H*W. Default ``False``.
        _random_samples (Tensor): (N, C, 3) samples in [0, 1). Default ``None``: drawn.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.arange(64, dtype=np.float32).reshape(1, 1, 4, 4, 4))
        >>> net = nn.FractionalMaxPool3d(2, output_size=(2, 2, 2),
        ...                              _random_samples=ms.Tensor(np.array([[[0.5, 0.5, 0.5]]], np.float32)))
        >>> net(x).shape
        (1, 1, 2, 2, 2)
    """

    _nd = 3
