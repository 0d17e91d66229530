"""A fused CUDA kernel whose source CuPy cannot compile (NVRTC refusing what we generated, on a CuPy or driver we
have not run) must not break training: the fused kernels turn off with one warning, and the operator that met it
runs again on its plain CuPy path (``kernels/_common.py`` ``retrying``, which the GPU plugin wraps every kernel
in). Batch norm, whose hand-written kernels compile before anything is written, finishes that call on the plain
path, so its moving statistics are updated once."""
import pathlib
import sys

import numpy as np
import pytest

from mindspore import ops

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402

GRAPH = cupy_sim.load_graph_modules()
FAMILIES = {f.__name__.rsplit(".", 1)[-1]: f for f in GRAPH.families}
COMMON, CONV, NN = GRAPH.common, FAMILIES["conv"], FAMILIES["nn"]
cp = GRAPH.cupy


def _refusing(name):
    def kernel(*args, **kwargs):
        raise cupy_sim.CompileException(f"{name}.cu(12): error: identifier \"ptrdiff_t\" is undefined")
    return kernel


@pytest.fixture
def fused_on(monkeypatch):
    monkeypatch.setattr(COMMON, "FUSED", True)     # restored after the test, whatever the test turned off
    return monkeypatch


def _conv_inputs():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((2, 3, 7, 7)).astype(np.float32), rng.standard_normal((4, 3, 3, 3)).astype(np.float32))


class _no_warning:   # noqa: N801 - a context manager
    def __enter__(self):
        import warnings
        self.catcher = warnings.catch_warnings(record=True)
        self.seen = self.catcher.__enter__()
        warnings.simplefilter("always")

    def __exit__(self, *exc):
        self.catcher.__exit__(*exc)
        assert not [w for w in self.seen if issubclass(w.category, RuntimeWarning)]


def test_a_refused_conv_kernel_falls_back_to_the_plain_path(fused_on):
    prim = ops.Conv2D(out_channel=4, kernel_size=3, pad_mode="pad", pad=1, stride=2)
    x, w = _conv_inputs()
    run = COMMON.retrying(CONV.KERNELS["Conv2D"])
    fused_on.setattr(COMMON, "FUSED", False)
    want = cp.asnumpy(run(prim, cp.asarray(x), cp.asarray(w)))           # the plain path
    fused_on.setattr(COMMON, "FUSED", True)
    gather = CONV._gather(2)
    fused_on.setattr(gather, "kernel", _refusing(gather.name))
    with pytest.warns(RuntimeWarning, match=r"could not compile the fused kernel 'ms_conv_cols_window_2d'.*ptrdiff_t"):
        got = cp.asnumpy(run(prim, cp.asarray(x), cp.asarray(w)))
    np.testing.assert_array_equal(got, want)
    assert COMMON.FUSED is False                      # every fused kernel is off from now on, without more warnings
    with _no_warning():
        np.testing.assert_array_equal(cp.asnumpy(run(prim, cp.asarray(x), cp.asarray(w))), want)
    with pytest.raises(COMMON.FusedUnavailable):      # unwrapped, the kernel says what happened
        fused_on.setattr(COMMON, "FUSED", True)
        CONV.KERNELS["Conv2D"](prim, cp.asarray(x), cp.asarray(w))


def _bn_run(prim, x, scale, bias, mean, var):
    m, v = cp.asarray(mean), cp.asarray(var)
    out = COMMON.retrying(NN.KERNELS["BatchNorm"])(prim, cp.asarray(x), cp.asarray(scale), cp.asarray(bias), m, v)
    return [cp.asnumpy(o) for o in out], cp.asnumpy(m), cp.asnumpy(v)


def test_batch_norm_refused_before_its_in_place_update_updates_the_moving_statistics_once(fused_on):
    """The raw batch-norm kernels compile at their first launch, before anything is written: a refusal turns the
    fused kernels off and that same call finishes on the plain path, the moving statistics moved once."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 3, 5, 5)).astype(np.float32)
    scale, bias = rng.uniform(0.5, 1.5, 3).astype(np.float32), rng.standard_normal(3).astype(np.float32)
    mean, var = rng.standard_normal(3).astype(np.float32), rng.uniform(0.5, 2.0, 3).astype(np.float32)
    prim = ops.BatchNorm(is_training=True, momentum=0.1)
    raw_outs, raw_m, raw_v = _bn_run(prim, x, scale, bias, mean, var)      # the raw kernels

    class Refused:
        def __init__(self, code=None, **kwargs):
            pass

        def get_function(self, name):
            raise cupy_sim.CompileException('ms_batch_norm.cu(3): error: identifier "ptrdiff_t" is undefined')
    fused_on.setattr(cp, "RawModule", Refused)
    fused_on.setattr(NN._BN_RAW, "_compiled", {})
    with pytest.warns(RuntimeWarning, match="could not compile the fused kernel 'ms_batch_norm'.*ptrdiff_t"):
        outs, m, v = _bn_run(prim, x, scale, bias, mean, var)
    np.testing.assert_allclose(m, raw_m, rtol=1e-6)    # once: a second update would have moved them again
    np.testing.assert_allclose(v, raw_v, rtol=1e-6)
    for got, want in zip(outs, raw_outs):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert COMMON.FUSED is False


def test_the_gpu_plugin_registers_every_kernel_retrying():
    import mindspore_gpu.plugin as plugin
    seen = {}

    class Registry:
        def knows(self, name):
            return True

        def register(self, name, target, fn):
            seen[name] = fn
    with cupy_sim.standing_in(cupy_sim.make_modules(elementwise=True)):
        plugin.ms_register_kernels(Registry())
    assert len(seen) > 200
    assert all(fn.__code__.co_name == "run" and callable(fn.__wrapped__) for fn in seen.values())   # retrying's
