"""Write ``mindspore-core/src/mindspore/ops/operations/_layout.py``: which Primitive classes real MindSpore 2.10 keeps
in each submodule of ``mindspore.ops.operations`` (``nn_ops``, ``array_ops``, ``_inner_ops``, ...), so that code
importing them from there (``from mindspore.ops.operations.nn_ops import FlashAttentionScore``,
``ops.operations.nn_ops.Conv2D``) finds the same classes here.

Run with a Python that has the real MindSpore installed (not this project)::

    /path/to/msref/bin/python scripts/ops_operations_layout_from_ms.py
"""
import importlib
import pathlib
import pprint

MODULES = ["array_ops", "control_ops", "debug_ops", "image_ops", "inner_ops", "linalg_ops", "manually_defined",
           "math_ops", "nn_ops", "other_ops", "random_ops", "sparse_ops", "spectral_ops", "_inner_ops", "_grad_ops"]
OUT = pathlib.Path(__file__).resolve().parents[1] / "mindspore-core/src/mindspore/ops/operations/_layout.py"

HEADER = '''"""Which Primitive classes MindSpore {version} keeps in each submodule of ``mindspore.ops.operations`` (recorded from
the real MindSpore by ``scripts/ops_operations_layout_from_ms.py``; do not edit by hand).

Each submodule here (``nn_ops.py``, ...) holds the classes of its list that this build has: the same objects as
``mindspore.ops.operations`` (one class per primitive, wherever it is imported from).
"""
import sys

__all__ = ["MODULES", "export"]


def export(namespace, module):
    """Put into ``namespace`` (a submodule's globals) the classes of ``MODULES[module]`` that
    ``mindspore.ops.operations`` has; returns their names (the submodule's ``__all__``)."""
    package = sys.modules["mindspore.ops.operations"]
    names = [name for name in MODULES[module] if hasattr(package, name)]
    namespace.update((name, getattr(package, name)) for name in names)
    return names


MODULES = '''


def main():
    import mindspore
    from mindspore.ops.primitive import Primitive
    layout = {}
    for name in MODULES:
        mod = importlib.import_module(f"mindspore.ops.operations.{name}")
        layout[name] = sorted(n for n in dir(mod) if not n.startswith("_") and isinstance(getattr(mod, n), type)
                              and issubclass(getattr(mod, n), Primitive) and getattr(mod, n) is not Primitive)
    OUT.write_text(HEADER.format(version=mindspore.__version__) + pprint.pformat(layout, width=116, compact=True)
                   + "\n")
    print(f"wrote {OUT}: {sum(map(len, layout.values()))} names in {len(layout)} modules")


if __name__ == "__main__":
    main()
