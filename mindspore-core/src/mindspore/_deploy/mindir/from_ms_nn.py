"""MindIR primitives -> ours: neural-network ops (convolution, pooling, normalisation, activations, resizing,
losses, LSTM).

Conventions MindSpore 2.10 writes (see :mod:`.from_ms_base` for how a node binds to a rule):

* ``Conv2D``, ``Conv2DBackpropInput``, ``MaxPool`` (PRIMITIVE style) keep their configuration as attributes:
  ``stride``/``dilation``/``strides``/``kernel_size`` as 4-tuples ``(1, 1, h, w)``, ``pad_mode`` as a string
  (``"same"``, or upper case for pooling), the computed ``pad_list`` and ``format``;
* ``BatchNorm``, ``LayerNorm``, ``Softmax``, ``AvgPool``, ``BiasAdd``... (PRIMITIVE_FUNCTION style) take them
  as inputs, with ``data_format``/``pad_mode`` as enum numbers; ``BatchNorm``'s ``momentum`` is the
  primitive's (0.1 for ``nn.BatchNorm2d(momentum=0.9)``) and plays no part in inference;
* ``Conv3D`` keeps the 5-tuples it runs with as ``strides``/``dilations``; ``MaxPool3D``/``AvgPool3D`` spell
  the pad mode in capitals (``'CALCULATED'`` for an explicit padding) and ``ceil_mode`` as 0/1; the adaptive
  pools write a kept input size (``None``) as -1; the losses' ``reduction`` is an enum number (sum 0, mean 1,
  none 2) as an input, a string (``KLDivLoss``'s ``'batchmean'`` too) as an attribute;
* ``LSTM`` (CPU form) is one layer of one direction over ``(seq, batch, input)`` with a flat weight
  ``[W_ih (4H x I), W_hh (4H x H), b_ih + b_hh (4H)]`` and gates in the order input, forget, cell, output.
  ``nn.LSTM`` builds deeper and bidirectional networks from such layers, so that is all a file holds.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._deploy.mindir.from_ms_base import (as_bool, as_int, as_tuple, prim, rule, to_dtype, to_format,
                                                   to_pad_mode, to_reduction)
from mindspore._errors import MSRuntimeError, MSValueError
from mindspore.common import dtype as mstype

__all__ = ["RULES"]


# --- convolution and pooling ----------------------------------------------------------------------------------
def _conv_config(op, out_channel, kernel_size, mode, pad_mode, pad, pad_list, stride, dilation, group, fmt):
    pad_mode = to_pad_mode(op, pad_mode)
    pad = tuple(pad_list) if pad_mode == "pad" and pad_list is not None else pad
    if pad_mode != "pad":
        pad = 0
    return (as_int(op, "out_channel", out_channel), tuple(as_tuple(kernel_size)), as_int(op, "mode", mode), pad_mode,
            tuple(as_tuple(pad)) if isinstance(pad, (tuple, list)) else pad, tuple(as_tuple(stride)),
            tuple(as_tuple(dilation)), as_int(op, "group", group), to_format(op, fmt))


def _conv2d(x, w, *, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, pad_list=None, stride=1, dilation=1,
            group=1, format="NCHW", groups=None, data_format=None):
    c = _conv_config("Conv2D", out_channel, kernel_size, mode, pad_mode, pad, pad_list, stride, dilation, group,
                     data_format or format)
    return prim(ops.Conv2D, *c)(x, w)


def _conv2d_backprop_input(dout, w, input_size, *, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0,
                           pad_list=None, stride=1, dilation=1, group=1, format="NCHW", groups=None, data_format=None):
    out_channel, kernel, mode, pad_mode, pad, stride, dilation, group, fmt = _conv_config(
        "Conv2DBackpropInput", out_channel, kernel_size, mode, pad_mode, pad, pad_list, stride, dilation, group,
        data_format or format)
    p = prim(ops.Conv2DBackpropInput, out_channel, kernel, pad_mode, pad, None, mode, stride, dilation, group, fmt)
    return p(dout, w, tuple(as_int("Conv2DBackpropInput", "input_size", s) for s in input_size))


def _conv3d(x, w, *, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, pad_list=None, stride=1, dilation=1,
            group=1, format="NCDHW", strides=None, dilations=None, groups=None, offset_x=0, data_format=None):
    """MindSpore keeps the 5-tuples it uses as ``strides``/``dilations`` (``stride``/``dilation`` are the
    constructor's arguments as given)."""
    c = _conv_config("Conv3D", out_channel, kernel_size, mode, pad_mode, pad, pad_list,
                     stride if strides is None else strides, dilation if dilations is None else dilations, group,
                     data_format or format)
    return prim(ops.Conv3D, *c)(x, w)


def _max_pool(x, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW", *, format=None):
    op = "MaxPool"
    return prim(ops.MaxPool, tuple(as_tuple(kernel_size)), tuple(as_tuple(strides)), to_pad_mode(op, pad_mode),
                to_format(op, format or data_format))(x)


def _max_pool_with_argmax(x, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW", *, format=None,
                          padding=None, ksize=None):
    """MindSpore keeps ``kernel_size``/``strides`` as ``(1, h, w, 1)`` (and ``ksize``, ``padding`` as copies)."""
    op = "MaxPoolWithArgmax"

    def hw(value):
        value = tuple(as_tuple(value))
        return value[1:3] if len(value) == 4 else value
    return prim(ops.MaxPoolWithArgmax, hw(kernel_size), hw(strides), to_pad_mode(op, pad_mode),
                to_format(op, format or data_format))(x)


def _depth_to_space(x, block_size, data_format="NCHW", *, format=None):
    return prim(ops.DepthToSpace, as_int("DepthToSpace", "block_size", block_size))(x)


def _avg_pool(x, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW", *, format=None):
    op = "AvgPool"
    return prim(ops.AvgPool, tuple(as_tuple(kernel_size)), tuple(as_tuple(strides)), to_pad_mode(op, pad_mode),
                to_format(op, format or data_format))(x)


def _spatial(value):
    """The (h, w) of an int or a 2- or 4-tuple ``(1, 1, h, w)`` (MindSpore's ``ret_four`` form)."""
    value = tuple(as_tuple(value))
    return value[-2:] if len(value) == 4 else value


def _max_pool_with_argmax_v2(x, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False, argmax_type=4):
    index_type = {3: mstype.int32, 4: mstype.int64}.get(argmax_type, argmax_type)
    if not isinstance(index_type, mstype.Type):
        index_type = to_dtype("MaxPoolWithArgmaxV2", argmax_type)
    p = prim(ops.MaxPoolWithArgmaxV2, _spatial(kernel_size), _spatial(kernel_size if strides is None else strides),
             _spatial(pads), _spatial(dilation), bool(ceil_mode), index_type)
    return p(x)


def _output_size(op, value):
    """An adaptive pool's ``(h, w)``: MindSpore writes a kept input size (``None``) as -1, an int as ``(h, h)``."""
    size = tuple(None if s is None or s == -1 else as_int(op, "output_size", s) for s in as_tuple(value))
    return size * 2 if len(size) == 1 else size


def _adaptive_avg_pool2d(input, output_size):
    return prim(ops.AdaptiveAvgPool2D, _output_size("AdaptiveAvgPool2D", output_size))(input)


def _pool3d_mode(op, pad_mode):
    """MindSpore's 3-D pools write ``'PAD'`` as ``'CALCULATED'`` once the padding is known."""
    return "pad" if str(pad_mode).upper() == "CALCULATED" else to_pad_mode(op, pad_mode)


def _max_pool3d(x, *, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=0, format="NCDHW",
                data_format=None):
    op = "MaxPool3D"
    mode = _pool3d_mode(op, pad_mode)
    # MindSpore keeps an unset ceil_mode as 0, which only 'pad' mode may turn on; in 'same' mode its files hold
    # the pad_list it computed, which the mode implies
    ceil = as_bool(ceil_mode) if mode == "pad" else None
    pads = tuple(as_tuple(pad_list)) if mode == "pad" else 0
    return prim(ops.MaxPool3D, tuple(as_tuple(kernel_size)), tuple(as_tuple(strides)), mode, pads, ceil,
                to_format(op, data_format or format))(x)


def _avg_pool3d(input, *, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False, count_include_pad=True,
                divisor_override=0, format="NCDHW", pad_list=None, data_format=None):
    op = "AvgPool3D"
    mode = _pool3d_mode(op, pad_mode)
    pads = tuple(as_tuple(pad if pad_list is None else pad_list)) if mode == "pad" else 0
    return prim(ops.AvgPool3D, tuple(as_tuple(kernel_size)), tuple(as_tuple(strides)), mode, pads,
                as_bool(ceil_mode), as_bool(count_include_pad), as_int(op, "divisor_override", divisor_override),
                to_format(op, data_format or format))(input)


def _adaptive_max_pool2d(input, output_size):
    return prim(ops.AdaptiveMaxPool2D, _output_size("AdaptiveMaxPool2D", output_size))(input)


# --- normalisation -------------------------------------------------------------------------------------------
def _batch_norm(input_x, scale, bias, mean, variance, is_training=False, epsilon=1e-5, momentum=0.1,
                data_format="NCHW"):
    p = prim(ops.BatchNorm, bool(is_training), float(epsilon), float(momentum), to_format("BatchNorm", data_format))
    return p(input_x, scale, bias, mean, variance)


def _layer_norm(input_x, gamma, beta, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
    op = "LayerNorm"
    p = prim(ops.LayerNorm, as_int(op, "begin_norm_axis", begin_norm_axis),
             as_int(op, "begin_params_axis", begin_params_axis), float(epsilon))
    return p(input_x, gamma, beta)


def _l2_normalize(x, *, axis=0, epsilon=1e-4):
    axis = tuple(as_tuple(axis))
    return prim(ops.L2Normalize, axis[0] if len(axis) == 1 else axis, float(epsilon))(x)


def _bias_add(input_x, bias, data_format="NCHW"):
    return prim(ops.BiasAdd, to_format("BiasAdd", data_format))(input_x, bias)


# --- activations ------------------------------------------------------------------------------------------------
def _unary(cls):
    def run(input):
        return prim(cls)(input)
    return rule(run)


def _softmax(input, axis=-1):
    axis = tuple(as_tuple(axis))
    return prim(ops.Softmax, axis if len(axis) != 1 else axis[0])(input)


def _log_softmax(logits, axis=-1):
    return prim(ops.LogSoftmax, as_int("LogSoftmax", "axis", axis))(logits)


def _silu(input):
    return ops.silu(input)


def _elu(input_x, alpha=1.0):
    return prim(ops.Elu, float(alpha))(input_x)


def _leaky_relu(input, negative_slope=0.01):
    return ops.leaky_relu(input, float(negative_slope))


def _prelu(x, weight):
    return prim(ops.PReLU)(x, weight)


def _celu(x, alpha=1.0):
    return prim(ops.CeLU, float(alpha))(x)


def _hshrink(input, lambd=0.5):
    return prim(ops.HShrink, float(lambd))(input)


def _soft_shrink(input, lambd=0.5):
    return prim(ops.SoftShrink, float(lambd))(input)


def _dropout(x, keep_prob=0.5, Seed0=0, Seed1=0):
    return ops.Dropout(float(keep_prob), as_int("Dropout", "Seed0", Seed0), as_int("Dropout", "Seed1", Seed1))(x)


# --- resizing -------------------------------------------------------------------------------------------------
def _resize_bilinear_v2(image, size, align_corners=False, half_pixel_centers=False):
    op = "ResizeBilinearV2"
    size = tuple(as_int(op, "size", s) for s in as_tuple(size))
    return prim(ops.ResizeBilinearV2, as_bool(align_corners), as_bool(half_pixel_centers))(image, size)


def _resize_nearest_neighbor(input_x, size, align_corners=False, half_pixel_centers=False):
    op = "ResizeNearestNeighbor"
    if as_bool(half_pixel_centers):
        raise MSValueError(f"For '{op}' in a MindIR file, 'half_pixel_centers' is True, which this loader does not "
                           "run (only the default False).")
    return prim(ops.ResizeNearestNeighbor, tuple(as_int(op, "size", s) for s in as_tuple(size)),
                as_bool(align_corners))(input_x)


# --- losses -----------------------------------------------------------------------------------------------------
def _bce_with_logits_loss(input, target, weight=None, posWeight=None, reduction=1):
    return prim(ops.BCEWithLogitsLoss, to_reduction("BCEWithLogitsLoss", reduction))(input, target, weight, posWeight)


def _binary_cross_entropy(input, target, weight=None, reduction=1):
    return prim(ops.BinaryCrossEntropy, to_reduction("BinaryCrossEntropy", reduction))(input, target, weight)


def _nll_loss(logits, labels, weight, reduction=1, ignore_index=-100):
    op = "NLLLoss"
    p = prim(ops.NLLLoss, to_reduction(op, reduction), as_int(op, "ignore_index", ignore_index))
    return p(logits, labels, weight)


def _smooth_l1_loss(prediction, target, beta=1.0, reduction=2):
    return prim(ops.SmoothL1Loss, float(beta), to_reduction("SmoothL1Loss", reduction))(prediction, target)


def _kl_div_loss(logits, labels, *, reduction="mean"):
    return prim(ops.KLDivLoss, to_reduction("KLDivLoss", reduction))(logits, labels)


def _sigmoid_cross_entropy_with_logits(predict, target):
    return prim(ops.SigmoidCrossEntropyWithLogits)(predict, target)


def _softmax_cross_entropy_with_logits(logits, labels):
    return prim(ops.SoftmaxCrossEntropyWithLogits)(logits, labels)


def _sparse_softmax_cross_entropy_with_logits(features, labels, *, is_grad=False, sens=1.0):
    return prim(ops.SparseSoftmaxCrossEntropyWithLogits, as_bool(is_grad))(features, labels)


# --- LSTM ---------------------------------------------------------------------------------------------------------
def _check_lstm(op, label, input_size, hidden_size, num_layers=1, has_bias=True, bidirectional=False, dropout=0.0,
                proj_size=0):
    if num_layers != 1 or bidirectional or proj_size:
        raise MSRuntimeError(f"For 'load', the primitive 'LSTM' (node '{label}') has num_layers={num_layers}, "
                             f"bidirectional={bidirectional}, proj_size={proj_size}; this loader runs the one-layer, "
                             "one-direction LSTM without projection that nn.LSTM exports.")


def _lstm(x, hx, cx, w, *, input_size, hidden_size, num_layers=1, has_bias=True, bidirectional=False, dropout=0.0,
          proj_size=0):
    seq, batch, _ = x.shape
    hidden, size = as_int("LSTM", "hidden_size", hidden_size), as_int("LSTM", "input_size", input_size)
    gates = 4 * hidden
    flat = prim(ops.Reshape)(w, (-1,))

    def part(start, n, shape):
        return prim(ops.Reshape)(prim(ops.Slice)(flat, (start,), (n,)), shape)

    w_ih = part(0, gates * size, (gates, size))
    w_hh = part(gates * size, gates * hidden, (gates, hidden))
    x_proj = prim(ops.MatMul, False, True)(prim(ops.Reshape)(x, (seq * batch, size)), w_ih)
    if has_bias:
        x_proj = prim(ops.Add)(x_proj, part(gates * (size + hidden), gates, (gates,)))
    steps = prim(ops.Split, 0, seq)(prim(ops.Reshape)(x_proj, (seq, batch, gates))) if seq else ()
    h = prim(ops.Reshape)(hx, (batch, hidden))
    c = prim(ops.Reshape)(cx, (batch, hidden))
    outs = []
    for step in steps:
        g = prim(ops.Add)(prim(ops.Reshape)(step, (batch, gates)), prim(ops.MatMul, False, True)(h, w_hh))
        i, f, cell, o = prim(ops.Split, 1, 4)(g)
        c = prim(ops.Add)(prim(ops.Mul)(prim(ops.Sigmoid)(f), c),
                          prim(ops.Mul)(prim(ops.Sigmoid)(i), prim(ops.Tanh)(cell)))
        h = prim(ops.Mul)(prim(ops.Sigmoid)(o), prim(ops.Tanh)(c))
        outs.append(h)
    output = prim(ops.Stack, 0)(tuple(outs)) if outs else prim(ops.Zeros)((0, batch, hidden), x.dtype)
    unused = prim(ops.Zeros)((1, 1), x.dtype)       # the CPU kernel's reserve/state outputs: never read
    return (output, prim(ops.Reshape)(h, (1, batch, hidden)), prim(ops.Reshape)(c, (1, batch, hidden)), unused,
            unused)


RULES = {
    "Conv2D": rule(_conv2d), "Conv2DBackpropInput": rule(_conv2d_backprop_input),
    "Conv2DTranspose": rule(_conv2d_backprop_input), "Conv3D": rule(_conv3d),
    "MaxPool": rule(_max_pool), "MaxPoolWithArgmaxV2": rule(_max_pool_with_argmax_v2), "AvgPool": rule(_avg_pool),
    "MaxPoolWithArgmax": rule(_max_pool_with_argmax), "DepthToSpace": rule(_depth_to_space),
    "AdaptiveAvgPool2D": rule(_adaptive_avg_pool2d), "AdaptiveMaxPool2D": rule(_adaptive_max_pool2d),
    "MaxPool3D": rule(_max_pool3d), "AvgPool3D": rule(_avg_pool3d),
    "BatchNorm": rule(_batch_norm), "LayerNorm": rule(_layer_norm), "L2Normalize": rule(_l2_normalize),
    "BiasAdd": rule(_bias_add),
    "ReLU": _unary(ops.ReLU), "ReLU6": _unary(ops.ReLU6), "Sigmoid": _unary(ops.Sigmoid), "GeLU": _unary(ops.GeLU),
    "FastGeLU": _unary(ops.FastGeLU), "HSwish": _unary(ops.HSwish), "HSigmoid": _unary(ops.HSigmoid),
    "SeLU": _unary(ops.SeLU), "Softplus": _unary(ops.Softplus), "Softsign": _unary(ops.Softsign),
    "Mish": _unary(ops.Mish),
    "Softmax": rule(_softmax), "LogSoftmax": rule(_log_softmax), "SiLU": rule(_silu), "Elu": rule(_elu),
    "LeakyReLUExt": rule(_leaky_relu), "PReLU": rule(_prelu), "Dropout": rule(_dropout),
    "CeLU": rule(_celu), "HShrink": rule(_hshrink), "SoftShrink": rule(_soft_shrink),
    "ResizeBilinearV2": rule(_resize_bilinear_v2), "ResizeNearestNeighbor": rule(_resize_nearest_neighbor),
    "BCEWithLogitsLoss": rule(_bce_with_logits_loss), "BinaryCrossEntropy": rule(_binary_cross_entropy),
    "NLLLoss": rule(_nll_loss), "SmoothL1Loss": rule(_smooth_l1_loss), "KLDivLoss": rule(_kl_div_loss),
    "SigmoidCrossEntropyWithLogits": rule(_sigmoid_cross_entropy_with_logits),
    "SoftmaxCrossEntropyWithLogits": rule(_softmax_cross_entropy_with_logits),
    "SparseSoftmaxCrossEntropyWithLogits": rule(_sparse_softmax_cross_entropy_with_logits),
    "LSTM": rule(_lstm, check=_check_lstm),
}
