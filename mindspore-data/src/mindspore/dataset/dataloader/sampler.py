"""Samplers of :mod:`mindspore.dataset.dataloader`: which dataset keys to load, in which order, in which batches.

:class:`RandomSampler` draws from a :class:`numpy.random.Generator` (the loader's own when the loader makes it), so
a loader given ``generator=numpy.random.default_rng(seed)`` reproduces 2.10's orders exactly: one
``permutation(n)`` per pass over the data (plus one more, cut short, for the remainder of ``num_samples``), or
``integers(0, n)`` in chunks of 32 with replacement. Each pass continues the generator's stream.
"""
import itertools
from typing import Generic, Iterator, TypeVar

import numpy as np

from ._utils import check_positive, check_type

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "BatchSampler"]

_T_co = TypeVar("_T_co", covariant=True)

_REPLACEMENT_CHUNK = 32


class Sampler(Generic[_T_co]):
    """Base class of samplers: an iterable of dataset keys (or of lists of keys for a batch sampler).

    Args:
        data_source (Dataset, optional): the dataset to sample. Default: ``None``.
    """

    def __init__(self, data_source=None) -> None:
        pass


class SequentialSampler(Sampler[int]):
    """The keys ``0 .. len(data_source) - 1`` in order.

    Args:
        data_source (Dataset): the dataset to sample.

    Examples:
        >>> from mindspore.dataset.dataloader import SequentialSampler
        >>> list(SequentialSampler([10, 20, 30]))
        [0, 1, 2]
    """

    def __init__(self, data_source) -> None:
        super().__init__(data_source)
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler[int]):
    """Keys of ``data_source`` in random order.

    Args:
        data_source (Dataset): the dataset to sample.
        replacement (bool, optional): draw with replacement. Default: ``False``.
        num_samples (int, optional): how many keys one pass gives. Default: ``None``, ``len(data_source)``.
        generator (numpy.random.Generator, optional): the random stream. Default: ``None``, a new generator seeded
            from NumPy's global state at each pass.

    Raises:
        TypeError: ``replacement`` not a bool, ``num_samples`` not an int, ``generator`` not a NumPy Generator.
        ValueError: ``num_samples`` not positive.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset.dataloader import RandomSampler
        >>> sampler = RandomSampler(range(10), generator=np.random.default_rng(0))
        >>> sorted(sampler) == list(range(10))
        True
    """

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None) -> None:
        super().__init__(data_source)
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement must be bool, but got: {type(replacement).__name__}")
        if num_samples is not None and not isinstance(num_samples, int):
            raise TypeError(f"num_samples must be int, but got: {type(num_samples).__name__}")
        if num_samples is not None and num_samples <= 0:
            raise ValueError(f"num_samples must be a positive integer value, but got num_samples = {num_samples}")
        if generator is not None and not isinstance(generator, np.random.Generator):
            raise TypeError(f"generator must be numpy.random.Generator, but got: {type(generator).__name__}")
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator

    @property
    def num_samples(self) -> int:
        """int, the number of keys one pass gives."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        rng = self.generator
        if rng is None:
            rng = np.random.default_rng(np.random.randint(0, 2 ** 63, dtype=np.int64))
        total = self.num_samples
        if self.replacement:
            for start in range(0, total, _REPLACEMENT_CHUNK):
                size = min(_REPLACEMENT_CHUNK, total - start)
                yield from rng.integers(0, n, size=size, dtype=np.int64).tolist()
            if total % _REPLACEMENT_CHUNK == 0:
                rng.integers(0, n, size=0, dtype=np.int64)   # 2.10 draws an empty remainder chunk too
            return
        for _ in range(total // n):
            yield from rng.permutation(n).tolist()
        # the remainder comes from one more permutation (drawn even when the remainder is empty, as 2.10)
        yield from rng.permutation(n).tolist()[:total % n]

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list]):
    """Groups the keys of ``sampler`` into lists of ``batch_size``.

    Args:
        sampler (Union[Sampler, Iterable]): the keys.
        batch_size (int): keys per batch.
        drop_last (bool): drop a last batch shorter than ``batch_size``.

    Raises:
        TypeError: ``batch_size`` not an int (bools refused), ``drop_last`` not a bool.
        ValueError: ``batch_size`` not positive.

    Examples:
        >>> from mindspore.dataset.dataloader import BatchSampler, SequentialSampler
        >>> list(BatchSampler(SequentialSampler(range(10)), 4, False))
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    """

    def __init__(self, sampler, batch_size, drop_last) -> None:
        super().__init__()
        check_type(batch_size, "batch_size", valid_type=int, invalid_type=bool)
        check_positive(batch_size, "batch_size")
        check_type(drop_last, "drop_last", valid_type=bool)
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list]:
        keys = iter(self.sampler)
        while True:
            batch = list(itertools.islice(keys, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


class InfiniteSampler(Sampler):
    """The sampler of an iterable dataset: endless ``None`` keys (the dataset's iterator decides when to stop)."""

    def __iter__(self):
        return itertools.repeat(None)
