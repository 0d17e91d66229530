"""Names the parser cannot bind locally, and how to find the source of a Python function.

A name read in a parsed function that is not one of its local variables becomes a constant
:class:`Symbol`; inference looks it up when it runs (closure cells of the parsed function, then its
module's globals, then builtins), so a global rebound between compilations is seen by the next one.
"""
from __future__ import annotations

import ast
import builtins
import inspect
import os
import sys
import textwrap

from mindspore._errors import MSRuntimeError

__all__ = ["Symbol", "get_source_ast", "is_library_function", "SourceUnavailable"]


class SourceUnavailable(MSRuntimeError):
    """The source of a function can not be read (defined in a REPL, ``exec`` or C)."""


class Symbol:
    """A free name of a parsed function, resolved at inference time."""

    __slots__ = ("name", "fn")

    def __init__(self, name, fn):
        self.name = name
        self.fn = fn

    @property
    def __ms_symbol__(self):
        return self.name

    def resolve(self):
        """(found, value)."""
        fn = self.fn
        code = getattr(fn, "__code__", None)
        if code is not None and fn.__closure__:
            for var, cell in zip(code.co_freevars, fn.__closure__):
                if var == self.name:
                    try:
                        return True, cell.cell_contents
                    except ValueError:
                        return False, None
        g = getattr(fn, "__globals__", None) or {}
        if self.name in g:
            return True, g[self.name]
        if hasattr(builtins, self.name):
            return True, getattr(builtins, self.name)
        return False, None

    def __repr__(self):
        return f"${self.name}"


_LIB_ROOTS = None


def _library_roots():
    global _LIB_ROOTS
    if _LIB_ROOTS is None:
        # the mindspore package's folders (core's and the add-ons', one per install location): read from
        # the package itself, which is being imported or is imported already, not imported from here
        package = sys.modules["mindspore"]
        roots = {os.path.abspath(p) + os.sep for p in getattr(package, "__path__", ())}
        for p in set(sys.path) | {sys.prefix, sys.base_prefix, sys.exec_prefix}:
            if p and ("site-packages" in p or "dist-packages" in p):
                roots.add(os.path.abspath(p) + os.sep)
        stdlib = os.path.dirname(os.path.abspath(os.__file__)) + os.sep
        roots.add(stdlib)
        _LIB_ROOTS = tuple(sorted(roots))
    return _LIB_ROOTS


def is_library_function(fn):
    """Whether ``fn`` belongs to MindSpore itself or an installed library (run at compile time on
    abstract tensors) rather than to the user's program (parsed into the IR)."""
    module = getattr(fn, "__module__", None) or ""
    if module == "mindspore" or module.startswith("mindspore.") or module.startswith("mindspore_"):
        return True
    code = getattr(fn, "__code__", None)
    if code is None:
        return True
    filename = os.path.abspath(code.co_filename)
    if code.co_filename.startswith("<"):
        return False
    return filename.startswith(_library_roots())


def get_source_ast(fn):
    """(function AST node, filename, line offset, column offset) of a Python function or lambda."""
    code = getattr(fn, "__code__", None)
    if code is None:
        raise SourceUnavailable(f"'{getattr(fn, '__qualname__', fn)}' is not a Python function.")
    try:
        lines, start = inspect.getsourcelines(fn)
    except (OSError, TypeError) as exc:
        raise SourceUnavailable(f"The source of '{fn.__qualname__}' can not be read: {exc}") from None
    source = "".join(lines)
    indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    text = textwrap.dedent(source)
    if code.co_name == "<lambda>":
        return _find_lambda(fn, text, code, start, indent)
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise SourceUnavailable(f"The source of '{fn.__qualname__}' can not be parsed: {exc}") from None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == code.co_name:
            return node, code.co_filename, start - 1, indent
    raise SourceUnavailable(f"The definition of '{fn.__qualname__}' was not found in its source.")


def _find_lambda(fn, text, code, start, indent):
    try:
        tree = ast.parse(text)
    except SyntaxError:
        # a lambda inside a larger expression spanning lines: parse the first line alone
        try:
            tree = ast.parse(text.splitlines()[0].strip().rstrip(",").rstrip("\\"))
        except SyntaxError as exc:
            raise SourceUnavailable(f"The source of a lambda can not be parsed: {exc}") from None
    names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    candidates = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)
                  and [a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs] == names]
    if len(candidates) != 1:
        raise SourceUnavailable("The source of a lambda is ambiguous (several lambdas on one line).")
    return candidates[0], code.co_filename, start - 1, indent
