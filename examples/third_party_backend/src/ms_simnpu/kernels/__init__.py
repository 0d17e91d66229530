"""The SimNPU kernels, one module per primitive family (the same names as core's ``ops/_defs``).

Each module has ``KERNELS = {primitive name: fn}``. A kernel is ``fn(prim, *inputs, out)``:

* ``inputs`` are the primitive's arguments, each tensor replaced by its :class:`~ms_simnpu.runtime.SimBuffer`
  (a tuple of tensors by a tuple of buffers), other arguments as the Python values they are;
* ``out`` is the output :class:`mindspore.plugin.TensorSpec` core inferred (``shape``, ``dtype``, a
  MindSpore dtype), or a tuple of them for a multi-output primitive;
* it returns a buffer (or a tuple of buffers) of exactly that shape and dtype.

:data:`DTYPES` restricts some kernels to the dtypes they are written for; core then reports other
dtypes as a missing kernel instead of running these on, say, integers.
"""
import collections

from ms_simnpu.kernels import _util, array, conv, loss, math, nn, reduce

FAMILIES = (math, array, reduce, nn, conv, loss)

_FLOAT_ONLY = ("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPool", "MaxPoolGrad", "Sigmoid",
               "Softmax", "LogSoftmax", "SoftmaxCrossEntropyWithLogits", "ApplyMomentum")

#: Registration dtypes by primitive (absent: any dtypes): a collection of dtypes for every tensor input,
#: or signatures with one entry per tensor input.
DTYPES = {name: _util.FLOATS for name in _FLOAT_ONLY}
DTYPES["SparseSoftmaxCrossEntropyWithLogits"] = [(_util.FLOATS, _util.INDICES)]

#: How many times each kernel ran in this process (by primitive name).
CALLS = collections.Counter()


def _counted(name, fn):
    def kernel(prim, *inputs, out):
        CALLS[name] += 1
        return fn(prim, *inputs, out=out)
    kernel.__name__ = kernel.__qualname__ = fn.__name__
    kernel.__module__ = fn.__module__
    return kernel


def all_kernels():
    """``{primitive name: (kernel, dtypes)}`` for every kernel this backend has."""
    table = {}
    for family in FAMILIES:
        for name, fn in family.KERNELS.items():
            table[name] = (_counted(name, fn), DTYPES.get(name))
    return table
