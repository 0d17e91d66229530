"""Train LeNet5 on the SimNPU target from MindSpore 2.10's own initial weights, in PYNATIVE and GRAPH mode.

The network, weights and batch are those of ``tests/fixtures/mindspore-2.10/lenet`` (written by the
real ``mindspore==2.10.0``): three ``TrainOneStepCell`` steps with ``Momentum(0.01, 0.9)`` on one batch
of 8 images, then the trained network's eval-mode logits on 4 more. The losses are compared with the
ones real MindSpore printed::

    python examples/third_party_backend/train_lenet.py              # both modes, a short report
    python examples/third_party_backend/train_lenet.py --json       # the same, for machines

Every kernel runs on SimNPU; a kernel it lacks would be a ``KernelNotFoundError`` without a CPU
backend installed, or a ``RuntimeWarning`` naming the primitive (a CPU fallback) with one, which this
script reports as ``fallbacks``.
"""
import argparse
import json
import pathlib
import time
import warnings

import numpy as np

import mindspore as ms
from mindspore import nn
from mindspore.plugin import current_target
from mindspore.train import load_checkpoint, load_param_into_net

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "mindspore-2.10" / "lenet"
MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


class LeNet5(nn.Cell):
    """LeNet5 as in MindSpore's quick start (and ``tests/e2e/test_lenet_fixture.py``)."""

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


def train(mode, fixtures, steps=3):
    """Losses and eval logits of ``steps`` Momentum steps in ``mode``, and any CPU fallbacks."""
    ms.set_context(mode=MODES[mode])
    io = np.load(fixtures / "lenet_io.npz")
    net = LeNet5()
    not_loaded, _ = load_param_into_net(net, load_checkpoint(str(fixtures / "lenet_init.ckpt")), strict_load=True)
    assert not not_loaded, not_loaded
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    x, y = ms.Tensor(io["train_x"]), ms.Tensor(io["train_y"])
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
        logits = net.set_train(False)(ms.Tensor(io["eval_x"])).asnumpy()
    return {"losses": losses, "expected_losses": io["train_losses"].tolist()[:steps],
            "eval_logits": logits.tolist(), "seconds": round(time.perf_counter() - start, 3),
            "fallbacks": [str(w.message) for w in caught if "has no kernel" in str(w.message)],
            "target": current_target()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="SimNPU", help="device target (default: SimNPU)")
    parser.add_argument("--modes", default="pynative,graph", help="comma-separated: pynative, graph")
    parser.add_argument("--fixtures", type=pathlib.Path, default=FIXTURES, help="the LeNet fixture folder")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)

    import ms_simnpu
    report = {"default_target": ms.get_context("device_target")}
    ms.set_device(args.target)
    report["selected_target"] = ms.get_context("device_target")
    report["modes"] = {mode: train(mode, args.fixtures) for mode in args.modes.split(",")}
    report["kernel_calls"] = ms_simnpu.kernel_calls()
    report["transfers"] = ms_simnpu.transfers()
    if args.json:
        print(json.dumps(report))
        return
    print(f"default target {report['default_target']}, selected {report['selected_target']}")
    for mode, res in report["modes"].items():
        print(f"{mode:>8} on {res['target']}: losses {np.round(res['losses'], 6).tolist()} "
              f"(MindSpore 2.10: {np.round(res['expected_losses'], 6).tolist()}), {res['seconds']} s, "
              f"{len(res['fallbacks'])} CPU fallbacks")
    print(f"{sum(report['kernel_calls'].values())} SimNPU kernel runs of {len(report['kernel_calls'])} primitives; "
          f"transfers {report['transfers']}")


if __name__ == "__main__":
    main()
