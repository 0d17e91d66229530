"""The smaller public methods and properties of MindSpore 2.10's ``Cell`` that ``cell.py`` does not hold itself.

They are kept in a mixin so that ``cell.py`` stays the bookkeeping core: the state-dict hooks and extra state (run by
``mindspore/nn/_state_dict.py``), sub-cell lookup by dotted path, scopes and parameter prefixes, pipeline stages,
and the flags 2.10 sets for its boost and broadcast features. Each behaves as 2.10's does on the CPU, messages
included; the few that 2.10 itself only warns about and ignores (``cast_inputs``, ``remove_redundant_parameters``)
warn and do nothing here too.

Every attribute lives in the instance ``__dict__`` and is created on first use, so cells made before this mixin
existed (unpickled ones) and subclasses that skip nothing in ``__init__`` both work.
"""
from __future__ import annotations

from collections import OrderedDict

from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.nn import _cell_hooks

#: the key suffix of a cell's ``get_extra_state()`` in its state dict, as in MindSpore 2.10
EXTRA_STATE_KEY_SUFFIX = "_extra_state"


def hooks(cell, kind):
    """The ordered ``{handle id: hook}`` of ``cell`` for ``kind`` ('state_dict_pre', 'state_dict', 'load_pre',
    'load_post'), created empty on first use."""
    key = "_" + kind + "_hooks"
    table = cell.__dict__.get(key)
    if table is None:
        table = cell.__dict__[key] = OrderedDict()
    return table


def _register(cell, kind, hook):
    return _cell_hooks.add(hooks(cell, kind), hook)


def _check_stage(value, what):
    if not isinstance(value, int) or isinstance(value, bool):
        raise MSTypeError(f"For {what} must be int type, but got type : {type(value)}")
    if value < 0:
        raise MSValueError(f"For {what} can not be less than 0, but got {value}")


class CellExtras:
    """Mixed into :class:`mindspore.nn.Cell`; see the module docstring."""

    # -- state-dict hooks and extra state --------------------------------------------------------
    def register_state_dict_pre_hook(self, hook):
        """Register ``hook(cell, prefix, keep_vars) -> None``, called before ``state_dict`` saves this cell; returns
        a handle whose ``remove()`` unregisters it.

        Examples:
            >>> from mindspore import nn
            >>> net = nn.Dense(2, 2)
            >>> seen = []
            >>> handle = net.register_state_dict_pre_hook(lambda cell, prefix, keep_vars: seen.append(prefix))
            >>> _ = net.state_dict()
            >>> seen
            ['']
        """
        return _register(self, "state_dict_pre", hook)

    def register_state_dict_post_hook(self, hook):
        """Register ``hook(cell, state_dict, prefix, local_metadata) -> None``, called after ``state_dict`` saved this
        cell and its sub-cells; it may edit ``state_dict`` in place (returning anything but None is an error)."""
        return _register(self, "state_dict", hook)

    def register_load_state_dict_pre_hook(self, hook):
        """Register ``hook(cell, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs) -> None``, called before ``load_state_dict`` loads this cell's own entries."""
        return _register(self, "load_pre", hook)

    def register_load_state_dict_post_hook(self, hook):
        """Register ``hook(cell, incompatible_keys) -> None``, called after ``load_state_dict`` loaded this cell and
        its sub-cells; it may edit ``incompatible_keys.missing_keys``/``unexpected_keys`` in place, which decides
        what a strict load raises."""
        return _register(self, "load_post", hook)

    def get_extra_state(self):
        """Return extra (picklable) state for this cell's state dict, under the key ``<prefix>_extra_state``.
        Override it together with :meth:`set_extra_state`; the base class must not be called."""
        raise MSRuntimeError("Reached a code path in Cell.get_extra_state() that should never be called.")

    def set_extra_state(self, state):
        """Restore what :meth:`get_extra_state` returned, from a loaded state dict. Override it together with
        :meth:`get_extra_state`; the base class must not be called."""
        raise MSRuntimeError("Reached a code path in Cell.set_extra_state() that should never be called.")

    # -- lookup, names, scopes -------------------------------------------------------------------
    def get_sub_cell(self, target):
        """The sub-cell at the dotted attribute path ``target`` (``"net_b.dense"``; ``""`` is this cell).

        Raises:
            AttributeError: a name on the path is missing or not a Cell.

        Examples:
            >>> from mindspore import nn
            >>> net = nn.SequentialCell(nn.Dense(2, 2))
            >>> net.get_sub_cell("0")
            Dense(input_channels=2, output_channels=2, has_bias=True)
        """
        cell = self
        if target == "":
            return cell
        for item in target.split("."):
            if not hasattr(cell, item):
                raise AttributeError(type(cell).__name__ + " has no attribute `" + item + "`")
            cell = getattr(cell, item)
            if not isinstance(cell, CellExtras):     # (a Cell: this mixin is Cell's alone)
                raise AttributeError("`" + item + "` is not an nn.Cell")
        return cell

    @property
    def param_prefix(self):
        """The name prefix of this cell's own parameters: its path from the cell ``update_cell_prefix`` was last
        called on ('' until then)."""
        return self.__dict__.get("_param_prefix", "")

    def update_cell_prefix(self):
        """Set ``param_prefix`` of this cell and every sub-cell to its path from this cell."""
        for name, cell in self.cells_and_names():
            cell.__dict__["_param_prefix"] = name

    def update_cell_type(self, cell_type):
        """Set ``cell_type`` (2.10's quantization-aware and second-order training read it: 'quant',
        'second-order')."""
        self.cell_type = cell_type

    def check_names(self):
        """Raise ValueError if two parameters of this cell and its sub-cells share a name."""
        names = set()
        for path, param in self.parameters_and_names():
            if param.name in names:
                raise MSValueError(f"The value of {path} is {param}, its name '{param.name}' already exists. "
                                   f"Please set a unique name for the parameter.")
            names.add(param.name)

    @property
    def exist_names(self):
        """The names of the parameters this cell holds in tuples or lists of parameters (a set)."""
        return self.__dict__.setdefault("_exist_names", set())

    def get_scope(self):
        """This cell's scope in its network (``'Default/net_b-NetB'``), None until the network's
        :meth:`generate_scope` ran."""
        return self.__dict__.get("_scope")

    def generate_scope(self):
        """Set the scope of every sub-cell: ``'Default'`` then, per level, ``/<attribute>-<class name>`` (without
        the class name when the context's ``reserve_class_name_in_scope`` is False). This cell's own stays as it
        is."""
        import mindspore.context as context
        keep_class = context.get_context("reserve_class_name_in_scope")

        def walk(cell, prefix):
            for name, child in cell.name_cells().items():
                scope = prefix + "/" + name + (("-" + type(child).__name__) if keep_class else "")
                if child.__dict__.get("_scope") is None:
                    child.__dict__["_scope"] = scope
                elif child.__dict__["_scope"] == "recompute_":
                    child.__dict__["_scope"] += scope
                walk(child, scope)
        walk(self, "Default")

    def parameters_broadcast_dict(self, recurse=True):
        """The parameters that a parameter broadcast sends (those not ``layerwise_parallel``), by name; None when
        there are none."""
        params = OrderedDict()
        for param in self.get_parameters(expand=recurse):
            if param.layerwise_parallel is False:
                params[param.name] = param
        return params or None

    # -- parallel and boost settings -------------------------------------------------------------
    @property
    def pipeline_stage(self):
        """The pipeline stage of this cell (pipeline parallel); unset until assigned."""
        if "_pipeline_stage" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute 'pipeline_stage'.")
        return self.__dict__["_pipeline_stage"]

    @pipeline_stage.setter
    def pipeline_stage(self, value):
        _check_stage(value, "'Cell', the property 'pipeline_stage'")
        self.__dict__["_pipeline_stage"] = value

    @property
    def pipeline_segment(self):
        """The pipeline segment of this cell (the zero_bubble_v scheduler); unset until assigned."""
        if "_pipeline_segment" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute 'pipeline_segment'.")
        return self.__dict__["_pipeline_segment"]

    @pipeline_segment.setter
    def pipeline_segment(self, value):
        _check_stage(value, "'context.set_auto_parallel_context', the argument 'pipeline_stages'")
        self.__dict__["_pipeline_segment"] = value

    def set_boost(self, boost_type):
        """Turn on the boost algorithm ``boost_type`` (only 'less_bn') for this cell and its sub-cells, as the flag
        ``less_bn``; returns ``self``."""
        if boost_type not in ("less_bn",):
            raise MSValueError(f"For 'set_boost', the argument 'boost_type' must be 'less_bn', but got {boost_type}.")
        self.add_flags_recursive(less_bn=True)
        return self

    def set_broadcast_flag(self, mode=True):
        """Set the flag ``broadcast_flag`` (parameter broadcast) on this cell and its sub-cells; returns ``self``."""
        self.add_flags_recursive(broadcast_flag=mode)
        return self

    def set_data_parallel(self):
        """Ask AUTO_PARALLEL for data-parallel strategies for this cell's operators that have none (the attribute
        ``strategy_gen_mode='data_parallel'`` on each Primitive the cell and its sub-cells hold)."""
        from mindspore.ops import Primitive
        for cell in self.cells_and_names():
            for value in list(cell[1].__dict__.values()):
                if isinstance(value, Primitive):
                    value.add_prim_attr("strategy_gen_mode", "data_parallel")

    @property
    def bprop_debug(self):
        """Whether a custom ``bprop`` runs as Python instead of being compiled into the graph (False)."""
        return self.__dict__.get("_bprop_debug", False)

    @bprop_debug.setter
    def bprop_debug(self, value):
        if not isinstance(value, bool):
            raise MSTypeError(f"For 'Cell', the property 'bprop_debug' must be bool type, but got type {type(value)}.")
        self.__dict__["_bprop_debug"] = value

    # -- dtype and device moves ------------------------------------------------------------------
    def _apply_to_tensors(self, param_fn, buffer_fn, recurse=True):
        if recurse:
            for child in self.cells():
                if child is not None and child is not self:
                    child._apply_to_tensors(param_fn, buffer_fn)
        for param in self._params.values():
            if param is not None:
                param_fn(param)
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = buffer_fn(buf)
        return self

    def to(self, *args, **kwargs):
        """Cast the float (and complex) parameters and buffers of this cell and its sub-cells to a dtype, in place
        (each Parameter stays the same object); returns ``self``. Forms: ``to(dtype)``, ``to(device=None,
        dtype=None, non_blocking=False)``, ``to(tensor)`` (its dtype). A device ('CPU', 'Ascend', ...) is checked as
        ``Tensor.to`` checks it; a tensor lives where its backend keeps it.

        Raises:
            TypeError: ``dtype`` is neither floating point nor complex.

        Examples:
            >>> import mindspore as ms
            >>> from mindspore import nn
            >>> net = nn.Dense(2, 2).to(ms.float16)
            >>> print(net.weight.dtype)
            Float16
        """
        from mindspore.common import dtype as mstype
        from mindspore.ops.tensor_methods import to_arguments
        device, dtype = to_arguments("Cell.to", args, kwargs, ("non_blocking",))
        if dtype is not None:
            dtype = mstype.to_ms_dtype(dtype)
            if not (mstype.is_float(dtype) or dtype in (mstype.complex64, mstype.complex128)):
                raise MSTypeError(f"Cell.to only accepts floating point or complex dtypes, but got desired "
                                  f"dtype={dtype}")

        def moved(tensor):
            if device is not None:
                tensor.to(device=device)         # (validates the name)
            return dtype is not None and (mstype.is_float(tensor.dtype) or tensor.dtype in (
                mstype.complex64, mstype.complex128)) and tensor.dtype != dtype

        def param_fn(param):
            if moved(param):
                param.set_dtype(dtype)

        def buffer_fn(buf):
            return buf.to(dtype) if moved(buf) else buf
        return self._apply_to_tensors(param_fn, buffer_fn)

    def to_empty(self, *, device=None, recurse=True):
        """Give every parameter and buffer of this cell (and, with ``recurse``, its sub-cells) new, uninitialised
        storage of the same shape and dtype (each Parameter stays the same object); returns ``self``. The use: a
        network built under ``nn.no_init_parameters``/on the meta device, whose weights are loaded next."""
        from mindspore.ops import zeros   # (unspecified values, as mint.empty_like gives them: zeros)

        def param_fn(param):
            if device is not None:
                param.to(device=device)
            param.assign_value(zeros(param.shape, param.dtype))

        def buffer_fn(buf):
            return zeros(buf.shape, buf.dtype)
        return self._apply_to_tensors(param_fn, buffer_fn, recurse)

    # -- deprecated entry points 2.10 keeps ------------------------------------------------------
    def cast_inputs(self, inputs, dst_type):
        """Deprecated in 2.10, where it only warns (and returns None)."""
        import mindspore.log as logger
        logger.warning("'cast_inputs' will be deprecated in future versions.")

    def remove_redundant_parameters(self):
        """Deprecated in 2.10, where it only warns."""
        import mindspore.log as logger
        logger.warning("'remove_redundant_parameters' will be deprecated in future versions.")

    def compile_and_run(self, *args, **kwargs):
        """Compile this cell for ``args`` (as :meth:`compile`) and run it; calling the cell does the same.

        Examples:
            >>> import numpy as np
            >>> import mindspore as ms
            >>> from mindspore import nn
            >>> net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
            >>> net.compile_and_run(ms.Tensor(np.ones((1, 2), np.float32)))
            Tensor(shape=[1, 1], dtype=Float32, value=
            [[ 2.00000000e+00]])
        """
        self.compile(*args, **kwargs)
        return self(*args, **kwargs)
