"""Debugging and communication primitives: Print, and the collectives a single process runs.

``AllReduce`` is defined here so that model code using ``ops.AllReduce()`` runs unchanged on one
device, where the world group has one rank and the reduction is the identity; the
mindspore-parallel add-on registers the multi-process kernels through the same registry.
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register


# --- Print ----------------------------------------------------------------------------------
class Print(Primitive):
    """``Print()(*inputs)``: print strings and tensors (each tensor as ``print(tensor)`` shows it)."""

    side_effect = True   # prints at every run of a graph

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, *args):
        return super().__call__(*args)

    def infer_shape(self, *inputs):
        for x in inputs:
            if not (isinstance(x, (str, tuple)) or rules.is_scalar(x)):
                raise MSTypeError(f"For '{self.name}', the inputs must be strings, numbers or Tensors, "
                                  f"but got {type(x).__name__}.")
        return ()

    def infer_dtype(self, *inputs):
        return mstype.int32

    bprop = NON_DIFFERENTIABLE


class ReduceOp:
    """Reduction kinds of the collectives."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


def _check_group(name, group):
    if not isinstance(group, str):
        raise MSTypeError(f"For '{name}', the 'group' must be a str, but got {type(group).__name__}.")


# --- AllReduce ------------------------------------------------------------------------------
class AllReduce(Primitive):
    """Reduce ``x`` over every rank of ``group``; every rank gets the result."""

    @prim_attr_register
    def __init__(self, op=ReduceOp.SUM, group="hccl_world_group"):
        if op not in (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD):
            raise MSValueError(f"For '{self.name}', the 'op' must be one of sum, max, min, prod, but got {op!r}.")
        _check_group(self.name, group)

    def infer_shape(self, x):
        return rules.check_rank(self.name, "x", x, range(0, 9))

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)

    def bprop(self, x, out, dout):
        if self.op == ReduceOp.SUM:
            return (AllReduce(ReduceOp.SUM, self.group)(dout),)
        return (fops.mul(dout, fops.cast(fops.equal(x, out), dout.dtype)),)


# --- FloatStatus ----------------------------------------------------------------------------
class FloatStatus(Primitive):
    """``FloatStatus()(x)``: ``[1.]`` (float32, shape (1,)) if ``x`` holds an inf or NaN, else ``[0.]``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, range(0, 9))
        return (1,)

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16))
        return mstype.float32

    bprop = NON_DIFFERENTIABLE


# --- NPUAllocFloatStatus / NPUGetFloatStatus / NPUClearFloatStatus --------------------------
_NPU_ONLY = ("it reads the Ascend float-status register, which no other device has; check overflow with "
             "ops.FloatStatus or mindspore.amp.all_finite instead")


class NPUAllocFloatStatus(Primitive):
    """``NPUAllocFloatStatus()()``: a float32 (8,) buffer for the Ascend overflow flags (Ascend only)."""

    device_targets = ("Ascend",)
    device_only_reason = _NPU_ONLY

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self):
        return (8,)

    def infer_dtype(self):
        return mstype.float32

    bprop = NON_DIFFERENTIABLE


class NPUGetFloatStatus(Primitive):
    """``NPUGetFloatStatus()(status)``: the Ascend overflow flags written into ``status`` (Ascend only)."""

    device_targets = ("Ascend",)
    device_only_reason = _NPU_ONLY

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        if tuple(x) != (8,):
            raise MSValueError(f"For '{self.name}', the 'x' must have shape (8,), but got {tuple(x)}.")
        return (8,)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, (mstype.float32,))

    bprop = NON_DIFFERENTIABLE


class NPUClearFloatStatus(NPUGetFloatStatus):
    """``NPUClearFloatStatus()(status)``: clear the Ascend overflow flags (Ascend only)."""

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [Print, AllReduce, FloatStatus, NPUAllocFloatStatus, NPUGetFloatStatus, NPUClearFloatStatus]
