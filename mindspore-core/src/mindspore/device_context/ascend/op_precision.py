"""``mindspore.device_context.ascend.op_precision``: Ascend operator precision settings (see :mod:`._conf`)."""
import os

from mindspore.device_context.ascend import _conf

__all__ = ["precision_mode", "op_precision_mode", "matmul_allow_hf32", "conv_allow_hf32"]

_PRECISION_MODES = ["force_fp16", "allow_fp32_to_fp16", "allow_mix_precision", "must_keep_origin_dtype", "force_fp32",
                    "allow_fp32_to_bf16", "allow_mix_precision_fp16", "allow_mix_precision_bf16"]


def precision_mode(mode):
    """The mixed-precision mode of Ascend operators, one of ``_PRECISION_MODES``.

    Examples:
        >>> ms.device_context.ascend.op_precision.precision_mode("force_fp16")
    """
    if not _conf.supported():
        return
    if mode not in _PRECISION_MODES:
        raise ValueError(f"For 'precision_mode', the value of mode {mode} must be one of {_PRECISION_MODES}, but got "
                         f"{mode}.")
    _conf.store("precision_mode", mode)


def op_precision_mode(path):
    """The path of the operator precision configuration file.

    Examples:
        >>> ms.device_context.ascend.op_precision.op_precision_mode("./op_precision_config_file")
    """
    if not isinstance(path, str):
        raise TypeError(f"The argument 'path' must be str, but got {type(path).__name__}.")
    if not _conf.supported():
        return
    if not os.path.exists(os.path.realpath(path)):
        raise ValueError(f"For 'op_precision_mode', the 'path' is invalid, got '{path}'.")
    _conf.store("op_precision_mode", path)


def _allow_hf32(name, value):
    if not _conf.supported():
        return
    if value not in [True, False]:
        raise ValueError(f"For '{name}', the type of input value must be one of [True, False], but got {value}.")
    _conf.store(name, bool(value))


def matmul_allow_hf32(value):
    """Whether MatMul may compute float32 in HF32.

    Examples:
        >>> ms.device_context.ascend.op_precision.matmul_allow_hf32(True)
    """
    _allow_hf32("matmul_allow_hf32", value)


def conv_allow_hf32(value):
    """Whether Conv may compute float32 in HF32.

    Examples:
        >>> ms.device_context.ascend.op_precision.conv_allow_hf32(True)
    """
    _allow_hf32("conv_allow_hf32", value)
