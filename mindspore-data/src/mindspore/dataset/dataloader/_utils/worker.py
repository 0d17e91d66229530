"""What runs inside a DataLoader worker process, and the fetchers that turn sampler output into batches.

A worker gets ``(epoch, order, index)`` tasks on its own index queue and answers ``(epoch, order, data)`` on the
shared result queue, where ``data`` is the fetched batch, a :class:`WorkerException`, or :data:`END_OF_DATA` (its
copy of an iterable dataset is exhausted). ``None`` on the index queue tells it to exit. A task of a new epoch
resets the fetcher (a persistent worker starting the next pass); results of an older epoch are dropped by the main
process. The worker exits by itself when its parent dies.

Seeding follows 2.10: worker ``i`` of a loader whose base seed (drawn from the loader's ``generator``) is ``b``
seeds Python's ``random`` and MindSpore with ``b + i`` (MindSpore's global seed with its low 32 bits) and
``numpy.random`` with the four words of ``numpy.random.SeedSequence([i, b & 0xFFFFFFFF, b >> 32, 0])`` (so the
NumPy and Python streams of a worker differ).
"""
import os
import queue
import random
import sys
import traceback

import numpy as np

import mindspore
from . import POLL_INTERVAL
from .collate import default_collate, default_convert

_WORKER_INFO = None


class _EndOfData:
    """The answer of a worker whose iterable dataset is exhausted."""

    def __reduce__(self):
        return "END_OF_DATA"


END_OF_DATA = _EndOfData()


class WorkerInfo:
    """Read-only facts about the current worker: ``id``, ``num_workers``, ``seed`` and its copy of ``dataset``."""

    __slots__ = ("id", "num_workers", "seed", "dataset")

    def __init__(self, id, num_workers, seed, dataset):  # noqa: A002 - 2.10's attribute name
        for name, value in (("id", id), ("num_workers", num_workers), ("seed", seed), ("dataset", dataset)):
            object.__setattr__(self, name, value)

    def __setattr__(self, key, value):
        raise RuntimeError("Cannot modify the attributes of WorkerInfo object after initialization.")

    def __repr__(self):
        return (f"WorkerInfo: {{id: {self.id}, num_workers: {self.num_workers}, seed: {self.seed}, "
                f"dataset: {self.dataset}}}")


def get_worker_info():
    """Information about the current :class:`~mindspore.dataset.dataloader.DataLoader` worker process.

    It holds ``id`` (this worker's number), ``num_workers``, ``seed`` (the loader's base seed plus ``id``: what
    ``random`` and MindSpore were seeded with in this worker) and ``dataset`` (this worker's copy of the dataset).
    An :class:`~mindspore.dataset.dataloader.IterableDataset` uses it to give each worker its own share of the data.

    Returns:
        Union[WorkerInfo, None], ``None`` outside a worker process.

    Examples:
        >>> from mindspore.dataset.dataloader import IterableDataset, get_worker_info
        >>> class Numbers(IterableDataset):
        ...     def __iter__(self):
        ...         info = get_worker_info()
        ...         if info is None:
        ...             return iter(range(10))
        ...         return iter(range(info.id, 10, info.num_workers))
    """
    return _WORKER_INFO


class WorkerException:
    """An exception raised in a worker, carried to the main process with its traceback as text."""

    def __init__(self, worker_id):
        self.worker_id = worker_id
        self.pid = os.getpid()
        exc_type, exc_value, exc_tb = sys.exc_info()
        self.exc_type = exc_type
        self.text = "".join(traceback.format_exception(exc_type, exc_value, exc_tb))

    def reraise(self):
        message = (f"DataLoader worker {self.worker_id} (pid: {self.pid}) caught {self.exc_type.__name__} with "
                   f"message:\n{self.text}")
        # as 2.10: the original type only where it takes a `message` keyword (few do), else a RuntimeError
        try:
            error = self.exc_type(message=message)
        except Exception:  # noqa: BLE001 - any constructor failure means: report as RuntimeError
            raise RuntimeError(message) from None
        raise error


class MapFetcher:
    """Fetches ``dataset[i]`` for each index of a batch (or the one index when batching is off) and collates."""

    def __init__(self, dataset, auto_collation, collate_fn):
        self.dataset = dataset
        self.auto_collation = auto_collation
        if collate_fn is None:
            collate_fn = default_collate if auto_collation else default_convert
        self.collate_fn = collate_fn

    def reset(self):
        """Nothing to rewind for a map-style dataset."""

    def start(self):
        """Nothing to open for a map-style dataset."""

    def fetch(self, index):
        if self.auto_collation:
            return self.collate_fn([self.dataset[i] for i in index])
        return self.collate_fn(self.dataset[index])


class IterableFetcher(MapFetcher):
    """Takes as many samples from ``iter(dataset)`` as the batch has indices; the short last batch is kept unless
    ``drop_last``. Raises StopIteration once the dataset is exhausted, until :meth:`reset`."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        super().__init__(dataset, auto_collation, collate_fn)
        self.drop_last = drop_last
        self._iterator = None
        self._ended = False

    def reset(self):
        self._iterator = None
        self._ended = False

    def start(self):
        """Make the dataset's iterator now rather than at the first fetch."""
        self._iterator = iter(self.dataset)

    def fetch(self, index):
        if self._ended:
            raise StopIteration
        if self._iterator is None:
            self._iterator = iter(self.dataset)
        if not self.auto_collation:
            return self.collate_fn(next(self._iterator))
        samples = []
        for _ in index:
            try:
                samples.append(next(self._iterator))
            except StopIteration:
                self._ended = True
                break
        if not samples or (self.drop_last and len(samples) < len(index)):
            self._ended = True
            raise StopIteration
        return self.collate_fn(samples)


def _seed_worker(base_seed, worker_id):
    seed = base_seed + worker_id
    random.seed(seed)
    mindspore.set_seed(seed & 0xFFFFFFFF)
    mindspore.manual_seed(seed)
    words = np.random.SeedSequence([worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32, 0]).generate_state(4)
    np.random.seed(words)
    return seed


def worker_loop(dataset, fetcher, num_workers, worker_id, index_queue, result_queue, worker_init_fn, base_seed):
    """The body of worker process ``worker_id`` (see the module docstring for the protocol)."""
    global _WORKER_INFO
    parent = os.getppid()
    try:
        seed = _seed_worker(base_seed, worker_id)
        _WORKER_INFO = WorkerInfo(worker_id, num_workers, seed, dataset)
        if worker_init_fn is not None:
            worker_init_fn(worker_id)
        fetcher.reset()
    except Exception:  # noqa: BLE001 - reported to the main process, which raises it
        result_queue.put((None, None, WorkerException(worker_id)))
        return
    epoch, exhausted = None, False
    try:
        while True:
            try:
                task = index_queue.get(timeout=POLL_INTERVAL)
            except queue.Empty:
                if os.getppid() != parent:
                    break
                continue
            if task is None:
                break
            task_epoch, order, index = task
            if task_epoch != epoch:
                if epoch is not None:
                    fetcher.reset()
                epoch, exhausted = task_epoch, False
            if exhausted:
                continue
            try:
                data = fetcher.fetch(index)
            except StopIteration:
                exhausted = True
                data = END_OF_DATA
            except Exception:  # noqa: BLE001 - carried to the main process
                data = WorkerException(worker_id)
            result_queue.put((epoch, order, data))
            del data, task
    except KeyboardInterrupt:
        pass
