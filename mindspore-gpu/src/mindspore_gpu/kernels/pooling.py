"""GPU kernels of the pooling primitives (part of the conv family, as on the CPU).

Inputs are (..., [D,] H, W): 2-D pooling has two trailing spatial axes, 3-D three, and the axes in
front (batch, channels, or channels alone) are independent planes. Windows are the strided views of
the padded input, one per kernel offset (:func:`.conv.windows`), folded in scan order (row-major over
the kernel), so every result is the CPU kernels':

* max pooling takes each window's FIRST maximal element, NaN above every number (a later element
  replaces the best only when strictly larger, or NaN over a number; ties, -0 against +0 included,
  keep the earlier one); argmax is its flat index in the input plane (``D * H * W``), -1 for a window
  entirely in the padding (whose value is -inf);
* average pooling divides the window's sum by ``divisor_override`` if set, else the window's extent
  including padding (``count_include_pad``), else the number of its elements inside the input;
* adaptive pooling uses the bins ``[floor(o * in / out), ceil((o + 1) * in / out))``; the average is
  two small matrix products.

NaN follows MindSpore 2.10's CPU kernels, whose rules differ by primitive (``_RULES``), exactly as the
CPU kernels do (see ``mindspore_cpu/_csrc/pool.cpp``): MaxPool/MaxPool3D and their gradients fold each
window's elements with x86 ``maxps`` (``m = m > v ? m : v``) from float32's lowest value, the winner
(gradient) being the first element equal to the value after the window's last NaN (the last NaN when
nothing follows it, the first element when the value stays at the start value); MaxPoolWithArgmaxV2 takes
only strictly larger elements from the dtype's lowest value (winner: the first element until one is
larger); MaxPoolWithArgmax and AdaptiveMaxPool2D take the first element, then strictly larger ones;
MaxPool3DWithArgmax propagates NaN with the index of the window's last NaN.

The gradients' plain paths scatter into the input planes with CUDA's atomic add (windows may overlap). float16
computes in float32, except in MaxPool's one generated kernel (its fold only selects among the inputs: exact in
float16) and MaxPoolGrad's hand-written one (float16/bfloat16 read and written as they are, summed in float32), which
cast nothing: the same bits.

With fusion on, MaxPool (its values) is one generated kernel (:func:`_window_kernel`, the kernel offsets unrolled,
reading the unpadded input), and MaxPoolGrad one hand-written kernel per window size (:func:`_grad_source`: each input
element sums dout over the windows it won, in the CPU kernel's order, without atomics); a window too wide for it takes
the argmax's scatter operands from a generated kernel, the zeros and the atomic add (three launches). Either gives the
same bits as the per-offset steps.
"""
import itertools
import math

import cupy
import numpy

from mindspore_gpu.kernels._common import (DATA_BINDINGS, F16, F32, F64, RAW_BLOCK, RAW_COMPUTE, Fused,
                                           FusedUnavailable, RawKernels, compute_dtype, dev, fits_out, scatter_add)
from mindspore_gpu.kernels.conv import pad_after, pad_spatial, windows

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)
_INF = float("inf")


def _beats(v, best):
    """Whether ``v`` replaces ``best`` in the scan: strictly larger, or NaN over a number."""
    return (v > best) | ((v != v) & (best == best))


_TABLES = {}


def _offset_tables(sizes, before, out, kernel, stride, dilation):
    """For every kernel offset (row-major) and output: the flat index in the input plane of the element the
    offset reads, and whether it lies inside the input (not in the padding). Two (K, *out) arrays, built on
    the host from per-axis coordinates and moved to the device in one copy each, once per geometry and device
    (read-only; no host copy in a steady-state step, which a stream capturing a CUDA graph refuses)."""
    key = (cupy.cuda.runtime.getDevice(), tuple(sizes), tuple(before), tuple(out), tuple(kernel), tuple(stride),
           tuple(dilation))
    tables = _TABLES.get(key)
    if tables is None:
        tables = _TABLES[key] = _build_offset_tables(sizes, before, out, kernel, stride, dilation)
    return tables


def _build_offset_tables(sizes, before, out, kernel, stride, dilation):
    nd = len(sizes)
    flat = numpy.zeros((1,) * (2 * nd), numpy.int64)
    valid = numpy.ones((1,) * (2 * nd), numpy.bool_)
    for d, (n, b, o, k, s, dl) in enumerate(zip(sizes, before, out, kernel, stride, dilation)):
        pos = numpy.arange(k, dtype=numpy.int64)[:, None] * dl + numpy.arange(o, dtype=numpy.int64)[None, :] * s - b
        shape = [1] * (2 * nd)
        shape[d], shape[nd + d] = k, o          # axes: (kernel offsets..., outputs...)
        flat = flat + pos.reshape(shape) * math.prod(sizes[d + 1:])
        valid = valid & ((pos >= 0) & (pos < n)).reshape(shape)
    count = math.prod(kernel)
    return (cupy.asarray(numpy.ascontiguousarray(flat.reshape((count,) + tuple(out)))),
            cupy.asarray(numpy.ascontiguousarray(valid.reshape((count,) + tuple(out)))))


_FOLD, _GREATER, _FIRST, _LAST_NAN = 1, 2, 3, 4
_RULES = {"MaxPool": _FOLD, "MaxPoolGrad": _FOLD, "MaxPoolGradGrad": _FOLD, "MaxPool3D": _FOLD,
          "MaxPool3DGrad": _FOLD, "MaxPool3DGradGrad": _FOLD, "MaxPoolWithArgmaxV2": _GREATER,
          "MaxPoolWithArgmax": _FIRST, "MaxPool3DWithArgmax": _LAST_NAN}


_RULE_CACHE = {}


def _rule(prim, x):
    """(rule, start value) of ``prim`` for input ``x`` (0: NaN first, as described above), worked out once per
    primitive type and dtype (``numpy.errstate`` and ``finfo`` cost microseconds per pooling call)."""
    key = (type(prim), x.dtype)
    found = _RULE_CACHE.get(key)
    if found is None:
        found = _RULE_CACHE[key] = _work_out_rule(type(prim).__name__, x.dtype)
    return found


def _work_out_rule(name, dtype):
    rule = _RULES.get(name, 0)
    dt = numpy.dtype(dtype)
    if rule == _FOLD:
        with numpy.errstate(over="ignore"):
            floor = float(numpy.asarray(numpy.finfo(numpy.float32).min).astype(dt if dt.kind == "f" else numpy.float32))
    elif rule == _GREATER and dt.kind == "f":
        floor = float(numpy.finfo(dt).min)
    else:
        floor = -_INF
    return rule, floor


# One fused kernel per kernel offset instead of a dozen CuPy operations: each updates the running values (and
# argmax) in place with exactly the comparisons of the plain path below it, so both give the same bits.
_ARG = "arg = take ? f : ((ok && arg < 0) ? f : arg);"
_STEPS = {
    "fold": Fused("ms_pool_fold", "T v, bool ok", "T fold", "fold = (ok && !(fold > v)) ? v : fold;"),
    _FOLD: Fused("ms_pool_fold_arg", "T v, bool ok, int64 f", "T fold, T best, int64 arg",
                 "fold = (ok && !(fold > v)) ? v : fold; "
                 "bool take = ok && (v != v || best != best || v > best); best = take ? v : best; " + _ARG),
    # the fold's argmax alone (the gradients need no values: the argmax does not depend on the fold)
    "fold_arg_only": Fused("ms_pool_fold_arg_only", "T v, bool ok, int64 f", "T best, int64 arg",
                           "bool take = ok && (v != v || best != best || v > best); best = take ? v : best; " + _ARG),
    _GREATER: Fused("ms_pool_greater_arg", "T v, bool ok, int64 f", "T best, int64 arg",
                    "bool take = ok && v > best; best = take ? v : best; " + _ARG),
    _LAST_NAN: Fused("ms_pool_last_nan_arg", "T v, bool ok, int64 f", "T best, int64 arg",
                     "bool take = ok && (arg < 0 || v != v || v > best); best = take ? v : best; " + _ARG),
    _FIRST: Fused("ms_pool_first_arg", "T v, bool ok, int64 f", "T best, int64 arg",
                  "bool take = ok && (arg < 0 || v > best); best = take ? v : best; " + _ARG),
    "beats": Fused("ms_pool_max", "T v", "T best", "best = (v > best || (v != v && best == best)) ? v : best;"),
    "beats_arg": Fused("ms_pool_max_arg", "T v, bool ok, int64 f", "T best, int64 arg",
                       "bool take = ok && (arg < 0 || v > best || (v != v && best == best)); "
                       "best = take ? v : best; arg = take ? f : arg;"),
}


# MaxPool's fold (its values) and the fold's argmax alone (its gradient's) in ONE launch each (fusion on): a kernel
# generated per kernel size reads each output's window straight from the unpadded input and runs the steps above
# for every kernel offset in scan order, unrolled, with the same comparisons (an offset in the padding: ``ok``
# false, nothing taken), so the results are the same bits.
_WINDOW_STEPS = {
    "fold": ("T fold", "fold = fl;", "fold = (ok{j} && !(fold > v{j})) ? v{j} : fold;"),
    "arg": ("int64 arg", "T best = fl; arg = -1;",
            "bool take{j} = ok{j} && (v{j} != v{j} || best != best || v{j} > best); best = take{j} ? v{j} : best; "
            "arg = take{j} ? f{j} : ((ok{j} && arg < 0) ? f{j} : arg);"),
}
# MaxPoolGrad's scatter operands (what ``_SCATTER_INDEX`` makes of the argmax) from the same steps: the flat target
# in the input and dout's value, 0 at the plane's first element for a window with no element
_WINDOW_STEPS["scatter"] = ("int64 index, T value", "T best = fl; ptrdiff_t arg = -1;", _WINDOW_STEPS["arg"][2])
_WINDOW_TAILS = {"scatter": "bool hit = arg >= 0; index = base + (hit ? arg : 0); value = hit ? g : (T)0;"}
_WINDOW_KERNELS = {}
_GEOMETRY_ARGS = {}      # (output sizes, input sizes, stride, dilation, padding) -> the kernels' int32 geometry
_UNROLL = 64     # offsets at most per generated kernel (larger windows take the per-offset steps)


def _window_kernel(kind, kernel):
    """The generated kernel (a :class:`Fused`) of ``kind`` ("fold", "arg" or "scatter") for a window of size
    ``kernel``: raw input ``x`` (planes, *S), the start value ``fl``, int32 geometry (``on``/``sn``/``s``/``d``/``b``
    per axis, ``psize`` the elements of a plane), and for "scatter" the gradient ``g`` (planes, *out); output(s)
    (planes, *out)."""
    key = (kind, tuple(kernel))
    if key in _WINDOW_KERNELS:
        return _WINDOW_KERNELS[key]
    nd = len(kernel)
    out_param, init, step = _WINDOW_STEPS[kind]
    body = ["ptrdiff_t r = i;"]
    for a in reversed(range(nd)):
        body.append(f"ptrdiff_t o{a} = r % on{a}; r = r / on{a};")
    body.append("ptrdiff_t base = r * psize;")
    body.append(init)
    for j, offset in enumerate(itertools.product(*(range(k) for k in kernel))):
        flat = "0"
        inside = []
        for a, k in enumerate(offset):
            body.append(f"ptrdiff_t p{a}_{j} = o{a} * s{a} + {k} * d{a} - b{a};")
            inside.append(f"p{a}_{j} >= 0 && p{a}_{j} < sn{a}")
            flat = f"({flat}) * sn{a} + p{a}_{j}"
        body.append(f"bool ok{j} = {' && '.join(inside)};")
        body.append(f"ptrdiff_t f{j} = ok{j} ? {flat} : 0;")
        body.append(f"T v{j} = x[base + f{j}];")
        body.append(step.format(j=j))
    body.append(_WINDOW_TAILS.get(kind, ""))
    names = [f"{p}{a}" for p in ("on", "sn", "s", "d", "b") for a in range(nd)] + ["psize"]
    params = "raw T x, T fl, " + ", ".join(f"int32 {p}" for p in names) + (", T g" if kind == "scatter" else "")
    size = "x".join(str(k) for k in kernel)
    # (the fold only selects among its inputs, so it is exact in float16 too: amp's MaxPool then casts nothing)
    fused = Fused(f"ms_pool_window_{kind}_{size}", params, out_param, " ".join(body),
                  dtypes=(F16, F32, F64) if kind == "fold" else (F32, F64))
    _WINDOW_KERNELS[key] = fused
    return fused


def _geometry_args(sizes, out, stride, dil, before):
    """The window kernels' int32 geometry, in their parameters' order: ``on``, ``sn``, ``s``, ``d``, ``b`` per axis,
    then ``psize`` (the elements of a plane); worked out once per shape."""
    key = (tuple(out), tuple(sizes), tuple(stride), tuple(dil), tuple(before))
    args = _GEOMETRY_ARGS.get(key)
    if args is None:
        args = _GEOMETRY_ARGS[key] = tuple(numpy.int32(v) for seq in key for v in seq) + (numpy.int32(math.prod(sizes)),)
    return args


def _window_pool(kind, x, dt, floor, kernel, stride, dil, before, out, g=None):
    """MaxPool's fold values (``kind`` "fold"), its argmax ("arg") or its gradient's scatter operands ("scatter",
    (index, value) from the gradient ``g``) in one launch, or None where the generated kernel is not usable (fusion
    off, another dtype, an empty input, a window too large to unroll)."""
    nd = len(kernel)
    x = x.astype(dt, copy=False)
    if not x.size or math.prod(kernel) > _UNROLL:
        return None
    fused = _window_kernel(kind, kernel)
    if not fused.usable(x, *(() if g is None else (g,))):
        return None
    sizes = x.shape[-nd:]
    shape = x.shape[:-nd] + tuple(out)
    args = [x, dt.type(floor), *_geometry_args(sizes, out, stride, dil, before)]
    if kind == "scatter":
        index, value = cupy.empty(shape, numpy.int64), cupy.empty(shape, dt)
        fused(*args, g, index, value)
        return index, value
    result = cupy.empty(shape, dt if kind == "fold" else numpy.int64)
    fused(*args, result)
    return result


# MaxPoolGrad in ONE launch (fusion on): a hand-written kernel per window size, one thread per input element, which
# finds the windows that contain it (kernel offsets from the last, so the windows come in the outputs' row-major
# order), works out each one's winner with the "arg" steps above (unrolled) and sums dout over the windows it won, in
# the order the CPU kernel adds them: no zeros, no atomic add, the same bits from run to run. Each element reads up to
# (windows holding it) x (window size) values: where that exceeds _GATHER_READS (3x3 windows at stride 1, say), the
# scatter (three launches, a window's values read once) is cheaper.
_GATHER_READS = 64
_GRAD_KERNELS = {}


def _flat(names, sizes):
    """C's row-major flat index of coordinates ``names`` in extents ``sizes`` (``((q0) * sn1 + q1) * sn2 + q2``)."""
    expr = names[0]
    for name, size in zip(names[1:], sizes[1:]):
        expr = f"({expr}) * {size} + {name}"
    return expr


def _grad_source(kernel):
    """The CUDA source of MaxPoolGrad (the fold rule's winners) for a window of size ``kernel``."""
    nd = len(kernel)
    ax = range(nd)
    params = (["const X* x", "const X* g", "X* dx", "long long total", "T fl"]
              + [f"int {p}{a}" for p in ("on", "sn", "s", "d", "b") for a in ax] + ["int psize"])
    sn, on = [f"(long long)sn{a}" for a in ax], [f"(long long)on{a}" for a in ax]
    body = ["long long r = i;"]
    body += [f"const long long p{a} = r % sn{a}; r /= sn{a};" for a in reversed(ax)]
    body += ["const X* xp = x + r * (long long)psize;", f"const X* gp = g + r * ({' * '.join(on)});",
             f"const long long me = {_flat([f'p{a}' for a in ax], sn)};", "T acc = (T)0;"]
    for a in ax:    # each window that holds element p: o = (p + b - k d) / s, a whole number in [0, on)
        body += [f"for (int k{a} = {kernel[a] - 1}; k{a} >= 0; --k{a}) {{",
                 f"const long long t{a} = p{a} + b{a} - (long long)k{a} * d{a};",
                 f"if (t{a} < 0 || t{a} % s{a} != 0) continue;",
                 f"const long long o{a} = t{a} / s{a};",
                 f"if (o{a} >= on{a}) continue;"]
    body.append("T best = fl; long long arg = -1;")
    for offset in itertools.product(*(range(k) for k in kernel)):
        body.append("{")
        body += [f"const long long q{a} = o{a} * s{a} + {offset[a]} * (long long)d{a} - b{a};" for a in ax]
        body += [f"const bool ok = {' && '.join(f'q{a} >= 0 && q{a} < sn{a}' for a in ax)};",
                 f"const long long f = ok ? {_flat([f'q{a}' for a in ax], sn)} : 0;",
                 "const T v = ms_get(xp[f]);",
                 "const bool take = ok && (v != v || best != best || v > best);",
                 "best = take ? v : best;",
                 "arg = take ? f : ((ok && arg < 0) ? f : arg);",
                 "}"]
    body.append(f"if (arg == me) acc += ms_get(gp[{_flat([f'o{a}' for a in ax], on)}]);")
    body += ["}"] * nd
    body.append("ms_put(dx[i], acc);")
    inner = "\n        ".join(body)
    return (f'extern "C" __global__ void ms_max_pool_grad({", ".join(params)}) {{\n'
            f"    for (long long i = (long long)blockIdx.x * RAW_BLOCK + threadIdx.x; i < total;\n"
            f"         i += (long long)gridDim.x * RAW_BLOCK) {{\n        {inner}\n    }}\n}}\n")


def _grad_kernels(kernel):
    raw = _GRAD_KERNELS.get(kernel)
    if raw is None:
        size = "x".join(str(k) for k in kernel)
        raw = _GRAD_KERNELS[kernel] = RawKernels(f"ms_max_pool_grad_{size}", _grad_source(kernel),
                                                 ("ms_max_pool_grad",), bindings=DATA_BINDINGS)
    return raw


def _max_pool_grad_raw(x, dout, dt, floor, kernel, stride, dil, before):
    """MaxPoolGrad's dx in one launch (see ``_grad_source``), or None where the kernel does not apply."""
    nd = len(kernel)
    out = dout.shape[-nd:]
    sizes = x.shape[-nd:]
    holding = math.prod(min(k, -(-((k - 1) * d + 1) // s)) for k, s, d in zip(kernel, stride, dil))
    if (not x.size or holding * math.prod(kernel) > _GATHER_READS
            or max(max(sizes), max(out), max(stride), max(dil), max(before)) >= 2 ** 31):
        return None
    raw = _grad_kernels(tuple(kernel))
    if not (raw.takes_data(x, dout) and RAW_COMPUTE[x.dtype] == dt):    # (float16/bfloat16 data as they are)
        x, dout = x.astype(dt, copy=False), dout.astype(dt, copy=False)
        if not raw.takes_data(x, dout):
            return None
    x, g = cupy.ascontiguousarray(x), cupy.ascontiguousarray(dout)
    dx = cupy.empty(x.shape, x.dtype)
    total = x.size
    try:
        raw.launch("ms_max_pool_grad", (min(-(-total // RAW_BLOCK), 65535),),
                   (x, g, dx, numpy.int64(total), dt.type(floor)) + _geometry_args(sizes, out, stride, dil, before),
                   T=dt, X=x.dtype)
    except FusedUnavailable:       # did not compile: the fused kernels are off, the plain path follows
        return None
    return dx


def _rule_pool(views, flat, valid, shape, dt, rule, floor, need_arg=True, need_values=True):
    """(values, argmax or None) of the windows under one of MindSpore 2.10's NaN rules (see the module
    docstring); MaxPool's fold without argmax (``need_arg=False``) keeps only the fold; without
    ``need_values`` (a gradient: MaxPool's fold values are then not computed) the values returned are None
    on the fused path."""
    if rule == _FOLD and need_arg and not need_values and _STEPS["fold_arg_only"].usable(cupy.empty(0, dt)):
        best, arg = cupy.full(shape, floor, dt), cupy.full(shape, -1, numpy.int64)
        step = _STEPS["fold_arg_only"]
        for i, (_, v) in enumerate(views):
            step(v, valid[i], flat[i], best, arg)
        return None, arg
    if rule == _FOLD and not need_arg and _STEPS["fold"].usable(cupy.empty(0, dt)):
        fold = cupy.full(shape, floor, dt)
        step = _STEPS["fold"]
        for i, (_, v) in enumerate(views):
            step(v, valid[i], fold)
        return fold, None
    best = cupy.full(shape, floor if rule in (_FOLD, _GREATER) else -_INF, dt)
    fold = cupy.full(shape, floor, dt) if rule == _FOLD else None
    arg = cupy.full(shape, -1, numpy.int64) if need_arg or rule != _FOLD else None
    step = _STEPS[_FOLD if need_arg or rule != _FOLD else "fold"]
    if step.usable(best):
        for i, (_, v) in enumerate(views):
            if arg is None:
                step(v, valid[i], fold)
            elif rule == _FOLD:
                step(v, valid[i], flat[i], fold, best, arg)
            else:
                _STEPS[rule](v, valid[i], flat[i], best, arg)
        return (fold if rule == _FOLD else best), arg
    for i, (_, v) in enumerate(views):
        ok = valid[i]
        if rule == _FOLD:
            fold = cupy.where(ok & ~(fold > v), v, fold)
            if arg is None:
                continue
            take = ok & ((v != v) | (best != best) | (v > best))
        elif rule == _GREATER:
            take = ok & (v > best)
        elif rule == _LAST_NAN:
            take = ok & ((arg < 0) | (v != v) | (v > best))
        else:
            take = ok & ((arg < 0) | (v > best))
        best = cupy.where(take, v, best)
        arg = cupy.where(take, flat[i], cupy.where(ok & (arg < 0), flat[i], arg))
    return (fold if rule == _FOLD else best), arg


def max_pool(prim, x, out_spatial=None, with_argmax=True, need_values=True):
    """(values, argmax) of max pooling ``x``, optionally with the output size fixed by a forward result;
    values only (``with_argmax=False``) skips the index bookkeeping; ``need_values=False`` (a gradient) lets
    MaxPool's fused path skip its values (None then)."""
    x = _dev(x)
    kernel, stride, dil, win = prim.geometry_for(x.shape)
    nd = len(kernel)
    out = win.out if out_spatial is None else tuple(out_spatial)
    sizes = x.shape[-nd:]
    dt = compute_dtype(x)
    rule, floor = _rule(prim, x)
    if rule == _FOLD and not (with_argmax and need_values):
        kind = "arg" if with_argmax else "fold"
        result = _window_pool(kind, x, F16 if kind == "fold" and x.dtype == F16 else dt, floor, kernel, stride, dil,
                              win.before, out)
        if result is not None:
            return (None, result) if with_argmax else (result, None)
    xp = pad_spatial(x.astype(dt, copy=False), win.before, pad_after(sizes, win.before, out, kernel, stride, dil),
                     value=-_INF)
    views = windows(xp, out, kernel, stride, dil)
    if rule:
        flat, valid = _offset_tables(sizes, win.before, out, kernel, stride, dil)
        best, arg = _rule_pool(views, flat, valid, x.shape[:-nd] + out, dt, rule, floor, with_argmax, need_values)
        return best, (arg if with_argmax else None)
    if not with_argmax:
        # padding is -inf: it never beats an element of the input, so the values need no masks
        _, best = next(views)
        best = best.copy()
        step = _STEPS["beats"]
        fused = step.usable(best)
        for _, v in views:
            if fused:
                step(v, best)
            else:
                best = cupy.where(_beats(v, best), v, best)
        return best, None
    flat, valid = _offset_tables(sizes, win.before, out, kernel, stride, dil)
    best = cupy.full(x.shape[:-nd] + out, -_INF, dt)
    arg = cupy.full(best.shape, -1, numpy.int64)
    step = _STEPS["beats_arg"]
    fused = step.usable(best)
    for i, (_, v) in enumerate(views):
        if fused:
            step(v, valid[i], flat[i], best, arg)
            continue
        take = valid[i] & ((arg < 0) | _beats(v, best))
        best = cupy.where(take, v, best)
        arg = cupy.where(take, flat[i], arg)
    return best, arg


def _planes(a, nd):
    """``a`` as (planes, elements of one plane)."""
    return a.reshape((math.prod(a.shape[:-nd]), math.prod(a.shape[-nd:])))


def _check_argmax(argmax, size):
    # reads a flag back to the host, which a stream capturing a CUDA graph refuses: a captured step does without it
    if argmax.size and not cupy.cuda.get_current_stream().is_capturing() and \
            bool(((argmax < -1) | (argmax >= size)).any()):
        raise ValueError(f"an argmax index is out of range [0, {size})")


def scatter_planes(grad, argmax, x_shape, nd, dt, check=True):
    """dx (``x_shape``): each plane gets ``grad`` added at its ``argmax`` entries (-1: none). ``check=False``
    for an argmax computed here (the check reads a flag back to the host: a synchronisation)."""
    size = math.prod(x_shape[-nd:])
    argmax = _planes(_dev(argmax), nd)
    if check:
        _check_argmax(argmax, size)
    g = _planes(_dev(grad).astype(dt, copy=False), nd)
    dx = cupy.zeros((argmax.shape[0], size), dt)
    rows = cupy.arange(argmax.shape[0])[:, None]
    if _SCATTER_INDEX.usable(g):
        # the flat targets and the values (0 where no element: added at the plane's first) in one kernel
        index, values = _SCATTER_INDEX(argmax, rows, numpy.int64(size), g)
        scatter_add(dx.reshape(-1), index, values)
        return dx.reshape(tuple(x_shape))
    hit = argmax >= 0
    scatter_add(dx, (cupy.broadcast_to(rows, argmax.shape), cupy.where(hit, argmax, 0)),
                cupy.where(hit, g, dt.type(0)))
    return dx.reshape(tuple(x_shape))


_SCATTER_INDEX = Fused("ms_pool_scatter_index", "I a, int64 row, int64 size, T g", "int64 index, T value",
                       "bool hit = a >= 0; index = row * size + (hit ? a : 0); value = hit ? g : (T)0;")


def gather_planes(grad, argmax, nd, dt, check=True):
    """``grad`` (shaped like the input) read at each ``argmax`` entry of its plane (0 for -1)."""
    argmax = _dev(argmax)
    shape = argmax.shape
    argmax = _planes(argmax, nd)
    g = _planes(_dev(grad).astype(dt, copy=False), nd)
    if check:
        _check_argmax(argmax, g.shape[1])
    hit = argmax >= 0
    rows = cupy.arange(argmax.shape[0])[:, None]
    return cupy.where(hit, g[rows, cupy.where(hit, argmax, 0)], dt.type(0)).reshape(shape)


def _nd(x):
    return 3 if x.ndim == 5 else 2


@fits_out
def _max_pool_out(prim, x, *, out=None):
    return max_pool(prim, x, with_argmax=False)[0]


@fits_out
def _max_pool_with_argmax(prim, x, *, out=None):
    return max_pool(prim, x)


@fits_out
def _max_pool_grad(prim, x, y, dout, *, out=None):
    """dx: dout added at each window's argmax, recomputed from x (dout has the forward output's shape)."""
    x, dout = _dev(x), _dev(dout)
    kernel, stride, dil, win = prim.geometry_for(x.shape)
    nd = len(kernel)
    dt = compute_dtype(x, dout)
    rule, floor = _rule(prim, x)
    if rule == _FOLD and dt == compute_dtype(x) and dout.shape[:-nd] == x.shape[:-nd]:
        dx = _max_pool_grad_raw(x, dout, dt, floor, kernel, stride, dil, win.before)      # (fusion on: one launch)
        if dx is not None:
            return dx
        # (fusion on, a wide window: the argmax's scatter operands in one kernel, the zeros and the scatter)
        pair = _window_pool("scatter", x, dt, floor, kernel, stride, dil, win.before, dout.shape[-nd:],
                            g=dout.astype(dt, copy=False))
        if pair is not None:
            dx = cupy.zeros(x.shape, dt)
            scatter_add(dx.reshape(-1), pair[0], pair[1])
            return dx
    _, arg = max_pool(prim, x, dout.shape[-nd:], need_values=False)
    return scatter_planes(dout, arg, x.shape, nd, compute_dtype(x, dout), check=False)


@fits_out
def _max_pool_grad_grad(prim, x, y, grad, *, out=None):
    x, y, grad = _dev(x), _dev(y), _dev(grad)
    nd = len(prim.geometry_for(x.shape)[0])
    _, arg = max_pool(prim, x, y.shape[-nd:])
    return gather_planes(grad, arg, nd, compute_dtype(x, grad), check=False)


@fits_out
def _scatter_kernel(prim, x, grad, argmax, *, out=None):
    x, grad = _dev(x), _dev(grad)
    return scatter_planes(grad, argmax, x.shape, _nd(x), compute_dtype(x, grad))


@fits_out
def _gather_kernel(prim, x, grad, argmax, *, out=None):
    x, grad = _dev(x), _dev(grad)
    return gather_planes(grad, argmax, _nd(x), compute_dtype(x, grad))


@fits_out
def _max_pool_with_channel_argmax(prim, x, *, out=None):
    """(output, argmax), the argmax an index into the item's (C, H, W) (``c * H * W`` added), as MindSpore 2.10's
    MaxPoolWithArgmax gives it."""
    y, arg = max_pool(prim, x)
    plane = int(x.shape[-2]) * int(x.shape[-1])
    offsets = (cupy.arange(x.shape[-3], dtype=arg.dtype) * plane).reshape(-1, 1, 1)
    return y, arg + offsets


def _in_plane(argmax, x):
    """MaxPoolWithArgmax's argmax (over the item's (C, H, W)) as an index into its own plane (MaxPool3D's gradient,
    also run by MaxPoolGradGradWithArgmax, gives one already: its spatial size)."""
    return _dev(argmax) % max(math.prod(int(d) for d in x.shape[-_nd(x):]), 1)


@fits_out
def _scatter_channel_kernel(prim, x, grad, argmax, *, out=None):
    x, grad = _dev(x), _dev(grad)
    return scatter_planes(grad, _in_plane(argmax, x), x.shape, _nd(x), compute_dtype(x, grad))


@fits_out
def _gather_channel_kernel(prim, x, grad, argmax, *, out=None):
    x, grad = _dev(x), _dev(grad)
    return gather_planes(grad, _in_plane(argmax, x), _nd(x), compute_dtype(x, grad))


# --- average pooling ----------------------------------------------------------------------------
def _avg_options(prim):
    if type(prim).__name__ in ("AvgPool", "AvgPoolGrad"):
        return False, 0  # MindSpore's AvgPool averages over the cells inside the input
    return bool(prim.count_include_pad), int(prim.divisor_override)


def _divisors(sizes, win, kernel, stride, include_pad, override):
    """Each output's divisor (host float64 array shaped like the outputs)."""
    if override > 0:
        return numpy.full(win.out, float(override))
    div = numpy.ones((), numpy.float64)
    for n, b, a, o, k, s in zip(sizes, win.before, win.after, win.out, kernel, stride):
        start = numpy.arange(o, dtype=numpy.int64) * s - b
        end = numpy.minimum(start + k, n + a)
        if include_pad:
            extent = end - start
        else:
            extent = numpy.maximum(numpy.minimum(end, n) - numpy.maximum(start, 0), 0)
        div = numpy.multiply.outer(div, extent.astype(numpy.float64))
    return div


_DIVISORS = {}


def _device_divisors(div):
    """(divisor > 0, divisor or 1) of a host divisor table as device arrays, copied once per table and device
    (no host copy in a steady-state step, which a stream capturing a CUDA graph refuses)."""
    key = (cupy.cuda.runtime.getDevice(), div.shape, div.tobytes())
    tables = _DIVISORS.get(key)
    if tables is None:
        tables = _DIVISORS[key] = (cupy.asarray(div > 0), cupy.asarray(numpy.where(div > 0, div, 1.0)))
    return tables


def _divide(total, div):
    """``total / div`` in float64 (as the CPU kernels divide), 0 where the divisor is not positive."""
    ok, safe = _device_divisors(div)
    return cupy.where(ok, total.astype(F64) / safe, 0.0)


def _avg_geometry(prim, shape):
    kernel, stride, _, win = prim.geometry_for(shape)
    nd = len(kernel)
    return kernel, stride, (1,) * nd, win, tuple(shape[-nd:])


@fits_out
def _avg_pool(prim, x, *, out=None):
    x = _dev(x)
    kernel, stride, dil, win, sizes = _avg_geometry(prim, x.shape)
    include_pad, override = _avg_options(prim)
    dt = compute_dtype(x)
    xp = pad_spatial(x.astype(dt, copy=False), win.before, pad_after(sizes, win.before, win.out, kernel, stride, dil))
    total = None
    for _, v in windows(xp, win.out, kernel, stride, dil):
        total = v.copy() if total is None else total + v
    return _divide(total, _divisors(sizes, win, kernel, stride, include_pad, override)).astype(dt)


@fits_out
def _avg_pool_backward(prim, x_shape, dout, *, out=None):
    dout = _dev(dout)
    x_shape = tuple(int(s) for s in x_shape)
    kernel, stride, dil, win, sizes = _avg_geometry(prim, x_shape)
    include_pad, override = _avg_options(prim)
    dt = compute_dtype(dout)
    share = _divide(dout, _divisors(sizes, win, kernel, stride, include_pad, override)).astype(dt)
    after = pad_after(sizes, win.before, win.out, kernel, stride, dil)
    nd = len(sizes)
    dxp = cupy.zeros(x_shape[:-nd] + tuple(b + n + a for b, n, a in zip(win.before, sizes, after)), dt)
    for _, view in windows(dxp, win.out, kernel, stride, dil):
        view += share     # one offset's views never overlap themselves: no repeated index
    crop = tuple(slice(b, b + n) for b, n in zip(win.before, sizes))
    return cupy.asarray(dxp[(Ellipsis,) + crop], order="C")


# --- adaptive pooling ---------------------------------------------------------------------------
def _bins(in_size, out_size):
    o = numpy.arange(out_size, dtype=numpy.int64)
    return (o * in_size) // out_size, ((o + 1) * in_size + out_size - 1) // out_size


def _bin_matrix(in_size, out_size, dt):
    """(out, in) averaging matrix of the adaptive bins along one axis."""
    lo, hi = _bins(in_size, out_size)
    i = numpy.arange(in_size)[None, :]
    inside = (i >= lo[:, None]) & (i < hi[:, None])
    return cupy.asarray((inside / (hi - lo)[:, None]).astype(dt))


@fits_out
def _adaptive_avg(prim, x, *, out=None):
    x = _dev(x)
    oh, ow = prim.infer_shape(x.shape)[-2:]
    dt = compute_dtype(x)
    ah, aw = _bin_matrix(x.shape[-2], oh, dt), _bin_matrix(x.shape[-1], ow, dt)
    return cupy.matmul(cupy.matmul(ah, x.astype(dt, copy=False)), aw.T)


@fits_out
def _adaptive_avg_grad(prim, input_grad, orig_input_shape, *, out=None):
    g = _dev(input_grad)
    shape = tuple(int(s) for s in orig_input_shape)
    dt = compute_dtype(g)
    ah, aw = _bin_matrix(shape[-2], g.shape[-2], dt), _bin_matrix(shape[-1], g.shape[-1], dt)
    return cupy.matmul(cupy.matmul(ah.T, g.astype(dt, copy=False)), aw).reshape(shape)


@fits_out
def _adaptive_max(prim, x, *, out=None):
    x = _dev(x)
    oh, ow = prim.infer_shape(x.shape)[0][-2:]
    h, w = x.shape[-2:]
    dt = compute_dtype(x)
    x = x.astype(dt, copy=False)
    (lo_h, hi_h), (lo_w, hi_w) = _bins(h, oh), _bins(w, ow)
    best = cupy.full(x.shape[:-2] + (oh, ow), -_INF, dt)
    arg = cupy.full(best.shape, -1, numpy.int64)
    for dy in range(int((hi_h - lo_h).max())):
        iy = lo_h + dy
        vy = iy < hi_h
        iy = numpy.minimum(iy, h - 1)
        for dx in range(int((hi_w - lo_w).max())):
            ix = lo_w + dx
            vx = ix < hi_w
            ix = numpy.minimum(ix, w - 1)
            v = x[..., cupy.asarray(iy)[:, None], cupy.asarray(ix)[None, :]]
            # the first element, then strictly larger ones (MindSpore 2.10's AdaptiveMaxPool2D)
            take = cupy.asarray(vy[:, None] & vx[None, :]) & ((arg < 0) | (v > best))
            best = cupy.where(take, v, best)
            arg = cupy.where(take, cupy.asarray(iy[:, None] * w + ix[None, :]), arg)
    return best, arg


@fits_out
def _adaptive_max_grad(prim, y_grad, x, argmax, *, out=None):
    x, y_grad = _dev(x), _dev(y_grad)
    return scatter_planes(y_grad, argmax, x.shape, 2, compute_dtype(x, y_grad))


KERNELS = {
    "MaxPool": _max_pool_out,
    "MaxPoolGrad": _max_pool_grad,
    "MaxPoolGradGrad": _max_pool_grad_grad,
    "AvgPool": _avg_pool,
    "AvgPoolGrad": lambda prim, x, y, dout, *, out: _avg_pool_backward(prim, x.shape, dout, out=out),
    "MaxPoolWithArgmax": _max_pool_with_channel_argmax,
    "MaxPoolGradWithArgmax": _scatter_channel_kernel,
    "MaxPoolGradGradWithArgmax": _gather_channel_kernel,
    "MaxPoolWithArgmaxV2": _max_pool_with_argmax,
    "MaxPoolGradWithArgmaxV2": _scatter_kernel,
    "MaxPool3D": _max_pool_out,
    "MaxPool3DGrad": _max_pool_grad,
    "MaxPool3DGradGrad": _max_pool_grad_grad,
    "MaxPool3DWithArgmax": _max_pool_with_argmax,
    "MaxPool3DGradWithArgmax": _scatter_kernel,
    "AvgPool3D": _avg_pool,
    "AvgPool3DGrad": _avg_pool_backward,
    "AdaptiveAvgPool2D": _adaptive_avg,
    "AdaptiveAvgPool2DGrad": _adaptive_avg_grad,
    "AdaptiveMaxPool2D": _adaptive_max,
    "AdaptiveMaxPool2DGrad": _adaptive_max_grad,
}
