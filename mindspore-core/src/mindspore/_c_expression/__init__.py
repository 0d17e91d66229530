"""Stand-ins, in Python, for names of MindSpore's C++ extension module ``mindspore._c_expression`` that libraries
written for MindSpore import directly (MindOne's diffusers: ``from mindspore._c_expression.amp import AmpLevel,
create_amp_strategy``; MindNLP: ``MSContext``, ``typing``, ``TensorPy``, the framework profiler's step marks, the
random fills ``_random_uniform``/``_random_normal``/``_truncated_normal``). Only such names live here, each a
re-export of the implementation at its public path, or, for a name that has none (``MSContext``, ``ParamInfo``,
the random fills), a small function or class with 2.10's behaviour on the backends here."""
from mindspore._c_expression import typing  # noqa: F401
from mindspore.common.tensor import Tensor as TensorPy  # noqa: F401  (2.10: the C++ base class of Tensor)
from mindspore.profiler._collector import framework_step_end as _framework_profiler_step_end  # noqa: F401
from mindspore.profiler._collector import framework_step_start as _framework_profiler_step_start  # noqa: F401


class MSContext:
    """The process's context singleton (``MSContext.get_instance()``) as libraries query it: MindNLP reads
    ``get_ascend_soc_version()`` to pick Ascend-specific settings. No Ascend SoC is present on the backends here,
    so it is ``""``, what 2.10 answers on CPU and GPU."""

    _instance = None

    @classmethod
    def get_instance(cls):
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def get_ascend_soc_version(self):
        return ""


class ParamInfo:
    """A parameter's description (``Tensor.param_info``): MindNLP's own ``Parameter`` (a Tensor subclass) keeps its
    name, shape and trainability in one. The attributes and their defaults are 2.10's; shapes read back as lists."""

    _DEFAULTS = {"name": "Parameter", "requires_grad": True, "layerwise_parallel": False, "parallel_optimizer": True,
                 "parallel_optimizer_comm_recompute": False, "comm_fusion": 1, "key": -1, "cache_enable": False,
                 "requires_aggr": True, "is_param_init": False, "is_pipeline_shared_param": False,
                 "is_in_pynative_shard": False, "interleaved_parallel": False, "is_quant_int4": False,
                 "use_persistent_storage": False, "storage_format": ""}
    _SHAPES = ("parameter_shape", "cache_shape", "origin_shape", "quant_shape", "param_strategy", "device_matrix",
               "tensor_map", "alias_name")

    def __init__(self):
        self.__dict__.update(self._DEFAULTS)
        for name in self._SHAPES:
            self.__dict__[name] = []

    def __setattr__(self, name, value):
        if name in self._SHAPES:
            value = list(value)
        elif name in self._DEFAULTS and type(value) is not type(self._DEFAULTS[name]) and not (
                isinstance(value, int) and not isinstance(value, bool) and type(self._DEFAULTS[name]) is int):
            want = type(self._DEFAULTS[name]).__name__
            raise TypeError(f"For 'ParamInfo', the '{name}' must be {want}, but got {type(value).__name__}.")
        object.__setattr__(self, name, value)

    def clone(self):
        """A copy of this description."""
        other = ParamInfo()
        other.__dict__.update({k: list(v) if isinstance(v, list) else v for k, v in self.__dict__.items()})
        return other


def _random_buffer(name, seed, buffer, nargs, args):
    """``buffer`` as the float32 NumPy array 2.10's random fills write (its errors for other arguments)."""
    import numpy as np
    if (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64 or len(args) != nargs
            or not all(isinstance(v, (int, float, np.floating, np.integer)) for v in args)):
        raise TypeError(f"{name}(): incompatible function arguments. The following argument types are supported:\n"
                        f"    1. (arg0: int, arg1: Buffer, " + ", ".join(f"arg{i + 2}: float" for i in range(nargs))
                        + ") -> None")
    arr = np.asarray(buffer)
    if arr.dtype != np.float32:
        raise RuntimeError(f"Unsupported data type '{arr.dtype.char}'.")
    return arr


def _random_uniform(seed, buffer, a, b):
    """2.10's ``_c_expression._random_uniform(seed, float32_buffer, a, b)`` (MindNLP calls it): fills the buffer
    in place with the U[a, b) draws of the 64-bit ``seed`` that 2.10's initializers use."""
    from mindspore.common.initializer import _random_fill
    _random_fill("uniform", seed, _random_buffer("_random_uniform", seed, buffer, 2, (a, b)), a, b)


def _random_normal(seed, buffer, mean, sigma):
    """2.10's ``_c_expression._random_normal(seed, float32_buffer, mean, sigma)``: N(mean, sigma^2) draws."""
    from mindspore.common.initializer import _random_fill
    _random_fill("normal", seed, _random_buffer("_random_normal", seed, buffer, 2, (mean, sigma)), mean, sigma)


def _truncated_normal(seed, buffer, a, b, mean, sigma):
    """2.10's ``_c_expression._truncated_normal(seed, float32_buffer, a, b, mean, sigma)``: inverse-CDF draws of
    N(mean, sigma^2) within [a, b] (not clipped); RuntimeError for sigma <= 0, as 2.10."""
    from mindspore.common.initializer import _random_fill
    arr = _random_buffer("_truncated_normal", seed, buffer, 4, (a, b, mean, sigma))
    if float(sigma) <= 0:
        raise RuntimeError(f"TruncatedNormal: invalid sigma {float(sigma):g}.")
    _random_fill("truncated_normal", seed, arr, a, b, mean, sigma)
