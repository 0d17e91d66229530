"""The launch-cutting kernels of the conv family, MaxPool and batch norm, run on the CuPy stand-in with its
``ElementwiseKernel`` and ``ReductionKernel`` (as a GPU has them), called straight from the kernel tables:

* the convolutions' columns gathered by one generated kernel (``kernels/conv.py`` ``_gather``) give the plain
  path's results bit for bit (forward, filter gradient, and the input gradient of kernels too large to unroll;
  2-D and 3-D, strides, dilations, groups, padding, NaN and infinities), the input gradient by col2im
  (``_col2im``) the plain path's numbers up to rounding, and all match a NumPy oracle; each is the few launches it
  was brought down to;
* ReduceSum over leading axes (a bias gradient) in one hand-written launch;
* MaxPool's whole-window kernels (``kernels/pooling.py`` ``_window_kernel``): MaxPool in one launch, MaxPoolGrad in
  one (a hand-written kernel per window size, ``_grad_source``), the plain path's bits; on half-precision data
  (MaxPool: float16; MaxPoolGrad: float16 and bfloat16) without casts, the bits of the float32 kernels between casts;
* training batch norm in four launches and its gradient in two (``ReductionKernel`` ``ms_bn_sqsum`` and
  ``ms_bn_grad_sums``), the plain path's numbers;
* the stand-in's ``ReductionKernel`` (CuPy's signature, ``axis``/``keepdims``, identity of an empty reduction, one
  launch, host arrays refused, CuPy's one-expression ``post_map_expr``) and the ``ElementwiseKernel`` additions the
  gathers use (``raw`` parameters read by flat index, ``i``, C's integer ``/`` and ``%``, a read out of bounds
  raised as the illegal address it is on a GPU).
"""
import ctypes
import ctypes.util
import itertools
import pathlib
import sys

import ml_dtypes
import numpy as np
import pytest

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402
from mindspore.common import dtype as mstype  # noqa: E402
from mindspore.ops import ReduceSum  # noqa: E402
from mindspore.ops._defs import conv as conv_defs, nn as nn_defs, pooling as pool_defs  # noqa: E402
from mindspore.plugin import TensorSpec  # noqa: E402

pytestmark = cupy_sim.warning_marks()


@pytest.fixture(scope="module")
def sim():
    return cupy_sim.graph_families()


_kinds = cupy_sim.launch_kinds      # (result, the launch kinds ``fn()`` took)


def _fusion_off(monkeypatch, family):
    """Fusion off for the kernel modules (``_common.FUSED``, read by every ``Fused.usable``)."""
    monkeypatch.setitem(family.Fused.usable.__globals__, "FUSED", False)


def _host(cp, r):
    return tuple(_host(cp, a) for a in r) if isinstance(r, tuple) else cp.asnumpy(r)


def _bits(got, want, what):
    for i, (g, w) in enumerate(zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple)
                                   else (want,))):
        assert g.dtype == w.dtype and g.shape == w.shape, f"{what} output {i}"
        np.testing.assert_array_equal(g, w, err_msg=f"{what} output {i}")
        assert np.array_equal(np.signbit(g), np.signbit(w)), f"{what} output {i}: signs"


# --- ReduceSum over leading axes ------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape,axis,keep", [((32, 120), 0, False), ((3, 5, 7, 40), (0, 1), True),
                                             ((9, 33), (-2,), False), ((4, 1), 0, True)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_reduce_sum_over_leading_axes_in_one_launch(sim, monkeypatch, shape, axis, keep, dtype):
    """A bias gradient's sum (the leading axes summed out) is one hand-written launch, with NumPy's sum to rounding;
    other axes, other dtypes and fusion off keep CuPy's reduction."""
    cp, fam = sim
    reduce = fam["reduce"]
    rng = np.random.default_rng(9)
    x = rng.normal(0, 3, shape).astype(dtype)
    x.flat[x.size // 2] = np.inf
    prim = ReduceSum(keep_dims=keep)
    xd = cp.asarray(x)
    y, kinds = _kinds(lambda: reduce.KERNELS["ReduceSum"](prim, xd, axis))
    assert kinds == ["RawKernel ms_sum_leading"], kinds
    want = np.sum(x, axis=axis, keepdims=keep)
    got = cp.asnumpy(y)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-6 if dtype == np.float32 else 1e-13, atol=1e-5)
    _, kinds = _kinds(lambda: reduce.KERNELS["ReduceSum"](prim, xd, -1))
    assert kinds == ["cupy.sum"], kinds
    _, kinds = _kinds(lambda: reduce.KERNELS["ReduceSum"](prim, cp.asarray(x.astype(np.float16)), axis))
    assert "RawKernel ms_sum_leading" not in kinds
    with monkeypatch.context() as m:
        _fusion_off(m, fam["nn"])       # (the switch of every kernel module: _common.FUSED)
        plain, kinds = _kinds(lambda: reduce.KERNELS["ReduceSum"](prim, xd, axis))
    assert kinds == ["cupy.sum"], kinds
    np.testing.assert_allclose(got, cp.asnumpy(plain), rtol=1e-6 if dtype == np.float32 else 1e-13, atol=1e-5)


# --- convolutions ----------------------------------------------------------------------------------------------------
CONV2D = [  # (x shape, out channels, kernel, pad_mode, pad, stride, dilation, group)
    ((2, 4, 7, 6), 8, 3, "valid", 0, 1, 1, 1),
    ((2, 4, 7, 6), 8, 3, "pad", 1, 2, 1, 1),
    ((2, 4, 9, 8), 6, (3, 2), "pad", (1, 2, 0, 1), (2, 1), (1, 2), 2),
    ((1, 4, 8, 8), 4, 3, "same", 0, 1, 2, 4),
    ((3, 3, 5, 5), 2, 1, "valid", 0, 2, 1, 1),
    ((2, 2, 6, 7), 4, (2, 3), "same", 0, (3, 2), 1, 1),
]


def _conv_prims(op, cout, k, pad_mode, pad, stride, dilation, group):
    kw = dict(pad_mode=pad_mode, pad=pad, stride=stride, dilation=dilation, group=group)
    return (op(cout, k, **kw), conv_defs.Conv2DBackpropInput(cout, k, **kw),
            conv_defs.Conv2DBackpropFilter(cout, k, **kw))


def _conv_inputs(shape, cout, k, group, dtype, seed=8):
    rng = np.random.default_rng(seed)
    k = (k, k) if isinstance(k, int) else k
    x = rng.normal(size=shape).astype(dtype)
    w = rng.normal(size=(cout, shape[1] // group) + tuple(k)).astype(dtype)
    x[0, 0, 0, 0] = np.nan
    x[-1, 1, 2, 3] = np.inf
    return x, w


def _conv_all(cp, conv, prims, x, w):
    """(y, dx, dw) with their launch kinds (on a gradient with NaN-free random values)."""
    fwd, bin_, bfil = prims
    kernels = conv.KERNELS
    xd, wd = cp.asarray(x), cp.asarray(w)
    y, ky = _kinds(lambda: kernels["Conv2D"](fwd, xd, wd))
    dout = cp.asarray(np.random.default_rng(9).normal(size=y.shape).astype(x.dtype))
    dx, kx = _kinds(lambda: kernels["Conv2DBackpropInput"](bin_, dout, wd, x.shape))
    dw, kw = _kinds(lambda: kernels["Conv2DBackpropFilter"](bfil, dout, xd, w.shape))
    return (cp.asnumpy(y), cp.asnumpy(dx), cp.asnumpy(dw), cp.asnumpy(dout)), (ky, kx, kw)


def _conv_oracle(x, w, dout, stride, dilation, before, out, group):
    """y, dx, dw of a 2-D cross-correlation in float64 by explicit loops over the kernel (NumPy)."""
    n, c, h, wd = x.shape
    cout, cg, kh, kw = w.shape
    og = cout // group
    xp = np.zeros((n, c, h + 2 * kh * dilation[0] + out[0] * stride[0], wd + 2 * kw * dilation[1] + out[1] * stride[1]))
    xp[:, :, before[0]:before[0] + h, before[1]:before[1] + wd] = x
    y = np.zeros((n, cout) + tuple(out))
    dxp = np.zeros_like(xp)
    dw = np.zeros(w.shape)
    for g, i, j in itertools.product(range(group), range(kh), range(kw)):
        r0, c0 = i * dilation[0], j * dilation[1]
        win = xp[:, g * cg:(g + 1) * cg, r0:r0 + out[0] * stride[0]:stride[0], c0:c0 + out[1] * stride[1]:stride[1]]
        wg = w[g * og:(g + 1) * og, :, i, j].astype(np.float64)
        dg = dout[:, g * og:(g + 1) * og].astype(np.float64)
        y[:, g * og:(g + 1) * og] += np.einsum("oc,nchw->nohw", wg, win)
        dxp[:, g * cg:(g + 1) * cg, r0:r0 + out[0] * stride[0]:stride[0], c0:c0 + out[1] * stride[1]:stride[1]] += \
            np.einsum("oc,nohw->nchw", wg, dg)
        dw[g * og:(g + 1) * og, :, i, j] = np.einsum("nohw,nchw->oc", dg, win)
    return y, dxp[:, :, before[0]:before[0] + h, before[1]:before[1] + wd], dw


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", range(len(CONV2D)))
def test_conv2d_gathered_columns_give_the_plain_bits_and_the_oracle(sim, monkeypatch, case, dtype):
    cp, fam = sim
    conv = fam["conv"]
    shape, cout, k, pad_mode, pad, stride, dilation, group = CONV2D[case]
    prims = _conv_prims(conv_defs.Conv2D, cout, k, pad_mode, pad, stride, dilation, group)
    x, w = _conv_inputs(shape, cout, k, group, dtype)
    fused, kinds = _conv_all(cp, conv, prims, x, w)
    # launches: the gather and the product; the product with the transposed weight and col2im; the gather, the
    # gradient in the product's layout (a copy unless the batch is 1) and the product
    kk = "x".join(str(v) for v in ((k, k) if isinstance(k, int) else k))
    assert kinds[0] == ["ElementwiseKernel ms_conv_cols_window_2d", "ufunc matmul"], kinds[0]
    assert kinds[1] == ["ufunc matmul", f"ElementwiseKernel ms_conv_col2im_{kk}"], kinds[1]
    assert kinds[2][0] == "ElementwiseKernel ms_conv_cols_window_t_2d" and len(kinds[2]) <= 3, kinds[2]
    with monkeypatch.context() as m:
        _fusion_off(m, conv)
        plain, plain_kinds = _conv_all(cp, conv, prims, x, w)
    assert not any("ms_conv_c" in k for ks in plain_kinds for k in ks)
    what = f"conv case {case} {np.dtype(dtype).name}"
    # y and dw: the plain path's columns and products, the same bits; dx: col2im sums over the kernel offsets after
    # the product (the plain path sums both in one product), so the same numbers up to rounding, NaN where NaN
    _bits((fused[0], fused[2]), (plain[0], plain[2]), what)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(fused[1], plain[1], rtol=tol, atol=tol, equal_nan=True, err_msg=what)
    # the oracle (NaN-free input: the NaN and inf spread through whole rows of the products)
    xc = np.nan_to_num(x, nan=0.5, posinf=2.0)
    (y, dx, dw, dout), _ = _conv_all(cp, conv, prims, xc, w)
    kernel, strides, dil, win = prims[0].geometry_for(x.shape)
    want = _conv_oracle(xc, w, dout, strides, dil, win.before, win.out, group)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    for name, g, o in zip(("y", "dx", "dw"), (y, dx, dw), want):
        np.testing.assert_allclose(g, o, rtol=tol, atol=tol, err_msg=name)


def test_conv3d_gathered_columns_give_the_plain_bits(sim, monkeypatch):
    cp, fam = sim
    conv = fam["conv"]
    rng = np.random.default_rng(2)
    x = rng.normal(size=(2, 4, 5, 6, 4)).astype(np.float32)
    w = rng.normal(size=(6, 2, 2, 3, 2)).astype(np.float32)
    kw = dict(pad_mode="pad", pad=(1, 0, 1, 2, 0, 1), stride=(1, 2, 1), dilation=(2, 1, 1), group=2)
    fwd = conv_defs.Conv3D(6, (2, 3, 2), **kw)
    bin_ = conv_defs.Conv3DBackpropInput(6, (2, 3, 2), **kw)
    bfil = conv_defs.Conv3DBackpropFilter(6, (2, 3, 2), **kw)

    def run():
        kernels = conv.KERNELS
        xd, wd = cp.asarray(x), cp.asarray(w)
        y = kernels["Conv3D"](fwd, xd, wd)
        dout = cp.asarray(np.random.default_rng(3).normal(size=y.shape).astype(np.float32))
        dx = kernels["Conv3DBackpropInput"](bin_, wd, dout, x.shape, out=None)
        dw = kernels["Conv3DBackpropFilter"](bfil, xd, dout, w.shape, out=None)
        return tuple(cp.asnumpy(a) for a in (y, dx, dw))
    fused, kinds = _kinds(run)
    assert {"ElementwiseKernel ms_conv_cols_window_3d", "ElementwiseKernel ms_conv_col2im_2x3x2",
            "ElementwiseKernel ms_conv_cols_window_t_3d"} <= set(kinds)
    with monkeypatch.context() as m:
        _fusion_off(m, conv)
        plain = run()
    _bits((fused[0], fused[2]), (plain[0], plain[2]), "conv3d")
    np.testing.assert_allclose(fused[1], plain[1], rtol=1e-5, atol=1e-5, err_msg="conv3d dx")


def test_a_kernel_too_large_to_unroll_gathers_the_spread_gradient(sim, monkeypatch):
    """Past 64 kernel offsets the data gradient gathers the columns of the spread gradient (three launches), the
    plain path's bits."""
    cp, fam = sim
    conv = fam["conv"]
    prims = _conv_prims(conv_defs.Conv2D, 3, (9, 8), "pad", (4, 4, 3, 4), 2, 1, 1)
    x, w = _conv_inputs((2, 2, 12, 11), 3, (9, 8), 1, np.float32)
    fused, kinds = _conv_all(cp, conv, prims, x, w)
    assert kinds[1][0] == "ElementwiseKernel ms_conv_cols_spread_2d" and len(kinds[1]) == 3, kinds[1]
    with monkeypatch.context() as m:
        _fusion_off(m, conv)
        plain, _ = _conv_all(cp, conv, prims, x, w)
    _bits(tuple(fused), tuple(plain), "conv 9x8")


def test_conv_on_an_empty_batch_takes_the_gather(sim):
    cp, fam = sim
    conv = fam["conv"]
    fwd, bin_, bfil = _conv_prims(conv_defs.Conv2D, 2, 3, "same", 0, 1, 1, 1)
    x, w = cp.asarray(np.zeros((0, 1, 5, 5), np.float32)), cp.asarray(np.ones((2, 1, 3, 3), np.float32))
    y = conv.KERNELS["Conv2D"](fwd, x, w)
    assert y.shape == (0, 2, 5, 5)
    dx = conv.KERNELS["Conv2DBackpropInput"](bin_, y, w, (0, 1, 5, 5))
    dw = conv.KERNELS["Conv2DBackpropFilter"](bfil, y, x, (2, 1, 3, 3))
    assert dx.shape == (0, 1, 5, 5)
    np.testing.assert_array_equal(cp.asnumpy(dw), np.zeros((2, 1, 3, 3), np.float32))


# --- MaxPool ---------------------------------------------------------------------------------------------------------
def _max_pool_case(geometry, dtype):
    """(x with ties, NaN, -0 and -inf, MaxPool, MaxPoolGrad) of ``geometry`` (kernel, stride, pad mode)."""
    k, s, mode = geometry
    rng = np.random.default_rng(5)
    x = rng.integers(-3, 3, size=(2, 3, 7, 6)).astype(dtype)       # ties
    x[0, 0, 1, 1] = np.nan
    x[0, 1, 2, 2] = -0.0
    x[1, 2, 3, 3] = -np.inf
    return (x, pool_defs.MaxPool(kernel_size=k, strides=s, pad_mode=mode),
            pool_defs.MaxPoolGrad(kernel_size=k, strides=s, pad_mode=mode))


@pytest.mark.parametrize("geometry", [(2, 2, "VALID"), (3, 2, "SAME"), (3, 1, "SAME"), ((2, 3), (1, 2), "VALID")])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_pool_whole_window_kernels(sim, monkeypatch, geometry, dtype):
    cp, fam = sim
    pool = fam["pooling"]
    k, s, mode = geometry
    x, fwd, grad = _max_pool_case(geometry, dtype)

    def run():
        xd = cp.asarray(x)
        y = pool.KERNELS["MaxPool"](fwd, xd)
        dout = cp.asarray(rng_dout.normal(size=y.shape).astype(dtype))
        return cp.asnumpy(y), cp.asnumpy(pool.KERNELS["MaxPoolGrad"](grad, xd, y, dout))
    rng_dout = np.random.default_rng(6)
    (y, dx), kinds = _kinds(run)
    size = "x".join(str(v) for v in ((k, k) if isinstance(k, int) else k))
    kinds = [k for k in kinds if k not in ("h2d", "d2h")]      # (the uploads and read-backs of the test)
    # MaxPool: one launch; MaxPoolGrad: one (each input element sums dout over the windows it won), or, where an
    # element would read too many values (3x3 at stride 1: 9 windows of 9), the scatter operands, zeros and atomic add
    grad_kinds = (["RawKernel ms_max_pool_grad"] if (k, s) != (3, 1) else
                  [f"ElementwiseKernel ms_pool_window_scatter_{size}", "cupy.zeros", "cupy.add.at"])
    assert kinds == [f"ElementwiseKernel ms_pool_window_fold_{size}"] + grad_kinds, kinds
    rng_dout = np.random.default_rng(6)
    with monkeypatch.context() as m:
        _fusion_off(m, pool)
        plain = run()
    _bits((y, dx), plain, f"max pool {geometry}")


@pytest.mark.parametrize("geometry", [(2, 2, "VALID"), (2, 1, "SAME"), (3, 2, "SAME")])
def test_max_pool3d_grad_in_one_launch(sim, monkeypatch, geometry):
    """MaxPool3DGrad takes the same one-launch kernel (2x2x2 windows at stride 2 or 1), or the scatter where an
    element would read too many values (3x3x3 at stride 2: up to 8 windows of 27); the plain path's bits."""
    cp, fam = sim
    pool = fam["pooling"]
    k, s, mode = geometry
    rng = np.random.default_rng(9)
    x = rng.integers(-2, 2, size=(2, 2, 5, 6, 4)).astype(np.float32)     # ties
    x[0, 0, 1, 1, 1] = np.nan
    fwd = pool_defs.MaxPool3D(kernel_size=k, strides=s, pad_mode=mode)
    grad = pool_defs.MaxPool3DGrad(kernel_size=k, strides=s, pad_mode=mode)

    def run():
        xd = cp.asarray(x)
        y = pool.KERNELS["MaxPool3D"](fwd, xd)
        dout = cp.asarray(np.random.default_rng(4).normal(size=y.shape).astype(np.float32))
        return cp.asnumpy(pool.KERNELS["MaxPool3DGrad"](grad, xd, y, dout))
    dx, kinds = _kinds(run)
    one = "RawKernel ms_max_pool_grad" in kinds
    assert one == (k == 2), kinds
    with monkeypatch.context() as m:
        _fusion_off(m, pool)
        plain = run()
    _bits((dx,), (plain,), f"max pool 3-D {geometry}")


@pytest.mark.parametrize("half", [np.float16, ml_dtypes.bfloat16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("geometry", [(2, 2, "VALID"), (3, 2, "SAME")])
def test_max_pool_and_its_gradient_on_half_data(sim, half, geometry):
    """MaxPool's fold kernel selects among its inputs, so float16 runs it as it is (one launch, no casts; bfloat16,
    which CuPy's generated kernels are not given, is widened); MaxPoolGrad's one kernel reads and writes float16 and
    bfloat16 as they are (one launch, ``_common.RAW_STORAGE``). The bits of the float32 kernels between casts, ties,
    NaN, -0 and -inf included."""
    cp, fam = sim
    pool = fam["pooling"]
    k = geometry[0]
    x, fwd, grad = _max_pool_case(geometry, half)
    ms_types = {np.dtype(half): mstype.float16 if half == np.float16 else mstype.bfloat16,
                np.dtype(np.float32): mstype.float32}

    def run(dtype):
        xd = cp.asarray(x).astype(dtype)
        y_shape = (2, 3, 3, 3) if geometry[2] == "VALID" else (2, 3, 4, 3)
        y, fwd_kinds = _kinds(lambda: pool.KERNELS["MaxPool"](fwd, xd, out=TensorSpec(y_shape, ms_types[xd.dtype])))
        assert y.shape == y_shape and y.dtype == xd.dtype
        dout = cp.asarray(np.random.default_rng(6).normal(size=y.shape).astype(half)).astype(dtype)
        dx, bwd_kinds = _kinds(lambda: pool.KERNELS["MaxPoolGrad"](grad, xd, y, dout,
                                                                   out=TensorSpec(x.shape, ms_types[xd.dtype])))
        return [cp.asnumpy(a.astype(half)).view(np.uint16) for a in (y, dx)], fwd_kinds, bwd_kinds
    (y, dx), fwd_kinds, bwd_kinds = run(half)
    want, _, _ = run(np.float32)
    fold = f"ElementwiseKernel ms_pool_window_fold_{k}x{k}"
    assert fwd_kinds == ([fold] if half == np.float16 else ["ndarray.astype", fold, "ndarray.astype"]), fwd_kinds
    assert bwd_kinds == ["RawKernel ms_max_pool_grad"], bwd_kinds
    for name, g, w in zip(("MaxPool", "MaxPoolGrad"), (y, dx), want):
        np.testing.assert_array_equal(g, w, err_msg=name)


# --- batch norm ------------------------------------------------------------------------------------------------------
_BN_SHAPES = {"NCHW": [(4, 3, 5, 6), (9, 3, 15, 17), (4, 2, 64, 64), (6, 5), (3, 4, 7), (2, 3, 2, 3, 4)],
              "NHWC": [(4, 5, 6, 3), (8, 17, 19, 2)]}


def _bn_case(shape, data_format, dtype, seed=3):
    rng = np.random.default_rng(seed)
    c = shape[-1] if data_format == "NHWC" else shape[1]
    x = rng.normal(1.0, 2.0, shape).astype(dtype)
    vectors = (rng.normal(size=c), rng.normal(size=c), rng.normal(size=c), rng.uniform(0.5, 2, c))
    return (x,) + tuple(v.astype(dtype) for v in vectors) + (rng.normal(size=shape).astype(dtype),)


def _bn_oracle(x, scale, bias, mean0, var0, dy, data_format, eps, mom, training=True):
    """float64 NumPy: (y, batch mean, batch variance, moving mean, moving variance, dx, dscale, dbias)."""
    x, dy = x.astype(np.float64), dy.astype(np.float64)
    c = x.ndim - 1 if data_format == "NHWC" else 1
    axes = tuple(i for i in range(x.ndim) if i != c)
    shape = [1] * x.ndim
    shape[c] = -1
    n = x.size // x.shape[c]
    if training:
        m, v = x.mean(axis=axes), x.var(axis=axes)
        mm, mv = (1 - mom) * mean0 + mom * m, (1 - mom) * var0 + mom * v * n / max(n - 1, 1)
    else:
        m, v, mm, mv = mean0.astype(np.float64), var0.astype(np.float64), mean0, var0
    rstd = 1 / np.sqrt(v + eps)
    xhat = (x - m.reshape(shape)) * rstd.reshape(shape)
    y = xhat * scale.reshape(shape) + bias.reshape(shape)
    dbias, dscale = dy.sum(axis=axes), (dy * xhat).sum(axis=axes)
    dx = (scale * rstd).reshape(shape) * (dy - dbias.reshape(shape) / n - xhat * (dscale.reshape(shape) / n))
    return y, m, v, mm, mv, dx, dscale, dbias


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_batch_norm_in_two_launches_and_its_gradient_too(sim, monkeypatch, data_format, dtype):
    """Training batch norm: two hand-written kernels (per-chunk Welford statistics; merge, saved and moving statistics,
    normalise), its gradient two (per-chunk sums; merge, dscale/dbias, dx), whatever the layout and rank, chunks of a
    channel split across blocks or not; the results those of the plain CuPy path and of a float64 oracle."""
    cp, fam = sim
    nn = fam["nn"]
    bn = nn_defs.BatchNorm(is_training=True, epsilon=1e-3, momentum=0.3, data_format=data_format)
    bng = nn_defs.BatchNormGrad(is_training=True, epsilon=1e-3, data_format=data_format)
    for shape in _BN_SHAPES[data_format]:
        x, scale, bias, mean0, var0, dy = _bn_case(shape, data_format, dtype)

        def run():
            m, v = cp.asarray(mean0), cp.asarray(var0)
            args = [cp.asarray(a) for a in (x, scale, bias)]
            outs, fwd = _kinds(lambda: nn.KERNELS["BatchNorm"](bn, *args, m, v))
            d = [cp.asarray(a) for a in (dy, x, scale)]
            grads, bwd = _kinds(lambda: nn.KERNELS["BatchNormGrad"](bng, d[0], d[1], d[2], outs[3], outs[4], outs[4]))
            return _host(cp, tuple(outs) + (m, v) + tuple(grads)), fwd, bwd
        got, fwd, bwd = run()
        assert fwd == ["RawKernel ms_bn_stats", "RawKernel ms_bn_forward"], fwd
        assert bwd == ["RawKernel ms_bn_grad_sums", "RawKernel ms_bn_grad_dx"], bwd
        with monkeypatch.context() as m:
            _fusion_off(m, nn)
            want, plain_fwd, _ = run()
        assert not any(k.startswith("RawKernel") for k in plain_fwd)
        tol = 2e-5 if dtype == np.float32 else 1e-12
        for i, (g, w) in enumerate(zip(got, want)):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=f"{shape}: output {i}")
        y, bm, bv, sm, sv, mm, mv, dx, dscale, dbias = got
        oracle = _bn_oracle(x, scale, bias, mean0, var0, dy, data_format, 1e-3, 0.3)
        np.testing.assert_array_equal(bm, sm)
        np.testing.assert_array_equal(bv, sv)
        for name, g, w in zip(("y", "mean", "variance", "moving mean", "moving variance", "dx", "dscale", "dbias"),
                              (y, bm, bv, mm, mv, dx, dscale, dbias), oracle):
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol * 10, err_msg=f"{shape}: {name}")


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_batch_norm_inference_in_one_launch(sim, monkeypatch, data_format):
    """Inference: one kernel normalises with the moving statistics and repeats them as outputs 1-4 (copies: the
    moving statistics stay as they were, and writing an output does not write them)."""
    cp, fam = sim
    nn = fam["nn"]
    bn = nn_defs.BatchNorm(is_training=False, epsilon=1e-4, data_format=data_format)
    for shape in _BN_SHAPES[data_format][:2]:
        x, scale, bias, mean0, var0, dy = _bn_case(shape, data_format, np.float32)

        def run():
            m, v = cp.asarray(mean0), cp.asarray(var0)
            args = [cp.asarray(a) for a in (x, scale, bias)]
            outs, kinds = _kinds(lambda: nn.KERNELS["BatchNorm"](bn, *args, m, v))
            for o in outs[1:]:
                assert not cp.may_share_memory(o, m) and not cp.may_share_memory(o, v)
            return _host(cp, tuple(outs) + (m, v)), kinds
        got, kinds = run()
        assert kinds == ["RawKernel ms_bn_infer"], kinds
        with monkeypatch.context() as m:
            _fusion_off(m, nn)
            want, _ = run()
        for i, (g, w) in enumerate(zip(got, want)):
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=2e-6, err_msg=f"{shape}: output {i}")
        y, m, v, m2, v2, mm, mv = got
        np.testing.assert_allclose(y, _bn_oracle(x, scale, bias, mean0, var0, dy, data_format, 1e-4, 0.1, False)[0],
                                   rtol=2e-5, atol=2e-5)
        for g in (m, m2, mm):
            np.testing.assert_array_equal(g, mean0)
        for g in (v, v2, mv):
            np.testing.assert_array_equal(g, var0)


def test_batch_norm_statistics_stay_accurate_far_from_zero(sim):
    """Welford's update and Chan's merge: a channel of values 1e4 + noise of 0.01 (float32) keeps its variance to 1%
    (float32's rounding of the mean, 5e-4, bounds it as it does the two-pass sum; a one-pass sum of squares, 1e8
    each, would lose all of it); a constant channel has variance exactly 0; several chunks per channel (more than
    4 * 256 values) merge."""
    cp, fam = sim
    nn = fam["nn"]
    rng = np.random.default_rng(11)
    x = np.empty((16, 2, 16, 16), np.float32)
    x[:, 0] = 1e4 + rng.normal(0, 0.01, (16, 16, 16))
    x[:, 1] = 3.0
    bn = nn_defs.BatchNorm(is_training=True, epsilon=1e-5, momentum=0.1)
    m, v = cp.zeros(2, np.float32), cp.ones(2, np.float32)
    ones, zeros, xd = cp.ones(2, np.float32), cp.zeros(2, np.float32), cp.asarray(x)
    outs, kinds = _kinds(lambda: nn.KERNELS["BatchNorm"](bn, xd, ones, zeros, m, v))
    assert kinds == ["RawKernel ms_bn_stats", "RawKernel ms_bn_forward"], kinds
    _, bm, bv, _, _ = _host(cp, outs)
    want = x.astype(np.float64).var(axis=(0, 2, 3))
    assert abs(bm[0] - x[:, 0].astype(np.float64).mean()) < 1e-3 and bm[1] == 3.0
    assert abs(bv[0] - want[0]) < 1e-2 * want[0], (bv[0], want[0])
    assert bv[1] == 0.0


# --- the stand-in's ReductionKernel and raw ElementwiseKernel parameters ----------------------------------------------
def test_reduction_kernel_as_cupy_calls_it():
    cp = cupy_sim.make_modules(elementwise=True)["cupy"]
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4, 3, 5)).astype(np.float32)
    m = x.mean(axis=(0, 2), keepdims=True)
    sq = cp.ReductionKernel("T x, T m", "T y", "(x - m) * (x - m)", "a + b", "y = a", "0", "sq")
    xd, md = cp.asarray(x), cp.asarray(m)
    start = cupy_sim.LAUNCHES.total
    got = sq(xd, md, axis=(0, 2))
    assert cupy_sim.LAUNCHES.total == start + 1, "one launch"
    assert isinstance(got, cupy_sim.DeviceArray) and got.shape == (3,) and got.dtype == np.float32
    np.testing.assert_allclose(cp.asnumpy(got), ((x - m) ** 2).sum(axis=(0, 2)), rtol=1e-5)
    assert sq(xd, md, axis=(0, -1), keepdims=True).shape == (1, 3, 1)
    assert sq(xd, md).shape == () and sq(xd, md, axis=1).shape == (4, 5)
    out = cp.empty((3,), np.float32)
    assert sq(xd, md, out, axis=(0, 2)) is out
    np.testing.assert_allclose(cp.asnumpy(out), cp.asnumpy(got))
    # another reduction, a post-map with a scalar input, an empty reduction gives the identity
    l2 = cp.ReductionKernel("T x, T k", "T y", "x * x", "a + b", "y = sqrt(a) * k", "0", "l2")
    np.testing.assert_allclose(cp.asnumpy(l2(xd, np.float32(2), axis=2)), np.sqrt((x * x).sum(axis=2)) * 2, rtol=1e-6)
    mx = cp.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", "-1e30", "mx")
    np.testing.assert_array_equal(cp.asnumpy(mx(xd, axis=1)), x.max(axis=1))
    np.testing.assert_array_equal(cp.asnumpy(mx(cp.asarray(np.zeros((2, 0), np.float32)), axis=1)),
                                  np.full(2, -1e30, np.float32))
    with pytest.raises(cupy_sim.HostArrayError):
        sq(x, md, axis=0)
    with pytest.raises(ValueError):
        sq(xd, md, axis=3)
    with pytest.raises(SyntaxError):     # CuPy pastes post_map_expr into parentheses: one expression
        cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a;", "0", "bad")
    with pytest.raises(SyntaxError):
        cp.ReductionKernel("T x", "T y", "x +", "a + b", "y = a", "0", "bad")


def test_elementwise_raw_parameters_index_and_c_integer_division():
    cp = cupy_sim.make_modules(elementwise=True)["cupy"]
    rev = cp.ElementwiseKernel("raw T x, int32 n", "T y",
                               "ptrdiff_t j = i % n; y = x[(i / n) * n + (n - 1 - j)];", "rev")
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = cp.empty((3, 4), np.float32)
    np.testing.assert_array_equal(cp.asnumpy(rev(cp.asarray(a), np.int32(4), out)), a[:, ::-1])
    # a raw array is read in its logical C order whatever its strides
    np.testing.assert_array_equal(cp.asnumpy(rev(cp.asarray(a).T, np.int32(3), cp.empty((4, 3), np.float32))),
                                  a.T[:, ::-1])
    cdiv = cp.ElementwiseKernel("int32 a, int32 b", "int32 q, int32 r", "q = a / b; r = a % b;", "cdiv")
    q, r = cdiv(cp.asarray(np.array([7, -7, 7, -7], np.int32)), cp.asarray(np.array([2, 2, -2, -2], np.int32)))
    assert cp.asnumpy(q).tolist() == [3, -3, -3, 3] and cp.asnumpy(r).tolist() == [1, -1, 1, -1]   # C truncates
    past = cp.ElementwiseKernel("raw T x", "T y", "y = x[i + 1];", "past")
    with pytest.raises(IndexError, match="IllegalAddress"):
        past(cp.asarray(a), cp.empty((3, 4), np.float32))
    with pytest.raises(cupy_sim.HostArrayError):
        rev(a, np.int32(4), out)


# --- the stand-in's RawModule: CUDA C compiled for the host against cuda_emu.h ---------------------------------------
_RAW_TEST_SOURCE = r"""
typedef float T;
// per block (x: chunk, y: row): the sum of its chunk of the row, by a shared-memory tree with barriers
extern "C" __global__ void chunk_sums(const T* __restrict__ x, T* out, int cols, long long per) {
    __shared__ T buf[64];
    T acc = 0;
    const long long start = (long long)blockIdx.x * per;
    for (long long j = start + threadIdx.x; j < min(start + per, (long long)cols); j += blockDim.x)
        acc += x[blockIdx.y * cols + j];
    buf[threadIdx.x] = acc;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h >>= 1) {
        if ((int)threadIdx.x < h) buf[threadIdx.x] += buf[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.y * gridDim.x + blockIdx.x] = buf[0];
}
extern "C" __global__ void scale_by(T* x, T k, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= k;
}
"""


def test_raw_module_as_cupy_calls_it():
    """The stand-in's RawModule runs CUDA C: blocks over a 2-D grid, a block's threads meeting at __syncthreads(),
    shared memory; one launch per call; scalars must be NumPy scalars of the parameter's type (CuPy would pass a
    Python int's or float64's bytes), pointers device arrays; what g++ refuses raises CompileException; a capture
    records the launch and the replay runs it."""
    cp = cupy_sim.make_modules(elementwise=True)["cupy"]
    module = cp.RawModule(code=_RAW_TEST_SOURCE)
    sums, scale = module.get_function("chunk_sums"), module.get_function("scale_by")
    x = np.arange(3 * 1000, dtype=np.float32).reshape(3, 1000) % 17
    xd, out = cp.asarray(x), cp.zeros((3, 4), np.float32)
    start = cupy_sim.LAUNCHES.total
    sums((4, 3), (64,), (xd, out, np.int32(1000), np.int64(250)))
    assert cupy_sim.LAUNCHES.total == start + 1
    np.testing.assert_array_equal(cp.asnumpy(out), x.reshape(3, 4, 250).sum(axis=2))
    with pytest.raises(TypeError, match="'cols' is int32 in the kernel"):
        sums((4, 3), (64,), (xd, out, 1000, np.int64(250)))
    with pytest.raises(TypeError, match="'k' is float32"):
        scale((1,), (64,), (xd, 2.0, np.int32(8)))
    with pytest.raises(cupy_sim.HostArrayError):
        scale((1,), (64,), (x, np.float32(2), np.int32(8)))
    with pytest.raises(cupy_sim.CUDARuntimeError, match="named symbol not found"):
        module.get_function("absent")
    with pytest.raises(cupy_sim.CompileException, match="was not declared|undeclared"):
        cp.RawModule(code='extern "C" __global__ void bad(float* x) { x[0] = undefined_name; }').get_function("bad")
    stream = cp.cuda.Stream()
    v = cp.asarray(np.ones(8, np.float32))
    with stream:
        stream.begin_capture()
        scale((1,), (64,), (v, np.float32(3), np.int32(8)))
        graph = stream.end_capture()
    np.testing.assert_array_equal(cp.asnumpy(v), np.ones(8))          # recorded, not run
    graph.launch()
    graph.launch()
    np.testing.assert_array_equal(cp.asnumpy(v), np.full(8, 9.0))


def _nvrtc():
    """NVIDIA's runtime compiler (``libnvrtc``, the compiler CuPy hands RawModule source to), from the
    ``nvidia-cuda-nvrtc`` wheel or the system; None where there is none. It compiles without a GPU."""
    candidates = []
    try:
        import nvidia
        for base in nvidia.__path__:
            candidates += sorted(pathlib.Path(base).glob("*/lib/libnvrtc.so*"))
    except ImportError:
        pass
    found = ctypes.util.find_library("nvrtc")
    candidates += [found] if found else []
    for path in candidates:
        try:
            return ctypes.CDLL(str(path))
        except OSError:
            continue
    return None


_NVRTC = _nvrtc()


def _nvrtc_compile(source, name):
    """``(status, log)`` of NVRTC compiling ``source`` for sm_90, as CuPy's RawModule would (0: compiled)."""
    lib = _NVRTC
    program = ctypes.c_void_p()
    assert lib.nvrtcCreateProgram(ctypes.byref(program), source.encode(), name.encode(), 0, None, None) == 0
    options = (ctypes.c_char_p * 1)(b"--gpu-architecture=compute_90")
    status = lib.nvrtcCompileProgram(program, 1, options)
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(program, log)
    lib.nvrtcDestroyProgram(ctypes.byref(program))
    return status, log.value.decode(errors="replace")


def _raw_kernel_sources(fam):
    """Every RawKernels of the kernel families with each binding of its type names it may be compiled for."""
    common = fam["nn"].RawKernels
    seen = set()
    for module in fam.values():
        for raw in [v for v in vars(module).values() if isinstance(v, common) and id(v) not in seen]:
            seen.add(id(raw))
            for binding in raw.bindings():
                labels = (np.int32, np.int64) if "const I*" in raw._source else (None,)
                for lab in labels:
                    types = binding if lab is None else dict(binding, I=lab)
                    yield f"{raw.name}_{'_'.join(np.dtype(v).name for v in types.values())}", raw.source(**types)


@pytest.mark.skipif(_NVRTC is None, reason="no NVRTC (pip install nvidia-cuda-nvrtc): the stand-in's g++ build checks "
                                           "the kernels' logic, not CUDA's rules")
def test_the_raw_kernels_compile_with_nvrtc():
    """Every hand-written kernel's source, as RawKernels hands it to CuPy, compiles with NVRTC for sm_90 (no GPU
    needed): what g++ accepts for the stand-in, CUDA may not (and the reverse). A source with an error is refused."""
    graph = cupy_sim.load_graph_modules()
    sources = dict(_raw_kernel_sources({f.__name__.rsplit(".", 1)[-1]: f for f in graph.families}))
    sources["ms_copy_many"] = graph.capture._COPY_MANY.source()
    sources["ms_philox"] = graph.common._PHILOX.source()        # (the counter-based random streams: no type names)
    pooling = next(f for f in graph.families if f.__name__.endswith(".pooling"))
    for kernel in ((2, 2), (3, 3), (1, 3), (2, 2, 2), (3, 3, 3)):    # MaxPoolGrad's, generated per window size
        raw = pooling._grad_kernels(kernel)
        for types in raw.bindings():
            sources[f"{raw.name}_{'_'.join(np.dtype(v).name for v in types.values())}"] = raw.source(**types)
    assert {"ms_batch_norm_float32_float32", "ms_batch_norm_float32_float16", "ms_batch_norm_float32_bfloat16",
            "ms_cast_many_float32_float16", "ms_cast_many_bfloat16_float32", "ms_softmax_rows_float32_float32",
            "ms_softmax_rows_float32_float16", "ms_ln_rows_float64_float64", "ms_ln_rows_float32_bfloat16",
            "ms_softmax_grad_rows_float32_bfloat16",
            "ms_ln_grad_rows_float32", "ms_momentum_many_float32", "ms_momentum_many_float64",
            "ms_adam_many_float32_float32", "ms_adam_many_float64_float32", "ms_adam_weight_decay_many_float64_float64",
            "ms_relu_bf16_float32_bfloat16", "ms_matrix_inverse_float32", "ms_matrix_inverse_float64",
            "ms_sparse_softmax_ce_float32_int64", "ms_sum_leading_float64", "ms_max_pool_grad_2x2_float32_float16",
            "ms_max_pool_grad_3x3x3_float32_bfloat16"} <= set(sources), sorted(sources)
    for name, text in sources.items():
        status, log = _nvrtc_compile(text, f"{name}.cu")
        assert status == 0, f"{name}:\n{log}"
    status, log = _nvrtc_compile('extern "C" __global__ void bad(float* x) { x[0] = undefined_name; }', "bad.cu")
    assert status != 0 and "undefined_name" in log
