"""The C++ kernels that compute float32 Softmax, its gradient, LayerNorm(Grad) and ReduceSum/ReduceMean in MindSpore
2.10's orders (``_csrc/softmax.cpp``, ``layer_norm.cpp``, ``reduce.cpp``, ``ordered_sums.h``), checked bit for bit
against NumPy written out in those orders, one operation (one rounding) at a time, on shapes that take every path:
AVX2 blocks and their tails, eight-row interleaving and its leftovers, gamma narrower and wider than a row, and sums
whose values make the long-row shortcut (a block of eight added at once when no addition can round) fail and succeed.
The same kernels forced onto their portable paths (MINDSPORE_CPU_ORDERED_ISA=portable: std::fma in software, scalar
loops) give the same bits. 2.10's own values are in tests/ops/test_layer_norm_softmax_cpu_2_10.py."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from mindspore_cpu import _kernels as K

F32, F64 = np.float32, np.float64


def _bits_equal(got, want):
    got, want = np.asarray(got, F32), np.asarray(want, F32)
    assert got.shape == want.shape, (got.shape, want.shape)
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all(), f"{(~same).sum()} of {same.size} differ, e.g. {got[~same][:3]} vs {want[~same][:3]}"


# --- NumPy in 2.10's orders -------------------------------------------------------------------------------------
def _fma(a, b, c):
    """a * b + c rounded once to float32 (the product is exact in float64)."""
    return (np.asarray(a, F64) * np.asarray(b, F64) + np.asarray(c, F64)).astype(F32)


def _nnacl_exp(x):
    x = np.clip(x, F32(-87.3365478515625), F32(88.72283935546875)).astype(F32)
    n = np.floor(_fma(x, F32(1.44269504088896341), F32(0.5)))
    d = _fma(-n, F32(0.693147), x)
    t = _fma(d, F32(1 / 120), F32(1 / 24))
    for c in (F32(1 / 6), F32(0.5), F32(1), F32(1)):
        t = _fma(d, t, c)
    scale = ((n.astype(np.int32) + 126) << 23).view(F32)
    return F32(2) * scale * t


def _softmax(x):
    n = x.shape[-1]
    rows = x.reshape(-1, n)
    e = _nnacl_exp(rows - rows.max(axis=1, keepdims=True))
    a8 = n - n % 8
    lanes = np.zeros((rows.shape[0], 8), F32)
    for k in range(0, a8, 8):
        lanes = lanes + e[:, k:k + 8]
    total = np.zeros(rows.shape[0], F32)
    h = lanes[:, 0]
    for i in range(1, 8):
        h = h + lanes[:, i]
    total = total + h
    k = a8
    if n - a8 >= 4:
        total = total + (((e[:, k] + e[:, k + 1]) + e[:, k + 2]) + e[:, k + 3])
        k += 4
    for j in range(k, n):
        total = total + e[:, j]
    return (e * (F32(1) / total)[:, None]).reshape(x.shape)


def _lanes(a):
    rows, n = a.shape
    lanes = np.zeros((rows, 8), F32)
    for k in range(0, n - n % 8, 8):
        lanes = lanes + a[:, k:k + 8]
    total = np.zeros(rows, F32)
    for i in range(8):
        total = total + lanes[:, i]
    for j in range(n - n % 8, n):
        total = total + a[:, j]
    return total


def _double_rows(a):
    total = np.zeros(a.shape[0], F64)
    for j in range(a.shape[1]):
        total = total + a[:, j]
    return total.astype(F32)


def _layer_norm(x, g, b, eps):
    rows, n = x.shape
    xd = x.astype(F64)
    s, q = np.zeros(rows), np.zeros(rows)
    for j in range(n):
        s, q = s + xd[:, j], q + xd[:, j] * xd[:, j]
    mean = s / n
    var = np.maximum((q / n - mean * mean).astype(F32), F32(0))
    idx = np.arange(rows * n).reshape(rows, n) % g.size
    y = (x - mean.astype(F32)[:, None]) / np.sqrt(var + eps)[:, None] * g[idx] + b[idx]
    return y, mean.astype(F32), var


def _layer_norm_grad(x, dy, var, mean, g, eps):
    rows, n = x.shape
    pn = g.size
    xm, dyg = x - mean[:, None], dy * g[np.arange(rows * n).reshape(rows, n) % pn]
    s1, s2, s3 = np.zeros(rows, F32), np.zeros(rows, F32), np.zeros(rows, F32)
    for j in range(n):
        s1, s2, s3 = s1 + dyg[:, j] * xm[:, j], s2 + dyg[:, j], s3 + xm[:, j]
    shifted = (var + eps).astype(F64)
    r, r3 = (shifted ** -0.5).astype(F32), (shifted ** -1.5).astype(F32)
    s1, s3 = s1 * (F32(-0.5) * r3), s3 * F32(-2)
    inv = F32(1) / F32(n)
    dx4, dx5 = F32(2) * s1 * inv, (F32(-1) * r * s2 + inv * s1 * s3) * inv
    dx = dyg * r[:, None] + xm * dx4[:, None] + dx5[:, None]
    row_of = np.arange(rows * n).reshape(-1, pn) // n
    dg, db = np.zeros(pn, F32), np.zeros(pn, F32)
    for k, (xr, dr) in enumerate(zip(x.reshape(-1, pn), dy.reshape(-1, pn))):
        dg, db = dg + dr * r[row_of[k]] * (xr - mean[row_of[k]]), db + dr
    return dx, dg, db


# --- the cases ----------------------------------------------------------------------------------------------------
def _softmax_inputs():
    rng = np.random.RandomState(0)
    for shape in ((3, 1), (4, 3), (5, 4), (6, 7), (4, 8), (3, 12), (4, 13), (5, 100), (2, 1003), (2, 3, 4, 37)):
        for scale in (0.1, 3.0, 40.0):
            yield (rng.randn(*shape) * scale).astype(F32)


def test_softmax_matches_nnacl_order():
    for x in _softmax_inputs():
        y, bad = K.softmax_last_f32(x)
        assert bad.size == 0
        _bits_equal(y, _softmax(x))


def test_softmax_reports_rows_with_nan_or_plus_inf_or_no_finite_value():
    x = np.random.RandomState(1).randn(6, 13).astype(F32)
    x[1, 3], x[2, 12], x[4] = np.inf, np.nan, -np.inf
    x[5, 0] = -np.inf                        # a -inf among finite values is an ordinary row: exp gives 0
    y, bad = K.softmax_last_f32(x)
    assert bad.tolist() == [1, 2, 4]
    ok = [0, 3, 5]
    _bits_equal(y[ok], _softmax(x[ok]))
    assert y[5, 0] == 0


def test_softmax_grad_sums_in_reduce_sums_order():
    rng = np.random.RandomState(2)
    for shape in ((8, 16), (4, 13), (6, 7), (2, 1003), (7,), (2, 3, 24), (3, 2, 5, 70)):
        y, dy = rng.rand(*shape).astype(F32), rng.randn(*shape).astype(F32)
        p = (y * dy).reshape(-1, shape[-1])
        total = (_lanes(p) if len(shape) == 2 else _double_rows(p)).reshape(shape[:-1] + (1,))
        _bits_equal(K.softmax_grad_last_f32(y, dy), y * (dy - total))


_DISTRIBUTIONS = {
    "normal": lambda rng, n: rng.randn(n) * 3 + 1,
    "wide magnitudes": lambda rng, n: rng.randn(n) * 10.0 ** rng.randint(-30, 30, n),
    "cancelling": lambda rng, n: np.concatenate([rng.randn(n // 2), -rng.randn(n - n // 2)]) * 1e6,
    "tiny and zeros": lambda rng, n: np.where(rng.rand(n) < 0.5, 0, rng.randn(n) * 1e-40),
    "powers of two": lambda rng, n: 2.0 ** rng.randint(-20, 30, n) * rng.choice([-1, 1], n),
    "just below 1": lambda rng, n: 0.999999 + rng.randn(n) * 1e-7,
    # sums that reach 2^53 times the smallest ulp: the shortcut holds for some blocks and fails for others
    "at the exactness bound": lambda rng, n: np.where(rng.rand(n) < 0.9, rng.randint(-2 ** 24, 2 ** 24, n) * 64.0,
                                                      1 + rng.randn(n) * 2.0 ** -10),
    "growing past it": lambda rng, n: np.where(rng.rand(n) < 0.5, 2.0 ** 29 + rng.randint(0, 2 ** 10, n) * 64.0,
                                               rng.rand(n) * 2.0 ** -3),
}


@pytest.mark.parametrize("dist", sorted(_DISTRIBUTIONS))
def test_double_sums_match_sequential_double_additions(dist):
    rng = np.random.RandomState(3)
    for n in (7, 64, 100, 4099):
        for rows in (1, 3, 8, 13):
            x = _DISTRIBUTIONS[dist](rng, rows * n).astype(F32).reshape(rows, n)
            if n > 64:
                x[rng.randint(rows), rng.randint(n)] = rng.choice([np.inf, -np.inf, np.nan])
            _bits_equal(K.sum_rows_f64(x, False), _double_rows(x))
            _bits_equal(K.sum_rows_f64(x, True), _double_rows(x) / F32(n))
            _bits_equal(K.sum_columns_f64(np.ascontiguousarray(x.T), False), _double_rows(x))


def test_float_sums_in_nnacl_orders_and_double_column_sums():
    rng = np.random.RandomState(4)
    for shape in ((7, 100), (7, 13), (300, 9), (300, 1), (1, 5), (64, 512), (5, 1100)):
        x = (rng.randn(*shape) * 3 + 1).astype(F32)
        _bits_equal(K.sum_lanes_f32(x, False), _lanes(x))
        _bits_equal(K.sum_lanes_f32(x, True), _lanes(x) / F32(shape[1]))
        want = np.zeros(shape[1], F32)
        for row in x:
            want = want + row
        _bits_equal(K.sum_columns_f32(x), want)
        _bits_equal(K.sum_columns_f64(x, True), _double_rows(np.ascontiguousarray(x.T)) / F32(shape[0]))


@pytest.mark.parametrize("rows, n, pn", [(8, 256, 256), (6, 231, 231), (4, 60, 10), (13, 33, 11), (5, 12, 20),
                                          (9, 5, 45), (17, 7, 7)])
def test_layer_norm_and_its_gradient(rows, n, pn):
    rng = np.random.RandomState(5)
    x = (rng.randn(rows, n) * 2 + 0.5).astype(F32)
    g, b = (1 + rng.randn(pn) * 0.3).astype(F32), (rng.randn(pn) * 0.3).astype(F32)
    for got, want in zip(K.layer_norm_f32(x, g, b, 1e-5), _layer_norm(x, g, b, F32(1e-5))):
        _bits_equal(got, want)
    dy, mean = rng.randn(rows, n).astype(F32), rng.randn(rows).astype(F32)
    var = rng.uniform(0.5, 4, rows).astype(F32)
    for got, want in zip(K.layer_norm_grad_f32(x, dy, var, mean, g, float(F32(1e-7))),
                         _layer_norm_grad(x, dy, var, mean, g, F32(1e-7))):
        _bits_equal(got, want)


_PORTABLE_SCRIPT = r"""
import json, sys
import numpy as np
from mindspore_cpu import _kernels as K
rng = np.random.RandomState(6)
x = (rng.randn(37, 203) * 4).astype(np.float32)
w = rng.randn(37 * 203).astype(np.float32) * 10.0 ** rng.randint(-8, 8, 37 * 203).astype(np.float32)
g = rng.rand(203).astype(np.float32)
outs = [K.softmax_last_f32(x)[0], K.softmax_grad_last_f32(x, x), K.softmax_grad_last_f32(x[None], x[None]),
        K.sum_rows_f64(w.reshape(1, -1), False), K.sum_rows_f64(x, True), K.sum_lanes_f32(x, False),
        *K.layer_norm_f32(x, g, g, 1e-5), *K.layer_norm_grad_f32(x, x, g[:37], g[:37], g, 1e-7)]
json.dump([np.ascontiguousarray(o).view(np.uint32).ravel().tolist() for o in outs], sys.stdout)
"""


def test_portable_paths_give_the_same_bits():
    def run(env):
        res = subprocess.run([sys.executable, "-c", _PORTABLE_SCRIPT], capture_output=True, text=True, check=True,
                             env={**os.environ, **env})
        return json.loads(res.stdout)
    fast, portable = run({}), run({"MINDSPORE_CPU_ORDERED_ISA": "portable"})
    assert len(fast) == len(portable) == 12
    for i, (a, b) in enumerate(zip(fast, portable)):
        assert a == b, i


@pytest.mark.parametrize("call", [
    lambda: K.softmax_last_f32(np.zeros((2, 3), np.float64)),
    lambda: K.softmax_grad_last_f32(np.zeros((2, 3), F32), np.zeros((3, 2), F32)),
    lambda: K.sum_lanes_f32(np.zeros((2, 3, 4), F32), False),
    lambda: K.layer_norm_grad_f32(*(np.zeros((2, 3), F32),) * 2, *(np.zeros(2, F32),) * 2, np.zeros(4, F32), 1e-7),
    lambda: K.layer_norm_f32(np.zeros((2, 3), F32), np.zeros(3, F32), np.zeros(2, F32), 1e-5),
])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError):
        call()
