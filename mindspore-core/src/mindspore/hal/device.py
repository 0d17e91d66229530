"""Device queries of ``mindspore.hal``: which targets are usable, how many devices they have, their names and
properties.

A target is *available* when a loaded plugin's probe offers it as usable; its device count is the probe's
``device_count``; names and properties come from the target's :class:`mindspore.plugin.DeviceRuntime`
(:func:`runtime_of`), which is created for the question when it is not the current target's (MindSpore too
initialises a device to answer). A target is *initialized* once its runtime exists in this process.
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore._plugin import manager
from mindspore._runtime import backend

__all__ = ["is_initialized", "is_available", "device_count", "get_device_capability", "get_device_properties",
           "get_device_name", "get_arch_list", "runtime_of"]


def _targets():
    return backend.known_targets()


def _check_target_name(device_target, api=None):
    if not isinstance(device_target, str):
        raise MSTypeError(f"The argument 'device_target' must be str, but got {device_target}, "
                          f"type is {type(device_target)}.")
    if device_target not in _targets():
        where = f"For '{api}', the" if api else "The"
        raise MSValueError(f"{where} argument 'device_target' must be one of {_targets()}, but got {device_target}.")


def _probe(target):
    """The usable ``(plugin record, probe)`` offering ``target`` with the highest priority, or ``None``."""
    manager.plugin_manager()
    usable = [(rec, p) for rec in manager.plugins() if rec.status == "loaded" for p in rec.probes
              if p.target == target and p.available]
    return max(usable, key=lambda rp: rp[1].priority) if usable else None


def _resolve(device_target):
    """The target asked about: ``device_target`` checked, or the current one for ``None``."""
    if device_target is None:
        return backend.current().target
    _check_target_name(device_target)
    if _probe(device_target) is None:
        raise MSValueError(f"{device_target} backend is not available for this MindSpore package."
                           f"You can call hal.is_available to check the reason.")
    return device_target


def runtime_of(device_target=None):
    """The :class:`~mindspore.plugin.DeviceRuntime` of ``device_target`` (``None``: the current device's),
    created through its plugin if this process has none yet."""
    target = _resolve(device_target)
    current = backend.selected()
    if current is not None and current.target == target:
        return current.runtime
    for runtime in backend._made:
        if runtime.target == target:
            return runtime
    if backend.current().target == target:
        return backend.current().runtime
    rec, probe = _probe(target)
    for r, runtime in manager.call_each("ms_backend_create", target=probe.target):
        if r is rec and runtime is not None:
            backend._made.append(runtime)
            return runtime
    raise MSValueError(f"{target} backend is not available for this MindSpore package."
                       f"You can call hal.is_available to check the reason.")


def is_available(device_target):
    """Whether ``device_target`` (``"CPU"``, ``"GPU"`` or ``"Ascend"``) can be used here: a loaded backend plugin
    offers it and finds its device. When it cannot, the plugin's reason is logged as a warning.

    Raises:
        ValueError: ``device_target`` is not one of the targets.
    """
    if not isinstance(device_target, str) or device_target not in _targets():
        raise MSValueError(f"For 'hal.is_available', the argument 'device_target' must be one of {_targets()}, "
                           f"but got {device_target}.")
    return _probe(device_target) is not None


def is_initialized(device_target):
    """Whether the runtime of ``device_target`` has been created in this process (by the first computation on
    it, or by a ``mindspore.hal``/``mindspore.runtime`` query).

    Raises:
        ValueError: ``device_target`` is not one of the targets.
    """
    if not isinstance(device_target, str) or device_target not in _targets():
        raise MSValueError(f"For 'hal.is_initialized', the argument 'device_target' must be one of {_targets()}, "
                           f"but got {device_target}.")
    return any(runtime.target == device_target for runtime in backend._made)


def device_count(device_target=None):
    """How many devices of ``device_target`` (default: the current target) this machine has (1 for the CPU).

    Raises:
        TypeError: ``device_target`` is not a str.
        ValueError: it is not a known target, or its backend is not usable here.
    """
    target = _resolve(device_target)
    probe = _probe(target)
    return max(int(probe[1].device_count), 1) if probe is not None else 1


def _check_device_id(device_id, target):
    if not isinstance(device_id, int):
        raise MSTypeError(f"The argument 'device_id' must be int, but got {device_id}, type is {type(device_id)}.")
    if device_id < 0:
        raise MSValueError(f"The argument 'device_id' should not be negative, but got {device_id}.")
    count = device_count(target)
    if device_id >= count:
        raise MSValueError(f"The argument 'device_id' must be less than device count: {count}, but got {device_id}.")


def _device_query(device_id, device_target, method):
    if not isinstance(device_id, int):
        raise MSTypeError(f"The argument 'device_id' must be int, but got {device_id}, type is {type(device_id)}.")
    target = _resolve(device_target)
    _check_device_id(device_id, target)
    return getattr(runtime_of(target), method)(device_id)


def get_device_name(device_id, device_target=None):
    """The name of device ``device_id`` of ``device_target`` (default: the current target): ``"CPU"`` on the
    CPU, the GPU's model name on a GPU.

    Raises:
        TypeError: ``device_id`` is not an int, or ``device_target`` not a str.
        ValueError: ``device_id`` is negative or not below :func:`device_count`; the target is unknown or not
            usable.
    """
    return _device_query(device_id, device_target, "device_name")


def get_device_properties(device_id, device_target=None):
    """The properties of device ``device_id`` (on a GPU: ``name``, ``total_memory``, ``major``, ``minor``,
    ``multi_processor_count``...); ``None`` on the CPU, as in MindSpore. Raises as :func:`get_device_name`."""
    return _device_query(device_id, device_target, "device_properties")


def get_device_capability(device_id, device_target=None):
    """The compute capability ``(major, minor)`` of device ``device_id``; ``None`` on the CPU, as in MindSpore.
    Raises as :func:`get_device_name`."""
    return _device_query(device_id, device_target, "device_capability")


def get_arch_list(device_target=None):
    """The device architectures the target's kernels support (``None`` on the CPU, as in MindSpore).

    Raises:
        TypeError: ``device_target`` is not a str.
        ValueError: it is not a known target, or its backend is not usable here.
    """
    return runtime_of(device_target).arch_list()
