"""Parameter and ParameterTuple: construction, naming, flags, set_data, clone, printing (MindSpore 2.10)."""
import copy
import pickle

import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, ParameterTuple, Tensor
from mindspore.common.initializer import One, initializer


def f32(*values):
    return Tensor(np.array(values, np.float32))


# -- construction -----------------------------------------------------------------------------------------
def test_from_tensor_copies():
    t = f32(1, 2)
    p = Parameter(t, name="w")
    assert isinstance(p, Tensor) and isinstance(p, Parameter)
    assert p.shape == (2,) and p.dtype == ms.float32
    t.asnumpy()[0] = 9                        # writing to the source does not change the parameter
    np.testing.assert_array_equal(p.asnumpy(), [1, 2])


def test_from_an_initializer_takes_the_drawn_data_without_a_copy():
    # as in MindSpore, the initializer's tensor is consumed by the Parameter: its data is drawn once, into the
    # Parameter (a 100M-element layer holds one buffer, not two, while it is made)
    t = initializer(One(), (2, 3), ms.float32)
    p = Parameter(t, name="w")
    np.testing.assert_array_equal(p.asnumpy(), np.ones((2, 3)))
    assert p._buffer() is t._buffer()
    drawn = initializer(One(), (2,), ms.float32).init_data()     # data drawn before: the Parameter copies it
    q = Parameter(drawn, name="q")
    assert q._buffer() is not drawn._buffer()


def test_from_numpy_and_list():
    p = Parameter(np.ones((2, 3)), name="a")
    assert p.dtype == ms.float64 and p.shape == (2, 3)
    p = Parameter(np.arange(3, dtype=np.int32))
    assert p.dtype == ms.int32
    p = Parameter([1.0, 2.0])
    assert p.shape == (2,)


def test_from_python_numbers():
    # MindSpore makes int parameters Int32 (not Int64 like Tensor(1)) and float ones Float32
    p = Parameter(1)
    assert p.dtype == ms.int32 and p.shape == () and p.asnumpy() == 1
    p = Parameter(1.5)
    assert p.dtype == ms.float32 and p.shape == ()


def test_bool_and_bad_inputs_rejected():
    with pytest.raises(ValueError, match="bool"):
        Parameter(True)
    with pytest.raises(TypeError):
        Parameter("weights")
    with pytest.raises(TypeError):
        Parameter(None)


def test_from_initializer():
    p = Parameter(initializer(One(), (2, 2), ms.float16), name="ones")
    assert p.shape == (2, 2) and p.dtype == ms.float16
    np.testing.assert_array_equal(p.asnumpy(), np.ones((2, 2), np.float16))
    assert p.init_data() is p


def test_initializer_draws_in_creation_order():
    # MindSpore initialises a Parameter's data when the Parameter is created, so the seeded draws follow the
    # construction order, whatever order the parameters are used in later
    ms.set_seed(5)
    a = Parameter(initializer("normal", (3,)), name="a")
    b = Parameter(initializer("normal", (3,)), name="b")
    b_first = b.asnumpy().copy()
    a_second = a.asnumpy().copy()
    ms.set_seed(5)
    ref_a = initializer("normal", (3,)).init_data().asnumpy()
    ref_b = initializer("normal", (3,)).init_data().asnumpy()
    np.testing.assert_array_equal(a_second, ref_a)
    np.testing.assert_array_equal(b_first, ref_b)


# -- name and flags ---------------------------------------------------------------------------------------
def test_name():
    assert Parameter(f32(1)).name == "Parameter"
    p = Parameter(f32(1), name="w")
    assert p.name == "w"
    p.name = "layer.weight"
    assert p.name == "layer.weight"
    assert Parameter(f32(1), name="  w2 ").name == "w2"         # names are stripped
    assert Parameter(f32(1), name="").name == "Parameter"       # empty -> default
    with pytest.raises(ValueError, match="name"):
        Parameter(f32(1), name=3)
    with pytest.raises(ValueError):
        Parameter(f32(1), name="x" * 1025)


def test_requires_grad():
    p = Parameter(f32(1), name="w")
    assert p.requires_grad is True
    assert Parameter(f32(1), name="w", requires_grad=False).requires_grad is False
    p.requires_grad = False
    assert not p.requires_grad
    with pytest.raises(TypeError, match="requires_grad"):
        p.requires_grad = 1
    with pytest.raises(TypeError):
        Parameter(f32(1), name="w", requires_grad="yes")


def test_layerwise_and_parallel_optimizer_flags():
    p = Parameter(f32(1), name="w")
    assert p.layerwise_parallel is False and p.parallel_optimizer is True


# -- printing ---------------------------------------------------------------------------------------------
def test_repr_and_str():
    p = Parameter(f32(1, 2), name="w")
    assert repr(p) == "Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)"
    assert str(p) == repr(p)
    q = Parameter(Tensor(np.zeros((2, 3), np.int32)), name="idx", requires_grad=False)
    assert repr(q) == "Parameter (name=idx, shape=(2, 3), dtype=Int32, requires_grad=False)"
    assert repr(Parameter(2.0)) == "Parameter (name=Parameter, shape=(), dtype=Float32, requires_grad=True)"


# -- set_data ---------------------------------------------------------------------------------------------
def test_set_data_updates_in_place():
    p = Parameter(f32(1, 2), name="w")
    alias = p
    assert p.set_data(f32(3, 4)) is p
    np.testing.assert_array_equal(alias.asnumpy(), [3, 4])
    assert p.name == "w" and p.dtype == ms.float32


def test_set_data_shape_check():
    # MindSpore 2.10 does not check the shape in set_data (Parameter([1., 2.]).set_data(ones((1, 2, 3))) gives
    # shape (1, 2, 3) there); load_param_into_net checks shapes itself
    p = Parameter(f32(1, 2), name="w")
    p.set_data(f32(1, 2, 3))
    assert p.shape == (3,)
    p.set_data(f32(5, 6, 7, 8), slice_shape=True)
    assert p.shape == (4,)


def test_set_data_number_keeps_shape_rules():
    s = Parameter(Tensor(1.0), name="s")
    s.set_data(4)
    assert s.shape == () and s.dtype == ms.float32 and s.asnumpy() == 4.0
    p = Parameter(f32(1, 2), name="w")
    p.set_data(3.0)                               # a number is a 0-d tensor, which 2.10 takes as it is
    assert p.shape == () and p.asnumpy() == 3.0


def test_set_data_dtype_rules():
    p = Parameter(f32(1, 2), name="w")
    p.set_data(Tensor(np.array([7, 8], np.int32)))     # lower precision: implicitly cast
    assert p.dtype == ms.float32
    np.testing.assert_array_equal(p.asnumpy(), [7, 8])
    p.set_data(Tensor(np.array([1, 2], np.float16)))
    assert p.dtype == ms.float32
    with pytest.raises(TypeError, match="implicitly"):
        p.set_data(Tensor(np.array([1, 2], np.float64)))  # higher precision is refused
    i = Parameter(Tensor(np.array([1, 2], np.int32)), name="i")
    with pytest.raises(TypeError):
        i.set_data(1.5)                                    # a float into an int parameter
    with pytest.raises(TypeError):
        i.set_data(Tensor(np.array([1.5, 2.5], np.float32)))
    with pytest.raises(TypeError):
        i.set_data("3")


def test_set_data_from_initializer():
    p = Parameter(f32(5, 5, 5), name="w")
    p.set_data(initializer("zeros", (3,), ms.float32))
    np.testing.assert_array_equal(p.asnumpy(), [0, 0, 0])


# -- clone, copy, pickle ------------------------------------------------------------------------------------
def test_clone():
    p = Parameter(f32(1, 2), name="w", requires_grad=False)
    c = p.clone()
    assert c is not p and isinstance(c, Parameter)
    assert c.name == "w" and c.requires_grad is False and c.dtype == p.dtype
    np.testing.assert_array_equal(c.asnumpy(), [1, 2])
    c.set_data(f32(9, 9))
    np.testing.assert_array_equal(p.asnumpy(), [1, 2])     # independent data


def test_clone_with_init():
    p = Parameter(f32(1, 2), name="w")
    z = p.clone(init="zeros")
    np.testing.assert_array_equal(z.asnumpy(), [0, 0])
    assert z.name == "w" and z.dtype == ms.float32
    np.testing.assert_array_equal(p.clone(init=3).asnumpy(), [3, 3])
    np.testing.assert_array_equal(p.asnumpy(), [1, 2])


def test_deepcopy_and_pickle():
    p = Parameter(f32(1, 2), name="w", requires_grad=False)
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert isinstance(q, Parameter) and q is not p
        assert q.name == "w" and q.requires_grad is False
        np.testing.assert_array_equal(q.asnumpy(), [1, 2])


def test_value_and_data():
    p = Parameter(f32(1, 2), name="w")
    assert p.data is p
    v = p.value()
    assert isinstance(v, Tensor) and not isinstance(v, Parameter)
    np.testing.assert_array_equal(v.asnumpy(), [1, 2])


def test_parameter_in_arithmetic_is_a_tensor():
    p = Parameter(f32(1, 2), name="w")
    out = p * 2 + 1
    assert type(out) is Tensor
    np.testing.assert_array_equal(out.asnumpy(), [3, 5])


# -- ParameterTuple ---------------------------------------------------------------------------------------
def test_parameter_tuple():
    a, b = Parameter(f32(1), name="a"), Parameter(f32(2), name="b")
    pt = ParameterTuple([a, b])
    assert isinstance(pt, tuple) and len(pt) == 2 and pt[0] is a and pt[1] is b
    from_gen = ParameterTuple(x for x in (a, b))
    assert from_gen[0] is a and from_gen[1] is b
    with pytest.raises(TypeError):
        ParameterTuple([a, f32(3)])


def test_parameter_tuple_clone():
    a, b = Parameter(f32(1), name="a"), Parameter(f32(2), name="b")
    pt = ParameterTuple([a, b])
    c = pt.clone("moments", init="zeros")
    assert isinstance(c, ParameterTuple)
    assert [p.name for p in c] == ["moments.a", "moments.b"]
    np.testing.assert_array_equal(c[1].asnumpy(), [0])
    np.testing.assert_array_equal(b.asnumpy(), [2])
    same = pt.clone("copy")
    np.testing.assert_array_equal(same[1].asnumpy(), [2])
