"""``ops.Custom(..., func_type="aot")`` on the CPU: C++ kernel libraries, prebuilt or compiled from source, with
attributes, workspaces and C++ shape/type inference, in PYNATIVE and GRAPH_MODE (the kernels are in ``aot/``).

Expected values are NumPy's, and MindSpore 2.10's for the documentation page's own example (``doc_reduce``)."""
import os
import shutil
import subprocess

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.ops import CustomRegOp, DataType

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="AOT kernels are compiled with g++")

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "aot")


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MS_COMPILER_CACHE_PATH", str(tmp_path / "kernel_meta"))
    monkeypatch.delenv("MS_CUSTOM_AOT_WHITE_LIST", raising=False)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _build(tmp_path, name, *flags):
    """Compile aot/<name>.cc as a user would, by hand; returns the library path."""
    lib = str(tmp_path / f"{name}.so")
    subprocess.run(["g++", "--shared", "-fPIC", f"-I{os.path.dirname(ms.__file__)}/include/api", *flags, "-o", lib,
                    os.path.join(HERE, f"{name}.cc")], check=True)
    return lib


def _reg(*attrs, outputs=1, target="CPU"):
    reg = CustomRegOp("aot_test").input(0, "x1").input(1, "x2")
    for i in range(outputs):
        reg = reg.output(i, f"y{i}")
    reg = reg.dtype_format(*([DataType.None_None] * (2 + outputs)))
    for name, value in attrs:
        reg = reg.attr(name, "required", "all", value=value)
    return reg.target(target).get_op_info()


X = np.array([[0.0, 0.0], [1.0, 1.0]], np.float32)
Y = np.array([[2.0, 2.0], [3.0, 3.0]], np.float32)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_prebuilt_library_adds_in_both_modes(tmp_path, mode):
    ms.set_context(mode=mode)
    op = ops.Custom(_build(tmp_path, "add") + ":CustomAdd", out_shape=lambda x, _: x, out_dtype=lambda x, _: x,
                    func_type="aot")

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = op

        def construct(self, a, b):
            return self.op(a, b) * 2

    np.testing.assert_array_equal(op(Tensor(X), Tensor(Y)).asnumpy(), [[2, 2], [4, 4]])
    np.testing.assert_array_equal(Net()(Tensor(X), Tensor(Y)).asnumpy(), [[4, 4], [8, 8]])


def test_nonzero_return_is_the_kernels_error(tmp_path):
    op = ops.Custom(_build(tmp_path, "add") + ":CustomAdd", lambda x, _: x, lambda x, _: x, "aot")
    with pytest.raises(RuntimeError, match=r"function\(CustomAdd\) is 2\. Any return value not equal to 0"):
        op(Tensor(X.astype(np.float64)), Tensor(Y.astype(np.float64)))


@pytest.mark.parametrize("axis,keep_dim", [(0, False), (1, False), (0, True), (1, True)])
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_source_with_attributes_workspace_and_cpp_inference(axis, keep_dim, mode):
    ms.set_context(mode=mode)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            # out_shape and out_dtype None: AddReduceInferShape / AddReduceInferType decide
            self.op = ops.Custom(os.path.join(HERE, "add_reduce.cc") + ":AddReduce", None, None, "aot",
                                 reg_info=_reg(("axis", axis), ("keep_dim", keep_dim)))

        def construct(self, x, y):
            return self.op(x, y)

    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((3, 5)).astype(np.float32), rng.standard_normal((3, 5)).astype(np.float32)
    net = Net()
    for _ in range(2):     # the second call reuses the kernel (FuncInit ran once) and its workspace
        out = net(Tensor(x), Tensor(y))
        assert out.dtype == ms.float32
        np.testing.assert_allclose(out.asnumpy(), (x + y).sum(axis, keepdims=keep_dim), rtol=1e-6)
    assert len(net.op.aot_kernels) == 1
    # compiled from source into $MS_COMPILER_CACHE_PATH as <file>.so, as MindSpore 2.10 does
    assert os.path.isfile(os.path.join(os.environ["MS_COMPILER_CACHE_PATH"], "add_reduce.cc.so"))


def test_doc_example_matches_2_10():
    """The page's fused Add+ReduceSum kernel (its Add fills only as many workspace elements as the output has; the
    workspace starts zero-filled): 2.10 prints [10. 0. 0. 0.] for x = 1, y = arange(20) on a dynamic-shape net."""
    src = os.path.join(HERE, "doc_reduce.cc")

    class ReduceDynNet(nn.Cell):
        def __init__(self, out_types, axis, keep_dim):
            super().__init__()
            reduce_cpu_info = CustomRegOp("reduce_kernel_cpu").input(0, "x1").input(0, "x2").output(0, "y") \
                .dtype_format(DataType.None_None, DataType.None_None, DataType.None_None) \
                .attr("axis", "required", "all", value=axis).attr("keep_dim", "required", "all", value=keep_dim) \
                .target("CPU").get_op_info()
            self.program = ops.Custom(src + ":CustomKernel", None, out_types, "aot", reg_info=reduce_cpu_info)

        def construct(self, x, y):
            return self.program(x, y)

    test = ReduceDynNet(ms.float32, 1, False)
    test.set_inputs(Tensor(shape=[4, None], dtype=ms.float32), Tensor(shape=[4, None], dtype=ms.float32))
    out = test(Tensor(np.ones((4, 5), np.float32)), Tensor(np.arange(20, dtype=np.float32).reshape(4, 5)))
    assert out.shape == (4,)
    np.testing.assert_array_equal(out.asnumpy(), [10.0, 0.0, 0.0, 0.0])


@pytest.mark.parametrize("abi", ["0", "1"])
def test_every_attribute_kind_reaches_the_kernel(tmp_path, abi):
    # a library built with either C++ string ABI gets a bridge of its own
    lib = _build(tmp_path, "attrs", f"-D_GLIBCXX_USE_CXX11_ABI={abi}")
    attrs = [("b", True), ("i", -7), ("f", 2.5), ("s", "hello"), ("iv", [1, 2, 3]), ("fv", [0.5, 1.5]),
             ("i2", [[1, 2], [3, 4]]), ("f2", [[0.25], [0.75]])]
    expected = [1, 0, 1, -7, 2.5, 5, 1, 2, 3, 0.5, 1.5, 1, 2, 3, 4, 0.25, 0.75]
    op = ops.Custom(lib + ":Attrs", (len(expected),), ms.float64, "aot", reg_info=_reg(*attrs))
    np.testing.assert_array_equal(op(Tensor(X), Tensor(Y)).asnumpy(), expected)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_several_outputs_with_cpp_inference(tmp_path, mode):
    ms.set_context(mode=mode)
    op = ops.Custom(_build(tmp_path, "multi") + ":AddMulDiv", None, None, "aot",
                    reg_info=_reg(("scale", 2.0), ("mode", "plain"), outputs=3))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = op

        def construct(self, x, y):
            a, m, d = self.op(x, y)
            return (a + m) * d

    x = np.array([1.0, 2.0, 3.0], np.float32)
    y = np.array([4.0, 5.0, 8.0], np.float32)
    a, m, d = op(Tensor(x), Tensor(y))
    np.testing.assert_allclose(a.asnumpy(), 2 * (x + y))
    np.testing.assert_allclose(m.asnumpy(), 2 * x * y)
    np.testing.assert_allclose(d.asnumpy(), 2 * x / y)
    np.testing.assert_allclose(Net()(Tensor(x), Tensor(y)).asnumpy(), (2 * (x + y) + 2 * x * y) * (2 * x / y),
                               rtol=1e-6)


def test_gradient_through_bprop(tmp_path):
    def bprop(x, y, out, dout):
        return dout, dout

    op = ops.Custom(_build(tmp_path, "add") + ":CustomAdd", lambda x, _: x, lambda x, _: x, "aot", bprop=bprop)
    gx, gy = ms.grad(lambda a, b: (op(a, b) * op(a, b)).sum(), grad_position=(0, 1))(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(gx.asnumpy(), 2 * (X + Y))
    np.testing.assert_allclose(gy.asnumpy(), 2 * (X + Y))


def test_errors_name_the_problem(tmp_path, monkeypatch):
    lib = _build(tmp_path, "multi")
    with pytest.raises(TypeError, match=r"'func' must be of type str, but got <class 'int'>"):
        ops.Custom(3, lambda x: x, lambda x: x, "aot")
    with pytest.raises(TypeError, match=r"'func' should be like 'file_name:func_name', but got .*multi\.so$"):
        ops.Custom(lib, lambda x: x, lambda x: x, "aot")
    missing = ops.Custom(str(tmp_path / "nope.so") + ":F", lambda x, _: x, lambda x, _: x, "aot")
    with pytest.raises(RuntimeError, match=r"couldn't find the AOT binary file: .*nope\.so"):
        missing(Tensor(X), Tensor(Y))
    nosym = ops.Custom(lib + ":Nope", lambda x, _: x, lambda x, _: x, "aot")
    with pytest.raises(RuntimeError, match=r"fetching function 'Nope'.*undefined symbol: Nope"):
        nosym(Tensor(X), Tensor(Y))
    # a C++ exception in the kernel (an attribute it was not given) comes back as an error, not a crash
    unread = ops.Custom(lib + ":Missing", lambda x, _: x, lambda x, _: x, "aot", reg_info=_reg(("scale", 1.0)))
    with pytest.raises(RuntimeError, match=r"reads the attribute 'not_given'.*it gives: scale"):
        unread(Tensor(X), Tensor(Y))
    wrong_kind = ops.Custom(lib + ":AddMulDiv", None, None, "aot",
                            reg_info=_reg(("scale", "two"), ("mode", "plain"), outputs=3))
    with pytest.raises(RuntimeError, match=r"the attribute 'scale' is a str, which Attr<float> cannot read"):
        wrong_kind(Tensor(X), Tensor(Y))
    no_infer = ops.Custom(_build(tmp_path, "add") + ":CustomAdd", None, lambda x, _: x, "aot")
    with pytest.raises(ValueError, match=r"must define extern \"C\" CustomAddInferShape"):
        no_infer(Tensor(X), Tensor(Y))
    bad = tmp_path / "bad.cc"
    bad.write_text("int x\n")
    with pytest.raises(RuntimeError, match=r"Compilation error in compiling .*bad\.cc"):
        ops.Custom(str(bad) + ":F", lambda x: x, lambda x: x, "aot")
    monkeypatch.setenv("MS_CUSTOM_AOT_WHITE_LIST", str(tmp_path / "allowed"))
    with pytest.raises(TypeError, match=r"the legal path for the file is .*allowed, but the file is .*multi\.so"):
        ops.Custom(lib + ":AddMulDiv", None, None, "aot")


def test_a_network_with_an_aot_operator_deep_copies(tmp_path):
    import copy
    op = ops.Custom(_build(tmp_path, "add") + ":CustomAdd", lambda x, _: x, lambda x, _: x, "aot")
    net = nn.SequentialCell([nn.Identity()])
    net.op = op
    np.testing.assert_array_equal(net.op(Tensor(X), Tensor(Y)).asnumpy(), X + Y)   # kernels loaded
    twin = copy.deepcopy(net)              # (2.10 cannot copy a Custom: its copy passes 'name' to __init__)
    assert twin.op is not op and not twin.op.aot_kernels
    np.testing.assert_array_equal(twin.op(Tensor(X), Tensor(Y)).asnumpy(), X + Y)
