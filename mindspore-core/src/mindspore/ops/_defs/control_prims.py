"""The graph-control and debugging primitives of MindSpore 2.10's ``mindspore.ops`` that were left: gradient hooks
(``HookBackward``, ``InsertGradientOf``, ``DumpGradient``), checks (``Assert``, ``CheckNumerics``), ``TensorDump``,
Python functions as operators (``PyFunc``, ``PyExecute``, ``Morph``), the functional loops (``ForiLoop``,
``WhileLoop``, ``Scan``) and the compiler plumbing that is public (``Partial``, ``UpdateState``, ``GeSwitch``,
``Merge``, ``MoveTo``, ``Reusing``, ``SubAndFilter``).

Behaviour follows MindSpore 2.10 on CPU:

* ``HookBackward(hook_fn)(*x)`` returns its inputs; in the backward pass ``hook_fn`` receives the tuple of the
  gradients of its outputs and may return replacements (a tensor or a tuple) or None (keep them); inside
  compiled graphs (``ms.jit``, GRAPH_MODE) the hook is skipped, as in MindSpore 2.10.
  ``InsertGradientOf(f)(x)`` is the same for one input, the gradient replaced by ``f(dout)``.
  ``DumpGradient()(path, x, input_output)`` returns ``x`` and, in the backward pass, saves the gradient of ``x``
  as ``TensorDump`` does.
* ``TensorDump()(file, x)`` saves ``x`` to ``<file>_<dtype>_<n>.npy`` (``n`` counts the dumps of the process,
  shared with ``ops.tensordump``; a trailing ``.npy`` of ``file`` is dropped) and returns None. It is a side
  effect: it runs at every run of a compiled graph.
* ``Assert(summarize)(condition, input_data)`` prints ``For 'Assert' condition is false.`` and the first
  ``summarize`` values of each input and raises ``RuntimeError('assert failed ...')`` when the condition is False
  (eagerly and in compiled graphs alike).
* The loops run in Python in PYNATIVE; inside ``ms.jit`` a loop with compile-time bounds/condition unrolls and
  ``WhileLoop`` on a tensor condition becomes the graph's ``While`` (the loop functions run as Python on the
  staged tensors, so their tensor operations are staged; tensor ``if`` inside them is not supported).
* ``PyFunc`` runs ``fn`` on host NumPy arrays through the backends' kernels (so also inside compiled graphs);
  ``Morph`` (GRAPH_MODE only, as in 2.10) runs ``fn`` on the staged tensors, checked against its
  ``infer_shape``/``infer_dtype``.

Kept different on purpose: ``Assert``'s output when the condition holds is ``[1]`` (2.10 leaves the int32 (1,)
buffer uninitialised); ``Morph`` refuses a ``bprop_fn`` (its gradient is derived from ``fn``'s operations).
The primitives that work by their call (loops, ``Partial``, ``GeSwitch``/``Merge``, ``Morph``, ``PyExecute``,
``UpdateState``, ``SubAndFilter``) have no kernel: see :class:`_CallOnly`.
"""
from __future__ import annotations

import itertools

from mindspore._core import interpreters as _interpreters
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs.array import Identity

__all__ = ["PRIMITIVES", "DUMP_COUNTER"]

#: The numbering of dumped files, shared by ``TensorDump``, ``DumpGradient`` and ``ops.tensordump``.
DUMP_COUNTER = itertools.count()


def _is_tensor(x):
    return isinstance(x, Tensor)


def _check_callable(op, name, fn):
    if not callable(fn):
        raise MSTypeError(f"For '{op}', the '{name}' must be callable, but got {type(fn).__name__}.")


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


class _CallOnly(Primitive):
    """A primitive whose call does its work in Python (calling user functions, building closures, looping): it
    is never dispatched to a kernel, eagerly or while a graph is staged (its operations are)."""

    def infer_shape(self, *inputs):
        raise MSRuntimeError(f"For '{self.name}', the operator runs by its call and has no shape of its own.")

    infer_dtype = infer_shape
    infer_value = infer_shape
    bprop = NON_DIFFERENTIABLE


# --- HookBackward --------------------------------------------------------------------------------------------------
class HookBackward(Primitive):
    """``HookBackward(hook_fn, cell_id="")(*inputs)``: the inputs unchanged; ``hook_fn(grads)`` sees (and may
    replace) the tuple of the gradients of the outputs in the backward pass.

    Examples:
        >>> seen = []
        >>> hook = ops.HookBackward(lambda g: seen.append(g))
        >>> ops.grad(lambda x: hook(x * 2) * 3)(ms.Tensor([1., 2.]))   # [6. 6.]; seen == [(Tensor([3., 3.]),)]
    """

    def __init__(self, hook_fn, cell_id=""):
        super().__init__("HookBackward")
        if not callable(hook_fn):
            raise MSTypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")
        if not isinstance(cell_id, str):
            raise MSTypeError(f"For 'HookBackward', the 'cell_id' must be str, but got {type(cell_id).__name__}.")
        self.hook_fn = hook_fn
        self.cell_id = cell_id
        self.add_prim_attr("cell_id", cell_id)

    def __call__(self, *args):
        if not args:
            raise MSValueError("For 'HookBackward', it needs at least one input, but got 0.")
        return super().__call__(*args)

    def infer_shape(self, *inputs):
        return inputs[0] if len(inputs) == 1 else tuple(inputs)

    def infer_dtype(self, *inputs):
        return inputs[0] if len(inputs) == 1 else tuple(inputs)

    def bprop(self, *args):
        n = len(args) - 2
        dout = args[-1]
        grads = (dout,) if n == 1 else tuple(dout)
        if _staging():
            return grads   # as in MindSpore 2.10: the hook is a PYNATIVE feature, compiled graphs skip it
        new = self.hook_fn(grads)
        if new is None:
            return grads
        new = _as_tuple(new)
        if len(new) != n:
            raise MSValueError(f"For 'HookBackward', the hook function must return None or {n} gradient(s), but "
                               f"got {len(new)}.")
        return new


# --- InsertGradientOf ----------------------------------------------------------------------------------------------
class InsertGradientOf(Primitive):
    """``InsertGradientOf(f)(x)``: ``x``; its gradient becomes ``f(dout)`` (clipping, scaling, logging...).

    Examples:
        >>> clip = ops.InsertGradientOf(lambda g: ops.clip_by_value(g, -0.1, 0.1))
        >>> ops.grad(lambda x: clip(x) * 3)(ms.Tensor([1.]))   # [0.1]
    """

    def __init__(self, f):
        super().__init__("InsertGradientOf")
        self.f = f
        self.add_prim_attr("side_effect_backprop", True)

    def __call__(self, *args):
        if len(args) != 1:
            raise MSRuntimeError(f"For 'InsertGradientOf', the number of input should be 1, but got {len(args)}")
        return super().__call__(*args)

    def infer_shape(self, x):
        return x

    def infer_dtype(self, x):
        return x

    def bprop(self, x, out, dout):
        if not callable(self.f):
            raise MSTypeError(f"For 'InsertGradientOf', the 'f' must be callable, but got {type(self.f).__name__}.")
        return (self.f(dout),)


# --- Assert --------------------------------------------------------------------------------------------------------
class Assert(Primitive):
    """``Assert(summarize=3)(condition, input_data)``: raise ``RuntimeError`` (after printing the first
    ``summarize`` values of each tensor of ``input_data``) when the boolean ``condition`` is False.

    Examples:
        >>> ops.Assert(3)(ms.Tensor(False), [ms.Tensor([1, 2, 3])])   # RuntimeError: assert failed
    """

    side_effect = True

    @prim_attr_register
    def __init__(self, summarize=3):
        if isinstance(summarize, bool) or not isinstance(summarize, int):
            raise MSTypeError(f"For 'Assert', the type of 'summarize' should be 'int', but got type "
                              f"'{type(summarize).__name__}'.")
        self.summarize = summarize

    def __call__(self, condition, input_data):
        if isinstance(input_data, Tensor):
            input_data = (input_data,)
        if not isinstance(input_data, (tuple, list)) or not all(_is_tensor(t) for t in input_data):
            raise MSTypeError(f"For 'Assert', the 'input_data' must be a tuple or list of Tensors, but got "
                              f"{type(input_data).__name__}.")
        if isinstance(condition, bool):
            condition = Tensor(condition, mstype.bool_)
        return super().__call__(condition, tuple(input_data))

    def infer_shape(self, condition, input_data):
        if not isinstance(condition, tuple):
            raise MSTypeError(f"For 'Assert', the 'condition' must be a bool or a bool Tensor, but got "
                              f"{type(condition).__name__}.")
        if len(condition) > 1 or (len(condition) == 1 and condition[0] != 1):
            dim = condition[0] if len(condition) == 1 else len(condition)
            raise MSValueError(f"For 'Assert', the 'condition[0]' must be int and must = 1, but got '{dim}' with "
                               f"type 'int'.")
        return (1,)

    def infer_dtype(self, condition, input_data):
        if condition != mstype.bool_:
            raise MSTypeError(f"For 'Assert', the 'condition' must be a bool Tensor, but got {condition}.")
        return mstype.int32

    bprop = NON_DIFFERENTIABLE


# --- CheckNumerics -------------------------------------------------------------------------------------------------
class CheckNumerics(Primitive):
    """``CheckNumerics()(x)``: ``x``, or ``RuntimeError`` if it holds a NaN or an infinity (float tensors).

    Examples:
        >>> ops.CheckNumerics()(ms.Tensor([1., float("nan")]))   # RuntimeError: ... Tensor had NaN values
    """

    side_effect = True

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return x

    def infer_dtype(self, x):
        if not isinstance(x, mstype.Type) or x not in (mstype.float16, mstype.float32, mstype.float64):
            raise MSTypeError(f"For primitive[CheckNumerics], the input argument[x] must be a type of "
                              f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got Tensor[{x}].")
        return x

    def bprop(self, x, out, dout):
        return (dout,)


# --- TensorDump / DumpGradient -------------------------------------------------------------------------------------
class TensorDump(Primitive):
    """``TensorDump(input_output="out")(file, input_x)``: save ``input_x`` to ``<file>_<dtype>_<n>.npy``; None.

    Examples:
        >>> ops.TensorDump()("/tmp/dump/x", ms.Tensor([1., 2.]))   # writes /tmp/dump/x_float32_0.npy
    """

    side_effect = True

    @prim_attr_register
    def __init__(self, input_output="out"):
        if input_output not in ("in", "out"):
            raise MSValueError(f"The 'input_output' argument should be one of ['in', 'out'], but got: "
                               f"{input_output}")
        self.add_prim_attr("channel_name", "ms_tensor_dump")

    def __call__(self, file, input_x):
        if not isinstance(file, str):
            raise MSTypeError(f"For 'TensorDump', the type of 'file' should be 'str', but got type "
                              f"'{type(file).__name__}'.")
        if not _is_tensor(input_x):
            raise MSTypeError(f"For 'TensorDump', the 'input_x' must be Tensor, but got {type(input_x).__name__}.")
        super().__call__(file, input_x)
        return None

    @staticmethod
    def next_index():
        """The next file number (the kernels call this at each dump)."""
        return next(DUMP_COUNTER)

    def infer_shape(self, file, input_x):
        return ()

    def infer_dtype(self, file, input_x):
        return mstype.int32

    bprop = NON_DIFFERENTIABLE


class DumpGradient(Primitive):
    """``DumpGradient()(path, x, input_output)``: ``x``; the backward pass saves the gradient of ``x`` as
    ``TensorDump()(path, grad)`` does.

    Examples:
        >>> f = lambda x: ops.DumpGradient()("/tmp/g", x, "in") * 3
        >>> ops.grad(f)(ms.Tensor([1.]))   # [3.]; writes /tmp/g_float32_0.npy holding [3.]
    """

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, path, x, input_output):
        if not isinstance(path, str):
            raise MSTypeError(f"For 'DumpGradient', the type of 'path' should be 'str', but got type "
                              f"'{type(path).__name__}'.")
        if input_output not in ("in", "out"):
            raise MSValueError(f"For 'DumpGradient', the 'input_output' should be one of ['in', 'out'], but got: "
                               f"{input_output}")
        return super().__call__(path, x, input_output)

    def infer_shape(self, path, x, input_output):
        return x

    def infer_dtype(self, path, x, input_output):
        return x

    def bprop(self, path, x, input_output, out, dout):
        self._grad_prim(TensorDump)(path, dout)
        return (0, dout, 0)


# --- PyFunc --------------------------------------------------------------------------------------------------------
def _check_type_list(name, values):
    if not isinstance(values, (tuple, list)) or not all(isinstance(v, mstype.Type) for v in values):
        raise MSTypeError(f"For 'PyFunc', the '{name}' must be a list of mindspore dtypes, but got {values!r}.")
    return list(values)


def _check_shape_list(name, values):
    ok = isinstance(values, (tuple, list)) and all(
        isinstance(s, (tuple, list)) and all(isinstance(d, int) and not isinstance(d, bool) for d in s)
        for s in values)
    if not ok:
        raise MSTypeError(f"For 'PyFunc', the '{name}' must be a list of shapes (tuples of int), but got {values!r}.")
    return [tuple(s) for s in values]


class PyFunc(Primitive):
    """``PyFunc(fn, in_types, in_shapes, out_types, out_shapes, stateful=True)(*inputs)``: ``fn`` run on the
    inputs as NumPy arrays; always a tuple of ``len(out_types)`` tensors of the declared shapes and dtypes.

    Examples:
        >>> f = ops.PyFunc(lambda a: a * 2, [ms.float32], [(2,)], [ms.float32], [(2,)])
        >>> f(ms.Tensor([1., 2.]))   # (Tensor([2., 4.]),)
    """

    side_effect = True

    def __init__(self, fn, in_types, in_shapes, out_types, out_shapes, stateful=True):
        super().__init__("PyFunc")
        self.fn = fn
        self.in_types = _check_type_list("in_types", in_types)
        self.in_shapes = _check_shape_list("in_shapes", in_shapes)
        self.out_types = _check_type_list("out_types", out_types)
        self.out_shapes = _check_shape_list("out_shapes", out_shapes)
        if len(self.out_types) != len(self.out_shapes):
            raise MSValueError(f"For 'PyFunc', the length of 'out_types' and 'out_shapes' must be equal, but got "
                               f"{len(self.out_types)} and {len(self.out_shapes)}.")
        if not isinstance(stateful, bool):
            raise MSTypeError(f"For 'PyFunc', the 'stateful' must be bool, but got {type(stateful).__name__}.")
        self.stateful = stateful
        for k in ("in_types", "in_shapes", "out_types", "out_shapes"):
            self.attrs[k] = getattr(self, k)
        self.attrs["fn_id"] = id(fn)

    def __call__(self, *args):
        if not callable(self.fn):
            raise MSTypeError(f"For 'PyFunc', the 'fn' must be callable, but got {type(self.fn).__name__}.")
        if not self.out_types:
            super().__call__(*args)
            return ()
        out = super().__call__(*args)
        return out if isinstance(out, tuple) else (out,)

    def infer_shape(self, *inputs):
        if not self.out_shapes:
            return ()
        return self.out_shapes[0] if len(self.out_shapes) == 1 else tuple(self.out_shapes)

    def infer_dtype(self, *inputs):
        if not self.out_types:
            return mstype.int32
        return self.out_types[0] if len(self.out_types) == 1 else tuple(self.out_types)

    bprop = NON_DIFFERENTIABLE


# --- PyExecute -----------------------------------------------------------------------------------------------------
class PyExecute(_CallOnly):
    """``PyExecute()(script, keys, values)``: the value of the Python expression ``script`` with the names
    ``keys`` bound to ``values`` (what graph mode's JIT fallback runs).

    Examples:
        >>> ops.PyExecute()("a + b", ("a", "b"), (1, 2))   # 3
    """

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, script, keys=(), values=()):
        if not isinstance(script, str):
            raise MSTypeError(f"For 'PyExecute', the 'script' must be str, but got {type(script).__name__}.")
        keys, values = _as_tuple(keys), _as_tuple(values)
        if len(keys) != len(values) or not all(isinstance(k, str) for k in keys):
            raise MSValueError(f"For 'PyExecute', the 'keys' must be strings, as many as the 'values', but got "
                               f"{len(keys)} keys and {len(values)} values.")
        return eval(compile(script, "<PyExecute>", "eval"), {}, dict(zip(keys, values)))  # noqa: S307 - its job


# --- ForiLoop / WhileLoop / Scan -----------------------------------------------------------------------------------
def _staging():
    """Whether a graph is being staged (``ms.jit``): the top interpreter stages."""
    return _interpreters.STACK[-1].kind == "staging"


def _call(fn, args):
    # user functions run as Python: on staged tensors their tensor operations stage primitives (the loop unrolls)
    return fn(*args)


def _static_int(op, name, v):
    if _is_tensor(v):
        if _staging() and type(v).__name__ == "StagedTensor":
            raise MSTypeError(f"For '{op}', inside a compiled graph the '{name}' must be a constant, but got a "
                              f"Tensor computed by the graph.")
        v = v.asnumpy().item()
    if isinstance(v, bool) or not isinstance(v, int):
        raise MSTypeError(f"For '{op}', the '{name}' must be an int or a scalar Tensor, but got "
                          f"{type(v).__name__}.")
    return v


class ForiLoop(_CallOnly):
    """``ForiLoop()(lower, upper, loop_func, init_val, unroll=True)``: ``val = loop_func(i, val)`` for ``i`` in
    ``range(lower, upper)``; the final ``val``.

    Examples:
        >>> ops.ForiLoop()(0, 5, lambda i, v: v + i, ms.Tensor(0.))   # 10.0
    """

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, lower, upper, loop_func, init_val, unroll=True):
        _check_callable("ForiLoop", "loop_func", loop_func)
        if not isinstance(unroll, bool):
            raise MSTypeError(f"For 'ForiLoop', the 'unroll' must be bool, but got {type(unroll).__name__}.")
        lo, hi = _static_int("ForiLoop", "lower", lower), _static_int("ForiLoop", "upper", upper)
        val = init_val
        for i in range(lo, hi):
            val = _call(loop_func, (i, val))
        return val


_MAX_PYTHON_ITERATIONS = 10_000_000


class WhileLoop(_CallOnly):
    """``WhileLoop()(cond_func, loop_func, init_val)``: ``val = loop_func(val)`` while ``cond_func(val)``; the
    final ``val``. Inside ``ms.jit`` a tensor condition gives the graph's ``While``.

    Examples:
        >>> ops.WhileLoop()(lambda v: v < 10, lambda v: v + 3, 0)   # 12
    """

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, cond_func, loop_func, init_val):
        _check_callable("WhileLoop", "cond_func", cond_func)
        _check_callable("WhileLoop", "loop_func", loop_func)
        staged = _staging()
        val = init_val
        for _ in range(_MAX_PYTHON_ITERATIONS):
            c = _call(cond_func, (val,))
            if staged and type(c).__name__ == "StagedTensor":
                from mindspore._infer.staging import build_while   # graph staging (a layer above)
                (val,) = build_while(lambda v: _call(cond_func, (v,)), lambda v: (_call(loop_func, (v,)),), (val,))
                return val
            if _is_tensor(c):
                if c.size != 1:
                    raise MSValueError(f"For 'WhileLoop', the 'cond_func' must return a bool or a one-element "
                                       f"Tensor, but got a Tensor of shape {c.shape}.")
                c = bool(c.asnumpy().item())
            if not c:
                return val
            val = _call(loop_func, (val,))
        raise MSRuntimeError(f"For 'WhileLoop', the loop ran more than {_MAX_PYTHON_ITERATIONS} iterations.")


class Scan(_CallOnly):
    """``Scan()(loop_func, init, xs, length=None, unroll=True)``: ``carry, y = loop_func(carry, x)`` over the
    items of ``xs`` (a tuple or list, or None with ``length``); ``(carry, [y...])``.

    Examples:
        >>> ops.Scan()(lambda c, x: (c + x, c * x), 0, [1, 2, 3])   # (6, [0, 2, 9])
    """

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, loop_func, init, xs, length=None, unroll=True):
        _check_callable("Scan", "loop_func", loop_func)
        if xs is None:
            if length is None:
                raise MSValueError("For 'Scan', the 'length' must be given when 'xs' is None.")
            items = [None] * _static_int("Scan", "length", length)
        elif isinstance(xs, (tuple, list)):
            items = list(xs)
            if length is not None and _static_int("Scan", "length", length) != len(items):
                raise MSValueError(f"For 'Scan', the 'length' must be the length of 'xs' ({len(items)}), but got "
                                   f"{length}.")
        else:
            raise MSTypeError(f"For 'Scan', the 'xs' must be a tuple, a list or None, but got {type(xs).__name__}.")
        carry, ys = init, []
        for x in items:
            res = _call(loop_func, (carry, x))
            if not isinstance(res, (tuple, list)) or len(res) != 2:
                raise MSTypeError(f"For 'Scan', the 'loop_func' must return a pair (carry, y), but got "
                                  f"{type(res).__name__}.")
            carry = res[0]
            ys.append(res[1])
        return carry, ys


# --- Morph ---------------------------------------------------------------------------------------------------------
class Morph(_CallOnly):
    """``Morph(fn, infer_shape, infer_dtype, bprop_fn=None)(*args)``: ``fn(*args)`` as one operator of a compiled
    graph (GRAPH_MODE / ``ms.jit`` only), its output checked against ``infer_shape(*shapes)`` and
    ``infer_dtype(*dtypes)``. ``fn`` runs on the staged tensors, so its gradient is derived from its operations.

    Examples:
        >>> m = ops.Morph(lambda a: a * 2, lambda s: s, lambda t: t)
        >>> ms.jit(lambda a: m(a))(ms.Tensor([1., 2.]))   # [2. 4.]
    """

    def __init__(self, fn, infer_shape, infer_dtype, bprop_fn=None):
        super().__init__("Morph")
        self.fn = fn
        self.morph_infer_shape = infer_shape
        self.morph_infer_dtype = infer_dtype
        if bprop_fn is not None:
            raise MSValueError("For 'Morph', a 'bprop_fn' is not supported by this build: the gradient of a Morph "
                               "is derived from the operations of its 'fn'.")
        self.bprop_fn = bprop_fn
        self.add_prim_attr("__metamorphosis__", True)

    def __call__(self, *args):
        if not _staging():
            raise MSRuntimeError("Morph is only supported in GRAPH_MODE.")
        for name in ("fn", "morph_infer_shape", "morph_infer_dtype"):
            _check_callable("Morph", name.replace("morph_", ""), getattr(self, name))
        shapes = [tuple(a.shape) if _is_tensor(a) else a for a in args]
        dtypes = [a.dtype if _is_tensor(a) else a for a in args]
        want_shape = self.morph_infer_shape(*shapes)
        want_dtype = self.morph_infer_dtype(*dtypes)
        out = self.fn(*args)
        outs, shapes_, dtypes_ = (out, want_shape, want_dtype) if isinstance(out, tuple) else \
            ((out,), (want_shape,), (want_dtype,))
        for o, s, t in zip(outs, shapes_, dtypes_):
            if _is_tensor(o) and (tuple(o.shape) != tuple(s) or o.dtype != t):
                raise MSValueError(f"For 'Morph', the 'fn' returned a Tensor of shape {tuple(o.shape)} and dtype "
                                   f"{o.dtype}, but 'infer_shape'/'infer_dtype' gave {tuple(s)} and {t}.")
        return out


# --- Partial / UpdateState / GeSwitch / Merge / MoveTo / Reusing ---------------------------------------------------
class Partial(_CallOnly):
    """``Partial()(fn, *args)``: ``fn`` with its first arguments bound (``functools.partial``).

    Examples:
        >>> ops.Partial()(ops.sub, ms.Tensor(5.))(ms.Tensor(2.))   # 3.0
    """

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, *args):
        if not args:
            raise MSValueError("For 'Partial', it needs the function to bind, but got no input.")
        fn, bound = args[0], args[1:]
        _check_callable("Partial", "fn", fn)

        def partial_fn(*rest):
            return _call(fn, bound + rest)

        partial_fn.__name__ = f"partial({getattr(fn, '__name__', type(fn).__name__)})"
        return partial_fn


class UpdateState(_CallOnly):
    """``UpdateState()(state, *exprs)``: ``state`` (the compiler's ordering of side effects; eagerly a no-op)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, *args):
        if not args:
            raise MSValueError("For 'UpdateState', it needs at least one input, but got 0.")
        return args[0]


def _truth(op, pred):
    if _staging() and type(pred).__name__ == "StagedTensor":
        raise MSTypeError(f"For '{op}', inside a compiled graph the 'pred' must be a constant; for a condition "
                          f"computed by the graph use an 'if' statement or ops.select.")
    if _is_tensor(pred):
        if pred.size != 1:
            raise MSValueError(f"For '{op}', the 'pred' must have one element, but got shape {pred.shape}.")
        return bool(pred.asnumpy().item())
    if isinstance(pred, (bool, int)):
        return bool(pred)
    raise MSTypeError(f"For '{op}', the 'pred' must be a bool or a bool Tensor, but got {type(pred).__name__}.")


class GeSwitch(_CallOnly):
    """``GeSwitch()(data, pred)``: ``(None, data)`` when ``pred`` is True, ``(data, None)`` when it is False
    (the false and the true output of a dataflow switch; ``Merge`` takes the one that is present)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, data, pred):
        return (None, data) if _truth("GeSwitch", pred) else (data, None)


class Merge(_CallOnly):
    """``Merge()(inputs)``: ``(value, index)`` of the one input (of a tuple) that is present (not None)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, inputs):
        if not isinstance(inputs, (tuple, list)) or not inputs:
            raise MSTypeError(f"For 'Merge', the 'inputs' must be a non-empty tuple or list, but got "
                              f"{type(inputs).__name__}.")
        for i, v in enumerate(inputs):
            if v is not None:
                return v, Tensor(i, mstype.int32)
        raise MSValueError("For 'Merge', at least one of the 'inputs' must be present (not None).")


class MoveTo(Primitive):
    """``MoveTo()(x, to="CPU", blocking=True)``: a copy of ``x`` on device ``to`` ('CPU' or 'Ascend'; tensors
    live with this build's backend)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, to="CPU", blocking=True):
        if not _is_tensor(x):
            raise MSTypeError(f"For 'MoveTo', the 'x' must be Tensor, but got {type(x).__name__}.")
        if to not in ("Ascend", "CPU"):
            raise MSValueError(f"For 'MoveTo', the 'to' must be 'Ascend' or 'CPU', but got {to!r}.")
        if not isinstance(blocking, bool):
            raise MSTypeError(f"For 'MoveTo', the 'blocking' must be bool, but got {type(blocking).__name__}.")
        return super().__call__(x, to, blocking)

    def infer_shape(self, x, to, blocking):
        return x

    def infer_dtype(self, x, to, blocking):
        return x

    def bprop(self, x, to, blocking, out, dout):
        return (dout, 0, 0)


class Reusing(Primitive):
    """``Reusing()(x)``: ``x`` (marks a memory-reuse point for the compiler)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return x

    def infer_dtype(self, x):
        return x

    def bprop(self, x, out, dout):
        return (dout,)


class identity(Primitive):  # noqa: N801 - MindSpore's (deprecated) name
    """``identity()(x)``: ``x`` (the deprecated ``mindspore.ops.operations.identity``: runs ``Identity``; not in
    the registry, so that ``mindspore.ops.identity`` stays the function)."""

    @prim_attr_register
    def __init__(self):
        self._identity = Identity()

    def __call__(self, x):
        return self._identity(x)

    def infer_shape(self, x):
        return x

    def infer_dtype(self, x):
        return x

    def bprop(self, x, out, dout):
        return (dout,)


class SubAndFilter(_CallOnly):
    """``SubAndFilter()(input_x, max_num, offset)``: for the elements ``v`` of ``input_x`` (flattened, int32 or
    int64) with ``offset <= v < offset + max_num``, ``(v - offset, position)``: two 1-D tensors of the input's
    dtype, as long as there are such elements (the embedding cache's id filter).

    Examples:
        >>> ops.SubAndFilter()(ms.Tensor([1, 5, 9, 12, 3]), 10, 2)   # ([3, 7, 1], [1, 2, 4])
    """

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x, max_num, offset):
        if not _is_tensor(input_x) or input_x.dtype not in (mstype.int32, mstype.int64):
            got = f"Tensor[{input_x.dtype}]" if _is_tensor(input_x) else type(input_x).__name__
            raise MSTypeError(f"For primitive[SubAndFilter], the input argument[x] must be a type of "
                              f"{{Tensor[Int32], Tensor[Int64]}}, but got {got}.")
        for name, v in (("max_num", max_num), ("offset", offset)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise MSTypeError(f"For 'SubAndFilter', the '{name}' must be int, but got {type(v).__name__}.")
        flat = input_x.reshape((-1,))
        keep = (flat >= offset) & (flat < offset + max_num)
        positions = Tensor(list(range(flat.shape[0])), input_x.dtype)
        return (flat - offset).masked_select(keep), positions.masked_select(keep)


PRIMITIVES = [HookBackward, InsertGradientOf, Assert, CheckNumerics, TensorDump, DumpGradient, PyFunc, PyExecute,
              ForiLoop, WhileLoop, Scan, Partial, UpdateState, GeSwitch, Merge, MoveTo, Reusing, Morph,
              SubAndFilter]
