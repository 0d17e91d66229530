"""``data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None)``: run ``fn`` on the next
``sink_size`` batches of ``dataset`` per call (MindSpore's data-sinking wrapper).

MindSpore moves the dataset into a device queue read by a ``GetNext`` operator and refuses the CPU target
("Data sinking supports ascend or gpu device target ..."), which is reproduced. On GPU (and Ascend) the batches are
taken from a dataset iterator kept on the dataset (this implementation has no device queue: a background thread
copies the next batches to the device while ``fn`` runs, :mod:`mindspore.train._device_feed`), and ``fn`` runs
compiled when a ``jit_config`` is given, as there.
"""
from __future__ import annotations

from functools import wraps

import mindspore.log as logger
from mindspore.ops.function.queue_func import DataQueue
from mindspore.train import _device_feed

__all__ = ["data_sink"]


def _check_inputs(input_signature, batch):
    from mindspore.common.tensor import Tensor
    signature = input_signature if isinstance(input_signature, (list, tuple)) else (input_signature,)
    if len(signature) != len(batch):
        raise ValueError(f"The length of input_signature ({len(signature)}) must be equal to the number of dataset "
                         f"columns ({len(batch)}).")
    for sig, item in zip(signature, batch):
        if isinstance(sig, Tensor) and isinstance(item, Tensor):
            shape_ok = len(sig.shape) == len(item.shape) and all(
                s in (-1, None) or s == d for s, d in zip(sig.shape, item.shape))
            if sig.dtype != item.dtype or not shape_ok:
                raise ValueError(f"The dataset column (shape {item.shape}, dtype {item.dtype}) does not match the "
                                 f"input_signature (shape {sig.shape}, dtype {sig.dtype}).")


def data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None):
    """Wrap ``fn`` so that each call feeds it ``sink_size`` batches of ``dataset`` (returns the last output).

    Args:
        fn (Function): called as ``fn(*columns)`` for each batch.
        dataset (Dataset): the data.
        sink_size (int): batches per call (positive). Default: ``1``.
        jit_config (JitConfig): compile ``fn`` with these options. Default: ``None`` (run as is).
        input_signature (Union[Tensor, List or Tuple of Tensor]): the expected columns. Default: ``None``.

    Raises:
        TypeError: ``sink_size`` not an int.
        ValueError: ``sink_size`` not positive; the device target is CPU (as in MindSpore); the dataset is already
            sunk into another function.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore.train import data_sink
        >>> ms.set_device("GPU")  # doctest: +SKIP
    """
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"For 'Data sink', the type of 'sink_size' should be 'int', but got type "
                        f"'{type(sink_size).__name__}'.")
    if sink_size <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    import mindspore.context as context
    target = context.get_context("device_target")
    if target not in ("Ascend", "GPU"):
        raise ValueError(f"Data sinking supports ascend or gpu device target, but device target is {target}.")
    if hasattr(dataset, "__transfer_dataset__"):
        raise ValueError("The dataset has been used with network.")
    def batches():   # the dataset, epoch after epoch, for as long as calls ask for batches
        while True:
            empty = True
            for batch in _device_feed.feed(dataset, 1):
                empty = False
                yield batch
            if empty:
                raise ValueError("For 'data_sink', the dataset is empty.")

    iterator = batches()
    dataset.__transfer_dataset__ = DataQueue(lambda: next(iterator))   # the named queue ops.GetNext can read
    if jit_config is not None:
        from mindspore.common.api import jit
        options = dict(jit_config.jit_config_dict)
        level = options.get("jit_level") or "O0"
        run = jit(fn, jit_level="O0" if level == "O2" else level,
                  fullgraph=options.get("jit_syntax_level") == "STRICT")
    else:
        run = fn
    checked = [input_signature is None]

    @wraps(fn)
    def sink_process(*args, **kwargs):
        if args or kwargs:
            logger.warning("The arguments of a data_sink function are ignored: it takes its inputs from the dataset.")
        out = None
        for _ in range(sink_size):
            batch = tuple(next(iterator))
            if not checked[0]:
                _check_inputs(input_signature, batch)
                checked[0] = True
            out = run(*batch)
        return out

    return sink_process
