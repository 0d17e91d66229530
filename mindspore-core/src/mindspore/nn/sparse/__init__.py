"""MindSpore's ``mindspore.nn.sparse``: the sparse-tensor cells."""
from mindspore.nn import SparseToDense, SparseTensorDenseMatmul  # noqa: F401

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]
