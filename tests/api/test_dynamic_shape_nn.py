"""The nn layers MindSpore 2.10 lists as supporting dynamic shapes on the CPU (docs: api_python/dynamic_shape_nn.md,
"Dynamic Shape Support Status of nn Interface": every row with a CPU tick) run in GRAPH_MODE with their inputs'
batch dimension, or every dimension, declared unknown through ``Cell.set_inputs``, on two batch sizes, and give what
PYNATIVE gives. nn.Adam, the list's optimizer, trains a network with a dynamic batch."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn

rng = np.random.default_rng(0)


def f(*s):
    return rng.standard_normal(s).astype(np.float32)


def u(*s):
    return rng.uniform(0.05, 0.95, s).astype(np.float32)


def i(hi, *s):
    return rng.integers(0, hi, s).astype(np.int32)


# name: (the layer, its inputs for batch size b)
CASES = {
 "AdaptiveAvgPool1d": (lambda: nn.AdaptiveAvgPool1d(3), lambda b: [f(b, 2, 7)]),
 "AdaptiveAvgPool2d": (lambda: nn.AdaptiveAvgPool2d((2, 3)), lambda b: [f(b, 2, 5, 7)]),
 "AdaptiveAvgPool3d": (lambda: nn.AdaptiveAvgPool3d((2, 2, 3)), lambda b: [f(b, 2, 4, 5, 7)]),
 "AdaptiveMaxPool1d": (lambda: nn.AdaptiveMaxPool1d(3), lambda b: [f(b, 2, 7)]),
 "AvgPool1d": (lambda: nn.AvgPool1d(2, 2), lambda b: [f(b, 2, 8)]),
 "AvgPool2d": (lambda: nn.AvgPool2d(2, 2), lambda b: [f(b, 2, 6, 6)]),
 "AvgPool3d": (lambda: nn.AvgPool3d(2, 2), lambda b: [f(b, 2, 4, 4, 4)]),
 "BatchNorm1d": (lambda: nn.BatchNorm1d(4), lambda b: [f(b, 4)]),
 "BatchNorm2d": (lambda: nn.BatchNorm2d(3), lambda b: [f(b, 3, 4, 4)]),
 "BatchNorm3d": (lambda: nn.BatchNorm3d(3), lambda b: [f(b, 3, 2, 4, 4)]),
 "BCELoss": (lambda: nn.BCELoss(reduction="mean"), lambda b: [u(b, 3), u(b, 3).round()]),
 "BCEWithLogitsLoss": (lambda: nn.BCEWithLogitsLoss(), lambda b: [f(b, 3), u(b, 3).round()]),
 "ConstantPad1d": (lambda: nn.ConstantPad1d((1, 2), 0.5), lambda b: [f(b, 2, 5)]),
 "ConstantPad2d": (lambda: nn.ConstantPad2d((1, 2, 0, 1), 0.5), lambda b: [f(b, 2, 5, 4)]),
 "Conv1d": (lambda: nn.Conv1d(2, 3, 3), lambda b: [f(b, 2, 9)]),
 "Conv1dTranspose": (lambda: nn.Conv1dTranspose(2, 3, 3), lambda b: [f(b, 2, 9)]),
 "Conv2d": (lambda: nn.Conv2d(2, 3, 3), lambda b: [f(b, 2, 6, 6)]),
 "Conv2dTranspose": (lambda: nn.Conv2dTranspose(2, 3, 3), lambda b: [f(b, 2, 5, 5)]),
 "Conv3d": (lambda: nn.Conv3d(2, 3, 3), lambda b: [f(b, 2, 4, 5, 5)]),
 "Conv3dTranspose": (lambda: nn.Conv3dTranspose(2, 3, 3), lambda b: [f(b, 2, 3, 4, 4)]),
 "CosineEmbeddingLoss": (lambda: nn.CosineEmbeddingLoss(),
                         lambda b: [f(b, 4), f(b, 4), np.where(u(b) > .5, 1, -1).astype(np.int32)]),
 "CrossEntropyLoss": (lambda: nn.CrossEntropyLoss(), lambda b: [f(b, 5), i(5, b)]),
 "CTCLoss": (lambda: nn.CTCLoss(),
             lambda b: [np.log(np.full((6, b, 4), .25, np.float32)) + f(6, b, 4) * 0.1, i(3, b, 2) + 1,
                        np.full((b,), 6, np.int32), np.full((b,), 2, np.int32)]),
 "Dense": (lambda: nn.Dense(4, 3), lambda b: [f(b, 4)]),
 "Embedding": (lambda: nn.Embedding(10, 3), lambda b: [i(10, b, 2)]),
 "EmbeddingLookup": (lambda: nn.EmbeddingLookup(10, 3, target="CPU"), lambda b: [i(10, b, 2)]),
 "GLU": (lambda: nn.GLU(), lambda b: [f(b, 4)]),
 "GroupNorm": (lambda: nn.GroupNorm(2, 4), lambda b: [f(b, 4, 3, 3)]),
 "GRU": (lambda: nn.GRU(3, 4, batch_first=True), lambda b: [f(b, 5, 3)]),
 "GRUCell": (lambda: nn.GRUCell(3, 4), lambda b: [f(b, 3), f(b, 4)]),
 "KLDivLoss": (lambda: nn.KLDivLoss(reduction="mean"), lambda b: [np.log(u(b, 3)), u(b, 3)]),
 "L1Loss": (lambda: nn.L1Loss(), lambda b: [f(b, 3), f(b, 3)]),
 "LeakyReLU": (lambda: nn.LeakyReLU(0.1), lambda b: [f(b, 3)]),
 "LRN": (lambda: nn.LRN(), lambda b: [f(b, 4, 3, 3)]),
 "LSTM": (lambda: nn.LSTM(3, 4, batch_first=True), lambda b: [f(b, 5, 3)]),
 "MarginRankingLoss": (lambda: nn.MarginRankingLoss(),
                       lambda b: [f(b, 3), f(b, 3), np.where(u(b, 3) > .5, 1, -1).astype(np.float32)]),
 "MaxPool1d": (lambda: nn.MaxPool1d(2, 2), lambda b: [f(b, 2, 8)]),
 "MaxPool2d": (lambda: nn.MaxPool2d(2, 2), lambda b: [f(b, 2, 6, 6)]),
 "MaxPool3d": (lambda: nn.MaxPool3d(2, 2), lambda b: [f(b, 2, 4, 4, 4)]),
 "MaxUnpool2d": (lambda: nn.MaxUnpool2d(2, 2),
                 lambda b: [f(b, 1, 2, 2), np.tile(np.array([[[[0, 3], [9, 14]]]], np.int64), (b, 1, 1, 1))]),
 "MSELoss": (lambda: nn.MSELoss(), lambda b: [f(b, 3), f(b, 3)]),
 "MultiLabelSoftMarginLoss": (lambda: nn.MultiLabelSoftMarginLoss(), lambda b: [f(b, 3), u(b, 3).round()]),
 "PixelShuffle": (lambda: nn.PixelShuffle(2), lambda b: [f(b, 4, 2, 3)]),
 "ReflectionPad1d": (lambda: nn.ReflectionPad1d((1, 2)), lambda b: [f(b, 2, 5)]),
 "RReLU": (lambda: nn.RReLU(0.2, 0.2), lambda b: [f(b, 3)]),
 "SmoothL1Loss": (lambda: nn.SmoothL1Loss(), lambda b: [f(b, 3), f(b, 3)]),
 "Softmax2d": (lambda: nn.Softmax2d(), lambda b: [f(b, 3, 2, 2)]),
 "SoftmaxCrossEntropyWithLogits": (lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                                   lambda b: [f(b, 5), i(5, b)]),
 "ZeroPad2d": (lambda: nn.ZeroPad2d((1, 2, 0, 1)), lambda b: [f(b, 2, 3, 4)]),
}


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [y for x in out for y in _flat(x)]
    return [out.asnumpy()]


def _run(name, mode, declare=None):
    """The layer's outputs for batch sizes 2 and 3 in ``mode``; ``declare`` ("batch" or "all") the dimensions made
    unknown by ``set_inputs`` before the first call."""
    global rng
    ms.set_context(mode=mode)
    ms.set_seed(0)
    make_layer, make_inputs = CASES[name]
    layer = make_layer()
    layer.set_train(False)
    outs = []
    for b in (2, 3):
        rng = np.random.default_rng(b)
        arrays = make_inputs(b)
        if declare and b == 2:
            specs = []
            for x in arrays:
                shape = list(x.shape)
                if declare == "batch":
                    shape[1 if name == "CTCLoss" and x.ndim == 3 else 0] = None     # CTCLoss: (T, N, C)
                else:
                    shape = [None] * len(shape)
                specs.append(Tensor(shape=shape, dtype=Tensor(x).dtype))
            layer.set_inputs(*specs)
        outs.append(_flat(layer(*[Tensor(x) for x in arrays])))
    return outs


@pytest.fixture
def restore_mode():
    mode = ms.get_context("mode")
    yield
    ms.set_context(mode=mode)


@pytest.mark.parametrize("declare", ["batch", "all"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_layer_with_dynamic_inputs_matches_pynative(name, declare, restore_mode):
    want = _run(name, ms.PYNATIVE_MODE)
    got = _run(name, ms.GRAPH_MODE, declare)
    for g_outs, w_outs in zip(got, want):
        assert len(g_outs) == len(w_outs)
        for g, w in zip(g_outs, w_outs):
            assert g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_adam_trains_with_a_dynamic_batch(restore_mode):
    def train(mode):
        ms.set_context(mode=mode)
        net = nn.Dense(4, 2, weight_init="ones", bias_init="zeros")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Adam(net.trainable_params(), 0.1))
        if mode == ms.GRAPH_MODE:
            step.set_inputs(Tensor(shape=[None, 4], dtype=ms.float32), Tensor(shape=[None, 2], dtype=ms.float32))
        data = np.random.default_rng(0)
        return [float(step(Tensor(data.standard_normal((b, 4)).astype(np.float32)),
                           Tensor(data.standard_normal((b, 2)).astype(np.float32))).asnumpy()) for b in (2, 5, 3)]

    np.testing.assert_allclose(train(ms.GRAPH_MODE), train(ms.PYNATIVE_MODE), rtol=1e-6)
