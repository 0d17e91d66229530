"""``mindspore.runtime``, ``mindspore.device_context`` and the kernel thread count reaching the CPU
backend's C++ kernels."""
import threading

import numpy as np
import pytest

import mindspore as ms
from mindspore import context

kernels = pytest.importorskip("mindspore_cpu._kernels")


@pytest.fixture
def restore_threads():
    before = kernels.num_threads()
    saved = context.get_context("runtime_num_threads")
    yield before
    ms.set_context(runtime_num_threads=before)
    context._ctx["runtime_num_threads"] = saved


@pytest.mark.cpu_backend
def test_thread_count_reaches_the_kernels_from_every_thread(restore_threads):
    ms.device_context.cpu.op_tuning.threads_num(1)
    assert context.get_context("runtime_num_threads") == 1
    from mindspore._runtime import backend
    backend.current()   # the setting applies when the runtime is created, or at once when it exists
    assert kernels.num_threads() == 1
    seen = []
    t = threading.Thread(target=lambda: seen.append(kernels.num_threads()))
    t.start()
    t.join()
    assert seen == [1]
    assert backend.current().runtime.threads == 1
    # the same numbers with one thread and with two (the kernels' sums do not depend on the count
    # except the filter gradient's per-thread partials, which this size keeps serial)
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 9, 9)).astype(np.float32))
    conv = ms.nn.Conv2d(3, 4, 3)
    one = conv(x).asnumpy()
    ms.set_context(runtime_num_threads=2)
    assert kernels.num_threads() == 2
    np.testing.assert_array_equal(conv(x).asnumpy(), one)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_thread_count_is_validated(bad, restore_threads):
    with pytest.raises((TypeError, ValueError)):
        ms.set_context(runtime_num_threads=bad)
    with pytest.raises((TypeError, ValueError), match="threads_num"):
        ms.device_context.cpu.op_tuning.threads_num(bad)
    assert kernels.num_threads() == restore_threads
    with pytest.raises(ValueError, match="n must be >= 1"):
        kernels.set_num_threads(0)


def test_device_context_reports_the_plugins_probes():
    assert ms.device_context.cpu.is_available() is True
    assert ms.device_context.cpu.device_count() == 1
    from mindspore._plugin import manager
    gpu = [p for rec in manager.plugins() if rec.status == "loaded" for p in rec.probes if p.target == "GPU"]
    assert ms.device_context.gpu.is_available() == any(p.available for p in gpu)
    assert ms.device_context.gpu.device_count() == (max(p.device_count for p in gpu if p.available)
                                                    if any(p.available for p in gpu) else 0)
    assert isinstance(ms.device_context.ascend.is_available(), bool)


def test_ascend_operator_settings_do_nothing_off_ascend(monkeypatch):
    # 2.10's submodules (MindFormers imports op_precision at import time); on the CPU target a setting only logs
    # 2.10's error, whatever its value, as 2.10's first call does
    from mindspore.device_context.ascend import _conf, op_debug, op_precision, op_tuning
    logged = []
    monkeypatch.setattr(_conf, "error", logged.append)
    for _ in range(2):
        assert op_precision.precision_mode("no such mode") is None
    op_precision.matmul_allow_hf32(3)
    op_tuning.op_compile(True)
    op_debug.execute_timeout(-1)
    target = context.get_context("device_target")   # CPU, or the STRICT test device
    assert logged == [f"{target} device is not supported. Please use correct device"] * 5 and _conf.CONF == {}
    # on an Ascend target the values are checked and kept, once
    monkeypatch.setattr(context, "get_context", lambda key: "Ascend")
    monkeypatch.setattr(_conf, "CONF", {})
    op_precision.precision_mode("force_fp16")
    op_precision.precision_mode("force_fp16")
    with pytest.raises(RuntimeError, match="'precision_mode' can not be set repeatedly"):
        op_precision.precision_mode("force_fp32")
    with pytest.raises(ValueError, match="must be one of"):
        op_precision.conv_allow_hf32(2)
    with pytest.raises(ValueError, match="bigger than or equal to 0"):
        op_debug.execute_timeout(-1)
    with pytest.raises(ValueError, match="the key must be one of"):
        op_debug.aclinit_config({"bad": "1"})
    op_tuning.aoe_tune_mode("online")
    assert _conf.CONF == {"precision_mode": "force_fp16", "aoe_tune_mode": "online"}


def test_runtime_controls():
    saved = context.get_context("pynative_synchronize")
    try:
        ms.runtime.launch_blocking()
        assert context.get_context("pynative_synchronize") is True
    finally:
        ms.set_context(pynative_synchronize=saved)
    ms.runtime.dispatch_threads_num(4)
    with pytest.raises(ValueError, match=r"must be in \[1, 128\]"):
        ms.runtime.dispatch_threads_num(0)
    with pytest.raises(TypeError, match="must be int"):
        ms.runtime.dispatch_threads_num(2.0)
    ms.runtime.synchronize()
