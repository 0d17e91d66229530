"""Tensor methods of MindSpore 2.10 (``mindspore/ops/tensor_methods.py``) against the values real MindSpore 2.10
gave (``tests/fixtures/api/tensor_methods_reference.npz``, made by ``make_tensor_methods_fixture.py`` from the
calls in ``tensor_method_cases.py``) and, where MindSpore 2.10's CPU build cannot run a method (most in-place
kernels are Ascend-only there), NumPy oracles; then graph mode (``@ms.jit``, in-place methods included) and
gradients.
"""
import json
import pathlib
import sys

import numpy as np
import pytest
import scipy.special

import mindspore as ms
from mindspore import Tensor, ops

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from tensor_method_cases import CASES, make_data, run_case  # noqa: E402
from make_tensor_methods_fixture import FIXTURE, flatten  # noqa: E402

REF = np.load(FIXTURE)
FAILED = json.loads(str(REF["__failed__"]))
# MindSpore 2.10's CPU build returns the result of these in-place methods without writing it into the tensor
# (its kernels fall back to the out-of-place op); the methods' contract, and ours, writes it.
NOT_WRITTEN_ON_CPU = {"floor_divide_", "remainder_"}


def _d():
    return make_data()


def _inplace(value):
    return value, value


def _fill_diag(x, v, wrap=False):
    x = x.copy()
    np.fill_diagonal(x, v, wrap=wrap)
    return x


def _scatter_rows(x, dim, index, src, add=False):
    x = x.copy()
    for pos in np.ndindex(*index.shape):
        tgt = list(pos)
        tgt[dim] = index[pos]
        x[tuple(tgt)] = x[tuple(tgt)] + src[pos] if add else src[pos]
    return x


def _put(x, idx, src, acc):
    flat = x.copy().reshape(-1)
    if acc:
        np.add.at(flat, idx, src)
    else:
        flat[idx] = src
    return flat.reshape(x.shape)


def _masked_scatter(x, mask, src):
    out = x.copy()
    mask = np.broadcast_to(mask, x.shape)
    out[mask] = src.reshape(-1)[:mask.sum()]
    return out


def _index_add(x, dim, idx, src, alpha=1):
    out = x.copy()
    for j, i in enumerate(idx):
        sl = [slice(None)] * x.ndim
        sl[dim] = i
        ss = [slice(None)] * x.ndim
        ss[dim] = j
        out[tuple(sl)] += alpha * src[tuple(ss)]
    return out


def _index_copy(x, idx, src):
    out = x.copy()
    out[idx] = src
    return out


# NumPy oracles: every case where MindSpore 2.10's CPU build failed, and a few more as a second check
ORACLES = {
    "kthvalue": lambda d: (np.sort(d["a"], 1)[:, 1], np.argsort(d["a"], 1)[:, 1]),
    "unique": lambda d: tuple(np.unique(d["rep"], return_inverse=True, return_counts=True)),
    "unique_consecutive": lambda d: (np.array([1, 2, 3, 1]), np.array([2, 3, 1, 2])),
    "addmm_": lambda d: _inplace(2 * d["a"] + d["a"]),
    "index_fill_": lambda d: _inplace(np.where(np.arange(4) == 3, np.float32(0.5), d["a"])),
    "index_add_": lambda d: _inplace(_index_add(d["a"], 0, [2, 0], d["m45"][:2, :4])),
    "masked_scatter_": lambda d: _inplace(_masked_scatter(d["a"], d["a"] > 0, d["m45"])),
    "masked_scatter": lambda d: _masked_scatter(d["a"], np.array([True, False, True, False]), d["m45"]),
    "scatter_": lambda d: _inplace(_scatter_rows(d["a"], 1, np.array([[0], [3], [1]]), d["v3"].reshape(3, 1))),
    "scatter_value": lambda d: _inplace(_scatter_rows(d["a"], 0, np.array([[2, 0, 1, 1]]), np.full((1, 4), 9.0))),
    "scatter_add_": lambda d: _inplace(_scatter_rows(d["a"], 1, np.array([[0, 0], [1, 3], [2, 2]]),
                                                     np.ones((3, 2)), add=True)),
    "index_copy_": lambda d: _inplace(_index_copy(d["a"], [2, 0], d["m45"][:2, :4])),
    "put_": lambda d: _inplace(_put(d["a"], [0, 5, 11], d["v3"], False)),
    "put_acc": lambda d: _inplace(_put(d["a"], [1, 1, 4], d["v3"], True)),
    "fill_diagonal_": lambda d: _inplace(_fill_diag(d["a"], 5.0)),
    "fill_diagonal_wrap": lambda d: _inplace(_fill_diag(np.zeros((7, 3), np.float32), 2.0, wrap=True)),
    "floor_divide_": lambda d: _inplace(d["ints"] // 3),
    "remainder_": lambda d: _inplace(np.mod(d["a"], np.float32(0.7))),
    "sign_": lambda d: _inplace(np.sign(d["a"])),
    "tanh_": lambda d: _inplace(np.tanh(d["a"])),
    "erfinv_": lambda d: _inplace(scipy.special.erfinv(d["p"] - 0.5)),
    "logit": lambda d: np.log(d["p"] / (1 - d["p"])),
    "matrix_power_neg": lambda d: np.linalg.matrix_power(d["sq"].astype(np.float64), -2),
    "sum_to_size": lambda d: d["b3"].sum(axis=(0, 2)).reshape(3, 1),
    "xdivy": lambda d: np.array([0.0, 0.5, -1.5]),
    "tensor_split_idx": lambda d: tuple(np.array_split(d["a"], [1, 2], axis=0)),
    "choose": lambda d: np.choose([0, 1, 2, 1], d["ints"]),
    "angle": lambda d: np.angle(d["a"]).astype(np.float32),     # MindSpore 2.10's CPU kernel takes complex only
    "fills": lambda d: np.full((3, 4), 2.5, np.float32),
    "nanquantile": lambda d: np.nanquantile(d["nan"], 0.4, axis=1),      # MindSpore 2.10: no CPU kernel
    "nanquantile_all": lambda d: np.nanquantile(d["nan"], 0.5),
    "nanmedian": lambda d: (np.array([1.0, 5.0]), np.array([0, 1])),
    "cholesky": lambda d: np.linalg.cholesky(d["sq"].astype(np.float64) @ d["sq"].T),
    "cholesky_inverse": lambda d: np.linalg.inv(d["sq"].astype(np.float64) @ d["sq"].T),
    "triangular_solve": lambda d: (np.linalg.solve(np.triu(d["sq"]), np.triu(d["sq"]).T), np.triu(d["sq"])),
    "quantile": lambda d: np.quantile(d["a"], 0.3, axis=1),
    "quantile_vec": lambda d: np.quantile(d["a"], [0.25, 0.5], axis=0, keepdims=True),
    "quantile_all": lambda d: np.quantile(d["a"], 0.9),
    "uniform_shape": lambda d: (3, 4),
    "slice_scatter": lambda d: np.where(np.arange(4) % 2 == 0, np.float32(0), d["a"]),
    "index_put_acc": lambda d: d["a"] + np.array([2, 0, 1])[:, None] * d["v4"],
    "logcumsumexp": lambda d: np.log(np.cumsum(np.exp(d["a"].astype(np.float64)), 1)),
    "renorm": lambda d: d["a"] * np.minimum(1.0, 1.0 / (np.linalg.norm(d["a"], axis=1, keepdims=True) + 1e-7)),
}


def _ours(name):
    out = {}
    flatten(run_case(ms, name, _d()), name, out)
    return out


def _close(a, b, key):
    assert a.shape == b.shape, (key, a.shape, b.shape)
    if a.dtype.kind in "USb" or b.dtype.kind in "USb":
        assert a.tolist() == b.tolist(), key
    else:
        np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), rtol=1e-4, atol=1e-5,
                                   equal_nan=True, err_msg=key)


def test_every_case_has_a_reference():
    assert set(CASES) <= set(FAILED) | {k.split("/")[0] for k in REF.files}
    assert set(FAILED) <= set(ORACLES), sorted(set(FAILED) - set(ORACLES))


@pytest.mark.parametrize("name", sorted(set(CASES) - set(FAILED)))
def test_matches_mindspore_2_10(name):
    got = _ours(name)
    ref = {k: REF[k] for k in REF.files if k == name or k.startswith(name + "/")}
    if name in NOT_WRITTEN_ON_CPU:   # compare the returned value; the tensor must hold it too
        ref.pop(name + "/1")
        _close(got[name + "/1"], got[name + "/0"], name)
        got.pop(name + "/1")
    assert set(got) == set(ref)
    for key in ref:
        assert got[key].dtype == ref[key].dtype, (key, got[key].dtype, ref[key].dtype)
        _close(got[key], ref[key], key)


@pytest.mark.parametrize("name", sorted(ORACLES))
def test_numpy_oracle(name):
    got = _ours(name)
    expect = {}
    flatten(ORACLES[name](_d()), name, expect)
    assert set(got) == set(expect)
    for key in expect:
        _close(got[key], expect[key], key)


def test_inplace_keeps_dtype_and_identity():
    x = Tensor(np.arange(6, dtype=np.int32).reshape(2, 3))
    r = x.index_fill_(1, Tensor(np.array([1], np.int32)), 2.7)
    assert r is x and x.dtype == ms.int32
    np.testing.assert_array_equal(x.asnumpy(), [[0, 2, 2], [3, 2, 5]])


def test_methods_in_graph_mode():
    d = _d()

    @ms.jit
    def f(x, idx, src):
        x.index_fill_(1, idx, 0.0)   # later uses of x see the update
        w = x.scatter_add_(0, Tensor(np.zeros((1, 4), np.int64)), src)
        y = w.diagonal() + x.trace()
        x = w * 1
        return x, y, x.logit(eps=0.1), ops.matmul(x, x.T).matrix_power(2).reshape_as(x[:, :3].reshape(9, 1))

    a = d["a"]
    x, y, lg, r = f(Tensor(a), Tensor(np.array([0, 2], np.int32)), Tensor(np.ones((1, 4), np.float32)))
    want = a.copy()
    want[:, [0, 2]] = 0.0
    want[0] += 1.0
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(y.asnumpy(), np.diagonal(want) + np.trace(want), rtol=1e-5)
    c = np.clip(want, 0.1, 0.9)
    np.testing.assert_allclose(lg.asnumpy(), np.log(c / (1 - c)), rtol=1e-5)
    np.testing.assert_allclose(r.asnumpy(), np.linalg.matrix_power(want @ want.T, 2).reshape(9, 1), rtol=1e-4)


def test_gradients():
    d = _d()
    sq = Tensor(d["sq"])

    def loss(x):
        return (x.matrix_power(3).sum() + x.diagonal().sum() * 2 + x.logit(eps=0.01).sum()
                + x.index_fill(1, Tensor(np.array([0], np.int32)), 0.0).sum())

    g = ms.grad(loss)(sq).asnumpy()
    x = d["sq"].astype(np.float64)
    # d/dx sum(x^3) = sum over the three positions of the product's adjoints
    one = np.ones_like(x)
    g_pow = one @ (x @ x).T + x.T @ one @ x.T + (x @ x).T @ one
    c = np.clip(x, 0.01, 0.99)
    g_logit = np.where((x > 0.01) & (x < 0.99), 1 / (c * (1 - c)), 0.0)
    g_fill = np.ones_like(x)
    g_fill[:, 0] = 0
    np.testing.assert_allclose(g, g_pow + 2 * np.eye(3) + g_logit + g_fill, rtol=1e-4, atol=1e-4)


def test_masked_scatter_gradient_reaches_source():
    d = _d()
    mask = Tensor(np.array([True, False, True, False]))
    gx, gs = ms.grad(lambda x, s: (x.masked_scatter(mask, s) * 3).sum(), grad_position=(0, 1))(
        Tensor(d["a"]), Tensor(d["m45"]))
    np.testing.assert_allclose(gx.asnumpy(), np.broadcast_to(np.where(mask.asnumpy(), 0.0, 3.0), (3, 4)))
    want = np.zeros(20)
    want[:6] = 3.0
    np.testing.assert_allclose(gs.asnumpy().reshape(-1), want)


def test_errors_in_mindspore_style():
    with pytest.raises(ValueError, match="only 2-D Tensor is supported, but got 3-D"):
        _ = Tensor(_d()["b3"]).H
    with pytest.raises(ValueError, match="For 'Tensor.sum_to_size'"):
        Tensor(_d()["a"]).sum_to_size(5)
    with pytest.raises(ValueError, match="For 'Tensor.scatter_', the 'reduce'"):
        Tensor(_d()["a"]).scatter_(0, Tensor(np.zeros((1, 4), np.int64)), 1.0, reduce="max")
    with pytest.raises(ValueError, match="For 'Tensor.fill_diagonal_'"):
        Tensor(np.zeros((2, 3, 4), np.float32)).fill_diagonal_(1.0)
    with pytest.raises(TypeError, match="For 'Tensor.matrix_power', the 'n' must be an int"):
        Tensor(_d()["sq"]).matrix_power(1.5)


def test_random_methods_distribution_and_seed():
    base = Tensor(np.zeros((200, 100), np.float32))
    ms.set_seed(7)
    b = base.copy().bernoulli_(0.3).asnumpy()
    assert set(np.unique(b)) <= {0.0, 1.0} and abs(b.mean() - 0.3) < 0.02
    e = base.copy().exponential_(2.0).asnumpy()
    assert e.min() >= 0 and abs(e.mean() - 0.5) < 0.02
    r = Tensor(np.zeros((200, 100), np.int32)).random_(3, 8).asnumpy()
    assert r.dtype == np.int32 and set(np.unique(r)) == {3, 4, 5, 6, 7}
    u = base.uniform(2.0, 3.0).asnumpy()
    assert u.min() >= 2.0 and u.max() < 3.0 and abs(u.mean() - 2.5) < 0.01
    c = base.cauchy(1.0, 0.5).asnumpy()
    assert abs(np.median(c) - 1.0) < 0.03 and abs(np.median(np.abs(c - 1.0)) - 0.5) < 0.03
    ln = base.log_normal(1.0, 0.5).asnumpy()
    assert abs(np.log(ln).mean() - 1.0) < 0.02 and abs(np.log(ln).std() - 0.5) < 0.02
    pb = Tensor(np.full((200, 100), 0.8, np.float32)).bernoulli().asnumpy()
    assert abs(pb.mean() - 0.8) < 0.02
    ms.set_seed(7)
    np.testing.assert_array_equal(base.copy().bernoulli_(0.3).asnumpy(), b)


def test_scatter_views_gradients():
    d = _d()
    w = Tensor(d["m45"][:3, :4].copy())

    def f(x, s):
        return (x.diagonal_scatter(s, 1).select_scatter(s * 2, 1, 2) * w).sum()

    gx, gs = ms.grad(f, grad_position=(0, 1))(Tensor(d["a"]), Tensor(d["v3"]))
    wn = d["m45"][:3, :4]
    want_x = wn.copy()
    want_x[np.arange(3), np.arange(1, 4)] = 0
    want_x[:, 2] = 0
    want_s = wn[np.arange(3), np.arange(1, 4)].copy()
    want_s[1] = 0                       # (1, 2) was overwritten by the select_scatter
    want_s += 2 * wn[:, 2]
    np.testing.assert_allclose(gx.asnumpy(), want_x, rtol=1e-6)
    np.testing.assert_allclose(gs.asnumpy(), want_s, rtol=1e-5)


def test_logcumsumexp_and_index_put_gradients():
    d = _d()
    a = d["a"].astype(np.float64)
    g = ms.grad(lambda x: x.logcumsumexp(1).sum())(Tensor(d["a"])).asnumpy()
    e = np.exp(a)
    cs = np.cumsum(e, 1)
    want = e * np.flip(np.cumsum(np.flip(1 / cs, 1), 1), 1)
    np.testing.assert_allclose(g, want, rtol=1e-4)
    idx = (Tensor(np.array([0, 2], np.int32)), Tensor(np.array([1, 3], np.int32)))
    gx, gv = ms.grad(lambda x, v: (x.index_put(idx, v) * 3).sum(), grad_position=(0, 1))(
        Tensor(d["a"]), Tensor(np.ones(2, np.float32)))
    want_x = np.full((3, 4), 3.0)
    want_x[0, 1] = want_x[2, 3] = 0
    np.testing.assert_allclose(gx.asnumpy(), want_x)
    np.testing.assert_allclose(gv.asnumpy(), [3.0, 3.0])


def test_more_methods_in_graph_mode():
    d = _d()

    @ms.jit
    def f(x, sq, s):
        return (x.select_scatter(s, 1, 2), x.quantile(0.3, axis=1), sq.logdet(), x.slice_scatter(x[:, :2], 1, 2),
                x.argmax_with_value(1)[0], x.logcumsumexp(0))

    a = d["a"]
    sel, q, ld, sl, mx, lc = f(Tensor(a), Tensor(d["sq"]), Tensor(d["v3"]))
    want = a.copy()
    want[:, 2] = d["v3"]
    np.testing.assert_allclose(sel.asnumpy(), want)
    np.testing.assert_allclose(q.asnumpy(), np.quantile(a, 0.3, axis=1), rtol=1e-5)
    np.testing.assert_allclose(ld.asnumpy(), np.log(np.linalg.det(d["sq"].astype(np.float64))), rtol=1e-4)
    want = a.copy()
    want[:, 2:] = a[:, :2]
    np.testing.assert_allclose(sl.asnumpy(), want)
    np.testing.assert_allclose(mx.asnumpy(), a.max(1))
    np.testing.assert_allclose(lc.asnumpy(), np.log(np.cumsum(np.exp(a.astype(np.float64)), 0)), rtol=1e-5)


def _numeric_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(*x.shape):
        hi, lo = x.copy(), x.copy()
        hi[i] += eps
        lo[i] -= eps
        g[i] = (f(hi) - f(lo)) / (2 * eps)
    return g


def test_cholesky_and_nanquantile_gradients_and_graph():
    d = _d()
    spd = d["sq"].astype(np.float64) @ d["sq"].T.astype(np.float64)
    w = d["m45"][:3, :3].astype(np.float64)

    def loss_np(a):
        sym = (a + a.T) / 2
        return float((np.linalg.cholesky(sym) * w).sum())

    got = ms.grad(lambda a: ((a + a.T) / 2).cholesky().mul(Tensor(w)).sum())(Tensor(spd)).asnumpy()
    np.testing.assert_allclose(got, _numeric_grad(loss_np, spd), rtol=1e-5, atol=1e-7)

    x = d["nan"].astype(np.float64)
    got = ms.grad(lambda t: t.nanquantile(0.4, axis=1).sum())(Tensor(x)).asnumpy()
    want = np.zeros_like(x)
    want[0, 0], want[0, 2] = 0.6, 0.4     # rows' valid values (1, 3) and (5, 6): position 0.4 between them
    want[1, 1], want[1, 2] = 0.6, 0.4
    np.testing.assert_allclose(got, want, rtol=1e-6)

    @ms.jit
    def f(a, b):
        return a.cholesky(), b.cholesky_solve(a.cholesky()), b.nanmedian(0)[0]

    low, sol, med = f(Tensor(spd), Tensor(spd[:, :2].copy()))
    np.testing.assert_allclose(low.asnumpy(), np.linalg.cholesky(spd), rtol=1e-10)
    np.testing.assert_allclose(sol.asnumpy(), np.linalg.solve(spd, spd[:, :2]), rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(med.asnumpy(), np.sort(spd[:, :2], 0)[1])


def test_segment_and_scatter_reductions_gradients_and_graph():
    d = _d()
    m = d["m45"]
    ids = Tensor(np.array([0, 2, 0, 2], np.int32))
    g = ms.grad(lambda x: x.unsorted_segment_max(ids, 3).sum())(Tensor(m)).asnumpy()
    want = np.zeros_like(m)
    for rows in ([0, 2], [1, 3]):
        arg = np.array(rows)[np.argmax(m[rows], 0)]
        want[arg, np.arange(5)] = 1.0
    np.testing.assert_allclose(g, want)
    idx = Tensor(np.array([[0, 1], [2, 3]], np.int32))
    gx, gu = ms.grad(lambda x, u: x.scatter_mul(idx, u).sum(), grad_position=(0, 1))(
        Tensor(d["a"]), Tensor(np.array([2.0, 3.0], np.float32)))
    want_x = np.ones((3, 4))
    want_x[0, 1], want_x[2, 3] = 2.0, 3.0
    np.testing.assert_allclose(gx.asnumpy(), want_x)
    np.testing.assert_allclose(gu.asnumpy(), [d["a"][0, 1], d["a"][2, 3]], rtol=1e-6)

    @ms.jit
    def f(x, u):
        return x.unsorted_segment_min(ids, 3), x.scatter_max(idx, u[:2, 0])

    smin, smax = f(Tensor(m), Tensor(m))
    want = np.stack([m[[0, 2]].min(0), np.full(5, np.finfo(np.float32).max), m[[1, 3]].min(0)])
    np.testing.assert_allclose(smin.asnumpy(), want)
    want = m.copy()
    want[0, 1] = max(m[0, 1], m[0, 0])
    want[2, 3] = max(m[2, 3], m[1, 0])
    np.testing.assert_allclose(smax.asnumpy(), want)


def test_data_ptr_follows_the_buffer():
    x = Tensor(np.arange(6, dtype=np.float32))
    buf = x._buffer()
    if isinstance(buf, np.ndarray):   # asnumpy() is a view of the host buffer there
        assert x.data_ptr() == x.asnumpy().__array_interface__["data"][0]
    elif not hasattr(buf, "__cuda_array_interface__"):   # a device whose buffers expose no address (STRICT)
        with pytest.raises(RuntimeError, match="exposes no address"):
            x.data_ptr()
        return
    assert x.data_ptr() != 0
    y = x.copy()
    assert y.data_ptr() != x.data_ptr()
    assert x.data is x and x.value() is x and x.device in ("CPU", "GPU")
    assert x.get_bytes() == np.arange(6, dtype=np.float32).tobytes()
