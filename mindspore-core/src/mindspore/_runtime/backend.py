"""Device targets: choosing one, creating its runtime, and its kernels.

:func:`current` resolves the active target (then caches it until the plugin set or the requested
target changes, which :data:`mindspore._generation.GENERATION` tells): the target pinned by
``set_context(device_target=...)``/``set_device`` or by the ``MINDSPORE_DEVICE_TARGET`` variable,
else the usable target of highest priority. A target that no plugin can serve raises
:class:`BackendUnavailableError` naming each candidate's reason and the ``pip install`` that
provides it, with the failing plugin's own exception chained.

Target names are those the plugins' probes offer (``CPU``, ``GPU``, ``Ascend`` and any third
party's), matched case-insensitively; ``cuda`` and ``npu`` are aliases of ``GPU`` and ``Ascend``.

Kernels: :meth:`Backend.kernel` picks the kernel of a primitive for the dtypes of its tensor inputs.
When the selected target has none (a third-party primitive with only a CPU kernel, say), the CPU
kernel runs with explicit copies to and from the host, and a warning names the primitive once, as
MindSpore's GPU backend does; :func:`fallbacks` lists them for ``python -m mindspore.info``.
"""
from __future__ import annotations

import os
import threading
import warnings

import mindspore._generation as _generation
import mindspore.context as context
from mindspore._errors import BackendUnavailableError, MSValueError
from mindspore._plugin import manager
from mindspore._plugin.device import DeviceRuntime
from mindspore._plugin.registry import KernelRegistry

__all__ = ["DeviceRuntime", "Backend", "current", "from_host", "to_host", "kernel_registry", "normalize_target",
           "known_targets", "fallbacks", "INSTALL_HINT"]

INSTALL_HINT = {"CPU": "pip install mindspore-cpu", "GPU": "pip install mindspore-gpu",
                "Ascend": "pip install mindspore-ascend"}
_BUILTIN = ("CPU", "GPU", "Ascend")
_ALIASES = {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "ascend": "Ascend", "npu": "Ascend"}
_GEN = _generation.GENERATION
_PLUGINS = _generation.PLUGINS

#: Filled by the operator registry (a layer above) at import: ``() -> set of primitive names``, so that
#: kernels for unknown primitives are refused. Without it every name is accepted.
PRIMITIVE_NAMES = [None]


def _probes():
    for rec in manager.plugins():
        for p in rec.probes:
            yield rec, p


def known_targets():
    """Every target name some plugin offers, plus the built-in three."""
    names = list(_BUILTIN)
    for _rec, p in _probes():
        if p.target not in names:
            names.append(p.target)
    return names


def normalize_target(target):
    """The canonical spelling of ``target`` (``None`` stays ``None``); raises for an unknown name."""
    if target is None:
        return None
    raw = str(target).split(":")[0]
    t = _ALIASES.get(raw.lower())
    if t is not None:
        return t
    for name in known_targets():
        if name.lower() == raw.lower():
            return name
    raise MSValueError(f"For 'set_context', the 'device_target' must be one of "
                       f"{', '.join(repr(n) for n in known_targets())}, but got '{target}'.")


class Backend:
    """A selected target: its runtime, the kernel registry and the plugin that offers it."""

    def __init__(self, target, runtime, registry, plugin, generation):
        self.target = target
        self.runtime = runtime
        self.registry = registry
        self.plugin = plugin
        self.generation = generation

    def kernel(self, name, dtypes=(), tensor_inputs=None):
        """The kernel of primitive ``name`` for tensor inputs of ``dtypes`` on this target.

        ``tensor_inputs`` (per argument: ``True`` for a tensor, a tuple of bools for a tuple, ``False``
        otherwise) is needed only to run a CPU fallback, which copies exactly those arguments.
        """
        entry = self.registry.find(name, self.target, dtypes)
        if entry is not None:
            return entry.fn
        if self.target != "CPU" and tensor_inputs is not None:
            cpu = self.registry.find(name, "CPU", dtypes)
            if cpu is not None:
                return _fallback(self, name, cpu.fn, tensor_inputs)
        return self.registry.lookup(name, self.target, dtypes).fn   # raises KernelNotFoundError


_fallback_log: dict[tuple[str, str], str] = {}


def fallbacks():
    """``[(target, primitive, plugin of the CPU kernel)]`` for every kernel that ran on the CPU instead."""
    return [(t, p, plugin) for (t, p), plugin in sorted(_fallback_log.items())]


def _fallback(backend, name, fn, tensor_inputs):
    runtime = backend.runtime
    key = (backend.target, name)
    if key not in _fallback_log:
        entry = backend.registry.find(name, "CPU")
        _fallback_log[key] = entry.plugin if entry is not None else "?"
        warnings.warn(f"For '{name}', the device target '{backend.target}' has no kernel: it runs on the CPU, with "
                      f"its inputs and outputs copied between the devices (slower).", RuntimeWarning, stacklevel=4)
    to_host, from_host = runtime.to_host, runtime.from_host

    def down(x, kind):
        if kind is True:
            return to_host(x)
        if type(kind) is tuple:
            return tuple(down(e, k) for e, k in zip(x, kind))
        return x

    def up(y):
        return tuple(up(e) for e in y) if type(y) is tuple else from_host(y)

    def run_on_cpu(prim, *inputs, out=None):
        host = [down(x, k) for x, k in zip(inputs, tensor_inputs)]
        return up(fn(prim, *host, out=out))

    run_on_cpu.__name__ = f"cpu_fallback_{name}"
    run_on_cpu.__qualname__ = run_on_cpu.__name__
    return run_on_cpu


_lock = threading.RLock()
_current: Backend | None = None
_registry: tuple[int, KernelRegistry] | None = None
_kernel_threads: int | None = None   # set_context(runtime_num_threads=...), applied to every runtime


def set_kernel_threads(n):
    """Apply a kernel thread count to the current runtime and to any created later."""
    global _kernel_threads
    with _lock:
        _kernel_threads = n
        if _current is not None and _current.generation == _GEN[0]:
            _current.runtime.set_threads(n)


_memory_limit: int | None = None   # bytes: set_context(max_device_memory=...), runtime.set_memory(max_size=...)


def set_memory_limit(nbytes):
    """Apply a device memory limit (bytes) to the current runtime and to any created later."""
    global _memory_limit
    with _lock:
        _memory_limit = nbytes
        if _current is not None and _current.generation == _GEN[0]:
            _current.runtime.set_memory_limit(nbytes)


def kernel_registry():
    """The kernel registry, filled by every loaded plugin's ``ms_register_kernels`` (plugin order)."""
    global _registry
    reg = _registry
    if reg is not None and reg[0] == _PLUGINS[0]:
        return reg[1]
    with _lock:
        manager.plugin_manager()
        gen = _PLUGINS[0]
        names = PRIMITIVE_NAMES[0]
        reg = KernelRegistry(known_primitives=names() if names is not None else None)
        for rec, fn in manager.hookimpls("ms_register_kernels"):
            try:
                fn(registry=reg.for_plugin(rec.name))
            except manager.ISOLATED as exc:  # isolation: the plugin is reported failed
                rec.fail("failed", exc, "ms_register_kernels failed")
        _registry = (gen, reg)
        return reg


def _requested_target():
    return normalize_target(context.get_context("device_target_requested")
                            or os.environ.get("MINDSPORE_DEVICE_TARGET") or None)


def _install_hint(target, candidates):
    for _rec, p in candidates:
        if p.target == target and p.install_hint:
            return p.install_hint
    return INSTALL_HINT.get(target, "pip install mindspore-cpu") if target else "pip install mindspore-cpu"


def _unavailable(target, candidates):
    lines, cause = [], None
    for rec, p in candidates:
        if p.target == target:
            lines.append(f"  - plugin '{rec.name}': {'available' if p.available else 'unavailable: ' + p.reason}")
    for rec in manager.plugins():
        if rec.status != "loaded":
            lines.append(f"  - plugin '{rec.name}' ({rec.distribution}): {rec.status}: {rec.error}")
            cause = cause or rec.exception
    hint = _install_hint(target, candidates)
    what = f"device target '{target}'" if target else "any device target"
    usable = sorted({p.target for _rec, p in candidates if p.available})
    msg = ((f"Unsupported device target {target}. This process only supports one of the {usable}. " if target else "")
           + f"No usable backend for {what}. Install one with '{hint}'"
           + (" (and check the reasons below)." if lines else ".")
           + ("\n" + "\n".join(lines) if lines else ""))
    err = BackendUnavailableError(msg)
    err.__cause__ = cause
    return err


def current() -> Backend:
    """The backend computations run on now."""
    global _current
    b = _current
    if b is not None and b.generation == _GEN[0]:
        return b
    with _lock:
        b = _current
        if b is not None and b.generation == _GEN[0]:
            return b
        manager.plugin_manager()
        gen = _GEN[0]
        target = _requested_target()
        candidates = list(_probes())
        usable = [(r, p) for r, p in candidates if r.status == "loaded" and p.available]
        if target is not None:
            usable = [(r, p) for r, p in usable if p.target == target]
        if not usable:
            raise _unavailable(target, candidates)
        rec, probe = max(usable, key=lambda rp: rp[1].priority)
        runtime = None
        for r, rt in manager.call_each("ms_backend_create", target=probe.target):
            if r is rec and rt is not None:
                runtime = rt
        if runtime is None:
            raise _unavailable(probe.target, list(_probes()))
        if _kernel_threads is not None:
            runtime.set_threads(_kernel_threads)
        if _memory_limit is not None:
            runtime.set_memory_limit(_memory_limit)
        if runtime not in _made:
            _made.append(runtime)
        registry = kernel_registry()
        _current = Backend(probe.target, runtime, registry, rec.name, gen)
        return _current


def selected():
    """The backend if one is resolved and current, else ``None`` (never resolves one)."""
    b = _current
    return b if b is not None and b.generation == _GEN[0] else None


_HOST = DeviceRuntime()   # plain host memory: where tensors live while no backend is installed


def data_runtime():
    """The runtime tensor data lives on: the current backend's, or host memory when no backend can be
    used at all (creating and reading tensors still works; the first computation names what to install)."""
    b = _current
    if b is not None and b.generation == _GEN[0]:
        return b.runtime
    try:
        return current().runtime
    except BackendUnavailableError:
        return _HOST


_made: list = []   # every runtime created in this process, to read buffers made before the target changed


def owner_of(buffer):
    """The runtime that made ``buffer``: the current one unless the buffer's class says otherwise."""
    rt = data_runtime()
    types = rt.buffer_types
    if not types or isinstance(buffer, types):
        return rt
    for other in _made:
        if other.buffer_types and isinstance(buffer, other.buffer_types):
            return other
    return rt


def adopt(tensor):
    """Move ``tensor``'s buffer to the current device, in place, when another runtime made it (a tensor created
    before ``set_device`` switched the target): MindSpore moves a tensor's data to where it is used. True when it
    moved."""
    buffer = tensor._data
    if buffer is None:
        return False
    rt = data_runtime()
    types = rt.buffer_types
    if not types or isinstance(buffer, types):
        return False
    owner = owner_of(buffer)
    if owner is rt:
        return False
    tensor._data = rt.from_host(owner.to_host(buffer))
    return True


def copy_buffer(buffer):
    """A copy of ``buffer`` on the current device: a device-side copy when the current runtime made it, else
    through the host from the runtime that did."""
    rt = data_runtime()
    owner = owner_of(buffer)
    if owner is rt:
        return rt.copy(buffer)
    return rt.from_host(owner.to_host(buffer))


def view_buffer(buffer, index):
    """A buffer aliasing ``buffer[index]`` (basic index), or None where its runtime can not alias."""
    return owner_of(buffer).view(buffer, index)


def buffer_layout(buffer):
    """``(element strides, element offset)`` of ``buffer``, or None for a contiguous buffer of its own."""
    return owner_of(buffer).layout(buffer)


def write_buffer(buffer, index, value):
    """Write ``value`` (a buffer of ``buffer``'s runtime) into ``buffer[index]`` in place; False where its runtime
    can not."""
    owner = owner_of(buffer)
    if owner_of(value) is not owner:
        return False
    return bool(owner.write(buffer, index, value))


def from_host(array):
    """Move a host NumPy array to the current device (no copy on host-memory backends)."""
    return data_runtime().from_host(array)


def to_host(buffer):
    """A host NumPy array with the data of a device buffer (read through the runtime that made it)."""
    return owner_of(buffer).to_host(buffer)


# -- settings owned here: context stores them, this module acts on them --------------------------
def _set_device_target(value):
    target = normalize_target(value)
    old = context.get_context("device_target_requested")
    context.store("device_target", target)
    _generation.bump(plugins=False)
    try:
        current()
    except Exception:
        context.store("device_target", old)
        _generation.bump(plugins=False)
        raise


def _get_device_target():
    requested = context.get_context("device_target_requested")
    if requested:
        return requested
    env = os.environ.get("MINDSPORE_DEVICE_TARGET")
    if env:
        return normalize_target(env)
    try:
        return current().target
    except Exception:  # noqa: BLE001 - no backend installed: report MindSpore's default
        return "CPU"


context.register_handler("device_target", setter=_set_device_target, getter=_get_device_target)
context.register_handler("runtime_num_threads", setter=lambda n: (context.store("runtime_num_threads", n),
                                                                  set_kernel_threads(n)))

__all__ += ["selected", "data_runtime", "owner_of", "adopt", "copy_buffer", "PRIMITIVE_NAMES"]
