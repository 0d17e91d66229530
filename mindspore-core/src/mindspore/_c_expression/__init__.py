"""Stand-ins, in Python, for names of MindSpore's C++ extension module ``mindspore._c_expression`` that libraries
written for MindSpore import directly (MindOne's diffusers: ``from mindspore._c_expression.amp import AmpLevel,
create_amp_strategy``; MindNLP: ``MSContext``, ``typing``, ``TensorPy``, the framework profiler's step marks). Only
such names live here, each a re-export of the implementation at its public path, or, for a name that has none
(``MSContext``, ``ParamInfo``), a small class with 2.10's behaviour on the backends here."""
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

