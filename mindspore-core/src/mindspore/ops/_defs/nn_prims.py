"""nn-level primitives: transposed 3-D convolution, LRN, max-unpooling, 3-D adaptive pooling, margin losses,
channel dropout, channel shuffle, RMS normalisation, the legacy random samplers and the recurrent layers
(``DynamicRNN``, ``BasicLSTMCell``, ``DynamicGRUV2``, ``LSTM``). The second half of the family (margin losses with
pairs, dropout bit masks, candidate samplers, fractional pooling, CTC, STFT, depthwise and deformable convolution)
is :mod:`mindspore.ops._defs.nn_prims_ext`; :data:`PRIMITIVES` lists both halves.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop`` (or the
``NON_DIFFERENTIABLE`` marker). Kernels live in the backends' ``kernels/nn_prims.py``. The functional forms
(``ops.lrn``, ``ops.max_unpool2d``, ``ops.soft_margin_loss``, ``ops.conv3d_transpose``, ...) and the nn layers
built on them call these primitives: there is one definition of each computation.

Gradients: the transposed convolution's are the convolution family's primitives (``Conv3D`` and
``Conv3DBackpropFilter`` of the equivalent direct convolution); max-unpooling's is a gather of ``dout`` at the
indices; the losses' and RMS normalisation's are compositions of functional ops; LRN's and 3-D adaptive
pooling's are gradient primitives of their own (``LRNGrad``, ``AdaptiveAvgPool3DGrad``, ``AdaptiveMaxPool3DGrad``)
with kernels. The recurrent layers' are back-propagation through time from the cotangents of every output
(``LSTMSequenceGrad``, ``GRUSequenceGrad``, ``LSTMGrad``, which recomputes the forward pass). The random samplers
draw from the instance's stream (see :mod:`.random`) and are not differentiable.
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs import conv as _conv
from mindspore.ops._defs import nn_prims_ext
from mindspore.ops._defs import random as _random
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.nn import check_number, check_str
from mindspore.ops._defs.nn_prims_ext import (_F16_32, _F16_32_64, _int_tuple, _reduction, _scale_loss_grad,
                                              _Seeded, _shape_value, _tensor)
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

# --- Conv3DTranspose ------------------------------------------------------------------------
class Conv3DTranspose(Primitive):
    """``Conv3DTranspose(in_channel, out_channel, kernel_size, ...)(dout, weight)``: 3-D transposed convolution.

    ``weight`` is ``(in_channel, out_channel / group, kd, kh, kw)``. The result is the input gradient of the
    direct convolution ``Conv3D(out_channel=in_channel, ...)`` of an input shaped like the result. Per axis, with
    ``e = dilation * (k - 1) + 1``: ``'valid'``: ``(D - 1) * s + e + max(s - e, 0)``; ``'same'``: ``D * s``;
    ``'pad'``: ``(D - 1) * s + e - (head + tail)``; each plus ``output_padding``.
    """

    @prim_attr_register
    def __init__(self, in_channel, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1,
                 group=1, output_padding=0, data_format="NCDHW"):
        op = self.name
        rules.check_positive_int(op, "in_channel", in_channel)
        rules.check_positive_int(op, "out_channel", out_channel)
        kernel = _int_tuple(op, "kernel_size", kernel_size, 3)
        stride_ = _int_tuple(op, "stride", stride, 3)
        dil = _int_tuple(op, "dilation", dilation, 3)
        out_pad = _int_tuple(op, "output_padding", output_padding, 3, allow_zero=True)
        mode_ = check_str(op, "pad_mode", pad_mode.lower() if isinstance(pad_mode, str) else pad_mode,
                          ("valid", "same", "pad"))
        if data_format != "NCDHW":
            raise MSValueError(f"For '{op}', the 'data_format' must be 'NCDHW', but got '{data_format}'.")
        group = rules.check_positive_int(op, "group", group)
        if in_channel % group or out_channel % group:
            raise MSValueError(f"For '{op}', the 'in_channel' and 'out_channel' must be divisible by 'group', but "
                               f"got 'in_channel': {in_channel}, 'out_channel': {out_channel}, 'group': {group}.")
        pads = rules.check_int_tuple(op, "pad", pad)
        pads = pads * 6 if len(pads) == 1 else pads
        if len(pads) != 6 or any(p < 0 for p in pads):
            raise MSValueError(f"For '{op}', the 'pad' must be a non-negative int or a tuple of 6 non-negative ints, "
                               f"but got {pad}.")
        if mode_ != "pad" and any(pads):
            raise MSValueError(f"For '{op}', the 'pad' must be zero when 'pad_mode' is not 'pad', but got {pad}.")
        for s, d, o in zip(stride_, dil, out_pad):
            if o >= max(s, d):
                raise MSValueError(f"For '{op}', the 'output_padding' must be less than max('stride', 'dilation') "
                                   f"on each axis, but got 'output_padding': {out_pad}, 'stride': {stride_}, "
                                   f"'dilation': {dil}.")
        heads, extra = [], []
        for i, (k, s, d) in enumerate(zip(kernel, stride_, dil)):
            e = d * (k - 1) + 1
            if mode_ == "pad":
                head, tail = pads[2 * i], pads[2 * i + 1]
            elif mode_ == "same":
                total = max(e - s, 0)
                head, tail = total // 2, total - total // 2
            else:
                head, tail = 0, 0
            heads += [head, tail]
            more = max(s - e + head + tail, 0) if mode_ != "pad" else 0
            extra.append(more + out_pad[i])
        self._extra = tuple(extra)
        # the direct convolution whose input gradient this is (its geometry is the shape rule's)
        self._direct = _conv.Conv3DBackpropInput(in_channel, kernel, mode=mode, pad_mode="pad", pad=tuple(heads),
                                                 stride=stride_, dilation=dil, group=group)
        self.add_prim_attrs(kernel_size=kernel, stride=(1, 1) + stride_, dilation=(1, 1) + dil,
                            output_padding=(1, 1) + out_pad, pad_list=tuple(heads), pad_mode=mode_.upper(),
                            groups=group)

    def output_size(self, x):
        """The (N, out_channel, D, H, W) result for an input of shape ``x``."""
        kernel, stride, dil = self._direct._geometry[:3]
        pads = self.pad_list
        spatial = tuple((n - 1) * s + d * (k - 1) + 1 - pads[2 * i] - pads[2 * i + 1] + self._extra[i]
                        for i, (n, k, s, d) in enumerate(zip(x[2:], kernel, stride, dil)))
        return (x[0], self.out_channel) + spatial

    def infer_shape(self, x, w):
        op = self.name
        rules.check_rank(op, "x", x, 5)
        rules.check_rank(op, "weight", w, 5)
        if x[1] != self.in_channel or w[0] != self.in_channel:
            raise MSValueError(f"For '{op}', the 'x' shape[1] and the 'weight' shape[0] must equal 'in_channel' "
                               f"{self.in_channel}, but got x {tuple(x)} and weight {tuple(w)}.")
        if w[1] * self.group != self.out_channel or tuple(w[2:]) != self.kernel_size:
            want = (self.in_channel, self.out_channel // self.group) + self.kernel_size
            raise MSValueError(f"For '{op}', the 'weight' shape must be {want}, but got {tuple(w)}.")
        out = self.output_size(x)
        if any(s <= 0 for s in out[2:]):
            raise MSValueError(f"For '{op}', the output shape {out} must be positive for input shape {tuple(x)}.")
        self._direct.infer_shape(w, x, out)
        return out

    def infer_dtype(self, x, w):
        rules.check_float(self.name, "x", x)
        return rules.check_same_dtype(self.name, ("x", "weight"), (x, w))

    def bprop(self, x, w, out, dout):
        cfg = self._direct._config()
        dx = _conv.Conv3D(**cfg)(dout, w)
        dw = _conv.Conv3DBackpropFilter(**cfg)(dout, x, w.shape)
        return dx, dw


# --- LRN ------------------------------------------------------------------------------------
class _LRNAttrs(Primitive):
    def _check(self, depth_radius, bias, alpha, beta, norm_region):
        op = self.name
        if rules.check_int(op, "depth_radius", depth_radius) < 0:
            raise MSValueError(f"For '{op}', the 'depth_radius' must be non-negative, but got {depth_radius}.")
        for name, v in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            if not isinstance(v, float):
                raise MSTypeError(f"For '{op}', the '{name}' must be a float, but got {type(v).__name__}.")
        check_str(op, "norm_region", norm_region, ("ACROSS_CHANNELS",))


class LRN(_LRNAttrs):
    """``LRN(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5)(x)``: local response normalisation of (N, C, H, W)
    across channels, ``x / (bias + alpha * sum_{|c' - c| <= depth_radius} x_c'^2) ** beta``."""

    @prim_attr_register
    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
        self._check(depth_radius, bias, alpha, beta, norm_region)

    def infer_shape(self, x):
        return tuple(rules.check_rank(self.name, "x", x, 4))

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _F16_32_64)

    def bprop(self, x, out, dout):
        return (self._grad_prim(LRNGrad, self.depth_radius, self.bias, self.alpha, self.beta)(dout, x, out),)


class LRNGrad(_LRNAttrs):
    """``LRNGrad(...)(grads, x, y)``: the gradient of :class:`LRN` w.r.t. ``x`` (``y`` its output)."""

    @prim_attr_register
    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
        self._check(depth_radius, bias, alpha, beta, "ACROSS_CHANNELS")

    def infer_shape(self, grads, x, y):
        rules.check_rank(self.name, "x", x, 4)
        return rules.check_same_shape(self.name, ("grads", "x", "y"), (grads, x, y))

    def infer_dtype(self, grads, x, y):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64)
        return rules.check_same_dtype(self.name, ("grads", "x", "y"), (grads, x, y))

    bprop = NON_DIFFERENTIABLE


# --- MaxUnpool2D / MaxUnpool3D --------------------------------------------------------------
class _MaxUnpool(Primitive):
    _nd = 2
    _format = "NCHW"

    def _setup(self, ksize, strides, pads, output_shape, data_format):
        op, n = self.name, self._nd
        k = _int_tuple(op, "ksize", ksize, n)
        s = k if strides in (0, (0,) * n, (0,) * (n + 2)) else _int_tuple(op, "strides", strides, n)
        p = _int_tuple(op, "pads", pads, n, allow_zero=True)
        if data_format != self._format:
            raise MSValueError(f"For '{op}', the 'data_format' must be '{self._format}', but got '{data_format}'.")
        out = rules.check_int_tuple(op, "output_shape", output_shape)
        if out and len(out) != n + 2:
            raise MSValueError(f"For '{op}', the 'output_shape' must be empty or of length {n + 2}, but got {out}.")
        self._geometry = (k, s, p, out)

    def infer_shape(self, x, argmax):
        op, n = self.name, self._nd
        rules.check_rank(op, "x", x, n + 2)
        if tuple(argmax) != tuple(x):
            raise MSValueError(f"For '{op}', the shape of 'argmax' must equal the shape of 'x' {tuple(x)}, but got "
                               f"{tuple(argmax)}.")
        k, s, p, out = self._geometry
        default = tuple((d - 1) * st - 2 * pd + kk for d, st, pd, kk in zip(x[2:], s, p, k))
        if not out:
            out = tuple(x[:2]) + default
        else:
            if tuple(out[:2]) != tuple(x[:2]):
                raise MSValueError(f"For '{op}', the 'output_shape' must start with {tuple(x[:2])}, but got {out}.")
            for got, want, st in zip(out[2:], default, s):
                if not want - st < got < want + st:
                    raise MSValueError(f"For '{op}', the 'output_shape' spatial sizes must be within 'strides' of "
                                       f"{default}, but got {out}.")
        if any(d <= 0 for d in out):
            raise MSValueError(f"For '{op}', the output shape must be positive, but got {tuple(out)}.")
        return tuple(out)

    def infer_dtype(self, x, argmax):
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        rules.check_dtype_in(self.name, "argmax", argmax, (mstype.int32, mstype.int64))
        return x

    def bprop(self, x, argmax, out, dout):
        lead = x.shape[:2]
        flat = fops.reshape(dout, lead + (-1,))
        idx = fops.reshape(argmax, lead + (-1,))
        return fops.reshape(fops.gather_elements(flat, 2, idx), x.shape), fops.zeros_like(argmax)


class MaxUnpool2D(_MaxUnpool):
    """``MaxUnpool2D(ksize, strides=0, pads=0, output_shape=())(x, argmax)``: each value of (N, C, H, W) ``x``
    placed at its flat ``argmax`` position of the output plane, zeros elsewhere (strides 0: ``ksize``)."""

    @prim_attr_register
    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format="NCHW"):
        self._setup(ksize, strides, pads, output_shape, data_format)


class MaxUnpool3D(_MaxUnpool):
    """``MaxUnpool3D(ksize, strides=0, pads=0, output_shape=())(x, argmax)``: the 3-D twin of MaxUnpool2D."""

    _nd = 3
    _format = "NCDHW"

    @prim_attr_register
    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format="NCDHW"):
        self._setup(ksize, strides, pads, output_shape, data_format)


# --- AdaptiveAvgPool3D / AdaptiveMaxPool3D --------------------------------------------------
def adaptive_bounds(in_size, out_size, i):
    """The input cells ``[start, end)`` of output cell ``i`` (``floor(i * in / out)``, ``ceil((i + 1) * in /
    out)``), the rule kernels share."""
    return (i * in_size) // out_size, -((-(i + 1) * in_size) // out_size)


def _adaptive_out(op, x, output_size):
    rules.check_rank(op, "x", x, (4, 5))
    out = tuple(x[-3 + j] if o is None else o for j, o in enumerate(output_size))
    return tuple(x[:-3]) + out


def _check_output_size(op, output_size, name="output_size"):
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size,) * 3
    if not isinstance(output_size, (tuple, list)) or len(output_size) != 3:
        raise MSValueError(f"For '{op}', the '{name}' must be an int or a tuple of 3 ints, but got {output_size}.")
    for v in output_size:
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v <= 0):
            raise MSValueError(f"For '{op}', the '{name}' elements must be positive ints or None, but got "
                               f"{output_size}.")
    return tuple(output_size)


class AdaptiveAvgPool3D(Primitive):
    """``AdaptiveAvgPool3D(output_size)(x)``: average pooling of (C, D, H, W) or (N, C, D, H, W) into
    ``output_size`` cells (None keeps that axis), cell ``i`` covering ``[floor(i*in/out), ceil((i+1)*in/out))``."""

    @prim_attr_register
    def __init__(self, output_size):
        self._out = _check_output_size(self.name, output_size)

    def infer_shape(self, x):
        return _adaptive_out(self.name, x, self._out)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _F16_32_64)

    def bprop(self, x, out, dout):
        return (self._grad_prim(AdaptiveAvgPool3DGrad)(dout, x.shape),)


class AdaptiveAvgPool3DGrad(Primitive):
    """``AdaptiveAvgPool3DGrad()(dout, orig_shape)``: each pooled gradient spread evenly over its cell (the
    transpose of AdaptiveAvgPool3D)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, dout, orig_shape):
        shape = rules.check_int_tuple(self.name, "orig_shape", orig_shape)
        rules.check_rank(self.name, "dout", dout, len(shape))
        if len(shape) not in (4, 5) or tuple(dout[:-3]) != shape[:-3]:
            raise MSValueError(f"For '{self.name}', the 'orig_shape' {shape} does not match 'dout' {tuple(dout)}.")
        return shape

    def infer_dtype(self, dout, orig_shape):
        return rules.check_dtype_in(self.name, "dout", dout, _F16_32_64)

    def bprop(self, dout, orig_shape, out, dout2):
        size = tuple(dout.shape[-3:])
        return self._grad_prim(AdaptiveAvgPool3D, size)(dout2), None


class AdaptiveMaxPool3D(Primitive):
    """``AdaptiveMaxPool3D()(x, output_size)`` -> ``(y, argmax)``: max over the adaptive cells of (C, D, H, W) or
    (N, C, D, H, W); ``output_size`` is a constant 3-tuple (or a tensor holding one, read as a value), ``argmax``
    the int32 flat index into ``D * H * W``."""

    value_inputs = {1: "output_size"}

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, output_size):
        size = _check_output_size(self.name, tuple(output_size) if isinstance(output_size, list) else output_size)
        out = _adaptive_out(self.name, x, size)
        return out, out

    def infer_dtype(self, x, output_size):
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        return x, mstype.int32

    def bprop(self, x, output_size, out, dout):
        return self._grad_prim(AdaptiveMaxPool3DGrad)(dout[0], x, out[1]), None


class AdaptiveMaxPool3DGrad(Primitive):
    """``AdaptiveMaxPool3DGrad()(dout, x, argmax)``: ``dout`` scattered (summed) into ``x``'s shape at ``argmax``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, dout, x, argmax):
        rules.check_rank(self.name, "x", x, (4, 5))
        rules.check_same_shape(self.name, ("dout", "argmax"), (dout, argmax))
        if len(dout) != len(x) or tuple(dout[:-3]) != tuple(x[:-3]):
            raise MSValueError(f"For '{self.name}', the 'dout' {tuple(dout)} does not match 'x' {tuple(x)}.")
        return tuple(x)

    def infer_dtype(self, dout, x, argmax):
        rules.check_dtype_in(self.name, "argmax", argmax, (mstype.int32, mstype.int64))
        return rules.check_same_dtype(self.name, ("dout", "x"), (dout, x))

    def bprop(self, dout, x, argmax, out, dout2):
        lead = x.shape[:-3]
        flat = fops.reshape(dout2, lead + (-1,))
        idx = fops.reshape(argmax, lead + (-1,))
        g = fops.reshape(fops.gather_elements(flat, len(lead), idx), dout.shape)
        return g, fops.zeros_like(x), fops.zeros_like(argmax)


# --- SoftMarginLoss -------------------------------------------------------------------------
class SoftMarginLoss(Primitive):
    """``SoftMarginLoss(reduction='mean')(x, y)``: ``log(1 + exp(-y * x))`` element-wise, reduced."""

    @prim_attr_register
    def __init__(self, reduction="mean"):
        _reduction(self.name, reduction)

    def infer_shape(self, x, y):
        _tensor(self.name, "x", x)
        _tensor(self.name, "y", y)
        shape = rules.check_same_shape(self.name, ("x", "y"), (x, y))
        return shape if self.reduction == "none" else ()

    def infer_dtype(self, x, y):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64)
        return rules.check_same_dtype(self.name, ("x", "y"), (x, y))

    def bprop(self, x, y, out, dout):
        g = _scale_loss_grad(dout, self.reduction, x)
        s = fops.sigmoid(fops.neg(fops.mul(x, y)))
        return fops.neg(fops.mul(fops.mul(g, y), s)), fops.neg(fops.mul(fops.mul(g, x), s))


# --- MultiMarginLoss ------------------------------------------------------------------------
class MultiMarginLoss(Primitive):
    """``MultiMarginLoss(p=1, margin=1.0, reduction='mean')(x, target, weight=None)``: the multi-class hinge loss
    ``sum_{i != y} weight[y] * max(0, margin - x[y] + x[i]) ** p / C`` of (N, C) ``x``, reduced."""

    @prim_attr_register
    def __init__(self, p=1, margin=1.0, reduction="mean"):
        if rules.check_int(self.name, "p", p) not in (1, 2):
            raise MSValueError(f"For '{self.name}', the 'p' must be 1 or 2, but got {p}.")
        check_number(self.name, "margin", margin)
        _reduction(self.name, reduction)

    def __call__(self, x, target, weight=None):
        return super().__call__(x, target, weight)

    def infer_shape(self, x, target, weight=None):
        op = self.name
        rules.check_rank(op, "x", x, 2)
        rules.check_rank(op, "target", target, 1)
        if target[0] != x[0]:
            raise MSValueError(f"For '{op}', the 'target' shape must be ({x[0]},), but got {tuple(target)}.")
        if weight is not None and tuple(weight) != (x[1],):
            raise MSValueError(f"For '{op}', the 'weight' shape must be ({x[1]},), but got {tuple(weight)}.")
        return (x[0],) if self.reduction == "none" else ()

    def infer_dtype(self, x, target, weight=None):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64)
        rules.check_dtype_in(self.name, "target", target, (mstype.int64,))
        if weight is not None:
            rules.check_same_dtype(self.name, ("x", "weight"), (x, weight))
        return x

    def bprop(self, x, target, weight, out, dout):
        n, c = x.shape
        g = _scale_loss_grad(dout, self.reduction, fops.zeros((n,), x.dtype))
        onehot = fops.one_hot(target, c, fops.ones((), x.dtype), fops.zeros((), x.dtype))
        x_y = fops.reduce_sum(fops.mul(x, onehot), 1, True)
        h = fops.add(fops.sub(x, x_y), self.margin)
        active = fops.mul(fops.cast(fops.greater(h, 0), x.dtype), fops.sub(1.0, onehot))
        slope = active if self.p == 1 else fops.mul(fops.mul(h, 2.0), active)
        scale = fops.expand_dims(fops.mul(g, 1.0 / c), 1)
        if weight is not None:
            scale = fops.mul(scale, fops.expand_dims(fops.gather(weight, target, 0), 1))
        gi = fops.mul(slope, scale)
        dx = fops.sub(gi, fops.mul(onehot, fops.reduce_sum(gi, 1, True)))
        dw = None if weight is None else fops.zeros_like(weight)
        return dx, fops.zeros_like(target), dw


# --- Dropout2D / Dropout3D ------------------------------------------------------------------
class _ChannelDropout(_random._RandomOp):
    _rank = 4

    def _setup(self, keep_prob):
        check_number(self.name, "keep_prob", keep_prob, lo=0, hi=1)
        self._init_stream(0)

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, self._rank)
        return tuple(x), tuple(x)

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        return x, mstype.bool_

    def bprop(self, x, out, dout):
        scale = 0.0 if self.keep_prob == 0 else 1.0 / self.keep_prob
        return (fops.mul(fops.mul(dout[0], fops.cast(out[1], dout[0].dtype)), scale),)


class Dropout2D(_ChannelDropout):
    """``Dropout2D(keep_prob=0.5)(x)`` -> ``(output, mask)``: each channel of (N, C, H, W) ``x`` kept with
    probability ``keep_prob`` (scaled by ``1 / keep_prob``) or zeroed; ``mask`` is bool, True where kept."""

    @prim_attr_register
    def __init__(self, keep_prob=0.5):
        self._setup(keep_prob)


class Dropout3D(_ChannelDropout):
    """``Dropout3D(keep_prob=0.5)(x)`` -> ``(output, mask)``: the (N, C, D, H, W) twin of Dropout2D."""

    _rank = 5

    @prim_attr_register
    def __init__(self, keep_prob=0.5):
        self._setup(keep_prob)


# --- ChannelShuffle -------------------------------------------------------------------------
class ChannelShuffle(Primitive):
    """``ChannelShuffle(group)(x)``: the channels (dimension 1) split into ``group`` groups and interleaved."""

    @prim_attr_register
    def __init__(self, group):
        rules.check_positive_int(self.name, "group", group)

    def infer_shape(self, x):
        if not rules.is_shape(x):
            raise MSTypeError(f"For '{self.name}', the input 'x' must be a Tensor, but got {type(x).__name__}.")
        if len(x) <= 2:
            raise MSValueError(f"For '{self.name}', the rank of 'x' must be greater than 2, but got {len(x)}.")
        if x[1] % self.group:
            raise MSValueError(f"For '{self.name}', the channels of 'x' must be divisible by 'group', but got "
                               f"channels {x[1]} and 'group' {self.group}.")
        return tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)

    def bprop(self, x, out, dout):
        return (self._grad_prim(ChannelShuffle, x.shape[1] // self.group)(dout),)


# --- RmsNorm --------------------------------------------------------------------------------
class RmsNorm(Primitive):
    """``RmsNorm(epsilon=1e-6)(x, gamma)`` -> ``(y, rstd)``: ``rstd = 1 / sqrt(mean(x**2) + epsilon)`` over
    ``gamma``'s trailing dimensions (kept as 1; float32, float64 for float64 ``x``) and ``y = x * rstd * gamma``."""

    @prim_attr_register
    def __init__(self, epsilon=1e-6):
        check_number(self.name, "epsilon", epsilon, lo=0, hi=1, lo_open=True)

    def infer_shape(self, x, gamma):
        _tensor(self.name, "x", x)
        _tensor(self.name, "gamma", gamma)
        k = len(gamma)
        if k == 0 or k > len(x) or tuple(x[len(x) - k:]) != tuple(gamma):
            raise MSValueError(f"For '{self.name}', the shape of 'gamma' {tuple(gamma)} must be the trailing "
                               f"dimensions of x's {tuple(x)}.")
        return tuple(x), tuple(x[:len(x) - k]) + (1,) * k

    def infer_dtype(self, x, gamma):
        rules.check_dtype_in(self.name, "x", x, (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64))
        rules.check_same_dtype(self.name, ("x", "gamma"), (x, gamma))
        return x, (mstype.float64 if x == mstype.float64 else mstype.float32)

    def bprop(self, x, gamma, out, dout):
        k = gamma.ndim
        axes = tuple(range(x.ndim - k, x.ndim))
        lead = tuple(range(x.ndim - k))
        rstd = out[1]
        xw = fops.cast(x, rstd.dtype)
        gw = fops.cast(gamma, rstd.dtype)
        dy = fops.cast(dout[0], rstd.dtype)
        xhat = fops.mul(xw, rstd)
        dgamma = fops.reduce_sum(fops.mul(dy, xhat), lead) if lead else fops.mul(dy, xhat)
        gdy = fops.mul(dy, gw)
        count = 1
        for d in gamma.shape:
            count *= d
        proj = fops.mul(fops.reduce_sum(fops.mul(gdy, xhat), axes, True), 1.0 / count)
        dx = fops.mul(rstd, fops.sub(gdy, fops.mul(xhat, proj)))
        # rstd's own gradient: d rstd / d x = -rstd^3 x / count
        drstd = fops.mul(fops.mul(dout[1], fops.mul(fops.mul(rstd, rstd), rstd)), -1.0 / count)
        dx = fops.add(dx, fops.mul(drstd, xw))
        return fops.cast(dx, x.dtype), fops.cast(dgamma, gamma.dtype)


# --- random samplers ------------------------------------------------------------------------
class TruncatedNormal(_Seeded):
    """``TruncatedNormal(dtype=float32, seed=0, seed2=0)(shape)``: N(0, 1) samples redrawn until within
    two standard deviations."""

    @prim_attr_register
    def __init__(self, dtype=mstype.float32, seed=0, seed2=0):
        if dtype not in _F16_32_64:
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be float16, float32 or float64, but got {dtype}.")
        self._seeds(seed, seed2)

    def infer_shape(self, shape):
        return _shape_value(self.name, shape)

    def infer_dtype(self, shape):
        return self.dtype


class RandomGamma(_Seeded):
    """``RandomGamma(seed=0, seed2=0)(shape, alpha)``: Gamma(alpha, 1) samples of shape ``shape + alpha.shape``."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        self._seeds(seed, seed2)

    def infer_shape(self, shape, alpha):
        return _shape_value(self.name, shape) + tuple(alpha)

    def infer_dtype(self, shape, alpha):
        return rules.check_dtype_in(self.name, "alpha", alpha, _F16_32_64)


class RandomPoisson(_Seeded):
    """``RandomPoisson(seed=0, seed2=0, dtype=int64)(shape, rate)``: Poisson(rate) samples of shape
    ``shape + rate.shape`` as ``dtype``."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0, dtype=mstype.int64):
        allowed = (mstype.int32, mstype.int64) + _F16_32_64
        if dtype not in allowed:
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be in {[str(t) for t in allowed]}, but got "
                              f"{dtype}.")
        self._seeds(seed, seed2)

    def infer_shape(self, shape, rate):
        return _shape_value(self.name, shape) + tuple(rate)

    def infer_dtype(self, shape, rate):
        rules.check_dtype_in(self.name, "rate", rate, _F16_32_64 + (mstype.int32, mstype.int64))
        return self.dtype


class Cauchy(_Seeded):
    """``Cauchy(size, median=0.0, sigma=1.0)()``: float32 samples of Cauchy(median, sigma) of shape ``size``."""

    @prim_attr_register
    def __init__(self, size, median=0.0, sigma=1.0):
        if not isinstance(size, (list, tuple)) or not size:
            raise MSTypeError(f"For '{self.name}', the 'size' must be a non-empty list of int, but got {size}.")
        if any(rules.check_int(self.name, "size", s) <= 0 for s in size):
            raise MSValueError(f"For '{self.name}', the 'size' elements must be positive, but got {size}.")
        check_number(self.name, "median", median)
        check_number(self.name, "sigma", sigma, lo=0, lo_open=True)
        self._init_stream(0)

    def infer_shape(self):
        return tuple(self.size)

    def infer_dtype(self):
        return mstype.float32


class LogNormalReverse(_Seeded):
    """``LogNormalReverse(mean=1.0, std=2.0)(input)``: samples of exp(N(mean, std)) shaped like ``input``."""

    @prim_attr_register
    def __init__(self, mean=1.0, std=2.0):
        check_number(self.name, "mean", mean)
        check_number(self.name, "std", std, lo=0, lo_open=True)
        self._init_stream(0)

    def infer_shape(self, x):
        return _tensor(self.name, "input", x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input", x, _F16_32_64)


class ParameterizedTruncatedNormal(_Seeded):
    """``ParameterizedTruncatedNormal(seed=0, seed2=0)(shape, mean, stdevs, min, max)``: per batch row ``b``,
    N(mean[b], stdevs[b]) samples truncated to ``[min[b], max[b]]``; ``shape`` is ``(batch, ...)``."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        self._seeds(seed, seed2)

    def infer_shape(self, shape, mean, stdevs, min, max):  # noqa: A002 - MindSpore's input names
        shape = _shape_value(self.name, shape)
        if not shape:
            raise MSValueError(f"For '{self.name}', the 'shape' must have at least one dimension, but got {shape}.")
        for name, s in (("mean", mean), ("stdevs", stdevs), ("min", min), ("max", max)):
            if tuple(s) not in ((), (1,), (shape[0],)):
                raise MSValueError(f"For '{self.name}', the '{name}' must be a scalar or of shape ({shape[0]},), "
                                   f"but got {tuple(s)}.")
        return shape

    def infer_dtype(self, shape, mean, stdevs, min, max):  # noqa: A002
        names = ("mean", "stdevs", "min", "max")
        for name, d in zip(names, (mean, stdevs, min, max)):
            rules.check_dtype_in(self.name, name, d, _F16_32_64)
        return rules.check_same_dtype(self.name, names, (mean, stdevs, min, max))


class NonDeterministicInts(_Seeded):
    """``NonDeterministicInts(dtype=int64)(shape)``: integers drawn uniformly over the whole range of ``dtype``."""

    @prim_attr_register
    def __init__(self, dtype=mstype.int64):
        if dtype not in (mstype.int32, mstype.int64, mstype.uint32, mstype.uint64):
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be int32, int64, uint32 or uint64, but got "
                              f"{dtype}.")
        self._init_stream(0)

    def infer_shape(self, shape):
        return _shape_value(self.name, shape)

    def infer_dtype(self, shape):
        return self.dtype


# --- DynamicRNN / BasicLSTMCell -------------------------------------------------------------
def _check_lstm(op, x, w, b, h, c, steps_axis=True):
    """Shapes of an LSTM step: x (T, B, I) (or (B, I)), w (I + H, 4H), b (4H,), h and c (1, B, H) (or (B, H))."""
    rules.check_rank(op, "x", x, 3 if steps_axis else 2)
    rules.check_rank(op, "w", w, 2)
    rules.check_rank(op, "b", b, 1)
    hidden = w[1] // 4
    if w[1] % 4 or w[0] != x[-1] + hidden or tuple(b) != (w[1],):
        raise MSValueError(f"For '{op}', the 'w' must be (input_size + hidden_size, 4 * hidden_size) and 'b' "
                           f"(4 * hidden_size,), but got x {tuple(x)}, w {tuple(w)} and b {tuple(b)}.")
    state = (1, x[1], hidden) if steps_axis else (x[0], hidden)
    for name, s in (("init_h" if steps_axis else "h", h), ("init_c" if steps_axis else "c", c)):
        if tuple(s) != state:
            raise MSValueError(f"For '{op}', the '{name}' shape must be {state}, but got {tuple(s)}.")
    return hidden


class DynamicRNN(Primitive):
    """``DynamicRNN(cell_type='LSTM', direction='UNIDIRECTIONAL', cell_depth=1, use_peephole=False, keep_prob=1.0,
    cell_clip=-1.0, num_proj=0, time_major=True, activation='tanh', forget_bias=0.0, is_training=True)(x, w, b,
    seq_length, init_h, init_c)`` -> ``(y, output_h, output_c, i, j, f, o, tanhct)``: an LSTM over the (T, B, I)
    steps of ``x``, gates ``[i, j, f, o] = [x_t, h_{t-1}] @ w + b`` (``f`` plus ``forget_bias``), ``c_t = sigmoid(f)
    c_{t-1} + sigmoid(i) tanh(j)`` (clipped to ``cell_clip`` when positive), ``h_t = sigmoid(o) tanh(c_t)``; every
    output is per step (T, B, H). As on MindSpore 2.10's devices, only the LSTM cell, one direction, time-major
    input, ``tanh``, no peepholes, no projection, ``keep_prob`` 1 and ``seq_length`` None are offered."""

    @prim_attr_register
    def __init__(self, cell_type="LSTM", direction="UNIDIRECTIONAL", cell_depth=1, use_peephole=False,
                 keep_prob=1.0, cell_clip=-1.0, num_proj=0, time_major=True, activation="tanh", forget_bias=0.0,
                 is_training=True):
        op = self.name
        check_str(op, "cell_type", cell_type, ("LSTM",))
        check_str(op, "direction", direction, ("UNIDIRECTIONAL",))
        check_str(op, "activation", activation, ("tanh",))
        rules.check_positive_int(op, "cell_depth", cell_depth)
        for name, v in (("use_peephole", use_peephole), ("time_major", time_major), ("is_training", is_training)):
            rules.check_bool(op, name, v)
        if use_peephole or not time_major:
            raise MSValueError(f"For '{op}', only 'use_peephole' False and 'time_major' True are supported, but got "
                               f"{use_peephole} and {time_major}.")
        check_number(op, "keep_prob", keep_prob, lo=1.0, hi=1.0)
        check_number(op, "cell_clip", cell_clip)
        if rules.check_int(op, "num_proj", num_proj) != 0:
            raise MSValueError(f"For '{op}', the 'num_proj' must be 0, but got {num_proj}.")
        check_number(op, "forget_bias", forget_bias)

    def __call__(self, x, w, b, seq_length=None, init_h=None, init_c=None):
        if seq_length is not None:
            raise MSValueError(f"For '{self.name}', the 'seq_length' must be None, but got a value.")
        return super().__call__(x, w, b, init_h, init_c)

    def infer_shape(self, x, w, b, init_h, init_c):
        hidden = _check_lstm(self.name, x, w, b, init_h, init_c)
        return ((x[0], x[1], hidden),) * 8

    def infer_dtype(self, x, w, b, init_h, init_c):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64)
        d = rules.check_same_dtype(self.name, ("x", "w", "b", "init_h", "init_c"), (x, w, b, init_h, init_c))
        return (d,) * 8

    def bprop(self, x, w, b, init_h, init_c, out, dout):
        op = self._grad_prim(LSTMSequenceGrad, self.forget_bias, self.cell_clip)
        return op(x, w, b, init_h, init_c, out[1], out[2], out[3], out[4], out[5], out[6], out[7],
                  dout[0], dout[1], dout[2], dout[3], dout[4], dout[5], dout[6], dout[7])


class BasicLSTMCell(Primitive):
    """``BasicLSTMCell(keep_prob=1.0, forget_bias=1.0, state_is_tuple=True, activation='tanh')(x, h, c, w, b)`` ->
    ``(ct, ht, it, jt, ft, ot, tanhct)``: one step of :class:`DynamicRNN`'s LSTM on (B, I) ``x`` and (B, H) states
    (the gate outputs are after their sigmoid / tanh). ``keep_prob`` must be 1."""

    @prim_attr_register
    def __init__(self, keep_prob=1.0, forget_bias=1.0, state_is_tuple=True, activation="tanh"):
        check_number(self.name, "keep_prob", keep_prob, lo=1.0, hi=1.0)
        check_number(self.name, "forget_bias", forget_bias)
        rules.check_bool(self.name, "state_is_tuple", state_is_tuple)
        check_str(self.name, "activation", activation, ("tanh",))

    def infer_shape(self, x, h, c, w, b):
        hidden = _check_lstm(self.name, x, w, b, h, c, steps_axis=False)
        return ((x[0], hidden),) * 7

    def infer_dtype(self, x, h, c, w, b):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64)
        d = rules.check_same_dtype(self.name, ("x", "h", "c", "w", "b"), (x, h, c, w, b))
        return (d,) * 7

    def bprop(self, x, h, c, w, b, out, dout):
        steps = [fops.expand_dims(t, 0) for t in (x, h, c) + tuple(out) + tuple(dout)]   # one time step
        x1, h1, c1, ct, ht, it, jt, ft, ot, tanhct, dct, dht, dit, djt, dft, dot, dtanh = steps
        dx, dw, db, dh, dc = self._grad_prim(LSTMSequenceGrad, self.forget_bias, -1.0)(
            x1, w, b, h1, c1, ht, ct, it, jt, ft, ot, tanhct, fops.zeros_like(ht), dht, dct, dit, djt, dft, dot, dtanh)
        return fops.squeeze(dx, 0), fops.squeeze(dh, 0), fops.squeeze(dc, 0), dw, db


class LSTMSequenceGrad(Primitive):
    """``LSTMSequenceGrad(forget_bias, cell_clip)(x, w, b, h0, c0, h, c, i, j, f, o, tanhc, dy, dh, dc, di, dj, df,
    do, dtanhc)`` -> ``(dx, dw, db, dh0, dc0)``: back-propagation through time of :class:`DynamicRNN` (and of
    :class:`BasicLSTMCell` as one step) from the cotangents of all eight per-step outputs."""

    @prim_attr_register
    def __init__(self, forget_bias=0.0, cell_clip=-1.0):
        check_number(self.name, "forget_bias", forget_bias)
        check_number(self.name, "cell_clip", cell_clip)

    def infer_shape(self, x, w, b, h0, c0, *steps):
        _check_lstm(self.name, x, w, b, h0, c0)
        rules.check_same_shape(self.name, ("h",) * len(steps), steps)
        return tuple(x), tuple(w), tuple(b), tuple(h0), tuple(c0)

    def infer_dtype(self, x, w, b, h0, c0, *steps):
        d = rules.check_same_dtype(self.name, ("x", "w", "b", "h0", "c0"), (x, w, b, h0, c0))
        return (d,) * 5

    bprop = NON_DIFFERENTIABLE


# --- DynamicGRUV2 ---------------------------------------------------------------------------
class DynamicGRUV2(Primitive):
    """``DynamicGRUV2(direction='UNIDIRECTIONAL', cell_depth=1, keep_prob=1.0, cell_clip=-1.0, num_proj=0,
    time_major=True, activation='tanh', gate_order='rzh', reset_after=True, is_training=True)(x, weight_input,
    weight_hidden, bias_input, bias_hidden, seq_length, init_h)`` -> ``(y, output_h, update, reset, new,
    hidden_new)``: a GRU over the (T, B, I) steps of ``x``: ``r, z = sigmoid(x W_i + b_i + h W_h + b_h)`` (their
    columns in ``gate_order``), ``hidden_new = h W_hn + b_hn`` (of ``r * h`` unless ``reset_after``), ``new =
    tanh(x W_in + b_in + r * hidden_new)`` (``+ hidden_new`` unless ``reset_after``), ``h' = (1 - z) new + z h``.
    A bias of None is zero. Only one direction, time-major input, ``tanh``, no projection, ``keep_prob`` 1,
    ``cell_clip`` -1 and ``seq_length`` None are offered, as on MindSpore 2.10's devices."""

    @prim_attr_register
    def __init__(self, direction="UNIDIRECTIONAL", cell_depth=1, keep_prob=1.0, cell_clip=-1.0, num_proj=0,
                 time_major=True, activation="tanh", gate_order="rzh", reset_after=True, is_training=True):
        op = self.name
        check_str(op, "direction", direction, ("UNIDIRECTIONAL",))
        check_str(op, "activation", activation, ("tanh",))
        check_str(op, "gate_order", gate_order, ("rzh", "zrh"))
        rules.check_positive_int(op, "cell_depth", cell_depth)
        check_number(op, "keep_prob", keep_prob, lo=1.0, hi=1.0)
        check_number(op, "cell_clip", cell_clip, lo=-1.0, hi=-1.0)
        if rules.check_int(op, "num_proj", num_proj) != 0:
            raise MSValueError(f"For '{op}', the 'num_proj' must be 0, but got {num_proj}.")
        for name, v in (("time_major", time_major), ("reset_after", reset_after), ("is_training", is_training)):
            rules.check_bool(op, name, v)
        if not time_major:
            raise MSValueError(f"For '{op}', only 'time_major' True is supported.")

    def __call__(self, x, weight_input, weight_hidden, bias_input=None, bias_hidden=None, seq_length=None,
                 init_h=None):
        if seq_length is not None:
            raise MSValueError(f"For '{self.name}', the 'seq_length' must be None, but got a value.")
        if init_h is None:
            raise MSValueError(f"For '{self.name}', the 'init_h' must be a Tensor, but got None.")
        gates = (3 * init_h.shape[-1],)
        bias_input = fops.zeros(gates, init_h.dtype) if bias_input is None else bias_input
        bias_hidden = fops.zeros(gates, init_h.dtype) if bias_hidden is None else bias_hidden
        return super().__call__(x, weight_input, weight_hidden, bias_input, bias_hidden, init_h)

    def infer_shape(self, x, wi, wh, bi, bh, init_h):
        op = self.name
        rules.check_rank(op, "x", x, 3)
        rules.check_rank(op, "init_h", init_h, 2)
        hidden = init_h[1]
        if tuple(init_h) != (x[1], hidden) or tuple(wi) != (x[2], 3 * hidden) or tuple(wh) != (hidden, 3 * hidden) \
                or tuple(bi) != (3 * hidden,) or tuple(bh) != (3 * hidden,):
            raise MSValueError(f"For '{op}', the shapes must be x (T, B, I), weight_input (I, 3H), weight_hidden "
                               f"(H, 3H), biases (3H,) and init_h (B, H), but got {tuple(x)}, {tuple(wi)}, "
                               f"{tuple(wh)}, {tuple(bi)}, {tuple(bh)} and {tuple(init_h)}.")
        return ((x[0], x[1], hidden),) * 6

    def infer_dtype(self, x, wi, wh, bi, bh, init_h):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64)
        d = rules.check_same_dtype(self.name, ("x", "weight_input", "weight_hidden", "bias_input", "bias_hidden",
                                               "init_h"), (x, wi, wh, bi, bh, init_h))
        return (d,) * 6

    def bprop(self, x, wi, wh, bi, bh, init_h, out, dout):
        op = self._grad_prim(GRUSequenceGrad, self.gate_order, self.reset_after)
        return op(x, wi, wh, bi, bh, init_h, out[1], out[2], out[3], out[4], out[5],
                  dout[0], dout[1], dout[2], dout[3], dout[4], dout[5])


class GRUSequenceGrad(Primitive):
    """``GRUSequenceGrad(gate_order, reset_after)(x, wi, wh, bi, bh, h0, h, update, reset, new, hidden_new, dy, dh,
    dupdate, dreset, dnew, dhidden_new)`` -> ``(dx, dwi, dwh, dbi, dbh, dh0)``: back-propagation through time of
    :class:`DynamicGRUV2` from the cotangents of all six per-step outputs."""

    @prim_attr_register
    def __init__(self, gate_order="rzh", reset_after=True):
        check_str(self.name, "gate_order", gate_order, ("rzh", "zrh"))
        rules.check_bool(self.name, "reset_after", reset_after)

    def infer_shape(self, x, wi, wh, bi, bh, h0, *steps):
        rules.check_same_shape(self.name, ("step",) * len(steps), steps)
        return tuple(x), tuple(wi), tuple(wh), tuple(bi), tuple(bh), tuple(h0)

    def infer_dtype(self, x, wi, wh, bi, bh, h0, *steps):
        return (rules.check_same_dtype(self.name, ("x", "wi", "wh", "bi", "bh", "h0"), (x, wi, wh, bi, bh, h0)),) * 6

    bprop = NON_DIFFERENTIABLE


# --- LSTM -----------------------------------------------------------------------------------
class LSTM(Primitive):
    """``LSTM(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0)(x, h, c, w)`` ->
    ``(output, h_n, c_n, reserve, state)``: a stacked (optionally bidirectional) LSTM over the (T, B, I) steps of
    ``x`` from the states ``h``, ``c`` (num_layers * D, B, H), gates ``i, f, g, o`` (PyTorch's order). ``w`` holds
    every ``W_ih`` (4H, in) of every layer and direction, then every ``W_hh`` (4H, H), then (``has_bias``) every
    bias (4H,), layer-major, direction-minor: MindSpore 2.10's CPU layout; elements of ``w`` past those are
    ignored, as there (its docstring's example passes a second set of biases). ``output`` is (T, B, D * H). As on
    2.10's CPU, ``dropout`` is not applied and ``proj_size`` must be 0; ``reserve`` and ``state`` (MindSpore's
    device workspaces) are empty here: the backward pass recomputes what it needs."""

    @prim_attr_register
    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0):
        op = self.name
        for name, v in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers)):
            rules.check_positive_int(op, name, v)
        rules.check_bool(op, "has_bias", has_bias)
        rules.check_bool(op, "bidirectional", bidirectional)
        check_number(op, "dropout", dropout, lo=0, hi=1)
        if rules.check_int(op, "proj_size", proj_size) != 0:
            raise MSValueError(f"For '{op}', the 'proj_size' must be 0 on this backend, but got {proj_size}.")
        self.num_directions = 2 if bidirectional else 1

    def weight_size(self):
        """The number of elements ``w`` must have."""
        d, h = self.num_directions, self.hidden_size
        total = 0
        for layer in range(self.num_layers):
            width = self.input_size if layer == 0 else h * d
            total += d * (4 * h * (width + h) + (4 * h if self.has_bias else 0))
        return total

    def infer_shape(self, x, h, c, w):
        op = self.name
        rules.check_rank(op, "x", x, 3)
        if x[2] != self.input_size:
            raise MSValueError(f"For '{op}', the 'x' shape[2] must be 'input_size' {self.input_size}, but got {x[2]}.")
        state = (self.num_layers * self.num_directions, x[1], self.hidden_size)
        for name, s in (("h", h), ("c", c)):
            if tuple(s) != state:
                raise MSValueError(f"For '{op}', the '{name}' shape must be {state}, but got {tuple(s)}.")
        count = 1
        for d in w:
            count *= d
        if count < self.weight_size():   # 2.10's CPU kernel reads what it needs and ignores the rest
            raise MSValueError(f"For '{op}', the 'w' must have at least {self.weight_size()} elements, but got "
                               f"{count}.")
        return (x[0], x[1], self.num_directions * self.hidden_size), state, state, (0, 1), (0, 1)

    def infer_dtype(self, x, h, c, w):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64)
        d = rules.check_same_dtype(self.name, ("x", "h", "c", "w"), (x, h, c, w))
        return d, d, d, d, d

    def bprop(self, x, h, c, w, out, dout):
        grad = LSTMGrad(self.input_size, self.hidden_size, self.num_layers, self.has_bias, self.bidirectional,
                        self.dropout)
        return grad(x, h, c, w, dout[0], dout[1], dout[2])


class LSTMGrad(LSTM):
    """``LSTMGrad(...)(x, h, c, w, dy, dh_n, dc_n)`` -> ``(dx, dh, dc, dw)``: back-propagation through time and
    layers of :class:`LSTM` (the forward pass recomputed)."""

    @prim_attr_register
    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0):
        super().__init__(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size)

    def infer_shape(self, x, h, c, w, dy, dh_n, dc_n):
        outs = LSTM.infer_shape(self, x, h, c, w)
        rules.check_same_shape(self.name, ("dy", "output"), (dy, outs[0]))
        rules.check_same_shape(self.name, ("dh_n", "dc_n", "h"), (dh_n, dc_n, h))
        return tuple(x), tuple(h), tuple(c), tuple(w)

    def infer_dtype(self, x, h, c, w, dy, dh_n, dc_n):
        d = rules.check_same_dtype(self.name, ("x", "h", "c", "w", "dy", "dh_n", "dc_n"), (x, h, c, w, dy, dh_n, dc_n))
        return d, d, d, d

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [Conv3DTranspose, LRN, LRNGrad, MaxUnpool2D, MaxUnpool3D, AdaptiveAvgPool3D, AdaptiveAvgPool3DGrad,
              AdaptiveMaxPool3D, AdaptiveMaxPool3DGrad, SoftMarginLoss, MultiMarginLoss, Dropout2D, Dropout3D,
              ChannelShuffle, RmsNorm, TruncatedNormal, RandomGamma, RandomPoisson, Cauchy, LogNormalReverse,
              ParameterizedTruncatedNormal, NonDeterministicInts, DynamicRNN, BasicLSTMCell,
              LSTMSequenceGrad, DynamicGRUV2, GRUSequenceGrad, LSTM, LSTMGrad] + nn_prims_ext.PRIMITIVES
