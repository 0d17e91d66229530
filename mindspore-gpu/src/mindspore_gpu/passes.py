"""The GPU backend's GRAPH_MODE passes (registered through ``ms_register_passes`` for the ``GPU`` target; they run on
PYNATIVE's compiled graphs too): ``gpu_fuse_batchnorm_relu`` (:func:`fuse_batchnorm_relu`: a ReLU after BatchNorm in
its launch), ``gpu_fuse_relu_grad_batchnorm_grad`` (:func:`fuse_relu_grad_batchnorm_grad`: its gradient's ReluGrad in
BatchNormGrad's launches), ``gpu_fuse_elementwise`` (below), ``gpu_group_casts`` (:func:`group_casts`: amp's casts as
``CastMany`` applies) and ``gpu_group_updates`` (:func:`group_updates`: an optimizer's per-parameter updates as
multi-tensor applies), all five off with ``MS_GPU_FUSED_KERNELS=0``.

``gpu_fuse_elementwise``: a chain of elementwise applies, each the only reader of the one before (found by
:func:`mindspore.plugin.fuse_chains`), becomes one apply whose kernel is one generated
``cupy.ElementwiseKernel``: one launch and one output array instead of one of each per operator (launch
overhead and memory traffic decide small GPU models). Fused, when every tensor of the chain is float16, float32
or float64 (a ``Cast`` between them included, but float64 -> float16):

* ``Add``, ``Sub``, ``Mul``, ``RealDiv``/``Div``, ``Maximum``, ``Minimum`` (operands: the chain's value, other
  tensors of its dtype that broadcast to the chain's shape, finite scalar constants), ``BiasAdd`` (its bias
  reshaped for NCHW), ``Pow`` with a constant exponent;
* ``Neg``, ``Square``, ``Exp``, ``Log``, ``Sqrt``, ``Rsqrt``, ``Tanh``, ``ReLU``, ``Sigmoid``, ``GeLU`` (tanh
  form) and ``ReluGrad``.

Each step is written with the formula of the CuPy kernel it replaces (``kernels/``): ``fmax(x, 0)`` for ReLU (NaN
gives 0), ``exp(-logaddexp(0, -x))`` for Sigmoid, GeLU's tanh form, ``y > 0 ? dy : 0`` for ReluGrad, ``1 /
sqrt(x)`` for Rsqrt, NaN-propagating ``Maximum``/``Minimum``; scalar constants are rounded to the chain's dtype
first, as the plain kernels convert them. So the fused kernel gives the unfused numbers (to the last bit where
CUDA's math functions agree with themselves; float32 to 1e-6 relative). A float16 step (amp's chains: its casts,
bias adds, ReLUs, residual adds and their gradients) computes in float from its operands widened and is rounded to
float16 after each step, where its plain kernel stores its result (``Rsqrt`` after its ``sqrt`` too): the plain
kernels' bits, in one launch. bfloat16 chains are not fused (CuPy's generated kernels are not given bfloat16).

The kernel source is generated from the chain (one ``float``/``double`` statement per step), and kernels are
cached by that source, which encodes the chain's operators, operand layout and dtypes: a network's repeated
blocks share one compiled kernel. CuPy compiles a kernel (NVRTC) at its first launch, in the graph's first
run. Any exception from a fused kernel (a compiler missing on the machine, an NVRTC error) makes that kernel
run its chain's plain kernels, one by one, for the rest of the process, with one warning naming the reason:
a fusion never breaks a run. ``MS_GPU_FUSED_KERNELS=0`` turns this pass off, with the hand-written fused
kernels (read when a graph is compiled).
"""
from __future__ import annotations

import hashlib
import os
import warnings

import numpy

import cupy

from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops import operations as _P
from mindspore.plugin import (TUPLE_GETITEM, AbstractTuple, Apply, Constant, FusedOp, Parameter, Primitive, TensorSpec,
                              fuse_chains, graphs_of, is_effectful_apply, prim_of, substitute, use_counts)

from mindspore_gpu.kernels import families as _families

#: This backend's plain kernels by primitive name (what a fused kernel falls back to).
_TABLE = {name: fn for family in _families() for name, fn in family.KERNELS.items()}
#: The nn and optim families' modules (their multi-tensor updates).
_NN, _OPTIM = (next(f for f in _families() if f.__name__.rsplit(".", 1)[-1] == name) for name in ("nn", "optim"))

__all__ = ["fuse_elementwise", "fuse_batchnorm_relu", "fuse_relu_grad_batchnorm_grad", "group_casts", "group_updates",
           "register", "kernel_source", "STATS"]

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)
_F16 = numpy.dtype(numpy.float16)
#: The C type each dtype computes in: float16 in float (CuPy's ``float16`` class has no arithmetic of its own)
_C = {_F16: "float", numpy.dtype(numpy.float32): "float", numpy.dtype(numpy.float64): "double"}
_BINARY = {"Add": "({a} + {b})", "Sub": "({a} - {b})", "Mul": "({a} * {b})", "RealDiv": "({a} / {b})",
           "Div": "({a} / {b})",
           "Maximum": "((isnan({a}) || {a} > {b}) ? {a} : {b})", "Minimum": "((isnan({a}) || {a} < {b}) ? {a} : {b})"}
_UNARY = {"Neg": "(-{a})", "Square": "({a} * {a})", "Exp": "exp({a})", "Log": "log({a})", "Sqrt": "sqrt({a})",
          "Rsqrt": "(({T})1 / sqrt({a}))", "Tanh": "tanh({a})", "ReLU": "fmax({a}, ({T})0)",
          # sigmoid = exp(-logaddexp(0, -x)); logaddexp(0, t) = fmax(0, t) + log1p(exp(-|t|))
          "Sigmoid": "exp(-(fmax(({T})0, -{a}) + log1p(exp(-fabs({a})))))",
          "GeLU": "(({T})0.5 * {a} * (({T})1 + "
                  "tanh(({T})0.7978845608028654 * ({a} + ({T})0.044715 * {a} * {a} * {a}))))"}

#: Counters for tests and benchmarks: chains fused, fused kernels that fell back, casts grouped into ``CastMany``s.
STATS = {"chains": 0, "fallbacks": 0, "casts_grouped": 0, "updates_grouped": 0}
_KERNELS = {}          # source -> cupy.ElementwiseKernel
_BROKEN = {}           # source -> the reason it fell back
_WARNED = set()


def _enabled():
    return os.environ.get("MS_GPU_FUSED_KERNELS", "1").strip() not in ("0", "false", "False", "")


def _tensor_ab(x):
    ab = x.abstract
    return ab if isinstance(ab, TensorSpec) else None


def _scalar(x, dtype):
    """The value of a finite scalar constant (a Python number or a 0-d float tensor of ``dtype``), or None."""
    if not isinstance(x, Constant):
        return None
    v = x.value
    if isinstance(v, bool) or not isinstance(v, (int, float, Tensor)):
        return None
    if isinstance(v, Tensor):
        if v.shape != () or v.dtype != dtype:
            return None
        v = float(v.asnumpy())
    v = float(v)
    return v if numpy.isfinite(v) else None


def _broadcasts(shape, out_shape):
    if len(shape) > len(out_shape):
        return False
    return all(s in (1, o) for s, o in zip(reversed(shape), reversed(out_shape)))


def _plan(node):
    """Input positions through which ``node`` may continue an elementwise chain, or None."""
    prim = prim_of(node)
    if prim is None or isinstance(prim, FusedOp):
        return None
    name = type(prim).__name__
    out = node.abstract
    if not isinstance(out, TensorSpec) or out.dtype not in _FLOATS or -1 in tuple(out.shape):
        return None
    args = node.inputs[1:]
    if name in _BINARY or name == "Pow":
        if len(args) != 2:
            return None
        tensors = 0
        for k, a in enumerate(args):
            ab = _tensor_ab(a)
            if isinstance(a, Constant):
                if _scalar(a, out.dtype) is None:
                    return None
            elif ab is not None and ab.dtype == out.dtype and _broadcasts(tuple(ab.shape), tuple(out.shape)):
                if name == "Pow" and k == 1:
                    return None          # only a constant exponent
                tensors += 1
            else:
                return None
        return (0, 1) if tensors else None
    if name in _UNARY:
        ab = _tensor_ab(args[0])
        return (0,) if ab is not None and ab.dtype == out.dtype and not isinstance(args[0], Constant) else None
    if name == "ReluGrad":
        dy, y = _tensor_ab(args[0]), _tensor_ab(args[1])
        ok = (dy is not None and y is not None and dy.dtype == out.dtype and y.dtype == out.dtype
              and tuple(dy.shape) == tuple(out.shape) and tuple(y.shape) == tuple(out.shape)
              and not any(isinstance(a, Constant) for a in args))
        return (0, 1) if ok else None
    if name == "BiasAdd":
        x, b = _tensor_ab(args[0]), _tensor_ab(args[1])
        if x is None or b is None or b.dtype != out.dtype or x.dtype != out.dtype or len(b.shape) != 1 or \
                isinstance(args[0], Constant) or isinstance(args[1], Constant) or len(out.shape) < 2:
            return None
        return (0,)
    if name == "Cast":
        src = _tensor_ab(args[0])
        # (float64 -> float16 rounds once from float64 in the plain Cast: not through float)
        if src is not None and src.dtype in _FLOATS and not isinstance(args[0], Constant) and \
                not (src.dtype == mstype.float64 and out.dtype == mstype.float16):
            return (0,)
    return None


def _literal(value, dtype):
    """A C literal of ``value`` rounded to ``dtype`` (what the plain kernels compute with)."""
    return f"(({_C[dtype]}){float(dtype.type(value))!r})"


def _rounded(expr, dtype):
    """``expr`` (computed in float) rounded to float16 and widened again when ``dtype`` is float16: each plain
    kernel of a float16 chain stores its result in float16 (round to nearest even, CuPy's ``float16(float)``)."""
    return f"((float)(float16)({expr}))" if dtype == _F16 else expr


def kernel_source(chain, inputs):
    """``(in_params, out_params, body, reshapes)`` of the fused kernel of ``chain`` whose outside tensor inputs
    are ``inputs``: ``reshapes[i]`` is the shape input ``i`` is viewed as (a bias along NCHW's channels), or None.
    Raises ``ValueError`` for a chain it can not write."""
    index = {x: i for i, x in enumerate(inputs)}
    reshapes = [None] * len(inputs)
    types = [None] * len(inputs)
    lines = []
    value_of = {}
    out_shape = tuple(chain[-1].abstract.shape)

    def operand(x, dtype):
        if x in value_of:
            return value_of[x]
        if isinstance(x, Constant):
            value = _scalar(x, x.value.dtype if isinstance(x.value, Tensor) else None)
            if value is None:
                raise ValueError("a constant operand that is not a finite scalar")
            return _literal(value, dtype)
        i = index[x]
        t = _tensor_ab(x).dtype.to_numpy()
        if types[i] is None:
            types[i] = t
        return f"((float)x{i})" if numpy.dtype(t) == _F16 else f"x{i}"

    for k, node in enumerate(chain):
        prim = prim_of(node)
        name = type(prim).__name__
        args = node.inputs[1:]
        dt = node.abstract.dtype.to_numpy()
        T = _C[dt]
        if name in _BINARY or name == "Pow":
            a, b = operand(args[0], dt), operand(args[1], dt)
            expr = f"pow({a}, {b})" if name == "Pow" else _BINARY[name].format(a=a, b=b)
        elif name == "Rsqrt" and dt == _F16:
            # the plain kernel's two steps, each stored in float16: sqrt, then 1 / it
            expr = f"((float)1 / {_rounded('sqrt(' + operand(args[0], dt) + ')', dt)})"
        elif name in _UNARY:
            expr = _UNARY[name].format(a=operand(args[0], dt), T=T)
        elif name == "ReluGrad":
            dy, y = operand(args[0], dt), operand(args[1], dt)
            expr = f"({y} > ({T})0 ? {dy} : ({T})0)"
        elif name == "BiasAdd":
            x = operand(args[0], dt)
            b = args[1]
            bias = operand(b, dt)
            if b in index:
                rank = len(node.abstract.shape)
                shape = (int(b.abstract.shape[0]),) if prim.data_format == "NHWC" else \
                    (1, int(b.abstract.shape[0])) + (1,) * (rank - 2)
                i = index[b]
                if reshapes[i] not in (None, shape) or not _broadcasts(shape, out_shape):
                    raise ValueError("a bias used with two layouts")
                reshapes[i] = shape
            expr = f"({x} + {bias})"
        elif name == "Cast":
            expr = f"(({T}){operand(args[0], node.inputs[1].abstract.dtype.to_numpy())})"
        else:
            raise ValueError(f"'{name}' is not fusable")
        v = f"v{k}"
        lines.append(f"{T} {v} = {_rounded(expr, dt)};")
        value_of[node] = v
    for i, x in enumerate(inputs):
        if reshapes[i] is None and types[i] is not None and \
                not _broadcasts(tuple(_tensor_ab(x).shape), out_shape):
            raise ValueError("an operand that does not broadcast to the chain's shape")
    last = numpy.dtype(chain[-1].abstract.dtype.to_numpy())
    lines.append(f"y = (float16)v{len(chain) - 1};" if last == _F16 else f"y = v{len(chain) - 1};")
    # parameters are declared with NumPy's names: CuPy reads a C name through numpy.dtype, and
    # numpy.dtype("float") is float64
    out_t = numpy.dtype(chain[-1].abstract.dtype.to_numpy()).name
    in_params = ", ".join(f"{numpy.dtype(t).name} x{i}" for i, t in enumerate(types))
    return in_params, f"{out_t} y", " ".join(lines), reshapes


def kernel_name(in_params, out_params, body):
    """A generated kernel's name, from its source alone: CuPy's on-disk cache of compiled kernels is keyed by the
    whole source, name included, so a name numbered in order of generation made the same chain compile again in every
    process that met its chains in another order (a benchmark's first step after the test suites)."""
    digest = hashlib.sha1("\x00".join((in_params, out_params, body)).encode()).hexdigest()
    return f"ms_fused_{digest[:16]}"


def _get_kernel(in_params, out_params, body):
    key = (in_params, out_params, body)
    k = _KERNELS.get(key)
    if k is None:
        k = _KERNELS[key] = cupy.ElementwiseKernel(in_params, out_params, body, kernel_name(*key))
    return k


def _fall_back(key, exc, names):
    STATS["fallbacks"] += 1
    reason = f"{type(exc).__name__}: {exc}"
    _BROKEN[key] = reason
    if reason not in _WARNED:
        _WARNED.add(reason)
        warnings.warn(f"The GPU backend's fused kernel of {'+'.join(names)} failed ({reason}); its operators run "
                      f"one by one from now on.", RuntimeWarning, stacklevel=2)


def _plain_steps(chain, inputs):
    """The chain as calls of the plain kernels of this backend's table (the fallback of a fused kernel)."""
    table = _TABLE
    steps = []
    for node in chain:
        prim = prim_of(node)
        refs = []
        for x in node.inputs[1:]:
            if x in inputs:
                refs.append(("in", inputs.index(x)))
            elif isinstance(x, Constant):
                v = x.value
                refs.append(("const", v._buffer() if isinstance(v, Tensor) else v))
            else:
                refs.append(("step", chain.index(x)))
        steps.append((table[type(prim).__name__], prim, refs, node.abstract))
    return steps


def _run_plain(steps, inputs):
    values = []
    for kernel, prim, refs, spec in steps:
        args = [inputs[r] if kind == "in" else r if kind == "const" else values[r] for kind, r in refs]
        values.append(kernel(prim, *args, out=spec))
    return values[-1]


def _make_kernel(source, steps, names):
    in_params, out_params, body, reshapes = source
    key = (in_params, out_params, body)
    shaped = [(i, s) for i, s in enumerate(reshapes) if s is not None]

    def kernel(prim, *inputs, out=None):
        if key not in _BROKEN:
            try:
                ins = list(inputs)
                for i, shape in shaped:
                    ins[i] = ins[i].reshape(shape)
                y = cupy.empty(tuple(out.shape), out.dtype.to_numpy())
                _get_kernel(in_params, out_params, body)(*ins, y)
                return y
            except Exception as exc:  # noqa: BLE001 - any failure of a generated kernel: its plain kernels
                _fall_back(key, exc, names)
        return _run_plain(steps, inputs)
    kernel.__name__ = kernel.__qualname__ = "gpu_fused_elementwise"
    return kernel


def _build(chain, inputs):
    try:
        source = kernel_source(chain, inputs)
        steps = _plain_steps(chain, inputs)
    except (ValueError, KeyError):
        return None
    names = [type(prim_of(n)).__name__ for n in chain]
    prim = FusedOp("FusedElementwise", _make_kernel(source, steps, names), names)
    prim.source = source[2]
    STATS["chains"] += 1
    return prim


def fuse_elementwise(graph):
    """Fuse the graph's elementwise chains into generated ``cupy.ElementwiseKernel`` applies."""
    if not _enabled() or getattr(cupy, "ElementwiseKernel", None) is None:
        return False
    changed = False
    for g in graphs_of(graph):
        changed |= fuse_chains(g, _plan, _build)
    return changed


# --- BatchNorm then ReLU, and their gradients ----------------------------------------------------------------------
def _with_prim(fn, prim):
    """The fused apply's kernel: ``fn(prim, *inputs, out=out)``, ``prim`` the primitive the group was made from."""
    def run(fused, *inputs, out=None):
        return fn(prim, *inputs, out=out)
    run.__name__ = run.__qualname__ = f"gpu_{fn.__name__}"
    return run


def _batch_norm_relu_kernel(bn_prim):
    return _with_prim(_NN.batch_norm_relu, bn_prim)


def _fuse_pairs(graph, match):
    """Each graph's applies rewritten by ``match(g, node, uses)``: None, or ``(old, new, dropped, read)``: ``new``
    stands where ``old`` stood, ``dropped`` (an apply ``new`` computes too) goes, and its readers read ``read``."""
    if not _enabled():
        return False
    changed = False
    for g in graphs_of(graph):
        uses = use_counts(g)
        replace, dropped = {}, set()
        for node in g.nodes:
            found = match(g, node, uses)
            if found is None or found[0] in replace or found[2] in replace:
                continue
            old, new, gone, read = found
            replace[old] = new
            if read is not None:
                replace[gone] = read
            dropped.add(gone)
        if replace:
            g.nodes = [replace.get(n, n) for n in g.nodes if n not in dropped]
            substitute(g, replace)
            changed = True
    return changed


def _batch_norm_then_relu(g, node, uses):
    if type(prim_of(node)).__name__ != "ReLU" or len(node.inputs) != 2:
        return None
    item = node.inputs[1]
    if not (isinstance(item, Apply) and item.fn_value() is TUPLE_GETITEM and item.graph is g and uses.get(item) == 1
            and isinstance(item.inputs[2], Constant) and item.inputs[2].value == 0):
        return None
    bn = item.inputs[1]
    bn_prim = prim_of(bn)
    if type(bn_prim).__name__ != "BatchNorm" or bn.graph is not g or node.abstract != item.abstract or \
            not isinstance(bn.abstract, AbstractTuple):
        return None
    fused = FusedOp("FusedBatchNormReLU", _batch_norm_relu_kernel(bn_prim), ["BatchNorm", "ReLU"])
    fused.side_effect = getattr(bn_prim, "side_effect", False)   # training writes the moving statistics
    new = Apply(g, [Constant(fused)] + list(bn.inputs[1:]), bn.loc)
    new.abstract = bn.abstract
    new.debug = "fused BatchNorm+ReLU"
    return bn, new, node, item          # the ReLU's readers read the (clamped) output 0


def fuse_batchnorm_relu(graph):
    """``ReLU(tuple_getitem(BatchNorm(...), 0))``, the ReLU the only reader of BatchNorm's output 0: one apply of
    ``batch_norm_relu``, whose output 0 is the ReLU's (computed in BatchNorm's normalising launch); the ReLU's readers
    (its gradient's ReluGrad too) read that output. 7 of a ResNet step's 13 ReLUs (the others follow a residual
    add, in a fused chain)."""
    return _fuse_pairs(graph, _batch_norm_then_relu)


def _relu_grad_batch_norm_grad_kernel(grad_prim):
    return _with_prim(_NN.relu_grad_batch_norm_grad, grad_prim)


def _relu_grad_then_batch_norm_grad(g, node, uses):
    grad_prim = prim_of(node)
    if type(grad_prim).__name__ != "BatchNormGrad" or len(node.inputs) != 7:
        return None
    relu_grad = node.inputs[1]
    if not (isinstance(relu_grad, Apply) and relu_grad.graph is g and uses.get(relu_grad) == 1
            and type(prim_of(relu_grad)).__name__ == "ReluGrad" and len(relu_grad.inputs) == 3
            and relu_grad.abstract == _tensor_ab(relu_grad.inputs[1])
            and relu_grad.abstract == _tensor_ab(relu_grad.inputs[2])):
        return None
    fused = FusedOp("FusedReluGradBatchNormGrad", _relu_grad_batch_norm_grad_kernel(grad_prim),
                    ["ReluGrad", "BatchNormGrad"])
    new = Apply(g, [Constant(fused), relu_grad.inputs[1], relu_grad.inputs[2]] + list(node.inputs[2:]), node.loc)
    new.abstract = node.abstract
    new.debug = "fused ReluGrad+BatchNormGrad"
    return node, new, relu_grad, None


def fuse_relu_grad_batchnorm_grad(graph):
    """``BatchNormGrad(ReluGrad(dy, y), x, ...)``, the ReluGrad read by that BatchNormGrad alone: one apply of
    ``relu_grad_batch_norm_grad``, which reads the ReluGrad's select in batch norm's gradient launches (a backward
    pass's ReLU after a batch norm: 7 of a ResNet step's 13 ReluGrads)."""
    return _fuse_pairs(graph, _relu_grad_then_batch_norm_grad)


# --- amp's casts as CastMany -------------------------------------------------------------------------------------
#: The casts ``CastMany``'s GPU kernel puts 16 to a launch (``kernels/array.py``): float32 to and from 16-bit floats.
_CAST_MANY_PAIRS = {(mstype.float32, mstype.float16), (mstype.float32, mstype.bfloat16),
                    (mstype.float16, mstype.float32), (mstype.bfloat16, mstype.float32)}


def _group_apply(g, prim, inputs, members, loc, debug, replace):
    """``[new, item 0, item 1, ...]``: the apply of ``prim`` (a fused group) on ``inputs``, whose value is the tuple of
    its ``members``' values, and an item of it per member, which ``replace`` maps the member to."""
    new = Apply(g, [Constant(prim)] + list(inputs), loc)
    new.abstract = AbstractTuple(tuple(m.abstract for m in members))
    new.debug = debug
    items = [new]
    for k, m in enumerate(members):
        item = Apply(g, [Constant(TUPLE_GETITEM), new, Constant(k)], m.loc)
        item.abstract = m.abstract
        items.append(item)
        replace[m] = item
    return items


def _cast_many_kernel(specs):
    cast_many = _P.CastMany()
    kernel = _TABLE["CastMany"]
    dtypes = tuple(spec.dtype for spec in specs)

    def run(prim, *inputs, out=None):
        return kernel(cast_many, inputs, dtypes, out=specs)
    run.__name__ = run.__qualname__ = "gpu_cast_many"
    return run


#: The most casts in one group: a launch's worth (``CastMany``'s kernel casts 16 per launch). A group moved after
#: the last of its inputs keeps the values it casts alive until then: at most 16 gradients at a time.
_GROUP_CASTS = 16


def _casts_in(g, elsewhere):
    """``g``'s ``Cast`` applies that ``CastMany`` takes as a group: a float32 <-> float16/bfloat16 cast of a tensor
    whose value is read in ``g`` alone (``elsewhere``: the values a nested graph reads)."""
    found = []
    for node in g.nodes:
        if type(prim_of(node)).__name__ != "Cast" or node in elsewhere or len(node.inputs) != 3:
            continue
        src, out = _tensor_ab(node.inputs[1]), node.abstract
        if src is not None and isinstance(out, TensorSpec) and (src.dtype, out.dtype) in _CAST_MANY_PAIRS and \
                not isinstance(node.inputs[1], Constant):
            found.append(node)
    # (a cast of a cast stays as it is: its input may move)
    taken = set(found)
    return [c for c in found if c.inputs[1] not in taken]


def _group_casts(g, elsewhere):
    """Group ``g``'s casts (:func:`_casts_in`) in program order into ``CastMany`` applies of at most
    :data:`_GROUP_CASTS`: a group's apply stands after the last of its inputs is made and before the first of its
    casts' values is read, and moves no cast of a network Parameter past a write into it (an effectful apply that
    takes it, or any call of a graph)."""
    casts = _casts_in(g, elsewhere)
    if len(casts) < 2:
        return False
    nodes = g.nodes
    pos = {n: i for i, n in enumerate(nodes)}
    first_use = {}
    for i, n in enumerate(nodes):
        for x in n.inputs[1:]:
            first_use.setdefault(x, i)
    end = len(nodes)
    if g.output in pos:
        first_use.setdefault(g.output, end)
    writes = {}        # a Parameter -> positions of applies that may write it (None: any Parameter)
    for i, n in enumerate(nodes):
        if is_effectful_apply(n):
            f = n.inputs[0].value if isinstance(n.inputs[0], Constant) else None
            targets = [x for x in n.inputs[1:] if isinstance(x, Parameter)] if isinstance(f, Primitive) else [None]
            for t in targets:
                writes.setdefault(t, []).append(i)

    def made(c):
        x = c.inputs[1]
        return pos.get(x, -1)           # a graph input (or a value from outside): there from the start

    def moves_past_a_write(c, at):
        x = c.inputs[1]
        if not isinstance(x, Parameter):
            return False
        lo, hi = sorted((at, pos[c]))
        return any(lo < w < hi for w in writes.get(x, []) + writes.get(None, []))

    # a group's apply stands where its first cast stood, or later: after the last of its inputs is made
    groups, group, at, first_read = [], [], -1, end + 1
    for c in casts:
        if c not in first_use:          # (unused: the dead-code pass removes it)
            continue
        m, r = max(at, made(c)), min(first_read, first_use[c])
        full = len(group) == _GROUP_CASTS
        if group and (full or m >= r or any(moves_past_a_write(x, m + 0.5) for x in group + [c])):
            groups.append((group, at))
            group, m, r = [], max(made(c), pos[c] - 1), first_use[c]
        elif not group:
            m = max(made(c), pos[c] - 1)
        group.append(c)
        at, first_read = m, r
    groups.append((group, at))
    replace, after = {}, {}
    for group, at in groups:
        if len(group) < 2:
            continue
        prim = FusedOp("CastMany", _cast_many_kernel(tuple(c.abstract for c in group)), ["Cast"] * len(group))
        after.setdefault(at, []).extend(_group_apply(g, prim, [c.inputs[1] for c in group], group, group[0].loc,
                                                     f"{len(group)} Casts as one CastMany", replace))
        STATS["casts_grouped"] += len(group)
    if not replace:
        return False
    ordered = list(after.get(-1, []))
    for i, n in enumerate(nodes):
        if n not in replace:
            ordered.append(n)
        ordered.extend(after.get(i, []))
    g.nodes = ordered
    substitute(g, replace)
    return True


def group_casts(graph):
    """amp's casts of a graph, as ``CastMany`` applies: the float32 -> float16/bfloat16 casts of the parameters its
    low-precision cells read (a ResNet's 17, and the network's input) and the casts of their gradients back to
    float32, where each was a launch of its own (``CastMany``'s GPU kernel casts 16 to a launch)."""
    if not _enabled():
        return False
    reads = {}          # value -> the graphs whose applies read it
    roots = list(graphs_of(graph))
    for g in roots:
        for n in g.nodes:
            for x in n.inputs[1:]:
                reads.setdefault(x, set()).add(g)
        reads.setdefault(g.output, set()).add(g)
    changed = False
    for g in roots:
        elsewhere = {x for x, gs in reads.items() if isinstance(x, Apply) and x.graph is g and gs - {g}}
        changed |= _group_casts(g, elsewhere)
    return changed


# --- an optimizer's updates as multi-tensor launches --------------------------------------------------------------
#: The updates grouped: primitive -> (its inputs' count, the arrays it writes, its gradient's input, its scalars'
#: inputs, the attributes a group shares).
_UPDATES = {
    "ApplyMomentum": (5, (0, 1), 3, (2, 4), ("use_nesterov", "gradient_scale")),
    "Adam": (10, (0, 1, 2), 9, (3, 4, 5, 6, 7, 8), ("use_nesterov",)),
    "AdamWeightDecay": (9, (0, 1, 2), 8, (3, 4, 5, 6, 7), ()),
}


def _same_scalar(x):
    """What identifies a scalar input across a group: the node, or a constant's value (each apply may hold its own
    Constant of one Tensor)."""
    if isinstance(x, Constant):
        v = x.value
        return ("constant", id(v)) if isinstance(v, Tensor) else ("constant", type(v).__name__, v)
    return x


def _update_key(node):
    """What a run of an optimizer's update applies must share to be one group (:data:`_UPDATES`): the primitive, its
    attributes, its scalar inputs (device tensors for ``ApplyMomentum``) and a float32/float64 dtype of its arrays,
    each written array a network Parameter; else None."""
    prim = prim_of(node)
    name = type(prim).__name__
    spec = _UPDATES.get(name)
    if spec is None or len(node.inputs) != spec[0] + 1:
        return None
    count, written, grad_at, scalar_at, attrs = spec
    args = node.inputs[1:]
    arrays = [args[i] for i in written] + [args[grad_at]]
    specs = [_tensor_ab(x) for x in arrays]
    if any(s is None for s in specs) or not all(isinstance(args[i], Parameter) for i in written) or \
            len({id(args[i]) for i in written}) != len(written):
        return None
    dt = specs[0].dtype
    if dt not in (mstype.float32, mstype.float64) or any(s.dtype != dt for s in specs):
        return None
    scalars = [args[i] for i in scalar_at]
    if name == "ApplyMomentum" and any(isinstance(x, Constant) or _tensor_ab(x) is None for x in scalars):
        return None
    return (name, tuple(getattr(prim, a) for a in attrs), tuple(_same_scalar(x) for x in scalars), dt)


def _updates_kernel(prim, count, n):
    name = type(prim).__name__
    if name == "ApplyMomentum":
        many = _NN.apply_momentum_many

        def run(fused, *inputs, out=None):
            members = [inputs[k * count:(k + 1) * count] for k in range(n)]
            return many(prim, [m[0] for m in members], [m[1] for m in members], members[0][2],
                        [m[3] for m in members], members[0][4])
    else:
        many = _OPTIM.update_many

        def run(fused, *inputs, out=None):
            return many(prim, [inputs[k * count:(k + 1) * count] for k in range(n)])
    run.__name__ = run.__qualname__ = f"gpu_{name}_many"
    return run


def group_updates(graph):
    """Each run of consecutive ``ApplyMomentum``, ``Adam`` or ``AdamWeightDecay`` applies of a graph (an optimizer's
    update of its parameters, in program order) sharing attributes and scalars (:func:`_update_key`), no two writing
    one Parameter, becomes one apply of a multi-tensor kernel (``kernels/nn.py`` ``apply_momentum_many``,
    ``kernels/optim.py`` ``update_many``): 16 parameters to a launch where each was one (a ResNet's 47: 3 launches).
    It stands where the run's last member stood, so no other apply comes between the writes, and each member's value
    is read from it."""
    if not _enabled():
        return False
    changed = False
    for g in graphs_of(graph):
        runs, run, key = [], [], None
        for node in list(g.nodes) + [None]:
            k = _update_key(node) if node is not None else None
            if k is not None and k == key:
                positions = _UPDATES[k[0]][1]
                written = {id(m.inputs[1 + i]) for m in run for i in positions}
                if not {id(node.inputs[1 + i]) for i in positions} & written:
                    run.append(node)
                    continue
            if len(run) > 1:
                runs.append(run)
            run, key = ([node], k) if k is not None else ([], None)
        if not runs:
            continue
        replace, at = {}, {}
        for run in runs:
            n, prim = len(run), prim_of(run[0])
            name = type(prim).__name__
            count = _UPDATES[name][0]
            fused = FusedOp(f"{name}Many", _updates_kernel(prim, count, n), [name] * n)
            fused.side_effect = True          # writes every member's Parameters, in place
            at[run[-1]] = _group_apply(g, fused, [x for m in run for x in m.inputs[1:]], run, run[-1].loc,
                                       f"{n} {name} as one", replace)
            STATS["updates_grouped"] += n
        g.nodes = [x for n in g.nodes for x in (at.get(n) or ([n] if n not in replace else []))]
        substitute(g, replace)
        changed = True
    return changed


def register(registry, target="GPU"):
    registry.register("gpu_fuse_batchnorm_relu", fuse_batchnorm_relu, target=target, priority=6)
    registry.register("gpu_fuse_relu_grad_batchnorm_grad", fuse_relu_grad_batchnorm_grad, target=target, priority=7)
    registry.register("gpu_fuse_elementwise", fuse_elementwise, target=target, priority=10)
    registry.register("gpu_group_casts", group_casts, target=target, priority=12)
    registry.register("gpu_group_updates", group_updates, target=target, priority=14)
