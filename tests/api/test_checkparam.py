"""``mindspore._checkparam``: the validators outside libraries import from MindSpore's private module (MindOCR's
transformer layers, MindFormers), with 2.10's signatures, exception classes and messages (recorded from 2.10)."""
import pytest

from mindspore import _checkparam as V

# (validator, arguments, "ok" or the exception class 2.10 raised, the value it returned or its message)
CASES = [
    ('check_positive_int', (3, 'n', 'Net'), 'ok', 3),
    ('check_positive_int', (0, 'n', 'Net'), 'ValueError',
      "For 'Net', the 'n' must be int and must > 0, but got '0' with type 'int'."),
    ('check_positive_int', (True, 'n'), 'TypeError',
      "The 'n' must be int and must > 0, but got 'True' with type 'bool'."),
    ('check_positive_int', (2.0, 'n', 'Net'), 'TypeError', "For 'Net', the 'n' must be int, but got 'float'"),
    ('check_non_negative_int', (0,), 'ok', 0),
    ('check_non_negative_int', (-1, 'k'), 'ValueError',
      "The 'k' must be int and must >= 0, but got '-1' with type 'int'."),
    ('check_non_negative_float', (0.5, 'rate', 'Drop'), 'ok', 0.5),
    ('check_non_negative_float', (0, 'rate', 'Drop'), 'TypeError',
      "For 'Drop', the 'rate' must be float, but got 'int'"),
    ('check_non_negative_float', (-0.1, 'rate'), 'ValueError',
      "The 'rate' must be float and must >= 0, but got '-0.1' with type 'float'."),
    ('check_positive_float', (float('inf'), 'x'), 'ValueError', "The 'x' must be a legal value, but got 'inf'."),
    ('check_bool', (True, 'flag'), 'ok', True),
    ('check_bool', (1, 'flag', 'Net'), 'TypeError', "For 'Net', the 'flag' must be a bool, but got int."),
    ('check_bool', (1,), 'TypeError', 'The input value must be a bool, but got int.'),
    ('check_string', ('relu', ['relu', 'gelu'], 'act', 'Net'), 'ok', 'relu'),
    ('check_string', ('tanh', ['relu', 'gelu'], 'act', 'Net'), 'ValueError',
      "For 'Net', the 'act' must be str and must be in '['relu', 'gelu']', but got 'tanh'."),
    ('check_string', (3, ['relu']), 'ValueError',
      "The 'parameter' must be str and must be in '['relu']', but got '3'."),
    ('check_value_type', ('x', 3, [int, float], 'Net'), 'ok', 3),
    ('check_value_type', ('x', True, [int], 'Net'), 'TypeError',
      "For 'Net', the type of 'x' should be 'int', but got type 'bool'."),
    ('check_value_type', ('x', 's', int), 'TypeError', "The type of 'x' should be 'int', but got type 'str'."),
    ('check_value_type', ('x', True, [bool, int]), 'ok', True),
    ('check_int', (3, 2, V.GE, 'n', 'Net'), 'ok', 3),
    ('check_int', (1, 2, V.GE, 'n', 'Net'), 'ValueError',
      "For 'Net', the 'n' must be int and must >= 2, but got '1' with type 'int'."),
    ('check_int_range', (5, 0, 4, V.INC_BOTH, 'n', 'Net'), 'ValueError',
      "For 'Net', the 'n' must be in range of [0, 4], but got 5 with type 'int'."),
    ('check_int_range', (4, 0, 4, V.INC_BOTH, 'n', 'Net'), 'ok', 4),
    ('check_float_range', (1.0, 0.0, 1.0, V.INC_LEFT, 'p'), 'ValueError',
      "The 'p' must be in range of [0.0, 1.0), but got 1.0 with type 'float'."),
    ('check_is_int', (2.5, 'n', 'Net'), 'TypeError', "For 'Net', the type of 'n' must be 'int', but got 'float'."),
    ('check_is_float', (2.5,), 'ok', 2.5),
]


@pytest.mark.parametrize("fn, args, outcome, value", CASES, ids=[f"{c[0]}{i}" for i, c in enumerate(CASES)])
def test_validator_as_mindspore_2_10(fn, args, outcome, value):
    if outcome == "ok":
        assert getattr(V, fn)(*args) == value
        return
    with pytest.raises((TypeError, ValueError)) as info:
        getattr(V, fn)(*args)
    assert type(info.value).__name__ == outcome and str(info.value) == value
