"""Failure isolation of plugin discovery, checked in subprocesses that see extra fake distributions.

Each fake plugin is a ``*.dist-info`` folder with an ``entry_points.txt`` in a temporary folder put
on ``PYTHONPATH``, which is all ``importlib.metadata`` needs to find it:

* ``broken``  -- raises when its module is imported;
* ``future``  -- declares plugin API (9, 0) and claims a usable GPU, which must never be believed;
* ``flaky``   -- imports fine but its backend probe raises;
* ``blockme`` -- must not even be imported when blocked;
* ``exiter``  -- calls ``sys.exit`` at import;
* ``nodict``  -- its ``ms_plugin_info`` returns a list instead of a dict.

In every case ``import mindspore`` works and the CPU backend computes.
"""
import json
import os

import pytest

from plugin_helpers import clean_env, info_json, run_python, write_distribution

BROKEN = """
raise RuntimeError("this plugin is broken on purpose")
"""

FUTURE = """
from mindspore.plugin import BackendProbe, hookimpl

@hookimpl
def ms_plugin_info():
    return {"name": "future", "version": "9.0.0", "api_version": (9, 0)}

@hookimpl
def ms_backend_probe():
    return [BackendProbe(target="GPU", available=True, priority=1000)]
"""

FLAKY = """
from mindspore.plugin import hookimpl

@hookimpl
def ms_plugin_info():
    return {"name": "flaky", "version": "1.0", "api_version": (2, 0)}

@hookimpl
def ms_backend_probe():
    raise ValueError("probe exploded")
"""

BLOCKME = """
raise AssertionError("a blocked plugin must not be imported")
"""

EXITER = """
import sys
sys.exit("this plugin exits at import")
"""

NODICT = """
from mindspore.plugin import hookimpl

@hookimpl
def ms_plugin_info():
    return ["nodict", "1.0", (2, 0)]
"""

COMPUTE = """
import json, numpy as np
import mindspore as ms
from mindspore import ops
out = {"sum": ops.add(ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(np.float32(3.0))).asnumpy().tolist()}
try:
    ms.set_context(device_target="GPU")
    out["gpu"] = "selected"
except Exception as exc:
    out["gpu"] = {"type": type(exc).__name__, "is_runtime_error": isinstance(exc, RuntimeError), "msg": str(exc)}
two, four = ms.Tensor(np.array([2.0], np.float32)), ms.Tensor(np.array([4.0], np.float32))
out["after"] = ops.mul(two, four).asnumpy().tolist()
from mindspore._plugin import manager
gpu = [p for r in manager.plugins() if r.name == "gpu" for p in r.probes]
out["gpu_probe"] = {"available": gpu[0].available, "reason": gpu[0].reason} if gpu else None
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def fake_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("fake_site")
    write_distribution(root, "broken-plugin", "0.1", "broken", "ms_test_broken_plugin", BROKEN)
    write_distribution(root, "future-plugin", "9.0.0", "future", "ms_test_future_plugin", FUTURE)
    write_distribution(root, "flaky-plugin", "1.0", "flaky", "ms_test_flaky_plugin", FLAKY)
    write_distribution(root, "blockme-plugin", "1.0", "blockme", "ms_test_blockme_plugin", BLOCKME)
    write_distribution(root, "exiter-plugin", "1.0", "exiter", "ms_test_exiter_plugin", EXITER)
    write_distribution(root, "nodict-plugin", "1.0", "nodict", "ms_test_nodict_plugin", NODICT)
    return root


def _env(fake_site, **extra):
    path = os.pathsep.join(p for p in (str(fake_site), os.environ.get("PYTHONPATH")) if p)
    return clean_env(PYTHONPATH=path, **extra)


def _by_name(report):
    return {p["name"]: p for p in report["plugins"]}


def test_broken_plugins_never_break_import_or_cpu(fake_site):
    out = run_python(["-c", COMPUTE], env=_env(fake_site, MINDSPORE_DISABLE_PLUGINS="blockme"))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["sum"] == [4.0, 5.0]
    assert result["after"] == [8.0]  # the failed set_context left the CPU backend in place
    if result["gpu_probe"] and result["gpu_probe"]["available"]:
        pytest.skip("a usable GPU is present")
    gpu = result["gpu"]
    assert gpu != "selected", "the incompatible plugin's GPU claim must not be believed"
    assert gpu["is_runtime_error"], gpu
    assert "pip install mindspore-gpu" in gpu["msg"]
    if result["gpu_probe"]:  # mindspore-gpu installed: its reason is named
        assert result["gpu_probe"]["reason"] in gpu["msg"]
    assert "plugin 'broken' (broken-plugin): failed" in gpu["msg"]


def test_info_reports_failed_and_incompatible_plugins(fake_site):
    report = info_json(env=_env(fake_site, MINDSPORE_DISABLE_PLUGINS="blockme"))
    plugins = _by_name(report)
    broken, future, flaky = plugins["broken"], plugins["future"], plugins["flaky"]
    assert (broken["status"], broken["distribution"], broken["version"]) == ("failed", "broken-plugin", "0.1")
    assert "import failed: RuntimeError: this plugin is broken on purpose" in broken["error"]
    assert "this plugin is broken on purpose" in broken["traceback"]
    assert future["status"] == "incompatible"
    core_api = ".".join(map(str, report["plugin_api_version"]))
    assert "9.0" in future["error"] and f"provides {core_api}" in future["error"]
    assert future["targets"] == []  # no hook of an incompatible plugin is called
    assert flaky["status"] == "failed" and "ms_backend_probe failed: ValueError: probe exploded" in flaky["error"]
    assert plugins["blockme"]["status"] == "blocked"
    exiter, nodict = plugins["exiter"], plugins["nodict"]
    assert exiter["status"] == "failed" and "import failed: SystemExit: this plugin exits at import" in exiter["error"]
    assert nodict["status"] == "failed" and "ms_plugin_info must return a dict, but got list" in nodict["error"]
    assert plugins["cpu"]["status"] == "loaded"
    assert report["default_target"] == "CPU"
    assert report["errors"] == []


def test_info_text_names_every_status(fake_site):
    out = run_python(["-m", "mindspore.info"], env=_env(fake_site, MINDSPORE_DISABLE_PLUGINS="blockme"))
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for expected in ("broken", "failed", "future", "incompatible", "blocked by MINDSPORE_DISABLE_PLUGINS",
                     "probe exploded", "Default target: CPU"):
        assert expected in text, expected
    verbose = run_python(["-m", "mindspore.info", "--verbose"], env=_env(fake_site))
    assert "Traceback" in verbose.stdout


def test_a_plugin_that_is_not_blocked_gets_imported(fake_site):
    # The control for the blocked case: without MINDSPORE_DISABLE_PLUGINS, blockme's import runs (and fails).
    plugins = _by_name(info_json(env=_env(fake_site)))
    assert plugins["blockme"]["status"] == "failed"
    assert "a blocked plugin must not be imported" in plugins["blockme"]["error"]


def test_disable_plugins_blocks_them(fake_site):
    env = _env(fake_site, MINDSPORE_DISABLE_PLUGINS="blockme, broken")
    plugins = _by_name(info_json(env=env))
    assert plugins["blockme"]["status"] == "blocked" and plugins["broken"]["status"] == "blocked"
    assert plugins["future"]["status"] == "incompatible"


def test_blocking_the_cpu_backend_leaves_no_backend(fake_site):
    code = "import mindspore as ms; from mindspore import ops; ops.add(ms.Tensor([1.0]), ms.Tensor([2.0]))"
    out = run_python(["-c", code], env=_env(fake_site, MINDSPORE_DISABLE_PLUGINS="cpu"))
    assert out.returncode != 0
    assert "BackendUnavailableError" in out.stderr and "pip install mindspore-cpu" in out.stderr


def test_autoload_off_leaves_no_backend(fake_site):
    env = _env(fake_site, MINDSPORE_PLUGINS_AUTOLOAD="0")
    code = ("import mindspore as ms\nfrom mindspore import ops\n"
            "try:\n    ops.add(ms.Tensor([1.0]), ms.Tensor([2.0]))\n"
            "except RuntimeError as exc:\n    print('ERROR', type(exc).__name__, exc)\n")
    out = run_python(["-c", code], env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ERROR BackendUnavailableError")
    assert "pip install mindspore-cpu" in out.stdout
    report = info_json(env=env)
    assert report["plugins"] == [] and report["default_target"] is None
    assert "pip install mindspore-cpu" in report["default_target_error"]


EARLY_OVERRIDE = """
import numpy as np
from mindspore.plugin import hookimpl

@hookimpl
def ms_plugin_info():
    return {"name": "aaa", "version": "1.0", "api_version": (2, 0)}

@hookimpl
def ms_register_kernels(registry):
    registry.register("Add", "CPU", lambda prim, x, y, out: np.asarray(np.add(x, y) + 100, out.dtype.to_numpy()),
                      priority=10, override=OVERRIDE)
"""


def test_override_is_reported_whatever_the_plugin_order(tmp_path):
    # 'aaa' sorts before 'cpu', but MindSpore's own plugins register first: the override replaces 'cpu's kernel.
    write_distribution(tmp_path, "aaa-plugin", "1.0", "aaa", "ms_test_aaa_plugin",
                       EARLY_OVERRIDE.replace("OVERRIDE)", "True)"))
    env = _env(tmp_path)
    code = "import mindspore as ms; from mindspore import ops; print(ops.add(ms.Tensor([1.0]), ms.Tensor([2.0])))"
    out = run_python(["-c", code], env=env)
    assert out.returncode == 0, out.stderr
    assert "103" in out.stdout  # the override is in effect
    report = info_json(env=env)
    assert [o for o in report["kernel_overrides"] if o["primitive"] == "Add"] == [
        {"primitive": "Add", "target": "CPU", "plugin": "aaa", "replaces": ["cpu"], "dtypes": "all"}]
    assert not [r for r in report["rejected_kernels"] if r["primitive"] == "Add"]


def test_a_kernel_without_override_never_replaces_a_first_party_one(tmp_path):
    # Without override=True the third-party Add is refused, even though its plugin name sorts first.
    write_distribution(tmp_path, "aaa-plugin", "1.0", "aaa", "ms_test_aaa_plugin",
                       EARLY_OVERRIDE.replace("OVERRIDE)", "False)"))
    env = _env(tmp_path)
    code = "import mindspore as ms; from mindspore import ops; print(ops.add(ms.Tensor([1.0]), ms.Tensor([2.0])))"
    out = run_python(["-c", code], env=env)
    assert out.returncode == 0, out.stderr
    assert "[3.]" in out.stdout and "103" not in out.stdout
    report = info_json(env=env)
    assert not [o for o in report["kernel_overrides"] if o["primitive"] == "Add"]
    (rejected,) = [r for r in report["rejected_kernels"] if r["primitive"] == "Add"]
    assert rejected["plugin"] == "aaa" and "already provided by 'cpu'" in rejected["reason"]


def test_a_device_target_without_backend_is_named_as_mindspore_names_it():
    """2.10: "Unsupported device target Ascend. This process only supports one of the ['CPU']. ..." (a
    RuntimeError); ours adds which package to install and why each candidate plugin is unusable."""
    code = ("import mindspore as ms\ntry:\n    ms.set_context(device_target='Ascend')\n"
            "except RuntimeError as exc:\n    print('ERROR', exc)\n")
    out = run_python(["-c", code])
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ERROR Unsupported device target Ascend. This process only supports one of the [")
    assert "'CPU'" in out.stdout.splitlines()[0] and "pip install mindspore-ascend" in out.stdout
