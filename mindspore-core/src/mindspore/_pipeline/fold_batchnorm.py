"""Folding an inference BatchNorm into the convolution before it (graphs with frozen weights only).

In a graph whose weights are constants (:mod:`.freeze`), the pattern

    y = tuple_getitem(BatchNorm[is_training=False](Conv2D(x, W) [+ BiasAdd b], gamma, beta, mean, var), 0)

where the convolution (and bias-add) feed only the BatchNorm and only its output 0 is read, becomes

    y = BiasAdd(Conv2D(x, W * s), (b - mean) * s + beta),     s = gamma / sqrt(var + epsilon)

``s`` scales each output channel's filter (any groups, strides, dilation, padding), so the BatchNorm's
pass over the activation disappears and backends fuse the bias-add (and what follows it) into the
convolution. The new weights and bias are computed in float64 and rounded once to the weights' dtype
(float32 or float64; other dtypes are left alone). The result differs from the unfolded graph by
rounding only (about one unit in the last place of each product), which is why the pass runs only where
the caller froze the weights and asked for an inference graph.
"""
from __future__ import annotations

import numpy as np

from mindspore._infer.abstract import AbstractTensor
from mindspore._ir import ops as irops
from mindspore._ir.nodes import Apply, Constant
from mindspore._pipeline._util import each_graph, prim_of, substitute
from mindspore._pipeline.freeze import FROZEN
from mindspore._runtime import backend
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor

__all__ = ["run"]

_FLOATS = (mstype.float32, mstype.float64)


def _const_array(x):
    if isinstance(x, Constant) and isinstance(x.value, Tensor) and x.value.dtype in _FLOATS:
        return np.asarray(x.value.asnumpy(), dtype=np.float64)
    return None


def _constant(arr, dtype, shape):
    c = Constant(Tensor._make(backend.from_host(np.ascontiguousarray(arr, dtype=dtype.to_numpy())), dtype))
    c.abstract = AbstractTensor(tuple(shape), dtype)
    return c


def _users(g):
    users = {}
    for node in g.nodes:
        for x in node.inputs[1:]:
            users.setdefault(x, []).append(node)
    users.setdefault(g.output, []).append(None)   # the output is read by the caller
    return users


def _match(bn, users):
    """(conv, bias_add or None, [getitem users]) when ``bn`` can fold, else None."""
    prim = prim_of(bn)
    if type(prim).__name__ != "BatchNorm" or prim.is_training or prim.data_format != "NCHW":
        return None
    items = users.get(bn, [])
    if not items or not all(u is not None and u.fn_value() is irops.tuple_getitem and u.inputs[2].value == 0
                            for u in items):
        return None
    x = bn.inputs[1]
    bias_add = None
    if type(prim_of(x)).__name__ == "BiasAdd" and prim_of(x).data_format == "NCHW" and users.get(x) == [bn] \
            and _const_array(x.inputs[2]) is not None:
        bias_add, x = x, x.inputs[1]
    conv = prim_of(x)
    if type(conv).__name__ != "Conv2D" or getattr(conv, "data_format", "NCHW") != "NCHW" or \
            users.get(x) != [bias_add or bn] or x.graph is not bn.graph:
        return None
    w = x.inputs[2]
    if _const_array(w) is None or not isinstance(x.abstract, AbstractTensor) or x.abstract.dtype != w.value.dtype:
        return None
    return x, bias_add, items


def _fold_graph(g):
    from mindspore.ops._defs.nn import BiasAdd   # ops import the pipeline: imported when first needed
    users = _users(g)
    replace, subst = {}, {}
    for bn in g.nodes:
        found = _match(bn, users)
        if found is None:
            continue
        params = [_const_array(a) for a in bn.inputs[2:6]]
        if any(p is None for p in params):
            continue
        conv, bias_add, items = found
        gamma, beta, mean, var = params
        w_const = conv.inputs[2]
        w = _const_array(w_const)
        if not all(p.shape == (w.shape[0],) for p in params):
            continue
        scale = gamma / np.sqrt(var + float(prim_of(bn).epsilon))
        bias = beta - mean * scale if bias_add is None else (_const_array(bias_add.inputs[2]) - mean) * scale + beta
        dtype = w_const.value.dtype
        new_conv = Apply(g, [conv.inputs[0], conv.inputs[1],
                             _constant(w * scale.reshape((-1,) + (1,) * (w.ndim - 1)), dtype, w.shape)], conv.loc)
        new_conv.abstract = conv.abstract
        add = Apply(g, [Constant(BiasAdd(data_format="NCHW")), new_conv, _constant(bias, dtype, bias.shape)], bn.loc)
        add.abstract = conv.abstract
        add.debug = "folded BatchNorm"
        replace[conv] = new_conv
        if bias_add is not None:
            replace[bias_add] = None
        replace[bn] = add
        for item in items:
            replace[item] = None
            subst[item] = add
    if not replace:
        return False
    g.nodes = [replace.get(n, n) for n in g.nodes if replace.get(n, n) is not None]
    substitute(g, subst)
    return True


def run(root):
    if not root.flags.get(FROZEN):
        return False
    return each_graph(root, _fold_graph)
