"""transforms.Plugin: 2.10's argument checks and loading errors, and a C++ plugin built against PLUGIN_HEADER run
through our host: outputs and errors as real MindSpore 2.10 gave for the same plugin source (fixtures/plugin)."""
import builtins
import ctypes.util
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import mindspore.dataset as ds
import mindspore.dataset.transforms as transforms
from mindspore.dataset.transforms import _plugin

FIXTURES = Path(__file__).parent / "fixtures" / "plugin"
ERRORS = json.loads((FIXTURES / "plugin_errors_2.10.json").read_text())
LIBM = ctypes.util.find_library("m")
CASES = {
    "lib_path_type": ((1, "F"), None),
    "func_name_type": (("a.so", 2), None),
    "user_args_type": (("a.so", "F", 3), None),
    "missing_file": (("/nonexistent/libx.so", "PluginDecode"), "/nonexistent/libx.so"),
    "no_get_instance": ((LIBM, "PluginDecode"), LIBM),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_errors_match_mindspore(case):
    args, lib = CASES[case]
    kind, message = ERRORS[case]
    with pytest.raises(getattr(builtins, kind)) as info:
        transforms.Plugin(*args)(np.array([1, 2, 3], np.uint8))
    text = str(info.value)
    if kind == "RuntimeError":
        assert text.startswith("Plugin: ")
        text = re.sub(r"[^\s:]*" + re.escape(lib), "<lib>", text[len("Plugin: "):])
    assert text == message


def test_construction_does_not_load():
    plugin = transforms.Plugin("/nonexistent/libx.so", "PluginDecode", "args")
    assert (plugin.lib_path, plugin.func_name, plugin.user_args) == ("/nonexistent/libx.so", "PluginDecode", "args")
    assert transforms.Plugin("a.so", "F").user_args == ""


def test_pipeline_reports_load_failure():
    data = ds.NumpySlicesDataset([np.array([1, 2, 3], np.uint8)], ["x"], shuffle=False)
    data = data.map(operations=transforms.Plugin("/nonexistent/libx.so", "PluginDecode"))
    with pytest.raises(RuntimeError, match=r"Fail to load:/nonexistent/libx\.so\."):
        for _ in data.create_tuple_iterator(output_numpy=True):
            pass


@pytest.fixture(scope="module")
def add_scalar(tmp_path_factory):
    """``add_scalar_plugin.cpp`` built as a 0.5.6 and a 0.5.5 plugin (as the fixture script builds it for 2.10);
    the plugin host is built into a temporary cache."""
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        pytest.skip("needs a C++ compiler")
    tmp = tmp_path_factory.mktemp("plugin")
    (tmp / "plugin_abi.h").write_text(_plugin.PLUGIN_HEADER)
    libs = {}
    for name, version in (("libaddscalar.so", "0.5.6"), ("libaddscalar_old.so", "0.5.5")):
        subprocess.run([compiler, "-std=c++17", "-O1", "-shared", "-fPIC", "-D_GLIBCXX_USE_CXX11_ABI=0",
                        f'-DVERSION="{version}"', "-I", str(tmp), "-o", str(tmp / name),
                        str(FIXTURES / "add_scalar_plugin.cpp")], check=True)
        libs[version] = str(tmp / name)
    old_cache = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp / "cache")
    try:
        _plugin._host()  # pylint: disable=protected-access
    finally:
        if old_cache is None:
            del os.environ["XDG_CACHE_HOME"]
        else:
            os.environ["XDG_CACHE_HOME"] = old_cache
    return tmp, libs


def test_plugin_runs_like_mindspore(add_scalar):
    _, libs = add_scalar
    ref = ERRORS["add_scalar"]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = transforms.Plugin(libs["0.5.6"], "AddScalar", "1.5")(x)
    assert out.dtype == np.float32 and out.tolist() == ref["eager"]
    data = ds.NumpySlicesDataset([np.full((2, 2), i, np.float32) for i in range(3)], ["x"], shuffle=False)
    data = data.map(operations=transforms.Plugin(libs["0.5.6"], "AddScalar", "-2"), num_parallel_workers=2)
    assert [row[0].tolist() for row in data.create_tuple_iterator(output_numpy=True)] == ref["pipeline"]
    # several columns: one output per input, as the plugin's Compute returns them
    a, b = transforms.Plugin(libs["0.5.6"], "AddScalar", "1")(np.ones(2, np.float32), np.zeros((1, 1), np.float32))
    assert a.tolist() == [2.0, 2.0] and b.tolist() == [[1.0]]


@pytest.mark.parametrize("case", ["wrong_type", "no_module", "bad_args", "old_version"])
def test_plugin_errors_match_mindspore(add_scalar, case):
    tmp, libs = add_scalar
    args, value = {"wrong_type": ((libs["0.5.6"], "AddScalar", "1"), np.ones(2, np.int32)),
                   "no_module": ((libs["0.5.6"], "Nope"), np.ones(2, np.float32)),
                   "bad_args": ((libs["0.5.6"], "AddScalar", "x"), np.ones(2, np.float32)),
                   "old_version": ((libs["0.5.5"], "AddScalar"), np.ones(2, np.float32))}[case]
    kind, message = ERRORS["add_scalar"][case]
    with pytest.raises(getattr(builtins, kind)) as info:
        transforms.Plugin(*args)(value)
    assert str(info.value) == "Plugin: " + message.replace("<plugin>", str(tmp))


def test_plugin_refuses_strings(add_scalar):
    _, libs = add_scalar
    with pytest.raises(RuntimeError, match="is not supported"):
        transforms.Plugin(libs["0.5.6"], "AddScalar")(np.array(["a"]))
