"""Record real MindSpore 2.10's public module paths into ``tests/fixtures/api/mindspore-2.10-modules.json``.

Run with a Python that has the real MindSpore installed (not this project), from outside this checkout::

    cd /tmp && /path/to/msref/bin/python /path/to/scripts/module_paths_from_ms.py OUT.json

A module path is public when no part after ``mindspore`` starts with ``_`` (``pkgutil.walk_packages`` over the
installed package); only the paths that import on 2.10 itself (its CPU build) are kept. For each, ``names`` holds its
``__all__`` (only the names that resolve on 2.10's module; ``[]`` for a module without ``__all__``, whose ``dir()`` is
mostly what it happens to import), and ``shadowed`` whether, once everything is imported, the parent package's
attribute of that name is something else (``mindspore.common.mutable`` is the function ``mutable``).
``tests/api/test_module_paths.py`` reads it back.
"""
import contextlib
import importlib
import io
import json
import pkgutil
import sys


def main(out):
    import mindspore
    paths = sorted({m.name for m in pkgutil.walk_packages(mindspore.__path__, "mindspore.")
                    if not any(part.startswith("_") for part in m.name.split(".")[1:])})
    modules = {}
    for path in paths:
        try:
            with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
                module = importlib.import_module(path)
        except Exception:  # noqa: BLE001 - a path that does not import on 2.10 itself is not recorded
            continue
        names = [str(n) for n in getattr(module, "__all__", ()) if hasattr(module, str(n))]
        modules[path] = {"all": hasattr(module, "__all__"), "names": list(dict.fromkeys(names))}
    for path in modules:   # after every import: what the parent package's attribute of that name is
        parent, _, child = path.rpartition(".")
        value = getattr(sys.modules[parent], child, None)
        modules[path]["shadowed"] = value is not None and value is not sys.modules[path]
    with open(out, "w") as f:   # one module a line
        f.write(f'{{"mindspore": {json.dumps(mindspore.__version__)}, "modules": {{\n')
        f.write(",\n".join(f"{json.dumps(p)}: {json.dumps(modules[p], sort_keys=True)}" for p in sorted(modules)))
        f.write("\n}}\n")
    print(f"{len(modules)} module paths of {len(paths)} import")


if __name__ == "__main__":
    main(sys.argv[1])
