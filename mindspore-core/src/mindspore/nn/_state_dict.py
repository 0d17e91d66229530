"""``Cell.state_dict`` and ``Cell.load_state_dict`` (MindSpore 2.10's PyTorch-style parameter dictionaries).

A state dict maps each parameter's *attribute path* (``"fc1.weight"``: the names of the sub-cells leading to it,
then its attribute name) to the Parameter itself, and each persistent buffer's (``register_buffer``; after the
cell's own parameters) to the buffer. The path is not the parameter's ``name``: under a cell with
``auto_prefix=False`` the two differ, and ``load_state_dict`` matches by path, as MindSpore 2.10 does. A sub-cell
reached twice contributes its parameters under both paths (no de-duplication, as in 2.10).

``load_state_dict`` copies each matching value into the cell's parameter (cast to its dtype). The paths the cell has
but the dict lacks are *missing*, the dict's keys naming no parameter (or no sub-cell, for a dotted key) are
*unexpected*; both are returned as the named tuple ``(missing_keys, unexpected_keys)`` whatever ``strict`` is (as
in 2.10). With ``strict`` either raises RuntimeError; a non-Tensor value or a shape mismatch always does; the error
lists every problem found.

The hooks of ``Cell.register_state_dict_pre_hook``/``_post_hook`` and ``register_load_state_dict_pre_hook``/
``_post_hook`` run per cell as in 2.10: a save calls a cell's pre-hooks before its own entries and its post-hooks after
its sub-cells'; a load calls a cell's pre-hooks before its own entries and its post-hooks (which may edit the missing
and unexpected keys in place, deciding what a strict load raises) after its sub-cells'. A cell whose class overrides
``get_extra_state``/``set_extra_state`` saves and loads that state under ``<prefix>_extra_state``. A state dict made
by ``state_dict()`` carries ``_metadata`` (``{cell path: {}}``), handed back to the load hooks.
"""
from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Mapping

from mindspore._errors import MSRuntimeError, MSTypeError
from mindspore.nn import _cell_extras
from mindspore.common.tensor import Tensor


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What :meth:`Cell.load_state_dict` returns."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def state_dict(cell, destination=None, prefix="", keep_vars=False):
    """The parameters of ``cell`` and its descendants by attribute path, into ``destination`` (a new OrderedDict
    when None)."""
    if destination is not None and not isinstance(destination, dict):
        raise MSTypeError(f"The type of destination must be OrderedDict, but got {type(destination)}")
    if not isinstance(prefix, str):
        raise MSTypeError(f"The type of prefix must be string, but got {type(prefix)}")
    if not isinstance(keep_vars, bool):
        raise MSTypeError(f"The type of keep_vars must be bool, but got {type(keep_vars)}")
    if destination is None:
        destination = OrderedDict()
        destination._metadata = OrderedDict()
    _save(cell, destination, prefix, keep_vars)
    return destination


def _buffers(cell):
    """The cell's persistent buffers (``register_buffer``), which a state dict holds after its parameters."""
    skip = cell.__dict__.get("_non_persistent_buffers_set", ())
    return {k: v for k, v in cell.__dict__.get("_buffers", {}).items() if v is not None and k not in skip}


def _overrides(cell, method):
    """Whether ``cell``'s class overrides the Cell method ``method`` (``get_extra_state``/``set_extra_state``)."""
    return getattr(type(cell), method, None) is not getattr(_cell_extras.CellExtras, method)


def _save(cell, destination, prefix, keep_vars):
    local_metadata = {}
    if hasattr(destination, "_metadata"):
        destination._metadata[prefix[:-1]] = local_metadata
    for hook in list(_cell_extras.hooks(cell, "state_dict_pre").values()):
        hook(cell, prefix, keep_vars)
    for name, param in cell._params.items():
        if param is not None:
            destination[prefix + name] = param
    for name, buf in _buffers(cell).items():
        destination[prefix + name] = buf
    if _overrides(cell, "get_extra_state"):
        destination[prefix + _cell_extras.EXTRA_STATE_KEY_SUFFIX] = cell.get_extra_state()
    for name, child in cell._cells.items():
        if child is not None:
            _save(child, destination, prefix + name + ".", keep_vars)
    for hook in list(_cell_extras.hooks(cell, "state_dict").values()):
        if hook(cell, destination, prefix, local_metadata) is not None:
            raise MSRuntimeError("state_dict post-hook must return None")


def load_state_dict(cell, state, strict=True):
    """Copy ``state``'s values into the parameters of ``cell`` and its descendants (see the module docstring)."""
    if not isinstance(state, Mapping):
        raise MSTypeError(f"Expected state_dict to be dict-like, got {type(state)}.")
    missing, unexpected, errors = [], [], []
    metadata = getattr(state, "_metadata", None)
    _load(cell, dict(state), "", (missing, unexpected, errors), metadata)
    if strict:
        if unexpected:
            errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected)))
        if missing:
            errors.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
    if errors:
        raise MSRuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(type(cell).__name__,
                                                                                  "\n\t".join(errors)))
    return _IncompatibleKeys(missing, unexpected)


def _load(cell, state, prefix, keys, metadata):
    missing, unexpected, errors = keys
    local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
    for hook in list(_cell_extras.hooks(cell, "load_pre").values()):
        # (2.10 hands its pre-hooks strict=True whatever load_state_dict was given)
        hook(cell, state, prefix, local_metadata, True, missing, unexpected, errors)
    buffers = _buffers(cell)
    local = {k: v for k, v in cell._params.items() if v is not None}
    local.update(buffers)
    for name, param in local.items():
        key = prefix + name
        if key not in state:
            missing.append(key)
            continue
        value = state[key]
        if not isinstance(value, Tensor):
            errors.append(f'While copying the parameter named "{key}", expected Tensor or Tensor-like object from '
                          f"checkpoint but received {type(value)}")
        elif tuple(value.shape) != tuple(param.shape):
            errors.append(f"size mismatch for {key}: copying a param with shape {value.shape} from checkpoint, the "
                          f"shape in current model is {param.shape}.")
        elif name in buffers:
            cell._buffers[name] = Tensor(value.asnumpy(), dtype=param.dtype)
        else:
            param.assign_value(Tensor(value.asnumpy(), dtype=param.dtype))
    extra_key = prefix + _cell_extras.EXTRA_STATE_KEY_SUFFIX
    if _overrides(cell, "set_extra_state"):
        if extra_key in state:
            cell.set_extra_state(state[extra_key])
        else:
            missing.append(extra_key)
    elif extra_key in state:
        unexpected.append(extra_key)
    for key in state:
        if key.startswith(prefix) and key != extra_key:
            head = key[len(prefix):].split(".", 1)
            if head[0] not in (cell._cells if len(head) > 1 else local):
                unexpected.append(key)
    for name, child in cell._cells.items():
        if child is not None:
            child_prefix = prefix + name + "."
            _load(child, {k: v for k, v in state.items() if k.startswith(child_prefix)}, child_prefix, keys, metadata)
    incompatible = _IncompatibleKeys(missing, unexpected)
    for hook in list(_cell_extras.hooks(cell, "load_post").values()):
        if hook(cell, incompatible) is not None:
            raise MSRuntimeError("Hooks registered with ``register_load_state_dict_post_hook`` are not"
                                 "expected to return new values, if incompatible_keys need to be modified,"
                                 "it should be done inplace.")
