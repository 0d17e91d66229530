"""``mindspore.experimental.optim``: PyTorch-style optimizers with parameter groups, and their learning-rate
schedulers (:mod:`mindspore.experimental.optim.lr_scheduler`).

An optimizer is a :class:`~mindspore.nn.Cell` made from ``params`` (Parameters, or a list of dicts
``{"params": [...], "lr": ..., ...}`` whose missing options take the optimizer's defaults) and called with the
gradients of all its parameters in the order of ``param_groups``: ``optimizer(grads)``. Each group's ``lr`` is a
float32 :class:`~mindspore.Parameter` (also in ``optimizer.lrs``), which the schedulers update in place. The
arithmetic is MindSpore 2.10's, step for step (checked against it by the project's fixtures): where that differs
from PyTorch's (Adam's epsilon, SGD's first momentum step, Rprop's first step size...), the optimizer's docstring
says how.
"""
from mindspore.experimental.optim.optimizer import Optimizer
from mindspore.experimental.optim.adam import Adam, Adamax, AdamW, NAdam, RAdam
from mindspore.experimental.optim.sgd import ASGD, SGD, Rprop
from mindspore.experimental.optim.adaptive import Adadelta, Adagrad, RMSprop
from mindspore.experimental.optim import lr_scheduler  # noqa: F401

__all__ = ["Optimizer", "AdamW", "SGD", "Adam", "Adadelta", "Adagrad", "ASGD", "Adamax", "RMSprop", "Rprop",
           "RAdam", "NAdam"]
