"""Seeded initial weights equal MindSpore 2.10's, bit for bit.

Every case of ``tests/fixtures/init_streams/record.py`` (an initializer filling one tensor after ``ms.set_seed`` or
the user's own ``np.random.seed``; a cell, LeNet5, a ResNet block, LSTM/GRU/RNN, attention and Transformer layers
built after ``ms.set_seed``) runs here under ours and is compared with 2.10's recording: each parameter's first 64
values (``assert_array_equal``) and the SHA-256 of all its bytes, the parameter names in construction order, and
the NumPy global draws that follow (so the initializers moved NumPy's stream exactly as far as 2.10's did).
"""
import hashlib
import importlib.util
import os

import numpy as np
import pytest

import mindspore as ms

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "init_streams")


def _load_record():
    spec = importlib.util.spec_from_file_location("init_streams_record", os.path.join(HERE, "record.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORD = _load_record()
REF = np.load(os.path.join(HERE, "init_streams_2.10.npz"))
CASES = RECORD.cases(ms)


@pytest.mark.parametrize("name", sorted(CASES))
def test_initial_weights_equal_2_10(name):
    params, nxt = RECORD.run_case(CASES[name])
    assert [n for n, _ in params] == REF[f"{name}/names"].tolist()
    for pname, arr in params:
        head = REF[f"{name}/{pname}/head"]
        assert arr.dtype == head.dtype, pname
        np.testing.assert_array_equal(arr.reshape(-1)[:64], head, err_msg=f"{name}/{pname}")
        digest = hashlib.sha256(np.ascontiguousarray(arr).tobytes()).hexdigest()
        assert digest == str(REF[f"{name}/{pname}/sha"]), f"{name}/{pname}: values past the first 64 differ"
    np.testing.assert_array_equal(nxt, REF[f"{name}/next"], err_msg=f"{name}: NumPy's global stream moved differently")


def test_dense_2_3_first_weight_is_2_10s():
    """The brief's example: ``ms.set_seed(0); nn.Dense(2, 3)`` (2.10: weight[0, 0] == 0.35026813)."""
    ms.set_seed(0)
    net = ms.nn.Dense(2, 3)
    assert net.weight.asnumpy()[0, 0] == REF["dense/weight/head"][0]


@pytest.mark.parametrize("draw", sorted(RECORD.KERNEL_DRAWS))
def test_host_fills_equal_2_10s(draw):
    """The Philox fills themselves, against 2.10's ``_c_expression`` functions: every seed (64-bit ones too) and
    size (past 1024, filled by several threads there)."""
    from mindspore.common import _philox
    fn = {"_random_uniform": _philox.uniform, "_random_normal": _philox.normal,
          "_truncated_normal": _philox.truncated_normal}[RECORD.KERNEL_DRAWS[draw][0]]
    args = RECORD.KERNEL_DRAWS[draw][1]
    for seed in RECORD.KERNEL_SEEDS:
        for size in RECORD.KERNEL_SIZES:
            key = f"kernel/{draw}/{seed}/{size}"
            got = fn(seed, size, *args)
            np.testing.assert_array_equal(got[:64], REF[key + "/head"], err_msg=key)
            assert hashlib.sha256(got.tobytes()).hexdigest() == str(REF[key + "/sha"]), key


@pytest.mark.parametrize("draw", sorted(RECORD.KERNEL_DRAWS))
def test_c_expression_fills_equal_2_10s(draw):
    """2.10's private ``mindspore._c_expression._random_uniform/_random_normal/_truncated_normal(seed, buffer,
    *args)`` (MindNLP calls them), with the installed backend's native fill when it offers one."""
    from mindspore import _c_expression
    fn, args = RECORD.KERNEL_DRAWS[draw]
    for seed in RECORD.KERNEL_SEEDS:
        for size in RECORD.KERNEL_SIZES:
            key = f"kernel/{draw}/{seed}/{size}"
            buf = np.zeros(size, np.float32)
            assert getattr(_c_expression, fn)(seed, buf, *args) is None
            np.testing.assert_array_equal(buf[:64], REF[key + "/head"], err_msg=key)
            assert hashlib.sha256(buf.tobytes()).hexdigest() == str(REF[key + "/sha"]), key


def test_c_expression_fills_answer_bad_arguments_as_2_10():
    """What ``tests/fixtures/init_streams/record_errors.py`` printed on 2.10."""
    from mindspore._c_expression import _random_uniform, _truncated_normal
    with pytest.raises(RuntimeError, match=r"^Unsupported data type 'd'\.$"):
        _random_uniform(7, np.zeros(5), 0.0, 1.0)
    with pytest.raises(TypeError, match=r"^_random_uniform\(\): incompatible function arguments\. The following "):
        _random_uniform(-1, np.zeros(3, np.float32), 0.0, 1.0)
    with pytest.raises(RuntimeError, match=r"^TruncatedNormal: invalid sigma 0\.$"):
        _truncated_normal(1, np.zeros(3, np.float32), -2.0, 2.0, 0.0, 0.0)
    flat, square = np.zeros(6, np.float32), np.zeros((2, 3), np.float32)
    _random_uniform(7, flat, 0.0, 1.0)
    _random_uniform(7, square, 0.0, 1.0)
    np.testing.assert_array_equal(square.reshape(-1), flat)


def test_seeded_uniform_ops_draw_2_10s_numbers():
    """``ops.rand``/``ops.uniform``/``ops.rand_like`` after ``set_seed`` (and with op seeds), and a seeded
    ``ops.UniformReal``'s first launch, draw 2.10's float32 values (MT19937 of the scrambled seed pair)."""
    got = RECORD.uniform_op_draws(ms)
    for name, arr in got.items():
        np.testing.assert_array_equal(arr, REF[f"uniform_ops/{name}"], err_msg=name)
