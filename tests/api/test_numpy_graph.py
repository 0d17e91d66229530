"""Every case of ``tests/fixtures/api/numpy_cases.txt`` compiled in GRAPH_MODE (``ms.jit``) gives what
PYNATIVE gives, and the float-valued cases differentiate like NumPy's finite differences.

Each case's expression is run by an object (not a Python function), so the compiler calls it
directly on the abstract tensors of the graph being built, as it calls ``mindspore.numpy`` from a
user's ``construct``.
"""
import os
import re
import sys

import numpy as np
import pytest

import mindspore as ms
import mindspore.numpy as mnp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_numpy_fixture import environment, flatten, load_cases  # noqa: E402

INPUTS, CASES = load_cases()

# value-dependent output sizes that MindSpore also refuses to compile without a fixed size
GRAPH_EXCLUDED = {"bincount", "bincount_weights"}


class _Case:
    def __init__(self, expr, names):
        self.expr, self.names = expr, names
        self.kinds = []

    def __call__(self, *tensors):
        self.kinds.append(type(tensors[0]).__name__)
        env = {"np": np, "m": mnp, "T": ms.Tensor}
        env.update(zip(self.names, tensors))
        return eval(self.expr, env)  # noqa: S307 - our own case table


def _inputs_of(expr):
    return [n for n in INPUTS if re.search(rf"\b{n}\b", expr)]


def _tensor(name, dtype=None):
    arr = eval(INPUTS[name], {"np": np})  # noqa: S307
    return ms.Tensor(arr if dtype is None else arr.astype(dtype))


GRAPH_CASES = [(c[0], c[1]) for c in CASES if _inputs_of(c[1]) and c[0] not in GRAPH_EXCLUDED]


@pytest.fixture
def graph_mode():
    previous = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=previous)


@pytest.mark.parametrize("case_id,expr", GRAPH_CASES, ids=[c[0] for c in GRAPH_CASES])
def test_graph_mode_matches_pynative(case_id, expr, graph_mode):  # noqa: ARG001 - fixture sets the mode
    names = _inputs_of(expr)
    args = [_tensor(n) for n in names]
    case = _Case(expr, names)
    eager = flatten(case(*args))
    if not all(isinstance(x, ms.Tensor) for x in eager):
        pytest.skip("returns Python values (computed at compile time)")

    def run(*a):
        return case(*a)

    staged = flatten(ms.jit(run)(*args))
    assert case.kinds[-1] == "StagedTensor", case_id
    assert len(staged) == len(eager)
    for g, w in zip(staged, eager):
        assert g.dtype == w.dtype and g.shape == w.shape, case_id
        np.testing.assert_allclose(g.asnumpy().astype(np.float64), w.asnumpy().astype(np.float64), rtol=1e-5,
                                   atol=1e-6, equal_nan=True, err_msg=case_id)


def test_bincount_compiles_with_a_length(graph_mode):  # noqa: ARG001
    @ms.jit
    def count(x, w):
        return mnp.bincount(x, w, length=6)

    out = count(ms.Tensor(np.array([0, 2, 2, 5], np.int32)), ms.Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), np.bincount([0, 2, 2, 5], [1.0, 2.0, 3.0, 4.0], 6))
    with pytest.raises(ValueError, match="For 'bincount', the 'length' must be given in GRAPH_MODE"):
        ms.jit(lambda x: mnp.bincount(x))(ms.Tensor(np.array([1], np.int32)))


# --- gradients -------------------------------------------------------------------------------------------
_FLOAT_INPUTS = {"f", "p", "u", "v", "s", "d", "e3", "sq", "ph"}
# a sample point sits on a step of the function, so NumPy's finite difference there is a jump, not a slope
GRAD_EXCLUDED = {"mod_float", "floor_ceil", "fix", "histogram_edges", "histogram_weights", "histogram2d",
                 "histogram_outside"}


def _first_float_input(expr):
    for n in _inputs_of(expr):
        if n in _FLOAT_INPUTS:
            return n
    return None


GRAD_CASES = [(c[0], c[1], c[2]) for c in CASES if c[0] not in GRAD_EXCLUDED and _first_float_input(c[1])]


def _weights(shape):
    return np.cos(np.arange(int(np.prod(shape)), dtype=np.float64) * 0.7).reshape(shape) + 1.5


def _is_float(x):
    return isinstance(x, ms.Tensor) and x.dtype in (ms.float16, ms.float32, ms.float64)


@pytest.mark.parametrize("case_id,expr,np_expr", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradient_matches_numpy_finite_differences(case_id, expr, np_expr):
    target = _first_float_input(expr)
    env = environment(INPUTS, mnp, ms.Tensor)
    env[target] = ms.Tensor(env[target].asnumpy().astype(np.float64))
    names = _inputs_of(expr)
    case = _Case(expr, names)
    outputs = flatten(case(*[env[n] for n in names]))
    if not outputs or not all(_is_float(o) for o in outputs):
        pytest.skip("no float output to differentiate")
    weights = [ms.Tensor(_weights(o.shape)) for o in outputs]

    def loss(x):
        args = [x if n == target else env[n] for n in names]
        outs = flatten(case(*args))
        total = 0
        for o, w in zip(outs, weights):
            total = total + mnp.sum(mnp.multiply(o, w))
        return total

    grad = ms.grad(loss)(env[target]).asnumpy()

    np_env = environment(INPUTS, np, np.asarray)
    base = np_env[target].astype(np.float64)

    def np_loss(x):
        local = dict(np_env)
        local[target] = x
        outs = flatten(eval(np_expr or expr, local))  # noqa: S307
        return sum(float(np.sum(np.asarray(o, np.float64) * _weights(np.shape(o)))) for o in outs)

    numeric = np.zeros_like(base)
    eps = 1e-6
    for idx in np.ndindex(base.shape):
        hi, lo = base.copy(), base.copy()
        hi[idx] += eps
        lo[idx] -= eps
        numeric[idx] = (np_loss(hi) - np_loss(lo)) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=1e-4, atol=1e-4, err_msg=case_id)
