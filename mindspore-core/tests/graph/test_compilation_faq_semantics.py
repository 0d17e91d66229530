"""Graph-mode behaviour the FAQ ``faq/network_compilation.md`` describes, as real MindSpore 2.10 shows it (the page's
own examples replay in tests/e2e/test_graph_syntax_2_10.py; these pin each fix down on its own)."""
import fractions

import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, ParameterTuple, Tensor, jit, nn, ops


@pytest.fixture(autouse=True)
def _graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _x(*shape):
    return Tensor(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape))


def test_jit_method_of_a_plain_object_keeps_self():
    class Helper:
        def __init__(self):
            self.value = 10

        @jit
        def func(self, x):
            return 2 * x + self.value

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.helper = Helper()

        def construct(self, x):
            return self.helper.value + self.helper.func(x)

    np.testing.assert_allclose(Net()(_x(3)).asnumpy(), [20.0, 22.0, 24.0])


def test_sens_counts_outputs_the_graph_does_not_compute():
    x, y = Tensor([1.0]), Tensor([2.0])
    grad = ops.GradOperation(sens_param=True)

    def two(a, b):
        return a, b

    @jit
    def with_constants():     # x, y are constants of this graph: its output (x, y) still has two leaves
        s = ops.ones_like(x)
        return grad(two)(x, y, (s, s * 3))

    np.testing.assert_allclose(with_constants().asnumpy(), [1.0])

    @jit
    def one_sens(a, b):
        return grad(two)(a, b, ops.ones_like(a))

    with pytest.raises(TypeError, match="Type Join Failed"):
        one_sens(x, y)


@pytest.mark.parametrize("value", [fractions.Fraction(1, 2), object()])
def test_non_number_python_objects_are_refused(value):
    with pytest.raises(TypeError, match="must be a Tensor, int, float or bool"):
        ops.add(_x(2), value)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(TypeError, match="must be a Tensor, int, float or bool"):
        ops.add(_x(2), value)
    with pytest.raises(TypeError, match="'input_data' should be one of"):
        Tensor(value)


@pytest.mark.parametrize("value", [np.float64(0.5), np.int64(2), np.float16(0.5)])
def test_numpy_scalars_act_as_python_scalars(value):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    out = ops.add(_x(2), value)
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), np.arange(2) + float(value))


def test_recursion_on_a_constant_uses_mindspores_depth_limit():
    def f(n):
        if n > 0:
            return f(n - 1) + 1
        return 0

    class Net(nn.Cell):
        def __init__(self, n):
            super().__init__()
            self.n = n

        def construct(self, x):
            return x + f(self.n)

    assert float(Net(450)(Tensor(1.0))) == 451.0      # Python's own limit used to stop it near 150
    with pytest.raises(RuntimeError, match="Exceed function call depth limit 1000"):
        Net(600)(Tensor(1.0))


def test_recursion_under_a_tensor_condition_runs():
    def f(x):
        if x > 0:
            return f(x - 1) + 1
        return x

    class Net(nn.Cell):
        def construct(self, x):
            return f(x)

    with pytest.warns(RuntimeWarning, match="JIT fallback"):
        assert float(Net()(Tensor(3.0))) == 3.0


def test_bprop_without_dout_is_named():
    class Net(nn.Cell):
        def construct(self, x, y):
            return x + y

        def bprop(self, x, y, out):
            return ops.zeros_like(out), ops.zeros_like(out)

    with pytest.raises(TypeError, match=r"requires the forward inputs as well as the 'out' and 'dout'\.\nIn file "
                                        r".*test_compilation_faq_semantics.py:\d+"):
        ms.grad(Net(), grad_position=(0, 1))(Tensor(2.0), Tensor(6.0))


def test_construct_argument_count_messages():
    class Net(nn.Cell):
        def construct(self, x, y=1):
            return x * y

    with pytest.raises(TypeError, match=r"construct requires 1 positional argument and 1 default argument, total 2, "
                                        r"but got 3\."):
        Net()(_x(2), 1, 2)
    with pytest.raises(TypeError, match=r"construct requires 1 positional argument, but got 0\. When using "
                                        r"set_inputs"):
        Net()()
    np.testing.assert_allclose(Net()(x=_x(2)).asnumpy(), [0.0, 1.0])


def test_branches_of_different_shapes_join_to_a_dynamic_shape():
    class Net(nn.Cell):
        def construct(self, x, a, b):
            if a > b:
                y = x[:2]
            else:
                y = x
            return y * 2

    x = _x(3, 2)
    np.testing.assert_allclose(Net()(x, Tensor(5.0), Tensor(3.0)).asnumpy(), x.asnumpy()[:2] * 2)
    np.testing.assert_allclose(Net()(x, Tensor(1.0), Tensor(3.0)).asnumpy(), x.asnumpy() * 2)
    g = ms.grad(Net(), grad_position=0)
    np.testing.assert_allclose(g(x, Tensor(5.0), Tensor(3.0)).asnumpy(), [[2, 2], [2, 2], [0, 0]])
    np.testing.assert_allclose(g(x, Tensor(1.0), Tensor(3.0)).asnumpy(), np.full((3, 2), 2.0))


def test_branches_of_different_ranks_run_as_python():
    class Net(nn.Cell):
        def construct(self, x, a, b):
            if a > b:
                y = x.reshape(-1)
            else:
                y = x
            return y * 2

    with pytest.warns(RuntimeWarning, match="JIT fallback"):
        assert Net()(_x(3, 2), Tensor(5.0), Tensor(3.0)).shape == (6,)


def test_branch_dtype_mismatch_says_type_join_failed():
    class Net(nn.Cell):
        def construct(self, x, a, b):
            if a > b:
                return x
            return ops.cast(x, ms.float16)

    # the first two lines are 2.10's (tutorial "Network Construction and Training Error Analysis")
    with pytest.raises(TypeError, match="^Cannot join the return values of different branches, perhaps you need to "
                                        "make them equal.\nType Join Failed: dtype1 = Float32, dtype2 = Float16"):
        Net()(_x(2), Tensor(1.0), Tensor(3.0))


def test_parameter_names_must_be_unique():
    a1 = Parameter(Tensor([1.0]), name="a")
    with pytest.raises(ValueError, match="its name 'a' already exists"):
        ParameterTuple((a1, Parameter(Tensor([2.0]), name="a")))
    assert len(ParameterTuple((a1, a1))) == 2                                  # one Parameter twice is fine
    assert len(ParameterTuple((Parameter(Tensor([1.0])), Parameter(Tensor([2.0]))))) == 2    # unnamed ones too

    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.param = Parameter(Tensor([1.0]), name="name_a")

    class Outer(nn.Cell):
        def __init__(self, n1, n2):
            super().__init__()
            self.p1 = ParameterTuple(n1.get_parameters())
            self.p2 = ParameterTuple(n2.get_parameters())

        def construct(self, x):
            return x + self.p1[0] + self.p2[0]

    with pytest.raises(RuntimeError, match="its name 'name_a' already exists"):
        Outer(Inner(), Inner())(Tensor([1.0]))
    ms.set_context(mode=ms.PYNATIVE_MODE)       # as in MindSpore, only a compiled graph needs the names
    np.testing.assert_allclose(Outer(Inner(), Inner())(Tensor([1.0])).asnumpy(), [3.0])


def test_dynamic_sens_is_refused():
    class Grad(nn.Cell):
        def __init__(self):
            super().__init__()
            self.grad = ops.GradOperation(get_all=True, sens_param=True)
            self.net = nn.ReLU()

        def construct(self, x, sens):
            return self.grad(self.net)(x, sens)

    net = Grad()
    sens = Tensor(shape=[1, None], dtype=ms.float32)
    net.set_inputs(Tensor(shape=[2, None], dtype=ms.float32), sens)
    copy = Tensor(sens)
    assert copy.shape == (1, -1) and copy.dtype == ms.float32
    with pytest.raises(ValueError, match="The shape of sense must not be dynamic shape."):
        net(_x(2, 2), copy)


def test_the_shape_of_a_joined_dynamic_shape_is_the_run_time_shape():
    class Net(nn.Cell):
        def construct(self, x, a, b):
            if a > b:
                y = x[:2]
            else:
                y = x
            return y.sum(), y.shape

    x = _x(3, 2)
    with pytest.warns(RuntimeWarning, match="known only when the graph runs"):
        assert Net()(x, Tensor(5.0), Tensor(3.0))[1] == (2, 2)
    assert Net()(x, Tensor(1.0), Tensor(3.0))[1] == (3, 2)


def test_parameters_in_lists_and_tuples_of_a_cell_need_distinct_names():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.param_tuple = (Parameter(Tensor([1.0]), name="name_b"), Parameter(Tensor([2.0])))
            self.param_list = [Parameter(Tensor([3.0]), name="name_b"), Parameter(Tensor([4.0]))]

    with pytest.raises(ValueError, match="its name 'name_b' already exists"):
        Net()

    class Fine(nn.Cell):
        def __init__(self):
            super().__init__()
            shared = Parameter(Tensor([1.0]), name="shared")
            self.a = (shared, Parameter(Tensor([2.0])))
            self.b = [shared, Parameter(Tensor([3.0]))]     # the same Parameter again, and unnamed ones

    Fine()


def test_all_scenarios_fibonacci_on_a_tensor():
    """design/all_scenarios.md's recursive @jit fibonacci, called on a tensor (2.10 did not finish compiling it in
    600 s): a recursion under a tensor condition runs as Python, and gives fib(7)."""
    @ms.jit
    def fibonacci(n):
        if n < 1:
            return 0
        if n == 1:
            return 1
        return fibonacci(n - 1) + fibonacci(n - 2)

    with pytest.warns(RuntimeWarning, match="JIT fallback"):
        assert int(fibonacci(Tensor(7))) == 13
    assert fibonacci(10) == 55
