"""The :class:`DataLoader`: batches of a map-style or iterable dataset, loaded in this process or in workers.

Design. The loader turns its arguments into one *index sampler*: a batch sampler (``batch_size`` given, or
``batch_sampler``), whose lists of keys are fetched and passed to ``collate_fn`` (:func:`default_collate`), or a
plain sampler (``batch_size=None``), whose single keys are fetched and passed to ``collate_fn``
(:func:`default_convert`). An iterable dataset's sampler yields ``None`` keys forever; its fetcher stops when the
dataset's iterator does.

With ``num_workers > 0`` an iterator starts ``num_workers`` processes (2.10's default start method is the platform's,
``fork`` on Linux; ``multiprocessing_context`` picks another). Tasks (one index-sampler item each, numbered in
sampler order) go to the workers round-robin, at most ``prefetch_factor`` per worker ahead of the consumer; results
come back on one queue. With ``in_order`` they are handed out in task order (later ones wait in a reorder buffer),
else as they arrive (with tasks then going to the least-loaded worker). A worker whose iterable dataset is exhausted
gets no more tasks, and the tasks it still had are skipped; the pass ends when no task is left. Without
``persistent_workers`` the workers exit at the end of each pass (the next pass starts new ones, with a new base
seed from ``generator``); with it they live as long as the loader, and a new pass tags its tasks with a new epoch
number, on which each worker rewinds its fetcher.

``pin_memory`` is accepted and has no effect here: this project's tensors are host buffers that a backend copies to
its device when an operator runs, so there is no page-locked staging copy to make (2.10 warns likewise on CPU).
"""
import multiprocessing
import os
import queue
import time
import weakref

import numpy as np

import mindspore as ms
from mindspore import log as logger
from .dataset import IterableDataset
from .sampler import BatchSampler, InfiniteSampler, RandomSampler, SequentialSampler
from ._utils import (JOIN_TIMEOUT, POLL_INTERVAL, check_exclusive, check_non_negative, check_positive,
                     check_type)
from ._utils.worker import END_OF_DATA, IterableFetcher, MapFetcher, WorkerException, worker_loop

__all__ = ["DataLoader"]


def _check_arguments(args):
    """2.10's checks of DataLoader's arguments, in its order (the first failing one is reported)."""
    iterable = isinstance(args["dataset"], IterableDataset)
    if iterable:
        for name, given in (("shuffle", args["shuffle"]), ("sampler", args["sampler"] is not None),
                            ("batch_sampler", args["batch_sampler"] is not None)):
            check_exclusive(given, name, "when dataset is iterable style")
    elif not hasattr(args["dataset"], "__getitem__"):
        # the type 2.10 raises for a map-style dataset without __getitem__
        raise NotImplementedError(
            f"{type(args['dataset']).__name__} should implement __getitem__ method if it is map style.")
    check_type(args["batch_size"], "batch_size", valid_type=int, invalid_type=bool, allow_none=True)
    check_positive(args["batch_size"], "batch_size", allow_none=True)
    check_type(args["shuffle"], "shuffle", valid_type=bool, allow_none=True)
    if args["sampler"] is not None and args["shuffle"]:
        raise ValueError("sampler cannot be specified with shuffle.")
    if args["batch_sampler"] is not None:
        for name, given in (("batch_size", args["batch_size"] != 1), ("shuffle", args["shuffle"]),
                            ("sampler", args["sampler"] is not None), ("drop_last", args["drop_last"])):
            check_exclusive(given, name, "with batch_sampler")
    check_type(args["num_workers"], "num_workers", valid_type=int, invalid_type=bool)
    check_non_negative(args["num_workers"], "num_workers")
    check_type(args["pin_memory"], "pin_memory", valid_type=bool)
    check_type(args["drop_last"], "drop_last", valid_type=bool)
    check_type(args["timeout"], "timeout", valid_type=(int, float), invalid_type=bool)
    check_non_negative(args["timeout"], "timeout")
    context = args["multiprocessing_context"]
    _check_worker_only(args, "multiprocessing_context", context is not None)
    if context is not None and not isinstance(context, (str, multiprocessing.context.BaseContext)):
        raise TypeError(f"multiprocessing_context must be {multiprocessing.get_all_start_methods()} or "
                        f"multiprocessing.context.BaseContext, but got: {context}.")
    check_type(args["generator"], "generator", valid_type=np.random.Generator, allow_none=True)
    _check_worker_only(args, "prefetch_factor", args["prefetch_factor"] is not None)
    if args["prefetch_factor"] is not None:
        check_type(args["prefetch_factor"], "prefetch_factor", valid_type=int, invalid_type=bool)
        check_positive(args["prefetch_factor"], "prefetch_factor")
    check_type(args["persistent_workers"], "persistent_workers", valid_type=bool)
    _check_worker_only(args, "persistent_workers", args["persistent_workers"])
    check_type(args["in_order"], "in_order", valid_type=bool)


def _check_worker_only(args, name, given):
    if given and args["num_workers"] <= 0:
        raise ValueError(f"{name} must only be specified when num_workers is greater than 0, "
                         f"but got: {args['num_workers']}.")


class DataLoader:
    """An iterable over batches of ``dataset``, loaded in this process or in worker processes.

    Each item is ``collate_fn`` of a batch of samples (:func:`~mindspore.dataset.dataloader.default_collate` makes
    :class:`mindspore.Tensor` of NumPy arrays, numbers and tensors, keeping dicts, lists and namedtuples), or of one
    sample when ``batch_size`` is ``None`` (:func:`~mindspore.dataset.dataloader.default_convert`).

    Args:
        dataset (Dataset): a map-style dataset (``__getitem__``) or an
            :class:`~mindspore.dataset.dataloader.IterableDataset`.
        batch_size (Union[int, None], optional): samples per batch; ``None`` turns batching off. Default: ``1``.
        shuffle (Union[bool, None], optional): visit a map-style dataset in random order. Default: ``None``.
        sampler (Union[Sampler, Iterable, None], optional): the keys to load, in order (not with ``shuffle``).
            Default: ``None``, sequential or random.
        batch_sampler (Union[Sampler, Iterable, None], optional): lists of keys, one per batch (not with
            ``batch_size``, ``shuffle``, ``sampler`` or ``drop_last``). Default: ``None``.
        num_workers (int, optional): worker processes; ``0`` loads in this process. Default: ``0``.
        collate_fn (Callable, optional): makes a batch of a list of samples. Default: ``None``.
        pin_memory (bool, optional): accepted, no effect here (see the module docstring). Default: ``False``.
        drop_last (bool, optional): drop a last batch shorter than ``batch_size``. Default: ``False``.
        timeout (float, optional): seconds to wait for a worker's batch before raising; ``0`` waits for ever.
            Default: ``0.0``.
        worker_init_fn (Callable[[int], None], optional): called with the worker id in each new worker, after
            seeding. Default: ``None``.
        multiprocessing_context (Union[str, multiprocessing.context.BaseContext], optional): how workers start
            (``"fork"``, ``"spawn"``, ``"forkserver"``). Default: ``None``, the platform's default.
        generator (numpy.random.Generator, optional): the random stream of ``shuffle`` and of the workers' base
            seeds. Default: ``None``, a new unseeded generator.

    Keyword Args:
        prefetch_factor (int, optional): tasks per worker in flight. Default: ``None``, 2 with workers.
        persistent_workers (bool, optional): keep the workers between passes. Default: ``False``.
        in_order (bool, optional): return batches in sampler order with workers. Default: ``True``.

    Raises:
        TypeError: an argument of the wrong type.
        ValueError: a value out of range or arguments that cannot be combined (2.10's messages, e.g.
            "batch_size cannot be specified with batch_sampler.").

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset.dataloader import DataLoader, Dataset
        >>> class Squares(Dataset):
        ...     def __getitem__(self, index):
        ...         return np.float32(index * index)
        ...     def __len__(self):
        ...         return 5
        >>> [batch.asnumpy().tolist() for batch in DataLoader(Squares(), batch_size=2)]
        [[0.0, 1.0], [4.0, 9.0], [16.0]]
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0.0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 in_order=True) -> None:
        _check_arguments(dict(locals()))
        self.dataset = dataset
        self.num_workers = num_workers
        self.collate_fn = collate_fn
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.generator = generator if generator is not None else np.random.default_rng()
        self.persistent_workers = persistent_workers
        self.in_order = in_order
        self._iterable = isinstance(dataset, IterableDataset)
        if sampler is None:
            if self._iterable:
                sampler = InfiniteSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=self.generator)
            else:
                sampler = SequentialSampler(dataset)
        self.sampler = sampler
        if batch_sampler is not None:
            batch_size, drop_last = None, False
        elif batch_size is not None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.batch_sampler = batch_sampler
        if isinstance(multiprocessing_context, str):
            multiprocessing_context = multiprocessing.get_context(multiprocessing_context)
        self.multiprocessing_context = multiprocessing_context or multiprocessing.get_context()
        if prefetch_factor is None and num_workers > 0:
            prefetch_factor = 2
        self.prefetch_factor = prefetch_factor
        self._workers_iterator = None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self.batch_sampler is not None else self.sampler

    def _make_fetcher(self):
        auto_collation = self.batch_sampler is not None
        if self._iterable:
            return IterableFetcher(self.dataset, auto_collation, self.collate_fn, self.drop_last)
        return MapFetcher(self.dataset, auto_collation, self.collate_fn)

    def __iter__(self):
        if self.pin_memory:
            target = ms.get_context("device_target")
            if target == "CPU":
                logger.warning("Set pin_memory as True on CPU device will not have any effect.")
            else:
                logger.warning(f"pin_memory has no effect on {target} here: batches are host tensors that are copied "
                               f"to the device when an operator uses them.")
        if self.num_workers == 0:
            return _SingleProcessIterator(self)
        if not self.persistent_workers:
            return _MultiProcessIterator(self)
        if self._workers_iterator is None:
            self._workers_iterator = _MultiProcessIterator(self)
        else:
            self._workers_iterator.restart()
        return self._workers_iterator

    def __len__(self):
        if self._iterable:
            # the dataset's own length (TypeError without one), in batches as the loader would make them
            size = len(self.dataset)
            if self.batch_size is None:
                return size
            if self.drop_last:
                return size // self.batch_size
            return (size + self.batch_size - 1) // self.batch_size
        return len(self._index_sampler)


class _SingleProcessIterator:
    """Fetches each batch in this process when it is asked for."""

    def __init__(self, loader):
        self._sampler = loader._index_sampler
        self._keys = iter(self._sampler)
        self._fetcher = loader._make_fetcher()
        self._fetcher.start()       # as 2.10: an iterable dataset's iterator is made with the loader's

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._sampler)

    def __next__(self):
        return self._fetcher.fetch(next(self._keys))


class _MultiProcessIterator:
    """Hands tasks to worker processes and returns their batches (see the module docstring)."""

    def __init__(self, loader):
        # no reference to the loader: a persistent loader holds its iterator, and a cycle would keep the workers
        # alive until the garbage collector runs
        self._sampler = loader._index_sampler
        self._prefetch_factor = loader.prefetch_factor
        self._iterable = loader._iterable
        self._num_workers = loader.num_workers
        self._persistent = loader.persistent_workers
        self._in_order = loader.in_order
        self._timeout = loader.timeout
        self._warn_if_too_many_workers()
        # load the backend plugins here once, so that forked workers inherit them instead of each loading them
        ms.plugin.current_target()
        base_seed = int(loader.generator.integers(0, 2 ** 63, dtype=np.int64))
        context = loader.multiprocessing_context
        self._results = context.Queue()
        self._index_queues, self._workers = [], []
        fetcher = loader._make_fetcher()
        for worker_id in range(self._num_workers):
            index_queue = context.Queue()
            worker = context.Process(
                target=worker_loop, name=f"DataLoaderWorker{worker_id}", daemon=True,
                args=(loader.dataset, fetcher, self._num_workers, worker_id, index_queue, self._results,
                      loader.worker_init_fn, base_seed))
            worker.start()
            self._index_queues.append(index_queue)
            self._workers.append(worker)
        self._closed = False
        # a finalizer, not __del__: it holds no reference to the iterator, and also runs at interpreter exit
        self._finalizer = weakref.finalize(self, _shut_down, self._workers, self._index_queues, self._results)
        self._epoch = -1
        self.restart()

    def _warn_if_too_many_workers(self):
        if hasattr(os, "sched_getaffinity"):
            cpus, where = len(os.sched_getaffinity(0)), "CPUs {} in the CPU set the current process is restricted to"
        else:
            cpus, where = os.cpu_count(), "logical CPUs {} in the system"
        if self._num_workers > cpus:
            logger.warning(
                f"DataLoader's num_workers with value {self._num_workers} is set too high, exceeding the number of "
                f"{where.format(cpus)}, which may lead to competition for resources and slow down performance of "
                f"DataLoader. It is recommended to reduce the value of num_workers.")

    def restart(self):
        """Start a pass: new keys, a new epoch tag, ``prefetch_factor`` tasks per worker sent ahead."""
        if self._closed:
            raise RuntimeError("DataLoader workers have been shut down; create a new iterator.")
        self._epoch += 1
        self._keys = iter(self._sampler)
        self._sent = 0                  # tasks numbered so far
        self._next = 0                  # the task number in_order returns next
        self._owner = {}                # task number -> worker, for tasks not yet returned
        self._done = {}                 # task number -> result that came early (in_order)
        self._load = [0] * self._num_workers
        self._active = [True] * self._num_workers
        self._last_worker = -1
        for _ in range(self._num_workers * self._prefetch_factor):
            self._send_task()

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._sampler)

    def _pick_worker(self):
        active = sum(self._active)
        fair_share = sum(self._load) // active + 1 if active else 0
        for step in range(1, self._num_workers + 1):
            worker = (self._last_worker + step) % self._num_workers
            if self._active[worker] and (self._in_order or self._load[worker] < fair_share):
                return worker
        return None

    def _send_task(self):
        worker = self._pick_worker()
        if worker is None:
            return
        try:
            key = next(self._keys)
        except StopIteration:
            return
        self._index_queues[worker].put((self._epoch, self._sent, key))
        self._owner[self._sent] = worker
        self._load[worker] += 1
        self._last_worker = worker
        self._sent += 1

    def _finish_task(self, order):
        worker = self._owner.pop(order)
        self._load[worker] -= 1
        self._send_task()

    def __next__(self):
        while self._owner:
            if self._in_order:
                while self._next < self._sent and self._next not in self._owner:
                    self._next += 1     # a task skipped (its worker's iterable dataset ended)
                if self._next in self._done:
                    return self._hand_out(self._next, self._done.pop(self._next))
            order, data = self._receive()
            if data is END_OF_DATA:
                self._retire(order)
            elif not self._in_order or order == self._next:
                return self._hand_out(order, data)
            else:
                self._done[order] = data
        if not self._persistent:
            self.close()
        raise StopIteration

    def _hand_out(self, order, data):
        self._finish_task(order)
        if self._in_order:
            self._next = order + 1
        if isinstance(data, WorkerException):
            data.reraise()
        return data

    def _retire(self, order):
        """The worker that answered task ``order`` has exhausted its iterable dataset: drop that task and its later
        ones (its earlier results still count)."""
        worker = self._owner[order]
        self._active[worker] = False
        for task in [t for t, w in self._owner.items() if w == worker and t >= order]:
            del self._owner[task]
            self._load[worker] -= 1
        self._send_task()

    def _receive(self):
        """The next ``(order, data)`` of this pass from the result queue; raise if a worker died or on timeout."""
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        while True:
            wait = POLL_INTERVAL if deadline is None else max(0.0, min(POLL_INTERVAL, deadline - time.monotonic()))
            try:
                epoch, order, data = self._results.get(timeout=wait)
            except queue.Empty:
                self._check_workers_alive()
                if deadline is not None and time.monotonic() >= deadline:
                    raise RuntimeError(f"DataLoader timed out waiting for data after {self._timeout} seconds.")
                continue
            if epoch is None:           # the worker failed before its first task
                data.reraise()
            if epoch == self._epoch and order in self._owner:
                return order, data

    def _check_workers_alive(self):
        dead = [w for i, w in enumerate(self._workers) if self._active[i] and not w.is_alive()]
        if dead:
            pids = ", ".join(str(w.pid) for w in dead)
            raise RuntimeError(f"DataLoader worker (pid(s): {pids}) exited unexpectedly.")

    def close(self):
        """Stop the workers (idempotent)."""
        if not self._closed:
            self._closed = True
            self._finalizer()


def _shut_down(workers, index_queues, results):
    """Tell every worker to exit, wait a while, terminate those that do not (outside the iterator: a finalizer)."""
    for index_queue in index_queues:
        try:
            index_queue.put(None)
        except (OSError, ValueError):
            pass
    deadline = time.monotonic() + JOIN_TIMEOUT
    while any(w.is_alive() for w in workers) and time.monotonic() < deadline:
        # drain results nobody will read: a worker cannot exit while its last results wait for room in the pipe
        try:
            results.get(timeout=0.05)
        except Exception:  # noqa: BLE001 - empty, closed, or a result that does not unpickle: all are dropped
            pass
    for worker in workers:
        if worker.is_alive():
            logger.warning(f"DataLoader worker (pid: {worker.pid}) failed to join within {JOIN_TIMEOUT} seconds "
                           f"and will be terminated manually.")
            worker.terminate()
            worker.join(timeout=1.0)
    for q in [*index_queues, results]:
        q.cancel_join_thread()
        q.close()
