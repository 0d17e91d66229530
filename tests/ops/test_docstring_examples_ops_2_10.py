"""The ``Examples:`` of MindSpore 2.10's ``mindspore.ops`` / ``ops.composite`` / ``mindspore.numpy`` /
``mindspore.scipy`` docstrings print what 2.10 printed.

Each case replays one docstring example, statement by statement in a fresh namespace (PYNATIVE, CPU, seeds 0), and
compares what every statement printed or raised with real 2.10's output: numbers within rtol 1e-5/atol 1e-6, the
rest of the text up to whitespace; random ops by structure only. The fixture and how it was recorded:
tests/fixtures/doc_examples/make_doc_ops_fixture.py (runner: run_examples.py next to it).
"""
import json
import os
import sys

import pytest

_HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "doc_examples")
sys.path.insert(0, _HERE)
from run_examples import compare_parts, run_parts  # noqa: E402

with open(os.path.join(_HERE, "doc_ops_2_10.json")) as _f:
    CASES = json.load(_f)

# the runner sets PYNATIVE and the CPU before each example, as recorded; some examples switch to GRAPH mode
pytestmark = pytest.mark.usefixtures("restore_mode")


@pytest.fixture(scope="module")
def source_dir(tmp_path_factory):
    """Where each statement is written (MindSpore's parser reads the source of the functions an example defines)."""
    return str(tmp_path_factory.mktemp("doc_ops_sources"))


@pytest.mark.parametrize("key", sorted(CASES))
def test_doc_example_matches_2_10(key, source_dir):
    case = CASES[key]
    parts = [{"source": source, "want": "", "expect_exc": exc is not None} for source, _, exc in case["parts"]]
    expected = [{"out": out, "exc": exc} for _, out, exc in case["parts"]]
    _, got, _ = run_parts(parts, fd_level=False, name=key, src_dir=source_dir)
    diff = compare_parts(expected, got, random=case["random"])
    if diff is not None:
        category, detail, index = diff
        source = case["parts"][index][0]
        ours = got[index] if index < len(got) else {}
        pytest.fail(f"{category} at >>> {source.strip()}\n2.10: {expected[index]}\nours: {ours}\n{detail}")
