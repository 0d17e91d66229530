"""``mindspore.export``, ``mindspore.load`` and ``mindspore.onnx.export``: argument checks, file naming and the
network's mode, as MindSpore 2.10 has them; the formats themselves are :mod:`mindspore._deploy.onnx` and
:mod:`mindspore._deploy.mindir`, both written from one :func:`~mindspore._deploy.capture.capture`.

* ``export(net, *inputs, file_name, file_format)``: ``file_format`` is ``"MINDIR"``, ``"ONNX"`` or ``"AIR"``
  (Ascend's format: refused here, it needs Ascend's toolchain). A missing suffix is added (``.mindir``,
  ``.onnx``). MINDIR captures the network in its current mode (as MindSpore does); ONNX, an inference format,
  in evaluation mode, restoring the mode afterwards. ``enc_key``/``enc_mode`` encrypt a MindIR file;
  ``custom_func`` may edit the MindIR proto before it is written. Inputs ``Tensor(shape=[None, ...])`` make
  those dimensions dynamic in both formats.
* ``onnx.export(net, *inputs, file_name, input_names, output_names, export_params,
  keep_initializers_as_inputs, dynamic_axes)``: MindSpore 2.10's ONNX entry point.
* ``load(file_name, dec_key=None, dec_mode="AES-GCM")``: a MindIR file (ours or MindSpore's) as a graph that
  ``nn.GraphCell`` runs.

Every file is written atomically (a temporary file renamed over the target), so a failed export never leaves a
partial model behind.
"""
from __future__ import annotations

import os

from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore._deploy.capture import capture

__all__ = ["export", "load", "onnx_export"]

_FORMATS = ("AIR", "ONNX", "MINDIR")
_ENC_MODES = ("AES-GCM", "AES-CBC", "SM4-CBC")


def _check_file_name(func, file_name):
    if not isinstance(file_name, str):
        raise MSTypeError(f"For '{func}', the 'file_name' must be str, but got {type(file_name).__name__}.")
    if not file_name or file_name.endswith(("/", os.sep)):
        raise MSValueError(f"For '{func}', the 'file_name' must be a file name, but got '{file_name}'.")
    return os.path.realpath(file_name)


def _with_suffix(path, suffix):
    return path if path.endswith(suffix) else path + suffix


def _check_enc(file_format, kwargs):
    enc_key = kwargs.get("enc_key")
    if enc_key is None:
        return None, None
    if not isinstance(enc_key, bytes):
        raise MSTypeError(f"For 'export', the 'enc_key' must be bytes, but got {type(enc_key).__name__}.")
    enc_mode = kwargs.get("enc_mode", "AES-GCM")
    if callable(enc_mode):
        return enc_key, enc_mode
    if not isinstance(enc_mode, str):
        raise MSTypeError(f"For 'export', the 'enc_mode' must be str or a function, but got "
                          f"{type(enc_mode).__name__}.")
    if file_format in ("AIR", "ONNX"):
        raise MSValueError(f"AIR/ONNX only support customized encryption, but got {enc_mode}.")
    if enc_mode not in _ENC_MODES:
        raise MSValueError(f"MindIR only support AES-GCM/AES-CBC/SM4-CBC encryption, but got {enc_mode}")
    if len(enc_key) not in (16, 24, 32):
        raise MSValueError(f"For 'export', the length of 'enc_key' must be 16, 24 or 32, but got {len(enc_key)}.")
    return enc_key, enc_mode


def _dataset_inputs(inputs):
    """MindSpore takes one Dataset among the inputs: its "image" column's shape and type make the input."""
    ds = [x for x in inputs if hasattr(x, "output_shapes") and hasattr(x, "get_col_names")]
    if not ds:
        return inputs, None
    if len(inputs) != 1:
        raise MSRuntimeError(f"You can only serialize one dataset into MindIR, got {len(inputs)} datasets")
    import numpy as np
    from mindspore.common.tensor import Tensor
    dataset = inputs[0]
    cols = []
    for name, shape, dtype in zip(dataset.get_col_names(), dataset.output_shapes(), dataset.output_types()):
        if name == "image":
            cols.append(Tensor(np.zeros(shape, dtype=np.dtype(dtype))))
    if not cols:
        raise MSRuntimeError('Only supports parse "image" column from dataset now, given dataset has columns: '
                             + str(dataset.get_col_names()))
    return tuple(cols), dataset


class _EvalMode:
    """Evaluation mode for the duration of an ONNX export (ONNX is an inference format), then the old mode."""

    def __init__(self, net):
        self.net = net if hasattr(net, "set_train") else None
        self.training = getattr(self.net, "training", False)

    def __enter__(self):
        if self.net is not None:
            self.net.set_train(False)

    def __exit__(self, *exc):
        if self.net is not None:
            self.net.set_train(self.training)


def export(net, *inputs, file_name, file_format, **kwargs):
    """Export ``net`` (a Cell or a function), called on ``inputs``, to ``file_name`` in ``file_format``."""
    if "obf_func" in kwargs:
        raise MSValueError("Dynamic model structure obfuscation is no longer supported.")
    if file_format not in _FORMATS:
        raise MSValueError(f"For 'export', 'file_format' must be one of {list(_FORMATS)}, but got {file_format}.")
    path = _check_file_name("export", file_name)
    if kwargs.get("custom_func") is not None and file_format != "MINDIR":
        raise MSValueError(f"Currently only support custom_func for MindIR format, but got {file_format} format.")
    enc_key, enc_mode = _check_enc(file_format, kwargs)
    if file_format == "AIR":
        raise MSRuntimeError("For 'export', the AIR format is Ascend's (written by the CANN toolchain on an Ascend "
                             "device, and deprecated in MindSpore): export 'MINDIR' or 'ONNX' instead.")
    inputs, dataset = _dataset_inputs(inputs)
    if file_format == "ONNX":
        from mindspore._deploy import onnx as _onnx
        with _EvalMode(net):
            captured = capture(net, *inputs, composites=True)
            _onnx.save(captured, _with_suffix(path, ".onnx"), encrypt=None if enc_key is None else
                       (lambda data: enc_mode(data, enc_key)))
        return
    from mindspore._deploy.mindir import writer as _mindir_writer
    captured = capture(net, *inputs, composites=False)
    _mindir_writer.save(captured, _with_suffix(path, ".mindir"), enc_key=enc_key, enc_mode=enc_mode,
                 custom_func=kwargs.get("custom_func"), dataset=dataset)


def onnx_export(net, *inputs, file_name, input_names=None, output_names=None, export_params=True,
                keep_initializers_as_inputs=False, dynamic_axes=None):
    """``mindspore.onnx.export``: ``net`` called on ``inputs``, as an ONNX model in ``file_name``."""
    from mindspore._deploy import onnx as _onnx
    from mindspore.nn import Cell
    path = _check_file_name("export", file_name)
    if not isinstance(net, Cell):
        raise MSTypeError(f"For 'export', the 'net' must be a Cell, but got {type(net).__name__}.")
    for arg, value in (("input_names", input_names), ("output_names", output_names)):
        if value is not None and not isinstance(value, list):
            raise MSTypeError(f"For 'export', the '{arg}' must be list, but got {type(value).__name__}.")
    if dynamic_axes is not None and not isinstance(dynamic_axes, dict):
        raise MSTypeError(f"For 'export', the 'dynamic_axes' must be dict, but got {type(dynamic_axes).__name__}.")
    if any(hasattr(x, "output_shapes") and hasattr(x, "get_col_names") for x in inputs):
        raise MSValueError("Can not support dataset as inputs to export ONNX model.")
    with _EvalMode(net):
        dim_names = _dim_names(net, inputs, input_names or [], dynamic_axes or {})
        captured = capture(net, *inputs, composites=True, dim_names=dim_names)
        _onnx.save(captured, _with_suffix(path, ".onnx"), input_names=input_names, output_names=output_names,
                   export_params=export_params, keep_initializers_as_inputs=keep_initializers_as_inputs)


def _dim_names(net, inputs, input_names, dynamic_axes):
    """{(input leaf, axis): name} from ``dynamic_axes`` ({input name: {axis: name}} or {input name: [axes]})."""
    from mindspore._deploy.capture import _arg_names
    from mindspore._infer.staging import flatten
    leaves, _ = flatten(tuple(inputs))
    names = list(_arg_names(net, len(leaves), inputs))
    for i, given in enumerate(input_names[:len(names)]):
        names[i] = given
    out = {}
    for input_name, axes in dynamic_axes.items():
        if input_name not in names:
            raise MSValueError(f"For 'export', the 'dynamic_axes' names an input '{input_name}' the network does not "
                               f"have; its inputs are {names}.")
        leaf = names.index(input_name)
        rank = len(getattr(leaves[leaf], "shape", ()))
        items = axes.items() if isinstance(axes, dict) else ((a, f"{input_name}_dim{a}") for a in axes)
        for axis, dim_name in items:
            if not isinstance(axis, int) or not -rank <= axis < rank:
                raise MSValueError(f"For 'export', the 'dynamic_axes' of '{input_name}' must be axes in [{-rank}, "
                                   f"{rank}), but got {axis}.")
            out[(leaf, axis % rank)] = str(dim_name)
    return out


def load(file_name, **kwargs):
    """Load a MindIR file (``dec_key``/``dec_mode`` for an encrypted one) as a graph for ``nn.GraphCell``."""
    from mindspore._deploy import mindir as _mindir
    if not isinstance(file_name, str):
        raise MSValueError(f"For 'load', the argument 'file_name' must be string, but got {type(file_name)}.")
    if not file_name.endswith(".mindir"):
        raise MSValueError("For 'load', the argument 'file_name'(MindIR file) should end with '.mindir', "
                           f"please input the correct 'file_name', but got '{file_name}'.")
    path = os.path.realpath(file_name)
    if not os.path.exists(path):
        raise MSValueError(f"For 'load', the argument 'file_name'(MindIR file) does not exist, please check whether "
                           f"the 'file_name' is correct, but got '{file_name}'.")
    dec_key = kwargs.get("dec_key")
    dec_mode = kwargs.get("dec_mode", "AES-GCM")
    if dec_key is not None:
        if not isinstance(dec_key, bytes):
            raise MSTypeError(f"For 'load', the 'dec_key' must be bytes, but got {type(dec_key).__name__}.")
        if not callable(dec_mode) and dec_mode not in _ENC_MODES:
            raise MSValueError(f"For 'load', the 'dec_mode' must be one of {list(_ENC_MODES)} or a function, but got "
                               f"{dec_mode}.")
    if "obf_func" in kwargs:
        raise MSValueError("Dynamic model structure obfuscation is no longer supported.")
    return _mindir.load(path, dec_key=dec_key, dec_mode=dec_mode)
