"""Composite float operators give MindSpore 2.10's CPU numbers bit for bit (float32 and float64).

2.10 computes ``other / x`` for a Python number ``other`` as ``x.reciprocal() * other`` (eagerly and in GRAPH_MODE;
about a quarter of float32 quotients differ from ``div`` in the last bit), ``addcmul`` as ``input + value * (x1 *
x2)``, and orders the products of the addcmul, addcdiv and lerp gradients its own way; each order decides the last
bits. The expected values were recorded on 2.10 by ``tests/fixtures/float32_composites/record.py`` (the same calls,
the inputs made from its seed).
"""
import importlib.util
import pathlib

import numpy as np
import pytest

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "float32_composites"
_spec = importlib.util.spec_from_file_location("float32_composites_record", FIXTURES / "record.py")
record = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record)

EXPECTED = np.load(FIXTURES / "expected.npz")
CASES = record.cases(*record.inputs())

#: cases where ours keeps more precision on purpose: 2.10's float64 addcmul/addcdiv gradients multiply ``value`` by
#: ``x2`` (or divide it) in float32, so they carry float32 rounding errors; ours stay float64 (within those errors)
FLOAT32_ROUNDED_IN_210 = {"grad_addcmul_f64", "grad_addcdiv_dx1_f64"}


def test_every_recorded_case_is_replayed():
    assert sorted(CASES) == sorted(EXPECTED.files)


@pytest.mark.parametrize("name", sorted(set(EXPECTED.files) - FLOAT32_ROUNDED_IN_210))
def test_same_bits_as_mindspore_210(name):
    got, want = CASES[name](), EXPECTED[name]
    assert got.dtype == want.dtype and got.shape == want.shape
    differ = np.flatnonzero((got != want) & ~(np.isnan(got) & np.isnan(want)))
    assert differ.size == 0, f"{differ.size} of {want.size} values differ, first at {differ[:5]}: " \
                             f"{got.reshape(-1)[differ[:3]]} vs 2.10's {want.reshape(-1)[differ[:3]]}"


@pytest.mark.parametrize("name", sorted(FLOAT32_ROUNDED_IN_210))
def test_float64_gradients_keep_float64_precision(name):
    got, want = CASES[name](), EXPECTED[name]
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=2 ** -22, atol=1e-30)    # 2.10's float32 roundings, no more
    assert not np.array_equal(got, want)
