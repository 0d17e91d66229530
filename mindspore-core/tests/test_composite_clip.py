"""``mindspore.ops.composite`` exports ``clip_by_value`` and ``clip_by_global_norm`` (the same functions as
``mindspore.ops``'s, as in 2.10): the zoo's EcapaTDNN clips gradients with ``ops.composite.clip_by_value`` inside a
GRAPH_MODE cell."""
import numpy as np

import mindspore as ms
from mindspore import nn, ops
from mindspore.ops import composite


def test_composite_exports_the_clip_functions():
    assert composite.clip_by_value is ops.clip_by_value
    assert composite.clip_by_global_norm is ops.clip_by_global_norm


class _Clip(nn.Cell):
    def construct(self, grads, clip_value):
        out = ()
        for grad in grads:
            low = ops.functional.tuple_to_array((-clip_value,))
            high = ops.functional.tuple_to_array((clip_value,))
            out = out + (ops.composite.clip_by_value(grad, low, high),)
        return out


def test_clip_by_value_in_graph_mode():
    old = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        grads = (ms.Tensor(np.array([-3.0, 0.5, 2.0], np.float32)), ms.Tensor(np.array([[4.0, -0.25]], np.float32)))
        out = _Clip()(grads, 1.0)
    finally:
        ms.set_context(mode=old)
    np.testing.assert_array_equal(out[0].asnumpy(), [-1.0, 0.5, 1.0])
    np.testing.assert_array_equal(out[1].asnumpy(), [[1.0, -0.25]])
