"""MindSpore's ``mindspore.nn.sparse.sparse``."""
from mindspore.nn import SparseToDense, SparseTensorDenseMatmul  # noqa: F401

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]
