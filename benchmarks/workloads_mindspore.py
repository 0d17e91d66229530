"""The cross-framework benchmark workloads written against the public MindSpore API.

The same script runs unchanged on our packages (mindspore-core + mindspore-cpu) and on real MindSpore;
``workloads_torch.py`` has the same workloads in PyTorch and ``harness.py`` runs them all side by side.

Run: ``python benchmarks/workloads_mindspore.py --workload lenet --mode graph [--steps 30] [--warmup 5]
[--threads 2] [--launch-blocking] [--amp float16|bfloat16] [--json]``. ``--launch-blocking`` calls ``mindspore.runtime.launch_blocking()``
(synchronous execution; ours always runs that way, so there it changes nothing). Workloads (see
``workloads_common.WORKLOADS``):

* ``mlp``: 784-512-512-10 with ReLU, batch 128, one ``TrainOneStepCell`` step with
  ``SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')`` and ``Momentum(0.01, 0.9)``;
* ``lenet``: LeNet5 on 32x1x32x32, the same loss and optimizer;
* ``resnet``: a CIFAR ResNet (3 stages x 2 BasicBlocks with BatchNorm, 16/32/64 channels) on 32x3x32x32;
* ``transformer``: one post-LN encoder layer from ``nn.Dense``, ``nn.LayerNorm``, ``ops.BatchMatMul``,
  ``ops.matmul``, ``ops.softmax``, reshape/transpose (d_model 256, 4 heads, FFN 1024, sequence 128, batch 8),
  mean over the sequence, ``nn.Dense(256, 10)``; ``Adam(1e-3)``;
* ``lenet_infer``: LeNet5 forward in inference mode, batch 256 (reported as images/s);
* ``dispatch``: 10,000 chained ``ops.add`` on 1-element tensors (reported as µs per op; PYNATIVE only).

Every step forces its result to the host (``asnumpy``). It prints the first step's time (compilation
included in GRAPH mode), the median of ``--steps`` steps after ``--warmup`` more, and the first losses.
All parameters are set from ``workloads_common.initial_params`` (a seeded NumPy generator), the inputs
from ``workloads_common.inputs``, so every framework starts from the same numbers.
"""
from __future__ import annotations

import importlib.util
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workloads_common as common  # next to this script

# MindSpore names of normalization parameters -> the canonical (PyTorch) ones
_NORM_NAMES = {"gamma": "weight", "beta": "bias", "moving_mean": "running_mean", "moving_variance": "running_var"}


def build(ms, workload):
    """The network for ``workload`` (classes are defined here so that ``mindspore`` is imported late)."""
    nn, ops = ms.nn, ms.ops

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(784, 512)
            self.fc2 = nn.Dense(512, 512)
            self.fc3 = nn.Dense(512, common.NUM_CLASSES)
            self.relu = nn.ReLU()

        def construct(self, x):
            return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))

    class LeNet5(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid", has_bias=False)
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid", has_bias=False)
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, common.NUM_CLASSES)
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

    def conv3x3(c_in, c_out, stride):
        return nn.Conv2d(c_in, c_out, 3, stride=stride, pad_mode="pad", padding=1, has_bias=False)

    def batch_norm(c):
        return nn.BatchNorm2d(c, eps=1e-5, momentum=0.9)

    class BasicBlock(nn.Cell):
        def __init__(self, c_in, c_out, stride):
            super().__init__()
            self.conv1 = conv3x3(c_in, c_out, stride)
            self.bn1 = batch_norm(c_out)
            self.conv2 = conv3x3(c_out, c_out, 1)
            self.bn2 = batch_norm(c_out)
            self.relu = nn.ReLU()

        def residual(self, x):
            return self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x)))))

        def construct(self, x):
            return self.relu(self.residual(x) + x)

    class DownBlock(BasicBlock):
        """A BasicBlock whose shortcut is a strided 1x1 convolution + BatchNorm."""

        def __init__(self, c_in, c_out, stride):
            super().__init__(c_in, c_out, stride)
            self.down_conv = nn.Conv2d(c_in, c_out, 1, stride=stride, pad_mode="valid", has_bias=False)
            self.down_bn = batch_norm(c_out)

        def construct(self, x):
            return self.relu(self.residual(x) + self.down_bn(self.down_conv(x)))

    class ResNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = conv3x3(3, 16, 1)
            self.bn1 = batch_norm(16)
            self.relu = nn.ReLU()
            stages, c_in = [], 16
            for c_out, stride in common.RESNET_STAGES:
                blocks = [(DownBlock if stride != 1 or c_in != c_out else BasicBlock)(c_in, c_out, stride)]
                blocks += [BasicBlock(c_out, c_out, 1) for _ in range(common.RESNET_BLOCKS - 1)]
                stages.append(nn.SequentialCell(blocks))
                c_in = c_out
            self.layer1, self.layer2, self.layer3 = stages
            self.fc = nn.Dense(64, common.NUM_CLASSES)

        def construct(self, x):
            x = self.relu(self.bn1(self.conv1(x)))
            x = self.layer3(self.layer2(self.layer1(x)))
            return self.fc(ops.mean(x, (2, 3)))

    class Encoder(nn.Cell):
        """A post-LN transformer encoder layer, mean-pooled over the sequence, then a 10-class Dense."""

        def __init__(self):
            super().__init__()
            d = common.D_MODEL
            self.wq = nn.Dense(d, d)
            self.wk = nn.Dense(d, d)
            self.wv = nn.Dense(d, d)
            self.wo = nn.Dense(d, d)
            self.ln1 = nn.LayerNorm((d,), epsilon=1e-5)
            self.ff1 = nn.Dense(d, common.D_FF)
            self.ff2 = nn.Dense(common.D_FF, d)
            self.ln2 = nn.LayerNorm((d,), epsilon=1e-5)
            self.head = nn.Dense(d, common.NUM_CLASSES)
            self.relu = nn.ReLU()
            self.scores = ops.BatchMatMul(transpose_b=True)
            self.scale = 1.0 / math.sqrt(d // common.HEADS)

        def split_heads(self, t, b, s):
            """(b, s, d) -> (b, heads, s, d / heads)"""
            return ops.transpose(ops.reshape(t, (b, s, common.HEADS, common.D_MODEL // common.HEADS)), (0, 2, 1, 3))

        def construct(self, x):
            b, s, d = x.shape
            q = self.split_heads(self.wq(x), b, s)
            k = self.split_heads(self.wk(x), b, s)
            v = self.split_heads(self.wv(x), b, s)
            attention = ops.softmax(self.scores(q, k) * self.scale, axis=-1)
            context = ops.reshape(ops.transpose(ops.matmul(attention, v), (0, 2, 1, 3)), (b, s, d))
            x = self.ln1(x + self.wo(context))
            x = self.ln2(x + self.ff2(self.relu(self.ff1(x))))
            return self.head(ops.mean(x, 1))

    classes = {"mlp": MLP, "lenet": LeNet5, "lenet_infer": LeNet5, "resnet": ResNet, "transformer": Encoder}
    return classes[workload]()


def canonical_name(name):
    """``layer1.0.bn1.gamma`` -> ``layer1.0.bn1.weight``"""
    head, _, last = name.rpartition(".")
    last = _NORM_NAMES.get(last, last)
    return f"{head}.{last}" if head else last


def set_initial_params(ms, net, workload):
    setters = {}
    for name, param in net.parameters_and_names():
        setters[canonical_name(name)] = (param.shape, lambda a, p=param: p.set_data(ms.Tensor(a)))
    return common.match_params(workload, setters)


def set_threads(ms, threads):
    """The CPU kernel thread count: ``device_context.cpu.op_tuning.threads_num`` (MindSpore >= 2.5), else the
    older ``set_context(runtime_num_threads=...)``. Returns which API was used."""
    op_tuning = getattr(getattr(getattr(ms, "device_context", None), "cpu", None), "op_tuning", None)
    if op_tuning is not None:
        op_tuning.threads_num(threads)
        return "device_context.cpu.op_tuning.threads_num"
    ms.set_context(runtime_num_threads=threads)
    return "set_context(runtime_num_threads)"


def main():
    parser = common.parser(__doc__.splitlines()[0], ("pynative", "graph"))
    parser.add_argument("--launch-blocking", action="store_true",
                        help="call mindspore.runtime.launch_blocking() first (synchronous execution)")
    args = parser.parse_args()
    if args.workload == "dispatch" and args.mode != "pynative":
        sys.exit("dispatch measures eager dispatch: run it with --mode pynative")
    threads = common.apply_thread_env(args.threads)

    import mindspore as ms
    from mindspore import nn, ops

    ours = importlib.util.find_spec("mindspore_cpu") is not None
    framework = "ours" if ours else "mindspore"
    if args.launch_blocking:
        runtime = getattr(ms, "runtime", None)
        if runtime is None or not hasattr(runtime, "launch_blocking"):
            sys.exit(f"--launch-blocking: this mindspore ({ms.__file__}) has no mindspore.runtime.launch_blocking")
        runtime.launch_blocking()
    ms.set_device(args.device)
    thread_api = set_threads(ms, threads)
    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    extra = {"thread_api": thread_api, "module": os.path.dirname(ms.__file__), "launch_blocking": args.launch_blocking,
             "device": args.device}

    if args.workload == "dispatch":
        one = ms.Tensor(np.ones(1, np.float32))

        def step():
            x = ms.Tensor(np.ones(1, np.float32))
            for _ in range(common.DISPATCH_OPS):
                x = ops.add(x, one)
            return float(x.asnumpy()[0])
    else:
        net = build(ms, args.workload)
        extra["parameters"] = set_initial_params(ms, net, args.workload)
        x_np, labels_np = common.inputs(args.workload)
        x = ms.Tensor(x_np)
        if args.workload == "lenet_infer":
            net.set_train(False)

            def step():
                return float(net(x).asnumpy().astype(np.float64).sum())
        else:
            labels = ms.Tensor(labels_np.astype(np.int32))
            loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
            if args.workload == "transformer":
                optimizer = nn.Adam(net.trainable_params(), learning_rate=1e-3)
            else:
                optimizer = nn.Momentum(net.trainable_params(), 0.01, 0.9)
            if args.amp != "off":   # amp level O2: the network in half precision (BatchNorm and the loss in float32)
                net = ms.amp.auto_mixed_precision(net, "O2", dtype=getattr(ms, args.amp))
                extra["amp"] = f"O2 {args.amp}"
            if args.amp == "float16":
                scale = ms.Tensor(np.float32(common.AMP_LOSS_SCALE))
                train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, loss), optimizer, scale_sense=scale)
            else:
                train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)
            train.set_train()

            def step():
                out = train(x, labels)
                return float((out[0] if isinstance(out, tuple) else out).asnumpy())

    first_ms, median_ms, times, values = common.measure(step, args.steps, args.warmup)
    common.report(args, framework, ms.__version__, threads, first_ms, median_ms, times, values, extra)


if __name__ == "__main__":
    main()
