"""MindSpore's training-availability and dataset-tuning pages ("Fault Recovery", "Graceful Exit", "Dataset
AutoTune", "Enabling Heterogeneous Acceleration for Data") run on ours as on real MindSpore 2.10.

Every runnable example of those pages is a function in tests/fixtures/availability/avail_code.py (each cites its page
and section; "DryRun" has no Python code and its MS_SIMULATION_LEVEL needs Ascend); ``record_avail.py`` there ran
them under real MindSpore 2.10 (CPU) into ``avail_2_10.json``. Here each replays on ours in a temporary directory:
numbers (losses before the fault and after resuming, restored parameters) must agree to ~1e-5, everything else
exactly; where 2.10 raised, ours must raise the same exception class (or a subclass of it) with the key phrase of
2.10's message (PHRASES) in its message.
"""
import json
import pathlib
import sys

import pytest

import mindspore

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "availability"
sys.path.insert(0, str(FIX))
import avail_code as ac  # noqa: E402

sys.path.remove(str(FIX))
sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _pages import raises_with_bases, same as _same  # noqa: E402

WANT = json.loads((FIX / "avail_2_10.json").read_text())

# where 2.10 raised: the phrase of its message that ours' message must contain as well ("name/key" paths)
PHRASES = {
    "fault_recover/train": "Some errors happen.",
    "graceful_exit_set_device/out": "Unsupported device target Ascend.",
    "autotune_bad_args/enable_not_bool": "enable must be of type bool.",
    "autotune_bad_args/path_not_str": "json_filepath must be a str value but was: 123.",
    "autotune_bad_args/interval_negative": "Interval given is not within the required range [0, "
                                           "INT32_MAX(2147483647)].",
    "autotune_bad_args/interval_not_int": "interval must be of type int.",
    "offload_map/rows": "For RandomHorizontalFlip offload operation, the dimension of input should be 4, but got 3.",
    "offload_multi_column/rows": "For RandomHorizontalFlip offload operation, the dimension of input should be 4, "
                                 "but got 3.",
    "offload_page_name/out": "module 'mindspore.dataset' has no attribute 'ImageFolder'",
}

# 2.10 is plainly wrong or cannot run the page's code here; ours keeps the correct behaviour:
# KEPT[name] = (reason, a check of ours' result)
KEPT = {}

# not fixed yet (see the report): the difference stays visible
_NO_OFFLOAD = ("ours has no offload model: map(offload=True) runs its operations on the host, row by row, so the "
               "page's unbatched pipeline works; 2.10 moves RandomHorizontalFlip/Normalize/HWC2CHW into a model "
               "applied to the iterator's output, which needs 4-D (batched NHWC) images and rejects the rows")
XFAIL = {
    "offload_map": _NO_OFFLOAD,
    "offload_multi_column": _NO_OFFLOAD,
}


def same(have, want, where):
    _same(have, want, where, PHRASES)


@pytest.fixture
def run(monkeypatch, tmp_path):
    def _run(name):
        monkeypatch.setattr(ac, "_raises", raises_with_bases)
        mode = mindspore.get_context("mode")
        try:
            return ac.run_one(name, str(tmp_path))
        finally:
            mindspore.set_context(mode=mode)
    return _run


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=XFAIL[n])) if n in XFAIL else n
    for n in ac.NAMES if n not in KEPT])
def test_example_matches_mindspore_2_10(name, run):
    same(run(name), WANT[name], name)


@pytest.mark.parametrize("name", sorted(KEPT))
def test_example_kept_where_2_10_differs(name, run):
    reason, check = KEPT[name]
    check(run(name))


def test_every_example_recorded():
    assert list(WANT) == ac.NAMES


def test_every_phrase_is_in_2_10s_message():
    """The phrases are 2.10's own words: each is in the message 2.10 recorded."""
    for path, phrase in PHRASES.items():
        want = WANT
        for part in path.split("/"):
            want = want[part]
        assert want[0] == "raises" and phrase in want[2], path
