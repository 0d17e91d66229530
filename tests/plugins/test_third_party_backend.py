"""A third-party backend with its own device target trains LeNet5, installed without mindspore-cpu.

``examples/third_party_backend`` (distribution ``ms-simnpu-backend``, target ``SimNPU``) and
mindspore-core are built as wheels and installed by pip into a fresh virtual environment, with their
dependencies from the configured package index and without mindspore-cpu. There:

* ``python -m mindspore.info --json`` lists the plugin, its target and its kernels;
* SimNPU is the default target, and ``set_context(device_target="simnpu")`` selects it;
* its buffers refuse every implicit conversion to host data (as CuPy's do), so a LeNet5 run that
  works proves core touches device data only through the runtime's transfers;
* the example's own script, ``train_lenet.py``, trains LeNet5 from MindSpore 2.10's initial weights
  in PYNATIVE_MODE and GRAPH_MODE: the losses and the trained network's logits match real
  MindSpore's (``tests/fixtures/mindspore-2.10/lenet``, the tolerance of ``tests/e2e``), and no
  primitive fell back to another target.
"""
import json
import pathlib
import sys
import time
import zipfile

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "packaging"))

from packaging_helpers import REPO, Env, build_wheels, has_setuptools, wheel  # noqa: E402

EXAMPLE = "examples/third_party_backend"
DIST = "ms-simnpu-backend"
FIXTURES = REPO / "tests" / "fixtures" / "mindspore-2.10" / "lenet"
RTOL = 1e-5   # tests/e2e/test_lenet_fixture.py's: float32 rounding


@pytest.fixture(scope="module")
def simnpu_wheels(tmp_path_factory):
    start = time.perf_counter()
    try:
        out = build_wheels(tmp_path_factory.mktemp("simnpu_wheels"), "mindspore-core", EXAMPLE)
    except AssertionError as exc:
        if has_setuptools():
            raise
        pytest.skip(f"wheels cannot be built here (no setuptools, and pip could not get it): {exc}")
    print(f"building the wheels took {time.perf_counter() - start:.1f} s")
    return out


@pytest.fixture(scope="module")
def simnpu_env(tmp_path_factory, simnpu_wheels):
    env = Env(tmp_path_factory.mktemp("simnpu") / "venv")
    start = time.perf_counter()
    env.pip("install", "--quiet", wheel(simnpu_wheels, "mindspore-core"), wheel(simnpu_wheels, DIST))
    print(f"installing took {time.perf_counter() - start:.1f} s")
    return env


def test_the_example_wheel_ships_only_its_own_package(simnpu_wheels):
    names = zipfile.ZipFile(wheel(simnpu_wheels, DIST)).namelist()
    package_files = [n for n in names if not n.split("/")[0].endswith(".dist-info")]
    assert package_files and all(n.startswith("ms_simnpu/") for n in package_files), package_files
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "simnpu = ms_simnpu.plugin" in zipfile.ZipFile(wheel(simnpu_wheels, DIST)).read(entry_points).decode()


INSTALLED = r"""
import importlib.util, json, os, sys
from importlib import metadata
import numpy as np
import mindspore as ms
import ms_simnpu
from ms_simnpu.kernels import all_kernels
from ms_simnpu.runtime import SimBuffer

res = {"core": ms.__file__, "example": ms_simnpu.__file__, "kernel_count": len(all_kernels()),
       "cpu_visible": importlib.util.find_spec("mindspore_cpu") is not None,
       "entry_points": sorted(ep.name for ep in metadata.entry_points(group="mindspore.plugins")),
       "default_target": ms.get_context("device_target")}

# Every implicit way to reach the data of a device buffer raises TypeError.
buf = SimBuffer(np.ones((2, 2), np.float32))
attempts = {"np.asarray": lambda: np.asarray(buf), "bool": lambda: bool(buf), "float": lambda: float(buf),
            "int": lambda: int(buf), "len": lambda: len(buf), "iter": lambda: list(buf), "index": lambda: buf[0],
            "add": lambda: buf + 1, "radd": lambda: 1 + buf, "ufunc": lambda: np.add(buf, 1), "eq": lambda: buf == buf,
            "neg": lambda: -buf, "matmul": lambda: buf @ buf}
refused = {}
for what, fn in attempts.items():
    try:
        fn()
        refused[what] = "no error"
    except TypeError as exc:
        refused[what] = "TypeError" if "Implicit conversion" in str(exc) or what == "ufunc" else str(exc)
res["refused"] = refused
res["buffer"] = [list(buf.shape), str(buf.dtype)]
print(json.dumps(res))
"""

UNAVAILABLE = r"""
import json, os
os.environ["MS_SIMNPU_DEVICES"] = "0"
import mindspore as ms
try:
    ms.set_context(device_target="SimNPU")
    print(json.dumps("no error"))
except Exception as exc:
    print(json.dumps({"type": type(exc).__name__, "msg": str(exc)}))
"""


@pytest.fixture(scope="module")
def installed(simnpu_env):
    return json.loads(simnpu_env.run("-c", INSTALLED).stdout)


def test_installed_without_cpu_backend_and_buffers_refuse_implicit_conversion(simnpu_env, installed):
    res = installed
    assert str(simnpu_env.root) in res["core"] and str(simnpu_env.root) in res["example"]  # installed, not the checkout
    assert not res["cpu_visible"] and res["entry_points"] == ["simnpu"]
    assert res["default_target"] == "SimNPU"   # the only usable target, of priority above the CPU's
    assert res["refused"] == {what: "TypeError" for what in res["refused"]}
    assert res["buffer"] == [[2, 2], "float32"]


def test_info_lists_the_plugin_its_target_and_its_kernels(simnpu_env, installed):
    kernel_count = installed["kernel_count"]
    report = json.loads(simnpu_env.run("-m", "mindspore.info", "--json").stdout)
    (rec,) = report["plugins"]
    assert (rec["name"], rec["distribution"], rec["version"], rec["status"]) == ("simnpu", DIST, "0.1.0", "loaded")
    (target,) = rec["targets"]
    assert (target["target"], target["available"], target["device_count"]) == ("SimNPU", True, 1)
    assert target["priority"] > 0
    assert report["kernels"] == {"simnpu": {"SimNPU": kernel_count}} and kernel_count >= 40
    assert report["rejected_kernels"] == [] and report["kernel_overrides"] == [] and report["errors"] == []
    assert (report["default_target"], report["default_backend_plugin"]) == ("SimNPU", "simnpu")


def test_an_unusable_simnpu_is_reported_with_its_reason(simnpu_env):
    err = json.loads(simnpu_env.run("-c", UNAVAILABLE).stdout)
    assert err != "no error" and err["type"] == "BackendUnavailableError"
    assert "no SimNPU device" in err["msg"] and "pip install ./examples/third_party_backend" in err["msg"]


def test_lenet_trains_on_simnpu_in_both_modes_like_mindspore(simnpu_env):
    io = np.load(FIXTURES / "lenet_io.npz")
    start = time.perf_counter()
    out = simnpu_env.run(REPO / EXAMPLE / "train_lenet.py", "--json", "--target", "simnpu", "--fixtures", FIXTURES)
    print(f"training in both modes took {time.perf_counter() - start:.1f} s (with the interpreter's start)")
    report = json.loads(out.stdout)
    assert (report["default_target"], report["selected_target"]) == ("SimNPU", "SimNPU")
    assert sorted(report["modes"]) == ["graph", "pynative"]
    for mode, res in report["modes"].items():
        assert res["target"] == "SimNPU", mode
        assert res["fallbacks"] == [], mode
        np.testing.assert_allclose(res["losses"], io["train_losses"], rtol=RTOL, err_msg=mode)
        np.testing.assert_allclose(res["eval_logits"], io["eval_logits"], rtol=RTOL, atol=1e-6, err_msg=mode)
    calls = report["kernel_calls"]
    for prim in ("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPool", "MaxPoolGrad", "ReluGrad",
                 "MatMul", "BiasAdd", "SparseSoftmaxCrossEntropyWithLogits", "ApplyMomentum"):
        assert calls.get(prim, 0) > 0, prim
    assert report["transfers"]["from_host"] > 0 and report["transfers"]["to_host"] > 0
