"""Automatic mixed precision: run parts of a network in float16 (or bfloat16) with float32 parameters.

Levels (MindSpore 2.10):

* ``O0``: unchanged.
* ``O1``: the white-list cells (Conv*, Dense, RNN cells) and white-list primitives held as cell
  attributes (MatMul, BatchMatMul, Conv2D, ReLU, PReLU, ...) compute in low precision; their
  outputs are cast back to float32, everything else stays float32.
* ``O2``: the whole network computes in low precision except the black-list cells (BatchNorm*,
  LayerNorm), which compute in float32 and hand low precision on; the network output is float32.
* ``O3``: the whole network computes in low precision; the output is float32.

How it runs. ``Cell.to_float(dtype)`` marks a cell (and its children) so that its operators run in
``dtype`` (PYNATIVE: each casts its float inputs; GRAPH_MODE: the cell's inputs are cast on entry).
MindSpore also casts, at use, every float *parameter* a marked cell reads (the stored parameters stay
float32, so optimizers update float32 master weights and gradients flow back through the casts).
Cells converted here get that behaviour from a small subclass injected in place (the technique
``torch.nn.utils.parametrize`` uses): while such a cell runs, its own trainable float parameters are
read through a ``Cast`` to the cell's type, and its output is cast when amp asked for it (float32
after white-list cells, low precision after black-list cells under O2). Parameters that are not
trainable (BatchNorm's moving statistics) are never cast, because kernels update them in place; this
mirrors MindSpore not casting inputs it writes; in PYNATIVE a BatchNorm cell's are not cast at all
(MindSpore's ``BatchNorm`` casts no Parameter), so O3 computes it as O2 does. Primitives in the white
list are converted the same way: a subclass with the same class name (so kernel lookup is
unchanged) casts float inputs to low precision and the result back to float32. Every cast is an
ordinary ``Cast`` primitive, so the float16 computation really happens in the kernels and autodiff
sees it; outside graph compilation (PYNATIVE) the outermost converted cell of a call casts the parameters of all the
converted cells under it with one ``CastMany`` instead (one operator call, where a ResNet took 17 ``Cast``s and
their 17 gradient casts), which the cells under it then read. Under O2 a BatchNorm cell as MindSpore builds it is
given its half-precision input as it is: its kernels compute in float32 and round the output once, the numbers of
casting the input to float32 and the output back, without those two operators.

Loss scaling: :class:`DynamicLossScaleManager` / :class:`FixedLossScaleManager` (for ``Model``
and :func:`build_train_network`) and the functional :class:`StaticLossScaler` /
:class:`DynamicLossScaler` with :func:`all_finite`.
"""
from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod

from mindspore._core import interpreters as _interpreters
from mindspore._core.primitive import MIXED_PRECISION as _MIXED_PRECISION
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.ops.primitive import Primitive
from mindspore._loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["auto_mixed_precision", "custom_mixed_precision", "build_train_network", "get_white_list",
           "get_black_list", "all_finite", "LossScaler", "StaticLossScaler", "DynamicLossScaler",
           "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]

_logger = logging.getLogger("mindspore")

_WHITE_CELLS = ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose", "Dense",
                "LSTMCell", "RNNCell", "GRUCell")
_WHITE_PRIMS = ("Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose", "Conv2DBackpropInput", "MatMul",
                "BatchMatMul", "PReLU", "ReLU", "Ger")
_BLACK_CELLS = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")
_LOW_TYPES = (mstype.float16, mstype.bfloat16)


def _classes(module, names):
    return [cls for cls in (getattr(module, n, None) for n in names) if cls is not None]


def get_white_list():
    """A copy of the built-in white list of ``O1``: cell and primitive classes computed in low precision.

    Examples:
        >>> from mindspore import amp, nn
        >>> nn.Dense in amp.get_white_list()  # doctest: +SKIP
        True
    """
    import mindspore.nn as nn
    import mindspore.ops as ops
    return _classes(nn, _WHITE_CELLS) + _classes(ops, _WHITE_PRIMS)


def get_black_list():
    """A copy of the built-in black list of ``O2``: cell classes kept in float32.

    Examples:
        >>> from mindspore import amp, nn
        >>> nn.BatchNorm2d in amp.get_black_list()  # doctest: +SKIP
        True
    """
    import mindspore.nn as nn
    return _classes(nn, _BLACK_CELLS)


# --- casting helpers ---------------------------------------------------------------------------
def _cast_floats(value, dtype):
    """``value`` with every floating Tensor (in nested tuples/lists) cast to ``dtype``."""
    from mindspore.ops import functional as fops
    if isinstance(value, Tensor):
        if value.dtype in mstype.float_type and value.dtype != dtype:
            return fops.cast(value, dtype)
        return value
    if isinstance(value, (tuple, list)):
        return type(value)(_cast_floats(v, dtype) for v in value)
    return value


def _cast_param(param, dst):
    """Whether amp reads ``param`` through a cast to ``dst``: a trainable float Parameter of another dtype."""
    return isinstance(param, Parameter) and param.requires_grad and param.dtype in mstype.float_type \
        and param.dtype != dst


class _ParamCasts(threading.local):
    """The parameter casts of the amp call running in this thread: ``{(id(param), dtype): cast Tensor}``, made by
    its outermost converted cell, or ``None`` outside one."""

    casts = None


_PARAM_CASTS = _ParamCasts()
_CAST_MANY = []   # (ops.CastMany(), made at first use)


def _has_cast_many():
    """Whether the current device target has a ``CastMany`` kernel of its own (a backend without one, a third
    party's, keeps its ``Cast`` per parameter rather than run ``CastMany`` on the CPU)."""
    from mindspore._runtime import backend
    b = backend.current()
    return b.registry.find("CastMany", b.target) is not None


def _cast_subtree_params(root):
    """Every parameter cast of the converted cells under ``root`` (itself included), as one ``CastMany``:
    ``{(id(param), dtype): cast Tensor}``. Under PYNATIVE a ``Cast`` per parameter cost an operator call each (17 for
    a ResNet); one call casts them all, and the backward pass casts their gradients back as one too. A parameter of
    a cell the call does not reach is cast all the same (its gradient is zero, as it would be)."""
    params, dtypes, keys, seen = [], [], [], set()
    stack, cells = [root], set()
    while stack:
        cell = stack.pop()
        state = cell.__dict__
        if id(cell) in cells:
            continue
        cells.add(id(cell))
        dst = state.get("_mixed_precision_type")
        if dst is not None and getattr(type(cell), "_amp_injected", False) and not state.get("_amp_params_as_they_are"):
            for param in state["_params"].values():
                key = (id(param), dst)
                if key not in seen and _cast_param(param, dst):
                    seen.add(key)
                    params.append(param)
                    dtypes.append(dst)
                    keys.append(key)
        stack.extend(c for c in reversed(list(state.get("_cells", {}).values())) if c is not None)
    if len(params) < 2 or not _has_cast_many():
        return {}
    if not _CAST_MANY:
        from mindspore.ops.operations import CastMany
        _CAST_MANY.append(CastMany())
    return dict(zip(keys, _CAST_MANY[0](tuple(params), tuple(dtypes))))


class _AmpCellMixin:
    """Injected before a cell's class: casts own trainable float parameters while running, and the output. Outside
    graph compilation the outermost converted cell of a call casts the parameters of every converted cell under it
    at once (:func:`_cast_subtree_params`), and the operators casting them take those casts."""

    _amp_injected = True

    def _cast_inputs(self, args):
        if self.__dict__.get("_amp_half_input"):   # (see _takes_half_input)
            return args
        return super()._cast_inputs(args)

    def _ops_mixed_precision_type(self):
        if self.__dict__.get("_amp_half_input"):   # (PYNATIVE: its operators take the half input as it is)
            return None
        return super()._ops_mixed_precision_type()

    def __call__(self, *args, **kwargs):
        state = self.__dict__
        dst = state.get("_mixed_precision_type")
        params = state["_params"]
        saved = {}
        # a graph being compiled casts its own parameters (and so does a call that will compile one)
        staging = _interpreters.STACK[-1].kind == "staging" or self._compiles_graph()
        casts = None if staging else _PARAM_CASTS.casts
        opened = casts is None and not staging
        if opened:
            casts = _cast_subtree_params(self)
        if dst is not None and staging:
            for name, param in params.items():
                if _cast_param(param, dst):
                    saved[name] = param
            for name, param in saved.items():
                params[name] = _cast_floats(param, dst)
        if opened:
            # PYNATIVE: the cells read their Parameters as they are (as in MindSpore); the operators casting them
            # (see Cell.to_float) take these casts instead of casting again
            _PARAM_CASTS.casts = _MIXED_PRECISION.parameters = casts
        try:
            out = super().__call__(*args, **kwargs)
        finally:
            params.update(saved)
            if opened:
                _PARAM_CASTS.casts = _MIXED_PRECISION.parameters = None
        out_dtype = state.get("_amp_output_dtype")
        return _cast_floats(out, out_dtype) if out_dtype is not None else out


class _AmpPrimitiveMixin:
    """Injected before a white-list primitive's class: low-precision inputs, float32 output."""

    _amp_injected = True

    def __call__(self, *args):
        dst = self.__dict__.get("_amp_dtype", mstype.float16)
        out = super().__call__(*_cast_floats(args, dst))
        return _cast_floats(out, mstype.float32)


_INJECTED = {}


def _inject(obj, mixin):
    """Give ``obj`` a subclass of its class with ``mixin`` first (same name and module; cached per class)."""
    cls = type(obj)
    if getattr(cls, "_amp_injected", False):
        return obj
    key = (cls, mixin)
    sub = _INJECTED.get(key)
    if sub is None:
        namespace = {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__}
        if "bprop" in cls.__dict__:  # Cell.__call__ looks for a custom bprop in the class's own dict
            namespace["bprop"] = cls.__dict__["bprop"]
        sub = type(cls.__name__, (mixin, cls), namespace)
        _INJECTED[key] = sub
    obj.__class__ = sub
    from mindspore._pipeline.compiler import invalidate_all
    invalidate_all()
    return obj


def _set_amp_output(cell, dtype):
    object.__setattr__(cell, "_amp_output_dtype", dtype)


def _enable_param_cast(network):
    """Make every cell of ``network`` read its trainable float parameters in its mixed-precision type. Outside graph
    compilation a BatchNorm cell as MindSpore builds it reads them as they are: MindSpore's PYNATIVE executor casts
    no Parameter of its ``BatchNorm`` (RW_WRITE or no signature), so under O3 it computes as under O2."""
    for _, cell in network.cells_and_names():
        _inject(cell, _AmpCellMixin)
        if _is_built_batchnorm(cell):
            object.__setattr__(cell, "_amp_params_as_they_are", True)


def _is_user_cell(cell):
    """Cells whose construct amp may look into (MindSpore's rewrite does not descend into built-in cells)."""
    return not type(cell).__module__.startswith("mindspore.")


# --- O1 (white list) ---------------------------------------------------------------------------
def _auto_white_list(network, white_list, dtype):
    cell_types = tuple(t for t in white_list if isinstance(t, type) and issubclass(t, Cell))
    prim_types = tuple(t for t in white_list if isinstance(t, type) and issubclass(t, Primitive))
    seen = set()

    def visit(cell):
        if id(cell) in seen:
            return
        seen.add(id(cell))
        if cell_types and isinstance(cell, cell_types):
            if cell._mixed_precision_type is None:  # a user's own to_float wins, as in MindSpore
                cell.to_float(dtype)
                _enable_param_cast(cell)
                _set_amp_output(cell, mstype.float32)
            return
        if prim_types and _is_user_cell(cell) and cell._mixed_precision_type is None:
            for value in list(vars(cell).values()):
                if isinstance(value, prim_types) and not getattr(type(value), "_amp_injected", False):
                    _inject(value, _AmpPrimitiveMixin)
                    object.__setattr__(value, "_amp_dtype", dtype)
        for child in cell.name_cells().values():
            visit(child)

    visit(network)
    return network


# --- O2 / O3 -----------------------------------------------------------------------------------
def _takes_half_input(cell):
    """Whether ``cell`` is one of MindSpore's BatchNorm cells as built (its own ``construct``, float32 parameters):
    its ``BatchNorm`` kernels take a half-precision input with float32 parameters, compute in float32 and round the
    output once, so giving it the half-precision input computes the same numbers as casting the input to float32 and
    the output back (and the same gradients, through the kernels' float32 BatchNormGrad), two operators fewer per
    layer in both directions (30 of a ResNet step's forward operator calls)."""
    return _is_built_batchnorm(cell) and \
        all(p.dtype == mstype.float32 for p in cell.__dict__["_params"].values() if p is not None)


def _is_built_batchnorm(cell):
    import mindspore.nn as nn
    return type(cell).construct is nn.layer.normalization._BatchNorm.construct


def _auto_black_list(network, black_list, dtype):
    """Everything in ``dtype`` except cells of ``black_list`` (float32 inside, ``dtype`` output)."""
    black = tuple(black_list)
    network.to_float(dtype)
    _enable_param_cast(network)
    for _, cell in network.cells_and_names():
        if black and isinstance(cell, black) and cell is not network:
            cell.to_float(mstype.float32)
            if _takes_half_input(cell):
                object.__setattr__(cell, "_amp_half_input", True)   # float32 inside all the same
            _set_amp_output(cell, dtype)
    return network


class _OutputTo32(Cell):
    """Wraps a mixed-precision network so that its floating outputs are float32 (adds no name prefix)."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *args, **kwargs):
        return _cast_floats(self._backbone(*args, **kwargs), mstype.float32)


def _check_network_dtype(network, dtype):
    if not isinstance(network, Cell):
        raise TypeError("The network type should be Cell.")
    if dtype not in _LOW_TYPES:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got {dtype}.")


def auto_mixed_precision(network, amp_level="O0", dtype=mstype.float16):
    """Return ``network`` converted for mixed precision at ``amp_level`` (see the module docstring).

    Parameters stay float32; ``O2``/``O3`` return the network wrapped so that outputs are float32.

    Args:
        network (Cell): The network.
        amp_level (str): ``"O0"``, ``"O1"``, ``"O2"`` or ``"O3"``. Default: ``"O0"``.
        dtype (Type): ``mstype.float16`` or ``mstype.bfloat16``. Default: ``mstype.float16``.

    Raises:
        TypeError: If ``network`` is not a Cell.
        ValueError: If ``dtype`` or ``amp_level`` is not supported.

    Examples:
        >>> from mindspore import amp, nn
        >>> net = amp.auto_mixed_precision(nn.Dense(3, 2), "O3")  # doctest: +SKIP
    """
    _check_network_dtype(network, dtype)
    if amp_level == "O0":
        return network
    if getattr(network, "_amp_level", None) in ("O1", "O2", "O3"):
        _logger.warning("The network's auto mixed-precision level is adjusted from %s to %s, and repeated calls to "
                        "mixed-precision interfaces can cause performance degradation.",
                        network._amp_level, amp_level)
    if amp_level == "O1":
        network = _auto_white_list(network, get_white_list(), dtype)
    elif amp_level == "O2":
        network = _OutputTo32(_auto_black_list(network, get_black_list(), dtype))
    elif amp_level == "O3":
        network.to_float(dtype)
        _enable_param_cast(network)
        network = _OutputTo32(network)
    else:
        raise ValueError(f"The amp level {amp_level} is not supported")
    object.__setattr__(network, "_amp_level", amp_level)
    return network


def _list_check(custom_list, list_name):
    if not isinstance(custom_list, list):
        raise TypeError(f"The type of {list_name} should be list, but got {type(custom_list)}")
    for elem in custom_list:
        if not isinstance(elem, type):
            raise TypeError(f"The element in {list_name} should be a class, but got {elem}")
        if list_name == "white_list" and not issubclass(elem, (Cell, Primitive)):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell' and 'Primitive', "
                            f"but got {elem}")
        if list_name == "black_list" and not issubclass(elem, Cell):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell', but got {elem}")


def custom_mixed_precision(network, white_list=None, black_list=None, dtype=mstype.float16):
    """Mixed precision with your own list: ``white_list`` works like ``O1``, ``black_list`` like ``O2``.

    Args:
        network (Cell): The network.
        white_list (list[type]): Cell and Primitive classes to compute in low precision.
        black_list (list[type]): Cell classes to keep in float32 (everything else is low precision).
        dtype (Type): ``mstype.float16`` or ``mstype.bfloat16``. Default: ``mstype.float16``.

    Raises:
        TypeError: If ``network`` is not a Cell or a list holds something else than the allowed classes.
        ValueError: If neither or both lists are given, or ``dtype`` is not supported.

    Examples:
        >>> from mindspore import amp, nn
        >>> net = amp.custom_mixed_precision(nn.Dense(3, 2), white_list=[nn.Dense])  # doctest: +SKIP
    """
    _check_network_dtype(network, dtype)
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be provided.")
    if white_list is not None and black_list is not None:
        raise ValueError("For custom_mixed_precision, the white_list or black_list cannot be provided at the same "
                         "time, please provide one or the other.")
    if white_list is not None:
        _list_check(white_list, "white_list")
        return _auto_white_list(network, white_list, dtype)
    _list_check(black_list, "black_list")
    return _OutputTo32(_auto_black_list(network, black_list, dtype))


# --- build_train_network -------------------------------------------------------------------------
def _config_level(level):
    return {
        "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
        "O1": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
        "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16,
               "loss_scale_manager": DynamicLossScaleManager()},
        "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16, "loss_scale_manager": None},
    }[level]


def _check_kwargs(kwargs):
    for arg in kwargs:
        if arg not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"Unsupported arg '{arg}'")
    if "cast_model_type" in kwargs and kwargs["cast_model_type"] not in (mstype.float16, mstype.float32):
        raise TypeError(f"The 'cast_model_type' must be float16 or float32, but got {kwargs['cast_model_type']}.")
    if "keep_batchnorm_fp32" in kwargs and not isinstance(kwargs["keep_batchnorm_fp32"], bool):
        raise TypeError(f"The 'keep_batchnorm_fp32' must be bool, but got "
                        f"{type(kwargs['keep_batchnorm_fp32']).__name__}.")
    manager = kwargs.get("loss_scale_manager")
    if manager is not None and not isinstance(manager, LossScaleManager):
        raise TypeError(f"The 'loss_scale_manager' must be a LossScaleManager, but got {type(manager).__name__}.")


def _check_level(level, boost_level):
    import mindspore.context as context
    if not isinstance(level, str):
        raise TypeError(f"The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', 'auto'], but got type "
                        f"{type(level)}.")
    if level not in ("O0", "O1", "O2", "O3", "auto"):
        raise ValueError(f"The argument 'level' must be in ['O0', 'O1', 'O2', 'O3', 'auto'], but got {level!r}.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"The argument 'boost_level' must be in ['O0', 'O1', 'O2'], but got {boost_level!r}.")
    if level == "auto":
        target = context.get_context("device_target")
        if target == "GPU":
            return "O2"
        if target == "Ascend":
            return "O3"
        raise ValueError("Level `auto` only support when `device_target` is GPU or Ascend.")
    return level


def _keep_batchnorm_fp32(network, dtype=mstype.float16):
    for _, cell in network.cells_and_names():
        if cell is not network and isinstance(cell, tuple(get_black_list())):
            cell.to_float(mstype.float32)
            _set_amp_output(cell, dtype)


def _auto_mixed_precision_process(network, config, level):
    if config["cast_model_type"] == mstype.float16:
        network.to_float(mstype.float16)
        _enable_param_cast(network)
        if config["keep_batchnorm_fp32"]:
            _keep_batchnorm_fp32(network)
        return network
    if not config["keep_batchnorm_fp32"] and level == "O2":
        network.to_float(mstype.float16)
        _enable_param_cast(network)
        return network
    if level in ("O2", "O3"):  # cast_model_type=float32 given explicitly: nothing to convert
        return network
    return auto_mixed_precision(network, level)


class _AmpWithLossCell(Cell):
    """WithLossCell for a float16 backbone: the loss is computed in float32."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = self._backbone(data)
        return self._loss_fn(_cast_floats(out, mstype.float32), _cast_floats(label, mstype.float32))


def _add_loss_network(network, loss_fn, cast_model_type):
    import mindspore.nn as nn
    if not isinstance(loss_fn, Cell):
        raise TypeError(f"The 'loss_fn' must be a Cell, but got {type(loss_fn).__name__}.")
    if cast_model_type == mstype.float16:
        return _AmpWithLossCell(network, loss_fn)
    return nn.WithLossCell(network, loss_fn)


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0", **kwargs):
    """Build the training cell (``TrainOneStepCell`` or ``TrainOneStepWithLossScaleCell``) with mixed precision.

    Args:
        network (Cell): The network.
        optimizer (nn.Optimizer): The optimizer.
        loss_fn (Cell): The loss; when None, ``network`` must compute the loss itself. Default: ``None``.
        level (str): ``'O0'``, ``'O1'``, ``'O2'`` (float16 with BatchNorm in float32 and dynamic loss
            scaling), ``'O3'`` (all float16) or ``'auto'`` (O2 on GPU, O3 on Ascend). Default: ``'O0'``.
        boost_level (str): ``'O0'``, ``'O1'`` or ``'O2'``; boost optimizations are not available here and
            levels other than ``'O0'`` train unboosted (a warning says so). Default: ``'O0'``.
        cast_model_type (Type): Override the cast type implied by ``level`` (float16 or float32).
        keep_batchnorm_fp32 (bool): Override whether BatchNorm stays float32.
        loss_scale_manager (LossScaleManager): Override the loss scale manager implied by ``level``.

    Raises:
        ValueError: If ``level``/``boost_level`` is invalid or an unknown keyword is given.
        TypeError: If ``optimizer`` is not an ``nn.Optimizer`` or a keyword has the wrong type.

    Examples:
        >>> from mindspore import amp, nn
        >>> net = nn.Dense(3, 2)  # doctest: +SKIP
        >>> opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)  # doctest: +SKIP
        >>> train_net = amp.build_train_network(net, opt, nn.MSELoss(), level="O3")  # doctest: +SKIP
    """
    import mindspore.nn as nn
    if not isinstance(optimizer, nn.Optimizer):
        raise TypeError(f"For 'build_train_network', the 'optimizer' must be a mindspore.nn.Optimizer, but got "
                        f"{type(optimizer).__name__}.")
    level = _check_level(level, boost_level)
    if boost_level != "O0":
        _logger.warning("boost_level=%s: boost optimizations are not available; training runs unboosted.",
                        boost_level)
    _check_kwargs(kwargs)
    config = dict(_config_level(level), **kwargs)
    network = _auto_mixed_precision_process(network, config, level)
    if loss_fn:
        network = _add_loss_network(network, loss_fn, config["cast_model_type"])
    loss_scale = None
    manager = config["loss_scale_manager"]
    if manager is not None:
        loss_scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            _refuse_update_cell_on_cpu()
            return nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
    return nn.TrainOneStepCell(network, optimizer, loss_scale).set_train()


def _refuse_update_cell_on_cpu():
    """2.10 builds no loss-scale-updating train cell on CPU (its CPU backend lacks the cell's control flow): level
    O2 (whose default manager is dynamic), a DynamicLossScaleManager, a FixedLossScaleManager dropping overflowed
    steps, or any manager with an update cell, is refused there (a hand-made TrainOneStepWithLossScaleCell is not)."""
    import mindspore.context as context
    if context.get_context("device_target") == "CPU":
        raise ValueError("Only `loss_scale_manager=None` or `loss_scale_manager=FixedLossScaleManager("
                         "drop_overflow_update=False)`are supported on device `CPU`. ")


# --- functional loss scaling ----------------------------------------------------------------------
def _map(fn, inputs):
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(_map(fn, x) for x in inputs)
    return fn(inputs)


def _is_finite(x):
    import mindspore.ops as ops
    return ops.isfinite(x).all()


def all_finite(inputs):
    """A scalar bool Tensor: True when every element of every Tensor in ``inputs`` is finite.

    Args:
        inputs (Union[tuple(Tensor), list(Tensor)]): The tensors to check (e.g. gradients).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import amp
        >>> print(amp.all_finite((ms.Tensor(np.array([np.inf, 1.0])), ms.Tensor([1.0]))))
        False
    """
    from mindspore.nn.wrap.loss_scale import _ALL_FINITE
    return _ALL_FINITE(tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,))


class LossScaler(ABC):
    """Abstract loss scaler: ``scale`` the loss, ``unscale`` the gradients, ``adjust`` the scale."""

    @abstractmethod
    def scale(self, inputs):
        """Multiply ``inputs`` (a Tensor or tuple of Tensors) by the scale."""

    @abstractmethod
    def unscale(self, inputs):
        """Divide ``inputs`` (a Tensor or tuple of Tensors) by the scale."""

    @abstractmethod
    def adjust(self, grads_finite):
        """Update the scale given whether the gradients were finite (a scalar bool Tensor)."""


def _check_scale_value(scale_value):
    if isinstance(scale_value, bool) or not isinstance(scale_value, (float, int)):
        raise TypeError(f"The type of 'scale_value' must be float or int, but got {type(scale_value).__name__}.")
    if scale_value < 1.0:
        raise ValueError(f"The argument 'scale_value' must be > 1, but got {scale_value}")


def _grad_scale_map(scale_value, inputs):
    """``inputs`` (a Tensor or nested tuple/list of them) times ``scale_value`` (private in 2.10 too, but its
    ``LossScaler`` example imports it to write a custom scaler)."""
    return _map(lambda x: x * scale_value.astype(x.dtype), inputs)


def _grad_unscale_map(scale_value, inputs):
    """``inputs`` divided by ``scale_value`` (times its reciprocal, as 2.10)."""
    import mindspore.ops as ops
    inv = ops.reciprocal(scale_value)
    return _map(lambda x: x * inv.astype(x.dtype), inputs)


class _ScalerBase(LossScaler):
    def __init__(self, scale_value):
        _check_scale_value(scale_value)
        self.scale_value = Parameter(Tensor(scale_value, dtype=mstype.float32), name="scale_value")

    def scale(self, inputs):
        return _grad_scale_map(self.scale_value, inputs)

    def unscale(self, inputs):
        return _grad_unscale_map(self.scale_value, inputs)


class StaticLossScaler(_ScalerBase):
    """Scale the loss and unscale the gradients by a fixed ``scale_value``.

    Args:
        scale_value (Union[float, int]): The scale; at least 1.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import amp
        >>> scaler = amp.StaticLossScaler(scale_value=2**10)
        >>> print(scaler.scale(ms.Tensor([1.0], ms.float32)))
        [1024.]
    """

    def adjust(self, grads_finite):
        """The scale is fixed: returns False."""
        return False


class DynamicLossScaler(_ScalerBase):
    """A loss scale that halves (``/ scale_factor``, not below 1) on overflow and grows by ``scale_factor``
    after ``scale_window`` finite steps in a row.

    Args:
        scale_value (Union[float, int]): The initial scale.
        scale_factor (int): The growth/shrink factor.
        scale_window (int): Finite steps before the scale grows.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import amp
        >>> scaler = amp.DynamicLossScaler(scale_value=2**10, scale_factor=2, scale_window=1)
        >>> grads = (ms.Tensor(np.array([np.log(-1), 1.0]), ms.float16), ms.Tensor(np.array([0.2]), ms.float16))
        >>> scaler.adjust(amp.all_finite(scaler.unscale(grads)))
        True
        >>> print(scaler.scale_value.asnumpy())
        512.0
    """

    def __init__(self, scale_value, scale_factor, scale_window):
        super().__init__(scale_value)
        for name, value in (("scale_window", scale_window), ("scale_factor", scale_factor)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"The '{name}' must be a positive int, but got {value!r}.")
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.counter = Parameter(Tensor(0, dtype=mstype.int32), name="counter")

    def adjust(self, grads_finite):
        """Grow, keep or shrink the scale from ``grads_finite``; returns True."""
        import mindspore.ops as ops
        one = ops.ones((), self.scale_value.dtype)
        grown = self.scale_value * self.scale_factor
        on_finite = ops.select(self.counter == (self.scale_window - 1),
                               ops.select(_is_finite(grown), grown, self.scale_value),
                               self.scale_value)
        new_scale = ops.select(grads_finite, on_finite, ops.maximum(one, self.scale_value / self.scale_factor))
        ops.assign(self.scale_value, new_scale)
        counter = ((self.counter + 1) % self.scale_window) * grads_finite.astype(mstype.int32)
        ops.assign(self.counter, counter)
        return True
