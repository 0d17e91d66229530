"""``mindspore.load_mindir`` / ``mindspore.save_mindir``: a MindIR file as its ``ModelProto`` message and back
(deprecated in MindSpore 2.5, kept for the code that edits a model's ``user_info`` and saves it again)."""
from __future__ import annotations

import logging
import os

from google.protobuf.message import DecodeError

from mindspore._deploy.mindir._schema import ModelProto
from mindspore._errors import MSTypeError, MSValueError
from mindspore._fileio.atomic import atomic_write

__all__ = ["load_mindir", "save_mindir"]

_log = logging.getLogger("mindspore")


def _check_name(op, file_name):
    if not isinstance(file_name, str) or not file_name or os.path.basename(file_name) in ("", ".", ".."):
        raise MSValueError(f"For '{op}', the 'file_name' must be a file path (a non-empty str), but got "
                           f"{file_name!r}.")


def load_mindir(file_name):
    """The ``ModelProto`` of the MindIR file ``file_name``."""
    _log.warning("The interface 'mindspore.load_mindir' is deprecated from version 2.5 and will be removed in a "
                 "future version.")
    _check_name("load_mindir", file_name)
    path = os.path.realpath(file_name)
    if not os.path.isfile(path):
        raise MSValueError(f"For 'load_mindir', the file '{file_name}' does not exist.")
    model = ModelProto()
    with open(path, "rb") as f:
        data = f.read()
    try:
        model.ParseFromString(data)
    except DecodeError as exc:
        raise MSValueError(f"For 'load_mindir', the file '{file_name}' is not a MindIR model: {exc}") from None
    return model


def save_mindir(model, file_name):
    """Write the ``ModelProto`` ``model`` to ``file_name`` (``.mindir`` appended when missing), atomically."""
    _log.warning("The interface 'mindspore.save_mindir' is deprecated from version 2.5 and will be removed in a "
                 "future version.")
    if not isinstance(model, ModelProto):
        raise MSTypeError(f"For 'save_mindir', the 'model' must be a ModelProto (from load_mindir), but got "
                          f"{type(model).__name__}.")
    _check_name("save_mindir", file_name)
    path = os.path.realpath(file_name)
    if not path.endswith(".mindir"):
        path += ".mindir"
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    data = model.SerializeToString()
    atomic_write(path, lambda f: f.write(data))
