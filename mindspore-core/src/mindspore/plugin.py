"""``mindspore.plugin``: the public contract between MindSpore's core and its backends and add-ons.

Everything a backend (``mindspore-cpu``, ``mindspore-gpu``, ``mindspore-ascend``, or a third party's)
or an add-on (``mindspore-data``, ``mindspore-parallel``) needs from core is named here, and nothing
else of core's is theirs to import: the first-party distributions use exactly this module, and a test
keeps it so. It is versioned with :data:`PLUGIN_API_VERSION`.

A plugin is a module with functions decorated by :data:`hookimpl`, published under the
``mindspore.plugins`` entry-point group of its distribution::

    [project.entry-points."mindspore.plugins"]
    mybackend = "my_backend.plugin"

Core finds plugins lazily, once, on the first computation (never at ``import mindspore``); a plugin
that fails to import, is built for another API version, or raises in a hook is reported by
``python -m mindspore.info`` and never breaks ``import mindspore`` or the other plugins.

**Hooks** (``hookspec``s; see :mod:`mindspore._plugin.hookspecs` for each one's documentation), in
call order: ``ms_plugin_info`` (name, version, ``api_version``), ``ms_register_primitives``
(new :class:`Primitive` classes), ``ms_backend_probe`` (a :class:`BackendProbe` per target offered),
``ms_backend_create`` (the :class:`DeviceRuntime` of a selected target), ``ms_register_kernels``
(into a :class:`KernelRegistry`), ``ms_register_passes`` (into a :class:`PassRegistry`),
``ms_collective_backends``, ``ms_environment_info`` and ``ms_random_fills``.

**Random fills of initial weights** (optional): ``ms_random_fills`` returns native versions of MindSpore 2.10's
host random streams, ``{"uniform": fn(seed, out, a, b), "normal": fn(seed, out, mean, sigma),
"truncated_normal": fn(seed, out, a, b, mean, sigma)}``, each filling the C-contiguous float32 NumPy array ``out``
in place with exactly the bits of core's NumPy fills (whatever its thread count); core asks at the first fill and
keeps its NumPy fill for a kind no plugin offers. The CPU backend offers its C++ ones.

**Kernels**::

    def my_add(prim, x, y, *, out):      # device buffers in, the inferred TensorSpec as ``out``
        return backend_add(x, y, dtype=out.dtype)

    registry.register("Add", "MYDEV", my_add, dtypes={ms.float32, ms.float16})

A kernel returns a buffer (a tuple for several outputs) of exactly ``out.shape`` and ``out.dtype``; it
is chosen on the dtypes of all tensor inputs (see :class:`KernelRegistry`). Buffers are the runtime's
own arrays; core reads only their ``shape`` and ``dtype`` and moves data with
:meth:`DeviceRuntime.from_host`/:meth:`DeviceRuntime.to_host`. When the selected target lacks a
kernel, the CPU kernel runs with copies and a warning names the primitive once.

**Memory, streams and events**: ``mindspore.runtime`` asks the current :class:`DeviceRuntime` through
optional methods whose defaults suit a runtime without such notions (see its docstring):
``memory_stats`` (byte counts ``allocated``, ``reserved``, ``peak_allocated``, ``peak_reserved``; 0 by
default), ``reset_peak_memory_stats``, ``empty_cache``, ``set_memory_limit``; stream handles from
``new_stream``, ``default_stream``, ``current_stream``, ``communication_stream`` used through
``set_current_stream``, ``synchronize_stream``, ``query_stream``, ``wait_event``; event handles from
``new_event`` used through ``record_event``, ``synchronize_event``, ``query_event``, ``elapsed_time``.
By default there is one implicit host stream on which all work is already complete, and events time
with the host clock.

**Running a compiled graph** (optional): ``graph_runner(graph, run)`` returns what runs a GRAPH_MODE graph
from its second call on, given ``run(*buffers) -> outputs`` (its kernels one by one) and the typed
:class:`Graph`; the default returns ``run``. The GPU backend returns a CUDA-graph replay of steady-state
calls (see :meth:`DeviceRuntime.graph_runner`).

**Device queries** (``mindspore.hal``; optional): ``device_name``, ``device_properties`` and
``device_capability`` of a device id, and ``arch_list``; by default the target's name and ``None`` (what
MindSpore answers for the CPU).

**DLPack** (``mindspore.utils.to_dlpack``/``from_dlpack``; optional): ``to_dlpack(buffer)`` (default: the
buffer's ``__dlpack__()``) and ``from_dlpack(source)`` (default: ``numpy.from_dlpack`` on host runtimes).

**Backend passes** see the typed graph IR through the names below: a :class:`Graph` has ``params``,
``nodes`` (its :class:`Apply` nodes in program order, which orders side effects) and ``output``; an
:class:`Apply` has ``inputs`` (``inputs[0]`` the callee, a :class:`Constant` holding a primitive),
``abstract`` (a :class:`TensorSpec` or an :class:`AbstractTuple`) and ``loc``; a :class:`Parameter`
is a graph input (``weight`` set for a network Parameter). Helpers: :func:`graphs_of`,
:func:`prim_of`, :func:`use_counts`, :func:`substitute`, :func:`is_effectful_apply`, :class:`FusedOp`,
:func:`fuse_chains`, and the structural IR ops :data:`MAKE_TUPLE` and :data:`TUPLE_GETITEM`.
:func:`weights_frozen` tells whether a root graph was compiled with its weights frozen into constants
(``mindspore.Predictor``): kernels may then be prepared from those constants once (the CPU backend's Winograd
convolutions, whose sums round unlike the direct kernel's, run only there).

**Collectives**: :func:`set_process_groups` (for the add-on that joins processes) and
:func:`process_group` (for the kernels of collective primitives); :func:`collective_backends` gathers
what plugins offer through ``ms_collective_backends``; :func:`set_parameter_merge_hook` (for the add-on that
cuts parameters) gives ``save_checkpoint(..., integrated_save=True)`` the full value of a sharded parameter;
:func:`set_group_creator` (for the add-on that joins processes) makes the groups core's layers create (SyncBatchNorm's
``process_groups``). Sharded execution (``Primitive.shard``, ``Cell.shard``) is offered through the plugin hook
``ms_sharding``.

**Operator interception** (for mindspore-parallel's SEMI_AUTO_PARALLEL): :func:`set_primitive_call_hook`
installs the one function every ``Primitive.__call__`` hands ``(prim, args)`` to first (None removes it);
:func:`apply_primitive` runs an application on the interpreter stack as if no hook were installed (eager
dispatch, a gradient tape, or graph staging: whichever is on top); :func:`primitive_call_hook_suspended`
bypasses the hook for a while; :func:`invalidate_compiled_graphs` makes every compiled graph recompile (a
network's Parameters changed shape); :func:`set_cell_call_hook` installs ``fn(cell, run, args, kwargs)``, which
runs every Cell call (``run(*args, **kwargs)`` performs it), in both modes; :func:`set_tensor_shape_view` decides
what ``tensor.shape`` shows (a sharded block's global shape, to the network's code).

**Errors** kernels and add-ons raise: :class:`MSTypeError`, :class:`MSValueError`,
:class:`MSRuntimeError`, :class:`MSIndexError` (subclasses of the builtins MindSpore raises).
"""
from __future__ import annotations

from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, TensorSpec, prim_attr_register
from mindspore._errors import (BackendUnavailableError, KernelNotFoundError, MindSporeError, MSIndexError,
                               MSIndexRuntimeError, MSRuntimeError, MSTypeError, MSValueError)
from mindspore._infer.abstract import AbstractTuple
from mindspore._ir import ops as _irops
from mindspore._ir.nodes import Apply, Constant, Graph, Parameter, graphs_of
from mindspore._pipeline._util import is_effectful_apply, prim_of, substitute
from mindspore._pipeline import freeze as _freeze
from mindspore._pipeline.fusion import FusedOp, fuse_chains, use_counts
from mindspore._plugin import manager as _manager
from mindspore._plugin.collective import (ProcessGroup, process_group, set_group_creator, set_parameter_merge_hook,
                                          set_process_groups)
from mindspore._plugin.device import BackendProbe, DeviceRuntime, array_layout
from mindspore._plugin.hookspecs import ENTRY_POINT_GROUP, PLUGIN_API_VERSION, hookimpl, hookspec
from mindspore._plugin.registry import KernelRegistry, PassRegistry
from mindspore._runtime import backend as _backend

__all__ = [
    # version and hooks
    "PLUGIN_API_VERSION", "ENTRY_POINT_GROUP", "hookspec", "hookimpl",
    # backends
    "BackendProbe", "DeviceRuntime", "array_layout", "KernelRegistry", "PassRegistry", "TensorSpec",
    # operators (for ms_register_primitives)
    "Primitive", "prim_attr_register", "NON_DIFFERENTIABLE",
    # the IR backend passes see
    "Graph", "Apply", "Constant", "Parameter", "AbstractTuple", "graphs_of", "prim_of", "use_counts",
    "substitute", "is_effectful_apply", "FusedOp", "fuse_chains", "MAKE_TUPLE", "TUPLE_GETITEM", "weights_frozen",
    # collectives
    "ProcessGroup", "process_group", "set_process_groups", "collective_backends", "set_parameter_merge_hook",
    "set_group_creator",
    # errors
    "MindSporeError", "MSTypeError", "MSValueError", "MSRuntimeError", "MSIndexError", "MSIndexRuntimeError", "KernelNotFoundError",
    "BackendUnavailableError",
    # the running installation
    "current_target", "register_plugin", "unregister_plugin", "auto_parallel_setting_is_set", "set_context_quietly",
    # operator interception
    "set_primitive_call_hook", "apply_primitive", "primitive_call_hook_suspended", "invalidate_compiled_graphs",
    "set_cell_call_hook", "set_tensor_shape_view",
    # tools (benchmarks, profilers)
    "compile_statistics",
]

#: The IR op building a tuple of values (``Apply(MAKE_TUPLE, *items)``).
MAKE_TUPLE = _irops.make_tuple
#: The IR op taking item ``i`` of a tuple value (``Apply(TUPLE_GETITEM, value, Constant(i))``).
TUPLE_GETITEM = _irops.tuple_getitem


def weights_frozen(graph):
    """Whether ``graph`` (the root graph a backend pass is given) was compiled with its weights frozen into
    constants (``mindspore.Predictor``): they do not change for the life of the compiled graph, and nothing
    differentiates it."""
    return bool(graph.flags.get(_freeze.FROZEN))


def collective_backends():
    """Every collective backend the loaded plugins offer: ``{name: factory}`` (first offer wins)."""
    found = {}
    for _rec, backends in _manager.call_each("ms_collective_backends"):
        for key, factory in (backends or {}).items():
            found.setdefault(key, factory)
    return found


def current_target():
    """The device target computations run on now (resolving the default one if needed)."""
    return _backend.current().target


def set_context_quietly(**kwargs):
    """``set_context(**kwargs)`` without the deprecation warning 2.10 logs for keys with a newer interface: for the
    add-ons that store such a setting on the user's behalf (``AutoParallel`` writes ``ascend_config``, as 2.10's
    does straight into its context object)."""
    from mindspore.context import _set_context
    _set_context(**kwargs)


def auto_parallel_setting_is_set(attr_key):
    """Whether the user set the auto-parallel setting ``attr_key`` (``set_auto_parallel_context``) since the last
    reset: the defaults of some settings (``device_num``, ``global_rank``) follow the world until then, and
    MindSpore's ``auto_parallel_context().get_device_num_is_set()`` tells which."""
    from mindspore.context import _auto_parallel_is_set
    return _auto_parallel_is_set(attr_key)


def register_plugin(obj, name=None):
    """Register a plugin object by hand (tests, notebooks); it takes effect at the next use, as if its
    distribution had been installed (registering the same name again replaces it)."""
    _manager.register_plugin(obj, name)


def unregister_plugin(name):
    """Forget a plugin registered with :func:`register_plugin`; takes effect at the next use."""
    _manager.unregister_plugin(name)


def set_primitive_call_hook(fn):
    """Install ``fn(prim, args)`` as the first receiver of every primitive application (None: remove it);
    returns the hook it replaces."""
    from mindspore._core import primitive as _primitive
    old = _primitive.CALL_HOOK[0]
    _primitive.CALL_HOOK[0] = fn
    return old


def apply_primitive(prim, args):
    """Run ``prim(*args)`` on the interpreter stack, bypassing the call hook."""
    from mindspore._core.interpreters import TOP
    return TOP[0](prim, tuple(args))


def primitive_call_hook_suspended():
    """A context manager: primitive applications in its body bypass the call hook."""
    from mindspore._core.primitive import hook_suspended
    return hook_suspended()


def invalidate_compiled_graphs():
    """Make every compiled graph stale: each recompiles at its next call."""
    from mindspore._pipeline.compiler import invalidate_all
    invalidate_all()


def compile_statistics():
    """The graph compiler's counters, as a new dict: ``compiles`` (graphs compiled since the process started),
    ``hits`` (calls that reused a compiled graph) and ``last_compile_s`` (the last compile's own time in seconds:
    parsing, inference with autodiff, the optimisation passes and scheduling, not running the graph)."""
    from mindspore._pipeline.compiler import STATS
    return dict(STATS)


def set_tensor_shape_view(fn):
    """Install ``fn(tensor)``, the shape ``tensor.shape`` shows (None from it: the tensor's own), or None to remove
    it; returns the one replaced."""
    from mindspore._core import primitive as _primitive
    old = _primitive.SHAPE_VIEW[0]
    _primitive.SHAPE_VIEW[0] = fn
    return old


def set_cell_call_hook(fn):
    """Install ``fn(cell, run, args, kwargs)`` around every Cell call (None: remove it); returns the one replaced."""
    from mindspore.nn import cell as _cell
    old = _cell.CELL_CALL_HOOK[0]
    _cell.CELL_CALL_HOOK[0] = fn
    return old
