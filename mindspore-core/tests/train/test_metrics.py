"""Metrics against independent NumPy computations and MindSpore's documented example values."""
import numpy as np
import pytest

import mindspore as ms
from mindspore.train import metrics as M

pytestmark = pytest.mark.both_modes


def _logits_labels(seed=0, n=50, c=5):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, c)).astype(np.float32), rng.integers(0, c, size=n).astype(np.int32)


def test_accuracy_classification_matches_numpy_over_batches():
    logits, labels = _logits_labels()
    metric = M.Accuracy()
    for lo, hi in ((0, 20), (20, 50)):
        metric.update(ms.Tensor(logits[lo:hi]), ms.Tensor(labels[lo:hi]))
    assert metric.eval() == pytest.approx(np.mean(logits.argmax(1) == labels), abs=0)


def test_accuracy_one_hot_labels_and_multilabel():
    logits, labels = _logits_labels(1)
    one_hot = np.eye(5, dtype=np.float32)[labels]
    metric = M.Accuracy()
    metric.update(logits, one_hot)
    assert metric.eval() == np.mean(logits.argmax(1) == labels)
    pred = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    multi = M.Accuracy("multilabel")
    multi.update(pred, true)
    assert multi.eval() == pytest.approx(2 / 3)


def test_accuracy_documented_example_and_errors():
    metric = M.Accuracy("classification")
    metric.update(ms.Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), ms.float32),
                  ms.Tensor(np.array([1, 0, 1]), ms.float32))
    assert metric.eval() == 2 / 3
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        M.Accuracy().eval()
    with pytest.raises(ValueError, match="needs 2 inputs"):
        M.Accuracy().update(np.zeros((2, 2)))
    with pytest.raises(TypeError, match="eval_type"):
        M.Accuracy("regression")
    with pytest.raises(TypeError, match="tensor, list or numpy.ndarray"):
        M.Accuracy().update((1, 2), (1, 2))
    bad = M.Accuracy()
    bad.update(np.zeros((2, 3)), np.zeros(2))
    with pytest.raises(ValueError, match="class number not match"):
        bad.update(np.zeros((2, 4)), np.zeros(2))


def test_precision_recall_f1_match_numpy_per_class():
    logits, labels = _logits_labels(2)
    pred = logits.argmax(1)
    tp = np.array([np.sum((pred == k) & (labels == k)) for k in range(5)], dtype=np.float64)
    predicted = np.array([np.sum(pred == k) for k in range(5)], dtype=np.float64)
    actual = np.array([np.sum(labels == k) for k in range(5)], dtype=np.float64)
    for cls, expected in ((M.Precision, tp / predicted), (M.Recall, tp / actual),
                          (M.F1, 2 * tp / (predicted + actual))):
        metric = cls()
        metric.update(logits[:30], labels[:30])
        metric.update(logits[30:], labels[30:])
        np.testing.assert_allclose(metric.eval(), expected, rtol=1e-12)
        assert metric.eval(average=True) == pytest.approx(expected.mean(), rel=1e-12)
    fbeta = M.Fbeta(2)
    fbeta.update(logits, labels)
    precision, recall = tp / predicted, tp / actual
    np.testing.assert_allclose(fbeta.eval(), 5 * precision * recall / (4 * precision + recall), rtol=1e-12)


def test_precision_recall_documented_examples():
    x = ms.Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]))
    y = ms.Tensor(np.array([1, 0, 1]))
    for cls, expected in ((M.Precision, [0.5, 1.0]), (M.Recall, [1.0, 0.5]), (M.F1, [2 / 3, 2 / 3])):
        metric = cls()
        metric.update(x, y)
        np.testing.assert_allclose(metric.eval(), expected)
    with pytest.raises(ValueError, match="beta"):
        M.Fbeta(0)
    with pytest.raises(TypeError, match="average"):
        metric.eval(average=1)


def test_precision_multilabel_is_per_sample_like_mindspore():
    pred = np.array([[1, 0, 1], [0, 1, 1]])
    true = np.array([[1, 0, 0], [0, 1, 1]])
    metric = M.Precision("multilabel")
    metric.update(pred, true)
    # MindSpore sums over the class axis: one ratio per sample
    np.testing.assert_allclose(metric.eval(), [0.5, 1.0])
    assert metric.eval(average=True) == pytest.approx(0.75)


def test_mae_mse_loss_documented_values():
    x = ms.Tensor(np.array([0.1, 0.2, 0.6, 0.9]), ms.float32)
    mae = M.MAE()
    mae.update(x, ms.Tensor(np.array([0.1, 0.25, 0.7, 0.9]), ms.float32))
    assert mae.eval() == 0.037499990314245224
    mse = M.MSE()
    mse.update(x, ms.Tensor(np.array([0.1, 0.25, 0.5, 0.9]), ms.float32))
    assert mse.eval() == 0.0031250009778887033
    loss = M.Loss()
    loss.update(ms.Tensor(np.array(0.2), ms.float32))
    assert loss.eval() == 0.20000000298023224


def test_mae_mse_loss_match_numpy_over_batches():
    rng = np.random.default_rng(3)
    pred, true = rng.normal(size=(10, 3)), rng.normal(size=(10, 3))
    mae, mse, loss = M.MAE(), M.MSE(), M.Loss()
    for part in (slice(0, 4), slice(4, 10)):
        mae.update(pred[part], true[part])
        mse.update(pred[part], true[part])
        loss.update(np.abs(pred[part] - true[part]).mean(axis=1))
    assert mae.eval() == pytest.approx(np.abs(pred - true).sum() / 10, rel=1e-12)
    assert mse.eval() == pytest.approx(((pred - true) ** 2).sum() / 10, rel=1e-12)
    batch_means = [np.abs(pred[p] - true[p]).mean() for p in (slice(0, 4), slice(4, 10))]
    assert loss.eval() == pytest.approx(np.mean(batch_means), rel=1e-12)
    with pytest.raises(ValueError, match="dimension"):
        M.Loss().update(np.zeros((2, 2)))


def test_topk_accuracy_matches_numpy():
    logits, labels = _logits_labels(4)
    ranks = np.argsort(-logits, axis=1, kind="stable")
    for k, cls in ((1, M.Top1CategoricalAccuracy), (5, M.Top5CategoricalAccuracy), (3, None)):
        metric = cls() if cls else M.TopKCategoricalAccuracy(k)
        metric.update(logits, labels)
        expected = np.mean([labels[i] in ranks[i, :k] for i in range(len(labels))])
        assert metric.eval() == pytest.approx(expected, abs=0)
    x = ms.Tensor(np.array([[0.2, 0.5, 0.3, 0.6, 0.2], [0.1, 0.35, 0.5, 0.2, 0.], [0.9, 0.6, 0.2, 0.01, 0.3]]),
                  ms.float32)
    top3 = M.TopKCategoricalAccuracy(3)
    top3.update(x, ms.Tensor(np.array([2, 0, 1]), ms.float32))
    assert top3.eval() == 2 / 3
    with pytest.raises(ValueError, match="at least 1"):
        M.TopKCategoricalAccuracy(0)
    with pytest.raises(TypeError):
        M.TopKCategoricalAccuracy(2.0)


def test_confusion_matrix_and_normalisations():
    logits, labels = _logits_labels(5, n=40, c=3)
    pred = logits.argmax(1)
    expected = np.zeros((3, 3))
    np.add.at(expected, (labels, pred), 1)
    metric = M.ConfusionMatrix(num_classes=3)
    metric.update(logits, labels)
    np.testing.assert_array_equal(metric.eval(), expected)
    for mode, normed in (("target", expected / expected.sum(1, keepdims=True)),
                         ("prediction", expected / expected.sum(0, keepdims=True)),
                         ("all", expected / expected.sum())):
        m = M.ConfusionMatrix(3, normalize=mode)
        m.update(logits, labels)
        np.testing.assert_allclose(m.eval(), normed)
    binary = M.ConfusionMatrix(num_classes=2, threshold=0.5)
    binary.update(np.array([0.7, 0.2, 0.9, 0.4]), np.array([1, 0, 0, 1]))
    np.testing.assert_array_equal(binary.eval(), [[1, 1], [1, 1]])
    with pytest.raises(RuntimeError, match="update"):
        M.ConfusionMatrix(2).eval()


def test_names_factory_and_get_metrics():
    assert M.names() == sorted(M.names())
    for name in ("acc", "accuracy", "loss", "mae", "mse", "top_1_accuracy", "top_5_accuracy", "precision",
                 "recall", "F1"):
        assert name in M.names()
    assert isinstance(M.get_metric_fn("acc"), M.Accuracy)
    assert isinstance(M.get_metric_fn("topk", 3), M.TopKCategoricalAccuracy)
    assert M.get_metric_fn("precision", eval_type="multilabel")._type == "multilabel"
    with pytest.raises(KeyError, match="unsupported metric"):
        M.get_metric_fn("nope")
    got = M.get_metrics({"acc", "loss"})
    assert isinstance(got["acc"], M.Accuracy) and isinstance(got["loss"], M.Loss)
    mine = M.MAE()
    assert M.get_metrics({"err": mine})["err"] is mine
    with pytest.raises(TypeError, match="dict or set"):
        M.get_metrics(["acc"])
    with pytest.raises(TypeError, match="Metric"):
        M.get_metrics({"acc": "acc"})


def test_set_indexes_rearranges_update_inputs():
    logits, labels = _logits_labels(6)
    metric = M.Accuracy().set_indexes([2, 0])
    metric.update(ms.Tensor(labels), ms.Tensor(np.zeros(3)), ms.Tensor(logits))
    assert metric.eval() == np.mean(logits.argmax(1) == labels)
    assert metric.indexes == [2, 0]
    with pytest.raises(ValueError, match="indexes"):
        M.Accuracy().set_indexes((0, 1))

    class Custom(M.Metric):
        def clear(self):
            self.got = None

        @M.rearrange_inputs
        def update(self, *inputs):
            self.got = inputs

        def eval(self):
            return self.got

    assert Custom().set_indexes([1, 0])(5, 9) == (9, 5)
    assert Custom()(5, 9) == (5, 9)
