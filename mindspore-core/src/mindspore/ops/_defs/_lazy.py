"""The functional namespace as bprops (and sibling functional modules) see it, without importing it.

Primitive blocks sit below the functional API (which is built from them), yet their bprops are
written with functional ops. Instead of an import that would close a cycle, bprops call through
:data:`functional`, a slot that :mod:`mindspore.ops.functional` fills with itself when it is imported
(``import mindspore`` always imports it, before any bprop can run). Dependency points one way: the
layer above registers itself with the layer below.
"""
from mindspore._errors import InternalError

__all__ = ["Slot", "functional"]


class Slot:
    """A namespace filled from above: attribute reads go to the object :meth:`bind` installed."""

    def __init__(self, name):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_target", None)

    def bind(self, target):
        object.__setattr__(self, "_target", target)

    def __getattr__(self, attr):
        target = self._target
        if target is None:
            raise InternalError(f"'{self._name}' is used before it was imported (import mindspore first).")
        return getattr(target, attr)

    def __repr__(self):
        return f"<slot {self._name}: {'bound' if self._target is not None else 'unbound'}>"


#: ``mindspore.ops.functional``, for use inside bprops.
functional = Slot("mindspore.ops.functional")
