"""``mindspore.common._Function``: a custom autograd function (PyTorch's ``torch.autograd.Function``), PYNATIVE only.

It lives with the tape it records on and installs itself as ``mindspore.common._Function`` (``common`` sits below
autodiff), as MindSpore's path is (``import mindspore`` imports this module).

A subclass defines ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` (or ``forward(*args)`` plus
``setup_context(ctx, inputs, output)``) and is called as ``Cls.apply(*args)``. ``apply`` runs ``forward`` with
nothing recorded, then puts one node on every gradient tape that tracks an input, whose bprop is ``backward``: the
gradients ``backward`` returns (one per ``apply`` argument, None for non-tensors) flow to the inputs. ``ctx`` is an
instance of the subclass: ``save_for_backward`` keeps tensors for ``saved_tensors``, ``needs_input_grad`` says
which inputs a tape differentiates, ``mark_non_differentiable`` outputs get no gradient, ``set_materialize_grads``
(default True) turns the None gradients of unused outputs into zeros.
"""
from __future__ import annotations

import inspect

import mindspore.common as _common
from mindspore._autodiff import tape as _tape
from mindspore._core import interpreters as _interpreters
from mindspore._errors import MSRuntimeError
from mindspore._infer import staging as _staging
from mindspore.common.tensor import Tensor

__all__ = ["_Function"]


class _FunctionNode:
    """Stands in for a primitive on the tape: its bprop is the Function's ``backward``."""

    __slots__ = ("cls", "ctx", "n_args", "name", "bprop_none_douts")

    def __init__(self, cls, ctx, n_args):
        self.cls, self.ctx, self.n_args = cls, ctx, n_args
        self.name = f"{cls.__name__}.backward"
        self.bprop_none_douts = not ctx.materialize_grads

    def bprop(self, *args):
        dout = args[-1]
        douts = tuple(dout) if isinstance(dout, (tuple, list)) else (dout,)
        grads = self.cls.backward(self.ctx, *douts)
        grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
        if len(grads) < self.n_args:
            grads = grads + (None,) * (self.n_args - len(grads))
        if len(grads) > self.n_args and any(g is not None for g in grads[self.n_args:]):
            raise MSRuntimeError(f"For '{self.cls.__name__}.backward', it returned {len(grads)} gradients, but "
                                 f"'apply' was given {self.n_args} inputs.")
        return grads[:self.n_args]


class _Function:
    """Base class of custom autograd functions (see the module docstring); PYNATIVE only.

    Examples:
        >>> import mindspore as ms
        >>> class Square(ms.common._Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     def backward(ctx, dout):
        ...         x, = ctx.saved_tensors
        ...         return 2 * x * dout
        >>> ms.grad(lambda x: Square.apply(x))(ms.Tensor(3.0))
        Tensor(shape=[], dtype=Float32, value= 6)
    """

    _has_setup_context = False

    def __init__(self):
        self.saved_tensors = ()
        self.dirty_tensors = ()
        self.non_differentiable = ()
        self.materialize_grads = True
        self.needs_input_grad = ()

    # abstract: a subclass defines them (NotImplementedError, as MindSpore 2.10 and PyTorch raise for one that does
    # not: the user's omission, not a missing feature here)
    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("forward function should be customized.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("backward function should be customized.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Save what ``backward`` needs (the alternative to taking ``ctx`` in ``forward``)."""
        raise NotImplementedError("setup_context is not implemented.")

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def mark_dirty(self, *args):
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` on ``args`` and make ``backward`` their gradient rule."""
        if _staging.active():
            raise MSRuntimeError(f"For '{cls.__name__}', a custom autograd function (_Function) is only supported "
                                 f"in PyNative mode.")
        cls._has_setup_context = cls.setup_context is not _Function.setup_context
        if cls._has_setup_context:
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        tapes = _tape.active() if _tape.GRAD_ENABLED[0] else []
        ctx = cls()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and any(_tape.tracked(a, t) for t in tapes) for a in args)
        with _interpreters.untraced():
            if cls._has_setup_context:
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
            else:
                out = cls.forward(ctx, *args, **kwargs)
        if not any(ctx.needs_input_grad):
            return out
        outs = out if isinstance(out, tuple) else (out,)
        fixed = {id(t) for t in ctx.non_differentiable}
        # fresh Tensor objects: an output that is an input (or non-differentiable) must not take over its node
        fresh = tuple(Tensor._make(o._data, o._dtype) if isinstance(o, Tensor) and id(o) not in fixed else o
                      for o in outs)
        _tape.record(_FunctionNode(cls, ctx, len(args)), tuple(args), fresh if isinstance(out, tuple) else fresh[0])
        return fresh if isinstance(out, tuple) else fresh[0]


_common._Function = _Function
