"""Primitive definitions, one family file per op group.

Each family module lists its primitives in ``PRIMITIVES`` (an explicit list, no registration by
import side effect). :mod:`mindspore.ops._registry` builds the operator registry from
:data:`FAMILIES`; the completeness test checks every listed class has its rules and a bprop or the
``NON_DIFFERENTIABLE`` marker.
"""
from mindspore.ops._defs import image  # noqa: I001
from mindspore.ops._defs import custom  # noqa: I001
from mindspore.ops._defs import array_prims  # noqa: I001
from mindspore.ops._defs import control_prims  # noqa: I001
from mindspore.ops._defs import dct, linalg_scipy  # noqa: I001
from mindspore.ops._defs import rnn  # noqa: I001
from mindspore.ops._defs import (array, array_more, comm, complex_ops, conv, ctc, debug, deprecated, fft, indexing,
                                 linalg, linalg_more, loss, math, math_ext, math_misc, math_more, math_prims,
                                 math_special, nn, nn_prims, optim, random, reduce, scatter, sparse, summary)

#: The family modules, in the order their primitives enter the registry.
FAMILIES = (image, math, math_ext, math_more, math_special, math_misc, math_prims, complex_ops, fft, linalg,
            linalg_more, linalg_scipy, dct, array,
            array_more, indexing, scatter, reduce, nn, nn_prims, conv, loss, ctc, random, debug, comm, deprecated, summary,
            sparse, optim, custom, array_prims, control_prims, rnn)
