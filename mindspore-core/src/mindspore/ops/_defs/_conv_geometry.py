"""Pure geometry of sliding-window ops (convolution, pooling): argument normalisation and output sizes.

Shared by the conv and pooling families and by the backends' kernels, which ask the primitive for
its :class:`Window` instead of re-deriving padding. Errors are MindSpore's (``For 'Conv2D', ...``).

Output size along one spatial axis of size ``n`` (kernel ``k``, stride ``s``, dilation ``d``,
effective kernel ``e = d * (k - 1) + 1``):

* ``'valid'``: ``ceil((n - e + 1) / s)``, no padding;
* ``'same'``: ``ceil(n / s)``; the padding needed, ``max(0, (out - 1) * s + e - n)``, is split with the
  odd element after (bottom/right, TensorFlow style);
* ``'pad'``: ``floor((n + before + after - e) / s) + 1`` (``ceil`` with ``ceil_mode``, but a last
  window that would start in the trailing padding is dropped, as in PyTorch).
"""
from __future__ import annotations

import collections
import numbers

from mindspore._errors import MSTypeError, MSValueError, MSValueRuntimeError

__all__ = ["Window", "int_tuple", "pad_tuple", "check_pad_mode", "window", "check_data_format"]

#: Output size and the zero padding before/after each spatial axis.
Window = collections.namedtuple("Window", ["out", "before", "after"])


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def int_tuple(op, name, value, n, min_value=1, lead=True):
    """``value`` (int, n-tuple, or MindSpore's (n+2)-tuple with two leading 1s) as an n-tuple of ints."""
    if _is_int(value):
        value = (int(value),) * n
    elif isinstance(value, (tuple, list)) and all(_is_int(v) for v in value):
        value = tuple(int(v) for v in value)
        if len(value) == 1:
            value = value * n
        elif lead and len(value) == n + 2 and value[:2] == (1, 1):
            value = value[2:]
        elif len(value) != n:
            raise MSValueError(f"For '{op}', the '{name}' must be an int or a tuple of {n} ints, but got "
                               f"{tuple(value)}.")
    else:
        raise MSTypeError(f"For '{op}', the '{name}' must be an int or a tuple of ints, but got "
                          f"{type(value).__name__}: {value!r}.")
    if any(v < min_value for v in value):
        raise MSValueError(f"For '{op}', each element of '{name}' must be >= {min_value}, but got {value}.")
    return value


def pad_tuple(op, name, value, n, allow_per_axis=False):
    """Padding as a 2n-tuple (before, after per axis): an int, a 2n-tuple, or (with ``allow_per_axis``)
    an n-tuple meaning the same amount on both sides of each axis."""
    if _is_int(value):
        value = (int(value),) * (2 * n)
    elif isinstance(value, (tuple, list)) and all(_is_int(v) for v in value):
        value = tuple(int(v) for v in value)
        if len(value) == 1:
            value = value * (2 * n)
        elif allow_per_axis and len(value) == n:
            value = tuple(v for v in value for _ in range(2))
        elif len(value) != 2 * n:
            want = f"{n} or {2 * n}" if allow_per_axis else f"{2 * n}"
            raise MSValueError(f"For '{op}', the '{name}' must be an int or a tuple of {want} ints, but got "
                               f"{tuple(value)}.")
    else:
        raise MSTypeError(f"For '{op}', the '{name}' must be an int or a tuple of ints, but got "
                          f"{type(value).__name__}: {value!r}.")
    if any(v < 0 for v in value):
        raise MSValueError(f"For '{op}', each element of '{name}' must be >= 0, but got {value}.")
    return value


def check_pad_mode(op, pad_mode, allowed=("valid", "same", "pad")):
    """``pad_mode`` lower-cased, checked against ``allowed`` (case-insensitive, as in MindSpore)."""
    if not isinstance(pad_mode, str):
        raise MSTypeError(f"For '{op}', the 'pad_mode' must be a str, but got {type(pad_mode).__name__}.")
    mode = pad_mode.lower()
    if mode not in allowed:
        raise MSValueError(f"For '{op}', the 'pad_mode' must be one of {list(allowed)}, but got '{pad_mode}'.")
    return mode


def check_data_format(op, data_format, supported):
    if data_format != supported:
        raise MSValueError(f"For '{op}', the 'data_format' must be '{supported}' on this implementation, but got "
                           f"'{data_format}'.")
    return data_format


def window(op, in_sizes, kernel, stride, dilation, pad_mode, pads, ceil_mode=False):
    """The :class:`Window` of a sliding-window op over spatial sizes ``in_sizes``.

    ``pads`` is the 2n-tuple (before, after per axis), used in ``'pad'`` mode only.
    """
    out, before, after = [], [], []
    for i, n in enumerate(in_sizes):
        k, s, d = kernel[i], stride[i], dilation[i]
        eff = d * (k - 1) + 1
        if pad_mode == "valid":
            o, b, a = (n - eff) // s + 1 if n >= eff else 0, 0, 0
        elif pad_mode == "same":
            o = -(-n // s)
            need = max(0, (o - 1) * s + eff - n)
            b, a = need // 2, need - need // 2
        else:
            b, a = pads[2 * i], pads[2 * i + 1]
            span = n + b + a - eff
            if span < 0:
                o = 0
            elif ceil_mode:
                o = -(-span // s) + 1
                if (o - 1) * s >= n + b:
                    o -= 1
            else:
                o = span // s + 1
        if o <= 0:
            # MindSpore 2.10 raises ValueError for convolutions and max pooling, RuntimeError for average pooling
            cls = MSValueRuntimeError if op.startswith("AvgPool") else MSValueError
            raise cls(f"For '{op}', the output size must be positive, but the input spatial shape "
                               f"{tuple(in_sizes)} with kernel {tuple(kernel)}, stride {tuple(stride)}, dilation "
                               f"{tuple(dilation)} and pad_mode '{pad_mode}' gives {o} along axis {i}.")
        out.append(o)
        before.append(b)
        after.append(a)
    return Window(tuple(out), tuple(before), tuple(after))


#: (op geometry, input spatial sizes) -> (kernel, kernel strides, dilation, Window): what ``geometry_for`` computed
#: (a kernel asks at every call, with the shapes of the last few calls). Only results are kept, never errors;
#: cleared whole when it grows past _GEOMETRY_LIMIT (dynamic shapes).
_GEOMETRY = {}
_GEOMETRY_LIMIT = 4096


def cached_geometry(op, geometry, in_sizes, compute):
    """``compute()`` for this op ``geometry`` (its normalised attributes, a tuple) and input spatial sizes,
    computed once: kernels call ``geometry_for`` at every run, and the same shapes come back every step."""
    key = (geometry, in_sizes)
    hit = _GEOMETRY.get(key)
    if hit is None:
        hit = compute()
        if len(_GEOMETRY) >= _GEOMETRY_LIMIT:
            _GEOMETRY.clear()
        _GEOMETRY[key] = hit
    return hit


def kernel_strides(stride, out):
    """The strides a kernel is given: 1 along an axis with one output position, where the stride (which may
    be anything up to 2**63, far past the input) chooses nothing, so that no kernel sizes a buffer or an
    index by it (a stride of 20000 made the CPU convolution allocate 3 GB, 2**32 crashed it)."""
    return tuple(1 if o == 1 else s for s, o in zip(stride, out))
