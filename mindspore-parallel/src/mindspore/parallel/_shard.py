"""``Primitive.shard``, ``Cell.shard``, ``mindspore.parallel.shard`` and ``Layout``: how users state strategies.

A strategy is a tuple per input with one cut count per dimension (``((2, 1), (1, 2))``), or one
:class:`Layout` per input (a named device matrix and, per dimension, the axis cutting it). Both are
validated here as MindSpore 2.10 validates them (its Python checks and messages); the checks against the
input shapes and the device number happen when the operator runs (:mod:`mindspore.parallel._ops`).
A Layout strategy is kept as MindSpore keeps it (the ``in_layout`` attribute) and run as the tuple of
cut counts it implies.
"""
from __future__ import annotations

import copy
import logging

import numpy as np

from mindspore.parallel import _dispatch

__all__ = ["Layout", "primitive_shard", "cell_shard", "shard"]

logger = logging.getLogger("mindspore.parallel")


class Layout:
    """A named device matrix; calling it with one axis name per tensor dimension gives a tensor layout.

    Args:
        device_matrix (tuple[int]): the shape of the device arrangement.
        alias_name (tuple[str]): a name per axis of ``device_matrix``.
        rank_list (list[int], optional): the rank at each position of the arrangement. Default: ``None``.

    Examples:
        >>> from mindspore.parallel import Layout
        >>> layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
        >>> layout("dp", "mp").to_dict()["tensor_map"]
        (2, 0)
    """

    def __init__(self, device_matrix, alias_name, rank_list=None):
        if not isinstance(device_matrix, tuple):
            raise TypeError(f'device_matrix must be tuple type, but got:{type(device_matrix)}')
        if not isinstance(alias_name, tuple):
            raise TypeError(f'alias_name must be tuple type, but got:{type(alias_name)}')
        if len(device_matrix) != len(alias_name):
            raise ValueError('device_matrix length should be equal to alias_name length')
        for in_ele in device_matrix:
            if not isinstance(in_ele, int):
                raise TypeError(f'The element of device_matrix must be int type, but got:{type(in_ele)}')
        for in_ele in alias_name:
            if not isinstance(in_ele, str):
                raise TypeError(f'The element of alias_name must be str type, but got:{type(in_ele)}')
            if not in_ele:
                raise ValueError("The element of alias_name can not be empty.")
            if in_ele == "None":
                raise ValueError("The element of alias_name can not set 'None', because 'None' means no sharding.")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f'Each element of alias_name {alias_name} should be different')
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._tensor_map = None
        total = int(np.prod(np.array(device_matrix))) if device_matrix else 1
        self._rank_list = list(range(total))
        if rank_list is not None:
            if not isinstance(rank_list, list):
                raise TypeError(f"The rank_list should be a list, but got {type(rank_list).__name__}.")
            for in_ele in rank_list:
                if not isinstance(in_ele, int):
                    raise TypeError(f"The element of rank_list should be int, but got {type(in_ele).__name__}.")
            if len(rank_list) != total:
                raise ValueError("The length of rank_list should be equal to the product of device_matrix, "
                                 f"but got {len(rank_list)} and {total}.")
            self._rank_list = rank_list

    def _axis(self, name, written):
        if name == "None":
            return -1
        if name not in self._alias_name:
            raise ValueError(f'The axis {name} is not found in {self._alias_name}')
        if name in written:
            raise ValueError(f'The axis {name} has been set more than one in {self._alias_name}')
        written.append(name)
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map):
        written = []
        mapped = []
        for ele in tensor_map:
            if isinstance(ele, tuple):
                mapped.append(tuple(self._axis(item, written) for item in ele))
            else:
                mapped.append(self._axis(ele, written))
        out = copy.deepcopy(self)
        out._tensor_map = tuple(mapped)
        return out

    def to_dict(self):
        """The layout as MindSpore's dictionary."""
        if self._device_shape is None:
            raise ValueError("The device_shape of layout is None")
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": "interleaved_parallel" in self._alias_name,
                "alias_name": self._alias_name, "rank_list": self._rank_list}

    def cuts(self):
        """The cut count of each tensor dimension (the product of the sizes of the axes mapped to it)."""
        n = len(self._device_shape)
        out = []
        for m in self._tensor_map:
            axes = m if isinstance(m, tuple) else (m,)
            cut = 1
            for a in axes:
                if a >= 0:
                    cut *= self._device_shape[n - 1 - a]
            out.append(cut)
        return tuple(out)

    def __repr__(self):
        return f"Layout(device_matrix={self._device_shape}, alias_name={self._alias_name})"


def _check_shard_strategy(prim, strategy, log_info):
    """MindSpore's ``Primitive._check_shard_strategy``: True for Layouts, False for tuples, None for ()."""
    if not isinstance(strategy, tuple):
        raise TypeError(f'{log_info} must be tuple type, but got:{type(strategy)}')
    if strategy == ():
        return None
    is_layout = []
    for in_ele in strategy:
        if not isinstance(in_ele, (tuple, Layout)):
            raise TypeError(f'The element of strategy must be tuple/Layout type, but got:{type(in_ele)}')
        if isinstance(in_ele, tuple):
            for in_value in in_ele:
                if not isinstance(in_value, int):
                    raise TypeError(f'The {log_info}: {strategy} of {prim.name} is not valid,'
                                    f' the value of strategy must be int type, but got:{type(in_value)}')
            is_layout.append(False)
            continue
        is_layout.append(True)
    if len(set(is_layout)) > 1:
        raise TypeError(f'{log_info} item must be all tuple type or all Layout type.')
    return is_layout[0]


def _layout_value(layouts):
    return tuple({k: v for k, v in item.to_dict().items() if k != "rank_list"} for item in layouts)


def primitive_shard(prim, in_strategy=None, out_strategy=None):
    """``Primitive.shard``: validate and record the strategies; returns ``prim``."""
    if in_strategy is None and out_strategy is None:
        return prim
    in_is_layout = out_is_layout = None
    if in_strategy is not None:
        in_is_layout = _check_shard_strategy(prim, in_strategy, "in_strategy")
    if out_strategy is not None:
        out_is_layout = _check_shard_strategy(prim, out_strategy, "out_strategy")
    is_layout = in_is_layout if in_is_layout is not None else out_is_layout
    if out_is_layout is not None and is_layout != out_is_layout:
        raise ValueError('The in_strategy type must equal to the out_strategy type, '
                         'one using tuple(tuple) and the other using tuple(Layout) is not allowed.')
    if in_strategy is None and out_strategy is not None:
        raise ValueError(f'The out_strategy of {prim.name} is {out_strategy}, need to set in_strategy,'
                         f' but got none')
    if is_layout:
        if in_strategy is not None:
            prim.add_prim_attr("in_layout", _layout_value(in_strategy))
            prim.__dict__["_layout_strategy"] = tuple(item.cuts() for item in in_strategy)
        if out_strategy is not None:
            prim.add_prim_attr("out_layout", _layout_value(out_strategy))
    else:
        if in_strategy is not None:
            prim.add_prim_attr("in_strategy", in_strategy)
        if out_strategy is not None:
            prim.add_prim_attr("out_strategy", out_strategy)
    _dispatch.install()
    return prim


def _check_fn_strategy(in_strategy, out_strategy):
    if not isinstance(in_strategy, tuple):
        raise TypeError(f"For 'Shard', the 'in_strategy' should be a tuple, but got {type(in_strategy).__name__}.")
    if not isinstance(out_strategy, (type(None), tuple)):
        raise TypeError("For 'Shard', the 'out_strategy' should be None or tuple, "
                        f"but got {type(out_strategy).__name__}.")


def _strategy_tuple(item):
    return item.cuts() if isinstance(item, Layout) else item


def _check_parameter_plan(cell, parameter_plan):
    """MindSpore's checks of ``parameter_plan``; returns ``[(name, parameter, cut counts)]``."""
    if parameter_plan is None:
        return []
    if not isinstance(parameter_plan, dict):
        raise TypeError("For 'Shard', the 'parameter_plan' should be a dict or None, "
                        f"but got {type(parameter_plan).__name__}")
    params = {p.name: p for p in cell.trainable_params()}
    out = []
    for name, strategy in parameter_plan.items():
        if not isinstance(name, str) or not isinstance(strategy, (tuple, Layout)):
            raise TypeError("For 'Shard', the type of each key and value in 'parameter_plan' must be str and "
                            f"tuple/Layout, but got {type(name).__name__} and {type(strategy).__name__}")
        param = params.get(name.replace("self.", ""))
        if param is None:
            logger.warning("%s is not exist, ignored its setting.", name)
            continue
        strategy = _strategy_tuple(strategy)
        shape = tuple(param.shape)
        if len(strategy) != len(shape):
            raise ValueError(f"For {name}, the length of param_strategy: {len(strategy)}, "
                             f"is not equal to param_shape len: {len(shape)}.")
        for i, cut in enumerate(strategy):
            if shape[i] % cut:
                raise ValueError(f"For '{name}', the param_shape is {shape} and the setting param_strategy is "
                                 f"{strategy}. The param_shape[{i}]: {shape[i]} cannot be divisible by "
                                 f"param_strategy[{i}]: {cut}.")
        out.append((name, param, strategy))
    return out


def _apply_parameter_plan(cell, parameter_plan):
    """Cut the parameters of ``parameter_plan`` (those not cut yet) as it says."""
    from mindspore.parallel._layouts import split_parameter
    from mindspore.parallel._ops._plan import Plan
    for name, param, strategy in _check_parameter_plan(cell, parameter_plan):
        if param.__dict__.get("_ms_layout") is None:
            letters = [f"d{d}" for d in range(len(strategy))]
            plan = Plan(_PlanOwner(f"parameter_plan[{name}]", strategy), list(zip(letters, strategy)))
            split_parameter(param, plan.layout(letters, tuple(param.shape)), plan.rank)


class _PlanOwner:
    """What a :class:`Plan` reports errors for when it is not an operator's."""

    def __init__(self, name, strategy):
        self.name = name
        self.attrs = {"in_strategy": strategy}


class _Sharded:
    """``fn`` run with its inputs cut as ``in_strategy`` says (None: the first dimension cut over all
    devices), the operators inside without strategy taking the layouts they receive (sharding propagation),
    and its outputs made whole."""

    def __init__(self, fn, in_strategy, out_strategy, parameter_plan=None):
        self.fn = fn
        self.running = False
        self.parameter_plan = parameter_plan   # applied at the first call under SEMI_AUTO/AUTO_PARALLEL
        self.in_strategy = tuple(None if s is None else _strategy_tuple(s) for s in in_strategy)
        self.out_strategy = out_strategy

    def _take(self, x, strategy):
        from mindspore.common.tensor import Tensor
        from mindspore.parallel._ops._plan import Plan, full_shape
        if not isinstance(x, Tensor):
            return x
        shape = full_shape(x)
        if strategy is None:
            from mindspore.parallel._layouts import world
            strategy = (world()[1],) + (1,) * (len(shape) - 1)
        letters = [f"d{d}" for d in range(len(shape))]
        from mindspore.parallel._ops._plan import check_strategy
        owner = _PlanOwner("Shard", (strategy,))
        check_strategy(owner, (strategy,), (shape,))
        plan = Plan(owner, list(zip(letters, strategy)))
        with _dispatch.inside_rule():
            return plan.out(plan.take(x, letters), letters, shape)

    def _run(self, args, kwargs):
        self.running = True
        try:
            return self.fn(*args, **kwargs)
        finally:
            self.running = False

    def __call__(self, *args, **kwargs):
        from mindspore.plugin import MSValueError
        from mindspore.parallel._layouts import world
        from mindspore.parallel._redistribute import to_whole
        if not _dispatch.active():
            return self._run(args, kwargs)
        if len(self.in_strategy) != len(args):
            raise MSValueError(f"For 'Shard', the length of 'in_strategy' {len(self.in_strategy)} must be equal to "
                               f"the number of inputs {len(args)}.")
        if self.parameter_plan is not None:
            _apply_parameter_plan(self.fn, self.parameter_plan)
            self.parameter_plan = None
        local = tuple(self._take(x, s) for x, s in zip(args, self.in_strategy))
        with _dispatch.propagating():
            out = self._run(local, kwargs)
        rank, device_num = world()
        with _dispatch.inside_rule():
            if isinstance(out, tuple):
                return tuple(to_whole(o, rank, device_num) for o in out)
            return to_whole(out, rank, device_num)


def cell_shard(cell, in_strategy, out_strategy=None, parameter_plan=None):
    """``Cell.shard``: the cell's inputs are cut as ``in_strategy`` says whenever it is called under
    SEMI_AUTO_PARALLEL or AUTO_PARALLEL, its operators propagate the layouts, its outputs are made whole, and
    the parameters of ``parameter_plan`` are cut at its first such call."""
    _check_fn_strategy(in_strategy, out_strategy)
    if out_strategy is not None:
        logger.warning("Out_strategy is not in use currently, will be ignored in the following procedures.")
    _dispatch.install()
    _check_parameter_plan(cell, parameter_plan)
    return _Sharded(cell, in_strategy, out_strategy, parameter_plan)


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
    """Specify the input (and output) sharding of a Cell or function; returns the sharded callable.

    Under SEMI_AUTO_PARALLEL or AUTO_PARALLEL each input is cut as its entry of ``in_strategy`` says (a tuple
    of cut counts, a :class:`Layout`, or None for the first dimension cut over all devices), the operators inside
    run on the blocks (their own strategies, or the layouts they receive), and the outputs are returned whole.
    ``parameter_plan`` (``{parameter name: strategy}``, Cells only) cuts those parameters at the first such call.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> def add(x, y):
        ...     return x + y
        >>> x = ms.Tensor(np.ones((32, 10), np.float32))
        >>> ms.parallel.shard(add, in_strategy=((4, 2), (4, 2)))(x, x).shape
        (32, 10)
    """
    from mindspore.nn import Cell
    _check_fn_strategy(in_strategy, out_strategy)
    if not isinstance(device, str):
        raise TypeError(f"For 'Shard', the 'device' should be a string, but got {type(device).__name__}")
    if not isinstance(level, int):
        raise TypeError(f"For 'Shard', the 'level' should be an integer, but got {type(level).__name__}")
    if parameter_plan is not None and not isinstance(fn, Cell):
        raise TypeError(f"If parameter_plan is set, type of fn must be mindspore.nn.Cell, but got {type(fn)}")
    if isinstance(fn, Cell):
        return cell_shard(fn, in_strategy, out_strategy, parameter_plan)
    _dispatch.install()
    return _Sharded(fn, in_strategy, out_strategy)
