"""Float16 chains on the CPU, bit for bit as MindSpore 2.10 (``cpu_raise_float16`` in mindspore-cpu).

In GRAPH_MODE (and under ``ms.jit``) 2.10's CPU backend runs float16 MatMul, BatchMatMul, BiasAdd, Conv2D, Square,
Tanh, ReduceMean, StridedSlice, SoftmaxCrossEntropyWithLogits ... through float32 kernels and keeps their results in
float32 until an operator with a float16 kernel (ReLU, Transpose, Mul ...) or the graph's output reads them; PYNATIVE
rounds every result to float16. Outputs recorded with 2.10 by ``tests/fixtures/fp16_chain/record_fp16_chain.py``
(which this test imports for the operands and networks), on operands whose float32 products and sums are exact.
"""
import importlib.util
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor

_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "fp16_chain"
_spec = importlib.util.spec_from_file_location("record_fp16_chain", _DIR / "record_fp16_chain.py")
rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rec)
RECORDED = dict(np.load(_DIR / "fp16_chain_2.10.npz"))
OPERANDS = rec.operands()


def _check(tag, case, res):
    res = res if isinstance(res, tuple) else (res,)
    keys = sorted(k for k in RECORDED if k.startswith(f"{tag}:{case}:"))
    assert len(res) == len(keys)
    for r, k in zip(res, keys):
        got, want = r.asnumpy(), RECORDED[k]
        assert got.dtype == want.dtype == np.float16, k
        assert got.shape == want.shape, k
        bad = np.flatnonzero(got.view(np.uint16) != want.view(np.uint16))
        assert bad.size == 0, f"{k}: {bad.size} of {got.size} values differ from 2.10's, e.g. " \
                              f"{got.ravel()[bad[:3]]} vs {want.ravel()[bad[:3]]}"


@pytest.mark.parametrize("tag,mode", [("graph", ms.GRAPH_MODE), ("pynative", ms.PYNATIVE_MODE)])
@pytest.mark.parametrize("case", sorted(OPERANDS))
def test_float16_chain_matches_2_10(case, tag, mode, cpu_mode):
    args = OPERANDS[case]
    for i, a in enumerate(args):
        np.testing.assert_array_equal(a, RECORDED[f"in:{case}:{i}"])
    cpu_mode(mode)
    net, inputs = rec.build(case, args)
    _check(tag, case, net(*[Tensor(a) for a in inputs]))


def test_jit_under_pynative_keeps_float32_between_matmuls(cpu_mode):
    cpu_mode(ms.PYNATIVE_MODE)
    _check("jit", "matmul_matmul", rec.jit_matmul_matmul(*[Tensor(a) for a in OPERANDS["matmul_matmul"]]))
    # the rounding that 2.10's graph skips is visible here: PYNATIVE's result differs
    assert (RECORDED["jit:matmul_matmul:0"] != RECORDED["pynative:matmul_matmul:0"]).any()


class _ConvBatchNorm(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = ms.nn.Conv2d(3, 4, 3, pad_mode="valid")
        self.bn = ms.nn.BatchNorm2d(4)

    def construct(self, x):
        return self.bn(self.conv(x)).sum()


def test_amp_batchnorm_gradient_reads_the_rounded_input(cpu_mode, tmp_path):
    """amp O2 gives BatchNorm its float16 input with float32 parameters (2.10's cell casts that input, rounded to
    float16, to float32 itself): the gradient's BatchNormGrad must read the rounded convolution output too, not the
    float32 one the raised convolution writes (which changed 49 of 108 of the convolution's weight gradients)."""
    from mindspore import ops
    cpu_mode(ms.GRAPH_MODE)
    net = ms.amp.auto_mixed_precision(_ConvBatchNorm(), "O2", dtype=ms.float16)
    net.set_train()
    ms.set_context(save_graphs=True, save_graphs_path=str(tmp_path))
    try:
        ops.GradOperation(get_by_list=True)(net, net.trainable_params())(Tensor(np.ones((2, 3, 6, 6), np.float32)))
    finally:
        ms.set_context(save_graphs=False)
    text = "\n".join(p.read_text() for p in sorted(tmp_path.glob("*memory_plan.ir")))
    lines = [line for line in text.splitlines() if "= BatchNormGrad[" in line]
    assert lines and all(": (f16[2,4,4,4], f32[4], f32[4])" in line for line in lines), lines
