"""The CPU backend's GRAPH_MODE passes: elementwise chains fused, bias-add + activation in one kernel,
Parameter updates computed in place - with the same numbers as the separate kernels."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore._pipeline import compiler, passes
from mindspore._pipeline.fusion import FusedOp


@pytest.fixture(autouse=True)
def _verify(monkeypatch):
    monkeypatch.setattr(passes, "VERIFY", True)


def _fused(fn):
    (entry,) = compiler.cache_for(fn).values()
    return [n.fn_value() for n in entry.graph.nodes if isinstance(n.fn_value(), FusedOp)]


def _data(*shape, seed=0):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def test_elementwise_chain_is_one_kernel_with_identical_results():
    def f(x, y):
        return ops.relu(x * y + 1.0) - y / 2.0
    x, y = _data(16, 8), _data(16, 8, seed=1)
    jf = ms.jit(f)
    np.testing.assert_array_equal(jf(x, y).asnumpy(), f(x, y).asnumpy())
    (fused,) = _fused(jf)
    assert fused.attrs["ops"] == ("Mul", "Add", "ReLU", "Sub")


@pytest.mark.parametrize("act", [ops.relu, ops.gelu, ops.tanh], ids=["relu", "gelu", "tanh"])
def test_bias_add_and_activation_fuse_into_the_matmul_output(act):
    w, b = _data(8, 4), _data(8, seed=2)

    def f(x):
        return act(ops.bias_add(ops.matmul(x, w.T), b)) if act is not ops.gelu else \
            ops.gelu(ops.bias_add(ops.matmul(x, w.T), b), approximate="tanh")
    x = _data(5, 4, seed=3)
    jf = ms.jit(f)
    np.testing.assert_allclose(jf(x).asnumpy(), f(x).asnumpy(), rtol=1e-6, atol=1e-7)
    (fused,) = _fused(jf)
    assert fused.attrs["ops"][0] == "BiasAdd" and fused.attrs.get("reuse") == 0   # written into the product


def test_training_step_updates_moments_and_weights_in_place_exactly():
    def make():
        ms.set_seed(5)
        net = nn.SequentialCell([nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3)])
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                         reduction="mean")),
                                   nn.Momentum(net.trainable_params(), 0.1, 0.9, use_nesterov=True))
        return net, step.set_train()
    x = _data(4, 6)
    y = ms.Tensor(np.array([0, 2, 1, 2], np.int32))
    eager_net, eager = make()
    graph_net, graph = make()
    for _ in range(3):
        eager(x, y)
        ms.jit(graph)(x, y)
    for a, b in zip(eager_net.get_parameters(), graph_net.get_parameters()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    ops_in_place = [f for f in _fused(graph) if f.attrs.get("into") is not None]
    assert len(ops_in_place) == 4      # the four moments, updated in their own buffers


def test_a_chain_reading_its_input_twice_never_overwrites_it():
    def f(x):
        y = ops.exp(x)         # y dies in the chain, but the chain reads it twice
        return y * 2.0 + y
    x = _data(3, 3)
    np.testing.assert_allclose(ms.jit(f)(x).asnumpy(), f(x).asnumpy(), rtol=1e-6)
