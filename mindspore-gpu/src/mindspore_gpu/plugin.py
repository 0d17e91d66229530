"""The GPU backend's plugin: the same hooks any third-party backend implements.

CuPy is an optional dependency (``pip install mindspore-gpu[cuda13]`` or ``[cuda12]``), so every hook here works
without it: the probe reports the ``GPU`` target unavailable with the reason, and no kernel is
registered. Nothing here initialises a CUDA context except :func:`ms_backend_create`, which runs
only when the ``GPU`` target is selected.
"""
import importlib

from mindspore.plugin import PLUGIN_API_VERSION, BackendProbe, hookimpl

from mindspore_gpu import __version__

TARGET = "GPU"
#: Above the CPU backend's 0: a usable GPU is the default target.
PRIORITY = 10
NO_CUPY = "cupy is not installed (pip install mindspore-gpu[cuda13] for CUDA 13.x, mindspore-gpu[cuda12] for 12.x)"
NO_DEVICE = "no CUDA device"


def import_cupy():
    """``(cupy module, None)``, or ``(None, reason)`` when CuPy cannot be imported."""
    try:
        return importlib.import_module("cupy"), None
    except ModuleNotFoundError as exc:
        if exc.name == "cupy" or exc.name is None:
            return None, NO_CUPY
        return None, f"cupy failed to import ({type(exc).__name__}: {exc})"
    except Exception as exc:  # noqa: BLE001 - a broken CUDA install must not break discovery
        return None, f"cupy failed to import ({type(exc).__name__}: {exc})"


def device_count(cupy):
    """``(number of CUDA devices, None)``, or ``(0, reason)``."""
    try:
        n = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as exc:  # noqa: BLE001 - CUDARuntimeError when no driver or no device
        return 0, f"{NO_DEVICE} ({type(exc).__name__}: {exc})"
    if n <= 0:
        return 0, NO_DEVICE
    return n, None


def probe():
    """The ``GPU`` target as this machine offers it."""
    cupy, reason = import_cupy()
    if cupy is None:
        return BackendProbe(target=TARGET, available=False, reason=reason, priority=PRIORITY)
    n, reason = device_count(cupy)
    if reason:
        return BackendProbe(target=TARGET, available=False, reason=reason, priority=PRIORITY)
    return BackendProbe(target=TARGET, available=True, priority=PRIORITY, device_count=n)


@hookimpl
def ms_plugin_info():
    return {"name": "gpu", "version": __version__, "api_version": PLUGIN_API_VERSION}


@hookimpl
def ms_backend_probe():
    return [probe()]


@hookimpl
def ms_backend_create(target):
    if target != TARGET:
        return None
    p = probe()
    if not p.available:
        raise RuntimeError(f"The GPU backend is unavailable: {p.reason}.")
    from mindspore import context
    from mindspore_gpu.runtime import GPURuntime
    return GPURuntime(device_id=context.get_context("device_id"))


@hookimpl
def ms_register_kernels(registry):
    cupy, _ = import_cupy()
    if cupy is None:
        return
    from mindspore_gpu.kernels import families
    from mindspore_gpu.kernels._common import retrying
    for family in families():
        for name, fn in family.KERNELS.items():
            # The tables follow the CPU backend's (every primitive it has a kernel for); a primitive this
            # core does not define is skipped rather than registered and refused.
            if registry.knows(name):
                # run once more when a fused CUDA kernel it launched did not compile (then on the plain path)
                registry.register(name, TARGET, retrying(fn))


def fuse_elementwise(graph):
    """The ``gpu_fuse_elementwise`` pass (:mod:`mindspore_gpu.passes`), which imports CuPy only when it runs: on
    the ``GPU`` target."""
    cupy, _ = import_cupy()
    if cupy is None:
        return False
    from mindspore_gpu import passes
    return passes.fuse_elementwise(graph)


@hookimpl
def ms_register_passes(registry):
    registry.register("gpu_fuse_elementwise", fuse_elementwise, target=TARGET, priority=10)


def _cuda_version(v):
    """CUDA's integer version (13020) as text (13.2)."""
    return f"{v // 1000}.{(v % 1000) // 10}"


def _split_version(v):
    """NCCL's integer version: 22805 (2.28.5) from NCCL 2.9 on, 2708 (2.7.8) before."""
    return (v // 10000, v % 10000 // 100, v % 100) if v >= 20900 else (v // 1000, v % 1000 // 100, v % 100)


@hookimpl
def ms_environment_info():
    cupy, reason = import_cupy()
    if cupy is None:
        return {"cupy": reason}
    info = {"cupy": cupy.__version__}
    runtime = driver = None
    try:
        runtime = cupy.cuda.runtime.runtimeGetVersion()
        info["cuda_runtime"] = _cuda_version(runtime)
    except Exception as exc:  # noqa: BLE001
        info["cuda_runtime"] = f"unknown ({type(exc).__name__}: {exc})"
    try:
        driver = cupy.cuda.runtime.driverGetVersion()
        info["cuda_driver"] = f"supports CUDA {_cuda_version(driver)}" if driver else "no NVIDIA driver"
    except Exception as exc:  # noqa: BLE001
        info["cuda_driver"] = f"unknown ({type(exc).__name__}: {exc})"
    if runtime and driver and driver // 1000 < runtime // 1000:
        info["cuda_driver"] += (f": too old for CuPy's CUDA {_cuda_version(runtime)} runtime (update the driver, or "
                                f"install the CuPy wheel of CUDA {driver // 1000}: mindspore-gpu[cuda{driver // 1000}])")
    try:
        from cupy.cuda import nccl
        info["nccl"] = ".".join(str(int(p)) for p in _split_version(nccl.get_version()))
    except Exception as exc:  # noqa: BLE001 - CuPy without NCCL: collectives on GPU tensors go over MPI
        info["nccl"] = f"unavailable ({type(exc).__name__}: {exc}); collectives on GPU tensors copy to the host"
    from mindspore_gpu import cudnn, gemm     # their use for convolutions and matrix products, or why unused
    info["cudnn"] = cudnn.environment_info(cupy)
    info["cublaslt"] = gemm.environment_info(cupy)
    n, reason = device_count(cupy)
    info["cuda_devices"] = str(n) if not reason else reason
    for i in range(n):
        try:
            props = cupy.cuda.runtime.getDeviceProperties(i)
            name = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
            info[f"cuda_device_{i}"] = (f"{name}, {props['totalGlobalMem'] / 2**30:.1f} GiB, compute capability "
                                        f"{props['major']}.{props['minor']}")
        except Exception as exc:  # noqa: BLE001
            info[f"cuda_device_{i}"] = f"unknown ({type(exc).__name__}: {exc})"
    return info
