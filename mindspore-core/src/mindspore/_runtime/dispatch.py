"""Eager (PYNATIVE) dispatch: the bottom interpreter, which runs one primitive application.

``Eager.apply(prim, args)`` does, in order: split the arguments into device buffers (tensors) and
constants; look up the per-primitive-instance cache by the input *signature* (each tensor's shape
and dtype, each constant's type and value); on a miss, run the one abstract evaluation
(:func:`mindspore._core.evaluate.evaluate`: the primitive's pure shape/dtype rules, which raise
MindSpore-style errors on bad input) and pick the kernel for the dtypes of all tensor inputs; run the
kernel with the inferred output spec (``out=``); check that it returned what it was asked for; and
wrap the outputs as Tensors. Recording for autodiff is the gradient tape's business (an interpreter
stacked above this one), staging the graph builder's.

The cache makes the hot path a dict lookup: for a seen signature no rule and no registry lookup
runs. An entry is refilled when :data:`mindspore._generation.GENERATION` moved (the plugin set or the
device target changed).
"""
from __future__ import annotations

import numpy as np

import mindspore._generation as _generation
from mindspore._core import interpreters as _interpreters
from mindspore._core.evaluate import abstract_args, evaluate
from mindspore._errors import MindSporeError, MSRuntimeError, MSTypeError
from mindspore._runtime import backend as _backend
from mindspore.common.tensor import Tensor

__all__ = ["Eager", "EAGER", "signature_of", "check_tensor", "kernel_name"]

_make = Tensor._make
_GEN = _generation.GENERATION


class _Compiled:
    """What the cache keeps for one (primitive, signature): the kernel and the inferred outputs."""

    __slots__ = ("kernel", "out", "out_dtype", "np_dtype", "shape", "multi", "value", "has_value", "gen", "target",
                 "checked", "dynamic")

    def __init__(self, kernel=None, out=None, multi=False, value=None, has_value=False, gen=None, target=None):
        self.kernel = kernel
        self.out = out
        self.multi = multi
        self.value = value
        self.has_value = has_value
        self.gen = gen
        self.target = target
        self.checked = False
        if has_value:
            self.out_dtype = self.np_dtype = self.shape = None
            self.dynamic = False
        elif multi:
            self.out_dtype = tuple(o.dtype for o in out)
            self.np_dtype = tuple(d.to_numpy() for d in self.out_dtype)
            self.shape = tuple(_static(o.shape) for o in out)
            self.dynamic = any(s is None for s in self.shape)
        else:
            self.out_dtype = out.dtype
            self.np_dtype = out.dtype.to_numpy()
            self.shape = _static(out.shape)
            self.dynamic = self.shape is None


def _static(shape):
    """The shape a kernel must return, or None when (part of) it is decided by the kernel."""
    if shape is None or -1 in shape:
        return None
    return shape


def _freeze(v):
    t = type(v)
    if t is list or t is tuple:
        return (t, tuple(_freeze(x) for x in v))
    if t is dict:
        return (t, tuple(sorted((k, _freeze(x)) for k, x in v.items())))
    try:
        hash(v)
    except TypeError:
        return (t, id(v))
    return (t, v)


def _split(args):
    """(raw args for the kernel, cache key)."""
    raw = []
    key = []
    for a in args:
        if isinstance(a, Tensor):
            d = a._data
            if d is None:
                d = a._buffer()
            raw.append(d)
            key.append((d.shape, a._dtype))
        elif type(a) in (tuple, list) and a and isinstance(a[0], Tensor):
            items = tuple(x._buffer() if isinstance(x, Tensor) else x for x in a)
            raw.append(items)
            key.append(("T", tuple((x._buffer().shape, x._dtype) if isinstance(x, Tensor) else _freeze(x)
                                   for x in a)))
        else:
            if isinstance(a, np.generic):    # a NumPy scalar is the Python scalar (NumPy 2 would promote with it)
                a = a.item()
            raw.append(a)
            key.append(_freeze(a))
    return raw, tuple(key)


def signature_of(args):
    return _split(args)[1]


def tensor_layout(args):
    """(dtypes of all tensor inputs in order, per-argument tensor mask) of concrete arguments."""
    dtypes = []
    mask = []
    for a in args:
        if isinstance(a, Tensor):
            dtypes.append(a._dtype)
            mask.append(True)
        elif type(a) in (tuple, list) and any(isinstance(x, Tensor) for x in a):
            inner = []
            for x in a:
                is_t = isinstance(x, Tensor)
                inner.append(is_t)
                if is_t:
                    dtypes.append(x._dtype)
            mask.append(tuple(inner))
        else:
            mask.append(False)
    return tuple(dtypes), tuple(mask)


def kernel_name(fn):
    """``module.qualname`` of a kernel, for error messages."""
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def _compile(prim, args):
    b = _backend.current()
    ev = evaluate(prim, abstract_args(args), b.target)
    if ev.has_value:
        return _Compiled(value=ev.value, has_value=True, gen=_GEN[0])
    dtypes, mask = tensor_layout(args)
    kernel = b.kernel(type(prim).__name__, dtypes, mask)
    return _Compiled(kernel, ev.out, ev.multi, gen=b.generation, target=b.target)


def _bad_output(prim, c, what, got, expected):
    return MSRuntimeError(f"For '{prim.name}', the {c.target} kernel '{kernel_name(c.kernel)}' returned {what} {got}, "
                          f"but the inferred output is {expected} (a kernel must return exactly the 'out' spec it "
                          f"is given).")


def _check_one(prim, c, o, np_dtype, shape):
    dt = getattr(o, "dtype", None)
    if dt is None:
        raise _bad_output(prim, c, "an object of type", type(o).__name__, "a device buffer")
    if dt != np_dtype:
        raise _bad_output(prim, c, "dtype", dt, np_dtype)
    if shape is not None and o.shape != shape:
        raise _bad_output(prim, c, "shape", tuple(o.shape), shape)


def _wrap_multi(prim, out, c):
    if type(out) is not tuple or len(out) != len(c.out_dtype):
        raise _bad_output(prim, c, "", type(out).__name__ + (f" of {len(out)}" if type(out) is tuple else ""),
                          f"a tuple of {len(c.out_dtype)} buffers")
    res = []
    for o, d, nd, s in zip(out, c.out_dtype, c.np_dtype, c.shape):
        if getattr(o, "dtype", None) != nd or (s is not None and o.shape != s):
            _check_one(prim, c, o, nd, s)
        res.append(_make(o, d))
    return tuple(res)


class Eager(_interpreters.Interpreter):
    """The bottom interpreter: runs kernels now."""

    kind = "eager"

    def apply(self, prim, args):
        """Run primitive ``prim`` on ``args`` and return Tensor(s) (or a compile-time value)."""
        raw, key = _split(args)
        cache = prim._eager_cache
        c = cache.get(key)
        if c is None or c.gen != _GEN[0]:
            c = _compile(prim, args)
            if len(cache) >= prim._eager_cache_limit:
                cache.clear()
            cache[key] = c
        if c.has_value:
            return c.value
        kernel, o = c.kernel, c.out
        try:
            # calls spelled out by arity: CPython passes the keyword without building a dict, which
            # f(*raw, out=o) would do (~80 ns of a ~1.5 us dispatch)
            n = len(raw)
            if n == 2:
                out = kernel(prim, raw[0], raw[1], out=o)
            elif n == 1:
                out = kernel(prim, raw[0], out=o)
            elif n == 3:
                out = kernel(prim, raw[0], raw[1], raw[2], out=o)
            else:
                out = kernel(prim, *raw, out=o)
        except MindSporeError:
            raise
        except (TypeError, ValueError) as exc:
            if _adopt_foreign_buffers(args):
                return self.apply(prim, args)
            raise MSRuntimeError(f"For '{prim.name}', the kernel failed on inputs {abstract_args(args)}: "
                                 f"{type(exc).__name__}: {exc}") from exc
        if c.checked:
            return _make(out, c.out_dtype) if not c.multi else tuple(map(_make, out, c.out_dtype))
        return _first_run(prim, out, c)


def _adopt_foreign_buffers(args):
    """Move to the current device, in place, the buffers of ``args``' tensors that another runtime made (see
    ``backend.adopt``); True when any moved. Only a failed launch asks, so the hot path pays nothing."""
    moved = False
    for a in args:
        for t in (a if type(a) in (tuple, list) else (a,)):
            if isinstance(t, Tensor) and _backend.adopt(t):
                moved = True
    return moved


def _first_run(prim, out, c):
    """The first run of a cache entry: check the kernel kept the contract (exactly the inferred dtypes and
    static shapes), then trust it for this signature, as the graph executor trusts a checked graph."""
    if c.multi:
        result = _wrap_multi(prim, out, c)
    else:
        if getattr(out, "dtype", None) != c.np_dtype or (c.shape is not None and out.shape != c.shape):
            _check_one(prim, c, out, c.np_dtype, c.shape)
        result = _make(out, c.out_dtype)
    if not c.dynamic:
        c.checked = True
    return result


#: The eager interpreter, the base of the interpreter stack.
EAGER = Eager()
_interpreters.set_base(EAGER)


def check_tensor(op, name, value):
    if not isinstance(value, Tensor):
        raise MSTypeError(f"For '{op}', the input '{name}' must be a Tensor, but got {type(value).__name__}.")
    return value
