"""Layers against files written by real MindSpore 2.10 (``/work/shared/fixtures/mindspore-2.10``): the
parameter names, order and shapes of LeNet5 and of a Conv/BatchNorm/Dense net, LeNet5's eval logits from its
trained weights, and the first training loss from its initial weights."""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import _nn_ref as ref  # noqa: E402

FIXTURES = pathlib.Path("/work/shared/fixtures/mindspore-2.10")
pytestmark = [pytest.mark.skipif(not FIXTURES.is_dir(), reason="MindSpore 2.10 fixtures not available"), pytest.mark.both_modes]


class LeNet5(nn.Cell):
    """MindSpore's quick-start LeNet5."""

    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid", has_bias=True)
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid", has_bias=True)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class SmallNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, pad_mode="same", has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 8 * 8, 10)

    def construct(self, x):
        return self.fc(self.flatten(self.relu(self.bn(self.conv(x)))))


def _load(net, params):
    by_name = {p.name: p for p in net.get_parameters()}
    assert list(by_name) == list(params)
    for name, value in params.items():
        assert tuple(by_name[name].shape) == value.shape, name
        by_name[name].set_data(Tensor(value.copy()))


def test_parameter_names_and_shapes_match_mindspore_files():
    lenet = ref.read_ckpt(FIXTURES / "lenet" / "lenet_init.ckpt")
    net = LeNet5()
    assert [(p.name, tuple(p.shape)) for p in net.get_parameters()] == [(k, v.shape) for k, v in lenet.items()]
    small = ref.read_ckpt(FIXTURES / "ckpt" / "net.ckpt")
    net = SmallNet()
    assert [(p.name, tuple(p.shape)) for p in net.get_parameters()] == [(k, v.shape) for k, v in small.items()]
    assert [p.requires_grad for p in net.get_parameters()] == [True, True, False, False, True, True, True, True]


def test_lenet_eval_logits_match_mindspore():
    io = np.load(FIXTURES / "lenet" / "lenet_io.npz")
    net = LeNet5()
    _load(net, ref.read_ckpt(FIXTURES / "lenet" / "lenet.ckpt"))
    out = net(Tensor(io["eval_x"])).asnumpy()
    np.testing.assert_allclose(out, io["eval_logits"], rtol=1e-5, atol=1e-6)


def test_lenet_first_training_loss_matches_mindspore():
    io = np.load(FIXTURES / "lenet" / "lenet_io.npz")
    net = LeNet5()
    _load(net, ref.read_ckpt(FIXTURES / "lenet" / "lenet_init.ckpt"))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    net.set_train()
    value, grads = ms.value_and_grad(lambda x, y: loss(net(x), y), None, net.trainable_params())(
        Tensor(io["train_x"]), Tensor(io["train_y"]))
    np.testing.assert_allclose(float(value.asnumpy()), io["train_losses"][0], rtol=1e-5)
    assert len(grads) == 10 and all(np.isfinite(g.asnumpy()).all() for g in grads)


def test_lenet_three_momentum_steps_match_mindspore():
    """Gradients of the whole layer stack: three hand-written Momentum(0.01, 0.9) steps (v = 0.9 v + g,
    p -= 0.01 v) on our gradients reproduce MindSpore's losses and trained weights."""
    io = np.load(FIXTURES / "lenet" / "lenet_io.npz")
    net = LeNet5()
    _load(net, ref.read_ckpt(FIXTURES / "lenet" / "lenet_init.ckpt"))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    net.set_train()
    params = net.trainable_params()
    step = ms.value_and_grad(lambda x, y: loss(net(x), y), None, params)
    moments = [np.zeros(p.shape, np.float32) for p in params]
    losses = []
    for _ in range(3):
        value, grads = step(Tensor(io["train_x"]), Tensor(io["train_y"]))
        losses.append(float(value.asnumpy()))
        for p, m, g in zip(params, moments, grads):
            m *= np.float32(0.9)
            m += g.asnumpy()
            p.set_data(Tensor(p.asnumpy() - np.float32(0.01) * m))
    np.testing.assert_allclose(losses, io["train_losses"], rtol=1e-5)
    trained = ref.read_ckpt(FIXTURES / "lenet" / "lenet.ckpt")
    for p in params:
        np.testing.assert_allclose(p.asnumpy(), trained[p.name], rtol=1e-5, atol=1e-6, err_msg=p.name)
    net.set_train(False)
    np.testing.assert_allclose(net(Tensor(io["eval_x"])).asnumpy(), io["eval_logits"], rtol=1e-5, atol=1e-5)
