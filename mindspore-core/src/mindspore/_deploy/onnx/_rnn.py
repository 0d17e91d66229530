"""ONNX forms of the recurrent layers kept whole by capture (``Composite`` calls of ``nn.LSTM``, ``nn.GRU``,
``nn.RNN``): one ONNX ``LSTM``/``GRU``/``RNN`` node per layer, the layers chained.

Layouts. Ours (MindSpore's, torch's): input (T, N, I) or (N, T, I) with ``batch_first``; weights
``weight_ih_l{k}[_reverse]`` (G*H, in), ``weight_hh`` (G*H, H), biases (G*H,); states (L*D, N, H); the
output (T, N, D*H), forward features first. ONNX: ``W`` (D, G*H, in), ``R`` (D, G*H, H), ``B`` (D, 2*G*H)
(input biases then recurrent ones), states (D, N, H) per layer, ``Y`` (T, D, N, H).

Gates. LSTM: ours (i, f, g, o), ONNX (i, o, f, c); GRU: ours (r, z, n), ONNX (z, r, h) with
``linear_before_reset = 1``, which is our ``n = tanh(W_in x + b_in + r (W_hn h + b_hn))``, and both take
``h' = (1 - z) n + z h``. Weight blocks are reordered in NumPy when the weights are initializers (the
model then holds the repacked tensors), else in the graph (``Split``/``Concat``), so that weights given
as graph inputs keep MindSpore's names and layout.

``seq_length``: past a sequence's length our layers output zeros and carry the state, and the reverse
direction reverses each sequence within its length: ONNX's ``sequence_lens`` has the same semantics, but
for a sequence of length 0, whose final state ONNX gives as zeros and we as the initial state: a
``Where`` on the lengths restores it.
"""
from __future__ import annotations

import inspect

import numpy as np

from mindspore._errors import MSValueError
from mindspore._deploy.onnx._emitter import prim_of, where
from mindspore._infer import staging
from mindspore._ir.nodes import Parameter

_ORDER = {"LSTM": (0, 3, 1, 2), "GRU": (1, 0, 2), "RNN_TANH": (0,), "RNN_RELU": (0,)}
_OP = {"LSTM": "LSTM", "GRU": "GRU", "RNN_TANH": "RNN", "RNN_RELU": "RNN"}


class _Arg:
    """A tensor argument of the composite call: input ``index`` of the apply."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def _arguments(node, comp):
    """``(x, hx, seq_length)`` of the call, each an :class:`_Arg`, a tuple of them (LSTM's hx) or None."""
    markers = list(comp.in_leaves)
    for k, leaf in enumerate(comp.tensor_leaves):
        markers[leaf] = _Arg(1 + k)
    args, kwargs = staging.unflatten(comp.in_tree, markers)
    try:
        bound = inspect.signature(comp.cell.construct).bind(*args, **kwargs)
    except TypeError as exc:
        raise MSValueError(f"For 'export', the call of '{type(comp.cell).__name__}'{where(node)} does not match "
                           f"its construct(x, hx=None, seq_length=None): {exc}.") from exc
    values = bound.arguments
    return values.get("x"), values.get("hx"), values.get("seq_length")


class _Weights:
    """The layer's Parameters as ONNX values: NumPy arrays when they may be folded, else graph names."""

    def __init__(self, em, node, n_tensors):
        self.em = em
        self.nodes = {id(x.weight): x for x in node.inputs[1 + n_tensors:]
                      if isinstance(x, Parameter) and x.weight is not None}

    def get(self, param):
        node = self.nodes.get(id(param))
        if node is None:
            return param.asnumpy()
        array = self.em.weight_array(node)
        return array if array is not None else self.em.value(node)


def _pack(em, parts, order, hidden, hint):
    """Per direction, the gate blocks of each part reordered and joined; the directions stacked on axis 0."""
    if all(isinstance(p, np.ndarray) for d in parts for p in d):
        rows = [np.concatenate([p[g * hidden:(g + 1) * hidden] for p in d for g in order]) for d in parts]
        return em.const(np.stack(rows), hint)
    axis0 = em.ints([0])
    stacked = []
    for d in parts:
        blocks = []
        for p in d:
            name = em.const(p, hint) if isinstance(p, np.ndarray) else p
            split = em.op("Split", [name, em.ints([hidden] * len(order))], outputs=len(order), axis=0) \
                if len(order) > 1 else [name]
            blocks.extend(split[g] for g in order)
        joined = em.op("Concat", blocks, axis=0) if len(blocks) > 1 else blocks[0]
        stacked.append(em.op("Unsqueeze", [joined, axis0]))
    return em.op("Concat", stacked, axis=0) if len(stacked) > 1 else stacked[0]


def _state(em, state, layer, dirs, layers):
    """Rows ``layer * dirs ... + dirs`` of an initial state (L*D, N, H), or '' when none is given."""
    if state is None:
        return ""
    if layers == 1:
        return state
    return em.op("Slice", [state, em.ints([layer * dirs]), em.ints([(layer + 1) * dirs]), em.ints([0])])


def _empty_keeps_state(em, final, initial, seq):
    """The final state, but the initial one for sequences of length 0 (ONNX gives zeros there, we the
    state carried unchanged through every masked step)."""
    if seq == "" or initial == "":
        return final
    empty = em.op("Unsqueeze", [em.op("Equal", [seq, em.const(np.zeros((), np.int32), "zero")]), em.ints([0, 2])])
    return em.op("Where", [empty, initial, final])


def _check(node, comp):
    a = comp.attrs
    if float(a.get("dropout", 0.0) or 0.0) > 0:
        raise MSValueError(f"For 'export', the '{type(comp.cell).__name__}'{where(node)} applies dropout between "
                           "layers (training mode), which has no ONNX inference form: export the network in "
                           "evaluation mode (net.set_train(False)).")
    if comp.name not in _ORDER:
        raise MSValueError(f"For 'export', the recurrent layer mode '{comp.name}'{where(node)} has no ONNX form.")


def _attrs(mode, hidden, dirs):
    attrs = {"hidden_size": hidden, "direction": "bidirectional" if dirs == 2 else "forward"}
    if mode == "GRU":
        attrs["linear_before_reset"] = 1
    if mode.startswith("RNN"):
        attrs["activations"] = ["Tanh" if mode == "RNN_TANH" else "Relu"] * dirs
    return attrs


def _layer_weights(em, comp, weights, layer, dirs):
    """ONNX ``W``, ``R`` and ``B`` ('' without biases) of one layer, named after the layer's Parameters."""
    order, hidden = _ORDER[comp.name], int(comp.attrs["hidden_size"])
    per_dir = [comp.cell._weights(layer, d) for d in range(dirs)]
    first = per_dir[0][0].name
    suffix = f"weight_ih_l{layer}"
    prefix = first[:-len(suffix)] if first.endswith(suffix) else ""
    w = _pack(em, [[weights.get(p[0])] for p in per_dir], order, hidden, f"{prefix}W_l{layer}")
    r = _pack(em, [[weights.get(p[1])] for p in per_dir], order, hidden, f"{prefix}R_l{layer}")
    if not comp.attrs["has_bias"]:
        return w, r, ""
    b = _pack(em, [[weights.get(p[2]), weights.get(p[3])] for p in per_dir], order, hidden, f"{prefix}B_l{layer}")
    return w, r, b


def convert(em, node):
    comp = prim_of(node)
    a = comp.attrs
    mode, layers = comp.name, int(a["num_layers"])
    dirs = 2 if a["bidirectional"] else 1
    x_arg, hx, seq_arg = _arguments(node, comp)
    _check(node, comp)
    weights = _Weights(em, node, len(comp.tensor_leaves))
    x = em.x(node, x_arg.index)
    if a["batch_first"]:
        x = em.op("Transpose", [x], perm=[1, 0, 2])
    h0 = c0 = None
    if hx is not None:
        if mode == "LSTM":
            h0, c0 = em.x(node, hx[0].index), em.x(node, hx[1].index)
        else:
            h0 = em.x(node, hx.index)
    seq = em.x(node, seq_arg.index, np.int32) if seq_arg is not None else ""
    attrs = _attrs(mode, int(a["hidden_size"]), dirs)
    h_n, c_n = [], []
    for layer in range(layers):
        ins = [x, *_layer_weights(em, comp, weights, layer, dirs), seq, _state(em, h0, layer, dirs, layers)]
        if mode == "LSTM":
            ins.append(_state(em, c0, layer, dirs, layers))
        while ins[-1] == "":
            ins.pop()
        outs = em.op(_OP[mode], ins, outputs=3 if mode == "LSTM" else 2, **attrs)
        if dirs == 1:
            x = em.op("Squeeze", [outs[0], em.ints([1])])
        else:   # (T, D, N, H) -> (T, N, D*H), forward features first
            x = em.op("Reshape", [em.op("Transpose", [outs[0]], perm=[0, 2, 1, 3]), em.ints([0, 0, -1])])
        h_n.append(_empty_keeps_state(em, outs[1], ins[5] if len(ins) > 5 else "", seq))
        if mode == "LSTM":
            c_n.append(_empty_keeps_state(em, outs[2], ins[6] if len(ins) > 6 else "", seq))
    output = em.op("Transpose", [x], perm=[1, 0, 2]) if a["batch_first"] else x
    result = [output, em.op("Concat", h_n, axis=0) if layers > 1 else h_n[0]]
    if mode == "LSTM":
        result.append(em.op("Concat", c_n, axis=0) if layers > 1 else c_n[0])
    return result


def converters():
    return {("composite", name): convert for name in _ORDER}
