"""``mindspore.nn.EmbeddingLookup`` and ``MultiFieldEmbeddingLookup``: rows of an ``embedding_table`` Parameter
picked by index.

MindSpore runs it as a host-side ``EmbeddingLookup`` (``target='CPU'``, sparse gradients) or a device ``Gather``
(``target='DEVICE'``); the ``slice_mode`` / ``manual_shapes`` arguments only say how a model-parallel run splits
the table, and are checked here as there. One process computes the same thing either way: a gather whose
out-of-range indices give zero rows (MindSpore's ``EmbeddingLookup`` with offset 0), then, with ``max_norm``, each
looked-up vector scaled to an L2 norm of at most ``max_norm`` (``ClipByNorm``: ``v * max_norm / max(|v|,
max_norm)``). The gradient with respect to the table is the scatter-add of the output gradient (dense here).
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk

__all__ = ["EmbeddingLookup", "MultiFieldEmbeddingLookup"]

_SLICE_MODES = ("field_slice", "table_row_slice", "table_column_slice", "batch_slice")


class EmbeddingLookup(Cell):
    r"""Looks up rows of a (vocab_size, embedding_size) table.

    Args:
        vocab_size (int): Number of rows.
        embedding_size (int): Length of each row.
        param_init (Union[Tensor, str, Initializer]): The table's initializer. Default ``'normal'``.
        target (str): ``'CPU'`` or ``'DEVICE'``. Default ``'CPU'``.
        slice_mode (str): Model-parallel split of the table (``'batch_slice'``, ``'field_slice'``,
            ``'table_row_slice'``, ``'table_column_slice'``). Default ``'batch_slice'``.
        manual_shapes (tuple): Row counts per device for ``'field_slice'``. Default ``None``.
        max_norm (Union[float, None]): Clip each output vector to this L2 norm. Default ``None``.
        sparse (bool): Sparse gradients (must be ``True`` with ``target='CPU'``). Default ``True``.
        dtype (mindspore.dtype): The table's dtype. Default ``mindspore.float32``.

    Inputs:
        - **input_indices** (Tensor) - int32/int64 indices of any shape.

    Outputs:
        Tensor (\*input_indices.shape, embedding_size).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.EmbeddingLookup(4, 2, param_init='ones')
        >>> net(ms.Tensor(np.array([[1, 0], [3, 5]], np.int32))).asnumpy()[:, :, 0].tolist()
        [[1.0, 1.0], [1.0, 0.0]]
    """

    # the slice_mode names, as class constants (MindSpore 2.10's ``nn.EmbeddingLookup.BATCH_SLICE``...)
    BATCH_SLICE = "batch_slice"
    FIELD_SLICE = "field_slice"
    TABLE_ROW_SLICE = "table_row_slice"
    TABLE_COLUMN_SLICE = "table_column_slice"

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU", slice_mode="batch_slice",
                 manual_shapes=None, max_norm=None, sparse=True, dtype=mstype.float32):
        super().__init__()
        op = type(self).__name__
        self.sparse = chk.check_bool(op, "sparse", sparse)
        self.vocab_size = chk.check_positive_int(op, "vocab_size", vocab_size)
        self.target = chk.check_str(op, "target", target, ("CPU", "DEVICE"))
        if not sparse and target == "CPU":
            raise MSValueError(f"For '{op}', 'sparse' must be True when 'target' is \"CPU\", but got 'sparse': "
                               f"{sparse} and 'target': {target}")
        self.embedding_size = chk.check_positive_int(op, "embedding_size", embedding_size)
        if slice_mode not in _SLICE_MODES:
            raise MSValueError(f"For '{op}', the 'slice_mode' must be in {list(_SLICE_MODES)}, but got "
                               f"\"{slice_mode}\".")
        self.slice_mode = slice_mode
        if manual_shapes is not None:
            if not isinstance(manual_shapes, tuple):
                raise MSTypeError(f"For '{op}', the type of 'manual_shapes' must be tuple(int), but got "
                                  f"{type(manual_shapes).__name__}.")
            for dim in manual_shapes:
                chk.check_positive_int(op, "manual shape dim", dim)
        self.manual_shapes = manual_shapes
        self.embedding_table = Parameter(initializer(param_init, [self.vocab_size, self.embedding_size], dtype=dtype),
                                         name="embedding_table")
        self.max_norm = None
        if max_norm is not None:
            self.max_norm = chk.check_number(op, "max_norm", max_norm, lo=0, lo_inc=False)

    def _lookup(self, indices):
        inside = ops.logical_and(indices >= 0, indices < self.vocab_size)
        safe = ops.select(inside, indices, ops.zeros_like(indices))
        rows = ops.gather(self.embedding_table, safe, 0)
        return rows * inside.expand_dims(-1).astype(rows.dtype)

    def construct(self, indices):
        out = self._lookup(indices)
        if self.max_norm is not None:
            square = (out * out).sum(-1, keepdims=True)
            # zero rows (out-of-range indices) have no norm gradient: keep sqrt away from 0 there
            nonzero = square > 0
            norm = ops.select(nonzero, ops.sqrt(ops.select(nonzero, square, ops.ones_like(square))),
                              ops.zeros_like(square))
            out = out * self.max_norm / ops.maximum(norm, ops.full_like(norm, self.max_norm))
        return out


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    r"""Looks up weighted embeddings and merges them per field (``'SUM'``, ``'MEAN'`` or ``'MAX'``).

    Row ``b`` of the inputs holds ``L`` (index, value, field id) triples; the output (batch, field_size,
    embedding_size) holds, per field, the merge of ``value * table[index]`` over the triples of that field: their
    sum, their sum divided by the sum of ``|value|`` (0 for an empty field), or their maximum, ignoring the triples
    whose value is 0 (0 for an empty field).

    Args:
        vocab_size, embedding_size, param_init, target, max_norm, sparse, dtype: as in :class:`EmbeddingLookup`.
        field_size (int): The number of fields.
        slice_mode (str): ``'batch_slice'``, ``'table_row_slice'`` or ``'table_column_slice'``.
            Default ``'batch_slice'``.
        feature_num_list (tuple): Per-device feature counts (model-parallel only). Default ``None``.
        operator (str): ``'SUM'``, ``'MAX'`` or ``'MEAN'``. Default ``'SUM'``.

    Inputs:
        - **input_indices** (Tensor) - (batch, L) int32/int64.
        - **input_values** (Tensor) - (batch, L) float32 weights.
        - **field_ids** (Tensor) - (batch, L) int32, each in [0, field_size).

    Outputs:
        Tensor (batch, field_size, embedding_size).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.MultiFieldEmbeddingLookup(10, 2, field_size=2, param_init='ones', operator='SUM')
        >>> out = net(ms.Tensor(np.array([[1, 2, 3]], np.int32)), ms.Tensor(np.array([[1.0, 1.0, 0.5]], np.float32)),
        ...           ms.Tensor(np.array([[0, 1, 1]], np.int32)))
        >>> out.asnumpy()[0, :, 0].tolist()
        [1.0, 1.5]
    """

    OPERATOR_SUM = "SUM"
    OPERATOR_MEAN = "MEAN"
    OPERATOR_MAX = "MAX"

    def __init__(self, vocab_size, embedding_size, field_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", feature_num_list=None, max_norm=None, sparse=True, operator="SUM",
                 dtype=mstype.float32):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, feature_num_list, max_norm,
                         sparse, dtype=dtype)
        op = type(self).__name__
        self.field_size = chk.check_positive_int(op, "field_size", field_size)
        self.operator = chk.check_str(op, "operator", operator, ("SUM", "MAX", "MEAN"))
        if slice_mode == "field_slice":
            raise MSValueError(f"For '{op}', the 'slice_mode' must be in ['table_row_slice', 'batch_slice' and "
                               f"'table_column_slice'], but got {slice_mode}.")

    def construct(self, input_indices, input_values, field_ids):
        op = type(self).__name__
        for name, value in (("input_indices", input_indices), ("input_values", input_values),
                            ("field_ids", field_ids)):
            if value.ndim != 2:
                raise MSValueError(f"For '{op}', the dimension of '{name}' must be 2d, but got {value.ndim}")
        if input_indices.dtype not in (mstype.int32, mstype.int64):
            raise MSTypeError(f"For '{op}', the 'input_indices' should be one of [mindspore.int32, mindspore.int64], "
                              f"but got 'mindspore.{str(input_indices.dtype).lower()}'.")
        if input_values.dtype != mstype.float32:
            raise MSTypeError(f"For '{op}', the 'input_values' should be Float32, but got "
                              f"'mindspore.{str(input_values.dtype).lower()}'.")
        if field_ids.dtype != mstype.int32:
            raise MSTypeError(f"For '{op}', the 'field_ids' should be Int32, but got "
                              f"'mindspore.{str(field_ids.dtype).lower()}'.")
        batch = input_indices.shape[0]
        segments = batch * self.field_size
        seg = (field_ids + (ops.arange(batch) * self.field_size).astype(mstype.int32).reshape(batch, 1)).reshape(-1)
        weights = input_values.reshape(-1, 1)
        embedding = (super().construct(input_indices).reshape(-1, self.embedding_size)
                     * weights.astype(self.embedding_table.dtype))
        if self.operator == "MAX":
            present = ops.not_equal(weights, 0)
            lowest = ops.full_like(embedding, -3.402823466e38)
            merged = ops.unsorted_segment_max(ops.select(ops.broadcast_to(present, embedding.shape), embedding,
                                                         lowest), seg, segments)
            count = ops.unsorted_segment_sum(ops.abs(input_values.reshape(-1)), seg, segments).expand_dims(-1)
            merged = ops.select(ops.broadcast_to(count != 0, merged.shape), merged, ops.zeros_like(merged))
        else:
            merged = ops.unsorted_segment_sum(embedding, seg, segments)
            if self.operator == "MEAN":
                count = ops.unsorted_segment_sum(ops.abs(input_values.reshape(-1)), seg, segments).expand_dims(-1)
                safe = ops.select(count != 0, count, ops.ones_like(count))
                merged = ops.select(ops.broadcast_to(count != 0, merged.shape), merged / safe,
                                    ops.zeros_like(merged))
        return merged.reshape(batch, self.field_size, -1)
