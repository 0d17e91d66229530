"""The ``Examples:`` of MindSpore 2.10's ``mindspore.nn``, ``Tensor`` methods, ``mindspore.mint``, ``mindspore.train``,
``mindspore.amp``, ``mindspore.common.initializer`` and top-level ``mindspore`` docstrings print what 2.10 printed.

Each case replays one docstring example, statement by statement in a fresh namespace (PYNATIVE, CPU, seeds 0, in a
temporary directory), and compares what every statement printed or raised with real 2.10's output: numbers within
rtol 1e-5/atol 1e-6, the rest of the text up to whitespace (addresses aside); random ops by structure only. The
fixture and how it was recorded: tests/fixtures/doc_examples/make_doc_nn_fixture.py (runner: run_examples.py next
to it). ``doc_nn_extra_2_10.json`` (record_doc_nn_extra.py) adds cases around the fixes the sweep led to.
"""
import json
import os
import sys

import pytest

import mindspore as ms

_HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "doc_examples")
sys.path.insert(0, _HERE)
from run_examples import compare_parts, run_parts  # noqa: E402

with open(os.path.join(_HERE, "doc_nn_2_10.json")) as _f:
    CASES = json.load(_f)
with open(os.path.join(_HERE, "doc_nn_extra_2_10.json")) as _f:
    EXTRA = json.load(_f)
CONTEXT_CALLS = EXTRA.pop("_context_calls")


@pytest.fixture
def in_tmp(tmp_path, monkeypatch, restore_mode):
    """Examples write checkpoints and MindIR files to the working directory, and some switch to GRAPH mode (the
    runner sets PYNATIVE and the CPU before each, as recorded: restore_mode puts the test session's back)."""
    monkeypatch.chdir(tmp_path)
    yield


def _replay(key, case):
    parts = [{"source": source, "want": "", "expect_exc": exc is not None} for source, _, exc in case["parts"]]
    expected = [{"out": out, "exc": exc} for _, out, exc in case["parts"]]
    _, got, _ = run_parts(parts, fd_level=False, name=key, src_dir=os.path.join(os.getcwd(), "src"))
    diff = compare_parts(expected, got, random=case["random"])
    if diff is not None:
        category, detail, index = diff
        source = case["parts"][index][0]
        ours = got[index] if index < len(got) else {}
        pytest.fail(f"{category} at >>> {source.strip()}\n2.10: {expected[index]}\nours: {ours}\n{detail}")


@pytest.mark.parametrize("key", sorted(CASES))
def test_doc_example_matches_2_10(key, in_tmp):
    _replay(key, CASES[key])


@pytest.mark.parametrize("key", sorted(EXTRA))
def test_fix_case_matches_2_10(key, in_tmp):
    _replay(key, EXTRA[key])


@pytest.mark.parametrize("call", sorted(CONTEXT_CALLS))
def test_set_context_warns_and_refuses_as_2_10(call, capfd, restore_mode):
    """set_context's deprecated keys log 2.10's warning (the APIs replacing them do not); removed keys raise."""
    from mindspore import log
    want = CONTEXT_CALLS[call]
    log._reset()         # a logger writing to this test's stderr
    try:
        capfd.readouterr()
        try:
            exec(call, {"ms": ms})   # noqa: S102 - the recorded call
            error = None
        except ValueError as e:
            error = str(e).splitlines()[0]
        err = capfd.readouterr().err
    finally:
        log._reset()
    got = [line.split("] ", 2)[-1] for line in err.splitlines() if line.startswith("[WARNING]")]
    assert (got, error) == (want["warnings"], want["error"])
