"""mindspore-core is layered: no import cycle among its modules, late and dynamic imports included.

An edge A -> B is any import of B written in A: at module level, inside a function, or as
``importlib.import_module("B")``; and since importing ``a.b.c`` first runs ``a/__init__`` and ``a/b/__init__``,
A -> each package ``__init__`` on B's way that is not one of A's own packages (Python has started those before
A's first line runs, so reaching them again re-enters nothing). A package ``__init__`` that re-exports its
submodules therefore sits above every module it re-exports: nothing below may import through it. The layers,
bottom up: errors, dtypes,
settings -> the plugin contract and registries -> the backend -> primitives, specs, their abstract
evaluation and the interpreter stack (``mindspore._core``) -> Tensor -> the interpreters (eager
dispatch, the gradient tape, graph staging) -> operators and the functional API -> the compiler ->
nn, train, amp. Where a lower layer needs something from a higher one (bprops calling functional ops,
``set_context(device_target=...)`` acting on the backend, ``ops.GradOperation``, ``nn.Accuracy``), the higher
layer registers or installs itself below.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from imports import a_cycle, cycles, import_graph, packages_run_by, uses  # noqa: E402


def test_no_import_cycle_in_core():
    graph = import_graph("mindspore-core")
    assert len(graph) > 100
    loops = [" -> ".join(a_cycle(graph, comp) or comp) for comp in cycles(graph)]
    assert not loops, "import cycles among mindspore-core's modules:\n" + "\n".join(loops)


def test_the_cycle_check_sees_late_imports(tmp_path):
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    (comp,) = cycles(graph)
    assert comp == ["a", "b", "c"]
    assert a_cycle(graph, comp) == ["a", "b", "c", "a"]
    core = import_graph("mindspore-core")
    # a function-level import is an edge (jit's wrapper imports staging when it is called)
    assert "mindspore._infer.staging" in core["mindspore.common.api"]


def test_the_cycle_check_sees_the_package_inits_an_import_runs():
    assert packages_run_by("x.tape", "x.ops._defs.array") == ["x.ops", "x.ops._defs"]
    assert packages_run_by("x.ops.functional", "x.ops._defs.array") == ["x.ops._defs"]   # x.ops is already running
    assert packages_run_by("x.nn.layer.conv", "x.nn.cell") == []
    core = import_graph("mindspore-core")
    # the ONNX writer's late ``from mindspore._fileio.atomic import atomic_write`` runs mindspore/_fileio/__init__ first
    assert {"mindspore._fileio", "mindspore._fileio.atomic"} <= core["mindspore._deploy.onnx._model"]
    assert "mindspore.nn" not in core["mindspore.nn.layer.conv"]
    # without the package edges, a low module importing through a facade that re-exports a higher one is missed
    graph = {"p": {"p.low", "p.high"}, "p.low": set(), "p.high": {"q"}, "q": {"p.low", "p"}}
    assert cycles(graph) == [["p", "p.high", "q"]]


def test_from_mindspore_import_reads_the_root_package(tmp_path):
    # ``from mindspore import x`` reads the root's namespace, and the root __init__ imports everything;
    # ``import mindspore.x as x`` imports only mindspore.x (the root, an ancestor, has started already)
    via_root, direct = tmp_path / "via_root.py", tmp_path / "direct.py"
    via_root.write_text("def f():\n    from mindspore import ops\n")
    direct.write_text("def f():\n    import mindspore.ops as ops\n")
    table = {"mindspore.ops": ("mindspore-core", None)}
    assert {u.module for u in uses(via_root, "mindspore.probe", table)} == {"mindspore", "mindspore.ops"}
    assert {u.module for u in uses(direct, "mindspore.probe", table)} == {"mindspore.ops"}


def test_tensor_and_primitive_sit_below_the_operators():
    graph = import_graph("mindspore-core")

    def reaches(start, target):
        seen, todo = set(), [start]
        while todo:
            v = todo.pop()
            if v == target:
                return True
            if v not in seen:
                seen.add(v)
                todo.extend(graph.get(v, ()))
        return False
    for low in ("mindspore.common.tensor", "mindspore._core.primitive", "mindspore._core.interpreters",
                "mindspore._runtime.backend", "mindspore.context", "mindspore._plugin.manager"):
        for high in ("mindspore.ops.functional", "mindspore.ops.tensor_methods", "mindspore.nn.cell",
                     "mindspore._runtime.dispatch"):
            assert not reaches(low, high), f"{low} imports (through others) {high}"
