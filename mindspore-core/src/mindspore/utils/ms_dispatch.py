"""``MsDispatchMode``: a context (and decorator) that routes every primitive application through
``__ms_dispatch__(func, args, kwargs)`` of the innermost active mode, which may inspect, change or replace it.

Modes nest: subclass, override ``__ms_dispatch__`` and call ``func(*args)`` to run the operation (the default
does just that). While a mode's ``__ms_dispatch__`` runs, it is not active, so operations it performs run
directly (or through the modes outside it). Built on core's primitive call hook
(:func:`mindspore.plugin.set_primitive_call_hook`), chained with whatever hook was installed before.
"""
import contextlib
import threading

import mindspore.plugin as plugin

__all__ = ["MsDispatchMode"]

_state = threading.local()
_installed = {"prev": None, "count": 0}
_lock = threading.Lock()


def _stack():
    stack = getattr(_state, "stack", None)
    if stack is None:
        stack = _state.stack = []
    return stack


class MsDispatchMode(contextlib.ContextDecorator):
    """The base dispatch mode: override :meth:`__ms_dispatch__`.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore.utils import MsDispatchMode
        >>> class Log(MsDispatchMode):
        ...     def __ms_dispatch__(self, func, args, kwargs=None):
        ...         print(func.name)
        ...         return func(*args)
        >>> with Log():
        ...     ms.ops.add(ms.Tensor([1.0]), 1.0)
        Add
    """

    def __enter__(self):
        with _lock:
            if _installed["count"] == 0:
                _installed["prev"] = plugin.set_primitive_call_hook(MsDispatchMode._dispatch_hook)
            _installed["count"] += 1
        _stack().append(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _stack().pop()
        with _lock:
            _installed["count"] -= 1
            if _installed["count"] == 0:
                plugin.set_primitive_call_hook(_installed["prev"])
        return False

    @staticmethod
    def _dispatch_hook(prim, args):
        stack = _stack()
        prev = _installed["prev"]
        if not stack:   # another thread: modes are per thread
            return prev(prim, args) if prev is not None else plugin.apply_primitive(prim, args)
        mode = stack.pop()
        try:
            return mode.__ms_dispatch__(prim, args, {})
        finally:
            stack.append(mode)

    def __ms_dispatch__(self, func, args, kwargs=None):
        """Run ``func(*args)`` (override to intercept)."""
        return func(*args)
