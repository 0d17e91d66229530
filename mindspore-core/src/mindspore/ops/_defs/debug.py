"""Debugging primitives: Print and the float-status family.

``AllReduce`` and ``ReduceOp`` moved to the collective family (:mod:`mindspore.ops._defs.comm`); they are
re-exported here so that the old import path keeps working.
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore._core import interpreters
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register
from mindspore.common.tensor import Tensor
from mindspore.ops._defs.comm import AllReduce, ReduceOp  # noqa: F401 - their old home (listed in comm's family)


# --- Print ----------------------------------------------------------------------------------
class Print(Primitive):
    """``Print()(*inputs)``: print strings, numbers and tensors, one a line. As 2.10 does, a tensor prints as its
    ``repr`` in PYNATIVE (``Tensor(shape=[2], dtype=Int32, value= [1, 2])``); a graph's kernel writes it without
    the commas, a 0-d one as its bare value."""

    side_effect = True   # prints at every run of a graph

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, *args):
        if not interpreters.find("staging"):
            args = tuple(repr(x) if isinstance(x, Tensor) else x for x in args)
        return super().__call__(*args)

    @staticmethod
    def graph_text(array):
        """A host array (NumPy) as 2.10's graph-mode Print writes it, for the backends' kernels: the tensor's repr
        without the commas (a 1-D one's values right after ``value=``); a 0-d one as its bare value."""
        head, _, value = repr(Tensor(array)).partition("value=")
        value = value[:-1]      # the repr's closing parenthesis
        if array.ndim == 0:
            return value.strip()
        value = value.replace(",", "")
        return f"{head}value={value[1:] if value.startswith(' [') else value})"     # 1-D: "value=[1 2]"

    def infer_shape(self, *inputs):
        for x in inputs:
            if not (isinstance(x, (str, tuple)) or rules.is_scalar(x)):
                raise MSTypeError(f"For '{self.name}', the inputs must be strings, numbers or Tensors, "
                                  f"but got {type(x).__name__}.")
        return ()

    def infer_dtype(self, *inputs):
        return mstype.int32

    bprop = NON_DIFFERENTIABLE


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


# --- AllFinite ------------------------------------------------------------------------------
def _check_tensor_tuple(op, name, dtypes, allowed):
    """Input ``name`` of ``op`` (its elements' dtypes, as ``infer_dtype`` gets them) is a tuple or list of Tensors
    whose dtypes are in ``allowed``."""
    if not isinstance(dtypes, (tuple, list)):
        raise MSTypeError(f"For '{op}', the input '{name}' must be a tuple or list of Tensors, but got "
                          f"{'Tensor' if isinstance(dtypes, mstype.Type) else type(dtypes).__name__}.")
    for i, d in enumerate(dtypes):
        if not isinstance(d, mstype.Type):
            raise MSTypeError(f"For '{op}', every element of '{name}' must be a Tensor, but got {type(d).__name__} "
                              f"at position {i}.")
        rules.check_dtype_in(op, f"{name}[{i}]", d, allowed)


class AllFinite(Primitive):
    """``AllFinite()(inputs)``: a bool scalar, True when no element of any Tensor of ``inputs`` (a tuple or list,
    of any shapes and dtypes; integers and bools are always finite) is inf or NaN.

    The overflow check of a loss-scaled step as one operator (``amp.all_finite``,
    ``TrainOneStepWithLossScaleCell``): checking each gradient with ``isfinite``, ``all`` and a ``logical_and``
    cost three operators per gradient."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, inputs):
        return ()

    def infer_dtype(self, inputs):
        _check_tensor_tuple(self.name, "inputs", inputs, rules.NUMBER_TYPES + (mstype.bool_,))
        return mstype.bool_

    bprop = NON_DIFFERENTIABLE


# --- UnscaleAndCheckFinite ------------------------------------------------------------------
class UnscaleAndCheckFinite(Primitive):
    """``UnscaleAndCheckFinite()(grads, scale_inv)``: ``(grads[0] * scale_inv, ..., grads[-1] * scale_inv,
    all_finite)``, each product in its gradient's dtype and shape (``scale_inv``, a float scalar Tensor of shape ()
    or (1,), cast to that dtype first, as ``ops.mul(g, ops.cast(scale_inv, g.dtype))``), and a bool scalar: True when
    no element of any product is inf or NaN.

    A loss-scaled step's unscaling and overflow check of all its gradients as one operator
    (``TrainOneStepWithLossScaleCell``), as PyTorch's ``GradScaler`` does them with one multi-tensor kernel: a Mul
    per gradient and an ``AllFinite`` cost a PYNATIVE step one operator call per gradient more."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, grads, scale_inv):
        if not isinstance(grads, (tuple, list)) or not all(rules.is_shape(g) for g in grads):
            return ()      # (not a tuple of Tensors: infer_dtype says so)
        if tuple(scale_inv) not in ((), (1,)):
            raise MSValueError(f"For '{self.name}', the shape of 'scale_inv' must be () or (1,), but got "
                               f"{tuple(scale_inv)}.")
        return tuple(tuple(g) for g in grads) + ((),)

    def infer_dtype(self, grads, scale_inv):
        _check_tensor_tuple(self.name, "grads", grads, rules.FLOAT_TYPES)
        rules.check_dtype_in(self.name, "scale_inv", scale_inv, rules.FLOAT_TYPES)
        return tuple(grads) + (mstype.bool_,)

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


PRIMITIVES = [Print, FloatStatus, AllFinite, UnscaleAndCheckFinite, NPUAllocFloatStatus, NPUGetFloatStatus,
              NPUClearFloatStatus]
