"""Cases shared by ``make_train_more_fixture.py`` (run with real MindSpore 2.10) and ``test_train_more.py`` (run
with ours): each case builds something through the public API of the ``mindspore`` module it is given and returns
a JSON-able result; an exception becomes ``{"error": type name, "message": text}``."""
from __future__ import annotations

import numpy as np


def _jsonable(value):
    if isinstance(value, np.ndarray):
        return {"array": np.asarray(value, dtype=np.float64).tolist(), "shape": list(value.shape)}
    if isinstance(value, (np.floating, np.integer)):
        value = value.item()
    if isinstance(value, float):
        if np.isinf(value):
            return "inf" if value > 0 else "-inf"
        if np.isnan(value):
            return "nan"
    return value


X = np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]])
Y = np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]])
RNG = np.random.RandomState(7)
A3 = RNG.randint(0, 3, size=(6, 7, 5))
B3 = RNG.randint(0, 3, size=(6, 7, 5))
SEG_PRED = (RNG.rand(3, 3, 4, 5) > 0.5).astype(np.float32)
SEG_TRUE = (RNG.rand(3, 3, 4, 5) > 0.5).astype(np.float32)


def _surface_cases(ms):
    out = {}
    for cls_name in ("HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance"):
        cls = getattr(ms.train, cls_name)
        for metric in ("euclidean", "chessboard", "taxicab"):
            variants = [{}]
            if cls_name == "HausdorffDistance":
                variants = [{}, {"directed": True}, {"percentile": 90.0}, {"crop": False}]
            else:
                variants = [{}, {"symmetric": True}]
            for kw in variants:
                for label, (a, b) in (("x", (X, Y)), ("vol", (A3, B3))):
                    for idx in (0, 1, 2):
                        key = f"{cls_name}|{metric}|{sorted(kw.items())}|{label}|{idx}"
                        m = cls(distance_metric=metric, **kw)
                        m.clear()
                        out[key] = lambda m=m, a=a, b=b, idx=idx: (m.update(ms.Tensor(a), ms.Tensor(b), idx),
                                                                   m.eval())[1]
        out[f"{cls_name}|bool_masks"] = lambda cls=cls: (lambda m: (m.update(X == 1, Y == 1, 1), m.eval())[1])(cls())
        out[f"{cls_name}|empty_pred"] = lambda cls=cls: (lambda m: (m.update(np.zeros((4, 4)), np.eye(4), 1),
                                                                   m.eval())[1])(cls())
        out[f"{cls_name}|err_count"] = lambda cls=cls: cls().update(X, Y)
        out[f"{cls_name}|err_label_type"] = lambda cls=cls: cls().update(X, Y, "a")
        out[f"{cls_name}|err_label_missing"] = lambda cls=cls: cls().update(X, Y, 7)
        out[f"{cls_name}|err_shape"] = lambda cls=cls: cls().update(X, Y[:2], 1)
        out[f"{cls_name}|err_metric"] = lambda cls=cls: cls(distance_metric="cosine")
        out[f"{cls_name}|err_metric_type"] = lambda cls=cls: cls(distance_metric=1)
        out[f"{cls_name}|eval_before_update"] = lambda cls=cls: (lambda m: (m.clear(), m.eval())[1])(cls())
    out["HausdorffDistance|err_percentile"] = lambda: ms.train.HausdorffDistance(percentile=1)
    out["HausdorffDistance|err_percentile_range"] = lambda: (lambda m: (m.update(X, Y, 0), m.eval())[1])(
        ms.train.HausdorffDistance(percentile=120.0))
    out["HausdorffDistance|err_directed"] = lambda: ms.train.HausdorffDistance(directed=1)
    out["MeanSurfaceDistance|err_symmetric"] = lambda: ms.train.MeanSurfaceDistance(symmetric=1)
    out["MeanSurfaceDistance|eval_fresh"] = lambda: ms.train.MeanSurfaceDistance().eval()
    return out


def _confusion_cases(ms):
    out = {}
    names = ["sensitivity", "specificity", "precision", "negative predictive value", "miss rate", "fall out",
             "false discovery rate", "false omission rate", "prevalence threshold", "threat score", "accuracy",
             "balanced accuracy", "f1 score", "matthews correlation coefficient", "fowlkes mallows index",
             "informedness", "markedness"]
    for name in names:
        for skip in (True, False):
            for calc, decrease in ((False, "mean"), (True, "mean"), (True, "sum")):
                key = f"CMM|{name}|{skip}|{calc}|{decrease}"

                def run(name=name, skip=skip, calc=calc, decrease=decrease):
                    m = ms.train.ConfusionMatrixMetric(skip_channel=skip, metric_name=name,
                                                       calculation_method=calc, decrease=decrease)
                    m.clear()
                    m.update(ms.Tensor(SEG_PRED), ms.Tensor(SEG_TRUE))
                    m.update(SEG_PRED[:2, :, :2], SEG_TRUE[:2, :, :2])
                    return m.eval()
                out[key] = run
    out["CMM|doc"] = lambda: (lambda m: (m.update(ms.Tensor(np.array([[[0], [1]], [[1], [0]]])),
                                                  ms.Tensor(np.array([[[0], [1]], [[0], [1]]]))), m.eval())[1])(
        ms.train.ConfusionMatrixMetric(metric_name="tpr"))
    out["CMM|err_count"] = lambda: ms.train.ConfusionMatrixMetric().update(SEG_PRED)
    out["CMM|err_binary"] = lambda: ms.train.ConfusionMatrixMetric().update(SEG_PRED, SEG_TRUE * 0.5)
    out["CMM|err_dims"] = lambda: ms.train.ConfusionMatrixMetric().update(np.ones(3), np.ones(3))
    out["CMM|err_decrease"] = lambda: ms.train.ConfusionMatrixMetric(decrease="max")
    out["CMM|err_calc"] = lambda: ms.train.ConfusionMatrixMetric(calculation_method=1)
    out["CMM|err_skip"] = lambda: ms.train.ConfusionMatrixMetric(skip_channel=None)
    out["CMM|err_eval_empty"] = lambda: ms.train.ConfusionMatrixMetric(calculation_method=True).eval()
    return out


def _occlusion_cases(ms):
    out = {}

    def dense_model():
        w = np.array([[0.1, 0.8, 0.1, 0.1], [1, 1, 1, 1]]).astype(np.float32)
        b = np.array([0.3, 0.6]).astype(np.float32)
        return ms.nn.Dense(4, 2, weight_init=ms.Tensor(w), bias_init=ms.Tensor(b))

    def conv_model():
        w = np.linspace(-1, 1, 3 * 2 * 3 * 3).reshape(3, 2, 3, 3).astype(np.float32)
        net = ms.nn.SequentialCell([ms.nn.Conv2d(2, 3, 3, weight_init=ms.Tensor(w), pad_mode="valid"),
                                    ms.nn.Flatten()])
        return net

    data = np.array([[0.1, 0.2, 0.3, 0.4]]).astype(np.float32)
    img = np.linspace(0, 1, 2 * 5 * 5).reshape(1, 2, 5, 5).astype(np.float32)
    for kw in ({}, {"margin": 1}, {"n_batch": 3}, {"pad_val": 0.5, "margin": 1}):
        out[f"OS|dense|{sorted(kw.items())}"] = lambda kw=kw: (lambda m: (
            m.update(dense_model(), data, np.array(1).astype(np.int32)), m.eval())[1])(
            ms.train.OcclusionSensitivity(**kw))
    for kw in ({"margin": 1, "n_batch": 7}, {"b_box": [-1, -1, 1, 3, 0, 2]}, {"b_box": [0, 1, 2, 4, -1, 3]}):
        out[f"OS|conv|{sorted(kw.items(), key=str)}"] = lambda kw=kw: (lambda m: (
            m.update(conv_model(), img, np.array(4).astype(np.int32)), m.eval())[1])(
            ms.train.OcclusionSensitivity(**kw))
    out["OS|err_pad"] = lambda: ms.train.OcclusionSensitivity(pad_val=1)
    out["OS|err_bbox_type"] = lambda: ms.train.OcclusionSensitivity(b_box=(1, 2))
    out["OS|err_count"] = lambda: ms.train.OcclusionSensitivity().update(data, data)
    out["OS|err_model"] = lambda: ms.train.OcclusionSensitivity().update(1, data, np.array([1]))
    out["OS|err_batch"] = lambda: ms.train.OcclusionSensitivity().update(dense_model(), np.ones((2, 4), np.float32),
                                                                        np.array([1, 0]))
    out["OS|err_labels"] = lambda: ms.train.OcclusionSensitivity().update(dense_model(), data, np.array([1, 0]))
    out["OS|err_bbox_len"] = lambda: ms.train.OcclusionSensitivity(b_box=[0, 1]).update(conv_model(), img,
                                                                                      np.array([1]))
    out["OS|err_bbox_max"] = lambda: ms.train.OcclusionSensitivity(b_box=[0, 1, 0, 9, 0, 1]).update(
        conv_model(), img, np.array([1]))
    out["OS|err_bbox_order"] = lambda: ms.train.OcclusionSensitivity(b_box=[1, 0, 0, 1, 0, 1]).update(
        conv_model(), img, np.array([1]))
    out["OS|eval_before_update"] = lambda: ms.train.OcclusionSensitivity().eval()
    return out


def _names_cases(ms):
    return {
        "names": lambda: ms.train.names(),
        "nn_exports": lambda: [n for n in ("ConfusionMatrixMetric", "HausdorffDistance", "MeanSurfaceDistance",
                                           "RootMeanSquareDistance", "OcclusionSensitivity") if hasattr(ms.nn, n)],
        "get_metric_fn": lambda: type(ms.train.get_metric_fn("hausdorff_distance")).__name__,
    }


def all_cases(ms):
    cases = {}
    for part in (_surface_cases, _confusion_cases, _occlusion_cases, _names_cases):
        cases.update(part(ms))
    return cases


def run_case(fn):
    try:
        return _jsonable(fn())
    except Exception as e:  # noqa: BLE001 -- the fixture records the error type and message
        return {"error": type(e).__name__, "message": str(e)}


def run_all(ms):
    return {key: run_case(fn) for key, fn in all_cases(ms).items()}
