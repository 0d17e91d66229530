"""MindSpore's ``mindspore.nn.layer.math``: its math cells, defined in :mod:`mindspore.nn`."""
from mindspore.nn import (  # noqa: F401
    ReduceLogSumExp, Range, LGamma, DiGamma, IGamma, LBeta, CosineSimilarity, MatMul, Moments, MatInverse, MatDet
)

__all__ = [
    "ReduceLogSumExp", "Range", "LGamma", "DiGamma", "IGamma", "LBeta", "CosineSimilarity", "MatMul", "Moments",
    "MatInverse", "MatDet"
]
