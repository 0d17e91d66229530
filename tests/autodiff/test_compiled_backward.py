"""PYNATIVE backward passes that repeat run compiled (``mindspore._autodiff.compiled_backward``): the same gradients
as the tape's walk, compiled once per structure and signature, and the tape walked wherever the walk could differ."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from mindspore._autodiff import compiled_backward as cb
from mindspore._pipeline.compiler import STATS as COMPILER


@pytest.fixture(autouse=True)
def pynative(monkeypatch):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    monkeypatch.delenv(cb.ENV, raising=False)
    cb.reset()
    yield
    cb.reset()


def _x(shape, seed=0):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def _tape_grads(fn, *args, **kwargs):
    """``fn(*args)`` with the compiled walk off: what the tape gives."""
    import os
    os.environ[cb.ENV] = "0"
    try:
        return fn(*args, **kwargs)
    finally:
        del os.environ[cb.ENV]


def _flat(x):
    if isinstance(x, (tuple, list)):
        return [a for e in x for a in _flat(e)]
    return [x]


def _same(got, want, rtol=1e-6):
    got, want = _flat(got), _flat(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=rtol, atol=1e-6)


class _Net(nn.Cell):
    """Convolution, batch norm (a multi-output operator), pooling, a Dense, a broadcast bias, a weight used twice, a
    concatenation (a tuple input) and an unused weight."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, pad_mode="same", has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Dense(16, 3)
        self.scale = Parameter(Tensor(np.full((1, 3), 1.5, np.float32)), name="scale")
        self.unused = Parameter(Tensor(np.ones(2, np.float32)), name="unused")

    def construct(self, x):
        h = ops.max_pool2d(ops.relu(self.bn(self.conv(x))), 2, 2)
        h = self.fc(ops.reshape(h, (h.shape[0], -1)))
        h = ops.concat((h * self.scale, h - self.scale), axis=1)
        return (h * h).mean()


def test_a_repeated_backward_pass_runs_compiled_with_the_tapes_gradients():
    net = _Net()
    net.set_train()
    x = _x((2, 2, 4, 4))
    step = ms.value_and_grad(net, 0, net.trainable_params())
    want = _tape_grads(step, x)
    before = COMPILER["compiles"]
    results = [step(x) for _ in range(cb.REPEATS + 3)]
    # walked on the tape while the structure was new, then compiled once and run compiled
    assert cb.STATS["tape"] == cb.REPEATS and cb.STATS["compiled"] == 3 and cb.STATS["compiles"] == 1
    assert COMPILER["compiles"] - before == 1
    for got in results:
        _same(got, want)
    (loss, (gx, gw)) = results[-1]
    names = [p.name for p in net.trainable_params()]
    assert not gw[names.index("unused")].asnumpy().any()        # no gradient reaches it: zeros, as on the tape


@pytest.mark.parametrize("case", ["positions", "sens", "has_aux", "constant operand", "same tensor twice",
                                  "int input"])
def test_the_gradient_layouts_and_operands(case):
    x, y = _x((3, 4)), _x((3, 4), 1)
    c = _x((1, 4), 2) + 2
    if case == "positions":
        fn = ms.grad(lambda x, y: (ops.sin(x) * y / c).sum(), (0, 1))
        args = (x, y)
    elif case == "sens":
        fn = ms.grad(lambda x, y: ops.matmul(x, y.T) - c.sum(), (0, 1), sens_param=True)
        args = (x, y, _x((3, 3), 3))
    elif case == "has_aux":
        fn = ms.value_and_grad(lambda x, y: ((x * y).sum(), ops.exp(x)), 0, has_aux=True)
        args = (x, y)
    elif case == "constant operand":
        fn = ms.grad(lambda x: (x * c - ops.square(x)).mean())
        args = (x,)
    elif case == "same tensor twice":
        fn = ms.grad(lambda x, y: (x * y + ops.tanh(x)).sum(), (0, 1))
        args = (x, x)
    else:
        index = Tensor(np.array([2, 0, 1], np.int32))
        fn = ms.grad(lambda x, i: ops.gather(x, i, 0).sum() * 2, 0)
        args = (x, index)
    want = _tape_grads(fn, *args)
    for _ in range(cb.REPEATS + 2):
        _same(fn(*args), want)
    assert cb.STATS["compiled"] == 2, cb.STATS


def test_training_steps_agree_with_the_tape_and_new_shapes_compile_once_they_repeat():
    def train(batches):
        ms.set_seed(1)
        net = nn.SequentialCell([nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 3)])
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                         reduction="mean")), opt)
        step.set_train()
        return [float(step(x, Tensor(np.arange(x.shape[0], dtype=np.int32) % 3))) for x in batches]

    batches = [_x((2, 4), i) for i in range(5)] + [_x((3, 4), i) for i in range(5, 8)]
    want = _tape_grads(train, batches)
    got = train(batches)
    np.testing.assert_allclose(got, want, rtol=1e-5)
    # steps 3-5 compiled (one compile); the batches of three rows are another template: walked on the tape until
    # their shapes repeat, then compiled for them (a second compile)
    assert cb.STATS == {"tape": 4, "compiled": 4, "compiles": 2, "failed": 0}, cb.STATS


def test_shapes_that_do_not_repeat_are_never_compiled_and_those_kept_are_bounded():
    """A network fed a new shape at every step (sequences of varying length) walks its tape: compiling a walk per
    shape would cost a compile per step and keep every graph. Shapes that repeat are compiled, at most
    :data:`LIMIT` per function, the least recently used forgotten first."""
    f = ms.grad(lambda x: (ops.tanh(x) * x).sum())
    for n in range(1, 3 * cb.LIMIT):
        x = _x((n, 3), n)
        np.testing.assert_allclose(f(x).asnumpy(), _tape_grads(f, x).asnumpy(), rtol=1e-6)
    assert cb.STATS["compiles"] == 0 and cb.STATS["compiled"] == 0
    cb.reset()
    shapes = [(n, 3) for n in range(1, cb.LIMIT + 1)]
    for _ in range(cb.REPEATS + 1):
        for shape in shapes:
            f(_x(shape))
    assert cb.STATS["compiles"] == cb.LIMIT, cb.STATS
    (templates,) = cb._OWNERS.values()
    assert len(templates.compiled) == cb.LIMIT
    for shape in shapes[:1] + shapes[2:]:    # used again: run compiled, not compiled again
        f(_x(shape))
    assert cb.STATS["compiles"] == cb.LIMIT and cb.STATS["compiled"] == 2 * cb.LIMIT - 1
    for _ in range(cb.REPEATS + 1):          # one more shape that repeats: the least recently used one goes
        f(_x((cb.LIMIT + 1, 3)))
    assert cb.STATS["compiles"] == cb.LIMIT + 1 and len(templates.compiled) == cb.LIMIT
    tape = cb.STATS["tape"]
    f(_x(shapes[0]))
    assert cb.STATS["tape"] == tape
    f(_x(shapes[1]))
    assert cb.STATS["tape"] == tape + 1 and cb.STATS["compiles"] == cb.LIMIT + 1


def _repeat(fn, *args):
    for _ in range(cb.REPEATS + 2):
        out = fn(*args)
    return out


def test_the_tape_is_walked_where_the_walk_could_differ():
    x = _x((3, 4))
    seen = []
    # a tensor hook: it sees the gradient at every step

    def hooked(x):
        h = x * 2
        h.register_hook(lambda g: seen.append(1))
        return (ops.exp(h) * 3).sum()
    _repeat(ms.grad(hooked), x)
    assert seen.count(1) == cb.REPEATS + 2
    # HookBackward: its hook runs at every step
    hook = ops.HookBackward(lambda g: seen.append(2))
    _repeat(ms.grad(lambda x: ops.sin(hook(x)).sum()), x)
    assert seen.count(2) == cb.REPEATS + 2

    # a Cell's own bprop: run at every step
    class Own(nn.Cell):
        def construct(self, x):
            return x * 3

        def bprop(self, x, out, dout):
            seen.append(3)
            return (dout * 3,)
    own = Own()
    _repeat(ms.grad(lambda x: ops.cos(own(x)).sum()), x)
    assert seen.count(3) == cb.REPEATS + 2
    assert cb.STATS["compiled"] == 0, cb.STATS
    # gradients of gradients: the inner walk, recorded on the outer tape, is walked on its tape (the outer one's walk
    # is an ordinary one, compiled once it repeats)
    gg = _repeat(ms.grad(lambda x: ms.grad(lambda y: (y * y * y).sum())(x).sum()), x)
    np.testing.assert_allclose(gg.asnumpy(), 6 * x.asnumpy(), rtol=1e-5)
    assert cb.STATS["compiled"] == 2, cb.STATS


def test_a_users_operator_is_walked_on_the_tape():
    from mindspore.ops import Primitive
    calls = []

    class Twice(Primitive):
        def __init__(self):
            super().__init__("Twice")

        def __call__(self, x):
            return x * 2          # (composed of registered operators: what the tape records is Mul)

    def bprop(x, out, dout):       # an ops.Custom's bprop: the user's own
        calls.append(1)
        return (dout * 3,)
    triple = ops.Custom(lambda a: a * 3, lambda s: s, lambda t: t, func_type="pyfunc", bprop=bprop)
    f = ms.grad(lambda x: ops.sin(triple(Twice()(x))).sum())
    x = _x((2, 3))
    want = _tape_grads(f, x)
    calls.clear()
    _same(_repeat(f, x), want)
    assert len(calls) == cb.REPEATS + 2 and cb.STATS["compiled"] == 0


def test_turned_off(monkeypatch):
    monkeypatch.setenv(cb.ENV, "0")
    f = ms.grad(lambda x: ops.exp(x).sum())
    _repeat(f, _x((2, 2)))
    assert cb.STATS["compiled"] == 0 and cb.STATS["compiles"] == 0


def test_a_walk_that_does_not_compile_is_walked_on_the_tape_from_then_on(monkeypatch):
    from mindspore._pipeline import compiler
    f = ms.grad(lambda x: ops.exp(x).sum())
    x = _x((2, 2))
    want = _tape_grads(f, x)
    cb.reset()
    real = compiler.compile_callable

    def failing(fn, *a, **k):
        if isinstance(fn, cb._Walk):
            raise RuntimeError("a bprop that can not be staged")
        return real(fn, *a, **k)
    monkeypatch.setattr(compiler, "compile_callable", failing)
    for _ in range(cb.REPEATS + 3):
        _same(f(x), want)
    assert cb.STATS["failed"] == 1 and cb.STATS["compiled"] == 0 and cb.STATS["tape"] == cb.REPEATS + 3


def test_structures_that_differ_are_compiled_apart():
    x = _x((3, 4))

    def f(x, flag):
        return (ops.exp(x) if flag else ops.sin(x) * 2).sum()
    g = ms.grad(f, 0)
    for _ in range(cb.REPEATS + 1):
        a, b = g(x, True), g(x, False)
    np.testing.assert_allclose(a.asnumpy(), np.exp(x.asnumpy()), rtol=3e-6)   # (the CPU's float32 exp is 2.10's nnacl
    np.testing.assert_allclose(b.asnumpy(), 2 * np.cos(x.asnumpy()), rtol=1e-6)    # polynomial, within 2.2e-6)
    assert cb.STATS["compiled"] == 2 and cb.STATS["compiles"] == 2


def test_a_tensor_nested_deeper_than_a_flat_tuple_is_never_a_constant():
    """A tensor inside a nested tuple argument would be baked into the compiled walk as a constant (its first step's
    value): such a tape is walked instead."""
    from mindspore._autodiff import tape as _tape
    x, y = _x((2,)), _x((2,), 1)
    prim = ops.Mul()
    with _tape.Tape() as tp:
        tp.watch(x)
        out = prim(x, x)
        tp._record(_tape.Node(prim, (x, ((y,),)), (out,), False))
        with pytest.raises(cb._NotCompilable):
            cb._Template(tp, (out,), (None,))
        tp.nodes[-1].inputs = (x, (y, 2.0))                     # a flat tuple: its tensor is a slot
        template = cb._Template(tp, (out,), (None,))
    assert any(t is y for t in template.flat)


def test_parameters_and_operator_attributes_of_later_steps_are_the_ones_used():
    """The compiled walk reads each step's tensors (a Parameter given in a slot another step's Parameter held, or one
    whose data was replaced), and an operator given another attribute (``add_prim_attr``) is compiled again."""
    f = ms.grad(lambda x, w: ops.matmul(x, w).sum(), 0)
    x = Tensor(np.ones((2, 3), np.float32))
    for i in range(cb.REPEATS + 3):
        wn = np.random.default_rng(i).standard_normal((3, 4)).astype(np.float32)
        np.testing.assert_allclose(f(x, Parameter(Tensor(wn), name=f"w{i}")).asnumpy(), np.ones((2, 4)) @ wn.T,
                                   rtol=1e-5)
    cb.reset()
    w = Parameter(Tensor(np.ones((3, 4), np.float32)), name="w")
    for i in range(cb.REPEATS + 2):
        w.set_data(Tensor(np.full((3, 4), float(i), np.float32)))
        np.testing.assert_allclose(f(x, w).asnumpy(), np.full((2, 3), 4.0 * i), rtol=1e-6)
    assert cb.STATS["compiled"] == 2, cb.STATS          # (one Parameter: compiled once it repeats, read in place)
    from mindspore._autodiff import tape as _tape
    prim = ops.ReduceSum(keep_dims=True)
    with _tape.Tape() as tp:
        tp.watch(x)
        out = prim(x * x, 1)
        before = cb._Template(tp, (out,), (None,)).key
        prim.add_prim_attr("keep_dims", True)
        assert cb._Template(tp, (out,), (None,)).key != before


def test_constants_are_keyed_by_value():
    """A list or a small array given to an operator is part of the template by value (changed in place, it is another
    template); a value known only by identity makes the tape be walked."""
    key = cb._const_key
    assert key([1, (2, [3])]) == key([1, (2, [3])]) != key([1, (2, [4])])
    a = np.arange(4)
    before = key(a)
    a[0] = 7
    assert key(a) != before and key({"k": [1]}) == key({"k": [1]})
    for unknown in (np.zeros(5000), bytearray(b"x")):
        with pytest.raises(cb._NotCompilable):
            key(unknown)


def test_compiled_walks_go_with_the_network():
    """The compiled walks (and the Parameters their graphs read) are kept with the differentiated Cell: networks
    dropped leave nothing behind (of five trained and dropped, at most the last one's Parameter is still referenced
    elsewhere, as with the tape's walk: the compiler keeps its last program)."""
    import gc
    import weakref
    alive = []
    for i in range(5):
        net = nn.SequentialCell([nn.Dense(4, 3), nn.ReLU()])
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
        x, y = _x((2, 4), i), _x((2, 3), i + 1)
        for _ in range(cb.REPEATS + 2):
            step(x, y)
        assert len(cb._OWNERS) == 1
        alive.append(weakref.ref(net.trainable_params()[0]))
        del net, step
        gc.collect()
        assert len(cb._OWNERS) == 0
    assert cb.STATS["compiled"] == 10 and sum(r() is not None for r in alive) <= 1
