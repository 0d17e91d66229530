"""CPU float16 kernels that MindSpore 2.10 runs in float16 arithmetic, bit for bit: Sigmoid (``exp(-x)``, ``1 + e``
and the quotient each rounded to float16), HSwish (``x * (x + 3)`` and its sixth rounded, 0 and ``x`` outside
[-3, 3]), L2Normalize (the rounded squares summed in order, each partial sum rounded) and CumSum / CumProd (each
partial result rounded). Outputs recorded with
2.10 by ``tests/fixtures/fp16_chain/record_fp16_kernels.py``, which this test imports for the cases."""
import importlib.util
import pathlib

import numpy as np
import pytest

import mindspore as ms

_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "fp16_chain"
_spec = importlib.util.spec_from_file_location("record_fp16_kernels", _DIR / "record_fp16_kernels.py")
rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rec)
RECORDED = dict(np.load(_DIR / "fp16_kernels_2.10.npz"))
CASES = {case: (args, x, axis) for case, args, x, axis in rec.inputs()}


@pytest.mark.parametrize("case", sorted(CASES))
def test_float16_kernel_matches_2_10(case, cpu_mode):
    args, x, axis = CASES[case]
    np.testing.assert_array_equal(x, RECORDED[f"in:{case}"])
    cpu_mode(ms.PYNATIVE_MODE)
    got, want = rec.run(case, args, x, axis).asnumpy(), RECORDED[f"out:{case}"]
    assert got.dtype == np.float16 and got.shape == want.shape
    bad = np.flatnonzero(got.view(np.uint16) != want.view(np.uint16))
    assert bad.size == 0, f"{bad.size} of {got.size} differ, e.g. x={x.ravel()[bad[:3]]}: {got.ravel()[bad[:3]]} " \
                          f"vs 2.10's {want.ravel()[bad[:3]]}"


@pytest.mark.parametrize("case", ["sigmoid", "hswish", "l2normalize_5x7x9_axis1_eps0.0001",
                                  "cumsum_5x300_axis1_exclusive_reverse"])
def test_float16_kernel_graph_mode(case, cpu_mode):
    args, x, axis = CASES[case]
    cpu_mode(ms.GRAPH_MODE)
    got = ms.jit(rec.run, static_argnums=(0, 1, 3))(case, args, x, axis).asnumpy()
    assert (got.view(np.uint16) == RECORDED[f"out:{case}"].view(np.uint16)).all()
