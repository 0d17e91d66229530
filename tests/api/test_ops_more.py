"""The ``mindspore.ops`` functions and primitives of ``ops/function/special_func.py``, ``scalar_func.py``,
``more_func.py``, ``nn_more_func.py``, ``fft_func.py`` and ``ops/_defs/math_special.py``, ``math_misc.py``,
``array_more.py``, ``complex_ops.py``, ``deprecated.py``, ``ctc.py``, ``fft.py``, ``linalg_more.py``, ``scatter.py``:
signatures and results as recorded from MindSpore 2.10 (``tests/fixtures/api/ops_more_reference.*``, made by
``make_ops_more_fixture.py`` from the calls in ``ops_more_cases.py``), NumPy oracles and finite-difference
gradients for what MindSpore's CPU build cannot run (its LLM kernels are Ascend-only), the in-place forms,
compiled (``@ms.jit``) runs, and MindSpore-style errors. The primitives' own forward/gradient conformance is in
``tests/conformance/cases_ops_more.py``.
"""
import inspect
import json
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from ops_more_cases import CASES  # noqa: E402

FIXTURES = pathlib.Path(__file__).parents[1] / "fixtures" / "api"
REFERENCE = json.loads((FIXTURES / "ops_more_reference.json").read_text())
ARRAYS = np.load(FIXTURES / "ops_more_reference.npz")


def _describe(fn):
    out = []
    for p in inspect.signature(fn).parameters.values():
        d = p.default
        if d is inspect.Parameter.empty:
            default = None
        elif isinstance(d, ms.dtype.Type):
            default = "dtype:" + str(d).lower()
        else:
            default = repr(d)
        out.append([p.name, p.kind.name, default])
    return out


@pytest.mark.parametrize("name", sorted(REFERENCE["signatures"]))
def test_signature_matches_mindspore_2_10(name):
    assert _describe(getattr(ops, name)) == REFERENCE["signatures"][name]


def _flatten(value):
    if isinstance(value, (tuple, list)) and any(isinstance(v, ms.Tensor) for v in value):
        return [item for v in value for item in _flatten(v)]
    if isinstance(value, ms.Tensor):
        return [value]
    return [value]


def _tolerance(dtype):
    return {"Float16": (2e-3, 2e-3), "Float64": (1e-9, 1e-12)}.get(dtype, (2e-6, 1e-6))


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_match_mindspore_2_10(name):
    want = REFERENCE["results"][name]
    assert "outputs" in want, want
    got = _flatten(CASES[name]())
    assert len(got) == len(want["outputs"])
    for g, w in zip(got, want["outputs"]):
        if "tensor" in w:
            assert isinstance(g, ms.Tensor) and str(g.dtype) == w["dtype"], (g, w)
            ref = ARRAYS[w["tensor"]]
            assert g.shape == ref.shape
            if ref.dtype.kind in "biu":
                np.testing.assert_array_equal(g.asnumpy(), ref)
            else:
                rtol, atol = _tolerance(w["dtype"])
                np.testing.assert_allclose(g.asnumpy(), ref, rtol=rtol, atol=atol, equal_nan=True)
        else:
            assert repr(g) == w["python"] and type(g).__name__ == w["type"], (g, w)


# --- what MindSpore 2.10's CPU build cannot run (Ascend-only kernels): NumPy oracles -------------------------
_RNG = np.random.default_rng(7)
_XS = _RNG.standard_normal((2, 3, 4))
_GAMMA = _RNG.uniform(0.5, 1.5, 4)
_BETA = _RNG.standard_normal(4)


def _rms(x, g, eps):
    rstd = 1.0 / np.sqrt(np.mean(x * x, -1, keepdims=True) + eps)
    return x * rstd * g, rstd


def test_rms_norm_family_against_numpy():
    x, g = ms.Tensor(_XS), ms.Tensor(_GAMMA)
    y, rstd = ops.rms_norm(x, g, 1e-5)
    ry, rr = _rms(_XS, _GAMMA, 1e-5)
    np.testing.assert_allclose(y.asnumpy(), ry, rtol=1e-12)
    np.testing.assert_allclose(rstd.asnumpy(), rr, rtol=1e-12)
    y2, rstd2, s = ops.add_rms_norm(x, x, g)
    np.testing.assert_allclose(s.asnumpy(), 2 * _XS)
    np.testing.assert_allclose(y2.asnumpy(), _rms(2 * _XS, _GAMMA, 1e-6)[0], rtol=1e-12)
    y3, mean, rstd3, s3 = ops.add_layer_norm(x, x, g, ms.Tensor(_BETA), 1e-5)
    z = 2 * _XS
    m = z.mean(-1, keepdims=True)
    r = 1.0 / np.sqrt(((z - m) ** 2).mean(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(y3.asnumpy(), (z - m) * r * _GAMMA + _BETA, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(mean.asnumpy(), m)
    np.testing.assert_allclose(rstd3.asnumpy(), r, rtol=1e-12)
    half, _ = ops.rms_norm(ms.Tensor(_XS.astype(np.float16)), ms.Tensor(_GAMMA.astype(np.float16)))
    assert half.dtype == ms.float16


def test_swiglu_and_rope_against_numpy():
    a, b = np.split(_XS, 2, -1)
    np.testing.assert_allclose(ops.swiglu(ms.Tensor(_XS)).asnumpy(), a / (1 + np.exp(-a)) * b, rtol=1e-12)
    a, b = np.split(_XS, [1], 1)
    a, b = np.split(_XS[:, :2], 2, 1)
    np.testing.assert_allclose(ops.swiglu(ms.Tensor(_XS[:, :2]), 1).asnumpy(), a / (1 + np.exp(-a)) * b, rtol=1e-12)
    cos, sin = np.cos(_XS), np.sin(_XS)
    x1, x2 = np.split(_XS, 2, -1)
    half = _XS * cos + np.concatenate([-x2, x1], -1) * sin
    out = ops.rotary_position_embedding(ms.Tensor(_XS), ms.Tensor(cos), ms.Tensor(sin), 0)
    np.testing.assert_allclose(out.asnumpy(), half, rtol=1e-12)
    rot = np.stack([-_XS[..., 1::2], _XS[..., 0::2]], -1).reshape(_XS.shape)
    out = ops.rotary_position_embedding(ms.Tensor(_XS), ms.Tensor(cos), ms.Tensor(sin), 1)
    np.testing.assert_allclose(out.asnumpy(), _XS * cos + rot * sin, rtol=1e-12)


def _mlml(x, t):
    losses = []
    for xs, ts in zip(x, t):
        ts = list(ts[:list(ts).index(-1)] if -1 in ts else ts)
        others = [i for i in range(len(xs)) if i not in ts]
        losses.append(sum(max(0.0, 1 - (xs[j] - xs[i])) for j in ts for i in others) / len(xs))
    return np.array(losses)


def test_multilabel_margin_loss_against_numpy():
    x = _RNG.standard_normal((3, 5))
    t = np.array([[3, 0, -1, 1, 2], [1, 2, 4, 0, 3], [2, -1, 0, 0, 0]], np.int64)
    want = _mlml(x, t)
    got = ops.multilabel_margin_loss(ms.Tensor(x), ms.Tensor(t), "none")
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(ops.multilabel_margin_loss(ms.Tensor(x), ms.Tensor(t)).asnumpy(), want.mean())
    np.testing.assert_allclose(ops.multilabel_margin_loss(ms.Tensor(x[0]), ms.Tensor(t[0]), "sum").asnumpy(),
                               want[0])


def _numeric_grad(fn, x, eps=1e-6):
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[idx] += eps
        minus[idx] -= eps
        g[idx] = (float(fn(ms.Tensor(plus)).asnumpy()) - float(fn(ms.Tensor(minus)).asnumpy())) / (2 * eps)
    return g


_W = _RNG.uniform(0.5, 1.5, (2, 3, 4))
_W4 = _RNG.uniform(0.5, 1.5, (2, 3, 4, 2))


@pytest.mark.parametrize("name, fn, x", [
    ("rms_norm", lambda x: (ops.rms_norm(x, ms.Tensor(_GAMMA))[0] * ms.Tensor(_W)).sum(), _XS),
    ("swiglu", lambda x: (ops.swiglu(x) * ms.Tensor(_W[..., :2])).sum(), _XS),
    ("add_layer_norm", lambda x: (ops.add_layer_norm(x, x, ms.Tensor(_GAMMA), ms.Tensor(_BETA))[0] *
                                  ms.Tensor(_W)).sum(), _XS),
    ("affine_grid", lambda t: (ops.affine_grid(t, (1, 1, 2, 3), False) * ms.Tensor(_W4[:1, :2, :3, :2])).sum(),
     _RNG.standard_normal((1, 2, 3))),
    ("bounding_box_encode", lambda b: (ops.bounding_box_encode(b, ms.Tensor(np.array([[1.0, 2.0, 3.0, 4.5]])))
                                       * ms.Tensor(_W[0, :1])).sum(), np.array([[0.5, 1.0, 2.5, 3.0]])),
    ("multilabel_margin_loss", lambda x: ops.multilabel_margin_loss(x, ms.Tensor(np.array([[2, 0, -1, 1]]))),
     np.array([[0.1, 0.7, -0.2, 0.4]])),
    ("matrix_diag", lambda x: (ops.matrix_diag(x, k=(-1, 0), num_rows=3, num_cols=3) *
                                                  ms.Tensor(_W[0, :3, :3])).sum(), _RNG.standard_normal((2, 3))),
    ("batch_to_space_nd", lambda x: (ops.batch_to_space_nd(x, (2, 1), [[0, 1], [0, 0]]) *
                                     ms.Tensor(_W4[:1, :1, :3, :2])).sum(), _RNG.standard_normal((2, 1, 2, 2))),
    ("crop_and_resize", lambda img: (ops.crop_and_resize(img, ms.Tensor(np.array([[0.1, 0.2, 0.8, 0.9]])),
                                                         ms.Tensor(np.array([0], np.int32)), (2, 2)) *
                                     ms.Tensor(_W4[:1, :2, :2, :1])).sum(), _RNG.standard_normal((1, 3, 3, 1))),
    ("stft", lambda x: (ops.stft(x, 4, 2, window=ms.Tensor(np.hanning(4))) * ms.Tensor(_W4[:3, :3, :1])).sum(),
     _RNG.standard_normal(6)),
])
def test_composition_gradients(name, fn, x):
    got = ms.grad(fn)(ms.Tensor(x)).asnumpy()
    if name == "crop_and_resize":   # computes in float32 (as MindSpore's CropAndResize): linear, a wide step is exact
        np.testing.assert_allclose(got, _numeric_grad(fn, x, 0.5), rtol=1e-4, atol=1e-5, err_msg=name)
    else:
        np.testing.assert_allclose(got, _numeric_grad(fn, x), rtol=1e-5, atol=1e-7, err_msg=name)


# --- random functions: distribution, not values --------------------------------------------------------------
def test_rrelu_slopes_in_range_and_seeded():
    x = ms.Tensor(-np.ones((200,), np.float32))
    ms.set_seed(3)
    a = ops.rrelu(x, 0.1, 0.3).asnumpy()
    ms.set_seed(3)
    b = ops.rrelu(x, 0.1, 0.3).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert np.all(a <= -0.1) and np.all(a >= -0.3) and a.std() > 0.01
    np.testing.assert_array_equal(ops.rrelu(ms.Tensor(np.array([2.0, 0.0], np.float32))).asnumpy(), [2.0, 0.0])


def test_gumbel_softmax_soft_and_hard():
    logits = ms.Tensor(np.log(np.array([[0.1, 0.2, 0.7]] * 2000, np.float32)))
    soft = ops.gumbel_softmax(logits, 0.5).asnumpy()
    np.testing.assert_allclose(soft.sum(-1), 1.0, rtol=1e-5)
    hard = ops.gumbel_softmax(logits, 1.0, True).asnumpy()
    assert set(np.unique(hard)) <= {0.0, 1.0} and np.all(hard.sum(-1) == 1)
    np.testing.assert_allclose(hard.mean(0), [0.1, 0.2, 0.7], atol=0.04)
    g = ms.grad(lambda t: (ops.gumbel_softmax(t, 1.0, True) * ms.Tensor(np.array([1.0, 2.0, 3.0]))).sum())(
        ms.Tensor(np.zeros((1, 3))))
    assert g.shape == (1, 3) and np.abs(g.asnumpy()).sum() > 0     # straight-through: the soft sample's gradient


# --- in-place forms --------------------------------------------------------------------------------------------
def test_inplace_functions_write_into_the_tensor():
    t = ms.Tensor(np.array([-2.0, 0.5, 3.0], np.float32))
    assert ops.clamp_(t, -1.0, 1.0) is t
    np.testing.assert_array_equal(t.asnumpy(), [-1.0, 0.5, 1.0])
    ops.tanh_(t)
    np.testing.assert_allclose(t.asnumpy(), np.tanh([-1.0, 0.5, 1.0]), rtol=1e-6)
    ops.inplace_sigmoid(t)
    assert np.all((t.asnumpy() > 0) & (t.asnumpy() < 1))
    ops.put_(t, ms.Tensor(np.array([0], np.int64)), ms.Tensor(np.array([9.0], np.float32)))
    assert t.asnumpy()[0] == 9.0
    ops.zero_(t)
    np.testing.assert_array_equal(t.asnumpy(), 0)
    ops.uniform_(t, 2.0, 3.0)
    assert np.all((t.asnumpy() >= 2) & (t.asnumpy() < 3))
    ops.normal_(t, 0.0, 1.0)
    ops.exponential_(t, 2.0)
    assert np.all(t.asnumpy() >= 0)
    ops.bernoulli_(t, 0.5)
    assert set(np.unique(t.asnumpy())) <= {0.0, 1.0}
    ops.random_(t, 0, 5)
    assert np.all(np.isin(t.asnumpy(), np.arange(5)))
    e = ms.Tensor(np.array([0.0, 0.5], np.float32))
    ops.erfinv_(e)
    np.testing.assert_allclose(e.asnumpy(), [0.0, 0.4769363], rtol=1e-6)


def test_index_add_writes_back_into_a_parameter():
    p = ms.Parameter(ms.Tensor(np.zeros((3, 2), np.float32)), name="w")
    out = ops.index_add(p, ms.Tensor(np.array([2, 2], np.int32)), ms.Tensor(np.ones((2, 2), np.float32)), 0)
    assert type(out) is ms.Tensor      # 2.10: the Parameter's new values, not the Parameter itself
    np.testing.assert_array_equal(p.asnumpy(), [[0, 0], [0, 0], [2, 2]])
    np.testing.assert_array_equal(out.asnumpy(), p.asnumpy())
    plain = ms.Tensor(np.zeros((3, 2), np.float32))
    ops.index_add(plain, ms.Tensor(np.array([0], np.int32)), ms.Tensor(np.ones((1, 2), np.float32)), 0)
    np.testing.assert_array_equal(plain.asnumpy(), 0)      # a plain tensor is not an in-place target


# --- compiled --------------------------------------------------------------------------------------------------
def test_under_jit_matches_eager():
    x = ms.Tensor(_POS_ARRAY)

    def f(t):
        return (ops.lgamma(t), ops.bessel_j1(t), ops.zeta(t + 1.0, t), ops.igamma(t, t * 2.0),
                ops.Roll(1, 0)(t), ops.Cdist()(t, t), ops.CumulativeLogsumexp()(t, 1), ops.GLU()(t),
                ops.rms_norm(t, ops.ones_like(t[0]))[0], ops.swiglu(t), ops.matrix_set_diag(t, t[0][:2]))

    for g, w in zip(ms.jit(f)(x), f(x)):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6)


_POS_ARRAY = np.array([[0.4, 0.9, 1.3, 2.2], [3.1, 4.5, 7.0, 12.0]], np.float32)


def test_graph_mode_gradient_of_special_functions():
    x = ms.Tensor(np.array([0.7, 1.9, 3.3]))
    g = ms.jit(ms.grad(lambda t: (ops.lgamma(t) + ops.bessel_i0(t) + ops.digamma(t)).sum()))(x).asnumpy()
    from scipy import special
    want = special.digamma(x.asnumpy()) + special.i1(x.asnumpy()) + special.polygamma(1, x.asnumpy())
    np.testing.assert_allclose(g, want, rtol=1e-10)


# --- errors ----------------------------------------------------------------------------------------------------
def _f(a, dtype=np.float32):
    return ms.Tensor(np.asarray(a, dtype))


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: ops.lgamma(_f([1, 2], np.int32)), TypeError, r"For 'Lgamma', the type of 'x' must be in"),
    (lambda: ops.igamma(_f([1.0]), _f([1.0], np.float64)), TypeError, "For 'Igamma', the inputs must have the same"),
    (lambda: ops.polygamma(_f([1.0]), _f([1.0])), TypeError, "For 'Polygamma', the type of 'a' must be in"),
    (lambda: ops.mvlgamma(_f([1.0]), 0), ValueError, "For 'Mvlgamma', the attr 'p' must be greater than or equal"),
    (lambda: ops.mvlgamma(_f([0.2]), 2), RuntimeError, r"all elements of 'x' must be greater than \(p-1\)/2"),
    (lambda: ops.Roll((1, 2), 0), ValueError, "For 'Roll', the length of 'shifts' and 'dims' must be equal"),
    (lambda: ops.DepthToSpace(1), ValueError, "For 'DepthToSpace', the 'block_size' must be greater than or equal"),
    (lambda: ops.DepthToSpace(2)(_f(np.ones((1, 3, 1, 1)))), ValueError, "must be divisible by block_size"),
    (lambda: ops.Cross()(_f(np.ones((2, 2))), _f(np.ones((2, 2)))), ValueError, "no dimension of size 3"),
    (lambda: ops.GLU()(_f(np.ones((2, 3)))), ValueError, r"For 'GLU', x.shape\[-1\] must be even"),
    (lambda: ops.SearchSorted(ms.float32), TypeError, "For 'SearchSorted', the 'dtype' must be int32 or int64"),
    (lambda: ops.Bucketize([3.0, 1.0]), ValueError, "For 'Bucketize', the 'boundaries' must be sorted"),
    (lambda: ops.InplaceAdd(5)(_f(np.ones((2, 2))), _f(np.ones((1, 2)))), ValueError,
     r"For 'InplaceAdd', the value of 'indices' must be in \[-2, 2\)"),
    (lambda: ops.IndexAdd(0)(_f(np.ones((2, 2))), ms.Tensor(np.array([0], np.int32)), _f(np.ones((2, 2)))),
     ValueError, r"For 'IndexAdd', the shape of 'y' must be \(1, 2\)"),
    (lambda: ops.TrilIndices(2, 2, 0, ms.float32), TypeError, "For 'TrilIndices', the 'dtype' must be int32 or int64"),
    (lambda: ops.Angle()(_f([1.0])), TypeError, "For 'Angle', the type of 'input' must be in"),
    (lambda: ops.view_as_real(_f([1.0])), TypeError, "For 'view_as_real', the 'input' must be a complex tensor"),
    (lambda: ops.matrix_diag(_f([1.0, 2.0]), k=(1, 0)), ValueError, "k\\[0\\] must not be greater than k\\[1\\]"),
    (lambda: ops.matrix_diag_part(_f(np.ones((2, 2))), 0, 0, "UP"), ValueError, "'align' must be one of"),
    (lambda: ops.batch_to_space_nd(_f(np.ones((3, 1, 2, 2))), (2, 2), [[0, 0], [0, 0]]), ValueError,
     "For 'BatchToSpaceND', the batch 3 must be divisible"),
    (lambda: ops.space_to_batch_nd(_f(np.ones((1, 1, 3, 2))), (2, 2), [[0, 0], [0, 0]]), ValueError,
     "must be divisible by the block size 2"),
    (lambda: ops.batch_dot(_f(np.ones((2, 3))), _f(np.ones((3, 3)))), ValueError, "the same batch size"),
    (lambda: ops.rms_norm(_f(np.ones((2, 3))), _f(np.ones(4))), ValueError, "For 'RmsNorm', the shape of 'gamma'"),
    (lambda: ops.swiglu(_f(np.ones((2, 3)))), ValueError, "For 'Swiglu', the size of 'input' along 'dim' must be even"),
    (lambda: ops.rotary_position_embedding(_f(np.ones((1, 4))), _f(np.ones((1, 4))), _f(np.ones((1, 4))), 2),
     ValueError, "the 'mode' must be 0 or 1"),
    (lambda: ops.affine_grid(_f(np.ones((1, 2, 3))), (1, 1, 2, 2, 2)), ValueError, r"'theta' must be \(N, 3, 4\)"),
    (lambda: ops.multilabel_margin_loss(_f(np.ones((2, 3))), ms.Tensor(np.zeros((2, 3), np.int32)), "avg"),
     ValueError, "the 'reduction' must be 'none', 'mean' or 'sum'"),
    (lambda: ops.kaiser_window(3, dtype=ms.int32), TypeError, "For 'kaiser_window', the 'dtype' must be float16"),
    (lambda: ops.col2im(_f(np.ones((1, 1, 3, 4))), [3, 3], 2, 1, 0, 1), ValueError,
     r"input_x.shape\[2\] must be kernel_size\[0\] \* kernel_size\[1\] = 4"),
    (lambda: ops.scalar_cast(3.7, ms.int32), ValueError, r"For 'ScalarCast', the supported type is in the list"),
    (lambda: ops.tuple_div((7, 5), (2, 2)), RuntimeError, "The inputs of 'tuple_div' operator should be divisible"),
    (lambda: ops.scalar_div(1, 0), ValueError, "For 'ScalarDiv', the input 'y' can not be zero"),
    (lambda: ops.eps(_f([1], np.int32)), TypeError, "For 'Eps', the 'x' must be a Tensor of float16"),
])
def test_errors(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call()


def test_ormqr_applies_the_full_householder_q():
    a = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
    h, tau = ops.geqrf(ms.Tensor(a))
    q = np.linalg.qr(a, "complete")[0]
    other = _RNG.standard_normal((3, 2))
    np.testing.assert_allclose(ops.ormqr(h, tau, ms.Tensor(other)).asnumpy(), q @ other, rtol=1e-10)
    np.testing.assert_allclose(ops.ormqr(h, tau, ms.Tensor(other.T), False, True).asnumpy(), other.T @ q.T,
                               rtol=1e-10)


def test_dict_helpers():
    d = {"a": 1}
    assert ops.dict_setitem(d, "b", 2) == {"a": 1, "b": 2} and d == {"a": 1}
    assert ops.make_dict(("a", "b"), (1, 2)) == {"a": 1, "b": 2}


def test_dynamic_outputs_and_scalars():
    y, idx, counts = ops.UniqueConsecutive(True, True, 0)(ms.Tensor(np.array([[1, 2], [1, 2], [3, 4]], np.int32)))
    np.testing.assert_array_equal(y.asnumpy(), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(idx.asnumpy(), [0, 0, 1])
    np.testing.assert_array_equal(counts.asnumpy(), [2, 1])
    assert ops.typeof(ms.Tensor([1.0])) == ms.tensor_type(ms.float32) and ops.typeof(1) == ms.int64
    assert ops.hastype(2.0, ms.float32) and not ops.hastype(ms.Tensor([1.0]), ms.float32)
    assert ops.make_slice(1, 5, 2) == slice(1, 5, 2) and ops.string_concat("ab", "cd") == "abcd"
    assert ops.bool_and(True, False) is False and ops.bool_not(False) is True and ops.string_eq("a", "a")
    np.testing.assert_allclose(ops.scalar_log(2.0), np.log(2.0))
    assert ops.array_to_scalar(ms.Tensor(3.0)) == 3.0 and ops.isconstant(ms.Tensor(1.0))
    assert ops.scalar_to_array(2).shape == () and ops.accumulate_n([ms.Tensor([1.0]), ms.Tensor([2.0])]) == 3.0
    np.testing.assert_array_equal(ops.take(ms.Tensor(np.arange(6.0).reshape(2, 3)),
                                           ms.Tensor(np.array([[5, 0]]))).asnumpy(), [[5.0, 0.0]])
