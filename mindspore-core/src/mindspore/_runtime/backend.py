"""Device targets: choosing one, creating its runtime, and its kernels.

:func:`current` resolves the active target once (then caches it until the context or the plugin set
changes): the target pinned by ``set_context(device_target=...)``/``set_device`` or by the
``MINDSPORE_DEVICE_TARGET`` variable, else the usable target of highest priority. A target that no
plugin can serve raises :class:`BackendUnavailableError` naming each candidate's reason and the
``pip install`` that provides it, with the failing plugin's own exception chained.
"""
from __future__ import annotations

import os
import threading

import numpy as np

from mindspore._errors import BackendUnavailableError

__all__ = ["DeviceRuntime", "Backend", "current", "invalidate", "from_host", "to_host", "kernel_registry",
           "INSTALL_HINT"]

INSTALL_HINT = {"CPU": "pip install mindspore-cpu", "GPU": "pip install mindspore-gpu",
                "Ascend": "pip install mindspore-ascend"}
_TARGET_ALIASES = {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "ascend": "Ascend", "npu": "Ascend"}


def normalize_target(target):
    if target is None:
        return None
    t = _TARGET_ALIASES.get(str(target).split(":")[0].lower())
    if t is None:
        raise ValueError(f"For 'set_context', the 'device_target' must be one of 'CPU', 'GPU', 'Ascend', "
                         f"but got '{target}'.")
    return t


class DeviceRuntime:
    """A device runtime. Host-memory runtimes (CPU) keep NumPy arrays as buffers."""

    target = "CPU"
    is_host = True

    def from_host(self, array):
        return array

    def to_host(self, buffer):
        return buffer

    def synchronize(self):
        pass

    def set_threads(self, n):
        """Use ``n`` threads for kernels (``set_context(runtime_num_threads=n)``); runtimes with a
        thread pool resize it."""
        self.threads = n


class Backend:
    """A selected target: its runtime and the kernel registry."""

    def __init__(self, target, runtime, registry, plugin):
        self.target = target
        self.runtime = runtime
        self.registry = registry
        self.plugin = plugin


_lock = threading.RLock()
_current: Backend | None = None
_registry = None
_kernel_threads: int | None = None   # set_context(runtime_num_threads=...), applied to every runtime


def set_kernel_threads(n):
    """Apply a kernel thread count to the current runtime and to any created later."""
    global _kernel_threads
    with _lock:
        _kernel_threads = n
        if _current is not None:
            _current.runtime.set_threads(n)


def invalidate():
    """Forget the resolved backend and registry (context or plugin set changed)."""
    global _current, _registry
    with _lock:
        _current = None
        _registry = None


def kernel_registry():
    """The kernel registry, filled by every loaded plugin's ``ms_register_kernels``."""
    global _registry
    with _lock:
        if _registry is None:
            from mindspore._plugin import manager
            from mindspore._runtime.kernels import KernelRegistry
            from mindspore.ops import _registry as op_registry
            manager.plugin_manager()
            op_registry.load_plugin_primitives()
            reg = KernelRegistry(known_primitives=op_registry.primitive_names())
            pm = manager.plugin_manager()
            for impl in pm.hook.ms_register_kernels.get_hookimpls():
                rec = manager._records.get(impl.plugin_name)
                if rec is None or rec.status != "loaded":
                    continue
                try:
                    impl.function(registry=reg.for_plugin(impl.plugin_name))
                except Exception as exc:  # noqa: BLE001
                    rec.fail("failed", exc, "ms_register_kernels failed")
            _registry = reg
        return _registry


def _requested_target():
    from mindspore import context
    return normalize_target(context.get_context("device_target_requested")
                            or os.environ.get("MINDSPORE_DEVICE_TARGET") or None)


def _candidates():
    from mindspore._plugin import manager
    found = []
    for rec in manager.plugins():
        for p in rec.probes:
            found.append((rec, p))
    return found


def _unavailable(target, candidates):
    from mindspore._plugin import manager
    lines, cause = [], None
    for rec, p in candidates:
        if p.target == target:
            lines.append(f"  - plugin '{rec.name}': {'available' if p.available else 'unavailable: ' + p.reason}")
    for rec in manager.plugins():
        if rec.status != "loaded":
            lines.append(f"  - plugin '{rec.name}' ({rec.distribution}): {rec.status}: {rec.error}")
            cause = cause or rec.exception
    hint = INSTALL_HINT.get(target, "pip install mindspore-cpu") if target else "pip install mindspore-cpu"
    what = f"device target '{target}'" if target else "any device target"
    msg = (f"No usable backend for {what}. Install one with '{hint}'"
           + (" (and check the reasons below)." if lines else ".")
           + ("\n" + "\n".join(lines) if lines else ""))
    err = BackendUnavailableError(msg)
    err.__cause__ = cause
    return err


def current() -> Backend:
    """The backend computations run on now."""
    global _current
    b = _current
    if b is not None:
        return b
    with _lock:
        if _current is not None:
            return _current
        from mindspore._plugin import manager
        target = _requested_target()
        cands = [(r, p) for r, p in _candidates() if r.status == "loaded" and p.available]
        if target is not None:
            cands = [(r, p) for r, p in cands if p.target == target]
        if not cands:
            raise _unavailable(target, _candidates())
        rec, probe = max(cands, key=lambda rp: rp[1].priority)
        runtime = None
        for r, rt in manager.call_each("ms_backend_create", target=probe.target):
            if r is rec and rt is not None:
                runtime = rt
        if runtime is None:
            raise _unavailable(probe.target, _candidates())
        if _kernel_threads is not None:
            runtime.set_threads(_kernel_threads)
        _current = Backend(probe.target, runtime, kernel_registry(), rec.name)
        return _current


def from_host(array):
    """Move a host NumPy array to the current device (no copy on host-memory backends)."""
    b = _current
    if b is None or b.runtime.is_host:
        return array
    return b.runtime.from_host(array)


def to_host(buffer):
    """A host NumPy view/copy of a device buffer."""
    if isinstance(buffer, np.ndarray):
        return buffer
    b = _current
    if b is not None:
        return b.runtime.to_host(buffer)
    return np.asarray(buffer)
