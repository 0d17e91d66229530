"""Cases recorded bit for bit on real MindSpore 2.10: ``tests/fixtures/<topic>/record.py`` defines ``inputs()`` and
``cases(*inputs())`` (``{name: function giving a NumPy array}``, the same calls in 2.10 and in ours) and, run with
2.10, writes ``expected.npz``; the tests replay the cases here and compare every bit."""
import importlib.util
import pathlib

import numpy as np

_FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures"


def load(topic):
    """``(cases, expected)``: our ``{name: function}`` of ``<topic>/record.py`` and 2.10's ``expected.npz``."""
    spec = importlib.util.spec_from_file_location(f"{topic}_record", _FIXTURES / topic / "record.py")
    record = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(record)
    return record.cases(*record.inputs()), np.load(_FIXTURES / topic / "expected.npz")


def assert_same_bits(got, want):
    """Same dtype, shape and values (NaN where 2.10 has NaN); the message shows the first values that differ."""
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    differ = np.flatnonzero((got != want) & ~(np.isnan(got) & np.isnan(want)))
    assert differ.size == 0, (f"{differ.size} of {want.size} values differ, first at {differ[:5]}: "
                              f"{got.reshape(-1)[differ[:3]]} vs 2.10's {want.reshape(-1)[differ[:3]]}")
