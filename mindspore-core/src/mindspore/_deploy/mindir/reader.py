"""Reading a MindIR file (written by MindSpore 2.10 or by us) into a graph that runs on our primitives.

Algorithm
---------
:func:`load` reads the file, decrypts it when a ``dec_key`` is given (MindSpore encrypts MindIR with the
same block layout as checkpoints, so :mod:`mindspore._fileio.crypto` does it), parses the
``ModelProto`` and builds a :class:`MindIRGraph`. Building resolves every name once:

* graph inputs, weights (``graph.parameter``, one :class:`~mindspore.Parameter` each, named by ``ref_key``)
  and ``Constant`` nodes (their ``value`` attribute decoded to Python values, tensors or dtypes) get
  *slots*; every node gets the slot of its output;
* a node's ``op_type`` ``REF::<Prim>:<id>`` points at ``ModelProto.primitives``; the primitive's class
  name selects a rule of the table in :mod:`.from_ms`, whose Python signature is MindSpore's argument
  list (call inputs, then the ``__init__`` arguments). The node's inputs bind to it positionally (the
  new PRIMITIVE_FUNCTION style passes every argument so); what they leave unbound comes from the
  primitive's attributes by name (the old PRIMITIVE style), then from the rule's defaults. UMonad/IOMonad
  inputs (side-effect order, which a pure evaluation does not need) are dropped except where a rule
  takes them (``Load``, ``UpdateState``, ``Depend``, calls of sub-graphs);
* ``REF::<node>`` calls the value another node made (a ``Switch`` of ``Partial`` s), ``REF::<graph>`` or
  a graph name calls one of ``ModelProto.functions``.

Anything the table does not know, an input naming nothing defined before it, an argument count that
fits no signature: a clear error at load time, naming the primitive and the node. :meth:`MindIRGraph.run`
then evaluates the steps in order; each step calls a rule, and rules only call our primitives and
functional ops on tensors (plus Python arithmetic on shapes). So ``run`` is traceable:
``nn.GraphCell`` and :class:`mindspore.Predictor` compile it once per input signature with
:func:`mindspore._pipeline.compiler.compiled_call`, shapes (dynamic ``-1`` dimensions included) being
concrete in each compilation.

Safety: a file is data. Bytes become arrays only through ``numpy.frombuffer`` after their length is checked
(:mod:`._tensors`); external data must stay inside the model's folder; attribute nesting, sub-graph
calls and element counts are bounded; nothing in a file is imported, evaluated or unpickled.
"""
from __future__ import annotations

import collections
import os

from google.protobuf.message import DecodeError

from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore._deploy.mindir import _tensors
from mindspore._deploy.mindir import from_ms
from mindspore._deploy.mindir._schema import AttributeProto, ModelProto
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor

__all__ = ["load", "load_bytes", "MindIRGraph", "MindIRInput"]

_DECRYPT_FAILED = ("Load MindIR failed. The file may be encrypted and decrypt failed, you can check whether the "
                   "values of the arguments 'dec_key' and 'dec_mode' are the same as when exported MindIR file, "
                   "or check the file integrity.")
#: Nesting of attribute values (tuples of tuples...) a file may use; MindSpore's own files nest a few levels.
MAX_ATTR_DEPTH = 32
#: Sub-graph calls in flight at once (recursive graphs are MindSpore's loops): beyond it the file is rejected.
MAX_CALL_DEPTH = 100

_T = AttributeProto.AttributeType
_INT_TYPES = {_T.Value(n) for n in ("UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "UINT32", "UINT64")}
_REF = "REF::"
_NOTE = "(while running "

#: An input naming a record of the data flow's order (UMonad/IOMonad): no data, dropped by most rules.
MONAD = from_ms.MONAD

MindIRInput = collections.namedtuple("MindIRInput", ["name", "shape", "dtype"])
MindIRInput.__doc__ = "A graph input or output: its name, its shape (``-1`` for a dynamic dimension), its dtype."


# --- reading and decrypting ------------------------------------------------------------------------------
def load(path, dec_key=None, dec_mode="AES-GCM"):
    """The :class:`MindIRGraph` of the MindIR file ``path``.

    ``dec_key``/``dec_mode`` decrypt a file exported with ``enc_key``/``enc_mode`` (``"AES-GCM"``,
    ``"AES-CBC"``, ``"SM4-CBC"``, or a function ``dec_mode(data, dec_key) -> bytes``).
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise MSValueError(f"For 'load', the MindIR file '{path}' can not be read: {exc}.") from None
    try:
        return load_bytes(data, dec_key=dec_key, dec_mode=dec_mode, source=path,
                          base_dir=os.path.dirname(os.path.abspath(path)))
    except (MSValueError, MSRuntimeError) as exc:
        if path in str(exc):
            raise
        # the graph's checks name the node or field at fault; the user also needs the file
        raise type(exc)(f"Failed to load the MindIR file '{path}': {exc}") from None


def load_bytes(data, dec_key=None, dec_mode="AES-GCM", source="<memory>", base_dir=None):
    """The :class:`MindIRGraph` of the (possibly encrypted) serialised MindIR model ``data``."""
    data = _decrypt(bytes(data), dec_key, dec_mode, source)
    model = ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, RecursionError, ValueError) as exc:
        raise MSRuntimeError(f"Load MindIR failed: '{source}' is not a MindIR model or is corrupt ({exc}).") from None
    if not model.HasField("graph") or not model.graph.output:
        raise MSRuntimeError(f"Load MindIR failed: '{source}' is not a MindIR model or is corrupt (it has no graph "
                             "with an output).")
    return MindIRGraph(model, base_dir=base_dir, source=source)


def _decrypt(data, dec_key, dec_mode, source):
    from mindspore._fileio import crypto as _ckpt_crypto
    if dec_key is None:
        if _ckpt_crypto.is_cipher_data(data):
            raise MSRuntimeError(_DECRYPT_FAILED)
        return data
    if callable(dec_mode):
        try:
            plain = dec_mode(data, dec_key)
        except Exception as exc:  # the user's own function: any failure of it means "could not decrypt"
            raise MSRuntimeError(f"{_DECRYPT_FAILED} The 'dec_mode' function raised {type(exc).__name__}: "
                                 f"{exc}") from exc
        if not isinstance(plain, (bytes, bytearray)):
            raise MSRuntimeError(f"{_DECRYPT_FAILED} The 'dec_mode' function must return bytes, but returned "
                                 f"{type(plain).__name__}.")
        return bytes(plain)
    try:
        _ckpt_crypto.check_key("load", dec_key, dec_mode, "dec_key")
        return _ckpt_crypto.decrypt(data, dec_key, dec_mode, source)
    except (MSValueError, MSTypeError) as exc:
        raise MSRuntimeError(_DECRYPT_FAILED) from exc


# --- attribute values ---------------------------------------------------------------------------------------
def _attr_value(a, what, base_dir, depth=0, nested=False):
    """The Python value of the ``AttributeProto`` ``a``: numbers, strings, tuples, Tensors, dtypes, None, MONAD."""
    if depth > MAX_ATTR_DEPTH:
        raise MSValueError(f"For 'load', {what} nests values more than {MAX_ATTR_DEPTH} levels deep: the file is "
                           "corrupt.")
    t = a.type
    if t in _INT_TYPES or t == _T.BOOL:
        v = a.ints[0] if nested and len(a.ints) else a.i
        return bool(v) if t == _T.BOOL else int(v)
    if t in (_T.FLOAT, _T.FLOAT16, _T.BFLOAT16):
        return float(a.floats[0] if nested and len(a.floats) else a.f)
    if t == _T.DOUBLE:
        return float(a.doubles[0] if nested and len(a.doubles) else a.d)
    if t == _T.STRING:
        raw = a.strings[0] if nested and len(a.strings) else a.s
        return raw.decode("utf-8", errors="replace")
    if t in (_T.TUPLE, _T.LIST):
        items = [_attr_value(v, what, base_dir, depth + 1, nested=True) for v in a.values]
        return tuple(items) if t == _T.TUPLE else items
    if t == _T.DICT:
        return {_text(v.name): _attr_value(v, what, base_dir, depth + 1, nested=True) for v in a.values}
    if t in (_T.TENSORS, _T.TENSOR):
        proto = a.t if t == _T.TENSOR else (a.tensors[0] if len(a.tensors) else None)
        if proto is None:
            raise MSValueError(f"For 'load', {what} is a tensor value without a tensor: the file is corrupt.")
        return _tensor_value(proto, what, base_dir)
    if t in (_T.UMONAD, _T.IOMONAD):
        return MONAD
    if t == _T.NONE:
        return None
    name = _T.Name(t) if t in _T.values() else str(t)
    raise MSValueError(f"For 'load', {what} is a value of kind {name}, which a MindIR file loaded here can not "
                       "hold.")


def _tensor_value(proto, what, base_dir):
    """A Tensor, or a dtype (MindSpore stores a type as a TensorProto with only ``data_type``)."""
    if not len(proto.dims) and not proto.raw_data and not proto.HasField("external_data") and \
            not any(len(getattr(proto, f)) for f in ("float_data", "int32_data", "int64_data", "double_data")):
        return _tensors.dtype_of(proto.data_type, what)
    if proto.compression_type:
        raise MSValueError(f"For 'load', {what} is a compressed tensor (compression type {proto.compression_type}), "
                           "which is not supported: export the model without weight compression.")
    return Tensor(_tensors.to_array(proto, what, base_dir))


# --- the loaded graph ------------------------------------------------------------------------------------
class _GraphRef:
    """A sub-graph as a value (the callee of a ``Partial``, or called directly)."""

    __slots__ = ("graph", "name")

    def __init__(self, graph, name):
        self.graph, self.name = graph, name

    def __call__(self, *args):
        return self.graph._call_function(self.name, args)


_MISSING = object()


def _text(value):
    """A string field's text (protobuf hands back bytes when a corrupt file's string is not UTF-8)."""
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else value


def _call_value(fn, *args):
    return fn(*args)


class _Function:
    """One graph of the file, resolved: ``steps`` ``(rule, argument slots, output slot)`` run in order on an
    environment copied from ``template`` (constants and weights already in their slots)."""

    __slots__ = ("name", "n_inputs", "template", "steps", "out", "labels")

    def __init__(self, name):
        self.name = name
        self.n_inputs = 0
        self.template = []
        self.steps = []
        self.out = None
        self.labels = []          # what each step runs, for error notes


class MindIRGraph:
    """A MindIR model loaded for running: what ``mindspore.load`` returns and ``nn.GraphCell`` runs.

    Attributes:
        name (str): the graph's name in the file.
        inputs (tuple[MindIRInput]): name, shape (``-1`` for a dynamic dimension) and dtype of each input.
        outputs (tuple[MindIRInput]): the same for the outputs the file declares (the leaves of a tuple output).
        parameters (OrderedDict[str, Parameter]): the weights, by name.
        primitives (tuple[str]): the MindSpore primitives the graph uses.

    ``run(*inputs)`` evaluates the graph on Tensors with our primitives; it is traceable, so compiling it
    (as ``nn.GraphCell`` and ``mindspore.Predictor`` do) gives one optimised graph per input signature.
    """

    def __init__(self, model, base_dir=None, source="<memory>"):
        self.source = source
        self._base_dir = base_dir
        self._prims = {}
        for p in model.primitives:
            self._prims[_text(p.name)] = p
        self._protos = {_text(g.name): g for g in model.functions}
        self.name = _text(model.graph.name)
        self._protos[self.name] = model.graph
        self._prefix = self.name + ":"
        self.parameters = collections.OrderedDict()
        self._globals = {}
        self._read_parameters(model.graph)
        self.inputs = tuple(self._value_info(v, f"input {i}") for i, v in enumerate(model.graph.input))
        self.outputs = tuple(self._output_info(model.graph.output))
        self._constants, self._own_constants = {}, {}
        for gname, g in self._protos.items():  # constants (value nodes) are shared: a sub-graph uses the main one's
            for node in g.node:
                if _text(node.op_type) == "Constant" and node.output:
                    value = self._constant(node, _text(node.name) or _text(node.output[0]))
                    self._own_constants[(gname, _text(node.output[0]))] = value
                    for out_name in node.output:
                        self._constants.setdefault(_text(out_name), value)
        self._functions = {}
        self._depth = 0
        self._used = set()
        self._main = self._resolve(self.name)
        for name in self._protos:        # every sub-graph too: what can not run is an error now, not at a call
            self._resolve(name)
        self.primitives = tuple(sorted(self._used))

    def __repr__(self):
        ins = ", ".join(f"{i.name}: {i.dtype}{list(i.shape)}" for i in self.inputs)
        return f"MindIRGraph({self.name!r}, inputs=({ins}), parameters={len(self.parameters)})"

    # -- names, weights, inputs ------------------------------------------------------------------------
    def _short(self, name):
        return name[len(self._prefix):] if name.startswith(self._prefix) else name

    def _read_parameters(self, graph):
        for i, proto in enumerate(graph.parameter):
            name = _text(proto.ref_key) or self._short(_text(proto.name))
            what = f"the parameter '{name}'"
            if not name:
                raise MSValueError(f"For 'load', parameter {i} of the graph has no name: the file is corrupt.")
            if name in self.parameters:
                raise MSValueError(f"For 'load', the graph has two parameters named '{name}': the file is corrupt.")
            value = _tensor_value(proto, what, self._base_dir)
            if not isinstance(value, Tensor):
                raise MSValueError(f"For 'load', {what} has no data: the file is corrupt.")
            param = Parameter(value, name=name)
            self.parameters[name] = param
            self._globals[_text(proto.name)] = param

    def _value_info(self, v, what):
        name = self._short(_text(v.name))
        if len(v.tensor):
            t = v.tensor[0]
            return MindIRInput(name, tuple(int(d) for d in t.dims), _tensors.dtype_of(t.data_type, f"{what} '{name}'"))
        return MindIRInput(name, None, None)

    def _output_info(self, outputs):
        out = []
        for i, v in enumerate(outputs):
            if len(v.tensor):
                out.append(self._value_info(v, f"output {i}"))
            elif v.HasField("attr_info") and v.attr_info.type in (_T.TUPLE, _T.LIST):
                for k, item in enumerate(v.attr_info.values):
                    if len(item.tensors):
                        t = item.tensors[0]
                        out.append(MindIRInput(f"{self._short(_text(v.name))}[{k}]", tuple(int(d) for d in t.dims),
                                               _tensors.dtype_of(t.data_type, f"output {i}")))
            else:
                out.append(MindIRInput(self._short(_text(v.name)), None, None))
        return out

    # -- resolving a graph into steps ------------------------------------------------------------------------
    def _resolve(self, name):
        fn = self._functions.get(name)
        if fn is not None:
            return fn
        proto = self._protos[name]
        fn = _Function(name)
        self._functions[name] = fn
        slots, monads = {}, set()

        def new_slot(key, value=None, monad=False):
            slots[key] = len(fn.template)
            fn.template.append(value)
            if monad:
                monads.add(slots[key])
            return slots[key]

        for v in proto.input:
            vname = _text(v.name)
            if vname in slots:
                raise MSValueError(f"For 'load', graph '{name}' has two inputs named '{vname}': the file is corrupt.")
            is_monad = v.HasField("attr_info") and v.attr_info.type in (_T.UMONAD, _T.IOMONAD)
            new_slot(vname, monad=is_monad)
        fn.n_inputs = len(proto.input)
        for k, node in enumerate(proto.node):
            outputs = [_text(o) for o in node.output]
            label = _text(node.name) or (outputs[0] if outputs else f"#{k}")
            if not node.output:
                raise MSValueError(f"For 'load', node '{label}' of graph '{name}' has no output name: the file is "
                                   "corrupt.")
            if _text(node.op_type) == "Constant":
                value = self._own_constants[(name, outputs[0])]
                for out_name in outputs:
                    new_slot(out_name, value, monad=value is MONAD)
                continue
            args = []
            for ref in map(_text, node.input):
                if ref not in slots:
                    value = self._named_value(ref)
                    if value is _MISSING:
                        raise MSValueError(f"For 'load', node '{label}' of graph '{name}' uses '{ref}', which is not "
                                           "defined before it: the file is corrupt.")
                    new_slot(ref, value)
                args.append(slots[ref])
            call, args, is_monad, op = self._bind(node, label, args, monads, slots,
                                                  lambda value: new_slot(object(), value))
            out = new_slot(outputs[0], monad=is_monad)
            fn.steps.append((call, tuple(args), out))
            fn.labels.append(f"node '{label}' ({op})")
        outs = [_text(v.name) for v in proto.output]
        for o in outs:
            if o not in slots:
                raise MSValueError(f"For 'load', the output '{o}' of graph '{name}' is not defined by any node: the "
                                   "file is corrupt.")
        fn.out = tuple(slots[o] for o in outs)
        fn.template = tuple(fn.template)
        fn.steps = tuple(fn.steps)
        return fn

    def _named_value(self, ref):
        """A name a node uses that is not a local value: a weight of the main graph, a constant of any graph, or a
        graph (as a value); ``_MISSING`` when it names nothing."""
        if ref in self._globals:
            return self._globals[ref]
        if ref in self._constants:
            return self._constants[ref]
        if ref in self._protos:
            return _GraphRef(self, ref)
        return _MISSING

    def _constant(self, node, label):
        values = [a for a in node.attribute if _text(a.name) == "value"]
        if len(values) != 1:
            raise MSValueError(f"For 'load', the constant node '{label}' has {len(values)} 'value' attributes: the "
                               "file is corrupt.")
        return _attr_value(values[0], f"the constant '{label}'", self._base_dir)

    def _bind(self, node, label, args, monads, slots, const_slot):
        """``(callable, argument slots, output is a monad, what it calls)`` for ``node`` (raising on what can not
        run)."""
        op_type = _text(node.op_type)
        target = op_type[len(_REF):] if op_type.startswith(_REF) else op_type
        prim = self._prims.get(target)
        if prim is None:
            if target in self._protos:
                return _GraphRef(self, target), args, False, f"a call of graph '{target}'"
            if target in slots:      # calling a value another node made (a Switch of Partials)
                return _call_value, [slots[target]] + list(args), False, f"a call of the value of '{target}'"
            raise MSRuntimeError(f"For 'load', node '{label}' has op_type '{op_type}', which names no primitive, graph "
                                 "or node of the file: the file is corrupt or from an unsupported MindSpore version.")
        op = _text(prim.op_type) or target.split(":")[0]
        rule = from_ms.RULES.get(op)
        if rule is None:
            raise MSRuntimeError(f"For 'load', the primitive '{op}' (node '{label}') is not supported by this MindIR "
                                 "loader; mindspore._deploy.mindir.from_ms.supported_primitives() lists those it runs.")
        self._used.add(op)
        if not rule.keeps_monads:
            args = [a for a in args if a not in monads]
        attrs = {_text(a.name): a for a in prim.attribute}

        def decode(name):
            return _attr_value(attrs[name], f"the attribute '{name}' of primitive '{op}' (node '{label}')",
                               self._base_dir)

        call, bound = rule.bind(op, label, args, attrs, decode, const_slot)
        return call, bound, rule.monad_out, op

    # -- running ----------------------------------------------------------------------------------------------
    def run(self, *inputs):
        """Evaluate the graph on ``inputs`` (Tensors); returns a Tensor, or a tuple for a tuple output."""
        self.check_inputs(inputs, "MindIRGraph.run")
        out = self._evaluate(self._main, inputs)
        return out

    def check_inputs(self, inputs, func="GraphCell"):
        """MindSpore's checks of a call: the input count, then each input's rank and dtype."""
        if len(inputs) != len(self.inputs):
            raise MSRuntimeError(f"The input number of parameters is not Compatible. For '{func}', the graph takes "
                                 f"{len(self.inputs)} input(s) ({', '.join(i.name for i in self.inputs)}), but got "
                                 f"{len(inputs)}.")
        for i, (spec, x) in enumerate(zip(self.inputs, inputs)):
            if spec.dtype is None:
                continue
            if not isinstance(x, Tensor):
                raise MSTypeError(f"For '{func}', input {i} '{spec.name}' must be a Tensor, but got "
                                  f"{type(x).__name__}.")
            if x.dtype != spec.dtype:
                raise MSTypeError(f"For '{func}', input {i} '{spec.name}' must have dtype {spec.dtype} (as exported), "
                                  f"but got {x.dtype}.")
            if len(x.shape) != len(spec.shape):
                raise MSValueError(f"For '{func}', input {i} '{spec.name}' must be a {len(spec.shape)}-D tensor of "
                                   f"shape {list(spec.shape)} (-1: any size), but got shape {tuple(x.shape)}.")

    def update_parameters(self, params_init, func="GraphCell"):
        """Set the weights named in ``params_init`` ({name: Tensor}); names the graph lacks are ignored."""
        for name, value in params_init.items():
            param = self.parameters.get(name)
            if param is None:
                continue
            if tuple(value.shape) != tuple(param.shape) or value.dtype != param.dtype:
                raise MSValueError(f"Only support update parameter by Tensor or Parameter with same shape and dtype as "
                                   f"it. The parameter '{name}' has shape {list(param.shape)} and dtype {param.dtype}, "
                                   f"but got the update value with shape {list(value.shape)} and dtype {value.dtype}.")
            param.set_data(Tensor(value) if not isinstance(value, Tensor) else value)

    def _call_function(self, name, args):
        fn = self._functions[name]
        if len(args) != fn.n_inputs:
            raise MSRuntimeError(f"For 'load', the graph '{name}' of '{self.source}' takes {fn.n_inputs} inputs, but "
                                 f"a call passes {len(args)}: the file is corrupt.")
        if self._depth >= MAX_CALL_DEPTH:
            raise MSRuntimeError(f"For 'GraphCell', the graph '{name}' of '{self.source}' calls itself more than "
                                 f"{MAX_CALL_DEPTH} levels deep: its loop does not end for these inputs.")
        self._depth += 1
        try:
            return self._evaluate(fn, args)
        except RecursionError:
            raise MSRuntimeError(f"For 'GraphCell', the graph '{name}' of '{self.source}' calls sub-graphs too deeply "
                                 "for Python's stack.") from None
        finally:
            self._depth -= 1

    def _evaluate(self, fn, args):
        env = list(fn.template)
        env[:len(args)] = args
        i = 0
        try:
            for i, (call, refs, out) in enumerate(fn.steps):
                env[out] = call(*[env[r] for r in refs])
        except Exception as exc:
            if not any(n.startswith(_NOTE) for n in getattr(exc, "__notes__", ())):     # the innermost node only
                exc.add_note(f"{_NOTE}{fn.labels[i]} of the MindIR graph '{fn.name}')")
            raise
        outs = [env[o] for o in fn.out]
        return outs[0] if len(outs) == 1 else tuple(outs)
