"""Composite float operators give MindSpore 2.10's CPU numbers bit for bit (float32 and float64).

2.10 computes ``other / x`` for a Python number ``other`` as ``x.reciprocal() * other`` (eagerly and in GRAPH_MODE;
about a quarter of float32 quotients differ from ``div`` in the last bit), ``addcmul`` as ``input + value * (x1 *
x2)``, orders the products of the addcmul, addcdiv and lerp gradients its own way, scales by clip_by_global_norm
as ``t * clip_norm / norm``, and adds Cdist's squares in eight fused lanes (then a block of four, then one by one);
each order decides the last bits. The expected values were recorded on 2.10 by ``tests/fixtures/float32_composites/record.py`` (the same calls,
the inputs made from its seed).
"""
import pathlib
import sys

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _bits_recorded import assert_same_bits, load  # noqa: E402

CASES, EXPECTED = load("float32_composites")

#: cases where ours keeps more precision on purpose: 2.10's float64 addcmul/addcdiv gradients multiply ``value`` by
#: ``x2`` (or divide it) in float32, and its clip_by_global_norm rounds a float64 tensor's norm to float32, so they
#: carry float32 rounding errors; ours stay float64 (within those errors)
FLOAT32_ROUNDED_IN_210 = {"grad_addcmul_f64", "grad_addcdiv_dx1_f64", "clip_by_global_norm_f64_0",
                          "clip_by_global_norm_f64_1"}


def test_every_recorded_case_is_replayed():
    assert sorted(CASES) == sorted(EXPECTED.files)


@pytest.mark.parametrize("name", sorted(set(EXPECTED.files) - FLOAT32_ROUNDED_IN_210))
def test_same_bits_as_mindspore_210(name):
    assert_same_bits(CASES[name](), EXPECTED[name])


@pytest.mark.parametrize("name", sorted(FLOAT32_ROUNDED_IN_210))
def test_float64_results_keep_float64_precision(name):
    got, want = CASES[name](), EXPECTED[name]
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=2 ** -22, atol=1e-30)    # 2.10's float32 roundings, no more
    assert not np.array_equal(got, want)
