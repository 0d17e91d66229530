"""float32 optimizer updates give MindSpore 2.10's CPU bits.

* Adam / LazyAdam (dense gradients) run nnacl's AdamFp32 as 2.10 builds it (``_csrc/optim.cpp``): multiply-adds
  contracted into FMAs, lanes of 8, and the last ``n % 8`` values of a chunk finished in double. The bias-corrected
  rate ``lr * sqrt(1 - beta2^t) / (1 - beta1^t)`` is float32 arithmetic.
* AdamWeightDecay is AdamWeightDecayFp32's scalar loop (its AVX-512 branch never runs in 2.10: the CPU-feature flag it
  reads is never set), the update ``var - lr * (m / (sqrt(v) + eps) + decay * var)`` fused in double.
* RMSProp and ProximalAdagrad run nnacl's RMSPropUnuseCenterFp32 / ApplyProximalAdagradOpt orders (FMA, lanes of 8
  and 4, double tails); Adagrad divides by ``sqrt(accum + 1e-8)`` (not 1e-6); AdaMax groups ``lr / (1 - beta1^t) *
  (m / (v + eps))``; Adadelta blends its accumulators in double (2.10's ``1.0 - rho`` literal); FTRL is 2.10's
  ApplyFtrl loop with libm's powf.
* AdaFactor on the CPU is 2.10's FusedAdaFactor kernel (nn.AdaFactor calls it there, as 2.10's does): its means are
  sequential float32 sums, its moments floored at 1e-30, the factored update ``g / max(r * c, 1e-30)``.
* float16 parameters: 2.10 has no float16 Adam kernel on the CPU and casts the state to float32 around AdamFp32;
  AdamWeightDecay's float16 loop rounds each operation to float16, ``1 - beta`` included.

Values recorded on 2.10 by ``tests/fixtures/optimizer_bits/record.py``, which this test imports for the cases."""
import importlib.util
import pathlib

import numpy as np
import pytest

import mindspore as ms

pytestmark = pytest.mark.cpu_backend

_DIR = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "optimizer_bits"
_spec = importlib.util.spec_from_file_location("record_optimizer_bits", _DIR / "record.py")
rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rec)


@pytest.fixture(scope="module")
def recorded():
    with np.load(_DIR / "optimizer_bits_2.10.npz") as z:
        return {k: z[k] for k in z.files}


def _same_bits(ours, ref):
    assert ours.dtype == ref.dtype and ours.shape == ref.shape
    bits = np.int32 if ref.dtype == np.float32 else np.int16
    diff = int(np.count_nonzero(ours.view(bits) != ref.view(bits)))
    assert diff == 0, f"{diff} of {ref.size} values differ (max {np.max(np.abs(ours - ref)):.3g})"


def test_inputs_are_the_recorded_ones(recorded):
    for k, v in rec.inputs().items():
        np.testing.assert_array_equal(v, recorded[k])


@pytest.mark.parametrize("name", list(rec.cases()))
def test_update_bits(recorded, name):
    _same_bits(rec.run(ms, name), recorded[name])


@pytest.mark.parametrize("name", ["adam_nesterov", "adam_weight_decay", "rmsprop_momentum", "adamax", "adadelta",
                                  "ftrl", "proximal_adagrad_l1l2", "adafactor_factored"])
def test_update_bits_graph_mode(recorded, name):
    old = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        ours = rec.run(ms, name)
    finally:
        ms.set_context(mode=old)
    _same_bits(ours, recorded[name])


@pytest.mark.parametrize("tag", ["pynative", "graph"])
def test_train_one_step_adam_bits(recorded, tag):
    mode = ms.PYNATIVE_MODE if tag == "pynative" else ms.GRAPH_MODE
    old = ms.get_context("mode")
    try:
        w, b = rec.train_steps(ms, mode)
    finally:
        ms.set_context(mode=old)
    _same_bits(w, recorded[f"train_{tag}_w"])
    _same_bits(b, recorded[f"train_{tag}_b"])


def test_ftrl_l1_shrinks_toward_zero_from_both_sides():
    # 2.10's ApplyFtrl takes +l1 for any non-zero 'linear' (a sign slip: a negative 'linear' is pushed further out);
    # ours keeps sign(linear) * l1, the FTRL-proximal update, so the weight is sign(-linear) (|linear| - l1) / den
    from mindspore import Parameter, Tensor, ops
    var = Parameter(Tensor(np.array([0.5, -0.5, 0.2], np.float32)), name="var")
    accum = Parameter(Tensor(np.array([0.1, 0.1, 0.1], np.float32)), name="accum")
    linear = Parameter(Tensor(np.array([0.0, 0.0, 0.0], np.float32)), name="linear")
    grad = np.array([2.0, -2.0, 0.001], np.float32)
    ops.ApplyFtrl()(var, accum, linear, Tensor(grad), 0.5, 0.1, 0.0, -0.5)
    acc = 0.1 + grad.astype(np.float64) ** 2
    lin = grad - (np.sqrt(acc) - np.sqrt(0.1)) / 0.5 * np.array([0.5, -0.5, 0.2])
    want = np.where(np.abs(lin) > 0.1, (np.sign(lin) * 0.1 - lin) / (np.sqrt(acc) / 0.5), 0.0)
    np.testing.assert_allclose(linear.asnumpy(), lin, rtol=1e-5)
    np.testing.assert_allclose(var.asnumpy(), want, rtol=1e-5, atol=1e-7)
    assert var.asnumpy()[0] < 0 < var.asnumpy()[1] and var.asnumpy()[2] == 0
