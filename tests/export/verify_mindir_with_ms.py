"""Verify our MindIR export with real MindSpore 2.10, and record what it saw for the tests.

Run from the repository root with our environment::

    /tmp/w/venv/bin/python tests/export/verify_mindir_with_ms.py [--ms-python /tmp/w/msref/bin/python]

1. With our ``mindspore``: every case below is built with seeded weights and exported with ``mindspore.export``
   into ``tests/fixtures/export/ours/<case>.mindir`` (encrypted and external-data cases as their options make
   them); its inputs go to ``<case>.npz`` (``in<k>``).
2. With real MindSpore (``--ms-python``, which runs this script with ``--load``): each file is loaded with
   ``mindspore.load`` (``dec_key``/``dec_mode`` where encrypted) and run by ``nn.GraphCell`` on the inputs, and
   at more batch sizes for dynamic-batch exports; its outputs are added to ``<case>.npz`` as ``ms_out<k>``
   (``b<j>_in<k>``/``b<j>_ms_out<k>`` for the extra batch sizes).
3. With our ``mindspore`` again: our eager outputs (added as ``ours_out<k>``) are compared with MindSpore's,
   and ``verified.json`` records per case the largest difference and the MindSpore primitives the file holds,
   and for every entry of the writer's primitive table the op cases that verified it. ``ms_*`` files record
   what MindSpore itself writes for comparison (:func:`record_ms_references`).

``tests/export/test_mindir_export.py`` re-exports every case and checks that the file is the one MindSpore
verified, and that our forward still equals MindSpore's recorded outputs. ``--single`` instead exports every
operator of the op cases in a file of its own into a temporary folder and reports which ones real MindSpore
fails to load or run (to find a bad table entry). Everything here is deterministic: weights and inputs come
from seeded NumPy generators.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "export", "ours")
BENCHMARKS = os.path.join(ROOT, "benchmarks")
MS_PYTHON = "/tmp/w/msref/bin/python"
KEY = b"0123456789abcdef0123456789abcdef"
TOLERANCE = 1e-5        # relative to the output's magnitude, with the same absolute floor


# --- networks (built against whichever ``mindspore`` is imported) ---------------------------------------------
def seed_params(ms, net, seed):
    """Every parameter from one seeded generator: weights in +-1/sqrt(fan_in), normalization scales and running
    variances in [0.5, 1.5], shifts and running means in [-0.5, 0.5]."""
    rng = np.random.default_rng(seed)
    for name, p in net.parameters_and_names():
        shape = tuple(p.shape)
        last = name.rsplit(".", 1)[-1]
        if last in ("gamma", "moving_variance"):
            a = rng.uniform(0.5, 1.5, shape)
        elif last in ("beta", "moving_mean"):
            a = rng.uniform(-0.5, 0.5, shape)
        else:
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
            bound = 1.0 / np.sqrt(max(fan_in, 1))
            a = rng.uniform(-bound, bound, shape)
        p.set_data(ms.Tensor(a.astype(np.float32)))
    return net


def benchmark_net(ms, name):
    if BENCHMARKS not in sys.path:
        sys.path.insert(0, BENCHMARKS)
    import workloads_mindspore
    return workloads_mindspore.build(ms, name)


def small_net(ms):
    """The network of FORMATS.md 2.2."""
    nn, ops = ms.nn, ms.ops

    class ExportNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 3, pad_mode="same", has_bias=True)
            self.bn = nn.BatchNorm2d(4)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(2, 2)
            self.flatten = nn.Flatten()
            self.fc = nn.Dense(64, 5)

        def construct(self, x):
            x = self.flatten(self.pool(self.relu(self.bn(self.conv(x)))))
            return ops.softmax(self.fc(x), -1) * 2.0
    return ExportNet()


def text_lstm(ms):
    """Embedding -> LSTM -> the last step ``y[:, -1, :]`` -> Dense."""
    nn = ms.nn

    class TextLSTM(nn.Cell):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(50, 8)
            self.lstm = nn.LSTM(8, 12, batch_first=True)
            self.fc = nn.Dense(12, 3)

        def construct(self, ids):
            y, _ = self.lstm(self.embedding(ids))
            return self.fc(y[:, -1, :])
    return TextLSTM()


def _rng(seed):
    return np.random.default_rng(1000 + seed)


def _normal(seed, shape):
    return _rng(seed).standard_normal(shape).astype(np.float32)


def _ids(seed, shape, vocab=50):
    return _rng(seed).integers(0, vocab, shape).astype(np.int32)


class Case:
    """One exported file: ``build(ms)`` gives the network, ``inputs`` the arrays it is exported and run with,
    ``spec`` the export inputs (a shape with ``None`` for a dynamic dimension), ``batches`` extra batch sizes
    MindSpore runs a dynamic export with, ``export`` extra keyword arguments of ``mindspore.export``, ``split``
    the TOTAL_SAVE_KB to lower so that the weights go to external data."""

    def __init__(self, name, build, inputs, spec=None, batches=(), export=None, split=None, load=None):
        self.name = name
        self.build = build
        self.inputs = inputs
        self.spec = spec
        self.batches = batches
        self.export = export or {}
        self.split = split
        self.load = load or {}

    @property
    def file(self):
        return f"{self.name}_graph.mindir" if self.split is not None else f"{self.name}.mindir"

    def batch_inputs(self, batch):
        return [np.concatenate([a] * (batch // a.shape[0] + 1))[:batch] for a in self.inputs]


def _bench(name, shape, seed):
    return Case(name, lambda ms: seed_params(ms, benchmark_net(ms, name), seed), [_normal(seed, shape)])


NET_CASES = [
    Case("small", lambda ms: seed_params(ms, small_net(ms), 1), [_normal(1, (2, 3, 8, 8))]),
    _bench("mlp", (2, 784), 2),
    _bench("lenet", (2, 1, 32, 32), 3),
    _bench("resnet", (2, 3, 32, 32), 4),
    _bench("transformer", (2, 16, 256), 5),
    Case("text_lstm", lambda ms: seed_params(ms, text_lstm(ms), 6), [_ids(6, (2, 7))]),
    Case("lenet_dyn", lambda ms: seed_params(ms, benchmark_net(ms, "lenet"), 7), [_normal(7, (2, 1, 32, 32))],
         spec=[(None, 1, 32, 32)], batches=(1, 3)),
    Case("text_lstm_dyn", lambda ms: seed_params(ms, text_lstm(ms), 8), [_ids(8, (2, 7))], spec=[(None, 7)],
         batches=(1, 3)),
    Case("small_gcm", lambda ms: seed_params(ms, small_net(ms), 9), [_normal(9, (2, 3, 8, 8))],
         export={"enc_key": KEY, "enc_mode": "AES-GCM"}, load={"dec_key": KEY, "dec_mode": "AES-GCM"}),
    Case("small_cbc", lambda ms: seed_params(ms, small_net(ms), 10), [_normal(10, (2, 3, 8, 8))],
         export={"enc_key": KEY[:24], "enc_mode": "AES-CBC"}, load={"dec_key": KEY[:24], "dec_mode": "AES-CBC"}),
    Case("small_sm4", lambda ms: seed_params(ms, small_net(ms), 11), [_normal(11, (2, 3, 8, 8))],
         export={"enc_key": KEY[:16], "enc_mode": "SM4-CBC"}, load={"dec_key": KEY[:16], "dec_mode": "SM4-CBC"}),
    Case("small_split", lambda ms: seed_params(ms, small_net(ms), 12), [_normal(12, (2, 3, 8, 8))], split=0),
]


# --- the operator cases: every entry of the writer's table, by input kind --------------------------------------
def _op_fns(ms):
    """{case: (input arrays, [(label, fn)])}: the operators the op cases export, each ``fn(*inputs)``."""
    P, ops, T = ms.ops.operations, ms.ops, ms.Tensor
    f32, i32 = ms.float32, ms.int32
    unary = [(n, (lambda p: lambda x, y: p(x))(getattr(P, n)())) for n in (
        "ACos Abs Asin Asinh Atan Atanh Ceil Cos Cosh Erf Erfc Erfinv Exp Expm1 FastGeLU Floor GeLU HSigmoid "
        "HSwish Identity Log Log1p Neg ReLU ReLU6 Reciprocal Rsqrt Sigmoid Sign Sin Sinc Sinh Sqrt Square "
        "Tan Tanh Trunc Softplus Softsign SeLU Mish IsFinite IsInf IsNan Flatten").split()]
    unary += [
        ("Acosh", lambda x, y: P.Acosh()(x + 1)),
        ("OnesLike", lambda x, y: P.OnesLike()(x) + x),
        ("ZerosLike", lambda x, y: P.ZerosLike()(x) + x),
        ("CeLU", lambda x, y: P.CeLU(0.7)(x - 0.5)),
        ("Elu", lambda x, y: P.Elu(1.0)(x - 0.5)),
        ("HShrink", lambda x, y: P.HShrink(0.3)(x - 0.5)),
        ("SoftShrink", lambda x, y: P.SoftShrink(0.2)(x - 0.5)),
        ("Round", lambda x, y: P.Round()(x * 10)),
        ("LogicalNot", lambda x, y: P.LogicalNot()(P.Greater()(x, 0.5))),
        ("NanToNum", lambda x, y: P.NanToNum(0.0, 100.0, -100.0)(P.Log()(x - 0.5))),
    ]
    binary = [(n, (lambda p: lambda x, y: p(x, y))(getattr(P, n)())) for n in (
        "Add Sub Mul Div RealDiv FloorDiv FloorMod Pow Maximum Minimum Atan2 Xlogy Equal NotEqual Greater "
        "GreaterEqual Less LessEqual SquaredDifference DivNoNan Hypot Mod TruncateDiv TruncateMod").split()]
    binary += [
        ("Mul.scalar", lambda x, y: P.Mul()(x, 3.0)),
        ("Less.scalar", lambda x, y: P.Less()(x, 0.5)),
        ("Heaviside", lambda x, y: P.Heaviside()(x - 0.5, y)),
        ("LogicalAnd", lambda x, y: P.LogicalAnd()(P.Greater()(x, 0.5), P.Greater()(y, 0.5))),
        ("LogicalOr", lambda x, y: P.LogicalOr()(P.Greater()(x, 0.5), P.Greater()(y, 0.5))),
        ("LogicalXor", lambda x, y: P.LogicalXor()(P.Greater()(x, 0.5), P.Greater()(y, 0.5))),
        ("BitwiseAnd", lambda x, y: P.BitwiseAnd()(P.Cast()(x * 10, i32), P.Cast()(y * 10, i32))),
        ("BitwiseOr", lambda x, y: P.BitwiseOr()(P.Cast()(x * 10, i32), P.Cast()(y * 10, i32))),
        ("BitwiseXor", lambda x, y: P.BitwiseXor()(P.Cast()(x * 10, i32), P.Cast()(y * 10, i32))),
        ("Invert", lambda x, y: P.Invert()(P.Cast()(x * 10, i32))),
        ("Gcd", lambda x, y: P.Gcd()(P.Cast()(x * 10 + 1, i32), P.Cast()(y * 10 + 1, i32))),
        ("Lcm", lambda x, y: P.Lcm()(P.Cast()(x * 10 + 1, i32), P.Cast()(y * 10 + 1, i32))),
        ("Addcdiv", lambda x, y: P.Addcdiv()(x, y, x + 1, T(0.5, f32))),
        ("Addcmul", lambda x, y: P.Addcmul()(x, y, x, T(0.5, f32))),
        ("Lerp", lambda x, y: P.Lerp()(x, y, T(0.3, f32))),
        ("Select", lambda x, y: P.Select()(P.Greater()(x, y), x, y)),
        ("MaskedFill", lambda x, y: P.MaskedFill()(x, P.Greater()(x, y), T(0.0, f32))),
        ("IsClose", lambda x, y: P.IsClose()(x, P.Add()(x, 1e-7))),
        ("PReLU", lambda x, y: P.PReLU()(x - 0.5, T(np.full((4,), 0.25, np.float32)))),
        ("AddN", lambda x, y: P.AddN()((x, y, x))),
        ("Depend", lambda x, y: P.Depend()(x * 2, y)),
    ]
    nn4d = [
        ("Conv2D", lambda x, w: P.Conv2D(4, 3, pad_mode="same")(x, w)),
        ("Conv2D.valid_stride", lambda x, w: P.Conv2D(4, 3, pad_mode="valid", stride=2)(x, w)),
        ("Conv2D.pad_dilation", lambda x, w: P.Conv2D(4, 3, pad_mode="pad", pad=(1, 2, 0, 1), dilation=2)(x, w)),
        ("Conv2D.same_stride", lambda x, w: P.Conv2D(4, 3, pad_mode="same", stride=2)(x, w)),
        ("Conv2DTranspose", lambda x, w: P.Conv2DTranspose(4, 3, pad_mode="same")(
            P.Conv2D(4, 3, pad_mode="same")(x, w), w, (2, 3, 8, 8))),
        ("Conv2DBackpropInput", lambda x, w: P.Conv2DBackpropInput(4, 3, pad_mode="pad", pad=1)(
            P.Conv2D(4, 3, pad_mode="same")(x, w), w, (2, 3, 8, 8))),
        ("Conv2DTranspose.same_stride", lambda x, w: P.Conv2DTranspose(4, 3, pad_mode="same", stride=2)(
            P.Conv2D(4, 3, pad_mode="same", stride=2)(x, w), w, (2, 3, 8, 8))),
        ("Conv2DBackpropInput.pad_stride", lambda x, w: P.Conv2DBackpropInput(4, 3, pad_mode="pad", pad=1, stride=2)(
            P.Conv2D(4, 3, pad_mode="pad", pad=1, stride=2)(x, w), w, (2, 3, 8, 8))),
        ("MaxPool", lambda x, w: P.MaxPool(2, 2)(x)),
        ("MaxPool.same", lambda x, w: P.MaxPool(3, 2, pad_mode="same")(x)),
        ("MaxPoolWithArgmax", lambda x, w: P.MaxPoolWithArgmax((2, 3), (1, 2))(x)[0]),
        ("MaxPoolWithArgmax.mask", lambda x, w: P.Cast()(P.MaxPoolWithArgmax(3, 2, pad_mode="same")(x)[1], f32)),
        ("DepthToSpace", lambda x, w: P.DepthToSpace(2)(P.Tile()(x, (1, 4, 1, 1)) * w[:1, :1, :1, :1])),
        ("AvgPool", lambda x, w: P.AvgPool(2, 2)(x)),
        ("AvgPool.same", lambda x, w: P.AvgPool(3, 2, pad_mode="same")(x)),
        ("AdaptiveAvgPool2D", lambda x, w: P.AdaptiveAvgPool2D((3, 2))(x)),
        ("AdaptiveMaxPool2D", lambda x, w: P.AdaptiveMaxPool2D((4, 4))(x)[0]),
        ("BiasAdd", lambda x, w: P.BiasAdd()(x, T(np.arange(3, dtype=np.float32)))),
        ("BatchNorm", lambda x, w: P.BatchNorm(epsilon=1e-3)(x, T(np.full((3,), 1.5, np.float32)),
                                                             T(np.full((3,), 0.1, np.float32)),
                                                             T(np.full((3,), 0.2, np.float32)),
                                                             T(np.full((3,), 0.9, np.float32)))[0]),
        ("LayerNorm", lambda x, w: P.LayerNorm(1, 1, 1e-5)(x, T(np.full((3, 8, 8), 1.5, np.float32)),
                                                            T(np.full((3, 8, 8), 0.1, np.float32)))[0]),
        ("L2Normalize", lambda x, w: P.L2Normalize(1)(x)),
        ("Softmax", lambda x, w: P.Softmax(1)(x)),
        ("Softmax.tuple", lambda x, w: P.Softmax((-1,))(x)),
        ("LogSoftmax", lambda x, w: P.LogSoftmax(-1)(x)),
        ("ResizeBilinearV2", lambda x, w: P.ResizeBilinearV2()(x, (5, 11))),
        ("ResizeNearestNeighbor", lambda x, w: P.ResizeNearestNeighbor((4, 12))(x)),
        ("Pad", lambda x, w: P.Pad(((0, 0), (0, 0), (1, 2), (2, 1)))(x)),
        ("PadV3", lambda x, w: P.PadV3()(x, (1, 2, 2, 1), T(0.5, f32))),
    ]
    nn5d = [
        ("Conv3D", lambda x, w: P.Conv3D(2, 3, pad_mode="same")(x, w)),
        ("MaxPool3D", lambda x, w: P.MaxPool3D(2, 2)(x)),
        ("AvgPool3D", lambda x, w: P.AvgPool3D(2, 2)(x)),
    ]
    array = [
        ("Reshape", lambda x, i: P.Reshape()(x, (4, -1))),
        ("Transpose", lambda x, i: P.Transpose()(x, (1, 0, 2))),
        ("Concat", lambda x, i: P.Concat(1)((x, x))),
        ("Stack", lambda x, i: P.Stack(1)((x, x, x))),
        ("Unstack", lambda x, i: P.Unstack(1)(x)[2]),
        ("Split", lambda x, i: P.Split(2, 2)(x)[1]),
        ("SplitV", lambda x, i: P.SplitV((1, 3), 2, 2)(x)[1]),
        ("Squeeze", lambda x, i: P.Squeeze(1)(P.ExpandDims()(x, 1))),
        ("ExpandDims", lambda x, i: P.ExpandDims()(x, -1)),
        ("Tile", lambda x, i: P.Tile()(x, (1, 2, 1))),
        ("BroadcastTo", lambda x, i: P.BroadcastTo((2, 2, 3, 4))(x)),
        ("Gather", lambda x, i: P.Gather()(x, i, 1)),
        ("GatherD", lambda x, i: P.GatherD()(x, 2, P.Cast()(P.ZerosLike()(x), i32) + 1)),
        ("GatherNd", lambda x, i: P.GatherNd()(x, T(np.array([[0, 1], [1, 2]], np.int32)))),
        ("Slice", lambda x, i: P.Slice()(x, (0, 1, 1), (2, 2, 2))),
        ("StridedSlice", lambda x, i: P.StridedSlice(1, 0, 0, 0, 2)(x, (0, 1, 0), (2, 2, 4), (1, 1, 2))),
        ("ReverseV2", lambda x, i: P.ReverseV2((0, 2))(x)),
        ("OneHot", lambda x, i: P.OneHot()(i, 5, T(1.0, f32), T(0.0, f32))),
        ("Cast", lambda x, i: P.Cast()(x * 7, i32)),
        ("ScatterNd", lambda x, i: P.ScatterNd()(T(np.array([[1], [0]], np.int32)), x, (3, 3, 4))),
        ("TensorScatterUpdate", lambda x, i: P.TensorScatterUpdate()(x, T(np.array([[1], [0]], np.int32)),
                                                                     x[::-1] * 2)),
        ("TensorScatterAdd", lambda x, i: P.TensorScatterAdd()(x, T(np.array([[1], [0]], np.int32)), x)),
        ("TensorScatterElements", lambda x, i: P.TensorScatterElements(1)(
            x, P.Cast()(P.ZerosLike()(x), i32)[:, :1] + 2, x[:, :1])),
        ("Tril", lambda x, i: P.Tril(1)(x)),
        ("Triu", lambda x, i: P.Triu(-1)(x)),
        ("Sort", lambda x, i: P.Sort(1)(x)[0]),
        ("TopK", lambda x, i: P.TopK()(x, 2)[0]),
        ("CumSum", lambda x, i: P.CumSum()(x, 1)),
        ("CumProd", lambda x, i: P.CumProd(exclusive=True)(x, 2)),
        ("Cummax", lambda x, i: P.Cummax(1)(x)[0]),
        ("Cummin", lambda x, i: P.Cummin(2)(x)[0]),
        ("ArgMaxWithValue", lambda x, i: P.ArgMaxWithValue(1)(x)[1]),
        ("ArgMinWithValue", lambda x, i: P.ArgMinWithValue(2, True)(x)[0]),
        ("Argmax", lambda x, i: P.Argmax(-1)(x)),
        ("Argmin", lambda x, i: P.Argmin(1)(x)),
        ("Meshgrid", lambda x, i: P.Meshgrid()((x[0, 0], x[1, 1]))[1]),
        ("MaskedSelect", lambda x, i: P.MaskedSelect()(x, P.Greater()(x, 0.0))),
        ("NonZero", lambda x, i: P.NonZero()(x)),
        ("Unique", lambda x, i: P.Unique()(P.Sort()(P.Cast()(i, f32))[0])[0]),
        ("StopGradient", lambda x, i: P.StopGradient()(x) + 1),
        ("ReduceSum", lambda x, i: P.ReduceSum()(x, (0, 2))),
        ("ReduceMean", lambda x, i: P.ReduceMean(True)(x, 1)),
        ("ReduceMax", lambda x, i: P.ReduceMax()(x, -1)),
        ("ReduceMin", lambda x, i: P.ReduceMin()(x, ())),
        ("ReduceProd", lambda x, i: P.ReduceProd()(x, 0)),
        ("ReduceAll", lambda x, i: P.ReduceAll()(P.Greater()(x, 0.0), 1)),
        ("ReduceAny", lambda x, i: P.ReduceAny(True)(P.Greater()(x, 1.0), 2)),
        ("ReduceStd", lambda x, i: P.ReduceStd(1)(x)[0]),
        ("L2Loss", lambda x, i: P.L2Loss()(x)),
        ("LpNorm", lambda x, i: P.LpNorm(1)(x)),
        ("BatchMatMul", lambda x, i: P.BatchMatMul(transpose_b=True)(x, x)),
        ("MatMul", lambda x, i: P.MatMul(transpose_a=True)(x[0], x[1])),
    ]
    loss = [
        ("SoftmaxCrossEntropyWithLogits", lambda x, i: P.SoftmaxCrossEntropyWithLogits()(
            x, P.OneHot()(i, 5, T(1.0, f32), T(0.0, f32)))[0]),
        ("SparseSoftmaxCrossEntropyWithLogits", lambda x, i: P.SparseSoftmaxCrossEntropyWithLogits()(x, i)),
        ("BCEWithLogitsLoss", lambda x, i: P.BCEWithLogitsLoss()(x, P.Sigmoid()(x * 2), T(np.ones((5,), np.float32)),
                                                               T(np.ones((5,), np.float32)))),
        ("BinaryCrossEntropy", lambda x, i: P.BinaryCrossEntropy("sum")(P.Sigmoid()(x), P.Sigmoid()(x * 2),
                                                                       T(np.ones((3, 5), np.float32)))),
        ("NLLLoss", lambda x, i: P.NLLLoss()(P.LogSoftmax()(x), i, T(np.ones((5,), np.float32)))[0]),
        ("SmoothL1Loss", lambda x, i: P.SmoothL1Loss(0.5, "mean")(x, x * 0.5)),
        ("KLDivLoss", lambda x, i: P.KLDivLoss("sum")(P.LogSoftmax()(x), P.Softmax()(x * 2))),
        ("SigmoidCrossEntropyWithLogits", lambda x, i: P.SigmoidCrossEntropyWithLogits()(x, P.Sigmoid()(x))),
    ]
    del ops
    u = _rng(20).uniform(0.1, 0.9, (3, 4)).astype(np.float32)
    v = _rng(21).uniform(0.1, 0.9, (3, 4)).astype(np.float32)
    x4 = _normal(22, (2, 3, 8, 8))
    w4 = (_normal(23, (4, 3, 3, 3)) * 0.3).astype(np.float32)
    x5 = _normal(24, (1, 2, 4, 4, 4))
    w5 = (_normal(25, (2, 2, 3, 3, 3)) * 0.3).astype(np.float32)
    xa = _normal(26, (2, 3, 4))
    ia = np.array([2, 0, 1], np.int32)
    xl = _normal(27, (3, 5))
    il = np.array([4, 0, 2], np.int32)
    no_cpu_kernel = [("Einsum", lambda x, i: P.Einsum("abc,adc->abd")((x, x)))]
    return {
        "ops_unary": ([u, v], unary),
        "ops_binary": ([u, v], binary),
        "ops_nn": ([x4, w4], nn4d),
        "ops_nn3d": ([x5, w5], nn5d),
        "ops_array": ([xa, ia], array),
        "ops_loss": ([xl, il], loss),
        "ops_no_cpu_kernel": ([xa, ia], no_cpu_kernel),
    }


#: Op cases MindSpore loads but can not run on its CPU backend: the error it gives instead.
NO_CPU_KERNEL = {"ops_no_cpu_kernel": "Unsupported op [Einsum] on CPU"}


def op_net(ms, fns):
    nn = ms.nn

    class OpCase(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fns = tuple(f for _, f in fns)

        def construct(self, a, b):
            outs = []
            for f in self.fns:
                outs.append(f(a, b))
            return tuple(outs)
    return OpCase()


def op_cases(ms):
    return [Case(name, (lambda fns: lambda m: op_net(m, fns))(fns), inputs)
            for name, (inputs, fns) in _op_fns(ms).items()]


# --- phase 1 and 3: with our mindspore ------------------------------------------------------------------------
def export_case(ms, case, directory):
    """Export ``case`` into ``directory`` with our ``mindspore``; returns the network (for its outputs)."""
    from mindspore._deploy.mindir import writer
    net = case.build(ms)
    net.set_train(False)
    if case.spec is not None:
        args = [ms.Tensor(shape=list(s), dtype=_dtype(ms, a)) for s, a in zip(case.spec, case.inputs)]
    else:
        args = [ms.Tensor(a) for a in case.inputs]
    saved = writer.TOTAL_SAVE_KB
    if case.split is not None:
        writer.TOTAL_SAVE_KB = case.split
    try:
        ms.export(net, *args, file_name=os.path.join(directory, case.name), file_format="MINDIR", **case.export)
    finally:
        writer.TOTAL_SAVE_KB = saved
    return net


def _dtype(ms, a):
    return {np.dtype(np.float32): ms.float32, np.dtype(np.int32): ms.int32, np.dtype(np.int64): ms.int64}[a.dtype]


def our_outputs(ms, net, inputs):
    out = net(*[ms.Tensor(a) for a in inputs])
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return [o.asnumpy() for o in outs]


def max_rel_diff(ours, theirs):
    worst = 0.0
    for a, b in zip(ours, theirs):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape or a.dtype.kind != b.dtype.kind and not (a.dtype.kind in "iu" and b.dtype.kind in "iu"):
            return float("inf")
        if a.dtype == np.bool_ or a.dtype.kind in "iu":
            worst = max(worst, float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max(initial=0)))
            continue
        scale = max(1.0, float(np.abs(b).max(initial=0)))
        d = np.abs(a.astype(np.float64) - b.astype(np.float64))
        d = np.where(np.isnan(a) & np.isnan(b), 0.0, d)
        worst = max(worst, float(d.max(initial=0)) / scale)
    return worst


def ms_primitives(path, key=None, mode=None):
    """The MindSpore primitive names a file of ours holds (decrypted with our reader of the block layout)."""
    from mindspore._deploy.mindir._schema import ModelProto
    data = open(path, "rb").read()
    if key is not None:
        from mindspore._fileio.crypto import decrypt
        data = decrypt(data, key, mode)
    m = ModelProto()
    m.ParseFromString(data)
    return sorted({p.op_type for p in m.primitives})


def run_ms(ms_python, directory, names):
    cmd = [ms_python, os.path.abspath(__file__), "--load", "--dir", directory, *names]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    results = {}
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            name, status = line[7:].split(" ", 1)
            results[name] = status
    if proc.returncode != 0 and not results:
        raise RuntimeError(f"MindSpore failed:\n{proc.stderr[-4000:]}")
    return results


def verify(ms_python):
    import mindspore as ms
    os.makedirs(FIXTURES, exist_ok=True)
    cases = NET_CASES + op_cases(ms)
    nets = {}
    for case in cases:
        nets[case.name] = export_case(ms, case, FIXTURES)
        arrays = {f"in{k}": a for k, a in enumerate(case.inputs)}
        for j, batch in enumerate(case.batches):
            arrays.update({f"b{j}_in{k}": a for k, a in enumerate(case.batch_inputs(batch))})
        np.savez(os.path.join(FIXTURES, case.name + ".npz"), **arrays)
        print("exported", case.file)
    results = run_ms(ms_python, FIXTURES, [c.name for c in cases])
    report = {"mindspore": "2.10.0", "cases": {}, "table_entries": {}}
    failed = []
    for case in cases:
        status = results.get(case.name, "missing")
        expected = NO_CPU_KERNEL.get(case.name)
        if expected is not None and status.startswith("loaded, run failed") and expected in status:
            report["cases"][case.name] = {"file": case.file, "loaded": True, "ran": False, "mindspore_error": expected,
                                          "mindspore_primitives": ms_primitives(os.path.join(FIXTURES, case.file))}
            continue
        if status != "ok":
            failed.append(f"{case.name}: {status}")
            continue
        with np.load(os.path.join(FIXTURES, case.name + ".npz")) as z:
            data = dict(z)
        diff = 0.0
        runs = [("", case.inputs)] + [(f"b{j}_", [data[f"b{j}_in{k}"] for k in range(len(case.inputs))])
                                      for j in range(len(case.batches))]
        for prefix, ins in runs:
            ours = our_outputs(ms, nets[case.name], ins)
            data.update({f"{prefix}ours_out{k:02d}": a for k, a in enumerate(ours)})
            diff = max(diff, max_rel_diff(ours, [data[k] for k in sorted(data) if k.startswith(prefix + "ms_out")]))
        np.savez(os.path.join(FIXTURES, case.name + ".npz"), **data)
        key = case.export.get("enc_key")
        prims = ms_primitives(os.path.join(FIXTURES, case.file), key, case.export.get("enc_mode"))
        report["cases"][case.name] = {"file": case.file, "loaded": True, "ran": True, "max_rel_diff": diff,
                                      "mindspore_primitives": prims}
        if diff > TOLERANCE:
            failed.append(f"{case.name}: our outputs differ from MindSpore's by {diff:.3g}")
    for name, (_, fns) in _op_fns(ms).items():
        if name in report["cases"]:
            for label, _ in fns:
                cases_of = report["table_entries"].setdefault(label.split(".")[0], [])
                if name not in cases_of:
                    cases_of.append(name)
    with open(os.path.join(FIXTURES, "verified.json"), "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
        f.write("\n")
    for case in cases:
        if case.name in report["cases"]:
            entry = report["cases"][case.name]
            print(f"{case.name:18s}", f"max rel diff {entry['max_rel_diff']:.3g}" if entry["ran"] else
                  f"loaded; not run: {entry['mindspore_error']}")
    if failed:
        print("FAILED:\n  " + "\n  ".join(failed))
        return 1
    return 0


def single(ms_python):
    """Every operator of the op cases in a file of its own: which ones does real MindSpore refuse?"""
    import mindspore as ms
    directory = tempfile.mkdtemp(prefix="mindir_single_")
    names, nets, inputs = [], {}, {}
    for case_name, (ins, fns) in _op_fns(ms).items():
        for label, fn in fns:
            case = Case(label, (lambda f: lambda m: op_net(m, [(label, f)]))(fn), ins)
            try:
                nets[label] = export_case(ms, case, directory)
            except Exception as exc:   # noqa: BLE001 - a report of every operator
                print(f"{label:24s} EXPORT FAILED: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
                continue
            np.savez(os.path.join(directory, label + ".npz"), **{f"in{k}": a for k, a in enumerate(ins)})
            names.append(label)
            inputs[label] = ins
    results = run_ms(ms_python, directory, names)
    for label in names:
        status = results.get(label, "missing")
        if status == "ok":
            with np.load(os.path.join(directory, label + ".npz")) as z:
                data = dict(z)
            diff = max_rel_diff(our_outputs(ms, nets[label], inputs[label]),
                                [data[k] for k in sorted(data) if k.startswith("ms_out")])
            status = f"ok {diff:.3g}" if diff <= TOLERANCE else f"DIFF {diff:.3g}"
        print(f"{label:24s} {status}")
    print("files in", directory)
    return 0


# --- phase 2: with real MindSpore -------------------------------------------------------------------------------
def encryption_plaintext():
    return (np.arange(1000) * 7 % 251).astype(np.uint8).tobytes()


def record_ms_references(ms, directory):
    """What MindSpore itself writes, for the tests to compare with: ``ms_small.mindir`` (the ``small`` case's
    network and weights exported by MindSpore), ``ms_small_split_graph.mindir`` and ``ms_small_split_variables/``
    (the ``small_split`` case, weights in external data), and ``ms_encrypted_<mode>.bin`` (MindSpore's
    ``_encrypt`` of :func:`encryption_plaintext` in each mode)."""
    from mindspore._c_expression import _encrypt
    ms.set_context(mode=ms.GRAPH_MODE)
    case = NET_CASES[0]
    net = case.build(ms)
    net.set_train(False)
    target = os.path.join(directory, "ms_small.mindir")
    if os.path.exists(target):
        os.chmod(target, 0o600)
    ms.export(net, ms.Tensor(case.inputs[0]), file_name=os.path.join(directory, "ms_small"), file_format="MINDIR")
    # the small_split case's network, weights and threshold, split by MindSpore's own _split_save
    from mindspore.train import serialization
    split = next(c for c in NET_CASES if c.name == "small_split")
    net = split.build(ms)
    net.set_train(False)
    saved, serialization.TOTAL_SAVE = serialization.TOTAL_SAVE, split.split
    try:
        for name in ("ms_small_split_graph.mindir", os.path.join("ms_small_split_variables", "data_0")):
            if os.path.exists(os.path.join(directory, name)):
                os.chmod(os.path.join(directory, name), 0o600)
        ms.export(net, ms.Tensor(split.inputs[0]), file_name=os.path.join(directory, "ms_small_split"),
                  file_format="MINDIR")
    finally:
        serialization.TOTAL_SAVE = saved
    plain = encryption_plaintext()
    for mode, key in (("AES-GCM", KEY), ("AES-CBC", KEY[:24]), ("SM4-CBC", KEY[:16])):
        with open(os.path.join(directory, f"ms_encrypted_{mode}.bin"), "wb") as f:
            f.write(_encrypt(plain, len(plain), key, len(key), mode))


def load_all(directory, names):
    import mindspore as ms
    from mindspore import nn
    if directory == FIXTURES:
        record_ms_references(ms, directory)
    cases = {c.name: c for c in NET_CASES}
    for name in names:
        case = cases.get(name)
        file = case.file if case is not None else f"{name}.mindir"
        load = case.load if case is not None else {}
        try:
            cell = nn.GraphCell(ms.load(os.path.join(directory, file), **load))
        except Exception as exc:   # noqa: BLE001 - reported per case
            print(f"RESULT {name} load failed: {type(exc).__name__}: {' '.join(str(exc).split())[:300]}", flush=True)
            continue
        try:
            path = os.path.join(directory, name + ".npz")
            with np.load(path) as z:
                data = dict(z)
            data = {k: v for k, v in data.items() if "ms_out" not in k}
            for prefix in [""] + sorted({k.split("_")[0] + "_" for k in data if k.startswith("b")}):
                ins = [data[f"{prefix}in{k}"] for k in range(sum(1 for x in data if x.startswith(prefix + "in")))]
                out = cell(*[ms.Tensor(a) for a in ins])
                outs = out if isinstance(out, (tuple, list)) else (out,)
                for k, o in enumerate(outs):
                    data[f"{prefix}ms_out{k:02d}"] = o.asnumpy()
            np.savez(path, **data)
            print(f"RESULT {name} ok", flush=True)
        except Exception as exc:   # noqa: BLE001 - reported per case
            msg = " ".join(str(exc).split())[:300]
            print(f"RESULT {name} loaded, run failed: {type(exc).__name__}: {msg}", flush=True)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ms-python", default=MS_PYTHON, help="a Python with real MindSpore 2.10")
    parser.add_argument("--load", action="store_true", help="(internal) load and run files with real MindSpore")
    parser.add_argument("--single", action="store_true", help="check every operator in a file of its own")
    parser.add_argument("--dir", default=FIXTURES)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    if args.load:
        return load_all(args.dir, args.names)
    if args.single:
        return single(args.ms_python)
    return verify(args.ms_python)


if __name__ == "__main__":
    sys.exit(main())
