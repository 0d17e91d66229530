"""LeNet5 from MindSpore's initial weights: three Momentum steps reproduce real MindSpore 2.10's numbers.

The fixtures in ``tests/fixtures/mindspore-2.10/lenet`` were written by the real ``mindspore==2.10.0``
CPU wheel (see the README there): the initial checkpoint, the checkpoint after three
``TrainOneStepCell`` steps with ``Momentum(0.01, 0.9)`` on one batch of 8 images, the three losses
it printed and the trained network's eval-mode logits on 4 more images. Everything must match to
float32 rounding (rtol 1e-5); the same three steps are also run through ``Model.train`` on a
``mindspore.dataset`` pipeline.
"""
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore.train import Callback, Model, load_checkpoint, load_param_into_net

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "mindspore-2.10" / "lenet"
RTOL = 1e-5

pytestmark = pytest.mark.both_modes


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid", has_bias=True)
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid", has_bias=True)
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


@pytest.fixture(scope="module")
def io():
    return dict(np.load(FIXTURES / "lenet_io.npz"))


def _initial_net():
    net = LeNet5()
    not_loaded, _ = load_param_into_net(net, load_checkpoint(str(FIXTURES / "lenet_init.ckpt")), strict_load=True)
    assert not not_loaded
    return net


def _check_trained(net, io):
    expected = load_checkpoint(str(FIXTURES / "lenet.ckpt"))
    params = {p.name: p for p in net.get_parameters()}
    assert sorted(params) == sorted(expected)
    for name, value in expected.items():
        np.testing.assert_allclose(params[name].asnumpy(), value.asnumpy(), rtol=RTOL, atol=1e-7, err_msg=name)
    logits = net.set_train(False)(ms.Tensor(io["eval_x"]))
    np.testing.assert_allclose(logits.asnumpy(), io["eval_logits"], rtol=RTOL, atol=1e-6)


def test_three_train_one_step_cell_steps_reproduce_mindspore(io):
    net = _initial_net()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    train.set_train()
    x, y = ms.Tensor(io["train_x"]), ms.Tensor(io["train_y"])
    losses = [float(train(x, y).asnumpy()) for _ in range(3)]
    np.testing.assert_allclose(losses, io["train_losses"], rtol=RTOL)
    _check_trained(net, io)


def test_model_train_reproduces_mindspore(io):
    ds = pytest.importorskip("mindspore.dataset")
    net = _initial_net()
    losses = []

    class Record(Callback):
        def on_train_step_end(self, ctx):
            losses.append(float(ctx.original_args().net_outputs.asnumpy()))

    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.01, 0.9))
    dataset = ds.NumpySlicesDataset({"x": io["train_x"], "y": io["train_y"]}, shuffle=False).batch(8)
    model.train(3, dataset, callbacks=Record())
    np.testing.assert_allclose(losses, io["train_losses"], rtol=RTOL)
    _check_trained(net, io)
