"""``mindspore.utils.dryrun``: the script side of MindSpore's DryRun (``MS_SIMULATION_LEVEL``).

:func:`mock` picks a stand-in value for a branch that needs a device value when a simulation level is set, and the
real value otherwise. :func:`set_simulation` sets ``MS_SIMULATION_LEVEL=1`` and, as MindSpore, makes every Python
fetch of a Tensor's value log a warning once per call stack (in a simulation those values are not the real ones).
Here the runtime itself does not simulate: kernels still run and values stay exact; the level only steers
:func:`mock` and the warnings.
"""
import os
import traceback

import mindspore.log as logger
from mindspore.common.tensor import Tensor

__all__ = ["set_simulation", "mock"]


class TraceBack:
    """Wraps Tensor methods to warn, once per distinct call stack, that a simulated value is being read."""

    def __init__(self):
        self.stack_str_set = set()

    def inject(self, method):
        """``method`` with the warning in front."""
        if getattr(method, "_dryrun_injected", False):
            return method

        def new_method(*args, **kwargs):
            stack_list = traceback.format_list(traceback.extract_stack())
            stack_str = "".join(stack_list)
            if "Parameter" not in stack_str and stack_str not in self.stack_str_set:
                self.stack_str_set.add(stack_str)
                logger.warning("In dryrun mode, you cannot obtain real tensor value, and the traceback is {%s}",
                               stack_list)
            return method(*args, **kwargs)
        new_method._dryrun_injected = True
        return new_method


def set_simulation():
    """Enable DryRun from the script: ``MS_SIMULATION_LEVEL`` becomes ``"1"`` and reading a Tensor's value in Python
    (``asnumpy``, indexing, ``tolist``, ``int``/``float``) logs a warning with the call stack, once per stack.

    Examples:
        >>> import os
        >>> from mindspore.utils import dryrun
        >>> dryrun.set_simulation()  # doctest: +SKIP
        >>> print(os.environ.get('MS_SIMULATION_LEVEL'))  # doctest: +SKIP
        1
    """
    os.environ["MS_SIMULATION_LEVEL"] = "1"
    obj = TraceBack()
    for name in ("asnumpy", "__getitem__", "is_contiguous", "flush_from_cache", "tolist", "__int__", "__float__"):
        method = getattr(Tensor, name, None)
        if method is not None:
            setattr(Tensor, name, obj.inject(method))


def mock(mock_val, *args):
    """``mock_val`` when a simulation level is set (``MS_SIMULATION_LEVEL``), else the real value from ``args``:
    the value itself (one non-callable), ``args[0]()`` (one callable) or ``args[0](*args[1:])``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore.utils import dryrun
        >>> a = ms.Tensor(np.ones((3, 3)).astype(np.float32))
        >>> bool(dryrun.mock(False, (a > 0.5).any))
        True
    """
    if os.environ.get("MS_SIMULATION_LEVEL"):
        return mock_val
    if len(args) == 1:
        if callable(args[0]):
            return args[0]()
        return args[0]
    return args[0](*args[1:])
