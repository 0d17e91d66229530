"""``set_context``/``get_context``: the global execution settings.

``mode`` is ``PYNATIVE_MODE`` (1, the default) or ``GRAPH_MODE`` (0). ``device_target`` selects the
backend; an unusable target fails at ``set_context`` with each candidate's reason and the
``pip install`` that provides it. ``max_device_memory`` ("xxGB") is validated and applied as the
device memory limit (by ``mindspore.runtime``, as ``runtime.set_memory(max_size=...)``). Keys MindSpore
accepts but that do not change behaviour here (other memory sizes, Ascend-only switches) are stored and
returned by ``get_context``; a key MindSpore does not know raises ``ValueError`` as MindSpore does.
"""
from __future__ import annotations

import copy
import enum
import threading

from mindspore._errors import MSTypeError, MSValueError

__all__ = ["set_context", "get_context", "GRAPH_MODE", "PYNATIVE_MODE", "STRICT", "COMPATIBLE", "LAX",
           "ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context",
           "reset_auto_parallel_context", "set_ps_context", "get_ps_context", "set_device", "get_current_device",
           "set_deterministic"]

GRAPH_MODE = 0
PYNATIVE_MODE = 1
STRICT = 0
COMPATIBLE = 1
LAX = 2


class ParallelMode(str, enum.Enum):
    """Parallel modes (values are the strings MindSpore uses)."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"

    def __str__(self):
        return self.value


# MindSpore's ParallelMode also lists its mode strings (the zoo's FastText train cell checks against it)
ParallelMode.MODE_LIST = [m.value for m in ParallelMode]


_DEFAULTS = {
    "mode": PYNATIVE_MODE,
    "device_target": None,  # resolved lazily to the default backend
    "device_id": 0,
    "save_graphs": False,
    "save_graphs_path": ".",
    "jit_syntax_level": LAX,
    "max_call_depth": 1000,
    "enable_graph_kernel": False,
    "graph_kernel_flags": "",
    "max_device_memory": "1024GB",
    "mempool_block_size": "1GB",
    "variable_memory_max_size": "",
    "enable_reduce_precision": True,
    "precompile_only": False,
    "reserve_class_name_in_scope": True,
    "pynative_synchronize": False,
    "check_bprop": False,
    "deterministic": "OFF",
    "print_file_path": "",
    "env_config_path": "",
    "enable_compile_cache": False,
    "compile_cache_path": ".",
    "inter_op_parallel_num": 0,
    "runtime_num_threads": 30,
    "memory_optimize_level": "O0",
    "ascend_config": {},
    "gpu_config": {},
    "jit_config": {},
    "aoe_tune_mode": "",
    "aoe_config": {},
    "op_timeout": 900,
    "enable_auto_mixed_precision": False,
    "enable_dump": False,
    "save_dump_path": ".",
    "auto_tune_mode": "NO_TUNE",
    "enable_sparse": False,
    "grad_for_scalar": False,
    "disable_format_transform": False,
    "support_binary": False,
    "debug_level": 0,
    "exec_order": "bfs",
}

_lock = threading.RLock()
_ctx = dict(_DEFAULTS)


_handlers = {}   # key -> (setter, getter): settings acted on by a layer above (the backend)


def register_handler(key, setter=None, getter=None):
    """Let the layer that acts on setting ``key`` validate and apply it (``setter(value)``, which
    stores it with :func:`store`) and resolve it (``getter()``). Called by those layers at import,
    so that this module, at the bottom, imports none of them."""
    _handlers[key] = (setter, getter)


def store(key, value):
    """Store a setting as given (for handlers, after they validated it)."""
    _ctx[key] = value


def _set_mode(value):
    if value not in (GRAPH_MODE, PYNATIVE_MODE):
        raise MSValueError(f"For 'set_context', the 'mode' must be GRAPH_MODE(0) or PYNATIVE_MODE(1), "
                           f"but got {value!r}.")
    _ctx["mode"] = value


def _check_threads(value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MSValueError(f"For 'set_context', the 'runtime_num_threads' must be a positive int, but got {value!r}.")


# keys of set_context that MindSpore 2.10 warns about (each call), with what replaces them
_DEPRECATED = {
    "save_graphs": "env MS_DEV_SAVE_GRAPHS", "save_graphs_path": "env MS_DEV_SAVE_GRAPHS_PATH", "check_bprop": "",
    "max_call_depth": "api mindspore.set_recursion_limit()", "enable_compile_cache": "env MS_COMPILER_CACHE_ENABLE",
    "enable_cache_path": "env MS_COMPILER_CACHE_PATH", "debug_level": "",
    "device_target": "api mindspore.set_device()", "device_id": "api mindspore.set_device()",
    "deterministic": "api mindspore.set_deterministic()",
    "inter_op_parallel_num": "api mindspore.runtime.dispatch_threads_num()",
    "pynative_synchronize": "api mindspore.runtime.launch_blocking()",
    "max_device_memory": "api mindspore.runtime.set_memory()",
    "variable_memory_max_size": "api mindspore.runtime.set_memory()",
    "mempool_block_size": "api mindspore.runtime.set_memory()",
    "memory_optimize_level": "api mindspore.runtime.set_memory()",
    "ascend_config": "api mindspore.device_context.ascend.op_precision.precision_mode(), "
                     "mindspore.device_context.ascend.op_precision.op_precision_mode(), "
                     "mindspore.device_context.ascend.op_precision.matmul_allow_hf32(), "
                     "mindspore.device_context.ascend.op_precision.conv_allow_hf32(), "
                     "mindspore.device_context.ascend.op_tuning.op_compile()",
    "aoe_tune_mode": "api mindspore.device_context.ascend.op_tuning.aoe_tune_mode()",
    "aoe_config": "api mindspore.device_context.ascend.op_tuning.aoe_job_type()",
    "op_timeout": "api mindspore.device_context.ascend.op_debug.execute_timeout()",
    "op_debug_option": "api mindspore.device_context.ascend.op_debug.debug_option()",
    "gpu_config": "api mindspore.device_context.gpu.op_precision.conv_allow_tf32(), "
                  "mindspore.device_context.gpu.op_precision.matmul_allow_tf32(), "
                  "mindspore.device_context.gpu.op_precision.conv_fprop_algo(), "
                  "mindspore.device_context.gpu.op_precision.conv_wgrad_algo(), "
                  "mindspore.device_context.gpu.op_precision.conv_dgrad_algo()",
    "runtime_num_threads": "api mindspore.device_context.cpu.op_tuning.threads_num()"}
# keys 2.10 refuses: (the version that removed them, what replaces them)
_REMOVED = {"exception_dump": ("2.6", "device_context.ascend.op_debug.aclinit_config()"),
            "precompile_only": ("2.10", "env MS_DEV_PRECOMPILE_ONLY"),
            "grad_for_scalar": ("2.10", "tensor derivative")}


def set_context(**kwargs):
    """Set execution settings: ``mode``, ``device_target``, ``device_id``, ``save_graphs``, ...

    As in MindSpore 2.10, a key with a newer interface logs a deprecation warning (the APIs that replace them,
    ``set_device``, ``set_recursion_limit``, ``runtime.launch_blocking``..., do not), and a removed key raises.

    Examples:
        >>> import mindspore as ms
        >>> ms.set_context(mode=ms.PYNATIVE_MODE)
    """
    for key in kwargs:
        if key in _REMOVED:
            version, new = _REMOVED[key]
            raise MSValueError(f"For 'context.set_context', the parameter '{key}' has been removed since MindSpore "
                               f"{version} version. Please use the {new} instead.")
        if key in _DEPRECATED:
            from mindspore.log import warning   # the logger module (stdlib only), not the package's namespace
            hint = f" Please use the {_DEPRECATED[key]} instead." if _DEPRECATED[key] else ""
            warning(f"For 'context.set_context', the parameter '{key}' will be deprecated and removed in a "
                    f"future version.{hint}")
    _set_context(**kwargs)


def _set_context(**kwargs):
    """``set_context`` without its deprecation warnings: for the APIs that replace the deprecated keys."""
    with _lock:
        for key, value in kwargs.items():
            if key not in _DEFAULTS:
                raise MSValueError(f"For 'context.set_context', the keyword argument {key} is not recognized! For "
                                   f"detailed usage of 'set_context', please refer to the Mindspore official website.")
            if key == "mode":
                _set_mode(value)
                continue
            if key == "jit_syntax_level" and value not in (STRICT, COMPATIBLE, LAX):
                raise MSValueError(f"For 'set_context', the 'jit_syntax_level' must be STRICT, COMPATIBLE or "
                                   f"LAX, but got {value!r}.")
            if key == "runtime_num_threads":
                _check_threads(value)
            setter = _handlers.get(key, (None, None))[0]
            if setter is not None:
                setter(value)
            else:
                _ctx[key] = value


def get_context(attr_key):
    """The value of one setting; ``device_target`` resolves to the backend in use."""
    if attr_key == "device_target_requested":
        return _ctx.get("device_target")
    getter = _handlers.get(attr_key, (None, None))[1]
    if getter is not None:
        return getter()
    if attr_key == "enable_ge":   # read-only in MindSpore: whether graphs run on Ascend's GE; no backend here
        return False             # registers it (libraries' checkpoint callbacks ask)
    if attr_key not in _ctx:
        raise MSValueError(f"For 'context.get_context', the argument {attr_key} is not recognized! For detailed "
                           f"usage of 'get_context', please refer to the Mindspore official website.")
    return _ctx[attr_key]


def set_device(device_target, device_id=None):
    """Select the device target (and id): ``ms.set_device("CPU")``."""
    _set_context(device_target=device_target)
    if device_id is not None:
        _set_context(device_id=device_id)


def get_current_device():
    return get_context("device_target"), get_context("device_id")


_auto_parallel_defaults = {
    "device_num": 1, "global_rank": 0, "gradients_mean": False, "gradient_fp32_sync": True,
    "parallel_mode": ParallelMode.STAND_ALONE.value, "search_mode": "recursive_programming",
    "auto_parallel_search_mode": "recursive_programming", "parameter_broadcast": False,
    "strategy_ckpt_load_file": "", "strategy_ckpt_save_file": "", "full_batch": False,
    "enable_parallel_optimizer": False, "enable_alltoall": False, "all_reduce_fusion_config": [],
    "pipeline_stages": 1, "pipeline_result_broadcast": False, "pipeline_config": {}, "parallel_optimizer_config": {},
    "comm_fusion": {"openstate": True, "allreduce": {"mode": "auto", "config": None},
                    "allgather": {"mode": "auto", "config": None}, "reducescatter": {"mode": "auto", "config": None}},
    "strategy_ckpt_config": {}, "dataset_strategy": "data_parallel", "grad_accumulation_step": 1,
    "auto_pipeline": False, "group_ckpt_save_file": "",
    # AutoParallel's settings (MindSpore 2.10's keys and defaults): reduce collectives in float32, the mean of a
    # repeated loss, the local norms of the gradients (printed, dumped to files, summed on the device)
    "force_fp32_communication": False, "loss_repeated_mean": True, "dump_local_norm": False,
    "dump_local_norm_path": "", "dump_device_local_norm": False, "init_param_in_compile": True,
    "auto_parallel_new_interface": False,
}
_auto_parallel = copy.deepcopy(_auto_parallel_defaults)
_auto_parallel_user_set = set()   # keys the user set since the last reset (MindSpore's ``device_num_is_set``)

# the type MindSpore checks for each key before acting on it (TypeError "The parameter ... must be ...")
_auto_parallel_types = {
    "device_num": int, "global_rank": int, "gradients_mean": bool, "gradient_fp32_sync": bool,
    "parameter_broadcast": bool, "full_batch": bool, "enable_parallel_optimizer": bool, "enable_alltoall": bool,
    "all_reduce_fusion_config": list, "comm_fusion": dict, "pipeline_stages": int, "grad_accumulation_step": int,
    "strategy_ckpt_load_file": str, "strategy_ckpt_save_file": str, "group_ckpt_save_file": str,
    "auto_pipeline": bool, "pipeline_result_broadcast": bool,
    "force_fp32_communication": bool, "loss_repeated_mean": bool, "dump_local_norm_path": str,
}
_FUSION_MODES = ("auto", "index", "size")
_SPLIT = "For 'set_auto_parallel_context().set_all_reduce_fusion_split_indices'"


def _check_split_indices(indices):
    """``all_reduce_fusion_config``: a non-empty ascending list of distinct ints (gradient indices)."""
    if not isinstance(indices, list):
        raise TypeError(f"{_SPLIT}, the argument 'indices' must be list, but got the type : {type(indices)} .")
    if not indices:
        raise MSValueError(f"{_SPLIT}, the argument 'indices' can not be empty")
    for index in indices:
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"{_SPLIT}, the argument 'index' must be int, but got the type : {type(index)} .")
    if len(set(indices)) != len(indices):
        raise MSValueError("The indices has duplicate elements")
    if sorted(indices) != indices:
        raise MSValueError(f"{_SPLIT}, the elements in argument 'indices' must be sorted in ascending order")
    return list(indices)


def _set_comm_fusion(config):
    """Merge a ``comm_fusion`` dict into the current one, checked as MindSpore checks it."""
    current = copy.deepcopy(_auto_parallel["comm_fusion"])
    current["openstate"] = True
    for key, value in config.items():
        if key == "openstate":
            if not isinstance(value, bool):
                raise TypeError(f"For 'comm_fusion', the 'openstate' must be bool, but got the type : {type(value)}.")
            current["openstate"] = value
        elif key in ("allreduce", "allgather", "reducescatter"):
            if not isinstance(value, dict):
                raise TypeError(f"For 'comm_fusion', the '{key}' config must be dict, but got the type : "
                                f"{type(value)}.")
            if "mode" not in value:
                raise KeyError("For 'comm_fusion', the key 'mode' should be contained.")
            if "config" not in value:
                raise KeyError("For 'comm_fusion', the key 'config' should be contained.")
            if value["mode"] not in _FUSION_MODES:
                raise KeyError(f"fusion method mode must be auto, index or size, but got {value['mode']}")
            if value["mode"] == "size" and (isinstance(value["config"], bool) or
                                            not isinstance(value["config"], (int, float)) or value["config"] < 0):
                raise TypeError(f"For 'comm_fusion', the 'config' of mode 'size' must be a non-negative number "
                                f"(MB), but got {value['config']!r}.")
            if key == "allreduce" and value["mode"] == "index":
                _auto_parallel["all_reduce_fusion_config"] = _check_split_indices(value["config"])
            current[key] = {"mode": value["mode"], "config": copy.deepcopy(value["config"])}
        else:
            raise KeyError(f"comm fusion type must be openstate,allreduce, allgather or reducescatter, but got {key}")
    _auto_parallel["comm_fusion"] = current


def set_auto_parallel_context(**kwargs):
    """Set auto-parallel settings: ``parallel_mode`` (a :class:`ParallelMode` or its string), ``gradients_mean``,
    ``parameter_broadcast``, ``all_reduce_fusion_config`` (gradient indices where the all-reduce buckets are
    split), ``comm_fusion`` (``{"allreduce": {"mode": "auto"|"size"|"index", "config": ...}, "openstate": bool}``),
    ``device_num``, ... (acted on by the training wrappers and mindspore-parallel).

    Examples:
        >>> import mindspore as ms
        >>> ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
        >>> ms.get_auto_parallel_context("parallel_mode")
        'data_parallel'
        >>> ms.reset_auto_parallel_context()
    """
    for key, value in kwargs.items():
        if key not in _auto_parallel_defaults:
            raise MSValueError(f"For 'set_auto_parallel_context', the keyword argument '{key}' is not recognized.")
        want = _auto_parallel_types.get(key)
        if want is not None and not (isinstance(value, want) and (want is bool or not isinstance(value, bool))):
            raise TypeError(f"The parameter '{key}' must be {want}, but got {type(value)}")
        if key == "parallel_mode":
            value = value.value if isinstance(value, ParallelMode) else value
            if value not in {m.value for m in ParallelMode}:
                raise MSValueError(f"The context configuration parameter 'parallel_mode' only support 'stand_alone', "
                                   f"'data_parallel', 'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', "
                                   f"but got the value : {value}.")
        elif key == "all_reduce_fusion_config":
            value = _check_split_indices(value)
        elif key == "comm_fusion":
            _set_comm_fusion(value)
            _auto_parallel_user_set.add(key)
            continue
        elif key == "dataset_strategy" and isinstance(value, str):
            # MindSpore's set_dataset_strategy: "full_batch" is full_batch=True ("data_parallel" undoes it)
            if value == "full_batch" or _auto_parallel["dataset_strategy"] == "full_batch":
                _auto_parallel["full_batch"] = value == "full_batch"
        _auto_parallel[key] = value
        _auto_parallel_user_set.add(key)
    _sync_sharding()


def _sync_sharding():
    """SEMI_AUTO_PARALLEL and AUTO_PARALLEL run operators through mindspore-parallel's distributed rules: tell it
    the mode (without that add-on no strategy can be set, and operators run whole)."""
    from mindspore._plugin import manager
    offer = manager.sharding()
    if offer is not None:
        offer["sync"](_auto_parallel["parallel_mode"])


def _auto_parallel_is_set(attr_key):
    """Whether the user set ``attr_key`` (since the last reset); defaults of some keys depend on the world."""
    return attr_key in _auto_parallel_user_set


def get_auto_parallel_context(attr_key):
    """The value of one auto-parallel setting (a copy of list and dict values)."""
    if attr_key not in _auto_parallel:
        raise MSValueError(f"For 'get_auto_parallel_context', the attribute '{attr_key}' is not supported.")
    return copy.deepcopy(_auto_parallel[attr_key])


def reset_auto_parallel_context():
    """Every auto-parallel setting back to its default."""
    _auto_parallel.clear()
    _auto_parallel.update(copy.deepcopy(_auto_parallel_defaults))
    _auto_parallel_user_set.clear()
    _sync_sharding()


# MindSpore 2.10's parameter-server settings (its PSContext), their defaults and types; the passwords are write-only
_ps_defaults = {"server_mode": "PARAMETER_SERVER", "ms_role": "MS_NOT_PS", "enable_ps": False, "worker_num": 0,
                "server_num": 0, "scheduler_ip": "", "scheduler_port": 0, "enable_ssl": False,
                "config_file_path": "", "client_password": "", "server_password": ""}
_ps_context = dict(_ps_defaults)
_PS_WRITE_ONLY = ("client_password", "server_password")


def set_ps_context(**kwargs):
    """Set parameter-server settings (``enable_ps``, ``config_file_path``, ``enable_ssl``, ``client_password``,
    ``server_password``, ...), checked as MindSpore 2.10 checks them. They are recorded only: the parameter-server
    processes (MS_ROLE scheduler/server) are not part of this runtime; training runs as the workers' own
    (DATA_PARALLEL) training, which is what MindSpore 2.10 runs too.

    Examples:
        >>> import mindspore as ms
        >>> ms.set_ps_context(enable_ps=True)
        >>> ms.get_ps_context("enable_ps")
        True
        >>> ms.reset_ps_context()
    """
    for key, value in kwargs.items():
        if key not in _ps_defaults:
            raise MSValueError(f"Set PS context keyword {key} is not recognized!")
        want = type(_ps_defaults[key])
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise MSTypeError(f"The parameter '{key}' must be {want}, but got {type(value)}")
    _ps_context.update(kwargs)


def get_ps_context(attr_key):
    """The value of one parameter-server setting (see :func:`set_ps_context`)."""
    if attr_key not in _ps_defaults or attr_key in _PS_WRITE_ONLY:
        raise MSValueError(f"Get PS context keyword {attr_key} is not recognized!")
    return _ps_context[attr_key]


def reset_ps_context():
    """Every parameter-server setting back to its default."""
    _ps_context.clear()
    _ps_context.update(_ps_defaults)


def set_deterministic(deterministic):
    """Make kernels deterministic (``True``) or not: ``set_context(deterministic="ON"/"OFF")``."""
    if not isinstance(deterministic, bool):
        raise MSTypeError(f"The parameter 'deterministic' must be {bool}, but got {type(deterministic)}")
    _set_context(deterministic="ON" if deterministic else "OFF")
