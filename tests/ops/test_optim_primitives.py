"""The optimizer-update primitives (``mindspore/ops/_defs/optim.py``) against MindSpore 2.10, in both modes.

* **Recorded numbers**: ``tests/fixtures/ops/optim_updates_2.10.json`` holds, for each case, what real MindSpore
  2.10 (CPU) gave after each of two calls: every Parameter's value and the outputs (made by
  ``tests/fixtures/ops/make_optim_updates_2_10.py``). The same calls here must leave the same Parameters. Outputs
  are compared where MindSpore's CPU kernels fill them with the updated state (several leave their outputs
  unset: they hold whatever the buffer had, and the record shows it). Cases MindSpore 2.10 refuses on CPU
  ("Unsupported op") are recorded with their error and checked by the conformance oracles instead.
* **GRAPH_MODE**: a ``Cell`` applying several updates, run twice compiled, writes its Parameters at each step,
  including the updates whose results it never uses; the values equal PYNATIVE's.
* **Rules**: MindSpore's errors for attribute types and ranges, shapes and dtypes.
"""
import json
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore._pipeline import compiler

FIXTURE = pathlib.Path(__file__).parents[1] / "fixtures" / "ops" / "optim_updates_2.10.json"
RECORD = json.loads(FIXTURE.read_text())

# Where MindSpore 2.10's CPU kernel departs from the primitive's documented formula, we follow the formula
# (the GPU and Ascend kernels do), and the conformance oracle pins it. Keyed by (op, kwargs, first number args).
DEVIATIONS = {
    ("ApplyAdagrad", '{"update_slots": false}'): "the 2.10 CPU kernel updates accum although update_slots=False",
    ("ApplyFtrl", "l1>0"): "the 2.10 CPU kernel takes +l1 for sign(linear)*l1 (dense kernel only; the sparse ones "
                           "use the sign)",
    ("ApplyAdagradDA", "l1>0"): "the 2.10 CPU kernel shrinks |grad_accum - l1*step| instead of |grad_accum| - l1*step",
}


def _deviation(case):
    key = (case["op"], json.dumps(case["kwargs"], sort_keys=True).lower())
    if key in DEVIATIONS:
        return DEVIATIONS[key]
    numbers = [a["value"] for a in case["args"] if isinstance(a, dict) and a["kind"] == "number"]
    if case["op"] in ("ApplyFtrl", "ApplyAdagradDA") and numbers[1] > 0:    # numbers[1] is l1
        return DEVIATIONS[(case["op"], "l1>0")]
    return None


def _build(spec, i):
    if not isinstance(spec, dict):
        return spec
    if spec["kind"] == "number":
        return spec["value"]
    t = ms.Tensor(np.asarray(spec["value"], spec["dtype"]))
    return ms.Parameter(t, name=f"p{i}") if spec["kind"] == "param" else t


def _close(got, want, dtype):
    tol = 2e-3 if dtype == "float16" else 1e-5
    return np.allclose(got.astype(np.float64), np.asarray(want, np.float64), rtol=tol * 10, atol=tol)


RECORDED = [c for c in RECORD["cases"] if c["steps"]]
IDS = [f"{c['op']}-{i}" for i, c in enumerate(RECORDED)]


def test_the_record_is_mindspore_2_10_and_covers_every_dense_apply():
    assert RECORD["mindspore"].startswith("2.10")
    recorded = {c["op"] for c in RECORDED}
    dense = {"ApplyAdaMax", "ApplyAdadelta", "ApplyAdagrad", "ApplyAdagradDA", "ApplyAdagradV2", "ApplyAdamWithAmsgrad",
             "ApplyAdamWithAmsgradV2", "ApplyAddSign", "ApplyCenteredRMSProp", "ApplyFtrl", "ApplyGradientDescent",
             "ApplyPowerSign", "ApplyProximalAdagrad", "ApplyProximalGradientDescent", "ApplyRMSProp"}
    assert dense <= recorded, sorted(dense - recorded)
    refused = {c["op"] for c in RECORD["cases"] if not c["steps"]}
    assert all("Unsupported op" in c["error"] for c in RECORD["cases"] if not c["steps"]), refused


@pytest.mark.parametrize("case", RECORDED, ids=IDS)
def test_two_steps_match_mindspore_2_10(case):
    reason = _deviation(case)
    if reason is not None:
        pytest.skip(reason)
    prim = getattr(ops, case["op"])(**case["kwargs"])
    args = [_build(a, i) for i, a in enumerate(case["args"])]
    for step, want in enumerate(case["steps"]):
        res = prim(*args)
        res = res if isinstance(res, tuple) else (res,)
        assert len(res) == len(want["outputs"]), f"{case['op']}: {len(res)} outputs, 2.10 gives {len(want['outputs'])}"
        for i, v in want["params"].items():
            got = args[int(i)].asnumpy()
            assert str(got.dtype) == v["dtype"]
            assert _close(got, v["value"], v["dtype"]), f"step {step}, input {i}: {got} != {v['value']}"
        states = [np.asarray(v["value"]) for v in want["params"].values()]
        for k, (r, o) in enumerate(zip(res, want["outputs"])):
            assert str(r.asnumpy().dtype) == o["dtype"] and list(r.shape) == o["shape"]
            recorded = np.asarray(o["value"])
            if any(s.shape == recorded.shape and np.allclose(s, recorded) for s in states):
                assert _close(r.asnumpy(), recorded, o["dtype"]), f"step {step}, output {k}"


def test_outputs_are_the_updated_parameters_in_pynative():
    var = ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="var")
    accum = ms.Parameter(ms.Tensor(np.full((2, 3), 0.5, np.float32)), name="accum")
    out_var, out_accum = ops.ApplyAdagrad()(var, accum, 0.1, ms.Tensor(np.ones((2, 3), np.float32)))
    np.testing.assert_array_equal(out_var.asnumpy(), var.asnumpy())
    np.testing.assert_array_equal(out_accum.asnumpy(), np.full((2, 3), 1.5, np.float32))
    np.testing.assert_allclose(var.asnumpy(), 1 - 0.1 / np.sqrt(1.5 + 1e-6), rtol=1e-6)


# --- GRAPH_MODE ---------------------------------------------------------------------------------------
class _Updates(nn.Cell):
    """Dense, sparse and Adam-family updates in one graph; only ApplyAdagrad's result is used."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)

        def param(name, lo=-1.0, hi=1.0, shape=(3, 4)):
            return ms.Parameter(ms.Tensor(rng.uniform(lo, hi, shape).astype(np.float32)), name=name)

        self.w1, self.acc1 = param("w1"), param("acc1", 0.1, 1.0)
        self.w2, self.m2, self.v2 = param("w2"), param("m2"), param("v2", 0.1, 1.0)
        self.w3, self.acc3, self.lin3 = param("w3"), param("acc3", 0.1, 1.0), param("lin3")
        self.w4, self.acc4, self.stat4 = param("w4"), param("acc4"), param("stat4", 0.0, 0.0)
        self.adagrad = ops.ApplyAdagrad()
        self.adam = ops.Adam(use_nesterov=True)
        self.ftrl = ops.SparseApplyFtrl(lr=0.01, l1=0.01, l2=0.02, lr_power=-0.5)
        self.sgd = ops.SGD(dampening=0.1, weight_decay=0.01)

    def construct(self, grad, rows, indices, lr):
        out = self.adagrad(self.w1, self.acc1, lr, grad)
        self.adam(self.w2, self.m2, self.v2, 0.9, 0.999, lr, 0.9, 0.999, 1e-8, grad)
        self.ftrl(self.w3, self.acc3, self.lin3, rows, indices)
        self.sgd(self.w4, grad, lr, self.acc4, ms.Tensor(0.9, ms.float32), self.stat4)
        return out[0] * 2


def _inputs(step):
    rng = np.random.default_rng(10 + step)
    return (ms.Tensor(rng.uniform(-1, 1, (3, 4)).astype(np.float32)),
            ms.Tensor(rng.uniform(-1, 1, (2, 4)).astype(np.float32)), ms.Tensor(np.array([2, 0], np.int32)),
            ms.Tensor(np.float32(0.05)))


def _run_two_steps(mode):
    ms.set_context(mode=mode)
    try:
        net = _Updates()
        snapshots = []
        for step in range(2):
            out = net(*_inputs(step))
            snapshots.append(({p.name: p.asnumpy().copy() for p in net.get_parameters()}, out.asnumpy()))
        return snapshots
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_a_graph_mode_cell_updates_its_parameters_at_each_step_as_pynative_does():
    compiles = compiler.STATS["compiles"]
    graph = _run_two_steps(ms.GRAPH_MODE)
    assert compiler.STATS["compiles"] == compiles + 1     # compiled once, run twice
    eager = _run_two_steps(ms.PYNATIVE_MODE)
    initial = {p.name: p.asnumpy() for p in _Updates().get_parameters()}
    for step in range(2):
        (g_params, g_out), (e_params, e_out) = graph[step], eager[step]
        np.testing.assert_allclose(g_out, e_out, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(g_out, 2 * g_params["w1"], rtol=1e-6)
        for name, value in e_params.items():
            np.testing.assert_allclose(g_params[name], value, rtol=1e-6, atol=1e-7, err_msg=f"{name}, step {step}")
        before = initial if step == 0 else graph[0][0]
        # every update ran, its result used or not (w3: the rows of indices [2, 0] only)
        for name in ("w1", "acc1", "w2", "m2", "v2", "w4", "acc4"):
            assert not np.allclose(g_params[name], before[name]), f"{name} not updated at step {step}"
        np.testing.assert_array_equal(g_params["w3"][1], before["w3"][1])
        assert not np.allclose(g_params["w3"][[0, 2]], before["w3"][[0, 2]])


def test_graph_mode_keeps_an_update_whose_result_is_unused():
    class OnlyUpdates(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.ones(4, np.float32)), name="w")
            self.step = ops.ApplyGradientDescent()

        def construct(self, delta):
            self.step(self.w, 0.5, delta)
            return delta

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = OnlyUpdates()
        for k in range(1, 3):
            net(ms.Tensor(np.ones(4, np.float32)))
            np.testing.assert_array_equal(net.w.asnumpy(), np.full(4, 1 - 0.5 * k, np.float32))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


# --- rules -------------------------------------------------------------------------------------------
def _p(shape, dtype=np.float32, name="p"):
    return ms.Parameter(ms.Tensor(np.ones(shape, dtype)), name=name)


def test_attribute_errors_as_in_mindspore():
    with pytest.raises(TypeError, match="For 'ApplyAdagrad', the type of 'update_slots' should be 'bool'"):
        ops.ApplyAdagrad(update_slots=1)
    with pytest.raises(TypeError, match="For 'SparseApplyAdagrad', the type of 'lr' should be 'float'"):
        ops.SparseApplyAdagrad(lr=1)
    with pytest.raises(ValueError, match="For 'SparseApplyFtrl', the 'lr_power' must be less than or equal to 0"):
        ops.SparseApplyFtrl(0.1, 0.0, 0.0, 0.5)
    with pytest.raises(ValueError, match="For 'SGD', the 'dampening' must be 0 when 'nesterov' is True"):
        ops.SGD(dampening=0.5, nesterov=True)
    with pytest.raises(ValueError, match="For 'SparseApplyRMSProp', the 'epsilon' must be greater than 0"):
        ops.SparseApplyRMSProp(0.9, 0.0, 0.0)
    assert ops.ApplyAdamWithAmsgrad().beta2 == 0.999 and ops.Adam().use_nesterov is False
    assert ops.ApplyKerasMomentum().use_locking is False and ops.FusedAdaFactor().enable_first_moment is False


def test_shape_errors_as_in_mindspore():
    g = ms.Tensor(np.ones((3, 4), np.float32))
    with pytest.raises(ValueError, match=r"For 'ApplyAdagrad', 'accum' and 'var' must have the same shape. But got "
                                         r"'accum' shape: \(2, 4\), 'var' shape: \(3, 4\)"):
        ops.ApplyAdagrad()(_p((3, 4), name="v"), _p((2, 4), name="a"), 0.01, g)
    with pytest.raises(ValueError, match="For 'ApplyAdagrad', the 'lr' must be a number or a tensor with one"):
        ops.ApplyAdagrad()(_p((3, 4), name="v"), _p((3, 4), name="a"), ms.Tensor(np.ones(2, np.float32)), g)
    with pytest.raises(ValueError, match="For 'SparseApplyAdagrad', the indices size must be equal to grad first "
                                         "dimension size. But got indices size: 2, grad first dimension size: 3"):
        ops.SparseApplyAdagrad(0.1)(_p((3, 4), name="v"), _p((3, 4), name="a"), g,
                                    ms.Tensor(np.array([0, 1], np.int32)))
    with pytest.raises(ValueError, match="For 'FusedAdaFactor', the shape of 'exp_avg_sq_row' must be"):
        eps = ms.Tensor(np.array([1e-30, 1e-3], np.float32))
        ops.FusedAdaFactor()(eps, 1.0, 0.9, 0.8, 0.0, 0.01, g, _p((3, 4), name="w"), _p((3, 4), name="m"),
                             _p((4,), name="r"), _p((4,), name="c"), _p((3, 4), name="s"))


def test_dtype_errors_as_in_mindspore():
    with pytest.raises(TypeError, match="For 'ApplyAdagradV2', the type of 'var' must be in"):
        ops.ApplyAdagradV2(1e-6)(_p((2,), np.int32, "v"), _p((2,), np.int32, "a"), 0.1,
                                 ms.Tensor(np.ones(2, np.int32)))
    with pytest.raises(TypeError, match="For 'ApplyGradientDescent', the type of 'delta' must be in"):
        ops.ApplyGradientDescent()(_p((2,), name="v"), 0.1, ms.Tensor(np.ones(2, np.float16)))
    with pytest.raises(TypeError, match="For 'SparseApplyFtrl', the type of 'indices' must be in"):
        ops.SparseApplyFtrl(0.1, 0.0, 0.0, -0.5)(_p((3, 2), name="v"), _p((3, 2), name="a"), _p((3, 2), name="l"),
                                                 ms.Tensor(np.ones((1, 2), np.float32)),
                                                 ms.Tensor(np.array([0.0], np.float32)))
    with pytest.raises(TypeError, match="For 'ApplyAdagradDA', the 'global_step' must be an int"):
        ops.ApplyAdagradDA()(_p((2,), name="v"), _p((2,), name="a"), _p((2,), name="b"),
                             ms.Tensor(np.ones(2, np.float32)), 0.1, 0.0, 0.0, 1.5)


def test_float16_states_compute_in_float32_and_stay_float16():
    var, accum = _p((4,), np.float16, "v16"), _p((4,), np.float16, "a16")
    out = ops.ApplyAdagradV2(epsilon=1e-6)(var, accum, 0.1, ms.Tensor(np.full(4, 0.5, np.float16)))
    assert var.dtype == ms.float16 and out[0].dtype == ms.float16
    np.testing.assert_allclose(var.asnumpy(), 1 - 0.1 * 0.5 / (np.sqrt(1.25) + 1e-6), rtol=1e-3)


def test_fused_cast_adam_weight_decay_keeps_float32_moments_of_a_float16_var():
    var = _p((4,), np.float16, "v")
    m, v = _p((4,), np.float32, "m"), _p((4,), np.float32, "s")
    ops.FusedCastAdamWeightDecay()(var, m, v, 0.01, 0.9, 0.999, 1e-8, 0.0, ms.Tensor(np.full(4, 2.0, np.float16)),
                                   ms.Tensor(np.float32(2.0)))
    assert var.dtype == ms.float16 and m.dtype == ms.float32
    np.testing.assert_allclose(m.asnumpy(), 0.9 + 0.1 * 1.0, rtol=1e-6)   # the gradient divided by global_norm
