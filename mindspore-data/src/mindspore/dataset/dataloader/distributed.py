"""The :class:`DistributedSampler`: each of ``num_replicas`` processes loads its own share of a map-style dataset."""
import math

import numpy as np

import mindspore as ms
from .sampler import Sampler

__all__ = ["DistributedSampler"]


class DistributedSampler(Sampler):
    """Gives rank ``rank`` of ``num_replicas`` every ``num_replicas``-th key of one (shuffled) order of the dataset.

    The order is ``numpy.random.default_rng(seed + epoch).permutation(len(dataset))`` when ``shuffle`` (the same on
    every rank: all ranks must use the same ``seed`` and call :meth:`set_epoch` alike), else ``0 .. len - 1``. So
    that every rank gets ``ceil(len / num_replicas)`` keys, the order is padded by repeating its head; with
    ``drop_last`` it is cut to a multiple of ``num_replicas`` instead.

    Args:
        dataset (Dataset): the dataset to sample (it needs ``__len__``).
        num_replicas (int, optional): the number of ranks. Default: ``None``, the world size of
            :mod:`mindspore.mint.distributed` (which must be initialised).
        rank (int, optional): this process's rank. Default: ``None``, the rank from
            :mod:`mindspore.mint.distributed`.
        shuffle (bool, optional): shuffle the keys. Default: ``True``.
        seed (int, optional): the seed of the shuffle. Default: ``0``.
        drop_last (bool, optional): drop the tail instead of padding. Default: ``False``.

    Raises:
        TypeError: an argument of the wrong type.
        ValueError: ``num_replicas`` not positive, or ``rank`` outside ``[0, num_replicas - 1]``.
        RuntimeError: ``num_replicas`` or ``rank`` not given and distributed communication is not available.

    Examples:
        >>> from mindspore.dataset.dataloader import DistributedSampler
        >>> list(DistributedSampler(range(10), num_replicas=3, rank=0, shuffle=False))
        [0, 3, 6, 9]
    """

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False) -> None:
        super().__init__(dataset)
        for name, value, kind in (("num_replicas", num_replicas, int), ("rank", rank, int)):
            if value is not None and not isinstance(value, kind):
                raise TypeError(f"{name} must be int, but got: {type(value).__name__}")
        for name, value, kind in (("shuffle", shuffle, bool), ("seed", seed, int), ("drop_last", drop_last, bool)):
            if not isinstance(value, kind):
                raise TypeError(f"{name} must be {kind.__name__}, but got: {type(value).__name__}")
        if num_replicas is None:
            num_replicas = _from_communication("get_world_size")
        if rank is None:
            rank = _from_communication("get_rank")
        if num_replicas <= 0:
            raise ValueError(f"Invalid num_replicas: {num_replicas}, num_replicas must be greater than 0.")
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank: {rank}, rank must be in the interval [0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.shuffle = shuffle
        self.seed = seed
        self.drop_last = drop_last
        self.epoch = 0
        size = len(dataset)
        if drop_last and size % num_replicas:
            self.num_samples = math.ceil((size - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(size / num_replicas)
        self.total_samples = self.num_samples * num_replicas

    def __iter__(self):
        size = len(self.dataset)
        if self.shuffle:
            order = np.random.default_rng(self.seed + self.epoch).permutation(size).tolist()
        else:
            order = list(range(size))
        if self.drop_last:
            order = order[:self.total_samples]
        else:
            missing = self.total_samples - size
            order += (order * math.ceil(missing / size))[:missing] if missing > 0 else []
        return iter(order[self.rank:self.total_samples:self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch) -> None:
        """Set the epoch, which changes the shuffle of the next pass (call it alike on every rank).

        Args:
            epoch (int): the epoch number.
        """
        if not isinstance(epoch, int):
            raise TypeError(f"epoch must be int, but got: {type(epoch).__name__}")
        self.epoch = epoch


def _from_communication(getter):
    distributed = ms.mint.distributed
    if not distributed.is_available():
        raise RuntimeError("MindSpore distributed feature is not available.")
    return getattr(distributed, getter)()
