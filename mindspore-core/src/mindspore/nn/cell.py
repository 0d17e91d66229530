"""Cell: the building block of networks. Bookkeeping only: parameters, sub-cells, names, modes.

Naming follows MindSpore 2.10 (API.md 5.7): a parameter's name is its dotted attribute path from
the outermost auto-prefixing cell, assigned eagerly when a child cell is set as an attribute.
An unnamed parameter takes its attribute name; an explicitly named one keeps its name while its cell
is top level and is renamed to the path once nested. Cells with ``auto_prefix=False``
(``WithLossCell``, ``TrainOneStepCell``) add no prefix of their own.

A Cell whose class defines ``bprop(self, *inputs, out, dout)`` is differentiated with it: while a
gradient tape is active, ``construct`` runs unrecorded and the call is recorded as one node whose
derivative is the user's ``bprop``.
"""
from __future__ import annotations

import functools
import inspect
import types
import warnings
from collections import OrderedDict

from mindspore._autodiff import forward_reuse as _forward_reuse
from mindspore._autodiff import tape as _tape
from mindspore.nn import _cell_buffers, _cell_hooks, _cell_memory, _state_dict
from mindspore.nn._cell_extras import CellExtras as _CellExtras
from mindspore._core import interpreters as _interpreters
from mindspore._core.primitive import MIXED_PRECISION as _MIXED_PRECISION, MIXED_PRECISION_USED as _MIXED_PRECISION_USED
from mindspore._infer import staging as _staging
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common.parameter import Parameter, ParameterTuple, check_fusion_id, first_shared_name
from mindspore.common.tensor import Tensor
import mindspore.context as _context
from mindspore.common import api as _api

__all__ = ["Cell", "CellList", "SequentialCell"]

_DEFAULT_PARAM_NAME = "Parameter"


def _cast(param, dtype):
    from mindspore.ops import functional as fops
    from mindspore._core.primitive import mark_param_read
    return mark_param_read(fops.cast(param, dtype), param)


def _float_types():
    from mindspore.common import dtype as mstype
    return (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


_FLOAT_TYPES = _float_types()


def _cast_tensor_attrs(cell):
    """GRAPH_MODE under ``to_float``: as in MindSpore 2.10, the cell's float Tensor attributes (not Parameters, not
    those held in tuples, lists or dicts) are read in the cell's dtype while its graph is built; the attributes
    themselves keep their dtype. Returns ``{name: (original, cast)}`` for :func:`_restore_tensor_attrs`."""
    from mindspore.ops import functional as fops
    dst = cell.__dict__["_mixed_precision_type"]
    swapped = {}
    for name, value in list(cell.__dict__.items()):
        if type(value) is Tensor and value.dtype in _FLOAT_TYPES and value.dtype != dst:
            swapped[name] = (value, fops.cast(value, dst))
            cell.__dict__[name] = swapped[name][1]
    return swapped


def _restore_tensor_attrs(cell, swapped):
    for name, (original, cast) in swapped.items():
        if cell.__dict__.get(name) is cast:   # (one construct assigned is kept)
            cell.__dict__[name] = original


def _graphs_stale():
    """A sub-cell or Parameter was (re)placed: graphs compiled before may hold the old one."""
    from mindspore._pipeline.compiler import invalidate_all
    invalidate_all()


#: ``CELL_CALL_HOOK[0](cell, run, args, kwargs)``, when set (``mindspore.plugin.set_cell_call_hook``), runs every
#: Cell call (``run(*args, **kwargs)`` is the call itself)
CELL_CALL_HOOK = [None]


@functools.lru_cache(maxsize=None)
def _construct_arity(cls):
    """(required, defaulted, names of the positional parameters) of ``cls.construct`` without ``self``; None when
    it takes ``*args`` or is not a plain function."""
    fn = getattr(cls, "construct", None)
    if not isinstance(fn, types.FunctionType):
        return None
    params = list(inspect.signature(fn).parameters.values())[1:]
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return None
    pos = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is p.empty for p in pos)
    return required, len(pos) - required, tuple(p.name for p in pos)


def _arity_error(arity, args, kwargs):
    """MindSpore's TypeError for a GRAPH_MODE call of a Cell with the wrong number of positional inputs."""
    required, defaulted, names = arity
    if len(args) > required + defaulted:
        raise MSTypeError(f"For 'Cell', the function construct requires {required} positional argument and "
                          f"{defaulted} default argument, total {required + defaulted}, but got {len(args)}.")
    given = len(args) + sum(n in kwargs for n in names[len(args):required])
    if given < required:
        raise MSTypeError(f"For 'Cell', the function construct requires {required} positional argument, but got "
                          f"{given}. When using set_inputs, please make sure that all networks and loss functions "
                          f"are configured with set_inputs.")


class _CellBprop:
    """Stands in for a primitive on the tape when a Cell has a custom ``bprop``."""

    __slots__ = ("cell", "name")

    def __init__(self, cell):
        self.cell = cell
        self.name = f"{type(cell).__name__}.bprop"

    def bprop(self, *args):
        grads = self.cell.bprop(*args)
        return grads if isinstance(grads, tuple) else (grads,)


def _check_base_init(cell, method="insert_param_to_cell"):
    """Cell.__init__ ran before a Parameter or Cell attribute is set (else MindSpore's AttributeError). A function,
    not a method: subclasses define their own ``_check_init`` (MindPet's LoRADense does, with other arguments),
    which must not replace this check."""
    if "_params" not in cell.__dict__:
        raise AttributeError(f"For '{method}', please call Cell.__init__() firstly.")


def _set_parameter_value(param, value):
    """``cell.weight = tensor`` on a Parameter attribute, as in MindSpore: the Parameter takes the value (an Assign
    in a graph being built, ``set_data`` otherwise) and stays the cell's Parameter (MindCV's AdamW:
    ``self.beta1_power = beta1_power``)."""
    if _staging.active():
        from mindspore._infer.interpret import _assign_parameter
        _assign_parameter(param, value)      # as the parser's ``self.weight = x``
    else:
        param.set_data(value)


class Cell(_CellExtras):
    """Base class of networks: define layers in ``__init__`` and the computation in ``construct``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn, ops
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.w = ms.Parameter(ms.Tensor([2.0]), name="w")
        ...     def construct(self, x):
        ...         return x * self.w
        >>> Net()(ms.Tensor([3.0]))
        Tensor(shape=[1], dtype=Float32, value= [ 6.00000000e+00])
    """

    def __init__(self, auto_prefix=True, flags=None):
        object.__setattr__(self, "_params", OrderedDict())
        object.__setattr__(self, "_cells", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_auto_prefix", auto_prefix)
        object.__setattr__(self, "training", False)
        object.__setattr__(self, "_phase", "train")
        object.__setattr__(self, "requires_grad", False)
        object.__setattr__(self, "_flags", dict(flags or {}))
        object.__setattr__(self, "_mixed_precision_type", None)
        object.__setattr__(self, "cell_type", None)
        object.__setattr__(self, "_scope", None)
        object.__setattr__(self, "_jit_config_dict", {})

    # -- attribute registration --------------------------------------------------------------
    def __setattr__(self, name, value):
        if isinstance(value, (Parameter, Cell)) and "_params" in self.__dict__:
            _graphs_stale()
        if isinstance(value, Parameter):
            _check_base_init(self)
            self._cells.pop(name, None)
            self.__dict__.pop(name, None)
            if value.name == _DEFAULT_PARAM_NAME:
                value.name = name
            self._params[name] = value
        elif isinstance(value, Cell):
            _check_base_init(self, "insert_child_to_cell")
            self._params.pop(name, None)
            self.__dict__.pop(name, None)
            self._cells[name] = value
            if self._auto_prefix:
                value.update_parameters_name(name + ".")
        elif isinstance(value, ParameterTuple):
            # as in MindSpore: the tuple's Parameters become this cell's own (trained, saved), keyed by their names;
            # an unnamed one is named Parameter$1, Parameter$2, ... in this cell
            _check_base_init(self)
            for p in dict.fromkeys(value):
                if p.name == _DEFAULT_PARAM_NAME:
                    self._generated_names = self.__dict__.get("_generated_names", 0) + 1
                    p.name = f"Parameter${self._generated_names}"
                self._params[p.name] = p
            object.__setattr__(self, name, value)
        else:
            if type(value) in (list, tuple) and any(isinstance(x, Parameter) for x in value):
                self._check_sequence_names(value)
            if name in self.__dict__.get("_params", {}):
                if value is None:
                    self._params[name] = None
                    return
                if isinstance(value, Tensor) and self._params[name] is not None:
                    _set_parameter_value(self._params[name], value)
                    return
                raise MSTypeError(f"Parameter '{name}' already exists in network, can not assign this type: "
                                  f"'{type(value)}' as a parameter.")
            if name in self.__dict__.get("_cells", {}):
                if value is None:
                    self._cells[name] = None
                    return
                raise MSTypeError(f"Sub cell '{name}' already exists in network, can not assign this type: "
                                  f"'{type(value)}' as a cell.")
            if name in self.__dict__.get("_buffers", {}):
                if value is None:
                    self._buffers[name] = None
                    return
                raise MSTypeError(f"Buffer '{name}' already exists in network, can not assign this type: "
                                  f"'{type(value)}' as a buffer.")
            object.__setattr__(self, name, value)

    def _check_sequence_names(self, value):
        """Parameters held in plain lists and tuples of one cell need distinct names, as in MindSpore (one graph
        tells them apart by name); an unnamed one is not compared."""
        held = self.__dict__.setdefault("_sequence_params", [])
        held.extend(p for p in value if isinstance(p, Parameter))
        same = first_shared_name(held)
        if same is not None:
            raise MSValueError(f"The value {value} , its name '{same.name}' already exists. Please set a unique name "
                               f"for the parameter.")

    def __getattr__(self, name):
        d = self.__dict__
        if "_params" in d and name in d["_params"]:
            param = d["_params"][name]
            if d.get("_running_cast") and param is not None and param.dtype in _FLOAT_TYPES \
                    and param.dtype != d["_mixed_precision_type"]:
                return _cast(param, d["_mixed_precision_type"])
            return param
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        if "_cells" in d and name in d["_cells"]:
            return d["_cells"][name]
        raise AttributeError(f"The '{type(self).__name__}' object has no attribute '{name}'.")

    def __delattr__(self, name):
        if name in self._params:
            del self._params[name]
        elif name in self.__dict__.get("_buffers", {}):
            del self._buffers[name]
        elif name in self._cells:
            del self._cells[name]
        else:
            object.__delattr__(self, name)

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        """Add ``param`` as attribute ``param_name``."""
        if not isinstance(param_name, str) or not param_name:
            raise MSTypeError(f"For 'insert_param_to_cell', the 'param_name' must be a non-empty str, "
                              f"but got {param_name!r}.")
        if check_name_contain_dot and "." in param_name:
            raise MSValueError(f"For 'insert_param_to_cell', the 'param_name' can not contain '.', but got "
                               f"'{param_name}'.")
        if param is not None and not isinstance(param, Parameter):
            raise MSTypeError(f"For 'insert_param_to_cell', the 'param' must be a Parameter, but got "
                              f"{type(param).__name__}.")
        if param is not None and param.name == _DEFAULT_PARAM_NAME:
            param.name = param_name
        self._params[param_name] = param

    def insert_child_to_cell(self, child_name, child_cell):
        if not isinstance(child_cell, Cell) and child_cell is not None:
            raise MSTypeError(f"For 'insert_child_to_cell', the 'child_cell' must be a Cell, but got "
                              f"{type(child_cell).__name__}.")
        self._cells[child_name] = child_cell

    # -- traversal ------------------------------------------------------------------------------
    def cells_and_names(self, cells=None, name_prefix=""):
        """(path, cell) for this cell and every descendant, each cell once."""
        seen = cells if cells is not None else set()
        if id(self) not in seen:
            seen.add(id(self))
            yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is None or id(cell) in seen:
                continue
            yield from cell.cells_and_names(seen, f"{name_prefix}.{name}" if name_prefix else name)

    def name_cells(self):
        return OrderedDict((n, c) for n, c in self._cells.items() if c is not None)

    def cells(self):
        return self.name_cells().values()

    def register_buffer(self, name, tensor, persistent=True):
        """Keep ``tensor`` (or None) as buffer ``name``: state read as ``self.name`` that is not a parameter;
        ``persistent=False`` leaves it out of a state dict. See ``mindspore/nn/_cell_buffers.py``."""
        _cell_buffers.register_buffer(self, name, tensor, persistent)

    def buffers(self, recurse=True):
        """The buffers of this cell (and, with ``recurse``, of its descendants)."""
        for _, buf in _cell_buffers.named_buffers(self, recurse=recurse):
            yield buf

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """(path, buffer) pairs of this cell's buffers (and, with ``recurse``, its descendants')."""
        yield from _cell_buffers.named_buffers(self, prefix, recurse, remove_duplicate)

    def get_buffer(self, target):
        """The buffer at the dotted path ``target`` (``"block.inv_freq"``)."""
        return _cell_buffers.get_buffer(self, target)

    def apply(self, fn):
        """Call ``fn`` on every sub-cell (depth first, children before their parent) and on this cell last, e.g. to
        initialise weights; returns this cell."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    def parameters_and_names(self, name_prefix="", expand=True):
        """(path, parameter) pairs: own parameters before children's; a shared parameter once."""
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        seen = set()
        for cell_name, cell in cells:
            for par_name, par in cell._params.items():
                if par is None or id(par) in seen:
                    continue
                seen.add(id(par))
                yield (f"{cell_name}.{par_name}" if cell_name else par_name), par

    @property
    def parameter_layout_dict(self):
        """The tensor layouts of the parameters sharded by a parallel strategy, by name (empty on one device);
        checkpoint callbacks of libraries read it to know which parameters to gather before saving."""
        layouts = self.__dict__.get("_parameter_layout_dict")
        if layouts is None:
            layouts = {}
            object.__setattr__(self, "_parameter_layout_dict", layouts)
        return layouts

    @parameter_layout_dict.setter
    def parameter_layout_dict(self, value):
        if not isinstance(value, dict):
            raise MSTypeError(f"For 'Cell', the property 'parameter_layout_dict' must be dict type, "
                              f"but got type {type(value)}.")
        object.__setattr__(self, "_parameter_layout_dict", value)

    def init_parameters_data(self, auto_parallel_mode=False):
        """Materialise every lazily initialised parameter (see ``nn.no_init_parameters``)."""
        for _, p in self.parameters_and_names():
            if p.has_init:
                p.init_data()
        return self.parameters_dict()

    def get_parameters(self, expand=True):
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """The parameters of this cell and its descendants keyed by attribute path (``"fc1.weight"``), an
        OrderedDict of references; ``destination``, ``prefix`` and ``keep_vars`` may also come positionally.

        Examples:
            >>> from mindspore import nn
            >>> list(nn.Dense(2, 3).state_dict())
            ['weight', 'bias']
        """
        if args:
            warnings.warn("Positional args are being deprecated, use kwargs instead. Refer to "
                          "https://www.mindspore.cn/docs/zh-CN/master/api_python/nn/mindspore.nn.Cell.html"
                          " for details.", FutureWarning, stacklevel=2)
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == "" else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        return _state_dict.state_dict(self, destination, prefix, keep_vars)

    def load_state_dict(self, state_dict, strict=True):
        """Copy ``state_dict``'s values (a Mapping of attribute path to Tensor, e.g. from ``load_checkpoint``)
        into this cell's parameters; returns ``(missing_keys, unexpected_keys)`` as a named tuple. With ``strict``,
        missing or unexpected keys raise RuntimeError (see ``mindspore/nn/_state_dict.py``).

        Examples:
            >>> from mindspore import nn
            >>> a, b = nn.Dense(2, 3), nn.Dense(2, 3)
            >>> b.load_state_dict(a.state_dict())
            <All keys matched successfully>
        """
        return _state_dict.load_state_dict(self, state_dict, strict)

    def update_parameters_name(self, prefix="", recurse=True):
        """Rename every parameter to ``prefix`` + its path in this cell."""
        if not isinstance(prefix, str):
            raise MSTypeError(f"For 'update_parameters_name', the 'prefix' must be str, but got {type(prefix)}.")
        for name, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + name

    # -- modes ------------------------------------------------------------------------------------
    @property
    def phase(self):
        """The cell's phase string: ``'train'`` until :meth:`set_train` (``'train'`` / ``'predict'``) or ``Model``
        (``'train'`` / ``'eval'``) sets it; ``construct`` may branch on ``self._phase`` (GRAPH reads it as a
        constant)."""
        return self._phase

    @phase.setter
    def phase(self, value):
        if not isinstance(value, str):
            raise MSTypeError(f"For 'Cell', the property 'phase' must be string type, but got type {type(value)}.")
        object.__setattr__(self, "_phase", value)

    def set_train(self, mode=True):
        """Set training mode on this cell and every descendant; returns ``self``. As in MindSpore 2.10, only this
        cell's own :attr:`phase` becomes ``'train'`` or ``'predict'``; its descendants keep theirs."""
        object.__setattr__(self, "_phase", "train" if mode else "predict")
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "training", bool(mode))
        return self

    def set_grad(self, requires_grad=True):
        object.__setattr__(self, "requires_grad", requires_grad)
        return self

    def set_comm_fusion(self, fusion_type, recurse=True):
        """Set the ``comm_fusion`` of this cell's trainable parameters (and its sub-cells' when ``recurse``);
        returns ``self``. See ``Parameter.comm_fusion``."""
        check_fusion_id(fusion_type)
        for param in self.trainable_params(recurse):
            param.comm_fusion = fusion_type
        return self

    # -- memory (nn/_cell_memory.py) -----------------------------------------------------------------
    def recompute(self, *, use_reentrant=True, output_recompute=False, early_stop=True, context_fn=None, **kwargs):
        """Recompute this cell's forward in the backward pass instead of keeping its intermediate values (the
        values are unchanged). ``kwargs``: ``mp_comm_recompute``, ``parallel_optimizer_comm_recompute`` (bool),
        ``recompute_slice_activation``; see :mod:`mindspore.nn._cell_memory`."""
        _cell_memory.set_recompute(self, use_reentrant, output_recompute, kwargs)

    def offload(self, backward_prefetch="Auto"):
        """Mark this cell's primitives for activation offload (``backward_prefetch``: ``"Auto"`` or an int >= 0);
        see :mod:`mindspore.nn._cell_memory`."""
        _cell_memory.set_offload(self, backward_prefetch)

    # -- hooks (nn/_cell_hooks.py) -----------------------------------------------------------------
    def register_forward_pre_hook(self, hook_fn):
        """Call ``hook_fn(cell, inputs)`` before each ``construct``; a Tensor or tuple it returns replaces the
        inputs (in GRAPH_MODE / ``jit`` the hook is traced into the graph). Returns a handle whose ``remove()``
        unregisters it."""
        return _cell_hooks.register(self, "forward_pre", hook_fn)

    def register_forward_hook(self, hook_fn):
        """Call ``hook_fn(cell, inputs, outputs)`` after each ``construct``; a value it returns replaces the
        outputs (in GRAPH_MODE / ``jit`` the hook is traced into the graph). Returns a handle whose ``remove()``
        unregisters it."""
        return _cell_hooks.register(self, "forward", hook_fn)

    def register_backward_pre_hook(self, hook_fn):
        """Call ``hook_fn(cell, grad_output)`` with the tuple of the gradients of the cell's outputs (PYNATIVE
        autodiff); a tuple it returns replaces them. Returns a handle whose ``remove()`` unregisters it."""
        return _cell_hooks.register(self, "backward_pre", hook_fn)

    def register_backward_hook(self, hook_fn):
        """Call ``hook_fn(cell, grad_input, grad_output)`` with the tuples of the gradients of the cell's inputs
        and outputs (PYNATIVE autodiff); a tuple it returns replaces ``grad_input``. Returns a handle whose
        ``remove()`` unregisters it."""
        return _cell_hooks.register(self, "backward", hook_fn)

    def to_float(self, dst_type):
        """Run this cell and its sub-cells in ``dst_type``; returns ``self``. As in MindSpore 2.10: in PYNATIVE every
        operator they run casts its float inputs to ``dst_type`` (the nearest cell with its own ``to_float`` wins;
        view operators and ``Cast`` excepted); in GRAPH_MODE the cell's float inputs, Parameters and Tensor
        attributes are read in ``dst_type``."""
        from mindspore.common import dtype as mstype
        if dst_type not in (mstype.float16, mstype.float32, mstype.bfloat16):
            raise MSValueError(f"For 'to_float', the 'dst_type' must be float16, float32 or bfloat16, "
                               f"but got {dst_type}.")
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "_mixed_precision_type", dst_type)
        return self

    @property
    def jit_config_dict(self):
        """The options given by ``set_jit_config`` (a wrapper cell starts with its network's); ``{}`` if none."""
        return self._jit_config_dict

    def _get_attr_from_cell(self, network):
        """A wrapper cell (``WithLossCell``, ``TrainOneStepCell``, ...) starts with its network's jit config."""
        if isinstance(network, Cell) and network.jit_config_dict:
            object.__setattr__(self, "_jit_config_dict", network.jit_config_dict)

    def set_jit_config(self, jit_config):
        """Set this cell's compile options (a :class:`mindspore.JitConfig`); only the first call takes effect."""
        if self._jit_config_dict:
            warnings.warn("For Cell, jit config can only be set once, ignore this setting.")
        else:
            object.__setattr__(self, "_jit_config_dict", jit_config.jit_config_dict)

    def add_flags(self, **flags):
        """Set compile flags; as in MindSpore, a true ``fp16``/``fp32``/``bf16`` flag runs the cell in that dtype
        (what ``to_float`` sets: the zoo's GCN calls ``add_flags_recursive(fp16=True)``)."""
        self._flags.update(flags)
        from mindspore.common import dtype as mstype
        for flag, dst_type in (("fp16", mstype.float16), ("fp32", mstype.float32), ("bf16", mstype.bfloat16)):
            if flags.get(flag, False):
                object.__setattr__(self, "_mixed_precision_type", dst_type)
        return self

    def add_flags_recursive(self, **flags):
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self

    def get_flags(self):
        return self._flags

    # -- running ------------------------------------------------------------------------------------
    def construct(self, *args, **kwargs):
        # MindSpore raises AttributeError (library code catches it by that class), naming 'Cell' as it does
        raise AttributeError("For 'Cell', the method 'construct' is not defined.")

    def _cast_inputs(self, args):
        from mindspore.ops import functional as fops
        dst = self._mixed_precision_type
        from mindspore.common import dtype as mstype
        return tuple(fops.cast(a, dst) if isinstance(a, Tensor) and a.dtype in mstype.float_type and a.dtype != dst
                     else a for a in args)

    def __call__(self, *args, **kwargs):
        if self._compiles_graph():
            return self._graph_call(args, kwargs)
        return self._call_eagerly_or_staged(*args, **kwargs)

    def compile(self, *args, **kwargs):
        """Compile this cell's graph for ``args`` and ``kwargs`` without running it, as its first call with such
        inputs would (that call then runs the compiled graph). Where calls run eagerly (PYNATIVE_MODE) there is
        nothing to compile.

        Examples:
            >>> import numpy as np
            >>> import mindspore as ms
            >>> from mindspore import nn
            >>> net = nn.Dense(3, 2)
            >>> net.compile(ms.Tensor(np.ones((4, 3), np.float32)))
        """
        if not self._compiles_graph():
            return
        from mindspore._pipeline.compiler import cache_for, compiled_entry
        compiled_entry(cache_for(self), self._call_eagerly_or_staged, args, kwargs, extra_key=self._graph_key(),
                       name=f"{type(self).__name__}_construct", fallback=True)

    def _compiles_graph(self):
        """Whether a call of this cell now runs as a compiled graph: called eagerly, under GRAPH_MODE or ``@jit``."""
        return _interpreters.STACK[-1].kind == "eager" and \
            bool(self.__dict__.get("_jit") or _context.get_context("mode") == _context.GRAPH_MODE)

    def set_inputs(self, *inputs, **kwargs):
        """Declare the inputs of this cell's GRAPH_MODE calls: placeholders such as ``Tensor(shape=[None, 3],
        dtype=ms.float32)`` (``None``/-1 a dimension of any size, ``Tensor(dtype=...)`` any rank) for all inputs, or
        by name for some (``set_inputs(y=...)``). Each GRAPH_MODE call is then checked against them as MindSpore
        checks it (a TypeError for another dtype or a plain value, a ValueError for another rank or size); graphs
        are still compiled per concrete shape. PYNATIVE calls are not checked, as in MindSpore."""
        if kwargs and inputs:
            raise MSValueError(f"For Cell, set_inputs should only set inputs or kwargs(inputs: {inputs}, "
                               f"kwargs: {kwargs})!")
        if kwargs:
            import inspect
            names = [n for n, p in inspect.signature(self.construct).parameters.items()
                     if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            for name in kwargs:
                if name not in names:
                    raise MSValueError(f"For Cell, set_inputs got the keyword '{name}', which is not an argument of "
                                       f"construct ({names}).")
            self.__dict__["_dynamic_shape_inputs"] = {
                "arg_specified_infos": [[names.index(n), v] for n, v in kwargs.items()],
                "total_arg_length": len(names)}
        else:
            self.__dict__["_dynamic_shape_inputs"] = inputs

    def get_inputs(self):
        """The inputs given to :meth:`set_inputs` (None when it was not called)."""
        return self.__dict__.get("_dynamic_shape_inputs")

    def _check_set_inputs(self, args):
        declared = self.__dict__.get("_dynamic_shape_inputs")
        if isinstance(declared, dict):
            pairs = [(i, v) for i, v in declared["arg_specified_infos"]]
        else:
            pairs = list(enumerate(declared))
        for i, spec in pairs:
            if i < len(args):
                _check_declared_input(spec, args[i], i + 1)

    def _graph_call(self, args, kwargs):
        """GRAPH_MODE: run the compiled graph of this call (compiled once per input signature)."""
        if self.__dict__.get("_dynamic_shape_inputs") is not None:
            self._check_set_inputs(args)
        arity = _construct_arity(type(self)) if "construct" not in self.__dict__ else None
        if arity is not None and (len(args) > arity[0] + arity[1] or len(args) + len(kwargs) < arity[0]):
            _arity_error(arity, args, kwargs)
        from mindspore._pipeline.compiler import cache_for, compiled_call
        return compiled_call(cache_for(self), self._call_eagerly_or_staged, args, kwargs,
                             extra_key=self._graph_key(), name=f"{type(self).__name__}_construct")

    def _graph_key(self):
        """What besides the inputs selects a compiled graph: the training flags and cast types of the cells, in the
        order of :meth:`cells_and_names` (each cell once). Walked without the names (every GRAPH_MODE call computes
        it: with the generators and path strings of ``cells_and_names`` a ResNet's 52 cells took 39 us, now 27)."""
        key, seen, stack = [], set(), [self]
        while stack:
            cell = stack.pop()
            if id(cell) in seen:
                continue
            seen.add(id(cell))
            key.append((type(cell), cell.training, cell._phase, cell._mixed_precision_type))
            children = [c for c in cell._cells.values() if c is not None]
            children.reverse()
            stack += children
        return tuple(key)

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None):
        """Cut this cell's inputs as ``in_strategy`` says (one tuple of cut counts or ``Layout`` per input) when it
        runs under SEMI_AUTO_PARALLEL or AUTO_PARALLEL, and the parameters named in ``parameter_plan`` at its first
        such call; its operators run on the blocks (mindspore-parallel's ``mindspore.parallel.shard``).

        Returns the sharded callable, as MindSpore 2.0-2.2 did and its docs' samples use
        (``self.block1_shard = self.block1.shard(...)``); MindSpore 2.10 returns None, which no script can use, so
        returning the callable breaks none. Calling the cell itself runs it sharded too."""
        from mindspore._plugin import manager
        offer = manager.sharding()
        if offer is None:
            raise ImportError("For 'Cell.shard', mindspore.parallel is not installed: pip install mindspore-parallel")
        shard_fn = offer["cell_shard"](self, in_strategy, out_strategy, parameter_plan)
        self.__dict__["_shard_fn"] = shard_fn
        return shard_fn

    def _call_eagerly_or_staged(self, *args, **kwargs):
        hook = CELL_CALL_HOOK[0]
        if hook is not None:   # mindspore-parallel: network inputs and Cell.shard under SEMI_AUTO/AUTO_PARALLEL
            return hook(self, self._call_unhooked, args, kwargs)
        return self._call_unhooked(*args, **kwargs)

    def _ops_mixed_precision_type(self):
        """The dtype the operators this PYNATIVE call runs get their float inputs in (``to_float``), or None to run
        them as they are (amp's BatchNorm cells under O2, see mindspore/amp.py)."""
        return self._mixed_precision_type

    def _call_unhooked(self, *args, **kwargs):
        if self._mixed_precision_type is not None and not _staging.active():
            # PYNATIVE, as MindSpore 2.10: the inputs and attributes are not cast on entry; every operator the call
            # runs (in sub-cells too, up to one with its own to_float) casts its float inputs (Parameters read
            # included) to the innermost to_float cell's dtype (mindspore/_core/primitive.py, MIXED_PRECISION)
            outer = _MIXED_PRECISION.dtype
            _MIXED_PRECISION.dtype = self._ops_mixed_precision_type()
            _MIXED_PRECISION_USED[0] = True
            try:
                return self._call_construct(args, kwargs)
            finally:
                _MIXED_PRECISION.dtype = outer
        if self._mixed_precision_type is not None:
            args = self._cast_inputs(args)
            # like MindSpore's to_float, the cell's float parameters are read in the cell's dtype
            # (a differentiable Cast, so gradients reach the float32 parameters)
            outer = self.__dict__.get("_running_cast", False)
            object.__setattr__(self, "_running_cast", True)
            swapped = _cast_tensor_attrs(self)
            try:
                return self._call_construct(args, kwargs)
            finally:
                _restore_tensor_attrs(self, swapped)
                object.__setattr__(self, "_running_cast", outer)
        return self._call_construct(args, kwargs)

    def _call_construct(self, args, kwargs):
        if _staging.active():
            from mindspore._autodiff.graph_grad import stage_construct
            if "_hooks" in self.__dict__ and _cell_hooks.active(self):
                # as in MindSpore 2.10, the forward hooks are part of a compiled graph; backward hooks are not
                return _cell_hooks.call(self, lambda a, k: stage_construct(self, a, k), args, kwargs, backward=False)
            return stage_construct(self, args, kwargs)
        if _forward_reuse.recording(self, kwargs):
            # PYNATIVE: kept for a gradient of this cell on the same inputs (MindSpore's forward reuse)
            return _forward_reuse.run_recorded(self, args, lambda: self._call_construct(args, kwargs))
        if "_recompute_config" in self.__dict__ and _tape.active():
            out = _cell_memory.recomputed_call(self, args, kwargs)
            if out is not _cell_memory.NOT_RECOMPUTED:
                return out
        if "bprop" in type(self).__dict__ and _tape.active():
            with _interpreters.untraced():
                out = self.construct(*args, **kwargs)
            outs = out if isinstance(out, tuple) else (out,)
            fresh = tuple(Tensor._make(o._data, o._dtype) if isinstance(o, Tensor) else o for o in outs)
            _tape.record(_CellBprop(self), args, fresh if isinstance(out, tuple) else fresh[0])
            return fresh if isinstance(out, tuple) else fresh[0]
        if "_hooks" in self.__dict__ and _cell_hooks.active(self):
            return _cell_hooks.call(self, lambda a, k: self.construct(*a, **k), args, kwargs)
        return self.construct(*args, **kwargs)

    @property
    def cls_name(self):
        return type(self).__name__

    def __repr__(self):
        """MindSpore 2.10's layout: ``Name(extra)`` on one line, or the extra lines and one ``(name): child`` line
        per sub-cell, indented, between ``Name(`` and ``)``."""
        extra = self.extend_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({n}): " + repr(c).replace("\n", "\n  ") for n, c in self._cells.items()]
        if len(extra_lines) == 1 and not child_lines:
            return f"{type(self).__name__}({extra_lines[0]})"
        if not extra_lines and not child_lines:
            return f"{type(self).__name__}()"
        return f"{type(self).__name__}(\n  " + "\n  ".join(extra_lines + child_lines) + "\n)"

    def extend_repr(self):
        return ""


def _list_prefix_and_index(cells):
    """MindSpore 2.10's ``_get_prefix_and_index``: the prefix an appended cell's Parameter names get, read off the
    names the list's first two cells with Parameters already carry, and the position of the cell key in them.

    With one such cell whose names repeat its key (``0.0.weight``, a SequentialCell appended to an empty list) the
    prefix comes out as ``0.``, so the next cell's Parameters are named ``0.1.*``: checkpoints written by 2.10 (the
    model zoo's ConvNeXt downsampling layers and stages) carry those names."""
    prefix, index = "", 0
    found = []
    for key, cell in cells.items():
        first = next(iter(cell.parameters_and_names()), None)
        if first is not None:
            found.append((key, first[1]))
            if len(found) == 2:
                break
    if not found:
        return prefix, index
    (first_key, first_param), second = found[0], (found[1] if len(found) > 1 else None)
    split_names = first_param.name.split(".")
    for idx, name in enumerate(split_names):
        if name == first_key:
            prefix = ".".join(split_names[:idx])
            prefix = prefix + "." if prefix else prefix
            index = idx
            if second is not None and second[1].name.split(".")[idx] == second[0]:
                break
    return prefix, index


class SequentialCell(Cell):
    """Cells run in order; sub-cells are named ``0``, ``1``, ... (or by the keys of an OrderedDict)."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (list, OrderedDict)):
            args = args[0]
        if isinstance(args, OrderedDict):
            for name, cell in args.items():
                self._append_named(name, cell)
        else:
            for i, cell in enumerate(args):
                self._append_named(str(i), cell)

    def _append_named(self, name, cell):
        if not isinstance(cell, Cell):
            raise MSTypeError(f"For 'SequentialCell', each element must be a Cell, but got {type(cell).__name__}.")
        self._cells[name] = cell
        if self._auto_prefix:
            cell.update_parameters_name(name + ".")

    def append(self, cell):
        if not isinstance(cell, Cell):
            raise MSTypeError(f"For 'SequentialCell', each element must be a Cell, but got {type(cell).__name__}.")
        prefix, _ = _list_prefix_and_index(self._cells)
        if self._auto_prefix:
            cell.update_parameters_name(prefix + str(len(self._cells)) + ".")
        self._cells[str(len(self._cells))] = cell
        return self

    def __getitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            return SequentialCell(cells[index])
        return cells[index]

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


_api.CELL_CLASS[0] = Cell     # ms.jit(cell) marks the cell; ms.jit(function) compiles the function


class CellList(Cell):
    """A list of Cells, registered as children ``0``, ``1``, ..."""

    def __init__(self, *args, **kwargs):
        super().__init__(**kwargs)
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            self.extend(args[0])

    def _add(self, cell, prefix):
        if not isinstance(cell, Cell):
            raise MSTypeError(f"For 'CellList', each element must be a Cell, but got {type(cell).__name__}.")
        name = str(len(self._cells))
        if self._auto_prefix:
            cell.update_parameters_name(prefix + name + ".")
        self._cells[name] = cell

    def append(self, cell):
        self._add(cell, _list_prefix_and_index(self._cells)[0])     # returns None, as 2.10's (extend: self)

    def extend(self, cells):
        prefix = _list_prefix_and_index(self._cells)[0]    # once, before the first new cell (as MindSpore)
        for c in cells:
            self._add(c, prefix)
        return self

    def insert(self, index, cell):
        """MindSpore's insert: the cells from ``index`` on move one place up and their Parameters are renamed."""
        length = len(self._cells)
        idx = min(max(index + length if index < 0 else index, 0), length)
        if not isinstance(cell, Cell):
            raise MSTypeError(f"For 'CellList', each element must be a Cell, but got {type(cell).__name__}.")
        prefix, key_index = _list_prefix_and_index(self._cells)
        while length > idx:
            moved = self._cells[str(length - 1)]
            if self._auto_prefix:
                for _, param in moved.parameters_and_names():
                    param.name = prefix + str(length) + "." + ".".join(param.name.split(".")[key_index + 1:])
            self._cells[str(length)] = moved
            length -= 1
        self._cells[str(idx)] = cell
        if self._auto_prefix:
            cell.update_parameters_name(prefix + str(idx) + ".")

    def __getitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            return CellList(cells[index])
        return cells[index]

    def __setitem__(self, index, cell):
        keys = list(self._cells.keys())
        self._cells[keys[index]] = cell
        if self._auto_prefix:
            cell.update_parameters_name(keys[index] + ".")

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def construct(self, *inputs):
        raise MSTypeError("For 'CellList', it has no 'construct': iterate over it and call its cells.")


def _check_declared_input(spec, arg, index):
    """MindSpore's check of one GRAPH_MODE input against its ``Cell.set_inputs`` declaration (1-based ``index``)."""
    if isinstance(spec, (tuple, list)) and isinstance(arg, (tuple, list)):
        for s, a in zip(spec, arg):
            _check_declared_input(s, a, index)
        return
    if not isinstance(spec, Tensor):
        return
    if not isinstance(arg, Tensor):
        raise MSTypeError(f"For set_inputs or tuple(list) in set_inputs, the {index}th should be mutable one, but got "
                          f"static!")
    if arg.dtype != spec.dtype:
        raise MSTypeError(f"For set_inputs or tuple(list) in set_inputs, the {index}th type should be "
                          f"Tensor[{spec.dtype}], but got Tensor[{arg.dtype}]!")
    want = tuple(spec.shape)
    if want == (-2,):
        return
    got = tuple(arg.shape)
    if len(want) != len(got):
        raise MSValueError(f"For set_inputs and tuple(list) in set_inputs, the dims of {index}th input must be the "
                           f"same as expected, but got expected: {len(want)}, and input: {len(got)}!")
    for w, g in zip(want, got):
        if w != -1 and w != g:
            raise MSValueError(f"For set_inputs and tuple(list) in set_inputs, the shape of {index}th input must be "
                               f"the same as expected, but got expected: {w}, and input: {g}!")
