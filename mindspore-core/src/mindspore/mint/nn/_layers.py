"""``mindspore.mint.nn`` layers without parameters: activations, pooling, padding, reshaping, losses.

Each is a small :class:`~mindspore.nn.Cell` whose ``construct`` calls one function of
:mod:`mindspore.mint.nn.functional` with the arguments stored at construction (PyTorch's names and defaults).
"""
import mindspore.ops as ops
from mindspore._errors import MSValueError
from mindspore.mint.nn import functional as F
from mindspore.nn.cell import Cell


class _Unary(Cell):
    """A Cell applying ``type(self)._fn`` to its input."""

    _fn = None

    def __init__(self):
        super().__init__()

    def construct(self, input):
        return type(self)._fn(input)


# --- activations ------------------------------------------------------------------------------------------
class ReLU(_Unary):
    """``max(input, 0)``."""
    _fn = staticmethod(ops.relu)


class Sigmoid(_Unary):
    """``1 / (1 + exp(-input))``."""
    _fn = staticmethod(ops.sigmoid)


class Tanh(_Unary):
    """Hyperbolic tangent."""
    _fn = staticmethod(ops.tanh)


class LogSigmoid(_Unary):
    """``log(sigmoid(input))``."""
    _fn = staticmethod(ops.logsigmoid)


class Hardsigmoid(_Unary):
    """``relu6(input + 3) / 6``."""
    _fn = staticmethod(ops.hardsigmoid)


class Hardswish(_Unary):
    """``input * relu6(input + 3) / 6``."""
    _fn = staticmethod(ops.hardswish)


class Mish(_Unary):
    """``input * tanh(softplus(input))``."""
    _fn = staticmethod(ops.mish)


class SELU(_Unary):
    """Scaled ELU with the self-normalising constants."""
    _fn = staticmethod(ops.selu)


class Softshrink(Cell):
    """``input - lambd`` above ``lambd``, ``input + lambd`` below ``-lambd``, zero between."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return F.softshrink(input, self.lambd)


class GLU(Cell):
    """Gated linear unit along ``dim``."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return F.glu(input, self.dim)


class Dropout(Cell):
    """Zeroes elements with probability ``p`` in training (scaling the rest by ``1 / (1 - p)``); identity in eval."""

    _fn = staticmethod(F.dropout)

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0 <= p <= 1:
            raise MSValueError(f"For '{type(self).__name__}', the 'p' must be in [0, 1], but got {p}.")
        self.p, self.inplace = p, inplace

    def construct(self, input):
        return type(self)._fn(input, self.p, self.training, self.inplace)


class Dropout2d(Dropout):
    """Zeroes whole channels with probability ``p`` in training; identity in eval."""

    _fn = staticmethod(F.dropout2d)


class Identity(Cell):
    """Returns its input; accepts and ignores any constructor arguments."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, input):
        return input


class ReLU6(Cell):
    """``min(max(input, 0), 6)``."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def construct(self, input):
        return F.relu6(input, self.inplace)


class SiLU(Cell):
    """``input * sigmoid(input)``."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def construct(self, input):
        return F.silu(input, self.inplace)


class ELU(Cell):
    """``input`` where positive, else ``alpha * (exp(input) - 1)``."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def construct(self, input):
        return F.elu(input, self.alpha, self.inplace)


class GELU(Cell):
    """GELU, exact or with ``approximate='tanh'``."""

    def __init__(self, approximate="none"):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise MSValueError(f"For 'GELU', the 'approximate' must be 'none' or 'tanh', but got {approximate!r}.")
        self.approximate = approximate

    def construct(self, input):
        return F.gelu(input, approximate=self.approximate)


class Hardshrink(Cell):
    """Zero inside ``[-lambd, lambd]``, ``input`` elsewhere."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return ops.hardshrink(input, self.lambd)


class Hardtanh(Cell):
    """Clamps into ``[min_val, max_val]``."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        if min_val >= max_val:
            raise MSValueError(f"For 'Hardtanh', the 'max_val' must be larger than 'min_val', but got min_val "
                               f"{min_val}, max_val {max_val}.")
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def construct(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)


class Threshold(Cell):
    """``input`` where ``input > threshold``, else ``value``."""

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def construct(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)


class Softmax(Cell):
    """Softmax along ``dim`` (PyTorch's implicit choice when None)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return F.softmax(input, self.dim)


class LogSoftmax(Cell):
    """Log-softmax along ``dim`` (PyTorch's implicit choice when None)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return F.log_softmax(input, self.dim)


# --- reshaping ----------------------------------------------------------------------------------------------
class Flatten(Cell):
    """Flattens ``start_dim`` .. ``end_dim`` (the batch dimension 0 is kept by default)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, input):
        return F.flatten(input, self.start_dim, self.end_dim)


class PixelShuffle(Cell):
    """(N, C r^2, H, W) -> (N, C, H r, W r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)


class Unfold(Cell):
    """Sliding patches as columns (im2col)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def construct(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)


class Fold(Cell):
    """Columns summed back into an image (col2im)."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def construct(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)


class Upsample(Cell):
    """Resizes to ``size`` or by ``scale_factor`` with ``mode``."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.recompute_scale_factor)


class UpsamplingNearest2d(Upsample):
    """2-D nearest-neighbour upsampling."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "nearest")


class UpsamplingBilinear2d(Upsample):
    """2-D bilinear upsampling with ``align_corners=True``."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "bilinear", True)


# --- pooling ------------------------------------------------------------------------------------------------
class _Adaptive(Cell):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input):
        return type(self)._fn(input, self.output_size)

    def extend_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_Adaptive):
    """1-D adaptive average pooling."""
    _fn = staticmethod(F.adaptive_avg_pool1d)


class AdaptiveAvgPool2d(_Adaptive):
    """2-D adaptive average pooling."""
    _fn = staticmethod(F.adaptive_avg_pool2d)


class AdaptiveAvgPool3d(_Adaptive):
    """3-D adaptive average pooling."""
    _fn = staticmethod(F.adaptive_avg_pool3d)


class AdaptiveMaxPool1d(Cell):
    """1-D adaptive max pooling."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(AdaptiveMaxPool1d):
    """2-D adaptive max pooling."""

    def construct(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AvgPool1d(Cell):
    """1-D average pooling."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def construct(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AvgPool2d(Cell):
    """2-D average pooling."""

    _fn = staticmethod(F.avg_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def construct(self, input):
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                              self.count_include_pad, self.divisor_override)


class AvgPool3d(AvgPool2d):
    """3-D average pooling."""
    _fn = staticmethod(F.avg_pool3d)


class MaxPool2d(Cell):
    """2-D max pooling (with the flat argmax indices when ``return_indices``)."""

    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size, self.stride, self.padding, self.dilation = kernel_size, stride, padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def construct(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                            self.return_indices)


class MaxUnpool2d(Cell):
    """The partial inverse of 2-D max pooling: values scattered to their argmax positions."""

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, input, indices, output_size=None):
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


# --- padding ------------------------------------------------------------------------------------------------
class _Pad(Cell):
    _mode = "constant"
    _n = 1

    def __init__(self, padding, value=None):
        super().__init__()
        self.padding = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * (2 * self._n)
        if len(self.padding) != 2 * self._n:
            raise MSValueError(f"For '{type(self).__name__}', the 'padding' must be an int or a tuple of "
                               f"{2 * self._n} ints, but got {padding}.")
        self.value = value

    def construct(self, input):
        return F.pad(input, self.padding, self._mode, self.value)


def _pad_class(name, mode, n, constant=False, zero=False):
    doc = f"Pads the last {n} dimension(s) in ``'{mode}'`` mode."
    if constant:
        def __init__(self, padding, value):
            _Pad.__init__(self, padding, value)
    elif zero:
        def __init__(self, padding):
            _Pad.__init__(self, padding, 0.0)
    else:
        def __init__(self, padding):
            _Pad.__init__(self, padding, None)
    return type(name, (_Pad,), {"_mode": mode, "_n": n, "__init__": __init__, "__doc__": doc,
                                "__module__": __name__})


ConstantPad1d = _pad_class("ConstantPad1d", "constant", 1, constant=True)
ConstantPad2d = _pad_class("ConstantPad2d", "constant", 2, constant=True)
ConstantPad3d = _pad_class("ConstantPad3d", "constant", 3, constant=True)
ZeroPad1d = _pad_class("ZeroPad1d", "constant", 1, zero=True)
ZeroPad2d = _pad_class("ZeroPad2d", "constant", 2, zero=True)
ZeroPad3d = _pad_class("ZeroPad3d", "constant", 3, zero=True)
ReflectionPad1d = _pad_class("ReflectionPad1d", "reflect", 1)
ReflectionPad2d = _pad_class("ReflectionPad2d", "reflect", 2)
ReflectionPad3d = _pad_class("ReflectionPad3d", "reflect", 3)
ReplicationPad1d = _pad_class("ReplicationPad1d", "replicate", 1)
ReplicationPad2d = _pad_class("ReplicationPad2d", "replicate", 2)
ReplicationPad3d = _pad_class("ReplicationPad3d", "replicate", 3)


# --- losses -------------------------------------------------------------------------------------------------
def _check_reduction(name, reduction):
    if reduction not in ("mean", "sum", "none"):
        raise MSValueError(f"For '{name}', the 'reduction' must be 'mean', 'sum' or 'none', but got {reduction!r}.")
    return reduction


class _Loss(Cell):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = _check_reduction(type(self).__name__, reduction)


class L1Loss(_Loss):
    """Mean (or sum) absolute error."""

    def construct(self, input, target):
        return ops.l1_loss(input, target, self.reduction)


class MSELoss(_Loss):
    """Mean (or sum) squared error."""

    def construct(self, input, target):
        return F.mse_loss(input, target, self.reduction)


class SmoothL1Loss(_Loss):
    """Squared error below ``beta``, absolute error above."""

    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(reduction)
        self.beta = beta

    def construct(self, input, target):
        return ops.smooth_l1_loss(input, target, self.beta, self.reduction)


class SoftMarginLoss(_Loss):
    """``log(1 + exp(-target * input))``."""

    def construct(self, input, target):
        return F.soft_margin_loss(input, target, self.reduction)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence with log-probability inputs."""

    def __init__(self, reduction="mean", log_target=False):
        Cell.__init__(self)
        if reduction not in ("mean", "sum", "none", "batchmean"):
            raise MSValueError(f"For 'KLDivLoss', the 'reduction' must be 'mean', 'sum', 'none' or 'batchmean', "
                               f"but got {reduction!r}.")
        self.reduction = reduction
        self.log_target = log_target

    def construct(self, input, target):
        return F.kl_div(input, target, self.reduction, self.log_target)


class CrossEntropyLoss(_Loss):
    """Cross entropy of logits (N, C, ...) against class indices or class probabilities."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        self.weight, self.ignore_index, self.label_smoothing = weight, ignore_index, label_smoothing

    def construct(self, input, target):
        return F.cross_entropy(input, target, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class NLLLoss(_Loss):
    """Negative log-likelihood of log-probabilities at class indices."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index

    def construct(self, input, target):
        return F.nll_loss(input, target, self.weight, self.ignore_index, self.reduction)


class BCELoss(_Loss):
    """Binary cross entropy of probabilities."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, input, target):
        return F.binary_cross_entropy(input, target, self.weight, self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of logits."""

    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, self.reduction, self.pos_weight)


class CosineEmbeddingLoss(_Loss):
    """``1 - cos(x1, x2)`` for target 1, ``max(0, cos - margin)`` for target -1."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, self.margin, self.reduction)
