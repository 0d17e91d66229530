"""GPU kernels of the debug family (Print, the overflow checks); the collectives are in :mod:`.comm`.

``Print`` copies its tensors to the host and prints them as the CPU kernel does.
"""
import sys

import cupy
import numpy

from mindspore_gpu.kernels._common import RAW_BLOCK, RawKernels, dev, is_inexact, retrying

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)


def _print(prim, *inputs, out=None):
    parts = []
    for x in inputs:
        if isinstance(x, (cupy.ndarray, numpy.ndarray)):
            parts.append(str(cupy.asnumpy(x)))
        else:
            parts.append(str(x))
    sys.stdout.write("\n".join(parts) + "\n")
    sys.stdout.flush()
    return cupy.zeros((), numpy.int32)


def _float_status(prim, x, *, out):
    """[0.] when every element of ``x`` is finite, else [1.] (computed on the device, no read-back)."""
    return (~cupy.isfinite(_dev(x)).all()).astype(numpy.float32).reshape(1)


# Every gradient of a loss-scaled step checked with one launch each, all raising one flag: a thread stops at the first
# inf or NaN it meets (another thread may raise the flag too: every writer writes 1). No read back: the step's host
# decision reads the flag once, after the check.
_NONFINITE = RawKernels("ms_nonfinite", r"""
extern "C" __global__ void ms_nonfinite(const T* __restrict__ x, long long n, int* __restrict__ flag) {
    for (long long i = (long long)blockIdx.x * RAW_BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * RAW_BLOCK) {
        if (!isfinite(x[i])) {
            *flag = 1;
            return;
        }
    }
}
""", ("ms_nonfinite",))
# A loss-scaled step's unscaling and check of one gradient in one launch: every product written, the flag raised once
# by a thread that made an inf or a NaN. The scale is read from the device (no read back).
_UNSCALE = RawKernels("ms_unscale_check", r"""
extern "C" __global__ void ms_unscale_check(const T* __restrict__ g, const T* __restrict__ scale, T* __restrict__ y,
                                            long long n, int* __restrict__ flag) {
    const T s = *scale;
    bool bad = false;
    for (long long i = (long long)blockIdx.x * RAW_BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * RAW_BLOCK) {
        const T v = g[i] * s;
        y[i] = v;
        bad = bad || !isfinite(v);
    }
    if (bad) *flag = 1;
}
""", ("ms_unscale_check",))
#: The most blocks a check launches (each thread then strides over the rest).
_MAX_BLOCKS = 1024


def _blocks(n):
    return min((n + RAW_BLOCK - 1) // RAW_BLOCK, _MAX_BLOCKS)


@retrying
def _all_finite(prim, inputs, *, out):
    """True unless an element of a float input is inf or NaN: float32/float64 inputs by :data:`_NONFINITE` (one
    launch each), the others (float16, bfloat16, complex) by ``isfinite(x).all()``, into one int32 flag."""
    flag = cupy.zeros((), numpy.int32)
    for x in inputs:
        x = _dev(x)
        if not x.size or not is_inexact(x.dtype):
            continue
        if x.flags.c_contiguous and _NONFINITE.usable(x):
            _NONFINITE.launch("ms_nonfinite", (_blocks(x.size),), (x, numpy.int64(x.size), flag), T=x.dtype)
        else:
            _raise_unless_finite(flag, x)
    return flag == 0


def _raise_unless_finite(flag, x):
    cupy.bitwise_or(flag, cupy.logical_not(cupy.isfinite(x).all()), out=flag)


@retrying
def _unscale_and_check_finite(prim, grads, scale_inv, *, out):
    """Each gradient times ``scale_inv`` (cast to its dtype on the device), and whether every product is finite:
    float32/float64 gradients by :data:`_UNSCALE` (one launch each), the others by CuPy's multiply and
    ``isfinite(y).all()``, all into one int32 flag."""
    flag = cupy.zeros((), numpy.int32)
    scale = _dev(scale_inv).reshape(())
    scales = {}
    products = []
    for g in grads:
        g = _dev(g)
        s = scales.get(g.dtype)
        if s is None:
            s = scales[g.dtype] = scale.astype(g.dtype, copy=False)
        if g.size and g.flags.c_contiguous and _UNSCALE.usable(g, s):
            y = cupy.empty_like(g)
            _UNSCALE.launch("ms_unscale_check", (_blocks(g.size),), (g, s, y, numpy.int64(g.size), flag), T=g.dtype)
        else:
            y = cupy.multiply(g, s)
            if y.size:
                _raise_unless_finite(flag, y)
        products.append(y)
    return tuple(products) + (flag == 0,)


KERNELS = {
    "AllFinite": _all_finite,
    "UnscaleAndCheckFinite": _unscale_and_check_finite,
    "FloatStatus": _float_status,
    "Print": _print,
}
