"""Pixel equality with real MindSpore 2.10: every case of ``fixtures/vision_reference_cases.py`` is replayed
here and compared with the output MindSpore gave (recorded in ``fixtures/vision_reference.npz``).

uint8 results must be identical except where stated in ``TOLERANCE``; float results are compared
with a relative tolerance of 1e-5 (float32 rounding of the same formula).
"""
import importlib.util
import os

import numpy as np
import pytest

import mindspore.dataset.vision as v
from mindspore.dataset.vision import Border, ConvertMode, Inter, SliceMode

_HERE = os.path.dirname(os.path.abspath(__file__))
_SPEC = importlib.util.spec_from_file_location("vision_reference_cases",
                                               os.path.join(_HERE, "fixtures", "vision_reference_cases.py"))
cases = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(cases)

REF = np.load(cases.FIXTURE)
ENV = {"v": v, "Inter": Inter, "Border": Border, "ConvertMode": ConvertMode, "SliceMode": SliceMode, "np": np,
       "read_image_bytes": cases.read_image_bytes}

# Largest absolute difference allowed (uint8 levels), by expression prefix; everything else is exact.
# AdjustHue: OpenCV's HSV -> RGB conversion rounds about a third of the pixels one level differently
# in MindSpore's OpenCV build and in the opencv-python wheel (either optimisation setting).
TOLERANCE = {"v.AdjustHue(": 1}


def _normalize_pad_layout(want):
    """MindSpore 2.10's NormalizePad writes the normalised ``<H, W, 3>`` values contiguously and the
    zeros after them, then labels the buffer ``<H, W, 4>``; this implementation appends the zero channel
    to every pixel. Same numbers, MindSpore's layout undone."""
    height, width, channels = want.shape
    values = want.reshape(-1)[:height * width * (channels - 1)].reshape(height, width, channels - 1)
    assert not want.reshape(-1)[height * width * (channels - 1):].any()
    return np.concatenate([values, np.zeros((height, width, 1), want.dtype)], axis=2)


# Where this implementation deliberately differs from MindSpore 2.10: the recorded output is mapped
# to the one expected here.
DEVIATIONS = {"v.NormalizePad(": _normalize_pad_layout}


def _inputs():
    stored = {k[len("input:"):]: REF[k] for k in REF.files if k.startswith("input:")}
    made = cases.make_inputs()
    for name, array in made.items():  # the fixture's arrays are the ones the script makes (encoded files are stored)
        np.testing.assert_array_equal(stored[name], array)
    return stored


INPUTS = _inputs()


def _tolerance(expr):
    for prefix, tol in TOLERANCE.items():
        if expr.startswith(prefix):
            return tol
    return 0


def test_fixture_matches_case_list():
    assert [str(s) for s in REF["ids"]] == [c[0] for c in cases.CASES]


@pytest.mark.parametrize("index", range(len(cases.CASES)), ids=[c[0] for c in cases.CASES])
def test_same_as_mindspore(index):
    _, expr, names = cases.CASES[index]
    args = [INPUTS[n].copy() for n in ((names,) if isinstance(names, str) else names)]
    op = eval(expr, ENV)  # pylint: disable=eval-used
    error = f"error:{index}"
    if error in REF.files:
        kind, message = str(REF[error]).split(": ", 1)
        with pytest.raises({"RuntimeError": RuntimeError, "TypeError": TypeError, "ValueError": ValueError}[kind]) as info:
            op(*args)
        assert message.replace("[Internal ERROR] ", "").split(":")[0] in str(info.value)  # the op named
        return
    out = op(*args)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    expected = []
    while f"out:{index}:{len(expected)}" in REF.files:
        expected.append(REF[f"out:{index}:{len(expected)}"])
    assert len(outs) == len(expected)
    for prefix, relayout in DEVIATIONS.items():
        if expr.startswith(prefix):
            expected = [relayout(want) for want in expected]
    for got, want in zip(outs, expected):
        got = np.asarray(got)
        assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
        if want.dtype.kind == "f":
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * max(1.0, float(np.abs(want).max(initial=0))))
        else:
            diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
            assert diff.max(initial=0) <= _tolerance(expr), f"max diff {diff.max()} at {np.argwhere(diff > 0)[:5]}"
