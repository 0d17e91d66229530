"""Item assignment in GRAPH_MODE on a Cell attribute (``self.t[i] = v``) and through nested subscripts
(``a[i][j] = v``) behaves as in MindSpore 2.10: ``self.t`` is rebound for the rest of the function and its closures
(not in the methods it calls, not after the call), unless the function also sets ``self.t``; ``a[i][j] = v`` rebinds
``a[i]`` then ``a``; ``self.t = self.t * 2`` on a constant tensor attribute happens at every call. PYNATIVE keeps
Python's meaning. The cases and 2.10's results: tests/fixtures/graph_syntax/setitem_attr_cases.py,
record_setitem_attr.py, setitem_attr_2_10.json."""
import importlib.util
import json
import pathlib

import pytest

_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "graph_syntax"
_spec = importlib.util.spec_from_file_location("setitem_attr_cases", _DIR / "setitem_attr_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
REF = json.loads((_DIR / "setitem_attr_2_10.json").read_text())["cases"]


def _close(got, want):
    """Equal structures; numbers equal to float32 rounding."""
    if isinstance(want, dict):
        return isinstance(got, dict) and got.keys() == want.keys() and all(_close(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(_close(g, w) for g, w in zip(got, want))
    if isinstance(want, float) and not isinstance(got, bool):
        return isinstance(got, float) and got == pytest.approx(want, rel=1e-6)
    return type(got) is type(want) and got == want


@pytest.mark.parametrize("name", sorted(cases.CASES))
@pytest.mark.parametrize("mode", ["graph", "pynative"])
def test_setitem_as_in_2_10(mode, name):
    got = cases.run(name, mode)
    assert _close(got, REF[mode][name]), (got, REF[mode][name])
