"""``mindspore.dataset``: data loading and processing (distribution ``mindspore-data``).

This subpackage lives in the ``mindspore`` namespace but is installed by ``mindspore-data``, not by
``mindspore-core``. It provides dataset sources (``GeneratorDataset``, ``NumpySlicesDataset``,
``MnistDataset``, ``Cifar10Dataset``, ``ImageFolderDataset``, ``MindDataset``, ...), the pipeline operations
(``map``, ``batch``, ``shuffle``, ``repeat``, ``zip``, ``concat``, ...), samplers, iterators yielding
``mindspore.Tensor`` or NumPy arrays, parallel workers (threads or processes), the global settings in
:mod:`mindspore.dataset.config`, and the transforms in ``mindspore.dataset.vision``, ``.transforms`` and
``.text`` (imported on first use).

Examples:
    >>> import mindspore.dataset as ds
    >>> ds.config.set_seed(1234)
    >>> data = ds.NumpySlicesDataset({"x": [1, 2, 3]}, shuffle=False).batch(2)
    >>> [row["x"].tolist() for row in data.create_dict_iterator(output_numpy=True)]
    [[1, 2], [3]]
"""
import importlib

from mindspore.dataset import config
from mindspore.dataset.engine import *  # noqa: F401,F403
from mindspore.dataset.engine import __all__ as _engine_all
# not in MindSpore's __all__, but its namespace has them and code imports them from here
from mindspore.dataset.engine import samplers  # noqa: F401
from mindspore.dataset.engine.datasets_ops import RepeatDataset  # noqa: F401
from mindspore.dataset.engine.text_base import TextBaseDataset  # noqa: F401

__all__ = ["config"] + list(_engine_all) + ["WaitedDSCallback"]

_SUBMODULES = ("vision", "transforms", "text", "audio", "debug", "dataloader")


def __getattr__(name):
    if name == "WaitedDSCallback":    # built on first use: its base class is mindspore.train's Callback
        from mindspore.dataset.engine import callbacks
        return callbacks.WaitedDSCallback
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
