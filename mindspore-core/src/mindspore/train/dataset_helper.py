"""DatasetHelper: how ``Model`` pulls batches out of a dataset.

A dataset is anything with ``create_tuple_iterator(num_epochs=..., do_copy=...)`` and
``get_dataset_size()`` (``mindspore.dataset`` datasets, or a user object with the same methods).
One iterator is created for all the epochs of a run, as MindSpore does, so a shuffling dataset
reshuffles per epoch; the iterator raises StopIteration at the end of each epoch and continues with
the next epoch when iterated again. On a device whose runtime uploads batches ahead (the GPU), the batches
are copied to the device by a background thread while the network runs (:mod:`mindspore.train._device_feed`).

* Non-sink mode: iterating the helper yields one epoch of batches (lists of Tensors).
* Sink mode: data is fed from the host (there is no device queue), but the epoch accounting is
  MindSpore's: each pass over the helper yields exactly ``sink_size`` batches, continuing where the
  previous pass stopped and running on into the dataset's next epoch when needed.
"""
from __future__ import annotations

import numbers

from mindspore.ops.function.queue_func import DataQueue

__all__ = ["DatasetHelper", "connect_network_with_dataset"]


def _check_sink_size(sink_size):
    if isinstance(sink_size, bool) or not isinstance(sink_size, numbers.Integral):
        raise TypeError(f"The 'sink_size' must be int, but got {type(sink_size).__name__}.")
    if sink_size < -1 or sink_size == 0:
        raise ValueError(f"The 'sink_size' must be -1 or positive, but got sink_size {sink_size}.")
    return int(sink_size)


def _tuple_iterator(dataset, epoch_num):
    if not hasattr(dataset, "create_tuple_iterator"):
        raise TypeError(f"The dataset must provide 'create_tuple_iterator' (a mindspore.dataset Dataset), but got "
                        f"{type(dataset).__name__}.")
    from mindspore.train import _device_feed
    return _device_feed.feed(dataset, epoch_num)


class _DatasetIterNormal:
    """Non-sink: one pass = one epoch of the underlying iterator."""

    def __init__(self, dataset, epoch_num):
        self.dataset = dataset
        self.iter = _tuple_iterator(dataset, epoch_num)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.iter)

    def get_sink_size(self):
        return 1


class _DatasetIterSink:
    """Sink: one pass = ``sink_size`` batches of a continuous stream over the dataset's epochs."""

    def __init__(self, dataset, sink_size, epoch_num):
        self.dataset = dataset
        self.sink_size = sink_size
        self.iter = _tuple_iterator(dataset, epoch_num)
        self.index = 0
        # MindSpore's transfer of the dataset to its device queue: ``ops.GetNext`` reads the same stream by name
        queue = DataQueue(self._stream_next)
        try:
            dataset.__transfer_dataset__ = queue
        except AttributeError:     # a user object that takes no attributes: the queue lives on the helper
            pass
        self.queue = queue

    def __iter__(self):
        self.index = 0
        return self

    def __next__(self):
        if self.index >= self.sink_size:
            raise StopIteration
        self.index += 1
        return self._stream_next()

    def _stream_next(self):
        try:
            return next(self.iter)
        except StopIteration:
            pass
        try:  # the dataset finished an epoch: the stream goes on with its next epoch
            return next(self.iter)
        except StopIteration:
            raise RuntimeError("The dataset ran out of data in dataset sink mode: it yielded fewer batches than "
                               "epoch * sink_size.") from None

    def get_sink_size(self):
        return self.sink_size


class DatasetHelper:
    """Iterate a dataset the way ``Model`` does (see the module docstring).

    Args:
        dataset (Dataset): The dataset.
        dataset_sink_mode (bool): Sink-mode accounting (``sink_size`` batches per pass). Default: ``True``.
        sink_size (int): Batches per pass in sink mode; -1 means the dataset size. Default: ``-1``.
        epoch_num (int): Passes over the dataset the iterator is created for. Default: ``1``.

    Raises:
        TypeError: If ``dataset_sink_mode`` is not a bool or ``sink_size`` not an int.
        ValueError: If ``sink_size`` is 0 or below -1.

    Examples:
        >>> from mindspore.train import DatasetHelper
        >>> helper = DatasetHelper(dataset, dataset_sink_mode=False)  # doctest: +SKIP
        >>> for data, label in helper:  # doctest: +SKIP
        ...     net(data)
    """

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1):
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"The 'dataset_sink_mode' must be bool, but got {type(dataset_sink_mode).__name__}.")
        sink_size = _check_sink_size(sink_size)
        if sink_size == -1:
            sink_size = dataset.get_dataset_size()
        self._sink_mode = dataset_sink_mode
        if dataset_sink_mode:
            self.iter = _DatasetIterSink(dataset, sink_size, epoch_num)
        else:
            self.iter = _DatasetIterNormal(dataset, epoch_num)

    def __iter__(self):
        return self.iter.__iter__()

    def sink_size(self):
        """Batches per pass: ``sink_size`` in sink mode, 1 otherwise (one batch per network call)."""
        return self.iter.get_sink_size()

    def types_shapes(self):
        """The dataset's output dtypes and shapes, when the dataset reports them."""
        dataset = self.iter.dataset
        return dataset.output_types(), dataset.output_shapes()

    def continue_send(self):
        """Resume feeding at an epoch start (host feeding needs no action)."""

    def stop_send(self):
        """Stop feeding (host feeding needs no action)."""

    def release(self):
        """Free the iterator."""
        self.iter.iter = iter(())


def connect_network_with_dataset(network, dataset_helper):
    """Connect ``network`` to the data of ``dataset_helper`` for sink mode.

    Data is fed from the host here, so the network is returned unchanged and is called with the batches
    the helper yields.

    Examples:
        >>> from mindspore.train import DatasetHelper, connect_network_with_dataset
        >>> net = connect_network_with_dataset(net, DatasetHelper(dataset))  # doctest: +SKIP
    """
    if not isinstance(dataset_helper, DatasetHelper):
        raise TypeError(f"The 'dataset_helper' must be a DatasetHelper, but got {type(dataset_helper).__name__}.")
    return network
