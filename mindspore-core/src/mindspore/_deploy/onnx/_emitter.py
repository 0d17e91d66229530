"""The state of one ONNX conversion: names, constants, dtypes, symbolic sizes, and the walk over the graph.

An :class:`Emitter` turns a :class:`~mindspore._deploy.capture.Captured` into lists of ONNX nodes and
initializers. It walks the graph's applies in program order and asks the converter table (built from an
explicit list of family modules, ``_ops_math``, ``_ops_nn``, ``_ops_array``, ``_rnn``) for each primitive;
a converter ``fn(em, node)`` emits ONNX nodes through :meth:`Emitter.op` and returns the ONNX name of the
node's value (a list of names, or of :class:`NoForm` markers, for a tuple value).

Invariants: every ONNX tensor name is unique; an IR node is converted once (a converter that fuses a
following node, Conv2D + BiasAdd -> Conv, records that node's value, and the walk skips it); a value
that depends on unknown sizes (a :class:`~mindspore._deploy.capture.Sym`) is computed in the graph from
the inputs' ``Shape``, once per distinct expression.
"""
from __future__ import annotations

import re

import numpy as np

from mindspore._errors import InternalError, MSValueError
from mindspore._deploy.capture import Sym, SymFill
from mindspore._ir import ops as irops
from mindspore._ir.nodes import Apply, Constant, Parameter
from mindspore.common.tensor import Tensor

OPSET = 17
INT64_MAX = 2 ** 63 - 1
INT64_MIN = -2 ** 63


def onnx_module():
    """``onnx``, or a clear error saying how to install it."""
    try:
        import onnx
    except ImportError as exc:
        raise ImportError("For 'export', the ONNX format needs the 'onnx' package, which is not installed: run "
                          "'pip install onnx' (or 'pip install mindspore-core[onnx]').") from exc
    return onnx


class NoForm:
    """An output of a multi-output primitive that the ONNX form does not give (BatchNorm's saved statistics):
    reading it is an error naming ``what``."""

    __slots__ = ("what",)

    def __init__(self, what):
        self.what = what


def where(node):
    loc = getattr(node, "loc", None)
    return f" (at {loc.short()})" if loc is not None else ""


def prim_of(node):
    f = node.inputs[0]
    return f.value if isinstance(f, Constant) else None


def no_form(node, why=""):
    """The error for a primitive (or a use of it) that has no ONNX form."""
    name = getattr(prim_of(node), "name", type(prim_of(node)).__name__)
    return MSValueError(f"For 'export', the primitive '{name}'{where(node)} has no ONNX form{why}. Export the "
                        "network without it, or compute it outside the exported network.")


def np_dtype(ms_dtype):
    d = ms_dtype.to_numpy() if hasattr(ms_dtype, "to_numpy") else ms_dtype
    if d is None:
        raise MSValueError(f"For 'export', the dtype {ms_dtype} has no ONNX tensor type.")
    return np.dtype(d)


def onnx_dtype(dtype):
    """The ONNX element type of a MindSpore or NumPy dtype."""
    from onnx import helper
    d = np_dtype(dtype)
    try:
        return helper.np_dtype_to_tensor_dtype(d)
    except (KeyError, ValueError, TypeError) as exc:
        raise MSValueError(f"For 'export', the dtype {dtype} has no ONNX tensor type.") from exc


def _sanitize(text):
    return re.sub(r"[^A-Za-z0-9_.:/-]", "_", str(text)) or "t"


def _users(graph):
    """id(node) -> the applies that use it (each once)."""
    users = {}
    for node in graph.nodes:
        seen = set()
        for x in node.inputs[1:]:
            if id(x) not in seen:
                seen.add(id(x))
                users.setdefault(id(x), []).append(node)
    return users


class Emitter:
    """One conversion. ``weights_as_inputs``: weights are graph inputs (``export_params=False``) or also
    listed as inputs (``keep_initializers_as_inputs``), so they must stay whole, never folded into others."""

    def __init__(self, captured, converters, export_params=True, weights_as_inputs=False):
        self.onnx = onnx_module()
        self.cap = captured
        self.converters = converters
        self.export_params = export_params
        self.weights_as_inputs = weights_as_inputs
        self.nodes = []
        self.initializers = []
        self.weight_inputs = []        # ValueInfoProto of weights that are graph inputs
        self.weight_names = []         # initializers that are weights (listed as inputs when asked)
        self.vals = {}
        self.users = _users(captured.graph)
        self.outputs = {id(n) for n in captured.outputs}
        self._names = set()
        self._next = {}
        self._consts = {}
        self._syms = {}
        self._dims = {}
        self._current = None
        self._weights = {id(w.node): w for w in captured.weights}
        for w in captured.weights:
            self.reserve(w.name)

    # --- names and nodes ---------------------------------------------------------------------------------
    def fresh(self, base):
        """A new tensor or node name: ``base``, else ``base_1``, ``base_2`` ..."""
        base = _sanitize(base)
        name, k = base, self._next.get(base, 0)
        while name in self._names:
            k += 1
            name = f"{base}_{k}"
        self._next[base] = k
        self._names.add(name)
        return name

    def reserve(self, name):
        if name in self._names:
            raise MSValueError(f"For 'export', the name '{name}' is used twice among the inputs, outputs and "
                               "weights of the ONNX model; every name must be unique.")
        self._names.add(name)
        return name

    def op(self, op_type, inputs, outputs=1, name=None, **attrs):
        """Append an ONNX node; returns its output name (or the list of names when ``outputs`` > 1 or a list)."""
        base = name or self._hint(op_type)
        if isinstance(outputs, int):
            outs = [self.fresh(base if outputs == 1 else f"{base}_out{i}") for i in range(outputs)]
        else:
            outs = list(outputs)
        node = self.onnx.helper.make_node(op_type, list(inputs), outs, name=self.fresh(f"{base}_node"),
                                          **{k: v for k, v in attrs.items() if v is not None})
        if self._current is not None and self._current.loc is not None:
            node.doc_string = self._current.loc.short()   # the user's file:line, not their directories
        self.nodes.append(node)
        return outs[0] if isinstance(outputs, int) and outputs == 1 else outs

    def _hint(self, op_type):
        cur = self._current
        prim = prim_of(cur) if cur is not None else None
        label = getattr(prim, "name", None) or op_type
        return f"{label}_{op_type}" if label != op_type else op_type

    # --- constants ---------------------------------------------------------------------------------------
    def const(self, array, hint="const"):
        """An initializer holding ``array`` (small ones shared)."""
        array = np.asarray(array)
        key = None
        if array.size <= 16:
            key = (array.dtype.str, array.shape, array.tobytes())
            hit = self._consts.get(key)
            if hit is not None:
                return hit
        name = self.fresh(hint)
        self.initializers.append(self.onnx.numpy_helper.from_array(np.ascontiguousarray(array), name))
        if key is not None:
            self._consts[key] = name
        return name

    def ints(self, values):
        return self.const(np.asarray(list(values), dtype=np.int64).reshape(-1), "ints")

    def scalar(self, value, dtype):
        return self.const(np.asarray(value, dtype=np_dtype(dtype)), "scalar")

    # --- symbolic sizes ----------------------------------------------------------------------------------
    def _symbol_dim(self, name):
        """int64 [1]: the size of unknown dimension ``name``, read from the input it is a dimension of."""
        hit = self._dims.get(name)
        if hit is not None:
            return hit
        target = Sym.symbol(name)
        for inp in self.cap.inputs:
            for axis, d in enumerate(inp.shape):
                if isinstance(d, Sym) and d == target:
                    out = self.op("Shape", [self.value(inp.node)], name=f"{name}_size", start=axis, end=axis + 1)
                    self._dims[name] = out
                    return out
        raise InternalError(f"the unknown size '{name}' is not a dimension of any input")

    def sym(self, value):
        """int64 [1] computing ``value`` (an int or a :class:`Sym`)."""
        if not isinstance(value, Sym):
            return self.ints([int(value)])
        hit = self._syms.get(value)
        if hit is not None:
            return hit
        total = None
        for key, coef in value.terms.items():
            if not key:
                term = self.ints([coef])
            else:
                term = None
                for s in key:
                    d = self._symbol_dim(s)
                    term = d if term is None else self.op("Mul", [term, d])
                if coef != 1:
                    term = self.op("Mul", [term, self.ints([coef])])
            total = term if total is None else self.op("Add", [total, term])
        total = total if total is not None else self.ints([0])
        self._syms[value] = total
        return total

    def int_tensor(self, values):
        """int64 1-D tensor of ``values`` (ints and :class:`Sym`): a constant when all are known."""
        values = list(values)
        if all(not isinstance(v, Sym) for v in values):
            return self.ints(values)
        key = tuple(values)
        hit = self._syms.get(key)
        if hit is not None:
            return hit
        parts, run = [], []
        for v in values:
            if isinstance(v, Sym):
                if run:
                    parts.append(self.ints(run))
                    run = []
                parts.append(self.sym(v))
            else:
                run.append(int(v))
        if run:
            parts.append(self.ints(run))
        self._syms[key] = self.op("Concat", parts, axis=0)
        return self._syms[key]

    def shape_tensor(self, node):
        """int64 1-D shape of IR node ``node``'s value: a constant when static, else ``Shape`` of it."""
        shape = self.shape(node)
        if all(isinstance(d, int) for d in shape):
            return self.ints(shape)
        return self.op("Shape", [self.value(node)])

    def fill(self, value, dtype, shape_name):
        """A tensor of ``shape_name`` (int64 1-D) filled with ``value``."""
        t = self.onnx.numpy_helper.from_array(np.asarray([value], dtype=np_dtype(dtype)), "value")
        return self.op("ConstantOfShape", [shape_name], value=t)

    # --- values ------------------------------------------------------------------------------------------
    def value(self, node):
        """The ONNX name of IR node ``node``'s value (a list for a tuple value)."""
        hit = self.vals.get(id(node))
        if hit is not None:
            return hit
        if isinstance(node, Parameter) and id(node) in self._weights:
            return self._weight(self._weights[id(node)])
        if isinstance(node, Constant):
            return self._constant(node.value, None)
        raise InternalError(f"the ONNX exporter reached {node!r} before converting it")

    def _weight(self, w):
        array = w.parameter.asnumpy() if hasattr(w.parameter, "asnumpy") else np.asarray(w.parameter)
        name = w.name
        if self.export_params:
            self.initializers.append(self.onnx.numpy_helper.from_array(np.ascontiguousarray(array), name))
            self.weight_names.append(name)
        else:
            self.weight_inputs.append(self.onnx.helper.make_tensor_value_info(
                name, onnx_dtype(array.dtype), list(array.shape)))
        self.vals[id(w.node)] = name
        return name

    def weight_array(self, node):
        """The value of a weight (or constant) as NumPy when it may be folded into a new constant, else None."""
        if isinstance(node, Constant) and isinstance(node.value, Tensor):
            return node.value.asnumpy()
        w = self._weights.get(id(node))
        if w is None or self.weights_as_inputs or not self.export_params:
            return None
        return w.parameter.asnumpy()

    def _constant(self, v, dtype):
        if isinstance(v, SymFill):
            key = ("fill", v, str(dtype or v.dtype))
            if key not in self._syms:
                self._syms[key] = self.fill(v.value, dtype or v.dtype, self.int_tensor(v.shape))
            return self._syms[key]
        if isinstance(v, Sym):    # a size used as a number (x * x.shape[0])
            t = self.op("Reshape", [self.sym(v), self.ints([])])
            return t if dtype is None or np_dtype(dtype) == np.int64 else self.cast(t, dtype)
        if isinstance(v, Tensor):
            a = v.asnumpy()
            return self.const(a if dtype is None else a.astype(np_dtype(dtype)), "const")
        if isinstance(v, (bool, int, float, np.generic)):
            d = np_dtype(dtype) if dtype is not None else np.asarray(v).dtype
            if dtype is None and d == np.float64:
                d = np.dtype(np.float32)
            return self.const(np.asarray(v, dtype=d), "scalar")
        if isinstance(v, (tuple, list)) and all(isinstance(e, (int, Sym)) and not isinstance(e, bool) for e in v):
            return self.int_tensor(v)
        raise InternalError(f"the ONNX exporter cannot make a tensor of the constant {v!r}")

    def dtype(self, node, index):
        """The dtype (MindSpore's) of input ``index`` of ``node``, or None for a Python scalar."""
        x = node.inputs[index]
        if isinstance(x, Constant):
            v = self.cap.arg(node, index)
            if isinstance(v, SymFill):
                return v.dtype
            return v.dtype if isinstance(v, Tensor) else None
        return getattr(x.abstract, "dtype", None)

    def shape(self, node):
        """The shape of IR node ``node``'s value (:class:`Sym` for unknown sizes); a constant's too."""
        if isinstance(node, Constant):
            return tuple(node.value.shape) if isinstance(node.value, Tensor) else ()
        return self.cap.shape(node)

    def out_dtype(self, node):
        """The dtype of ``node``'s value (of its first element for a tuple)."""
        abstract = node.abstract
        elements = getattr(abstract, "elements", None)
        if elements:
            abstract = elements[0]
        return getattr(abstract, "dtype", None)

    def x(self, node, index, dtype=None):
        """Input ``index`` of ``node`` as an ONNX name, converted to ``dtype`` when given."""
        src = node.inputs[index]
        if isinstance(src, Constant):
            return self._constant(self.cap.arg(node, index), dtype)
        name = self.value(src)
        if isinstance(name, list):
            raise InternalError(f"input {index} of {node!r} is a tuple where a tensor was expected")
        have = getattr(src.abstract, "dtype", None)
        if dtype is not None and have is not None and np_dtype(have) != np_dtype(dtype):
            return self.op("Cast", [name], to=onnx_dtype(dtype))
        return name

    def cast(self, name, dtype):
        return self.op("Cast", [name], to=onnx_dtype(dtype))

    # --- the walk ----------------------------------------------------------------------------------------
    def users_of(self, node):
        return self.users.get(id(node), [])

    def only_user(self, node, prim_name):
        """The single apply of ``prim_name`` that uses ``node`` (which nothing else uses), or None."""
        if id(node) in self.outputs:
            return None
        users = self.users_of(node)
        if len(users) != 1 or getattr(prim_of(users[0]), "name", None) != prim_name:
            return None
        return users[0]

    def used_outputs(self, node):
        """Indices of a tuple-valued node's elements that are read (all of them if it is used whole)."""
        used = set()
        for u in self.users_of(node):
            if prim_of(u) is irops.tuple_getitem and u.inputs[1] is node and isinstance(u.inputs[2], Constant):
                used.add(int(u.inputs[2].value))
            else:
                return None
        return used

    def run(self):
        for node in self.cap.graph.nodes:
            if id(node) in self.vals:
                continue
            self._current = node
            self.vals[id(node)] = self._convert(node)
        self._current = None

    def _convert(self, node):
        fn = prim_of(node)
        if fn is irops.make_tuple:
            return [self.value(x) if not isinstance(x, Constant) else self.x(node, i + 1)
                    for i, x in enumerate(node.inputs[1:])]
        if fn is irops.tuple_getitem:
            items = self.value(node.inputs[1])
            item = items[int(node.inputs[2].value)]
            if isinstance(item, NoForm):
                src = node.inputs[1] if isinstance(node.inputs[1], Apply) else node
                raise no_form(src, f": its {item.what} is not an output of the ONNX form")
            return item
        if isinstance(fn, irops.Composite):
            conv = self.converters.get(("composite", fn.name))
            if conv is None:
                raise MSValueError(f"For 'export', the layer '{fn.name}'{where(node)} has no ONNX form.")
            return conv(self, node)
        name = getattr(fn, "name", None)
        conv = self.converters.get(name) if isinstance(name, str) else None
        if conv is None:
            if fn is None or not isinstance(name, str):
                raise MSValueError(f"For 'export', the call of {node.inputs[0]!r}{where(node)} has no ONNX form: "
                                   "the exported graph must be made of primitives.")
            raise no_form(node)
        return conv(self, node)
