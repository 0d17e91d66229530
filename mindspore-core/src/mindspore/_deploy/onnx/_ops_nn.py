"""ONNX forms of the nn family: activations, softmax, normalization, convolution, pooling, dropout.

Windows (convolution and pooling) are written with explicit ``pads`` computed by the primitive's own
geometry (:meth:`window_for`) when the spatial sizes are known, so ``'same'`` padding (the odd element
after, TensorFlow style) and ``ceil_mode`` give exactly MindSpore's output sizes; with unknown spatial
sizes ``'same'`` becomes ``auto_pad = SAME_UPPER``. A ``BiasAdd`` that only follows a convolution is
folded into ONNX ``Conv``'s bias. Inference only: ``BatchNorm`` in training mode (batch statistics and
moving-average updates) is refused; ``Dropout`` is the identity, as ONNX's inference ``Dropout``.
"""
from __future__ import annotations

import math

import numpy as np

from mindspore._errors import MSValueError
from mindspore._deploy.capture import Sym
from mindspore._deploy.onnx._emitter import NoForm, no_form, np_dtype, onnx_dtype, where

_GELU_K = math.sqrt(2.0 / math.pi)
_SELU_ALPHA = 1.67326324235437728481704299
_SELU_SCALE = 1.05070098735548049341933498


# --- activations ---------------------------------------------------------------------------------------
_SIMPLE = {"ReLU": "Relu", "Sigmoid": "Sigmoid", "Softplus": "Softplus", "Softsign": "Softsign",
           "HSwish": "HardSwish"}


def _simple(op_type):
    def convert(em, node):
        return em.op(op_type, [em.x(node, 1, em.out_dtype(node))])
    return convert


def _with_alpha(op_type):
    def convert(em, node):
        return em.op(op_type, [em.x(node, 1)], alpha=float(em.cap.attr(node, "alpha", 1.0)))
    return convert


def _selu(em, node):
    return em.op("Selu", [em.x(node, 1)], alpha=_SELU_ALPHA, gamma=_SELU_SCALE)


def _relu6(em, node):
    dtype = em.out_dtype(node)
    return em.op("Clip", [em.x(node, 1, dtype), em.scalar(0, dtype), em.scalar(6, dtype)])


def _hsigmoid(em, node):
    return em.op("HardSigmoid", [em.x(node, 1)], alpha=1.0 / 6, beta=0.5)


def _shrink(soft):
    def convert(em, node):
        lambd = float(em.cap.attr(node, "lambd", 0.5))
        return em.op("Shrink", [em.x(node, 1)], lambd=lambd, bias=lambd if soft else 0.0)
    return convert


def _gelu(em, node):
    """The tanh form, MindSpore's GeLU primitive: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    dtype = em.out_dtype(node)
    x = em.x(node, 1, dtype)
    cube = em.op("Mul", [em.op("Mul", [x, x]), x])
    inner = em.op("Mul", [em.op("Add", [x, em.op("Mul", [cube, em.scalar(0.044715, dtype)])]),
                          em.scalar(_GELU_K, dtype)])
    half = em.op("Mul", [x, em.scalar(0.5, dtype)])
    return em.op("Mul", [half, em.op("Add", [em.op("Tanh", [inner]), em.scalar(1.0, dtype)])])


def _mish(em, node):
    """x tanh(softplus(x)) (ONNX's Mish is opset 18)."""
    x = em.x(node, 1, em.out_dtype(node))
    return em.op("Mul", [x, em.op("Tanh", [em.op("Softplus", [x])])])


def _fast_gelu(em, node):
    dtype = em.out_dtype(node)
    x = em.x(node, 1, dtype)
    return em.op("Mul", [x, em.op("Sigmoid", [em.op("Mul", [x, em.scalar(1.702, dtype)])])])


def _channel_shaped(em, vec, rank, size):
    """A per-channel vector reshaped to broadcast along axis 1 of a rank-``rank`` tensor."""
    if rank <= 2 or size == 1:
        return vec
    return em.op("Reshape", [vec, em.ints([size] + [1] * (rank - 2))])


def _prelu(em, node):
    w_shape = em.shape(node.inputs[2])
    w = _channel_shaped(em, em.x(node, 2), len(em.shape(node.inputs[1])), int(np.prod(w_shape)) if w_shape else 1)
    return em.op("PRelu", [em.x(node, 1), w])


def _softmax(op_type):
    def convert(em, node):
        axis = em.cap.attr(node, "axis", -1)
        axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
        x = em.x(node, 1)
        if len(axes) == 1:
            return em.op(op_type, [x], axis=int(axes[0]))
        shifted = em.op("Sub", [x, em.op("ReduceMax", [x], axes=axes, keepdims=1)])
        total = em.op("ReduceSum", [em.op("Exp", [shifted]), em.ints(axes)], keepdims=1)
        if op_type == "Softmax":
            return em.op("Div", [em.op("Exp", [shifted]), total])
        return em.op("Sub", [shifted, em.op("Log", [total])])
    return convert


def _l2_normalize(em, node):
    axis = em.cap.attr(node, "axis", 0)
    axes = list(axis) if isinstance(axis, (tuple, list)) else [int(axis)]
    dtype = em.out_dtype(node)
    x = em.x(node, 1, dtype)
    sq = em.op("ReduceSum", [em.op("Mul", [x, x]), em.ints(axes)], keepdims=1)
    eps = em.scalar(float(em.cap.attr(node, "epsilon", 1e-4)), dtype)
    return em.op("Div", [x, em.op("Sqrt", [em.op("Max", [sq, eps])])])


# --- bias and normalization ----------------------------------------------------------------------------
def _bias_add(em, node):
    dtype = em.out_dtype(node)
    rank = len(em.shape(node.inputs[1]))
    bias = em.x(node, 2, dtype)
    if str(em.cap.attr(node, "data_format", "NCHW")).startswith("NC"):
        bias = _channel_shaped(em, bias, rank, em.shape(node.inputs[2])[0])
    return em.op("Add", [em.x(node, 1, dtype), bias])


def _batch_norm(em, node):
    if em.cap.attr(node, "is_training", False):
        raise MSValueError(f"For 'export', the primitive 'BatchNorm'{where(node)} runs in training mode (batch "
                           "statistics and moving-average updates), which has no ONNX inference form: export the "
                           "network in evaluation mode (net.set_train(False)).")
    if not str(em.cap.attr(node, "data_format", "NCHW")).startswith("NC"):
        raise no_form(node, f" with data_format '{em.cap.attr(node, 'data_format')}'")
    ins = [em.x(node, i) for i in range(1, 6)]
    y = em.op("BatchNormalization", ins, epsilon=float(em.cap.attr(node, "epsilon", 1e-5)))
    stats = ("batch mean", "batch variance", "saved mean", "saved variance")
    return [y] + [NoForm(f"output {i + 1} ({s})") for i, s in enumerate(stats)]


def _layer_norm(em, node):
    """``(y, mean, variance)``. ONNX's LayerNormalization gives the mean and the inverse standard deviation (float32
    both): it serves while the variance is not read and the parameters cover the normalised axes; otherwise the
    formula, the statistics in their own dtype (float32 for half inputs) and ``y`` cast back."""
    shape = em.shape(node.inputs[1])
    rank = len(shape)
    bna = int(em.cap.attr(node, "begin_norm_axis", 1)) % rank
    bpa = int(em.cap.attr(node, "begin_params_axis", 1)) % rank
    eps = float(em.cap.attr(node, "epsilon", 1e-7))
    dtype = em.out_dtype(node)
    stat_dtype = node.abstract.elements[1].dtype
    used = em.used_outputs(node)
    used = used if used is not None else {0, 1, 2}
    if bna == bpa and 2 not in used and (1 not in used or np_dtype(stat_dtype) == np.float32):
        x, gamma, beta = em.x(node, 1), em.x(node, 2, dtype), em.x(node, 3, dtype)
        outs = em.op("LayerNormalization", [x, gamma, beta], outputs=2 if 1 in used else 1, axis=bna, epsilon=eps)
        outs = outs if isinstance(outs, list) else [outs]
        return outs + [NoForm(f"output {i} (the {('mean', 'variance')[i - 1]})") for i in range(len(outs), 3)]
    # the variance read, or parameters over other axes than the normalized ones: the formula, the affine broadcast
    x, gamma, beta = em.x(node, 1, stat_dtype), em.x(node, 2, stat_dtype), em.x(node, 3, stat_dtype)
    axes = list(range(bna, rank))
    mean = em.op("ReduceMean", [x], axes=axes, keepdims=1)
    centered = em.op("Sub", [x, mean])
    var = em.op("ReduceMean", [em.op("Mul", [centered, centered])], axes=axes, keepdims=1)
    rstd = em.op("Reciprocal", [em.op("Sqrt", [em.op("Add", [var, em.scalar(eps, stat_dtype)])])])
    y = em.op("Add", [em.op("Mul", [em.op("Mul", [centered, rstd]), gamma]), beta])
    if np_dtype(stat_dtype) != np_dtype(dtype):
        y = em.op("Cast", [y], to=onnx_dtype(dtype))
    return [y, mean, var]


# --- windows -------------------------------------------------------------------------------------------
def _static_shape(shape):
    return tuple(1 if isinstance(d, Sym) else int(d) for d in shape)


def _window_attrs(em, node, prim, x_shape, nd, avg_include_pad=False):
    """ONNX ``pads``/``auto_pad`` (and ``ceil_mode``) reproducing MindSpore's window for input ``x_shape``."""
    geometry = prim._geometry
    kernel, stride, dilation, mode = geometry[:4]
    pads = geometry[4]
    ceil_mode = len(geometry) > 5 and geometry[5]
    spatial = x_shape[-nd:]
    if all(isinstance(d, int) for d in spatial):
        win = prim.window_for(_static_shape(x_shape))
        before, after = list(win.before), list(win.after)
        for i, n in enumerate(spatial):
            eff = dilation[i] * (kernel[i] - 1) + 1
            # ceil_mode: the extra trailing padding that makes ONNX's floor formula give the same size
            need = (win.out[i] - 1) * stride[i] + eff - n - before[i]
            if need > after[i]:
                if avg_include_pad:
                    raise no_form(node, " with ceil_mode, count_include_pad and a partial last window")
                after[i] = need
        return {"pads": before + after}
    if mode == "same":
        return {"auto_pad": "SAME_UPPER"}
    if mode == "valid":
        return {"auto_pad": "VALID"}
    return {"pads": [pads[2 * i] for i in range(nd)] + [pads[2 * i + 1] for i in range(nd)],
            "ceil_mode": int(bool(ceil_mode)) or None}


def _conv(em, node):
    prim = node.inputs[0].value
    nd = prim._nd
    kernel, stride, dilation = prim._geometry[:3]
    dtype = em.out_dtype(node)
    ins = [em.x(node, 1, dtype), em.x(node, 2, dtype)]
    attrs = _window_attrs(em, node, prim, em.shape(node.inputs[1]), nd)
    bias_add = em.only_user(node, "BiasAdd")
    target = node
    if bias_add is not None and bias_add.inputs[1] is node and len(em.shape(bias_add.inputs[2])) == 1:
        ins.append(em.x(bias_add, 2, dtype))
        target = bias_add
    out = em.op("Conv", ins, kernel_shape=list(kernel), strides=list(stride), dilations=list(dilation),
                group=int(prim.group), **attrs)
    em.vals[id(target)] = out
    return out


def _conv_transpose(em, node):
    """The gradient of a convolution w.r.t. its input: ONNX ConvTranspose with the forward window's pads and
    the ``output_padding`` that the forward convolution's last window left uncovered."""
    prim = node.inputs[0].value
    kernel, stride, dilation = prim._geometry[:3]
    size = tuple(em.cap.arg(node, 3))
    if not all(isinstance(d, int) for d in size[2:]):
        raise no_form(node, " with an unknown spatial output size")
    win = prim.window_for(_static_shape(size))
    extra = [n + b + a - (o - 1) * s - (d * (k - 1) + 1)
             for n, b, a, o, s, d, k in zip(size[2:], win.before, win.after, win.out, stride, dilation, kernel)]
    dtype = em.out_dtype(node)
    ins = [em.x(node, 1, dtype), em.x(node, 2, dtype)]
    bias_add = em.only_user(node, "BiasAdd")
    target = node
    if bias_add is not None and bias_add.inputs[1] is node and len(em.shape(bias_add.inputs[2])) == 1:
        ins.append(em.x(bias_add, 2, dtype))
        target = bias_add
    out = em.op("ConvTranspose", ins, kernel_shape=list(kernel), strides=list(stride), dilations=list(dilation),
                group=int(prim.group), pads=list(win.before) + list(win.after),
                output_padding=extra if any(extra) else None)
    em.vals[id(target)] = out
    return out


def _resize(mode):
    def convert(em, node):
        align = bool(em.cap.attr(node, "align_corners", False))
        half = bool(em.cap.attr(node, "half_pixel_centers", False))
        coords = "align_corners" if align else ("half_pixel" if half else "asymmetric")
        attrs = {"mode": mode, "coordinate_transformation_mode": coords}
        if mode == "nearest":
            # MindSpore's source index: floor(i * scale), or round-half-up with align_corners
            attrs["nearest_mode"] = "round_prefer_ceil" if align else "floor"
        sizes = em.int_tensor(em.shape(node))
        return em.op("Resize", [em.x(node, 1), "", "", sizes], **attrs)
    return convert


def _pool(op_type, include_pad=None):
    def convert(em, node):
        prim = node.inputs[0].value
        nd = prim._nd
        kernel, stride, dilation = prim._geometry[:3]
        x_shape = em.shape(node.inputs[1])
        if include_pad is None:
            count_pad = bool(getattr(prim, "count_include_pad", False))
            divisor = int(getattr(prim, "divisor_override", 0) or 0)
        else:
            count_pad, divisor = include_pad, 0
        attrs = _window_attrs(em, node, prim, x_shape, nd, avg_include_pad=op_type == "AveragePool" and count_pad)
        if op_type == "MaxPool":
            if any(d != 1 for d in dilation):
                attrs["dilations"] = list(dilation)
            y = em.op("MaxPool", [em.x(node, 1)], kernel_shape=list(kernel), strides=list(stride), **attrs)
        else:
            y = em.op("AveragePool", [em.x(node, 1)], kernel_shape=list(kernel), strides=list(stride),
                      count_include_pad=int(count_pad or bool(divisor)), **attrs)
            if divisor:
                y = em.op("Mul", [y, em.scalar(float(np.prod(kernel)) / divisor, em.out_dtype(node))])
        if type(node.abstract).__name__ == "AbstractTuple":
            return [y, NoForm("output 1 (argmax)")]
        return y
    return convert


def _adaptive(op_type, global_type):
    def convert(em, node):
        x_shape = em.shape(node.inputs[1])
        out = em.shape(node)
        out = out[0] if isinstance(out, tuple) and out and isinstance(out[0], tuple) else out
        x = em.x(node, 1)
        if all(o == 1 for o in out[-2:]):
            y = em.op(global_type, [x])
        elif all(isinstance(d, int) for d in x_shape[-2:]) and all(n % o == 0 for n, o in zip(x_shape[-2:], out[-2:])):
            k = [n // o for n, o in zip(x_shape[-2:], out[-2:])]
            y = em.op(op_type, [x], kernel_shape=k, strides=k)
        else:
            raise no_form(node, f" for the output size {tuple(out[-2:])} of the input size {tuple(x_shape[-2:])} "
                                "(ONNX pools over equal windows: the output size must divide the input size)")
        if type(node.abstract).__name__ == "AbstractTuple":
            return [y, NoForm("output 1 (argmax)")]
        return y
    return convert


def _dropout(em, node):
    y = em.op("Identity", [em.x(node, 1)])
    if type(node.abstract).__name__ == "AbstractTuple":
        return [y, NoForm("output 1 (the mask)")]
    return y


def converters():
    table = {name: _simple(op) for name, op in _SIMPLE.items()}
    table.update({
        "Elu": _with_alpha("Elu"), "CeLU": _with_alpha("Celu"), "SeLU": _selu, "ReLU6": _relu6,
        "HSigmoid": _hsigmoid, "HShrink": _shrink(False), "SoftShrink": _shrink(True), "GeLU": _gelu,
        "FastGeLU": _fast_gelu, "Mish": _mish, "PReLU": _prelu, "Softmax": _softmax("Softmax"),
        "LogSoftmax": _softmax("LogSoftmax"), "L2Normalize": _l2_normalize, "BiasAdd": _bias_add,
        "BatchNorm": _batch_norm, "LayerNorm": _layer_norm, "Conv2D": _conv, "Conv3D": _conv,
        "Conv2DBackpropInput": _conv_transpose, "Conv2DTranspose": _conv_transpose,
        "ResizeNearestNeighbor": _resize("nearest"), "ResizeBilinearV2": _resize("linear"),
        "MaxPool": _pool("MaxPool"), "MaxPool3D": _pool("MaxPool"), "MaxPoolWithArgmax": _pool("MaxPool"),
        "MaxPoolWithArgmaxV2": _pool("MaxPool"), "AvgPool": _pool("AveragePool", include_pad=False),
        "AvgPool3D": _pool("AveragePool"), "AdaptiveAvgPool2D": _adaptive("AveragePool", "GlobalAveragePool"),
        "AdaptiveMaxPool2D": _adaptive("MaxPool", "GlobalMaxPool"), "Dropout": _dropout,
    })
    return table
