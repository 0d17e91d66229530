"""Compile errors point at the user's code: file:line:col, the source line and a caret under the span."""
import inspect
import os

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

THIS = os.path.abspath(__file__)


def _line_of(fn, text, span=None):
    """(line, 1-based column) of ``span`` (default: ``text``) on the source line of ``fn`` holding ``text``."""
    lines, start = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return start + i, line.index(span or text.strip()) + 1
    raise AssertionError(text)


def _assert_points_at(message, fn, text, span=None):
    """The message names file:line:col of ``span`` and shows the line with a caret under ``span``."""
    line, col = _line_of(fn, text, span)
    assert f"{THIS}:{line}:{col}" in message, message
    rows = message.splitlines()
    at = next(i for i, r in enumerate(rows) if text.strip() in r and not r.lstrip().startswith("/"))
    caret_row = rows[at + 1]
    assert caret_row.strip().startswith("^"), message
    assert caret_row.index("^") == rows[at].index(span or text.strip()), message
    assert caret_row.count("^") + caret_row.count("~") == len(span or text.strip()) or span is None, message


class WithTry(nn.Cell):
    def construct(self, x):
        try:
            x = x + 1
        except ValueError:
            pass
        return x


def test_unsupported_statement_is_a_runtime_error_at_the_statement():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(RuntimeError, match="Unsupported statement 'Try'") as info:
            WithTry()(ms.Tensor(np.ones(2, np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    _assert_points_at(str(info.value), WithTry.construct, "try:")


def test_unsupported_expression():
    @ms.jit
    def gen(x):
        return x if False else {1, 2}
    with pytest.raises(RuntimeError, match="Unsupported expression 'Set'"):
        gen(ms.Tensor(np.ones(2, np.float32)))


def undefined_name_user(x):
    y = x * 2
    return y + not_defined_anywhere  # noqa: F821 - the point of the test


def test_undefined_name_is_a_name_error_at_its_use():
    with pytest.raises(NameError, match="'not_defined_anywhere' is not defined") as info:
        ms.jit(undefined_name_user)(ms.Tensor(np.ones(2, np.float32)))
    _assert_points_at(str(info.value), undefined_name_user, "return y + not_defined_anywhere",
                      "not_defined_anywhere")


class BadMatMul(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones((5, 2), np.float32)), name="w")

    def construct(self, x):
        h = x * 2
        return ops.matmul(h, self.w)


def test_shape_mismatch_is_reported_at_the_call_with_the_rule_message():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(RuntimeError, match="For 'MatMul'") as info:
            BadMatMul()(ms.Tensor(np.ones((3, 4), np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert isinstance(info.value, ValueError)      # MindSpore's ValueError, reported as a compile-time RuntimeError
    _assert_points_at(str(info.value), BadMatMul.construct, "return ops.matmul(h, self.w)",
                      "ops.matmul(h, self.w)")


def outer_calls_inner(x):
    return inner_bad(x) + 1


def inner_bad(x):
    return ops.reshape(x, (7,))


def test_the_call_stack_lists_each_user_frame_outermost_first():
    with pytest.raises(RuntimeError) as info:
        ms.jit(outer_calls_inner)(ms.Tensor(np.ones(4, np.float32)))
    message = str(info.value).split("outermost call first")[1]
    outer_line, _ = _line_of(outer_calls_inner, "return inner_bad(x) + 1")
    inner_line, _ = _line_of(inner_bad, "return ops.reshape(x, (7,))")
    assert message.index(f":{outer_line}:") < message.index(f":{inner_line}:")


def test_raise_on_a_constant_condition_raises_that_error_while_compiling():
    @ms.jit
    def f(x, n):
        if n > 2:
            raise ValueError(f"n is {n}, too large")
        return x * n
    assert f(ms.Tensor(np.ones(2, np.float32)), 2).asnumpy().tolist() == [2.0, 2.0]
    with pytest.raises(ValueError, match="n is 3, too large"):
        f(ms.Tensor(np.ones(2, np.float32)), 3)


def test_raise_under_a_tensor_condition_raises_when_it_runs():
    @ms.jit
    def f(x):
        if x.sum() > 10:
            raise ValueError("sum too large")
        return x + 1
    assert f(ms.Tensor(np.ones(2, np.float32))).asnumpy().tolist() == [2.0, 2.0]
    with pytest.raises(ValueError, match="sum too large"):
        f(ms.Tensor(np.full(2, 9.0, np.float32)))


def test_reading_a_tensor_value_in_library_code_says_what_to_do_in_strict_mode():
    @ms.jit
    def f(x):
        return float(x.sum())
    ms.set_context(jit_syntax_level=ms.STRICT)
    try:
        with pytest.raises(RuntimeError, match="not available while compiling in graph mode"):
            f(ms.Tensor(np.ones(2, np.float32)))
    finally:
        ms.set_context(jit_syntax_level=ms.LAX)


def test_reading_a_tensor_value_runs_as_python_outside_strict_mode():
    # MindSpore's JIT fallback: python_builtin_functions.md's int(x), float(x.asnumpy()), len(w.asnumpy())
    @ms.jit
    def reads_tensor_values(x):
        return float(x.sum()), int(x[0]), len(x.asnumpy()), x * 2
    with pytest.warns(RuntimeWarning, match="runs as Python"):
        total, first, n, doubled = reads_tensor_values(ms.Tensor(np.array([3.0, 4.0], np.float32)))
    assert (total, first, n) == (7.0, 3, 2) and type(total) is float and type(first) is int
    assert doubled.asnumpy().tolist() == [6.0, 8.0]


def test_branches_of_different_shapes_give_a_dynamic_shape():
    @ms.jit
    def f(x):
        if x.sum() > 0:
            y = x
        else:
            y = ops.concat((x, x))
        return y
    assert f(ms.Tensor(np.ones(2, np.float32))).shape == (2,)
    assert f(ms.Tensor(-np.ones(2, np.float32))).shape == (4,)


def test_branches_of_different_ranks_are_rejected_in_strict_mode():
    @ms.jit
    def f(x):
        if x.sum() > 0:
            y = x
        else:
            y = x.reshape(2, 1)
        return y
    ms.set_context(jit_syntax_level=ms.STRICT)
    try:
        with pytest.raises(ValueError, match="tensor of shape"):
            f(ms.Tensor(np.ones(2, np.float32)))
    finally:
        ms.set_context(jit_syntax_level=ms.LAX)
