"""MindSpore documentation pages not covered by the other page fixtures run on ours as on real MindSpore 2.10: the
beginner page "Building a Network", "Data Augmentation" (sync_wait / sync_update and the ImageNet auto-augment
operations), the design page "Data Engine" (its random augmentations, seeded), the custom operator pages (pyfunc with a custom bprop, a CPU aot kernel) and the Orange Pi
"Developer Start" page (float16 mint network).

Every example is a function in tests/fixtures/docs_pages/pages_code.py (each cites its page); ``record_docs_pages.py``
there ran them under real MindSpore 2.10 (CPU) into ``docs_pages_2_10.json``. Here each replays on ours: numbers must
agree to ~1e-5 (also inside printed tensors), everything else exactly; where 2.10 raised, ours must raise the same
exception class (or a subclass) with the same key phrase in its message.
"""
import json
import os
import pathlib
import re
import sys

import numpy as np
import pytest

import mindspore.dataset as ds

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "docs_pages"
sys.path.insert(0, str(FIX))
import pages_code as pc  # noqa: E402

sys.path.remove(str(FIX))
sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _pages import raises_with_bases, same as _same  # noqa: E402

WANT = json.loads((FIX / "docs_pages_2_10.json").read_text())

# where 2.10 raised: the phrase ours' message must contain as well
PHRASES = {
    "augment_policy_ops/color_gray_image": "RandomColor: image shape is not <H,W,C> or channel is not 3, got rank: "
                                           "2, and shape: <24,32>",
}

_NUMBER = re.compile(r"-?\d+\.\d*(?:e[-+]\d+)?")


def _same_text(have, want, where):
    """Printed text: the same words, and numbers that agree as numbers do (2.10's float32 matmuls sum in another
    order, so the last printed digits of a tensor, and with them the column widths, may differ)."""
    def words(text):  # NumPy pads the columns of a printed array to the widest number
        return [part.replace(" ", "") for part in _NUMBER.split(text)]

    assert words(have) == words(want), f"{where}: {have!r} != {want!r}"
    np.testing.assert_allclose([float(x) for x in _NUMBER.findall(have)], [float(x) for x in _NUMBER.findall(want)],
                               rtol=1e-5, atol=1e-6, err_msg=where)


def same(have, want, where):
    if isinstance(want, str) and isinstance(have, str) and have != want:
        _same_text(have, want, where)
    elif isinstance(want, list) and not (len(want) == 3 and want[0] == "raises"):
        assert isinstance(have, list) and len(have) == len(want), f"{where}: {have!r} != {want!r}"
        for i, (h, w) in enumerate(zip(have, want)):
            same(h, w, f"{where}[{i}]")
    elif isinstance(want, dict):
        assert isinstance(have, dict) and sorted(have) == sorted(want), f"{where}: {have!r} != {want!r}"
        for k in want:
            same(have[k], want[k], f"{where}/{k}")
    else:
        _same(have, want, where, PHRASES)


def _strictly_gated(have):
    # each update lets exactly one batch through: the result 2.10 gives when no update names num_batch
    same(have, WANT["augment_sync_wait_batched"], "augment_sync_wait_num_batch")


def _float16_page(have):
    want = WANT["orange_pi_dev_start_nn_loss"]
    for k in sorted(set(want) - {"test", "test_pred_sums"}):
        same(have[k], want[k], f"orange_pi_dev_start_nn_loss/{k}")
    # the predictions of the float16 network: a few outputs 1 ulp apart (2.10's float16 matmul sums in another order)
    np.testing.assert_allclose(have["test_pred_sums"], want["test_pred_sums"], rtol=1e-4)
    # the page sums the float16 losses with ``0 + loss.asnumpy()``: a float64 sum under NumPy 1.26 (2.10's
    # environment), a float16 one under NumPy 2's promotion rules
    batch = have["test_batch_losses"]
    if int(np.__version__.split(".")[0]) >= 2:
        expected = np.float16(0)
        for loss in batch:
            expected += np.float16(loss)
        expected /= len(batch)
    else:
        expected = np.mean(batch)
    assert have["test"] == [float(expected), want["test"][1]]


# 2.10 is plainly wrong or cannot run the page's code here; ours keeps the correct behaviour:
# KEPT[name] = (reason, a check of ours' result)
KEPT = {
    "orange_pi_dev_start": (
        "2.10 CPU has no kernel for mint.nn.CrossEntropyLoss (RuntimeError 'The kernel LogSoftmaxExt "
        "unregistered'); ours runs the page, and its results up to the loss agree with 2.10's run of the page with "
        "nn.CrossEntropyLoss",
        lambda have: [same(have[k], WANT["orange_pi_dev_start_nn_loss"][k], f"orange_pi_dev_start/{k}")
                      for k in ("col_names", "tuple_shapes", "print_model", "param_dtypes")]),
    "augment_sync_wait_num_batch": (
        "2.10's sync_update(num_batch=...) calls get_batch_size(), whose getter pipeline resets the sync_wait gate "
        "as a side effect: the gate then lets one extra batch through, racing the user's update (the rows differ "
        "from run to run); ours lets exactly num_batch batches through",
        _strictly_gated),
    "orange_pi_dev_start_nn_loss": (
        "the page's test loss is a NumPy sum whose precision depends on the NumPy version (see _float16_page); the "
        "rest agrees with 2.10, the predictions to float16 rounding",
        _float16_page),
}

# not fixed yet (see the report): the difference stays visible
XFAIL = {}


def run(name, monkeypatch):
    # ours may raise a subclass of 2.10's exception (MSRuntimeError of RuntimeError)
    monkeypatch.setattr(pc, "_raises", raises_with_bases)
    # the pages were recorded on a 2-CPU machine, where the default num_parallel_workers (min(8, CPUs)) is 2; seeded
    # random maps give each worker its own stream, so more workers would deal other rows to them
    workers = ds.config.get_num_parallel_workers()
    ds.config.set_num_parallel_workers(min(2, os.cpu_count() or 1))
    try:
        # the recorder's JSON round trip: tuples become lists, and anything not plain Python fails here as it did there
        return json.loads(json.dumps(pc.run_one(name)))
    finally:
        ds.config.set_num_parallel_workers(workers)


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=XFAIL[n])) if n in XFAIL else n
    for n in pc.EXAMPLES if n not in KEPT])
def test_example_matches_mindspore_2_10(name, monkeypatch):
    same(run(name, monkeypatch), WANT[name], name)


@pytest.mark.parametrize("name", sorted(KEPT))
def test_example_kept_where_2_10_differs(name, monkeypatch):
    reason, check = KEPT[name]
    check(run(name, monkeypatch))


def test_every_example_recorded():
    assert list(WANT) == pc.EXAMPLES
