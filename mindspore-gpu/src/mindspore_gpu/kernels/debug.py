"""GPU kernels of the debug family (Print, the overflow checks); the collectives are in :mod:`.comm`.

``Print`` copies its tensors to the host and prints them as the CPU kernel does.
"""
import sys

import cupy
import numpy

from mindspore_gpu.kernels._common import (RAW_BLOCK, SLOTS, RawKernels, dev, is_inexact, retrying, slot_args,
                                           slot_names, slot_params)

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)


def _print(prim, *inputs, out=None):
    parts = []
    for x in inputs:
        if isinstance(x, (cupy.ndarray, numpy.ndarray)):
            parts.append(prim.graph_text(cupy.asnumpy(x)))   # the primitive's format, as on the CPU
        else:
            parts.append(str(x))
    sys.stdout.write("\n".join(parts) + "\n")
    sys.stdout.flush()
    return cupy.zeros((), numpy.int32)


def _float_status(prim, x, *, out):
    """[0.] when every element of ``x`` is finite, else [1.] (computed on the device, no read-back)."""
    return (~cupy.isfinite(_dev(x)).all()).astype(numpy.float32).reshape(1)


# Up to SLOTS (16) arrays checked by one launch, all raising one flag: blockIdx.y picks the array, a thread stops at the
# first inf or NaN it meets (another thread may raise the flag too: every writer writes 1). No read back: the step's
# host decision reads the flag once, after the check.
_NONFINITE = RawKernels("ms_nonfinite_many", f"""
extern "C" __global__ void ms_nonfinite_many({slot_params("const T*", "x")},
                                             {slot_params("long long", "n")}, int* __restrict__ flag) {{
    const T* xs[{SLOTS}] = {{{slot_names("x")}}};
    const long long ns[{SLOTS}] = {{{slot_names("n")}}};
    const T* x = xs[blockIdx.y];
    const long long n = ns[blockIdx.y];
    for (long long i = (long long)blockIdx.x * RAW_BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * RAW_BLOCK) {{
        if (!isfinite(x[i])) {{
            *flag = 1;
            return;
        }}
    }}
}}
""", ("ms_nonfinite_many",))
# A loss-scaled step's unscaling and check of up to SLOTS gradients in one launch (blockIdx.y picks the gradient):
# every product written, the flag raised once by a thread that made an inf or a NaN. The scale is read from the
# device (no read back).
_UNSCALE = RawKernels("ms_unscale_check_many", f"""
extern "C" __global__ void ms_unscale_check_many({slot_params("const T*", "g")},
                                                 {slot_params("T*", "y")},
                                                 {slot_params("long long", "n")},
                                                 const T* __restrict__ scale, int* __restrict__ flag) {{
    const T* gs[{SLOTS}] = {{{slot_names("g")}}};
    T* ys[{SLOTS}] = {{{slot_names("y")}}};
    const long long ns[{SLOTS}] = {{{slot_names("n")}}};
    const T* g = gs[blockIdx.y];
    T* y = ys[blockIdx.y];
    const long long n = ns[blockIdx.y];
    const T s = *scale;
    bool bad = false;
    for (long long i = (long long)blockIdx.x * RAW_BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * RAW_BLOCK) {{
        const T v = g[i] * s;
        y[i] = v;
        bad = bad || !isfinite(v);
    }}
    if (bad) *flag = 1;
}}
""", ("ms_unscale_check_many",))
#: The most blocks a check launches per array (each thread then strides over the rest).
_MAX_BLOCKS = 1024


def _blocks(n):
    return min((n + RAW_BLOCK - 1) // RAW_BLOCK, _MAX_BLOCKS)


def _chunks(indexed):
    """``indexed`` ((position, array) pairs) grouped by dtype, in chunks of at most :data:`SLOTS`."""
    by_dtype = {}
    for pair in indexed:
        by_dtype.setdefault(pair[1].dtype, []).append(pair)
    for pairs in by_dtype.values():
        for start in range(0, len(pairs), SLOTS):
            yield pairs[start:start + SLOTS]


@retrying
def _all_finite(prim, inputs, *, out):
    """True unless an element of a float input is inf or NaN: the C-contiguous float32/float64 inputs by
    :data:`_NONFINITE` (one launch per :data:`SLOTS` inputs of a dtype), the others (float16, bfloat16, complex,
    strided) by ``isfinite(x).all()``, into one int32 flag."""
    flag = cupy.zeros((), numpy.int32)
    raw = []
    for x in inputs:
        x = _dev(x)
        if not x.size or not is_inexact(x.dtype):
            continue
        if x.flags.c_contiguous and _NONFINITE.usable(x):
            raw.append((len(raw), x))
        else:
            _raise_unless_finite(flag, x)
    for chunk in _chunks(raw):
        xs = [x for _, x in chunk]
        sizes = [numpy.int64(x.size) for x in xs]
        grid = (max(_blocks(x.size) for x in xs), len(xs))
        _NONFINITE.launch("ms_nonfinite_many", grid, tuple(slot_args([xs], sizes) + [flag]), T=xs[0].dtype)
    return flag == 0


def _raise_unless_finite(flag, x):
    cupy.bitwise_or(flag, cupy.logical_not(cupy.isfinite(x).all()), out=flag)


@retrying
def _unscale_and_check_finite(prim, grads, scale_inv, *, out):
    """Each gradient times ``scale_inv`` (cast to its dtype on the device), and whether every product is finite: the
    C-contiguous float32/float64 gradients by :data:`_UNSCALE` (one launch per :data:`SLOTS` gradients of a dtype),
    the others by CuPy's multiply and ``isfinite(y).all()``, all into one int32 flag."""
    flag = cupy.zeros((), numpy.int32)
    scale = _dev(scale_inv).reshape(())
    scales = {}
    products = [None] * len(grads)
    raw = []
    for i, g in enumerate(grads):
        g = _dev(g)
        s = scales.get(g.dtype)
        if s is None:
            s = scales[g.dtype] = scale.astype(g.dtype, copy=False)
        if g.size and g.flags.c_contiguous and _UNSCALE.usable(g, s):
            products[i] = cupy.empty_like(g)
            raw.append((i, g))
        else:
            y = products[i] = cupy.multiply(g, s)
            if y.size:
                _raise_unless_finite(flag, y)
    for chunk in _chunks(raw):
        gs = [g for _, g in chunk]
        ys = [products[i] for i, _ in chunk]
        grid = (max(_blocks(g.size) for g in gs), len(gs))
        _UNSCALE.launch("ms_unscale_check_many", grid,
                        tuple(slot_args([gs, ys], [g.size for g in gs]) + [scales[gs[0].dtype], flag]), T=gs[0].dtype)
    return tuple(products) + (flag == 0,)


KERNELS = {
    "AllFinite": _all_finite,
    "UnscaleAndCheckFinite": _unscale_and_check_finite,
    "FloatStatus": _float_status,
    "Print": _print,
}
