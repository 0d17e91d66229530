"""The C++ random fills of initial weights (``_csrc/philox_fill.cpp``): the values do not depend on the kernels'
thread count, a buffer is written in C order, bad buffers are refused, and the plugin offers the fills to core.
Their bits against core's NumPy fills and MindSpore 2.10's: ``tests/api/test_init_fill.py`` and
``tests/api/test_init_streams_2_10.py``."""
import numpy as np
import pytest

from mindspore_cpu import plugin
from mindspore_cpu._kernels import (num_threads, philox_normal, philox_truncated_normal, philox_uniform,
                                    set_num_threads)

FILLS = {"uniform": (philox_uniform, (-0.3, 1.7)), "normal": (philox_normal, (0.25, 1.5)),
         "truncated_normal": (philox_truncated_normal, (-1.0, 3.0, 0.5, 2.0))}


@pytest.fixture
def threads():
    before = num_threads()
    yield set_num_threads
    set_num_threads(before)


@pytest.mark.parametrize("kind", sorted(FILLS))
def test_values_do_not_depend_on_the_thread_count(kind, threads):
    fill, args = FILLS[kind]
    for size in (5, 16385, 50001, 65539):
        for seed in (1, 2**63 - 1, 2**64 - 1):
            got = []
            for nt in (1, 2, 3):
                threads(nt)
                buf = np.full(size, np.nan, np.float32)
                fill(seed, buf, *args)
                got.append(buf.view(np.uint32))
            assert not np.isnan(got[0].view(np.float32)).any()
            np.testing.assert_array_equal(got[1], got[0], err_msg=f"{size} {seed}")
            np.testing.assert_array_equal(got[2], got[0], err_msg=f"{size} {seed}")


def test_a_buffer_is_one_stream_in_c_order_and_prefixes_agree():
    flat, square, head = np.zeros(21, np.float32), np.zeros((3, 7), np.float32), np.zeros(6, np.float32)
    philox_normal(7, flat, 0.0, 1.0)
    philox_normal(7, square, 0.0, 1.0)
    philox_normal(7, head, 0.0, 1.0)
    np.testing.assert_array_equal(square.reshape(-1), flat)
    np.testing.assert_array_equal(head, flat[:6])


def test_bad_buffers_and_arguments_are_refused():
    with pytest.raises(ValueError, match="float32"):
        philox_uniform(7, np.zeros(4), 0.0, 1.0)
    with pytest.raises(ValueError, match="C-contiguous"):
        philox_uniform(7, np.zeros((4, 4), np.float32)[:, 1], 0.0, 1.0)
    readonly = np.zeros(4, np.float32)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        philox_uniform(7, readonly, 0.0, 1.0)
    with pytest.raises(RuntimeError, match=r"^TruncatedNormal: invalid sigma 0\.$"):
        philox_truncated_normal(7, np.zeros(4, np.float32), -2.0, 2.0, 0.0, 0.0)
    with pytest.raises(TypeError):
        philox_uniform(-1, np.zeros(4, np.float32), 0.0, 1.0)


def test_the_plugin_offers_the_three_fills():
    assert plugin.ms_random_fills() == {"uniform": philox_uniform, "normal": philox_normal,
                                        "truncated_normal": philox_truncated_normal}


@pytest.mark.parametrize("name", ["logf", "expf"])
def test_libm_loops_are_the_c_librarys_functions(name):
    """libm_logf/libm_expf (the random kernels' float32 log and exp, 2.10's through libstdc++) call the C library's
    own function on each value: the same bits as calling it one value at a time through ctypes, shapes kept."""
    import ctypes
    import ctypes.util
    from mindspore_cpu import _kernels
    lib = ctypes.util.find_library("m")
    if not lib:
        pytest.skip("no C math library to compare with")
    fn = getattr(ctypes.CDLL(lib), name)
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    x = np.random.default_rng(3).uniform(-20 if name == "expf" else 1e-6, 20, 20000).astype(np.float32)
    want = np.fromiter(map(fn, x.tolist()), np.float32, x.size)
    got = getattr(_kernels, "libm_" + name)(x.reshape(100, 200))
    assert got.shape == (100, 200) and got.dtype == np.float32
    np.testing.assert_array_equal(got.reshape(-1).view(np.uint32), want.view(np.uint32))
    with pytest.raises(ValueError, match="C-contiguous float32"):
        getattr(_kernels, "libm_" + name)(x.astype(np.float64))
