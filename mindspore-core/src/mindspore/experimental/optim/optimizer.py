"""The base of ``mindspore.experimental.optim``'s optimizers: parameter groups, per-group learning rates, the
state each algorithm keeps per parameter, and the few steps every algorithm shares (``maximize``, L2 weight decay).

Layout, as MindSpore's: ``param_groups`` is a list of dicts, each with its ``params`` (a list of Parameters) and
every option of the optimizer (the group's own value, else the default); ``lr`` in a group is a float32 scalar
:class:`~mindspore.Parameter` named ``learning_rate_group_<i>``, also listed in ``lrs``; ``parameters`` is the
:class:`~mindspore.ParameterTuple` of every group's parameters in order, and ``group_start_id[i]`` the index of
group ``i``'s first parameter in it (so group ``i``'s gradients are ``gradients[start:end]``). Per-parameter state
is a ParameterTuple cloned from ``parameters`` (``exp_avg``, ``accum``...), indexed the same way.
"""
from collections import defaultdict
from collections.abc import Iterable

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.log import warning
from mindspore.nn.cell import Cell

__all__ = ["Optimizer"]


def check_not_less_than(value, name, op, low=0.0):
    """``value >= low``, else MindSpore's ValueError."""
    if value < low:
        raise MSValueError(f"For {op}, the {name} must be greater than or equal to {low}, but got {value}.")


def check_greater_than(value, name, op, low=0.0):
    """``value > low``, else MindSpore's ValueError."""
    if value <= low:
        raise MSValueError(f"For {op}, the {name} must be greater than {low}, but got {value}.")


def check_in_range(value, name, op, low, high, low_inc=True, high_inc=False):
    """``value`` a float in the range, else MindSpore's errors."""
    if isinstance(value, bool) or not isinstance(value, float):
        raise MSTypeError(f"For '{op}', the type of '{name}' must be float, but got {type(value).__name__}.")
    ok = (value >= low if low_inc else value > low) and (value <= high if high_inc else value < high)
    if not ok:
        rng = f"{'[' if low_inc else '('}{low}, {high}{']' if high_inc else ')'}"
        raise MSValueError(f"For '{op}', the '{name}' must be in range of {rng}, but got {value}.")


def f32(value):
    """A float32 scalar tensor."""
    return Tensor(value, mstype.float32)


class Optimizer(Cell):
    """The base class of the optimizers: subclass it, call ``super().__init__(params, defaults)`` and write
    ``construct(self, gradients)``.

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters to optimize, or parameter groups: dicts with
            ``"params"`` and any option to override for them.
        defaults (dict): each option's value for the groups that do not set it (``lr`` included).

    Raises:
        ValueError: ``params`` is None or empty, or a parameter is in two groups.
        TypeError: ``params`` is not iterable, holds something else than Parameters, or a group is a set; ``lr``
            is not an int, float or scalar Tensor; ``weight_decay`` is not an int or float.

    Examples:
        >>> from mindspore import nn, ops
        >>> from mindspore.experimental import optim
        >>> class MySGD(optim.Optimizer):
        ...     def __init__(self, params, lr):
        ...         super().__init__(params, dict(lr=lr))
        ...     def construct(self, gradients):
        ...         for group_id, group in enumerate(self.param_groups):
        ...             start = self.group_start_id[group_id]
        ...             for i, param in enumerate(group["params"]):
        ...                 ops.assign(param, param - gradients[start + i] * group["lr"])
        ...         return True
        >>> opt = MySGD(nn.Dense(8, 2).trainable_params(), 0.01)
    """

    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        groups = self._parameters_base_check(params, "params")
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        self.parameters = []
        self.lrs = []
        self.group_start_id = [0]
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        self.parameters = ParameterTuple(self.parameters)

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    value = group[key]
                    shown = float(value.asnumpy()) if key == "lr" and isinstance(value, Parameter) else value
                    text += f"    {key}: {shown}\n"
        return text + ")"

    def add_param_group(self, param_group):
        """Add a parameter group (a dict with ``"params"`` and the options it sets) to ``param_groups``."""
        group_id = len(self.param_groups)
        param_group = self._preprocess_param_group(param_group)
        self.parameters += tuple(param_group["params"])
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        lr = self._build_single_lr(param_group.get("lr"), f"learning_rate_group_{group_id}")
        param_group["lr"] = lr
        param_group["weight_decay"] = self._preprocess_weight_decay(param_group.get("weight_decay", 0.0))
        self.lrs.append(lr)
        self.param_groups.append(param_group)
        self.group_start_id.append(self.group_start_id[-1] + len(param_group["params"]))

    @staticmethod
    def _parameters_base_check(parameters, param_info):
        if parameters is None:
            raise MSValueError(f"For 'Optimizer', the argument {param_info} can not be None.")
        if not isinstance(parameters, Iterable):
            raise MSTypeError(f"For 'Optimizer', the argument {param_info} must be Iterable type, but got "
                              f"{type(parameters)}.")
        parameters = list(parameters)
        if not parameters:
            raise MSValueError(f"For 'Optimizer', the argument {param_info} must not be empty.")
        return parameters

    def _preprocess_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise MSTypeError("Param group must be a dict.")
        param_group = dict(param_group)
        params = param_group["params"]
        if isinstance(params, Parameter):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise MSTypeError("Optimizer parameters need to be organized in ordered collections, but the ordering "
                              "of tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, Parameter):
                raise MSTypeError(f"Optimizer can only optimize Parameters, but one of the params is "
                                  f"{type(param).__name__}.")
        if len({id(p) for p in param_group["params"]}) != len(param_group["params"]):
            warning("Optimizer contains a parameter group with duplicate parameters.")
        seen = {id(p) for group in self.param_groups for p in group["params"]}
        if any(id(p) in seen for p in param_group["params"]):
            raise MSValueError("some parameters appear in more than one parameter group.")
        return param_group

    def _build_single_lr(self, learning_rate, name):
        if isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, bool):
            learning_rate = float(learning_rate)
            if learning_rate < 0:
                raise MSValueError(f"For '{self.cls_name}', the 'learning rate' must be non-negative float, but got "
                                   f"{learning_rate}.")
            return Parameter(f32(learning_rate), name, requires_grad=False)
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim == 0:
                return Parameter(learning_rate.astype(mstype.float32), name, requires_grad=False)
            raise MSValueError("For 'Optimizer', if 'learning_rate' is a Tensor, then it should be scalar Tensor")
        raise MSTypeError(f"For 'Optimizer', the argument 'learning_rate' must be int, float or Tensor, but got "
                          f"{type(learning_rate)}.")

    def _preprocess_weight_decay(self, weight_decay):
        if isinstance(weight_decay, (float, int)) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)
            if weight_decay < 0:
                raise MSValueError(f"For '{self.cls_name}', the 'weight_decay' must be non-negative float, but got "
                                   f"{weight_decay}.")
            return weight_decay
        raise MSTypeError(f"For 'Optimizer', the argument 'Weight_decay' must be int or float.but got "
                          f"{type(weight_decay)}")

    # -- what the algorithms share ----------------------------------------------------------------------------
    def _group_items(self, gradients, group_id, maximize=False, weight_decay=0.0):
        """``[(index, param, grad)]`` of group ``group_id``: the gradient negated for ``maximize``, then with
        ``weight_decay * param`` added (L2 decay, as MindSpore's optimizers apply it)."""
        if len(gradients) != len(self.parameters):
            raise MSValueError(f"For '{self.cls_name}', the number of gradients must be {len(self.parameters)} "
                               f"(one per parameter), but got {len(gradients)}.")
        start, end = self.group_start_id[group_id], self.group_start_id[group_id + 1]
        items = []
        for i in range(start, end):
            param, grad = self.parameters[i], gradients[i]
            if maximize:
                grad = ops.neg(grad)
            if weight_decay != 0.0:
                grad = ops.add(ops.mul(param, ops.cast(f32(weight_decay), param.dtype)), grad)
            items.append((i, param, grad))
        return items

    @staticmethod
    def _next_step(counter):
        """Add one to the int32 step ``counter`` and return it as a float32 tensor."""
        ops.assign_add(counter, Tensor(1, mstype.int32))
        return ops.cast(counter, mstype.float32)

    def construct(self, *hyper_params):
        raise MSTypeError(f"For '{self.cls_name}', the optimizer base class has no update rule: subclass "
                          f"'Optimizer' and define 'construct(self, gradients)'.")
