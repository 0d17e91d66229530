"""A network that returns one of its inputs as it is (the model zoo's ``PredictWithSigmoid`` returns
``logits, probs, labels``) exports: MindSpore 2.10 writes that output as the input itself, and its GraphCell
returns the new input there (recorded with 2.10: outputs ``[3, 12]``, ``sigmoid``, ``[5, 7]``)."""
import os

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops


class _PassThrough(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")

    def construct(self, x, y):
        logits = self.dense(x)
        return logits, ops.sigmoid(logits), y


_X = np.arange(6, dtype=np.float32).reshape(2, 3)
_Y = np.array([[1.0], [0.0]], np.float32)
_Y_NEW = np.array([[5.0], [7.0]], np.float32)


def test_mindir_output_that_is_an_input(tmp_path):
    path = os.path.join(tmp_path, "net")
    ms.export(_PassThrough(), ms.Tensor(_X), ms.Tensor(_Y), file_name=path, file_format="MINDIR")
    out = nn.GraphCell(ms.load(path + ".mindir"))(ms.Tensor(_X), ms.Tensor(_Y_NEW))
    assert isinstance(out, tuple) and len(out) == 3
    np.testing.assert_allclose(out[0].asnumpy(), [[3.0], [12.0]], rtol=1e-6)
    np.testing.assert_allclose(out[1].asnumpy(), 1 / (1 + np.exp(-np.array([[3.0], [12.0]]))), rtol=1e-6)
    np.testing.assert_array_equal(out[2].asnumpy(), _Y_NEW)


def test_onnx_output_that_is_an_input(tmp_path):
    pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    path = os.path.join(tmp_path, "net")
    ms.export(_PassThrough(), ms.Tensor(_X), ms.Tensor(_Y), file_name=path, file_format="ONNX")
    sess = ort.InferenceSession(path + ".onnx")
    out = sess.run(None, {"x": _X, "y": _Y_NEW})
    assert len(out) == 3
    np.testing.assert_array_equal(out[2], _Y_NEW)
