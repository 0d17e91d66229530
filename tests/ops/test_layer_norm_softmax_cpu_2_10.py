"""CPU LayerNorm, LayerNormGrad, Softmax, Softmax's gradient, FastGeLU, its gradient and ReduceSum/Mean in float16
and float32, bit for bit as MindSpore 2.10's CPU kernels compute them:

* LayerNorm: mean and variance from float64 sums, ``(x - mean) / sqrt(var + eps) * gamma + beta`` in the input's
  type (float16 rounds each step);
* LayerNormGrad (float16): float32 with sums added in order, ``powf`` for ``(var + eps)**-0.5`` and ``**-1.5``;
* Softmax's gradient (float16): 2.10's Mul, ReduceSum (float32, ordered as below), Sub, Mul (each rounded);
* FastGeLU: float64 exps rounded to the type, then ``x * e2 / (1 + e1)`` in the type; its gradient (2.10's
  FastGeLUGrad) all in float64, rounded once;
* ReduceSum / ReduceMean (float16, run as float32): a 2-D input over axis 1 in eight AVX lanes, ReduceSum over axis 0
  in order, everything else accumulated in float64.

The float32 cases of LayerNormGrad, Softmax, its gradient and the reductions (``NEAR``) are compared to a few ulps:
ours adds in NumPy's faster orders there (2.10's order cost 1.2-7x per call for an ulp or two).

Outputs recorded with 2.10 by ``tests/fixtures/fp16_chain/record_layer_norm_softmax.py``, which this test imports for
the cases."""
import importlib.util
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, ops

_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "fp16_chain"
_spec = importlib.util.spec_from_file_location("record_layer_norm_softmax", _DIR / "record_layer_norm_softmax.py")
rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rec)
RECORDED = dict(np.load(_DIR / "layer_norm_softmax_2.10.npz"))
CASES = {case: (kind, args, inputs) for case, kind, args, inputs in rec.cases()}


# float32 cases that ours computes in NumPy's faster order (pairwise sums, NumPy's exp): 2.10's to a few ulps (its
# softmax exp is a degree-5 polynomial, 3e-6 off exp itself)
NEAR = ("layernorm_bprop_float32_", "reducemean_float32_", "reducesum_float32_",
        "softmax_float32_", "softmaxgrad_float32_")


def _check(case, got):
    for i, g in enumerate(got):
        want = RECORDED[f"out:{case}:{i}"]
        g = g.asnumpy()
        assert g.dtype == want.dtype and g.shape == want.shape, (i, g.dtype, g.shape, want.dtype, want.shape)
        if case.startswith(NEAR):
            np.testing.assert_allclose(g, want, rtol=5e-6, atol=5e-7 * max(1.0, float(np.nanmax(np.abs(want)))))
            continue
        same = g.view(np.uint16 if g.itemsize == 2 else np.uint32) == want.view(np.uint16 if g.itemsize == 2
                                                                                else np.uint32)
        bad = np.flatnonzero(~(same | (np.isnan(g) & np.isnan(want))))
        assert bad.size == 0, f"output {i}: {bad.size} of {g.size} differ, e.g. {g.ravel()[bad[:3]]} vs 2.10's " \
                              f"{want.ravel()[bad[:3]]}"


# LayerNormGrad called directly with a mean that is not x's (these cases draw it at random): 2.10's float32 kernel
# (as its float16 one, which ours is) centres x - mean on its row sum, which the family's kernel (CPU float32, GPU)
# leaves out: 0 for the forward's mean, the only one LayerNorm's gradient passes
_UNCENTRED = "2.10's float32 LayerNormGrad centres x - mean on its own row sum (0 for LayerNorm's own mean); ours not"


@pytest.mark.parametrize("case", [
    pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=_UNCENTRED)) if c.startswith("layernormgrad_float32_")
    else c for c in sorted(CASES)])
def test_matches_2_10_pynative(case, cpu_mode):
    kind, args, inputs = CASES[case]
    for i, a in enumerate(inputs):
        np.testing.assert_array_equal(a, RECORDED[f"in:{case}:{i}"])
    cpu_mode(ms.PYNATIVE_MODE)
    _check(case, rec.run(kind, args, inputs))


@pytest.mark.parametrize("case", sorted(c for c in CASES if c.startswith(("softmaxgrad_", "fastgelugrad_"))))
def test_gradients_graph_mode(case, cpu_mode):
    kind, args, inputs = CASES[case]
    cpu_mode(ms.GRAPH_MODE)
    _check(case, rec.run(kind, args, inputs, graph=True))


@pytest.mark.parametrize("case", ["layernorm_float16_6x7x33_1_1", "layernorm_float32_8x256_-1_-1"])
def test_layer_norm_graph_mode(case, cpu_mode):
    kind, args, inputs = CASES[case]
    cpu_mode(ms.GRAPH_MODE)
    ln = ops.LayerNorm(begin_norm_axis=args[0], begin_params_axis=args[1], epsilon=args[2])
    _check(case, ms.jit(lambda *a: ln(*a))(*(Tensor(a) for a in inputs)))
