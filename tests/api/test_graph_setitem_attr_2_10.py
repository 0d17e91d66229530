"""Item assignment in GRAPH_MODE on a Cell attribute (``self.t[i] = v``) and through nested subscripts
(``a[i][j] = v``) behaves as in MindSpore 2.10: ``self.t`` is rebound for the rest of the function and its closures
(not in the methods it calls, not after the call), unless the function also sets ``self.t``; ``a[i][j] = v`` rebinds
``a[i]`` then ``a``; ``self.t = self.t * 2`` on a constant tensor attribute happens at every call. PYNATIVE keeps
Python's meaning. The cases and 2.10's results: tests/fixtures/graph_syntax/setitem_attr_cases.py,
record_setitem_attr.py, setitem_attr_2_10.json."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _graph_recorded import close as _close, load  # noqa: E402

cases, REF = load("setitem_attr")


@pytest.mark.parametrize("name", sorted(cases.CASES))
@pytest.mark.parametrize("mode", ["graph", "pynative"])
def test_setitem_as_in_2_10(mode, name):
    got = cases.run(name, mode)
    assert _close(got, REF[mode][name]), (got, REF[mode][name])
