"""``mindspore.plugin.compile_statistics``: the graph compiler's counters, public for tools and benchmarks."""
import numpy as np

import mindspore as ms
from mindspore.plugin import compile_statistics


def test_counts_compiles_and_reuses_and_times_the_last_compile():
    @ms.jit
    def f(x):
        return x * 3.0 + 1.0

    before = compile_statistics()
    x = ms.Tensor(np.ones((2, 3), np.float32))
    np.testing.assert_allclose(f(x).asnumpy(), np.full((2, 3), 4.0))
    after_first = compile_statistics()
    assert after_first["compiles"] == before["compiles"] + 1
    assert after_first["last_compile_s"] > 0.0
    f(x)
    after_second = compile_statistics()
    assert after_second["compiles"] == after_first["compiles"]
    assert after_second["hits"] == after_first["hits"] + 1


def test_the_dict_returned_is_a_copy():
    stats = compile_statistics()
    stats["compiles"] = -1
    assert compile_statistics()["compiles"] != -1
