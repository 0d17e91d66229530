"""``mindspore.hal`` against real MindSpore 2.10 on the CPU (answers recorded by ``make_hal_log_fixture.py``), and
its sharing of ``mindspore.runtime``."""
import json
import pathlib
import subprocess
import sys

import pytest

import mindspore as ms
from mindspore import hal, plugin, runtime

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "api" / "hal_log_msref.json").read_text())
HAL = FIXTURE["hal"]
#: messages that come from mindspore.runtime's own checks (worded as the rest of this project's runtime)
RUNTIME_MESSAGES = {"hal.Stream(priority='a')", "hal.Event(enable_timing=1)"}
#: the fixture holds MindSpore's answers on the CPU (a session on another device answers for that device)
on_cpu = pytest.mark.skipif(plugin.current_target() != "CPU", reason="MindSpore's answers were recorded on the CPU")


@on_cpu
@pytest.mark.parametrize("expr", sorted(HAL))
def test_hal_answers_as_mindspore_on_cpu(expr):
    want = HAL[expr]
    if "error" in want:
        with pytest.raises(getattr(__import__("builtins"), want["error"])) as info:
            eval(expr, {"hal": hal})  # noqa: S307 - the fixture's own expressions
        if expr not in RUNTIME_MESSAGES:
            assert str(info.value).splitlines()[0] == want["message"]
    else:
        assert repr(eval(expr, {"hal": hal})) == want["repr"]  # noqa: S307


@on_cpu
def test_streams_events_and_memory_are_the_runtimes():
    for name in ("Stream", "Event", "StreamCtx", "synchronize", "current_stream", "default_stream",
                 "communication_stream", "set_cur_stream", "empty_cache"):
        assert getattr(hal, name) is getattr(runtime, name)
    assert hal.memory_stats() == runtime.memory_stats()
    assert hal.memory_summary("CPU") == runtime.memory_summary()
    start, end = hal.Event(enable_timing=True), hal.Event(enable_timing=True)
    with hal.StreamCtx(hal.Stream()) as s:
        start.record(s)
        ms.ops.add(ms.Tensor([1.0]), 1.0)
        end.record(s)
    assert start.elapsed_time(end) >= 0.0


def test_is_initialized_turns_true_with_the_first_computation():
    code = ("from mindspore import hal, ops, Tensor\n"
            "before = hal.is_initialized('CPU')\n"
            "ops.add(Tensor([1.0]), 1.0)\n"
            "print(before, hal.is_initialized('CPU'), hal.is_initialized('GPU'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    assert out.stdout.split() == ["False", "True", "False"]


class _NamedRuntime(plugin.DeviceRuntime):
    target = "CPU"

    def device_name(self, device_id):
        return f"host-{device_id}"

    def device_properties(self, device_id):
        return {"name": self.device_name(device_id), "total_memory": 1 << 30}

    def device_capability(self, device_id):
        return (9, 0)

    def arch_list(self):
        return ["sm_90"]


def test_device_queries_ask_the_runtime(monkeypatch):
    from mindspore.hal import device
    monkeypatch.setattr(device, "runtime_of", lambda target=None: _NamedRuntime())
    assert hal.get_device_name(0) == "host-0"
    assert hal.get_device_properties(0)["total_memory"] == 1 << 30
    assert hal.get_device_capability(0) == (9, 0)
    assert hal.get_arch_list() == ["sm_90"]


@pytest.mark.skipif(not hal.is_available("GPU"), reason="needs a GPU (mindspore-gpu and a CUDA device)")
def test_gpu_device_queries():
    import cupy
    props = cupy.cuda.runtime.getDeviceProperties(0)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    assert hal.device_count("GPU") == cupy.cuda.runtime.getDeviceCount()
    assert hal.get_device_name(0, "GPU") == name
    assert hal.get_device_capability(0, "GPU") == (props["major"], props["minor"])
    info = hal.get_device_properties(0, "GPU")
    assert info.total_memory == props["totalGlobalMem"] and info.name == name
    assert f"sm_{props['major']}{props['minor']}" in hal.get_arch_list("GPU")
    if plugin.current_target() == "GPU":   # DLPack on the device: CuPy's memory, shared both ways
        from mindspore import utils
        y = utils.from_dlpack(cupy.arange(3, dtype=cupy.float32))
        assert y.asnumpy().tolist() == [0.0, 1.0, 2.0]
        assert cupy.from_dlpack(utils.to_dlpack(y)).get().tolist() == [0.0, 1.0, 2.0]
