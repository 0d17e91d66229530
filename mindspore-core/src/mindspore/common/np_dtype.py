"""MindSpore's ``mindspore.common.np_dtype``: NumPy's missing scalar type for ``mindspore.bfloat16`` (ml_dtypes',
the type ``Tensor.asnumpy()`` returns for a bfloat16 tensor)."""
from ml_dtypes import bfloat16  # noqa: F401

__all__ = ["bfloat16"]
