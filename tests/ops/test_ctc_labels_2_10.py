"""CTCLoss on the label forms the model zoo's CRNN feeds it, against MindSpore 2.10's CPU kernel.

The zoo's CRNN pads every label to ``max_text_length`` with the blank index (``num_classes - 1``). 2.10's kernel
reads a value >= the blank (or a negative one, read unsigned) as the end of that sequence's labels, refuses a label
after it, takes each batch row's labels as the next ``count(row)`` values, and scores an empty label with its own
backward seeding; ours once treated the padding as labels (an infinite loss on every CRNN step). Recorded by
tests/fixtures/zoo_cv/record_ctc_labels.py; gradients are compared within each sequence's length.
"""
import ast
import os

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

FIX = np.load(os.path.join(os.path.dirname(__file__), "..", "fixtures", "zoo_cv", "ctc_labels_2_10.npz"))
NAMES = sorted({k.split(":")[0] for k in FIX.files if ":" in k})


def _args(name):
    return (ms.Tensor(FIX["x"]), ms.Tensor(FIX[f"{name}:idx"]), ms.Tensor(FIX[f"{name}:vals"]),
            ms.Tensor(FIX[f"{name}:seq"]))


def _attrs(name):
    return ast.literal_eval(str(FIX[f"{name}:attrs"]))


@pytest.mark.parametrize("name", NAMES)
def test_ctc_loss_labels_match_2_10(name):
    op = ops.CTCLoss(**_attrs(name))
    if f"{name}:error" in FIX.files:
        with pytest.raises(RuntimeError) as info:
            op(*_args(name))
        assert str(info.value).split("\n")[0] == str(FIX[f"{name}:error"])
        return
    loss, grad = op(*_args(name))
    np.testing.assert_allclose(loss.asnumpy(), FIX[f"{name}:loss"], rtol=2e-6, atol=2e-6)
    g = grad.asnumpy()
    for b, n in enumerate(FIX[f"{name}:seq"]):
        g[n:, b] = 0
    np.testing.assert_allclose(g, FIX[f"{name}:grad"], rtol=1e-5, atol=2e-6)


class _Loss(nn.Cell):
    """The zoo CRNN's loss cell: labels reshaped to one row of values, fixed indices and lengths."""

    def __init__(self, idx, seq):
        super().__init__()
        self.idx, self.seq = ms.Tensor(idx), ms.Tensor(seq)
        self.ctc = ops.CTCLoss(ctc_merge_repeated=True)

    def construct(self, logit, label):
        loss, _ = self.ctc(logit, self.idx, ops.reshape(label, (-1,)), self.seq)
        return loss.sum()


def test_ctc_padded_labels_graph_mode_grad():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Loss(FIX["padded:idx"], FIX["padded:seq"])
        x = ms.Tensor(FIX["x"])
        labels = ms.Tensor(FIX["padded:vals"].reshape(2, 5))
        loss = net(x, labels)
        dx = ms.grad(net)(x, labels)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(loss.asnumpy(), FIX["padded:loss"].sum(), rtol=2e-6)
    np.testing.assert_allclose(dx.asnumpy(), FIX["padded:grad"], rtol=1e-5, atol=2e-6)
