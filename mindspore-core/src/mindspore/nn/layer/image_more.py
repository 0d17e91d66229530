"""``mindspore.nn.MSSSIM``: multi-scale structural similarity (Wang, Simoncelli & Bovik 2003,
https://ieeexplore.ieee.org/document/1292216).

At each of ``len(power_factors)`` scales the per-channel SSIM terms are computed as in :class:`SSIM` (an
``filter_size`` Gaussian window, valid convolution, ``c1 = (k1 * L)^2``, ``c2 = (k2 * L)^2``): the contrast-structure
term ``cs = (2 s12 + c2) / (s1 + s2 + c2)`` and the full SSIM, each averaged over the image. Between scales both
images are halved by a 2x2 average pool (stride 2, valid). The result per image and channel is
``prod_j relu(cs_j) ** w_j`` over all scales but the last, times ``relu(ssim_M) ** w_M``; channels are averaged.
Integer images are scaled to [0, 1] by their dtype's maximum first (and so is ``max_val``), as in MindSpore.
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk
from mindspore.nn.layer.image import _gauss_window

__all__ = ["MSSSIM"]

_VALID = (mstype.float64, mstype.float32, mstype.float16, mstype.uint8)


class MSSSIM(Cell):
    r"""The MS-SSIM index of two batches of images, per image.

    Args:
        max_val (Union[int, float]): Dynamic range of the pixels (255 for 8-bit images). Default ``1.0``.
        power_factors (Union[tuple, list]): Weight of each scale (one scale per entry). Default
            ``(0.0448, 0.2856, 0.3001, 0.2363, 0.1333)``.
        filter_size (int): Size of the Gaussian window. Default ``11``.
        filter_sigma (float): Its standard deviation. Default ``1.5``.
        k1 (float): Luminance constant. Default ``0.01``.
        k2 (float): Contrast constant. Default ``0.03``.

    Inputs:
        - **img1** (Tensor) - (N, C, H, W), float16/32/64 or uint8.
        - **img2** (Tensor) - same shape and dtype.

    Outputs:
        Tensor (N,), float32.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> img = ms.Tensor(np.random.default_rng(0).random((1, 3, 128, 128)).astype(np.float32))
        >>> net = nn.MSSSIM(power_factors=(0.5, 0.5), filter_size=7)
        >>> round(float(net(img, img)[0]), 4)
        1.0
    """

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333), filter_size=11,
                 filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        op = "MSSSIM"
        if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
            raise MSTypeError(f"For '{op}', the type of 'max_val' must be int or float, but got "
                              f"{type(max_val).__name__}.")
        if max_val <= 0:
            raise MSValueError(f"For '{op}', the 'max_val' must be greater than 0, but got {max_val}.")
        self.max_val = max_val
        if not isinstance(power_factors, (tuple, list)):
            raise MSTypeError(f"For '{op}', the type of 'power_factors' must be tuple or list, but got "
                              f"{type(power_factors).__name__}.")
        self.filter_size = chk.check_int(op, "filter_size", filter_size, lo=1)
        if isinstance(filter_sigma, bool) or not isinstance(filter_sigma, (int, float)) or filter_sigma <= 0:
            raise MSValueError(f"For '{op}', the 'filter_sigma' must be a positive float, but got {filter_sigma}.")
        self.filter_sigma = filter_sigma
        for name, value in (("k1", k1), ("k2", k2)):
            if not isinstance(value, float):
                raise MSTypeError(f"For '{op}', the type of '{name}' must be float, but got {type(value).__name__}.")
        self.k1, self.k2 = k1, k2
        self.level = len(power_factors)
        self.weight_tensor = Tensor(np.asarray(power_factors, np.float32))
        self.window = Tensor(_gauss_window(filter_size, filter_sigma).astype(np.float32))

    def _scale(self, x, dtype_max):
        x = x.astype(mstype.float32)
        return x * (1.0 / dtype_max) if dtype_max > 1 else x

    def _terms(self, x, y, c1, c2):
        """(ssim, cs) averaged over the image, per (image, channel)."""
        n, c, h, w = x.shape

        def blur(t):
            out = ops.conv2d(t.reshape(n * c, 1, h, w), self.window)
            return out.reshape((n, c) + out.shape[2:])

        mu1, mu2 = blur(x), blur(y)
        mu1_sq, mu2_sq, mu12 = mu1 * mu1, mu2 * mu2, mu1 * mu2
        v1 = 2 * (blur(x * y) - mu12) + c2
        v2 = (blur(x * x) - mu1_sq) + (blur(y * y) - mu2_sq) + c2
        ssim = (2 * mu12 + c1) * v1 / ((mu1_sq + mu2_sq + c1) * v2)
        return ops.mean(ssim, (2, 3)), ops.mean(v1 / v2, (2, 3))

    def construct(self, img1, img2):
        op = "MSSSIM"
        for name, img in (("img1", img1), ("img2", img2)):
            if img.ndim != 4:
                raise MSValueError(f"For '{op}', the dimension of '{name}' must be 4d, but got {img.ndim}.")
        if img1.dtype not in _VALID:
            raise MSTypeError(f"For '{op}', the 'img1' should be one of [mindspore.float64, mindspore.float32, "
                              f"mindspore.float16, mindspore.uint8], but got 'mindspore.{str(img1.dtype).lower()}'.")
        if img1.shape != img2.shape or img1.dtype != img2.dtype:
            raise MSTypeError(f"For '{op}', 'img1' and 'img2' must have the same shape and dtype, but got "
                              f"{img1.shape}, {img1.dtype} and {img2.shape}, {img2.dtype}.")
        dtype_max = 255.0 if img1.dtype == mstype.uint8 else 1.0
        max_val = self.max_val / dtype_max if dtype_max > 1 else float(self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        x, y = self._scale(img1, dtype_max), self._scale(img2, dtype_max)
        terms = []
        for i in range(self.level):
            if x.shape[2] < self.filter_size or x.shape[3] < self.filter_size:
                raise MSValueError(f"For '{op}', the image at scale {i} is {x.shape[2:]}, smaller than "
                                   f"'filter_size' {self.filter_size}.")
            ssim, cs = self._terms(x, y, c1, c2)
            terms.append(ops.relu(ssim) if i == self.level - 1 else ops.relu(cs))
            if i < self.level - 1:
                x = ops.avg_pool2d(x, 2, 2)
                y = ops.avg_pool2d(y, 2, 2)
        stacked = ops.pow(ops.stack(terms, -1), self.weight_tensor)
        return ops.mean(ops.prod(stacked, -1), -1)
