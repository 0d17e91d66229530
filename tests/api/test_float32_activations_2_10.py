"""float32 activations give MindSpore 2.10's CPU numbers bit for bit, forward and gradient, eagerly and in GRAPH_MODE.

2.10 runs Sigmoid, Softplus, SoftplusGrad, Elu, Mish and BCEWithLogitsLoss through nnacl (a polynomial exp, a SIMD
log, a scalar libm tail for the last n % 4 values: ``mindspore-cpu/src/mindspore_cpu/_csrc/activation_nnacl.cpp``),
SeLU with libm's expm1f, GeLU (tanh form) and its gradient with libm's tanhf / tanh (``_csrc/activation.cpp``), HSwish
and its gradient in float32 operation by operation; SiLU
is ``x * sigmoid(x)`` and LogSigmoid ``log(sigmoid(x))`` (their gradients follow); the BCEWithLogitsLoss bprop has its
own order of operations, with ``log(1 - sigmoid(x))`` rewritten as ``-softplus(x)``. The expected values were
recorded on 2.10 by ``tests/fixtures/float32_activations/record_activations.py`` (the same calls, the inputs made
from its seed). One disagreement is kept on purpose: 2.10's SeLU gradient for negative inputs is
``scale * (out + 1)``, which is wrong; ours is ``scale * alpha * exp(x)``.
"""
import importlib.util
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn, ops

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "float32_activations"
_spec = importlib.util.spec_from_file_location("float32_activations_record", FIXTURES / "record_activations.py")
record = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record)

EXPECTED = np.load(FIXTURES / "activations_2.10.npz")
X, W, T, WEIGHT, POS_WEIGHT = record.inputs()
CASES = record.cases(T, WEIGHT, POS_WEIGHT)
GRAPH_CASES = ("sigmoid", "silu", "softplus", "elu", "logsigmoid", "gelu_tanh", "mish", "hardswish", "bce_none")


def _call(name, f):
    if name == "nn_bce":
        return lambda v: f(v, Tensor(T))
    return f


def _same_bits(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    bits = np.uint16 if want.dtype == np.float16 else np.uint32
    differ = np.flatnonzero((got.view(bits) != want.view(bits)) & ~(np.isnan(got) & np.isnan(want)))
    assert differ.size == 0, f"{differ.size} of {want.size} values differ, first at {differ[:5]}: " \
                             f"{got.reshape(-1)[differ[:3]]} vs 2.10's {want.reshape(-1)[differ[:3]]}"


def _mish_kept(name, want, x):
    """Where 2.10's compositions overflow, ours keep the value, and the test compares with it:
    * Mish is NaN from x = 44.4 on in 2.10 (nnacl's (a a - 1) / (a a + 1) is inf / inf): ours is x there;
    * log(sigmoid(x)) is -inf below -88 in 2.10 (sigmoid underflows): ours is x below -80 (ops.logsigmoid) or -44
      (nn.LogSigmoid, whose 2.10 gradient underflows to 0 from there)."""
    if "mish" in name:
        kept = np.isnan(want) & (x > 44)
    elif "logsigmoid" in name:
        kept = x < (-44 if name == "nn_logsigmoid" else -80)
    else:
        return want
    return np.where(kept, x.astype(want.dtype), want)


def _grad_kept(name, want):
    """The gradients where :func:`_mish_kept` keeps the value ``x``: the incoming weights (d x / d x = 1)."""
    if "logsigmoid" not in name:
        return want
    return np.where(X < (-44 if name == "nn_logsigmoid" else -80), W, want)


def test_logsigmoid_keeps_its_value_and_gradient_where_2_10_underflows():
    x = np.array([-100.0, -85.0, -60.0], np.float32)
    np.testing.assert_array_equal(ops.logsigmoid(Tensor(x[:2])).asnumpy(), x[:2])         # 2.10: -inf at -100
    np.testing.assert_array_equal(nn.LogSigmoid()(Tensor(x)).asnumpy(), x)
    np.testing.assert_array_equal(ms.grad(lambda t: nn.LogSigmoid()(t).sum())(Tensor(x)).asnumpy(), [1, 1, 1])  # 2.10: 0


def test_mish_keeps_its_value_where_2_10_overflows_to_nan():
    x = np.array([20.0, 44.0, 44.5, 50.0, 100.0, 1e10, np.inf], np.float32)
    np.testing.assert_array_equal(ops.mish(Tensor(x)).asnumpy(), x)     # 2.10: NaN from 44.5 on
    assert np.isnan(ops.mish(Tensor(np.array([np.nan], np.float32))).asnumpy()).all()


def test_the_recorded_inputs_are_replayed():
    for key, value in zip(("x", "w", "t", "weight", "pos_weight"), (X, W, T, WEIGHT, POS_WEIGHT)):
        np.testing.assert_array_equal(value, EXPECTED[f"in:{key}"])
    assert {f"out:{n}" for n in CASES} <= set(EXPECTED.files)


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_same_bits_as_mindspore_210(name):
    _same_bits(_call(name, CASES[name])(Tensor(X)).asnumpy(), _mish_kept(name, EXPECTED[f"out:{name}"], X))


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_same_bits_as_mindspore_210(name):
    f, w = _call(name, CASES[name]), Tensor(W)
    _same_bits(ms.grad(lambda v: (f(v) * w).sum())(Tensor(X)).asnumpy(), _grad_kept(name, EXPECTED[f"grad:{name}"]))


@pytest.mark.parametrize("name", GRAPH_CASES)
def test_graph_mode_same_bits(name):
    f, w = CASES[name], Tensor(W)
    _same_bits(ms.jit(f)(Tensor(X)).asnumpy(), _mish_kept(name, EXPECTED[f"out:{name}"], X))
    _same_bits(ms.jit(ms.grad(lambda v: (f(v) * w).sum()))(Tensor(X)).asnumpy(),
               _grad_kept(name, EXPECTED[f"grad:{name}"]))


@pytest.mark.parametrize("name", record.FLOAT16_CASES)
def test_float16_forward_same_bits(name):
    _same_bits(CASES[name](Tensor(X.astype(np.float16))).asnumpy(),
               _mish_kept(name, EXPECTED[f"out16:{name}"], X.astype(np.float16)))


def test_bce_label_and_mean_gradients_same_bits():
    x, t, w = Tensor(X), Tensor(T), Tensor(W)
    weight, pos_weight = Tensor(WEIGHT), Tensor(POS_WEIGHT)
    g_label = ms.grad(lambda lab: (ops.binary_cross_entropy_with_logits(x, lab, weight, pos_weight, "none") * w)
                      .sum())(t)
    _same_bits(g_label.asnumpy(), EXPECTED["grad:bce_target"])
    g_mean = ms.grad(lambda v: ops.binary_cross_entropy_with_logits(v, t, weight, pos_weight, "mean"))(x)
    _same_bits(g_mean.asnumpy(), EXPECTED["grad:bce_mean"])


def test_selu_forward_as_210_gradient_kept_correct():
    """2.10's SeLU gradient for x <= 0 is scale * (out + 1) (x = -1: -0.117 instead of 0.6468): wrong math, not
    reproduced. The forward values and the gradient for x > 0 are 2.10's."""
    _same_bits(ops.selu(Tensor(X)).asnumpy(), EXPECTED["out:selu"])
    _same_bits(ops.selu(Tensor(X.astype(np.float16))).asnumpy(), EXPECTED["out16:selu"])
    xs = Tensor(np.float32([-1.0, -0.5, 0.5, 1.0]))
    _same_bits(ops.selu(xs).asnumpy(), EXPECTED["out:selu_neg"])
    got = ms.grad(lambda v: ops.selu(v).sum())(xs).asnumpy()
    want_210 = EXPECTED["grad:selu_neg"]
    scale, alpha = 1.0507009873554805, 1.6732632423543772
    np.testing.assert_allclose(got[:2], scale * alpha * np.exp([-1.0, -0.5]), rtol=1e-6)
    assert abs(want_210[0] - (-0.117)) < 1e-3 and abs(got[0] - 0.6468) < 1e-4    # the disagreement
    _same_bits(got[2:], want_210[2:])


@pytest.mark.parametrize("dtype", [np.float16, np.float64])
def test_other_float_dtypes_still_work(dtype):
    x = np.linspace(-6, 6, 11).astype(dtype)
    sig = 1 / (1 + np.exp(-x.astype(np.float64)))
    tol = 2e-3 if dtype == np.float16 else 1e-12
    for f, ref, dref in ((ops.sigmoid, sig, sig * (1 - sig)),
                         (ops.softplus, np.log1p(np.exp(x.astype(np.float64))), sig),
                         (ops.elu, np.where(x > 0, x, np.expm1(x.astype(np.float64))),
                          np.where(x > 0, 1.0, np.exp(x.astype(np.float64))))):
        y = f(Tensor(x))
        assert y.dtype == Tensor(x).dtype
        np.testing.assert_allclose(y.asnumpy().astype(np.float64), ref, rtol=tol, atol=tol)
        g = ms.grad(f)(Tensor(x)).asnumpy().astype(np.float64)
        np.testing.assert_allclose(g, dref, rtol=tol * 4, atol=tol * 4)


_PORTABLE_SCRIPT = """
import numpy as np
from mindspore_cpu import _kernels as K
rng = np.random.default_rng(0)
special = [0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 88.5, -88.5, 30, -30, 3, -3]
x = np.concatenate([rng.standard_normal(4000) * 6, special]).astype(np.float32)
dy = rng.random(x.size).astype(np.float32)
t = rng.random(x.size).astype(np.float32)
outs = [K.sigmoid_f32(x[x == x]), K.softplus_f32(x), K.elu_f32(x, 1.0), K.mish_f32(x), K.hswish_f32(x), K.selu_f32(x),
        K.softplus_grad_f32(dy, x), K.bce_with_logits_f32(x, t, dy, dy + 0.5, False), K.gelu(x), K.gelu_grad(dy, x)]
print("".join(np.where(np.isnan(o), np.float32(np.nan), o).tobytes().hex() for o in outs))   # (any NaN sign)
"""


def test_portable_path_gives_the_same_bits():
    """The AVX2(+FMA) paths and the portable ones (std::fma, scalar replicas) compute the same operations."""
    def run(env):
        return subprocess.run([sys.executable, "-c", _PORTABLE_SCRIPT], capture_output=True, text=True, check=True,
                              env={**os.environ, **env}).stdout
    fast = run({})
    assert fast and fast == run({"MINDSPORE_CPU_ORDERED_ISA": "portable"})
