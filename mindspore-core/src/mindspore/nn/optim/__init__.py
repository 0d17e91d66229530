"""``mindspore.nn`` optimizers: the :class:`Optimizer` base and MindSpore 2.10's update rules.

Each optimizer is a Cell called with the gradients of its parameters; it updates them, and its state
Parameters (named as MindSpore names them: ``moments.<name>``, ``moment1.<name>``, ``global_step``, ...),
in place.
"""
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.nn.optim.momentum import Momentum
from mindspore.nn.optim.sgd import SGD
from mindspore.nn.optim.adam import Adam, AdamWeightDecay, LazyAdam
from mindspore.nn.optim.rmsprop import RMSProp
from mindspore.nn.optim.lamb import Lamb
from mindspore.nn.optim.ada_grad import Adagrad
from mindspore.nn.optim.adadelta import Adadelta
from mindspore.nn.optim.ftrl import FTRL
from mindspore.nn.optim.adamax import AdaMax
from mindspore.nn.optim.rprop import Rprop
from mindspore.nn.optim.asgd import ASGD
from mindspore.nn.optim.proximal_ada_grad import ProximalAdagrad
from mindspore.nn.optim.adam_offload import AdamOffload
from mindspore.nn.optim.lars import LARS
from mindspore.nn.optim.adafactor import AdaFactor
from mindspore.nn.optim.thor import thor
from mindspore.nn.optim.tft_wrapper import OptTFTWrapper
from mindspore.nn.optim.adasum import AdaSumByDeltaWeightWrapCell, AdaSumByGradWrapCell

__all__ = ["Optimizer", "opt_init_args_register", "Momentum", "SGD", "Adam", "AdamWeightDecay", "LazyAdam",
           "RMSProp", "Lamb", "Adagrad", "Adadelta", "FTRL", "AdaMax", "Rprop", "ASGD", "ProximalAdagrad",
           "AdamOffload", "LARS", "AdaFactor", "thor", "OptTFTWrapper", "AdaSumByDeltaWeightWrapCell",
           "AdaSumByGradWrapCell"]
