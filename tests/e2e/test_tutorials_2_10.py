"""MindSpore's beginner tutorials (quick start, tensors, autodiff, the training loop in PyNative and GRAPH mode,
static graph / ``mindspore.jit``, mixed precision, dataset, save/load) run unchanged on ours, with the numbers real
MindSpore 2.10 gave for the same code.

The tutorials' code is in tests/fixtures/tutorials/tutorial_code.py (each function cites its tutorial page);
``record_tutorials.py`` there ran it under real MindSpore 2.10 (CPU) into ``tutorials_2_10.npz``. The README's own
quick start (LeNet5 through ``Model.train``) is tests/e2e/test_quickstart.py.
"""
import pathlib
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "tutorials"
sys.path.insert(0, str(FIX))
import tutorial_code as tc  # noqa: E402

sys.path.remove(str(FIX))

WANT = np.load(FIX / "tutorials_2_10.npz")
TUTORIALS = sorted({k.split("/")[0] for k in WANT.files})
# the O2 tutorial computes in float16: its losses agree with 2.10's to float16 precision
TOL = {"mixed_precision": 2e-3}


@pytest.fixture(scope="module")
def got():
    return tc.run_all(str(ROOT / "examples" / "data" / "digits"))


@pytest.mark.parametrize("tutorial", TUTORIALS)
def test_tutorial_matches_mindspore_2_10(got, tutorial):
    keys = sorted(k for k in WANT.files if k.startswith(tutorial + "/"))
    assert sorted(k for k in got if k.startswith(tutorial + "/")) == keys
    tol = TOL.get(tutorial, 1e-4)
    for key in keys:
        want, have = WANT[key], got[key]
        assert have.shape == want.shape, key
        if want.dtype.kind == "f":
            assert have.dtype == want.dtype, key
            np.testing.assert_allclose(have, want, rtol=tol, atol=tol, err_msg=key)
        else:
            np.testing.assert_array_equal(have, want, err_msg=key)


def test_tutorials_really_trained(got):
    for name in ("quick_start", "train", "train_graph_mode", "mixed_precision"):
        losses = got[name + "/losses"]
        assert np.isfinite(losses).all() and losses[-1] < losses[0], name
    np.testing.assert_allclose(got["train/losses"], got["train_graph_mode/losses"], rtol=1e-5)
