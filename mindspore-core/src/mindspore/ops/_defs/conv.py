"""Convolution primitives (2-D and 3-D), their gradient primitives, and (from :mod:`.pooling`) pooling.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop``.
Kernels live in the backends' ``kernels/conv.py``.

Layouts follow MindSpore: ``x`` is (N, C, [D,] H, W), the weight (C_out, C_in / group, [kd,] kh, kw),
and convolution is cross-correlation. The three primitives of one rank are closed under
differentiation, so gradients of any order stay inside the family::

    y   = Conv(x, w)                    dx = BackpropInput(dy, w)      dw = BackpropFilter(dy, x)
    BackpropInput(d, w):   d(d) = Conv(g, w),   d(w) = BackpropFilter(d, g)
    BackpropFilter(d, x):  d(d) = Conv(x, g),   d(x) = BackpropInput(d, g)

(all three are linear in each tensor argument). Attributes are normalised as MindSpore does:
``kernel_size`` an n-tuple, ``stride``/``dilation`` (n+2)-tuples with two leading 1s, ``pad`` a 2n-tuple
(before, after per axis). :meth:`_Conv.window_for` gives kernels the output size and padding.
"""
from mindspore._errors import MSTypeError, MSValueError, MSValueRuntimeError
from mindspore.ops._defs import _conv_geometry as geo
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs import pooling as _pooling
from mindspore._core.primitive import Primitive, prim_attr_register


class _Conv(Primitive):
    """Attribute normalisation, operand checks and window geometry shared by the convolutions."""

    _nd = 2
    _format = "NCHW"

    def _setup(self, out_channel, kernel_size, pad_mode, pad, stride, dilation, group, data_format, pad_list=None):
        op, n = self.name, self._nd
        out_channel = rules.check_positive_int(op, "out_channel", out_channel)
        kernel = geo.int_tuple(op, "kernel_size", kernel_size, n, lead=False)
        stride = geo.int_tuple(op, "stride", stride, n)
        dilation = geo.int_tuple(op, "dilation", dilation, n)
        mode = geo.check_pad_mode(op, pad_mode)
        pad = geo.pad_tuple(op, "pad", pad, n)
        if mode != "pad" and any(pad):
            raise MSValueError(f"For '{op}', the 'pad' must be zero when 'pad_mode' is not 'pad', but got 'pad': "
                               f"{pad} and 'pad_mode': '{pad_mode}'.")
        group = rules.check_positive_int(op, "group", group)
        if out_channel % group:
            raise MSValueError(f"For '{op}', the 'out_channel' must be divisible by 'group', but got 'out_channel': "
                               f"{out_channel} and 'group': {group}.")
        geo.check_data_format(op, data_format, self._format)
        if pad_list is not None and any(geo.pad_tuple(op, "pad_list", pad_list, n)):
            mode, pad = "pad", geo.pad_tuple(op, "pad_list", pad_list, n)
        self.add_prim_attrs(out_channel=out_channel, kernel_size=kernel, stride=(1, 1) + stride,
                            dilation=(1, 1) + dilation, pad=pad, pad_mode=mode, group=group, groups=group,
                            data_format=data_format)
        self._geometry = (kernel, stride, dilation, mode, pad)

    def _config(self):
        """The normalised attributes, in the argument order every convolution constructor shares."""
        return dict(out_channel=self.out_channel, kernel_size=self.kernel_size, pad_mode=self.pad_mode,
                    pad=self.pad, stride=self.stride, dilation=self.dilation, group=self.group,
                    data_format=self.data_format)

    def window_for(self, x_shape):
        """The :class:`~._conv_geometry.Window` (output size, padding) for an input of shape ``x_shape``."""
        kernel, stride, dilation, mode, pad = self._geometry
        return geo.window(self.name, tuple(x_shape[2:]), kernel, stride, dilation, mode, pad)

    def geometry_for(self, x_shape):
        """``(kernel, stride, dilation, window)`` for an input of shape ``x_shape`` (what a kernel needs); see
        :func:`~mindspore.ops._defs._conv_geometry.kernel_strides` for the strides."""
        return geo.cached_geometry(self.name, self._geometry, tuple(x_shape[2:]), lambda: self._geometry_of(x_shape))

    def _geometry_of(self, x_shape):
        kernel, stride, dilation, _, _ = self._geometry
        win = self.window_for(x_shape)
        return kernel, geo.kernel_strides(stride, win.out), dilation, win

    def _check_operands(self, x, w, x_name="x", w_name="weight"):
        """Ranks, channel counts and kernel size of input shape ``x`` and weight shape ``w``."""
        op, rank = self.name, self._nd + 2
        rules.check_rank(op, x_name, x, rank)
        rules.check_rank(op, w_name, w, rank)
        if w[0] != self.out_channel:
            raise MSValueError(f"For '{op}', the 'out_channel' must be equal to 'C_out' of input '{w_name}' shape: "
                               f"{w[0]}, but got 'out_channel': {self.out_channel}.")
        if tuple(w[2:]) != self.kernel_size:
            raise MSValueError(f"For '{op}', the 'kernel_size' must be equal to the spatial shape of input "
                               f"'{w_name}': {tuple(w[2:])}, but got 'kernel_size': {self.kernel_size}.")
        if x[1] != w[1] * self.group:  # a RuntimeError too, as MindSpore 2.10 raises it
            raise MSValueRuntimeError(f"For '{op}', 'C_in' of input '{x_name}' shape divide by parameter 'group' "
                                      f"must be equal to 'C_in' of input '{w_name}' shape: {w[1]}, but got 'C_in' of "
                                      f"input '{x_name}' shape: {x[1]}, and 'group': {self.group}.")
        return self.window_for(x)

    def _check_dout(self, dout, x, win, name="dout"):
        rules.check_rank(self.name, name, dout, self._nd + 2)
        want = (x[0], self.out_channel) + win.out
        if tuple(dout) != want:
            raise MSValueError(f"For '{self.name}', the shape of '{name}' must be {want} (the convolution output for "
                               f"input shape {tuple(x)}), but got {tuple(dout)}.")

    def _size_arg(self, name, value):
        if not isinstance(value, (tuple, list)):
            raise MSTypeError(f"For '{self.name}', the '{name}' must be a tuple of int, but got "
                              f"{type(value).__name__}.")
        size = rules.check_int_tuple(self.name, name, value, self._nd + 2)
        if any(s < 0 for s in size):
            raise MSValueError(f"For '{self.name}', the '{name}' must not be negative, but got {size}.")
        return size


def _float_pair(op, a, b, names):
    rules.check_float(op, names[0], a)
    rules.check_float(op, names[1], b)
    return rules.check_same_dtype(op, names, (a, b))


# --- Conv2D ---------------------------------------------------------------------------------
class Conv2D(_Conv):
    """``Conv2D(out_channel, kernel_size, ...)(x, weight)``: 2-D convolution of (N, C, H, W) input."""

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1, group=1,
                 data_format="NCHW"):
        self._setup(out_channel, kernel_size, pad_mode, pad, stride, dilation, group, data_format)
        self.init_prim_io_names(inputs=["x", "w"], outputs=["output"])

    def infer_shape(self, x, w):
        win = self._check_operands(x, w)
        return (x[0], self.out_channel) + win.out

    def infer_dtype(self, x, w):
        return _float_pair(self.name, x, w, ("x", "w"))

    def bprop(self, x, w, out, dout):
        need_x, need_w = self._grads_needed(2)
        dx = self._grad_prim(Conv2DBackpropInput, **self._config())(dout, w, x.shape) if need_x else None
        dw = self._grad_prim(Conv2DBackpropFilter, **self._config())(dout, x, w.shape) if need_w else None
        return dx, dw


# --- Conv2DBackpropInput --------------------------------------------------------------------
class Conv2DBackpropInput(_Conv):
    """``Conv2DBackpropInput(...)(dout, weight, input_size)``: the gradient of Conv2D w.r.t. its input."""

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=None, mode=1, stride=1,
                 dilation=1, group=1, data_format="NCHW"):
        self._setup(out_channel, kernel_size, pad_mode, pad, stride, dilation, group, data_format, pad_list)
        self.init_prim_io_names(inputs=["out_backprop", "filter", "input_sizes"], outputs=["output"])

    def infer_shape(self, dout, w, input_size):
        x = self._size_arg("input_size", input_size)
        win = self._check_operands(x, w, "input_size")
        self._check_dout(dout, x, win)
        return x

    def infer_dtype(self, dout, w, input_size):
        return _float_pair(self.name, dout, w, ("dout", "weight"))

    def bprop(self, dout, w, input_size, out, dout2):
        d_dout = self._grad_prim(Conv2D, **self._config())(dout2, w)
        d_w = self._grad_prim(Conv2DBackpropFilter, **self._config())(dout, dout2, w.shape)
        return d_dout, d_w, None


# --- Conv2DTranspose ------------------------------------------------------------------------
class Conv2DTranspose(Conv2DBackpropInput):
    """``Conv2DTranspose(...)(dout, weight, input_size)``: transposed convolution (= Conv2DBackpropInput)."""

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=None, mode=1, stride=1,
                 dilation=1, group=1, data_format="NCHW"):
        self._setup(out_channel, kernel_size, pad_mode, pad, stride, dilation, group, data_format, pad_list)
        self.init_prim_io_names(inputs=["out_backprop", "filter", "input_sizes"], outputs=["output"])


# --- Conv2DBackpropFilter -------------------------------------------------------------------
class Conv2DBackpropFilter(_Conv):
    """``Conv2DBackpropFilter(...)(dout, x, filter_size)``: the gradient of Conv2D w.r.t. its weight."""

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=(0, 0, 0, 0), mode=1,
                 stride=(1, 1), dilation=(1, 1, 1, 1), group=1, data_format="NCHW"):
        self._setup(out_channel, kernel_size, pad_mode, pad, stride, dilation, group, data_format, pad_list)
        self.init_prim_io_names(inputs=["out_backprop", "input", "filter_sizes"], outputs=["output"])

    def infer_shape(self, dout, x, filter_size):
        w = self._size_arg("filter_size", filter_size)
        win = self._check_operands(x, w, "x", "filter_size")
        self._check_dout(dout, x, win)
        return w

    def infer_dtype(self, dout, x, filter_size):
        return _float_pair(self.name, dout, x, ("dout", "x"))

    def bprop(self, dout, x, filter_size, out, dout2):
        d_dout = self._grad_prim(Conv2D, **self._config())(x, dout2)
        d_x = self._grad_prim(Conv2DBackpropInput, **self._config())(dout, dout2, x.shape)
        return d_dout, d_x, None


# --- Conv3D ---------------------------------------------------------------------------------
class Conv3D(_Conv):
    """``Conv3D(out_channel, kernel_size, ...)(x, weight)``: 3-D convolution of (N, C, D, H, W) input."""

    _nd = 3
    _format = "NCDHW"

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1, group=1,
                 data_format="NCDHW"):
        self._setup(out_channel, kernel_size, pad_mode, pad, stride, dilation, group, data_format)
        self.init_prim_io_names(inputs=["x", "w"], outputs=["output"])

    def infer_shape(self, x, w):
        win = self._check_operands(x, w)
        return (x[0], self.out_channel) + win.out

    def infer_dtype(self, x, w):
        return _float_pair(self.name, x, w, ("x", "w"))

    def bprop(self, x, w, out, dout):
        need_x, need_w = self._grads_needed(2)
        dx = self._grad_prim(Conv3DBackpropInput, **self._config())(w, dout, x.shape) if need_x else None
        dw = self._grad_prim(Conv3DBackpropFilter, **self._config())(x, dout, w.shape) if need_w else None
        return dx, dw


# --- Conv3DBackpropInput --------------------------------------------------------------------
class Conv3DBackpropInput(_Conv):
    """``Conv3DBackpropInput(...)(weight, dout, input_size)``: the gradient of Conv3D w.r.t. its input."""

    _nd = 3
    _format = "NCDHW"

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1, group=1,
                 data_format="NCDHW"):
        self._setup(out_channel, kernel_size, pad_mode, pad, stride, dilation, group, data_format)
        self.init_prim_io_names(inputs=["filter", "out_backprop", "input_size"], outputs=["y"])

    def infer_shape(self, w, dout, input_size):
        x = self._size_arg("input_size", input_size)
        win = self._check_operands(x, w, "input_size")
        self._check_dout(dout, x, win)
        return x

    def infer_dtype(self, w, dout, input_size):
        return _float_pair(self.name, w, dout, ("weight", "dout"))

    def bprop(self, w, dout, input_size, out, dout2):
        d_w = self._grad_prim(Conv3DBackpropFilter, **self._config())(dout2, dout, w.shape)
        d_dout = self._grad_prim(Conv3D, **self._config())(dout2, w)
        return d_w, d_dout, None


# --- Conv3DBackpropFilter -------------------------------------------------------------------
class Conv3DBackpropFilter(_Conv):
    """``Conv3DBackpropFilter(...)(x, dout, w_size)``: the gradient of Conv3D w.r.t. its weight."""

    _nd = 3
    _format = "NCDHW"

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=(1, 1, 1, 1, 1),
                 dilation=(1, 1, 1, 1, 1), group=1, data_format="NCDHW"):
        self._setup(out_channel, kernel_size, pad_mode, pad, stride, dilation, group, data_format)
        self.init_prim_io_names(inputs=["x", "out_backprop", "filter_size"], outputs=["y"])

    def infer_shape(self, x, dout, w_size):
        w = self._size_arg("w_size", w_size)
        win = self._check_operands(x, w, "x", "w_size")
        self._check_dout(dout, x, win)
        return w

    def infer_dtype(self, x, dout, w_size):
        return _float_pair(self.name, x, dout, ("x", "dout"))

    def bprop(self, x, dout, w_size, out, dout2):
        d_x = self._grad_prim(Conv3DBackpropInput, **self._config())(dout2, dout, x.shape)
        d_dout = self._grad_prim(Conv3D, **self._config())(x, dout2)
        return d_x, d_dout, None


CONV_PRIMITIVES = [Conv2D, Conv2DBackpropInput, Conv2DTranspose, Conv2DBackpropFilter, Conv3D, Conv3DBackpropInput,
                   Conv3DBackpropFilter]

#: The family's registry: the convolutions above plus the pooling primitives of :mod:`.pooling`.
PRIMITIVES = CONV_PRIMITIVES + _pooling.PRIMITIVES
