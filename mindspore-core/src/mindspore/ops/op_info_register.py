"""Operator registration information of MindSpore 2.10 (``ops.CustomRegOp``, ``CpuRegOp``, ``AiCPURegOp``,
``TBERegOp``, ``AkgAscendRegOp``, ``AkgGpuRegOp``, ``DataType``) and the decorators that attach it
(``custom_info_register``, ``op_info_register``).

A ``*RegOp`` is a builder: ``input``/``output``/``attr``/``dtype_format``/... each check their arguments and return
the builder, and ``get_op_info()`` gives the dict a kernel registry reads (MindSpore's keys: ``op_name``,
``inputs``, ``outputs``, ``attr``, ``dtype_format``, ``imply_type``...). ``DataType.F32_Default`` and its kin are
the (dtype, format) pairs ``dtype_format`` takes. ``op_info_register`` keeps each registered op's information
in :data:`OP_INFO_REGISTRY`, by op name and implementation type; ``custom_info_register`` sets ``func.reg_info``.
"""
from __future__ import annotations

import functools
import inspect
import json
import os

__all__ = ["RegOp", "CustomRegOp", "CpuRegOp", "AiCPURegOp", "TBERegOp", "AkgRegOp", "AkgAscendRegOp", "AkgGpuRegOp",
           "AkgCpuRegOp", "DataType", "custom_info_register", "op_info_register", "OP_INFO_REGISTRY"]

#: (op_name, imply_type) -> {"info": the op information dict, "impl_path": the file of the implementation}
OP_INFO_REGISTRY = {}


def _str(value):
    if not isinstance(value, str):
        raise TypeError(f"{value} value must be str")
    return True


def _int(value):
    if not isinstance(value, int):
        raise TypeError(f"{value} value must be int")
    return True


def _bool(value):
    if not isinstance(value, bool):
        raise TypeError(f"{value} value must be bool")
    return True


def _check_list(value):
    if not isinstance(value, list):
        raise TypeError(f"{value} value must be list")
    return True


def _fields(values, keys, checks, kwargs):
    """The dict of the given (non-None) ``values`` under ``keys``, each checked (one check for all, or one each)."""
    out = {}
    for i, value in enumerate(values):
        if value is not None:
            (checks[0] if len(checks) == 1 else checks[i])(value)
            out[keys[i]] = value
    out.update(kwargs)
    return out


class RegOp:
    """The base of the registration builders: an op name, inputs, outputs, attributes and dtype/format rows."""

    def __init__(self, op_name=""):
        if not isinstance(op_name, str):
            raise ValueError("op name value must be string")
        if not op_name.strip():
            raise ValueError("op name is empty")
        self.op_name = op_name
        self.inputs = []
        self.outputs = []
        self.attr_ = []
        self.fusion_type_ = ""
        self.dtype_format_ = []

    def fusion_type(self, fusion_type):
        """The fusion type (``"ELEMWISE"``, ``"OPAQUE"``...)."""
        _str(fusion_type)
        self.fusion_type_ = fusion_type
        return self

    def dtype_format(self, *args):
        """One supported combination: a (dtype, format[, object type]) pair per input then per output."""
        if len(self.inputs) + len(self.outputs) != len(args):
            raise ValueError("input size add output size must be equal to dtype format size")
        row = []
        for arg in args:
            if not isinstance(arg, tuple) or len(arg) not in (2, 3):
                raise ValueError("dtype and format value must be tuple of two or three elements")
            for part in arg:
                _str(part)
            row.append(arg)
        self.dtype_format_.append(tuple(row))
        return self

    _RENAMED = {"dynamic_shape_support": "dynamicShapeSupport", "dynamic_rank_support": "dynamicRankSupport",
                "dynamic_compile_static": "dynamicCompileStatic", "need_check_support": "needCheckSupport",
                "dynamic_format": "dynamicFormat"}

    def get_op_info(self):
        """The registration information as a dict."""
        info = {}
        for key, value in self.__dict__.items():
            if key.endswith("_"):
                key = key.rstrip("_")
                key = self._RENAMED.get(key, key)
            info[key] = value
        return info


class CpuRegOp(RegOp):
    """Registration information of a CPU kernel."""

    def __init__(self, op_name):
        super().__init__(op_name)
        self.imply_type = "CPU"

    def input(self, index=None, name=None, param_type=None, **kwargs):
        self.inputs.append(_fields([index, name, param_type], ["index", "name", "paramType"], [_int, _str, _str],
                                   kwargs))
        return self

    def output(self, index=None, name=None, param_type=None, **kwargs):
        self.outputs.append(_fields([index, name, param_type], ["index", "name", "paramType"], [_int, _str, _str],
                                    kwargs))
        return self

    def attr(self, name=None, value_type=None, value=None, **kwargs):
        self.attr_.append(_fields([name, value_type, value], ["name", "type", "value"], [_str], kwargs))
        return self


class AiCPURegOp(CpuRegOp):
    """Registration information of an AiCPU (Ascend CPU) kernel."""

    def __init__(self, op_name):
        super().__init__(op_name)
        self.imply_type = "AiCPU"


class AkgRegOp(RegOp):
    """Registration information of an AKG kernel for a processor."""

    def __init__(self, op_name, processor):
        super().__init__(op_name)
        self.imply_type = "AKG"
        self.processor = processor

    def input(self, index=None, name=None, param_type=None, **kwargs):
        self.inputs.append(_fields([index, name, param_type], ["index", "name", "paramType"], [_int, _str, _str],
                                   kwargs))
        return self

    def output(self, index=None, name=None, **kwargs):
        self.outputs.append(_fields([index, name], ["index", "name"], [_int, _str], kwargs))
        return self

    def attr(self, name=None, param_type=None, value_type=None, **kwargs):
        self.attr_.append(_fields([name, param_type, value_type], ["name", "paramType", "type"], [_str], kwargs))
        return self


class AkgGpuRegOp(AkgRegOp):
    """AKG registration information for CUDA."""

    def __init__(self, op_name):
        super().__init__(op_name, "CUDA")


class AkgAscendRegOp(AkgRegOp):
    """AKG registration information for Ascend's AiCore."""

    def __init__(self, op_name):
        super().__init__(op_name, "AiCore")


class AkgCpuRegOp(AkgRegOp):
    """AKG registration information for the CPU."""

    def __init__(self, op_name):
        super().__init__(op_name, "CPU")


class TBERegOp(RegOp):
    """Registration information of a TBE (Ascend Tensor Boost Engine) kernel."""

    def __init__(self, op_name):
        super().__init__(op_name)
        self.imply_type = "TBE"
        self.async_flag_ = False
        self.binfile_ = ""
        self.compute_cost_ = 10
        self.kernel_ = ""
        self.partial_flag_ = False
        self.reshape_type_ = ""
        self.dynamic_rank_support_ = False
        self.dynamic_shape_support_ = False
        self.dynamic_compile_static_ = False
        self.need_check_support_ = False
        self.dynamic_format_ = False
        self.op_pattern_ = ""
        self.real_input_index_ = []
        self.input_to_attr_index_ = []
        self.unknown_shape_formats_ = []

    def _set(self, field, value, check):
        check(value)
        setattr(self, field, value)
        return self

    def unknown_shape_formats(self, unknown_shape_formats):
        _check_list(unknown_shape_formats)
        self.unknown_shape_formats_.append(unknown_shape_formats)
        return self

    def dynamic_rank_support(self, dynamic_rank_support):
        return self._set("dynamic_rank_support_", dynamic_rank_support, _bool)

    def real_input_index(self, real_input_index):
        _check_list(real_input_index)
        self.real_input_index_ = real_input_index
        return self

    def input_to_attr_index(self, input_to_attr_index):
        _check_list(input_to_attr_index)
        self.input_to_attr_index_ = input_to_attr_index
        return self

    def async_flag(self, async_flag=False):
        return self._set("async_flag_", async_flag, _bool)

    def binfile_name(self, binfile_name):
        return self._set("binfile_", binfile_name, _str)

    def compute_cost(self, compute_cost=10):
        return self._set("compute_cost_", compute_cost, _int)

    def kernel_name(self, kernel_name):
        return self._set("kernel_", kernel_name, _str)

    def partial_flag(self, partial_flag=True):
        return self._set("partial_flag_", partial_flag, _bool)

    def reshape_type(self, reshape_type):
        return self._set("reshape_type_", reshape_type, _str)

    def dynamic_shape(self, dynamic_shape=False):
        return self._set("dynamic_shape_support_", dynamic_shape, _bool)

    def dynamic_compile_static(self, dynamic_compile_static=False):
        return self._set("dynamic_compile_static_", dynamic_compile_static, _bool)

    def need_check_supported(self, need_check_supported=False):
        return self._set("need_check_support_", need_check_supported, _bool)

    def is_dynamic_format(self, is_dynamic_format=False):
        return self._set("dynamic_format_", is_dynamic_format, _bool)

    def op_pattern(self, pattern=None):
        if pattern is not None:
            _str(pattern)
        self.op_pattern_ = pattern
        return self

    def attr(self, name=None, param_type=None, value_type=None, value=None, default_value=None, **kwargs):
        self.attr_.append(_fields([name, param_type, value_type, value, default_value],
                                  ["name", "paramType", "type", "value", "defaultValue"], [_str], kwargs))
        return self

    def input(self, index=None, name=None, need_compile=None, param_type=None, shape=None, value_depend=None,
              **kwargs):
        self.inputs.append(_fields([index, name, need_compile, param_type, shape, value_depend],
                                   ["index", "name", "needCompile", "paramType", "shape", "valueDepend"],
                                   [_int, _str, _bool, _str, _str, _str], kwargs))
        return self

    def output(self, index=None, name=None, need_compile=None, param_type=None, shape=None, **kwargs):
        self.outputs.append(_fields([index, name, need_compile, param_type, shape],
                                    ["index", "name", "need_compile", "paramType", "shape"],
                                    [_int, _str, _bool, _str, _str], kwargs))
        return self


class CustomRegOp(RegOp):
    """Registration information of the function of an ``ops.Custom`` operator: inputs, outputs, attributes, the
    supported dtype/format rows and the target.

    Examples:
        >>> info = (ops.CustomRegOp().input(0, "x").output(0, "y")
        ...         .dtype_format(ops.DataType.F32_Default, ops.DataType.F32_Default).target("CPU").get_op_info())
    """

    def __init__(self, op_name="Custom"):
        super().__init__(op_name)
        self.target_ = "UnKnown"

    def input(self, index=None, name=None, param_type="required", **kwargs):
        self.inputs.append(_fields([index, name, param_type], ["index", "name", "paramType"], [_int, _str, _str],
                                   kwargs))
        return self

    def output(self, index=None, name=None, param_type="required", **kwargs):
        self.outputs.append(_fields([index, name, param_type], ["index", "name", "paramType"], [_int, _str, _str],
                                    kwargs))
        return self

    def dtype_format(self, *args):
        n = len(self.inputs) + len(self.outputs)
        if len(args) != n:
            raise ValueError(f"The size of 'args' must be equal to the sum of input tensors and output tensors, but "
                             f"got {len(args)} vs {n}")
        return super().dtype_format(*args)

    def attr(self, name=None, param_type=None, value_type=None, default_value=None, **kwargs):
        self.attr_.append(_fields([name, param_type, value_type, default_value],
                                  ["name", "paramType", "type", "defaultValue"], [_str], kwargs))
        return self

    def target(self, target=None):
        if target is not None:
            _str(target)
        self.target_ = target
        return self

    def get_op_info(self):
        return {(k.rstrip("_") if k.endswith("_") else k): v for k, v in self.__dict__.items()}


_FORMATS = {"None": ("",), "Default": ("DefaultFormat",), "5HD": ("NC1HWC0",), "FracZ": ("FRACTAL_Z",),
            "FracNZ": ("FRACTAL_NZ",), "C1HWNCoC0": ("C1HWNCoC0",), "NCHW": ("NCHW",), "NHWC": ("NHWC",),
            "HWCN": ("HWCN",), "NDHWC": ("NDHWC",), "NCDHW": ("NCDHW",), "DHWCN": ("DHWCN",),
            "NDC1HWC0": ("NDC1HWC0",), "NC1HWC0": ("NC1HWC0",), "FRACTAL_Z_3D": ("FRACTAL_Z_3D",),
            "FracZNLSTM": ("FRACTAL_ZN_LSTM",), "FracZNRNN": ("FRACTAL_ZN_RNN",), "ND_RNNBIAS": ("ND_RNN_BIAS",),
            "ChannelLast": ("ChannelLast",), "Default_Tuple": ("DefaultFormat", "tuple"),
            "Default_List": ("DefaultFormat", "list")}
_BASIC = ["None", "Default", "5HD", "FracZ", "FracNZ", "C1HWNCoC0", "NCHW", "NHWC", "HWCN", "NDHWC"]
_TAIL = ["ChannelLast", "Default_Tuple", "Default_List"]
_FLOAT_EXTRA = ["NCDHW", "DHWCN", "NDC1HWC0", "FRACTAL_Z_3D", "FracZNLSTM", "FracZNRNN", "ND_RNNBIAS"]
#: dtype code -> (dtype name, the formats MindSpore 2.10 lists for it, in its order)
_DTYPES = {
    "None": ("", ["None", "Default"]),
    "BOOL": ("bool", _BASIC + _TAIL),
    "I8": ("int8", _BASIC + ["NCDHW"] + ["ChannelLast", "NDC1HWC0", "NC1HWC0", "Default_Tuple", "Default_List"]),
    "U8": ("uint8", _BASIC + ["NCDHW"] + ["ChannelLast", "NDC1HWC0", "NC1HWC0", "Default_Tuple", "Default_List"]),
    "I16": ("int16", _BASIC + _TAIL), "U16": ("uint16", _BASIC + _TAIL),
    "I32": ("int32", _BASIC + ["NDC1HWC0", "NCDHW"] + _TAIL), "U32": ("uint32", _BASIC + _TAIL),
    "I64": ("int64", _BASIC + _TAIL), "U64": ("uint64", _BASIC + _TAIL),
    "F16": ("float16", _BASIC + _FLOAT_EXTRA + _TAIL), "F32": ("float32", _BASIC + _FLOAT_EXTRA + _TAIL),
    "F64": ("float64", _BASIC + _TAIL), "BF16": ("bfloat16", _BASIC + _FLOAT_EXTRA + _TAIL),
    "C64": ("complex64", ["Default", "Default_Tuple"]), "C128": ("complex128", ["Default", "Default_Tuple"]),
}


class DataType:
    """The (dtype, format) combinations of ``RegOp.dtype_format``: ``DataType.F32_Default`` is
    ``("float32", "DefaultFormat")``, ``DataType.F16_5HD`` is ``("float16", "NC1HWC0")``, ... (the names of
    MindSpore 2.10)."""


for _code, (_name, _formats) in _DTYPES.items():
    for _fmt in _formats:
        setattr(DataType, f"{_code}_{_fmt}", (_name,) + _FORMATS[_fmt])
del _code, _name, _formats, _fmt


def custom_info_register(*reg_info):
    """Attach registration information (``CustomRegOp(...).get_op_info()`` dicts, or JSON strings) to the function
    of an ``ops.Custom`` operator: it becomes ``func.reg_info``."""
    def decorator(func):
        func.reg_info = reg_info

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        return wrapper
    return decorator


def op_info_register(op_info):
    """Register an operator's information (a dict or its JSON string) for the decorated implementation; it is kept
    in :data:`OP_INFO_REGISTRY` under (op name, implementation type)."""
    def register_decorator(func):
        text = json.dumps(op_info) if isinstance(op_info, dict) else op_info
        if not isinstance(text, str):
            raise TypeError(f"For 'op_info_register', the 'op_info' must be dict or str, but got {type(op_info)}.")
        try:
            info = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"Invalid op info {text!r}: {e}") from e
        if not isinstance(info, dict) or not info.get("op_name"):
            raise ValueError(f"Invalid op info {text!r}: it must be an object with an 'op_name'.")
        try:
            path = os.path.realpath(inspect.getfile(func))
        except TypeError:
            path = ""
        OP_INFO_REGISTRY[(info["op_name"], info.get("imply_type", ""))] = {"info": info, "impl_path": path}

        @functools.wraps(func)
        def wrapped_function(*args, **kwargs):
            return func(*args, **kwargs)
        return wrapped_function
    return register_decorator
