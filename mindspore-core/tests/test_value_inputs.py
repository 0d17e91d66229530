"""Value-dependent inputs (``Primitive.value_inputs``: Tile's ``multiples``, Reshape's ``shape``) given as tensors,
as MindSpore 2.10 takes them: read for their values in PYNATIVE; in a graph, a tensor the graph computes makes the
call run as Python (JIT fallback). The expected values are 2.10's for the same code (the FAQ "When the Tile operator
in operations executes __infer__, the value is None" is tests/e2e/test_faq_other_2_10.py's opc_tile_multiples)."""
import warnings

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn, ops

X = Tensor(np.array([[1.0, 2.0]], np.float32))


def test_pynative_tensor_multiples_and_shapes_are_read_for_their_values():
    # before: the shape rule read Tensor([3, 1])'s *shape* (2,) as the multiples (and the kernel check then failed)
    assert ops.Tile()(X, Tensor([3, 1])).shape == (3, 2)
    assert ops.Tile()(X, (Tensor(3, ms.int64), 1)).shape == (3, 2)
    np.testing.assert_array_equal(ops.tile(X, (Tensor(3, ms.int32), Tensor(2))).asnumpy(),
                                  np.tile([[1.0, 2.0]], (3, 2)))
    assert ops.Reshape()(X, Tensor([2, 1])).shape == (2, 1)
    assert ops.reshape(X, (Tensor(2), 1)).shape == (2, 1)
    with pytest.raises(TypeError, match="'multiples' must be a tuple of int"):
        ops.Tile()(X, (Tensor(2.0), 1))


class TileByInput(nn.Cell):
    def construct(self, x, m):
        return ops.Tile()(x, (m, 1))


class TileByComputed(nn.Cell):
    def construct(self, x, m):
        return ops.tile(x, (m * 2, 1))


class TileByTensor(nn.Cell):
    def construct(self, x, m):
        return ops.Tile()(x, m)


@pytest.mark.parametrize("net,m,want", [
    (TileByInput(), Tensor(3, ms.int64), (3, 2)),
    (TileByInput(), ms.mutable(2), (2, 2)),
    (TileByComputed(), Tensor(2, ms.int64), (4, 2)),
    (TileByTensor(), Tensor([2, 2]), (2, 4)),
    (TileByTensor(), (2, 2), (2, 4)),
])
def test_graph_multiples_computed_by_the_graph_fall_back_to_python(net, m, want):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)   # the JIT-fallback notice
            out = net(X, m)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert out.shape == want
    np.testing.assert_array_equal(out.asnumpy(), np.tile([[1.0, 2.0]], (want[0], want[1] // 2)))


def test_graph_reshape_by_a_tensor_input():
    @ms.jit
    def f(x, m):
        return ops.reshape(x, (m, -1))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert f(Tensor(np.arange(4, dtype=np.float32).reshape(2, 2)), Tensor(4)).shape == (4, 1)
