"""Samplers: which rows of a random-access (mappable) source a pass reads, in which order.

A sampler turns the number of rows of a source into an array of row ids for one pass (an epoch, or one
repetition under ``repeat``). Samplers chain as in MindSpore: a sampler with a child first asks the child for
its ids, then picks among *those* (``SequentialSampler(2, 3)`` over a child ``RandomSampler`` takes the 3rd to
5th ids of the child's permutation). ``RandomSampler`` and ``DistributedSampler`` give MindSpore 2.10's exact
orders (its C++ ``std::mt19937``, ``std::shuffle`` and ``std::uniform_int_distribution``, see ``cxx_random``):
pass ``p`` draws from the seed + ``p``, and a shuffle re-shuffles the previous pass's order. The other random
samplers draw from a NumPy generator seeded from (pipeline seed, pass, a per-sampler salt), so a pass is
reproducible for a fixed seed and reshuffled on the next pass, but not in 2.10's order.
``DistributedSampler`` follows MindSpore's ``DistributedSamplerRT``: shard ``k`` of ``n`` reads the
ids ``(n * i + k) % num_rows`` for ``i < ceil(num_rows / n)`` (so an uneven split pads each short shard by
wrapping to the first rows), after one permutation shared by every shard when ``shuffle`` is True; its seed is
the configured seed + 1 (not randomised, even when no seed was set), so all processes of a distributed job agree
on the permutation.
"""
import numbers

import numpy as np

from mindspore.dataset.engine import cxx_random

__all__ = ["BuiltinSampler", "Sampler", "DistributedSampler", "PKSampler", "RandomSampler", "SequentialSampler",
           "SubsetRandomSampler", "SubsetSampler", "WeightedRandomSampler", "IterSampler", "select_sampler"]

INT64_MAX = 9223372036854775807


def _check_num_samples(num_samples):
    if num_samples is not None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool):
            raise TypeError(f"num_samples must be integer but was: {num_samples}.")
        if num_samples < 0 or num_samples > INT64_MAX:
            raise ValueError(f"num_samples exceeds the boundary between 0 and {INT64_MAX}(INT64_MAX)!")


def _check_bool(value, name):
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a boolean value but was: {value}.")


def select_sampler(num_samples, input_sampler, shuffle, num_shards, shard_id):
    """The sampler a mappable source uses, from its arguments (MindSpore's rules).

    A given sampler wins (and then ``shuffle``/``num_shards``/``shard_id``/``num_samples`` must be None); a
    list of ids becomes a ``SubsetSampler``, any other iterable an ``IterSampler``. Otherwise: sharding gives a
    ``DistributedSampler``; ``shuffle`` None or True gives a ``RandomSampler`` (with replacement when
    ``num_samples`` is given, as MindSpore does); ``shuffle=False`` a ``SequentialSampler``.
    """
    if input_sampler is not None:
        if isinstance(input_sampler, BuiltinSampler) and any(
                arg is not None for arg in (num_shards, shard_id, shuffle, num_samples)):
            raise ValueError(f"Conflicting arguments during sampler assignments. num_samples: {num_samples}, "
                             f"num_shards: {num_shards}, shard_id: {shard_id}, shuffle: {shuffle}.")
        if isinstance(input_sampler, BuiltinSampler):
            return input_sampler
        if isinstance(input_sampler, (np.ndarray, list, tuple)):
            return SubsetSampler(input_sampler, num_samples)
        if isinstance(input_sampler, int) and not isinstance(input_sampler, bool):
            return SubsetSampler([input_sampler])
        # A random-access object (``__getitem__``/``__len__``, no ``__iter__``) is iterated by the sequence
        # protocol, as 2.10 does with the sampler page's ``MySampler``.
        if not isinstance(input_sampler, str) and (hasattr(input_sampler, "__iter__")
                                                   or hasattr(input_sampler, "__getitem__")):
            return IterSampler(input_sampler, num_samples)
        raise TypeError(f"Unsupported sampler object of type ({type(input_sampler)})")
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle=shuffle is not False, num_samples=num_samples)
    if shuffle is None or shuffle is True:
        if num_samples is not None and num_samples != 0:
            return RandomSampler(replacement=True, num_samples=num_samples)
        return RandomSampler(num_samples=num_samples)
    return SequentialSampler(num_samples=num_samples)


class BuiltinSampler:
    """Base class of the built-in samplers (users subclass :class:`Sampler` instead)."""

    _salt = 0

    def __init__(self, num_samples=None):
        self.child_sampler = None
        self.num_samples = num_samples

    def add_child(self, sampler):
        """Add a child sampler: this sampler then picks among the ids the child produces.

        Args:
            sampler (Sampler): the child.

        Raises:
            RuntimeError: this sampler already has a child.

        Examples:
            >>> import mindspore.dataset as ds
            >>> sampler = ds.SequentialSampler(start_index=0, num_samples=3)
            >>> sampler.add_child(ds.RandomSampler(num_samples=4))
        """
        if self.child_sampler is not None:
            raise RuntimeError("Cannot add child sampler, this sampler already has a child.")
        self.child_sampler = sampler

    def get_child(self):
        """The child sampler, or None."""
        return self.child_sampler

    def is_shuffled(self):
        """Whether this sampler (or its child) changes the order of rows."""
        return self.child_sampler.is_shuffled() if self.child_sampler is not None else False

    def is_sharded(self):
        """Whether this sampler (or its child) reads only a shard of the rows."""
        return self.child_sampler.is_sharded() if self.child_sampler is not None else False

    def get_num_samples(self):
        """``num_samples``, combined with the child's as MindSpore does (the smaller one), or None."""
        if self.child_sampler is not None:
            child_samples = self.child_sampler.get_num_samples()
            if self.num_samples is not None:
                return self.num_samples if child_samples is None else min(self.num_samples, child_samples)
            return child_samples
        return self.num_samples

    # -- engine side ----------------------------------------------------------------------------------------
    def _ids(self, num_rows, pass_idx, seed):
        """The row ids of one pass over a source of ``num_rows`` rows (int64 array)."""
        if self.child_sampler is None:
            return self._own_ids(num_rows, pass_idx, seed)
        child_ids = np.asarray(self.child_sampler._ids(num_rows, pass_idx, seed), dtype=np.int64)
        own = self._own_ids(len(child_ids), pass_idx, seed)
        return child_ids[own] if len(own) else own

    def _count(self, num_rows):
        """How many ids a pass yields (without drawing them)."""
        if self.child_sampler is not None:
            num_rows = self.child_sampler._count(num_rows)
        return self._own_count(num_rows)

    def _limit(self, count):
        return count if not self.num_samples else min(count, self.num_samples)

    def _rng(self, pass_idx, seed):
        return np.random.default_rng([seed & 0xFFFFFFFF, pass_idx, self._salt])

    def _own_ids(self, num_rows, pass_idx, seed):
        raise NotImplementedError(f"{type(self).__name__} must implement _own_ids.")

    def _chained_order(self, base, seed, step, seed_step=1):
        """The order 2.10's shuffling samplers hold at pass ``step``: ``base`` shuffled (std::shuffle) with
        std::mt19937(seed), the result shuffled again with seed + seed_step, ... up to seed + step * seed_step.
        The last order drawn is kept, so consecutive passes cost one shuffle each."""
        base = np.asarray(base, dtype=np.int64)
        key = (seed & 0xFFFFFFFF, seed_step)
        last = getattr(self, "_last_order", None)
        if last is not None and last[0] == key and last[1] <= step and np.array_equal(last[2], base):
            done, order = last[1], last[3]
        else:
            done, order = -1, base
        for p in range(done + 1, step + 1):
            order = cxx_random.std_shuffle(order, cxx_random.MT19937Stream((seed + p * seed_step) & 0xFFFFFFFF))
        self._last_order = (key, step, base, order)
        return order

    def _own_count(self, num_rows):
        return self._limit(num_rows)


class Sampler(BuiltinSampler):
    """Base class of user-defined samplers: override ``__iter__`` to yield row ids.

    ``self.dataset_size`` (rows of the source) and ``self.num_samples`` are set before each pass; ``reset()`` is
    called before every pass after the first.

    Examples:
        >>> import mindspore.dataset as ds
        >>> class ReverseSampler(ds.Sampler):
        ...     def __iter__(self):
        ...         for i in range(self.dataset_size - 1, -1, -1):
        ...             yield i
        >>> dataset = ds.NumpySlicesDataset([1, 2, 3], sampler=ReverseSampler())
    """

    def __init__(self, num_samples=None):
        super().__init__(num_samples)
        self.dataset_size = 0

    def __iter__(self):
        raise NotImplementedError("A user-defined Sampler must implement __iter__.")

    def reset(self):
        """Per-pass reset hook: override it if the sampler has state."""

    def add_child(self, sampler):
        self.child_sampler = sampler

    def _handshake(self, ds_size, num_samples):
        self.dataset_size = ds_size
        self.num_samples = num_samples

    def _get_indices(self):
        ids = []
        limit = self.num_samples
        for idx in self:
            if limit is not None and len(ids) >= limit:
                break
            ids.append(idx)
        indices = np.array(ids)
        if indices.dtype == object or (indices.size and not np.issubdtype(indices.dtype, np.integer)):
            raise RuntimeError("Fetched indices can not be converted to a valid ndarray.")
        return indices.astype(np.int64)

    def _own_ids(self, num_rows, pass_idx, seed):
        num_samples = self.num_samples
        self._handshake(num_rows, num_samples)
        if pass_idx > 0:
            self.reset()
        ids = self._get_indices()
        if ids.size and (ids.min() < 0 or ids.max() >= num_rows):
            bad = ids[(ids < 0) | (ids >= num_rows)][0]
            raise RuntimeError(f"Sample ID {int(bad)} from the sampler is out of the range [0, {num_rows}).")
        return ids

    def _own_count(self, num_rows):
        saved = (self.dataset_size, self.num_samples)
        try:
            return len(self._own_ids(num_rows, 0, 0))
        finally:
            self.dataset_size, self.num_samples = saved

    def get_num_samples(self):
        if self.num_samples is None:
            return None
        return self._get_indices().size


class IterSampler(Sampler):
    """Wraps any iterable of ids that is not a :class:`Sampler` (a user object with ``__iter__``, or with
    ``__getitem__`` and ``__len__``)."""

    def __init__(self, sampler, num_samples=None):
        super().__init__(num_samples)
        self.sampler = sampler

    def __iter__(self):
        return iter(self.sampler)


class DistributedSampler(BuiltinSampler):
    """Reads shard ``shard_id`` of ``num_shards`` equal shards (uneven splits wrap to the first rows).

    Args:
        num_shards (int): number of shards.
        shard_id (int): this shard, in [0, num_shards - 1].
        shuffle (bool, optional): permute the rows (the same permutation in every shard). Default: True.
        num_samples (int, optional): read at most this many rows. Default: None, the whole shard.
        offset (int, optional): first shard the rows are dealt to (ConcatDataset). Default: -1, equal shards.

    Examples:
        >>> import mindspore.dataset as ds
        >>> sampler = ds.DistributedSampler(num_shards=4, shard_id=1, shuffle=False)
    """

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        if not isinstance(num_shards, int) or isinstance(num_shards, bool):
            raise TypeError(f"num_shards must be integer but was: {num_shards}.")
        if not isinstance(shard_id, int) or isinstance(shard_id, bool):
            raise TypeError(f"shard_id must be integer but was: {shard_id}.")
        _check_bool(shuffle, "shuffle")
        _check_num_samples(num_samples)
        if not isinstance(offset, int) or isinstance(offset, bool):
            raise TypeError(f"offset must be integer but was: {offset}.")
        if num_shards <= 0:
            raise RuntimeError(f"DistributedSampler: num_shards must be positive, but got {num_shards}.")
        if shard_id < 0 or shard_id >= num_shards:
            raise RuntimeError(f"DistributedSampler: shard_id must be in [0, {num_shards - 1}], but got {shard_id}.")
        if offset > num_shards:
            raise RuntimeError(f"DistributedSampler: offset must be no more than num_shards({num_shards}), "
                               f"but got {offset}.")
        from mindspore.dataset import config
        self.num_shards = num_shards
        self.shard_id = shard_id
        self.shuffle = shuffle
        self.seed = config.get_seed()
        self.offset = offset
        super().__init__(num_samples)

    def is_shuffled(self):
        return self.shuffle if self.child_sampler is None else self.child_sampler.is_shuffled()

    def is_sharded(self):
        return self.num_shards > 1 if self.child_sampler is None else self.child_sampler.is_sharded()

    def set_offset(self, offset):
        """Set the first shard rows are dealt to; returns self."""
        self.offset = offset
        return self

    def _shard_size(self, num_rows):
        if self.offset != -1:
            size = (num_rows + self.offset) // self.num_shards
            if self.shard_id < (num_rows + self.offset) % self.num_shards:
                size += 1
            if self.shard_id < self.offset:
                size -= 1
            return max(size, 0)
        return -(-num_rows // self.num_shards)

    def _own_count(self, num_rows):
        return self._limit(self._shard_size(num_rows)) if num_rows else 0

    def _own_ids(self, num_rows, pass_idx, seed):
        count = self._own_count(num_rows)
        if count == 0:
            return np.zeros(0, np.int64)
        offset = max(self.offset, 0)
        positions = self.num_shards * np.arange(count + 1, dtype=np.int64) + self.shard_id - offset
        positions = positions[positions >= 0][:count] % num_rows
        if not self.shuffle:
            return positions
        # 2.10's Python sampler hands the engine the configured seed + 1; DistributedSamplerRT then shuffles
        # like RandomSamplerRT (see _chained_order)
        return self._chained_order(np.arange(num_rows), self.seed + 1, pass_idx)[positions]


class PKSampler(BuiltinSampler):
    """Samples ``num_val`` rows of every class (classes read from the source's ``label`` column).

    Args:
        num_val (int): rows per class.
        num_class (int, optional): not supported (must be None), as in MindSpore.
        shuffle (bool, optional): shuffle the order of the classes. Default: False. The rows of a class are
            drawn at random with replacement either way, as in MindSpore.
        class_column (str, optional): the label column. Default: 'label'.
        num_samples (int, optional): at most this many rows. Default: None.
    """

    def __init__(self, num_val, num_class=None, shuffle=False, class_column='label', num_samples=None):
        if not isinstance(num_val, int) or isinstance(num_val, bool):
            raise TypeError(f"num_val must be integer but was: {num_val}.")
        if num_class is not None:
            raise NotImplementedError("Not supported to specify num_class for PKSampler.")
        _check_bool(shuffle, "shuffle")
        if not isinstance(class_column, str):
            raise TypeError(f"class_column must be a str value but was: {class_column}.")
        _check_num_samples(num_samples)
        if num_val <= 0:
            raise RuntimeError(f"PKSampler: num_val must be positive, but got {num_val}.")
        self.num_val = num_val
        self.shuffle = shuffle
        self.class_column = class_column
        self._labels = None
        super().__init__(num_samples)

    def is_shuffled(self):
        return self.shuffle if self.child_sampler is None else self.child_sampler.is_shuffled()

    def _bind_labels(self, labels):
        """Engine: the label of every row of the source (set before a pass)."""
        self._labels = np.asarray(labels).reshape(-1)

    def _groups(self):
        if self._labels is None:
            raise RuntimeError("PKSampler needs a source with a label column.")
        classes = np.unique(self._labels)
        return [np.flatnonzero(self._labels == c) for c in classes]

    def _own_count(self, num_rows):
        return self._limit(len(self._groups()) * self.num_val)

    def _own_ids(self, num_rows, pass_idx, seed):
        groups = self._groups()
        # As 2.10's PKSamplerRT: ``shuffle`` permutes the classes once (std::shuffle with std::mt19937(seed),
        # whose stream then draws pass 0); pass p > 0 draws from std::mt19937(seed + p). The rows of a class are
        # drawn uniformly WITH replacement (shuffle or not).
        stream = cxx_random.MT19937Stream(seed & 0xFFFFFFFF)
        if self.shuffle:
            groups = [groups[i] for i in cxx_random.std_shuffle(np.arange(len(groups)), stream)]
        if pass_idx:
            stream = cxx_random.MT19937Stream((seed + pass_idx) & 0xFFFFFFFF)
        count = self._own_count(num_rows)
        classes = np.arange(count) // self.num_val
        sizes = np.asarray([len(rows) for rows in groups], dtype=np.uint64)
        picks = cxx_random.std_uniform_ints(stream, sizes[classes] - np.uint64(1))
        return np.asarray([groups[c][k] for c, k in zip(classes.tolist(), picks.tolist())], dtype=np.int64)


class RandomSampler(BuiltinSampler):
    """Samples rows in random order (a new order every pass).

    Args:
        replacement (bool, optional): draw with replacement. Default: False.
        num_samples (int, optional): number of rows. Default: None, all rows.

    Examples:
        >>> import mindspore.dataset as ds
        >>> sampler = ds.RandomSampler(num_samples=5)
    """

    def __init__(self, replacement=False, num_samples=None):
        _check_bool(replacement, "replacement")
        _check_num_samples(num_samples)
        self.deterministic = False
        self.replacement = replacement
        self.reshuffle_each_epoch = True
        self._fixed_seed = None     # set by Dataset.split so that every split sees the same permutation
        super().__init__(num_samples)

    def is_shuffled(self):
        return True

    def _own_count(self, num_rows):
        return self._limit(num_rows)

    def _own_ids(self, num_rows, pass_idx, seed):
        # 2.10's RandomSamplerRT: pass p draws from std::mt19937(seed + p) (seed + 0 when not reshuffling);
        # without replacement it re-shuffles the previous pass's order (std::shuffle), so pass p needs the
        # orders of passes 0..p-1: the last one is kept.
        if self._fixed_seed is not None:
            seed = self._fixed_seed
        count = self._own_count(num_rows)
        if num_rows == 0:
            return np.zeros(0, np.int64)
        step = pass_idx if self.reshuffle_each_epoch else 0
        if self.replacement:
            stream = cxx_random.MT19937Stream((seed + step) & 0xFFFFFFFF)
            return cxx_random.std_uniform_ints(stream, np.full(count, num_rows - 1, dtype=np.uint64))
        return self._chained_order(np.arange(num_rows), seed, step)[:count].copy()


class SequentialSampler(BuiltinSampler):
    """Samples rows in order, from ``start_index``.

    Args:
        start_index (int, optional): first row. Default: None, row 0.
        num_samples (int, optional): number of rows. Default: None, to the end.

    Examples:
        >>> import mindspore.dataset as ds
        >>> sampler = ds.SequentialSampler(start_index=2, num_samples=3)
    """

    def __init__(self, start_index=None, num_samples=None):
        if start_index is not None and (not isinstance(start_index, int) or isinstance(start_index, bool)):
            raise TypeError(f"start_index must be integer but was: {start_index}.")
        _check_num_samples(num_samples)
        if start_index is not None and start_index < 0:
            raise RuntimeError(f"SequentialSampler: start_index must be non-negative, but got {start_index}.")
        self.start_index = start_index
        super().__init__(num_samples)

    def _own_count(self, num_rows):
        return self._limit(max(num_rows - (self.start_index or 0), 0))

    def _own_ids(self, num_rows, pass_idx, seed):
        start = self.start_index or 0
        if num_rows and start >= num_rows:
            raise RuntimeError(f"SequentialSampler: start_index {start} is out of the dataset's {num_rows} rows.")
        return np.arange(start, start + self._own_count(num_rows), dtype=np.int64)


class SubsetSampler(BuiltinSampler):
    """Samples the given row ids, in the given order.

    Args:
        indices (Iterable): row ids (any iterable but a string).
        num_samples (int, optional): at most this many. Default: None, all.

    Examples:
        >>> import mindspore.dataset as ds
        >>> sampler = ds.SubsetSampler([0, 2, 4])
    """

    def __init__(self, indices, num_samples=None):
        _check_num_samples(num_samples)
        if isinstance(indices, int) and not isinstance(indices, bool):
            indices = [indices]
        elif isinstance(indices, str) or not hasattr(indices, "__iter__"):
            raise TypeError(f"Unsupported sampler object of type ({type(indices)})")
        indices = list(indices)
        for i, item in enumerate(indices):
            if not isinstance(item, (numbers.Integral, np.integer)) or isinstance(item, bool):
                raise TypeError(f"SubsetSampler: Type of indices element must be int, but got list[{i}]: {item}, "
                                f"type: {type(item)}.")
        self.indices = [int(i) for i in indices]
        super().__init__(num_samples)

    def get_num_samples(self):
        num_samples = super().get_num_samples()
        return len(self.indices) if num_samples is None else min(len(self.indices), num_samples)

    def _own_count(self, num_rows):
        return self._limit(len(self.indices))

    def _own_ids(self, num_rows, pass_idx, seed):
        ids = np.asarray(self.indices[:self._own_count(num_rows)], dtype=np.int64)
        bad = ids[(ids < 0) | (ids >= num_rows)]
        if bad.size:
            raise RuntimeError(f"Sample ID {int(bad[0])} is out of the range [0, {num_rows}) of the dataset.")
        return ids


class SubsetRandomSampler(SubsetSampler):
    """Samples the given row ids in random order (a new order every pass).

    Examples:
        >>> import mindspore.dataset as ds
        >>> sampler = ds.SubsetRandomSampler([0, 1, 2, 3, 7])
    """

    def is_shuffled(self):
        return True

    def _own_ids(self, num_rows, pass_idx, seed):
        # 2.10 keeps the FIRST ``num_samples`` ids and shuffles those (not a random subset of all ids); its
        # SubsetRandomSamplerRT re-seeds std::mt19937 with the same seed every pass and shuffles the previous order.
        ids = self._chained_order(self.indices[:self._own_count(num_rows)], seed, pass_idx, seed_step=0)
        bad = ids[(ids < 0) | (ids >= num_rows)]
        if bad.size:
            raise RuntimeError(f"Sample ID {int(bad[0])} is out of the range [0, {num_rows}) of the dataset.")
        return ids


class WeightedRandomSampler(BuiltinSampler):
    """Samples row ids with probabilities proportional to ``weights``.

    Args:
        weights (list[float]): one non-negative weight per row id.
        num_samples (int, optional): number of draws. Default: None, ``len(weights)``.
        replacement (bool, optional): draw with replacement. Default: True.

    Examples:
        >>> import mindspore.dataset as ds
        >>> sampler = ds.WeightedRandomSampler([0.9, 0.01, 0.09], num_samples=2)
    """

    def __init__(self, weights, num_samples=None, replacement=True):
        if not isinstance(weights, (list, tuple, np.ndarray)):
            raise TypeError(f"weights must be a list, but got {type(weights).__name__}.")
        weights = [float(w) if isinstance(w, numbers.Real) and not isinstance(w, bool) else w for w in weights]
        for i, w in enumerate(weights):
            if not isinstance(w, float):
                raise TypeError(f"Type of weights element must be number, but got list[{i}]: {w}.")
        if not weights:
            raise ValueError("weights size should not be 0.")
        if any(w < 0 for w in weights):
            raise ValueError("weights should not contain negative numbers.")
        if all(w == 0 for w in weights):
            raise ValueError("elements of weights should not be all zero.")
        _check_num_samples(num_samples)
        _check_bool(replacement, "replacement")
        if num_samples is not None and num_samples == 0:
            raise ValueError("num_samples should be a positive integer value, but got num_samples: 0.")
        self.weights = weights
        self.replacement = replacement
        super().__init__(num_samples)

    def is_shuffled(self):
        return True

    def _own_count(self, num_rows):
        count = self.num_samples if self.num_samples is not None else len(self.weights)
        if not self.replacement:
            count = min(count, int(np.count_nonzero(self.weights)))
        return count if num_rows else 0

    def _own_ids(self, num_rows, pass_idx, seed):
        count = self._own_count(num_rows)
        if count == 0:
            return np.zeros(0, np.int64)
        # 2.10's WeightedRandomSamplerRT re-seeds std::mt19937 with the same seed every pass (so every pass draws
        # the same ids): std::discrete_distribution with replacement; without, the ``count`` smallest keys
        # exponential / weight (ties to the lower id)
        stream = cxx_random.MT19937Stream(seed & 0xFFFFFFFF)
        if self.replacement:
            ids = cxx_random.std_discrete(stream, self.weights, count)
        else:
            with np.errstate(divide="ignore"):
                keys = np.asarray(cxx_random.std_exponential(stream, len(self.weights))) / np.asarray(self.weights)
            ids = np.lexsort((np.arange(len(keys)), keys))[:count]
        bad = ids[ids >= num_rows]
        if bad.size:
            raise RuntimeError(f"Sample ID {int(bad[0])} is out of the range [0, {num_rows}) of the dataset.")
        return ids.astype(np.int64)
