"""Gradient freezing: train only some parameter groups at each step, following a schedule, to save the
backward computation of the frozen ones.

:class:`GradientFreeze` splits a network's parameters into ``param_groups`` groups (group ``i`` holds the
parameters from the ``i``-th block to the end, so group 0 is everything) and draws the freezing schedule (which
group trains at each step); :class:`FreezeOpt` holds one optimizer per group, of the original optimizer's class
and arguments; :func:`freeze_cell` makes one training step per group, each computing and applying the gradients
of its group's parameters only.
"""
import numpy as np

import mindspore.ops as ops
from mindspore._autodiff.grad import value_and_grad
from mindspore._errors import MSTypeError, MSValueError
from mindspore.boost.base import ParameterProcess
from mindspore.boost.grad_accumulation import GradientAccumulation
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = ["GradientFreeze", "FreezeOpt", "freeze_cell"]

CONTINUOUS_STRATEGY = 0
INTERVAL_STRATEGY = 1


class _PassThrough(Cell):
    """The gradient reducer of a single process: the gradients as they are (a tuple, which ``nn.Identity``
    refuses)."""

    def construct(self, x):
        return x


class FreezeOpt(Cell):
    """One optimizer per parameter group, built like ``opt``; ``train_strategy[step]`` says which one runs.

    Args:
        opt (Cell): an optimizer of ``mindspore.nn``.
        train_parameter_groups (Union[tuple, list]): the groups (each a tuple or list of Parameters or group
            dicts). Default ``None``: one group, ``opt``'s parameters.
        train_strategy (Union[tuple(int), list(int), Tensor]): the group index of each step. Default ``None``.

    Raises:
        TypeError: ``opt`` is not an optimizer, or an argument has the wrong type.
        ValueError: ``train_strategy`` without ``train_parameter_groups``, or a strategy that is not of ints.
    """

    def __init__(self, opt, train_parameter_groups=None, train_strategy=None):
        super().__init__()
        if not hasattr(opt, "init_args") or not hasattr(opt, "parameters"):
            raise MSTypeError(f"The first arg 'opt' must be an Optimizer instance, but got {type(opt)}")
        if train_strategy is not None and train_parameter_groups is None:
            raise MSValueError("When the 'train_strategy' is specified, the value of 'train_parameter_groups' must "
                               "also be specified")
        self.opt_class = type(opt)
        self.opt_init_args = {k: v for k, v in opt.init_args.items() if k != "learning_rate"}
        self.single_opt = opt
        self.parameters = opt.parameters
        self.learning_rate = getattr(opt, "init_learning_rate", None)
        if self.learning_rate is None:
            self.learning_rate = opt.learning_rate
        if train_parameter_groups is None:
            train_parameter_groups = (tuple(opt.parameters),)
        elif not isinstance(train_parameter_groups, (tuple, list)):
            raise MSTypeError("The specified 'train_parameter_groups' should be tuple or list")
        self.groups_num = len(train_parameter_groups)
        self.train_strategy = self._check_strategy(train_strategy)
        self.opts = []
        for params in train_parameter_groups:
            if not isinstance(params, (tuple, list)):
                raise MSTypeError("The each element of 'train_parameter_groups' should be tuple or list to store "
                                  "the Parameter")
            self.opts.append(self.opt_class(params=list(params), learning_rate=self.learning_rate,
                                            **self.opt_init_args))

    @staticmethod
    def _check_strategy(train_strategy):
        if isinstance(train_strategy, (tuple, list)):
            if not all(isinstance(e, int) for e in train_strategy):
                raise MSValueError("The element in train_strategy should be int number")
            return list(train_strategy)
        if isinstance(train_strategy, Tensor):
            if train_strategy.ndim != 1 or train_strategy.dtype != mstype.int32:
                raise MSValueError("When train_strategy is a Tensor, the dimension should be 1 and the dtype should "
                                   "be int32")
            return [int(v) for v in train_strategy.asnumpy()]
        if train_strategy is None:
            return None
        raise MSTypeError("The specified 'train_strategy' should be None, tuple, list or Tensor")


class _TrainFreezeCell(Cell):
    """One training step that computes and applies the gradients of ``optimizer``'s parameters only."""

    def __init__(self, net, sens, grad_reducer, use_grad_accumulation, optimizer, max_accumulation_step=1):
        super().__init__(auto_prefix=False)
        self.net = net
        self.grad_reducer = grad_reducer
        self.opt = optimizer
        self.parameters = optimizer.parameters
        self.sens = sens
        self.use_grad_accumulation = use_grad_accumulation
        if use_grad_accumulation:
            self.grad_accumulation = GradientAccumulation(max_accumulation_step, optimizer)

    def construct(self, *inputs):
        sens = self.sens

        def scaled(*args):
            loss = self.net(*args)
            return ops.mul(loss, ops.stop_gradient(ops.fill(loss.dtype, loss.shape, sens))), loss

        (_, loss), grads = value_and_grad(scaled, None, self.parameters, has_aux=True)(*inputs)
        grads = self.grad_reducer(grads)
        if self.use_grad_accumulation:
            return self.grad_accumulation(loss, grads)
        self.opt(grads)
        return loss


class GradientFreeze:
    """Split a network's parameters into groups and draw which group trains at each step.

    Args:
        param_groups (int): how many groups.
        freeze_type (int): ``0`` continuous (cycle through the groups, group 0 taking a ``freeze_p`` share of the
            steps), ``1`` interval (draw the frozen groups at random, deeper groups likelier).
        freeze_p (float): the share of steps that train a reduced group.
        total_steps (int): how many steps to draw for.
    """

    def __init__(self, param_groups, freeze_type, freeze_p, total_steps):
        self._param_groups = param_groups
        self._freeze_type = freeze_type
        self._freeze_p = freeze_p
        self._total_steps = total_steps
        self.grad_reducer = _PassThrough()

    def split_parameters_groups(self, net, freeze_para_groups_number):
        """``freeze_para_groups_number`` groups of ``net``'s trainable parameters: blocks of about three
        (a weight with its bias and normalisation parameters), group ``i`` from the ``i``-th stride on."""
        blocks, block = [], []
        for param in net.trainable_params():
            if "bn" in param.name or "bias" in param.name:
                block.append(param)
            elif len(block) >= 3:
                blocks.append(block)
                block = [param]
            else:
                block.append(param)
        if block:
            blocks.append(block)
        stride = len(blocks) // freeze_para_groups_number
        return [sum(blocks[i * stride:], []) for i in range(freeze_para_groups_number)]

    def generate_freeze_index_sequence(self, parameter_groups_number, freeze_strategy, freeze_p, total_steps):
        """The group index of every step (a little more than ``total_steps`` of them).

        Raises:
            ValueError: an unknown ``freeze_strategy``.
        """
        total = int(total_steps * 1.01)
        if parameter_groups_number <= 1:
            return [0] * total
        if freeze_strategy == CONTINUOUS_STRATEGY:
            zeros = int(freeze_p * (parameter_groups_number - 1) // (1 - freeze_p) + 0.5)
            cycle = [0] * zeros + list(range(1, parameter_groups_number))
            seq = []
            while len(seq) < total:   # whole cycles, as MindSpore draws them
                seq += cycle
            return seq
        if freeze_strategy == INTERVAL_STRATEGY:
            choices = list(range(1, parameter_groups_number))
            prob = np.array(choices, dtype=np.float64) / sum(choices)
            seq, zeros, frozen = [0], 1, 0
            while len(seq) < total:
                if frozen / (zeros + frozen) < 1 - freeze_p:
                    seq.append(int(np.random.choice(choices[::-1], p=prob)))
                    frozen += 1
                else:
                    seq.append(0)
                    zeros += 1
            return seq
        raise MSValueError(f"Unsupported freezing training strategy '{freeze_strategy}'")

    def freeze_generate(self, network, optimizer):
        """``(network, FreezeOpt)`` for ``optimizer`` over this freezing schedule."""
        groups = self.split_parameters_groups(network, self._param_groups)
        groups = [ParameterProcess.generate_group_params(g, optimizer.init_params["params"]) for g in groups]
        strategy = self.generate_freeze_index_sequence(self._param_groups, self._freeze_type, self._freeze_p,
                                                       self._total_steps)
        return network, FreezeOpt(optimizer, groups, strategy)


def freeze_cell(reducer_flag, network, optimizer, sens, grad, use_grad_accumulation, mean=None, degree=None,
                max_accumulation_step=1):
    """One training-step Cell per optimizer of the :class:`FreezeOpt` ``optimizer`` (a tuple). ``grad`` is
    accepted for MindSpore's signature (the steps differentiate with ``mindspore.value_and_grad``); with
    ``reducer_flag`` each step all-reduces its gradients (``mean``, ``degree``)."""
    if reducer_flag:
        from mindspore.nn.wrap.grad_reducer import DistributedGradReducer
        reducers = [DistributedGradReducer(opt.parameters, mean, degree) for opt in optimizer.opts]
    else:
        reducers = [_PassThrough() for _ in optimizer.opts]
    return tuple(_TrainFreezeCell(network, sens, reducer, use_grad_accumulation, opt, max_accumulation_step)
                 for reducer, opt in zip(reducers, optimizer.opts))
