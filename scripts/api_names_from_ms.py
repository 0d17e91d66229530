"""Record real MindSpore 2.10's public names per namespace into ``tests/fixtures/api/mindspore-2.10-names.json``.

Run with a Python that has the real MindSpore installed (not this project)::

    /path/to/msref/bin/python scripts/api_names_from_ms.py [OUT.json]

Counting rules (the same as ``scripts/api_coverage.py`` reads them back):

- a module's public names are its ``__all__`` (deduplicated), or, where it has none, ``dir()``
  without names starting with ``_``; names starting with ``_``, names that do not resolve on the
  module, and submodules are left out;
- ``mindspore.ops`` is split three ways: *primitives* (classes deriving from ``Primitive``),
  *functions* (everything else that is not a class: functions and the primitive instances exported
  as functions, such as ``ops.reduce_sum``) and *other classes* (``GradOperation``, ``HyperMap``...);
- ``Tensor`` methods are the public attributes of the ``Tensor`` class.
"""
import importlib
import inspect
import json
import pathlib
import sys

# (key, module, selector): the key names the row of the coverage table
MODULES = [
    "mindspore", "mindspore.nn", "mindspore.train", "mindspore.train.callback", "mindspore.train.metrics",
    "mindspore.mint", "mindspore.mint.nn", "mindspore.mint.nn.functional", "mindspore.mint.optim",
    "mindspore.mint.linalg", "mindspore.mint.special", "mindspore.mint.distributed",
    "mindspore.numpy", "mindspore.numpy.fft",
    "mindspore.dataset", "mindspore.dataset.text", "mindspore.dataset.vision", "mindspore.dataset.transforms",
    "mindspore.dataset.audio", "mindspore.mindrecord",
    "mindspore.runtime", "mindspore.hal", "mindspore.communication", "mindspore.parallel", "mindspore.amp",
    "mindspore.experimental.optim", "mindspore.profiler", "mindspore.log", "mindspore.utils", "mindspore.boost",
    "mindspore.context", "mindspore.common.initializer",
    "mindspore.ops.functional", "mindspore.ops.operations", "mindspore.ops.composite",
    "mindspore.device_context.cpu", "mindspore.device_context.gpu", "mindspore.device_context.ascend",
]


def public_names(module):
    names = getattr(module, "__all__", None)
    if names is None:
        names = dir(module)
    out = set()
    for name in names:
        if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
            continue
        try:
            obj = getattr(module, name)
        except AttributeError:
            continue
        if inspect.ismodule(obj):
            continue
        out.add(name)
    return sorted(out)


def ops_split(ops, primitive_cls):
    functions, primitives, other = [], [], []
    for name in public_names(ops):
        obj = getattr(ops, name)
        if inspect.isclass(obj):
            (primitives if issubclass(obj, primitive_cls) else other).append(name)
        else:
            functions.append(name)
    return functions, primitives, other


def main(out_path):
    import mindspore
    from mindspore import ops
    result = {"mindspore_version": mindspore.__version__, "namespaces": {}}
    spaces = result["namespaces"]
    for modname in MODULES:
        try:
            module = importlib.import_module(modname)
        except Exception as exc:  # noqa: BLE001 - a namespace this build lacks is recorded as absent
            print(f"skip {modname}: {exc}", file=sys.stderr)
            continue
        spaces[modname] = public_names(module)
    functions, primitives, other = ops_split(ops, ops.Primitive)
    spaces["mindspore.ops:functions"] = functions
    spaces["mindspore.ops:primitives"] = primitives
    spaces["mindspore.ops:classes"] = other
    spaces["mindspore.Tensor"] = sorted(n for n in dir(mindspore.Tensor) if not n.startswith("_"))
    pathlib.Path(out_path).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    for key in sorted(spaces):
        print(f"{key:40s} {len(spaces[key]):5d}")


if __name__ == "__main__":
    root = pathlib.Path(__file__).resolve().parents[1]
    main(sys.argv[1] if len(sys.argv) > 1 else root / "tests" / "fixtures" / "api" / "mindspore-2.10-names.json")
