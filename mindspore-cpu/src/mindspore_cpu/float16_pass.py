"""``cpu_raise_float16``: float16 operators without a float16 CPU kernel in MindSpore 2.10 run in float32, and their
results stay float32 until an operator that has one (or the graph's output) reads them (GRAPH_MODE only).

What MindSpore 2.10 does on the CPU. Its kernel selection first looks for a kernel whose registered dtypes match the
operator's inferred ones exactly; when there is none it accepts a float32 kernel for float16 inputs (``raise or
reduce precision``), and the selected kernel's float32 output becomes the node's device type. Its ``InsertCastCPU``
pass then compares, for every input of every kernel, the device type the producer writes with the one the consumer
reads: a Cast goes in only where they differ, and graph outputs are cast back to their inferred type. So between two
such operators (``MatMul -> MatMul``, ``MatMul -> BiasAdd -> MatMul``, ``Conv2D -> BiasAdd -> Conv2D``) the value is
never rounded to float16, while an operator with a float16 kernel (``ReLU``, ``Add``, ``Mul``, ``Transpose``,
``Softmax`` ...) reads it rounded. PYNATIVE_MODE runs one operator at a time and rounds every result (ours as well).

The pass does the same on our typed graph, before the fusion passes (which then see float32 ``MatMul + BiasAdd`` or
``Conv2D + BiasAdd`` chains and fuse them as such): an apply of a primitive in :data:`RAISED` that reads or writes
float16 tensors reads float32 ones instead (a ``Cast`` of each float16 input, one per value, or the float32 result
of another raised apply), and its float16 outputs become float32; readers of those outputs that are not raised
applies (nor ``tuple_getitem``s of them) read them through one ``Cast`` back to float16, as does the graph's output.
Left alone: effectful applies (BatchNorm in training updates its statistics in place), applies that mix float16 and
float32 inputs (amp O2's BatchNorm and its gradient, given the float16 input: in 2.10 the cell casts that rounded input
to float32 itself) and raised multi-output applies whose tuple is read other than item by item.
"""
from __future__ import annotations

from mindspore import ops
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.plugin import (TUPLE_GETITEM, AbstractTuple, Apply, Constant, FusedOp, TensorSpec, graphs_of,
                              is_effectful_apply, prim_of)

__all__ = ["RAISED", "raise_float16"]

#: Primitives whose MindSpore 2.10 CPU kernels have no float16 version (read from 2.10's kernel graphs:
#: ``tests/fixtures/fp16_chain/survey_cpu_float16_kernels.py``). Among the ones it measured, these have a float16
#: kernel and keep rounding: Add, Sub, Mul, Div, Maximum, AddN, Neg, Sign, ReLU, HSwish, FastGeLU, Sigmoid, Erf, Log,
#: Sqrt, Rsqrt, Sin, Cos, Atan2, Softmax, LayerNorm, L2Normalize, MaxPool, AvgPool, Transpose, Reshape, ExpandDims,
#: Concat, Stack, Tile, Slice, Gather, BroadcastTo, Select, CumSum, CumProd, SquaredDifference, FloorDiv, Mod,
#: ResizeNearestNeighbor, Dropout, Cast.
RAISED = frozenset({
    # products and convolutions
    "MatMul", "BatchMatMul", "BiasAdd", "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter",
    # elementwise
    "Abs", "Exp", "Floor", "Round", "Square", "Reciprocal", "Pow", "RealDiv", "Minimum", "Tanh", "Erfinv", "GeLU",
    "GeLUGrad", "Elu", "Softplus", "ReLU6", "HSigmoid",
    # reductions, normalisation, losses
    "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "LogSoftmax", "BatchNorm", "BatchNormGrad",
    "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits",
    # data movement (exact, but a float32 value passes through them unrounded)
    "StridedSlice", "StridedSliceGrad", "Pad",
    # pooling gradients
    "MaxPoolGrad", "AvgPoolGrad",
})

_F16, _F32 = mstype.float16, mstype.float32
_CAST = ops.Cast()


def _abstract(x):
    """``x``'s abstract value (a constant tensor's from its value, should inference have left it unset)."""
    if x.abstract is None and isinstance(x, Constant) and isinstance(x.value, Tensor):
        return TensorSpec(x.value.shape, x.value.dtype)
    return x.abstract


def _is_half(ab):
    return isinstance(ab, TensorSpec) and ab.dtype == _F16


def _widened(ab):
    """``ab`` with its float16 tensors float32 (None when it has none)."""
    if _is_half(ab):
        return TensorSpec(ab.shape, _F32)
    if isinstance(ab, AbstractTuple) and any(_is_half(e) for e in ab.elements):
        return AbstractTuple([TensorSpec(e.shape, _F32) if _is_half(e) else e for e in ab.elements])
    return None


def _raisable(node, readers, wide):
    prim = prim_of(node)
    if prim is None or isinstance(prim, FusedOp) or type(prim).__name__ not in RAISED or is_effectful_apply(node):
        return False
    dtypes = {_F16 if x in wide else ab.dtype for x, ab in ((x, _abstract(x)) for x in node.inputs[1:])
              if isinstance(ab, TensorSpec)}
    if _F16 in dtypes and _F32 in dtypes:
        # Only amp's BatchNorm shortcut makes these (a float16 input with float32 parameters, where 2.10 casts the
        # input to float32 itself, after rounding it to float16): keep reading the rounded value.
        return False
    if not (_widened(node.abstract) is not None or _F16 in dtypes):
        return False
    if isinstance(node.abstract, AbstractTuple):   # its items must be read one by one (they can be cast back)
        return node not in readers.get("output", ()) and all(r.fn_value() is TUPLE_GETITEM
                                                              for r in readers.get(node, ()))
    return isinstance(node.abstract, TensorSpec)


def _cast(g, x, dtype, loc):
    node = Apply(g, [Constant(_CAST), x, Constant(dtype)], loc)
    node.abstract = TensorSpec(_abstract(x).shape, dtype)
    node.debug = "float16 op in float32 (2.10 CPU kernel selection)"
    return node


def _widened_constant(x):
    value = Constant(Tensor(x.value.asnumpy().astype("float32")), x.loc)
    value.abstract = TensorSpec(_abstract(x).shape, _F32)
    return value


def _readers(g):
    readers = {}
    for node in g.nodes:
        for x in node.inputs[1:]:
            readers.setdefault(x, []).append(node)
    readers.setdefault("output", []).append(g.output)
    return readers


def _raise_graph(g):
    readers = None
    wide = set()          # values whose buffer is float32 where their abstract said float16
    up, down = {}, {}     # value -> its Cast to float32 / raised value -> its Cast back to float16
    nodes = []
    for node in g.nodes:
        if node.fn_value() is TUPLE_GETITEM and node.inputs[1] in wide:
            if _is_half(node.abstract):
                node.abstract = TensorSpec(node.abstract.shape, _F32)
                wide.add(node)
            nodes.append(node)
            continue
        if readers is None and type(prim_of(node)).__name__ in RAISED:
            readers = _readers(g)
        if readers is not None and _raisable(node, readers, wide):
            for i, x in enumerate(node.inputs[1:], 1):
                if x in wide or not _is_half(_abstract(x)):
                    continue
                if x not in up:
                    if isinstance(x, Constant) and isinstance(x.value, Tensor):
                        up[x] = _widened_constant(x)
                    else:
                        up[x] = _cast(g, x, _F32, node.loc)
                        nodes.append(up[x])
                node.inputs[i] = up[x]
            node.abstract = _widened(node.abstract) or node.abstract
            wide.add(node)
            nodes.append(node)
            continue
        for i, x in enumerate(node.inputs[1:], 1):
            if x in wide:
                if x not in down:
                    down[x] = _cast(g, x, _F16, node.loc)
                    nodes.append(down[x])
                node.inputs[i] = down[x]
        nodes.append(node)
    if not wide:
        return False
    if g.output in wide:
        if g.output not in down:
            down[g.output] = _cast(g, g.output, _F16, g.output.loc)
            nodes.append(down[g.output])
        g.output = down[g.output]
    g.nodes = nodes
    return True


def raise_float16(graph):
    """Run float16 applies of :data:`RAISED` primitives in float32, as MindSpore 2.10's CPU backend does."""
    changed = False
    for g in graphs_of(graph):
        changed |= _raise_graph(g)
    return changed
