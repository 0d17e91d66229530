"""The CPU backend's plugin: the same hooks any third-party backend implements."""
import os
import platform

from mindspore.plugin import PLUGIN_API_VERSION, BackendProbe, hookimpl

from mindspore_cpu import __version__
from mindspore_cpu.kernels import FAMILIES


@hookimpl
def ms_plugin_info():
    return {"name": "cpu", "version": __version__, "api_version": PLUGIN_API_VERSION}


@hookimpl
def ms_backend_probe():
    return [BackendProbe(target="CPU", available=True, priority=0, device_count=1)]


@hookimpl
def ms_backend_create(target):
    if target != "CPU":
        return None
    from mindspore_cpu.runtime import CPURuntime
    return CPURuntime()


@hookimpl
def ms_register_kernels(registry):
    for family in FAMILIES:
        for name, fn in family.KERNELS.items():
            registry.register(name, "CPU", fn)


@hookimpl
def ms_register_passes(registry):
    from mindspore_cpu import passes
    passes.register(registry)


@hookimpl
def ms_random_fills():
    # MindSpore 2.10's random fills of initial weights in C++ (_csrc/philox_fill.cpp): the same bits as core's
    # NumPy fills, several times faster, split over the kernels' threads; none from an extension built without them
    from mindspore_cpu.kernels._native import _kernels
    fills = {kind: getattr(_kernels, "philox_" + kind, None) for kind in ("uniform", "normal", "truncated_normal")}
    return {kind: fn for kind, fn in fills.items() if fn is not None}


@hookimpl
def ms_environment_info():
    info = {"cpu": platform.processor() or platform.machine(), "cpu_count": str(os.cpu_count())}
    try:
        from mindspore_cpu.kernels._native import _kernels
        info["cpu_cxx_kernels"] = f"built, {_kernels.num_threads()} threads, GEMM micro-kernels {_kernels.gemm_isa()}"
    except ImportError as exc:
        info["cpu_cxx_kernels"] = f"unavailable ({exc})"
    return info
