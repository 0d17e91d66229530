"""``set_algo_parameters`` / ``get_algo_parameters`` / ``reset_algo_parameters``: the knobs of the AUTO_PARALLEL
strategy search (MindSpore 2.10's names, types and defaults), and ``set_op_strategy_config`` (save or load the
strategies the search chose, as JSON).

What each knob does to our search (``mindspore.parallel._auto``), where MindSpore's does the same:

* ``fully_use_devices`` (False): the cost model's candidates for a MatMul must cut its loop dimensions over all
  the devices (the product of the cuts equals the device number); otherwise any divisor is a candidate.
* ``tensor_slice_align_enable`` / ``tensor_slice_align_size`` (False / 16): a candidate whose MatMul operands'
  last-dimension slices are not multiples of the size is dropped (unless no candidate is left).
* ``enable_algo_approxi`` / ``algo_approxi_epsilon`` (False / 0.1): only the first ``min(S, 1 / epsilon)``
  candidates, in enumeration order, are costed.
* ``elementwise_op_strategy_follow`` (False): the operator using an elementwise operator's output keeps its layout
  (no redistribution on that edge, as MindSpore's cost graph makes it an identity edge): the cost model's MatMul
  candidates are narrowed to those, and an elementwise user takes that input's cuts (see ``_auto``).
"""
import json
import math
import os

__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters", "set_op_strategy_config"]

_DEFAULTS = {"fully_use_devices": False, "elementwise_op_strategy_follow": False, "enable_algo_approxi": False,
             "algo_approxi_epsilon": 0.1, "tensor_slice_align_enable": False, "tensor_slice_align_size": 16}
_TYPES = {"fully_use_devices": bool, "elementwise_op_strategy_follow": bool, "enable_algo_approxi": bool,
          "algo_approxi_epsilon": float, "tensor_slice_align_enable": bool, "tensor_slice_align_size": int}
_values = dict(_DEFAULTS)


def set_algo_parameters(**kwargs):
    """Set parameters of the AUTO_PARALLEL strategy search (see the module docstring)."""
    for key, value in kwargs.items():
        if key not in _TYPES:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        want = _TYPES[key]
        if type(value) is not want:
            raise TypeError(f"The parameter '{key}' must be {want}, but got {type(value)}")
    for key, value in kwargs.items():
        if key == "algo_approxi_epsilon" and not 0 < value <= 1:
            raise RuntimeError("'epsilon' must be in (0, 1]")
        if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
            raise ValueError(f"Align_size must be in [1, 1024], but got {value}")
    for key, value in kwargs.items():
        _values[key] = value


def get_algo_parameters(attr_key):
    """The value of the search parameter ``attr_key``."""
    if attr_key not in _values:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _values[attr_key]


def reset_algo_parameters():
    """Every search parameter back to its default."""
    _values.clear()
    _values.update(_DEFAULTS)


def approximated(candidates):
    """The candidates the search costs: all of them, or the first ``1 / epsilon`` with ``enable_algo_approxi``."""
    candidates = list(candidates)
    if _values["enable_algo_approxi"]:
        candidates = candidates[:max(1, math.floor(1 / _values["algo_approxi_epsilon"] + 1e-9))]
    return candidates


def aligned(slices):
    """Whether MatMul operand slices of last dimensions ``slices`` pass ``tensor_slice_align_*``."""
    if not _values["tensor_slice_align_enable"]:
        return True
    size = _values["tensor_slice_align_size"]
    return all(s % size == 0 for s in slices)


# --- set_op_strategy_config ---------------------------------------------------------------------------------
_op_strategy = {"mode": None, "path": "", "saved": {}, "loaded": None, "order": {}}


def set_op_strategy_config(mode="SAVE", path=""):
    """Save the strategies the AUTO_PARALLEL search chooses to the JSON file ``path`` (``"SAVE"``), or take them
    from it (``"LOAD"``), for the same network with the same configuration. Operators are named by their
    primitive and their order of first use (``"MatMul-0"``, ``"MatMul-1"``, ...)."""
    if not os.path.isabs(path):
        raise KeyError("File path must be an absolute path")
    if os.path.splitext(path)[1] != ".json":
        raise KeyError("File type must be .json")
    if mode not in ("SAVE", "LOAD"):
        raise KeyError("Type must be 'SAVE' or 'LOAD'")
    normalized = os.path.abspath(os.path.realpath(path))
    for system in ("/etc", "/usr", "/bin", "/sbin", "/boot", "/proc", "/sys"):
        if normalized.startswith(system):
            raise PermissionError(f"Writing to system directory '{system}' is not allowed")
    folder = os.path.dirname(path)
    if folder and not os.path.exists(folder):
        os.makedirs(folder, mode=0o700, exist_ok=True)
    _op_strategy.update(mode=mode, path=path, saved={}, loaded=None, order={})
    if mode == "LOAD":
        if not os.path.isfile(path):
            raise ValueError(f"For 'set_op_strategy_config', the strategy file '{path}' does not exist.")
        with open(path, encoding="utf-8") as f:
            _op_strategy["loaded"] = {k: tuple(tuple(s) for s in v) for k, v in json.load(f).items()}


def _op_key(prim):
    key = prim.__dict__.get("_op_strategy_key")
    if key is None:
        count = _op_strategy["order"].get(prim.name, 0)
        _op_strategy["order"][prim.name] = count + 1
        key = f"{prim.name}-{count}"
        prim.__dict__["_op_strategy_key"] = key
    return key


def loaded_strategy(prim):
    """The strategy the loaded file gives ``prim`` (None: no file loaded, or none for it)."""
    if _op_strategy["mode"] != "LOAD":
        return None
    return _op_strategy["loaded"].get(_op_key(prim))


def record_strategy(prim, strategy):
    """Under ``"SAVE"``, write ``prim``'s chosen strategy into the file (rewritten whole each time)."""
    if _op_strategy["mode"] != "SAVE" or strategy is None:
        return
    _op_strategy["saved"][_op_key(prim)] = [list(s) for s in strategy]
    with open(_op_strategy["path"], "w", encoding="utf-8") as f:
        json.dump(_op_strategy["saved"], f, indent=1)
