"""Exported MindIR writes MindSpore's implicit casts: a binary operator (``Sub``, ``Less`` ...) on tensors of two
dtypes is written as ``Cast`` of the lower one to the promoted dtype, then the operator, as MindSpore 2.10's graph
does (the model zoo's YOLOv5 ``(x_int8 - mean) / std``). Without the casts MindSpore 2.10's CPU kernels refuse the
file ("Select CPU operator[Sub] fail! Unsupported data type"). Expected outputs were recorded from 2.10.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore._deploy.mindir._schema import ModelProto


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mean = Tensor(np.array([1.0, 2.0, 3.0], np.float32))

    def construct(self, x, y):
        return (x - self.mean) / 2.0, ops.less(x, y)


def test_mixed_dtype_binary_ops_are_written_with_casts(tmp_path):
    old = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        x = Tensor(np.array([[1, -2, 3]], np.int8))
        y = Tensor(np.array([[0.5, 0.5, 4.5]], np.float32))
        path = str(tmp_path / "net")
        ms.export(_Net(), x, y, file_name=path, file_format="MINDIR")
        model = ModelProto()
        with open(path + ".mindir", "rb") as f:
            model.ParseFromString(f.read())
        ops_written = [n.op_type.split("::")[-1].split(":")[0] for n in model.graph.node if n.op_type != "Constant"]
        assert ops_written == ["Cast", "Sub", "Div", "Cast", "Less", "MakeTuple"]
        out0, out1 = nn.GraphCell(ms.load(path + ".mindir"))(x, y)
        # 2.10: (x - mean) / 2.0 -> [[0, -2, 0]] float32; x < y -> [[False, True, True]]
        assert out0.dtype == ms.float32
        np.testing.assert_array_equal(out0.asnumpy(), [[0.0, -2.0, 0.0]])
        np.testing.assert_array_equal(out1.asnumpy(), [[False, True, True]])
    finally:
        ms.set_context(mode=old)


def test_same_dtype_binary_ops_get_no_cast(tmp_path):
    x = Tensor(np.ones((2, 3), np.float32))
    path = str(tmp_path / "same")
    ms.export(nn.Dense(3, 2), x, file_name=path, file_format="MINDIR")
    model = ModelProto()
    with open(path + ".mindir", "rb") as f:
        model.ParseFromString(f.read())
    assert not any("Cast" in n.op_type for n in model.graph.node)
