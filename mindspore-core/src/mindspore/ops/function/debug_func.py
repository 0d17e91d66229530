"""Functional debugging ops: ``ops.print_``."""
from mindspore.common import dtype as mstype
from mindspore.ops._defs import debug as debug_defs

__all__ = ["print_"]

_print = debug_defs.Print()


def print_(*input_x):
    """Print strings, numbers, tuples, dtypes and tensors; returns None."""
    # a dtype (``ops.print_(x, ms.float16)``, accepted by MindSpore 2.10) prints as its name
    _print(*(str(x) if isinstance(x, mstype.Type) else x for x in input_x))


# MindSpore cuts mindspore.ops into its own families: a function imported from its `debug_func` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.ops")
