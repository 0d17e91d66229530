"""Hands ``mindspore.mint`` and ``mindspore.numpy`` down to the ops functions and Tensor methods built on their
compositions (``ops.qr``, ``x.diagonal()``, ``x.index_add(...)``...: see ``mindspore.ops._higher``).

Those packages import ``mindspore.ops``, which defines the methods, so the methods cannot import them (the
core stays free of import cycles, late imports included); this module, imported by ``import mindspore`` once
both exist, registers them below instead.
"""
import mindspore.mint as mint
import mindspore.numpy as numpy
from mindspore.mint import linalg
from mindspore.mint.nn import functional as mint_functional
from mindspore.ops import _higher

_higher.provide(mint=mint, numpy=numpy, linalg=linalg, mint_functional=mint_functional)
