"""Sources from Python objects: GeneratorDataset (generator functions, iterables, random-access objects) and
NumpySlicesDataset (lists, dicts, tuples of arrays sliced along their first axis).

A random-access source (one with ``__getitem__`` and ``__len__``) is *mappable*: samplers, shuffling and
sharding apply, and with ``num_parallel_workers > 1`` rows are read by worker processes
(``python_multiprocessing=True``, forked with the iterator, so the source needs no pickling) or threads. An
iterable or a generator function is read in order in the pipeline thread; ``num_samples`` keeps its first rows.
Every row is normalised as MindSpore does: a single value is one column, a tuple or list gives one column per
item, Tensors become NumPy arrays, and Python scalars/strings become 0-d arrays.
"""
import builtins
import itertools

import numpy as np

from mindspore.dataset.engine.datasets import (MappableDataset, Schema, _check_workers, _np_dtype, _to_array,
                                               to_list)
from mindspore.dataset.engine.samplers import PKSampler
from mindspore.dataset.engine.workers import annotate_error

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "PaddedDataset"]


def _convert_row(row, names, types):
    if isinstance(row, (np.ndarray, int, float, str, bytes, np.generic)) or hasattr(row, "asnumpy"):
        row = (row,)
    elif isinstance(row, dict):
        row = (row,)
    values = []
    for idx, item in enumerate(row):
        try:
            values.append(_to_array(item))
        except TypeError:
            raise TypeError(f"Data type of {idx + 1}th item of the input or its converted Numpy array is expected "
                            f"to be int or float or str, but got {type(item).__name__}.") from None
    if names and len(values) != len(names):
        raise RuntimeError(f"Invalid Python function, the 'source' of 'GeneratorDataset' should return same number "
                           f"of NumPy arrays as specified in column_names, the size of column_names is:{len(names)} "
                           f"and number of returned NumPy array is:{len(values)} (column_names: {names}).")
    if types:
        values = [v.astype(t, copy=False) if t is not None and isinstance(v, np.ndarray) else v
                  for v, t in builtins.zip(values, types)]
    return tuple(values)


class GeneratorDataset(MappableDataset):
    """A source reading rows from a Python generator function, iterable or random-access object.

    Args:
        source (Union[Callable, Iterable, Random Accessible]): a generator function (called once per epoch), an
            iterable (``iter`` once per epoch) or an object with ``__getitem__`` and ``__len__``.
        column_names (Union[str, list[str]], optional): column names; required unless ``schema`` is given.
        column_types (list[mindspore.dtype], optional): cast each column to these types. Default: None.
        schema (Union[str, Schema], optional): names and types of the columns. Default: None.
        num_samples (int, optional): number of rows to read. Default: None, all.
        num_parallel_workers (int, optional): workers reading a random-access source. Default: 1.
        shuffle (bool, optional): shuffle a random-access source. Default: None (shuffle unless a sampler).
        sampler (Union[Sampler, Iterable], optional): for random-access sources. Default: None.
        num_shards (int, optional): number of shards (random-access sources). Default: None.
        shard_id (int, optional): the shard. Default: None.
        python_multiprocessing (bool, optional): read with processes instead of threads. Default: True.
        max_rowsize (int, optional): MB of the initial shared-memory slots. Default: None (grows as needed).
        batch_sampler, collate_fn: not supported (must be None).

    Raises:
        ValueError: no column names, sampler/sharding on a source without ``__getitem__``, conflicting sampler
            arguments.
        RuntimeError: a row has a different number of columns than ``column_names``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset as ds
        >>> def gen():
        ...     for i in range(4):
        ...         yield np.array([i]), np.array(i * 2)
        >>> data = ds.GeneratorDataset(gen, column_names=["a", "b"])
    """

    def __init__(self, source, column_names=None, column_types=None, schema=None, num_samples=None,
                 num_parallel_workers=1, shuffle=None, sampler=None, num_shards=None, shard_id=None,
                 python_multiprocessing=True, max_rowsize=None, batch_sampler=None, collate_fn=None):
        if batch_sampler is not None or collate_fn is not None:
            raise ValueError("GeneratorDataset: batch_sampler and collate_fn are not supported; use batch().")
        if isinstance(sampler, PKSampler):
            raise ValueError("GeneratorDataset doesn't support PKSampler.")
        if isinstance(source, builtins.zip):
            source = list(source)
        if not (callable(source) or hasattr(source, "__iter__") or hasattr(source, "__getitem__")):
            raise TypeError("Input `source` of GeneratorDataset should be callable, iterable or random accessible, "
                            f"but got {type(source).__name__}.")
        random_access = hasattr(source, "__getitem__")
        if not random_access:
            if sampler is not None:
                raise ValueError("sampler is not supported if source does not have attribute '__getitem__'.")
            if num_shards is not None:
                raise ValueError("num_shards is not supported if source does not have attribute '__getitem__'.")
        _check_workers(num_parallel_workers)
        super().__init__(num_samples=num_samples, num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)
        if isinstance(schema, str):
            schema = Schema(schema)
        if schema is not None and not isinstance(schema, Schema):
            raise TypeError(f"schema must be a Schema or a path to a schema file, but got {type(schema).__name__}.")
        names = to_list(column_names)
        if not names and schema is not None:
            names = schema.get_column_names()
        if not names:
            raise ValueError("Neither columns_names nor schema are provided.")
        for name in names:
            if not isinstance(name, str) or not name:
                raise TypeError(f"column_names must be a list of non-empty str, but got {names}.")
        self.column_names = names
        self.schema = schema
        if column_types is not None:
            self.column_types = [_np_dtype(t) for t in to_list(column_types)]
        elif schema is not None:
            self.column_types = [c["type"] for c in schema.columns]
        else:
            self.column_types = []
        self.source = source
        self.random_access = random_access
        self.source_len = len(source) if hasattr(source, "__len__") else -1
        if random_access and self.source_len == -1:
            raise RuntimeError("Attempt to construct a random access dataset, '__len__' method is required!")
        self.python_multiprocessing = python_multiprocessing
        self.max_rowsize = max_rowsize

    def is_shuffled(self):
        return self.random_access and self.sampler.is_shuffled()

    def is_sharded(self):
        return self.random_access and self.sampler.is_sharded()

    def split(self, sizes, randomize=True):
        if self.random_access:
            return super().split(sizes, randomize)
        return super(MappableDataset, self).split(sizes, randomize)  # pylint: disable=bad-super-call

    # -- random-access source --------------------------------------------------------------------------------
    def _num_rows(self):
        return len(self.source)

    def _get_row(self, index):
        return self.source[index]

    def _read_row(self, index, args):
        try:
            return _convert_row(self.source[args[0]], self.column_names, self.column_types)
        except Exception as exc:
            raise annotate_error(exc, f"\n[GeneratorDataset] raised by the source while reading row {args[0]}.",
                                 user_code=True)

    def _prepare(self, rt):
        if self.random_access:
            workers = self.num_parallel_workers or 1
            rt.add_executor(self, self._read_row, workers, self.python_multiprocessing and workers > 1,
                            "GeneratorDataset", self.max_rowsize)

    # -- iterable source ---------------------------------------------------------------------------------------
    def _size_impl(self):
        if self.random_access:
            return super()._size_impl()
        if self.source_len >= 0:
            return min(self.source_len, self.num_samples) if self.num_samples else self.source_len
        return None

    def _rows(self, rt):
        if self.random_access:
            yield from super()._rows(rt)
            return
        rt.next_pass(self)
        source = self.source() if callable(self.source) and not hasattr(self.source, "__iter__") else self.source
        limit = self.num_samples or None
        count = 0
        rows = iter(source)
        for pos in itertools.count():
            if limit is not None and count >= limit:
                break
            try:
                row = next(rows)
            except StopIteration:
                break
            except Exception as exc:
                raise annotate_error(exc, f"\n[GeneratorDataset] raised on row {pos} of the source.", user_code=True)
            try:
                yield _convert_row(row, self.column_names, self.column_types)
            except Exception as exc:
                raise annotate_error(exc, f"\n[GeneratorDataset] raised on row {pos} of the source.", user_code=True)
            count += 1


class _NumpySlices:
    """Rows of Python data sliced along the first axis of each column."""

    def __init__(self, data, column_names=None):
        self.column_list = None
        if isinstance(data, dict):
            keys = list(data.keys())
            columns = []
            for key in keys:
                value = data[key]
                columns.append(value.values if hasattr(value, "values") and not isinstance(value, dict) else value)
            self.column_list = keys
            data = tuple(columns)
        self.data = data if isinstance(data, tuple) else (data,)
        self.data = tuple(col if isinstance(col, np.ndarray) else list(col) for col in self.data)
        lengths = [len(col) for col in self.data]
        if lengths[1:] != lengths[:-1]:
            raise ValueError("Data length in each column is not equal.")
        if column_names is not None:
            self.column_list = to_list(column_names)
        elif self.column_list is None:
            self.column_list = [f"column_{i}" for i in range(len(self.data))]
        if len(self.column_list) != len(self.data):
            raise ValueError(f"The number of column_names ({len(self.column_list)}) does not match the number of "
                             f"data columns ({len(self.data)}).")

    def __getitem__(self, index):
        return tuple(col[index] for col in self.data)

    def __len__(self):
        return len(self.data[0])


class NumpySlicesDataset(GeneratorDataset):
    """A source slicing Python data along the first axis: a list or array is one column, a tuple gives one column
    per item, a dict one column per key (named after it).

    Args:
        data (Union[list, tuple, dict, numpy.ndarray]): the data.
        column_names (list[str], optional): names. Default: None, the dict keys or ``column_0``, ``column_1``...
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as :class:`GeneratorDataset`.

    Examples:
        >>> import mindspore.dataset as ds
        >>> data = ds.NumpySlicesDataset({"a": [1, 2], "b": [3, 4]}, shuffle=False)
    """

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None):
        if not isinstance(data, (list, tuple, dict, np.ndarray)):
            raise TypeError(f"data of NumpySlicesDataset should be a list, tuple, dict or numpy.ndarray, but got "
                            f"{type(data).__name__}.")
        slices = _NumpySlices(data, column_names)
        super().__init__(slices, column_names=slices.column_list, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle, sampler=sampler,
                         num_shards=num_shards, shard_id=shard_id)


class _Padded:
    def __init__(self, padded_samples):
        self.column_names = list(padded_samples[0].keys())
        self.padded_samples = padded_samples

    def __getitem__(self, item):
        return tuple(self.padded_samples[item][key] for key in self.column_names)

    def __len__(self):
        return len(self.padded_samples)


class PaddedDataset(GeneratorDataset):
    """A source of filler rows given as a list of dicts (used to pad a dataset before sharding).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset as ds
        >>> data = ds.PaddedDataset([{'image': np.zeros(1, np.uint8)}, {'image': np.zeros(2, np.uint8)}])
    """

    def __init__(self, padded_samples):
        if not isinstance(padded_samples, list):
            raise TypeError("padded_samples should be a list of dict.")
        if not padded_samples:
            raise ValueError("padded_samples cannot be empty.")
        if not all(isinstance(s, dict) for s in padded_samples):
            raise TypeError("padded_samples should be a list of dict.")
        source = _Padded(padded_samples)
        super().__init__(source, column_names=source.column_names, shuffle=False)
        self.padded_samples = padded_samples
