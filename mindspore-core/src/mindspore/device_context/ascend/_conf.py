"""The Ascend operator settings of ``op_precision``, ``op_tuning`` and ``op_debug``: each is validated as MindSpore
2.10 validates it and kept here for an Ascend backend to read. On another device target (this build's CPU or GPU) a
setting does nothing but log MindSpore's error, as 2.10 does on its first call (2.10's later calls there raise a
``NameError`` from its missing Ascend bindings; every call here behaves as the first)."""
from mindspore.log import error

__all__ = ["CONF", "supported", "store"]

#: name -> value of the settings made on an Ascend target
CONF = {}


def supported():
    """False (after logging 2.10's error) unless the device target is Ascend."""
    from mindspore.context import get_context
    target = get_context("device_target")
    if target != "Ascend":
        error(f"{target} device is not supported. Please use correct device")
        return False
    return True


def store(name, value):
    """Record a setting; a second, different value for it raises 2.10's RuntimeError."""
    if name in CONF and CONF[name] != value:
        raise RuntimeError(f"The '{name}' can not be set repeatedly.")
    CONF[name] = value
