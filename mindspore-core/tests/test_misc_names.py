"""MindSpore 2.10's top-level knobs, runtime controls and Tensor flags (``mindspore._graph_misc``,
``mindspore._runtime_knobs``, ``mindspore._tensor_flags``) against what real MindSpore answered
(``tests/fixtures/api/misc_names_msref.json``, made by ``tests/api/make_misc_names_fixture.py``)."""
import json
import os

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops  # noqa: F401 - used by the recorded expressions
from mindspore.rewrite import ScopedValue  # noqa: F401 - used by the recorded expressions

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "api", "misc_names_msref.json")
with open(FIXTURE, encoding="utf-8") as _f:
    RECORDED = json.load(_f)

# set_recursion_limit(500) changes a global: run it on a saved context
CASES = sorted(k for k in RECORDED if not k.startswith("__"))


@pytest.fixture
def env():
    depth = ms.get_context("max_call_depth")
    from mindspore import _runtime_knobs
    saved = dict(_runtime_knobs._CONF)
    yield {"ms": ms, "np": np, "nn": nn, "ops": ops, "ScopedValue": ScopedValue,
           "x": ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))}
    ms.set_context(max_call_depth=depth)
    _runtime_knobs._CONF.update(saved)


@pytest.mark.parametrize("case", CASES)
def test_matches_mindspore(case, env):
    want = RECORDED[case]
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(case, env)  # noqa: S307 - the recorded expressions
        names = [k.__name__ for k in type(info.value).__mro__]
        assert want["error"] in names, (case, type(info.value), info.value)
        assert str(info.value).split("\n")[0] == want["message"]
    else:
        assert repr(eval(case, env)) == want["result"]  # noqa: S307


def test_saved_tensors_hooks_gradients_match_mindspore():
    want = RECORDED["__saved_tensors_hooks__"]
    packed, unpacked = [], []

    def pack(t):
        packed.append(t.shape)
        return t

    def unpack(t):
        unpacked.append(t.shape)
        return t * 2

    def f(a, b):
        with ms.saved_tensors_hooks(pack, unpack):
            z = a * b
        return z.sin().sum()

    a = ms.Tensor(np.ones((2, 3), np.float32))
    b = ms.Tensor(np.full((2, 3), 3, np.float32))
    ga, gb = ms.grad(f, grad_position=(0, 1))(a, b)
    np.testing.assert_allclose(ga.asnumpy(), want["ga"], rtol=1e-6)
    np.testing.assert_allclose(gb.asnumpy(), want["gb"], rtol=1e-6)
    assert (len(packed), len(unpacked)) == (want["packed"], want["unpacked"])


def test_saved_tensors_hooks_pack_result_is_what_backward_sees():
    # pack returns a stand-in; unpack restores from it: the bprop of Mul computes with the restored values
    store = {}

    def pack(t):
        key = len(store)
        store[key] = t.asnumpy() * 10
        return key

    def unpack(key):
        return ms.Tensor(store[key])

    def f(a, b):
        with ms.saved_tensors_hooks(pack, unpack):
            return (a * b).sum()

    a = ms.Tensor(np.array([1.0, 2.0], np.float32))
    b = ms.Tensor(np.array([3.0, 4.0], np.float32))
    ga, gb = ms.grad(f, grad_position=(0, 1))(a, b)
    np.testing.assert_allclose(ga.asnumpy(), [30.0, 40.0])
    np.testing.assert_allclose(gb.asnumpy(), [10.0, 20.0])
    # outside the context nothing is packed
    ga, _ = ms.grad(lambda a, b: (a * b).sum(), grad_position=(0, 1))(a, b)
    np.testing.assert_allclose(ga.asnumpy(), [3.0, 4.0])


def test_saved_tensors_hooks_checks():
    with pytest.raises(TypeError, match="pack_hook"):
        ms.saved_tensors_hooks(1, lambda t: t)

    def f(a):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: 1.0):
            return (a * a).sum()
    with pytest.raises(TypeError, match="unpack_hook' must return a Tensor"):
        ms.grad(f)(ms.Tensor(np.ones(2, np.float32)))


def test_register_saved_tensors_hooks_decorator():
    seen = []

    @ms.register_saved_tensors_hooks(lambda t: seen.append("pack") or t, lambda t: seen.append("unpack") or t)
    def f(a):
        return (a * a).sum()

    g = ms.grad(f)(ms.Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_allclose(g.asnumpy(), [2.0, 4.0])
    # Mul's two inputs at least (our tape packs every tensor input of a recorded op: also ReduceSum's)
    assert seen.count("pack") == seen.count("unpack") >= 2
    assert seen.index("unpack") > max(i for i, s in enumerate(seen) if s == "pack")


def _recursive(x, n):
    if n == 0:
        return x
    return _recursive(x, n - 1) + 1


@ms.jit
def _deep(x, n):
    return _recursive(x, n)


def test_set_recursion_limit_bounds_graph_call_depth():
    depth = ms.get_context("max_call_depth")
    try:
        ms.set_recursion_limit(10)
        assert ms.get_context("max_call_depth") == 10
        assert float(_deep(ms.Tensor(1.0), 3).asnumpy()) == 4.0
        with pytest.raises(RuntimeError, match="Exceed function call depth limit 10"):
            _deep(ms.Tensor(1.0), 20)
        ms.set_recursion_limit(100)
        assert float(_deep(ms.Tensor(1.0), 20).asnumpy()) == 21.0
    finally:
        ms.set_context(max_call_depth=depth)


def test_lazy_inline_and_no_inline_mark_as_mindspore():
    class Block(nn.Cell):
        @ms.lazy_inline
        def __init__(self, n, scale=2):
            super().__init__()
            self.dense = nn.Dense(n, n)

        def construct(self, x):
            return self.dense(x)

    b = Block(3)
    assert b.cell_init_args == "lazy_inline_Block" + str({"n": 3}.values())   # bound arguments: defaults not included
    x = ms.Tensor(np.ones((1, 3), np.float32))
    assert b(x).shape == (1, 3)

    class Front(nn.Cell):
        @ms.lazy_inline(policy="front", attrs="width")
        def __init__(self):
            super().__init__()
            self.width = 4

    assert Front().no_inline is False and Front().cell_init_args == "lazy_inline_Front4"
    with pytest.raises(ValueError, match="should decorate the __init__ function, not the class"):
        ms.lazy_inline(Block)
    with pytest.raises(ValueError, match="not the function: run"):
        ms.lazy_inline(lambda: None) if False else ms.lazy_inline(_named("run"))

    @ms.no_inline
    def g(x):
        return x
    assert g.no_inline is True


def _named(name):
    def fn(self):
        return None
    fn.__name__ = name
    return fn


def test_set_dump_marks_cells_and_primitives():
    net = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    with pytest.warns(UserWarning, match="not supported by set_dump"):
        ms.set_dump(net)
    assert net._flags["dump"] is True and net[0]._flags["dump"] is True and net[1]._flags["dump"] is True
    prim = ms.ops.Add()
    with pytest.warns(UserWarning):
        ms.set_dump(prim, enabled=False)
    assert prim.attrs["dump"] == "false"


def test_symbol_and_enable_dynamic():
    s = ms.Symbol(max=32, divisor=8)
    assert s.accepts(16) and not s.accepts(12) and not s.accepts(40)
    t = ms.Tensor(shape=[None, 3], dtype=ms.float32)

    @ms.enable_dynamic(y=t)
    def f(x, y):
        return y
    assert f.enable_dynamic == {1: ("y", t)}
    with pytest.raises(ValueError, match="the number of arguments 2 exceeds"):
        ms.enable_dynamic(a=t, b=t)(lambda a: a)


def test_tensor_shape_of_symbols_is_dynamic():
    """``Tensor(shape=[Symbol, ...])`` (parallel_support_dynamic_shape's ``set_inputs``) is a placeholder with a
    dynamic dimension and MindSpore's ``symbolic_shape``; it once failed in ``int(Symbol)``."""
    s0 = ms.Symbol(divisor=8)
    t = ms.Tensor(shape=[s0, 1, 28, 28], dtype=ms.float32)
    assert t.shape == (-1, 1, 28, 28)
    assert t.symbolic_shape == [{"divisor": 8}, 1, 28, 28]
    assert ms.Tensor(shape=s0, dtype=ms.int32).shape == (-1,)
    assert ms.Tensor(shape=[None, 3], dtype=ms.float32).symbolic_shape is None
    net = ms.nn.Dense(3, 2)
    net.set_inputs(ms.Tensor(shape=[s0, 3], dtype=ms.float32))
    assert net(ms.Tensor(np.ones((16, 3), np.float32))).shape == (16, 2)


def test_device_ctx_restores_target():
    before = ms.get_context("device_id")
    with ms.DeviceCtx("CPU", 0):
        assert ms.get_context("device_target") == "CPU"
    assert ms.get_context("device_id") == before


def test_ms_memory_recycle_recompiles():
    from mindspore._pipeline import compiler

    @ms.jit
    def f(x):
        return x + 1
    x = ms.Tensor(np.ones(2, np.float32))
    f(x)
    n = compiler.STATS["compiles"]
    f(x)
    assert compiler.STATS["compiles"] == n
    ms.ms_memory_recycle()
    f(x)
    assert compiler.STATS["compiles"] == n + 1


def test_opt_tft_wrapper_checks_as_mindspore(monkeypatch):
    net = nn.Dense(2, 2)
    with pytest.raises(TypeError, match="must be Optimizer type"):
        nn.OptTFTWrapper(3)
    monkeypatch.delenv("MS_ENABLE_TFT", raising=False)
    with pytest.raises(ValueError, match="MS_ENABLE_TFT"):
        nn.OptTFTWrapper(nn.Momentum(net.trainable_params(), 0.1, 0.9))
    monkeypatch.setenv("MS_ENABLE_TFT", "{TTP:1}")
    with pytest.raises(ValueError, match="only support on Ascend device"):
        nn.OptTFTWrapper(nn.Momentum(net.trainable_params(), 0.1, 0.9))


def test_flops_collection_counts_the_compiled_network():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = nn.Dense(4, 3)
        net.set_train(False)
        net(ms.Tensor(np.ones((2, 4), np.float32)))
        full, hw, shard, shard_hw, dynamic = ms.flops_collection("predict")
        assert full == hw == shard == shard_hw == 2 * 2 * 3 * 4 and dynamic is False
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(ValueError):
        ms.flops_collection("other")


def test_submodules_import_mindspore_loads_resolve_without_an_import():
    """``import mindspore as ms; ms.dataset.GeneratorDataset(...)`` (the DataLoader mapping page's code) works as in
    2.10, whose ``import mindspore`` loads these; an add-on's that is not installed says which to install."""
    import subprocess
    import sys
    code = ("import mindspore as ms, sys\n"
            "assert 'mindspore.dataset' not in sys.modules\n"
            "for name in ('utils', 'boost'):\n"
            "    assert getattr(ms, name).__name__ == 'mindspore.' + name\n"
            "try:\n"
            "    print(ms.dataset.GeneratorDataset.__name__)\n"
            "except AttributeError as e:\n"
            "    assert \"pip install mindspore-data\" in str(e), e\n"
            "    print('GeneratorDataset')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "GeneratorDataset"


def test_reexported_names_libraries_use():
    """Names MindSpore 2.10 also has at these paths (MindOne uses them): ``mint.nn.Cell``, ``mint.functional``,
    ``ops.Tensor``."""
    import mindspore as ms
    assert ms.mint.nn.Cell is ms.nn.Cell
    assert ms.mint.functional is ms.mint.nn.functional
    assert ms.ops.Tensor is ms.Tensor
