"""The higher-layer packages that some ops functions and Tensor methods are built on, handed down.

``mindspore.mint`` and ``mindspore.numpy`` import ``mindspore.ops``; a few ``ops`` functions (``ops.qr``,
``ops.searchsorted``, ``ops.cholesky_solve``, ...) and Tensor methods reuse their compositions. Importing them from
``ops`` (even late, inside a function) would make the core's import graph cyclic, which
``tests/contracts`` forbids; instead ``mindspore._tensor_methods_ext``, imported at the end of ``import mindspore``,
registers them here with :func:`provide`, and the users look them up with :func:`get`.
"""
from mindspore._errors import MSRuntimeError

__all__ = ["provide", "get"]

_MODULES = {}


def provide(**modules):
    """Register higher-layer modules by name (``mint``, ``numpy``, ``linalg`` for ``mint.linalg``,
    ``mint_functional`` for ``mint.nn.functional``)."""
    _MODULES.update(modules)


def get(name):
    """The module registered as ``name``."""
    try:
        return _MODULES[name]
    except KeyError:
        raise MSRuntimeError(f"This function is built on mindspore.{name}, which is available once 'import "
                             f"mindspore' has completed.") from None
