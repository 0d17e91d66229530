"""``MindDataset``: rows of MindRecord files written by :class:`mindspore.mindrecord.FileWriter` (or MindSpore).

The files are MindSpore's format (see :mod:`mindspore.mindrecord._format`). Passing one file loads every shard
written with it, in shard order; passing a list loads exactly those files, in the given order. Columns are the
schema's fields in name order (or ``columns_list``), with MindSpore's types: int32/int64/float32/float64
scalars as 0-d arrays, strings as 0-d ``str`` arrays, ``bytes`` fields as a 1-element ``numpy.bytes_`` array
(shape (1,)), array fields as arrays of the schema's dtype and shape.
"""
import os

import numpy as np

from mindspore.dataset.engine import cxx_random, samplers
from mindspore.dataset.engine.datasets import MappableDataset, _check_int, _check_shards
from mindspore.dataset.engine.datasets_text import FileOrderSampler, shuffle_mode

__all__ = ["MindDataset"]


def _format():
    """:mod:`mindspore.mindrecord._format`, imported on first use (``import mindspore.dataset`` stays light)."""
    from mindspore.mindrecord import _format as fmt
    return fmt


class MindRecordShuffleSampler(FileOrderSampler):
    """MindDataset's shuffle modes as 2.10's MindRecord reader (``ShardShuffle``) draws them.

    Every pass re-seeds ``std::default_random_engine`` (``minstd_rand0``) with seed + 1 + pass and applies the
    mode to the previous pass's order: ``global`` shuffles all rows (``std::shuffle``); ``files`` shuffles the
    file order, then rebuilds the order by taking, file after file, the slice of the previous order that file's
    rows held; ``infile`` shuffles each file's slice (a fresh engine per file). Unsharded, the seed is the
    pipeline's and the order carries over from pass to pass; sharded (``ShardDistributedSample``), the seed is
    the configured one (so all shards agree) and each pass starts again from the file order. Shard ``k`` of
    ``n`` reads positions ``k, k + n, ...`` of the order. Padded rows (``padded=True``: the last entry of
    ``file_rows``) take part in the global and in-file shuffles; ``files`` keeps them after the files.
    """

    padded = False

    def _ordered(self, num_rows, pass_idx, seed):
        rows = list(self.file_rows) if self.file_rows is not None else [num_rows]
        sharded = self.num_shards > 1
        seed = (self.seed if sharded else seed) & 0xFFFFFFFF
        key = (tuple(rows), seed, sharded)
        last = getattr(self, "_last_order", None)
        if not sharded and last is not None and last[0] == key and last[1] <= pass_idx:
            done, order = last[1], last[2]
        else:
            done, order = (pass_idx - 1 if sharded else -1), np.arange(num_rows, dtype=np.int64)
        starts = np.concatenate(([0], np.cumsum(rows))).astype(np.int64)
        for p in range(done + 1, pass_idx + 1):
            order = self._one_pass(order, starts, seed + 1 + p)
        self._last_order = (key, pass_idx, order)
        return order

    def _one_pass(self, order, starts, seed):
        if self.mode == "global":
            return cxx_random.std_shuffle(order, cxx_random.MinstdRand0Stream(seed))
        if self.mode == "files":
            real = len(starts) - 1 - int(self.padded)
            files = cxx_random.std_shuffle(np.arange(real), cxx_random.MinstdRand0Stream(seed)).tolist()
            files += list(range(real, len(starts) - 1))
            return np.concatenate([order[starts[f]:starts[f + 1]] for f in files])
        order = order.copy()
        for begin, end in zip(starts[:-1].tolist(), starts[1:].tolist()):
            order[begin:end] = cxx_random.std_shuffle(order[begin:end], cxx_random.MinstdRand0Stream(seed))
        return order


class MindRecordReplacementSampler(samplers.BuiltinSampler):
    """MindDataset's global shuffle with ``num_samples`` (or a ``RandomSampler(replacement=True)``), as 2.10's
    ShardShuffle draws it: pass ``p`` draws ``num_samples`` (default: all) rows with replacement, draw ``k``
    being ``uniform_int_distribution(0, size - 1)`` of a fresh ``std::mt19937(seed + 1 + p + k)``; and it draws
    from the previous pass's rows (the first from all rows), whose list the draws replace."""

    def is_shuffled(self):
        return True

    def _own_count(self, num_rows):
        return self.num_samples or num_rows

    def _own_ids(self, num_rows, pass_idx, seed):
        seed &= 0xFFFFFFFF
        key = (seed, num_rows)
        last = getattr(self, "_last_ids", None)
        if last is not None and last[0] == key and last[1] <= pass_idx:
            done, ids = last[1], last[2]
        else:
            done, ids = -1, np.arange(num_rows, dtype=np.int64)
        count = self._own_count(num_rows)
        for p in range(done + 1, pass_idx + 1):
            if not len(ids):
                break
            first = seed + 1 + p
            ids = ids[cxx_random.std_uniform_ints_fresh(np.arange(first, first + count), len(ids) - 1)]
        self._last_ids = (key, pass_idx, ids)
        return ids.copy()


class MindDataset(MappableDataset):
    """Read MindRecord files.

    Args:
        dataset_files (Union[str, list[str]]): one MindRecord file (all shards written with it are loaded) or a
            list of files (only those are loaded).
        columns_list (list[str], optional): the columns to read, in this order. Default: None (all, by name).
        num_parallel_workers (int, optional): reader threads. Default: None.
        shuffle (Union[bool, Shuffle], optional): None/True/``Shuffle.GLOBAL`` shuffle all rows;
            ``Shuffle.FILES`` shuffles the order of the files; ``Shuffle.INFILE`` the rows within each file;
            False keeps the order. Default: None.
        num_shards (int, optional): number of shards (shard ``k`` reads rows ``k, k + num_shards, ...``).
        shard_id (int, optional): the shard to read.
        sampler (Sampler, optional): a sampler instead of `shuffle`/`num_shards`. Default: None.
        padded_sample (dict, optional): a row appended `num_padded` times (e.g. so that the rows divide evenly
            into shards); needs `columns_list` and `num_padded`. Default: None.
        num_padded (int, optional): how many times `padded_sample` is appended. Default: None.
        num_samples (int, optional): rows to read. Default: None (all).
        cache (DatasetCache, optional): unused. Default: None.

    Raises:
        ValueError: a file does not exist, or arguments conflict.
        RuntimeError: (when the dataset is used) a file is malformed or truncated, or the padded rows do not make
            the row count divisible by `num_shards`.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.MindDataset("/path/to/train.mindrecord0", columns_list=["data", "label"], shuffle=False)
    """

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None, num_shards=None,
                 shard_id=None, sampler=None, padded_sample=None, num_padded=None, num_samples=None, cache=None):
        mode = shuffle_mode(shuffle, "MindDataset")
        if columns_list is not None and (not isinstance(columns_list, list) or not columns_list
                                         or not all(isinstance(c, str) for c in columns_list)):
            raise TypeError(f"Argument columns_list with value {columns_list!r} is not of type [<class 'list'>] of "
                            "str.")
        self._check_padding(padded_sample, num_padded, columns_list)
        file_sampler = self._mindrecord_sampler(mode, shuffle, sampler, num_shards, shard_id, num_samples, num_padded)
        if file_sampler is not None:
            super().__init__(num_parallel_workers=num_parallel_workers, sampler=file_sampler, cache=cache)
            self.num_shards = getattr(file_sampler, "num_shards", None)
            self.shard_id = getattr(file_sampler, "shard_id", None)
            self.shuffle_flag = shuffle
        else:
            engine_shuffle = None if shuffle is None else mode != "none"
            if sampler is not None and shuffle is None:
                engine_shuffle = None
            super().__init__(num_samples=num_samples, num_parallel_workers=num_parallel_workers,
                             shuffle=engine_shuffle, sampler=sampler, num_shards=num_shards, shard_id=shard_id,
                             cache=cache)
        self.dataset_files = self._check_files(dataset_files)
        self.columns_list = list(columns_list) if columns_list else None
        self.padded_sample = dict(padded_sample) if padded_sample is not None else None
        self.num_padded = num_padded or 0
        self._reader = None
        self.column_names = list(self.columns_list) if self.columns_list else None

    @staticmethod
    def _mindrecord_sampler(mode, shuffle, sampler, num_shards, shard_id, num_samples, num_padded):
        """The sampler for 2.10's MindRecord shuffles (MindRecordShuffleSampler, or MindRecordReplacementSampler
        for an unsharded global shuffle with ``num_samples``), or None when the engine's samplers serve: no
        shuffle, or a sampler 2.10 also keeps."""
        plain = shuffle is None and num_shards is None and not num_samples
        seed = None
        if (plain and isinstance(sampler, samplers.RandomSampler) and sampler.replacement
                and sampler.child_sampler is None):
            # 2.10 parses RandomSampler(replacement=True) into ShardShuffle's draws with replacement
            return MindRecordReplacementSampler(sampler.num_samples)
        if (plain and isinstance(sampler, samplers.RandomSampler) and not sampler.replacement
                and not sampler.num_samples and sampler.child_sampler is None):
            # 2.10 parses a plain RandomSampler into MindRecord's own random sampler: ShardShuffle's global order
            sampler = None
        elif (plain and isinstance(sampler, samplers.DistributedSampler) and sampler.shuffle
              and sampler.child_sampler is None and not sampler.num_samples and sampler.offset == -1):
            # and a shuffling DistributedSampler into ShardDistributedSample, with the sampler's seed
            num_shards, shard_id, seed = sampler.num_shards, sampler.shard_id, sampler.seed
            sampler = None
        if sampler is not None or mode == "none":
            return None
        if num_samples and mode != "global":
            raise ValueError("'Shuffle.FILES' or 'Shuffle.INFILE' and 'num_samples' cannot be specified at the "
                             "same time.")
        if num_samples and num_shards is None:
            # 2.10: RandomSampler(replacement=True, num_samples), drawn by ShardShuffle
            _check_int(num_samples, "num_samples", 0, 2 ** 63 - 1)
            return MindRecordReplacementSampler(num_samples)
        _check_shards(num_shards, shard_id)
        # sharded with num_samples: the shard's order of the global shuffle, its first num_samples rows
        file_sampler = MindRecordShuffleSampler(mode, num_shards, shard_id, num_samples or None, strided=True)
        if seed is not None:
            file_sampler.seed = seed
        return file_sampler

    @staticmethod
    def _check_files(dataset_files):
        """The files as given (str or list of str); ``ValueError`` when one does not exist, as in MindSpore (their
        contents are checked when the dataset is first used, and a malformed file raises ``RuntimeError``)."""
        if isinstance(dataset_files, os.PathLike):
            dataset_files = os.fspath(dataset_files)
        if isinstance(dataset_files, (list, tuple)):
            if not dataset_files:
                raise ValueError("dataset_files should not be empty.")
            files = [os.fspath(f) if isinstance(f, os.PathLike) else f for f in dataset_files]
        elif isinstance(dataset_files, str):
            files = [dataset_files]
        else:
            raise TypeError(f"Argument dataset_files with value {dataset_files!r} is not of type [<class 'str'>, "
                            "<class 'list'>].")
        for path in files:
            if not isinstance(path, str):
                raise TypeError(f"Argument dataset_files contains {path!r}, which is not a str.")
            if not os.path.isfile(path):
                raise ValueError(f"The file {path} does not exist or permission denied!")
        return files if isinstance(dataset_files, (list, tuple)) else files[0]

    @staticmethod
    def _check_padding(padded_sample, num_padded, columns_list):
        if num_padded is not None:
            _check_int(num_padded, "num_padded", 0, 2 ** 31 - 1)
        if padded_sample is not None:
            if not isinstance(padded_sample, dict):
                raise TypeError(f"Argument padded_sample with value {padded_sample!r} is not of type "
                                "[<class 'dict'>].")
            if num_padded is None:
                raise RuntimeError("padded_sample is specified and requires num_padded as well.")
            if columns_list is None:
                raise RuntimeError("padded_sample is specified and requires columns_list as well.")
            for column in columns_list:
                if column not in padded_sample:
                    raise ValueError("padded_sample cannot match columns_list.")
        elif num_padded is not None:
            raise RuntimeError("num_padded is specified but padded_sample is not.")

    def _load(self):
        try:
            self._reader = _format().MindRecordReader(self.dataset_files, self.columns_list)
        except (TypeError, ValueError) as exc:
            raise RuntimeError(str(exc)) from None
        self.column_names = list(self._reader.columns)
        self._padded_row = None
        if self.num_padded:
            self._padded_row = tuple(self._pad_value(c, self.padded_sample[c]) for c in self.column_names)
            total = self._reader.num_rows + self.num_padded
            shards = self._shard_count()
            if shards and total % shards:
                raise RuntimeError(f"Invalid data, the number of rows ({self._reader.num_rows}) plus num_padded "
                                   f"({self.num_padded}) is {total}, which is not divisible by num_shards ({shards}).")

    def _shard_count(self):
        sampler = self.sampler
        if isinstance(sampler, (samplers.DistributedSampler, FileOrderSampler)):
            return sampler.num_shards
        if isinstance(sampler, MindRecordReplacementSampler):
            return None         # 2.10 draws the padded rows too
        if self.num_padded and sampler is not None and not isinstance(sampler, samplers.SequentialSampler):
            raise RuntimeError("When the padded sample logic is enabled and use sampler chain, the first sampler "
                               "which is specified by parameter sampler or (num_shards, shard_id) is not "
                               "distributed sampling.")
        return None

    def _pad_value(self, column, value):
        spec = self._reader.schema[column]
        kind = spec["type"]
        try:
            if kind == "bytes":
                return np.array([bytes(value)])
            if kind == "string":
                return np.array(str(value))
            dtype = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}[kind]
            arr = np.asarray(value).astype(dtype)
            return arr.reshape(spec["shape"]) if "shape" in spec else arr.reshape(())
        except (TypeError, ValueError) as exc:
            raise RuntimeError(f"padded_sample['{column}'] = {value!r} cannot be converted to the column's type "
                               f"{kind}{' with shape ' + str(spec['shape']) if 'shape' in spec else ''}: {exc}") \
                from None

    def _col_names_impl(self):
        self._ensure_loaded()
        return list(self.column_names)

    def _bind_sampler(self):
        sampler = self.sampler
        while sampler is not None:
            if isinstance(sampler, FileOrderSampler):
                sampler.file_rows = [s.n for s in self._reader.shards] + ([self.num_padded] if self.num_padded else [])
                sampler.padded = bool(self.num_padded)
            sampler = sampler.child_sampler
        super()._bind_sampler()

    def _num_rows(self):
        return self._reader.num_rows + self.num_padded

    def __getitem__(self, index):
        """Row ``index`` of the files (in file order, padded rows last) as a list of numpy arrays."""
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"Argument index with value {index!r} is not of type [<class 'int'>].")
        if index < 0:
            raise ValueError(f"index cannot be negative, but got {index}.")
        self._ensure_loaded()
        if index >= self._num_rows():
            raise IndexError(f"index {index} is out of range [0, {self._num_rows()}).")
        return list(self._get_row(index))

    def _get_row(self, index):
        if index >= self._reader.num_rows:
            return tuple(np.copy(v) for v in self._padded_row)
        return self._reader.read_row(index)


# numpy kind+itemsize -> MindRecord field type, as 2.10's SaveToDisk widens them (uint8/int8/int16 -> int32 ...).
_SAVE_TYPES = {"b1": "int32", "i1": "int32", "i2": "int32", "i4": "int32", "i8": "int64", "u1": "int32",
               "u2": "int32", "u4": "int64", "f2": "float32", "f4": "float32", "f8": "float64"}


def _save_field(name, value):
    """The schema entry of one column from its first row: scalars have no shape, arrays ``[-1, *dims[1:]]``."""
    value = np.asarray(value)
    if value.dtype.kind in "US":
        if value.ndim:
            raise RuntimeError(f"Invalid data, column '{name}' is a string array of shape {list(value.shape)}; "
                               f"only scalar strings can be saved to MindRecord.")
        return {"type": "string" if value.dtype.kind == "U" else "bytes"}
    key = f"{value.dtype.kind}{value.dtype.itemsize}"
    if key not in _SAVE_TYPES:
        raise RuntimeError(f"Invalid data, column '{name}' has type {value.dtype}, which can not be saved to "
                           f"MindRecord.")
    field = {"type": _SAVE_TYPES[key]}
    if value.ndim:
        field["shape"] = [-1] + list(value.shape[1:])
    return field


def save_dataset(dataset, file_name, num_files=1, file_type='mindrecord'):
    """:meth:`Dataset.save`: every row of one pass of ``dataset`` into MindRecord file(s)."""
    from mindspore.mindrecord import FileWriter
    if file_type != 'mindrecord':
        raise ValueError(f"Input file_type is not within the valid set of ['mindrecord'], but got {file_type}.")
    _check_int(num_files, "num_files", 1)
    names = dataset.get_col_names()
    writer = None
    rows = []
    for row in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
        if writer is None:
            schema = {n: _save_field(n, v) for n, v in zip(names, row)}
            writer = FileWriter(file_name, num_files)
            writer.add_schema(schema, "dataset_save")
        rows.append({n: (np.asarray(v).item() if np.ndim(v) == 0 else
                         np.asarray(v, dtype=schema[n]["type"]) if schema[n]["type"] != "bytes" else v)
                     for n, v in zip(names, row)})
        if len(rows) >= 256:
            writer.write_raw_data(rows)
            rows = []
    if writer is None:
        raise RuntimeError("Invalid data, the dataset to save has no rows.")
    if rows:
        writer.write_raw_data(rows)
    writer.commit()
