"""Functional nn ops: activations, softmax, normalisation, dropout, losses, resizing.

Each is a primitive call or a composition of primitives (so gradients come from the primitives'
bprops). Primitive instances that take only constant attributes are cached per attribute set.
"""
import functools
import numbers

from mindspore._errors import MSTypeError, MSValueError, MSValueRuntimeError
from mindspore.common import dtype as mstype
from mindspore.common.seed import _get_graph_seed
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs import nn as nn_defs
from mindspore.ops._defs import nn_ext as ext_defs
from mindspore.ops._defs import nn_prims as _nn_prims
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops.function.reduce_func import norm as _norm

__all__ = [
    # activations
    "relu", "relu6", "sigmoid", "gelu", "fast_gelu", "silu", "hardswish", "hardsigmoid", "elu", "celu", "selu",
    "leaky_relu", "prelu", "softplus", "softsign", "mish", "hardshrink", "softshrink", "tanhshrink", "hardtanh",
    "logsigmoid", "threshold", "glu", "softmax", "softmin", "log_softmax",
    # layers
    "bias_add", "layer_norm", "batch_norm", "group_norm", "dropout", "dropout1d", "dropout2d", "dropout3d",
    # losses
    "binary_cross_entropy_with_logits", "binary_cross_entropy", "nll_loss", "cross_entropy", "smooth_l1_loss",
    "l1_loss", "mse_loss", "huber_loss", "kl_div", "soft_margin_loss", "margin_ranking_loss", "hinge_embedding_loss",
    "cosine_embedding_loss", "gaussian_nll_loss", "cosine_similarity",
    # resizing
    "interpolate", "upsample", "pixel_shuffle", "pixel_unshuffle",
]


@functools.lru_cache(maxsize=None)
def _prim(cls, *attrs):
    """One primitive instance per (class, attributes): keeps each instance's eager cache warm."""
    return cls(*attrs)


def _check_tensor(op, name, value):
    if not isinstance(value, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(value).__name__}.")
    return value


def _check_float_arg(op, name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise MSTypeError(f"For '{op}', the '{name}' must be a float, but got {type(value).__name__}.")
    return float(value)


# --- activations ----------------------------------------------------------------------------
def _float_for_int(fn):
    """``fn`` applied to an integer or bool ``input`` in Float32, the result cast back to the input's dtype.

    MindSpore 2.10 accepts integer (and for some activations bool) tensors in these activations and
    returns the input's dtype, the float result truncated towards zero; float inputs go to ``fn`` as they are.
    """
    @functools.wraps(fn)
    def wrapper(input, *args, **kwargs):
        if isinstance(input, Tensor) and (input.dtype == mstype.bool_ or mstype.is_int(input.dtype)):
            return fops.cast(fn(fops.cast(input, mstype.float32), *args, **kwargs), input.dtype)
        return fn(input, *args, **kwargs)
    return wrapper


def relu(input, inplace=False):
    """``max(input, 0)`` element-wise; with ``inplace=True`` the result is also written into ``input``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.relu(ms.Tensor([-1.0, 2.0])))
        [0. 2.]
    """
    if isinstance(input, Tensor) and input.dtype == mstype.bool_:
        out = fops.cast(_prim(nn_defs.ReLU)(fops.cast(input, mstype.int8)), mstype.bool_)
    else:
        out = _prim(nn_defs.ReLU)(input)
    if inplace:
        input.assign_value(out)
        return input
    return out


def relu6(x):
    """``min(max(x, 0), 6)`` element-wise."""
    return _prim(nn_defs.ReLU6)(x)


def sigmoid(input):
    """``1 / (1 + exp(-input))`` element-wise."""
    return _prim(nn_defs.Sigmoid)(input)


def gelu(input, approximate="none"):
    """GELU: ``x * Phi(x)`` (``approximate='none'``, the erf form) or its tanh approximation (``'tanh'``).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.gelu(ms.Tensor([1.0, 2.0, 3.0])))
        [0.8413447 1.9544997 2.9959502]
    """
    if approximate == "tanh":
        return _prim(nn_defs.GeLU)(input)
    if approximate != "none":
        raise MSValueError(f"For 'gelu', the 'approximate' must be 'none' or 'tanh', but got '{approximate}'.")
    _check_tensor("gelu", "input", input)
    # 2.10's order of operations, each rounded in the input's dtype: erf(x / sqrt(2)) + 1, then x * that * 0.5
    # (float16's sqrt(2) is 1.4140625 and 1 / sqrt(2) rounds elsewhere: the other order differs by an ulp)
    root2 = fops.sqrt(Tensor(2.0, input.dtype))
    return fops.mul(fops.mul(input, fops.add(fops.erf(fops.div(input, root2)), 1)), 0.5)


def fast_gelu(x):
    """FastGeLU: ``x * sigmoid(1.702 x)``."""
    return _prim(nn_defs.FastGeLU)(x)


def silu(input):
    """SiLU (swish): ``input * sigmoid(input)``."""
    return fops.mul(input, sigmoid(input))


@_float_for_int
def hardswish(x):
    """Hard swish: ``x * relu6(x + 3) / 6``."""
    return _prim(nn_defs.HSwish)(x)


@_float_for_int
def hardsigmoid(input):
    """Hard sigmoid: ``relu6(x + 3) / 6``."""
    return _prim(nn_defs.HSigmoid)(input)


def elu(input, alpha=1.0):
    """ELU: ``x`` where positive, ``alpha * (exp(x) - 1)`` otherwise."""
    return _prim(nn_defs.Elu, float(alpha))(input)


def celu(x, alpha=1.0):
    """CELU: ``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    return _prim(nn_defs.CeLU, float(alpha))(x)


@_float_for_int
def selu(input):
    """SELU with the self-normalising constants (alpha ~ 1.6733, scale ~ 1.0507)."""
    return _prim(nn_defs.SeLU)(input)


@_float_for_int
def leaky_relu(input, alpha=0.2):
    """``input`` where positive, ``alpha * input`` otherwise."""
    alpha = _check_float_arg("leaky_relu", "alpha", alpha)
    pos = relu(input)
    return fops.sub(pos, fops.mul(relu(fops.neg(input)), alpha))


def prelu(x, weight):
    """PReLU: ``x`` where positive, ``weight * x`` otherwise; ``weight`` is per channel (axis 1) or one value."""
    return _prim(nn_defs.PReLU)(x, weight)


def softplus(input, beta=1, threshold=20):
    """``log(1 + exp(beta * x)) / beta``; linear (``x``) where ``beta * x > threshold``."""
    beta = _check_float_arg("softplus", "beta", beta)
    if not isinstance(threshold, Tensor):  # a Tensor threshold applies element-wise (MindSpore 2.10)
        threshold = _check_float_arg("softplus", "threshold", threshold)
    if beta == 0:
        raise MSValueError("For 'softplus', the 'beta' can not be 0.")
    scaled = input if beta == 1 else fops.mul(input, beta)
    soft = _prim(nn_defs.Softplus)(scaled)
    if beta != 1:
        soft = fops.mul(soft, 1.0 / beta)
    # a select, not a blend with a 0/1 mask: 0 * inf would make NaN of an infinite input
    return fops.select(fops.greater(scaled, threshold), input, soft)


def softsign(x):
    """``x / (1 + |x|)``."""
    return _prim(nn_defs.Softsign)(x)


def mish(x):
    """Mish: ``x * tanh(softplus(x))``."""
    return _prim(nn_defs.Mish)(x)


def hardshrink(x, lambd=0.5):
    """``x`` where ``|x| > lambd``, else 0."""
    return _prim(nn_defs.HShrink, float(lambd))(x)


def softshrink(x, lambd=0.5):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""
    return _prim(nn_defs.SoftShrink, float(lambd))(x)


def tanhshrink(input):
    """``input - tanh(input)``."""
    return fops.sub(input, fops.tanh(input))


@_float_for_int
def hardtanh(input, min_val=-1.0, max_val=1.0):
    """``input`` clamped to ``[min_val, max_val]`` (``max(x, min_val)`` then ``min(., max_val)``: every element
    is ``max_val`` when ``min_val > max_val``, as in MindSpore 2.10 and torch)."""
    min_val = _check_float_arg("hardtanh", "min_val", min_val)
    max_val = _check_float_arg("hardtanh", "max_val", max_val)
    min_val = min(min_val, max_val)
    # a clamp (as MindSpore: infinities clamp too, and a value at a bound gets half the gradient)
    return fops.minimum(fops.maximum(input, min_val), max_val)


def logsigmoid(x):
    """``log(sigmoid(x))``, as MindSpore 2.10 composes it (``Log`` of ``Sigmoid``: its numbers, forward and gradient)
    where ``sigmoid(x)`` stays normal; below that (x < -80 in float32, where 2.10's underflows to -inf) ``x`` itself,
    the value to float32 precision."""
    return _underflow_kept(x, lambda v: fops.log(_prim(nn_defs.Sigmoid)(v)), -80.0)


def _underflow_kept(x, log_sigmoid, limit):
    """``log_sigmoid(x)`` (MindSpore's composition) where ``x >= limit`` (``-10`` in float16), ``x`` below: there
    ``log(sigmoid(x)) = x - log1p(exp(x))`` is ``x`` to float32 precision, where 2.10's composition underflows (its
    value to -inf, or its gradient to 0). The composition only sees inputs it handles, so the gradients stay finite
    (1 below the limit)."""
    if not isinstance(x, Tensor) or not mstype.is_float(x.dtype):
        return log_sigmoid(x)
    inside = fops.greater_equal(x, -10.0 if x.dtype == mstype.float16 else limit)
    return fops.select(inside, log_sigmoid(fops.select(inside, x, fops.zeros_like(x))), x)


def threshold(input, thr, value):
    """``input`` where ``input > thr``, ``value`` elsewhere."""
    # a select, not a blend with a 0/1 mask: 0 * inf would make NaN of an infinite input
    return fops.select(fops.greater(input, thr), input, fops.full_like(input, value))


def glu(x, axis=-1):
    """Gated linear unit: ``a * sigmoid(b)`` where ``a, b`` are the two halves of ``x`` along ``axis``."""
    _check_tensor("glu", "x", x)
    if x.shape[axis] % 2:
        raise MSValueError(f"For 'glu', the size of 'x' along 'axis' must be even, but got {x.shape[axis]}.")
    a, b = fops.split(x, x.shape[axis] // 2, axis)
    return fops.mul(a, sigmoid(b))


def _axis_attr(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def softmax(input, axis=-1, *, dtype=None):
    """``exp(x) / sum(exp(x), axis)``, computed stably; ``dtype`` casts ``input`` first.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.softmax(ms.Tensor([1.0, 1.0])))
        [0.5 0.5]
    """
    if dtype is not None:
        input = fops.cast(input, dtype)
    return _prim(nn_defs.Softmax, _axis_attr(axis))(input)


def softmin(x, axis=-1, *, dtype=None):
    """``softmax(-x, axis)``."""
    if dtype is not None:
        x = fops.cast(x, dtype)
    return _prim(nn_defs.Softmax, _axis_attr(axis))(fops.neg(x))


def log_softmax(logits, axis=-1):
    """``x - logsumexp(x, axis)``, computed stably."""
    return _prim(nn_defs.LogSoftmax, axis)(logits)


# --- layers ---------------------------------------------------------------------------------
def bias_add(input_x, bias):
    """``bias`` (C,) added along the channel axis (1) of ``input_x``."""
    return _prim(nn_defs.BiasAdd)(input_x, bias)


def _ones(dtype, shape):
    return fops.fill(dtype, tuple(shape), 1)


def _zeros(dtype, shape):
    return fops.fill(dtype, tuple(shape), 0)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Layer normalisation over the trailing ``normalized_shape`` axes, then ``* weight + bias``."""
    _check_tensor("layer_norm", "input", input)
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (int(normalized_shape),)
    normalized_shape = tuple(normalized_shape)
    begin = input.ndim - len(normalized_shape)
    if not normalized_shape or begin < 0 or tuple(input.shape[begin:]) != normalized_shape:
        raise MSValueError(f"For 'layer_norm', the 'normalized_shape' must match the trailing dimensions of "
                           f"'input' {input.shape}, but got {normalized_shape}.")
    weight = _ones(input.dtype, normalized_shape) if weight is None else weight
    bias = _zeros(input.dtype, normalized_shape) if bias is None else bias
    return _prim(nn_defs.LayerNorm, begin, begin, float(eps))(input, weight, bias)[0]


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-5):
    """Batch normalisation over every axis but the channel's (1).

    In training the batch statistics normalise and ``running_mean``/``running_var`` are updated in place
    (``(1 - momentum) * running + momentum * batch``); otherwise the running statistics normalise.
    """
    prim = _prim(nn_defs.BatchNorm, bool(training), float(eps), float(momentum))
    return prim(input_x, weight, bias, running_mean, running_var)[0]


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Group normalisation: channels (axis 1) split into ``num_groups`` groups, each normalised."""
    _check_tensor("group_norm", "input", input)
    if input.ndim < 2:
        raise MSValueError(f"For 'group_norm', the 'input' must have at least 2 dimensions, but got {input.shape}.")
    n, c = input.shape[0], input.shape[1]
    if isinstance(num_groups, bool) or not isinstance(num_groups, numbers.Integral) or num_groups <= 0 \
            or c % num_groups:
        raise MSValueError(f"For 'group_norm', the 'num_groups' must be a positive int dividing the channel "
                           f"number {c}, but got {num_groups}.")
    grouped = fops.reshape(input, (n, num_groups, -1))
    per_group = grouped.shape[2]
    norm = _prim(nn_defs.LayerNorm, 2, 2, float(eps))(
        grouped, _ones(input.dtype, (per_group,)), _zeros(input.dtype, (per_group,)))[0]
    out = fops.reshape(norm, input.shape)
    channel = (1, c) + (1,) * (input.ndim - 2)
    if weight is not None:
        out = fops.mul(out, fops.reshape(weight, channel))
    if bias is not None:
        out = fops.add(out, fops.reshape(bias, channel))
    return out


def _check_p(op, p):
    p = _check_float_arg(op, "p", p)
    if not 0 <= p <= 1:  # MindSpore 2.10 reports it from the kernel (a RuntimeError); still our ValueError
        raise MSValueRuntimeError(f"For '{op}', the 'p' must be in range [0, 1], but got {p}.")
    return p


def dropout(input, p=0.5, training=True, seed=None):
    """Zeroes each element with probability ``p`` and scales the rest by ``1 / (1 - p)`` (when ``training``).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.dropout(ms.Tensor([[1.0, 2.0]]), p=0.5).shape
        (1, 2)
    """
    _check_tensor("dropout", "input", input)
    p = _check_p("dropout", p)
    if not training:
        return input
    seeds = _get_graph_seed(seed, "dropout")   # 2.10 draws the pair even for p == 0 (its Dropout keeps all)
    if p == 0:
        return input
    if p == 1:
        return fops.mul(input, 0)
    if seeds != (0, 0):   # a new seeded op per call, as in 2.10: after set_seed the CPU masks are 2.10's
        return nn_defs.Dropout(1.0 - p, *seeds)(input)[0]
    return _prim(nn_defs.Dropout, 1.0 - p, 0)(input)[0]


def _channel_dropout(op, input, p, training, spatial, ranks):
    _check_tensor(op, "input", input)
    p = _check_p(op, p)
    if input.ndim not in ranks:
        want = " or ".join(f"{r}-D" for r in ranks)
        raise MSValueError(f"For '{op}', the 'input' must be a {want} tensor, but got shape {input.shape}.")
    if not training or p == 0:
        return input
    if p == 1:
        return fops.mul(input, 0)
    mask_shape = tuple(input.shape[:input.ndim - spatial]) + (1,) * spatial
    mask = _prim(nn_defs.Dropout, 1.0 - p, 0)(_ones(input.dtype, mask_shape))[0]
    return fops.mul(input, mask)


@_float_for_int
def dropout1d(input, p=0.5, training=True):
    """Zeroes whole channels of a (N, C, L) or (C, L) input with probability ``p``; survivors scaled by 1/(1-p)."""
    return _channel_dropout("dropout1d", input, p, training, 1, (2, 3))


def dropout2d(input, p=0.5, training=True):
    """Zeroes whole channels of an (N, C, H, W) input with probability ``p``; survivors scaled by 1/(1-p)
    (:class:`mindspore.ops.Dropout2D`)."""
    return _channel_dropout_prim("dropout2d", _nn_prims.Dropout2D, input, p, training, 4)


def dropout3d(input, p=0.5, training=True):
    """Zeroes whole channels of an (N, C, D, H, W) input with probability ``p``; survivors scaled by 1/(1-p)
    (:class:`mindspore.ops.Dropout3D`)."""
    return _channel_dropout_prim("dropout3d", _nn_prims.Dropout3D, input, p, training, 5)


def _channel_dropout_prim(op, cls, input, p, training, rank):
    _check_tensor(op, "input", input)
    p = _check_p(op, p)
    if input.ndim != rank:
        raise MSValueError(f"For '{op}', the 'input' must be a {rank}-D tensor, but got shape {input.shape}.")
    if not training or p == 0:
        return input
    return cls(1.0 - p)(input)[0]


# --- losses ---------------------------------------------------------------------------------
def _check_reduction(op, reduction, allowed=("none", "mean", "sum")):
    if reduction not in allowed:
        raise MSValueError(f"For '{op}', the 'reduction' must be one of {list(allowed)}, but got {reduction!r}.")
    return reduction


def _reduce(loss, reduction):
    if reduction == "none":
        return loss
    total = fops.reduce_sum(loss)
    if reduction == "sum":
        return total
    return fops.mul(total, 1.0 / max(loss.size, 1))


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction="mean"):
    """Sigmoid + binary cross entropy in one stable step; ``pos_weight`` weighs the positive term."""
    _check_reduction("binary_cross_entropy_with_logits", reduction)
    return _prim(ext_defs.BCEWithLogitsLoss, reduction)(input, target, weight, pos_weight)


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """``-weight [y log(x) + (1 - y) log(1 - x)]`` on probabilities ``logits``."""
    _check_reduction("binary_cross_entropy", reduction)
    return _prim(ext_defs.BinaryCrossEntropy, reduction)(logits, labels, weight)


def _classes_last(inputs, target):
    """(N, C, d1, ...) log-probabilities and (N, d1, ...) targets as (M, C) and (M,)."""
    c = inputs.shape[1]
    perm = (0,) + tuple(range(2, inputs.ndim)) + (1,)
    return fops.reshape(fops.transpose(inputs, perm), (-1, c)), fops.reshape(target, (-1,))


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Negative log-likelihood of the ``target`` classes under the log-probabilities ``inputs``.

    ``inputs`` is (N, C), (C,) or (N, C, d1, ...); ``weight`` (C,) weighs each class; samples whose
    target is ``ignore_index`` count for nothing. With ``label_smoothing`` e the loss is
    ``(1 - e) * nll + e / C * smooth``, ``smooth`` being the (unweighted) sum of ``-inputs`` over classes.
    """
    _check_tensor("nll_loss", "inputs", inputs)
    _check_tensor("nll_loss", "target", target)
    _check_reduction("nll_loss", reduction)
    label_smoothing = _check_float_arg("nll_loss", "label_smoothing", label_smoothing)
    ndim = inputs.ndim
    out_shape = None
    x, t = inputs, target
    if ndim > 2:
        out_shape = (inputs.shape[0],) + tuple(inputs.shape[2:])
        x, t = _classes_last(inputs, target)
    c = x.shape[-1]
    w = _ones(inputs.dtype, (c,)) if weight is None else weight
    ignore = -100 if ignore_index is None else ignore_index
    loss = _prim(ext_defs.NLLLoss, reduction, int(ignore))(x, t, w)[0]
    if label_smoothing > 0:
        valid = fops.cast(fops.not_equal(t, ignore), x.dtype)
        smooth = fops.mul(fops.neg(fops.reduce_sum(x, -1)), valid)
        loss = fops.add(fops.mul(loss, 1.0 - label_smoothing),
                        fops.mul(_reduce(smooth, reduction), label_smoothing / c))
    if out_shape is not None and reduction == "none":
        loss = fops.reshape(loss, out_shape)
    return loss


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Cross entropy between the logits ``input`` (classes on axis 1, or 0 for 1-D) and ``target``.

    ``target`` holds class indices (then this is ``nll_loss(log_softmax(input))``) or, with ``input``'s
    shape and a float dtype, class probabilities. ``label_smoothing`` mixes the target with uniform.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> logits = ms.Tensor(np.zeros((2, 4), np.float32))
        >>> print(ops.cross_entropy(logits, ms.Tensor([1, 3], ms.int32)))
        1.3862944
    """
    _check_tensor("cross_entropy", "input", input)
    _check_tensor("cross_entropy", "target", target)
    _check_reduction("cross_entropy", reduction)
    label_smoothing = _check_float_arg("cross_entropy", "label_smoothing", label_smoothing)
    if not 0 <= label_smoothing <= 1:
        raise MSValueError(f"For 'cross_entropy', the 'label_smoothing' must be in range [0, 1], but got "
                           f"{label_smoothing}.")
    class_dim = 0 if input.ndim == 1 else 1
    # as 2.10's: input - logsumexp(input) (Exp, ReduceSum, Log and their gradients), not LogSoftmax
    from mindspore.ops.function.reduce_func import logsumexp
    logp = fops.sub(input, logsumexp(input, class_dim, True))
    if target.dtype in mstype.float_type and target.shape != input.shape and target.ndim <= input.ndim:
        # class probabilities that broadcast to the logits (one row for the whole batch), as MindSpore 2.10
        target = fops.broadcast_to(target, tuple(input.shape))
    if target.dtype in mstype.float_type and target.shape == input.shape:
        c = input.shape[class_dim]
        if label_smoothing > 0:
            target = fops.add(fops.mul(target, 1.0 - label_smoothing), label_smoothing / c)
        prod = fops.mul(logp, target)
        if weight is not None:
            prod = fops.mul(prod, fops.reshape(weight, (c,) + (1,) * (input.ndim - 1 - class_dim)))
        if reduction == "none":
            return fops.neg(fops.reduce_sum(prod, class_dim))
        total = fops.neg(fops.reduce_sum(prod))
        return total if reduction == "sum" else fops.mul(total, c / max(input.size, 1))
    return nll_loss(logp, target, weight, ignore_index, reduction, label_smoothing)


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    """Smooth L1: ``0.5 d^2 / beta`` where ``|d| < beta``, ``|d| - 0.5 beta`` elsewhere."""
    return _prim(ext_defs.SmoothL1Loss, float(beta), reduction)(input, target)


def l1_loss(input, target, reduction="mean"):
    """``|input - target|``, reduced (two integer inputs give their dtype, the mean truncated, as MindSpore 2.10)."""
    _check_reduction("l1_loss", reduction)
    diff = fops.abs(fops.sub(input, target))
    if isinstance(diff, Tensor) and mstype.is_int(diff.dtype) and reduction == "mean":
        return fops.cast(_reduce(fops.cast(diff, mstype.float32), reduction), diff.dtype)
    return _reduce(diff, reduction)


def mse_loss(input, target, reduction="mean"):
    """``(input - target)^2``, reduced."""
    _check_reduction("mse_loss", reduction)
    d = fops.sub(input, target)
    return _reduce(fops.mul(d, d), reduction)


def huber_loss(input, target, reduction="mean", delta=1.0):
    """Huber: ``0.5 d^2`` where ``|d| < delta``, ``delta (|d| - 0.5 delta)`` elsewhere."""
    _check_reduction("huber_loss", reduction)
    delta = _check_float_arg("huber_loss", "delta", delta)
    # mixed or integer dtypes are promoted, integers to Float32 (MindSpore 2.10 computes them that way)
    wide = mstype.promote_types(input.dtype, target.dtype)
    if not mstype.is_float(wide):
        wide = mstype.float32
    input, target = fops.cast(input, wide), fops.cast(target, wide)
    if input.shape != target.shape:
        shape = rules.broadcast_shapes("huber_loss", input.shape, target.shape)
        input, target = fops.broadcast_to(input, shape), fops.broadcast_to(target, shape)
    elem = _prim(ext_defs.SmoothL1Loss, delta, "none")(input, target)
    return _reduce(fops.mul(elem, delta), reduction)


def kl_div(logits, labels, reduction="mean", log_target=False):
    """Kullback-Leibler divergence ``labels * (log(labels) - logits)`` (``logits`` are log-probabilities).

    With ``log_target`` the labels are log-probabilities too. ``'batchmean'`` divides by the batch size.
    """
    _check_reduction("kl_div", reduction, ("none", "mean", "sum", "batchmean"))
    if not log_target:
        return _prim(ext_defs.KLDivLoss, reduction)(logits, labels)
    loss = fops.mul(fops.exp(labels), fops.sub(labels, logits))
    if reduction == "batchmean":
        return fops.mul(fops.reduce_sum(loss), 1.0 / (logits.shape[0] if logits.ndim else 1))
    return _reduce(loss, reduction)


def soft_margin_loss(input, target, reduction="mean"):
    """``log(1 + exp(-target * input))`` (targets are +1/-1), reduced."""
    _check_reduction("soft_margin_loss", reduction)
    _check_tensor("soft_margin_loss", "input", input)
    return _prim(_nn_prims.SoftMarginLoss, reduction)(input, fops.cast(target, input.dtype))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``max(0, -target * (input1 - input2) + margin)``, reduced."""
    _check_reduction("margin_ranking_loss", reduction)
    margin = _check_float_arg("margin_ranking_loss", "margin", margin)
    return _reduce(relu(fops.add(fops.neg(fops.mul(target, fops.sub(input1, input2))), margin)), reduction)


def _where_target(target, value, like):
    return fops.cast(fops.equal(target, value), like.dtype)


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """``inputs`` where ``targets > 0``, ``max(0, margin - inputs)`` where ``targets < 0``, reduced.

    The sign of the target decides, as in MindSpore 2.10 (targets are meant to be +1/-1; 0 contributes 0).
    """
    _check_reduction("hinge_embedding_loss", reduction)
    margin = _check_float_arg("hinge_embedding_loss", "margin", margin)
    pos = fops.mul(fops.cast(fops.greater(targets, 0), inputs.dtype), inputs)
    neg = fops.mul(fops.cast(fops.less(targets, 0), inputs.dtype), relu(fops.sub(margin, inputs)))
    return _reduce(fops.add(pos, neg), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """``1 - cos(x1, x2)`` where ``target == 1``, ``max(0, cos(x1, x2) - margin)`` where ``target == -1``.

    The cosine is taken along axis 1.
    """
    _check_reduction("cosine_embedding_loss", reduction)
    margin = _check_float_arg("cosine_embedding_loss", "margin", margin)
    dot = fops.reduce_sum(fops.mul(input1, input2), 1)
    norms = fops.mul(fops.sqrt(fops.reduce_sum(fops.mul(input1, input1), 1)),
                     fops.sqrt(fops.reduce_sum(fops.mul(input2, input2), 1)))
    cos = fops.div(dot, norms)
    pos = fops.mul(_where_target(target, 1, cos), fops.sub(1, cos))
    neg = fops.mul(_where_target(target, -1, cos), relu(fops.sub(cos, margin)))
    return _reduce(fops.add(pos, neg), reduction)


def gaussian_nll_loss(x, target, var, full=False, eps=1e-6, reduction="mean"):
    """Gaussian negative log-likelihood ``0.5 (log(v) + (x - target)^2 / v)``, ``v = max(var, eps)``.

    ``full`` adds the constant ``0.5 log(2 pi)``.
    """
    _check_reduction("gaussian_nll_loss", reduction)
    v = fops.maximum(var, eps)
    d = fops.sub(x, target)
    loss = fops.mul(fops.add(fops.log(v), fops.div(fops.mul(d, d), v)), 0.5)
    if full:
        loss = fops.add(loss, 0.9189385332046727)
    return _reduce(loss, reduction)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``sum(x1 * x2, dim) / max(||x1|| ||x2||, eps)``, composed as MindSpore 2.10 composes it (its last bits)."""
    molecule = fops.reduce_sum(fops.mul(x1, x2), dim)
    return fops.div(molecule, fops.maximum(fops.mul(_norm(x1, 2, dim), _norm(x2, 2, dim)), eps))


# --- resizing -------------------------------------------------------------------------------
_MODES = ("nearest", "linear", "bilinear")


def _interp_size(input, size, scale_factor, spatial):
    if (size is None) == (scale_factor is None):
        raise MSValueError("For 'interpolate', exactly one of 'size' and 'scale_factor' must be set, but got "
                           f"size={size} and scale_factor={scale_factor}.")
    if size is not None:
        size = (size,) * spatial if isinstance(size, numbers.Integral) else tuple(size)
        if len(size) != spatial or any(not isinstance(s, numbers.Integral) or s <= 0 for s in size):
            raise MSValueError(f"For 'interpolate', the 'size' must be {spatial} positive int(s) for a "
                               f"{spatial + 2}-D input, but got {size}.")
        return tuple(int(s) for s in size)
    scale = (scale_factor,) * spatial if isinstance(scale_factor, numbers.Real) else tuple(scale_factor)
    if len(scale) != spatial or any(s <= 0 for s in scale):
        raise MSValueError(f"For 'interpolate', the 'scale_factor' must be {spatial} positive number(s), but got "
                           f"{scale_factor}.")
    return tuple(max(int(d * s), 1) for d, s in zip(input.shape[2:], scale))


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """Resizes a 3-D (N, C, L) or 4-D (N, C, H, W) ``input`` to ``size`` or by ``scale_factor``.

    Modes: ``'nearest'`` (source index ``floor(i * in / out)``), ``'linear'`` (3-D) and ``'bilinear'``
    (4-D), with half-pixel centres unless ``align_corners=True``. Source coordinates always use the
    ratio of the input and output sizes (as with ``recompute_scale_factor=True``).
    """
    _check_tensor("interpolate", "input", input)
    if mode not in _MODES:
        raise MSValueError(f"For 'interpolate', the 'mode' must be one of the supported modes {list(_MODES)}, "
                           f"but got '{mode}'.")
    if input.ndim not in (3, 4) or (mode == "linear" and input.ndim != 3) or (mode == "bilinear" and input.ndim != 4):
        raise MSValueError(f"For 'interpolate', mode '{mode}' does not support a {input.ndim}-D input "
                           f"(shape {input.shape}).")
    if align_corners is not None and mode == "nearest":
        raise MSValueError("For 'interpolate', the 'align_corners' option can only be set with the interpolating "
                           "modes: linear | bilinear.")
    spatial = input.ndim - 2
    out = _interp_size(input, size, scale_factor, spatial)
    x = input if spatial == 2 else fops.reshape(input, tuple(input.shape[:2]) + (1, input.shape[2]))
    hw = out if spatial == 2 else (1, out[0])
    if mode == "nearest":
        y = _prim(ext_defs.ResizeNearestNeighbor, hw, False)(x)
    else:
        corners = bool(align_corners)
        y = _prim(ext_defs.ResizeBilinearV2, corners, not corners)(x, hw)
    return y if spatial == 2 else fops.reshape(y, tuple(input.shape[:2]) + (out[0],))


upsample = interpolate


def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r): moves channel blocks into space."""
    _check_tensor("pixel_shuffle", "input", input)
    r = int(upscale_factor)
    *lead, c, h, w = input.shape
    if input.ndim < 3 or r <= 0 or c % (r * r):
        raise MSValueError(f"For 'pixel_shuffle', the channel dimension of 'input' {input.shape} must be divisible "
                           f"by upscale_factor^2 = {r * r}.")
    k = len(lead)
    x = fops.reshape(input, tuple(lead) + (c // (r * r), r, r, h, w))
    perm = tuple(range(k)) + (k, k + 3, k + 1, k + 4, k + 2)
    return fops.reshape(fops.transpose(x, perm), tuple(lead) + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W): the inverse of :func:`pixel_shuffle`."""
    _check_tensor("pixel_unshuffle", "input", input)
    r = int(downscale_factor)
    *lead, c, h, w = input.shape
    if input.ndim < 3 or r <= 0 or h % r or w % r:
        raise MSValueError(f"For 'pixel_unshuffle', the spatial dimensions of 'input' {input.shape} must be "
                           f"divisible by downscale_factor = {r}.")
    k = len(lead)
    x = fops.reshape(input, tuple(lead) + (c, h // r, r, w // r, r))
    perm = tuple(range(k)) + (k, k + 2, k + 4, k + 1, k + 3)
    return fops.reshape(fops.transpose(x, perm), tuple(lead) + (c * r * r, h // r, w // r))


# MindSpore's nn_func also holds these (libraries import them from here): the functional multi-head attention and
# its helpers, and the functions of other families under 2.10's names
from mindspore.ops.function.attention_func import (  # noqa: E402,F401
    _check_attn_mask_shape, _check_kpm_shape, _check_qkv_shape, _in_projection, _in_projection_packed,
    _inner_dropout, _inner_pad, _interploate_ext_make_tuple, _interpolate_ext_scale_factor_convert_size, linear,
    multi_head_attention_forward)
from mindspore.ops.function.conv_func import conv_transpose2d  # noqa: E402,F401
from mindspore.ops.function.array_func import pad as pad_ext  # noqa: E402,F401 - 2.10's pad_ext: the same pad


# MindSpore cuts mindspore.ops into its own families: a function imported from its `nn_func` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.ops")
