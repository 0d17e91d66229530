"""The CPU backend's GRAPH_MODE passes (registered through ``ms_register_passes``).

* ``cpu_raise_float16`` (first; in ``float16_pass.py``): float16 applies of operators that MindSpore 2.10 has no
  float16 CPU kernel for (MatMul, BatchMatMul, BiasAdd, Conv2D, Exp, Tanh, ReduceSum, ...) compute in float32, and
  their results stay float32 until an operator with a float16 kernel or the graph's output reads them, as 2.10's
  CPU kernel selection and cast insertion do.
* ``cpu_fuse_elementwise``: chains of elementwise applies (arithmetic, comparisons, casts, ReLU and its
  gradient, GELU, tanh/exp/square, and ``BiasAdd`` followed by any of these, e.g. bias-add + activation) become one
  apply whose kernel runs NumPy ufuncs with ``out=`` into one buffer: one allocation per chain
  instead of one per op, and none at all when the memory plan lets the chain write into an input
  that dies there (a MatMul or convolution output feeding bias-add + ReLU is updated in place).
* ``cpu_fuse_conv_epilogue``: ``Conv2D`` followed by a ``BiasAdd``, an ``Add`` of a same-shaped tensor (a
  residual) and a ``ReLU`` (each optional, each the only reader of the one before) becomes one apply whose
  C++ convolution adds the bias and the residual and clamps each output as it writes it: no separate passes
  over the activation (a LeNet or VGG block's conv + bias + ReLU; a ResNet block's last convolution, whose
  BatchNorm an inference graph folded into its weights, + shortcut + ReLU).
* ``cpu_fuse_dense_epilogue``: ``MatMul`` of two 2-D operands followed by a ``BiasAdd`` and optionally a ``ReLU``
  (each the only reader of the one before: ``nn.Dense`` with or without ``activation='relu'``) becomes one apply
  whose C++ kernel adds the bias and clamps each block of the product as the thread that computed it finishes
  it: one kernel instead of two, no second pass over the output. (A float16 ``nn.Dense`` reaches it in float32:
  ``cpu_raise_float16``, which runs first, computes float16 MatMul and BiasAdd in float32 as MindSpore 2.10 does.)
* ``cpu_fuse_batchnorm_relu``: a ``ReLU`` that is the only reader of a ``BatchNorm``'s output ``y`` is
  applied by the BatchNorm kernel as it writes ``y`` (ResNet's conv -> BN -> ReLU).
* ``cpu_inplace_update``: ``Assign(p, chain(p, ...))`` on a network Parameter (a moment update of an
  optimizer) computes the chain directly in ``p``'s buffer, with no temporary and no copy.

Fused kernels compute exactly what the separate kernels compute: they are used only where every
tensor has one float32/float64 dtype (the separate kernels' own fast path, with no promotion), so
the same ufuncs see the same operands.
"""
from __future__ import annotations

import numpy as np

from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.plugin import (TUPLE_GETITEM, Apply, Constant, FusedOp, Parameter, TensorSpec, fuse_chains, graphs_of,
                              is_effectful_apply, prim_of, substitute, use_counts, weights_frozen)

from mindspore_cpu.kernels import math as _math_kernels

__all__ = ["fuse_batchnorm_relu", "fuse_conv_epilogue", "fuse_dense_epilogue", "fuse_elementwise", "inplace_update",
           "register"]

_FLOATS = (mstype.float32, mstype.float64)
_BINARY = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "RealDiv": np.true_divide,
           "Div": np.true_divide, "Maximum": np.maximum, "Minimum": np.minimum}
_COMPARE = {"Greater": np.greater, "GreaterEqual": np.greater_equal, "Less": np.less, "LessEqual": np.less_equal}
def _kernel_step(name):
    """The ``name`` kernel's numbers (kernels/math.py: 2.10's float32 Tanh Pade approximant and nnacl Exp) as a fused
    chain's step."""
    def step(x, out=None):
        y = _math_kernels.KERNELS[name](None, np.asarray(x))
        if out is None:
            return y
        out[...] = y
        return out
    return step


_UNARY = {"Neg": np.negative, "Square": np.square, "Exp": _kernel_step("Exp"), "Tanh": _kernel_step("Tanh")}
_ACC = object()


def _tensor_ab(x):
    ab = x.abstract
    return ab if isinstance(ab, TensorSpec) else None


def _frozen_array(x):
    """The value of a constant tensor input (in a graph whose weights are frozen: a frozen weight) as a host array,
    or None."""
    if isinstance(x, Constant) and isinstance(x.value, Tensor):
        return x.value.asnumpy()
    return None


def _scalar_const(x):
    if isinstance(x, Constant):
        v = x.value
        if isinstance(v, (bool, int, float)) and not isinstance(v, bool):
            return True
        if isinstance(v, Tensor) and v.shape == () and v.dtype in _FLOATS:
            return True
    return False


def _plan(node):
    """Input positions through which ``node`` may continue an elementwise chain, or None."""
    prim = prim_of(node)
    if prim is None or isinstance(prim, FusedOp):
        return None
    name = type(prim).__name__
    out = node.abstract
    if not isinstance(out, TensorSpec):
        return None
    args = node.inputs[1:]
    if name in _BINARY or name in _COMPARE:
        dtype = None
        for a in args:
            ab = _tensor_ab(a)
            if ab is not None and not isinstance(a, Constant):
                if ab.dtype not in _FLOATS or (dtype is not None and ab.dtype != dtype):
                    return None
                dtype = ab.dtype
            elif not _scalar_const(a) and not (isinstance(a, Constant) and _tensor_ab(a) and
                                               _tensor_ab(a).dtype in _FLOATS and a.value.shape == out.shape):
                return None
        if dtype is None:
            return None
        if any(isinstance(a, Constant) and isinstance(a.value, Tensor) and a.value.dtype != dtype for a in args):
            return None
        return (0, 1)
    if name == "ReluGrad":
        dy, y = _tensor_ab(args[0]), _tensor_ab(args[1])
        ok = (dy is not None and y is not None and dy.dtype in _FLOATS and y.dtype == dy.dtype
              and not any(isinstance(a, Constant) for a in args))
        return (0,) if ok else None
    if name in _UNARY or name in ("ReLU", "GeLU"):
        ab = _tensor_ab(args[0])
        return (0,) if ab is not None and ab.dtype in _FLOATS and out.dtype == ab.dtype else None
    if name == "BiasAdd":
        x, b = _tensor_ab(args[0]), _tensor_ab(args[1])
        if x is None or b is None or x.dtype not in _FLOATS or b.dtype != x.dtype:
            return None
        return (0,)
    if name == "Cast":
        src = _tensor_ab(args[0])
        if src is not None and out.dtype in _FLOATS and (src.dtype in _FLOATS or src.dtype == mstype.bool_):
            return (0,)
    return None


def _operand(x, chain_prev, inputs, dtype):
    if x is chain_prev:
        return _ACC
    if isinstance(x, Constant):
        v = x.value
        return np.asarray(v._buffer() if isinstance(v, Tensor) else v, dtype=dtype)
    return inputs.index(x)


def _steps(chain, inputs):
    steps = []
    prev = None
    for node in chain:
        prim = prim_of(node)
        name = type(prim).__name__
        args = node.inputs[1:]
        out_dtype = node.abstract.dtype.to_numpy()
        if name in _BINARY or name in _COMPARE:
            in_dtype = next(_tensor_ab(a).dtype for a in args if not isinstance(a, Constant)
                            and _tensor_ab(a) is not None).to_numpy()
            f = _BINARY.get(name) or _COMPARE[name]
            steps.append(("ufunc", f, [_operand(a, prev, inputs, in_dtype) for a in args], out_dtype))
        elif name in _UNARY:
            steps.append(("ufunc", _UNARY[name], [_operand(args[0], prev, inputs, out_dtype)], out_dtype))
        elif name == "ReLU":
            steps.append(("ufunc", np.fmax, [_operand(args[0], prev, inputs, out_dtype),   # ReLU(NaN) = 0
                                             np.zeros((), out_dtype)], out_dtype))
        elif name == "GeLU":
            steps.append(("gelu", None, [_operand(args[0], prev, inputs, out_dtype)], out_dtype))
        elif name == "ReluGrad":
            steps.append(("relu_grad", None, [_operand(a, prev, inputs, out_dtype) for a in args], out_dtype))
        elif name == "BiasAdd":
            rank = len(node.abstract.shape)
            shape = None if prim.data_format == "NHWC" or rank < 2 else (1, -1) + (1,) * (rank - 2)
            steps.append(("bias", shape, [_operand(args[0], prev, inputs, out_dtype),
                                          _operand(args[1], prev, inputs, out_dtype)], out_dtype))
        elif name == "Cast":
            steps.append(("cast", None, [_operand(args[0], prev, inputs, out_dtype)], out_dtype))
        prev = node
    return steps


def _native():
    from mindspore_cpu.kernels._native import _kernels
    return _kernels


def _make_kernel(steps):
    gelu, relu_grad = _native().gelu, _native().relu_grad
    # a bias-add along the last axis followed by GELU is one C++ pass (the Dense + GELU of a transformer)
    pairs = {i for i in range(len(steps) - 1) if steps[i][0] == "bias" and steps[i + 1][0] == "gelu"
             and steps[i][1] in (None, (1, -1))}

    def kernel(prim, *inputs, out=None):
        acc = None
        owned = False
        into = prim.into
        skip = False
        for i, (kind, f, specs, dtype) in enumerate(steps):
            if skip:
                skip = False
                continue
            ops = [acc if s is _ACC else inputs[s] if type(s) is int else s for s in specs]
            res = None
            if into is not None:
                res = inputs[into]
            elif owned and acc.dtype == dtype and acc.ndim:
                res = acc
            elif i == 0 and prim.reuse is not None and inputs[prim.reuse].dtype == dtype:
                res = inputs[prim.reuse]
            if i in pairs and ops[0].ndim >= 1 and ops[0].flags.c_contiguous:
                acc = gelu(ops[0], ops[1], res)
                skip = True
            elif kind == "gelu":
                acc = gelu(np.asarray(ops[0], order="C"), None, res if res is not None and ops[0].flags.c_contiguous
                           else None)
            elif kind == "relu_grad":
                dy, y = np.asarray(ops[0], order="C"), np.asarray(ops[1], order="C")
                acc = relu_grad(dy, y, res if res is not None and res.flags.c_contiguous else None)
            elif kind == "ufunc":
                acc = f(*ops, out=res) if res is not None else f(*ops)
            elif kind == "bias":
                bias = ops[1] if f is None else ops[1].reshape(f)
                acc = np.add(ops[0], bias, out=res) if res is not None else np.add(ops[0], bias)
            else:
                acc = ops[0].astype(dtype)
            if type(acc) is not np.ndarray:   # ufuncs on 0-d arrays give NumPy scalars
                acc = np.asarray(acc)
            owned = True
        return acc
    return kernel


def _step_users(steps):
    """input index -> the steps that read it."""
    users = {}
    for k, step in enumerate(steps):
        for s in step[2]:
            if type(s) is int:
                users.setdefault(s, set()).add(k)
    return users


def _build(chain, inputs):
    steps = _steps(chain, inputs)
    out = chain[-1].abstract
    users = _step_users(steps)
    # an input may be overwritten only if no later step reads it
    reusable = [i for i, x in enumerate(inputs) if isinstance(x, Apply) and x.abstract == out and users.get(i) == {0}]
    names = [type(prim_of(n)).__name__ for n in chain]
    prim = FusedOp("FusedElementwise", _make_kernel(steps), names, reusable)
    prim.into = None
    prim.all_outputs_like_final = all(s[3] == out.dtype.to_numpy() for s in steps)
    prim.step_users = users
    return prim


def fuse_elementwise(graph):
    changed = False
    for g in graphs_of(graph):
        changed |= fuse_chains(g, _plan, _build)
    return changed


def _reads_between(graph, param, start, end):
    inside = False
    for node in graph.nodes:
        if node is start:
            inside = True
            continue
        if node is end:
            return False
        if inside and param in node.inputs[1:]:
            return True
    return False


def inplace_update(graph):
    """``Assign(p, fused(...))`` on a Parameter ``p``: the fused kernel writes into ``p`` directly."""
    changed = False
    for g in graphs_of(graph):
        subst, drop = {}, set()
        position = {n: i for i, n in enumerate(g.nodes)}
        for node in g.nodes:
            prim = prim_of(node)
            if prim is None or type(prim).__name__ != "Assign":
                continue
            p, value = node.inputs[1], node.inputs[2]
            vprim = prim_of(value)
            if not (isinstance(p, Parameter) and p.weight is not None and isinstance(vprim, FusedOp)
                    and getattr(vprim, "all_outputs_like_final", False) and value.abstract == p.abstract
                    and vprim.into is None and value.graph is g and position[value] < position[node]):
                continue
            if _reads_between(g, p, value, node) or _writes_to(g, p) != 1:
                continue
            if p in value.inputs[1:] and vprim.step_users.get(value.inputs[1:].index(p), set()) - {0}:
                continue    # a later step reads p: writing p from the first step on would clobber it
            if p not in value.inputs[1:]:
                value.inputs.append(p)
            vprim.add_prim_attr("into", value.inputs[1:].index(p))
            vprim.side_effect = True      # it now writes the Parameter: keep it, in order
            subst[node] = value
            drop.add(node)
            changed = True
        if drop:
            g.nodes = [n for n in g.nodes if n not in drop]
            substitute(g, subst)
    return changed


def _writes_to(graph, param):
    """How many applies of ``graph`` write ``param`` in place. Computing a value straight into ``param``
    makes the two one buffer from then on: readers of the value (before or after the Assign; Adam reads
    its new moments for the update) see the same numbers only if nothing else writes ``param`` later."""
    return sum(1 for n in graph.nodes if is_effectful_apply(n) and param in n.inputs[1:])


def _conv_kernel(conv, with_bias, with_residual, relu, frozen=None):
    """The fused convolution's kernel; with ``frozen`` (the weight, a constant: mindspore.Predictor's graphs), by
    Winograd where it applies and pays (kernels/conv.py), the filter transformed once, here."""
    from mindspore_cpu.kernels.conv import forward_with_epilogue, winograd_filter, winograd_forward

    filt = winograd_filter(conv, frozen) if frozen is not None else None
    out_channels = None if filt is None else int(np.shape(frozen)[0])

    def kernel(prim, x, w, *rest, out=None):
        bias = rest[0] if with_bias else None
        residual = rest[-1] if with_residual else None
        if filt is not None:
            y = winograd_forward(conv, x, filt, out_channels, bias, relu, residual)
            if y is not None:
                return y
        return forward_with_epilogue(conv, x, w, bias, relu, residual)
    return kernel


def _single_user(node, uses):
    return isinstance(node, Apply) and uses.get(node, 0) == 1


def _users(graph):
    users = {}
    for node in graph.nodes:
        for x in node.inputs[1:]:
            users.setdefault(x, []).append(node)
    return users


def _fuse_chain(g, replace, head, chain, fused, inputs):
    """Plan ``head`` and ``chain`` (each the only reader of the one before) as one apply of ``fused`` on
    ``inputs``: in ``replace`` (old apply -> its fused apply, None for the applies that go away)."""
    new = Apply(g, [Constant(fused)] + list(inputs), chain[-1].loc)
    new.abstract = chain[-1].abstract
    new.debug = "fused " + "+".join(fused.attrs["ops"])
    replace[head] = None
    for n in chain[:-1]:
        replace[n] = None
    replace[chain[-1]] = new


def _apply_replacements(g, replace):
    """Carry out the plan of :func:`_fuse_chain` in ``g``; whether there was anything to do."""
    if not replace:
        return False
    g.nodes = [replace.get(n, n) for n in g.nodes if replace.get(n, n) is not None]
    substitute(g, {old: new for old, new in replace.items() if new is not None})
    return True


def _conv_epilogue(head, g, uses, users, claimed):
    """The applies after ``head`` (a Conv2D) that its kernel can apply as it writes: a BiasAdd, an Add of a
    tensor of the output's shape and dtype (a residual), a ReLU, each in this order, each the only reader of
    the one before and in no other fused chain (``claimed``: old apply -> its fused apply, None for a chain's
    inner applies, which go away); with the residual (or None)."""
    out = head.abstract
    chain, residual, node = [], None, head
    for kind in ("BiasAdd", "Add", "ReLU"):
        if not _single_user(node, uses) or node is g.output:
            break
        (nxt,) = users[node]
        prim = prim_of(nxt)
        if nxt in claimed:
            break
        if type(prim).__name__ != kind or nxt.graph is not g or nxt.abstract != out:
            continue
        args = nxt.inputs[1:]
        if kind == "BiasAdd":
            b = _tensor_ab(args[1])
            if args[0] is not node or b is None or b.dtype != out.dtype or len(b.shape) != 1 or \
                    prim.data_format != "NCHW":
                continue
        elif kind == "Add":
            other = args[1] if args[0] is node else args[0]
            if node not in args or other is node or (other in claimed and claimed[other] is None) or \
                    _tensor_ab(other) != out:
                continue
            residual = other
        chain.append(nxt)
        node = nxt
    return chain, residual


def fuse_conv_epilogue(graph):
    """``ReLU(Add(BiasAdd(Conv2D(x, w), b), z))`` (any of the three after the convolution may be missing)
    -> one convolution apply (by Winograd where the weight is frozen, see _conv_kernel)."""
    changed = False
    frozen_graph = weights_frozen(graph)
    for g in graphs_of(graph):
        uses, users = use_counts(g), _users(g)
        replace = {}
        for head in g.nodes:
            conv = prim_of(head)
            if type(conv).__name__ != "Conv2D" or head in replace:
                continue
            out, x, w = head.abstract, _tensor_ab(head.inputs[1]), _tensor_ab(head.inputs[2])
            if not isinstance(out, TensorSpec) or out.dtype not in _FLOATS or x is None or w is None or \
                    x.dtype != out.dtype or w.dtype != out.dtype or getattr(conv, "data_format", "NCHW") != "NCHW":
                continue
            chain, residual = _conv_epilogue(head, g, uses, users, replace)
            if not chain:
                continue
            kinds = [type(prim_of(n)).__name__ for n in chain]
            bias_node = chain[0] if kinds[0] == "BiasAdd" else None
            relu = kinds[-1] == "ReLU"
            ops = ["Conv2D"] + kinds
            frozen = _frozen_array(head.inputs[2]) if frozen_graph else None
            fused = FusedOp("FusedConv2D", _conv_kernel(conv, bias_node is not None, residual is not None, relu,
                                                        frozen), ops)
            inputs = [head.inputs[1], head.inputs[2]] + ([bias_node.inputs[2]] if bias_node is not None else []) + \
                ([residual] if residual is not None else [])
            _fuse_chain(g, replace, head, chain, fused, inputs)
        changed |= _apply_replacements(g, replace)
    return changed


def _dense_kernel(transpose_b, relu):
    from mindspore_cpu.kernels.math import dense_with_epilogue

    def kernel(prim, x, w, bias, out=None):
        return dense_with_epilogue(x, w, bias, transpose_b, relu)
    return kernel


def _dense_head(node):
    """Whether ``node`` is a MatMul the Dense kernel runs: 2-D operands of the output's float dtype, A not
    transposed."""
    prim = prim_of(node)
    if type(prim).__name__ != "MatMul" or prim.transpose_a:
        return False
    out, x, w = node.abstract, _tensor_ab(node.inputs[1]), _tensor_ab(node.inputs[2])
    return isinstance(out, TensorSpec) and out.dtype in _FLOATS and x is not None and w is not None and \
        x.dtype == out.dtype and w.dtype == out.dtype and len(x.shape) == 2 and len(w.shape) == 2


def fuse_dense_epilogue(graph):
    """``ReLU(BiasAdd(MatMul(x, w), b))`` (the ReLU optional) -> one Dense apply."""
    changed = False
    for g in graphs_of(graph):
        uses, users = use_counts(g), _users(g)
        replace = {}
        for head in g.nodes:
            if head in replace or not _dense_head(head) or not _single_user(head, uses) or head is g.output:
                continue
            (bias_add,) = users[head]
            b = _tensor_ab(bias_add.inputs[2]) if len(bias_add.inputs) == 3 else None
            if type(prim_of(bias_add)).__name__ != "BiasAdd" or bias_add in replace or bias_add.graph is not g or \
                    bias_add.inputs[1] is not head or bias_add.abstract != head.abstract or b is None or \
                    b.dtype != head.abstract.dtype or len(b.shape) != 1:
                continue
            chain = [bias_add]
            if _single_user(bias_add, uses) and bias_add is not g.output:
                (nxt,) = users[bias_add]
                if type(prim_of(nxt)).__name__ == "ReLU" and nxt not in replace and nxt.graph is g and \
                        nxt.abstract == head.abstract:
                    chain.append(nxt)
            relu = len(chain) == 2
            ops = ["MatMul", "BiasAdd"] + (["ReLU"] if relu else [])
            fused = FusedOp("FusedDense", _dense_kernel(bool(prim_of(head).transpose_b), relu), ops)
            _fuse_chain(g, replace, head, chain, fused, [head.inputs[1], head.inputs[2], bias_add.inputs[2]])
        changed |= _apply_replacements(g, replace)
    return changed


def _batch_norm_kernel():
    from mindspore_cpu.kernels.nn import batch_norm_with_relu

    def kernel(prim, *inputs, out=None):
        return batch_norm_with_relu(prim.batch_norm, *inputs, True)
    return kernel


def fuse_batchnorm_relu(graph):
    """``ReLU(tuple_getitem(BatchNorm(...), 0))``, the ReLU the only reader of ``y``: one BatchNorm apply
    whose output 0 is already clamped; the ReLU's readers read that output instead."""
    changed = False
    for g in graphs_of(graph):
        uses = use_counts(g)
        replace = {}
        for node in g.nodes:
            if type(prim_of(node)).__name__ != "ReLU":
                continue
            item = node.inputs[1]
            if not (isinstance(item, Apply) and item.fn_value() is TUPLE_GETITEM and item.graph is g
                    and _single_user(item, uses) and isinstance(item.inputs[2], Constant) and item.inputs[2].value == 0):
                continue
            bn = item.inputs[1]
            bn_prim = prim_of(bn)
            if type(bn_prim).__name__ != "BatchNorm" or bn in replace or bn.graph is not g:
                continue
            y = _tensor_ab(item)
            if y is None or y.dtype not in _FLOATS or node.abstract != item.abstract:
                continue
            fused = FusedOp("FusedBatchNormReLU", _batch_norm_kernel(), ["BatchNorm", "ReLU"])
            fused.batch_norm = bn_prim
            fused.side_effect = bn_prim.side_effect     # training updates the moving statistics in place
            new = Apply(g, [Constant(fused)] + list(bn.inputs[1:]), bn.loc)
            new.abstract = bn.abstract
            new.debug = "fused BatchNorm+ReLU"
            replace[bn] = new
            replace[node] = item          # the ReLU's readers read the (clamped) output 0
        if replace:
            relus = {n for n in replace if type(prim_of(n)).__name__ == "ReLU"}
            g.nodes = [replace.get(n, n) for n in g.nodes if n not in relus]
            substitute(g, replace)
            changed = True
    return changed


def register(registry):
    from mindspore_cpu.float16_pass import raise_float16
    registry.register("cpu_raise_float16", raise_float16, target="CPU", priority=1)
    registry.register("cpu_fuse_conv_epilogue", fuse_conv_epilogue, target="CPU", priority=5)
    registry.register("cpu_fuse_dense_epilogue", fuse_dense_epilogue, target="CPU", priority=5)
    registry.register("cpu_fuse_batchnorm_relu", fuse_batchnorm_relu, target="CPU", priority=6)
    registry.register("cpu_fuse_elementwise", fuse_elementwise, target="CPU", priority=10)
    registry.register("cpu_inplace_update", inplace_update, target="CPU", priority=20)
