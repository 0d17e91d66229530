"""Image Cells of ``mindspore.nn``: ``PixelShuffle``, ``PixelUnshuffle``, ``ChannelShuffle``, ``CentralCrop`` and
``ImageGradients``, composed from existing ops (reshape/transpose/slice/concat), so they differentiate and
trace under ``@jit``. Semantics follow MindSpore 2.10: ``CentralCrop`` starts the crop at
``int((h - h * fraction) / 2)`` and keeps the rest symmetric; ``ImageGradients`` returns forward differences
``(dy, dx)`` with a zero last row / column.
"""
from __future__ import annotations

import math

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk

__all__ = ["PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "CentralCrop", "ImageGradients", "PSNR", "SSIM"]


class PixelShuffle(Cell):
    r"""(\*, C * r^2, H, W) -> (\*, C, H * r, W * r) (``ops.pixel_shuffle``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.PixelShuffle(2)(ms.Tensor(np.ones((1, 8, 3, 3), np.float32))).shape
        (1, 2, 6, 6)
    """

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = chk.check_positive_int("PixelShuffle", "upscale_factor", upscale_factor)

    def construct(self, input):  # noqa: A002 (MindSpore's argument name)
        return ops.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    r"""(\*, C, H * r, W * r) -> (\*, C * r^2, H, W) (``ops.pixel_unshuffle``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.PixelUnshuffle(2)(ms.Tensor(np.ones((1, 2, 6, 6), np.float32))).shape
        (1, 8, 3, 3)
    """

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = chk.check_positive_int("PixelUnshuffle", "downscale_factor", downscale_factor)

    def construct(self, input):  # noqa: A002
        return ops.pixel_unshuffle(input, self.downscale_factor)


class ChannelShuffle(Cell):
    r"""Splits the C channels of (N, C, \*) into ``groups`` groups and interleaves them (ShuffleNet).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(1, 4, 1, 1))
        >>> nn.ChannelShuffle(2)(x).asnumpy().ravel().tolist()
        [0.0, 2.0, 1.0, 3.0]
    """

    def __init__(self, groups):
        super().__init__()
        if not isinstance(groups, int) or isinstance(groups, bool):
            raise MSTypeError(f"For ChannelShuffle, the param `groups` must be int, but got {type(groups)}.")
        if groups < 1:
            raise MSValueError(f"For ChannelShuffle, the param `groups` must be larger than 0, but got {groups}.")
        self.groups = groups

    def construct(self, x):
        c = x.shape[1]
        if c % self.groups:
            raise MSValueError(f"For ChannelShuffle, the number of channels {c} must be divisible by 'groups' "
                               f"{self.groups}.")
        return ops.ChannelShuffle(self.groups)(x)


class CentralCrop(Cell):
    """Crops the central ``central_fraction`` of the H and W axes of a (C, H, W) or (N, C, H, W) image.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.CentralCrop(0.5)(ms.Tensor(np.ones((1, 3, 4, 4), np.float32))).shape
        (1, 3, 2, 2)
    """

    def __init__(self, central_fraction):
        super().__init__()
        if not isinstance(central_fraction, float):
            raise MSTypeError(f"For 'CentralCrop', the type of 'central_fraction' must be float, but got "
                              f"{type(central_fraction).__name__}.")
        if not 0.0 < central_fraction <= 1.0:
            raise MSValueError(f"For 'CentralCrop', the 'central_fraction' must be in range (0.0, 1.0], but got "
                               f"{central_fraction}.")
        self.central_fraction = central_fraction

    def construct(self, image):
        chk.check_rank("CentralCrop", "image", image, (3, 4))
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2], image.shape[-1]
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        return image[..., top:h - top, left:w - left]


class ImageGradients(Cell):
    """Forward-difference gradients ``(dy, dx)`` of an (N, C, H, W) image; the last row of ``dy`` and the last
    column of ``dx`` are 0.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> dy, dx = nn.ImageGradients()(ms.Tensor(np.array([[[[1., 2.], [3., 4.]]]], np.float32)))
        >>> dy.asnumpy().ravel().tolist(), dx.asnumpy().ravel().tolist()
        ([2.0, 2.0, 0.0, 0.0], [1.0, 0.0, 1.0, 0.0])
    """

    def __init__(self):
        super().__init__()

    def construct(self, images):
        chk.check_rank("ImageGradients", "images", images, (4,))
        n, c, h, w = images.shape
        zero_row = ops.zeros((n, c, 1, w), images.dtype)
        zero_col = ops.zeros((n, c, h, 1), images.dtype)
        if h == 1:
            dy = zero_row
        else:
            dy = ops.concat((images[:, :, 1:, :] - images[:, :, :h - 1, :], zero_row), 2)
        if w == 1:
            dx = zero_col
        else:
            dx = ops.concat((images[:, :, :, 1:] - images[:, :, :, :w - 1], zero_col), 3)
        return dy, dx


def _dtype_max(dtype):
    """The largest value of an integer dtype (images in [0, max]); 1.0 for float images."""
    import numpy as np
    from mindspore.common.dtype import dtype_to_nptype
    np_type = dtype_to_nptype(dtype)
    return float(np.iinfo(np_type).max) if np.issubdtype(np_type, np.integer) else 1.0


class PSNR(Cell):
    """Peak signal-to-noise ratio ``10 * log10(max_val^2 / mse)`` per image of two (N, C, H, W) batches; integer
    images are scaled to [0, 1] (and ``max_val`` with them) first, as MindSpore does.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> a = ms.Tensor(np.full((1, 1, 2, 2), 0.5, np.float32))
        >>> b = ms.Tensor(np.full((1, 1, 2, 2), 0.4, np.float32))
        >>> np.round(nn.PSNR()(a, b).asnumpy(), 4).tolist()
        [20.0]
    """

    def __init__(self, max_val=1.0):
        super().__init__()
        if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
            raise MSTypeError(f"For 'PSNR', the type of 'max_val' must be int or float, but got "
                              f"{type(max_val).__name__}.")
        if max_val <= 0:
            raise MSValueError(f"For 'PSNR', the 'max_val' must be greater than 0, but got {max_val}.")
        self.max_val = max_val

    def construct(self, img1, img2):
        chk.check_rank("PSNR", "img2", img2, (4,))
        if img1.shape != img2.shape or img1.dtype != img2.dtype:
            raise MSTypeError(f"For 'PSNR', 'img1' and 'img2' must have the same shape and dtype, but got "
                              f"{img1.shape}, {img1.dtype} and {img2.shape}, {img2.dtype}.")
        dtype_max = _dtype_max(img1.dtype)
        scale = 1.0 / dtype_max if dtype_max > 1.0 else 1.0
        max_val = float(self.max_val) * scale
        diff = ops.cast(img1, mstype.float32) * scale - ops.cast(img2, mstype.float32) * scale
        mse = ops.mean(ops.square(diff), (-3, -2, -1))
        return 10 * ops.log(max_val * max_val / mse) / math.log(10.0)


def _gauss_window(size, sigma):
    """The (1, 1, size, size) normalised Gaussian window MindSpore's SSIM convolves with."""
    import numpy as np
    x, y = np.mgrid[-size // 2 + 1:size // 2 + 1, -size // 2 + 1:size // 2 + 1]
    g = np.exp(-(x.astype(np.float32) ** 2 + y.astype(np.float32) ** 2) / (2 * sigma ** 2))
    return (g / np.sum(g)).astype(np.float32).reshape(1, 1, size, size)


class SSIM(Cell):
    """Structural similarity of two (N, C, H, W) float batches, one value per image: the SSIM map of each
    channel (Gaussian window ``filter_size`` / ``filter_sigma``, 'valid' convolution), averaged over H, W and C.
    The window is the frozen Parameter ``conv.weight``, as in MindSpore.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> img = ms.Tensor(np.random.default_rng(0).random((1, 3, 16, 16)).astype(np.float32))
        >>> np.round(nn.SSIM()(img, img).asnumpy(), 4).tolist()
        [1.0]
    """

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        from mindspore.common.tensor import Tensor
        from mindspore.nn.layer.conv import Conv2d
        if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
            raise MSTypeError(f"For 'SSIM', the type of 'max_val' must be int or float, but got "
                              f"{type(max_val).__name__}.")
        if max_val <= 0:
            raise MSValueError(f"For 'SSIM', the 'max_val' must be greater than 0, but got {max_val}.")
        self.max_val = max_val
        self.filter_size = chk.check_int("SSIM", "filter_size", filter_size, lo=1)
        if not isinstance(filter_sigma, float) or filter_sigma <= 0:
            raise MSValueError(f"For 'SSIM', the 'filter_sigma' must be a positive float, but got {filter_sigma}.")
        self.filter_sigma = filter_sigma
        for name, value in (("k1", k1), ("k2", k2)):
            if not isinstance(value, float):
                raise MSTypeError(f"For 'SSIM', the type of '{name}' must be float, but got {type(value).__name__}.")
        self.k1, self.k2 = k1, k2
        self.conv = Conv2d(1, 1, filter_size, pad_mode="valid",
                           weight_init=Tensor(_gauss_window(filter_size, filter_sigma)))
        self.conv.weight.requires_grad = False

    def construct(self, img1, img2):
        if img1.dtype not in (mstype.float32, mstype.float16):
            raise MSTypeError(f"For 'SSIM', the 'img1' dtype must be float32 or float16, but got {img1.dtype}.")
        chk.check_rank("SSIM", "img1", img1, (4,))
        if img1.shape[2] < self.filter_size or img1.shape[3] < self.filter_size:
            raise MSValueError(f"For 'SSIM', the 'img1' shape[2] and shape[3] must be >= 'filter_size' "
                               f"{self.filter_size}, but got {img1.shape}.")
        if img1.shape != img2.shape or img1.dtype != img2.dtype:
            raise MSTypeError(f"For 'SSIM', 'img1' and 'img2' must have the same shape and dtype, but got "
                              f"{img1.shape}, {img1.dtype} and {img2.shape}, {img2.dtype}.")
        n, c, h, w = img1.shape
        c1 = (self.k1 * self.max_val) ** 2
        c2 = (self.k2 * self.max_val) ** 2

        def blur(x):
            out = self.conv(ops.reshape(ops.cast(x, mstype.float32), (n * c, 1, h, w)))
            return ops.reshape(out, (n, c) + out.shape[2:])

        x, y = ops.cast(img1, mstype.float32), ops.cast(img2, mstype.float32)
        mu1, mu2 = blur(x), blur(y)
        mu1_sq, mu2_sq, mu12 = mu1 * mu1, mu2 * mu2, mu1 * mu2
        sigma1_sq = blur(x * x) - mu1_sq
        sigma2_sq = blur(y * y) - mu2_sq
        sigma12 = blur(x * y) - mu12
        ssim = (2 * mu12 + c1) * (2 * sigma12 + c2) / ((mu1_sq + mu2_sq + c1) * (sigma1_sq + sigma2_sq + c2))
        return ops.mean(ops.mean(ssim, (2, 3)), -1)


# MindSpore groups mindspore.nn's cells into its own modules: a cell imported from its `nn.layer.image` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.nn")
