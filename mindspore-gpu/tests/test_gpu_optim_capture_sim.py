"""GRAPH_MODE training steps whose optimizer is one update primitive per parameter (nn.Adam, nn.AdamWeightDecay,
nn.SGD, nn.RMSProp, nn.Adagrad) on the GPU backend without a GPU (the CuPy stand-in ``cupy_sim``): the plain
kernels, the fused ones and the captured CUDA graph (replayed from the Parameters the updates wrote in place) give
the CPU's losses, and the step is captured: the update kernels read nothing back to the host. (A learning rate
from a list is picked for the step by elementwise kernels.)
"""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation, nn

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cupy_sim  # noqa: E402

TARGET = "GPUSIMOPT"
G = cupy_sim.load_graph_modules()

pytestmark = cupy_sim.warning_marks()

OPTIMIZERS = {
    "adam": lambda ps: nn.Adam(ps, 0.01),
    "adam_lr_list": lambda ps: nn.Adam(ps, [0.01, 0.02, 0.005, 0.01]),    # step 5 is past the list: rate 0
    "adam_nesterov_groups_loss_scale": lambda ps: nn.Adam([{"params": ps[:2], "lr": 0.02}, {"params": ps[2:]}], 0.01,
                                                       use_nesterov=True, loss_scale=4.0),
    "amsgrad": lambda ps: nn.Adam(ps, 0.01, use_amsgrad=True, weight_decay=0.01),
    "adam_weight_decay": lambda ps: nn.AdamWeightDecay(ps, 0.01, weight_decay=0.05),
    "sgd": lambda ps: nn.SGD(ps, 0.05, momentum=0.9, nesterov=True, weight_decay=0.01),
    "rmsprop": lambda ps: nn.RMSProp(ps, 0.01, momentum=0.9),
    "rmsprop_centered": lambda ps: nn.RMSProp(ps, 0.01, centered=True),
    "adagrad": lambda ps: nn.Adagrad(ps, learning_rate=0.05),
}


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


class _MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Dense(12, 16)
        self.l2 = nn.Dense(16, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.l2(self.relu(self.l1(x)))


def _losses(target, optimizer, steps=5):
    ms.set_context(device_target=target, mode=ms.GRAPH_MODE)
    net = _MLP()
    rng = np.random.default_rng(3)
    for p in net.trainable_params():
        p.set_data(ms.Tensor((rng.standard_normal(p.shape) * 0.2).astype(np.float32)))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), OPTIMIZERS[optimizer](net.trainable_params()))
    step.set_train()
    out = []
    for _ in range(steps):
        x = ms.Tensor(rng.standard_normal((8, 12)).astype(np.float32))
        y = ms.Tensor(rng.integers(0, 10, 8).astype(np.int32))
        out.append(float(step(x, y).asnumpy()))
    return np.array(out)


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_graph_steps_plain_fused_and_captured_give_the_cpu_losses(sim_plugin, graph_mode, monkeypatch, optimizer):
    cpu = _losses("CPU", optimizer)
    monkeypatch.setenv("MS_GPU_FUSED_KERNELS", "0")
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")
    plain = _losses(TARGET, optimizer)
    monkeypatch.setenv("MS_GPU_FUSED_KERNELS", "1")
    fused = _losses(TARGET, optimizer)
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "1")
    st = dict(G.capture.STATS)
    captured = _losses(TARGET, optimizer)
    assert G.capture.STATS["captured"] == st["captured"] + 1, "the training step is captured"
    assert G.capture.STATS["replays"] == st["replays"] + 3, "steps 3 to 5 replay the captured step"
    assert np.all(np.diff(cpu) != 0)
    np.testing.assert_allclose(plain, cpu, rtol=1e-5)
    np.testing.assert_allclose(fused, cpu, rtol=1e-5)
    np.testing.assert_allclose(captured, fused, rtol=1e-6)


def _pynative_losses(target, optimizer, steps=5):
    ms.set_context(device_target=target, mode=ms.PYNATIVE_MODE)
    try:
        return _losses_in_mode(optimizer, steps)
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


def _losses_in_mode(optimizer, steps):
    net = _MLP()
    rng = np.random.default_rng(3)
    for p in net.trainable_params():
        p.set_data(ms.Tensor((rng.standard_normal(p.shape) * 0.2).astype(np.float32)))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), OPTIMIZERS[optimizer](net.trainable_params()))
    step.set_train()
    out = []
    for _ in range(steps):
        x = ms.Tensor(rng.standard_normal((8, 12)).astype(np.float32))
        y = ms.Tensor(rng.integers(0, 10, 8).astype(np.int32))
        out.append(float(step(x, y).asnumpy()))
    return np.array(out)


@pytest.mark.parametrize("optimizer", ["adam", "sgd"])
def test_pynative_steps_replay_the_compiled_update(sim_plugin, graph_mode, monkeypatch, optimizer):
    """In PYNATIVE_MODE the optimizer's update is one compiled graph (``@jit`` on its construct, as in MindSpore
    2.10), so on the GPU it is captured at its third call and replayed: one launch for every parameter's update."""
    cpu = _pynative_losses("CPU", optimizer)
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")
    plain = _pynative_losses(TARGET, optimizer)
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "1")
    st = dict(G.capture.STATS)
    captured = _pynative_losses(TARGET, optimizer)
    assert G.capture.STATS["captured"] == st["captured"] + 1, "the update is captured"
    assert G.capture.STATS["replays"] == st["replays"] + 3, "steps 3 to 5 replay it"
    np.testing.assert_allclose(plain, cpu, rtol=1e-5)
    np.testing.assert_allclose(captured, plain, rtol=1e-6)
