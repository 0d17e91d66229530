"""The dataset bases of :mod:`mindspore.dataset.dataloader`: map-style, iterable and Tensor-backed."""
from typing import Generic, Iterable, TypeVar

__all__ = ["Dataset", "IterableDataset", "TensorDataset"]

_T_co = TypeVar("_T_co", covariant=True)


class Dataset(Generic[_T_co]):
    """Base class of map-style datasets: a mapping from keys (usually ``0 .. len - 1``) to samples.

    Subclasses define ``__getitem__`` and usually ``__len__`` (the built-in samplers and ``len(DataLoader)`` need
    it).

    Examples:
        >>> from mindspore.dataset.dataloader import Dataset
        >>> class Squares(Dataset):
        ...     def __getitem__(self, index):
        ...         return index * index
        ...     def __len__(self):
        ...         return 4
        >>> Squares()[3]
        9
    """

    def __init__(self) -> None:
        pass

    def __getitem__(self, index):
        # the abstract method of the base class, as in 2.10: a subclass that forgot it is told so
        raise NotImplementedError(f"{self.__class__.__name__} must implement __getitem__ method.")


class IterableDataset(Dataset[_T_co], Iterable[_T_co]):
    """Base class of iterable datasets: a stream of samples, for data that cannot be read at random.

    Subclasses define ``__iter__``. With ``num_workers > 0`` every worker iterates its own copy of the dataset:
    splitting the stream between workers is the dataset's job, with
    :func:`~mindspore.dataset.dataloader.get_worker_info` (otherwise each sample comes once per worker).

    Examples:
        >>> from mindspore.dataset.dataloader import IterableDataset
        >>> class Numbers(IterableDataset):
        ...     def __iter__(self):
        ...         return iter(range(3))
        >>> list(Numbers())
        [0, 1, 2]
    """

    def __iter__(self):
        raise NotImplementedError(f"{self.__class__.__name__} must implement __iter__ method.")


class TensorDataset(Dataset):
    """A dataset of :class:`mindspore.Tensor` columns: sample ``i`` is the tuple of each tensor's row ``i``.

    Args:
        *tensors (mindspore.Tensor): the columns, all with the same size of their first dimension.

    Raises:
        ValueError: tensors of different first dimensions.

    Examples:
        >>> from mindspore import Tensor, int32
        >>> from mindspore.dataset.dataloader import TensorDataset
        >>> dataset = TensorDataset(Tensor([0, 1], dtype=int32), Tensor([2, 3], dtype=int32))
        >>> dataset[1]
        (Tensor(shape=[], dtype=Int32, value= 1), Tensor(shape=[], dtype=Int32, value= 3))
    """

    def __init__(self, *tensors) -> None:
        super().__init__()
        if any(tensor.shape[0] != tensors[0].shape[0] for tensor in tensors):
            raise ValueError("All tensors must have the same size in the first dimension.")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]
