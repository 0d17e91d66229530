"""The added metrics (ConfusionMatrixMetric, HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance,
OcclusionSensitivity): values and error messages against real MindSpore 2.10 (``train_more_msref.json``, made by
``make_train_more_fixture.py`` from the cases in ``train_more_cases.py``), plus their exports."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import mindspore as ms

sys.path.insert(0, str(Path(__file__).parent))
import train_more_cases  # noqa: E402

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "api" / "train_more_msref.json"
REF = json.loads(FIX.read_text())["cases"]
CASES = train_more_cases.all_cases(ms)


def _close(ours, ref):
    if isinstance(ref, dict) and "array" in ref:
        assert isinstance(ours, dict) and ours.get("shape") == ref["shape"], (ours, ref)
        np.testing.assert_allclose(np.array(ours["array"], float), np.array(ref["array"], float), rtol=1e-5,
                                   atol=1e-6, equal_nan=True)
    elif isinstance(ref, float):
        assert isinstance(ours, float) and ours == pytest.approx(ref, rel=1e-9, abs=1e-12), (ours, ref)
    else:
        assert ours == ref


def test_every_case_recorded():
    assert set(CASES) == set(REF)


@pytest.mark.parametrize("key", sorted(REF))
def test_case_matches_mindspore(key):
    _close(train_more_cases.run_case(CASES[key]), REF[key])


def test_exports():
    names = ("ConfusionMatrixMetric", "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance",
             "OcclusionSensitivity")
    for name in names:
        cls = getattr(ms.train, name)
        assert getattr(ms, name) is cls and getattr(ms.nn, name) is cls and getattr(ms.train.metrics, name) is cls
        assert name in ms.train.__all__ and name in ms.train.metrics.__all__


def test_surface_distance_helpers_against_brute_force():
    from mindspore.train.metrics import _surface
    rng = np.random.RandomState(3)
    mask = rng.rand(5, 6, 4) > 0.4
    # erosion: a voxel stays iff it and its 2*ndim face neighbours (outside = background) are set
    padded = np.pad(mask, 1)
    expect = np.zeros_like(mask)
    for idx in np.ndindex(mask.shape):
        p = tuple(i + 1 for i in idx)
        nbrs = [padded[p]] + [padded[p[:a] + (p[a] + s,) + p[a + 1:]] for a in range(3) for s in (-1, 1)]
        expect[idx] = all(nbrs)
    np.testing.assert_array_equal(_surface.binary_erosion(mask), expect)
    a, b = rng.rand(7, 7) > 0.7, rng.rand(7, 7) > 0.7
    pa, pb = np.argwhere(a), np.argwhere(b)
    d = pa[:, None, :] - pb[None, :, :]
    np.testing.assert_allclose(_surface.surface_distance(a, b, "euclidean"), np.sqrt((d ** 2).sum(-1)).min(1))
    np.testing.assert_array_equal(_surface.surface_distance(a, b, "chessboard"), np.abs(d).max(-1).min(1))
    np.testing.assert_array_equal(_surface.surface_distance(a, b, "taxicab"), np.abs(d).sum(-1).min(1))
    assert _surface.surface_distance(np.zeros((2, 2), bool), b, "euclidean").shape == (0,)
    assert np.isinf(_surface.surface_distance(a, np.zeros_like(b), "taxicab")).all()


def test_confusion_matrix_metric_unknown_name_and_batch_decrease():
    with pytest.raises(ValueError, match="the 'metric_name' must be one of"):
        ms.train.ConfusionMatrixMetric(metric_name="auc")
    # MindSpore 2.10 cannot run decrease='mean_batch' with calculation_method=True (it stores the function instead
    # of its result); here it averages over the batch, which gives one value per channel: refused for averaging
    m = ms.train.ConfusionMatrixMetric(metric_name="tpr", calculation_method=True, decrease="mean_batch")
    with pytest.raises(ValueError, match="gives 2 values per update"):
        m.update(np.ones((3, 2, 4)), np.ones((3, 2, 4)))
