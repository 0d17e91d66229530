"""Python source -> untyped graph IR.

Algorithm
---------
The function's AST is first normalised (:mod:`mindspore._parse.normalize`: early returns, ``break``
and ``continue`` become structured code), then walked once, one ``process_<Node>`` method per AST
node kind, appending applies to the current graph in source order.

Variables are SSA values: a :class:`_Scope` maps each name to the node holding its current value.
Control flow builds closures, each a graph whose parent is the current one:

* ``if`` -> two branch graphs returning the tuple of the variables either branch assigns (or the
  return value, when both branches return); ``%s = switch(cond, @true, @false)`` then ``%s()``,
  and the variables are rebound to the items of the result;
* ``while`` -> a condition graph and a body graph over the loop-carried variables (those the body
  assigns): ``while_loop(@cond, @body, (init...))``; ``for`` -> a body graph taking the item first:
  ``for_loop(@body, seq, (init...))``;
* ``and``/``or``/``x if c else y`` -> ``switch`` on closures, so the right operand is evaluated
  lazily as in Python; comprehensions -> a ``for_loop`` appending to a list;
* nested ``def`` and ``lambda`` -> closures (``make_function`` when they have defaults);
* ``with m as t`` -> ``t = m.__enter__()``, the body, ``m.__exit__(None, None, None)``;
* ``a[i] = v`` -> ``a = setitem(a, i, v)`` (``a[i][j] = v`` rebinds ``a[i]`` then ``a``; ``self.x[i] = v`` rebinds a
  pseudo-variable ``"self.x"`` that later reads of ``self.x`` in the function see), as MindSpore 2.10 does;
* ``global n`` -> reads of ``n`` are the module's; assignments to it are dropped (MindSpore 2.10).

Names not bound in the function become :class:`~mindspore._parse.resolve.Symbol` constants (closure
cells, globals, builtins; resolved by inference). Statements and expressions outside the supported
subset raise ``RuntimeError`` ("Unsupported statement 'Try'") at the user's file:line:col.
"""
from __future__ import annotations

import ast
import weakref

from mindspore._errors import graph_syntax_error
from mindspore._ir import ops as irops
from mindspore._ir.nodes import UNDEFINED, Constant, Graph, Location
from mindspore._parse.normalize import contains, normalize_function_body
from mindspore._parse.resolve import Symbol, get_source_ast

__all__ = ["parse", "Signature"]

_CACHE = weakref.WeakKeyDictionary()

_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
           ast.Mod: "mod", ast.Pow: "pow", ast.MatMult: "matmul", ast.LShift: "lshift", ast.RShift: "rshift",
           ast.BitAnd: "bitand", ast.BitOr: "bitor", ast.BitXor: "bitxor"}
_CMPOPS = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Is: "is",
           ast.IsNot: "is_not", ast.In: "in", ast.NotIn: "not_in"}
_UNARY = {ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert"}


class Signature:
    """How call arguments bind to a graph's parameters (positional names, ``*args``, keyword-only
    names, ``**kwargs``); parameters appear in that order."""

    __slots__ = ("names", "vararg", "kwonly", "kwarg", "n_defaults", "kw_defaults")

    def __init__(self, names, vararg, kwonly, kwarg, n_defaults=0, kw_defaults=()):
        self.names = names
        self.vararg = vararg
        self.kwonly = kwonly
        self.kwarg = kwarg
        self.n_defaults = n_defaults
        self.kw_defaults = kw_defaults     # names of keyword-only parameters with a default


MAKE_FUNCTION = irops.IROp("make_function")
STAR_CONCAT = irops.IROp("star_concat", doc="star_concat(seq, ...): one tuple of the items of each")
DICT_MERGE = irops.IROp("dict_merge")
LIST_APPEND = irops.IROp("list_append", pure=False)


def parse(fn):
    """The untyped graph of Python function ``fn`` (cached per function object)."""
    try:
        return _CACHE[fn]
    except (KeyError, TypeError):
        pass
    node, filename, line_offset, col_offset = get_source_ast(fn)
    graph = _Parser(fn, filename, line_offset, col_offset).function(node)
    graph.pyfunc = fn
    try:
        _CACHE[fn] = graph
    except TypeError:
        pass
    return graph


class _Scope:
    __slots__ = ("graph", "parent", "vars", "fn_locals", "fn_globals")

    def __init__(self, graph, parent=None, fn_locals=None, fn_globals=None):
        self.graph = graph
        self.parent = parent
        self.vars = {}
        self.fn_locals = fn_locals if fn_locals is not None else (parent.fn_locals if parent else set())
        self.fn_globals = fn_globals if fn_globals is not None else (parent.fn_globals if parent else frozenset())

    def lookup(self, name):
        s = self
        while s is not None:
            v = s.vars.get(name)
            if v is not None:
                return v
            s = s.parent
        return None


def _stored_names(stmts, bound=None):
    """Names a block binds (assignment targets, loop targets, defs), in first-appearance order;
    nested functions, lambdas and comprehensions have their own scopes and are skipped. With ``bound`` (a block
    inside a function: a branch or a loop body), also the names ``a`` of item assignments ``a[i] = v`` for which
    ``bound(a)`` (a name the function has a value for): ``a[i] = v`` binds ``a`` to the new value (see ``assign``),
    which the block hands on; an item assignment does not make a name local to the function."""
    out = {}

    def target(t):
        if isinstance(t, ast.Name):
            out.setdefault(t.id, None)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                target(e)
        elif isinstance(t, ast.Starred):
            target(t.value)
        elif bound is not None and isinstance(t, ast.Subscript):
            root = _item_root(t)
            if root is not None and bound(root):
                out.setdefault(root, None)

    def walk_expr(e):
        for sub in ast.walk(e):
            if isinstance(sub, ast.NamedExpr):
                target(sub.target)

    def walk(stmts):
        for s in stmts:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.setdefault(s.name, None)
                continue
            if isinstance(s, ast.Assign):
                for t in s.targets:
                    target(t)
            elif isinstance(s, (ast.AugAssign, ast.AnnAssign)):
                target(s.target)
            elif isinstance(s, (ast.For, ast.AsyncFor)):
                target(s.target)
            elif isinstance(s, (ast.With, ast.AsyncWith)):
                for item in s.items:
                    if item.optional_vars is not None:
                        target(item.optional_vars)
            for field in ("test", "value", "iter"):
                e = getattr(s, field, None)
                if isinstance(e, ast.AST):
                    walk_expr(e)
            for field in ("body", "orelse", "finalbody"):
                sub = getattr(s, field, None)
                if sub:
                    walk(sub)
    walk(stmts)
    return list(out)


def _global_names(stmts):
    """The names a function body declares ``global`` (its nested functions have their own declarations)."""
    out = []
    todo = list(stmts)
    while todo:
        s = todo.pop()
        if isinstance(s, ast.Global):
            out.extend(s.names)
        elif not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(c for c in ast.iter_child_nodes(s) if isinstance(c, ast.stmt))
    return out


def _item_root(t):
    """The variable an item assignment ``t = v`` (``t`` a subscript) rebinds, as MindSpore 2.10's graph mode does:
    ``a[i] = v`` and ``a[i][j] = v`` rebind ``a``; ``self.x[i] = v`` rebinds ``self.x`` (:meth:`_Parser.rebind_item`),
    named ``"self.x"`` here; None for any other base (``obj.x[i] = v``, ``f()[i] = v``)."""
    while isinstance(t, ast.Subscript):
        t = t.value
    if isinstance(t, ast.Name):
        return t.id
    if _is_self_attr(t):
        return "self." + t.attr
    return None


def _is_self_attr(e):
    return isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self"


def _self_attrs_set(fnode):
    """The attributes ``x`` a function (with the functions nested in it) sets as ``self.x = ...`` or ``self.x op= ...``:
    in MindSpore 2.10 every read of such a ``self.x`` reads the attribute, so ``self.x[i] = v`` does not rebind it."""
    out = set()

    def target(t):
        if _is_self_attr(t):
            out.add(t.attr)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                target(e)
        elif isinstance(t, ast.Starred):
            target(t.value)
    for s in ast.walk(fnode):
        if isinstance(s, ast.Assign):
            for t in s.targets:
                target(t)
        elif isinstance(s, (ast.AugAssign, ast.AnnAssign, ast.For)):
            target(s.target)
        elif isinstance(s, ast.withitem) and s.optional_vars is not None:
            target(s.optional_vars)
    return out


class _Parser:
    def __init__(self, fn, filename, line_offset, col_offset):
        self.fn = fn
        self.self_setattrs = set()
        self.filename = filename
        self.line_offset = line_offset
        self.col_offset = col_offset
        self.func_name = getattr(fn, "__qualname__", "<lambda>")
        self.g = None
        self.scope = None
        self.counter = 0

    # -- helpers ------------------------------------------------------------------------------------
    def loc(self, node):
        if node is None or not hasattr(node, "lineno"):
            return None
        end_col = getattr(node, "end_col_offset", None)
        return Location(self.filename, node.lineno + self.line_offset, node.col_offset + self.col_offset,
                        (getattr(node, "end_lineno", None) or node.lineno) + self.line_offset,
                        end_col + self.col_offset if end_col is not None else None, self.func_name)

    def emit(self, op, *args, at=None):
        return self.g.apply(Constant(op), *[a if not isinstance(a, _Raw) else Constant(a.value) for a in args],
                            loc=self.loc(at))

    def error(self, node, message, kind="syntax"):
        return graph_syntax_error(message, self.loc(node), kind)

    def new_graph(self, name, at):
        g = Graph(name, parent=self.g, loc=self.loc(at))
        return g

    class _Enter:
        def __init__(self, parser, graph, scope):
            self.p, self.graph, self.scope = parser, graph, scope

        def __enter__(self):
            self.saved = (self.p.g, self.p.scope)
            self.p.g, self.p.scope = self.graph, self.scope
            return self.graph

        def __exit__(self, *exc):
            self.p.g, self.p.scope = self.saved

    def enter(self, graph, scope):
        return _Parser._Enter(self, graph, scope)

    def read(self, name, at):
        node = self.scope.lookup(name)
        if node is not None:
            return node
        if name in self.scope.fn_locals:
            raise self.error(at, f"The local variable '{name}' is referenced before assignment.", "name")
        return Constant(Symbol(name, self.fn), self.loc(at))

    def bind(self, name, node):
        if name in self.scope.fn_globals:
            return      # MindSpore 2.10 drops an assignment to a name declared ``global`` (reads see the global)
        self.scope.vars[name] = node

    # -- functions ----------------------------------------------------------------------------------
    def function(self, fnode):
        self.self_setattrs = _self_attrs_set(fnode)
        g = Graph(getattr(fnode, "name", "lambda") if not isinstance(fnode, ast.Lambda) else "lambda",
                  loc=self.loc(fnode))
        self.build_function(g, fnode, parent_scope=None)
        return g

    def build_function(self, g, fnode, parent_scope):
        args = fnode.args
        body = fnode.body
        if isinstance(fnode, ast.Lambda):
            body = [ast.copy_location(ast.Return(value=fnode.body), fnode.body)]
        else:
            body = [s for i, s in enumerate(body)
                    if not (i == 0 and isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                            and isinstance(s.value.value, str))]
            if not body:
                body = [ast.copy_location(ast.Pass(), fnode)]
        body = normalize_function_body(body, fnode)
        names = [a.arg for a in args.posonlyargs + args.args]
        kwonly = [a.arg for a in args.kwonlyargs]
        g.signature = Signature(names, args.vararg.arg if args.vararg else None, kwonly,
                                args.kwarg.arg if args.kwarg else None, len(args.defaults),
                                tuple(k for k, d in zip(kwonly, args.kw_defaults) if d is not None))
        fn_globals = frozenset(_global_names(body))
        fn_locals = (set(names) | set(kwonly) | set(_stored_names(body))) - fn_globals
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                fn_locals.add(extra.arg)
        scope = _Scope(g, parent_scope, fn_locals, fn_globals)
        with self.enter(g, scope):
            all_args = args.posonlyargs + args.args + ([args.vararg] if args.vararg else []) + args.kwonlyargs + (
                [args.kwarg] if args.kwarg else [])
            order = names + ([args.vararg.arg] if args.vararg else []) + kwonly + (
                [args.kwarg.arg] if args.kwarg else [])
            by_name = {a.arg: a for a in all_args}
            for n in order:
                self.bind(n, g.add_param(n, self.loc(by_name[n])))
            result = self.block(body)
            if result is None:
                result = Constant(None)
            g.set_output(result)
        return g

    # -- statements ---------------------------------------------------------------------------------
    def block(self, stmts):
        """Process statements; returns the node returned (a ``return`` was reached) or ``None``."""
        for s in stmts:
            method = getattr(self, "process_" + type(s).__name__, None)
            if method is None:
                raise self.error(s, f"Unsupported statement '{type(s).__name__}'.")
            r = method(s)
            if r is not None:
                return r
        return None

    def process_Expr(self, s):
        self.expr(s.value)

    def process_Pass(self, s):
        return None

    def process_Return(self, s):
        return self.expr(s.value) if s.value is not None else Constant(None)

    def process_Assign(self, s):
        value = self.expr(s.value)
        for t in s.targets:
            self.assign(t, value, s)

    def process_AnnAssign(self, s):
        if s.value is not None:
            self.assign(s.target, self.expr(s.value), s)

    def process_AugAssign(self, s):
        op = _BINOPS[type(s.op)]
        t = s.target
        # on a name or an attribute, a tensor is updated in place (MindSpore 2.10's graph mode); an item of one is not
        if isinstance(t, ast.Name):
            self.bind(t.id, self.emit(irops.AUGASSIGN[op], self.read(t.id, t), self.expr(s.value), at=s))
        elif isinstance(t, ast.Attribute):
            obj = self.expr(t.value)
            cur = self.emit(irops.getattr_, obj, _Raw(t.attr), at=t)
            self.emit(irops.setattr_, obj, _Raw(t.attr), self.emit(irops.AUGASSIGN[op], cur, self.expr(s.value), at=s),
                      at=s)
        elif isinstance(t, ast.Subscript):
            obj = self.expr(t.value)
            idx = self.index(t.slice)
            cur = self.emit(irops.getitem, obj, idx, at=t)
            new = self.emit(irops.setitem, obj, idx, self.emit(irops.BINARY[op], cur, self.expr(s.value), at=s), at=s)
            self.rebind_item(t.value, new, s)
        else:
            raise self.error(t, f"Unsupported augmented assignment target '{type(t).__name__}'.")

    def assign(self, t, value, at):
        if isinstance(t, ast.Name):
            self.bind(t.id, value)
        elif isinstance(t, (ast.Tuple, ast.List)):
            star = [i for i, e in enumerate(t.elts) if isinstance(e, ast.Starred)]
            packed = self.emit(irops.unpack, value, _Raw(len(t.elts)), _Raw(star[0] if star else -1), at=at)
            for i, e in enumerate(t.elts):
                item = self.emit(irops.tuple_getitem, packed, _Raw(i), at=e)
                self.assign(e.value if isinstance(e, ast.Starred) else e, item, at)
        elif isinstance(t, ast.Attribute):
            self.emit(irops.setattr_, self.expr(t.value), _Raw(t.attr), value, at=t)
        elif isinstance(t, ast.Subscript):
            new = self.emit(irops.setitem, self.expr(t.value), self.index(t.slice), value, at=t)
            self.rebind_item(t.value, new, at)
        else:
            raise self.error(t, f"Unsupported assignment target '{type(t).__name__}'.")

    def rebind_item(self, base, new, at):
        """After ``base[i] = v`` (``new``: the updated value), what MindSpore 2.10's graph mode rebinds (measured,
        tests/fixtures/graph_syntax/setitem_attr_cases.py): a name ``a`` takes the new value; ``a[j][i] = v`` is
        ``a[j] = new`` in turn (a tuple on the way raises Python's TypeError); ``self.x[i] = v`` rebinds ``self.x`` for
        the rest of this function and the functions nested in it (not for the methods it calls, and not after the call:
        the attribute itself is unchanged), unless the function also sets ``self.x = ...`` (then every read of
        ``self.x`` reads the attribute); ``obj.x[i] = v`` rebinds nothing."""
        if isinstance(base, ast.Name):
            self.bind(base.id, new)
        elif isinstance(base, ast.Subscript):
            self.assign(base, new, at)
        elif _is_self_attr(base) and base.attr not in self.self_setattrs:
            self.bind("self." + base.attr, new)

    def process_Raise(self, s):
        exc = self.expr(s.exc) if s.exc is not None else Constant(None)
        self.emit(irops.raise_, exc, at=s)
        return Constant(None)   # the block ends here; the value is never produced

    def process_Assert(self, s):
        msg = self.expr(s.msg) if s.msg is not None else Constant(None)
        self.emit(irops.assert_, self.expr(s.test), msg, at=s)

    def process_FunctionDef(self, s):
        if s.decorator_list:
            raise self.error(s.decorator_list[0], "Unsupported decorator on a function defined in graph mode.")
        self.bind(s.name, self.closure(s, s.name))

    def closure(self, fnode, name):
        g = self.new_graph(name, fnode)
        defaults = [self.expr(d) for d in fnode.args.defaults]
        kw_defaults = [self.expr(d) for d in fnode.args.kw_defaults if d is not None]
        self.build_function(g, fnode, self.scope)
        if not defaults and not kw_defaults:
            return Constant(g, self.loc(fnode))
        return self.emit(MAKE_FUNCTION, Constant(g), self.emit(irops.make_tuple, *defaults, at=fnode),
                         self.emit(irops.make_tuple, *kw_defaults, at=fnode), at=fnode)

    def process_If(self, s):
        cond = self.expr(s.test)
        returns = _ends_in_return(s.body) and _ends_in_return(s.orelse)
        names = [] if returns else _stored_names(s.body + s.orelse, self.is_bound)
        t = self.branch("if_true", s.body, names, s, returns)
        f = self.branch("if_false", s.orelse, names, s, returns)
        sw = self.emit(irops.switch, cond, Constant(t), Constant(f), at=s.test)
        res = self.g.apply(sw, loc=self.loc(s))
        if returns:
            return res
        for i, n in enumerate(names):
            self.bind(n, self.emit(irops.tuple_getitem, res, _Raw(i), at=s))
        return None

    def branch(self, name, stmts, names, at, returns):
        g = self.new_graph(name, at)
        with self.enter(g, _Scope(g, self.scope)):
            r = self.block(stmts)
            if returns:
                g.set_output(r if r is not None else Constant(None))
            else:
                g.set_output(self.emit(irops.make_tuple, *[self.current(n) for n in names]))
        return g

    def is_bound(self, name):
        """Whether ``name`` has a value in the function being parsed (or one it is nested in); ``"self.x"`` (see
        :meth:`rebind_item`) always has one, the attribute's, unless the function sets ``self.x``."""
        if name.startswith("self."):
            return name[5:] not in self.self_setattrs
        return self.scope.lookup(name) is not None

    def current(self, name):
        node = self.scope.lookup(name)
        if node is None and name.startswith("self."):    # not rebound yet: the attribute
            return self.emit(irops.getattr_, self.read("self", None), _Raw(name[5:]))
        return node if node is not None else Constant(UNDEFINED)

    def process_While(self, s):
        names = _stored_names(s.body, self.is_bound)
        init = self.emit(irops.make_tuple, *[self.current(n) for n in names], at=s)
        cond_g = self.new_graph("while_cond", s.test)
        with self.enter(cond_g, _Scope(cond_g, self.scope)):
            for n in names:
                self.bind(n, cond_g.add_param(n))
            cond_g.set_output(self.expr(s.test))
        body_g = self.new_graph("while_body", s)
        with self.enter(body_g, _Scope(body_g, self.scope)):
            for n in names:
                self.bind(n, body_g.add_param(n))
            self.block(s.body)
            body_g.set_output(self.emit(irops.make_tuple, *[self.current(n) for n in names]))
        st = self.emit(irops.while_loop, Constant(cond_g), Constant(body_g), init, at=s)
        for i, n in enumerate(names):
            self.bind(n, self.emit(irops.tuple_getitem, st, _Raw(i), at=s))

    def process_For(self, s):
        seq = self.expr(s.iter)
        self.for_loop(s.target, seq, s.body, s)

    def for_loop(self, target, seq, body, at, body_builder=None):
        names = _stored_names([ast.copy_location(ast.Assign(targets=[target], value=ast.Constant(None)), at)] + body,
                              self.is_bound)
        init = self.emit(irops.make_tuple, *[self.current(n) for n in names], at=at)
        body_g = self.new_graph("for_body", at)
        with self.enter(body_g, _Scope(body_g, self.scope)):
            item = body_g.add_param("item")
            for n in names:
                self.bind(n, body_g.add_param(n))
            self.assign(target, item, at)
            if body_builder is not None:
                body_builder()
            else:
                self.block(body)
            body_g.set_output(self.emit(irops.make_tuple, *[self.current(n) for n in names]))
        st = self.emit(irops.for_loop, Constant(body_g), seq, init, at=at)
        for i, n in enumerate(names):
            self.bind(n, self.emit(irops.tuple_getitem, st, _Raw(i), at=at))

    def _unsupported(self, s):
        raise self.error(s, f"Unsupported statement '{type(s).__name__}'.")

    process_Try = process_Delete = process_Nonlocal = _unsupported

    def process_Global(self, s):
        """``global name``: every read of ``name`` in the function is the module's global; MindSpore 2.10 drops the
        function's assignments to it (the global keeps its value), and so does this parser (see ``bind``)."""
        return None

    def process_With(self, s):
        """``with m as t: body`` is ``t = m.__enter__()``, the body, then ``m.__exit__(None, None, None)``: a graph
        raises no exception for ``__exit__`` to see (MindSpore's graph-mode ``with`` works the same way)."""
        if contains(s.body, (ast.Return, ast.Break, ast.Continue)):
            raise self.error(s, "In graph mode, 'return', 'break' and 'continue' inside a 'with' block are not "
                                "supported; assign the result and leave the block normally.")
        managers = []
        for item in s.items:
            mgr = self.expr(item.context_expr)
            enter = self.emit(irops.getattr_, mgr, _Raw("__enter__"), at=item.context_expr)
            value = self.g.apply(enter, loc=self.loc(item.context_expr))
            if item.optional_vars is not None:
                self.assign(item.optional_vars, value, s)
            managers.append((mgr, item.context_expr))
        self.block(s.body)
        for mgr, at in reversed(managers):
            leave = self.emit(irops.getattr_, mgr, _Raw("__exit__"), at=at)
            self.g.apply(leave, Constant(None), Constant(None), Constant(None), loc=self.loc(at))
    process_Import = process_ImportFrom = process_ClassDef = process_AsyncFunctionDef = _unsupported

    # -- expressions --------------------------------------------------------------------------------
    def expr(self, e):
        method = getattr(self, "expr_" + type(e).__name__, None)
        if method is None:
            raise self.error(e, f"Unsupported expression '{type(e).__name__}'.")
        return method(e)

    def expr_Constant(self, e):
        return Constant(e.value, self.loc(e))

    def expr_Name(self, e):
        return self.read(e.id, e)

    def expr_Attribute(self, e):
        if _is_self_attr(e):
            node = self.scope.lookup("self." + e.attr)      # rebound by ``self.x[i] = v`` (see rebind_item)
            if node is not None:
                return node
        return self.emit(irops.getattr_, self.expr(e.value), _Raw(e.attr), at=e)

    def index(self, e):
        if isinstance(e, ast.Slice):
            parts = [self.expr(p) if p is not None else Constant(None) for p in (e.lower, e.upper, e.step)]
            return self.emit(irops.make_slice, *parts, at=e)
        if isinstance(e, ast.Tuple):
            return self.emit(irops.make_tuple, *[self.index(x) for x in e.elts], at=e)
        return self.expr(e)

    def expr_Subscript(self, e):
        return self.emit(irops.getitem, self.expr(e.value), self.index(e.slice), at=e)

    def expr_Slice(self, e):
        return self.index(e)

    def expr_BinOp(self, e):
        return self.emit(irops.BINARY[_BINOPS[type(e.op)]], self.expr(e.left), self.expr(e.right), at=e)

    def expr_UnaryOp(self, e):
        if isinstance(e.op, ast.Not):
            return self.emit(irops.not_, self.expr(e.operand), at=e)
        return self.emit(irops.UNARY[_UNARY[type(e.op)]], self.expr(e.operand), at=e)

    def expr_Compare(self, e):
        left = self.expr(e.left)
        if len(e.ops) == 1:
            return self.emit(irops.BINARY[_CMPOPS[type(e.ops[0])]], left, self.expr(e.comparators[0]), at=e)
        # a < b < c: (a < b) and (b < c), each operand evaluated once
        right = self.expr(e.comparators[0])
        first = self.emit(irops.BINARY[_CMPOPS[type(e.ops[0])]], left, right, at=e)
        rest = ast.copy_location(ast.Compare(left=_NodeRef(right), ops=e.ops[1:], comparators=e.comparators[1:]), e)
        return self.lazy_bool("and", first, rest, e)

    def expr_BoolOp(self, e):
        value = self.expr(e.values[0])
        kind = "and" if isinstance(e.op, ast.And) else "or"
        for operand in e.values[1:]:
            value = self.lazy_bool(kind, value, operand, e)
        return value

    def lazy_bool(self, kind, left, right_ast, at):
        """``left and right`` / ``left or right`` with ``right`` evaluated only when needed."""
        rg = self.new_graph(f"{kind}_rhs", right_ast)
        with self.enter(rg, _Scope(rg, self.scope)):
            rg.set_output(self.expr(right_ast))
        lg = self.new_graph(f"{kind}_lhs", at)
        with self.enter(lg, _Scope(lg, self.scope)):
            lg.set_output(left)
        t, f = (rg, lg) if kind == "and" else (lg, rg)
        sw = self.emit(irops.switch, left, Constant(t), Constant(f), at=at)
        return self.g.apply(sw, loc=self.loc(at))

    def expr__NodeRef(self, e):
        return e.node

    def expr_IfExp(self, e):
        cond = self.expr(e.test)
        graphs = []
        for name, sub in (("ifexp_true", e.body), ("ifexp_false", e.orelse)):
            g = self.new_graph(name, sub)
            with self.enter(g, _Scope(g, self.scope)):
                g.set_output(self.expr(sub))
            graphs.append(g)
        sw = self.emit(irops.switch, cond, Constant(graphs[0]), Constant(graphs[1]), at=e)
        return self.g.apply(sw, loc=self.loc(e))

    def sequence(self, elts, at):
        """A tuple node of ``elts``, expanding ``*starred`` items."""
        if not any(isinstance(x, ast.Starred) for x in elts):
            return self.emit(irops.make_tuple, *[self.expr(x) for x in elts], at=at)
        parts, run = [], []
        for x in elts:
            if isinstance(x, ast.Starred):
                if run:
                    parts.append(self.emit(irops.make_tuple, *run, at=at))
                    run = []
                parts.append(self.expr(x.value))
            else:
                run.append(self.expr(x))
        if run:
            parts.append(self.emit(irops.make_tuple, *run, at=at))
        return self.emit(STAR_CONCAT, *parts, at=at)

    def expr_Tuple(self, e):
        return self.sequence(e.elts, e)

    def expr_List(self, e):
        return self.emit(irops.make_list, self.sequence(e.elts, e), at=e)

    def expr_Dict(self, e):
        if any(k is None for k in e.keys):
            parts = []
            for k, v in zip(e.keys, e.values):
                if k is None:
                    parts.append(self.expr(v))
                else:
                    parts.append(self.emit(irops.make_dict, self.emit(irops.make_tuple, self.expr(k), at=e),
                                           self.expr(v), at=e))
            return self.emit(DICT_MERGE, *parts, at=e)
        keys = self.emit(irops.make_tuple, *[self.expr(k) for k in e.keys], at=e)
        return self.emit(irops.make_dict, keys, *[self.expr(v) for v in e.values], at=e)

    def expr_Call(self, e):
        if isinstance(e.func, ast.Name) and e.func.id == "super" and not e.args and self.scope.lookup("super") is None:
            return self.super_call(e)
        fn = self.expr(e.func)
        simple = not e.keywords and not any(isinstance(a, ast.Starred) for a in e.args)
        if simple:
            return self.g.apply(fn, *[self.expr(a) for a in e.args], loc=self.loc(e))
        args = self.sequence(e.args, e)
        named = [k for k in e.keywords if k.arg is not None]
        kwargs = self.emit(irops.make_dict, self.emit(irops.make_tuple, *[Constant(k.arg) for k in named], at=e),
                           *[self.expr(k.value) for k in named], at=e)
        star_kw = [self.expr(k.value) for k in e.keywords if k.arg is None]
        if star_kw:
            kwargs = self.emit(DICT_MERGE, kwargs, *star_kw, at=e)
        return self.emit(irops.call_ex, fn, args, kwargs, at=e)

    def super_call(self, e):
        """``super()``: the class owning the method (its ``__class__`` cell) and the first parameter."""
        g = self.g
        while g.parent is not None:
            g = g.parent
        if not g.params:
            raise self.error(e, "'super()' is used in a function without parameters.")
        return self.emit(irops.super_, Constant(Symbol("__class__", self.fn)), self.scope.lookup(g.params[0].name)
                         or g.params[0], at=e)

    def expr_Lambda(self, e):
        return self.closure(e, "lambda")

    def expr_NamedExpr(self, e):
        value = self.expr(e.value)
        self.bind(e.target.id, value)
        return value

    def expr_JoinedStr(self, e):
        parts = []
        for v in e.values:
            if isinstance(v, ast.FormattedValue):
                spec = self.expr(v.format_spec) if v.format_spec is not None else Constant("")
                parts.append(self.emit(irops.format_value, self.expr(v.value), _Raw(v.conversion), spec, at=v))
            else:
                parts.append(self.expr(v))
        return self.emit(irops.join_str, *parts, at=e)

    def comprehension(self, e, make_acc, add_item):
        """Lower a comprehension to ``for_loop``s appending to an accumulator, in a scope of its own."""
        outer = self.scope
        self.scope = _Scope(self.g, outer)
        try:
            acc = make_acc()

            def level(i):
                gen = e.generators[i]
                if gen.is_async:
                    raise self.error(e, "Unsupported expression 'async comprehension'.")

                def body():
                    conds = list(gen.ifs)
                    inner = (lambda: level(i + 1)) if i + 1 < len(e.generators) else (lambda: add_item(acc))
                    self.guarded(conds, inner, e)
                self.for_loop(gen.target, self.expr(gen.iter) if i else first_iter, [], e, body_builder=body)
            first_iter = self.expr(e.generators[0].iter)
            level(0)
            return acc
        finally:
            self.scope = outer

    def guarded(self, conds, inner, at):
        if not conds:
            inner()
            return
        cond = self.expr(conds[0]) if len(conds) == 1 else self.expr(
            ast.copy_location(ast.BoolOp(op=ast.And(), values=conds), at))
        g = self.new_graph("comp_if", at)
        with self.enter(g, _Scope(g, self.scope)):
            inner()
            g.set_output(Constant(None))
        skip = self.new_graph("comp_skip", at)
        skip.set_output(Constant(None))
        sw = self.emit(irops.switch, cond, Constant(g), Constant(skip), at=at)
        self.g.apply(sw, loc=self.loc(at))

    def expr_ListComp(self, e):
        return self.comprehension(
            e, lambda: self.emit(irops.make_list, self.emit(irops.make_tuple, at=e), at=e),
            lambda acc: self.emit(LIST_APPEND, acc, self.expr(e.elt), at=e.elt))

    expr_GeneratorExp = expr_ListComp

    def expr_DictComp(self, e):
        return self.comprehension(
            e, lambda: self.emit(irops.make_dict, self.emit(irops.make_tuple, at=e), at=e),
            lambda acc: self.emit(irops.setitem, acc, self.expr(e.key), self.expr(e.value), at=e))

    def expr_Starred(self, e):
        raise self.error(e, "Unsupported expression 'Starred' here: '*' unpacking is supported in calls, tuples "
                            "and lists.")


class _Raw:
    """A raw Python value the parser passes as a constant input."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class _NodeRef(ast.expr):
    """An already-evaluated operand re-entered into the AST (chained comparisons)."""

    _fields = ()

    def __init__(self, node):
        super().__init__()
        self.node = node


def _ends_in_return(stmts):
    """Whether every path through ``stmts`` ends in ``return`` (or ``raise``)."""
    for s in stmts:
        if isinstance(s, (ast.Return, ast.Raise)):
            return True
        if isinstance(s, ast.If) and _ends_in_return(s.body) and _ends_in_return(s.orelse):
            return True
    return False
