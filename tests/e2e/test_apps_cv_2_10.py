"""MindSpore's computer-vision application tutorials (ResNet50 on CIFAR-10, ResNet50 transfer learning, Vision
Transformer, FCN-8s segmentation, SSD detection) run unchanged on ours, with the numbers real MindSpore 2.10 gave
for the same code.

The pages' code is in tests/fixtures/tutorials/apps_cv.py (each function cites its page and the module docstring
lists the changes: synthetic seeded data, NumPy-seeded weights, small sizes); ``record_apps_cv.py`` there ran it
under real MindSpore 2.10 (CPU) into ``apps_cv_2_10.npz``.
"""
import pathlib
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "tutorials"
sys.path.insert(0, str(FIX))
import apps_cv as app  # noqa: E402

sys.path.remove(str(FIX))

WANT = np.load(FIX / "apps_cv_2_10.npz")
PAGES = sorted({k.split("/")[0] for k in WANT.files})
# (rtol, atol) where 1e-4 does not hold, measured. ResNet50 on CIFAR-10's 32x32 images runs layer4 at 1x1, where the
# BatchNorms normalise over the 8 batch items alone: its first forward agrees with 2.10 to 2.5e-5, but the first
# gradients are ill-conditioned in float32 -- against a float64 run of the same step both ours and 2.10 are off by
# a median 0.9% and up to 18% per parameter (so are 2.10 and ours from each other). The three later losses then
# differed by 7%, 13%, 3%, the average losses by 4% and 6%, the logits after training by up to 0.05 (max 0.4), and
# which near-tied class wins is down to rounding. The first loss is held to 1e-4 (test_resnet50_first_step).
TOL = {
    "resnet50/losses": (0.25, 0.0),
    "resnet50/avg_losses": (0.25, 0.0),
    "resnet50/val_logits": (0.0, 0.15),
}
SHAPE_ONLY = {"resnet50/accs", "resnet50/val_pred"}
# Where the pages' own code fails under 2.10 (the fixture records 2.10 with a workaround), ours refuses it as 2.10:
# SSD's forward_fn calls ops.less(0, tensor) (a Python number as 'input': TypeError); FCN-8s trains on CPU with
# Model(..., loss_scale_manager=DynamicLossScaleManager) (ValueError 'Only `loss_scale_manager=None` or ...').


_RUNS = {}


def run(name):
    """The page's results on ours, computed once per test session."""
    if name not in _RUNS:
        _RUNS[name] = app.run_all([name])
    return _RUNS[name]


@pytest.mark.parametrize("name", PAGES)
def test_page_matches_mindspore_2_10(name):
    got = run(name)
    keys = sorted(k for k in WANT.files if k.startswith(name + "/"))
    assert sorted(got) == keys
    for key in keys:
        want, have = WANT[key], got[key]
        assert have.shape == want.shape, key
        assert have.dtype == want.dtype, key
        if key in SHAPE_ONLY:
            continue
        if want.dtype.kind == "f":
            rtol, atol = TOL.get(key, (1e-4, 1e-4))
            np.testing.assert_allclose(have, want, rtol=rtol, atol=atol, err_msg=key)
        else:
            np.testing.assert_array_equal(have, want, err_msg=key)


def test_resnet50_first_step():
    got = run("resnet50")
    np.testing.assert_allclose(got["resnet50/losses"][0], WANT["resnet50/losses"][0], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", sorted(p for p in PAGES if p + "/losses" in WANT.files))
def test_pages_really_trained(name):
    losses = run(name)[name + "/losses"]
    assert np.isfinite(losses).all() and losses.size >= 1, name


def test_pages_code_that_2_10_refuses_is_refused():
    import mindspore as ms
    from mindspore import Tensor, nn, ops
    from mindspore.train import Model

    label = Tensor(np.array([[0, 3, 0, 1]], np.int32))
    with pytest.raises(TypeError, match=r'Failed calling less with "less\(int, Tensor\)"'):
        ops.less(0, label)
    assert ops.less(label, 0).asnumpy().tolist() == [[False, False, False, False]]

    net = nn.Dense(3, 2)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    if ms.get_context("device_target") == "CPU":
        with pytest.raises(ValueError, match="are supported on device `CPU`"):
            Model(net, loss_fn=nn.MSELoss(), optimizer=opt, loss_scale_manager=ms.amp.DynamicLossScaleManager(4, 3000))
