"""The Dataset graph: sources, operations (map, batch, shuffle, ...) and the getters over them.

A pipeline is a tree of :class:`Dataset` nodes; each operation returns a new node whose ``children`` are its
inputs (and each child keeps weak references to its ``parent`` nodes, as MindSpore does). Nothing runs until a
getter or an iterator needs rows. Execution is pull-based: every node implements ``_rows(rt)``, a generator
of the rows (tuples of NumPy arrays) of one *pass* (an epoch, or one repetition under ``repeat``), where ``rt``
is the per-iterator runtime (``iterators._Runtime``): the pipeline seed, the key of each node, pass counters
and the parallel executors (``workers.py``) created when the iterator is built. Each iterator builds its own
runtime, so two iterators over one pipeline never share state. As in MindSpore, a node may feed only one
consumer: iterating a pipeline in which some node has two live parents raises ``ValueError("The data pipeline
is not a tree (i.e., one node has 2 consumers)")``.

Column layout rules are MindSpore's (``MapOp::CreateFinalColMap``): when ``len(input_columns) ==
len(output_columns)`` the outputs take the places of the inputs; otherwise the output columns come first,
followed by the untouched columns in their original order. ``input_columns=None`` means the first column.
"""
import copy
import functools
import multiprocessing
import threading
import weakref
from enum import Enum

import numpy as np

from mindspore.dataset import config
from mindspore.dataset.engine import samplers
from mindspore.dataset.engine.workers import annotate_error

__all__ = ["Dataset", "SourceDataset", "MappableDataset", "MapDataset", "BatchDataset", "PaddedBatchDataset",
           "BatchInfo", "ShuffleDataset", "FilterDataset", "RepeatDataset", "SkipDataset", "TakeDataset",
           "ZipDataset", "ConcatDataset", "RenameDataset", "ProjectDataset", "Schema", "Shuffle", "zip", "to_list"]

_OP_NAMES = frozenset(__all__[3:16])


def _ops():
    """The operation nodes live in datasets_ops.py (which imports this module); resolved at call time."""
    from mindspore.dataset.engine import datasets_ops
    return datasets_ops


def __getattr__(name):
    if name in _OP_NAMES:
        return getattr(_ops(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

INT32_MAX = 2147483647
_builtin_zip = zip


class Shuffle(str, Enum):
    """Shuffle modes of file-based sources: GLOBAL (files and rows), FILES (file order), INFILE (rows in files)."""
    GLOBAL = "global"
    FILES = "files"
    INFILE = "infile"


def to_list(items):
    """None → [], a tuple → a list, a single item → [item]."""
    if items is None:
        return []
    if isinstance(items, tuple):
        return list(items)
    if not isinstance(items, list):
        return [items]
    return items


def _check_columns_arg(value, name):
    value = to_list(value)
    for col in value:
        if not isinstance(col, str):
            raise TypeError(f"Argument {name}[{col!r}] with value {col!r} is not of type [<class 'str'>], "
                            f"but got {type(col)}.")
        if not col:
            raise ValueError(f"{name} must not contain an empty string.")
    if len(set(value)) != len(value):
        raise ValueError(f"{name} has duplicate column names: {value}.")
    return value


def _check_int(value, name, low, high=INT32_MAX):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'int'>], but got "
                        f"{type(value)}.")
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}].")


def _check_workers(num_parallel_workers):
    """MindSpore's check of an operation's ``num_parallel_workers``: an int from 1 to the host's CPU count (a script
    asking for more workers than the host has CPUs is refused, as 2.10 refuses it)."""
    if num_parallel_workers is None:
        return
    if isinstance(num_parallel_workers, bool):
        raise TypeError(f"Argument num_parallel_workers with value {num_parallel_workers} is not of type "
                        f"(<class 'int'>,), but got <class 'bool'>.")
    if not isinstance(num_parallel_workers, int):
        raise TypeError(f"Argument num_parallel_workers with value {num_parallel_workers} is not of type "
                        f"[<class 'int'>], but got {type(num_parallel_workers)}.")
    cpus = multiprocessing.cpu_count()
    if not 1 <= num_parallel_workers <= cpus:
        raise ValueError(f"num_parallel_workers exceeds the boundary between 1 and {cpus}!")


def _op_name(op):
    return getattr(op, "__name__", None) or type(op).__name__


def _to_array(value):
    """A column value as MindSpore keeps it: a NumPy array (PIL images and scalars converted), or a dict."""
    if isinstance(value, np.ndarray) or isinstance(value, dict):
        return value
    if hasattr(value, "asnumpy"):
        return value.asnumpy()
    if hasattr(value, "getbands"):           # a PIL image left by the last transform
        return np.asarray(value)
    arr = np.asarray(value)
    if arr.dtype == object:
        raise TypeError(f"Data type of the column is expected to be int, float, bool, str or bytes, but got "
                        f"{type(value).__name__} that converts to an object array.")
    return arr


def _layout(names, in_cols, out_cols):
    """MindSpore's column layout after an operation replacing ``in_cols`` by ``out_cols``."""
    if len(in_cols) == len(out_cols):
        result = list(names)
        for src, dst in _builtin_zip(in_cols, out_cols):
            result[names.index(src)] = dst
    else:
        result = list(out_cols) + [n for n in names if n not in in_cols]
    if len(set(result)) != len(result):
        raise RuntimeError(f"Invalid columns, the output columns {out_cols} clash with the columns {names} kept "
                           f"from the input.")
    return result


def _assemble(row, names, in_cols, outputs):
    """The output row: ``outputs`` (for ``in_cols``) merged with ``row`` according to :func:`_layout`."""
    if len(in_cols) == len(outputs):
        result = list(row)
        for name, value in _builtin_zip(in_cols, outputs):
            result[names.index(name)] = value
        return tuple(result)
    kept = tuple(v for n, v in _builtin_zip(names, row) if n not in in_cols)
    return tuple(outputs) + kept


class Dataset:
    """Base class of every node of a data pipeline (sources and operations).

    Args:
        children (Union[Dataset, list[Dataset]], optional): input nodes.
        num_parallel_workers (int, optional): workers of this node. Default: None, the configured number.
        cache (DatasetCache, optional): accepted for compatibility (no cache server here).
    """

    def __init_subclass__(cls, **kwargs):
        """Record the arguments each node is built with (for :func:`mindspore.dataset.serialize`)."""
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return

        @functools.wraps(init)
        def recording_init(self, *args, **kw):
            if "_init_args" not in self.__dict__:
                self.__dict__["_init_args"] = (cls, args, kw)
            init(self, *args, **kw)

        cls.__init__ = recording_init

    def to_json(self, filename=""):
        """The pipeline serialized (see :func:`mindspore.dataset.serialize`), written to `filename` if given."""
        from mindspore.dataset.engine.serializer import serialize
        return serialize(self, filename)

    def __init__(self, children=None, num_parallel_workers=None, cache=None):
        _check_workers(num_parallel_workers)
        self.children = to_list(children)
        self.parent = []
        for child in self.children:
            child.parent.append(weakref.ref(self))
        self.num_parallel_workers = num_parallel_workers
        self.cache = cache
        self.dataset_size = None
        self._col_names = None
        self.saved_output_types = None
        self.saved_output_shapes = None
        self._input_indexs = ()

    def __deepcopy__(self, memodict):
        if id(self) in memodict:
            return memodict[id(self)]
        new = copy.copy(self)
        memodict[id(self)] = new
        new.parent = []
        new.children = [copy.deepcopy(child, memodict) for child in self.children]
        for child in new.children:
            child.parent.append(weakref.ref(new))
        if getattr(self, "sampler", None) is not None:
            try:
                new.sampler = copy.deepcopy(self.sampler, memodict)
            except (TypeError, copy.Error):
                new.sampler = self.sampler
        return new

    def __add__(self, datasets):
        return self.concat(datasets)

    def __iter__(self):
        return self.create_tuple_iterator(num_epochs=1)

    def _live_parents(self):
        return sum(1 for ref in self.parent if ref() is not None)

    # -- operations ---------------------------------------------------------------------------------------------
    def map(self, operations, input_columns=None, output_columns=None, num_parallel_workers=None, **kwargs):
        """Apply ``operations`` in order to ``input_columns`` of every row.

        Args:
            operations (Union[callable, list[callable]]): transforms or Python callables; each gets the previous
                one's outputs as positional arguments (NumPy arrays, or PIL images) and returns one value or a
                tuple.
            input_columns (Union[str, list[str]], optional): inputs of the first operation. Default: None, the
                first column.
            output_columns (Union[str, list[str]], optional): names of the last operation's outputs. Default:
                None, the input names (required when the number of columns changes).
            num_parallel_workers (int, optional): parallel workers. Default: None, the configured number.
            **kwargs: ``python_multiprocessing`` (bool, worker processes instead of threads, default False),
                ``max_rowsize`` (int, MB of the initial shared-memory slots), ``column_order`` (list, the columns
                to keep afterwards, in order: MindSpore 1.x code), ``cache``, ``callbacks``, ``offload``
                (bool: the trailing supported operations run on the iterator's batches on the device; see
                ``mindspore/dataset/engine/offload.py``).

        Returns:
            MapDataset, the mapped dataset.

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset([1, 2, 3], column_names=["x"], shuffle=False)
            >>> data = data.map(lambda x: x * 2, input_columns=["x"])
        """
        column_order = kwargs.pop("column_order", None)
        mapped = _ops().MapDataset(self, operations, input_columns, output_columns, num_parallel_workers, **kwargs)
        return mapped.project(column_order) if column_order is not None else mapped

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        """Combine ``batch_size`` consecutive rows into one (each column stacked along a new first axis).

        Args:
            batch_size (Union[int, callable]): rows per batch, or a function of :class:`BatchInfo` giving it.
            drop_remainder (bool, optional): drop a last batch with fewer rows. Default: False.
            num_parallel_workers (int, optional): parallel workers. Default: None, the configured number.
            **kwargs: ``per_batch_map`` (callable taking one list of rows per input column plus a
                :class:`BatchInfo`, returning a tuple of lists), ``input_columns``, ``output_columns``,
                ``python_multiprocessing``, ``max_rowsize``, ``pad_info`` (as :meth:`padded_batch`), ``column_order``
                (the columns to keep afterwards, in order).

        Returns:
            BatchDataset, the batched dataset.

        Raises:
            RuntimeError: rows of one batch have different shapes (without padding).

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset(list(range(10)), shuffle=False).batch(4, drop_remainder=True)
        """
        column_order = kwargs.pop("column_order", None)
        batched = _ops().BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, **kwargs)
        return batched.project(column_order) if column_order is not None else batched

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes, element_length_function=None,
                               pad_info=None, pad_to_bucket_boundary=False, drop_remainder=False):
        """Batch rows of similar length: each row goes to the bucket its length falls in (``bucket_boundaries``
        ``[b0, ..., bn-1]``: ``[0, b0)``, ..., ``[bn-1, inf)``), and a bucket holding its ``bucket_batch_sizes``
        entry of rows becomes one padded batch. See ``mindspore/dataset/engine/datasets_bucket.py``.

        Args:
            column_names (list[str]): the columns ``element_length_function`` takes.
            bucket_boundaries (list[int]): strictly increasing positive upper boundaries.
            bucket_batch_sizes (list[int]): one batch size per bucket (``len(bucket_boundaries) + 1``).
            element_length_function (Callable, optional): the length of a row from its ``column_names`` values.
                Default: None, the first dimension of the one column named (0 for a scalar).
            pad_info (dict, optional): ``{column: (shape, pad_value)}``; other columns pad to the batch's largest
                row with 0. Default: None.
            pad_to_bucket_boundary (bool, optional): pad the None first dimension of the ``pad_info`` columns to the
                bucket's boundary minus 1. Default: False.
            drop_remainder (bool, optional): drop each bucket's last, partial batch. Default: False.

        Returns:
            Dataset, the batched dataset.

        Examples:
            >>> import numpy as np
            >>> import mindspore.dataset as ds
            >>> data = ds.GeneratorDataset([(np.ones(n),) for n in (1, 4, 2, 5)], ["x"], shuffle=False)
            >>> data = data.bucket_batch_by_length(["x"], [3], [2, 2])
            >>> [x.shape for x, in data.create_tuple_iterator(output_numpy=True)]
            [(2, 2), (2, 5)]
        """
        from mindspore.dataset.engine.datasets_bucket import BucketBatchByLengthDataset
        return BucketBatchByLengthDataset(self, column_names, bucket_boundaries, bucket_batch_sizes,
                                          element_length_function, pad_info, pad_to_bucket_boundary, drop_remainder)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, pad_info=None):
        """Batch rows, padding them first to a common shape.

        Args:
            batch_size (Union[int, callable]): rows per batch, or a function of :class:`BatchInfo`.
            drop_remainder (bool, optional): drop a last batch with fewer rows. Default: False.
            num_parallel_workers (int, optional): parallel workers. Default: None.
            pad_info (dict, optional): ``{column: (shape, pad_value)}``; ``shape`` None (or None entries) pads to
                the largest row of the batch, ``pad_value`` None pads with 0. An empty dict pads every column;
                otherwise only the listed ones. Default: None, no padding.

        Returns:
            PaddedBatchDataset, the batched dataset.

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.GeneratorDataset([(np.ones(i),) for i in range(1, 4)], ["x"], shuffle=False)
            >>> data = data.padded_batch(3, pad_info={"x": ([None], -1)})
        """
        return _ops().PaddedBatchDataset(self, batch_size, drop_remainder, num_parallel_workers, pad_info)

    def shuffle(self, buffer_size):
        """Shuffle rows through a buffer of ``buffer_size`` rows (reshuffled every epoch).

        Fill the buffer with the first rows; then repeatedly emit a random row of the buffer and put the next
        input row in its place; finally drain the buffer in random order. ``buffer_size`` at least the dataset
        size gives a global shuffle. The seed is ``config.get_seed()`` (a fresh one per run when unset).

        Args:
            buffer_size (int): size of the buffer, in [2, 2147483647].

        Returns:
            ShuffleDataset, the shuffled dataset.

        Examples:
            >>> import mindspore.dataset as ds
            >>> ds.config.set_seed(58)
            >>> data = ds.NumpySlicesDataset(list(range(10)), shuffle=False).shuffle(4)
        """
        return _ops().ShuffleDataset(self, buffer_size)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        """Keep the rows for which ``predicate(*input_columns)`` is true.

        Args:
            predicate (callable): returns a boolean.
            input_columns (Union[str, list[str]], optional): its arguments. Default: None, all columns.
            num_parallel_workers (int, optional): parallel workers. Default: None.

        Returns:
            FilterDataset, the filtered dataset.

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset(list(range(10)), ["x"], shuffle=False)
            >>> data = data.filter(lambda x: x < 5, input_columns=["x"])
        """
        return _ops().FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def repeat(self, count=None):
        """Repeat the dataset ``count`` times (None or -1: forever); a batch after repeat spans epochs.

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset([1, 2], shuffle=False).repeat(3)
        """
        return _ops().RepeatDataset(self, count)

    def skip(self, count):
        """Skip the first ``count`` rows.

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).skip(1)
        """
        return _ops().SkipDataset(self, count)

    def take(self, count=-1):
        """Keep at most the first ``count`` rows (-1: all).

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).take(2)
        """
        return _ops().TakeDataset(self, count)

    def sync_wait(self, condition_name, num_batch=1, callback=None):
        """Hold rows back until :meth:`sync_update` lets them through: ``num_batch`` rows (batches when a ``batch``
        follows) pass at first and after each update; ``callback(data)`` runs on each update.

        Rows wait in the pipeline's own thread; a row that waits longer than ``config.get_callback_timeout()``
        seconds disables the condition (with a warning), as in MindSpore.

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).sync_wait("policy")
            >>> for i, row in enumerate(data.create_tuple_iterator(num_epochs=1)):
            ...     data.sync_update("policy", data={"step": i})
        """
        if not isinstance(condition_name, str):
            raise TypeError(f"Argument condition_name with value {condition_name} is not of type [<class 'str'>], "
                            f"but got {type(condition_name)}.")
        if not isinstance(num_batch, int) or isinstance(num_batch, bool):
            raise TypeError(f"Argument num_batch with value {num_batch} is not of type [<class 'int'>], but got "
                            f"{type(num_batch)}.")
        return _ops().SyncWaitDataset(self, condition_name, num_batch, callback)

    def sync_update(self, condition_name, num_batch=None, data=None):
        """Let ``num_batch`` more batches (default: the ``num_batch`` of its :meth:`sync_wait`) through the
        condition ``condition_name`` after calling its callback with ``data``. A bad call disables every
        condition of the pipeline before raising, so the pipeline cannot hang on it."""
        if (num_batch is not None and not isinstance(num_batch, int)) or (
                isinstance(num_batch, int) and num_batch <= 0):
            self._disable_sync()
            raise RuntimeError(f"Sync_update batch size can only be positive integer, got: {num_batch}.")
        conditions = self._sync_conditions()
        if not isinstance(condition_name, str):
            raise TypeError(f"Argument condition_name with value {condition_name} is not of type str, "
                            f"but got {type(condition_name)}.")
        if condition_name not in conditions:
            self._disable_sync()
            raise RuntimeError("Condition name not found.")
        if num_batch is not None:
            num_batch *= self.get_batch_size()
        conditions[condition_name].release(num_batch, data)

    def _sync_conditions(self):
        """The sync_wait conditions of this pipeline, by name."""
        found = {}
        for child in self.children:
            found.update(child._sync_conditions())
        return found

    def _disable_sync(self):
        for condition in self._sync_conditions().values():
            condition.disable()

    def zip(self, datasets):
        """Join rows side by side with ``datasets`` (column names must differ); stops at the shortest.

        Examples:
            >>> import mindspore.dataset as ds
            >>> a = ds.NumpySlicesDataset([1, 2], ["a"], shuffle=False)
            >>> b = ds.NumpySlicesDataset([3, 4], ["b"], shuffle=False)
            >>> data = a.zip(b)
        """
        if isinstance(datasets, tuple):
            datasets = (self, *datasets)
        elif isinstance(datasets, Dataset):
            datasets = (self, datasets)
        else:
            raise TypeError(f"Invalid datasets, expected Dataset object or tuple of Dataset, but got {datasets}!")
        return _ops().ZipDataset(datasets)

    def concat(self, datasets):
        """Rows of this dataset followed by those of ``datasets`` (same columns); also ``a + b``.

        Examples:
            >>> import mindspore.dataset as ds
            >>> a = ds.NumpySlicesDataset([1, 2], ["x"], shuffle=False)
            >>> b = ds.NumpySlicesDataset([3], ["x"], shuffle=False)
            >>> data = a + b
        """
        if isinstance(datasets, Dataset):
            datasets = [self, datasets]
        elif isinstance(datasets, list):
            datasets = [self] + datasets
        else:
            raise TypeError(f"Invalid datasets, expected Dataset object or list of Dataset, but got {datasets}!")
        return _ops().ConcatDataset(datasets)

    def rename(self, input_columns, output_columns):
        """Rename ``input_columns`` to ``output_columns``.

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset([1, 2], ["x"], shuffle=False).rename("x", "y")
        """
        return _ops().RenameDataset(self, input_columns, output_columns)

    def project(self, columns):
        """Keep only ``columns``, in the given order.

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset({"a": [1], "b": [2]}, shuffle=False).project(["b"])
        """
        return _ops().ProjectDataset(self, columns)

    def apply(self, apply_func):
        """Return ``apply_func(self)``, which must be a Dataset."""
        if not callable(apply_func):
            raise TypeError("apply_func must be a function.")
        dataset = apply_func(self)
        if not isinstance(dataset, Dataset):
            raise TypeError("apply_func must return a dataset.")
        return dataset

    def flat_map(self, func):
        """Concatenate the datasets ``func(*row)`` returns for every row."""
        if not callable(func):
            raise TypeError("func must be a function.")
        dataset = None
        for row in self.create_tuple_iterator(num_epochs=1, output_numpy=True):
            part = func(*row)
            if not isinstance(part, Dataset):
                raise TypeError("flat_map must return a Dataset object.")
            dataset = part if dataset is None else dataset + part
        if dataset is None:
            raise ValueError("flat_map got an empty dataset.")
        return dataset

    def split(self, sizes, randomize=True):
        """Split into non-overlapping datasets of the given sizes (ints summing to the size, or fractions).

        Float sizes are rounded; a shortfall goes to the first split, an excess is taken from the first split
        that keeps at least one row. ``randomize`` shuffles the rows before splitting (the same permutation for
        every split, and for every epoch).

        Returns:
            tuple[Dataset], the splits.

        Raises:
            RuntimeError: the size is unknown or wrong, a split would be empty, or the dataset is sharded.
            ValueError: fractions outside (0, 1] or not summing to 1.

        Examples:
            >>> import mindspore.dataset as ds
            >>> train, test = ds.NumpySlicesDataset(list(range(10)), shuffle=False).split([0.8, 0.2])
        """
        self._check_split(sizes)
        absolute = self._get_absolute_split_sizes(sizes)
        seed = config._pipeline_seed()
        splits, skipped = [], 0
        for size in absolute:
            data = copy.deepcopy(self)
            if randomize:
                data = data.shuffle(10000)
                data.reshuffle_each_epoch = False
                data._fixed_seed = seed
            if skipped:
                data = data.skip(skipped)
            splits.append(data.take(size))
            skipped += size
        return tuple(splits)

    def _check_split(self, sizes):
        if not isinstance(sizes, list) or not sizes:
            raise TypeError(f"sizes must be a non-empty list of int or float, but got {sizes!r}.")
        if all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
            if any(s <= 0 for s in sizes):
                raise ValueError(f"sizes must be positive integers, but got {sizes}.")
        elif all(isinstance(s, float) for s in sizes):
            if any(not 0 < s <= 1 for s in sizes):
                raise ValueError(f"Each float in sizes must be in (0, 1], but got {sizes}.")
            if abs(sum(sizes) - 1) > 1e-6:
                raise ValueError(f"Sum of split sizes {sum(sizes)} is not equal to 1.")
        else:
            raise TypeError(f"sizes must be all int or all float, but got {sizes}.")
        if self.is_sharded():
            raise RuntimeError("Dataset should not be sharded before split.")

    def _get_absolute_split_sizes(self, sizes):
        dataset_size = self.get_dataset_size()
        if dataset_size is None or dataset_size <= 0:
            raise RuntimeError("dataset_size is unknown, unable to split.")
        if all(isinstance(s, int) for s in sizes):
            if sum(sizes) != dataset_size:
                raise RuntimeError(f"Sum of split sizes {sum(sizes)} is not equal to dataset size {dataset_size}.")
            return sizes
        absolute = []
        for item in sizes:
            size = int(round(item * dataset_size))
            if size == 0:
                raise RuntimeError(f"Split percentage {item} is too small.")
            absolute.append(size)
        difference = dataset_size - sum(absolute)
        if difference > 0:
            absolute[0] += difference
        elif difference < 0:
            for i, size in enumerate(absolute):
                if size + difference > 0:
                    absolute[i] += difference
                    break
        if sum(absolute) != dataset_size:
            raise RuntimeError(f"Sum of calculated split sizes {sum(absolute)} is not equal to dataset size "
                               f"{dataset_size}.")
        return absolute

    # -- iterators ------------------------------------------------------------------------------------------------
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        """An iterator over the rows as lists (of ``mindspore.Tensor``, or NumPy arrays with ``output_numpy``).

        Each ``for`` loop over the iterator is one epoch; it can be looped over ``num_epochs`` times (-1: no
        limit). Rows are prefetched by a background thread (``config.get_prefetch_size()`` of them).

        Args:
            columns (list[str], optional): the columns to return, in this order. Default: None, all.
            num_epochs (int, optional): number of epochs. Default: -1.
            output_numpy (bool, optional): return NumPy arrays. Default: False.
            do_copy (bool, optional): copy arrays into new Tensors instead of sharing memory. Default: False.

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
            >>> for row in data.create_tuple_iterator(output_numpy=True):
            ...     pass
        """
        from mindspore.dataset.engine.iterators import TupleIterator
        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False):
        """An iterator over the rows as dicts ``{column: value}`` (see :meth:`create_tuple_iterator`).

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset({"a": [1, 2]}, shuffle=False)
            >>> rows = [r["a"] for r in data.create_dict_iterator(output_numpy=True)]
        """
        from mindspore.dataset.engine.iterators import DictIterator
        return DictIterator(self, num_epochs, output_numpy, do_copy)

    def save(self, file_name, num_files=1, file_type='mindrecord'):
        """Write every row of one pass into MindRecord file(s) (read back with ``MindDataset``).

        Args:
            file_name (str): the file (with ``num_files > 1``: ``file_name0`` ...).
            num_files (int, optional): number of files. Default: ``1``.
            file_type (str, optional): only ``'mindrecord'``. Default: ``'mindrecord'``.

        Examples:
            >>> import mindspore.dataset as ds
            >>> data = ds.NumpySlicesDataset([1, 2, 3], column_names=["x"], shuffle=False)
            >>> data.save("/tmp/x.mindrecord")  # doctest: +SKIP
        """
        from mindspore.dataset.engine.datasets_mindrecord import save_dataset
        save_dataset(self, file_name, num_files, file_type)

    # -- getters -----------------------------------------------------------------------------------------------------
    def get_col_names(self):
        """The names of the columns of the rows this dataset yields."""
        if self._col_names is None:
            self._col_names = list(self._col_names_impl())
        return list(self._col_names)

    def set_init_step(self, init_step):
        """Start the next iterators of this pipeline at global step ``init_step`` (counted over epochs, in rows of
        this dataset): they skip ``init_step // dataset_size`` epochs and ``init_step % dataset_size`` rows, as
        MindSpore 2.10's failover reset does; ``Model.train`` sets it when resuming from ``initial_epoch``."""
        self._global_step = init_step

    def get_init_step(self):
        """The step set by :meth:`set_init_step` on this dataset, else its only input's, else 0."""
        step = self.__dict__.get("_global_step")
        if step is not None:
            return step
        if len(self.children) == 1:
            return self.children[0].get_init_step()
        return 0

    def get_dataset_size(self):
        """The number of rows (batches, after ``batch``) of one epoch; counted by a dry run when it cannot be
        derived (``filter``, generators without ``__len__``); -1 for an infinite ``repeat``."""
        if self.dataset_size is None:
            size = self._size_impl()
            if size is None:
                size = sum(1 for _ in self._one_pass())
            self.dataset_size = size
        return self.dataset_size

    def output_shapes(self, estimate=False):
        """The shapes of the columns of the first row (``estimate=True``: over all rows, None where they vary)."""
        if not estimate and self.saved_output_shapes is not None:
            return self.saved_output_shapes
        rows = self._one_pass()
        try:
            first = next(rows)
        except StopIteration:
            raise RuntimeError("Cannot get the output shapes: the dataset has no rows.") from None
        shapes = [list(np.shape(col)) for col in first]
        if estimate:
            for row in rows:
                for i, col in enumerate(row):
                    shape = list(np.shape(col))
                    if len(shape) != len(shapes[i]):
                        shapes[i] = [None] * max(len(shape), len(shapes[i]))
                    shapes[i] = [a if a == b else None for a, b in _builtin_zip(shapes[i], shape)]
            return shapes
        rows.close()
        self.saved_output_shapes = shapes
        return shapes

    def output_types(self):
        """The NumPy dtypes of the columns of the first row."""
        if self.saved_output_types is None:
            rows = self._one_pass()
            try:
                first = next(rows)
            except StopIteration:
                raise RuntimeError("Cannot get the output types: the dataset has no rows.") from None
            rows.close()
            self.saved_output_types = [np.asarray(col).dtype if not isinstance(col, dict) else np.dtype(object)
                                       for col in first]
        return self.saved_output_types

    def get_batch_size(self):
        """The batch size of the last ``batch`` of the pipeline (1 without one)."""
        node = self
        while node is not None:
            if isinstance(node, _ops().BatchDataset):
                return node.batch_size
            node = node.children[0] if node.children else None
        return 1

    def get_repeat_count(self):
        """The count of the last ``repeat`` of the pipeline (1 without one, -1 forever)."""
        node = self
        while node is not None:
            if isinstance(node, _ops().RepeatDataset):
                return node.count
            node = node.children[0] if node.children else None
        return 1

    def get_class_indexing(self):
        """The ``{class name: label}`` map of the source (empty when it has none)."""
        return self.children[0].get_class_indexing() if self.children else {}

    def num_classes(self):
        """The number of classes of the source, or None."""
        indexing = self.get_class_indexing()
        return len(indexing) if indexing else None

    def reset(self):
        """Reset the dataset for the next epoch. Every iterator owns its state here, so there is nothing to do."""

    def close_pool(self):
        """Kept for compatibility: worker pools belong to iterators and close with them."""

    def is_shuffled(self):
        """Whether this dataset or an input shuffles its rows."""
        return any(child.is_shuffled() for child in self.children)

    def is_sharded(self):
        """Whether this dataset or an input reads only a shard."""
        return any(child.is_sharded() for child in self.children)

    @property
    def input_indexs(self):
        """The column order fed to the network in sink mode (MindSpore's attribute name)."""
        if self._input_indexs != ():
            return self._input_indexs
        for child in self.children:
            if child.input_indexs != ():
                return child.input_indexs
        return self._input_indexs

    @input_indexs.setter
    def input_indexs(self, value):
        self._input_indexs = value

    # -- engine hooks -----------------------------------------------------------------------------------------------
    def _one_pass(self):
        """The rows of one pass, computed in the calling thread (getters); cleans up when closed."""
        from mindspore.dataset.engine.iterators import _Runtime
        runtime = _Runtime(self, inline=True)
        try:
            yield from self._rows(runtime)
        finally:
            runtime.close()

    def _col_names_impl(self):
        return self.children[0].get_col_names()

    def _size_impl(self):
        return self.children[0].get_dataset_size()

    def _prepare(self, rt):
        """Create this node's executors (called once per iterator, in the thread that creates it)."""

    def _rows(self, rt):
        raise NotImplementedError(f"{type(self).__name__} must implement _rows.")


def zip(datasets):  # pylint: disable=redefined-builtin
    """Zip a tuple of datasets into one whose rows join theirs side by side.

    Examples:
        >>> import mindspore.dataset as ds
        >>> a = ds.NumpySlicesDataset([1, 2], ["a"], shuffle=False)
        >>> b = ds.NumpySlicesDataset([3, 4], ["b"], shuffle=False)
        >>> data = ds.zip((a, b))
    """
    if not isinstance(datasets, tuple):
        raise TypeError(f"Invalid datasets, expected tuple of Dataset, but got {type(datasets).__name__}!")
    if len(datasets) <= 1:
        raise ValueError("Can't zip empty or just one dataset!")
    for dataset in datasets:
        if not isinstance(dataset, Dataset):
            raise TypeError(f"Invalid dataset, expected Dataset object, but got {type(dataset)}!")
    return _ops().ZipDataset(datasets)


# ------------------------------------------------------------------------------------------------------------------
# Sources

def _check_shards(num_shards, shard_id):
    if num_shards is None and shard_id is None:
        return
    if num_shards is None or shard_id is None:
        raise ValueError("num_shards and shard_id need to be passed in together.")
    _check_int(num_shards, "num_shards", 1)
    _check_int(shard_id, "shard_id", 0)
    if shard_id >= num_shards:
        raise ValueError(f"Input shard_id is not within the required interval of [0, {num_shards - 1}].")


class SourceDataset(Dataset):
    """Base class of sources (nodes without inputs)."""

    def __init__(self, num_parallel_workers=None, num_samples=None, shuffle=True, num_shards=None, shard_id=None,
                 cache=None):
        super().__init__(num_parallel_workers=num_parallel_workers, cache=cache)
        if num_samples is not None:
            _check_int(num_samples, "num_samples", 0, 2 ** 63 - 1)
        if shuffle is not None and not isinstance(shuffle, (bool, Shuffle)):
            raise TypeError("shuffle must be of boolean or enum of 'Shuffle' values like 'Shuffle.GLOBAL' or "
                            "'Shuffle.FILES' or 'Shuffle.INFILE'.")
        _check_shards(num_shards, shard_id)
        self.num_samples = num_samples
        self.shuffle_flag = shuffle
        self.num_shards = num_shards
        self.shard_id = shard_id

    def _col_names_impl(self):
        return list(self.column_names)

    def is_shuffled(self):
        return self.shuffle_flag is not False

    def is_sharded(self):
        return self.num_shards is not None and self.num_shards > 1

    def get_class_indexing(self):
        return {}


def _normalize_row(row, names, where):
    if not isinstance(row, tuple):
        row = tuple(row) if isinstance(row, list) else (row,)
    row = tuple(_to_array(v) for v in row)
    if names and len(row) != len(names):
        raise RuntimeError(f"Invalid data, the number of columns returned by {where} ({len(row)}) does not match "
                           f"column_names {names}.")
    return row


class MappableDataset(SourceDataset):
    """A random-access source: samplers, shuffling and sharding apply.

    Subclasses call ``super().__init__`` with the common source arguments, set ``column_names`` and implement
    ``_load()`` (read metadata, called once lazily), ``_num_rows()`` and ``_get_row(index)`` (a tuple of NumPy
    arrays; must be thread-safe: rows are read by ``num_parallel_workers`` threads).
    """

    column_names = ()

    def __init__(self, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        super().__init__(num_parallel_workers=num_parallel_workers, num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, cache=cache)
        self.sampler = samplers.select_sampler(num_samples, sampler, shuffle, num_shards, shard_id)
        self._loaded = False

    def _load(self):
        """Read the source's metadata (override when needed)."""

    def _num_rows(self):
        raise NotImplementedError(f"{type(self).__name__} must implement _num_rows.")

    def _get_row(self, index):
        raise NotImplementedError(f"{type(self).__name__} must implement _get_row.")

    def _ensure_loaded(self):
        if not self._loaded:
            with _LOAD_LOCK:
                if not self._loaded:
                    self._load()
                    self._loaded = True

    def add_sampler(self, new_sampler):
        """Add a sampler on top of the current one (it picks among the ids the current one yields)."""
        self.dataset_size = None
        new_sampler.add_child(self.sampler)
        self.sampler = new_sampler

    def use_sampler(self, new_sampler):
        """Replace the innermost sampler by ``new_sampler``."""
        if new_sampler is None:
            raise TypeError("Input sampler can not be None.")
        if not isinstance(new_sampler, samplers.BuiltinSampler):
            raise TypeError("Input sampler is not an instance of a sampler.")
        self.dataset_size = None
        self.sampler = self.sampler.child_sampler
        self.add_sampler(new_sampler)

    def is_shuffled(self):
        return self.sampler.is_shuffled()

    def is_sharded(self):
        return self.sampler.is_sharded()

    def split(self, sizes, randomize=True):
        """Split into datasets of the given sizes through samplers (see :meth:`Dataset.split`)."""
        self._check_split(sizes)
        absolute = self._get_absolute_split_sizes(sizes)
        seed = config._pipeline_seed()
        splits, start = [], 0
        for size in absolute:
            data = copy.deepcopy(self)
            data.dataset_size = None
            if randomize:
                random_sampler = samplers.RandomSampler()
                random_sampler.reshuffle_each_epoch = False
                random_sampler._fixed_seed = seed
                data.add_sampler(random_sampler)
            data.add_sampler(samplers.SequentialSampler(start, size))
            data.add_sampler(samplers.SequentialSampler())
            splits.append(data)
            start += size
        return tuple(splits)

    def _size_impl(self):
        self._ensure_loaded()
        self._bind_sampler()
        return self.sampler._count(self._num_rows())

    def _bind_sampler(self):
        sampler = self.sampler
        while sampler is not None:
            if isinstance(sampler, samplers.PKSampler) and sampler._labels is None:
                labels = getattr(self, "_row_labels", None)
                if labels is not None:
                    sampler._bind_labels(labels())
                else:
                    names = self.get_col_names()
                    if sampler.class_column not in names:
                        raise RuntimeError(f"PKSampler: column '{sampler.class_column}' not in {names}.")
                    col = names.index(sampler.class_column)
                    sampler._bind_labels([np.asarray(self._get_row(i)[col]).reshape(-1)[0]
                                          for i in range(self._num_rows())])
            sampler = sampler.child_sampler

    def _read_row(self, index, args):
        try:
            return _normalize_row(self._get_row(args[0]), list(self.column_names), type(self).__name__)
        except Exception as exc:
            raise annotate_error(exc, f"\n[{type(self).__name__}] raised while reading row {args[0]}.")

    def _prepare(self, rt):
        rt.add_executor(self, self._read_row, self.num_parallel_workers, False, type(self).__name__)

    def _rows(self, rt):
        self._ensure_loaded()
        self._bind_sampler()
        ids = self.sampler._ids(self._num_rows(), rt.next_pass(self), rt.seed)
        tasks = ((pos, (int(i),), None) for pos, i in enumerate(ids))
        for _, row in rt.executor(self).imap(tasks, rt.stop):
            yield row


_LOAD_LOCK = threading.RLock()


class Schema:
    """Column names, types and shapes of a dataset (for GeneratorDataset's ``schema``).

    Args:
        schema_file (str, optional): a JSON file ``{"columns": {name: {"type": ..., "shape": [...]}}}``.

    Examples:
        >>> import mindspore.dataset as ds
        >>> from mindspore import dtype as mstype
        >>> schema = ds.Schema()
        >>> schema.add_column(name='col1', de_type=mstype.int64, shape=[2])
    """

    def __init__(self, schema_file=None):
        self.columns = []
        self.num_rows = None
        if schema_file is not None:
            import json
            try:
                with open(schema_file, encoding="utf-8") as handle:
                    self.from_json(json.load(handle))
            except (OSError, ValueError) as err:
                raise RuntimeError(f"Schema file '{schema_file}' failed to load: {err}") from err

    def add_column(self, name, de_type, shape=None):
        """Add a column of type ``de_type`` (a mindspore dtype or a NumPy type name)."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"Column name must be a non-empty str, but got {name!r}.")
        self.columns.append({"name": name, "type": _np_dtype(de_type), "shape": None if shape is None else
                             list(shape)})

    def parse_columns(self, columns):
        """Add columns from a list of dicts (``name``, ``type``, optional ``shape``) or a dict by name."""
        if isinstance(columns, dict):
            columns = [dict(value, name=key) for key, value in columns.items()]
        for col in columns:
            if "name" not in col:
                raise RuntimeError("Column's name is missing.")
            if "type" not in col:
                raise RuntimeError(f"Column '{col['name']}' type is missing.")
            self.add_column(col["name"], col["type"], col.get("shape"))

    def from_json(self, json_obj):
        """Read ``{"columns": ..., "numRows": ...}``."""
        if "columns" not in json_obj:
            raise RuntimeError("Columns are missing in the schema.")
        self.parse_columns(json_obj["columns"])
        self.num_rows = json_obj.get("numRows")

    def to_json(self):
        """The schema as a JSON string."""
        import json
        return json.dumps({"columns": [{"name": c["name"], "type": c["type"].name, **(
            {"shape": c["shape"]} if c["shape"] is not None else {})} for c in self.columns]}, indent=2)

    def get_column_names(self):
        return [c["name"] for c in self.columns]

    def __str__(self):
        return self.to_json()


def _np_dtype(de_type):
    """A NumPy dtype from a mindspore dtype, a NumPy dtype or a type name."""
    if isinstance(de_type, str):
        return np.dtype({"string": "str", "bytes": "bytes"}.get(de_type, de_type))
    try:
        return np.dtype(de_type)
    except TypeError:
        from mindspore.common.dtype import dtype_to_nptype
        return np.dtype(dtype_to_nptype(de_type))
