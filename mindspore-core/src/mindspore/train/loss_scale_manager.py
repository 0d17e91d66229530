"""``mindspore.train.loss_scale_manager``: the loss scale managers.

They are defined in :mod:`mindspore._loss_scale_manager`, below ``mindspore.amp`` (which uses them and sits below
``mindspore.train``); ``mindspore.amp`` exports the same classes.
"""
from mindspore._loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]
