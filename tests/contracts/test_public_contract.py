"""The plugin contract is public, and the distributions keep to it.

* Every distribution other than mindspore-core, and every example, reaches core only through public
  names: no ``mindspore._...`` module, no ``_private`` name of a core module (``mindspore.plugin`` is
  where a backend or add-on finds what it needs).
* No add-on or backend imports another one (mindspore-cpu must not import mindspore-parallel's
  ``mindspore.communication``, for instance): they meet only through core's contract. The one library they share
  is mindspore-array-kernels (kernels written once against the NumPy API, which the CPU and GPU backends bind to
  NumPy and CuPy): a backend may import it; it imports no backend or add-on, and both backends bind each of its
  families.
"""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from imports import DISTRIBUTIONS, REPO, is_private, module_table, owner, sources, uses  # noqa: E402

TABLE = module_table()
ADDONS = [d for d in DISTRIBUTIONS if d != "mindspore-core"]
#: What every distribution may import besides itself: core, and for the backends the shared kernel library.
SHARED = {"mindspore-cpu": ("mindspore-array-kernels",), "mindspore-gpu": ("mindspore-array-kernels",)}


def _private_core_uses(path, module_name=""):
    bad = []
    for use in uses(path, module_name, TABLE):
        if owner(use.module, TABLE) != "mindspore-core":
            continue
        if is_private(use.module) or (use.name and is_private(use.name)):
            bad.append(str(use))
    return bad


@pytest.mark.parametrize("dist", ADDONS)
def test_distributions_use_only_public_core_names(dist):
    bad = []
    for path, name in sources(dist):
        bad += _private_core_uses(path, name)
    assert not bad, "private names of mindspore-core used outside it:\n" + "\n".join(bad)


@pytest.mark.parametrize("folder", ["examples", "benchmarks", "mindspore-meta"])
def test_examples_and_benchmarks_use_only_public_core_names(folder):
    """What users copy (examples) and what measures us (benchmarks) reach core as any user's code would."""
    bad = []
    for path in sorted((REPO / folder).rglob("*.py")):
        bad += _private_core_uses(path)
    assert not bad, f"private names of mindspore-core used by {folder}:\n" + "\n".join(bad)


@pytest.mark.parametrize("dist", ADDONS)
def test_no_addon_imports_another(dist):
    bad = []
    for path, name in sources(dist):
        for use in uses(path, name, TABLE):
            other = owner(use.module, TABLE)
            if other is not None and other not in (dist, "mindspore-core") + SHARED.get(dist, ()):
                bad.append(f"{use} (of {other})")
    assert not bad, f"{dist} imports other add-ons:\n" + "\n".join(bad)


def test_the_checks_see_late_dynamic_and_attribute_imports(tmp_path):
    """The analysis must not be fooled by imports inside functions, import_module or attribute reads."""
    src = tmp_path / "probe.py"
    src.write_text(
        "import importlib\n"
        "import mindspore as ms\n"
        "def f():\n"
        "    from mindspore._runtime import backend\n"
        "    importlib.import_module('mindspore._plugin.manager')\n"
        "    return ms.context._ctx, ms.plugin.hookimpl\n"
        "from mindspore.plugin import _manager\n")
    found = _private_core_uses(src)
    assert any("import mindspore._runtime.backend" in u for u in found)
    assert any("dynamic mindspore._plugin.manager" in u for u in found)
    assert any("attribute mindspore.context._ctx" in u for u in found)
    assert any("import mindspore.plugin._manager" in u for u in found)
    assert not any("hookimpl" in u for u in found)


def test_addon_modules_are_attributed_to_their_distribution():
    assert owner("mindspore.dataset.transforms._base", TABLE) == "mindspore-data"
    assert owner("mindspore.communication.management", TABLE) == "mindspore-parallel"
    assert owner("mindspore.plugin", TABLE) == "mindspore-core"
    assert owner("mindspore_cpu.kernels.math", TABLE) == "mindspore-cpu"
    assert owner("numpy", TABLE) is None


def test_both_array_backends_bind_every_shared_kernel_family():
    """A family of mindspore-array-kernels is one definition for the CPU and the GPU backends: each binds it (in a
    module of the family's name), so neither keeps a copy of its own."""
    import ast
    families = sorted(p.stem for p in (REPO / "mindspore-array-kernels/src/mindspore_array_kernels/families")
                      .glob("*.py") if not p.stem.startswith("_"))
    assert families
    for dist, package in (("mindspore-cpu", "mindspore_cpu"), ("mindspore-gpu", "mindspore_gpu")):
        bound = {}
        for path in sorted((REPO / dist / "src" / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "bind" and node.args \
                        and isinstance(node.args[0], ast.Constant):
                    bound[node.args[0].value] = path.stem
        assert {f: bound.get(f) for f in families} == {f: f for f in families}, dist


_DOTTED = __import__("re").compile(r"\bmindspore(?:\.\w+)+")


@pytest.mark.parametrize("dist", ADDONS)
def test_addon_text_names_no_private_core_module(dist):
    """Not even a docstring or comment of an add-on points at a private module of core: what a backend's reader is
    sent to is the public contract too (and a text check cannot tell a mention from a string import)."""
    bad = []
    for path, _ in sources(dist):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for name in _DOTTED.findall(line):
                if owner(name, TABLE) == "mindspore-core" and is_private(name):
                    bad.append(f"{path.relative_to(REPO)}:{n}: {name}")
    assert not bad, "private modules of mindspore-core named outside it:\n" + "\n".join(bad)
