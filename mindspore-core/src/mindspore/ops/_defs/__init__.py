"""Primitive definitions, one family file per op group.

Each family module lists its primitives in ``PRIMITIVES`` (an explicit list, no registration by
import side effect). :mod:`mindspore.ops._registry` builds the operator registry from
:data:`FAMILIES`; the completeness test checks every listed class has its rules and a bprop or the
``NON_DIFFERENTIABLE`` marker.
"""
from mindspore.ops._defs import (array, comm, conv, debug, indexing, linalg, loss, math, math_ext, math_more, nn,
                                 random, reduce)

#: The family modules, in the order their primitives enter the registry.
FAMILIES = (math, math_ext, math_more, linalg, array, indexing, reduce, nn, conv, loss, random, debug, comm)
