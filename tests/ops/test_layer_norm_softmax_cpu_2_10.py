"""CPU LayerNorm, LayerNormGrad, Softmax, Softmax's gradient, FastGeLU, its gradient and ReduceSum/Mean in float16
and float32, bit for bit as MindSpore 2.10's CPU kernels compute them:

* LayerNorm: mean and variance from float64 sums, ``(x - mean) / sqrt(var + eps) * gamma + beta`` in the input's
  type (float16 rounds each step);
* LayerNormGrad: float32 with sums added in order, ``powf`` for ``(var + eps)**-0.5`` and ``**-1.5``, ``x - mean``
  centred on its own row sum;
* Softmax (float32, last axis): nnacl's SoftmaxLastAxis, its polynomial exp with FMA, the sum in eight AVX lanes, an
  SSE block of four, then one by one;
* Softmax's gradient: 2.10's Mul, ReduceSum (float32, ordered as below), Sub, Mul (each rounded);
* FastGeLU: float64 exps rounded to the type, then ``x * e2 / (1 + e1)`` in the type; its gradient (2.10's
  FastGeLUGrad) all in float64, rounded once;
* ReduceSum / ReduceMean (float32, and float16 run as float32): a 2-D input over axis 1 in eight AVX lanes, ReduceSum
  over axis 0 in order, everything else accumulated in float64.

Every output is compared bit for bit (float32 Softmax, its gradient, LayerNormGrad and the reductions are ours in C++,
``mindspore_cpu/_csrc``). Outputs recorded with 2.10 by ``tests/fixtures/fp16_chain/record_layer_norm_softmax.py`` and
``record_f32_orders.py`` (float32 paths the first leaves out), which this test imports for the cases."""
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
_spec32 = importlib.util.spec_from_file_location("record_f32_orders", _DIR / "record_f32_orders.py")
rec32 = importlib.util.module_from_spec(_spec32)
_spec32.loader.exec_module(rec32)
RECORDED_F32 = dict(np.load(_DIR / "f32_orders_2.10.npz"))
CASES_F32 = {case: (kind, args, inputs) for case, kind, args, inputs in rec32.cases()}


def _check(case, got, recorded=RECORDED):
    for i, g in enumerate(got):
        want = recorded[f"out:{case}:{i}"]
        g = g.asnumpy()
        assert g.dtype == want.dtype and g.shape == want.shape, (i, g.dtype, g.shape, want.dtype, want.shape)
        same = g.view(np.uint16 if g.itemsize == 2 else np.uint32) == want.view(np.uint16 if g.itemsize == 2
                                                                                else np.uint32)
        bad = np.flatnonzero(~(same | (np.isnan(g) & np.isnan(want))))
        assert bad.size == 0, f"output {i}: {bad.size} of {g.size} differ, e.g. {g.ravel()[bad[:3]]} vs 2.10's " \
                              f"{want.ravel()[bad[:3]]}"


# (the LayerNormGrad cases pass a mean that is not x's: 2.10 centres x - mean on its own row sum, 0 only for x's mean)
@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_2_10_pynative(case, cpu_mode):
    kind, args, inputs = CASES[case]
    for i, a in enumerate(inputs):
        np.testing.assert_array_equal(a, RECORDED[f"in:{case}:{i}"])
    cpu_mode(ms.PYNATIVE_MODE)
    _check(case, rec.run(kind, args, inputs))


@pytest.mark.parametrize("case", sorted(CASES_F32))
def test_f32_orders_match_2_10(case, cpu_mode):
    kind, args, inputs = CASES_F32[case]
    for i, a in enumerate(inputs):
        np.testing.assert_array_equal(a, RECORDED_F32[f"in:{case}:{i}"])
    cpu_mode(ms.PYNATIVE_MODE)
    _check(case, rec32.rec.run(kind, args, inputs), RECORDED_F32)


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
