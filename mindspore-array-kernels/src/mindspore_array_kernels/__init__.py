"""Kernels written once against the NumPy API, for the backends whose array library has that API.

A *family* (``families/image.py``, ...) is the source of a backend's kernel module for one family of primitives
(``mindspore/ops/_defs``), written against ``xp`` (the array library) and the few helpers that differ between
libraries. A backend's own module binds it::

    # mindspore_cpu/kernels/image.py
    import numpy
    from mindspore_array_kernels import bind

    bind("image", globals(), xp=numpy, scatter_add=...)

which runs the family's source in that module's namespace with those names as its globals: the module then holds
the family's kernels and its ``KERNELS`` table, bound to the backend's array library, and registers them as its own
(its name is theirs: warnings and tracebacks point at the family's file and lines). mindspore-cpu binds NumPy,
mindspore-gpu CuPy (whose API is NumPy's), so one definition of each kernel's semantics runs on both. A backend
replaces or adds kernels after binding (its hand-written hot paths).

Each family lists the names it must be given in ``BOUND``, a tuple literal at its top; :func:`bind` refuses a call
that gives fewer or more. The helpers that need no binding (:mod:`mindspore_array_kernels.common`) are imported
as any module. This distribution registers nothing itself (no entry point): it is a library the backends import,
and imports only mindspore-core's public names.
"""
from __future__ import annotations

import ast
import pathlib

__all__ = ["bind", "families", "FAMILIES_DIR"]

#: Where the families' sources are.
FAMILIES_DIR = pathlib.Path(__file__).resolve().parent / "families"

_CODE = {}      # family -> (its compiled source, its BOUND names)


def families():
    """The names of the families this distribution defines."""
    return sorted(p.stem for p in FAMILIES_DIR.glob("*.py") if not p.stem.startswith("_"))


def _load(family):
    found = _CODE.get(family)
    if found is None:
        path = FAMILIES_DIR / f"{family}.py"
        if not family.isidentifier() or family.startswith("_") or not path.is_file():
            raise ValueError(f"For 'bind', there is no kernel family '{family}' in mindspore-array-kernels; "
                             f"its families are {families()}.")
        source = path.read_text(encoding="utf-8")
        bound = None
        for node in ast.parse(source, str(path)).body:
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["BOUND"]:
                bound = tuple(ast.literal_eval(node.value))
                break
        if bound is None:
            raise ValueError(f"The kernel family '{family}' ({path}) does not list the names it must be given "
                             f"(BOUND).")
        found = _CODE[family] = (compile(source, str(path), "exec"), bound)
    return found


def bind(family, namespace, **names):
    """Define the kernels of ``family`` in ``namespace`` (the binding module's ``globals()``), with ``names`` (the
    family's ``BOUND``: ``xp``, the array library, and its helpers) as globals. Returns ``namespace``."""
    code, bound = _load(family)
    missing = [n for n in bound if n not in names]
    extra = sorted(set(names) - set(bound))
    if missing or extra:
        raise TypeError(f"For 'bind', the kernel family '{family}' must be given {list(bound)}, but "
                        + (f"{missing} are missing" if missing else "")
                        + (" and " if missing and extra else "")
                        + (f"{extra} are not among them" if extra else "") + ".")
    if "__name__" not in namespace:
        raise TypeError(f"For 'bind', the namespace must be a module's globals() (it has no '__name__'), "
                        f"to bind the kernel family '{family}'.")
    namespace.update(names)
    exec(code, namespace)  # noqa: S102 - the family's source, shipped with this distribution
    return namespace
