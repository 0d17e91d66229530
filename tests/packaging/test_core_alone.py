"""mindspore-core installed alone (a regular wheel install, no backend): it imports, and the first
computation says which backend to install."""
import json
import time

import pytest
from packaging_helpers import Env, wheel

PROBE = r"""
import importlib.util, json
from importlib import metadata
import mindspore as ms
from mindspore import ops
res = {"file": ms.__file__, "cpu_visible": importlib.util.find_spec("mindspore_cpu") is not None,
       "entry_points": sorted(ep.name for ep in metadata.entry_points(group="mindspore.plugins"))}
x = ms.Tensor([1.0, 2.0])
res["tensor"] = x.asnumpy().tolist()
for what, fn in (("compute", lambda: ops.add(x, x)), ("set_context", lambda: ms.set_context(device_target="CPU"))):
    try:
        fn()
        res[what] = "no error"
    except Exception as exc:
        res[what] = {"type": type(exc).__name__, "runtime_error": isinstance(exc, RuntimeError), "msg": str(exc)}
print(json.dumps(res))
"""


@pytest.fixture(scope="module")
def core_env(tmp_path_factory, wheelhouse):
    """One fresh environment holding mindspore-core and its dependencies only (the tests only read it)."""
    env = Env(tmp_path_factory.mktemp("core_alone") / "venv")
    start = time.perf_counter()
    env.pip("install", "--quiet", wheel(wheelhouse, "mindspore-core"))
    print(f"installing mindspore-core and its dependencies took {time.perf_counter() - start:.1f} s")
    return env


def test_core_alone_imports_and_names_the_backend_to_install(core_env):
    env = core_env
    res = json.loads(env.run("-c", PROBE).stdout)
    assert str(env.root) in res["file"]  # the installed wheel, not the checkout
    assert not res["cpu_visible"] and res["entry_points"] == []
    assert res["tensor"] == [1.0, 2.0]  # creating tensors needs no backend
    for what in ("compute", "set_context"):
        err = res[what]
        assert err != "no error", what
        assert err["type"] == "BackendUnavailableError" and err["runtime_error"]
        assert "pip install mindspore-cpu" in err["msg"]


def test_info_works_without_any_backend(core_env):
    env = core_env
    text = env.run("-m", "mindspore.info").stdout
    assert "none found; install a backend with 'pip install mindspore-cpu'" in text
    assert "Default target: none" in text
    report = json.loads(env.run("-m", "mindspore.info", "--json").stdout)
    assert report["plugins"] == [] and report["default_target"] is None and report["errors"] == []
