"""``mindspore.ops``' remaining functions (``ops.function.misc2_func``, ``mindspore._ops_misc_ext``) and the
operator registration builders (``ops.op_info_register``); MindSpore's own answers are replayed by
``test_misc_names.py``."""
import os

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore.ops import composite as C


def _t(a, dtype=np.float32):
    return ms.Tensor(np.asarray(a, dtype))


def test_cond_matches_numpy():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4, 4)).astype(np.float32) + 4 * np.eye(4, dtype=np.float32)
    for p in (None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        got = ops.cond(_t(a), p).asnumpy()
        want = np.linalg.cond(a.astype(np.float64), p)
        np.testing.assert_allclose(got, want, rtol=2e-4, err_msg=str(p))
    with pytest.raises(ValueError):
        ops.cond(_t([1.0, 2.0]))
    with pytest.raises(ValueError):
        ops.cond(_t(a), 3)


def test_derivative_jet_linearize_against_calculus():
    x = np.array([0.3, 1.0, 2.0], np.float32)
    out, d3 = ops.derivative(ops.sin, _t(x), 3)
    np.testing.assert_allclose(out.asnumpy(), np.sin(x), rtol=1e-6)
    np.testing.assert_allclose(d3.asnumpy(), -np.cos(x), rtol=1e-5)
    _, d2 = ops.derivative(lambda v: ops.exp(v * 2), _t(x), 2)
    np.testing.assert_allclose(d2.asnumpy(), 4 * np.exp(2 * x), rtol=1e-5)
    # jet: x(t) = x + s1 t + s2 t^2/2 ; y' = f' s1 ; y'' = f'' s1^2 + f' s2 ; y''' = f''' s1^3 + 3 f'' s1 s2 + f' s3
    s = np.array([[1.0, 0.5, 2.0], [0.0, 1.0, 0.5], [2.0, 0.0, 1.0]], np.float32)
    out, series = ops.jet(ops.sin, _t(x), _t(s))
    f1, f2, f3 = np.cos(x), -np.sin(x), -np.cos(x)
    want = np.stack([f1 * s[0], f2 * s[0] ** 2 + f1 * s[1], f3 * s[0] ** 3 + 3 * f2 * s[0] * s[1] + f1 * s[2]])
    np.testing.assert_allclose(series.asnumpy(), want, rtol=1e-5, atol=1e-6)
    a, b = _t([1.0, 2.0]), _t([3.0, 4.0])
    out, jvp_fn = ops.linearize(ops.mul, (a, b))
    np.testing.assert_allclose(out.asnumpy(), [3.0, 8.0])
    np.testing.assert_allclose(jvp_fn((_t([1.0, 1.0]), _t([1.0, 0.0]))).asnumpy(), [4.0, 4.0])
    with pytest.raises(ValueError):
        ops.derivative(ops.sin, _t(x), 0)


def test_J_and_get_grad_and_recompute_block():
    x = _t([1.0, 2.0])
    out, bprop = ops.J(lambda v: v * v)(x)
    np.testing.assert_allclose(out.asnumpy(), [1.0, 4.0])
    np.testing.assert_allclose(bprop(_t([1.0, 1.0]))[0].asnumpy(), [2.0, 4.0])
    assert ops.get_grad is ms.get_grad
    g = ms.grad(lambda v: ops.recompute_block(lambda y: ops.sin(y) * y, v).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), np.cos([1, 2]) * [1, 2] + np.sin([1, 2]), rtol=1e-5)
    assert C.recompute_block is ops.recompute_block


def test_tensor_helpers(tmp_path):
    x = _t([[1.0, 2.0], [3.0, 4.0]])
    cast = ops.mixed_precision_cast(ms.float16, {"a": x, "b": [x, 1], "c": ms.Tensor([1], ms.int32)})
    assert cast["a"].dtype == ms.float16 and cast["b"][0].dtype == ms.float16 and cast["b"][1] == 1
    assert cast["c"].dtype == ms.int32
    y = ops.move_to(x, "CPU")
    assert y is not x and y.asnumpy().tolist() == x.asnumpy().tolist()
    with pytest.raises(ValueError):
        ops.move_to(x, "GPU")
    base = str(tmp_path / "dump" / "t")
    ops.tensordump(base, x)
    files = os.listdir(tmp_path / "dump")
    assert len(files) == 1 and files[0].startswith("t_float32_") and files[0].endswith(".npy")
    np.testing.assert_array_equal(np.load(tmp_path / "dump" / files[0]), x.asnumpy())
    np.testing.assert_array_equal(ops.reshape_(x, (4,)).asnumpy(), [1, 2, 3, 4])
    assert isinstance(ops.reshape_, ops.Reshape)


def test_stop_gradient_inplace():
    def f(v):
        w = v * 2
        ops.stop_gradient_(w)
        return (w * v).sum()
    g = ms.grad(f)(_t([1.0, 2.0]))
    np.testing.assert_allclose(g.asnumpy(), [2.0, 4.0])   # w is a constant: d(w v)/dv = w


def test_control_helpers():
    assert ops.switch(_t(True, np.bool_), "a", "b") == "a" and ops.switch(False, "a", "b") == "b"
    branches = (ops.sin, ops.cos)
    np.testing.assert_allclose(ops.switch_layer(ms.Tensor(1, ms.int32), branches)(_t([0.0])).asnumpy(), [1.0])
    with pytest.raises(IndexError):
        ops.switch_layer(2, branches)
    x = _t([1.0])
    f_out, t_out = ops.geswitch(x, _t(True, np.bool_))
    assert f_out is None and t_out is x
    value, index = ops.merge(ops.geswitch(x, False))
    assert value is x and int(index.asnumpy()) == 0
    with pytest.raises(ValueError):
        ops.merge((None, None))
    assert ops.is_tensor_bool_cond(_t([1.0])) is True and ops.is_tensor_bool_cond(3) is False
    assert ops.is_dynamic_sequence_element_unknown([1]) is False


def test_environments_and_sequences():
    env = ops.environ_create()
    e1 = ops.environ_set(env, "k", _t([1.0]))
    assert ops.environ_get(env, "k", 0) == 0
    np.testing.assert_allclose(ops.environ_get(e1, "k", None).asnumpy(), [1.0])
    merged = ops.environ_add(e1, ops.environ_set(ops.environ_create(), "k", _t([2.0])))
    np.testing.assert_allclose(C.env_get(merged, "k", None).asnumpy(), [3.0])
    with pytest.raises(TypeError):
        ops.environ_set({}, "k", 1)
    assert C.iter_converter([1, 2]) == (1, 2) and C.iter_converter({"a": 1}) == ("a",)
    assert C.ms_hasnext((1,)) and not C.ms_hasnext(())
    assert C.ms_next((1, 2, 3)) == (1, (2, 3))
    assert ops.tail((1, 2, 3)) == (2, 3) and C.tail is ops.tail
    assert ops.zip_operation((1, 2), (3, 4)) == ((1, 3), (2, 4))
    s = ops.hyper_add((_t([1.0]), (_t([2.0]), 3)), (_t([1.0]), (_t([1.0]), 4)))
    assert s[0].asnumpy().tolist() == [2.0] and s[1][0].asnumpy().tolist() == [3.0] and s[1][1] == 7
    x = _t(np.arange(6).reshape(2, 3))
    np.testing.assert_allclose(ops.array_reduce(ops.add, x, 0).asnumpy(), [3, 5, 7])
    np.testing.assert_allclose(ops.array_reduce(ops.maximum, x, (0, 1)).asnumpy(), 5)
    assert ops.SliceGetItem(slice(1, 5, 2), "stop") == 5


def test_flags_and_registries():
    @C.add_flags(a=True)
    def f():
        return 1
    assert f._func_graph_flags == {"a": True}
    assert C.add_flags(f, b=False)._func_graph_flags == {"a": True, "b": False}

    class MyPrim(ops.Primitive):
        @ops.prim_arg_register
        def __init__(self, k, scale=2.0):
            pass
    p = MyPrim(3)
    assert (p.name, p.k, p.scale) == ("MyPrim", 3, 2.0)

    @ops.vm_impl_registry.register("MyPrim")
    def impl(a):
        return a + 1
    assert ops.get_vm_impl_fn(p) is impl and ops.get_vm_impl_fn("Nothing") is None
    reg = ops.tensor_operator_registry
    assert reg.get("add") is ops.add and reg.abs is ops.abs
    with pytest.raises(ValueError):
        reg.get("no_such_op")


def test_op_info_register_and_custom_info_register():
    from mindspore.ops.op_info_register import OP_INFO_REGISTRY
    info = ops.CpuRegOp("MyCpuOp").input(0, "x", "required").output(0, "y", "required") \
        .dtype_format(ops.DataType.F32_Default, ops.DataType.F32_Default).get_op_info()

    @ops.op_info_register(info)
    def my_cpu_op():
        return "impl"
    assert my_cpu_op() == "impl"
    entry = OP_INFO_REGISTRY[("MyCpuOp", "CPU")]
    assert entry["info"]["dtype_format"] == [[["float32", "DefaultFormat"], ["float32", "DefaultFormat"]]]
    assert entry["impl_path"].endswith("test_ops_misc2.py")
    with pytest.raises(ValueError):
        ops.op_info_register("{not json")(my_cpu_op)
    reg = ops.CustomRegOp().input(0, "x").output(0, "y").target("CPU").get_op_info()

    @ops.custom_info_register(reg)
    def kernel(a):
        return a
    assert kernel.reg_info == (reg,) and kernel(1) == 1


def test_p2pop():
    x = _t([1.0])

    def isend():
        return None
    op = ops.P2POp(isend, x, 1, group="g", tag=3)
    assert (op.op_name, op.peer, op.group, op.tag) == ("isend", 1, "g", 3)
    with pytest.raises(TypeError, match="Expected op to be of type isend or irecv"):
        ops.P2POp(nn.ReLU(), x, 0)


def test_tcp_store_between_a_master_and_a_client():
    import datetime
    import threading
    master = ops.TCPStore("127.0.0.1", 0, is_master=True, timeout=datetime.timedelta(seconds=5))
    client = ops.TCPStore("127.0.0.1", master.port, timeout=datetime.timedelta(seconds=5))
    master.set("k", "v1")
    assert client.get("k") == b"v1"
    client.set("bin", b"\x00\x01")
    assert master.get("bin") == b"\x00\x01"
    assert master.add("n", 2) == 2 and client.add("n", 5) == 7 and master.get("n") == b"7"
    assert client.delete_key("k") is True and client.delete_key("k") is False
    threading.Timer(0.2, lambda: master.set("late", "x")).start()
    assert client.get("late") == b"x"    # waits until another store sets it
    short = ops.TCPStore("127.0.0.1", master.port, timeout=datetime.timedelta(seconds=0.3))
    with pytest.raises(RuntimeError, match="Wait timeout"):
        short.get("never")
    with pytest.raises(RuntimeError, match="not an integer"):
        master.add("bin", 1)
    with pytest.raises(TypeError):
        master.set(1, "x")
    with pytest.raises(TypeError):
        master.set("x", 1.5)


def test_functional_has_the_transforms_of_ops():
    from mindspore.ops import functional
    for name in ("grad", "value_and_grad", "jvp", "vjp", "jacfwd", "jacrev", "vmap", "partial", "derivative", "jet",
                 "linearize", "get_grad", "recompute_block"):
        assert getattr(functional, name) is getattr(ops, name), name
