"""Writing a captured network as the MindIR file MindSpore 2.10 writes.

Design
------
``save(captured, path, ...)`` turns a :class:`~mindspore._deploy.capture.Captured` (one flat, typed graph of our
primitives) into a ``mind_ir.ModelProto`` laid out as MindSpore 2.10's ``export`` lays it out, so that real
MindSpore's ``load`` + ``nn.GraphCell`` runs it:

* header ``ir_version "1.1"``, ``producer_name "MindSpore"``, ``model_version "2.10.0"``, ``little_endian``,
  ``mind_ir_version 3``;
* one graph; every value of it named ``"<graph>:<name>"``: the inputs (``graph.input``, unknown dimensions as
  ``-1``), the weights (``graph.parameter``: ``ref_key`` = ``Parameter.name``, the bytes in ``raw_data``) and
  the nodes, which call ``"REF::<Prim>:<id>"``, an entry of ``ModelProto.primitives``. How each of our
  primitives is written (MindSpore's name, ``PRIMITIVE`` with attributes or ``PRIMITIVE_FUNCTION`` with extra
  ``Constant`` inputs) is the table of :mod:`.to_ms`; every node carries its inferred output as its ``shape``
  attribute;
* MindSpore's side-effect structure: a weight is read through ``Load(weight, U)``; the loads are gathered by
  ``MakeTuple`` into ``UpdateState(U, ...)`` and the graph returns ``Depend(result, state)``.

Values that depend on an unknown dimension (:class:`~mindspore._deploy.capture.Sym`) become what MindSpore
writes itself: ``-1`` in a ``Reshape`` target when it is the only unknown entry, else a shape computation
``Shape(x) -> TupleGetItem -> ScalarMul/ScalarAdd -> MakeTuple``; a constant filled tensor of such a shape
(:class:`~mindspore._deploy.capture.SymFill`) is ``BroadcastTo`` of its value. The writer is deterministic:
names and ids come from counters in program order, so the same network gives the same bytes.

The file is written atomically (:func:`mindspore._fileio.atomic.atomic_write`), encrypted when asked in
MindSpore's block layout (:mod:`mindspore._fileio.crypto`), after ``custom_func(model)`` has edited the
proto. When the weights total more than 1 GiB (MindSpore's ``TOTAL_SAVE``, counted as it counts) they go to
``<name>_variables/data_0`` instead, each 64-byte aligned after a 64-byte header, in name order, and the graph
to ``<name>_graph.mindir`` with ``external_data`` pointing at them, as MindSpore's ``_split_save`` does.
"""
from __future__ import annotations

import io
import os
import shutil
import sys

import numpy as np

from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore._deploy.capture import Sym, SymFill
from mindspore._deploy.mindir import _schema as pb
from mindspore._deploy.mindir import to_ms
from mindspore._deploy.mindir._tensors import code_of, fill_tensor_proto
from mindspore._infer.abstract import AbstractTensor, AbstractTuple
from mindspore._ir import ops as irops
from mindspore._ir.nodes import Apply, Constant, Parameter
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor

__all__ = ["save", "build_model", "TOTAL_SAVE_KB", "PARAMETER_SPLIT_KB"]

#: Weights above this many KiB (MindSpore's ``TOTAL_SAVE``, summed as ``sys.getsizeof(bytes) / 1024``) are
#: written to external data files.
TOTAL_SAVE_KB = 1024 * 1024
#: An external data file is closed and the next one started past this many KiB (``PARAMETER_SPLIT_SIZE``).
PARAMETER_SPLIT_KB = 1024 * 1024 * 1024
_HEADER = 64        # bytes before the first weight of a data file; byte 0 is 1 on a little-endian machine
_ALIGN = 64

A = pb.AttributeProto
_UMONAD = A.UMONAD


# --- attribute values -----------------------------------------------------------------------------------------
def _scalar_type(v):
    if isinstance(v, (bool, np.bool_)):
        return A.BOOL
    if isinstance(v, (int, np.integer)):
        return A.INT64
    if isinstance(v, (float, np.floating)):
        return A.FLOAT
    if isinstance(v, str):
        return A.STRING
    return None


def _set_value(attr, v, top=True, what="a value"):
    """Fill ``attr`` (an ``AttributeProto``) with the Python value ``v`` as MindSpore writes it: a top-level
    scalar in ``i``/``f``/``s``, a scalar inside a tuple in the repeated ``ints``/``floats``/``strings``."""
    kind = _scalar_type(v)
    if kind is not None:
        attr.type = kind
        if kind == A.STRING:
            if top:
                attr.s = v.encode()
            else:
                attr.strings.append(v.encode())
        elif kind == A.FLOAT:
            if top:
                attr.f = float(v)
            else:
                attr.floats.append(float(v))
        elif top:
            attr.i = int(v)
        else:
            attr.ints.append(int(v))
        return attr
    if v is None:
        attr.type = A.NONE
        return attr
    if isinstance(v, (tuple, list)):
        attr.type = A.TUPLE if isinstance(v, tuple) else A.LIST
        for e in v:
            _set_value(attr.values.add(), e, top=False, what=what)
        return attr
    if isinstance(v, Tensor):
        attr.type = A.TENSORS
        t = attr.tensors.add()
        fill_tensor_proto(t, v.asnumpy(), v.dtype)
        t.name = "value0"
        return attr
    if isinstance(v, Sym):
        raise MSValueError(f"For 'export', {what} depends on the size of an unknown input dimension ({v}), which "
                           "a MindIR primitive attribute can not express. Export with a static input shape.")
    if isinstance(v, mstype.Type):
        raise MSValueError(f"For 'export', {what} is the dtype {v}, which this MindIR writer can not store as a "
                           "primitive attribute.")
    raise MSTypeError(f"For 'export', {what} is a {type(v).__name__} ({v!r}), which can not be written to MindIR.")


def _tensor_shape_attr(attr, shape, dtype):
    attr.type = A.TENSORS
    t = attr.tensors.add()
    t.dims.extend(_dims(shape))
    t.data_type = code_of(dtype)
    return attr


def _scalar_shape_attr(attr, code=7):
    """The inferred value of a scalar node (``Shape``'s items, ``ScalarMul``): MindSpore's SCALAR form."""
    attr.type = A.SCALAR
    t = attr.tensors.add()
    t.dims.append(0)
    t.data_type = code
    return attr


def _tuple_attr(attr, parts):
    attr.type = A.TUPLE
    for p in parts:
        attr.values.add().CopyFrom(p)
    attr.seq_info.is_dyn_len = False
    return attr


def _const_shape_attr(attr, v):
    """The inferred value of a constant output as 2.10 writes it: a Tensor's shape, a number's SCALAR, a string's
    STRING, None's NONE, a tuple's (a list's) items."""
    if isinstance(v, Tensor):
        return _tensor_shape_attr(attr, v.shape, v.dtype)
    if isinstance(v, (tuple, list)):
        _tuple_attr(attr, [_const_shape_attr(A(), e) for e in v])
        attr.type = A.TUPLE if isinstance(v, tuple) else A.LIST
        return attr
    if isinstance(v, bool):
        return _scalar_shape_attr(attr, code_of(mstype.bool_))
    if isinstance(v, int):
        return _scalar_shape_attr(attr, code_of(mstype.int64))
    if isinstance(v, float):
        return _scalar_shape_attr(attr, code_of(mstype.float32))
    attr.type = A.STRING if isinstance(v, str) else A.NONE
    return attr


#: the ``denotation`` of a graph output that is not a tensor, by the type of its inferred value
_DENOTATION = {A.TUPLE: "Tuple", A.LIST: "List", A.STRING: "String", A.NONE: "TypeNone"}
_SCALAR_DENOTATION = {code_of(mstype.bool_): "Bool", code_of(mstype.int64): "Int", code_of(mstype.float32): "Float"}


def _dims(shape):
    return [d if isinstance(d, (int, np.integer)) else -1 for d in shape]


# --- the graph --------------------------------------------------------------------------------------------------
class _Ctx:
    """What a :class:`~.to_ms.Prim` fix may ask about the node being written."""

    def __init__(self, writer, node):
        self.writer = writer
        self.node = node

    def input_shape(self, index):
        return self.writer.captured.shape(self.node.inputs[index])

    def tuple_len(self, index):
        x = self.node.inputs[index]
        if isinstance(x, Constant):
            return len(x.value)
        return len(x.abstract.elements)

    def conv_pad_list(self, backprop=False):
        """(top, bottom, left, right) of a convolution: of its input ``x``, or for the gradient ops of the
        ``input_size`` they are given (the forward convolution's input)."""
        prim = self.node.inputs[0].value
        if prim.attrs.get("pad_list") is not None:
            return tuple(prim.attrs["pad_list"])
        if backprop:
            shape, concrete = self.writer.captured.arg(self.node, 3), self.node.inputs[3].value
        else:
            shape, concrete = self.input_shape(1), self.node.inputs[1].abstract.shape
        mode = str(prim.attrs.get("pad_mode", "valid")).lower()
        strides = prim.attrs.get("stride", (1, 1, 1, 1))[2:]
        if not all(isinstance(d, int) for d in shape[2:]) and mode == "same" and any(s != 1 for s in strides):
            raise self.writer.error(self.node, "its 'same' padding depends on an unknown spatial dimension")
        win = prim.window_for(tuple(concrete))
        out = []
        for b, a in zip(win.before, win.after):
            out += [int(b), int(a)]
        return tuple(out)


class _Writer:
    """Builds the ``ModelProto`` of one :class:`Captured`, node by node, in program order."""

    def __init__(self, captured):
        self.captured = captured
        self.model = pb.ModelProto()
        self.graph = self.model.graph
        self.gname = f"1_1_{captured.name}_1"
        self.uid = 0
        self.n_const = 0
        self.names = {}         # id(IR node) -> value name
        self.shapes = {}        # value name -> its "shape" AttributeProto
        self.consts = {}        # serialised value attribute -> constant name
        self.prims = {}         # (MindSpore name, kind, serialised attributes) -> primitive entry name
        self.loads = []         # load names, in first-use order
        self.load_of = {}       # id(weight node) -> load name
        self.weights = {id(w.node): w for w in captured.weights}
        self.domains = {}       # op name -> count, for the scope string
        self.scalars = {}       # cache of shape computations (symbol / input index -> name)

    # names and counters
    def _next(self):
        self.uid += 1
        return self.uid

    def error(self, node, why):
        return MSValueError(f"For 'export', the MindIR file can not express {_describe(node)}: {why}.")

    # the model ---------------------------------------------------------------------------------------------
    def build(self):
        m = self.model
        m.ir_version = "1.1"
        m.producer_name = "MindSpore"
        m.model_version = "2.10.0"
        m.little_endian = True
        m.mind_ir_version = 3
        g = self.graph
        g.name = self.gname
        for inp in self.captured.inputs:
            name = f"{self.gname}:{inp.name}"
            self.names[id(inp.node)] = name
            vi = g.input.add()
            vi.name = name
            t = vi.tensor.add()
            t.dims.extend(_dims(inp.shape))
            t.data_type = code_of(inp.dtype)
            self.shapes[name] = _tensor_shape_attr(A(name="shape"), inp.shape, inp.dtype)
        for w in self.captured.weights:
            t = g.parameter.add()
            t.name = f"{self.gname}:{w.name}"
            fill_tensor_proto(t, w.parameter.asnumpy(), w.parameter.dtype)
            t.ref_key = w.name
            t.compression_type = 0
        result = self.captured.graph.output
        for node in self.captured.graph.nodes:
            if node is not result:      # the graph's tuple of output leaves: rebuilt by _outputs as the user's
                self._apply(node)
        out = self._outputs(self.captured.out_tree, iter(self.captured.outputs))
        out = self._side_effects(out)
        vi = g.output.add()
        vi.name = out
        shape = self.shapes[out]
        if shape.type in _DENOTATION or shape.type == A.SCALAR:
            vi.denotation = _DENOTATION.get(shape.type) or _SCALAR_DENOTATION[shape.tensors[0].data_type]
            vi.attr_info.CopyFrom(shape)
            vi.attr_info.ClearField("name")
        else:
            vi.tensor.add().CopyFrom(shape.tensors[0])
        g.bprop_hash = ""
        for key, value in (("has_shard", False), ("phase", "export"), ("training", self.captured.training)):
            _set_value(g.attribute.add(name=key), value)
        g.bprop_filepath = ""
        return m

    # nodes ------------------------------------------------------------------------------------------------
    def _primitive(self, ms_name, kind, attrs, what):
        entry = pb.PrimitiveProto(op_type=ms_name, instance_name="")
        entry.prim_type = pb.PrimitiveProto.PRIMITIVE if kind == "PRIMITIVE" else \
            pb.PrimitiveProto.PRIMITIVE_FUNCTION
        for k, v in (attrs or {}).items():
            _set_value(entry.attribute.add(name=k), v, what=f"the attribute '{k}' of {what}")
        key = (ms_name, kind, entry.SerializeToString(deterministic=True))
        name = self.prims.get(key)
        if name is None:
            name = f"{ms_name}:{self._next()}"
            entry.name = name
            self.model.primitives.append(entry)
            self.prims[key] = name
        return name

    def _cnode(self, ms_name, kind, inputs, shape, attrs=None, what=None):
        """Append a node calling ``ms_name`` on the value names ``inputs``; returns its name."""
        uid = self._next()
        prim = self._primitive(ms_name, kind, attrs, what or f"'{ms_name}'")
        name = f"{self.gname}:CNode_{uid}:{uid}"
        n = self.graph.node.add()
        n.input.extend(inputs)
        n.output.append(name)
        n.name = name
        n.op_type = f"REF::{prim}"
        n.attribute.add().CopyFrom(shape)
        k = self.domains.get(ms_name, 0)
        self.domains[ms_name] = k + 1
        n.domain = f"Default/{ms_name}-op{k}"
        flag = n.node_attr.add(name="checkpoint", type=A.BOOL)
        flag.i = 1
        self.shapes[name] = shape
        return name

    def _constant(self, attr, shape=None):
        key = attr.SerializeToString(deterministic=True)
        name = self.consts.get(key)
        if name is None:
            self.n_const += 1
            name = f"ValueNode_{self.n_const}"
            n = self.graph.node.add()
            n.output.append(name)
            n.name = name
            n.op_type = "Constant"
            n.attribute.add().CopyFrom(attr)
            self.consts[key] = name
        if shape is not None and name not in self.shapes:
            self.shapes[name] = shape
        return name

    def _umonad(self):
        return self._constant(A(name="value", type=_UMONAD))

    def _value(self, v, what, tensor_dtype=None):
        """The name of a node holding the Python value ``v`` (``Sym``s computed from the input shapes)."""
        if isinstance(v, SymFill):
            return self._fill(v, what)
        if _has_sym(v):
            if isinstance(v, Sym):
                return self._sym(v)
            return self._dyn_tuple(v, what)
        if tensor_dtype is not None and _scalar_type(v) is not None and not isinstance(v, str):
            v = Tensor(np.asarray(v, dtype=mstype.to_ms_dtype(tensor_dtype).to_numpy()), tensor_dtype)
        if isinstance(v, (tuple, list)) and any(isinstance(e, Tensor) for e in v):
            parts = [self._value(e, what) for e in v]
            return self._cnode("MakeTuple", "PRIMITIVE", parts, _tuple_attr(A(name="shape"),
                                                                            [self.shapes[p] for p in parts]))
        attr = _set_value(A(name="value"), v, what=what)
        shape = None
        if isinstance(v, Tensor):
            shape = _tensor_shape_attr(A(name="shape"), v.shape, v.dtype)
        return self._constant(attr, shape)

    def _ref(self, node, index, tensor_dtype=None):
        """The value name of input ``index`` of apply ``node``."""
        x = node.inputs[index]
        if isinstance(x, Apply):
            return self.names[id(x)]
        if isinstance(x, Parameter):
            if id(x) in self.weights:
                return self._load(x)
            return self.names[id(x)]
        v = self.captured.arg(node, index)
        return self._value(v, f"input {index} of {_describe(node)}", tensor_dtype)

    def _load(self, x):
        name = self.load_of.get(id(x))
        if name is None:
            w = self.weights[id(x)]
            shape = _tensor_shape_attr(A(name="shape"), w.parameter.shape, w.parameter.dtype)
            name = self._cnode("Load", "PRIMITIVE", [f"{self.gname}:{w.name}", self._umonad()], shape)
            self.load_of[id(x)] = name
            self.loads.append(name)
        return name

    def _node_shape(self, node):
        return _abstract_attr(A(name="shape"), node.abstract, self.captured.shape(node))

    def _apply(self, node):
        f = node.inputs[0]
        fn = f.value if isinstance(f, Constant) else None
        if fn is irops.tuple_getitem:
            inputs = [self._ref(node, 1), self._value(int(node.inputs[2].value), "an index")]
            self.names[id(node)] = self._cnode("TupleGetItem", "PRIMITIVE", inputs, self._node_shape(node))
            return
        if fn is irops.make_tuple:
            inputs = [self._ref(node, i) for i in range(1, len(node.inputs))]
            self.names[id(node)] = self._cnode("MakeTuple", "PRIMITIVE", inputs, self._node_shape(node))
            return
        spec = to_ms.spec_of(fn) if fn is not None and hasattr(fn, "attrs") else None
        if spec is None:
            what = "control flow on tensor values" if fn in (irops.If, irops.While) else \
                "it has no MindIR form in this implementation"
            raise self.error(node, what)
        ms_name = spec.ms_name or fn.name
        attrs = {k: self.captured.attr(node, k) for k in fn.attrs}
        if spec.kind == "PRIMITIVE_FUNCTION":
            inputs = self._fn_inputs(node, fn, spec, attrs)
            name = self._cnode(ms_name, spec.kind, inputs, self._node_shape(node), attrs if spec.attrs else None,
                               _describe(node))
        else:
            n = len(node.inputs) - 1 if spec.arity is None else spec.arity(attrs)
            inputs = [self._prim_input(node, spec, i) for i in range(1, n + 1)]
            ms_attrs = spec.attributes(fn.name, attrs, _Ctx(self, node))
            name = self._cnode(ms_name, spec.kind, inputs, self._node_shape(node), ms_attrs, _describe(node))
        self.names[id(node)] = name

    def _prim_input(self, node, spec, i):
        if i in spec.tensors and isinstance(node.inputs[i], Constant):
            v = self.captured.arg(node, i)
            if _scalar_type(v) is not None and not isinstance(v, str):
                return self._ref(node, i, _scalar_dtype(node, v))
        return self._ref(node, i)

    def _fn_inputs(self, node, fn, spec, attrs):
        inputs = []
        for i in range(1, len(node.inputs)):
            x = node.inputs[i]
            if isinstance(x, Constant) and (i in spec.inputs or spec.is_tensor_input(i)):
                v = self.captured.arg(node, i)
                if i in spec.inputs:
                    inputs.append(self._value(spec.convert_input(fn.name, i, v), f"input {i} of {_describe(node)}"))
                    continue
                dtype = _scalar_dtype(node, v) if _scalar_type(v) is not None else None
                inputs.append(self._value(v, f"input {i} of {_describe(node)}", dtype))
            elif fn.name == "Reshape" and i == 2 and isinstance(x, Constant):
                inputs.append(self._value(_reshape_target(self.captured.arg(node, i)), "the Reshape target"))
            else:
                inputs.append(self._ref(node, i))
        if spec.same_dtype:
            inputs = self._promote_tensor_inputs(node, inputs)
        if spec.fix is not None:
            attrs = spec.fix(fn.name, dict(attrs), _Ctx(self, node))
        for k, v in enumerate(spec.trailing(fn.name, attrs)):
            inputs.append(self._value(v, f"argument {len(node.inputs) + k} of {_describe(node)}"))
        return inputs

    def _promote_tensor_inputs(self, node, inputs):
        """MindSpore's implicit cast: tensor inputs of different dtypes are cast to the promoted dtype first."""
        dtypes = {}
        for i in range(1, len(node.inputs)):
            x = node.inputs[i]
            if isinstance(x, Constant):
                v = self.captured.arg(node, i)
                if isinstance(v, Tensor):
                    dtypes[i] = (v.dtype, v.shape)
            elif isinstance(getattr(x, "abstract", None), AbstractTensor):
                dtypes[i] = (x.abstract.dtype, self.captured.shape(x) if isinstance(x, Apply) else x.abstract.shape)
        if len({d for d, _ in dtypes.values()}) < 2:
            return inputs
        target = None
        for d, _ in dtypes.values():
            target = d if target is None else mstype.promote_types(target, d)
        out = list(inputs)
        for i, (d, shape) in dtypes.items():
            if d != target:
                dtype_arg = self._value(to_ms.type_id("Cast", target), "a Cast dtype")
                out[i - 1] = self._cnode("Cast", "PRIMITIVE_FUNCTION", [inputs[i - 1], dtype_arg],
                                         _tensor_shape_attr(A(name="shape"), shape, target), None, "'Cast'")
        return out

    # dynamic dimensions ------------------------------------------------------------------------------------
    def _symbol(self, s):
        """The scalar node of unknown size ``s``: ``TupleGetItem(Shape(x), axis)`` of an input having it."""
        hit = self.scalars.get(s)
        if hit is not None:
            return hit
        for k, inp in enumerate(self.captured.inputs):
            for axis, d in enumerate(inp.shape):
                if isinstance(d, Sym) and d == Sym.symbol(s):
                    shape_name = self.scalars.get(("shape", k))
                    if shape_name is None:
                        parts = [_scalar_shape_attr(A()) for _ in inp.shape]
                        shape_name = self._cnode("Shape", "PRIMITIVE_FUNCTION", [self.names[id(inp.node)]],
                                                 _tuple_attr(A(name="shape"), parts))
                        self.scalars[("shape", k)] = shape_name
                    name = self._cnode("TupleGetItem", "PRIMITIVE", [shape_name, self._value(axis, "an index")],
                                       _scalar_shape_attr(A(name="shape")))
                    self.scalars[s] = name
                    return name
        raise MSRuntimeError(f"For 'export', the unknown size '{s}' is the size of no input dimension.")

    def _sym(self, sym):
        hit = self.scalars.get(sym)
        if hit is not None:
            return hit
        total = None
        for key, coef in sym.terms.items():
            if not key:
                continue
            term = None
            for s in key:
                x = self._symbol(s)
                term = x if term is None else self._scalar_op("ScalarMul", term, x)
            if coef != 1:
                term = self._scalar_op("ScalarMul", term, self._value(int(coef), "a size"))
            total = term if total is None else self._scalar_op("ScalarAdd", total, term)
        const = sym.terms.get((), 0)
        if total is None:
            return self._value(int(const), "a size")
        if const:
            total = self._scalar_op("ScalarAdd", total, self._value(int(const), "a size"))
        self.scalars[sym] = total
        return total

    def _scalar_op(self, op, a, b):
        return self._cnode(op, "PRIMITIVE_FUNCTION", [a, b], _scalar_shape_attr(A(name="shape")))

    def _dyn_tuple(self, v, what):
        hit = self.scalars.get(("tuple", v))
        if hit is not None:
            return hit
        parts, shapes = [], []
        for e in v:
            if isinstance(e, Sym):
                parts.append(self._sym(e))
                shapes.append(_scalar_shape_attr(A()))
            elif isinstance(e, (int, np.integer)) and not isinstance(e, bool):
                parts.append(self._value(int(e), what))
                shapes.append(_scalar_shape_attr(A()))
            else:
                raise MSValueError(f"For 'export', {what} mixes unknown sizes with {e!r}, which MindIR can not "
                                   "express.")
        name = self._cnode("MakeTuple", "PRIMITIVE", parts, _tuple_attr(A(name="shape"), shapes))
        self.scalars[("tuple", v)] = name
        return name

    def _fill(self, v, what):
        """A constant filled tensor of a shape with unknown sizes: ``BroadcastTo(value, shape)``."""
        hit = self.scalars.get(("fill", v))
        if hit is not None:
            return hit
        scalar = Tensor(np.asarray(v.value, dtype=mstype.to_ms_dtype(v.dtype).to_numpy()), v.dtype)
        shape = self._value(tuple(v.shape), what)
        name = self._cnode("BroadcastTo", "PRIMITIVE_FUNCTION", [self._value(scalar, what), shape],
                           _tensor_shape_attr(A(name="shape"), v.shape, v.dtype))
        self.scalars[("fill", v)] = name
        return name

    # outputs and side effects ------------------------------------------------------------------------------
    def _outputs(self, tree, leaves):
        if tree is None:
            node = next(leaves)
            if isinstance(node, Constant):   # a constant output (a Tensor, a number...): a Constant node, as 2.10
                name = self._value(node.value, "an output of the network")
                if name not in self.shapes:
                    self.shapes[name] = _const_shape_attr(A(name="shape"), node.value)
                return name
            return self.names[id(node)] if id(node) in self.names else self._ref_output(node)
        if tree[0] is dict:
            raise MSValueError("For 'export', a network whose output is a dict can not be written to MindIR: return "
                               "a tuple instead.")
        if tree[1] and all(t is None for t in tree[1]):
            nodes = [next(leaves) for _ in tree[1]]
            if all(isinstance(n, Constant) for n in nodes):   # a tuple of constants: one Constant, as 2.10
                value = (list if tree[0] is list else tuple)(n.value for n in nodes)
                return self._constant(_set_value(A(name="value"), value),
                                      _const_shape_attr(A(name="shape"), value))
            leaves = iter(nodes)
        parts = [self._outputs(t, leaves) for t in tree[1]]
        shape = _tuple_attr(A(name="shape"), [self.shapes[p] for p in parts])
        if tree[0] is list:     # a list output: 2.10's make_list, which loads back as a list
            shape.type = A.LIST
            return self._cnode("make_list", "PRIMITIVE", parts, shape)
        return self._cnode("MakeTuple", "PRIMITIVE", parts, shape)

    def _ref_output(self, node):
        raise MSRuntimeError(f"For 'export', the output node {node!r} was not written.")

    def _side_effects(self, out):
        if not self.loads:
            return out
        if len(self.loads) == 1:
            gathered = self.loads[0]
        else:
            gathered = self._cnode("MakeTuple", "PRIMITIVE", list(self.loads),
                                   _tuple_attr(A(name="shape"), [self.shapes[x] for x in self.loads]))
        state = self._cnode("UpdateState", "PRIMITIVE", [self._umonad(), gathered], A(name="shape", type=_UMONAD))
        return self._cnode("Depend", "PRIMITIVE", [out, state], self.shapes[out],
                           attrs={"side_effect_propagate": 1})


def _name(node):
    f = node.inputs[0]
    fn = f.value if isinstance(f, Constant) else f
    return getattr(fn, "name", None) or repr(fn)


def _describe(node):
    """``'Pad' (at net.py:12: <the source line>)``: a node as errors name it, with the user's source line."""
    where = f" (at {node.loc.short()}: {node.loc.source_line().strip()})" if node.loc is not None else ""
    return f"'{_name(node)}'{where}"


def _has_sym(v):
    if isinstance(v, Sym):
        return True
    if isinstance(v, (tuple, list)):
        return any(_has_sym(e) for e in v)
    return False


def _reshape_target(v):
    """MindSpore writes a Reshape target whose only unknown entry is one size as that entry -1."""
    if isinstance(v, tuple) and not any(isinstance(e, int) and e == -1 for e in v):
        unknown = [i for i, e in enumerate(v) if isinstance(e, Sym)]
        if len(unknown) == 1:
            return tuple(-1 if i == unknown[0] else e for i, e in enumerate(v))
    return v


def _scalar_dtype(node, v):
    """The dtype a Python scalar operand takes as a 0-d tensor: the other tensor's (MindSpore's scalar rule)."""
    t = None
    for x in node.inputs[1:]:
        a = getattr(x, "abstract", None)
        if isinstance(a, AbstractTensor) and a.dtype != mstype.bool_:
            t = a.dtype
            break
    if isinstance(v, (bool, np.bool_)):
        return t or mstype.bool_
    if isinstance(v, (float, np.floating)):
        return t if t is not None and (mstype.is_float(t) or mstype.is_complex(t)) else mstype.float32
    return t or mstype.int64


def _abstract_attr(attr, abstract, shape):
    if isinstance(abstract, AbstractTensor):
        return _tensor_shape_attr(attr, shape if shape is not None else abstract.shape, abstract.dtype)
    if isinstance(abstract, AbstractTuple):
        shapes = shape if isinstance(shape, tuple) and len(shape) == len(abstract.elements) else \
            [None] * len(abstract.elements)
        return _tuple_attr(attr, [_abstract_attr(A(), a, s) for a, s in zip(abstract.elements, shapes)])
    if isinstance(abstract, (bool, int, float)):
        return _scalar_shape_attr(attr, 7 if isinstance(abstract, int) and not isinstance(abstract, bool) else 1)
    raise MSRuntimeError(f"For 'export', a node's value {abstract!r} has no MindIR abstract form.")


def build_model(captured):
    """The ``ModelProto`` of ``captured`` (weights in ``raw_data``), as MindSpore 2.10 writes it."""
    return _Writer(captured).build()


# --- files ------------------------------------------------------------------------------------------------------
def _check_dataset(dataset):
    """MindSpore records a dataset's ``map`` operations as the model's ``preprocessor``; ours can not be
    described in MindSpore's form, so a pipeline with operations is refused rather than silently dropped."""
    seen, todo = set(), [dataset]
    while todo:
        ds = todo.pop()
        if id(ds) in seen:
            continue
        seen.add(id(ds))
        if type(ds).__name__ == "MapDataset":
            raise MSValueError("For 'export', exporting the preprocessing of a dataset into MindIR (its 'map' "
                               "operations) is not supported: export the network with a Tensor input, or with a "
                               "dataset that has no 'map' operations.")
        todo.extend(getattr(ds, "children", []) or [])


def _encrypt(data, key, mode):
    if callable(mode):
        out = mode(data, key)
        if not isinstance(out, (bytes, bytearray)):
            raise MSTypeError(f"For 'export', the encryption function must return bytes, but got "
                              f"{type(out).__name__}.")
        return bytes(out)
    from mindspore._fileio import crypto as _ckpt_crypto
    buf = io.BytesIO()
    enc = _ckpt_crypto.Encryptor(buf, key, mode)
    enc.write(data)
    enc.close()
    return buf.getvalue()


def _weights_total_kb(model):
    return sum((len(p.raw_data) + sys.getsizeof(b"")) / 1024 for p in model.graph.parameter)


class _DataFiles:
    """The external data files of a split save: ``data_0``, ``data_1``... of a folder, each opened with a 64-byte
    header (byte 0 is 1 on a little-endian machine) and closed read-only."""

    def __init__(self, folder, encrypt):
        self.folder, self.encrypt = folder, encrypt
        self.index, self.f = -1, None

    def next(self):
        self.close()
        self.index += 1
        self.f = open(os.path.join(self.folder, f"data_{self.index}"), "wb")
        self.f.write(self.encrypt(bytes(_HEADER)))     # a placeholder, as MindSpore writes it
        return _HEADER

    def write(self, data):
        self.f.write(self.encrypt(data))

    def close(self):
        if self.f is not None:
            self.f.seek(0)
            self.f.write(self.encrypt((b"\x01" if sys.byteorder == "little" else b"\x00") + bytes(_HEADER - 1)))
            self.f.close()
            os.chmod(self.f.name, 0o400)
            self.f = None


def _split(model, graph_path, dirname, prefix, encrypt):
    """MindSpore's ``_split_save``: the weights, in name order and 64-byte aligned, into
    ``<prefix>_variables/data_<k>``, each weight's ``external_data`` pointing at its bytes."""
    from mindspore._fileio.atomic import atomic_write as _atomic_write
    var_dir = os.path.join(dirname, prefix + "_variables")
    tmp_dir = os.path.join(dirname, f".{prefix}_variables.{os.getpid()}.tmp")
    shutil.rmtree(tmp_dir, ignore_errors=True)
    os.makedirs(tmp_dir, mode=0o700)
    files = _DataFiles(tmp_dir, encrypt)
    try:
        offset = files.next()
        size_kb = _HEADER / 1024
        for p in sorted(model.graph.parameter, key=lambda p: p.name[p.name.find(":") + 1:]):
            data = p.raw_data
            pad = (-len(data)) % _ALIGN
            if pad:     # MindSpore counts an aligned weight's size only when it needed padding
                size_kb += (pad + len(data)) / 1024
            if size_kb > PARAMETER_SPLIT_KB:
                offset = files.next()
                size_kb = _HEADER / 1024 + (pad + len(data)) / 1024
            p.external_data.location = os.path.join(prefix + "_variables", f"data_{files.index}")
            p.external_data.length = len(data)
            p.external_data.offset = offset
            files.write(data + bytes(pad))
            offset += len(data) + pad
            p.ClearField("raw_data")
        files.close()
        payload = encrypt(model.SerializeToString(deterministic=True))
        if os.path.isdir(var_dir):
            shutil.rmtree(var_dir)
        os.replace(tmp_dir, var_dir)
    except BaseException:
        if files.f is not None:
            files.f.close()
        shutil.rmtree(tmp_dir, ignore_errors=True)
        raise
    _atomic_write(graph_path, lambda fh: fh.write(payload))


def save(captured, path, enc_key=None, enc_mode="AES-GCM", custom_func=None, dataset=None):
    """Write ``captured`` to the MindIR file ``path`` (``.mindir``), as MindSpore 2.10's ``export`` does."""
    from mindspore._fileio.atomic import atomic_write as _atomic_write
    if dataset is not None:
        _check_dataset(dataset)
    model = build_model(captured)
    if custom_func is not None:
        custom_func(model)
    if enc_key is None:
        def encrypt(data):
            return data
    else:
        def encrypt(data):
            return _encrypt(data, enc_key, enc_mode)
    dirname = os.path.dirname(os.path.realpath(path))
    os.makedirs(dirname, mode=0o700, exist_ok=True)
    if _weights_total_kb(model) <= TOTAL_SAVE_KB:
        payload = encrypt(model.SerializeToString(deterministic=True))
        _atomic_write(path, lambda f: f.write(payload))
        return path
    prefix = os.path.basename(path)
    if prefix.endswith(".mindir"):
        prefix = prefix[:-len(".mindir")]
    graph_path = os.path.join(dirname, prefix + "_graph.mindir")
    _split(model, graph_path, dirname, prefix, encrypt)
    return graph_path
