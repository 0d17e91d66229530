"""Softmax over an inner axis, image resizing and adaptive average pooling give MindSpore 2.10's CPU numbers bit for
bit (float32), forward and gradient, in PYNATIVE and GRAPH_MODE.

2.10 takes Softmax over an axis other than the last with nnacl's plain loop (the C library's ``expf``, the sum in
axis order, then a division; 197 of 480 values differed), interpolates bilinearly along W before H, and adds the
resize gradients pixel by pixel into their source pixels (the order of those additions decides the last bits);
adaptive average pooling sums each window in double, and its gradient adds each input's shares in double.
Recorded by ``tests/fixtures/float32_nn/record.py``."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _bits_recorded import assert_same_bits, load  # noqa: E402

CASES, EXPECTED = load("float32_nn")


def test_every_recorded_case_is_replayed():
    assert sorted(CASES) == sorted(EXPECTED.files)


@pytest.mark.parametrize("name", sorted(EXPECTED.files))
def test_same_bits_as_mindspore_210(name):
    assert_same_bits(CASES[name](), EXPECTED[name])
