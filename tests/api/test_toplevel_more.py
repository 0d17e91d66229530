"""Top-level names of MindSpore 2.10: the random generators, dtype classes, frombuffer/swap_tensors,
set_deterministic, run_check, jit_class. Expected values and messages are what real MindSpore 2.10 gives
(CPU); its mint random functions do not run on CPU, so their numbers are checked for reproducibility only.
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import mint, nn


@pytest.fixture
def fresh_default_generator():
    from mindspore.common import generator
    saved = (generator.default_generator._seed, generator.default_generator._offset,
             generator.default_generator._seeded)
    yield generator.default_generator
    (generator.default_generator._seed, generator.default_generator._offset,
     generator.default_generator._seeded) = saved


def state(g=None):
    return (g.get_state() if g is not None else ms.get_rng_state()).asnumpy().tolist()


def test_generator_state_moves_as_mindspores(fresh_default_generator):
    assert ms.manual_seed(7) is ms.default_generator
    assert ms.initial_seed() == 7
    assert state() == [7] + [0] * 15            # seed then offset, int64 little-endian (uint8 x 16)
    assert ms.get_rng_state().dtype == ms.uint8
    mint.rand(3)
    assert state() == [7] + [0] * 7 + [12] + [0] * 7    # one draw moves the offset by 12
    g = ms.Generator()
    assert g.initial_seed() == 0 and state(g) == [0] * 16
    g.manual_seed(2 ** 40)
    assert state(g) == [0, 0, 0, 0, 0, 1] + [0] * 10
    g.manual_seed(5)
    seed, offset = g._step(4)
    assert (seed, offset) == (5, 0) and state(g) == [5] + [0] * 7 + [4] + [0] * 7
    s = g.seed()
    assert g.initial_seed() == s and isinstance(s, int)


def test_generators_reproduce_their_draws(fresh_default_generator):
    ms.manual_seed(11)
    saved = ms.get_rng_state()
    a = mint.rand(4).asnumpy()
    b = mint.rand(4).asnumpy()
    assert not np.array_equal(a, b)
    ms.set_rng_state(saved)
    np.testing.assert_array_equal(mint.rand(4).asnumpy(), a)
    g = ms.Generator().manual_seed(3)
    x = mint.randn(2, 3, generator=g).asnumpy()
    g.manual_seed(3)
    np.testing.assert_array_equal(mint.randn(2, 3, generator=g).asnumpy(), x)
    for draw in (lambda gen: mint.randint(0, 100, (5,), generator=gen), lambda gen: mint.randperm(6, generator=gen),
                 lambda gen: mint.normal(0.0, 1.0, (3,), generator=gen),
                 lambda gen: mint.bernoulli(ms.Tensor([0.5] * 8), generator=gen),
                 lambda gen: mint.multinomial(ms.Tensor([0.2, 0.3, 0.5]), 2, generator=gen)):
        first = draw(ms.Generator().manual_seed(21)).asnumpy()
        np.testing.assert_array_equal(draw(ms.Generator().manual_seed(21)).asnumpy(), first)
    t = ms.Tensor(np.zeros(5, np.float32))
    t.uniform_(generator=ms.Generator().manual_seed(1))
    u = ms.Tensor(np.zeros(5, np.float32)).uniform_(generator=ms.Generator().manual_seed(1))
    np.testing.assert_array_equal(t.asnumpy(), u.asnumpy())
    assert ((t.asnumpy() >= 0) & (t.asnumpy() < 1)).all()


def test_a_compiled_graph_draws_from_its_generator_at_each_call():
    g = ms.Generator()

    @ms.jit
    def f(x):
        return x + mint.rand(2, generator=g)
    zero = ms.Tensor(np.zeros(2, np.float32))
    g.manual_seed(9)
    r1, r2 = f(zero).asnumpy(), f(zero).asnumpy()
    assert not np.array_equal(r1, r2) and state(g)[8] == 24
    g.manual_seed(9)
    np.testing.assert_array_equal(f(zero).asnumpy(), r1)


def test_generator_errors():
    with pytest.raises(TypeError, match="Seed must be an integer."):
        ms.Generator().manual_seed(1.5)
    with pytest.raises(TypeError, match="State data type must be UInt8, but got Int64"):
        ms.Generator().set_state(ms.Tensor([1, 2, 3]))
    with pytest.raises(TypeError, match="'generator' must be a mindspore.Generator"):
        mint.rand(2, generator=5)


def test_dtype_classes():
    assert isinstance(ms.int32, ms.Int) and isinstance(ms.int8, ms.Int)
    assert not isinstance(ms.float32, ms.Int) and not isinstance(ms.uint8, ms.Int)
    assert ms.Int(16) == ms.int16 and str(ms.Int()) == "Int"
    assert str(ms.TensorType(ms.float32)) == "Tensor[Float32]"
    members = list(ms.QuantDtype)
    assert len(members) == 32 and members[0].name == "INT1" and members[0].value == 0
    assert ms.QuantDtype.UINT16.value == 115 and ms.QuantDtype.UINT4.num_bits() == 4


def test_dtype_repr_is_the_python_name():
    # 2.10: print([t.shape, t.dtype]) shows "[(2,), mindspore.float32]"; str() stays "Float32"
    assert repr([ms.float32, ms.bool_, ms.uint8, ms.bfloat16]) == (
        "[mindspore.float32, mindspore.bool, mindspore.uint8, mindspore.bfloat16]")
    assert repr((ms.string, ms.type_none, ms.list_)) == "(mindspore.string_, mindspore.type_none, mindspore.list_)"
    assert str(ms.float32) == f"{ms.float32}" == "Float32"


def test_frombuffer_and_swap_tensors():
    raw = np.arange(4, dtype=np.float32).tobytes()
    x = ms.frombuffer(raw, ms.float32)
    assert x.dtype == ms.float32 and x.asnumpy().tolist() == [0, 1, 2, 3]
    assert ms.frombuffer(raw, ms.float32, count=2, offset=4).asnumpy().tolist() == [1, 2]
    with pytest.raises(ValueError, match=r"buffer length \(3 bytes\) after offset \(0 bytes\) must be a multiple "
                                         r"of element size \(4\)"):
        ms.frombuffer(b"abc", ms.float32)
    a, c = ms.Tensor([1.0, 2.0]), ms.Tensor([3, 4, 5])
    ms.swap_tensors(a, c)
    assert a.asnumpy().tolist() == [3, 4, 5] and a.dtype == ms.int64
    assert c.asnumpy().tolist() == [1, 2] and c.dtype == ms.float32


def test_set_deterministic_and_run_check(capsys):
    before = ms.get_context("deterministic")
    try:
        ms.set_deterministic(True)
        assert ms.get_context("deterministic") == "ON"
        ms.set_deterministic(False)
        assert ms.get_context("deterministic") == "OFF"
        with pytest.raises(TypeError, match="The parameter 'deterministic' must be <class 'bool'>, but got "
                                            "<class 'str'>"):
            ms.set_deterministic("on")
    finally:
        ms.set_context(deterministic=before)
    ms.run_check()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "MindSpore version:  2.10.0"
    assert out[1].startswith("The result of multiplication calculation is correct, MindSpore has been installed on "
                             "platform [")


def test_jit_class_objects_in_compiled_code():
    @ms.jit_class
    class Scaler:
        def __init__(self, k):
            self.k = k

        def apply(self, x):
            return x * self.k
    s = Scaler(3.0)

    @ms.jit
    def f(x):
        return s.apply(x) + s.k
    assert f(ms.Tensor(np.ones(2, np.float32))).asnumpy().tolist() == [6, 6]
    with pytest.raises(TypeError, match="can only be used for class type, but got 3"):
        ms.jit_class(3)
    with pytest.raises(TypeError, match="cannot be used for nn.Cell"):
        ms.jit_class(nn.Dense)


def test_metrics_at_the_top_level_are_trains():
    for name in ("ROC", "BleuScore", "CosineSimilarity", "Dice", "Perplexity", "auc"):
        assert getattr(ms, name) is getattr(ms.train, name)


def test_load_and_save_mindir_round_trip_the_model_proto(tmp_path):
    net = nn.Dense(3, 2)
    ms.export(net, ms.Tensor(np.ones((1, 3), np.float32)), file_name=str(tmp_path / "dense"), file_format="MINDIR")
    model = ms.load_mindir(str(tmp_path / "dense.mindir"))
    assert len(model.graph.node) > 0
    model.user_info["version"] = "pangu v100"
    ms.save_mindir(model, str(tmp_path / "edited"))                      # ".mindir" is appended
    again = ms.load_mindir(str(tmp_path / "edited.mindir"))
    assert again.user_info["version"] == "pangu v100"
    assert again.graph.SerializeToString() == model.graph.SerializeToString()
    loaded = ms.load(str(tmp_path / "edited.mindir"))                     # still a model ms.load runs
    x = ms.Tensor(np.ones((1, 3), np.float32))
    np.testing.assert_allclose(nn.GraphCell(loaded)(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)
    with pytest.raises(TypeError, match="'model' must be a ModelProto"):
        ms.save_mindir({"graph": 1}, str(tmp_path / "bad"))
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_mindir(str(tmp_path / "missing.mindir"))
    (tmp_path / "junk.mindir").write_bytes(b"\xff\xff\xff\xff not a proto")
    with pytest.raises(ValueError, match="is not a MindIR model"):
        ms.load_mindir(str(tmp_path / "junk.mindir"))
