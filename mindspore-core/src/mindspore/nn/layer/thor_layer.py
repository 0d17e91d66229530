"""THOR layers (``DenseThor``, ``Conv2dThor``, ``EmbeddingThor``, ``EmbeddingLookupThor``): the usual layer that,
while its ``thor`` flag is on, also records the two Kronecker factors of its block of the Fisher information
(K-FAC; THOR, Chen et al., "THOR: Trace-based Hardware-driven layer-ORiented Natural Gradient Descent
Computation", AAAI 2021) for :func:`mindspore.nn.thor`:

* ``A`` (input side), the second moment of the layer's inputs, ``x^T x / n`` over the n rows of the batch (for a
  convolution the rows are the im2col patches, ``n = N * H_out * W_out``; for an embedding the diagonal: how often
  each id occurs);
* ``G`` (output side), the second moment of the gradient reaching the layer's output, ``dy^T dy / n``, recorded
  by the backward pass of a small identity Cell placed on the output (its ``bprop`` sees ``dy``).

The factors go to ``requires_grad=False`` Parameters (``matrix_a``/``matrix_g``; ``matrix_a_cov``/
``matrix_g_cov`` with ``a_normalizer``/``g_normalizer`` for the convolution, as MindSpore names them), so the
optimizer finds them with the weight they belong to. With ``thor`` off the layer computes just its output.
"""
from __future__ import annotations

import math

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk
from mindspore.nn.layer.activation import get_activation
from mindspore.nn.layer.conv import Conv2d
from mindspore.nn.layer.embedding import Embedding
from mindspore.nn.layer.embedding_lookup import EmbeddingLookup

__all__ = ["DenseThor", "Conv2dThor", "EmbeddingThor", "EmbeddingLookupThor"]


def _second_moment(rows):
    """``rows^T rows / n`` of a (n, d) matrix, outside differentiation."""
    rows = ops.stop_gradient(rows).astype(mstype.float32)
    return ops.matmul(rows.T, rows) / rows.shape[0]


class _CaptureG(Cell):
    """Identity on the forward pass; its backward records ``dy^T dy / n`` of the output gradient into the owner's
    G factor. Holds the owner's Parameters outside its own parameter list (they are the owner's)."""

    def __init__(self, to_rows, matrix_g, g_normalizer=None):
        super().__init__()
        object.__setattr__(self, "_targets", (matrix_g, g_normalizer))
        object.__setattr__(self, "_to_rows", to_rows)

    def construct(self, y):
        return y

    def bprop(self, y, out, dout):
        rows = self._to_rows(dout)
        matrix_g, g_normalizer = self._targets
        ops.assign(matrix_g, _second_moment(rows))
        if g_normalizer is not None:
            ops.assign(g_normalizer, Tensor([float(rows.shape[0])], mstype.float32))
        return (dout,)


def _rows_2d(t):
    return ops.reshape(t, (-1, t.shape[-1]))


def _rows_nchw(t):
    return ops.reshape(ops.transpose(t, (0, 2, 3, 1)), (-1, t.shape[1]))


class DenseThor(Cell):
    r"""A fully connected layer (:math:`\text{activation}(X W^T + b)`) that records its THOR factors: ``matrix_a``
    (in_channels x in_channels) and ``matrix_g`` (out_channels x out_channels).

    Args:
        in_channels (int): input features.
        out_channels (int): output features.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'normal'``.
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'zeros'``.
        has_bias (bool): Default: ``True``.
        activation (Union[str, Cell, Primitive, None]): Default: ``None``.

    Examples:
        >>> net = nn.DenseThor(3, 4)
        >>> net(ms.Tensor(np.ones((2, 3), np.float32))).shape
        (2, 4)
    """

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True,
                 activation=None):
        super().__init__()
        self.thor = True
        self.in_channels = chk.check_positive_int("DenseThor", "in_channels", in_channels)
        self.out_channels = chk.check_positive_int("DenseThor", "out_channels", out_channels)
        self.has_bias = chk.check_bool("DenseThor", "has_bias", has_bias)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != (out_channels, in_channels):
            raise MSValueError(f"For 'DenseThor', weight init shape error. The dim of 'weight_init' should be equal "
                               f"to 2, and the first dim must be equal to 'out_channels', and the second dim must be "
                               f"equal to 'in_channels'. But got 'weight_init': {weight_init}, 'out_channels': "
                               f"{out_channels}, 'in_channels': {in_channels}.")
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels]), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise MSValueError(f"For 'DenseThor', bias init shape error. The dim of 'bias_init' should be equal "
                                   f"to 1, and the first dim must be equal to 'out_channels'. But got 'bias_init': "
                                   f"{bias_init}, 'out_channels': {out_channels}.")
            self.bias = Parameter(initializer(bias_init, [out_channels]), name="bias")
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        self.activation_flag = self.activation is not None
        self.matrix_a = Parameter(Tensor(np.eye(in_channels, dtype=np.float32)), name="matrix_a", requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.eye(out_channels, dtype=np.float32)), name="matrix_g",
                                  requires_grad=False)
        self.get_g = _CaptureG(_rows_2d, self.matrix_g)

    def construct(self, x):
        if self.thor:
            ops.assign(self.matrix_a, _second_moment(_rows_2d(x)))
        x = ops.matmul(x, self.weight.T)
        if self.thor:
            x = self.get_g(x)
        if self.has_bias:
            x = ops.bias_add(x, self.bias)
        if self.activation_flag:
            x = self.activation(x)
        return x

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s


class Conv2dThor(Conv2d):
    r"""A 2-D convolution (as :class:`mindspore.nn.Conv2d`, NCHW) that records its THOR factors: ``matrix_a_cov``
    over the im2col patches (C_in*kh*kw square), ``matrix_g_cov`` over the output channels, and the row counts
    ``a_normalizer``/``g_normalizer``.

    Examples:
        >>> net = nn.Conv2dThor(1, 2, 3)
        >>> net(ms.Tensor(np.ones((2, 1, 5, 5), np.float32))).shape
        (2, 2, 5, 5)
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init="normal", bias_init="zeros"):
        super().__init__(in_channels, out_channels, kernel_size, stride=stride, pad_mode=pad_mode, padding=padding,
                         dilation=dilation, group=group, has_bias=has_bias, weight_init=weight_init,
                         bias_init=bias_init)
        if group != 1:
            raise MSValueError(f"For 'Conv2dThor', the 'group' must be 1 (THOR needs the whole input of each output "
                               f"channel), but got {group}.")
        self.thor = True
        kh, kw = self.kernel_size
        self.matrix_a_dim = in_channels * kh * kw
        self.matrix_g_dim = out_channels
        self.matrix_a_cov = Parameter(Tensor(np.eye(self.matrix_a_dim, dtype=np.float32)), name="matrix_a_cov",
                                      requires_grad=False)
        self.matrix_g_cov = Parameter(Tensor(np.eye(self.matrix_g_dim, dtype=np.float32)), name="matrix_g_cov",
                                      requires_grad=False)
        self.a_normalizer = Parameter(Tensor(np.ones(1, np.float32)), name="a_normalizer", requires_grad=False)
        self.g_normalizer = Parameter(Tensor(np.ones(1, np.float32)), name="g_normalizer", requires_grad=False)
        self.get_g = _CaptureG(_rows_nchw, self.matrix_g_cov, self.g_normalizer)

    def _pads(self, h, w):
        """(top, bottom, left, right) padding the convolution applies."""
        if self.pad_mode == "valid":
            return (0, 0, 0, 0)
        if self.pad_mode == "pad":
            p = self.padding
            return (p, p, p, p) if isinstance(p, int) else tuple(p)
        out = []
        for size, k, s, d in ((h, self.kernel_size[0], self.stride[0], self.dilation[0]),
                              (w, self.kernel_size[1], self.stride[1], self.dilation[1])):
            total = max((math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size, 0)
            out += [total // 2, total - total // 2]
        return tuple(out)

    def _patches(self, x):
        top, bottom, left, right = self._pads(x.shape[2], x.shape[3])
        x = ops.stop_gradient(x)
        if top or bottom or left or right:
            x = ops.pad(x, (left, right, top, bottom))
        cols = ops.unfold(x, self.kernel_size, dilation=self.dilation, padding=0, stride=self.stride)
        return ops.reshape(ops.transpose(cols, (0, 2, 1)), (-1, cols.shape[1]))   # (N*L, C*kh*kw)

    def construct(self, x):
        if self.thor:
            rows = self._patches(x)
            ops.assign(self.matrix_a_cov, _second_moment(rows))
            ops.assign(self.a_normalizer, Tensor([float(rows.shape[0])], mstype.float32))
        output = self.conv2d(x, self.weight)
        if self.thor:
            output = self.get_g(output)
        if self.has_bias:
            output = self.bias_add(output, self.bias)
        return output


def _id_counts(ids, vocab_size):
    flat = ops.reshape(ops.stop_gradient(ids), (-1,)).astype(mstype.int32)
    return ops.one_hot(flat, vocab_size, Tensor(1.0, mstype.float32), Tensor(0.0, mstype.float32)).sum(0)


class EmbeddingThor(Embedding):
    r"""An embedding table (as :class:`mindspore.nn.Embedding`) that records its THOR factors: ``matrix_a``, how
    often each id occurs in the batch (vocab_size,), and ``matrix_g`` over the embedding features.

    Examples:
        >>> net = nn.EmbeddingThor(10, 3)
        >>> net(ms.Tensor(np.array([[1, 2]], np.int32))).shape
        (1, 2, 3)
    """

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=mstype.float32, padding_idx=None):
        super().__init__(vocab_size, embedding_size, use_one_hot=use_one_hot, embedding_table=embedding_table,
                         dtype=dtype, padding_idx=padding_idx)
        self.thor = True
        self.matrix_a = Parameter(Tensor(np.zeros([vocab_size], np.float32)), name="matrix_a", requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.zeros([embedding_size, embedding_size], np.float32)), name="matrix_g",
                                  requires_grad=False)
        self.get_g = _CaptureG(_rows_2d, self.matrix_g)

    def construct(self, ids):
        if self.thor:
            ops.assign(self.matrix_a, _id_counts(ids, self.vocab_size))
        out = super().construct(ids)
        if self.thor:
            out = self.get_g(out)
        return out


class EmbeddingLookupThor(EmbeddingLookup):
    r"""An embedding lookup (as :class:`mindspore.nn.EmbeddingLookup`) that records its THOR factors, as
    :class:`EmbeddingThor`.

    Examples:
        >>> net = nn.EmbeddingLookupThor(10, 3)
        >>> net(ms.Tensor(np.array([[1, 2]], np.int32))).shape
        (1, 2, 3)
    """

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU", slice_mode="batch_slice",
                 manual_shapes=None, max_norm=None, sparse=True):
        super().__init__(vocab_size, embedding_size, param_init=param_init, target=target, slice_mode=slice_mode,
                         manual_shapes=manual_shapes, max_norm=max_norm, sparse=sparse)
        self.thor = True
        self.matrix_a = Parameter(Tensor(np.zeros([vocab_size], np.float32)), name="matrix_a", requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.zeros([embedding_size, embedding_size], np.float32)), name="matrix_g",
                                  requires_grad=False)
        self.get_g = _CaptureG(_rows_2d, self.matrix_g)

    def construct(self, indices):
        if self.thor:
            ops.assign(self.matrix_a, _id_counts(indices, self.vocab_size))
        out = super().construct(indices)
        if self.thor:
            out = self.get_g(out)
        return out
