"""Fractional max pooling of ``mindspore.nn`` (Graham 2014, https://arxiv.org/abs/1412.6071):
``FractionalMaxPool2d`` and ``FractionalMaxPool3d``.

Each output position ``i`` of an axis (input ``n``, kernel ``k``, output ``m``) pools the window
``[s_i, s_i + k)`` with ``alpha = (n - k) / (m - 1)``, ``s_i = floor((i + u) * alpha) - floor(u * alpha)`` for
``i < m - 1`` and ``s_{m-1} = n - k``, where ``u`` in [0, 1) is the pseudo-random sample of that (image, channel)
and axis (``_random_samples``: (N, C, 2) for 2-D, ordered (width, height); (N, C, 3) for 3-D, ordered
(depth, height, width); drawn with ``ops.rand`` when not given). The window starts are computed as Tensors and the
windows read with ``gather_elements``, so the pooling is differentiable (the gradient goes to each maximum) and
traces under ``@jit``. Indices are flat over the spatial axes, int64.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
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


def _starts(sample, n, k, m):
    """Window starts (…, m) int32 along one axis for samples (…, 1)."""
    if m == 1:
        return ops.full(sample.shape[:-1] + (1,), n - k, dtype=mstype.int32)
    alpha = (n - k) / (m - 1)
    i = ops.arange(m - 1).astype(sample.dtype)
    starts = ops.floor((i + sample) * alpha) - ops.floor(sample * alpha)
    last = ops.full(sample.shape[:-1] + (1,), n - k, dtype=mstype.int32)
    return ops.concat((starts.astype(mstype.int32), last), -1)


def _gather_axis(x, axis, index):
    """``x`` gathered along ``axis`` (2..) by per-(N, C) ``index`` (N, C, m)."""
    shape = [1] * x.ndim
    shape[0], shape[1], shape[axis] = x.shape[0], x.shape[1], index.shape[-1]
    target = list(x.shape)
    target[axis] = index.shape[-1]
    return ops.gather_elements(x, axis, ops.broadcast_to(index.reshape(shape), tuple(target)))


class _FractionalMaxPool(Cell):
    _nd = 2
    _order = (1, 0)  # which sample column drives each spatial axis

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
        unbatched = x.ndim == nd + 1
        if unbatched:
            x = x.expand_dims(0)
        spatial = x.shape[2:]
        out = self.output_size if self.output_size is not None else tuple(
            int(s * r) for s, r in zip(spatial, self.output_ratio))
        for a in range(nd):
            if out[a] + self.kernel_size[a] - 1 > spatial[a]:
                raise MSValueError(f"For '{op}', the 'output_size' plus 'kernel_size' minus 1 must not exceed the "
                                   f"input size on each spatial axis, but got output {out}, kernel "
                                   f"{self.kernel_size} and input {spatial}.")
        samples = self._random_samples
        if samples is None:
            samples = ops.rand(x.shape[0], x.shape[1], nd, dtype=mstype.float32)
        samples = samples.astype(mstype.float32)
        if tuple(samples.shape) != (x.shape[0], x.shape[1], nd):
            raise MSValueError(f"For '{op}', the '_random_samples' must have shape (N, C, {nd}) = "
                               f"{(x.shape[0], x.shape[1], nd)}, but got {samples.shape}.")
        starts = [_starts(samples[:, :, self._order[a]:self._order[a] + 1], spatial[a], self.kernel_size[a], out[a])
                  for a in range(nd)]
        flat = ops.arange(_numel(spatial)).reshape((1, 1) + spatial).astype(mstype.int64)
        flat = ops.broadcast_to(flat, x.shape[:2] + spatial)
        best_val, best_idx = None, None
        for offset in _offsets(self.kernel_size):
            val, idx = x, flat
            for a in range(nd):
                val = _gather_axis(val, a + 2, starts[a] + offset[a])
                idx = _gather_axis(idx, a + 2, starts[a] + offset[a])
            if best_val is None:
                best_val, best_idx = val, idx
            else:
                better = val > best_val
                best_val = ops.select(better, val, best_val)
                best_idx = ops.select(better, idx, best_idx)
        if unbatched:
            best_val, best_idx = best_val.squeeze(0), best_idx.squeeze(0)
        return (best_val, best_idx) if self.return_indices else best_val


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _offsets(kernel):
    """Every position inside a window, row-major."""
    out = [()]
    for k in kernel:
        out = [o + (i,) for o in out for i in range(k)]
    return out


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
    _order = (1, 0)


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
    _order = (0, 1, 2)
