"""Graph-mode syntax from MindSpore's static-graph documentation (compile/statements.md, python_builtin_functions.md,
static_graph.md): each case failed or differed on ours before (tests/e2e/test_graph_syntax_2_10.py runs the pages'
own examples against MindSpore 2.10's results)."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore._pipeline import passes


@pytest.fixture(autouse=True)
def _verify(monkeypatch):
    monkeypatch.setattr(passes, "VERIFY", True)


def T(*values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype))


def test_raise_in_one_branch_of_a_tensor_if_keeps_the_other_branch():
    # statements.md "raise Statements": the else branch computes x; the raising branch has no value for it
    @ms.jit
    def f(x, y):
        if x <= y:
            raise ValueError("x should be greater than y.")
        else:
            x += 1
        return x
    assert f(ms.tensor(2), ms.tensor(-1)).asnumpy() == 3
    with pytest.raises(ValueError, match="x should be greater than y"):
        f(ms.tensor(-2), ms.tensor(-1))


def test_tensor_in_a_sequence_compares_at_run_time():
    # statements.md "assert Statements": assert x in [2, 3, 4]
    @ms.jit
    def f(x):
        assert x in [2, 3, 4]
        return x in (5, 2), x not in [2], x not in [], x in (x,)
    found, missing, not_in_empty, itself = f(ms.tensor(2))
    assert bool(found.asnumpy()) and not bool(missing.asnumpy())
    assert not_in_empty is True and itself is True
    with pytest.raises(AssertionError):
        f(ms.tensor(-1))


def test_partial_binds_keyword_arguments():
    def add(x, y):
        return x + y

    @ms.jit
    def f():
        add_ = ops.partial(add, x=2)
        return add_(y=3), add_(y=5)
    assert f() == (5, 7)


def test_with_calls_enter_and_exit_in_order():
    class Scale:
        def __init__(self, p):
            self.p = p

        def __enter__(self):
            ops.assign(self.p, self.p * 2)
            return self.p

        def __exit__(self, exc_type, exc_value, traceback):
            ops.assign(self.p, self.p + 10)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ms.Parameter(T(1.0), name="p")

        def construct(self, x):
            with Scale(self.p) as a:
                y = x + a
            return y
    net = Net()
    assert ms.jit(net.construct)(T(1.0)).asnumpy().tolist() == [3.0]
    assert net.p.asnumpy().tolist() == [12.0]


def test_return_inside_with_is_refused_clearly():
    class Ctx:
        def __enter__(self):
            return 1

        def __exit__(self, *exc):
            return None

    @ms.jit
    def f(x):
        with Ctx():
            return x
    with pytest.raises(RuntimeError, match="inside a 'with' block"):
        f(T(1.0))


def test_setting_a_parameter_attribute_assigns_the_parameter():
    # static_graph.md "Attribute References and Attribute Modification": self.weight = x
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = ms.Parameter(ms.tensor(3, ms.float32), name="w")

        @ms.jit
        def construct(self, x):
            self.weight = x
            return x
    net = Net()
    assert net(1) == 1
    assert isinstance(net.weight, ms.Parameter) and net.weight.asnumpy() == 1.0
    net(ms.tensor(5, ms.int32))
    assert net.weight.dtype == ms.float32 and net.weight.asnumpy() == 5.0


def test_jit_of_an_already_compiled_bound_method_keeps_self():
    class Net(nn.Cell):
        @ms.jit
        def construct(self, x):
            return x * 3
    net = Net()
    net.construct = ms.jit(net.construct)
    assert net(T(2.0)).asnumpy().tolist() == [6.0]


def test_dict_methods_of_graph_mode():
    # static_graph.md "Dictionary": has_key, and keys()/values()/items() as tuples/list taken when called
    d = {"a": T(1.0), "b": T(2.0)}

    @ms.jit
    def f():
        keys, values, items = d.keys(), d.values(), d.items()
        d.update({"a": T(0.0)})
        return keys, values, items, d.has_key("a"), d.has_key("z")
    keys, values, items, has_a, has_z = f()
    assert keys == ("a", "b") and has_a is True and has_z is False
    assert type(values) is tuple and values[0].asnumpy().tolist() == [1.0]
    assert type(items) is list and items[1][0] == "b"


def test_sequence_builtins_give_sequences():
    # python_builtin_functions.md: map/zip/enumerate/range give tuples (map on a list a list), filter a list
    def add(x, y):
        return x + y

    def is_odd(x):
        if x % 2:
            return True
        return False

    @ms.jit
    def f():
        return (map(add, (1, 2), (3, 4)), map(add, [1], [2]), zip((1, 2), (3, 4)), enumerate((7, 8), 1),
                range(0, 6, 2), filter(is_odd, (1, 2, 3)))
    assert f() == ((4, 6), [3], ((1, 3), (2, 4)), ((1, 7), (2, 8)), (0, 2, 4), [1, 3])


def test_numpy_scalars_leave_a_graph_as_python_scalars():
    @ms.jit
    def f():
        return tuple(np.array([1, 2])), np.float32(0.5)
    ints, half = f()
    assert ints == (1, 2) and all(type(i) is int for i in ints)
    assert type(half) is float and half == 0.5


def test_a_computed_tensor_stored_in_an_attribute_runs_as_python():
    # static_graph.md "Syntax Based on Bytecode Graph Construction": self.attr = x + 1
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.attr = 1

        @ms.jit
        def construct(self, x):
            self.attr = x + 1
            return self.attr * 2
    net = Net()
    with pytest.warns(RuntimeWarning, match="runs as Python"):
        out = net(ms.tensor([1, 2, 3], ms.int32))
    assert out.asnumpy().tolist() == [4, 6, 8] and net.attr.asnumpy().tolist() == [2, 3, 4]


def test_calling_an_object_without_call_is_a_type_and_value_error():
    # static_graph_expert_programming.md: 2.10 raises ValueError ("has no __call__ function"), Python TypeError
    class Inner:
        number = 2

    obj = Inner()

    @ms.jit
    def f(x):
        return obj(x)
    with pytest.raises(TypeError, match="not callable") as info:
        f(T(1.0))
    assert isinstance(info.value, ValueError)


def test_inplace_method_on_an_input_updates_the_callers_tensor():
    # static_graph.md "Supported In-place Operations": x.add_(y) in a compiled construct changes x
    class Net(nn.Cell):
        def construct(self, x, y):
            x.add_(y)
            return x
    net = Net()
    net.construct = ms.jit(net.construct)
    x, y = ms.tensor(2, ms.int32), ms.tensor(3, ms.int32)
    out = net(x, y)
    assert out.asnumpy() == 5 and x.asnumpy() == 5
    assert ms.grad(net)(x, y).asnumpy() == 1 and x.asnumpy() == 8


def test_grad_of_a_jit_method_with_weights_reaches_the_weights():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ms.Parameter(T(1.0), name="p")

        def construct(self, x):
            return self.p * x + x
    net = Net()
    net.construct = ms.jit(net.construct)
    grads = ops.GradOperation(get_by_list=True)(net, net.trainable_params())(T(3.0))
    assert grads[0].asnumpy().tolist() == [3.0]


def test_grad_seeds_tensors_inside_nested_outputs():
    # static_graph.md "Supporting Derivation": a tensor returned twice (once inside a dict) gets gradient 2
    @ms.jit
    def f(a):
        x = {"a": a, "b": 2}
        return a, (x, (1, 2))
    assert ms.grad(f)(ms.tensor([1.0])).asnumpy().tolist() == [2.0]


def test_vmap_jacrev_jacfwd_are_top_level_names():
    assert ms.vmap is ms.ops.vmap and ms.jacrev is ms.ops.jacrev and ms.jacfwd is ms.ops.jacfwd
