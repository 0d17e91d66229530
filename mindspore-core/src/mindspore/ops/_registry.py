"""The operator registry: every primitive class by name.

Built from the explicit family list in :mod:`mindspore.ops._defs` plus the primitives that plugins
contribute through the ``ms_register_primitives`` hook (collected again when the plugin generation
moves). Kernels may only be registered for names found here: this module hands the backend layer
below a function listing them when it is imported.
"""
from __future__ import annotations

import threading

import mindspore._generation as _generation
from mindspore._core import primitive as _primitive
from mindspore._core.primitive import Primitive
from mindspore._plugin import manager
from mindspore._runtime import backend as _backend
from mindspore.ops._defs import FAMILIES

_GEN = _generation.GENERATION

__all__ = ["primitive_classes", "primitive_names", "plugin_primitives", "load_plugin_primitives", "lookup"]

_lock = threading.RLock()
_core = None
_plugin_prims: dict[str, tuple[type, str]] = {}
_loaded_at = [None]   # the plugin generation the plugin primitives were collected at


def _core_classes():
    global _core
    if _core is None:
        table = {}
        for family in FAMILIES:
            for cls in family.PRIMITIVES:
                if cls.__name__ in table:
                    raise RuntimeError(f"primitive '{cls.__name__}' is defined twice "
                                       f"({table[cls.__name__].__module__} and {cls.__module__})")
                table[cls.__name__] = cls
        _core = table
    return _core


def load_plugin_primitives():
    """Collect the primitives plugins add (again whenever the plugin set changed)."""
    if _loaded_at[0] == _GEN[0]:
        return
    with _lock:
        manager.plugin_manager()
        gen = _GEN[0]
        if _loaded_at[0] == gen:
            return
        core = _core_classes()
        found = {}
        for rec, classes in manager.call_each("ms_register_primitives"):
            for cls in classes or ():
                if not (isinstance(cls, type) and issubclass(cls, Primitive)):
                    rec.fail("failed", TypeError(f"{cls!r} is not a Primitive subclass"), "ms_register_primitives")
                    continue
                if cls.__name__ in core or cls.__name__ in found:
                    rec.fail("failed", ValueError(f"primitive name '{cls.__name__}' already exists"),
                             "ms_register_primitives")
                    continue
                found[cls.__name__] = (cls, rec.name)
        _plugin_prims.clear()
        _plugin_prims.update(found)
        _loaded_at[0] = gen


def primitive_classes():
    """Name -> class for core primitives and those added by plugins."""
    load_plugin_primitives()
    table = dict(_core_classes())
    table.update({n: c for n, (c, _) in _plugin_prims.items()})
    return table


def plugin_primitives():
    """Name -> plugin name, for the primitives plugins added."""
    load_plugin_primitives()
    return {n: plugin for n, (_, plugin) in sorted(_plugin_prims.items())}


def primitive_names():
    return set(primitive_classes())


def lookup(name):
    return primitive_classes()[name]


_backend.PRIMITIVE_NAMES[0] = primitive_names   # the kernel registry refuses kernels for unknown names
_primitive.CLASS_LOOKUP[0] = lookup             # the tape and the executor build the primitives they run by name
