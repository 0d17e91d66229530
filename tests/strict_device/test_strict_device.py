"""The STRICT test device is really strict, core runs on it, and a missing kernel falls back to the CPU.

These run in every session (they select STRICT themselves and put the previous target back); the
``MS_TEST_DEVICE_TARGET=STRICT`` run of ``.ci/run`` then takes whole suites onto it.
"""
import pathlib
import sys
import warnings

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation, info, nn, ops
from mindspore._runtime import backend
from mindspore.common import dtype as mstype
from mindspore.plugin import NON_DIFFERENTIABLE, Primitive, hookimpl, prim_attr_register

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import ms_strict_device  # noqa: E402
from ms_strict_device import StrictBuffer  # noqa: E402


@pytest.fixture
def strict():
    before = ms.get_context("device_target_requested")
    ms.plugin.register_plugin(ms_strict_device, "strict")
    ms.set_context(device_target="STRICT")
    yield
    ms.plugin.unregister_plugin("cube")
    ms.context.store("device_target", before)
    _generation.bump(plugins=False)


@pytest.mark.parametrize("convert", [np.asarray, bool, float, int, len, lambda b: b + 1, lambda b: b[0],
                                     lambda b: np.add(b, 1), lambda b: b == b])
def test_buffers_refuse_implicit_host_conversion(convert):
    buf = StrictBuffer(np.ones(1, np.float32))
    with pytest.raises(TypeError):
        convert(buf)
    assert buf.shape == (1,) and buf.dtype == np.float32


def test_a_host_array_where_a_device_buffer_belongs_is_refused():
    kernel = ms_strict_device._strict("Neg", lambda prim, x, out=None: -x)
    with pytest.raises(TypeError, match="host numpy.ndarray"):
        kernel(None, np.ones(2, np.float32))
    assert isinstance(kernel(None, StrictBuffer(np.ones(2, np.float32))), StrictBuffer)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_training_steps_run_on_the_device(strict, mode):
    ms.set_context(mode=mode)
    try:
        ms.set_seed(1)
        net = nn.Dense(4, 3)
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.1, 0.9))
        x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 4) / 8)
        y = ms.Tensor(np.array([0, 2], np.int32))
        first = step(x, y)
        for _ in range(3):
            last = step(x, y)
        assert isinstance(first._data, StrictBuffer) and isinstance(net.weight._data, StrictBuffer)
        assert float(last.asnumpy()) < float(first.asnumpy())
        g = ms.grad(lambda a: (a * a).sum())(x)
        np.testing.assert_allclose(g.asnumpy(), 2 * x.asnumpy(), rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


class CubeOnCpu(Primitive):
    """x ** 3, with a kernel for the CPU target only (as a third-party primitive might have)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return x

    def infer_dtype(self, x):
        return x

    bprop = NON_DIFFERENTIABLE


class _CubePlugin:
    @staticmethod
    @hookimpl
    def ms_plugin_info():
        return {"name": "cube", "version": "0", "api_version": ms.PLUGIN_API_VERSION}

    @staticmethod
    @hookimpl
    def ms_register_primitives():
        return [CubeOnCpu]

    @staticmethod
    @hookimpl
    def ms_register_kernels(registry):
        def cube(prim, x, out):
            assert type(x) is np.ndarray    # the CPU kernel gets host arrays: copied down from the device
            return np.asarray(x ** 3, dtype=out.dtype.to_numpy())
        registry.register("CubeOnCpu", "CPU", cube)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_a_missing_kernel_runs_on_the_cpu_with_copies_and_one_warning(strict, mode):
    ms.plugin.register_plugin(_CubePlugin, "cube")
    ms.set_context(device_target="STRICT")
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    fn = CubeOnCpu()
    run = fn if mode == "pynative" else ms.jit(lambda a: fn(a) + 1)
    backend._fallback_log.clear()
    with pytest.warns(RuntimeWarning, match="For 'CubeOnCpu', the device target 'STRICT' has no kernel: it runs on "
                                            "the CPU"):
        y = run(x)
    assert isinstance(y._data, StrictBuffer)       # copied back up to the device
    np.testing.assert_allclose(y.asnumpy(), [1.0, 8.0] if mode == "pynative" else [2.0, 9.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")             # the warning names the primitive once
        run(ms.Tensor(np.array([3.0], np.float32)))
    assert ("STRICT", "CubeOnCpu", "cube") in backend.fallbacks()
    assert y.dtype == mstype.float32
    report = info.collect()
    assert {"target": "STRICT", "primitive": "CubeOnCpu", "cpu_kernel_plugin": "cube"} in report["cpu_fallbacks"]
    assert "CubeOnCpu" in info.format_text(report)


def test_no_fallback_without_a_cpu_kernel(strict):
    ms.plugin.register_plugin(_CubePlugin, "cube")
    ms.set_context(device_target="STRICT")
    with pytest.raises(ms.plugin.KernelNotFoundError, match="For 'Nope'"):
        backend.current().kernel("Nope", (mstype.float32,), (True,))
    assert ops.add(ms.Tensor([1.0]), 1).asnumpy().tolist() == [2.0]


def _train(net, x, y, steps=3):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    return [float(step(x, y).asnumpy()) for _ in range(steps)]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_tensors_made_before_a_target_switch_move_to_the_new_device(strict, mode):
    """A network, its inputs and a jit function's argument made on the CPU, then ``set_device`` to another target:
    each tensor's data moves to the new device where it is first used (its kernels refused the host arrays before),
    and back again after a switch to the CPU."""
    x_np = np.arange(8, dtype=np.float32).reshape(2, 4) / 8
    y_np = np.array([0, 2], np.int32)
    ms.set_context(mode=mode)
    try:
        ms.set_seed(1)
        expected = _train(nn.Dense(4, 3), ms.Tensor(x_np), ms.Tensor(y_np))   # all on STRICT

        ms.set_context(device_target="CPU")
        ms.set_seed(1)
        net, x, y = nn.Dense(4, 3), ms.Tensor(x_np), ms.Tensor(y_np)
        a = ms.Tensor(np.array([1.0, 2.0], np.float32))
        assert type(net.weight._data) is np.ndarray and type(x._data) is np.ndarray
        ms.set_context(device_target="STRICT")
        np.testing.assert_allclose(_train(net, x, y), expected, rtol=1e-6)
        assert isinstance(net.weight._data, StrictBuffer) and isinstance(x._data, StrictBuffer)
        doubled = ms.jit(lambda t: t * 2 + 1)(a)
        np.testing.assert_array_equal(doubled.asnumpy(), [3.0, 5.0])
        assert isinstance(a._data, StrictBuffer) and isinstance(doubled._data, StrictBuffer)

        ms.set_context(device_target="CPU")
        back = ops.add(doubled, 1)
        assert type(doubled._data) is np.ndarray and type(back._data) is np.ndarray
        np.testing.assert_array_equal(back.asnumpy(), [4.0, 6.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
