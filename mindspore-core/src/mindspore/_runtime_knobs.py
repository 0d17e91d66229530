"""The ``mindspore.runtime`` controls of MindSpore 2.10 that steer its Ascend runtime: CPU affinity of the
runtime threads, kernel launch groups and graph capture, cube/vector core limits per device and per stream,
pluggable allocators and memory replay.

Our runtime launches every kernel in the calling thread, so the launch controls are validated with 2.10's
rules (including "can not be set repeatedly" and the group/capture exclusion) and recorded where
:func:`runtime_config` reads them back. Core limits are kept per device id and per stream, read back by
``get_*_limit`` (-1: no limit); the stream limits (``mindspore.runtime``, next to ``Stream``) keep theirs in
:data:`STREAM_LIMITS`. A
``PluggableAllocator`` really loads its shared library and resolves the two functions (``ctypes``), as 2.10
does; ``use_mem_pool`` makes its pool the active one for the body. ``memory_replay`` replays an Ascend memory
trace, so it needs that device, and says so.
"""
from __future__ import annotations

import contextlib
import ctypes
import os

import mindspore.context as context
from mindspore._errors import MSRuntimeError

__all__ = ["set_cpu_affinity", "set_kernel_launch_group", "set_kernel_launch_capture", "set_device_limit",
           "get_device_limit", "PluggableAllocator", "MemPool", "use_mem_pool", "memory_replay", "runtime_config",
           "check_core_limits", "STREAM_LIMITS"]

_CONF = {"thread_bind_core": None, "kernel_launch_group": None, "kernel_launch_capture": None,
         "active_mem_pool": None}
_DEVICE_LIMITS = {}
STREAM_LIMITS = {}   # per stream: read and written by mindspore.runtime's stream limits


def runtime_config():
    """What the runtime controls recorded (a copy)."""
    return dict(_CONF)


def _check_type(value, typ, name, allow_none=False):
    if value is None and allow_none:
        return
    if isinstance(value, bool) and typ is int or not isinstance(value, typ):
        raise TypeError(f"The argument '{name}' must be {typ.__name__}, but got {type(value)}.")


def set_cpu_affinity(enable_affinity, affinity_cpu_list=None, module_to_cpu_dict=None, bind_file=None):
    """Bind MindSpore's runtime threads to CPU cores. Validated and recorded once (a second call is an error,
    as in 2.10); ``affinity_cpu_list`` holds ranges like ``"0-3"``, ``module_to_cpu_dict`` maps a module
    ("main", "runtime", "pynative", "minddata") to indices into that list."""
    if affinity_cpu_list is not None and not isinstance(affinity_cpu_list, (dict, list)):
        raise TypeError(f"The parameter 'affinity_cpu_list' must be list or dict, but got {type(affinity_cpu_list)}.")
    if _CONF["thread_bind_core"] is not None:
        raise RuntimeError("The 'mindspore.runtime.set_cpu_affinity' cannot be set repeatedly.")
    if not enable_affinity:
        _CONF["thread_bind_core"] = {}
        return
    cpus = []
    ranges = affinity_cpu_list.values() if isinstance(affinity_cpu_list, dict) else [affinity_cpu_list or []]
    for group in ranges:
        for item in group:
            if not isinstance(item, str) or item.count("-") != 1:
                raise ValueError(f"The element of 'affinity_cpu_list' must be a range string like '0-9', but got "
                                 f"{item!r}.")
            lo, hi = (int(x) for x in item.split("-"))
            if lo > hi:
                raise ValueError(f"The range '{item}' in 'affinity_cpu_list' is invalid: {lo} > {hi}.")
            cpus.extend(range(lo, hi + 1))
    if module_to_cpu_dict is not None:
        if not isinstance(module_to_cpu_dict, dict):
            raise TypeError(f"The parameter 'module_to_cpu_dict' must be dict, but got {type(module_to_cpu_dict)}.")
        for module, idx in module_to_cpu_dict.items():
            if module not in ("main", "runtime", "pynative", "minddata"):
                raise ValueError(f"The key of 'module_to_cpu_dict' must be one of ['main', 'runtime', 'pynative', "
                                 f"'minddata'], but got {module!r}.")
            if not isinstance(idx, list) or not all(isinstance(i, int) and i >= 0 for i in idx):
                raise TypeError(f"The value of 'module_to_cpu_dict' must be a list of non-negative int, but got "
                                f"{idx!r}.")
    if bind_file is not None:
        bind_file = os.path.abspath(bind_file)
    available = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else list(range(os.cpu_count()))
    _CONF["thread_bind_core"] = {"cpus": cpus or available, "modules": dict(module_to_cpu_dict or {}),
                                 "bind_file": bind_file}


def set_kernel_launch_group(thread_num=2, kernel_group_num=8):
    """Launch kernels in ``kernel_group_num`` groups over ``thread_num`` threads (2.10's checks; recorded)."""
    _check_type(thread_num, int, "thread_num")
    _check_type(kernel_group_num, int, "kernel_group_num")
    if _CONF["kernel_launch_group"] is not None:
        raise RuntimeError("The 'kernel_launch_group' can not be set repeatedly.")
    if _CONF["kernel_launch_capture"] and _CONF["kernel_launch_capture"][0]:
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set together")
    if thread_num < 1:
        raise ValueError(f"The value of thread_num should be at least 1, but got {thread_num}")
    if kernel_group_num < 1:
        raise ValueError(f"The value of kernel_group_num should be at least 1, but got {kernel_group_num}")
    if kernel_group_num % thread_num != 0:
        raise ValueError(f"Invalid parameter value, kernel_group_num: {kernel_group_num} cannot be evenly divisible "
                         f"by thread_num: {thread_num}")
    _CONF["kernel_launch_group"] = (thread_num, kernel_group_num)


def set_kernel_launch_capture(enable_capture_graph, op_capture_skip=None):
    """Capture kernel launches into a device graph (skipping the op types in ``op_capture_skip``)."""
    _check_type(enable_capture_graph, bool, "enable_capture_graph")
    if _CONF["kernel_launch_group"] is not None:
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set together")
    if op_capture_skip is None:
        op_capture_skip = []
    if not isinstance(op_capture_skip, list):
        raise TypeError("op_capture_skip must be a list")
    _CONF["kernel_launch_capture"] = (enable_capture_graph, list(op_capture_skip))


def check_core_limits(cube_num, vector_num, api):
    for name, v in (("cube_num", cube_num), ("vector_num", vector_num)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"For '{api}', the argument '{name}' must be int, but got {type(v)}.")
        if v < -1 or v == 0:
            raise ValueError(f"For '{api}', the argument '{name}' must be -1 (no limit) or positive, but got {v}.")


def _device_key(device):
    if isinstance(device, bool) or not isinstance(device, (int, str)):
        raise TypeError(f"The argument 'device' must be int or str, but got {type(device)}.")
    return device if isinstance(device, int) else str(device)


def set_device_limit(device, cube_num=-1, vector_num=-1):
    """Limit the cube and vector cores the operators on ``device`` use (-1: no limit)."""
    check_core_limits(cube_num, vector_num, "set_device_limit")
    _DEVICE_LIMITS[_device_key(device)] = (cube_num, vector_num)


def get_device_limit(device):
    """The core limits of ``device``: ``{'cube_core_num': ..., 'vector_core_num': ...}``."""
    cube, vector = _DEVICE_LIMITS.get(_device_key(device), (-1, -1))
    return {"cube_core_num": cube, "vector_core_num": vector}


class PluggableAllocator:
    """A device allocator in a shared library: ``alloc_fn_name`` and ``free_fn_name`` are resolved in
    ``path_to_so_file`` (``OSError`` when the library can not be loaded, as from ``ctypes``)."""

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str):
        lib = ctypes.CDLL(path_to_so_file)
        alloc_fn = ctypes.cast(getattr(lib, alloc_fn_name), ctypes.c_void_p).value
        free_fn = ctypes.cast(getattr(lib, free_fn_name), ctypes.c_void_p).value
        if alloc_fn is None:
            raise ValueError(f"Cannot find allocator function {alloc_fn_name} in {path_to_so_file}")
        if free_fn is None:
            raise ValueError(f"Cannot find free function {free_fn_name} in {path_to_so_file}")
        self._lib = lib
        self._alloc_fn = alloc_fn
        self._free_fn = free_fn

    @property
    def alloc_fn_ptr(self) -> int:
        """The address of the allocation function."""
        return self._alloc_fn

    @property
    def free_fn_ptr(self) -> int:
        """The address of the free function."""
        return self._free_fn


class MemPool:
    """A memory pool served by a :class:`PluggableAllocator`."""

    def __init__(self, allocator: PluggableAllocator):
        if not isinstance(allocator, PluggableAllocator):
            raise TypeError(f"For 'MemPool', the 'allocator' must be PluggableAllocator, but got {type(allocator)}.")
        self._allocator = allocator

    @property
    def allocator(self) -> PluggableAllocator:
        """The pool's allocator."""
        return self._allocator


@contextlib.contextmanager
def use_mem_pool(pool: MemPool):
    """Make ``pool`` the active memory pool for the body (``runtime_config()['active_mem_pool']``)."""
    if not isinstance(pool, MemPool):
        raise TypeError(f"For 'use_mem_pool', the 'pool' must be MemPool, but got {type(pool)}.")
    prev = _CONF["active_mem_pool"]
    _CONF["active_mem_pool"] = pool
    try:
        yield
    finally:
        _CONF["active_mem_pool"] = prev


def memory_replay(file_path):
    """Replay a memory trace recorded by Ascend's memory tracker, to reproduce its allocations."""
    path = os.path.realpath(file_path)
    target = context.get_context("device_target")
    if target != "Ascend":
        raise MSRuntimeError(f"For 'memory_replay', replaying the memory trace '{path}' needs the Ascend device "
                             f"runtime, but the current device target is {target}.")
    raise MSRuntimeError(f"For 'memory_replay', the Ascend runtime in use does not record memory traces; "
                         f"'{path}' can not be replayed.")
