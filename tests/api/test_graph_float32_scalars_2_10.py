"""Python floats in a graph are float32, as in MindSpore 2.10 (its FP32Imm): constants, attributes, arguments and
every number a graph computes, so ``0.1 + 0.2 == 0.3`` holds in GRAPH_MODE and a scale computed in ``construct``
(``x * (self.alpha / self.r)``, ``x * (1.0 / d ** 0.5)``) multiplies a tensor by 2.10's float32 factor, float64
tensors included. PYNATIVE computes numbers in Python's doubles, in both, but an operator given a Python float takes
it as a float32 there too (a fill keeps the double).

Expected values: ``tests/fixtures/graph_float32/graph_float32_2.10.json``, recorded on 2.10 by ``record.py`` there
from the cases in ``cases.py`` (values compared exactly, as hex)."""
import json
import pathlib
import sys

import pytest

import mindspore as ms

HERE = pathlib.Path(__file__).resolve().parent
FIXTURE = HERE.parent / "fixtures" / "graph_float32"
sys.path.insert(0, str(FIXTURE))
import cases  # noqa: E402

RECORDED = json.loads((FIXTURE / "graph_float32_2.10.json").read_text())
NAMES = [name for name, _, _ in cases.cases()]


@pytest.fixture
def restore_mode():
    before = ms.get_context("mode")
    yield
    ms.set_context(mode=before)


@pytest.mark.parametrize("mode", ["graph", "pynative"])
@pytest.mark.parametrize("name", NAMES)
def test_numbers_in_a_graph_are_float32_as_in_2_10(name, mode, restore_mode):
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    make, inputs = next((m, i) for n, m, i in cases.cases() if n == name)
    got = cases.as_plain(make()(*inputs))
    expected = RECORDED[mode][name]
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g == e, f"output {i}: ours {g}, 2.10 {e}"


def test_a_jit_function_in_pynative_mode_computes_numbers_in_float32(restore_mode):
    ms.set_context(mode=ms.PYNATIVE_MODE)

    @ms.jit
    def scale(x, d):
        return x * (1.0 / d ** 0.5), 0.1 + 0.2 == 0.3, 1 / 3

    x = ms.Tensor([1.0], ms.float64)
    y, eq, third = scale(x, 48)
    assert float(y.asnumpy()[0]) == 0.14433756470680237      # 1 / float32(sqrt(48)) in float32 (2.10)
    assert eq is True and third == 0.3333333432674408
    assert 1.0 / 48 ** 0.5 == 0.14433756729740646             # Python's double, which PYNATIVE keeps


EAGER = sorted(RECORDED["eager"])


@pytest.mark.parametrize("name", EAGER)
def test_an_operator_takes_a_python_float_as_2_10_does(name, restore_mode):
    """PYNATIVE: a Python float given to an operator is a float32 number (``x * 0.1`` on a float64 tensor scales by
    0.10000000149011612, as in 2.10); a fill (full, fill, index_fill, pad, ``Tensor(0.1, float64)``) keeps the
    double."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    value = cases.eager_cases()[name]()
    assert [str(value.dtype), cases.as_plain(value)] == RECORDED["eager"][name]
