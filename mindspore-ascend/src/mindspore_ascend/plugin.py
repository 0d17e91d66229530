"""The Ascend backend's plugin: the same hooks any third-party backend implements.

CANN's Python ACL (the ``acl`` module) is not on PyPI; it comes with the CANN toolkit. Without it,
or without an Ascend device, the probe reports the ``Ascend`` target unavailable with the reason,
and :func:`ms_backend_create` refuses with a clear error.

This plugin registers no kernels yet, so ``Ascend`` has a priority below the CPU backend's: it is
used only when the user asks for it, never silently made the default where no op could run.
"""
import importlib

from mindspore.plugin import PLUGIN_API_VERSION, BackendProbe, hookimpl

from mindspore_ascend import __version__

TARGET = "Ascend"
PRIORITY = -10
NO_CANN = "CANN (the 'acl' Python module) is not installed"
NO_DEVICE = "no Ascend device"


def import_acl():
    """``(acl module, None)``, or ``(None, reason)`` when pyACL cannot be imported."""
    try:
        return importlib.import_module("acl"), None
    except ModuleNotFoundError as exc:
        if exc.name == "acl" or exc.name is None:
            return None, NO_CANN
        return None, f"CANN's 'acl' module failed to import ({type(exc).__name__}: {exc})"
    except Exception as exc:  # noqa: BLE001 - a broken CANN install must not break discovery
        return None, f"CANN's 'acl' module failed to import ({type(exc).__name__}: {exc})"


def device_count(acl):
    """``(number of Ascend devices, None)``, or ``(0, reason)``."""
    try:
        count, ret = acl.rt.get_device_count()
    except Exception as exc:  # noqa: BLE001
        return 0, f"{NO_DEVICE} ({type(exc).__name__}: {exc})"
    if ret != 0:
        return 0, f"{NO_DEVICE} (aclrtGetDeviceCount returned error {ret})"
    if count <= 0:
        return 0, NO_DEVICE
    return int(count), None


def probe():
    """The ``Ascend`` target as this machine offers it."""
    acl, reason = import_acl()
    if acl is None:
        return BackendProbe(target=TARGET, available=False, reason=reason, priority=PRIORITY)
    n, reason = device_count(acl)
    if reason:
        return BackendProbe(target=TARGET, available=False, reason=reason, priority=PRIORITY)
    return BackendProbe(target=TARGET, available=True, priority=PRIORITY, device_count=n)


@hookimpl
def ms_plugin_info():
    return {"name": "ascend", "version": __version__, "api_version": PLUGIN_API_VERSION}


@hookimpl
def ms_backend_probe():
    return [probe()]


@hookimpl
def ms_backend_create(target):
    if target != TARGET:
        return None
    p = probe()
    if not p.available:
        raise RuntimeError(f"The Ascend backend is unavailable: {p.reason}. Install the CANN toolkit (which "
                           f"provides the 'acl' Python module) on a machine with an Ascend device.")
    from mindspore import context
    from mindspore_ascend.runtime import AscendRuntime
    return AscendRuntime(device_id=context.get_context("device_id"))


@hookimpl
def ms_environment_info():
    acl, reason = import_acl()
    if acl is None:
        return {"cann": reason}
    n, reason = device_count(acl)
    info = {"ascend_devices": str(n) if not reason else reason}
    try:
        major, minor, patch, ret = acl.get_version()
        if ret == 0:
            info["acl_version"] = f"{major}.{minor}.{patch}"
    except Exception:  # noqa: BLE001 - older CANN has no acl.get_version
        pass
    return info
