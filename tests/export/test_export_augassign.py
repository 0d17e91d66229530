"""A residual block written ``out += residual`` (the model zoo's SimplePose Bottleneck, RCAN's ``res += x``) exports:
GRAPH_MODE runs ``+=`` on a tensor in place (an ``Assign`` into ``out``, as MindSpore 2.10), and nothing reads ``out``
after the write, so the capture drops the write (``unread_writes``) and the file holds the plain ``Add``, as 2.10's
does. The MINDIR and ONNX files give the network's own output."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn


class Bottleneck(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 2, 1)
        self.relu = nn.ReLU()

    def construct(self, x):
        residual = x
        out = self.conv(x)
        out += residual
        return self.relu(out)


@pytest.fixture
def graph_mode():
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=mode)


def test_a_residual_written_with_plus_equals_exports_to_mindir(graph_mode, tmp_path):
    ms.set_seed(1)
    net = Bottleneck()
    x = ms.Tensor(np.linspace(-1, 1, 18, dtype=np.float32).reshape(1, 2, 3, 3))
    want = net(x).asnumpy()
    ms.export(net, x, file_name=str(tmp_path / "block"), file_format="MINDIR")
    got = nn.GraphCell(ms.load(str(tmp_path / "block.mindir")))(x).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_a_residual_written_with_plus_equals_exports_to_onnx(graph_mode, tmp_path):
    ort = pytest.importorskip("onnxruntime")
    ms.set_seed(1)
    net = Bottleneck()
    x = np.linspace(-1, 1, 18, dtype=np.float32).reshape(1, 2, 3, 3)
    want = net(ms.Tensor(x)).asnumpy()
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "block"), file_format="ONNX")
    sess = ort.InferenceSession(str(tmp_path / "block.onnx"))
    got = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
