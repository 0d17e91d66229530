"""Networks and helpers shared by the ONNX export tests: text classifiers on recurrent layers, a layer with
given initial states and sequence lengths, and running an exported model in onnxruntime."""
from __future__ import annotations

import os
import sys

import numpy as np

import mindspore as ms
from mindspore import nn

BENCHMARKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks")


def benchmark_net(name):
    """A network of benchmarks/workloads_mindspore.py, in evaluation mode, with seeded weights."""
    if BENCHMARKS not in sys.path:
        sys.path.insert(0, BENCHMARKS)
    import workloads_mindspore
    net = workloads_mindspore.build(ms, name)
    rng = np.random.default_rng(len(name))
    for p in net.get_parameters():
        if "moving_variance" in p.name:
            p.set_data(ms.Tensor(rng.uniform(0.5, 1.5, p.shape).astype(np.float32)))
        elif "moving_mean" in p.name or "beta" in p.name:
            p.set_data(ms.Tensor(rng.uniform(-0.2, 0.2, p.shape).astype(np.float32)))
    net.set_train(False)
    return net


class TextClassifier(nn.Cell):
    """Embedding -> recurrent layer -> the last step's features -> Dense (``y[:, -1, :]``)."""

    def __init__(self, kind="LSTM", num_layers=1, bidirectional=False, batch_first=True, vocab=50, classes=3):
        super().__init__()
        self.embedding = nn.Embedding(vocab, 8)
        self.rnn = getattr(nn, kind)(8, 6, num_layers=num_layers, bidirectional=bidirectional,
                                     batch_first=batch_first)
        self.fc = nn.Dense(6 * (2 if bidirectional else 1), classes)
        self.batch_first = batch_first

    def construct(self, ids):
        x = self.embedding(ids)
        if self.batch_first:
            y, _ = self.rnn(x)
        else:
            y, _ = self.rnn(x.transpose(1, 0, 2))
            y = y.transpose(1, 0, 2)
        return self.fc(y[:, -1, :])


class StatefulRNN(nn.Cell):
    """A recurrent layer called with initial states and sequence lengths; returns all its outputs."""

    def __init__(self, kind="LSTM", num_layers=2, bidirectional=True, batch_first=False):
        super().__init__()
        self.rnn = getattr(nn, kind)(4, 5, num_layers=num_layers, bidirectional=bidirectional,
                                     batch_first=batch_first)
        self.is_lstm = kind == "LSTM"

    def construct(self, x, h, c, seq):
        if self.is_lstm:
            return self.rnn(x, (h, c), seq)
        return self.rnn(x, h + c, seq)


def ort_session(path):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def run_onnx(path, *arrays):
    """The model's outputs on ``arrays`` (fed to its inputs in order)."""
    sess = ort_session(path)
    feeds = {i.name: a for i, a in zip(sess.get_inputs(), arrays)}
    return sess.run(None, feeds)


def leaves(value):
    """The tensors of a (nested) network output, as NumPy arrays."""
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in leaves(v)]
    return [value.asnumpy()]


def forward(net, arrays, mode):
    """``net`` on ``arrays`` in ``mode`` ('pynative' or 'graph'), the outputs as NumPy arrays."""
    saved = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    try:
        return leaves(net(*[ms.Tensor(a) for a in arrays]))
    finally:
        ms.set_context(mode=saved)


def max_diff(got, want):
    assert len(got) == len(want)
    diffs = []
    for g, w in zip(got, want):
        assert g.shape == w.shape, (g.shape, w.shape)
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        diffs.append(float(np.max(np.abs(g.astype(np.float64) - w.astype(np.float64)))) if g.size else 0.0)
    return max(diffs)
