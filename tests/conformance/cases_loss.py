"""Conformance cases of the loss family: the fused softmax cross-entropies.

Oracles compute log-softmax the textbook way (shift by the row max, log of the summed exponentials)
in float64 and build the losses and gradients from it.
"""
import numpy as np

import mindspore as ms

from mindspore import ops

from case import Case, rand, randint


def np_log_softmax(x):
    x = x.astype(np.float64)
    m = x.max(axis=1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True))


def np_sce(logits, labels):
    ls = np_log_softmax(logits)
    return -(labels * ls).sum(axis=1), np.exp(ls) - labels


def np_sparse_sce(logits, labels):
    return np.asarray(-np_log_softmax(logits)[np.arange(len(labels)), labels].mean())


def np_sparse_sce_grad(logits, labels):
    onehot = np.eye(logits.shape[1])[labels]
    return (np.exp(np_log_softmax(logits)) - onehot) / logits.shape[0]


LOGITS = rand(6, 5, low=-3, high=3, seed=1)
ONEHOT = np.eye(5)[[0, 3, 1, 4, 4, 2]]
SOFT = rand(6, 5, low=0.0, high=1.0, seed=2)
SOFT = SOFT / SOFT.sum(axis=1, keepdims=True)
LABELS = randint(6, high=5, seed=3)
LABELS64 = randint(6, high=5, seed=4, dtype=np.int64)
BIG = rand(4, 7, low=-50, high=50, seed=5)


def _sce(x, y):
    return ops.SoftmaxCrossEntropyWithLogits()(x, y)


def _sparse(x, labels):
    return ops.SparseSoftmaxCrossEntropyWithLogits()(x, labels)


def _sparse_grad(x, labels):
    return ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=True)(x, labels)


CASES = [
    # the labels get no gradient from the loss (MindSpore 2.10's bprop): the logits' is checked here, the
    # labels' (zeros) by nn.ForwardValueAndGrad's example in tests/api/test_docstring_examples_nn_2_10.py
    Case("softmax_cross_entropy_onehot", _sce, [LOGITS, ONEHOT], oracle=np_sce,
         prims=["SoftmaxCrossEntropyWithLogits"], grad=True, grad_inputs=[0],
         dtypes=(np.float32, np.float64, np.float16)),
    Case("softmax_cross_entropy_soft_labels", _sce, [LOGITS, SOFT], oracle=np_sce,
         prims=["SoftmaxCrossEntropyWithLogits"], grad=True, grad_inputs=[0]),
    Case("softmax_cross_entropy_loss_only", lambda x, y: _sce(x, y)[0], [BIG, np.eye(7)[[0, 6, 3, 2]]],
         oracle=lambda x, y: np_sce(x, y)[0], prims=["SoftmaxCrossEntropyWithLogits"], grad=True, grad_inputs=[0]),
    Case("softmax_cross_entropy_grad_of_grad",
         lambda x, y: ms_grad_of_sce(x, y), [LOGITS, SOFT],
         oracle=lambda x, y: np_sce(x, y)[1] * 1.0, prims=["SoftmaxCrossEntropyWithLogits"], grad=True),
    Case("sparse_softmax_cross_entropy", _sparse, [LOGITS, LABELS], oracle=np_sparse_sce,
         prims=["SparseSoftmaxCrossEntropyWithLogits"], grad=True, dtypes=(np.float32, np.float64, np.float16)),
    Case("sparse_softmax_cross_entropy_int64", _sparse, [BIG, LABELS64[:4]], oracle=np_sparse_sce,
         prims=["SparseSoftmaxCrossEntropyWithLogits"], grad=True),
    Case("sparse_softmax_cross_entropy_is_grad", _sparse_grad, [LOGITS, LABELS], oracle=np_sparse_sce_grad,
         prims=["SparseSoftmaxCrossEntropyWithLogits"], grad=True),
]


def ms_grad_of_sce(x, y):
    """d(sum of the loss)/d(logits) through the bprop; its own gradient exercises grad-of-grad."""
    return ms.grad(lambda a: ops.reduce_sum(_sce(a, y)[0]))(x)
