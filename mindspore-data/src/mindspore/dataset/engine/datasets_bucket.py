"""``Dataset.bucket_batch_by_length``: batch rows of similar length together (MindSpore 2.10 semantics).

Each row's length is ``element_length_function(*columns)`` over ``column_names``, or, without a function, the
first dimension of the one named column (0 for a scalar). ``bucket_boundaries`` ``[b0, ..., bn-1]`` make n+1
buckets ``[0, b0), [b0, b1), ..., [bn-1, inf)``; a bucket is batched as soon as it holds its
``bucket_batch_sizes`` entry of rows, and when the input ends the partial buckets follow in bucket order (dropped with
``drop_remainder``). Every column of a batch is padded, as 2.10 pads even without ``pad_info``: the columns
``pad_info`` lists to its shape (None entries: the batch's largest) with its value, the others to the batch's largest
with 0. With ``pad_to_bucket_boundary`` a listed column whose shape is None, or whose first entry is None, has its
first dimension padded to the bucket's upper boundary minus 1, in the batches a full bucket makes (the last bucket,
unbounded, and the partial batches left when the input ends pad to their largest row, as in 2.10).
"""
from __future__ import annotations

import numbers

import numpy as np

from mindspore.dataset.engine.datasets_ops import BatchDataset


def _check_list(value, name, kind):
    if not isinstance(value, kind):
        raise TypeError(f"Argument {name} with value {value} is not of type [{kind}], but got {type(value)}.")


def check_args(column_names, bucket_boundaries, bucket_batch_sizes, element_length_function, pad_info,
               pad_to_bucket_boundary, drop_remainder):
    """2.10's argument checks, in its order and words."""
    for value, name in ((column_names, "column_names"), (bucket_boundaries, "bucket_boundaries"),
                        (bucket_batch_sizes, "bucket_batch_sizes")):
        _check_list(value, name, list)
    for value, name in ((pad_to_bucket_boundary, "pad_to_bucket_boundary"), (drop_remainder, "drop_remainder")):
        _check_list(value, name, bool)
    if not column_names:
        raise ValueError("column_names should not be empty.")
    for col in column_names:
        if not isinstance(col, str):
            raise TypeError(f"column_names should be a list of str, but got {type(col)}.")
    if element_length_function is None and len(column_names) != 1:
        raise ValueError("If element_length_function is not specified, exactly one column name should be passed.")
    if element_length_function is not None and not callable(element_length_function):
        raise TypeError("element_length_function object is not callable.")
    if not bucket_boundaries:
        raise ValueError("bucket_boundaries cannot be empty.")
    if not all(isinstance(b, int) for b in bucket_boundaries):
        raise TypeError("bucket_boundaries should be a list of int.")
    if not all(b > 0 for b in bucket_boundaries):
        raise ValueError("bucket_boundaries must only contain positive numbers.")
    if any(not b > a for a, b in zip(bucket_boundaries, bucket_boundaries[1:])):
        raise ValueError("bucket_boundaries should be strictly increasing.")
    if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
        raise ValueError("bucket_batch_sizes must contain one element more than bucket_boundaries.")
    if not all(isinstance(s, int) for s in bucket_batch_sizes):
        raise TypeError("bucket_batch_sizes should be a list of int.")
    if not all(s > 0 for s in bucket_batch_sizes):
        raise ValueError("bucket_batch_sizes should be a list of positive numbers.")


class BucketBatchByLengthDataset(BatchDataset):
    """The result of :meth:`Dataset.bucket_batch_by_length` (see the module docstring)."""

    def __init__(self, input_dataset, column_names, bucket_boundaries, bucket_batch_sizes,
                 element_length_function=None, pad_info=None, pad_to_bucket_boundary=False, drop_remainder=False):
        check_args(column_names, bucket_boundaries, bucket_batch_sizes, element_length_function, pad_info,
                   pad_to_bucket_boundary, drop_remainder)
        super().__init__(input_dataset, 1, drop_remainder, pad_info=pad_info if pad_info is not None else {})
        self.length_columns = list(column_names)
        self.bucket_boundaries = list(bucket_boundaries)
        self.bucket_batch_sizes = list(bucket_batch_sizes)
        self.element_length_function = element_length_function
        self.pad_to_bucket_boundary = pad_to_bucket_boundary

    def _size_impl(self):
        return None      # counted by a dry run, as 2.10 does

    def _length(self, names, row):
        for col in self.length_columns:
            if col not in names:
                raise RuntimeError(f"Invalid column, column name: {col} does not exist in the dataset columns "
                                   f"{names}.")
        args = [row[names.index(col)] for col in self.length_columns]
        if self.element_length_function is None:
            value = np.asarray(args[0])
            return int(value.shape[0]) if value.ndim else 0
        length = self.element_length_function(*args)
        if not isinstance(length, numbers.Integral) or isinstance(length, bool):
            raise RuntimeError(f"Invalid data, element_length_function must return an int, but got "
                               f"{type(length).__name__}.")
        if length < 0:
            raise RuntimeError(f"Invalid data, element_length_function must return a non-negative int, but got "
                               f"{length}.")
        return int(length)

    def _bucket_pads(self, bucket, at_end):
        """``{column: (shape, value)}`` for a batch of ``bucket``; '*' for the columns pad_info does not list."""
        pads = {"*": (None, None)}
        last = at_end or bucket == len(self.bucket_boundaries)
        for col, (shape, value) in (self.pad_info or {}).items():
            if self.pad_to_bucket_boundary and not last and (shape is None or shape[0] is None):
                shape = ["bound"] + (list(shape[1:]) if shape is not None else [])
            pads[col] = (shape, value)
        return pads

    def _prepare(self, rt):
        names = self.children[0].get_col_names()
        for col in (self.pad_info or {}):
            if col not in names:
                raise RuntimeError(f"Invalid pad_info, column '{col}' doesn't exist in the dataset columns {names}.")
        boundaries = self.bucket_boundaries

        def fn(index, task):
            from mindspore.dataset.engine.datasets_ops import _stack_column
            bucket, rows, at_end = task
            pads = self._bucket_pads(bucket, at_end)
            columns = list(zip(*rows))
            out = []
            for i, (name, col) in enumerate(zip(names, columns)):
                shape, value = pads.get(name, pads["*"])
                if shape is not None and shape and shape[0] == "bound":
                    rest = shape[1:] or [None] * (np.ndim(col[0]) - 1)
                    shape = [boundaries[bucket] - 1] + list(rest)
                out.append(_stack_column(list(col), name, i, (shape, value)))
            return tuple(out)
        rt.add_executor(self, fn, self.num_parallel_workers, False, "batch", self.max_rowsize)

    def _batches(self, rt, pass_idx):
        names = self.children[0].get_col_names()
        rows = self.children[0]._rows(rt)
        buckets = [[] for _ in self.bucket_batch_sizes]
        batch_num = 0
        try:
            for row in rows:
                length = self._length(names, row)
                bucket = sum(1 for b in self.bucket_boundaries if length >= b)
                buckets[bucket].append(row)
                if len(buckets[bucket]) == self.bucket_batch_sizes[bucket]:
                    yield (pass_idx, batch_num), (bucket, buckets[bucket], False), None
                    buckets[bucket] = []
                    batch_num += 1
            if not self.drop_remainder:
                for bucket, held in enumerate(buckets):
                    if held:
                        yield (pass_idx, batch_num), (bucket, held, True), None
                        batch_num += 1
        finally:
            rows.close()
