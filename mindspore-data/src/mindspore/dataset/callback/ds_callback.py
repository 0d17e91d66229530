"""MindSpore's ``mindspore.dataset.callback.ds_callback``."""
from mindspore.dataset.engine.callbacks import DSCallback, WaitedDSCallback  # noqa: F401

__all__ = ["DSCallback", "WaitedDSCallback"]
