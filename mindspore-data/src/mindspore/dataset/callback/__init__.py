"""MindSpore's ``mindspore.dataset.callback``: callbacks run by the dataset pipeline."""
from mindspore.dataset.engine.callbacks import DSCallback, WaitedDSCallback  # noqa: F401

__all__ = ["DSCallback", "WaitedDSCallback"]
