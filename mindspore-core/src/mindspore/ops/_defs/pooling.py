"""Pooling primitives (part of the conv family: :mod:`.conv` lists them in its ``PRIMITIVES``).

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop``.
Kernels live in the backends' ``kernels/pooling.py``.

Gradients stay inside the family and are closed under differentiation:

* max pooling: ``MaxPool -> MaxPoolGrad <-> MaxPoolGradGrad`` (and the 3-D twins) recompute the
  argmax from ``x``; the argmax-returning forms (``MaxPoolWithArgmax``, ``MaxPoolWithArgmaxV2``,
  ``MaxPool3DWithArgmax``, ``AdaptiveMaxPool2D``) scatter by their argmax, and
  ``MaxPoolGradGradWithArgmax`` (a gather) and ``MaxPoolGradWithArgmax`` (a scatter) are each
  other's transpose. Max pooling is piecewise linear, so the gradient with respect to ``x`` of a
  gradient primitive is zero.
* average pooling: ``AvgPool <-> AvgPoolGrad``, ``AvgPool3D <-> AvgPool3DGrad``,
  ``AdaptiveAvgPool2D <-> AdaptiveAvgPool2DGrad`` are linear maps and each other's transpose.

Argmax values are flat indices into the input plane (``H * W``, or ``D * H * W`` in 3-D).
Padding windows are summarised by :func:`~._conv_geometry.window`; kernels call
:meth:`_Pool.window_for`.
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _conv_geometry as geo
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import Primitive, prim_attr_register


class _Pool(Primitive):
    """Attribute normalisation and window geometry shared by the pooling primitives."""

    _nd = 2

    def _setup(self, kernel_size, strides, pad_mode, modes, pads=0, dilation=1, ceil_mode=False, per_axis=False,
               lead=True):
        op, n = self.name, self._nd
        kernel = geo.int_tuple(op, "kernel_size", kernel_size, n)
        stride = kernel if strides is None else geo.int_tuple(op, "strides", strides, n)
        dil = geo.int_tuple(op, "dilation", dilation, n)
        mode = geo.check_pad_mode(op, pad_mode, modes)
        pads = geo.pad_tuple(op, "pads", pads, n, allow_per_axis=per_axis)
        if mode != "pad" and any(pads):
            raise MSValueError(f"For '{op}', the 'pad' must be zero when 'pad_mode' is not 'pad', but got {pads}.")
        if ceil_mode is not None:
            rules.check_bool(op, "ceil_mode", ceil_mode)
        self._geometry = (kernel, stride, dil, mode, pads, bool(ceil_mode) and mode == "pad")
        if lead:
            return (1, 1) + kernel, (1, 1) + stride
        return kernel, stride

    def window_for(self, x_shape):
        """The :class:`~._conv_geometry.Window` (output size, padding) for an input of shape ``x_shape``."""
        kernel, stride, dil, mode, pads, ceil_mode = self._geometry
        return geo.window(self.name, tuple(x_shape[-self._nd:]), kernel, stride, dil, mode, pads, ceil_mode)

    def geometry_for(self, x_shape):
        """``(kernel, stride, dilation, window)`` for an input of shape ``x_shape`` (what a kernel needs); see
        :func:`~mindspore.ops._defs._conv_geometry.kernel_strides` for the strides."""
        return geo.cached_geometry(self.name, self._geometry, tuple(x_shape[-self._nd:]),
                                   lambda: self._geometry_of(x_shape))

    def _geometry_of(self, x_shape):
        kernel, stride, dil, _, _, _ = self._geometry
        win = self.window_for(x_shape)
        return kernel, geo.kernel_strides(stride, win.out), dil, win

    def _pooled_shape(self, x, ranks=None):
        rules.check_rank(self.name, "x", x, ranks or self._nd + 2)
        return tuple(x[:-self._nd]) + self.window_for(x).out


def _check_float(op, *named):
    for name, d in named:
        rules.check_float(op, name, d)
    return rules.check_same_dtype(op, [n for n, _ in named], [d for _, d in named])


def _check_grad_shapes(op, x, out, dout, rank, window=None):
    """x / out / dout of a recomputing pooling gradient: same rank, same planes, dout shaped like out."""
    for name, s in (("x", x), ("out", out), ("dout", dout)):
        rules.check_rank(op, name, s, rank)
    if tuple(out) != tuple(dout):
        raise MSValueError(f"For '{op}', the shape of 'dout' must equal the shape of 'out' {tuple(out)}, but got "
                           f"{tuple(dout)}.")
    if tuple(x[:2]) != tuple(out[:2]) or (window is not None and tuple(out[2:]) != window.out):
        want = tuple(x[:2]) + (window.out if window is not None else tuple(out[2:]))
        raise MSValueError(f"For '{op}', the shape of 'out' must be {want} for input shape {tuple(x)}, but got "
                           f"{tuple(out)}.")


def _check_argmax_operands(op, x, grad, argmax, grad_is_out=True):
    """x (..., spatial), grad (shaped like the pooled output, or like x), argmax (pooled) of a scatter/gather."""
    rules.check_rank(op, "x", x, (3, 4, 5))
    rules.check_rank(op, "argmax", argmax, len(x))
    rules.check_rank(op, "grad", grad, len(x))
    lead = len(x) - (3 if len(x) == 5 else 2)
    want = tuple(argmax) if grad_is_out else tuple(x)
    if tuple(grad) != want or tuple(argmax[:lead]) != tuple(x[:lead]):
        raise MSValueError(f"For '{op}', the shapes of 'x' {tuple(x)}, 'grad' {tuple(grad)} and 'argmax' "
                           f"{tuple(argmax)} do not match.")


def _argmax_dtype(op, argmax):
    return rules.check_dtype_in(op, "argmax", argmax, (mstype.int32, mstype.int64))


# --- MaxPool --------------------------------------------------------------------------------
class MaxPool(_Pool):
    """``MaxPool(kernel_size, strides, pad_mode)(x)``: 2-D max pooling of (N, C, H, W), 'valid' or 'same'."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        geo.check_data_format(self.name, data_format, "NCHW")
        k, s = self._setup(kernel_size, strides, pad_mode, ("valid", "same"))
        self.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.upper())

    def infer_shape(self, x):
        return self._pooled_shape(x)

    def infer_dtype(self, x):
        return rules.check_float(self.name, "x", x)

    def bprop(self, x, out, dout):
        grad = self._grad_prim(MaxPoolGrad, self.kernel_size, self.strides, self.pad_mode, self.data_format)
        return (grad(x, out, dout),)


# --- MaxPoolGrad ----------------------------------------------------------------------------
class MaxPoolGrad(_Pool):
    """``MaxPoolGrad(...)(x, out, dout)``: the gradient of MaxPool w.r.t. ``x`` (argmax recomputed)."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW"):
        k, s = self._setup(kernel_size, strides, pad_mode, ("valid", "same"))
        self.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.upper())

    def infer_shape(self, x, out, dout):
        _check_grad_shapes(self.name, x, out, dout, 4, self.window_for(x))
        return tuple(x)

    def infer_dtype(self, x, out, dout):
        return _check_float(self.name, ("x", x), ("out", out), ("dout", dout))

    def bprop(self, x, out, dout, out2, dout2):
        gg = self._grad_prim(MaxPoolGradGrad, self.kernel_size, self.strides, self.pad_mode)(x, out, dout2)
        return fops.zeros_like(x), fops.zeros_like(out), gg


# --- MaxPoolGradGrad ------------------------------------------------------------------------
class MaxPoolGradGrad(_Pool):
    """``MaxPoolGradGrad(...)(x, out, grad)``: ``grad`` (shaped like ``x``) gathered at each window's argmax."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID"):
        k, s = self._setup(kernel_size, strides, pad_mode, ("valid", "same"))
        self.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.upper())

    def infer_shape(self, x, out, grad):
        _check_grad_shapes(self.name, x, out, out, 4, self.window_for(x))
        rules.check_same_shape(self.name, ("x", "grad"), (x, grad))
        return tuple(out)

    def infer_dtype(self, x, out, grad):
        return _check_float(self.name, ("x", x), ("out", out), ("grad", grad))

    def bprop(self, x, out, grad, out2, dout):
        g = self._grad_prim(MaxPoolGrad, self.kernel_size, self.strides, self.pad_mode)(x, out, dout)
        return fops.zeros_like(x), fops.zeros_like(out), g


# --- AvgPool --------------------------------------------------------------------------------
class AvgPool(_Pool):
    """``AvgPool(kernel_size, strides, pad_mode)(x)``: 2-D average pooling; 'same' averages the valid cells."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        geo.check_data_format(self.name, data_format, "NCHW")
        k, s = self._setup(kernel_size, strides, pad_mode, ("valid", "same"))
        self.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.upper())

    def infer_shape(self, x):
        return self._pooled_shape(x)

    def infer_dtype(self, x):
        return rules.check_float(self.name, "x", x)

    def bprop(self, x, out, dout):
        grad = self._grad_prim(AvgPoolGrad, self.kernel_size, self.strides, self.pad_mode, self.data_format)
        return (grad(x, out, dout),)


# --- AvgPoolGrad ----------------------------------------------------------------------------
class AvgPoolGrad(_Pool):
    """``AvgPoolGrad(...)(x, out, dout)``: the gradient of AvgPool w.r.t. ``x`` (its transpose)."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW"):
        k, s = self._setup(kernel_size, strides, pad_mode, ("valid", "same"))
        self.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.upper())

    def infer_shape(self, x, out, dout):
        _check_grad_shapes(self.name, x, out, dout, 4, self.window_for(x))
        return tuple(x)

    def infer_dtype(self, x, out, dout):
        return _check_float(self.name, ("x", x), ("out", out), ("dout", dout))

    def bprop(self, x, out, dout, out2, dout2):
        g = self._grad_prim(AvgPool, self.kernel_size, self.strides, self.pad_mode, self.data_format)(dout2)
        return fops.zeros_like(x), fops.zeros_like(out), g


# --- MaxPoolWithArgmax ----------------------------------------------------------------------
class MaxPoolWithArgmax(_Pool):
    """``MaxPoolWithArgmax(kernel_size, strides, pad_mode)(x)``: ``(output, argmax)``, argmax int32."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        geo.check_data_format(self.name, data_format, "NCHW")
        k, s = self._setup(kernel_size, strides, pad_mode, ("valid", "same"))
        self.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.upper())

    def infer_shape(self, x):
        shape = self._pooled_shape(x)
        return shape, shape

    def infer_dtype(self, x):
        return rules.check_float(self.name, "x", x), mstype.int32

    def bprop(self, x, out, dout):
        grad = self._grad_prim(MaxPoolGradWithArgmax, self.kernel_size, self.strides, self.pad_mode)
        return (grad(x, dout[0], out[1]),)


# --- MaxPoolGradWithArgmax ------------------------------------------------------------------
class MaxPoolGradWithArgmax(_Pool):
    """``MaxPoolGradWithArgmax(...)(x, grad, argmax)``: ``grad`` scattered (summed) into ``x``'s shape at
    ``argmax``; the gradient of every argmax-returning max pooling."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID"):
        k, s = self._setup(kernel_size, strides, pad_mode, ("valid", "same"))
        self.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.upper())

    def infer_shape(self, x, grad, argmax):
        _check_argmax_operands(self.name, x, grad, argmax)
        return tuple(x)

    def infer_dtype(self, x, grad, argmax):
        _argmax_dtype(self.name, argmax)
        return _check_float(self.name, ("x", x), ("grad", grad))

    def bprop(self, x, grad, argmax, out, dout):
        return fops.zeros_like(x), self._grad_prim(MaxPoolGradGradWithArgmax)(x, dout, argmax), None


# --- MaxPoolGradGradWithArgmax --------------------------------------------------------------
class MaxPoolGradGradWithArgmax(_Pool):
    """``MaxPoolGradGradWithArgmax(...)(x, grad, argmax)``: ``grad`` (shaped like ``x``) gathered at
    ``argmax``; the transpose of MaxPoolGradWithArgmax."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID"):
        k, s = self._setup(kernel_size, strides, pad_mode, ("valid", "same"))
        self.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.upper())

    def infer_shape(self, x, grad, argmax):
        _check_argmax_operands(self.name, x, grad, argmax, grad_is_out=False)
        return tuple(argmax)

    def infer_dtype(self, x, grad, argmax):
        _argmax_dtype(self.name, argmax)
        return _check_float(self.name, ("x", x), ("grad", grad))

    def bprop(self, x, grad, argmax, out, dout):
        return fops.zeros_like(x), self._grad_prim(MaxPoolGradWithArgmax)(x, dout, argmax), None


# --- MaxPoolWithArgmaxV2 --------------------------------------------------------------------
class MaxPoolWithArgmaxV2(_Pool):
    """``MaxPoolWithArgmaxV2(kernel_size, strides, pads, dilation, ceil_mode, argmax_type)(x)``:
    ``(output, argmax)`` of 2-D max pooling with symmetric padding (at most half the kernel)."""

    @prim_attr_register
    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=mstype.int64):
        k, s = self._setup(kernel_size, strides, "pad", ("pad",), pads, dilation, ceil_mode, per_axis=True,
                           lead=False)
        pads = geo.int_tuple(self.name, "pads", pads, 2, min_value=0)
        dil = self._geometry[2]
        if any(2 * p > d * (kk - 1) + 1 for p, kk, d in zip(pads, k, dil)):
            raise MSValueError(f"For '{self.name}', the 'pads' must be at most half of the (dilated) 'kernel_size', "
                               f"but got pads {pads}, kernel_size {k} and dilation {dil}.")
        if argmax_type not in (mstype.int32, mstype.int64):
            raise MSTypeError(f"For '{self.name}', the 'argmax_type' must be mindspore.int32 or mindspore.int64, "
                              f"but got {argmax_type}.")
        self.add_prim_attrs(kernel_size=k, strides=s, pads=pads, dilation=dil)

    def infer_shape(self, x):
        shape = self._pooled_shape(x)
        return shape, shape

    def infer_dtype(self, x):
        return rules.check_float(self.name, "x", x), self.argmax_type

    def bprop(self, x, out, dout):
        grad = MaxPoolGradWithArgmaxV2(self.kernel_size, self.strides, self.pads, self.dilation, self.ceil_mode,
                                       self.argmax_type)(x, dout[0], out[1])
        return (grad,)


# --- MaxPoolGradWithArgmaxV2 ----------------------------------------------------------------
class MaxPoolGradWithArgmaxV2(_Pool):
    """``MaxPoolGradWithArgmaxV2(...)(x, grad, argmax)``: the gradient of MaxPoolWithArgmaxV2."""

    @prim_attr_register
    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=mstype.int64):
        self._setup(kernel_size, strides, "pad", ("pad",), pads, dilation, ceil_mode, per_axis=True, lead=False)

    def infer_shape(self, x, grad, argmax):
        rules.check_rank(self.name, "x", x, 4)
        _check_argmax_operands(self.name, x, grad, argmax)
        return tuple(x)

    def infer_dtype(self, x, grad, argmax):
        _argmax_dtype(self.name, argmax)
        return _check_float(self.name, ("x", x), ("grad", grad))

    def bprop(self, x, grad, argmax, out, dout):
        return fops.zeros_like(x), self._grad_prim(MaxPoolGradGradWithArgmax)(x, dout, argmax), None


# --- MaxPool3D ------------------------------------------------------------------------------
class MaxPool3D(_Pool):
    """``MaxPool3D(kernel_size, strides, pad_mode, pad_list, ceil_mode)(x)``: 3-D max pooling."""

    _nd = 3

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=None, data_format="NCDHW"):
        geo.check_data_format(self.name, data_format, "NCDHW")
        k, s = self._setup(kernel_size, strides, pad_mode, ("valid", "same", "pad"), pad_list, 1, ceil_mode)
        self.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.upper(), pad_list=self._geometry[4])

    def infer_shape(self, x):
        return self._pooled_shape(x)

    def infer_dtype(self, x):
        return rules.check_float(self.name, "x", x)

    def bprop(self, x, out, dout):
        grad = MaxPool3DGrad(self.kernel_size, self.strides, self.pad_mode, self.pad_list, self.data_format)
        return (grad(x, out, dout),)


# --- MaxPool3DGrad --------------------------------------------------------------------------
class MaxPool3DGrad(_Pool):
    """``MaxPool3DGrad(...)(x, out, dout)``: the gradient of MaxPool3D w.r.t. ``x`` (argmax recomputed)."""

    _nd = 3

    @prim_attr_register
    def __init__(self, kernel_size=(1, 1, 1, 1, 1), strides=(1, 1, 1, 1, 1), pad_mode="VALID", pad_list=0,
                 data_format="NCDHW"):
        k, s = self._setup(kernel_size, strides, pad_mode, ("valid", "same", "pad"), pad_list)
        self.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.upper(), pad_list=self._geometry[4])

    def infer_shape(self, x, out, dout):
        _check_grad_shapes(self.name, x, out, dout, 5)
        return tuple(x)

    def infer_dtype(self, x, out, dout):
        return _check_float(self.name, ("x", x), ("out", out), ("dout", dout))

    def bprop(self, x, out, dout, out2, dout2):
        gg = self._grad_prim(MaxPool3DGradGrad, self.kernel_size, self.strides, self.pad_mode,
                             self.pad_list)(x, out, dout2)
        return fops.zeros_like(x), fops.zeros_like(out), gg


# --- MaxPool3DGradGrad ----------------------------------------------------------------------
class MaxPool3DGradGrad(_Pool):
    """``MaxPool3DGradGrad(...)(x, out, grad)``: ``grad`` (shaped like ``x``) gathered at the argmax."""

    _nd = 3

    @prim_attr_register
    def __init__(self, kernel_size=(1, 1, 1, 1, 1), strides=(1, 1, 1, 1, 1), pad_mode="VALID", pad_list=0,
                 data_format="NCDHW"):
        k, s = self._setup(kernel_size, strides, pad_mode, ("valid", "same", "pad"), pad_list)
        self.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.upper(), pad_list=self._geometry[4])

    def infer_shape(self, x, out, grad):
        _check_grad_shapes(self.name, x, out, out, 5)
        rules.check_same_shape(self.name, ("x", "grad"), (x, grad))
        return tuple(out)

    def infer_dtype(self, x, out, grad):
        return _check_float(self.name, ("x", x), ("out", out), ("grad", grad))

    def bprop(self, x, out, grad, out2, dout):
        g = self._grad_prim(MaxPool3DGrad, self.kernel_size, self.strides, self.pad_mode, self.pad_list)(x, out, dout)
        return fops.zeros_like(x), fops.zeros_like(out), g


# --- MaxPool3DWithArgmax --------------------------------------------------------------------
class MaxPool3DWithArgmax(_Pool):
    """``MaxPool3DWithArgmax(ksize, strides, pads, dilation, ceil_mode)(x)``: ``(output, argmax)``."""

    _nd = 3

    @prim_attr_register
    def __init__(self, ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, data_format="NCDHW",
                 argmax_type=mstype.int64):
        geo.check_data_format(self.name, data_format, "NCDHW")
        self._setup(ksize, strides, "pad", ("pad",), pads, dilation, ceil_mode, per_axis=True, lead=False)
        if argmax_type not in (mstype.int32, mstype.int64):
            raise MSTypeError(f"For '{self.name}', the 'argmax_type' must be mindspore.int32 or mindspore.int64, "
                              f"but got {argmax_type}.")

    def infer_shape(self, x):
        shape = self._pooled_shape(x)
        return shape, shape

    def infer_dtype(self, x):
        return rules.check_float(self.name, "x", x), self.argmax_type

    def bprop(self, x, out, dout):
        grad = MaxPool3DGradWithArgmax(self.ksize, self.strides, self.pads, self.dilation, self.ceil_mode,
                                       self.data_format)
        return (grad(x, dout[0], out[1]),)


# --- MaxPool3DGradWithArgmax ----------------------------------------------------------------
class MaxPool3DGradWithArgmax(_Pool):
    """``MaxPool3DGradWithArgmax(...)(x, grads, argmax)``: the gradient of MaxPool3DWithArgmax."""

    _nd = 3

    @prim_attr_register
    def __init__(self, ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, data_format="NCDHW"):
        self._setup(ksize, strides, "pad", ("pad",), pads, dilation, ceil_mode, per_axis=True, lead=False)

    def infer_shape(self, x, grads, argmax):
        rules.check_rank(self.name, "x", x, 5)
        _check_argmax_operands(self.name, x, grads, argmax)
        return tuple(x)

    def infer_dtype(self, x, grads, argmax):
        _argmax_dtype(self.name, argmax)
        return _check_float(self.name, ("x", x), ("grads", grads))

    def bprop(self, x, grads, argmax, out, dout):
        return fops.zeros_like(x), self._grad_prim(MaxPoolGradGradWithArgmax)(x, dout, argmax), None


# --- AvgPool3D ------------------------------------------------------------------------------
class AvgPool3D(_Pool):
    """``AvgPool3D(kernel_size, strides, pad_mode, pad, ceil_mode, count_include_pad, divisor_override)(x)``."""

    _nd = 3

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=0, data_format="NCDHW"):
        _setup_avg3d(self, kernel_size, strides, pad_mode, pad, ceil_mode, count_include_pad, divisor_override,
                     data_format)

    def infer_shape(self, x):
        return self._pooled_shape(x)

    def infer_dtype(self, x):
        return rules.check_float(self.name, "x", x)

    def bprop(self, x, out, dout):
        return (self._grad_prim(AvgPool3DGrad, **_avg3d_config(self))(x.shape, dout),)


def _setup_avg3d(prim, kernel_size, strides, pad_mode, pad, ceil_mode, count_include_pad, divisor_override,
                 data_format):
    geo.check_data_format(prim.name, data_format, "NCDHW")
    k, s = prim._setup(kernel_size, strides, pad_mode, ("valid", "same", "pad"), pad, 1, ceil_mode)
    rules.check_bool(prim.name, "count_include_pad", count_include_pad)
    divisor = rules.check_int(prim.name, "divisor_override", divisor_override)
    if divisor < 0:
        raise MSValueError(f"For '{prim.name}', the 'divisor_override' must be >= 0, but got {divisor}.")
    prim.add_prim_attrs(kernel_size=k, strides=s, pad_mode=pad_mode.lower(), pad=prim._geometry[4],
                        pad_list=prim._geometry[4])


def _avg3d_config(prim):
    return dict(kernel_size=prim.kernel_size, strides=prim.strides, pad_mode=prim.pad_mode, pad=prim.pad,
                ceil_mode=prim.ceil_mode, count_include_pad=prim.count_include_pad,
                divisor_override=prim.divisor_override, data_format=prim.data_format)


# --- AvgPool3DGrad --------------------------------------------------------------------------
class AvgPool3DGrad(_Pool):
    """``AvgPool3DGrad(...)(origin_input_shape, grads)``: the gradient of AvgPool3D (its transpose)."""

    _nd = 3

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=0, data_format="NCDHW"):
        _setup_avg3d(self, kernel_size, strides, pad_mode, pad, ceil_mode, count_include_pad, divisor_override,
                     data_format)

    def infer_shape(self, origin_input_shape, grads):
        x = rules.check_int_tuple(self.name, "origin_input_shape", origin_input_shape, 5)
        rules.check_rank(self.name, "grads", grads, 5)
        want = x[:2] + self.window_for(x).out
        if tuple(grads) != want:
            raise MSValueError(f"For '{self.name}', the shape of 'grads' must be {want} for input shape {x}, but got "
                               f"{tuple(grads)}.")
        return x

    def infer_dtype(self, origin_input_shape, grads):
        return rules.check_float(self.name, "grads", grads)

    def bprop(self, origin_input_shape, grads, out, dout):
        return None, self._grad_prim(AvgPool3D, **_avg3d_config(self))(dout)


# --- AdaptiveAvgPool2D ----------------------------------------------------------------------
def _adaptive_out(op, output_size, x):
    """Output (H, W) of adaptive pooling; ``None`` in ``output_size`` keeps the input's size."""
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size, output_size)
    if not isinstance(output_size, (tuple, list)) or len(output_size) != 2 or not all(
            v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in output_size):
        raise MSTypeError(f"For '{op}', the 'output_size' must be an int or a tuple of two ints or None, but got "
                          f"{output_size!r}.")
    if any(v is not None and v <= 0 for v in output_size):
        raise MSValueError(f"For '{op}', the 'output_size' must be positive, but got {tuple(output_size)}.")
    if x is None:
        return tuple(output_size)
    return tuple(x[-2 + i] if v is None else v for i, v in enumerate(output_size))


def _adaptive_shape(op, output_size, x):
    rules.check_rank(op, "x", x, (3, 4))
    if any(s <= 0 for s in x[-2:]):
        raise MSValueError(f"For '{op}', the spatial dimensions of 'x' must be positive, but got {tuple(x)}.")
    return tuple(x[:-2]) + _adaptive_out(op, output_size, x)


class AdaptiveAvgPool2D(Primitive):
    """``AdaptiveAvgPool2D(output_size)(x)``: average pooling of (N, C, H, W) or (C, H, W) to a fixed size."""

    @prim_attr_register
    def __init__(self, output_size):
        _adaptive_out(self.name, output_size, None)

    def infer_shape(self, x):
        return _adaptive_shape(self.name, self.output_size, x)

    def infer_dtype(self, x):
        return rules.check_float(self.name, "x", x)

    def bprop(self, x, out, dout):
        return (self._grad_prim(AdaptiveAvgPool2DGrad)(dout, x.shape),)


# --- AdaptiveAvgPool2DGrad ------------------------------------------------------------------
class AdaptiveAvgPool2DGrad(Primitive):
    """``AdaptiveAvgPool2DGrad()(input_grad, orig_input_shape)``: the gradient of AdaptiveAvgPool2D."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, input_grad, orig_input_shape):
        x = rules.check_int_tuple(self.name, "orig_input_shape", orig_input_shape)
        rules.check_rank(self.name, "orig_input_shape", x, (3, 4))
        rules.check_rank(self.name, "input_grad", input_grad, len(x))
        if tuple(input_grad[:-2]) != x[:-2] or any(s <= 0 for s in tuple(input_grad[-2:]) + x[-2:]):
            raise MSValueError(f"For '{self.name}', the 'input_grad' shape {tuple(input_grad)} does not match "
                               f"'orig_input_shape' {x}.")
        return x

    def infer_dtype(self, input_grad, orig_input_shape):
        return rules.check_float(self.name, "input_grad", input_grad)

    def bprop(self, input_grad, orig_input_shape, out, dout):
        return self._grad_prim(AdaptiveAvgPool2D, input_grad.shape[-2:])(dout), None


# --- AdaptiveMaxPool2D ----------------------------------------------------------------------
class AdaptiveMaxPool2D(Primitive):
    """``AdaptiveMaxPool2D(output_size)(x)``: ``(output, argmax)`` of adaptive max pooling, argmax int64."""

    @prim_attr_register
    def __init__(self, output_size):
        _adaptive_out(self.name, output_size, None)

    def infer_shape(self, x):
        shape = _adaptive_shape(self.name, self.output_size, x)
        return shape, shape

    def infer_dtype(self, x):
        return rules.check_float(self.name, "x", x), mstype.int64

    def bprop(self, x, out, dout):
        return (self._grad_prim(AdaptiveMaxPool2DGrad)(dout[0], x, out[1]),)


# --- AdaptiveMaxPool2DGrad ------------------------------------------------------------------
class AdaptiveMaxPool2DGrad(Primitive):
    """``AdaptiveMaxPool2DGrad()(y_grad, x, argmax)``: the gradient of AdaptiveMaxPool2D w.r.t. ``x``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, y_grad, x, argmax):
        rules.check_rank(self.name, "x", x, (3, 4))
        _check_argmax_operands(self.name, x, y_grad, argmax)
        return tuple(x)

    def infer_dtype(self, y_grad, x, argmax):
        _argmax_dtype(self.name, argmax)
        return _check_float(self.name, ("y_grad", y_grad), ("x", x))

    def bprop(self, y_grad, x, argmax, out, dout):
        return self._grad_prim(MaxPoolGradGradWithArgmax)(x, dout, argmax), fops.zeros_like(x), None


PRIMITIVES = [MaxPool, MaxPoolGrad, MaxPoolGradGrad, AvgPool, AvgPoolGrad, MaxPoolWithArgmax, MaxPoolGradWithArgmax,
              MaxPoolGradGradWithArgmax, MaxPoolWithArgmaxV2, MaxPoolGradWithArgmaxV2, MaxPool3D, MaxPool3DGrad,
              MaxPool3DGradGrad, MaxPool3DWithArgmax, MaxPool3DGradWithArgmax, AvgPool3D, AvgPool3DGrad,
              AdaptiveAvgPool2D, AdaptiveAvgPool2DGrad, AdaptiveMaxPool2D, AdaptiveMaxPool2DGrad]
