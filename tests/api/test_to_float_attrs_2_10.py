"""``Cell.to_float(float16)`` and the cell's float Tensor attributes that are not Parameters, as in MindSpore 2.10:
the attributes keep their dtype, and in GRAPH_MODE construct reads them as float16 (float32 and float64 alike, not
inside a tuple, list or dict). Recorded by tests/fixtures/refusals_2_10/record_to_float_attrs.py."""
import importlib.util
import json
import pathlib

import pytest


_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "refusals_2_10"
_spec = importlib.util.spec_from_file_location("to_float_attrs_cases", _DIR / "to_float_attrs_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
REF = json.loads((_DIR / "to_float_attrs.json").read_text())["cases"]


pytestmark = pytest.mark.usefixtures("restore_mode")


@pytest.mark.parametrize("mode", ["graph", "pynative"])
def test_to_float_reads_tensor_attributes_as_2_10(mode):
    assert cases.run(mode) == REF[mode]
