"""A GRAPH_MODE step whose control flow is decided on the host, captured in pieces on the GPU backend without a GPU
(the CuPy stand-in ``cupy_sim``): the float16 loss-scaled step of ``amp.build_train_network`` (``if not overflow:
optimizer(grads)``) was refused whole; now the kernels before the branch and the optimizer's branch are two CUDA
graphs, replayed with the overflow flag read in between. Overflowing and finite steps give the plain kernels'
results, and a steady step launches a fraction of what it launched kernel by kernel."""
import collections
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation, nn

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cupy_sim  # noqa: E402

TARGET = "GPUSIMSEG"
G = cupy_sim.load_graph_modules()

pytestmark = cupy_sim.warning_marks() + [pytest.mark.filterwarnings("ignore:overflow encountered"),
                                         pytest.mark.filterwarnings("ignore:invalid value encountered")]


@pytest.fixture(scope="module")
def sim_plugin():
    with cupy_sim.registered(TARGET, G.families, graph=G) as plugin:
        yield plugin


@pytest.fixture
def graph_mode(monkeypatch):
    before = ms.get_context("device_target_requested")
    mode = ms.get_context("mode")
    monkeypatch.setenv("MS_GPU_CAPTURE_GEMM", "0")
    monkeypatch.setitem(cupy_sim.CAPTURE_CUBLAS, "enabled", True)     # products captured by CuPy's matmul
    yield
    ms.set_context(mode=mode)
    ms.context.store("device_target", before)
    _generation.bump()


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid")
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.dense = nn.Dense(4 * 6 * 6, 10)

    def construct(self, x):
        return self.dense(self.flatten(self.relu(self.bn(self.conv(x)))))


def _step(target, init_scale, scale_window):
    ms.set_context(device_target=target, mode=ms.GRAPH_MODE)
    net = _Net()
    rng = np.random.default_rng(3)
    for p in net.trainable_params():
        p.set_data(ms.Tensor((rng.standard_normal(p.shape) * 0.2).astype(np.float32)))
    manager = ms.amp.DynamicLossScaleManager(init_loss_scale=init_scale, scale_factor=4, scale_window=scale_window)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = ms.amp.build_train_network(net, nn.Momentum(net.trainable_params(), 0.01, 0.9), loss, level="O2",
                                      loss_scale_manager=manager)
    return net, step, rng


def _train(target, steps=12):
    """(loss, overflow, scale) per step and the weights after, the scale starting high enough to overflow float16
    and growing back every 3 finite steps."""
    net, step, rng = _step(target, 2.0 ** 20, 3)
    out = []
    for _ in range(steps):
        x = ms.Tensor(rng.standard_normal((8, 1, 8, 8)).astype(np.float32))
        y = ms.Tensor(rng.integers(0, 10, 8).astype(np.int32))
        loss, overflow, scale = step(x, y)
        out.append((float(loss.asnumpy()), bool(overflow.asnumpy()), float(scale.asnumpy())))
    return out, [p.asnumpy().copy() for p in net.trainable_params()]


def test_loss_scaled_steps_captured_in_pieces_give_the_plain_results(sim_plugin, graph_mode, monkeypatch):
    cpu, _ = _train("CPU")
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")
    plain, plain_w = _train(TARGET)
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "1")
    before = dict(G.capture.STATS)
    captured, captured_w = _train(TARGET)
    stats = {k: G.capture.STATS[k] - before[k] for k in before}
    flags = [o for _, o, _ in plain]
    assert True in flags[4:] and False in flags[4:], "steps after the warm-up both overflow and update"
    assert stats["captured"] == 2 and stats["refused"] == 0 and stats["failed"] == 0, stats
    assert stats["replays"] >= 12, "the stretch before the branch from step 3, and the optimizer's branch"
    assert [o[1:] for o in captured] == [o[1:] for o in plain], "the same overflows and loss scales"
    np.testing.assert_allclose([o[0] for o in captured], [o[0] for o in plain], rtol=1e-6)
    for a, b in zip(captured_w, plain_w):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    assert [o[1:] for o in plain] == [o[1:] for o in cpu]
    np.testing.assert_allclose([o[0] for o in plain], [o[0] for o in cpu], rtol=1e-4)


def test_a_steady_loss_scaled_step_launches_two_graphs_and_the_copies(sim_plugin, graph_mode, monkeypatch):
    """Host launches of a finite step, a replayed graph counting one (its own kernels are not the host's)."""
    launch = cupy_sim.Graph.launch

    def counted_launch(graph, stream=None):
        cupy_sim.LAUNCHES.add("graph launch")
        cupy_sim.LAUNCHES.nested += 1
        try:
            return launch(graph, stream)
        finally:
            cupy_sim.LAUNCHES.nested -= 1
    monkeypatch.setattr(cupy_sim.Graph, "launch", counted_launch)

    def launches(capture):
        monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", capture)
        _, step, rng = _step(TARGET, 2.0 ** 10, 1000)
        x = ms.Tensor(rng.standard_normal((8, 1, 8, 8)).astype(np.float32))
        y = ms.Tensor(rng.integers(0, 10, 8).astype(np.int32))
        for _ in range(4):
            step(x, y)
        kinds = []
        monkeypatch.setattr(cupy_sim.LAUNCHES, "listener", kinds.append)
        overflow = step(x, y)[1]
        monkeypatch.setattr(cupy_sim.LAUNCHES, "listener", None)
        assert not overflow.asnumpy()
        return collections.Counter(kinds)

    plain = launches("0")
    captured = launches("1")
    assert captured["graph launch"] == 2 and captured["d2h"] == 1, captured
    assert sum(plain.values()) > 90, plain
    assert sum(captured.values()) <= 20, captured    # the graphs' input copies in, output copies out
