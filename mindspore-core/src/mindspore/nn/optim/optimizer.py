"""The optimizer base class: parameter groups, learning rates, weight decay, loss scale and step counting.

An optimizer is a Cell (``auto_prefix=False``) called with the tuple of gradients of ``self.parameters``;
it updates the parameters and its state Parameters in place (``ops.assign``), so every holder of a
Parameter sees the new value. The bookkeeping follows MindSpore 2.10:

* ``global_step`` (int32, shape ``(1,)``) counts the steps taken. Each optimizer reads the learning rate for the
  current step with :meth:`get_lr` (the weight decay with :meth:`get_weight_decay`), then increments
  ``global_step`` (MindSpore 2.2+ behaviour: ``get_lr`` itself no longer advances it).
* ``learning_rate`` is a float32 Parameter named ``learning_rate`` (scalar), a Cell (``_IteratorLearningRate``
  holding the 1-D Parameter ``learning_rate`` for a list/1-D Tensor, or the user's LearningRateSchedule), or,
  with per-group rates, a ParameterTuple (``learning_rate_group_<i>``) / CellList of those.
* weight decay is added to the gradient, ``g + wd * loss_scale * w`` (:meth:`decay_weight`), for parameters
  whose name holds neither ``beta`` nor ``gamma`` (ungrouped) or whose group decay is positive or dynamic.
* :meth:`scale_grad` divides the gradients by ``loss_scale`` (after the decay, as MindSpore does).
* state Parameters are registered on the cell in creation order (``global_step``, ``learning_rate``, the
  optimized parameters, then each optimizer's state such as ``moments.<name>``), so they are listed by
  ``parameters_and_names`` and saved in checkpoints under MindSpore's names.
"""
from __future__ import annotations

import inspect
from collections.abc import Iterable

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell, CellList
from mindspore.nn.learning_rate_schedule import LearningRateSchedule
from mindspore.nn import _validators as validator
from mindspore.ops import composite

__all__ = ["Optimizer", "opt_init_args_register"]

_GROUP_KEYS = ("params", "lr", "weight_decay", "order_params", "grad_centralization")


def opt_init_args_register(fn):
    """Decorator for optimizer ``__init__``: records ``init_params`` / ``init_args`` / ``init_learning_rate``."""

    def deco(self, *args, **kwargs):
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self")
        if "params" in arguments:
            object.__setattr__(self, "init_params", {"params": arguments.pop("params")})
        if "optimizer" in arguments:
            object.__setattr__(self, "init_params", {"params": arguments.pop("optimizer").init_params["params"]})
        if "learning_rate" in arguments:
            lr = arguments.pop("learning_rate")
            if isinstance(lr, Tensor):
                lr = lr.asnumpy().tolist()
            object.__setattr__(self, "init_learning_rate", None if isinstance(lr, Cell) else lr)
        object.__setattr__(self, "init_args", arguments)
        fn(self, *args, **kwargs)

    deco.__signature__ = inspect.signature(fn)
    deco.__doc__ = fn.__doc__
    deco.__wrapped__ = fn
    return deco


class Optimizer(Cell):
    """Base class of optimizers; instantiate a subclass (``SGD``, ``Momentum``, ``Adam``, ...).

    Args:
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): a fixed rate (number or
            scalar Tensor), a dynamic one (1-D Tensor or iterable: step ``i`` uses element ``i``), or a
            LearningRateSchedule called with ``global_step``.
        parameters (Union[list[Parameter], list[dict]]): the Parameters to update, or groups
            ``{'params': [...], 'lr': ..., 'weight_decay': ..., 'grad_centralization': bool}`` plus an optional
            ``{'order_params': [...]}`` fixing the order.
        weight_decay (Union[float, int, Cell]): L2 penalty added to the gradients (a Cell makes it dynamic:
            called with ``global_step``). Default: ``0.0``.
        loss_scale (float): the gradients are divided by it. Default: ``1.0``.

    Raises:
        TypeError: bad ``learning_rate``/``parameters``/``loss_scale``/``weight_decay`` types.
        ValueError: ``loss_scale <= 0``, ``weight_decay < 0``, empty parameters, a Tensor learning rate of rank > 1.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.SGD([w], learning_rate=0.1)
        >>> _ = opt((ms.Tensor(np.ones(2, np.float32)),))
        >>> print(w.asnumpy())
        [0.9 0.9]
    """

    _support_parallel_optimizer = False

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        parameters = self._parameters_base_check(parameters, "parameters")
        if not all(isinstance(x, Parameter) for x in parameters) and not all(isinstance(x, dict) for x in parameters):
            raise MSTypeError("For 'Optimizer', all elements of the argument 'parameters' must be 'Parameter' or "
                              "'dict', please check the 'parameters'.")
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        validator.check_value_type("loss_scale", loss_scale, [float], self.cls_name)
        validator.check_positive_float("loss_scale", loss_scale, self.cls_name)
        self.loss_scale = loss_scale
        self.dynamic_weight_decay = False
        self.grad_centralization = False
        self._unique = True
        self.dynamic_lr = False
        self.global_step = Parameter(initializer(0, [1], mstype.int32), name="global_step")
        self.global_step_increase_tensor = Tensor(1, mstype.int32)
        self.assignadd = ops.AssignAdd()
        self.is_group = False
        self.is_group_lr = False
        self.is_group_params_ordered = False
        self.use_parallel = False
        self.param_rank = None
        learning_rate = self._preprocess_single_lr(learning_rate)
        if isinstance(parameters[0], dict):
            self.is_group = True
            self.group_params = []
            self.group_lr = []
            self.group_weight_decay = []
            self.group_grad_centralization = []
            self._init_group_params(parameters, learning_rate, weight_decay, self.grad_centralization)
        self._init_opt_attrs(learning_rate, parameters, weight_decay)

    @property
    def cls_name(self):
        return type(self).__name__

    # -- registration ------------------------------------------------------------------------------
    def __setattr__(self, name, value):
        # A ParameterTuple attribute registers its Parameters on the cell (MindSpore's Cell does this for every
        # cell), so optimizer state such as ``moments.w`` is listed by parameters_and_names and checkpointed.
        if isinstance(value, ParameterTuple) and "_params" in self.__dict__:
            self._register_parameter_tuple(value)
            object.__setattr__(self, name, value)
            return
        super().__setattr__(name, value)

    def _register_parameter_tuple(self, value):
        names = set()
        seen = set()
        for item in value:
            if id(item) in seen:
                continue
            seen.add(id(item))
            if item.name in names:
                raise MSValueError(f"The value {value}, its name '{item.name}' already exists. Please set a unique "
                                   f"name for the parameter.")
            names.add(item.name)
            if self._params.get(item.name) is not item:
                self.insert_param_to_cell(item.name, item, check_name_contain_dot=False)

    # -- construction helpers ----------------------------------------------------------------------
    def _init_opt_attrs(self, learning_rate, parameters, weight_decay):
        weight_decay = self._preprocess_weight_decay(weight_decay)
        if self.is_group_lr:
            self.learning_rate = CellList(self.group_lr, auto_prefix=False) if self.dynamic_lr \
                else ParameterTuple(self.group_lr)
        else:
            self.learning_rate = self._build_single_lr(learning_rate, "learning_rate")
        if self.is_group:
            self.parameters = ParameterTuple(self.group_params)
            self._parameters = self.parameters
            self.decay_flags = tuple(isinstance(x, Cell) or x > 0 for x in self.group_weight_decay)
            self.dynamic_decay_flags = tuple(isinstance(x, Cell) for x in self.group_weight_decay)
            self.weight_decay = tuple(x if flag else Tensor(x, mstype.float32)
                                      for x, flag in zip(self.group_weight_decay, self.dynamic_decay_flags))
            self.exec_weight_decay = any(self.decay_flags)
            self.grad_centralization_flags = tuple(self.group_grad_centralization)
        else:
            self.parameters = ParameterTuple(parameters)
            self._parameters = self.parameters
            self.decay_flags = tuple("beta" not in x.name and "gamma" not in x.name for x in self._parameters)
            self.dynamic_decay_flags = isinstance(weight_decay, Cell)
            self.exec_weight_decay = isinstance(weight_decay, Cell) or weight_decay > 0
            self.weight_decay = weight_decay if self.dynamic_decay_flags else Tensor(weight_decay, mstype.float32)
        self._user_parameters = [p.name for p in self._parameters]
        self.reciprocal_scale = Tensor(1.0 / self.loss_scale, mstype.float32)
        self.need_scale = self.loss_scale != 1.0
        # the float32 constants (loss-scale reciprocal, fixed weight decays) cast once to each parameter dtype,
        # instead of a Cast per parameter per step; keyed by the constant itself (see :meth:`_as_param_dtype`)
        self._casts = {}
        constants = [self.reciprocal_scale] + [wd for wd in (self.weight_decay if self.is_group else
                                                             (self.weight_decay,)) if isinstance(wd, Tensor)]
        for value in constants:
            for dt in {p.dtype for p in self._parameters}:
                self._casts[(id(value), dt)] = (value, _cast_const(value, dt))
        self.param_length = len(self._parameters)
        self.optim_filter = (True,) * self.param_length
        self.map_ = composite.Map()
        self.map_reverse = composite.Map(None, True)
        self.hyper_map = composite.HyperMap()
        self.hyper_map_reverse = composite.HyperMap(None, True)
        self.enable_tuple_broaden = True

    @staticmethod
    def _parameters_base_check(parameters, param_info):
        if parameters is None:
            raise MSValueError(f"For 'Optimizer', the argument {param_info} can not be None.")
        if isinstance(parameters, (Tensor, str)) or not isinstance(parameters, Iterable):
            raise MSTypeError(f"For 'Optimizer', the argument {param_info} must be Iterable type, but got "
                              f"{type(parameters)}.")
        parameters = list(parameters)
        if not parameters:
            raise MSValueError(f"For 'Optimizer', the argument {param_info} must not be empty.")
        return parameters

    def _preprocess_weight_decay(self, weight_decay):
        if isinstance(weight_decay, (float, int)) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)
            validator.check_non_negative_float("weight_decay", weight_decay, self.cls_name)
            return weight_decay * self.loss_scale
        if isinstance(weight_decay, Cell):
            self.dynamic_weight_decay = True
            return _WrappedWeightDecay(weight_decay, self.loss_scale)
        raise MSTypeError(f"For 'Optimizer', the argument 'Weight_decay' must be int, float or Cell, but got "
                          f"{type(weight_decay)}.")

    @staticmethod
    def _preprocess_grad_centralization(grad_centralization):
        if not isinstance(grad_centralization, bool):
            raise MSTypeError(f"For 'Optimizer', the 'gradients_centralization' must be bool type, but got "
                              f"{type(grad_centralization)}.")
        return grad_centralization

    def _preprocess_single_lr(self, learning_rate):
        """A float, a scalar float32 Tensor, a 1-D float32 Tensor (dynamic) or a LearningRateSchedule."""
        if isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, bool):
            learning_rate = float(learning_rate)
            validator.check_non_negative_float("learning rate", learning_rate, self.cls_name)
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            return Tensor(learning_rate.asnumpy(), mstype.float32)
        if isinstance(learning_rate, LearningRateSchedule):
            self.dynamic_lr = True
            return learning_rate
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim > 1:
                raise MSValueError(f"For 'Optimizer', if 'learning_rate' is Tensor type, then the dimension of it "
                                   f"should be 0 or 1, but got {learning_rate.ndim}.")
            self.dynamic_lr = True
            return Tensor(learning_rate.asnumpy(), mstype.float32)
        if isinstance(learning_rate, Iterable) and not isinstance(learning_rate, (str, bytes, Cell)):
            values = list(learning_rate)
            if not values or any(isinstance(v, bool) or not isinstance(v, (int, float, np.number)) for v in values):
                raise MSTypeError(f"For 'Optimizer', an iterable 'learning_rate' must be a non-empty sequence of "
                                  f"numbers, but got {values!r}.")
            self.dynamic_lr = True
            return Tensor(np.array(values).astype(np.float32))
        raise MSTypeError(f"For 'Optimizer', the argument 'learning_rate' must be int, float, Tensor, Iterable or "
                          f"LearningRateSchedule, but got {type(learning_rate)}.")

    def _build_single_lr(self, learning_rate, name):
        """A Parameter (fixed rate) or a Cell (dynamic) named ``name``."""
        if isinstance(learning_rate, float):
            learning_rate = Parameter(Tensor(learning_rate, mstype.float32), name)
            return _ConvertToCell(learning_rate) if self.is_group_lr and self.dynamic_lr else learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            learning_rate = Parameter(learning_rate, name)
            return _ConvertToCell(learning_rate) if self.is_group_lr and self.dynamic_lr else learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1:
            return _IteratorLearningRate(learning_rate, name)
        return learning_rate

    def _check_group_params(self, parameters):
        for group_param in parameters:
            if not isinstance(group_param, dict):
                raise MSTypeError(f"For 'Optimizer', each group of parameters must be a dict, but got "
                                  f"{type(group_param)}.")
            invalid = [k for k in group_param if k not in _GROUP_KEYS]
            if invalid:
                raise KeyError(f"For 'Optimizer', the key in group params must be one of in {list(_GROUP_KEYS)}, "
                               f"but got {invalid}.")
            if "order_params" in group_param:
                if len(group_param) > 1:
                    raise MSValueError(f"For 'Optimizer', the order params dict in group parameters should only "
                                       f"include the 'order_params' key, but got {list(group_param.keys())}.")
                if not isinstance(group_param["order_params"], Iterable):
                    raise MSTypeError(f"For 'Optimizer', the value of 'order_params' in group parameters should be "
                                      f"Iterable type, but got {type(group_param['order_params'])}.")
                continue
            if "params" not in group_param:
                raise KeyError("For 'Optimizer', every group of parameters must have the key 'params'.")
            params = self._parameters_base_check(group_param["params"], "group `params`")
            for index, param in enumerate(params):
                if not isinstance(param, Parameter):
                    raise MSTypeError(f"For 'Optimizer', the element in group parameters must be Parameter type, "
                                      f"but got {type(param)} at index {index}.")

    def _parse_group_params(self, parameters, learning_rate):
        self._check_group_params(parameters)
        tensor_lr_length = learning_rate.size if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1 else 0
        for group_param in parameters:
            if "order_params" in group_param:
                self.is_group_params_ordered = True
                continue
            if "lr" in group_param:
                self.is_group_lr = True
                group_lr = self._preprocess_single_lr(group_param["lr"])
                if isinstance(group_lr, Tensor) and group_lr.ndim == 1:
                    if tensor_lr_length == 0:
                        tensor_lr_length = group_lr.size
                    elif group_lr.size != tensor_lr_length:
                        raise MSValueError("For 'Optimizer', the Tensor type dynamic learning rate in group must be "
                                           "the same size as the argument 'learning_rate'.")

    def _init_group_params(self, parameters, learning_rate, weight_decay, grad_centralization):
        self._parse_group_params(parameters, learning_rate)
        default_lr = self._build_single_lr(learning_rate, "learning_rate")
        params_store = set()
        ordered_parameters = None
        for group_num, group_param in enumerate(parameters):
            if "order_params" in group_param:
                ordered_parameters = list(group_param["order_params"])
                continue
            group_params = list(group_param["params"])
            self.group_params += group_params
            if "lr" in group_param:
                lr = self._build_single_lr(self._preprocess_single_lr(group_param["lr"]),
                                           "learning_rate_group_" + str(group_num))
            else:
                lr = default_lr
            weight_decay_ = self._preprocess_weight_decay(group_param.get("weight_decay", weight_decay))
            if "grad_centralization" in group_param:
                grad_centralization_ = self._preprocess_grad_centralization(group_param["grad_centralization"])
                self.grad_centralization = grad_centralization_
            else:
                grad_centralization_ = grad_centralization
            for param in group_params:
                if id(param) in params_store:
                    raise MSRuntimeError(f"For 'Optimizer', the {param.name} parameter already exists, it does not "
                                         f"support repeated setting. Please check whether the optimizer parameter "
                                         f"has been set multiple times.")
                params_store.add(id(param))
                self.group_lr.append(lr)
                self.group_weight_decay.append(weight_decay_)
                self.group_grad_centralization.append(grad_centralization_)
        if self.is_group_params_ordered:
            self._order_and_adjust_group_params(ordered_parameters)

    def _order_and_adjust_group_params(self, ordered_parameters):
        if len(ordered_parameters) != len(self.group_params):
            raise MSValueError(f"For 'Optimizer', the length of order parameters must be the same as the length of "
                               f"group parameters, but got order parameters' length {len(ordered_parameters)}, "
                               f"group parameters' length {len(self.group_params)}.")
        index_of = {id(p): i for i, p in enumerate(ordered_parameters)}
        n = len(self.group_params)
        params, lrs, wds, gcs = [None] * n, [None] * n, [None] * n, [None] * n
        for param, lr, wd, gc in zip(self.group_params, self.group_lr, self.group_weight_decay,
                                     self.group_grad_centralization):
            if id(param) not in index_of:
                raise MSValueError(f"For 'Optimizer', the parameter {param.name} of the groups is not in "
                                   f"'order_params'.")
            i = index_of[id(param)]
            params[i], lrs[i], wds[i], gcs[i] = param, lr, wd, gc
        self.group_params, self.group_lr = params, lrs
        self.group_weight_decay, self.group_grad_centralization = wds, gcs

    # -- properties --------------------------------------------------------------------------------
    @property
    def unique(self):
        """Whether sparse gradients are de-duplicated in the optimizer (kept for API compatibility)."""
        return self._unique

    @unique.setter
    def unique(self, value):
        if not isinstance(value, bool):
            raise MSTypeError(f"For 'Optimizer', the property 'unique' must be bool, but got {type(value)}")
        self._unique = value

    @property
    def target(self):
        """The device the update runs on (``'CPU'``, ``'GPU'`` or ``'Ascend'``); defaults to the context's."""
        if self.__dict__.get("_target") is None:
            import mindspore.context as context
            return context.get_context("device_target")
        return self._target

    @target.setter
    def target(self, value):
        if not isinstance(value, str):
            raise MSTypeError(f"For 'Optimizer', the property 'target' must be string, but got {type(value)}")
        if value not in ("CPU", "Ascend", "GPU"):
            raise MSValueError(f"For 'Optimizer', the property 'target' must be one of ['CPU', 'Ascend' ,'GPU'], "
                               f"but got {value}")
        object.__setattr__(self, "_target", value)

    # -- the update pipeline -------------------------------------------------------------------------
    def flatten_gradients(self, gradients):
        """Parameters are never flattened into chunks here: the gradients are returned unchanged."""
        return gradients

    def decay_weight(self, gradients):
        """``g + weight_decay * w`` for the parameters that decay (see the module docstring)."""
        if not self.exec_weight_decay:
            return gradients
        weight_decay = self.get_weight_decay()
        if not self.is_group:
            weight_decay = (weight_decay,) * self.param_length
        return tuple(ops.add(ops.mul(p, self._as_param_dtype(wd, p.dtype)), g) if flag else g
                     for wd, flag, p, g in zip(weight_decay, self.decay_flags, self._parameters, gradients))

    def _as_param_dtype(self, value, dtype):
        """``ops.cast(value, dtype)`` of a float32 constant: the copy made at construction when there is one."""
        entry = self.__dict__.get("_casts", {}).get((id(value), dtype))
        if entry is not None and entry[0] is value:
            return entry[1]
        return value if value.dtype == dtype else ops.cast(value, dtype)

    def gradients_centralization(self, gradients):
        """Centralize the gradients of the groups with ``grad_centralization`` (conv weights: rank >= 2 and
        ``shape[1] % 16 == 0``): subtract their mean over every axis but the first."""
        if not self.is_group:
            return gradients
        return tuple(_apply_grad_centralization(flag, g)
                     for flag, g in zip(self.grad_centralization_flags, gradients))

    def scale_grad(self, gradients):
        """Divide the gradients by ``loss_scale`` (multiply by its float32 reciprocal)."""
        if not self.need_scale:
            return gradients
        return tuple(ops.mul(g, self._as_param_dtype(self.reciprocal_scale, g.dtype)) for g in gradients)

    def get_weight_decay(self):
        """The weight decay of the current step (a tuple per parameter when grouped)."""
        if self.dynamic_weight_decay:
            if self.is_group:
                return tuple(wd(self.global_step) if flag else wd
                             for wd, flag in zip(self.weight_decay, self.dynamic_decay_flags))
            return self.weight_decay(self.global_step)
        return self.weight_decay

    def get_lr(self):
        """The learning rate of the current step (a tuple per parameter with group rates).

        As in MindSpore 2.2 and later, this does not advance ``global_step``: each optimizer's ``construct``
        increments it after reading the rate; a user-defined optimizer does it with
        ``self.assignadd(self.global_step, self.global_step_increase_tensor)``.
        """
        lr = self.learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                lr = tuple(ops.reshape(cell(self.global_step), ()) for cell in self.learning_rate)
            else:
                lr = ops.reshape(self.learning_rate(self.global_step), ())
        return lr

    def _increase_global_step(self):
        """``global_step += 1`` (in place)."""
        return ops.assign_add(self.global_step, self.global_step_increase_tensor)

    def get_lr_parameter(self, param):
        """The learning rate (Parameter, or the Cell computing it when dynamic) of ``param`` or each of a list."""
        if isinstance(param, Parameter):
            param_list = [param]
        elif isinstance(param, list):
            param_list = param
        else:
            raise MSTypeError(f"For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' type, but got "
                              f"{type(param)}.")
        ids = [id(p) for p in self._parameters]
        out = []
        for p in param_list:
            validator.check_value_type("parameter", p, [Parameter], self.cls_name)
            if id(p) not in ids:
                raise MSValueError(f"For 'get_lr_parameter', the parameter {p.name} is not in optimizer, please check "
                                   f"whether the argument 'param' is correct.")
            lr = self.learning_rate[ids.index(id(p))] if self.is_group_lr else self.learning_rate
            out.append(lr.learning_rate if isinstance(lr, (_ConvertToCell, _IteratorLearningRate)) else lr)
        return out if isinstance(param, list) else out[0]

    def _is_dynamic_lr_or_weight_decay(self):
        return self.dynamic_lr or self.dynamic_weight_decay

    def _lr_per_param(self, lr):
        """The learning rate of each parameter, whether ``lr`` is shared or per group."""
        return lr if self.is_group_lr else (lr,) * self.param_length

    def _prepare_gradients(self, gradients):
        """Check the gradients and run decay, centralization and loss-scale division, in MindSpore's order."""
        gradients = tuple(gradients) if isinstance(gradients, (tuple, list)) else (gradients,)
        if len(gradients) != self.param_length:
            raise MSValueError(f"For '{self.cls_name}', the number of gradients must equal the number of "
                               f"parameters {self.param_length}, but got {len(gradients)}.")
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        return self.scale_grad(gradients)

    def construct(self, *hyper_params):
        raise MSTypeError(f"For '{self.cls_name}', the optimizer must define 'construct(gradients)'.")


def _cast_const(value, dtype):
    """A float32 constant Tensor as ``ops.cast`` would give it in ``dtype``, made once on the host."""
    return Tensor(np.asarray(value.asnumpy(), np.float32).astype(dtype.to_numpy()), dtype)


def _apply_grad_centralization(if_apply, gradient):
    if if_apply and gradient.ndim >= 2 and gradient.shape[1] % 16 == 0:
        axis = tuple(range(1, gradient.ndim))
        return gradient - ops.mean(gradient, axis, keep_dims=True)
    return gradient


class _ConvertToCell(LearningRateSchedule):
    """A fixed learning-rate Parameter seen as a schedule (groups that mix fixed and dynamic rates)."""

    def __init__(self, learning_rate):
        super().__init__()
        if not isinstance(learning_rate, Parameter):
            raise MSTypeError(f"For 'Optimizer', the argument 'learning_rate' must be Parameter, but got "
                              f"{type(learning_rate)}.")
        self.learning_rate = learning_rate

    def construct(self, global_step):
        return self.learning_rate + 1.0 - 1.0


class _IteratorLearningRate(LearningRateSchedule):
    """Step ``i`` uses element ``i`` of a 1-D learning-rate Parameter; past its end the rate is 0, as
    MindSpore's CPU/GPU Gather gives for an out-of-range index.

    Selected by comparing the step with the indices (``sum(where(arange == step, lr, 0))``: three elementwise
    kernels, exact, nothing read back to the host) rather than by a Gather, whose bounds check reads the index
    back on a GPU (a device synchronisation at every PYNATIVE step)."""

    def __init__(self, learning_rate, name):
        super().__init__()
        if not isinstance(learning_rate, Tensor):
            raise MSTypeError(f"For 'Optimizer', the argument 'learning_rate' must be Tensor, but got "
                              f"{type(learning_rate)}.")
        if learning_rate.ndim != 1:
            raise MSValueError(f"For 'Optimizer', the dimension of the argument 'learning_rate' should be 1, but "
                               f"got {learning_rate.ndim}.")
        self.learning_rate = Parameter(learning_rate, name)
        self.length = learning_rate.shape[0]
        self._indices = Tensor(np.arange(self.length, dtype=np.int32))
        self._zeros = Tensor(np.zeros(self.length, learning_rate.dtype.to_numpy()))

    def construct(self, global_step):
        if global_step.dtype != mstype.int32:
            global_step = ops.cast(global_step, mstype.int32)
        at_step = ops.equal(self._indices, global_step)
        return ops.reduce_sum(ops.select(at_step, self.learning_rate, self._zeros), 0, keep_dims=True)


class _WrappedWeightDecay(Cell):
    """A dynamic weight decay Cell, scaled by the loss scale."""

    def __init__(self, weight_decay, loss_scale=1.0):
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = Tensor(loss_scale, mstype.float32)

    def construct(self, global_step):
        return self.weight_decay(global_step) * self.loss_scale
