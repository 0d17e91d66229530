"""The Primitive: the unit the registry, the interpreters and autodiff know about.

A primitive class is one contiguous block in a family file (``ops/_defs/<family>.py``)::

    class Mul(Primitive):
        '''docstring'''
        @prim_attr_register
        def __init__(self): ...
        def infer_shape(self, x, y): ...       # pure: shapes (or constant values) in, shape out
        def infer_dtype(self, x, y): ...       # pure: dtypes (or constant values) in, dtype out
        def bprop(self, x, y, out, dout): ...  # one gradient per input, in the graph-mode subset

Conventions the interpreters rely on:

* **Inputs** are tensors or constants (Python scalars, tuples, dtypes). ``infer_shape`` receives a
  tensor's shape tuple and a constant's value; ``infer_dtype`` a tensor's dtype and a constant's
  value; a tuple of tensors arrives as a tuple of shapes/dtypes. An input whose *value* decides the output shape
  (Tile's ``multiples``) is declared in ``value_inputs``: a tensor given there reaches the rules as its value.
* **Outputs**: ``infer_dtype`` returns a dtype for one output, a tuple of dtypes for several.
  A primitive whose result is a compile-time value (``Shape``, ``DType``) defines
  ``infer_value(self, *specs)`` returning it (tensors arrive as :class:`TensorSpec`), and needs no
  kernel.
* **Gradients**: ``bprop(self, *inputs, out, dout)`` returns one entry per input (anything for a
  constant input); the autodiff engine, not the bprop, sums gradients back over broadcast axes and
  casts them to the input's dtype. ``bprop = NON_DIFFERENTIABLE`` marks an op no gradient flows
  through.
* **Errors** are raised in MindSpore's form, ``For 'Mul', ... but got ...``, by the rules.
"""
from __future__ import annotations

import functools
import inspect
import math
import struct
import threading
import weakref

from mindspore._core.interpreters import STACK as _STACK, TOP as _TOP

__all__ = ["Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register", "constexpr",
           "NON_DIFFERENTIABLE", "TensorSpec", "short_dtype", "mark_zero", "is_known_zero"]

_SHORT = {
    "Float16": "f16", "Float32": "f32", "Float64": "f64", "BFloat16": "bf16", "Int8": "i8", "Int16": "i16",
    "Int32": "i32", "Int64": "i64", "UInt8": "u8", "UInt16": "u16", "UInt32": "u32", "UInt64": "u64",
    "Bool": "bool", "Complex64": "c64", "Complex128": "c128",
}


def short_dtype(dtype):
    """``f32`` for Float32: the dtype as the IR printer writes it."""
    name = str(dtype)
    return _SHORT.get(name, name)


class _NonDifferentiable:
    """Marker: no gradient flows through this primitive (its outputs are not recorded on tapes)."""

    def __repr__(self):
        return "NON_DIFFERENTIABLE"

    def __bool__(self):
        return False


NON_DIFFERENTIABLE = _NonDifferentiable()

_zeros = {}   # id(tensor) -> weak reference: the cotangents autodiff made as zeros


def mark_zero(t):
    """Mark ``t`` as a cotangent autodiff made as zeros (of an output nothing used); returns ``t``."""
    key = id(t)
    _zeros[key] = weakref.ref(t, lambda _ref, key=key: _zeros.pop(key, None))
    return t


def is_known_zero(t):
    """Whether ``t`` is a cotangent autodiff made as zeros: a bprop may skip the work it would feed,
    without reading the tensor's values (which would cost a device synchronisation)."""
    ref = _zeros.get(id(t))
    return ref is not None and ref() is t


class TensorSpec:
    """The abstract value of a tensor: its shape and dtype.

    What ``infer_value`` receives for a tensor argument, what a kernel receives as ``out`` (the
    inferred output), and the abstract value of a tensor node in the graph IR. A ``-1`` in ``shape``
    is a dimension only known when the kernel has run; ``shape`` is ``None`` when the rule could
    not tell even the rank (eager mode only: graph mode needs static shapes).
    """

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = tuple(shape) if shape is not None else None
        self.dtype = dtype

    def short(self):
        """``f32[2,3]``: the form the IR printer uses."""
        return f"{short_dtype(self.dtype)}[{','.join(str(s) for s in self.shape)}]"

    def __repr__(self):
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype})"

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and self.shape == other.shape and self.dtype == other.dtype

    def __hash__(self):
        return hash((self.shape, self.dtype))


#: ``CALL_HOOK[0]``, when set (``mindspore.plugin.set_primitive_call_hook``: mindspore-parallel, under
#: SEMI_AUTO_PARALLEL and AUTO_PARALLEL), receives every ``(prim, args)`` before the interpreter stack does: it runs
#: a sharded operator as its distributed rule (itself made of primitive calls, so tapes and graph staging see
#: ordinary applications).
CALL_HOOK = [None]

#: ``SHAPE_VIEW[0]``, when set (``mindspore.plugin.set_tensor_shape_view``: mindspore-parallel), is ``fn(tensor)``,
#: the shape ``tensor.shape`` shows (None: the tensor's own): a sharded network's code sees its blocks' global shapes.
SHAPE_VIEW = [None]


#: ``GRADS_NEEDED[0]``, while PYNATIVE's gradient tape runs the bprop of a primitive some of whose tensor inputs it does
#: not differentiate (a network's input, a constant operand, the weights when only inputs are asked for), is
#: ``(primitive, flags)``: one bool per input, whether its gradient is needed. The bprop reads it through
#: :meth:`Primitive._grads_needed` (once: the read clears it) and leaves out what nobody reads, as PyTorch's autograd
#: does with ``needs_input_grad``; GRAPH_MODE never sets it (its dead-code elimination drops unused gradients).
GRADS_NEEDED = [None]


class hook_suspended:   # noqa: N801 - a context manager
    """Bypass :data:`CALL_HOOK` (and :data:`SHAPE_VIEW`) for the body: autodiff runs bprops on the very tensors the
    forward pass saw, and the bprops' applications are plain local computations."""

    def __enter__(self):
        self.saved = CALL_HOOK[0], SHAPE_VIEW[0]
        CALL_HOOK[0] = SHAPE_VIEW[0] = None

    def __exit__(self, *exc):
        CALL_HOOK[0], SHAPE_VIEW[0] = self.saved


def _known_value(prim, name, a):
    """A tensor's value as Python numbers (a tuple for a non-scalar), the same for the tensors of a tuple; other
    values as they are. A tensor the graph being compiled computes has no value yet: MSValueUnavailableError, so
    that the call runs as Python (JIT fallback, see mindspore._errors.NeedsPython) where it has one."""
    if getattr(type(a), "__ms_tensor__", False):
        from mindspore._errors import MSValueUnavailableError
        try:
            value = a.tolist()
        except MSValueUnavailableError:
            raise MSValueUnavailableError(f"For '{prim.name}', the value of '{name}' is not available while "
                                          f"compiling in graph mode: the tensor is computed by the graph.") from None
        return tuple(value) if isinstance(value, list) else value
    if type(a) in (tuple, list) and any(getattr(type(x), "__ms_tensor__", False) for x in a):
        return tuple(_known_value(prim, name, x) for x in a)
    return a


#: ``Tensor._ext`` key of a mixed-precision read of a Parameter (``Cell.to_float``): the Parameter it was cast from
PARAM_READ_KEY = "mixed_precision_read_of"


def mark_param_read(cast, param):
    """Record on ``cast`` (a Tensor, staged or not) that it is ``param`` read through a mixed-precision cast, so that
    an operator writing that input in place is given ``param`` itself (see :attr:`Primitive.written_inputs`)."""
    ext = getattr(cast, "_ext", None)
    if ext is None:
        ext = cast._ext = {}
    ext[PARAM_READ_KEY] = param
    return cast


def _uncast_written(prim, args):
    """MindSpore casts a mixed-precision cell's parameters only where an operator reads them (its RW_WRITE inputs
    are left as they are): the written inputs get the Parameter, not the cast copy the write would be lost in."""
    read = None
    for i in prim.written_inputs:
        ext = getattr(args[i], "_ext", None) if i < len(args) else None
        if ext and PARAM_READ_KEY in ext:
            read = list(args) if read is None else read
            read[i] = ext[PARAM_READ_KEY]
    return args if read is None else tuple(read)


class _MixedPrecision(threading.local):
    """PYNATIVE ``Cell.to_float``, per thread (a dataset worker's operators are not the cell's).

    ``dtype``: the dtype of the innermost Cell call marked by ``to_float`` that runs now (None outside one, or inside
    a cell marked to run its operators as they are). As MindSpore 2.10's PYNATIVE executor does, every operator called
    then gets its float Tensor inputs (those inside a tuple or list too) cast to that dtype first; the cell's own
    inputs and attributes are not cast on entry. The cells keep the stack (see nn/cell.py).

    ``parameters``: ``{(id(parameter), dtype): cast Tensor}`` made ahead by amp (one ``CastMany`` for a whole
    network) that the operators take instead of casting those Parameters again; None when there is none."""

    dtype = None
    parameters = None


MIXED_PRECISION = _MixedPrecision()
#: True once a PYNATIVE ``to_float`` cell has run in any thread: a plain flag ``Primitive.__call__`` tests first, so
#: that programs without one never read the thread-local state (several times dearer than a list item)
MIXED_PRECISION_USED = [False]

_FLOAT_NAMES = frozenset(("Float16", "Float32", "Float64", "BFloat16"))


def _is_float(dtype, _known={}):
    """Whether ``dtype`` (a MindSpore dtype) is a float type; memoised per dtype (the check runs for every input)."""
    try:
        return _known[dtype]
    except KeyError:
        _known[dtype] = str(dtype) in _FLOAT_NAMES
        return _known[dtype]


def _mixed_precision_one(a, dst, cast):
    t = type(a)
    if getattr(t, "__ms_tensor__", False):
        dtype = a._dtype
        if dtype is not dst and dtype != dst and _is_float(dtype):
            return cast(a, dst)
        return a
    if t is tuple or t is list:
        items = [_mixed_precision_one(x, dst, cast) for x in a]
        if any(x is not y for x, y in zip(items, a)):
            return t(items)
    return a


def _mixed_precision_inputs(prim, args):
    """``args`` with their float Tensors cast to :data:`MIXED_PRECISION`'s ``dtype`` (MindSpore's per-operator mixed
    precision cast). A Parameter the operator writes in place (an RW_WRITE input: BatchNorm's moving statistics) is
    left as it is (see ``uncast_parameters``); operators that only view their input (``Reshape``, ``Transpose``,
    ...) or cast it themselves declare ``mixed_precision_cast = False``. A graph being compiled (a ``jit`` function
    called from the cell) is not cast, as in MindSpore."""
    if _STACK[-1].kind == "staging":
        return args
    dst = MIXED_PRECISION.dtype
    kept = prim.uncast_parameters
    if kept is None:
        kept = prim.written_inputs
    out = None
    for i, a in enumerate(args):
        t = type(a)
        if getattr(t, "__ms_tensor__", False):
            dtype = a._dtype
            if dtype is dst or not _is_float(dtype) or dtype == dst:
                continue
            if getattr(t, "__ms_parameter__", False):
                if kept and i in kept:
                    continue
                ahead = MIXED_PRECISION.parameters
                b = ahead.get((id(a), dst)) if ahead else None
                if b is None:
                    b = _cast_prim()(a, dst)
            else:
                b = _cast_prim()(a, dst)
        elif t is tuple or t is list:
            b = _mixed_precision_one(a, dst, _cast_prim())
            if b is a:
                continue
        else:
            continue
        out = list(args) if out is None else out
        out[i] = b
    return args if out is None else tuple(out)


def mixed_precision_input(x):
    """``x`` as an operator run now gets it (cast to :data:`MIXED_PRECISION`'s ``dtype`` when it is a float Tensor): for
    the Tensor methods that MindSpore 2.10 runs as operators casting their input, but ours as ``Cast`` (``astype``,
    ``to``, ``float``, ``copy``)."""
    if not MIXED_PRECISION_USED[0] or MIXED_PRECISION.dtype is None or _STACK[-1].kind == "staging":
        return x
    return _mixed_precision_one(x, MIXED_PRECISION.dtype, _cast_prim())


@functools.lru_cache(maxsize=None)
def _cast_prim():
    return instance("Cast")


_F32 = struct.Struct("f")


def float32_number(v):
    """The Python float ``v`` rounded to float32 (+-inf beyond its range): MindSpore 2.10 holds a Python float given
    to an operator, or computed in a graph, as a float32 (its ``FP32Imm``), so ``x * 0.1`` scales a float64 tensor by
    0.10000000149011612."""
    if v == 0.0:
        return v            # +-0.0 are float32 numbers (and equal as keys, so not cached: the sign would be lost)
    r = _F32_SEEN.get(v)
    if r is None:
        try:
            r = _F32.unpack(_F32.pack(v))[0]
        except OverflowError:
            r = math.copysign(math.inf, v)
        if len(_F32_SEEN) < 4096:     # the few numbers a program uses over and over (0.5, 1e-5...)
            _F32_SEEN[v] = r
    return r


_F32_SEEN = {}


def _float32_numbers(args):
    return tuple([float32_number(a) if type(a) is float else a for a in args])


def _read_value_inputs(prim, args):
    read = list(args)
    for i, name in prim.value_inputs.items():
        if i < len(read):
            read[i] = _known_value(prim, name, read[i])
    return tuple(read)


class Primitive:
    """Base class of MindSpore operators: attributes in ``__init__``, data in ``__call__``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.Mul()(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))
        Tensor(shape=[2], dtype=Float32, value= [ 3.00000000e+00,  8.00000000e+00])
    """

    _eager_cache_limit = 512
    bprop = NON_DIFFERENTIABLE
    #: ``{position: name}`` of the inputs whose *value* the shape rule reads (MindSpore's value-depend inputs:
    #: Tile's ``multiples``, Reshape's ``shape``). A tensor given there, or a tuple holding tensors, is read into
    #: Python numbers before the call (PYNATIVE; a constant in a graph); one the graph being compiled computes makes
    #: the call run as Python (see :func:`_known_value`).
    value_inputs = {}
    # A Python float given as an input is rounded to float32 (MindSpore 2.10's FP32Imm); False for operators that
    # 2.10 gives the number exactly (Fill's value, PadV3's constant)
    float32_numbers = True
    #: positions of the inputs the operator updates in place (MindSpore's ``RW_WRITE`` signature: BatchNorm's moving
    #: statistics, Assign's variable, an optimizer's states); a parameter given there is never a mixed-precision cast
    written_inputs = ()
    #: whether the operator's float inputs are cast to the dtype of the PYNATIVE ``Cell.to_float`` cell running it
    #: (see :data:`MIXED_PRECISION`); MindSpore 2.10 leaves the inputs of its view operators and of ``Cast`` alone
    mixed_precision_cast = True
    #: positions where such a cast leaves a Parameter as it is (MindSpore casts a Parameter only where the operator's
    #: signature reads it); None: the written inputs
    uncast_parameters = None

    def __init__(self, name=None):
        self.name = name or type(self).__name__
        self.attrs = {}
        self.instance_name = ""
        self._eager_cache = {}
        self.input_names = None
        self.output_names = None

    def add_prim_attr(self, name, value):
        """Set attribute ``name`` (visible in IR and ``attrs``); returns ``self``."""
        self.__dict__[name] = value
        self.attrs[name] = value
        self._eager_cache = {}
        self.__dict__["_attr_version"] = self.__dict__.get("_attr_version", 0) + 1   # (a compiled walk's key)
        return self

    def del_prim_attr(self, name):
        self.attrs.pop(name, None)
        self.__dict__.pop(name, None)
        self._eager_cache = {}
        self.__dict__["_attr_version"] = self.__dict__.get("_attr_version", 0) + 1
        return self

    def set_prim_instance_name(self, instance_name):
        self.instance_name = instance_name
        return self

    def init_prim_io_names(self, inputs, outputs):
        self.input_names = list(inputs)
        self.output_names = list(outputs)

    def add_prim_attrs(self, **attrs):
        for k, v in attrs.items():
            self.add_prim_attr(k, v)
        return self

    def shard(self, in_strategy=None, out_strategy=None):
        """Set the sharding strategy of this operator's inputs (and outputs) for SEMI_AUTO_PARALLEL and
        AUTO_PARALLEL: one tuple per input, one entry per dimension (how many slices it is cut into), or one
        ``mindspore.parallel.Layout`` per input. Validated and recorded by mindspore-parallel; returns ``self``.

        Examples:
            >>> from mindspore import ops
            >>> ops.MatMul().shard(((2, 1), (1, 2)))
            Prim[MatMul]<transpose_a=False, transpose_b=False, in_strategy=((2, 1), (1, 2))>
        """
        if in_strategy is None and out_strategy is None:
            return self
        from mindspore._plugin import manager
        offer = manager.sharding()
        if offer is None:
            raise ImportError(f"For '{self.name}', 'shard' needs mindspore.parallel, which is not installed: "
                              f"pip install mindspore-parallel")
        return offer["primitive_shard"](self, in_strategy, out_strategy)

    def recompute(self, mode=True):
        self.add_prim_attr("recompute", mode)
        return self

    def set_device(self, device_target):
        return self.add_prim_attr("primitive_target", device_target)

    def set_stage(self, stage):
        """Set the pipeline stage of this operator (attribute ``stage``; only read in SEMI_AUTO_PARALLEL);
        returns ``self``.

        Examples:
            >>> from mindspore import ops
            >>> ops.Add().set_stage(0)
            Prim[Add]<stage=0>
        """
        return self.add_prim_attr("stage", stage)

    def place(self, role, rank_id):
        """Label this operator with the process that runs it (``role`` 'MS_WORKER', ``rank_id``), for a dynamic
        cluster; attributes ``ms_role`` and ``rank_id``. Mixing it with AUTO/SEMI_AUTO/DATA/HYBRID parallel raises
        RuntimeError, as in MindSpore 2.10.

        Examples:
            >>> from mindspore import ops
            >>> ops.MatMul().place('MS_WORKER', 0)
        """
        from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
        if not isinstance(rank_id, int) or isinstance(rank_id, bool):
            raise MSTypeError(f"For 'Primitive.place', the 'rank_id' must be int, but got '{type(rank_id).__name__}'")
        if rank_id < 0:
            raise MSValueError(f"For 'Primitive.place', the 'rank_id' must be int and must >= 0, but got '{rank_id}' "
                               f"with type 'int'.")
        if role != "MS_WORKER":
            raise MSValueError(f"For 'Primitive.place', the 'role' must be str and must be in 'MS_WORKER', "
                               f"but got '{role}'.")
        from mindspore.context import get_auto_parallel_context
        if get_auto_parallel_context("parallel_mode") in ("auto_parallel", "semi_auto_parallel", "data_parallel",
                                                          "hybrid_parallel"):
            raise MSRuntimeError("You are calling Primitive.place mixed with other parallel features: "
                                 "'auto_parallel', 'data_parallel' and 'hybrid_parallel'. This case is still under "
                                 "development and not supported yet. Please call Primitive.place without these "
                                 "features.")
        self.add_prim_attr("ms_role", role)
        self.add_prim_attr("rank_id", rank_id)

    def check_elim(self, *args):
        """Whether a call with ``args`` can be computed while compiling: ``(can_eliminate, value)``; the base class
        says ``(False, None)``, subclasses override it."""
        return (False, None)

    @property
    def update_parameter(self):
        """Whether the operator writes a Parameter it is given (False for the base class, as in MindSpore 2.10,
        where only a few subclasses set it)."""
        return self.__dict__.get("_update_parameter", False)

    def __call__(self, *args):
        for a in args:
            if type(a) is float:     # a Python float input is a float32, as in MindSpore 2.10
                if self.float32_numbers:
                    args = _float32_numbers(args)
                break
        if self.value_inputs:
            args = _read_value_inputs(self, args)
        if self.written_inputs:
            args = _uncast_written(self, args)
        if MIXED_PRECISION_USED[0] and self.mixed_precision_cast and MIXED_PRECISION.dtype is not None:
            args = _mixed_precision_inputs(self, args)
        hook = CALL_HOOK[0]
        if hook is None:
            return _TOP[0](self, args)
        return hook(self, args)   # mindspore-parallel: sharded operators and tensors carrying a layout

    def __repr__(self):
        shown = {k: v for k, v in self.attrs.items() if k not in ("input_names", "output_names")}
        if not shown:
            return f"Prim[{self.name}]"
        inner = ", ".join(f"{k}={v}" for k, v in shown.items())
        return f"Prim[{self.name}]<{inner}>"

    def _grads_needed(self, n):
        """``n`` bools: whether the backward pass running this primitive's bprop needs the gradient of each of its
        first ``n`` inputs (all ``True`` but under PYNATIVE's tape, see :data:`GRADS_NEEDED`). A bprop asks first and
        returns ``None`` for a gradient not needed, instead of computing it (the first convolution's input gradient,
        a product's gradient for a constant operand)."""
        pending = GRADS_NEEDED[0]
        if pending is None or pending[0] is not self:
            return (True,) * n
        GRADS_NEEDED[0] = None
        flags = pending[1]
        return tuple(flags[:n]) + (True,) * (n - len(flags))

    def _grad_prim(self, cls, *args, **kwargs):
        """``cls(*args, **kwargs)``, made once per this operator and arguments, for its bprop: MindSpore's bprop
        getters make their gradient operators once per forward operator too. A new instance every call costs
        its constructor's checks on every backward pass (37 us for a Conv2DBackpropInput)."""
        memo = self.__dict__.get("_grad_prims")
        if memo is None:
            memo = self.__dict__["_grad_prims"] = {}
        key = (cls, args, tuple(kwargs.items()))
        try:
            prim = memo.get(key)
        except TypeError:    # an unhashable argument
            return cls(*args, **kwargs)
        if prim is None:
            prim = memo[key] = cls(*args, **kwargs)
        return prim

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_eager_cache"] = {}
        state.pop("_grad_prims", None)
        return state


#: The operator registry's ``name -> class`` lookup, handed down by :mod:`mindspore.ops._registry` when it is
#: imported (``import mindspore`` imports it first). The layers below the operators (the gradient tape, the graph
#: executor) know the few primitives they run by name, as the IR does.
CLASS_LOOKUP = [None]


@functools.lru_cache(maxsize=None)
def instance(name, **attrs):
    """One shared instance of the registered primitive ``name`` built with ``attrs``."""
    lookup = CLASS_LOOKUP[0]
    if lookup is None:
        from mindspore._errors import InternalError
        raise InternalError(f"primitive '{name}' is needed before the operator registry was imported "
                            "(import mindspore first).")
    return lookup(name)(**attrs)


class PrimitiveWithInfer(Primitive):
    """A primitive with Python ``infer_shape``/``infer_dtype`` (the legacy user-facing base class)."""

    def infer_shape(self, *args):
        """Output shape from the input shapes; a subclass overrides it (the base says None: unknown)."""
        return None

    def infer_dtype(self, *args):
        """Output dtype from the input dtypes; a subclass overrides it (the base says None)."""
        return None

    def infer_value(self, *args):
        """Output value computed while compiling, or None (the base: none)."""
        return None


class PrimitiveWithCheck(Primitive):
    """A primitive with ``check_shape``/``check_dtype`` hooks; output shape/dtype equal the first input's."""

    def check_shape(self, *args):
        """Check the input shapes (raise when invalid); the base accepts any and returns None."""
        return None

    def check_dtype(self, *args):
        """Check the input dtypes (raise when invalid); the base accepts any and returns None."""
        return None

    def infer_shape(self, *shapes):
        self.check_shape(*shapes)
        return shapes[0]

    def infer_dtype(self, *dtypes):
        self.check_dtype(*dtypes)
        return dtypes[0]


#: ``(class, attributes) -> eager cache`` shared by the instances of MindSpore's own operators that have the same
#: attributes. PYNATIVE code makes operators as it goes (``ops.ReduceSum(keep_dims=True)(x)`` in a ``construct``;
#: every bprop makes its gradient operators), and a new instance would otherwise infer its output and look up its
#: kernel again on every call: for LeNet's convolution gradients about 0.1 ms per operator.
_SHARED_EAGER = {}
_SHARED_EAGER_LIMIT = 4096
_PLAIN = (type(None), bool, int, float, str)


def _plain(value):
    t = type(value)
    if t in _PLAIN:
        return True
    if t is tuple:
        return all(_plain(v) for v in value)
    return t.__module__ == "mindspore.common.dtype"   # a dtype (a Type instance)


def _share_eager_cache(prim):
    """Give ``prim`` the eager cache of the operators of its class and attributes (see :data:`_SHARED_EAGER`).
    Only for MindSpore's own operators, whose constructors derive everything their inference reads from their
    attributes, and only for plain attribute values; an attribute set later gives the instance its own cache."""
    cls = type(prim)
    if not cls.__module__.startswith("mindspore.ops.") or prim._eager_cache:
        return
    items = tuple(prim.attrs.items())
    if not all(_plain(v) for _, v in items):
        return
    key = (cls, items, tuple(type(v) for _, v in items))   # the types too: True == 1 == 1.0 as dict keys
    cache = _SHARED_EAGER.get(key)
    if cache is None:
        if len(_SHARED_EAGER) >= _SHARED_EAGER_LIMIT:
            _SHARED_EAGER.clear()
        cache = _SHARED_EAGER[key] = {}
    prim._eager_cache = cache


def prim_attr_register(fn):
    """Decorator for ``Primitive.__init__``: records every constructor argument as a primitive attribute."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        Primitive.__init__(self, type(self).__name__)
        for name, value in list(bound.arguments.items())[1:]:
            if sig.parameters[name].kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                continue
            self.add_prim_attr(name, value)
        fn(self, *args, **kwargs)
        if type(self).__init__ is wrapper:   # the constructor of the class itself, not a base's called by it
            _share_eager_cache(self)

    return wrapper


def constexpr(fn=None, *, get_instance=True, reuse_result=True, check=True):
    """Mark a function as evaluated on constants (it runs as plain Python in both modes)."""
    if fn is None:
        return lambda f: constexpr(f, get_instance=get_instance, reuse_result=reuse_result, check=check)
    fn.__ms_constexpr__ = True
    return fn


def _primexpr(fn=None, get_instance=True, name=None, reuse_result=True):
    """MindSpore's internal variant of :func:`constexpr` (libraries use it for shape checks in ``construct``): run
    on constants at compile time, compiled as graph code when an input is a variable. The graph parser already does
    both for any user function (constant parts are folded, the rest becomes graph code), so the function is
    returned unmarked; in PYNATIVE it is a plain call."""
    if fn is None:
        return lambda f: _primexpr(f, get_instance=get_instance, name=name, reuse_result=reuse_result)
    return fn
