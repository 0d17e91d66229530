"""ONNX forms of the array and indexing families: casts, shapes, joining and splitting, filling, slicing,
gathering, selection, top-k; and the refusal of side effects.

Shapes that depend on unknown sizes come from the captured :class:`~mindspore._deploy.capture.Sym`
values: a ``Reshape`` target keeps ``0`` (copy the input's dimension) or ``-1`` where that is exactly
equivalent, else computes the size from the inputs' ``Shape``. ``StridedSlice`` becomes ``Slice`` on the
sliced axes, ``Squeeze`` of the axes ``shrink_axis_mask`` drops and ``Unsqueeze`` of the axes
``new_axis_mask`` inserts; a shrunk index ``-1`` slices ``[-1:]`` (to the end), not ``[-1:0]``.
"""
from __future__ import annotations

import numpy as np

from mindspore._errors import MSValueError
from mindspore._deploy.capture import Sym
from mindspore._deploy.onnx._emitter import INT64_MAX, INT64_MIN, no_form, np_dtype, onnx_dtype, where
from mindspore._ir.nodes import Parameter


def _is_static(values):
    return all(not isinstance(v, Sym) for v in values)


def sym_add(a, b):
    """``a + b`` for ints and :class:`Sym`."""
    if not isinstance(a, Sym) and not isinstance(b, Sym):
        return int(a) + int(b)
    terms = {}
    for v in (a, b):
        for key, coef in (v.terms.items() if isinstance(v, Sym) else (((), int(v)),)):
            terms[key] = terms.get(key, 0) + coef
    return Sym(terms)


def _cast(em, node):
    dtype = em.cap.arg(node, 2)
    return em.op("Cast", [em.x(node, 1)], to=onnx_dtype(dtype))


def _reshape(em, node):
    target = list(em.cap.arg(node, 2))
    out_shape = list(em.shape(node))
    x = em.x(node, 1)
    if 0 in target or 0 in out_shape:
        # an empty tensor: the exact output shape, where 0 means 0 (not "copy the input's dimension")
        return em.op("Reshape", [x, em.int_tensor(out_shape)], allowzero=1)
    if not _is_static(target):
        x_shape = em.shape(node.inputs[1])
        # a symbolic size equal to the input's at the same axis: 0 (copy it)
        target = [0 if isinstance(v, Sym) and i < len(x_shape) and x_shape[i] == v else v
                  for i, v in enumerate(target)]
        left = [i for i, v in enumerate(target) if isinstance(v, Sym)]
        if len(left) == 1 and -1 not in target:
            target[left[0]] = -1
        elif left:
            target = out_shape
    return em.op("Reshape", [x, em.int_tensor(target)])


def _transpose(em, node):
    perm = [int(p) for p in em.cap.arg(node, 2)]
    return em.op("Transpose", [em.x(node, 1)], perm=[p % len(perm) for p in perm])


def _expand_dims(em, node):
    return em.op("Unsqueeze", [em.x(node, 1), em.ints([int(em.cap.arg(node, 2))])])


def _squeeze(em, node):
    axis = em.cap.attr(node, "axis", ())
    shape = em.shape(node.inputs[1])
    axes = [axis] if isinstance(axis, int) else list(axis)
    if not axes:
        axes = [i for i, d in enumerate(shape) if d == 1 and not isinstance(d, Sym)]
    if not axes:
        return em.op("Identity", [em.x(node, 1)])
    return em.op("Squeeze", [em.x(node, 1), em.ints([int(a) % len(shape) for a in axes])])


def _flatten(em, node):
    return em.op("Flatten", [em.x(node, 1)], axis=1)


def _concat(em, node):
    xs = em.value(node.inputs[1])
    if len(xs) == 1:
        return em.op("Identity", xs)
    return em.op("Concat", xs, axis=int(em.cap.attr(node, "axis", 0)))


def _stack(em, node):
    axis = int(em.cap.attr(node, "axis", 0))
    axes = em.ints([axis])
    xs = [em.op("Unsqueeze", [x, axes]) for x in em.value(node.inputs[1])]
    return xs[0] if len(xs) == 1 else em.op("Concat", xs, axis=axis)


def _split_sizes(em, node, axis):
    return [shape[axis] for shape in em.shape(node)]


def _split(axis_attr):
    def convert(em, node):
        rank = len(em.shape(node.inputs[1]))
        axis = int(em.cap.attr(node, axis_attr, 0)) % rank
        sizes = _split_sizes(em, node, axis)
        outs = em.op("Split", [em.x(node, 1), em.int_tensor(sizes)], outputs=len(sizes), axis=axis)
        return outs if isinstance(outs, list) else [outs]
    return convert


def _unstack(em, node):
    rank = len(em.shape(node.inputs[1]))
    axis = int(em.cap.attr(node, "axis", 0)) % rank
    n = len(em.shape(node))
    axes = em.ints([axis])
    parts = em.op("Split", [em.x(node, 1), em.ints([1] * n)], outputs=n, axis=axis) if n > 1 else [em.x(node, 1)]
    return [em.op("Squeeze", [p, axes]) for p in (parts if isinstance(parts, list) else [parts])]


def _tile(em, node):
    multiples = list(em.cap.arg(node, 2))
    x = em.x(node, 1)
    extra = len(multiples) - len(em.shape(node.inputs[1]))
    if extra > 0:
        x = em.op("Unsqueeze", [x, em.ints(range(extra))])
    return em.op("Tile", [x, em.int_tensor(multiples)])


def _broadcast_to(em, node):
    return em.op("Expand", [em.x(node, 1), em.int_tensor(em.shape(node))])


def _like(value):
    def convert(em, node):
        return em.fill(value, em.out_dtype(node), em.shape_tensor(node.inputs[1]))
    return convert


def _fill_value(value):
    v = value.asnumpy() if hasattr(value, "asnumpy") else value
    return np.asarray(v).reshape(-1)[0].item()


def _fill(em, node):
    return em.fill(_fill_value(em.cap.arg(node, 3)), em.out_dtype(node), em.int_tensor(em.shape(node)))


def _const_fill(value):
    def convert(em, node):
        return em.fill(value, em.out_dtype(node), em.int_tensor(em.shape(node)))
    return convert


def _identity(em, node):
    return em.op("Identity", [em.x(node, 1)])


def _depend(em, node):
    return em.x(node, 1)


def _reverse(em, node):
    axes = em.cap.attr(node, "axis", ())
    axes = [axes] if isinstance(axes, int) else list(axes)
    k = len(axes)
    return em.op("Slice", [em.x(node, 1), em.ints([-1] * k), em.ints([INT64_MIN] * k), em.ints(axes),
                           em.ints([-1] * k)])


def _pad_node(em, node, x, pairs, mode="constant", value=None):
    pads = em.ints([p[0] for p in pairs] + [p[1] for p in pairs])
    ins = [x, pads] + ([value] if value is not None else [])
    return em.op("Pad", ins, mode=mode)


def _pad(em, node):
    return _pad_node(em, node, em.x(node, 1), em.cap.attr(node, "paddings"))


def _pad_v3(em, node):
    prim = node.inputs[0].value
    mode = str(em.cap.attr(node, "mode", "constant"))
    onnx_mode = {"constant": "constant", "reflect": "reflect", "edge": "edge"}.get(mode)
    if onnx_mode is None:
        raise no_form(node, f" in mode '{mode}' at opset 17")
    rank = len(em.shape(node.inputs[1]))
    pairs = prim.pad_pairs(tuple(em.cap.arg(node, 2)), rank)
    value = em.x(node, 3, em.out_dtype(node)) if onnx_mode == "constant" and len(node.inputs) > 3 else None
    return _pad_node(em, node, em.x(node, 1), pairs, onnx_mode, value)


# --- indexing ------------------------------------------------------------------------------------------
def _gather(em, node):
    if int(em.cap.attr(node, "batch_dims", 0) or 0):
        raise no_form(node, " with batch_dims")
    return em.op("Gather", [em.x(node, 1), em.x(node, 2)], axis=int(em.cap.arg(node, 3)))


def _gather_d(em, node):
    return em.op("GatherElements", [em.x(node, 1), em.x(node, 3, np.int64)], axis=int(em.cap.arg(node, 2)))


def _gather_nd(em, node):
    return em.op("GatherND", [em.x(node, 1), em.x(node, 2, np.int64)])


def _slice_node(em, x, starts, ends, axes, steps):
    if not axes:
        return em.op("Identity", [x])
    return em.op("Slice", [x, em.int_tensor(starts), em.int_tensor(ends), em.ints(axes), em.int_tensor(steps)])


def _strided_slice(em, node):
    begin_mask, end_mask, ellipsis, new_axis, shrink = (int(em.cap.attr(node, k, 0)) for k in (
        "begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"))
    begin, end, strides = (list(em.cap.arg(node, i)) for i in (2, 3, 4))
    rank = len(em.shape(node.inputs[1]))
    used = sum(1 for i in range(len(begin)) if not (ellipsis >> i) & 1 and not (new_axis >> i) & 1)
    starts, ends, axes, steps, squeeze, layout = [], [], [], [], [], []
    dim = 0
    entries = list(range(len(begin))) + ([None] if not ellipsis else [])
    for i in entries:
        if i is None or (ellipsis >> i) & 1:
            n = rank - used
            layout.extend("keep" for _ in range(n))
            dim += n
            continue
        if (new_axis >> i) & 1:
            layout.append("new")
            continue
        if (shrink >> i) & 1:
            b = begin[i]
            starts.append(b)
            ends.append(INT64_MAX if (not isinstance(b, Sym) and b == -1) else sym_add(b, 1))
            axes.append(dim)
            steps.append(1)
            squeeze.append(dim)
            dim += 1
            continue
        step = strides[i]
        full_begin, full_end = (begin_mask >> i) & 1, (end_mask >> i) & 1
        if full_begin and full_end and step == 1:
            layout.append("keep")
            dim += 1
            continue
        negative = not isinstance(step, Sym) and step < 0
        starts.append((INT64_MAX if negative else 0) if full_begin else begin[i])
        ends.append((INT64_MIN if negative else INT64_MAX) if full_end else end[i])
        axes.append(dim)
        steps.append(step)
        layout.append("keep")
        dim += 1
    y = _slice_node(em, em.x(node, 1), starts, ends, axes, steps)
    if squeeze:
        y = em.op("Squeeze", [y, em.ints(squeeze)])
    inserted = [k for k, kind in enumerate(layout) if kind == "new"]
    if inserted:
        y = em.op("Unsqueeze", [y, em.ints(inserted)])
    return y


def _slice(em, node):
    begin, size = list(em.cap.arg(node, 2)), list(em.cap.arg(node, 3))
    ends = [INT64_MAX if (not isinstance(s, Sym) and s == -1) else sym_add(b, s) for b, s in zip(begin, size)]
    return _slice_node(em, em.x(node, 1), begin, ends, list(range(len(begin))), [1] * len(begin))


def _select(em, node):
    dtype = em.out_dtype(node)
    return em.op("Where", [em.x(node, 1, np.bool_), em.x(node, 2, dtype), em.x(node, 3, dtype)])


def _masked_fill(em, node):
    dtype = em.out_dtype(node)
    return em.op("Where", [em.x(node, 2, np.bool_), em.x(node, 3, dtype), em.x(node, 1, dtype)])


def _one_hot(em, node):
    # onnxruntime has OneHot for int64 indices and depth with float32 or int64 values: compute in those
    dtype = em.out_dtype(node)
    kind = np_dtype(dtype)
    work = kind if kind in (np.float32, np.int64) else np.dtype(np.float32)
    depth = em.const(np.asarray(int(em.cap.arg(node, 2)), np.int64), "depth")
    values = em.op("Concat", [em.op("Reshape", [em.x(node, i, work), em.ints([1])]) for i in (4, 3)], axis=0)
    y = em.op("OneHot", [em.x(node, 1, np.int64), depth, values], axis=int(em.cap.attr(node, "axis", -1)))
    return y if work == kind else em.cast(y, dtype)


def _top_k(em, node):
    k = em.cap.arg(node, 2)
    k = em.int_tensor([k]) if not hasattr(k, "asnumpy") else em.int_tensor([int(k.asnumpy())])
    values, idx = em.op("TopK", [em.x(node, 1), k], outputs=2, axis=-1, largest=1,
                        sorted=int(bool(em.cap.attr(node, "sorted", True))))
    idx_dtype = node.abstract.elements[1].dtype
    return [values, idx if np_dtype(idx_dtype) == np.int64 else em.cast(idx, idx_dtype)]


def _sort(em, node):
    axis = int(em.cap.attr(node, "axis", -1))
    size = em.shape(node.inputs[1])[axis]
    values, idx = em.op("TopK", [em.x(node, 1), em.int_tensor([size])], outputs=2, axis=axis,
                        largest=int(bool(em.cap.attr(node, "descending", False))), sorted=1)
    idx_dtype = node.abstract.elements[1].dtype
    return [values, idx if np_dtype(idx_dtype) == np.int64 else em.cast(idx, idx_dtype)]


def _trilu(upper):
    def convert(em, node):
        k = em.const(np.asarray(int(em.cap.attr(node, "diagonal", 0)), np.int64), "diagonal")
        return em.op("Trilu", [em.x(node, 1), k], upper=int(upper))
    return convert


def _range(em, node):
    dtype = em.out_dtype(node)
    return em.op("Range", [em.x(node, i, dtype) for i in (1, 2, 3)])


def _side_effect(em, node):
    target = node.inputs[1]
    what = f"the Parameter '{target.name}'" if isinstance(target, Parameter) else "a Parameter"
    name = node.inputs[0].value.name
    raise MSValueError(f"For 'export', the network updates {what} with '{name}'{where(node)}, but an ONNX model has "
                       "no state to update: export a network whose inference updates no Parameter (in evaluation "
                       "mode, net.set_train(False)).")


_SIDE_EFFECTS = ("Assign", "AssignAdd", "AssignSub", "ScatterNdUpdate", "ApplyMomentum", "Print")


def converters():
    table = {name: _side_effect for name in _SIDE_EFFECTS if name != "Print"}
    table.update({
        "Cast": _cast, "Reshape": _reshape, "Transpose": _transpose, "ExpandDims": _expand_dims,
        "Squeeze": _squeeze, "Flatten": _flatten, "Concat": _concat, "Stack": _stack, "Unstack": _unstack,
        "Split": _split("axis"), "SplitV": _split("split_dim"), "Tile": _tile, "BroadcastTo": _broadcast_to,
        "ZerosLike": _like(0), "OnesLike": _like(1), "Fill": _fill, "Zeros": _const_fill(0),
        "Ones": _const_fill(1), "Identity": _identity, "StopGradient": _identity, "Depend": _depend,
        "ReverseV2": _reverse, "Pad": _pad, "PadV3": _pad_v3, "Gather": _gather, "GatherD": _gather_d,
        "GatherNd": _gather_nd, "StridedSlice": _strided_slice, "Slice": _slice, "Select": _select,
        "MaskedFill": _masked_fill, "OneHot": _one_hot, "TopK": _top_k, "Sort": _sort, "Tril": _trilu(False),
        "Triu": _trilu(True), "Range": _range,
    })
    return table
