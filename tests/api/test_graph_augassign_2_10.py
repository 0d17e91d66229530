"""``x op= y`` on a tensor in GRAPH_MODE is done in place, as in MindSpore 2.10 (its default
``JIT_ENABLE_AUGASSIGN_INPLACE``): the tensor named by a variable or an attribute is written, in its own dtype and
shape, so its aliases, the Cell attribute and the caller's argument see the new value at every call; PYNATIVE keeps
Python's meaning. The cases and 2.10's results: tests/fixtures/graph_syntax/augassign_cases.py,
record_augassign.py, augassign_2_10.json (found with the model zoo's research/gnn/gat, whose MaskedAccuracy does
``mask /= reduce_mean(mask)`` on a constant mask: 2.10 reports its accuracy growing 2.5x a call)."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _graph_recorded import close as _close, load  # noqa: E402

cases, REF = load("augassign")


@pytest.mark.parametrize("name", sorted(cases.CASES))
@pytest.mark.parametrize("mode", ["graph", "pynative"])
def test_augassign_as_in_2_10(mode, name):
    got = cases.run(name, mode)
    assert _close(got, REF[mode][name]), (got, REF[mode][name])
