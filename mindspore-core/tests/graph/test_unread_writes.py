"""The ``unread_writes`` pass: ``x += y`` on a value the graph computed is written in place (MindSpore 2.10's
graph mode), and the write goes when nothing reads that value afterwards; a name that still reads it keeps it.
The values were printed by MindSpore 2.10 (CPU, GRAPH_MODE) for the same functions."""
import numpy as np
import pytest

import mindspore as ms
from mindspore._infer.specialize import specialize
from mindspore._ir import print_module
from mindspore._pipeline import passes
from mindspore.common.tensor import Tensor


def aliased(x):
    out = x * 2
    y = out
    out += 1
    return y, out          # 2.10: [3, 3], [3, 3]: y names the written value


def read_before(x):
    out = x * 2
    z = out * 10
    out += 1
    return z, out          # 2.10: [20, 20], [3, 3]


def in_branch(x, c):
    out = x * 2
    if c > 0:
        out += 1
    return out             # 2.10 (c = 1): [3, 3]


def _compiled(fn, *args):
    program = specialize(fn, args, name=fn.__name__)
    passes.run_pipeline(program.graph)
    return print_module(program.graph)


@pytest.mark.parametrize("fn,args,want,writes", [
    (aliased, (), [[3.0, 3.0], [3.0, 3.0]], True),
    (read_before, (), [[20.0, 20.0], [3.0, 3.0]], False),
])
def test_a_write_is_kept_exactly_when_a_later_read_sees_it(fn, args, want, writes):
    x = Tensor(np.ones((2,), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = ms.jit(fn)(x, *args)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert [g.asnumpy().tolist() for g in got] == want
    assert ("Assign(" in _compiled(fn, x, *args)) is writes


def test_a_write_in_a_branch_is_as_2_10():
    x = Tensor(np.ones((2,), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert ms.jit(in_branch)(x, Tensor(1)).asnumpy().tolist() == [3.0, 3.0]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
