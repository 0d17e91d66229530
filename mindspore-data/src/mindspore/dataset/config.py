"""Global settings of data pipelines, as in ``mindspore.dataset.config``.

Values are stored per process. Defaults are MindSpore's: seed 5489 (the default seed of the
Mersenne Twister MindSpore's data engine uses), 8 parallel workers or fewer on a host with fewer CPUs, prefetch of
16 rows.
``set_seed`` also seeds Python's ``random`` and ``numpy.random``, as MindSpore does, so that
Python-side random transforms are reproducible.

Randomness of pipelines. As in MindSpore's engine (``GetSeed`` in ``util/random.h``), a seed equal to
the default 5489 means "not set": each pipeline then draws a fresh seed from the OS, so shuffles differ
from run to run; any other seed makes every shuffle, random sampler and random transform reproducible,
with 2.10's own draws. Random transforms draw from :func:`_op_engine` (2.10's per-operation, per-map-worker
``std::mt19937``: see :class:`_WorkerEngines`), so, as in 2.10, their results depend on
``num_parallel_workers``; the few that do not reproduce 2.10's draws use :func:`_transform_rng`, a NumPy
``Generator`` that the engine re-seeds for every row from (pipeline seed, map node, pass, row position).
"""
import logging
import multiprocessing
import os
import random
import threading

import numpy as np

import mindspore

__all__ = ["set_seed", "get_seed", "set_num_parallel_workers", "get_num_parallel_workers",
           "set_prefetch_size", "get_prefetch_size", "set_enable_shared_mem", "get_enable_shared_mem",
           "set_numa_enable", "get_numa_enable", "set_monitor_sampling_interval", "get_monitor_sampling_interval",
           "set_callback_timeout", "get_callback_timeout", "set_auto_num_workers", "get_auto_num_workers",
           "set_sending_batches", "set_enable_autotune", "get_enable_autotune", "set_autotune_interval",
           "get_autotune_interval", "set_auto_offload", "get_auto_offload", "set_enable_watchdog",
           "get_enable_watchdog", "set_multiprocessing_timeout_interval", "get_multiprocessing_timeout_interval",
           "set_debug_mode", "get_debug_mode", "set_error_samples_mode", "get_error_samples_mode", "ErrorSamplesMode",
           "load"]

UINT32_MAX = 4294967295
INT32_MAX = 2147483647

DEFAULT_SEED = 5489
_logger = logging.getLogger("mindspore")

# MindSpore's engine caps its default of 8 workers at the host's CPU count (ConfigManager, hardware_concurrency)
_DEFAULTS = {"seed": DEFAULT_SEED, "num_parallel_workers": min(8, os.cpu_count() or 1), "prefetch_size": 16,
             "enable_shared_mem": True,
             "numa_enable": False, "monitor_sampling_interval": 1000, "callback_timeout": 60,
             "auto_num_workers": False, "sending_batches": 0, "enable_autotune": False, "autotune_interval": 0,
             "auto_offload": False, "enable_watchdog": True, "multiprocessing_timeout_interval": 300,
             "debug_mode": False, "error_samples_mode": "return"}
_lock = threading.Lock()
_config = dict(_DEFAULTS)
# ``mindspore.set_seed`` seeds the pipelines too, as MindSpore's does: one called before this module is loaded is
# read here, one called after sets it through set_seed below
if mindspore.get_seed() is not None:
    _config["seed"] = mindspore.get_seed()


def _check_int(api, name, value, low, high):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{api}', the '{name}' must be int, but got {type(value).__name__}.")
    if not low <= value <= high:
        raise ValueError(f"For '{api}', the '{name}' must be in [{low}, {high}], but got {value}.")


def set_seed(seed):
    """Set the seed of the random generators of data pipelines.

    Also seeds Python's ``random`` and ``numpy.random``.

    Args:
        seed (int): the seed, in [0, 4294967295].

    Raises:
        TypeError: ``seed`` is not an int.
        ValueError: ``seed`` is negative or larger than 4294967295.

    Examples:
        >>> import mindspore.dataset as ds
        >>> ds.config.set_seed(1000)
    """
    _check_int("set_seed", "seed", seed, 0, UINT32_MAX)
    with _lock:
        _config["seed"] = seed
        _RngState.version += 1
        random.seed(seed)
        np.random.seed(seed)


def get_seed():
    """The seed of data pipelines (5489 unless :func:`set_seed` was called).

    Examples:
        >>> import mindspore.dataset as ds
        >>> seed = ds.config.get_seed()
    """
    return _config["seed"]


def set_num_parallel_workers(num):
    """Set the default number of parallel workers of each data operation.

    Args:
        num (int): number of workers, from 1 to the host's CPU count.

    Raises:
        TypeError: ``num`` is not an int.
        ValueError: ``num`` is not positive or above 2147483647.
        RuntimeError: ``num`` is above the host's CPU count (as 2.10's config manager refuses it).

    Examples:
        >>> import mindspore.dataset as ds
        >>> ds.config.set_num_parallel_workers(1)
    """
    if not isinstance(num, int) or isinstance(num, bool):
        raise TypeError("num isn't of type int.")
    if not 0 < num <= INT32_MAX:
        raise ValueError("Number of parallel workers given is not within the required range (0, "
                         "INT32_MAX(2147483647)].")
    cpus = multiprocessing.cpu_count()
    if num > cpus:
        raise RuntimeError(f"Invalid Parameter, num_parallel_workers exceeds the boundary between 1 and {cpus}, "
                           f"as got {num}.")
    with _lock:
        _config["num_parallel_workers"] = num


def get_num_parallel_workers():
    """The default number of parallel workers (unless set: 8, or the host's CPU count where that is smaller).

    Examples:
        >>> import mindspore.dataset as ds
        >>> n = ds.config.get_num_parallel_workers()
    """
    return _config["num_parallel_workers"]


def set_prefetch_size(size):
    """Set the number of rows each pipeline stage prefetches.

    Args:
        size (int): rows to prefetch, in [1, 2147483647].

    Raises:
        TypeError: ``size`` is not an int.
        ValueError: ``size`` is not positive or too large.

    Examples:
        >>> import mindspore.dataset as ds
        >>> ds.config.set_prefetch_size(2)
    """
    _check_int("set_prefetch_size", "size", size, 1, INT32_MAX)
    with _lock:
        _config["prefetch_size"] = size


def get_prefetch_size():
    """The number of rows each stage prefetches (16 unless set).

    Examples:
        >>> import mindspore.dataset as ds
        >>> size = ds.config.get_prefetch_size()
    """
    return _config["prefetch_size"]


def _bool_setter(key, api):
    def setter(value):
        if not isinstance(value, bool):
            raise TypeError(f"For '{api}', the argument must be bool, but got {type(value).__name__}.")
        _config[key] = value
    return setter


def set_enable_shared_mem(enable):
    """Set whether worker processes pass large arrays through shared memory (default True).

    Args:
        enable (bool): use shared memory.

    Examples:
        >>> import mindspore.dataset as ds
        >>> ds.config.set_enable_shared_mem(True)
    """
    _bool_setter("enable_shared_mem", "set_enable_shared_mem")(enable)


def get_enable_shared_mem():
    """Whether worker processes pass large arrays through shared memory."""
    return _config["enable_shared_mem"]


def set_numa_enable(numa_enable):
    """Set whether to bind workers to NUMA nodes. Accepted and stored; binding is left to the OS here.

    Args:
        numa_enable (bool): the setting.
    """
    _bool_setter("numa_enable", "set_numa_enable")(numa_enable)


def get_numa_enable():
    """The NUMA binding setting (False unless set)."""
    return _config["numa_enable"]


def set_monitor_sampling_interval(interval):
    """Set the interval (ms) of the performance monitor.

    Args:
        interval (int): milliseconds, in [0, 2147483647].
    """
    _check_int("set_monitor_sampling_interval", "interval", interval, 0, INT32_MAX)
    _config["monitor_sampling_interval"] = interval


def get_monitor_sampling_interval():
    """The interval (ms) of the performance monitor."""
    return _config["monitor_sampling_interval"]


def set_callback_timeout(timeout):
    """Set the timeout (s) of ``sync_wait`` callbacks.

    Args:
        timeout (int): seconds, in [1, 2147483647].
    """
    _check_int("set_callback_timeout", "timeout", timeout, 1, INT32_MAX)
    _config["callback_timeout"] = timeout


def get_callback_timeout():
    """The timeout (s) of ``sync_wait`` callbacks."""
    return _config["callback_timeout"]


def set_auto_num_workers(enable):
    """Set whether the number of workers is chosen automatically. Stored; worker counts here are explicit.

    Args:
        enable (bool): the setting.
    """
    _bool_setter("auto_num_workers", "set_auto_num_workers")(enable)


def get_auto_num_workers():
    """The automatic worker-count setting."""
    return _config["auto_num_workers"]


def set_sending_batches(batch_num):
    """Set the number of batches sent to the device in sink mode (0: no limit).

    Args:
        batch_num (int): batches, in [0, 2147483647].
    """
    _check_int("set_sending_batches", "batch_num", batch_num, 0, INT32_MAX)
    _config["sending_batches"] = batch_num


def set_enable_autotune(enable, filepath_prefix=None):
    """Set whether Dataset AutoTune runs. Worker counts here stay as configured; with ``filepath_prefix``, each
    pipeline run saves its configuration to ``<filepath_prefix>_<rank id>.json`` when its first epoch ends
    (``ds.deserialize(json_filepath=...)`` rebuilds it), as MindSpore's AutoTune saves its recommendation.

    Args:
        enable (bool): the setting.
        filepath_prefix (str, optional): where to save the configuration. Default: ``None`` (not saved).

    Raises:
        TypeError: ``enable`` is not a bool or ``filepath_prefix`` not a str.
        RuntimeError: ``filepath_prefix`` is the empty string while enabling.
    """
    if not isinstance(enable, bool):
        raise TypeError("enable must be of type bool.")
    if filepath_prefix and not isinstance(filepath_prefix, str):
        raise TypeError(f"json_filepath must be a str value but was: {filepath_prefix}.")
    if enable and filepath_prefix == "":
        raise RuntimeError("The value of json_filepath cannot be the empty string.")
    if not enable and filepath_prefix is not None:
        _logger.warning("The value of json_filepath is ignored when enable is False.")
    _config["enable_autotune"] = enable
    _config["autotune_filepath"] = filepath_prefix if enable else None


def get_enable_autotune():
    """The autotune setting."""
    return _config["enable_autotune"]


def set_autotune_interval(interval):
    """Set the autotune interval (steps).

    Args:
        interval (int): steps, in [0, 2147483647].
    """
    if not isinstance(interval, int) or isinstance(interval, bool):
        raise TypeError("interval must be of type int.")
    if interval < 0 or interval > INT32_MAX:
        raise ValueError("Interval given is not within the required range [0, INT32_MAX(2147483647)].")
    _config["autotune_interval"] = interval


def get_autotune_interval():
    """The autotune interval."""
    return _config["autotune_interval"]


def set_auto_offload(offload):
    """Set automatic offload of map operations to the device: maps whose ``offload`` is None offload their
    trailing supported operations (see ``mindspore/dataset/engine/offload.py``).

    Args:
        offload (bool): the setting.
    """
    if not isinstance(offload, bool):
        raise TypeError("offload must be a bool dtype")
    _config["auto_offload"] = offload


def get_auto_offload():
    """The automatic offload setting."""
    return _config["auto_offload"]


def set_enable_watchdog(enable):
    """Set whether the watchdog of worker processes runs.

    Args:
        enable (bool): the setting.
    """
    _bool_setter("enable_watchdog", "set_enable_watchdog")(enable)


def get_enable_watchdog():
    """The watchdog setting."""
    return _config["enable_watchdog"]


def set_multiprocessing_timeout_interval(interval):
    """Set how often (s) a slow worker process is reported.

    Args:
        interval (int): seconds, in [1, 2147483647].
    """
    _check_int("set_multiprocessing_timeout_interval", "interval", interval, 1, INT32_MAX)
    _config["multiprocessing_timeout_interval"] = interval


def get_multiprocessing_timeout_interval():
    """How often (s) a slow worker process is reported."""
    return _config["multiprocessing_timeout_interval"]


_debug_hooks = []


def set_debug_mode(debug_mode_flag, debug_hook_list=None):
    """Set the pipeline debug mode: every operation runs in the calling thread, without workers, and each ``map``
    made while it is on runs the debug hooks before its first operation and after each one (see
    :mod:`mindspore.dataset.debug`).

    Args:
        debug_mode_flag (bool): the setting.
        debug_hook_list (list[DebugHook], optional): the hooks. Default: ``None``, a
            :class:`~mindspore.dataset.debug.PrintMetaDataHook`.

    Raises:
        TypeError: ``debug_mode_flag`` is not a bool, ``debug_hook_list`` not a list, or an item not a DebugHook.
    """
    from mindspore.dataset.debug import DebugHook, PrintMetaDataHook
    if not isinstance(debug_mode_flag, bool):
        raise TypeError("debug_mode_flag isn't of type boolean.")
    if debug_hook_list is None:
        debug_hook_list = [PrintMetaDataHook()]
    if not isinstance(debug_hook_list, list):
        raise TypeError("debug_hook_list is not a list.")
    if not all(isinstance(hook, DebugHook) for hook in debug_hook_list):
        raise TypeError("All items in debug_hook_list must be of type DebugHook.")
    if debug_hook_list:
        _debug_hooks[:] = debug_hook_list
    _config["debug_mode"] = debug_mode_flag


def _get_debug_hook_list():
    """The hooks a ``map`` made in debug mode runs around each of its operations."""
    return list(_debug_hooks)


def get_debug_mode():
    """Whether the debug mode is on."""
    return _config["debug_mode"]


class ErrorSamplesMode:
    """How a pipeline treats a row whose processing fails: RETURN raises the error (the only mode honoured here)."""
    RETURN = "return"
    REPLACE = "replace"
    SKIP = "skip"


def set_error_samples_mode(error_samples_mode):
    """Set how failing rows are treated (stored; failing rows always raise here).

    Args:
        error_samples_mode (str): one of ``ErrorSamplesMode``'s values.
    """
    if error_samples_mode not in (ErrorSamplesMode.RETURN, ErrorSamplesMode.REPLACE, ErrorSamplesMode.SKIP):
        raise ValueError(f"For 'set_error_samples_mode', the mode must be one of 'return', 'replace', 'skip', "
                         f"but got {error_samples_mode!r}.")
    _config["error_samples_mode"] = error_samples_mode


def get_error_samples_mode():
    """How failing rows are treated."""
    return _config["error_samples_mode"]


def load(file):
    """Load settings from a JSON file, as MindSpore's ``config.load``.

    The keys are MindSpore's: ``seed``, ``numParallelWorkers``, ``prefetchSize`` (others are ignored).

    Args:
        file (str): path of the JSON file.

    Raises:
        RuntimeError: the file cannot be read or parsed.
    """
    import json
    try:
        with open(file, encoding="utf-8") as handle:
            values = json.load(handle)
    except (OSError, ValueError) as err:
        raise RuntimeError(f"For 'load', the config file '{file}' cannot be read: {err}") from err
    if "seed" in values:
        set_seed(values["seed"])
    if "numParallelWorkers" in values:
        set_num_parallel_workers(values["numParallelWorkers"])
    if "prefetchSize" in values:
        set_prefetch_size(values["prefetchSize"])


# ---------------------------------------------------------------------------------------------------------------
# Randomness of pipelines (engine internals; transforms only call _transform_rng()).

class _RngState(threading.local):
    """Per-thread: the row context the engine set, and the generator for eager (out-of-pipeline) calls."""
    version = 0          # class attribute: bumped by set_seed, shared by all threads

    def __init__(self):
        super().__init__()
        self.key = None            # (pipeline seed, node, pass, position) of the row being processed
        self.gen = None            # generator of that row, created on first use
        self.eager = None
        self.eager_version = -1
        self.engines = None        # the _WorkerEngines of the map row being processed
        self.eager_seed = None     # the seed of eager calls in a python_multiprocessing map row


_rng_state = _RngState()


def _pipeline_seed():
    """The seed of a new pipeline: the configured one, or when it was never set, 1 in the debug mode (as MindSpore,
    so that a debugged pipeline gives the same rows every run) and else a fresh one from the OS."""
    seed = _config["seed"]
    if seed == DEFAULT_SEED:
        return 1 if _config["debug_mode"] else int(np.random.SeedSequence().generate_state(1)[0])
    return seed


def _set_row_context(key):
    """Engine: the next random draws of this thread belong to the row identified by ``key`` (a tuple of ints)."""
    _rng_state.key = key
    _rng_state.gen = None


def _clear_row_context():
    _rng_state.key = None
    _rng_state.gen = None
    _rng_state.engines = None
    _rng_state.eager_seed = None


def _set_eager_seed(seed):
    """Engine: the random operations of this thread's current row run eagerly, seeded with ``seed`` (2.10's
    python_multiprocessing maps, whose worker process w runs with the pipeline seed + w)."""
    _rng_state.eager_seed = seed


class _WorkerEngines:
    """The random engines of one map worker of 2.10's ``MapOp``, for the life of an iterator.

    2.10 gives each of a map's ``num_parallel_workers`` workers its own copy of the map's operations, and every
    random operation its own ``std::mt19937``: seeded at iterator creation with the pipeline seed plus the worker's
    number for the map's own operations, with the pipeline seed alone for operations nested in them (the
    transforms of ``RandomChoice``, ``RandomApply``, ``RandomSelectSubpolicy``...). Row ``g`` of the map (rows and
    end-of-epoch markers counted together, over all epochs) goes to worker ``g % num_parallel_workers``, which
    processes its rows in order, so its engines advance by exactly that worker's rows.
    """

    def __init__(self, seed, worker, top_level):
        self.seed = seed
        self.worker = worker
        self.top_level = top_level      # ids of the map's own operations
        self.streams = {}

    def stream(self, op):
        stream = self.streams.get(id(op))
        if stream is None:
            from mindspore.dataset.engine.cxx_random import MT19937Stream
            seed = self.seed + self.worker if id(op) in self.top_level else self.seed
            stream = self.streams[id(op)] = MT19937Stream(seed & UINT32_MAX)
        return stream


def _set_worker_engines(engines):
    """Engine: the random operations of this thread's current row draw from ``engines`` (a _WorkerEngines)."""
    _rng_state.engines = engines


def _op_engine(op):
    """The ``std::mt19937`` (a ``cxx_random.MT19937Stream``) the random operation ``op`` draws from, as 2.10's.

    Inside a map: the engine of ``op`` in the copy of the map's worker that 2.10 gives the row (see
    _WorkerEngines). Called eagerly: 2.10 builds a new C++ operation on every call, seeded afresh, so every call
    gets a new engine seeded with the configured seed (a fresh seed from the OS when none was set): with a seed, an
    eager random operation draws the same numbers on every call.
    """
    engines = getattr(_rng_state, "engines", None)
    if engines is not None:
        return engines.stream(op)
    from mindspore.dataset.engine.cxx_random import MT19937Stream
    seed = getattr(_rng_state, "eager_seed", None)
    if seed is None:
        seed = _config["seed"]
        if seed == DEFAULT_SEED:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
    return MT19937Stream(seed & UINT32_MAX)


def _transform_rng():
    """The ``numpy.random.Generator`` random transforms must draw from.

    Inside a pipeline it is seeded from (pipeline seed, map node, pass, row position), so a row gets the same
    draws whichever worker processes it. Outside a pipeline (a transform called eagerly) it is one generator per
    thread, seeded from the configured seed (from the OS when no seed was set) and re-seeded by ``set_seed``.
    """
    state = _rng_state
    if state.key is not None:
        if state.gen is None:
            state.gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence(state.key)))
        return state.gen
    if state.eager is None or state.eager_version != _RngState.version:
        seed = _config["seed"]
        state.eager = np.random.default_rng(None if seed == DEFAULT_SEED else seed)
        state.eager_version = _RngState.version
    return state.eager
