"""AST normalisation before IR construction: every ``if`` and loop made structured.

The IR has structured control flow only (``switch`` on two branch graphs, ``while_loop`` and
``for_loop`` over loop graphs), so jumps are rewritten away first, at the AST level:

* **Early return.** Where an ``if`` returns on some path, the statements after it are moved into
  every path of the ``if`` that falls through ("continuation pushing"), and a function that can
  fall off its end gets an explicit ``return None``. After this, an ``if`` either contains no
  ``return`` or returns on every path.
* **return inside a loop** becomes ``__ms_ret = value; __ms_has_ret = True; break``, with
  ``if __ms_has_ret: return __ms_ret`` after the loop.
* **break / continue.** Inside a loop body, the statements after an ``if`` that breaks or continues
  are pushed into its other paths the same way, so ``continue`` just ends the body and ``break``
  sets ``__ms_brk = True`` and ends it. ``while`` tests ``not __ms_brk and test``; a ``for`` body
  runs under ``if not __ms_brk:``; a loop's ``else`` runs when ``__ms_brk`` is false.

Every synthetic node copies the source location of the statement it replaces, so errors still
point at the user's code. Flags are plain variables: on compile-time conditions they fold away;
under tensor conditions they become boolean tensors.
"""
from __future__ import annotations

import ast
import copy

__all__ = ["normalize_function_body", "contains"]

_RET, _HAS_RET, _BRK = "__ms_ret", "__ms_has_ret", "__ms_brk"


def _name(id_, ctx, like):
    return ast.copy_location(ast.Name(id=id_, ctx=ctx), like)


def _assign(target, value, like):
    node = ast.Assign(targets=[_name(target, ast.Store(), like)], value=value, lineno=like.lineno,
                      col_offset=like.col_offset)
    ast.copy_location(node, like)
    return node


def _const(v, like):
    return ast.copy_location(ast.Constant(value=v), like)


def contains(stmts, kinds, into_loops=False):
    """Whether ``stmts`` hold a statement of ``kinds`` (not looking into nested functions, nor
    into nested loops unless ``into_loops``)."""
    for s in stmts:
        if isinstance(s, kinds):
            return True
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(s, (ast.For, ast.While, ast.AsyncFor)) and not into_loops:
            if ast.Return in _as_tuple(kinds) and contains(s.body + s.orelse, (ast.Return,), into_loops=True):
                return True
            continue
        for field in ("body", "orelse", "finalbody"):
            sub = getattr(s, field, None)
            if sub and contains(sub, kinds, into_loops):
                return True
        for h in getattr(s, "handlers", []) or []:
            if contains(h.body, kinds, into_loops):
                return True
    return False


def _as_tuple(kinds):
    return kinds if isinstance(kinds, tuple) else (kinds,)


def _terminal(stmts, kinds):
    """Whether every path through ``stmts`` ends in one of ``kinds`` (or a raise)."""
    for s in stmts:
        if isinstance(s, kinds + (ast.Raise,)):
            return True
        if isinstance(s, ast.If) and _terminal(s.body, kinds) and _terminal(s.orelse, kinds):
            return True
    return False


def _push(stmts, kinds):
    """Continuation pushing: after an ``if`` holding a jump of ``kinds``, move the rest into its
    fall-through paths. Statements after an unconditional jump are dropped (unreachable)."""
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, kinds + (ast.Raise,)):
            out.append(s)
            return out
        if isinstance(s, ast.If) and contains([s], kinds):
            rest = stmts[i + 1:]
            body = _push(list(s.body) + ([] if _terminal(s.body, kinds) else copy.deepcopy(rest)), kinds)
            orelse = _push(list(s.orelse) + ([] if _terminal(s.orelse, kinds) else copy.deepcopy(rest)), kinds)
            new = ast.If(test=s.test, body=body or [ast.copy_location(ast.Pass(), s)], orelse=orelse)
            out.append(ast.copy_location(new, s))
            return out
        out.append(s)
    return out


class _LoopRewriter:
    """Rewrites loops bottom-up (inner loops first); a counter keeps flag names distinct per loop."""

    def __init__(self):
        self.counter = 0

    def block(self, stmts):
        out = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s):
        if isinstance(s, ast.If):
            s.body = self.block(s.body)
            s.orelse = self.block(s.orelse)
            return [s]
        if isinstance(s, (ast.While, ast.For)):
            return self.loop(s)
        return [s]

    def loop(self, s):
        s.body = self.block(s.body)
        s.orelse = self.block(s.orelse)
        self.counter += 1
        k = self.counter
        ret, has_ret, brk = f"{_RET}{k}", f"{_HAS_RET}{k}", f"{_BRK}{k}"
        pre, post = [], []
        has_return = contains(s.body, (ast.Return,))
        if has_return:
            s.body = _ReturnToBreak(ret, has_ret).block(s.body)
            pre += [_assign(has_ret, _const(False, s), s), _assign(ret, _const(None, s), s)]
        uses_break = contains(s.body, (ast.Break,))
        if uses_break or contains(s.body, (ast.Continue,)):
            s.body = _push(s.body, (ast.Break, ast.Continue))
            s.body = _JumpLowering(brk).block(s.body)
        if uses_break:
            pre.append(_assign(brk, _const(False, s), s))
            not_brk = ast.copy_location(ast.UnaryOp(op=ast.Not(), operand=_name(brk, ast.Load(), s)), s)
            if isinstance(s, ast.While):
                s.test = ast.copy_location(ast.BoolOp(op=ast.And(), values=[not_brk, s.test]), s.test)
            else:
                s.body = [ast.copy_location(ast.If(test=not_brk, body=s.body, orelse=[]), s)]
            if s.orelse:
                post.append(ast.copy_location(ast.If(test=copy.deepcopy(not_brk), body=s.orelse, orelse=[]), s))
                s.orelse = []
        if s.orelse:   # no break: the else clause always runs after the loop
            post.extend(s.orelse)
            s.orelse = []
        if has_return:
            post.append(ast.copy_location(ast.If(test=_name(has_ret, ast.Load(), s),
                                                 body=[ast.copy_location(ast.Return(value=_name(ret, ast.Load(), s)),
                                                                         s)],
                                                 orelse=[]), s))
        return pre + [s] + post


class _ReturnToBreak:
    def __init__(self, ret, has_ret):
        self.ret, self.has_ret = ret, has_ret

    def block(self, stmts):
        out = []
        for s in stmts:
            if isinstance(s, ast.Return):
                value = s.value if s.value is not None else _const(None, s)
                out += [_assign(self.ret, value, s), _assign(self.has_ret, _const(True, s), s),
                        ast.copy_location(ast.Break(), s)]
                return out
            if isinstance(s, ast.If):
                s.body = self.block(s.body)
                s.orelse = self.block(s.orelse)
            out.append(s)
        return out


class _JumpLowering:
    """After pushing: ``continue`` ends the body, ``break`` sets the flag and ends it."""

    def __init__(self, brk):
        self.brk = brk

    def block(self, stmts):
        out = []
        for s in stmts:
            if isinstance(s, ast.Continue):
                break
            if isinstance(s, ast.Break):
                out.append(_assign(self.brk, _const(True, s), s))
                break
            if isinstance(s, ast.If):
                s.body = self.block(s.body) or [ast.copy_location(ast.Pass(), s)]
                s.orelse = self.block(s.orelse)
            out.append(s)
        return out


def normalize_function_body(body, like):
    """The statements of a function body with loops and early returns made structured."""
    body = _LoopRewriter().block(list(body))
    if not _terminal(body, (ast.Return,)):
        body = body + [ast.copy_location(ast.Return(value=None), body[-1] if body else like)]
    return _push(body, (ast.Return,))
