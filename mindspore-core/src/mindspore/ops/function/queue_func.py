"""Named data queues and ``ops.GetNext``, which reads them.

MindSpore's dataset sink mode sends a dataset's batches into a device queue with a generated name
(``dataset.__transfer_dataset__.queue_name``) that a ``GetNext`` operator of the network reads. Here the batches
stay on the host: :class:`DataQueue` is the named queue over the same batch stream that ``DatasetHelper`` (sink
mode) and ``data_sink`` iterate, registered by name while its owner lives; ``GetNext(types, shapes, output_num,
shared_name)()`` takes the queue's next batch and checks it against the declared dtypes and shapes. A name no live
queue has is an error naming what makes one. Inside a compiled graph the read is a ``PyFunc`` node (a side effect),
so every run of the graph takes the next batch.
"""
import uuid
import weakref

from mindspore._core.primitive import prim_attr_register
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore._infer import staging as _staging
from mindspore.ops._defs.control_prims import PyFunc, _CallOnly

__all__ = []

_QUEUES = weakref.WeakValueDictionary()


class DataQueue:
    """A named queue of batches: ``next_batch()`` calls ``source()`` (which returns a tuple of Tensors). The name is
    registered for :class:`GetNext` until the queue is garbage."""

    def __init__(self, source, queue_name=None):
        self.queue_name = queue_name or str(uuid.uuid4())
        self._source = source
        _QUEUES[self.queue_name] = self

    def next_batch(self):
        return tuple(self._source())


def _check_shapes(name, types, shapes):
    if not isinstance(types, (list, tuple)):
        raise MSTypeError(f"For '{name}', the 'types' must be a list or tuple, but got {type(types).__name__}.")
    if not isinstance(shapes, (list, tuple)):
        raise MSTypeError(f"For '{name}', the 'shapes' must be a list or tuple, but got {type(shapes).__name__}.")
    if len(types) != len(shapes):
        raise MSValueError(f"For '{name}', the 'types length' must be equal to 'shapes length': {len(shapes)}, but "
                           f"got {len(types)}.")


class GetNext(_CallOnly):
    """``GetNext(types, shapes, output_num, shared_name)()``: the next batch of the data queue ``shared_name`` (a
    tuple of Tensors of the declared dtypes and shapes; -1 or None in a shape matches any size).

    The queue is made by dataset sink mode: ``DatasetHelper(dataset, dataset_sink_mode=True)`` (and ``Model`` in
    sink mode) or ``data_sink``; its name is ``dataset.__transfer_dataset__.queue_name``.

    Examples:
        >>> helper = ms.train.DatasetHelper(dataset, dataset_sink_mode=True)
        >>> types, shapes = helper.types_shapes()
        >>> name = helper.iter.dataset.__transfer_dataset__.queue_name
        >>> data, label = ops.GetNext(types, shapes, len(types), name)()
    """

    @prim_attr_register
    def __init__(self, types, shapes, output_num, shared_name):
        _check_shapes(self.name, types, shapes)
        if isinstance(output_num, bool) or not isinstance(output_num, int):
            raise MSTypeError(f"For '{self.name}', the 'output_num' must be int, but got "
                              f"{type(output_num).__name__}.")

    def __call__(self):
        if _staging.active():
            # inside a graph being compiled: a PyFunc node (a side effect, run at every run of the graph) reads
            # the queue then, instead of one batch being read now and frozen into the graph as a constant
            shapes = [tuple(int(d) for d in s) for s in self.shapes]
            if any(d < 0 for s in shapes for d in s):
                raise MSRuntimeError(f"For '{self.name}', a compiled graph needs static 'shapes', but got "
                                     f"{self.shapes}.")
            types = [mstype.to_ms_dtype(t) for t in self.types]
            read = PyFunc(lambda: tuple(t.asnumpy() for t in self._read()), [], [], types, shapes)
            return read()
        return self._read()

    def _read(self):
        queue = _QUEUES.get(self.shared_name)
        if queue is None:
            raise MSRuntimeError(f"For '{self.name}', there is no data queue named '{self.shared_name}': a queue is "
                                 f"made by dataset sink mode (DatasetHelper(dataset, dataset_sink_mode=True), Model in "
                                 f"sink mode, or data_sink) and named by 'dataset.__transfer_dataset__.queue_name'.")
        batch = queue.next_batch()
        if len(batch) != self.output_num:
            raise MSRuntimeError(f"For '{self.name}', the queue '{self.shared_name}' holds {len(batch)} columns, but "
                                 f"'output_num' is {self.output_num}.")
        for i, (item, dtype, shape) in enumerate(zip(batch, self.types, self.shapes)):
            want_dtype = mstype.to_ms_dtype(dtype)
            fits = len(shape) == item.ndim and all(s in (-1, None) or s == d for s, d in zip(shape, item.shape))
            if not isinstance(item, Tensor) or item.dtype != want_dtype or not fits:
                got = (item.dtype, tuple(item.shape)) if isinstance(item, Tensor) else type(item).__name__
                raise MSRuntimeError(f"For '{self.name}', output {i} of the queue '{self.shared_name}' must be "
                                     f"{want_dtype} of shape {tuple(shape)}, but got {got}.")
        return batch
