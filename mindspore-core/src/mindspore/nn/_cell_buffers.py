"""Buffers of a Cell (``register_buffer``): named tensors that are state but not parameters (not trained, not in
``parameters_and_names``), e.g. rotary embeddings' ``inv_freq``; looked up as attributes like parameters.

MindSpore 2.10's rules: a buffer name is a non-empty str without ``'.'`` that is not already another attribute;
the value is a Tensor or None; ``persistent=False`` marks one that a state dict leaves out. Assigning a value to a
buffer's name afterwards raises TypeError unless it is None (register it again to replace it).
"""
from __future__ import annotations

from mindspore._errors import MSTypeError
from mindspore.common.tensor import Tensor


def register_buffer(cell, name, tensor, persistent=True):
    if "_buffers" not in cell.__dict__:
        raise AttributeError("cannot assign buffer before Cell.__init__() call")
    if not isinstance(name, str):
        raise MSTypeError(f"buffer name should be a string.But got this type: {type(name)}")
    if "." in name:
        raise KeyError('buffer name can\'t contain "."')
    if name == "":
        raise KeyError('buffer name can\'t be empty string ""')
    if hasattr(cell, name) and name not in cell._buffers:
        raise KeyError(f"attribute '{name}' already exists")
    if tensor is not None and not isinstance(tensor, Tensor):
        raise MSTypeError(f"cannot assign '{type(tensor)}' object to buffer '{name}' (mindspore Tensor or None "
                          f"required)")
    cell._buffers[name] = tensor
    if persistent:
        cell._non_persistent_buffers_set.discard(name)
    else:
        cell._non_persistent_buffers_set.add(name)


def named_buffers(cell, prefix="", recurse=True, remove_duplicate=True):
    """(path, buffer) pairs of ``cell`` (and, with ``recurse``, its descendants'), each buffer once unless
    ``remove_duplicate`` is False."""
    seen = set()
    cells = cell.cells_and_names(name_prefix=prefix) if recurse else [(prefix, cell)]
    for cell_name, sub in cells:
        for name, buf in sub.__dict__.get("_buffers", {}).items():
            if buf is None or (remove_duplicate and id(buf) in seen):
                continue
            seen.add(id(buf))
            yield (f"{cell_name}.{name}" if cell_name else name), buf


def get_buffer(cell, target):
    """The buffer at the dotted path ``target``."""
    path, _, name = target.rpartition(".")
    sub = cell
    for part in filter(None, path.split(".")):
        if part not in sub._cells:
            raise AttributeError(f"{type(sub).__name__} has no attribute `{part}`")
        sub = sub._cells[part]
    if not hasattr(sub, name):
        raise AttributeError(f"{type(sub).__name__} has no attribute `{name}`")
    if name not in sub.__dict__.get("_buffers", {}):
        raise AttributeError(f"`{name}` is not a buffer")
    return sub._buffers[name]
