"""The plugin's hooks (entry point ``simnpu`` in the ``mindspore.plugins`` group).

This is the whole integration with MindSpore: the hooks below, through :mod:`mindspore.plugin`.
"""
import os

from mindspore.plugin import BackendProbe, MSRuntimeError, hookimpl

from ms_simnpu import __version__
from ms_simnpu.runtime import TARGET

#: The plugin API this package was written against (``mindspore.plugin.PLUGIN_API_VERSION`` of that core): a
#: core of another major version reports the plugin as incompatible instead of calling it.
API_VERSION = (2, 0)
#: Above the CPU backend's 0 (and below a usable GPU's 10): installed without a GPU, SimNPU is the default.
PRIORITY = 5
#: ``MS_SIMNPU_DEVICES=0`` hides the simulated device, to see how core reports an unusable target.
DEVICES_VAR = "MS_SIMNPU_DEVICES"
INSTALL_HINT = "pip install ./examples/third_party_backend"

#: The runtimes created in this process (one per selection of the target).
RUNTIMES = []


def _device_count():
    value = os.environ.get(DEVICES_VAR, "1")
    try:
        return max(0, int(value))
    except ValueError:
        return 0


def probe():
    n = _device_count()
    if n == 0:
        return BackendProbe(target=TARGET, available=False, reason=f"no SimNPU device ({DEVICES_VAR}="
                            f"{os.environ.get(DEVICES_VAR)!r})", priority=PRIORITY, install_hint=INSTALL_HINT)
    return BackendProbe(target=TARGET, available=True, priority=PRIORITY, device_count=n, install_hint=INSTALL_HINT)


@hookimpl
def ms_plugin_info():
    return {"name": "simnpu", "version": __version__, "api_version": API_VERSION}


@hookimpl
def ms_backend_probe():
    return [probe()]


@hookimpl
def ms_backend_create(target):
    if target != TARGET:
        return None
    if not probe().available:
        raise MSRuntimeError(f"The SimNPU backend is unavailable: {probe().reason}.")
    from ms_simnpu.runtime import SimNPURuntime
    runtime = SimNPURuntime()
    RUNTIMES.append(runtime)
    return runtime


@hookimpl
def ms_register_kernels(registry):
    from ms_simnpu.kernels import all_kernels
    for name, (fn, dtypes) in all_kernels().items():
        registry.register(name, TARGET, fn, dtypes=dtypes)


@hookimpl
def ms_environment_info():
    return {"device": f"{_device_count()} simulated NPU(s): NumPy on the host, behind an opaque buffer type"}
