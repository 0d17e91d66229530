"""MindSpore's ``mindspore.ops.function.linalg_func``."""
from mindspore.ops import cond, eig, eigvals, geqrf, pinv, qr, svd  # noqa: F401

__all__ = ["cond", "eig", "eigvals", "geqrf", "pinv", "qr", "svd"]
