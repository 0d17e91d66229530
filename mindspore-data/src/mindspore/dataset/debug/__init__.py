"""The pipeline debugger (``mindspore.dataset.debug``): hooks that see the columns before and after each operation of
a ``map`` while the debug mode is on.

With :func:`mindspore.dataset.config.set_debug_mode` ``(True, debug_hook_list)``, each ``map`` made afterwards runs a
copy of every hook of the list before its first operation and after each operation (by default one
:class:`PrintMetaDataHook`); a hook placed in a ``map``'s operations by the user runs there too. A hook receives the
row's columns and passes them on unchanged. As in MindSpore, :meth:`DebugHook.compute` is called with the tuple of
columns as its one argument, so ``args[0][0]`` is the first column.
"""
import collections.abc

import numpy as np

__all__ = ["DebugHook", "PrintMetaDataHook", "PrintDataHook"]


class DebugHook:
    """The base class of the pipeline debugger's hooks: subclasses define :meth:`compute`.

    Args:
        prev_op_name (str, optional): the operation before this point of the pipeline. Default: ``None``.

    Examples:
        >>> import mindspore.dataset as ds
        >>> import mindspore.dataset.debug as debug
        >>> class CustomizedHook(debug.DebugHook):
        ...     def compute(self, *args):
        ...         print("the first column:", args[0][0])
        ...         return args
        >>> ds.config.set_debug_mode(True, debug_hook_list=[CustomizedHook()])
    """

    def __init__(self, prev_op_name=None):
        self.prev_op_name = prev_op_name
        self.is_first_op = None

    def __call__(self, *args):
        if self.prev_op_name:
            side = "INPUT" if self.is_first_op else "OUTPUT"
            print(f"[Dataset debugger] Print the [{side}] of the operation [{self.prev_op_name}].", flush=True)
        self.compute(args)
        return args

    def compute(self, *args):
        """What the hook does with the columns (``args[0]``, a tuple); subclasses must define it."""
        raise RuntimeError("compute() is not overridden in subclass of class DebugHook.")

    def set_previous_op_name(self, prev_op_name):
        self.prev_op_name = prev_op_name

    def set_is_first(self, is_first_op):
        self.is_first_op = is_first_op


def _column_lines(columns, describe):
    for index, column in enumerate(columns):
        print(f"Column {index}. {describe(column)}", flush=True)


def _meta(column):
    if isinstance(column, np.ndarray):
        return f"The dtype is [{column.dtype}]. The shape is [{column.shape}]."
    if hasattr(column, "getbands"):        # a PIL image
        return f"The type is [{type(column)}]. The shape is [{column.size}]."
    if isinstance(column, collections.abc.Sized):
        return f"The type is [{type(column)}]. The size is [{len(column)}]."
    return ""


class PrintMetaDataHook(DebugHook):
    """Prints the dtype and shape of each column (the debug mode's default hook)."""

    def compute(self, *args):
        _column_lines(args[0], _meta)
        return args


class PrintDataHook(DebugHook):
    """Prints the data of each column."""

    def compute(self, *args):
        _column_lines(args[0], lambda c: f"The data is [{np.asarray(c) if hasattr(c, 'getbands') else c}].")
        return args
