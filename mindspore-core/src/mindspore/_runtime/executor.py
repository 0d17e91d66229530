"""The graph executor: a typed graph as a schedule of kernels chosen once.

Design
------
Every kernel is looked up in the backend's registry when the graph is compiled (by primitive,
target and input dtype), never while it runs. Each graph (the top one, ``If`` branches, ``While``
condition and body, the backward loops autodiff makes) becomes one straight-line Python function,
generated from the IR and compiled with ``compile()``::

    def graph_construct(a0, a1, a2):
        v1 = k1(p1, a0, a2)        # MatMul kernel, chosen at compile time
        v2 = k2(p2, v1, a1)        # BiasAdd
        del v1                     # last use: the buffer goes back to the allocator
        return (v2,)

so running a graph costs one Python call per kernel and nothing else: no shape inference, no
dispatch, no tape. From its second call on, a graph runs through what the backend's runtime makes of
it (``DeviceRuntime.graph_runner(graph, run)``: ``run`` itself by default; the GPU backend replays a
captured CUDA graph), except while a kernel hook is set (the profiler times kernels one by one). A graph
with host decisions (``If``, ``While``) reaches a runtime that sets ``graph_segments`` in pieces instead: each
straight-line stretch between the decisions is outlined into a graph of its own (:mod:`mindspore._runtime.segments`)
and called as ``v3, v7, = r5(a0, v1)`` through what ``graph_runner`` made of it.
Values that die are released right after their last use (the memory plan of
:mod:`mindspore._pipeline.memory`).

Every kernel is called with the inferred output spec (``out=``). The first run of an executable is
*checked*: every kernel's output is compared with the shape and dtype inference gave, and a kernel
that returns anything else is reported by name; later runs use the unchecked function. A kernel
failure is reported with the primitive's name and the user's source position of the node.
"""
from __future__ import annotations

import linecache
import sys

import math

from mindspore._errors import InternalError, MindSporeError, MSRuntimeError, locate_error
from mindspore._ir import ops as irops
from mindspore._ir.nodes import Constant, Graph
from mindspore._ir.ops import CustomCall
from mindspore._infer.abstract import AbstractTensor, AbstractTuple
from mindspore._core.evaluate import check_target
from mindspore._core import primitive as _primitive
from mindspore._core.primitive import Primitive
from mindspore._runtime import backend as _backend
from mindspore._runtime import segments as _segments
from mindspore.common.tensor import Tensor

__all__ = ["Executable", "set_kernel_hook"]

_SIMPLE = (int, float, bool, type(None), str)

#: The kernel hook, while one is set (the profiler's): each kernel a compiled graph runs is then called as
#: ``hook(prim, kernel, args, out)`` instead of ``kernel(prim, *args, out=out)``. Graphs run code generated without
#: the hook (no cost per kernel) until one is set; from then on the variant that calls through it.
_KERNEL_HOOK = [None]


def set_kernel_hook(hook):
    """Install ``hook(prim, kernel, args, out) -> result`` around every kernel of compiled graphs (``None``: none);
    returns the hook it replaces. The profiler times GRAPH_MODE operators with it."""
    prev = _KERNEL_HOOK[0]
    _KERNEL_HOOK[0] = hook
    return prev


def _through_hook(prim, kernel, args, out):
    hook = _KERNEL_HOOK[0]
    return kernel(prim, *args, out=out) if hook is None else hook(prim, kernel, args, out)


def _input_layout(node):
    """(dtypes of all tensor inputs in order, per-input tensor mask) of an apply, from the abstract values."""
    dtypes, mask = [], []
    for x in node.inputs[1:]:
        ab = x.abstract
        if isinstance(ab, AbstractTensor):
            dtypes.append(ab.dtype)
            mask.append(True)
        elif isinstance(ab, AbstractTuple) and any(isinstance(e, AbstractTensor) for e in ab.elements):
            inner = tuple(isinstance(e, AbstractTensor) for e in ab.elements)
            dtypes.extend(e.dtype for e in ab.elements if isinstance(e, AbstractTensor))
            mask.append(inner)
        else:
            mask.append(False)
    return tuple(dtypes), tuple(mask)


def _out_spec(ab):
    """What a kernel receives as ``out``: the TensorSpec, or a tuple of them."""
    if isinstance(ab, AbstractTuple):
        return tuple(_out_spec(e) for e in ab.elements)
    return ab


def _np_dtype(ab):
    if isinstance(ab, AbstractTensor):
        return ab.dtype.to_numpy()
    if isinstance(ab, AbstractTuple):
        return tuple(_np_dtype(e) for e in ab.elements)
    return None


def _run_while(truth, cond, body, n_state, state, inv):
    while truth(cond(*state, *inv)):
        state = body(*state, *inv)
    return state


def _run_while_stack(truth, cond, body, n_state, state, inv):
    stack = []
    while truth(cond(*state, *inv)):
        stack.append(state)
        state = body(*state, *inv)
    return tuple(state) + (stack,)


def _run_while_grad(vjp_body, n_state, stack, dstate, inv, adds, zeros):
    """Backward of a loop: ``vjp_body(*state, *inv, *dnext) -> (*dstate, *dinv)`` per saved state; the
    loop-invariant inputs' gradients are summed over iterations with ``adds`` (the backend's Add kernel
    per input) and are ``zeros`` (its ZerosLike) when the loop ran no iteration."""
    dstate = tuple(dstate)
    dinv = None
    for state in reversed(stack):
        grads = vjp_body(*state, *inv, *dstate)
        dstate = tuple(grads[:n_state])
        step = grads[n_state:]
        dinv = tuple(step) if dinv is None else tuple(b if a is None else add(a, b)
                                                      for a, b, add in zip(dinv, step, adds))
    if dinv is None:
        dinv = tuple(zero(x) for x, zero in zip(inv, zeros))
    return dstate + tuple(dinv)


class _Checker:
    """The first run's check of each kernel output against inference: a kernel must return exactly the
    ``out`` spec it is given (later runs trust it)."""

    def __call__(self, key, value, np_dtype, shape, prim_name, node, kernel):
        if isinstance(np_dtype, tuple):
            if type(value) is not tuple or len(value) != len(np_dtype):
                raise self._bad(prim_name, node, kernel, "", type(value).__name__, f"a tuple of {len(np_dtype)}")
            return tuple(self(key + (i,), v, d, shape[i] if shape else None, prim_name, node, kernel)
                         for i, (v, d) in enumerate(zip(value, np_dtype)))
        dt = getattr(value, "dtype", None)
        if dt is None:
            raise self._bad(prim_name, node, kernel, "an object of type", type(value).__name__, "a device buffer")
        if dt != np_dtype:
            raise self._bad(prim_name, node, kernel, "dtype", dt, np_dtype)
        if shape is not None and tuple(value.shape) != tuple(shape) and -1 not in shape:
            raise self._bad(prim_name, node, kernel, "shape", tuple(value.shape), tuple(shape))
        return value

    @staticmethod
    def _bad(prim_name, node, kernel, what, got, expected):
        return MSRuntimeError(f"For '{prim_name}', the kernel '{_kernel_name(kernel)}' returned {what} {got}, but the "
                              f"inferred output is {expected} (at {node.loc}; a kernel must return exactly the 'out' "
                              f"spec it is given).")


def _kernel_name(fn):
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def _shapes(ab):
    if isinstance(ab, AbstractTensor):
        return ab.shape
    if isinstance(ab, AbstractTuple):
        return tuple(_shapes(e) for e in ab.elements)
    return None


class _Codegen:
    def __init__(self, backend, checker, hooked=False, weights=None):
        self.backend = backend
        self.hooked = hooked
        # ``weights`` (from segments.weights_through_calls) given: the graphs' straight-line stretches between host
        # decisions run through the runtime's graph_runner (DeviceRuntime.graph_segments); graphs compiled inside a
        # stretch are plain, as are all of them otherwise
        self.weights = weights
        self.plain = weights is None
        self.segments = [0]
        runtime = backend.runtime
        # a condition computed on the device decides Python control flow: one explicit transfer of its
        # (0-d, bool) value, or NumPy's own truth value on a host-memory backend
        truth = bool if runtime.is_host else (lambda buffer: bool(runtime.to_host(buffer)))
        self.env = {"_while": _run_while, "_while_stack": _run_while_stack, "_while_grad": _run_while_grad,
                    "_chk": checker, "_truth": truth, "_hook": _through_hook}
        self.checker = checker
        self.functions = {}
        self.counter = 0
        self.lines_to_node = {}

    def name(self, prefix, value):
        self.counter += 1
        n = f"{prefix}{self.counter}"
        self.env[n] = value
        return n

    def graph_fn(self, g):
        key = (g, self.plain)
        fname = self.functions.get(key)
        if fname is None:
            fname = f"g{len(self.functions)}_{_ident(g.name)}"
            self.functions[key] = fname
            self.compile_graph(g, fname)
        return fname

    def compile_graph(self, g, fname):
        names = {}
        for i, p in enumerate(g.params):
            names[p] = f"a{i}"
        steps = g.nodes if self.plain else _segments.plan(g, self.weights, self.segments)
        index = {node: k for k, node in enumerate(g.nodes)}
        last_use = _last_uses(g, steps)
        body = []
        nodes_at = {}
        for step in steps:
            if isinstance(step, _segments.Segment):
                for node in step.outputs:
                    names[node] = f"v{index[node]}"
                body.append(self.segment(step, names))
            else:
                k = index[step]
                names[step] = f"v{k}"
                stmt = self.statement(step, names, k)
                nodes_at[len(body) + 2] = step
                body.append(stmt)
            dead = [names[x] for x in last_use.get(step, ()) if x in names and x is not g.output]
            if dead:
                body.append("del " + ", ".join(dead))
        body.append(f"return {self.ref(g.output, names)}")
        src = f"def {fname}({', '.join(names[p] for p in g.params)}):\n" + "".join(f"    {s}\n" for s in body)
        filename = f"<graph {fname} {id(self)}>"
        linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
        exec(compile(src, filename, "exec"), self.env)
        self.lines_to_node[filename] = nodes_at
        self.env[fname].__ms_source__ = src

    def segment(self, seg, names):
        """``v3, v7, = r5(a0, v1)``: a stretch of applies run by what the runtime's graph_runner made of its graph."""
        plain, self.plain = self.plain, True
        try:
            fn = self.env[self.graph_fn(seg.graph)]
        finally:
            self.plain = plain
        runner = self.name("r", self.backend.runtime.graph_runner(seg.graph, fn))
        call = f"{runner}({', '.join(self.ref(x, names) for x in seg.inputs)})"
        if not seg.outputs:            # only in-place writes (an optimizer's branch)
            return call
        return "".join(names[n] + ", " for n in seg.outputs) + "= " + call

    def ref(self, x, names):
        if isinstance(x, Constant):
            v = x.value
            if isinstance(v, Tensor):
                return self.name("c", v._buffer())
            if type(v) in _SIMPLE and (not isinstance(v, float) or math.isfinite(v)):
                return repr(v)
            if isinstance(v, Graph):
                return self.graph_fn(v)
            return self.name("c", v)
        try:
            return names[x]
        except KeyError:
            raise InternalError(f"{x!r} is used by a graph it does not belong to") from None

    def statement(self, node, names, k):
        out = names[node]
        fn = node.fn_value()
        args = [self.ref(x, names) for x in node.inputs[1:]]
        if isinstance(fn, Primitive):
            return self.primitive(node, fn, out, args)
        if fn is irops.make_tuple:
            return f"{out} = ({''.join(a + ', ' for a in args)})"
        if fn is irops.tuple_getitem:
            return f"{out} = {args[0]}[{args[1]}]"
        if fn is irops.If:
            return f"{out} = ({args[1]} if _truth({args[0]}) else {args[2]})({', '.join(args[3:])})"
        if fn in (irops.While, irops.while_stack):
            n = node.inputs[3].value
            state, inv = args[3:3 + n], args[3 + n:]
            helper = "_while" if fn is irops.While else "_while_stack"
            return (f"{out} = {helper}(_truth, {args[0]}, {args[1]}, {n}, ({''.join(a + ', ' for a in state)}), "
                    f"({''.join(a + ', ' for a in inv)}))")
        if fn is irops.while_grad:
            n = node.inputs[2].value
            n_inv = len(args) - 3 - n
            dstate, inv = args[3:3 + n], args[3 + n:3 + n + n_inv]
            specs = [x.abstract for x in node.inputs[4 + n:4 + n + n_inv]]
            adds = self.name("adds", tuple(self.elementwise("Add", s, 2) for s in specs))
            zeros = self.name("zeros", tuple(self.elementwise("ZerosLike", s, 1) for s in specs))
            return (f"{out} = _while_grad({args[0]}, {n}, {args[2]}, ({''.join(a + ', ' for a in dstate)}), "
                    f"({''.join(a + ', ' for a in inv)}), {adds}, {zeros})")
        if fn is irops.raise_runtime:
            return f"raise {args[0]}"
        if isinstance(fn, Graph):
            return f"{out} = {self.graph_fn(fn)}({', '.join(args)})"
        if isinstance(fn, CustomCall):
            return f"{out} = {self.graph_fn(fn.graph)}({', '.join(args)})"
        if isinstance(fn, irops.IROp):
            raise InternalError(f"the executor can not run IR op '{fn.name}' (it should have been lowered)")
        return f"{out} = {self.ref(node.inputs[0], names)}({', '.join(args)})"

    def elementwise(self, name, spec, arity):
        """A function running the backend's kernel of primitive ``name`` on ``arity`` buffers of ``spec``."""
        prim = _primitive.instance(name)   # Add or ZerosLike: sums and zeros of loop gradients
        kernel = self.backend.kernel(name, (spec.dtype,) * arity, (True,) * arity)

        def run(*buffers):
            return kernel(prim, *buffers, out=spec)
        return run

    def primitive(self, node, prim, out, args):
        b = self.backend
        check_target(prim, b.target)
        kernel = getattr(prim, "kernel", None)   # a backend pass's fused apply carries its own kernel
        if kernel is None:
            dtypes, mask = _input_layout(node)
            kernel = b.kernel(type(prim).__name__, dtypes, mask)
        k = self.name("k", kernel)
        p = self.name("p", prim)
        o = self.name("o", _out_spec(node.abstract))
        if self.hooked:
            call = f"_hook({p}, {k}, ({''.join(a + ', ' for a in args)}), {o})"
        else:
            call = f"{k}({p}{''.join(', ' + a for a in args)}, out={o})"
        if self.checker is not None:
            key = (id(node),)
            d = self.name("d", _np_dtype(node.abstract))
            s = self.name("s", _shapes(node.abstract))
            nd = self.name("n", node)
            return f"{out} = _chk({key!r}, {call}, {d}, {s}, {prim.name!r}, {nd}, {k})"
        return f"{out} = {call}"


def _ident(name):
    """A Python identifier made of ``name``'s ASCII letters, digits and underscores (a graph is named after the
    user's function, which may be any string: ``"scale²"``, ``"3-times"``)."""
    return "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in str(name))[:40]


def _last_uses(g, steps=None):
    """step (an apply, or a segment of applies) -> the values whose last use it is (values not used at all are never
    bound long)."""
    last = {}
    for step in g.nodes if steps is None else steps:
        for x in step.inputs if isinstance(step, _segments.Segment) else step.inputs[1:]:
            if not isinstance(x, Constant):
                last[x] = step
    out = {}
    for value, step in last.items():
        if value.graph is g:
            out.setdefault(step, []).append(value)
    return out


class Executable:
    """A typed graph compiled for the current backend: ``run(*inputs) -> outputs``."""

    def __init__(self, graph, backend=None):
        self.graph = graph
        self.backend = backend or _backend.current()
        self._checker = _Checker()
        self._gens = []
        self._checked = self._generate(self._checker)
        self._fast = None
        self._hooked = None
        self._runner = None     # what runs the graph from its second call on (see DeviceRuntime.graph_runner)

    def _generate(self, checker, hooked=False, weights=None):
        gen = _Codegen(self.backend, checker, hooked, weights)
        name = gen.graph_fn(self.graph)
        self._gens.append(gen)
        return gen.env[name]

    def source(self):
        """The generated Python of the top graph (for debugging and tests)."""
        fast = self._fast or self._checked
        return fast.__ms_source__

    def __call__(self, *inputs):
        if _KERNEL_HOOK[0] is not None:
            if self._fast is None:      # the first run is also the checked one
                out = self._run(self._generate(self._checker, hooked=True), inputs)
                self._fast = self._generate(None)
                return out
            if self._hooked is None:
                self._hooked = self._generate(None, hooked=True)
            return self._run(self._hooked, inputs)
        runner = self._runner
        if runner is None:
            if self._fast is None:
                out = self._run(self._checked, inputs)
                self._fast = self._generate(None)
                return out
            # from the second call on: the backend may replace the kernel-by-kernel run (CUDA-graph replay), of the
            # whole graph, or of its straight-line stretches when host decisions cut it (see _runtime.segments)
            runtime = self.backend.runtime
            make = getattr(runtime, "graph_runner", None)
            if make is None:
                runner = self._run_fast
            elif getattr(runtime, "graph_segments", False) and _segments.host_decided(self.graph):
                fn = self._generate(None, weights=_segments.weights_through_calls(self.graph))
                runner = lambda *buffers: self._run(fn, buffers)  # noqa: E731
            else:
                runner = make(self.graph, self._run_fast)
            self._runner = runner
        return runner(*inputs)

    def _run_fast(self, *inputs):
        """The graph's kernels one by one, without the first run's checks: what ``DeviceRuntime.graph_runner``
        wraps."""
        return self._run(self._fast, inputs)

    def _run(self, fn, inputs):
        try:
            return fn(*inputs)
        except MindSporeError:
            raise
        except Exception as exc:  # noqa: BLE001 - a kernel failed: say which node, where
            node = self._failing_node(sys.exc_info()[2])
            if node is None:
                raise
            prim = node.fn_value()
            if prim is irops.raise_runtime:   # the user's own raise, reached at run time
                raise locate_error(exc, [node.loc], as_runtime=False) from None
            name = getattr(prim, "name", repr(prim))
            err = MSRuntimeError(f"For '{name}', the kernel failed while running the graph: "
                                 f"{type(exc).__name__}: {exc}")
            raise locate_error(err, [node.loc]) from exc

    def _failing_node(self, tb):
        found = None
        while tb is not None:
            code = tb.tb_frame.f_code
            for gen in self._gens:
                table = gen.lines_to_node.get(code.co_filename)
                if table is not None:
                    found = table.get(tb.tb_lineno, found)
            tb = tb.tb_next
        return found

