"""``mindspore.Predictor`` compiles with the weights frozen: BatchNorm folded into the convolution before it, the
bias, the residual and the ReLU applied by the convolution as it writes (CPU backend), and a weight given new data
compiles again. The numbers stay those of the eager network (to rounding)."""
from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore._pipeline.compiler import STATS, cache_for
from mindspore._ir.printer import print_module

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _nets import benchmark_net  # noqa: E402


class Block(nn.Cell):
    """conv-BN-ReLU, conv-BN, + shortcut, ReLU: a ResNet basic block; plus a grouped, biased, strided conv-BN."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(4, 4, 3, pad_mode="same", has_bias=False)
        self.b1 = nn.BatchNorm2d(4)
        self.c2 = nn.Conv2d(4, 4, 3, pad_mode="same", has_bias=False)
        self.b2 = nn.BatchNorm2d(4)
        self.c3 = nn.Conv2d(4, 8, 3, stride=2, group=2, pad_mode="pad", padding=1, has_bias=True)
        self.b3 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()

    def construct(self, x):
        y = self.relu(self.b1(self.c1(x)))
        y = self.relu(self.b2(self.c2(y)) + x)
        return self.b3(self.c3(y))


def _seeded(net, seed=0):
    rng = np.random.default_rng(seed)
    for p in net.get_parameters():
        if "moving_variance" in p.name:
            p.set_data(ms.Tensor(rng.uniform(0.5, 1.5, p.shape).astype(np.float32)))
        else:
            p.set_data(ms.Tensor(rng.uniform(-0.5, 0.5, p.shape).astype(np.float32)))
    net.set_train(False)
    return net


def _predictor(net, x, tmp_path, name="net"):
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / name), file_format="MINDIR")
    return ms.Predictor(str(tmp_path / f"{name}.mindir"))


def _compiled_text(predictor):
    (entry,) = cache_for(predictor).values()
    return print_module(entry.graph)


def test_batchnorm_folds_and_the_block_fuses(tmp_path):
    net = _seeded(Block())
    x = np.random.default_rng(1).standard_normal((2, 4, 9, 9)).astype(np.float32)
    predictor = _predictor(net, x, tmp_path)
    got = predictor.predict(x)
    np.testing.assert_allclose(got, net(ms.Tensor(x)).asnumpy(), rtol=1e-5, atol=1e-5)
    text = _compiled_text(predictor)
    assert "BatchNorm" not in text                      # every BatchNorm became weights and a bias
    assert "Conv2D+BiasAdd+ReLU" in text                 # conv-BN-ReLU: one convolution
    assert "Conv2D+BiasAdd+Add+ReLU" in text             # the block's last conv, the shortcut and the ReLU
    # the loaded graph itself (GraphCell, nn-free runs) keeps BatchNorm: only the Predictor freezes
    graph = ms.load(str(tmp_path / "net.mindir"))
    np.testing.assert_allclose(nn.GraphCell(graph)(ms.Tensor(x)).asnumpy(), got, rtol=1e-5, atol=1e-5)


def test_new_weight_data_compiles_again(tmp_path):
    net = _seeded(Block())
    x = np.random.default_rng(2).standard_normal((1, 4, 8, 8)).astype(np.float32)
    predictor = _predictor(net, x, tmp_path)
    first = predictor.predict(x)
    compiles = STATS["compiles"]
    predictor.predict(x)
    assert STATS["compiles"] == compiles                 # same weights: the compiled graph is reused
    _seeded(net, seed=7)
    new = {p.name: ms.Tensor(p.asnumpy()) for p in net.get_parameters()}
    predictor.graph.update_parameters(new)
    second = predictor.predict(x)
    assert STATS["compiles"] == compiles + 1
    np.testing.assert_allclose(second, net(ms.Tensor(x)).asnumpy(), rtol=1e-5, atol=1e-5)
    assert not np.allclose(first, second)


@pytest.mark.parametrize("name", ["resnet", "lenet"])
def test_benchmark_networks_match_eager(name, tmp_path):
    net = benchmark_net(name)
    shape = (2, 3, 32, 32) if name == "resnet" else (2, 1, 32, 32)
    x = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    predictor = _predictor(net, x, tmp_path, name)
    np.testing.assert_allclose(predictor.predict(x), net(ms.Tensor(x)).asnumpy(), rtol=1e-4, atol=1e-5)


def test_training_graphs_are_not_frozen():
    # a GRAPH_MODE training step must keep reading the Parameters (they change every step)
    net = _seeded(Block())
    net.set_train(True)
    opt = nn.SGD(net.trainable_params(), 0.1)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, lambda y, t: ((y - t) ** 2).mean()), opt)
    x = ms.Tensor(np.random.default_rng(4).standard_normal((2, 4, 8, 8)).astype(np.float32))
    t = ms.Tensor(np.zeros((2, 8, 4, 4), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        losses = [float(step(x, t).asnumpy()) for _ in range(3)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert losses[0] > losses[1] > losses[2]


class _Views(nn.Cell):
    """Two outputs: a view of the input (a reshape) and a computed value."""

    def construct(self, x):
        return x.reshape((x.shape[0], -1)), x * 2.0


def test_repeated_predictions_neither_alias_nor_change_the_callers_arrays(tmp_path):
    x = np.random.default_rng(4).standard_normal((2, 3, 4)).astype(np.float32)
    predictor = _predictor(_Views(), x, tmp_path, "views")
    for call in range(3):      # the first call compiles; the next ones take the direct path of the compiled graph
        keep = x.copy()
        flat, doubled = predictor.predict(x)
        np.testing.assert_array_equal(x, keep)
        assert not np.shares_memory(flat, x), f"call {call}: an output aliases the input"
        np.testing.assert_array_equal(flat, keep.reshape(2, -1))
        np.testing.assert_array_equal(doubled, keep * 2)
        x = x + 1.0
    transposed = np.ascontiguousarray(x.transpose(2, 1, 0)).transpose(2, 1, 0)   # same shape, not C-contiguous
    flat, doubled = predictor.predict(transposed)
    np.testing.assert_array_equal(doubled, transposed * 2)
    np.testing.assert_array_equal(flat, transposed.reshape(2, -1))


class _Wide(nn.Cell):
    """A ResNet-style block of 32 channels: 3x3 convolutions wide enough for the CPU's Winograd kernel."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(32, 32, 3, pad_mode="same", has_bias=True)
        self.c2 = nn.Conv2d(32, 40, 3, pad_mode="pad", padding=1, has_bias=False)
        self.b2 = nn.BatchNorm2d(40)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.b2(self.c2(self.relu(self.c1(x)))))


def test_frozen_wide_convolutions_run_by_winograd_and_training_does_not(tmp_path, monkeypatch):
    """The CPU backend runs 3x3 convolutions of frozen weights (a Predictor's) with 32 channels or more by Winograd
    F(2x2, 3x3), the filter transformed once, and the outputs are the eager network's to rounding; graphs that
    read Parameters (a loaded graph's GraphCell, training) keep the direct kernel, and so does a batch with fewer
    items than threads."""
    if ms.get_context("device_target") != "CPU":
        pytest.skip("the CPU backend's kernel choice")
    import mindspore_cpu.kernels.conv as cpu_conv
    calls = []
    real = cpu_conv.winograd_forward

    def spy(*args, **kwargs):
        y = real(*args, **kwargs)
        calls.append(y is not None)
        return y
    monkeypatch.setattr(cpu_conv, "winograd_forward", spy)
    net = _seeded(_Wide())
    batch = max(3, cpu_conv._kernels.num_threads())     # an item per thread at least
    x = np.random.default_rng(5).standard_normal((batch, 32, 11, 9)).astype(np.float32)
    eager = net(ms.Tensor(x)).asnumpy()
    predictor = _predictor(net, x, tmp_path, "wide")
    got = predictor.predict(x)
    np.testing.assert_allclose(got, eager, rtol=1e-5, atol=1e-5)
    assert calls == [True, True]                 # both convolutions, on the first call
    predictor.predict(x)
    assert calls == [True] * 4
    if cpu_conv._kernels.num_threads() > 1:
        calls.clear()
        np.testing.assert_allclose(predictor.predict(x[:1]), eager[:1], rtol=1e-5, atol=1e-5)
        assert calls == [False, False]           # one item: the direct convolution, which splits its positions
    calls.clear()
    graph = ms.load(str(tmp_path / "wide.mindir"))
    np.testing.assert_allclose(nn.GraphCell(graph)(ms.Tensor(x)).asnumpy(), eager, rtol=1e-5, atol=1e-5)
    assert calls == []                           # Parameters, not constants: the direct convolution
    w = ms.Tensor(np.random.default_rng(6).standard_normal((32, 32, 3, 3)).astype(np.float32))

    @ms.jit
    def conv_relu(v):                            # a constant weight, but not a frozen graph's: direct too
        return ms.ops.relu(ms.ops.conv2d(v, w, pad_mode="same"))
    conv_relu(ms.Tensor(x))
    assert calls == []
