"""GRAPH_MODE semantics: the syntax the parser supports, compile caching per signature, effects and outputs.

Each program runs compiled and eagerly; the results must agree (the eager run is the reference)."""
import os

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore._ir import ops as irops
from mindspore._pipeline import compiler, passes


@pytest.fixture(autouse=True)
def _verify(monkeypatch):
    monkeypatch.setattr(passes, "VERIFY", True)


def T(*values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype))


def _same(compiled, eager):
    if isinstance(eager, (tuple, list)):
        assert type(compiled) is type(eager) and len(compiled) == len(eager)
        for c, e in zip(compiled, eager):
            _same(c, e)
    elif isinstance(eager, dict):
        assert list(compiled) == list(eager)
        for k in eager:
            _same(compiled[k], eager[k])
    elif isinstance(eager, ms.Tensor):
        np.testing.assert_allclose(compiled.asnumpy(), eager.asnumpy(), rtol=1e-6)
    else:
        assert compiled == eager


def both(fn, *args, **kwargs):
    eager = fn(*args, **kwargs)
    compiled = ms.jit(fn)(*args, **kwargs)
    _same(compiled, eager)
    return compiled


def test_the_docs_example_prints_like_mindspore(capsys):
    target = ms.get_context("device_target")   # the session's (a STRICT run keeps its own device)
    ms.set_context(mode=ms.GRAPH_MODE, device_target=target)
    try:
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.mul = ops.operations.Mul()

            def construct(self, x, y):
                return self.mul(x, y)
        print(Net()(T(1.0, 2.0, 3.0), T(4.0, 5.0, 6.0)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert capsys.readouterr().out == "[ 4. 10. 18.]\n"
    assert compiler.STATS["compiles"] > 0


def sample_control(x, n):
    total = x
    for i in range(n):
        if i == 1:
            continue
        if i > 3:
            break
        total = total + i
    k = 0
    while k < n:
        k += 1
        if k == 2:
            return total * k
    return total


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_break_continue_and_early_returns_on_constants(n):
    both(sample_control, T(1.0, 2.0), n)


def tensor_control(x):
    steps = 0
    while x.sum() < 50:
        x = x * 2
        steps += 1
        if x.max() > 30:
            break
    if x.min() < 3:
        return x - 1, steps
    return x, steps


@pytest.mark.parametrize("start", [[1.0, 2.0], [0.5, 0.25], [100.0, 1.0]])
def test_break_and_early_return_under_tensor_conditions(start):
    x = ms.Tensor(np.array(start, np.float32))
    eager = tensor_control(x)
    compiled = ms.jit(tensor_control)(x)
    np.testing.assert_allclose(compiled[0].asnumpy(), eager[0].asnumpy())
    assert int(compiled[1]) == eager[1]     # a Python counter changed in a tensor loop becomes a 0-d tensor


def python_features(x, *args, scale=2.0, **kwargs):
    ys = [x * k for k in (1, 2, 3) if k != 2]
    table = {"a": ys[0], "b": ys[-1]}
    first, *rest = args
    pairs = [(i, v.shape) for i, v in enumerate(ys)]

    def helper(v, bias=1.0):
        return v * scale + bias
    g = lambda v: helper(v, bias=0.0)  # noqa: E731
    chained = 0 < first <= 2
    summary = f"n={len(ys)} first={first!r}"
    rows = [r for r in x]
    zipped = [a * b for a, b in zip(rows, rows)]
    return (g(table["a"]) if first else helper(x), rest, summary, chained, pairs, isinstance(x, ms.Tensor),
            kwargs.get("extra", 0), zipped)


def test_python_features():
    both(python_features, T([1.0, 2.0], [3.0, 4.0]), 1, 5, 6, scale=3.0, extra=7)
    both(python_features, T([1.0, 2.0], [3.0, 4.0]), 0, 5)


def test_outputs_keep_their_python_structure():
    out = both(lambda x: {"double": x * 2, "pair": [x, x + 1], "n": 3}, T(1.0))
    assert isinstance(out["pair"], list)


def test_a_returned_input_is_the_callers_object():
    x = T(1.0, 2.0)
    assert ms.jit(lambda v, w: (v, w * 2))(x, x)[0] is x


def test_numpy_on_constants_runs_while_compiling():
    both(lambda x: x * ms.Tensor(np.linspace(0, 1, 3).astype(np.float32)) + np.pi, T(1.0, 2.0, 3.0))


class _Calls(list):
    """A record the compiled function appends to (a list subclass: a plain list read from outside the graph is
    copied into it, as in MindSpore, so that the caller's list never changes)."""


def test_one_compilation_per_signature():
    calls = _Calls()

    def f(x, n):
        calls.append(1)          # Python code in the function runs once per compilation
        return x * n
    jf = ms.jit(f)
    jf(T(1.0), 2)
    jf(T(5.0), 2)                # same shapes, dtypes and constants: cached
    assert len(calls) == 1
    jf(T(1.0), 3)                # a new Python constant compiles again (API.md 5.9)
    jf(T(1.0, 2.0), 3)           # and a new shape
    assert len(calls) == 3
    jf(T(1.0), ms.mutable(4))
    jf(T(1.0), ms.mutable(5))    # a mutable scalar is an input: no recompilation
    assert len(calls) == 4
    assert jf(T(1.0), ms.mutable(7)).asnumpy().tolist() == [7.0]


def test_constant_conditions_fold_and_tensor_conditions_make_an_if():
    def f(x, flag):
        if flag:
            x = x + 1
        if x.sum() > 0:
            x = x * 2
        return x
    program_ops = []

    def record(x, flag):
        out = f(x, flag)
        return out
    from mindspore._infer.specialize import specialize
    graph = specialize(f, (T(1.0), True)).graph
    program_ops = [n.fn_value() for n in graph.nodes]
    assert program_ops.count(irops.If) == 1
    both(record, T(1.0), True)
    both(record, T(-3.0), False)


def test_print_runs_at_every_call(capsys):
    @ms.jit
    def f(x):
        print("x is", x)
        return x + 1
    f(T(1.0))
    f(T(2.0))
    out = capsys.readouterr().out
    # MindSpore 2.10's Print shows a tensor as its repr: "Tensor(shape=[1], dtype=Float32, value=[ 2.00000000e+00])"
    assert out.count("x is") == 2 and "2.00000000e+00" in out and "1.00000000e+00" in out


def test_parameter_writes_are_ordered_and_not_merged():
    w = ms.Parameter(T(1.0, 1.0), name="w")

    @ms.jit
    def f(x):
        before = w * 1.0 + 0.0
        ops.assign(w, w + x)
        after = w * 1.0 + 0.0          # the same expression after the write: not merged with `before`
        ops.assign_add(w, x)
        return before, after
    before, after = f(T(2.0, 3.0))
    assert before.asnumpy().tolist() == [1.0, 1.0]
    assert after.asnumpy().tolist() == [3.0, 4.0]
    assert w.asnumpy().tolist() == [5.0, 7.0]
    f(T(1.0, 1.0))
    assert w.asnumpy().tolist() == [7.0, 9.0]   # the compiled graph reads the Parameter at each run


def test_random_draws_are_not_folded():
    ms.set_seed(3)

    @ms.jit
    def f():
        return ops.uniform((4,), ms.Tensor(0.0), ms.Tensor(1.0))
    a, b = f().asnumpy(), f().asnumpy()
    assert not np.array_equal(a, b)


def test_jit_on_a_cell_and_on_a_method():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(2, 2)

        @ms.jit
        def construct(self, x):
            return self.dense(x) * 2
    net = Net()
    x = ms.Tensor(np.ones((1, 2), np.float32))
    expected = (ops.matmul(x, net.dense.weight.T) + net.dense.bias) * 2
    np.testing.assert_allclose(net(x).asnumpy(), expected.asnumpy(), rtol=1e-6)
    plain = nn.Dense(2, 2)
    jitted = ms.jit(plain)
    np.testing.assert_allclose(jitted(x).asnumpy(), (ops.matmul(x, plain.weight.T) + plain.bias).asnumpy(),
                               rtol=1e-6)
    assert len(compiler.cache_for(plain)) == 1


@pytest.mark.cpu_backend
def test_save_graphs_writes_the_ir_after_each_pass(tmp_path):
    ms.set_context(save_graphs=True, save_graphs_path=str(tmp_path))
    try:
        ms.jit(lambda x: ops.relu(x * 2.0 + 1.0))(T(1.0, -1.0))
    finally:
        ms.set_context(save_graphs=False)
    names = sorted(os.listdir(tmp_path))
    assert len(names) == 1 + len(passes.pass_names())
    assert names[0].endswith("_00_infer.ir") and names[-1].endswith("_memory_plan.ir")
    assert "FusedElementwise" in (tmp_path / names[-1]).read_text()


def test_graph_mode_switch_is_one_line():
    class Net(nn.Cell):
        def construct(self, x):
            if x.sum() > 0:
                return x * 2
            return -x
    net = Net()
    x = T(-1.0, 3.0)
    eager = net(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        compiled = net(x).asnumpy()
        assert len(compiler.cache_for(net)) == 1
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(compiled, eager)


def test_a_parameter_changing_dtype_recompiles():
    w = ms.Parameter(T(1.0, 2.0), name="w")
    f = ms.jit(lambda x: x * w)
    assert f(T(3.0, 3.0)).dtype == ms.float32
    w.set_dtype(ms.float64)
    out = f(T(3.0, 3.0).astype(ms.float64))
    assert out.dtype == ms.float64 and out.asnumpy().tolist() == [3.0, 6.0]


def test_attribute_mutation_runs_while_compiling_and_strict_mode_rejects_it():
    class Counter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.count = 0

        def construct(self, x):
            self.count += 1          # LAX: plain Python, run while compiling
            return x * 2
    net = ms.jit(Counter())
    net(T(1.0))
    assert net.count == 1
    ms.set_context(jit_syntax_level=ms.STRICT)
    try:
        with pytest.raises(TypeError, match="JIT strict mode"):
            ms.jit(Counter())(T(1.0))
    finally:
        ms.set_context(jit_syntax_level=ms.LAX)


def test_functions_with_any_name_compile(tmp_path):
    """A graph is named after the user's function, whose __name__ may be any string (not an identifier)."""
    def f(x):
        return x * 2
    for name in ("scale²", "3-times", "a/b", "名前"):
        f.__name__ = name
        np.testing.assert_allclose(ms.jit(f)(T(1.0, 2.0)).asnumpy(), [2.0, 4.0])
    f.__name__ = "a/b²"
    ms.set_context(save_graphs=True, save_graphs_path=str(tmp_path))
    try:
        ms.jit(f)(T(3.0))
    finally:
        ms.set_context(save_graphs=False)
    dumped = [p.name for p in tmp_path.iterdir()]
    assert dumped and all("/" not in n for n in dumped)


def test_outer_lists_and_dicts_are_never_mutated_by_a_graph():
    """MindSpore 2.10 (checked against it): a list, dict or set a compiled function reads from outside is the
    graph's own copy; appending to it or setting a key inside the graph leaves the caller's object unchanged."""
    log, cfg = [], {}

    def make():
        local = []

        def f(x):
            log.append(x)
            cfg["k"] = 1
            local.append(1)
            local.append(2)
            return x * len(local)
        return f, local
    f, local = make()
    out = ms.jit(f)(T(1.0, 2.0))
    assert out.asnumpy().tolist() == [2.0, 4.0]     # inside the graph the copy has both appends
    assert log == [] and cfg == {} and local == []


def test_a_tuple_assigned_in_one_branch_of_a_tensor_if_is_undefined_after_it():
    """A local assigned a tuple in one branch of an ``if`` on a tensor and nothing in the other (MindCV's
    GradientAccumulation: ``reduced = self.grad_reducer(self._grad_accumulation)`` only when it updates) compiles:
    the name has no value after the ``if`` (before the fix: "the two branches ... must give values of the same
    structure, but got a tuple of 2 and a tuple of 2")."""
    class Step(nn.Cell):
        def __init__(self):
            super().__init__()
            self.count = ms.Parameter(ms.Tensor(0, ms.int32), name="count")
            self.acc = ms.ParameterTuple([ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="a"),
                                          ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="b")])

        def construct(self, x):
            self.count += 1
            if self.count >= 2:
                reduced = tuple(a * 1 for a in self.acc)
                x = x + reduced[0].sum() + 1
                self.count = 0
            else:
                x = x - 1
            return x

    step = Step()
    got = [float(ms.jit(step.construct)(T(1.0)).asnumpy()[0]) for _ in range(3)]
    assert got == [0.0, 2.0, 0.0]
    assert int(step.count.asnumpy()) == 1
