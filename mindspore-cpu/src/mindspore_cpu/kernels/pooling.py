"""CPU kernels of the pooling primitives (part of the conv family; :mod:`.conv` merges them in).

Everything runs in the C++ kernels of ``mindspore_cpu._kernels``, which are 3-D: 2-D pooling is
3-D pooling with unit depth, and an unbatched (C, H, W) input is one batch item. MaxPoolGrad and
MaxPool3DGrad run one fused kernel (``max_pool3d_backward``) that finds each window's argmax from
``x`` and adds ``dout`` there, with no argmax tensor in between; the other max-pooling gradients
use an argmax (given, or recomputed for MaxPoolGradGrad) with a scatter/gather over flattened
input planes.

NaN follows MindSpore 2.10's CPU kernels, whose rules differ by primitive (``_RULES``; the C++
``rule`` argument documents each): MaxPool/MaxPool3D (and their gradients) fold each window with
x86 ``maxps`` from float32's lowest value, MaxPoolWithArgmaxV2 takes strictly larger elements from
the dtype's lowest value, MaxPoolWithArgmax and AdaptiveMaxPool2D the first element and then strictly
larger ones (float16 'SAME' windows placed as 2.10's float16 kernel places them; 2.10 rounds its
float64 results to float32, not followed),
MaxPool3DWithArgmax propagates NaN with the index of the window's last NaN. Recorded on generated cases in
``tests/fixtures/ops/maxpool_nan_2.10.npz``.
"""
import numpy as np

from mindspore_cpu.kernels._half import as_c
from mindspore_cpu.kernels._out import fits_out
from mindspore_cpu.kernels._native import _kernels

_NATIVE = (np.dtype(np.float32), np.dtype(np.float64))


def _dtype(*arrays):
    dt = np.result_type(*arrays)
    return dt if dt in _NATIVE else np.dtype(np.float32)


def _as_5d(a, dtype):
    """(C, H, W), (N, C, H, W) or (N, C, D, H, W) as a C-contiguous (N, C, D, H, W) array."""
    a = as_c(a, dtype)
    if a.ndim == 3:
        return a.reshape((1, a.shape[0], 1) + a.shape[1:])
    if a.ndim == 4:
        return a.reshape(a.shape[:2] + (1,) + a.shape[2:])
    return a


def _as_planes(a, dtype=None):
    """``a`` as (1, planes, spatial size): 5-D inputs have three spatial axes, others two."""
    spatial = 3 if a.ndim == 5 else 2
    a = as_c(a, dtype)
    return a.reshape((1, int(np.prod(a.shape[:-spatial], dtype=np.int64)), -1))


def _lift(values, fill):
    values = tuple(int(v) for v in values)
    return (fill,) + values if len(values) == 2 else values


# NaN rule of the C++ kernels per primitive (MindSpore 2.10's, see the module docstring).
_FOLD, _GREATER, _FIRST, _LAST_NAN = 1, 2, 3, 4
_RULES = {"MaxPool": _FOLD, "MaxPoolGrad": _FOLD, "MaxPoolGradGrad": _FOLD, "MaxPool3D": _FOLD,
          "MaxPool3DGrad": _FOLD, "MaxPool3DGradGrad": _FOLD, "MaxPoolWithArgmaxV2": _GREATER,
          "MaxPoolWithArgmax": _FIRST, "MaxPool3DWithArgmax": _LAST_NAN}


_RULE_OF = {}


def _rule(prim, x):
    """(rule, floor) of ``prim`` for input ``x``: the fold starts from float32's lowest value (-inf in float16),
    the strict-greater rule from the input dtype's lowest (once per primitive class and dtype)."""
    key = (type(prim).__name__, np.asarray(x).dtype)
    hit = _RULE_OF.get(key)
    if hit is None:
        hit = _RULE_OF[key] = _rule_for(*key)
    return hit


def _rule_for(name, dt):
    rule = _RULES.get(name, 0)
    if rule == _FOLD:
        with np.errstate(over="ignore"):
            floor = float(np.asarray(np.finfo(np.float32).min).astype(dt if dt.kind == "f" else np.float32))
    elif rule == _GREATER and dt.kind == "f":
        floor = float(np.finfo(dt).min)
    else:
        floor = float("-inf")
    return rule, floor


_LIFTED = {}


def _lifted_geometry(prim, x_shape):
    """``(kernel, stride, padding before, dilation, output size, window)`` of ``prim`` over ``x_shape``, each as
    the 3-tuple the C++ kernels take, computed once per geometry and shape (a kernel runs every step)."""
    key = (prim._geometry, tuple(x_shape))
    hit = _LIFTED.get(key)
    if hit is None:
        kernel, stride, dil, win = prim.geometry_for(x_shape)
        hit = (_lift(kernel, 1), _lift(stride, 1), _lift(win.before, 0), _lift(dil, 1), _lift(win.out, 1), win)
        if len(_LIFTED) >= 4096:
            _LIFTED.clear()
        _LIFTED[key] = hit
    return hit


def _max_pool(prim, x, out_spatial=None, with_argmax=True, out=None):
    """(output, argmax) for x, optionally with the output size fixed by a forward result."""
    kernel, stride, before, dil, size, win = _lifted_geometry(prim, x.shape)
    result = win.out if out_spatial is None else tuple(out_spatial)
    rule, floor = _rule(prim, x)
    dt = _dtype(x)
    if rule == _FIRST:
        # 2.10's float16 MaxPoolWithArgmax starts 'SAME' windows max((kernel - stride) // 2, 0) before the
        # input (checked on 60 random geometries). (Its float64 values are rounded to float32: not followed.)
        if np.asarray(x).dtype == np.float16 and any(before):
            before = tuple(max((int(k) - int(st)) // 2, 0) for k, st in zip(kernel, stride))
    res = _kernels.max_pool3d(_as_5d(x, dt), kernel, stride, before, dil,
                              size if out_spatial is None else _lift(result, 1), with_argmax, rule, floor)
    shape = x.shape[:-len(result)] + result
    if not with_argmax:
        return res.reshape(shape)
    return res[0].reshape(shape).astype(np.asarray(x).dtype, copy=False), res[1].reshape(shape)


@fits_out
def _max_pool_out(prim, x, out=None):
    return _max_pool(prim, x, with_argmax=False)


def _channel_offsets(shape):
    """MindSpore 2.10's MaxPoolWithArgmax counts its argmax over each item's (C, H, W), not over one plane: the
    offset ``c * H * W`` of every output element's channel (shape: the input's, 4-D or unbatched 3-D)."""
    channels, plane = shape[-3], int(shape[-2]) * int(shape[-1])
    return (np.arange(channels, dtype=np.int64) * plane).reshape(-1, 1, 1)


@fits_out
def _max_pool_with_argmax(prim, x, out=None):
    """(output, argmax), the argmax an index into the item's (C, H, W) as MindSpore 2.10 gives it."""
    y, arg = _max_pool(prim, x)
    return y, (arg + _channel_offsets(x.shape)).astype(arg.dtype, copy=False)


def _in_plane(prim, argmax, x_shape):
    """The argmax of MaxPoolWithArgmax (over the item's (C, H, W)) as an index into its own plane (MaxPool3D's
    gradient, also run by MaxPoolGradGradWithArgmax, gives one already: its spatial size)."""
    spatial = x_shape[-(3 if len(x_shape) == 5 else 2):]
    return np.asarray(argmax) % max(int(np.prod(spatial, dtype=np.int64)), 1)


@fits_out
def _scatter_channel_kernel(prim, x, grad, argmax, out=None):
    return _scatter(grad, _in_plane(prim, argmax, x.shape), x.shape, _dtype(x, grad))


@fits_out
def _gather_channel_kernel(prim, x, grad, argmax, out=None):
    return _gather(grad, _in_plane(prim, argmax, x.shape), _dtype(x, grad))


def _scatter(grad, argmax, x_shape, dtype):
    dx = _kernels.argmax_scatter(_as_planes(grad, dtype), _as_planes(argmax, np.int64),
                                 int(np.prod(x_shape[-(3 if len(x_shape) == 5 else 2):])))
    return dx.reshape(x_shape)


def _gather(grad, argmax, dtype):
    return _kernels.argmax_gather(_as_planes(grad, dtype), _as_planes(argmax, np.int64)).reshape(argmax.shape)


@fits_out
def _max_pool_grad(prim, x, y, dout, out=None):
    """dx: dout added at each window's argmax, recomputed from x (dout has the forward output's shape)."""
    kernel, stride, dil, win = prim.geometry_for(x.shape)
    dt = _dtype(x, dout)
    rule, floor = _rule(prim, x)
    dx = _kernels.max_pool3d_backward(_as_5d(x, dt), _as_5d(dout, dt), _lift(kernel, 1), _lift(stride, 1),
                                      _lift(win.before, 0), _lift(dil, 1), rule, floor)
    return dx.reshape(x.shape)


@fits_out
def _max_pool_grad_grad(prim, x, y, grad, out=None):
    nd = 3 if x.ndim == 5 else 2
    _, idx = _max_pool(prim, x, y.shape[-nd:])
    return _gather(grad, idx, _dtype(x, grad))


@fits_out
def _scatter_kernel(prim, x, grad, argmax, out=None):
    return _scatter(grad, argmax, x.shape, _dtype(x, grad))


@fits_out
def _gather_kernel(prim, x, grad, argmax, out=None):
    return _gather(grad, argmax, _dtype(x, grad))


def _avg_options(prim):
    if type(prim).__name__ in ("AvgPool", "AvgPoolGrad"):
        return False, 0  # MindSpore's AvgPool averages over the cells inside the input
    return bool(prim.count_include_pad), int(prim.divisor_override)


@fits_out
def _avg_pool(prim, x, out=None):
    kernel, stride, _, win = prim.geometry_for(x.shape)
    include_pad, divisor = _avg_options(prim)
    y = _kernels.avg_pool3d(_as_5d(x, _dtype(x)), _lift(kernel, 1), _lift(stride, 1), _lift(win.before, 0),
                            _lift(win.after, 0), _lift(win.out, 1), include_pad, divisor)
    return y.reshape(x.shape[:-len(win.out)] + win.out)


def _avg_pool_backward(prim, x_shape, dout, out=None):
    x_shape = tuple(x_shape)
    kernel, stride, _, win = prim.geometry_for(x_shape)
    include_pad, divisor = _avg_options(prim)
    nd = len(win.out)
    dx = _kernels.avg_pool3d_backward(_as_5d(dout, _dtype(dout)), _lift(x_shape[-nd:], 1), _lift(kernel, 1),
                                      _lift(stride, 1), _lift(win.before, 0), _lift(win.after, 0), include_pad,
                                      divisor)
    return dx.reshape(x_shape)


def _adaptive_avg(prim, x, out=None):
    res = prim.infer_shape(x.shape)
    y = _kernels.adaptive_pool3d(_as_5d(x, _dtype(x)), _lift(res[-2:], 1), False)
    return y.reshape(res)


def _adaptive_max(prim, x, out=None):
    res = prim.infer_shape(x.shape)[0]
    y, idx = _kernels.adaptive_pool3d(_as_5d(x, _dtype(x)), _lift(res[-2:], 1), True)
    return y.reshape(res).astype(np.asarray(x).dtype, copy=False), idx.reshape(res)


def _adaptive_avg_grad(prim, input_grad, orig_input_shape, out=None):
    shape = tuple(orig_input_shape)
    dx = _kernels.adaptive_avg_pool3d_backward(_as_5d(input_grad, _dtype(input_grad)), _lift(shape[-2:], 1))
    return dx.reshape(shape)


KERNELS = {
    "MaxPool": _max_pool_out,
    "MaxPoolGrad": _max_pool_grad,
    "MaxPoolGradGrad": _max_pool_grad_grad,
    "AvgPool": _avg_pool,
    "AvgPoolGrad": lambda prim, x, y, dout, out=None: _avg_pool_backward(prim, x.shape, dout),
    "MaxPoolWithArgmax": _max_pool_with_argmax,
    "MaxPoolGradWithArgmax": _scatter_channel_kernel,
    "MaxPoolGradGradWithArgmax": _gather_channel_kernel,
    "MaxPoolWithArgmaxV2": _max_pool,
    "MaxPoolGradWithArgmaxV2": _scatter_kernel,
    "MaxPool3D": _max_pool_out,
    "MaxPool3DGrad": _max_pool_grad,
    "MaxPool3DGradGrad": _max_pool_grad_grad,
    "MaxPool3DWithArgmax": _max_pool,
    "MaxPool3DGradWithArgmax": _scatter_kernel,
    "AvgPool3D": _avg_pool,
    "AvgPool3DGrad": _avg_pool_backward,
    "AdaptiveAvgPool2D": _adaptive_avg,
    "AdaptiveAvgPool2DGrad": _adaptive_avg_grad,
    "AdaptiveMaxPool2D": _adaptive_max,
    "AdaptiveMaxPool2DGrad": lambda prim, y_grad, x, argmax, out=None: _scatter(y_grad, argmax, x.shape, _dtype(x, y_grad)),
}
