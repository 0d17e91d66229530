"""``mindspore.mint.nn.functional``: PyTorch-style neural-network functions over ``mindspore.ops``.

Wrappers translate PyTorch's arguments (``padding`` as an int, a tuple, ``'same'`` or ``'valid'``;
``stride=None`` meaning the kernel size; ``negative_slope``; ``inplace``) to the ``ops`` functions. ``unfold`` and
``fold`` are a grouped convolution and its transpose with one-hot kernels; ``adaptive_avg_pool3d``,
``max_unpool2d``, ``grid_sample`` and ``embedding`` are compositions of slicing, scatter and gather. ``inplace=True``
(and the ``*_`` functions) write the result back into ``input`` with ``ops.assign`` and return ``input``.
"""
import builtins

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops import (cosine_embedding_loss, group_norm, layer_norm, mse_loss,  # noqa: F401
                           pixel_shuffle, sigmoid, soft_margin_loss, tanh, adaptive_avg_pool1d,
                           adaptive_avg_pool2d, conv_transpose2d, cross_entropy)

__all__ = [
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
    "adaptive_max_pool2d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "batch_norm", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "conv1d", "conv2d", "conv3d", "conv_transpose2d", "cosine_embedding_loss",
    "cross_entropy", "dropout", "dropout2d", "elu", "elu_", "embedding", "flatten", "fold", "gelu", "glu",
    "grid_sample", "group_norm", "hardtanh", "hardtanh_", "interpolate", "kl_div", "layer_norm", "leaky_relu",
    "linear", "log_softmax", "logsigmoid", "max_pool2d", "max_unpool2d", "mse_loss", "nll_loss", "normalize",
    "one_hot", "pad", "pixel_shuffle", "prelu", "relu", "relu6", "relu_", "sigmoid", "sigmoid_", "silu",
    "soft_margin_loss", "softmax", "tanh", "threshold", "threshold_", "unfold", "upsample",
]


def _inplace(input, out, inplace):
    if inplace:
        ops.assign(input, out)
        return input
    return out


def _tuple(value, n):
    if isinstance(value, (tuple, list)):
        if len(value) == 1:
            return tuple(value) * n
        return tuple(value)
    return (value,) * n


# --- activations ------------------------------------------------------------------------------------------
def relu(input, inplace=False):
    """``max(input, 0)``."""
    return _inplace(input, ops.relu(input), inplace)


def relu_(input):
    """In-place :func:`relu`."""
    return relu(input, True)


def relu6(input, inplace=False):
    """``min(max(input, 0), 6)``."""
    return _inplace(input, ops.relu6(input), inplace)


def logsigmoid(input):
    """``log(sigmoid(input))``, computed stably."""
    return ops.logsigmoid(input)


def sigmoid_(input):
    """In-place :func:`sigmoid`."""
    return _inplace(input, ops.sigmoid(input), True)


def silu(input, inplace=False):
    """``input * sigmoid(input)``."""
    return _inplace(input, ops.silu(input), inplace)


def elu(input, alpha=1.0, inplace=False):
    """``input`` where positive, else ``alpha * (exp(input) - 1)``."""
    return _inplace(input, ops.elu(input, alpha), inplace)


def elu_(input, alpha=1.0):
    """In-place :func:`elu`."""
    return elu(input, alpha, True)


def gelu(input, *, approximate="none"):
    """GELU, exact (``'none'``) or with the ``'tanh'`` approximation."""
    return ops.gelu(input, approximate)


def glu(input, dim=-1):
    """Gated linear unit: ``a * sigmoid(b)`` of the two halves of ``input`` along ``dim``."""
    return ops.glu(input, dim)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """Clamps into ``[min_val, max_val]``."""
    return _inplace(input, ops.hardtanh(input, min_val, max_val), inplace)


def hardtanh_(input, min_val=-1, max_val=1):
    """In-place :func:`hardtanh`."""
    return hardtanh(input, min_val, max_val, True)


def leaky_relu(input, negative_slope=0.01):
    """``input`` where positive, else ``negative_slope * input``."""
    return ops.leaky_relu(input, negative_slope)


def prelu(input, weight):
    """Leaky ReLU with a learnt slope per channel (dim 1) or one shared slope."""
    return ops.prelu(input, weight)


def threshold(input, threshold, value, inplace=False):
    """``input`` where ``input > threshold``, else ``value``."""
    return _inplace(input, ops.threshold(input, threshold, value), inplace)


def threshold_(input, threshold, value):
    """In-place :func:`threshold`."""
    return _inplace(input, ops.threshold(input, threshold, value), True)


def _softmax_dim(input, dim):
    """PyTorch's implicit dimension when ``dim`` is None: 0 for 0-, 1- and 3-D inputs, else 1."""
    if dim is None:
        return 0 if input.ndim in (0, 1, 3) else 1
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise MSTypeError(f"For 'softmax', the type of 'dim' must be 'int', but got '{dim}' with type "
                          f"'{type(dim).__name__}'.")
    return dim


def _scalar_softmax(x, dim, fill):
    if dim not in (0, -1):
        raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], but got {dim})")
    return fill(x)


def softmax(input, dim=None, dtype=None):
    """Softmax along ``dim`` (PyTorch's implicit choice when None: 0 for 0/1/3-D inputs, else 1)."""
    x = input if dtype is None else ops.cast(input, dtype)
    d = _softmax_dim(input, dim)
    if x.ndim == 0:
        return _scalar_softmax(x, d, ops.ones_like)
    return ops.softmax(x, d)


def log_softmax(input, dim=None, *, dtype=None):
    """Log-softmax along ``dim`` (chosen as in :func:`softmax` when None)."""
    x = input if dtype is None else ops.cast(input, dtype)
    d = _softmax_dim(input, dim)
    if x.ndim == 0:
        return _scalar_softmax(x, d, ops.zeros_like)
    return ops.log_softmax(x, d)


def hardshrink(input, lambd=0.5):
    """Zero inside ``[-lambd, lambd]``, ``input`` elsewhere."""
    return ops.hardshrink(input, lambd)


def softshrink(input, lambd=0.5):
    """``input - lambd`` above ``lambd``, ``input + lambd`` below ``-lambd``, zero between."""
    return ops.softshrink(input, lambd)


def hardsigmoid(input):
    """``relu6(input + 3) / 6``."""
    return ops.hardsigmoid(input)


def hardswish(input):
    """``input * relu6(input + 3) / 6``."""
    return ops.hardswish(input)


def mish(input):
    """``input * tanh(softplus(input))``."""
    return ops.mish(input)


def selu(input):
    """Scaled ELU with the self-normalising constants."""
    return ops.selu(input)


def softplus(input, beta=1, threshold=20):
    """``log(1 + exp(beta * input)) / beta`` (linear above ``threshold``)."""
    return ops.softplus(input, beta, threshold)


# --- linear, convolution ----------------------------------------------------------------------------------
def linear(input, weight, bias=None):
    """``input @ weight.T + bias``."""
    out = ops.matmul(input, ops.t(weight) if weight.ndim == 2 else weight)
    return out if bias is None else ops.add(out, bias)


def _conv(fn, op, input, weight, bias, stride, padding, dilation, groups, n):
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise MSValueError(f"For '{op}', the 'padding' must be 'same', 'valid', an int or a tuple, but got "
                               f"{padding!r}.")
        if padding == "same" and builtins.any(s != 1 for s in _tuple(stride, n)):
            raise MSValueError(f"For '{op}', padding='same' needs stride 1, but got stride {stride}.")
        return fn(input, weight, bias, stride, padding, 0, dilation, groups)
    return fn(input, weight, bias, stride, "pad", _tuple(padding, n), dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution of (N, C_in, L) with (C_out, C_in / groups, k)."""
    return _conv(ops.conv1d, "conv1d", input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution of (N, C_in, H, W) with (C_out, C_in / groups, kh, kw)."""
    return _conv(ops.conv2d, "conv2d", input, weight, bias, stride, padding, dilation, groups, 2)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D convolution of (N, C_in, D, H, W) with (C_out, C_in / groups, kd, kh, kw)."""
    return _conv(ops.conv3d, "conv3d", input, weight, bias, stride, padding, dilation, groups, 3)


def _patch_kernel(channels, kernel, dtype):
    """(C * kh * kw, 1, kh, kw) one-hot kernels: output channel c * kh * kw + i picks patch element i."""
    kh, kw = kernel
    k = kh * kw
    eye = ops.reshape(ops.eye(k, k, dtype), (k, 1, kh, kw))
    return ops.tile(eye, (channels, 1, 1, 1))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding patches of (N, C, H, W) as columns: (N, C * kh * kw, L) (im2col)."""
    if input.ndim != 4:
        raise MSValueError(f"For 'unfold', the 'input' must be a 4-D tensor, but got shape {input.shape}.")
    kernel = _tuple(kernel_size, 2)
    c = input.shape[1]
    out = ops.conv2d(input, _patch_kernel(c, kernel, input.dtype), None, _tuple(stride, 2), "pad",
                     _tuple(padding, 2), _tuple(dilation, 2), c)
    return ops.reshape(out, (out.shape[0], out.shape[1], -1))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sums columns (N, C * kh * kw, L) back into an image (N, C, H, W) (col2im, the adjoint of unfold)."""
    if input.ndim != 3:
        raise MSValueError(f"For 'fold', the 'input' must be a 3-D tensor, but got shape {input.shape}.")
    kh, kw = kernel = _tuple(kernel_size, 2)
    (oh, ow), (dh, dw), (ph, pw), (sh, sw) = (_tuple(output_size, 2), _tuple(dilation, 2), _tuple(padding, 2),
                                              _tuple(stride, 2))
    bh = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    bw = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if input.shape[1] % (kh * kw) or bh * bw != input.shape[2]:
        raise MSValueError(f"For 'fold', the 'input' shape {input.shape} does not match kernel {kernel} and "
                           f"{bh * bw} blocks.")
    c = input.shape[1] // (kh * kw)
    cols = ops.reshape(input, (input.shape[0], input.shape[1], bh, bw))
    out_pad = (oh + 2 * ph - ((bh - 1) * sh + dh * (kh - 1) + 1), ow + 2 * pw - ((bw - 1) * sw + dw * (kw - 1) + 1))
    return ops.conv_transpose2d(cols, _patch_kernel(c, kernel, input.dtype), None, (sh, sw), (ph, pw), out_pad, c,
                                (dh, dw))


# --- pooling ----------------------------------------------------------------------------------------------
def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """1-D average pooling of (N, C, L)."""
    return ops.avg_pool1d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                          count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """2-D average pooling of (N, C, H, W)."""
    return ops.avg_pool2d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                          count_include_pad, divisor_override or 0)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """3-D average pooling of (N, C, D, H, W)."""
    return ops.avg_pool3d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                          count_include_pad, divisor_override or 0)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """2-D max pooling; with ``return_indices`` also the flat int64 argmax in each H * W plane."""
    return ops.max_pool2d(input, kernel_size, stride, padding, dilation, return_indices, ceil_mode)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """1-D adaptive max pooling of (N, C, L) (indices into L with ``return_indices``)."""
    out = ops.adaptive_max_pool2d(ops.expand_dims(input, -2), (1, output_size), True)
    values, indices = ops.squeeze(out[0], -2), ops.squeeze(out[1], -2)
    return (values, indices) if return_indices else values


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """2-D adaptive max pooling of (N, C, H, W)."""
    return ops.adaptive_max_pool2d(input, output_size, return_indices)


def adaptive_avg_pool3d(input, output_size):
    """3-D adaptive average pooling of (N, C, D, H, W) or (C, D, H, W); ``None`` keeps a size."""
    if input.ndim not in (4, 5):
        raise MSValueError(f"For 'adaptive_avg_pool3d', the 'input' must be a 4-D or 5-D tensor, but got shape "
                           f"{input.shape}.")
    return ops.adaptive_avg_pool3d(input, _tuple(output_size, 3))


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Scatters ``input`` (N, C, H, W) to the flat positions ``indices`` of a zero (N, C, H_out, W_out) tensor."""
    return ops.max_unpool2d(input, indices, kernel_size, stride, padding, output_size)


# --- normalisation, dropout -------------------------------------------------------------------------------
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05):
    """Batch normalisation over dim 1 (running statistics updated in place when ``training``)."""
    c = input.shape[1]
    if weight is None:
        weight = ops.ones((c,), input.dtype)
    if bias is None:
        bias = ops.zeros((c,), input.dtype)
    return ops.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """``input / max(||input||_p, eps)`` along ``dim``."""
    from mindspore.mint.linalg import vector_norm
    return ops.div(input, ops.clamp(vector_norm(input, p, dim, True), eps))


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes elements with probability ``p`` and scales the rest by ``1 / (1 - p)`` (identity in eval)."""
    if not 0 <= p <= 1:
        raise MSValueError(f"For 'dropout', the 'p' must be in [0, 1], but got {p}.")
    if not training or p == 0:
        return input
    return _inplace(input, ops.dropout(input, p, True), inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zeroes whole channels with probability ``p`` (identity in eval)."""
    if not 0 <= p <= 1:
        raise MSValueError(f"For 'dropout2d', the 'p' must be in [0, 1], but got {p}.")
    if not training or p == 0:
        return input
    return _inplace(input, ops.dropout2d(input, p, True), inplace)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False):
    """Rows of ``weight`` at ``input``; ``max_norm`` renormalises the rows used (in place)."""
    if max_norm is not None:
        from mindspore.mint.linalg import vector_norm
        norms = vector_norm(weight, norm_type, -1, True)
        used = ops.cast(ops.gt(ops.sum(ops.one_hot(ops.reshape(ops.cast(input, mstype.int32), (-1,)),
                                                   weight.shape[0], 1.0, 0.0), 0), 0), weight.dtype)
        scale = ops.where(ops.gt(norms, max_norm), ops.div(max_norm, ops.add(norms, 1e-7)), ops.ones_like(norms))
        scale = ops.add(ops.mul(ops.sub(scale, 1), ops.expand_dims(used, -1)), 1)
        ops.assign(weight, ops.stop_gradient(ops.mul(weight, scale)))
    table = weight
    if padding_idx is not None:
        idx = padding_idx + weight.shape[0] if padding_idx < 0 else padding_idx
        is_pad = ops.reshape(ops.equal(ops.arange(weight.shape[0]), idx), (-1, 1))
        table = ops.where(is_pad, ops.stop_gradient(weight), weight)
    return ops.gather(table, input, 0)


def one_hot(tensor, num_classes=-1):
    """int64 one-hot vectors of ``num_classes`` (the largest value + 1 when -1) along a new last dim."""
    if num_classes == -1:
        num_classes = builtins.int(ops.amax(tensor)) + 1
    return ops.one_hot(tensor, num_classes, Tensor(1, mstype.int64), Tensor(0, mstype.int64))


def flatten(input, start_dim=0, end_dim=-1):
    """Flattens ``start_dim`` .. ``end_dim``."""
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def pad(input, pad, mode="constant", value=None):
    """Pads with pairs from the last dimension backwards: ``'constant'``, ``'reflect'``, ``'replicate'``,
    ``'circular'``."""
    return ops.pad(input, pad, mode, value)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """Resizes to ``size`` or by ``scale_factor``."""
    return ops.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Alias of :func:`interpolate`."""
    return ops.interpolate(input, size, scale_factor, mode, align_corners)


def _reflect(coord, size, align_corners):
    """Source coordinates reflected back into the image (about the edge pixels' centres with
    ``align_corners``, else about their outer edges)."""
    low, span = (0.0, size - 1.0) if align_corners else (-0.5, float(size))
    if span <= 0:
        return ops.zeros_like(coord)
    dist = ops.abs(ops.sub(coord, low))
    flips = ops.floor(ops.div(dist, span))
    extra = ops.sub(dist, ops.mul(flips, span))
    even = ops.equal(ops.sub(flips, ops.mul(ops.floor(ops.div(flips, 2.0)), 2.0)), 0.0)
    return ops.where(even, ops.add(extra, low), ops.add(ops.sub(span, extra), low))


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Samples (N, C, H, W) at the normalised (x, y) locations of ``grid`` (N, H_out, W_out, 2).

    ``mode``: ``'bilinear'`` or ``'nearest'``; ``padding_mode``: ``'zeros'``, ``'border'`` or ``'reflection'``.
    """
    if mode not in ("bilinear", "nearest"):
        raise MSValueError(f"For 'grid_sample', the 'mode' must be 'bilinear' or 'nearest' for 4-D input, but got "
                           f"{mode!r}.")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise MSValueError(f"For 'grid_sample', the 'padding_mode' must be 'zeros', 'border' or 'reflection', but "
                           f"got {padding_mode!r}.")
    if input.ndim != 4 or grid.ndim != 4 or grid.shape[-1] != 2:
        raise MSValueError(f"For 'grid_sample', expected input (N, C, H, W) and grid (N, H_out, W_out, 2), but got "
                           f"{input.shape} and {grid.shape}.")
    n, c, h, w = input.shape
    ho, wo = grid.shape[1:3]
    gx, gy = ops.squeeze(ops.narrow(grid, -1, 0, 1), -1), ops.squeeze(ops.narrow(grid, -1, 1, 1), -1)

    def unnormalize(g, size):
        if align_corners:
            return ops.mul(ops.add(g, 1.0), (size - 1) / 2.0)
        return ops.div(ops.sub(ops.mul(ops.add(g, 1.0), size), 1.0), 2.0)

    x, y = unnormalize(gx, w), unnormalize(gy, h)
    if padding_mode == "reflection":
        x, y = _reflect(x, w, align_corners), _reflect(y, h, align_corners)
    if padding_mode in ("border", "reflection"):
        x, y = ops.clamp(x, 0.0, w - 1.0), ops.clamp(y, 0.0, h - 1.0)
    flat = ops.reshape(input, (n, c, h * w))

    def tap(xi, yi):
        valid = ops.logical_and(ops.logical_and(ops.ge(xi, 0), ops.le(xi, w - 1)),
                                ops.logical_and(ops.ge(yi, 0), ops.le(yi, h - 1)))
        xc = ops.cast(ops.clamp(xi, 0, w - 1), mstype.int64)
        yc = ops.cast(ops.clamp(yi, 0, h - 1), mstype.int64)
        index = ops.broadcast_to(ops.reshape(ops.add(ops.mul(yc, w), xc), (n, 1, ho * wo)), (n, c, ho * wo))
        vals = ops.reshape(ops.gather_elements(flat, 2, index), (n, c, ho, wo))
        return ops.mul(vals, ops.expand_dims(ops.cast(valid, input.dtype), 1))

    if mode == "nearest":
        return tap(ops.round(x), ops.round(y))
    x0, y0 = ops.floor(x), ops.floor(y)
    x1, y1 = ops.add(x0, 1.0), ops.add(y0, 1.0)
    wx1, wy1 = ops.sub(x, x0), ops.sub(y, y0)
    wx0, wy0 = ops.sub(1.0, wx1), ops.sub(1.0, wy1)
    out = None
    for xi, yi, wgt in ((x0, y0, ops.mul(wx0, wy0)), (x1, y0, ops.mul(wx1, wy0)), (x0, y1, ops.mul(wx0, wy1)),
                        (x1, y1, ops.mul(wx1, wy1))):
        term = ops.mul(tap(xi, yi), ops.expand_dims(wgt, 1))
        out = term if out is None else ops.add(out, term)
    return out


# --- losses -----------------------------------------------------------------------------------------------
def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    """Binary cross entropy of probabilities ``input`` against ``target``."""
    return ops.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean", pos_weight=None):
    """Binary cross entropy of ``sigmoid(input)`` against ``target``, computed stably."""
    return ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def l1_loss(input, target, reduction="mean"):
    """Mean (or sum) absolute error."""
    return ops.l1_loss(input, target, reduction)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):
    """Squared error below ``beta``, absolute error above."""
    return ops.smooth_l1_loss(input, target, beta, reduction)


def kl_div(input, target, reduction="mean", log_target=False):
    """Kullback-Leibler divergence with ``input`` as log-probabilities."""
    return ops.kl_div(input, target, reduction, log_target)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """Negative log-likelihood of log-probabilities ``input`` (N, C, ...) at class indices ``target``."""
    return ops.nll_loss(input, target, weight, ignore_index, reduction)
