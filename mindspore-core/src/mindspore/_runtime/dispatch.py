"""Eager (PYNATIVE) dispatch: one primitive application.

``apply(prim, args)`` does, in order: split the arguments into device buffers (tensors) and
constants; look up the per-primitive-instance cache by the input *signature* (each tensor's shape
and dtype, each constant's type and value); on a miss, run the primitive's pure shape/dtype rules
(which raise MindSpore-style errors on bad input) and pick the kernel from the registry; run the
kernel; wrap the outputs as Tensors of the inferred dtypes; and, when a gradient tape is active,
record the application on it.

The cache makes the hot path a dict lookup: for a seen signature no rule and no registry lookup
runs. The cache is cleared when the backend changes (its key includes the backend object).
"""
from __future__ import annotations

from mindspore._autodiff import tape as _tape
from mindspore._infer import staging as _staging
from mindspore._errors import MSRuntimeError, MSTypeError, MindSporeError
from mindspore._runtime import backend as _backend
from mindspore.common.tensor import Tensor
from mindspore.ops.primitive import NON_DIFFERENTIABLE, TensorSpec

__all__ = ["apply", "signature_of"]

_make = Tensor._make
_active = _tape.ACTIVE  # the live list of active tapes (mutated in place by the tape module)
_staging_active = _staging.ACTIVE  # the graph builders of a GRAPH_MODE compilation in progress
_EAGER = _staging.EAGER


class _Compiled:
    """What the cache keeps for one (primitive, signature): the kernel and the output dtypes."""

    __slots__ = ("kernel", "out_dtype", "np_dtype", "multi", "value", "has_value", "backend")

    def __init__(self, kernel, out_dtype, multi, value=None, has_value=False, backend=None):
        self.kernel = kernel
        self.out_dtype = out_dtype
        self.multi = multi
        self.value = value
        self.has_value = has_value
        self.backend = backend
        if multi:
            self.np_dtype = tuple(d.to_numpy() if d is not None else None for d in out_dtype)
        else:
            self.np_dtype = out_dtype.to_numpy() if out_dtype is not None else None


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
    """(raw args for the kernel, cache key, has-tensor flag)."""
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
            key.append(("T", tuple((x._data.shape, x._dtype) if isinstance(x, Tensor) else _freeze(x) for x in a)))
        else:
            raw.append(a)
            key.append(_freeze(a))
    return raw, tuple(key)


def _abstract(args, view):
    """Arguments as the rules see them: ``view`` is 'shape', 'dtype' or 'spec' for tensors."""
    out = []
    for a in args:
        if isinstance(a, Tensor):
            out.append(a.shape if view == "shape" else a._dtype if view == "dtype" else TensorSpec(a.shape, a._dtype))
        elif type(a) in (tuple, list) and a and isinstance(a[0], Tensor):
            out.append(tuple(_abstract(a, view)))
        else:
            out.append(a)
    return out


def signature_of(args):
    return _split(args)[1]


def _first_dtype(args):
    for a in args:
        if isinstance(a, Tensor):
            return a._dtype
        if type(a) in (tuple, list) and a and isinstance(a[0], Tensor):
            return a[0]._dtype
    return None


def _compile(prim, args):
    infer_value = getattr(prim, "infer_value", None)
    if infer_value is not None:
        value = infer_value(*_abstract(args, "spec"))
        if value is not None:
            return _Compiled(None, None, False, value, True)
    out_dtype = prim.infer_dtype(*_abstract(args, "dtype"))
    prim.infer_shape(*_abstract(args, "shape"))  # validates shapes; the kernel produces them
    multi = isinstance(out_dtype, (tuple, list))
    if multi:
        out_dtype = tuple(out_dtype)
    b = _backend.current()
    targets = getattr(prim, "device_targets", None)
    if targets is not None and b.target not in targets:
        raise MSRuntimeError(f"For '{prim.name}', the operator runs only on {', '.join(targets)}, but the device "
                             f"target is '{b.target}': {getattr(prim, 'device_only_reason', '')}.")
    entry = b.registry.lookup(type(prim).__name__, b.target, _first_dtype(args))
    return _Compiled(entry.fn, out_dtype, multi, backend=b)


def _wrap(out, c):
    if c.multi:
        res = []
        for o, d, nd in zip(out, c.out_dtype, c.np_dtype):
            if nd is not None and o.dtype != nd:
                o = o.astype(nd)
            res.append(_make(o, d))
        return tuple(res)
    if c.np_dtype is not None and out.dtype != c.np_dtype:
        out = out.astype(c.np_dtype)
    return _make(out, c.out_dtype)


def apply(prim, args):
    """Run primitive ``prim`` on ``args`` eagerly and return Tensor(s) (or a constant value).

    While a graph is being compiled, the application is staged into it instead (unless all inputs
    are constants and the primitive is pure: then it is computed now, i.e. constant-folded).
    """
    if _staging_active:
        staged = _staging.emit(prim, args)
        if staged is not _EAGER:
            return staged
    raw, key = _split(args)
    cache = prim._eager_cache
    c = cache.get(key)
    if c is None or (c.backend is not None and c.backend is not _backend._current):
        c = _compile(prim, args)
        if len(cache) >= prim._eager_cache_limit:
            cache.clear()
        cache[key] = c
    if c.has_value:
        return c.value
    try:
        out = c.kernel(prim, *raw)
    except MindSporeError:
        raise
    except (TypeError, ValueError) as exc:
        raise MSRuntimeError(f"For '{prim.name}', the kernel failed on inputs {list(_abstract(args, 'spec'))}: "
                             f"{type(exc).__name__}: {exc}") from exc
    result = _wrap(out, c)
    if _active and prim.bprop is not NON_DIFFERENTIABLE:
        _tape.record(prim, args, result)
    return result


def check_tensor(op, name, value):
    if not isinstance(value, Tensor):
        raise MSTypeError(f"For '{op}', the input '{name}' must be a Tensor, but got {type(value).__name__}.")
    return value
