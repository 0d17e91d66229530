"""``mindspore._c_expression.typing``: the classes of MindSpore's dtypes (``typing.Type``, ``typing.Float``, ...),
which libraries test with ``isinstance`` (MindNLP: ``isinstance(arg, mindspore._c_expression.typing.Type)``); they
live in :mod:`mindspore.common.dtype`."""
from mindspore.common.dtype import Float, Int, TensorType, Type  # noqa: F401

__all__ = ["Type", "Float", "Int", "TensorType"]
