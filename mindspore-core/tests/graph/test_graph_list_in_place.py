"""In-place methods on a global or closure list in a compiled function (static_graph.md, "Supporting List Inplace
Modification Operations"; results recorded from MindSpore 2.10): under JIT_SYNTAX_LEVEL LAX, ``extend``, ``pop``,
``reverse`` and ``insert`` change the caller's list itself, at every call, and the graph returns that very object;
``append`` (and everything under STRICT) changes the graph's copy only."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn

GLOBAL = [1, 2, 3, 4]


class Reverse(nn.Cell):
    @ms.jit
    def construct(self):
        GLOBAL.reverse()
        return GLOBAL


def test_global_list_reversed_in_place_at_every_call():
    GLOBAL[:] = [1, 2, 3, 4]
    net = Reverse()
    out = net()
    assert out is GLOBAL and GLOBAL == [4, 3, 2, 1]
    out = net()
    assert out is GLOBAL and GLOBAL == [1, 2, 3, 4]


def test_extend_pop_insert_change_a_closure_list_and_append_does_not():
    items = [1, 2]

    @ms.jit
    def f(x):
        items.extend([7, 8])
        items.insert(0, 0)
        items.pop()
        return x + 1, items

    out, same = f(Tensor(np.array(1)))
    assert int(out.asnumpy()) == 2 and same is items and items == [0, 1, 2, 7]

    kept = [1, 2]

    @ms.jit
    def g(x):
        kept.append(3)
        return x + 1, kept

    _, copy = g(Tensor(np.array(1)))
    assert copy == [1, 2, 3] and copy is not kept and kept == [1, 2]


def test_strict_syntax_level_changes_only_the_copy():
    items = [1, 2, 3]

    @ms.jit
    def f():
        items.reverse()
        return items

    ms.set_context(jit_syntax_level=ms.STRICT)
    try:
        out = f()
    finally:
        ms.set_context(jit_syntax_level=ms.LAX)
    assert out == [3, 2, 1] and items == [1, 2, 3]


@pytest.mark.parametrize("where", ["list", "args"])
def test_a_list_holding_graph_values_changes_only_the_copy(where):
    items = [1, 2]

    @ms.jit
    def f(x):
        if where == "list":
            items.insert(0, x)
            items.reverse()
        else:
            items.extend([x * 2])
        return items[-1]

    f(Tensor(np.array(5.0, np.float32)))
    assert items == [1, 2]
