"""Record the MindIR fixtures of ``tests/export/test_mindir_load.py`` with real MindSpore 2.10.

Run with a Python that has real MindSpore (CPU) installed, from anywhere::

    /tmp/w/msref/bin/python tests/export/make_ms_fixtures.py [NAME ...]

(names: record only those networks). It writes into ``tests/fixtures/export/mindspore-2.10/``, for every
network, ``<name>.mindir`` (what ``mindspore.export(..., file_format="MINDIR")`` writes) and ``<name>.npz``: the
inputs (``in0``, ``in1``... for the export's shape; ``b<k>_in0``... for the batch sizes ``k`` a dynamic or
re-inferred export is also run with) and MindSpore's outputs (``out0``..., ``b<k>_out0``...), which are the
outputs of ``nn.GraphCell(ms.load(file))`` (checked here against the network itself). Every parameter is drawn
from a NumPy generator seeded with ``SEED`` and the network's name (weights uniform in +-1/sqrt(fan_in);
normalization scales and running variances in [0.5, 1.5], shifts and running means in [-0.5, 0.5], so that
mixing them up shows), inputs from another seeded generator: the files are reproducible up to MindSpore's own
bytes. ``small.mindir`` and ``expected_mindir.npz`` are copies of the shared fixture set (``../shared``, recorded
earlier with the same MindSpore), kept here because a clone of the repository has no ``../shared``.

The networks: the MLP, LeNet5, ResNet and transformer workloads of ``benchmarks/workloads_mindspore.py`` (built
unchanged, batch 2; the transformer with a sequence of 16), an Embedding+LSTM text classifier taking the last
step ``y[:, -1, :]``, ``nn.TransformerEncoderLayer``, a net of further layers (``layers``: 1-D and transposed
convolution, pooling variants, activations, a bidirectional two-layer GRU, an RNN, thirteen outputs), and
dynamic-batch exports (``Tensor(shape=[None, ...])``) of LeNet5, the text classifier, the transformer workload
(with d_model 32), the encoder layer and a net of shape arithmetic (``shape_ops_dyn``); and encrypted exports with
the key ``KEY``: LeNet5 with AES-GCM, a small convolutional net with AES-CBC and SM4-CBC.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "tests", "fixtures", "export", "mindspore-2.10")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "fixtures", "mindspore-2.10", "export")
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

#: the key of the encrypted fixtures
KEY = b"0123456789abcdef"
SEED = 20240617


def set_params(ms, net, rng):
    """Every parameter of ``net`` from ``rng``, in ``parameters_and_names`` order."""
    for name, p in net.parameters_and_names():
        shape = tuple(p.shape)
        last = name.rsplit(".", 1)[-1]
        if last in ("gamma", "moving_variance"):
            value = rng.uniform(0.5, 1.5, shape)
        elif last in ("beta", "moving_mean"):
            value = rng.uniform(-0.5, 0.5, shape)
        else:
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
            bound = 1.0 / np.sqrt(max(fan_in, 1))
            value = rng.uniform(-bound, bound, shape)
        p.set_data(ms.Tensor(value.astype(ms.dtype_to_nptype(p.dtype))))


def networks(ms):
    """name -> (make network, export inputs, {batch: run inputs} for extra runs)."""
    from mindspore import nn, ops
    import workloads_mindspore as wl

    rng = np.random.default_rng(SEED + 1)

    def f32(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    def ids(*shape):
        return rng.integers(0, 50, shape).astype(np.int32)

    class TextNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(50, 12)
            self.lstm = nn.LSTM(12, 16, batch_first=True)
            self.fc = nn.Dense(16, 4)

        def construct(self, x):
            y, _ = self.lstm(self.embedding(x))
            return self.fc(y[:, -1, :])

    class EncoderLayer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, dropout=0.0,
                                                    batch_first=True)

        def construct(self, x):
            return self.layer(x)

    class SmallConv(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 3, pad_mode="same", has_bias=True)
            self.bn = nn.BatchNorm2d(4)
            self.fc = nn.Dense(64, 10)

        def construct(self, x):
            x = ops.max_pool2d(ops.relu(self.bn(self.conv(x))), 2, 2)
            return ops.softmax(self.fc(ops.flatten(x)), -1)

    class Layers(nn.Cell):
        """More layers than the workloads use: 1-D convolution, transposed convolution, pooling variants,
        GELU and friends, a two-layer bidirectional GRU, an RNN, several outputs."""

        def __init__(self):
            super().__init__()
            self.conv1d = nn.Conv1d(4, 6, 3, pad_mode="pad", padding=1)
            self.bn1d = nn.BatchNorm1d(6)
            self.gru = nn.GRU(6, 5, batch_first=True, bidirectional=True, num_layers=2)
            self.rnn = nn.RNN(6, 5, batch_first=True)
            self.ln = nn.LayerNorm((5,))
            self.conv = nn.Conv2d(3, 4, 3, stride=2, pad_mode="same", dilation=1, group=1, has_bias=True)
            self.deconv = nn.Conv2dTranspose(4, 2, 3, stride=2, pad_mode="same")
            self.pool_same = nn.MaxPool2d(3, 2, pad_mode="same")
            self.avg = nn.AvgPool2d(2, 2)
            self.adapt = nn.AdaptiveAvgPool2d(1)
            self.prelu = nn.PReLU(4)
            self.acts = nn.CellList([nn.GELU(), nn.SiLU(), nn.HSwish(), nn.ELU(), nn.LeakyReLU(0.1), nn.Tanh(),
                                     nn.Sigmoid(), nn.ReLU6(), nn.Softsign()])
            self.log_softmax = nn.LogSoftmax(axis=1)

        def construct(self, seq, img):
            h = ops.gelu(self.bn1d(self.conv1d(seq))).transpose(0, 2, 1)
            g, _ = self.gru(h)
            r, _ = self.rnn(h)
            t = ops.cat((g[:, 0], r[:, -1]), axis=1)
            s = ops.stack([ops.sigmoid(t), ops.tanh(t)], 0).max(0)
            c = self.prelu(self.conv(img))
            acts = c
            for act in self.acts:
                acts = acts + act(c)
            pooled = self.adapt(self.avg(self.pool_same(acts))).squeeze(-1).squeeze(-1)
            up = self.deconv(c)
            values, idx = ops.topk(s, 3)
            misc = (ops.exp(t) - ops.sqrt(ops.abs(t)) + ops.clip_by_value(t, -0.5, 0.5) * ops.pow(t, 2)
                    + ops.floor(t) + ops.cumsum(t, 1) + ops.tile(t[:, :1], (1, 15)) + ops.broadcast_to(t[:1], (2, 15)))
            return (self.ln(r), pooled, up, self.log_softmax(misc), values, idx, ops.argmax(s, -1),
                    ops.masked_fill(t, t > 0.1, 0.5), ops.tril(ops.ones((2, 5, 5), ms.float32) * t[:, :5, None]),
                    ops.reduce_max(t, 1), ops.reduce_min(t, 1), ops.prod(t, 1), ops.sum(t, (0,)))

    class ShapeOps(nn.Cell):
        """Shape arithmetic on a dynamic batch: Shape, scalar ops, Zeros/FillV2/Range on computed sizes."""

        def construct(self, x):
            b, s, d = x.shape
            z = ops.zeros((b * 2, s + 1), ms.float32)
            n = ops.full((b // 2 + 1, 3), 1.5, dtype=ms.float32)
            t = ops.arange(0, b, 1)
            half = ops.cast(x, ms.float16)
            k = ops.Argmax(output_type=ms.int32)(x)
            scatter = ops.tensor_scatter_update(x, ops.zeros((1, 2), ms.int32), ops.ones((1, 5), ms.float32))
            return (z, n, t, half, k, scatter, ops.dyn_shape(x), x.reshape(b * s, d).sum() + x.mean(),
                    ops.ones_like(x) * b, ops.gather_elements(x, 2, ops.zeros((b, s, 2), ms.int32)))

    def dyn(shape, dtype):
        return ms.Tensor(shape=[None] + list(shape[1:]), dtype=dtype)

    lenet_x = f32(2, 1, 32, 32)
    text_x = ids(2, 7)
    enc_x = f32(2, 6, 32)
    small_x = f32(2, 3, 8, 8)
    return {
        "mlp": (lambda: wl.build(ms, "mlp"), [f32(2, 784)], {}),
        "lenet": (lambda: wl.build(ms, "lenet"), [lenet_x], {5: [f32(5, 1, 32, 32)]}),
        "resnet": (lambda: wl.build(ms, "resnet"), [f32(2, 3, 32, 32)], {}),
        "transformer": (lambda: wl.build(ms, "transformer"), [f32(2, 16, 256)], {}),
        "text_lstm": (TextNet, [text_x], {}),
        "encoder_layer": (EncoderLayer, [enc_x], {}),
        "lenet_dyn": (lambda: wl.build(ms, "lenet"), [dyn(lenet_x.shape, ms.float32)],
                      {1: [f32(1, 1, 32, 32)], 3: [f32(3, 1, 32, 32)]}),
        "transformer_dyn": (lambda: wl.build(ms, "transformer"), [dyn((2, 5, 32), ms.float32)],
                            {1: [f32(1, 5, 32)], 3: [f32(3, 5, 32)]}),
        "text_lstm_dyn": (TextNet, [dyn(text_x.shape, ms.int32)], {1: [ids(1, 7)], 3: [ids(3, 7)]}),
        "encoder_layer_dyn": (EncoderLayer, [dyn(enc_x.shape, ms.float32)], {1: [f32(1, 6, 32)], 3: [f32(3, 6, 32)]}),
        "layers": (Layers, [f32(2, 4, 7), f32(2, 3, 8, 8)], {}),
        "shape_ops_dyn": (ShapeOps, [dyn((2, 4, 5), ms.float32)], {1: [f32(1, 4, 5)], 3: [f32(3, 4, 5)]}),
        "lenet_aes_gcm": (lambda: wl.build(ms, "lenet"), [lenet_x], {}),
        "small_aes_cbc": (SmallConv, [small_x], {}),
        "small_sm4_cbc": (SmallConv, [small_x], {}),
    }


@contextlib.contextmanager
def workload_sizes(name):
    """``transformer_dyn`` is the transformer workload's Encoder with d_model 32 and FFN 64 (4 heads): its code
    reads the sizes from ``workloads_common`` when it is built and when it is compiled, so they are set for the
    whole recording."""
    import workloads_common as common
    saved = common.D_MODEL, common.D_FF
    if name == "transformer_dyn":
        common.D_MODEL, common.D_FF = 32, 64
    try:
        yield
    finally:
        common.D_MODEL, common.D_FF = saved


#: Files real MindSpore 2.10 exports but can not run itself: its loader fails on the dynamic-batch
#: nn.TransformerEncoderLayer (the graph keeps a shape check as Switch/Partial over two sub-graphs, one of them
#: a ``raise``, and MindSpore's load-time inference rejects ``raise``). Their reference outputs are the outputs of
#: the network itself, in MindSpore's GRAPH_MODE; the npz says so (``reference="network"``).
NETWORK_REFERENCE = {"encoder_layer_dyn"}


def _outputs(out):
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return [o.asnumpy() for o in outs]


def record(ms, name, make, export_inputs, runs):
    from mindspore import nn
    net = make()
    set_params(ms, net, np.random.default_rng([SEED, zlib.crc32(name.encode())]))
    net.set_train(False)
    path = os.path.join(OUT, name + ".mindir")
    if os.path.exists(path):
        os.chmod(path, 0o600)
        os.remove(path)
    kwargs = {}
    if name.endswith(("_aes_gcm", "_aes_cbc", "_sm4_cbc")):
        kwargs = {"enc_key": KEY, "enc_mode": name.rsplit("_", 2)[-2].upper() + "-" + name.rsplit("_", 1)[-1].upper()}
    ms.export(net, *[ms.Tensor(x) if isinstance(x, np.ndarray) else x for x in export_inputs],
              file_name=os.path.join(OUT, name), file_format="MINDIR", **kwargs)
    os.chmod(path, 0o644)
    dec = {"dec_key": kwargs["enc_key"], "dec_mode": kwargs["enc_mode"]} if kwargs else {}
    graph = ms.load(path, **dec)
    cell = net if name in NETWORK_REFERENCE else nn.GraphCell(graph)
    arrays = {}
    plan = [(None, export_inputs)] if all(isinstance(x, np.ndarray) for x in export_inputs) else []
    plan += [(b, xs) for b, xs in sorted(runs.items())]
    for batch, xs in plan:
        prefix = "" if batch is None else f"b{batch}_"
        tensors = [ms.Tensor(x) for x in xs]
        got = _outputs(cell(*tensors))
        eager = _outputs(net(*tensors))
        for g, e in zip(got, eager):
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
        for i, x in enumerate(xs):
            arrays[f"{prefix}in{i}"] = x
        for i, g in enumerate(got):
            arrays[f"{prefix}out{i}"] = g
    arrays["reference"] = np.array("network" if name in NETWORK_REFERENCE else "graph_cell")
    np.savez(os.path.join(OUT, name + ".npz"), **arrays)
    return os.path.getsize(path) + os.path.getsize(os.path.join(OUT, name + ".npz"))


def main():
    import mindspore as ms
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_device("CPU")
    os.makedirs(OUT, exist_ok=True)
    for fname in ("small.mindir", "expected_mindir.npz"):
        if os.path.exists(os.path.join(SHARED, fname)):
            shutil.copyfile(os.path.join(SHARED, fname), os.path.join(OUT, fname))
            os.chmod(os.path.join(OUT, fname), 0o644)
        else:
            print(f"{SHARED} has no {fname}: keeping the committed copy")
    only = set(sys.argv[1:])
    total = 0
    for name, (make, export_inputs, runs) in networks(ms).items():
        if only and name not in only:
            continue
        with workload_sizes(name):
            size = record(ms, name, make, export_inputs, runs)
        total += size
        print(f"{name}: {size / 1024:.1f} KiB")
    # the shared small net, exported for (2, 3, 8, 8), also runs with a batch of 5 (shapes re-inferred)
    from mindspore import nn
    x5 = np.random.default_rng(SEED + 2).standard_normal((5, 3, 8, 8)).astype(np.float32)
    out5 = nn.GraphCell(ms.load(os.path.join(OUT, "small.mindir")))(ms.Tensor(x5)).asnumpy()
    np.savez(os.path.join(OUT, "small_b5.npz"), in0=x5, out0=out5)
    print(f"total {total / 1024 / 1024:.2f} MiB (plus the shared small net)")


if __name__ == "__main__":
    main()
