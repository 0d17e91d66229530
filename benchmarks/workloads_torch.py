"""The cross-framework benchmark workloads in PyTorch, eager and ``torch.compile``.

The PyTorch side of ``workloads_mindspore.py`` (same networks, parameter shapes, ops, initial weights and
inputs, same CLI and JSON line); ``harness.py`` runs them all side by side.

Run: ``python benchmarks/workloads_torch.py --workload lenet --mode compile [--steps 30] [--warmup 5]
[--threads 2] [--json]``. Workloads: ``mlp``, ``lenet``, ``resnet``, ``transformer``, ``lenet_infer``,
``dispatch`` (eager only); see ``workloads_mindspore.py``.

MindSpore defaults written out for PyTorch:

* ``SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')`` is ``F.cross_entropy`` (mean);
* ``Momentum(lr, m)`` (``v = m * v + g; p -= lr * v``, v starting at 0) is ``SGD(lr, momentum=m)`` with
  ``dampening=0`` and ``nesterov=False`` (whose buffer starts at the first gradient: the same numbers);
* ``Adam(1e-3)`` has beta1 0.9, beta2 0.999, eps 1e-8 like ``torch.optim.Adam``, but MindSpore adds eps to
  the uncorrected sqrt(v) (``p -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps)``) where PyTorch
  adds it to the bias-corrected one (MindSpore's effective eps is eps / sqrt(1 - beta2^t), 3.2e-7 at step 1):
  parameters with tiny gradients move differently, and the transformer's second loss differs from
  MindSpore's by ~1.6e-4 (with ``eps=1e-8 / sqrt(1 - 0.999)`` it matches to 1e-6). The first loss is unaffected;
* ``BatchNorm2d(c)`` (eps 1e-5, momentum 0.9 of the old moving statistics) is ``BatchNorm2d(c, eps=1e-5,
  momentum=0.1)``; ``LayerNorm`` gets ``eps=1e-5`` explicitly on both sides (MindSpore's default is 1e-7);
* convolutions have no bias (MindSpore's ``has_bias=False`` default), LeNet's are "valid", the ResNet's
  3x3 ones have padding 1 and the shortcut 1x1 ones stride 2.

``--mode compile`` compiles the network with its loss (forward and backward through AOTAutograd) and the
optimizer's step, so that, as with MindSpore's GRAPH mode, the whole training step runs compiled; the first
step includes the compilation.
"""
from __future__ import annotations

import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workloads_common as common  # next to this script


def build(torch, workload):
    """The network for ``workload`` (classes are defined here so that ``torch`` is imported late)."""
    nn, F = torch.nn, torch.nn.functional

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(784, 512)
            self.fc2 = nn.Linear(512, 512)
            self.fc3 = nn.Linear(512, common.NUM_CLASSES)

        def forward(self, x):
            return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

    class LeNet5(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, bias=False)
            self.conv2 = nn.Conv2d(6, 16, 5, bias=False)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, common.NUM_CLASSES)
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def forward(self, x):
            x = self.max_pool2d(F.relu(self.conv1(x)))
            x = self.max_pool2d(F.relu(self.conv2(x)))
            x = self.flatten(x)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)

    def conv3x3(c_in, c_out, stride):
        return nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False)

    def batch_norm(c):
        return nn.BatchNorm2d(c, eps=1e-5, momentum=0.1)

    class BasicBlock(nn.Module):
        def __init__(self, c_in, c_out, stride):
            super().__init__()
            self.conv1 = conv3x3(c_in, c_out, stride)
            self.bn1 = batch_norm(c_out)
            self.conv2 = conv3x3(c_out, c_out, 1)
            self.bn2 = batch_norm(c_out)

        def residual(self, x):
            return self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x)))))

        def forward(self, x):
            return F.relu(self.residual(x) + x)

    class DownBlock(BasicBlock):
        """A BasicBlock whose shortcut is a strided 1x1 convolution + BatchNorm."""

        def __init__(self, c_in, c_out, stride):
            super().__init__(c_in, c_out, stride)
            self.down_conv = nn.Conv2d(c_in, c_out, 1, stride=stride, bias=False)
            self.down_bn = batch_norm(c_out)

        def forward(self, x):
            return F.relu(self.residual(x) + self.down_bn(self.down_conv(x)))

    class ResNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = conv3x3(3, 16, 1)
            self.bn1 = batch_norm(16)
            stages, c_in = [], 16
            for c_out, stride in common.RESNET_STAGES:
                blocks = [(DownBlock if stride != 1 or c_in != c_out else BasicBlock)(c_in, c_out, stride)]
                blocks += [BasicBlock(c_out, c_out, 1) for _ in range(common.RESNET_BLOCKS - 1)]
                stages.append(nn.Sequential(*blocks))
                c_in = c_out
            self.layer1, self.layer2, self.layer3 = stages
            self.fc = nn.Linear(64, common.NUM_CLASSES)

        def forward(self, x):
            x = F.relu(self.bn1(self.conv1(x)))
            x = self.layer3(self.layer2(self.layer1(x)))
            return self.fc(torch.mean(x, (2, 3)))

    class Encoder(nn.Module):
        """A post-LN transformer encoder layer, mean-pooled over the sequence, then a 10-class Linear."""

        def __init__(self):
            super().__init__()
            d = common.D_MODEL
            self.wq = nn.Linear(d, d)
            self.wk = nn.Linear(d, d)
            self.wv = nn.Linear(d, d)
            self.wo = nn.Linear(d, d)
            self.ln1 = nn.LayerNorm(d, eps=1e-5)
            self.ff1 = nn.Linear(d, common.D_FF)
            self.ff2 = nn.Linear(common.D_FF, d)
            self.ln2 = nn.LayerNorm(d, eps=1e-5)
            self.head = nn.Linear(d, common.NUM_CLASSES)
            self.scale = 1.0 / math.sqrt(d // common.HEADS)

        @staticmethod
        def split_heads(t, b, s):
            """(b, s, d) -> (b, heads, s, d / heads)"""
            return t.reshape(b, s, common.HEADS, common.D_MODEL // common.HEADS).permute(0, 2, 1, 3)

        def forward(self, x):
            b, s, d = x.shape
            q = self.split_heads(self.wq(x), b, s)
            k = self.split_heads(self.wk(x), b, s)
            v = self.split_heads(self.wv(x), b, s)
            attention = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) * self.scale, dim=-1)
            context = torch.matmul(attention, v).permute(0, 2, 1, 3).reshape(b, s, d)
            x = self.ln1(x + self.wo(context))
            x = self.ln2(x + self.ff2(F.relu(self.ff1(x))))
            return self.head(torch.mean(x, 1))

    classes = {"mlp": MLP, "lenet": LeNet5, "lenet_infer": LeNet5, "resnet": ResNet, "transformer": Encoder}
    return classes[workload]()


def set_initial_params(torch, net, workload):
    setters = {}
    tensors = list(net.named_parameters()) + [(n, b) for n, b in net.named_buffers()
                                               if not n.endswith("num_batches_tracked")]
    for name, tensor in tensors:
        def setter(array, t=tensor):
            with torch.no_grad():
                t.copy_(torch.from_numpy(array))
        setters[name] = (tuple(tensor.shape), setter)
    return common.match_params(workload, setters)


def main():
    args = common.parser(__doc__.splitlines()[0], ("eager", "compile")).parse_args()
    if args.workload == "dispatch" and args.mode != "eager":
        sys.exit("dispatch measures eager dispatch: run it with --mode eager")
    threads = common.apply_thread_env(args.threads)

    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.set_num_interop_threads(threads)
    compiled = args.mode == "compile"
    device = torch.device("cuda" if args.device == "GPU" else "cpu")
    extra = {"device": args.device}

    if args.workload == "dispatch":
        one = torch.ones(1, device=device)

        def step():
            x = torch.ones(1, device=device)
            for _ in range(common.DISPATCH_OPS):
                x = torch.add(x, one)
            return x.item()
    else:
        net = build(torch, args.workload)
        extra["parameters"] = set_initial_params(torch, net, args.workload)
        net.to(device)
        x_np, labels_np = common.inputs(args.workload)
        x = torch.from_numpy(x_np).to(device)
        if args.workload == "lenet_infer":
            net.eval()
            forward = torch.compile(net) if compiled else net

            def step():
                with torch.inference_mode():
                    return float(forward(x).cpu().numpy().astype(np.float64).sum())
        else:
            labels = torch.from_numpy(labels_np).to(device)
            net.train()

            class WithLoss(torch.nn.Module):
                def __init__(self, backbone):
                    super().__init__()
                    self.backbone = backbone

                def forward(self, data, label):
                    return F.cross_entropy(self.backbone(data), label)

            with_loss = WithLoss(net)
            if args.workload == "transformer":
                optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-8)
            else:
                optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, dampening=0, nesterov=False)
            forward = torch.compile(with_loss) if compiled else with_loss
            optimizer_step = torch.compile(optimizer.step) if compiled else optimizer.step

            if args.amp == "off":
                def step():
                    optimizer.zero_grad(set_to_none=True)
                    loss = forward(x, labels)
                    loss.backward()
                    optimizer_step()
                    return loss.item()
            else:   # autocast; float16 with a GradScaler (it skips a step whose gradients overflowed)
                dtype = getattr(torch, args.amp)
                scaler = torch.amp.GradScaler(device.type, init_scale=common.AMP_LOSS_SCALE,
                                              enabled=args.amp == "float16")
                extra["amp"] = f"autocast {args.amp}"

                def step():
                    optimizer.zero_grad(set_to_none=True)
                    with torch.autocast(device.type, dtype=dtype):
                        loss = forward(x, labels)
                    scaler.scale(loss).backward()
                    scaler.step(optimizer)
                    scaler.update()
                    return loss.item()

    first_ms, median_ms, times, values = common.measure(step, args.steps, args.warmup)
    common.report(args, "torch", torch.__version__, threads, first_ms, median_ms, times, values, extra)


if __name__ == "__main__":
    main()
