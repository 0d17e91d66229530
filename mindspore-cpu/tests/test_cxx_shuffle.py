"""The extension's ``shuffle_words`` (libstdc++'s std::shuffle over drawn words) against the Python loop it
replaced in ``kernels/random.py``: the same permutation, and the engine left at the same point (the next words
equal), for both engines 2.10's seeded kernels use, on both of std::shuffle's paths (two elements a draw while
n * n fits the engine's range, one a draw past it) and around the batch refills."""
import numpy as np
import pytest

from mindspore_cpu.kernels import random as R
from mindspore_cpu.kernels._native import _kernels

ENGINES = [R.MinstdRand0, R._MT19937Words]


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__name__)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 17, 1000, 1001, 46340, 46341, 65535, 65536, 70001])
def test_native_shuffle_equals_the_loop_and_leaves_the_engine_in_step(engine, n):
    native, loop = engine(20261130), engine(20261130)
    assert np.array_equal(R.libstdcxx_shuffle(native, n), R._shuffle_loop(loop, n))
    assert np.array_equal(native.words(9), loop.words(9))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__name__)
def test_successive_shuffles_share_one_stream(engine):
    native, loop = engine(5), engine(5)
    for n in (10, 3000, 7, 50000):
        assert np.array_equal(R.libstdcxx_shuffle(native, n), R._shuffle_loop(loop, n))


def test_words_running_out_are_reported_not_guessed():
    perm, used = _kernels.shuffle_words(np.zeros(2, np.int64), 10, 0xFFFFFFFF)
    assert perm is None and used == -1
    perm, used = _kernels.shuffle_words(np.arange(1, 9, dtype=np.int64) * 1000003, 4, 0xFFFFFFFF)
    assert sorted(perm.tolist()) == [0, 1, 2, 3] and used == 2
    with pytest.raises(ValueError, match="n must be >= 0"):
        _kernels.shuffle_words(np.zeros(2, np.int64), -1, 5)
