"""The one abstract evaluation of a primitive application, shared by eager dispatch and graph staging.

``evaluate(prim, args, target)`` takes the application's *abstract* arguments (a
:class:`~mindspore._core.primitive.TensorSpec` for each tensor, a tuple of them for a tuple of tensors,
every other argument as its Python value) and returns an :class:`Evaluation`: either a compile-time
value (``infer_value``: ``Shape``, ``DType``, ...) or the output spec(s) from the primitive's pure
dtype and shape rules. A primitive whose result dtype depends on its inputs' ranks too defines
``infer_dtype_of_specs``, which receives the abstract arguments instead of their dtypes. The rules raise MindSpore-style errors on bad input; the device-target check
and the check that a multi-output rule is consistent live here too, so each message exists once.
"""
from __future__ import annotations

from mindspore._core.primitive import TensorSpec
from mindspore._errors import InternalError, MSRuntimeError

__all__ = ["Evaluation", "evaluate", "abstract_args", "shape_view", "dtype_view", "check_target"]


def _is_tensor(a):
    return getattr(type(a), "__ms_tensor__", False)


def abstract_args(args):
    """Concrete arguments -> abstract ones: each tensor (any class marked ``__ms_tensor__``, which
    Tensor is) becomes a :class:`TensorSpec` of its shape and dtype, also inside tuples and lists."""
    out = []
    for a in args:
        if _is_tensor(a):
            out.append(TensorSpec(a.shape, a.dtype))
        elif type(a) in (tuple, list) and any(_is_tensor(x) for x in a):
            out.append(tuple(abstract_args(a)))
        else:
            out.append(a)
    return out


class Evaluation:
    """The result of :func:`evaluate`: ``value`` (when ``has_value``) or ``out`` (a TensorSpec, or a
    tuple of them when ``multi``)."""

    __slots__ = ("has_value", "value", "out", "multi")

    def __init__(self, has_value=False, value=None, out=None, multi=False):
        self.has_value = has_value
        self.value = value
        self.out = out
        self.multi = multi


def _view(args, attr):
    out = []
    for a in args:
        t = type(a)
        if t is TensorSpec:
            out.append(getattr(a, attr))
        elif (t is tuple or t is list) and any(type(x) is TensorSpec for x in a):
            out.append(tuple(_view(a, attr)))
        else:
            out.append(a)
    return out


def shape_view(args):
    """The arguments as ``infer_shape`` sees them: tensor specs replaced by their shapes."""
    return _view(args, "shape")


def dtype_view(args):
    """The arguments as ``infer_dtype`` sees them: tensor specs replaced by their dtypes."""
    return _view(args, "dtype")


def check_target(prim, target):
    """Refuse a primitive that runs only on other device targets."""
    targets = getattr(prim, "device_targets", None)
    if targets is not None and target is not None and target not in targets:
        raise MSRuntimeError(f"For '{prim.name}', the operator runs only on {', '.join(targets)}, but the device "
                             f"target is '{target}': {getattr(prim, 'device_only_reason', '')}.")


def evaluate(prim, args, target=None, need_shape=False):
    """Abstract evaluation of ``prim(*args)`` on abstract ``args`` for device ``target``.

    ``need_shape``: the caller (graph staging) needs static output shapes; a rule giving none is then
    an error instead of a shape the kernel decides (``TensorSpec.shape`` is ``None``).
    """
    infer_value = getattr(prim, "infer_value", None)
    if infer_value is not None:
        value = infer_value(*args)
        if value is not None:
            return Evaluation(has_value=True, value=value)
    spec_rule = getattr(prim, "infer_dtype_of_specs", None)
    out_dtype = prim.infer_dtype(*dtype_view(args)) if spec_rule is None else spec_rule(*args)
    out_shape = prim.infer_shape(*shape_view(args))
    check_target(prim, target)
    if out_shape is None and need_shape:
        raise InternalError(f"For '{prim.name}', the shape rule gave no shape: graph mode needs static shapes.")
    if isinstance(out_dtype, (tuple, list)):
        n = len(out_dtype)
        shapes = (None,) * n if out_shape is None else out_shape
        if len(shapes) != n:
            raise InternalError(f"For '{prim.name}', the shape rule gave {out_shape!r} for {n} outputs.")
        return Evaluation(out=tuple(TensorSpec(s, d) for s, d in zip(shapes, out_dtype)), multi=True)
    return Evaluation(out=TensorSpec(out_shape, out_dtype))
