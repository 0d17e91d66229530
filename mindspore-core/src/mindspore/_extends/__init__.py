"""``mindspore._extends``: MindSpore's package of helpers called from its C++ side; outside libraries (MindPet's
activation layers, model zoo code) import :func:`cell_attr_register` from it.

``cell_attr_register`` decorates a Cell's ``__init__`` and records the constructor's arguments as the string
``cell_init_args`` (``"<ClassName>" + str(arguments)``), MindSpore's key for reusing one compiled graph across Cells
built with the same arguments. Here graphs are keyed by the Cell itself, so the attribute is informational, kept
with MindSpore's value for code that reads it.
"""
import functools
import inspect

__all__ = ["cell_attr_register"]


def cell_attr_register(fn=None, attrs=None):
    """Decorator of a Cell's ``__init__``: after it ran, ``self.cell_init_args`` holds the class name and the
    constructor's arguments (all of them when ``attrs`` is None, else the named attributes' values: a list of
    names, or one name whose value is used as it is).

    Examples:
        >>> from mindspore import nn
        >>> from mindspore._extends import cell_attr_register
        >>> class Scale(nn.Cell):
        ...     @cell_attr_register
        ...     def __init__(self, factor=2.0):
        ...         super().__init__()
        ...         self.factor = factor
        >>> print(Scale(3.0).cell_init_args)
        Scaledict_values([3.0])
    """
    def wrap_cell(init):
        @functools.wraps(init)
        def deco(self, *args, **kwargs):
            arguments = []
            if attrs is None:
                bound = inspect.signature(init).bind(self, *args, **kwargs)
                arguments = bound.arguments
                del arguments["self"]
                arguments = arguments.values()
            init(self, *args, **kwargs)
            if attrs is None:
                self.cell_init_args = type(self).__name__ + str(arguments)
                return
            if isinstance(attrs, list):
                for item in attrs:
                    if not isinstance(item, str):
                        raise ValueError("attr must be a string")
                    if hasattr(self, item):
                        arguments.append(getattr(self, item))
            elif isinstance(attrs, str):
                if hasattr(self, attrs):
                    arguments = getattr(self, attrs)
            else:
                raise ValueError("attrs must be list or string")
            self.cell_init_args = type(self).__name__ + str(arguments)
        return deco

    if fn is not None:
        return wrap_cell(fn)
    return wrap_cell
