"""GPU kernels of the optim family: mindspore-array-kernels' ``optim`` family (one update formula per primitive, run
by its ``_kernel``, which binds the inputs by the primitive's ``io_spec``, coalesces sparse rows with ``cupy.add.at``,
CUDA's atomic add, and writes the new states into the Parameters' buffers in place) bound to CuPy (the CPU backend
binds the same source to NumPy), and this backend's own fused kernels for the hot updates. The buffers are device
arrays, or host arrays for tensors made before the GPU target was chosen (written through ``_common.store``);
numbers and one-element tensors become 0-d device values in the compute dtype (float16 states compute in float32).
"""
import cupy
import numpy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels import _common
from mindspore_gpu.kernels._common import dev, store


def _scalar(v, dt):
    return dev(v).astype(dt).reshape(()) if isinstance(v, (cupy.ndarray, numpy.ndarray)) \
        else cupy.asarray(numpy.asarray(v, dt))


def _scatter_rows(dst, rows, value):
    if isinstance(dst, cupy.ndarray):
        dst[rows] = value.astype(dst.dtype)
        return
    full = dev(dst).copy()      # a host buffer: update a device copy, then write it back whole
    full[rows] = value.astype(full.dtype)
    store(dst, full)


def _result(buf):
    """A state buffer as an output: itself on the device, a device copy of a host buffer."""
    return buf if isinstance(buf, cupy.ndarray) else dev(buf)


KERNELS = bind("optim", globals(), xp=cupy, dev=dev, scalar=_scalar, store=store, scatter_rows=_scatter_rows,
               result=_result)["KERNELS"]


# --- Adam, ApplyAdamWithAmsgrad, AdamWeightDecay: dense, one fused kernel per parameter --------------------------
# The CPU kernels' formulas (``mindspore_cpu.kernels.optim``: MindSpore's CPU order ``m += (g - m) * (1 - beta1)``,
# in var's dtype; the scalars in S = float32, or float64 for a float64 var given Python numbers or float64
# tensors) as one ElementwiseKernel per call: T is var's dtype (float16, float32 or float64), S the scalars'.
# The scalars stay where they are (0-d device tensors, or host numbers): nothing is read back to the host.
_ADAM_HEAD = ("T omb1 = (T)(1 - b1); T omb2 = (T)(1 - b2);"
              "T mi = m + (g - m) * omb1; T vi = v + (g * g - v) * omb2;")
_ADAM_LR = "T lt = (T)(lr * sqrt(1 - b2p) / (1 - b1p));"
_ADAM_IN = "T g, S lr, S b1p, S b2p, S b1, S b2, S eps"


_ADAM_TYPES = frozenset(numpy.dtype(t) for t in (numpy.float16, numpy.float32, numpy.float64))


def _elementwise(in_params, out_params, body, name):
    """The update's fused kernel (``_common.Fused``, for float16 too)."""
    return _common.Fused(name, in_params, out_params, body, dtypes=_ADAM_TYPES)


_ADAM_BODY = _ADAM_HEAD + _ADAM_LR + "var = var - lt * mi / (sqrt(vi) + (T)eps); m = mi; v = vi;"
_ADAM_NESTEROV_BODY = (_ADAM_HEAD + _ADAM_LR + "T num = mi * (T)b1 + omb1 * g;"
                       "var = var - lt * num / (sqrt(vi) + (T)eps); m = mi; v = vi;")
_ADAM_K = _elementwise(_ADAM_IN, "T var, T m, T v", _ADAM_BODY, "ms_adam")
_ADAM_NESTEROV_K = _elementwise(_ADAM_IN, "T var, T m, T v", _ADAM_NESTEROV_BODY, "ms_adam_nesterov")
_AMSGRAD_K = _elementwise(_ADAM_IN, "T var, T m, T v, T vhat",
                          _ADAM_HEAD + _ADAM_LR + "T vh = (vhat != vhat || vhat > vi) ? vhat : vi;"
                          "var = var - lt * mi / (sqrt(vh) + (T)eps); m = mi; v = vi; vhat = vh;",
                          "ms_adam_amsgrad")
_ADAM_WD_IN = "T g, S lr, S b1, S b2, S eps, S wd"
_ADAM_WD_BODY = _ADAM_HEAD + "T u = mi / (sqrt(vi) + (T)eps) + (T)wd * var; var = var - (T)lr * u; m = mi; v = vi;"
_ADAM_WD_K = _elementwise(_ADAM_WD_IN, "T var, T m, T v", _ADAM_WD_BODY, "ms_adam_weight_decay")
_ADAM_NO_DECAY_K = _elementwise(_ADAM_WD_IN, "T var, T m, T v",
                                _ADAM_HEAD + "T u = mi / (sqrt(vi) + (T)eps);"
                                "var = var - (T)lr * u; m = mi; v = vi;", "ms_adam_no_decay")
_F64 = numpy.dtype(numpy.float64)


def _scalar_dtype(var_dt, scalars):
    if any(isinstance(s, (cupy.ndarray, numpy.ndarray)) and s.dtype == _F64 for s in scalars):
        return _F64
    if var_dt == _F64 and any(not isinstance(s, (cupy.ndarray, numpy.ndarray)) for s in scalars):
        return _F64
    return numpy.dtype(numpy.float32)


def _s(v, sdt):
    """A scalar input as the kernel takes it: a 0-d device tensor of ``sdt``, or a host number of ``sdt``."""
    if isinstance(v, cupy.ndarray):
        return v.astype(sdt, copy=False).reshape(())
    return numpy.asarray(v).astype(sdt).reshape(())[()]


def _plain_scalars(var_dt, sdt, lr, b1, b2, eps, b1p=None, b2p=None):
    """The plain-CuPy twin of the kernels' scalar part: ``(lr_t, 1 - b1, 1 - b2, b1, eps)`` in var's dtype."""
    values = (lr, b1, b2, eps, b1p, b2p)
    on_device = any(isinstance(x, cupy.ndarray) for x in values)
    xp_ = cupy if on_device else numpy
    lr, b1, b2, eps, b1p, b2p = (None if x is None else xp_.asarray(x, sdt) for x in values)
    one = sdt.type(1)
    if b1p is not None:
        lr = lr * xp_.sqrt(one - b2p) / (one - b1p)

    def conv(x):
        return x.astype(var_dt) if on_device else var_dt.type(x)
    return conv(lr), conv(one - b1), conv(one - b2), conv(b1), conv(eps)


def _plain_moments(m, v, g, omb1, omb2):
    mi = m + (g - m) * omb1
    return mi, v + (g * g - v) * omb2


def _adam_dense(prim, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient, out=None):
    dt = var.dtype
    g = dev(gradient).astype(dt, copy=False)
    sdt = _scalar_dtype(dt, (lr, beta1, beta2, epsilon, beta1_power, beta2_power))
    lr, b1, b2, eps, b1p, b2p = (_s(x, sdt) for x in (lr, beta1, beta2, epsilon, beta1_power, beta2_power))
    kernel = _ADAM_NESTEROV_K if prim.use_nesterov else _ADAM_K
    if kernel.usable(var, m, v, g):
        kernel.typed_by("S", sdt, lr, b1p, b2p, b1, b2, eps)(g, lr, b1p, b2p, b1, b2, eps, var, m, v)
        return var, m, v
    lr_t, omb1, omb2, b1, eps = _plain_scalars(dt, sdt, lr, b1, b2, eps, b1p, b2p)
    mi, vi = _plain_moments(dev(m), dev(v), g, omb1, omb2)
    num = mi * b1 + omb1 * g if prim.use_nesterov else mi
    store(var, dev(var) - lr_t * num / (cupy.sqrt(vi) + eps))
    store(m, mi)
    store(v, vi)
    return _result(var), _result(m), _result(v)


def _amsgrad_dense(prim, var, m, v, vhat, beta1_power, beta2_power, lr, grad, out=None):
    dt = var.dtype
    g = dev(grad).astype(dt, copy=False)
    sdt = _scalar_dtype(dt, (lr, beta1_power, beta2_power, prim.beta1, prim.beta2, prim.epsilon))
    lr, b1, b2, eps, b1p, b2p = (_s(x, sdt) for x in (lr, prim.beta1, prim.beta2, prim.epsilon, beta1_power,
                                                      beta2_power))
    if _AMSGRAD_K.usable(var, m, v, vhat, g):
        _AMSGRAD_K.typed_by("S", sdt, lr, b1p, b2p, b1, b2, eps)(g, lr, b1p, b2p, b1, b2, eps, var, m, v, vhat)
        return var, m, v, vhat
    lr_t, omb1, omb2, _, eps = _plain_scalars(dt, sdt, lr, b1, b2, eps, b1p, b2p)
    mi, vi = _plain_moments(dev(m), dev(v), g, omb1, omb2)
    vh = cupy.maximum(dev(vhat), vi)
    store(var, dev(var) - lr_t * mi / (cupy.sqrt(vh) + eps))
    store(m, mi)
    store(v, vi)
    store(vhat, vh)
    return _result(var), _result(m), _result(v), _result(vhat)


def _adam_weight_decay_dense(prim, var, m, v, lr, beta1, beta2, epsilon, decay, gradient, out=None):
    dt = var.dtype
    g = dev(gradient).astype(dt, copy=False)
    sdt = _scalar_dtype(dt, (lr, beta1, beta2, epsilon, decay))
    lr, b1, b2, eps, wd = (_s(x, sdt) for x in (lr, beta1, beta2, epsilon, decay))
    no_decay = not isinstance(wd, cupy.ndarray) and wd == 0     # a host zero: skipped, as on the CPU
    kernel = _ADAM_NO_DECAY_K if no_decay else _ADAM_WD_K
    if kernel.usable(var, m, v, g):
        kernel.typed_by("S", sdt, lr, b1, b2, eps, wd)(g, lr, b1, b2, eps, wd, var, m, v)
        return var, m, v
    lr_c, omb1, omb2, _, eps = _plain_scalars(dt, sdt, lr, b1, b2, eps)
    mi, vi = _plain_moments(dev(m), dev(v), g, omb1, omb2)
    update = mi / (cupy.sqrt(vi) + eps)
    p = dev(var)
    if not no_decay:
        update = update + (wd.astype(dt) if isinstance(wd, cupy.ndarray) else dt.type(wd)) * p
    store(var, p - lr_c * update)
    store(m, mi)
    store(v, vi)
    return _result(var), _result(m), _result(v)


# SGD (nn.SGD calls it per parameter): the CPU kernel's formula in the parameters' dtype, the momentum read on the
# device (``mu > 0`` per element: no read back), one kernel per (nesterov, weight decay) form.
_SGD_KERNELS = {}


def _sgd_kernel(nesterov, decay):
    key = (nesterov, decay)
    if key not in _SGD_KERNELS:
        body = ("T gn = g + p * wd;" if decay else "T gn = g;") + (
            "T mut = (T)mu; bool on = mu > 0;"
            "T na = stat > (T)0 ? gn : (T)(accum * mut + omd * gn);"
            + ("T upd = on ? (T)(gn + na * mut) : gn;" if nesterov else "T upd = on ? na : gn;") +
            "accum = on ? na : accum; stat = on && stat > (T)0 ? (T)0 : stat;"
            "p = p - (T)lr * upd;")
        _SGD_KERNELS[key] = _elementwise("T g, S lr, S mu, T wd, T omd", "T p, T accum, T stat", body,
                                         f"ms_sgd{'_nesterov' if nesterov else ''}{'_decay' if decay else ''}")
    return _SGD_KERNELS[key]


def _sgd_dense(prim, parameters, gradient, learning_rate, accum, momentum, stat, out=None):
    p = parameters
    dt = p.dtype
    t = dt.type
    g = dev(gradient).astype(dt, copy=False)
    decay = prim.weight_decay > 0
    kernel = _sgd_kernel(bool(prim.nesterov), decay)
    sdt = _scalar_dtype(dt, (learning_rate, momentum))
    lr, mu = _s(learning_rate, sdt), _s(momentum, sdt)
    wd, omd = t(prim.weight_decay), t(t(1) - t(prim.dampening))
    if kernel.usable(p, accum, stat, g):
        kernel.typed_by("S", sdt, lr, mu)(g, lr, mu, wd, omd, p, accum, stat)
        return p
    # plain CuPy: the momentum read back once (a device synchronisation)
    lr_t = lr.astype(dt) if isinstance(lr, cupy.ndarray) else t(lr)
    gn = g + dev(p) * wd if decay else g
    mu_host = float(mu)
    if mu_host > 0:
        mu_t = t(mu_host)
        st = dev(stat)
        first = st > 0
        na = cupy.where(first, gn, dev(accum) * mu_t + omd * gn)
        store(accum, na)
        store(stat, cupy.where(first, cupy.zeros_like(st), st))
        gn = gn + na * mu_t if prim.nesterov else na
    store(p, dev(p) - lr_t * gn)
    return _result(p)


# RMSProp, centered RMSProp, Adagrad: the CPU kernels' formulas (in var's dtype, ``1 - decay``, ``momentum``,
# ``epsilon`` and ``lr`` cast to it), one kernel per call; decay, momentum and epsilon are passed in var's dtype
# (numbers converted on the host, once), lr in its own (S) and cast in the kernel.
_RMS_HEAD = "T omd = (T)1 - (T)rho; T msi = ms + (g * g - ms) * omd;"
_RMSPROP_K = _elementwise("T g, S lr, T rho, T mu, T eps", "T var, T ms, T mom",
                          _RMS_HEAD + "T momi = mom * (T)mu + g * (T)lr / sqrt(msi + (T)eps);"
                          "ms = msi; mom = momi; var = var - momi;", "ms_rmsprop")
_CENTERED_RMSPROP_K = _elementwise("T g, S lr, T rho, T mu, T eps", "T var, T mg, T ms, T mom",
                                   _RMS_HEAD + "T mgi = mg + (g - mg) * omd; T den = msi - mgi * mgi + (T)eps;"
                                   "bool ok = den > (T)0;"
                                   "T momc = mom * (T)mu + g * (T)lr / sqrt(ok ? den : (T)1);"
                                   "ms = msi; mg = mgi; mom = ok ? momc : mom; var = ok ? (T)(var - momc) : var;",
                                   "ms_centered_rmsprop")
_ADAGRAD_K = {update: _elementwise("T g, S lr", "T var, T accum",
                                   ("T a = accum + g * g;" if update else "T a = accum;") +
                                   "var = var - (T)lr * g * ((T)1 / sqrt(a + (T)0.00000001)); accum = a;",
                                   "ms_adagrad" if update else "ms_adagrad_no_update")
              for update in (True, False)}


def _in_dtype(x, dt):
    """A scalar input cast to ``dt`` (a 0-d device tensor stays on the device)."""
    return x.astype(dt).reshape(()) if isinstance(x, cupy.ndarray) else numpy.asarray(x).astype(dt).reshape(())[()]


def _rmsprop_dense(prim, var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon, out=None):
    dt = var.dtype
    g = dev(grad).astype(dt, copy=False)
    lr = _s(learning_rate, _scalar_dtype(dt, (learning_rate,)))
    rho, mu, eps = (_in_dtype(x, dt) for x in (decay, momentum, epsilon))
    if _RMSPROP_K.usable(var, mean_square, moment, g):
        _RMSPROP_K.typed_by("S", lr.dtype, lr)(g, lr, rho, mu, eps, var, mean_square, moment)
        return var
    lr = _in_dtype(lr, dt)
    omd = dt.type(1) - rho
    ms = dev(mean_square)
    ms = ms + (g * g - ms) * omd
    mom = dev(moment) * mu + g * lr / cupy.sqrt(ms + eps)
    store(mean_square, ms)
    store(moment, mom)
    store(var, dev(var) - mom)
    return _result(var)


def _centered_rmsprop_dense(prim, var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum,
                            epsilon, out=None):
    dt = var.dtype
    g = dev(grad).astype(dt, copy=False)
    lr = _s(learning_rate, _scalar_dtype(dt, (learning_rate,)))
    rho, mu, eps = (_in_dtype(x, dt) for x in (decay, momentum, epsilon))
    if _CENTERED_RMSPROP_K.usable(var, mean_gradient, mean_square, moment, g):
        _CENTERED_RMSPROP_K.typed_by("S", lr.dtype, lr)(g, lr, rho, mu, eps, var, mean_gradient, mean_square,
                                                        moment)
        return var
    lr = _in_dtype(lr, dt)
    omd = dt.type(1) - rho
    ms, mg = dev(mean_square), dev(mean_gradient)
    ms = ms + (g * g - ms) * omd
    mg = mg + (g - mg) * omd
    den = ms - mg * mg + eps
    ok = den > 0
    mom = dev(moment)
    momc = mom * mu + g * lr / cupy.sqrt(cupy.where(ok, den, cupy.ones_like(den)))
    store(mean_square, ms)
    store(mean_gradient, mg)
    store(moment, cupy.where(ok, momc, mom))
    v = dev(var)
    store(var, cupy.where(ok, v - momc, v))
    return _result(var)


def _adagrad_dense(prim, var, accum, lr, grad, out=None):
    dt = var.dtype
    if dt not in _ADAM_TYPES:       # complex: the generic formula
        return _GENERIC_ADAGRAD(prim, var, accum, lr, grad)
    g = dev(grad).astype(dt, copy=False)
    lr = _s(lr, _scalar_dtype(dt, (lr,)))
    kernel = _ADAGRAD_K[bool(prim.update_slots)]
    if kernel.usable(var, accum, g):
        kernel.typed_by("S", lr.dtype, lr)(g, lr, var, accum)
        return var, accum
    a = dev(accum)
    if prim.update_slots:
        a = a + g * g
    inv = dt.type(1) / cupy.sqrt(a + dt.type(1e-8))
    store(accum, a)
    store(var, dev(var) - _in_dtype(lr, dt) * g * inv)
    return _result(var), _result(accum)


# --- Adam and AdamWeightDecay of many parameters per launch ---------------------------------------------------
def _many_source(name, scalars, body):
    """A multi-tensor update: up to SLOTS parameters (var, m, v written in place, g read; blockIdx.y picks one), the
    scalars read from the device, each element updated by ``body``, the fused per-parameter kernel's statements."""
    slots = _common.SLOTS
    arrays = ", ".join([_common.slot_params("T*", "p_var"), _common.slot_params("T*", "p_m"),
                        _common.slot_params("T*", "p_v"), _common.slot_params("const T*", "p_g"),
                        _common.slot_params("long long", "n")])
    names = {a: _common.slot_names(f"p_{a}") for a in ("var", "m", "v", "g")}
    return f"""
extern "C" __global__ void {name}({arrays}, {", ".join(f"const S* __restrict__ s_{x}" for x in scalars)}) {{
    T* vars_[{slots}] = {{{names["var"]}}};
    T* ms_[{slots}] = {{{names["m"]}}};
    T* vs_[{slots}] = {{{names["v"]}}};
    const T* gs_[{slots}] = {{{names["g"]}}};
    const long long ns_[{slots}] = {{{_common.slot_names("n")}}};
    T* a_var = vars_[blockIdx.y];
    T* a_m = ms_[blockIdx.y];
    T* a_v = vs_[blockIdx.y];
    const T* a_g = gs_[blockIdx.y];
    const long long n = ns_[blockIdx.y];
    {" ".join(f"const S {x} = *s_{x};" for x in scalars)}
    for (long long i = (long long)blockIdx.x * RAW_BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * RAW_BLOCK) {{
        T var = a_var[i];
        T m = a_m[i];
        T v = a_v[i];
        const T g = a_g[i];
        {body}
        a_var[i] = var;
        a_m[i] = m;
        a_v[i] = v;
    }}
}}
"""


_MANY_BINDINGS = [dict(T=t, S=s) for t in (_common.F32, _F64) for s in (_common.F32, _F64)]
_ADAM_SCALARS = ("b1p", "b2p", "lr", "b1", "b2", "eps")        # (Adam's inputs 3 to 8)
_ADAM_WD_SCALARS = ("lr", "b1", "b2", "eps", "wd")             # (AdamWeightDecay's inputs 3 to 7)
_ADAM_MANY = _common.RawKernels("ms_adam_many", _many_source("ms_adam_many", _ADAM_SCALARS, _ADAM_BODY)
                                + _many_source("ms_adam_nesterov_many", _ADAM_SCALARS, _ADAM_NESTEROV_BODY),
                                ("ms_adam_many", "ms_adam_nesterov_many"), bindings=_MANY_BINDINGS)
_ADAM_WD_MANY = _common.RawKernels("ms_adam_weight_decay_many",
                                   _many_source("ms_adam_weight_decay_many", _ADAM_WD_SCALARS, _ADAM_WD_BODY),
                                   ("ms_adam_weight_decay_many",), bindings=_MANY_BINDINGS)
#: name -> (the multi-tensor kernels, the primitive's inputs the scalars are, its gradient's input)
_MANY = {"Adam": (_ADAM_MANY, range(3, 9), 9), "AdamWeightDecay": (_ADAM_WD_MANY, range(3, 8), 8)}


def update_many(prim, members):
    """``prim`` (an ``Adam`` or ``AdamWeightDecay``) applied to each of ``members`` (each one's inputs in the
    primitive's order): each member's ``(var, m, v)``, written in place as the fused kernel of each would write them.
    The C-contiguous float32/float64 members whose scalars are device tensors go, by dtype and scalars (the same
    arrays: the graphs' ``gpu_group_updates`` pass groups an optimizer's updates so), :data:`~._common.SLOTS` to a
    launch of one hand-written kernel; the others are updated one by one."""
    name = type(prim).__name__
    raw, scalar_at, grad_at = _MANY[name]
    kernel = ("ms_adam_nesterov_many" if prim.use_nesterov else "ms_adam_many") if name == "Adam" else \
        "ms_adam_weight_decay_many"
    results = [None] * len(members)
    groups = {}
    for k, inputs in enumerate(members):
        arrays = [inputs[0], inputs[1], inputs[2], dev(inputs[grad_at])]
        scalars = [inputs[i] for i in scalar_at]
        if all(isinstance(x, cupy.ndarray) for x in scalars) and raw.usable(*arrays) and arrays[0].size and \
                all(a.flags.c_contiguous and a.shape == arrays[0].shape for a in arrays):
            groups.setdefault((arrays[0].dtype,) + tuple(id(x) for x in scalars), []).append(k)
    for key, ks in groups.items():
        dt = key[0]
        scalars = [members[ks[0]][i] for i in scalar_at]
        sdt = _scalar_dtype(dt, scalars)
        scalars = [_s(x, sdt) for x in scalars]
        for start in range(0, len(ks), _common.SLOTS):
            chunk = ks[start:start + _common.SLOTS]
            columns = [[members[k][j] if j < 3 else dev(members[k][grad_at]) for k in chunk] for j in range(4)]
            sizes = [v.size for v in columns[0]]
            blocks = max(1, min(1024, -(-max(sizes) // _common.RAW_BLOCK)))
            args = _common.slot_args(columns, sizes)
            try:
                raw.launch(kernel, (blocks, len(chunk)), tuple(args + scalars), T=dt, S=sdt)
            except _common.FusedUnavailable:       # did not compile (before any write): one by one below
                break
            for k in chunk:
                results[k] = tuple(members[k][:3])
    for k, inputs in enumerate(members):
        if results[k] is None:
            results[k] = KERNELS[name](prim, *inputs)
    return tuple(results)


_GENERIC_ADAGRAD = KERNELS["ApplyAdagrad"]
KERNELS.update({"Adam": _adam_dense, "ApplyAdamWithAmsgrad": _amsgrad_dense,
                "AdamWeightDecay": _adam_weight_decay_dense,
                "SGD": _sgd_dense, "ApplyRMSProp": _rmsprop_dense, "ApplyCenteredRMSProp": _centered_rmsprop_dense,
                "ApplyAdagrad": _adagrad_dense})
