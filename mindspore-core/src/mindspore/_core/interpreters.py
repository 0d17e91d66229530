"""The interpreter stack: who runs a primitive application now.

``Primitive.__call__`` hands ``(prim, args)`` to the interpreter on top of :data:`STACK`:

* the **eager** dispatcher (:mod:`mindspore._runtime.dispatch`) sits at the bottom: it runs kernels;
* a **gradient tape** (:mod:`mindspore._autodiff.tape`, PYNATIVE ``grad``) runs the application on the
  interpreter below it and records it;
* a **graph builder** (:mod:`mindspore._infer.staging`, GRAPH_MODE compilation) stages the application
  into the graph it builds, and hands applications on constants to the bottom interpreter (constant
  folding);
* :func:`untraced` puts the bottom interpreter on top for a while (a Cell with its own ``bprop`` runs
  its ``construct`` unrecorded).

Interpreters push themselves (``with interp:``) and pop in reverse order; "which mode are we in" is
always a question about the top of this stack, never a global flag. The layers above register the
bottom interpreter with :func:`set_base` when they are imported.
"""
from __future__ import annotations

import contextlib

from mindspore._errors import InternalError

__all__ = ["Interpreter", "STACK", "TOP", "push", "pop", "current", "base", "set_base", "untraced", "find",
           "only_eager"]


class Interpreter:
    """One level of the stack. ``below`` is the interpreter under it while it is on the stack."""

    #: ``"eager"``, ``"tape"`` or ``"staging"``: what kind of interpretation this is.
    kind = "eager"
    below = None

    def apply(self, prim, args):
        """Run (or stage, or record) ``prim(*args)``; returns its result."""
        raise InternalError(f"{type(self).__name__} does not implement apply")

    def __enter__(self):
        push(self)
        return self

    def __exit__(self, *exc):
        pop(self)


def _no_interpreter(prim, args):
    raise InternalError("No interpreter is installed: import mindspore (its eager dispatcher) before calling "
                        f"primitive '{getattr(prim, 'name', prim)}'.")


#: Interpreters, innermost last.
STACK: list = []
#: ``TOP[0]`` is the bound ``apply`` of the top interpreter (what ``Primitive.__call__`` calls).
TOP = [_no_interpreter]


def _refresh():
    TOP[0] = STACK[-1].apply if STACK else _no_interpreter


def set_base(interp):
    """Install the bottom interpreter (the eager dispatcher), once, when it is imported."""
    if STACK and STACK[0] is not interp:
        STACK[0] = interp
        if len(STACK) > 1:
            STACK[1].below = interp
    elif not STACK:
        STACK.append(interp)
    _refresh()


def push(interp):
    if not STACK:
        raise InternalError("the interpreter stack has no base (the eager dispatcher is not imported)")
    interp.below = STACK[-1]
    STACK.append(interp)
    TOP[0] = interp.apply


def pop(interp):
    """Take ``interp`` off the stack (normally the top; from the middle, the one above is relinked)."""
    if STACK and STACK[-1] is interp:
        STACK.pop()
    else:
        try:
            i = STACK.index(interp)
        except ValueError:
            return
        del STACK[i]
        if i < len(STACK):
            STACK[i].below = STACK[i - 1]
    interp.below = None
    _refresh()


def current():
    """The top interpreter."""
    return STACK[-1]


def base():
    """The bottom (eager) interpreter."""
    return STACK[0]


def find(kind):
    """The interpreters of ``kind`` on the stack, innermost last."""
    return [i for i in STACK if i.kind == kind]


class _Untraced(Interpreter):
    """The bottom interpreter put on top: applications run eagerly and nothing above records them."""

    def apply(self, prim, args):
        return STACK[0].apply(prim, args)


@contextlib.contextmanager
def untraced():
    """Run the body with no tape recording and no staging above it."""
    interp = _Untraced()
    push(interp)
    try:
        yield
    finally:
        pop(interp)


@contextlib.contextmanager
def suspended(interp):
    """Take ``interp`` off the stack for the body (a tape while its own bprops run) and put it back."""
    if interp not in STACK:
        yield
        return
    i = STACK.index(interp)
    pop(interp)
    try:
        yield
    finally:
        interp.below = STACK[i - 1]
        STACK.insert(i, interp)
        if i + 1 < len(STACK):
            STACK[i + 1].below = interp
        _refresh()


def only_eager():
    """True when nothing records or stages applications (no gradient tape, no graph builder on the stack,
    even under :func:`untraced`): what runs now runs once, on real buffers, and nothing keeps them for later."""
    for interp in STACK:
        if interp.kind != "eager":
            return False
    return True
