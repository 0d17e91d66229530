"""``Cell.to_float`` in PYNATIVE as in MindSpore 2.10: each operator the marked cell runs casts its float inputs to the
innermost marked cell's dtype (view operators, ``ops.cast`` and BatchNorm's Parameters excepted), nothing is cast on
entry, a ``jit`` function called from the cell is not cast, and gradients come back in the inputs' dtypes. Recorded
by tests/fixtures/refusals_2_10/record_to_float_pynative.py (the cases: to_float_pynative_cases.py)."""
import importlib.util
import json
import pathlib

import numpy as np
import pytest


_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "refusals_2_10"
_spec = importlib.util.spec_from_file_location("to_float_pynative_cases", _DIR / "to_float_pynative_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
REF = json.loads((_DIR / "to_float_pynative.json").read_text())["cases"]


pytestmark = pytest.mark.usefixtures("restore_mode")


def test_each_operator_casts_its_float_inputs_but_views_and_cast_do_not():
    assert cases.ops_table() == REF["ops"]


def test_nearest_to_float_cell_wins_jit_is_not_cast_and_gradients_keep_input_dtypes():
    assert cases.nested() == REF["nested"]


def test_conv_batchnorm_dense_in_float16_batchnorm_parameters_not_cast():
    assert cases.conv_bn_dense() == REF["conv_bn_dense"]


def test_recomputed_block_runs_in_the_cells_dtype_again_in_backward():
    assert cases.recomputed() == REF["recomputed"]


def test_amp_o3_trains_batchnorm_as_o2():
    """2.10's O3 leaves BatchNorm's Parameters float32 as O2 does: the same losses, bit for bit (ours and 2.10's
    fp16 kernels round a little differently, so ours are compared to 2.10's within 1e-4)."""
    assert REF["amp_O3"] == REF["amp_O2"]
    o2, o3 = cases.amp_losses("O2"), cases.amp_losses("O3")
    assert o3 == o2
    np.testing.assert_allclose(o2, REF["amp_O2"], rtol=1e-4)
