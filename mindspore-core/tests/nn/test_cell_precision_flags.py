"""``Cell.add_flags(fp16=True)`` (and ``add_flags_recursive``) runs the cell in float16 as ``to_float`` does, as in
MindSpore 2.10 (the zoo's GCN: ``gcn_net.add_flags_recursive(fp16=True)`` with a float64 adjacency matrix).
Values recorded with 2.10 in both modes: Float16 ``[[1.5, 1.5], [6.0, 6.0]]``; ``fp32=True`` gives Float32."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops


class _Gcn(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2, weight_init="ones", has_bias=False)
        self.mm = ops.MatMul()

    def construct(self, adj, x):
        return self.mm(adj, self.fc(x))


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_fp16_flag_casts_inputs_like_to_float(mode):
    old = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        net = _Gcn()
        net.add_flags_recursive(fp16=True)
        out = net(ms.Tensor(np.eye(2) * 0.5), ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
        assert out.dtype == ms.float16
        np.testing.assert_array_equal(out.asnumpy(), [[1.5, 1.5], [6.0, 6.0]])
        assert net.fc.get_flags() == {"fp16": True}
        dense = nn.Dense(3, 2, weight_init="ones", has_bias=False)
        dense.add_flags(fp32=True)
        dense.add_flags(fp16=False)   # a false flag changes nothing
        assert dense(ms.Tensor(np.ones((1, 3), np.float16))).dtype == ms.float32
    finally:
        ms.set_context(mode=old)
