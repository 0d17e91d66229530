"""The ONNX model of a captured network: graph inputs and outputs, names, the checker, and the files.

A model whose initializers total more than :data:`EXTERNAL_DATA_LIMIT` bytes (protobuf's 2 GB) keeps them
in one external data file next to it, ``<model file>.data`` (ONNX's external data: each initializer
names that file, an offset and a length), as ``mindspore.onnx.export`` does for such networks. Both
files are written atomically; the checker reads the model back from its file in that case.
"""
from __future__ import annotations

import os
import sys

from mindspore._errors import InternalError, MSRuntimeError, MSTypeError, MSValueError
from mindspore._ir.nodes import Constant
from mindspore.common.tensor import Tensor
from mindspore._deploy.capture import Sym
from mindspore._deploy.onnx import _ops_array, _ops_math, _ops_nn, _rnn
from mindspore._deploy.onnx._emitter import OPSET, Emitter, onnx_dtype, onnx_module

#: Initializer bytes over which the weights go to an external data file (protobuf's limit is 2 GB).
EXTERNAL_DATA_LIMIT = 2 * 1024 ** 3 - 64 * 1024 ** 2
#: Initializers smaller than this stay inside the model even then.
EXTERNAL_DATA_MIN = 1024
#: ONNX IR version 8 (ONNX 1.10+, opset 17's era): read by every maintained runtime.
IR_VERSION = 8


def _version():
    # the package is imported by now; reading it from sys.modules adds no import edge upward
    return str(getattr(sys.modules.get("mindspore"), "__version__", ""))


def _converters():
    table = {}
    for family in (_ops_math, _ops_nn, _ops_array, _rnn):
        table.update(family.converters())
    return table


def _value_info(onnx, name, dtype, shape):
    dims = []
    for d in shape:
        if isinstance(d, Sym):
            dims.append(d.symbols[0] if d.is_symbol() else None)
        else:
            dims.append(int(d))
    return onnx.helper.make_tensor_value_info(name, onnx_dtype(dtype), dims)


def _names(given, defaults, what):
    if given is None:
        return list(defaults)
    names = list(defaults)
    for i, name in enumerate(list(given)[:len(names)]):
        if not isinstance(name, str) or not name:
            raise MSTypeError(f"For 'export', every element of '{what}' must be a non-empty str, but got {name!r}.")
        names[i] = name
    if len(set(names)) != len(names):
        raise MSValueError(f"For 'export', the names of the model's {what.split('_')[0]}s must be unique, but got "
                           f"{names}.")
    return names


def _check_tensor_outputs(captured):
    """ONNX outputs are tensors: a network returning a Python constant (``return 3``, ``return (x, 2)``), which
    MindIR keeps, is refused with MindSpore 2.10's errors (a tuple of constants is one value node there)."""
    leaves = iter(captured.outputs)

    def walk(tree, in_tuple):
        if tree is None:
            node = next(leaves)
            return [node] if in_tuple else _refuse_scalar([node])
        items = [walk(t, True) for t in tree[1]] if tree[0] is not dict else [walk(t, True) for t in tree[2]]
        flat = [n for part in items for n in part]
        if all(t is None for t in (tree[1] if tree[0] is not dict else tree[2])) and flat and \
                all(isinstance(n, Constant) for n in flat) and not all(isinstance(n.value, Tensor) for n in flat):
            first = next(n.value for n in flat if not isinstance(n.value, Tensor))
            raise MSRuntimeError(f"Expected output 0 of node ValueNode({_shown(tuple(n.value for n in flat))}) to be "
                                 f"a tensor. Instead got: {_type_name(first)}")
        _refuse_scalar(flat)
        return []

    walk(captured.out_tree, False)


def _refuse_scalar(nodes):
    for n in nodes:
        if isinstance(n, Constant) and not isinstance(n.value, Tensor):
            raise MSRuntimeError(f"Unsupported network output type {_type_name(n.value)} in node "
                                 f"ValueNode({_shown(n.value)})")
    return []


def _type_name(v):
    if v is None:
        return "None"
    return {bool: "Bool", int: "Int64", float: "Float32", str: "String"}.get(type(v), type(v).__name__)


def _shown(v):
    """A constant as 2.10's messages print it: ``true``, ``3`` for 3.0, ``(1, 2.5)``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, (tuple, list)):
        return "(" + ", ".join(_shown(e) for e in v) + ")"
    return str(v)


def build(captured, input_names=None, output_names=None, export_params=True, keep_initializers_as_inputs=False):
    """The ONNX ``ModelProto`` of ``captured``."""
    _check_tensor_outputs(captured)
    onnx = onnx_module()
    em = Emitter(captured, _converters(), export_params=export_params,
                 weights_as_inputs=keep_initializers_as_inputs or not export_params)
    ins = _names(input_names, [i.name for i in captured.inputs], "input_names")
    outs = _names(output_names, [f"output_{i}" for i in range(len(captured.outputs))], "output_names")
    for inp, name in zip(captured.inputs, ins):
        em.reserve(name)
        em.vals[id(inp.node)] = name
    for name in outs:
        em.reserve(name)
    em.run()
    _name_outputs(em, [em.value(n) for n in captured.outputs], outs)
    graph_inputs = [_value_info(onnx, name, inp.dtype, inp.shape) for inp, name in zip(captured.inputs, ins)]
    graph_inputs += em.weight_inputs
    if keep_initializers_as_inputs and export_params:
        by_name = {t.name: t for t in em.initializers}
        graph_inputs += [onnx.helper.make_tensor_value_info(n, by_name[n].data_type, list(by_name[n].dims))
                         for n in em.weight_names]
    graph_outputs = [_value_info(onnx, name, node.abstract.dtype, captured.shape(node))
                     for node, name in zip(captured.outputs, outs)]
    graph = onnx.helper.make_graph(em.nodes, captured.name, graph_inputs, graph_outputs, em.initializers)
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", OPSET)],
                                   producer_name="MindSpore", producer_version=_version())
    model.ir_version = IR_VERSION
    return model


def _name_outputs(em, values, names):
    """Give each output value its model output name: the producing node's output renamed, else an Identity."""
    producers = {out: (node, k) for node in em.nodes for k, out in enumerate(node.output)}
    taken = set()
    for value, name in zip(values, names):
        if isinstance(value, list):
            raise InternalError("an output of the captured graph is a tuple")
        hit = producers.get(value)
        if hit is None or value in taken:
            em.nodes.append(em.onnx.helper.make_node("Identity", [value], [name], name=em.fresh(f"{name}_node")))
            continue
        taken.add(value)
        node, k = hit
        node.output[k] = name
        for other in em.nodes:
            for i, x in enumerate(other.input):
                if x == value:
                    other.input[i] = name


def check(model, path=None):
    """``onnx.checker`` with full shape and type inference; a failure is our bug."""
    onnx = onnx_module()
    try:
        onnx.checker.check_model(path if path is not None else model, full_check=True)
    except Exception as exc:   # noqa: BLE001 - any checker failure is reported the same way
        raise InternalError(f"the exported ONNX model fails onnx.checker: {exc}") from exc


def _external(model, data_name):
    """Move the large initializers' bytes out of ``model``: [(offset, bytes)] for the data file."""
    onnx = onnx_module()
    from onnx.external_data_helper import set_external_data
    chunks, offset = [], 0
    for tensor in model.graph.initializer:
        raw = tensor.raw_data
        if len(raw) < EXTERNAL_DATA_MIN:
            continue
        pad = (-offset) % 64
        if pad:
            chunks.append(bytes(pad))
            offset += pad
        set_external_data(tensor, data_name, offset=offset, length=len(raw))
        tensor.data_location = onnx.TensorProto.EXTERNAL
        chunks.append(bytes(raw))
        offset += len(raw)
        tensor.ClearField("raw_data")
    return chunks


def write(model, path, encrypt=None):
    """Serialize ``model`` to ``path`` atomically (encrypted with ``encrypt`` when given)."""
    from mindspore._fileio.atomic import atomic_write as _atomic_write
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    size = sum(len(t.raw_data) for t in model.graph.initializer)
    if size <= EXTERNAL_DATA_LIMIT:
        check(model)
        data = model.SerializeToString()
        if encrypt is not None:
            data = encrypt(data)
            if not isinstance(data, (bytes, bytearray)):
                raise MSTypeError(f"For 'export', the encryption function must return bytes, but got "
                                  f"{type(data).__name__}.")
        _atomic_write(path, lambda f: f.write(data))
        return
    if encrypt is not None:
        raise MSValueError(f"For 'export', the network's weights ({size / 1024 ** 3:.2f} GB) exceed protobuf's 2 GB "
                           "limit and must be written to an external data file, which customized encryption does "
                           "not cover: export it without encryption.")
    data_name = os.path.basename(path) + ".data"
    chunks = _external(model, data_name)

    def write_chunks(f):
        for chunk in chunks:
            f.write(chunk)
    _atomic_write(os.path.join(directory, data_name), write_chunks)
    _atomic_write(path, lambda f: f.write(model.SerializeToString()))
    try:
        check(model, path)
    except InternalError:
        for p in (path, os.path.join(directory, data_name)):
            try:
                os.remove(p)
            except OSError:
                pass
        raise

