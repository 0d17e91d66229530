"""Static import analysis of the repository's sources, for the contract tests.

Every ``import`` and ``from ... import`` statement counts, wherever it is (module level, inside a
function, under ``if TYPE_CHECKING``), and so do ``importlib.import_module("...")`` and
``__import__("...")`` calls with a literal name: a late or dynamic import is still an import.
Attribute reads through a name bound to a ``mindspore`` module (``ms.context._ctx``) are collected too,
since reaching a private name that way is the same as importing it. ``from mindspore import x`` is also an
import of the root package ``mindspore`` (it reads the root's namespace), not only of ``mindspore.x``.
"""
from __future__ import annotations

import ast
import dataclasses
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[2]
DISTRIBUTIONS = ("mindspore-core", "mindspore-array-kernels", "mindspore-cpu", "mindspore-gpu", "mindspore-ascend",
                 "mindspore-data", "mindspore-parallel")


@dataclasses.dataclass(frozen=True)
class Use:
    """One import (or private attribute read) in a source file."""

    path: pathlib.Path
    line: int
    module: str          # the module imported (resolved to a module the repository defines, when it does)
    name: str = ""       # the name taken from it (``from module import name``), or the attribute read
    kind: str = "import"  # "import" | "attribute" | "dynamic"

    def __str__(self):
        what = f"{self.module}.{self.name}" if self.name else self.module
        where = self.path.relative_to(REPO) if self.path.is_relative_to(REPO) else self.path
        return f"{where}:{self.line}: {self.kind} {what}"


def module_table():
    """Every module the distributions define: dotted name -> (distribution, path)."""
    table = {}
    for dist in DISTRIBUTIONS:
        src = REPO / dist / "src"
        for path in sorted(src.rglob("*.py")):
            parts = list(path.relative_to(src).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            table[".".join(parts)] = (dist, path)
    return table


def _module_name(path, root):
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _resolve_from(current, is_package, node):
    if not node.level:
        return node.module or ""
    pkg = current.split(".")
    if not is_package:
        pkg = pkg[:-1]
    pkg = pkg[: len(pkg) - node.level + 1]
    return ".".join(pkg + ([node.module] if node.module else []))


def uses(path, current="", known=None):
    """The imports of one file; ``current`` is its dotted module name (for relative imports)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    known = known or {}
    found = []
    aliases = {}    # local name -> mindspore module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                found.append(Use(path, node.lineno, a.name))
                if a.name == "mindspore" or a.name.startswith("mindspore."):
                    aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else "mindspore"
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_from(current, path.name == "__init__.py", node)
            if base == "mindspore" and current:
                # ``from mindspore import x`` reads the root package's namespace: it depends on the root
                # ``__init__`` (which imports everything), even when ``x`` is a submodule
                found.append(Use(path, node.lineno, "mindspore"))
            for a in node.names:
                full = f"{base}.{a.name}"
                if full in known:
                    found.append(Use(path, node.lineno, full))
                    if full.startswith("mindspore"):
                        aliases[a.asname or a.name] = full
                else:
                    found.append(Use(path, node.lineno, base, a.name))
        elif isinstance(node, ast.Call):
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
            if name in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                found.append(Use(path, node.lineno, node.args[0].value, kind="dynamic"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not node.attr.startswith("__"):
            chain = []
            base = node
            while isinstance(base, ast.Attribute):
                chain.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name) and base.id in aliases and node.attr.startswith("_"):
                module = aliases[base.id]
                for attr in reversed(chain[1:]):
                    if f"{module}.{attr}" in known:
                        module = f"{module}.{attr}"
                    else:
                        break
                found.append(Use(path, node.lineno, module, node.attr, kind="attribute"))
    return found


def is_private(dotted):
    return any(part.startswith("_") and not part.startswith("__") for part in dotted.split(".") if part)


def owner(module, table):
    """The distribution defining ``module`` (or its nearest enclosing package), or None (not ours)."""
    parts = module.split(".")
    while parts:
        hit = table.get(".".join(parts))
        if hit is not None:
            # a namespace package ("mindspore") is owned by core, but its subpackages by their own files
            return hit[0]
        parts = parts[:-1]
    return None


def sources(dist):
    """(path, dotted module name) of a distribution's own modules."""
    src = REPO / dist / "src"
    return [(p, _module_name(p, src)) for p in sorted(src.rglob("*.py"))]


def packages_run_by(importer, target):
    """The package ``__init__``s that importing ``target`` from ``importer`` runs besides ``target`` itself.

    ``import a.b.c`` first runs ``a/__init__`` and ``a/b/__init__``. The importer's own packages do not count:
    Python has started them before the importer's first line runs, so reaching them again re-enters nothing.
    """
    parts = target.split(".")
    mine = importer.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts)) if parts[:i] != mine[:i]]


def import_graph(dist="mindspore-core", packages=True):
    """``{module: {modules it imports}}`` among one distribution's modules.

    Every import counts, wherever it is written; with ``packages`` (the default) so do the package
    ``__init__``s an import runs on the way (:func:`packages_run_by`).
    """
    table = module_table()
    own = {name for name, (d, _) in table.items() if d == dist}
    graph = {}
    for path, name in sources(dist):
        targets = set()
        for use in uses(path, name, table):
            if use.kind == "attribute":
                continue
            module = use.module
            if use.name and f"{module}.{use.name}" in own:
                module = f"{module}.{use.name}"
            if module in own and module != name:
                targets.add(module)
                if packages:
                    targets.update(p for p in packages_run_by(name, module) if p in own and p != name)
        graph[name] = targets
    return graph


def cycles(graph):
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    import sys
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10000))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def a_cycle(graph, component):
    """One concrete import loop inside ``component``, as a list of modules (for the failure message)."""
    members = set(component)
    start = component[0]
    path, seen = [start], {start}

    def walk(v):
        for w in sorted(graph[v]):
            if w == start:
                return path + [start]
            if w in members and w not in seen:
                seen.add(w)
                path.append(w)
                found = walk(w)
                if found:
                    return found
                path.pop()
        return None
    return walk(start)
