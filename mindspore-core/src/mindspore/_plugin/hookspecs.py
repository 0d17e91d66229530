"""The plugin hooks of MindSpore: the whole contract between core and a backend or add-on.

A plugin is any object (usually a module) with functions decorated by :data:`hookimpl`, published
under the ``mindspore.plugins`` entry-point group of its distribution::

    [project.entry-points."mindspore.plugins"]
    cpu = "mindspore_cpu.plugin"

Core finds plugins lazily, once, on the first computation (never at ``import mindspore``). Each
hook of each plugin is called on its own, so a plugin that raises is reported by
``python -m mindspore.info`` and never breaks ``import mindspore`` or the other plugins. The
first-party backends (``mindspore-cpu``, ``mindspore-gpu``, ``mindspore-ascend``) use exactly these
hooks and the public names of :mod:`mindspore.plugin`, nothing private.

Lifecycle, in call order:

1. **Identify** -- :func:`ms_plugin_info`: who the plugin is and which plugin API it was built for.
   A plugin whose API major version differs from :data:`PLUGIN_API_VERSION`, or whose minor
   version is newer than core's, is marked *incompatible* and none of its other hooks is called.
2. **Extend the operator set** -- :func:`ms_register_primitives`: new primitive classes (with their
   shape/dtype rules and bprops), so that kernels can be registered for them.
3. **Probe** -- :func:`ms_backend_probe`: the device targets the plugin offers, whether each is
   usable on this machine and, if not, why.
4. **Create** -- :func:`ms_backend_create`: the device runtime of a usable target, when the user
   selects it (or when it is the default).
5. **Kernels** -- :func:`ms_register_kernels`: kernels for (primitive, target[, dtypes]).
6. **Compiler** -- :func:`ms_register_passes`: backend passes for the GRAPH_MODE pipeline.
7. **Add-ons** -- :func:`ms_collective_backends` and :func:`ms_sharding` (for mindspore-parallel) and
   :func:`ms_environment_info` (extra lines for ``python -m mindspore.info``).
8. **Host helpers** -- :func:`ms_random_fills`: native versions of the random fills of initial weights
   (asked at the first such fill).
"""
import pluggy

PROJECT = "mindspore"
ENTRY_POINT_GROUP = "mindspore.plugins"

#: The plugin API version of this core, ``(major, minor)``. A plugin built for the same major and
#: an equal or older minor is compatible; anything else is reported as incompatible.
#: 2.0: kernels receive the inferred output specs (``fn(prim, *inputs, out)``) and are chosen on the
#: dtypes of all tensor inputs; the contract is the public module :mod:`mindspore.plugin`.
#: 2.1: ``DeviceRuntime.host_uploader``, :func:`mindspore.plugin.array_layout` and
#: :func:`mindspore.plugin.weights_frozen`.
#: 2.2: :func:`ms_random_fills` (native fills of initial weights).
PLUGIN_API_VERSION = (2, 2)

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def ms_plugin_info():
    """Identify the plugin.

    Returns:
        dict: ``{"name": str, "version": str, "api_version": (major, minor)}``; ``name`` is what
        ``python -m mindspore.info`` shows, ``api_version`` the :data:`PLUGIN_API_VERSION` the
        plugin was written against.
    """


@hookspec
def ms_register_primitives():
    """Add primitives to the operator registry.

    Returns:
        list[type]: :class:`mindspore.ops.Primitive` subclasses, each a complete block (attributes,
        ``infer_shape``/``infer_dtype``, ``bprop`` or ``NON_DIFFERENTIABLE``). Names must not clash
        with existing primitives.
    """


@hookspec
def ms_backend_probe():
    """Describe the device targets this plugin offers.

    Must be cheap and must not initialise a device context for long: it runs when core resolves a
    target and when ``python -m mindspore.info`` lists plugins.

    Returns:
        list[mindspore.plugin.BackendProbe]: one per target (``"CPU"``, ``"GPU"``, ``"Ascend"`` or a
        name of the plugin's own), with ``available`` and, when unavailable, a human ``reason``
        (``"no CUDA device"``); the usable target with the highest ``priority`` is the default.
    """


@hookspec
def ms_backend_create(target):
    """Create the device runtime for ``target``, or return ``None`` if this plugin does not offer it.

    Returns:
        mindspore.plugin.DeviceRuntime: converts host arrays to device buffers (``from_host``) and
        back (``to_host``), and synchronises; optionally it runs compiled graphs its own way
        (``graph_runner``: the GPU backend's CUDA-graph replay).
    """


@hookspec
def ms_register_kernels(registry):
    """Register kernels into ``registry`` (a :class:`mindspore.plugin.KernelRegistry`).

    Call ``registry.register(primitive_name, target, fn, dtypes=None, priority=0, override=False)``.
    ``fn(prim, *inputs, out)`` receives device buffers for tensor inputs (tuples of buffers for tuple
    inputs), Python values for the others, and ``out``, the inferred output
    :class:`~mindspore.plugin.TensorSpec` (a tuple of them for several outputs); it returns a buffer
    (or a tuple of buffers) of exactly that shape and dtype. ``dtypes`` selects the kernel by the
    dtypes of all tensor inputs (see :class:`mindspore.plugin.KernelRegistry`). Replacing a kernel
    another plugin registered requires ``override=True``; overrides are listed by
    ``python -m mindspore.info``.
    """


@hookspec
def ms_register_passes(registry):
    """Register backend passes (fusion, lowering) of the GRAPH_MODE compile pipeline.

    ``registry.register(name, fn, target="CPU", priority=0)``: ``fn(graph) -> bool`` receives the typed
    graph after inference, autodiff, inlining, folding, CSE and DCE and rewrites it in place, returning
    whether it changed anything; it runs, in priority order, only when ``target`` (or any target, for
    ``None``) is the device target. The IR a pass sees, and the helpers it may use, are the public
    names of :mod:`mindspore.plugin` (``Graph``, ``Apply``, ``Constant``, ``Parameter``,
    ``TensorSpec``, ``substitute``, ``use_counts``, ...). A pass keeps the IR's invariants (the
    verifier runs after it in tests) and program order (which orders side effects). To replace applies
    by a kernel of its own, a pass uses :class:`mindspore.plugin.FusedOp` (and
    :func:`mindspore.plugin.fuse_chains` for chains); the CPU backend's passes
    (``mindspore_cpu.passes``) are an example.
    """


@hookspec
def ms_collective_backends():
    """Collective communication backends offered (for mindspore-parallel).

    Returns:
        dict[str, object]: backend name (``"mpi"``, ``"nccl"``) -> factory; read through
        :func:`mindspore.plugin.collective_backends`.
    """


@hookspec
def ms_sharding():
    """Sharded execution (for mindspore-parallel): what ``Primitive.shard``, ``Cell.shard`` and
    ``set_auto_parallel_context(parallel_mode=...)`` call, so that core never imports the add-on.

    Returns:
        dict[str, callable]: ``"primitive_shard"(prim, in_strategy, out_strategy)`` -> the sharded primitive,
        ``"cell_shard"(cell, in_strategy, out_strategy, parameter_plan)`` -> the cell's shard function, and
        ``"sync"(parallel_mode)``, told every new parallel mode, and optionally ``"Layout"``, the layout class
        ``ops.reshard`` accepts; read through :func:`mindspore._plugin.manager.sharding`.
    """


@hookspec
def ms_environment_info():
    """Extra facts for ``python -m mindspore.info`` (library versions, devices).

    Returns:
        dict[str, str]
    """


@hookspec
def ms_random_fills():
    """Native fills of initial weights: MindSpore 2.10's host random streams, faster than core's NumPy ones.

    ``mindspore.common.initializer`` (and 2.10's private ``mindspore._c_expression._random_uniform`` /
    ``_random_normal`` / ``_truncated_normal``) fill a float32 buffer from the Philox4x32-10 stream of a 64-bit
    seed; core computes it with NumPy (``mindspore.common._philox``, which documents the stream and each
    transform) unless a plugin offers a fill here. An offered fill must give exactly the same bits, whatever its
    thread count. Host arrays only: the fills run whichever device target is selected.

    Returns:
        dict[str, callable]: any of ``"uniform"(seed, out, a, b)``, ``"normal"(seed, out, mean, sigma)`` and
        ``"truncated_normal"(seed, out, a, b, mean, sigma)``; each fills ``out`` (a C-contiguous, writable
        float32 NumPy array) in place from the stream of ``seed`` (an int in ``[0, 2**64)``), float arguments
        rounded to float32 first. The first plugin offering a kind is used; ``None`` or a missing kind leaves
        the NumPy fill.
    """
