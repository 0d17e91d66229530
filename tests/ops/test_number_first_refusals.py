"""A Python number as the first input of a comparison or arithmetic op, as on MindSpore 2.10: ``Less`` and
``Equal`` (Primitive and functional ``ops.less``/``ops.lt``/``mint.lt``/``ops.equal``) refuse it with 2.10's
"Failed calling ..." message, in PYNATIVE and GRAPH_MODE; LessEqual, Greater, NotEqual, the arithmetic
Primitives and the Tensor operators (``2 < x``) accept it, and the gradients of ``Maximum(2, x)`` and
``Minimum(2, x)`` (whose bprops compare) still work. Recorded by
tests/fixtures/refusals_2_10/record_number_first.py."""
import importlib.util
import json
import pathlib

import numpy as np
import pytest

import mindspore as ms

_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "refusals_2_10"
_spec = importlib.util.spec_from_file_location("number_first_cases", _DIR / "number_first_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
REF = json.loads((_DIR / "number_first.json").read_text())["cases"]


pytestmark = pytest.mark.usefixtures("restore_mode")


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_number_first_as_2_10(mode, name):
    want, got = REF[mode][name], cases.run(name, mode)
    if "error" in want:
        assert got.get("error") == want["error"], got
        assert got["message"] == want["message"]
    else:
        assert "error" not in got, got["message"]
        assert got["dtype"] == want["dtype"]
        np.testing.assert_allclose(got["ok"], want["ok"], rtol=1e-6)


# 2.10's PYNATIVE answers (tests/fixtures/refusals_2_10/record_mint_xlogy.py); its GRAPH_MODE has no CPU kernel for
# a number input (Ascend only), so ours computes there as the Ascend build does
MINT_XLOGY_2_10 = {
    "int": 'Failed calling Xlogy with "Xlogy()(input=int, other=Tensor)".\nThe valid calling should be: \n'
           '"Xlogy()(input=<Tensor>, other=<Tensor>)".',
    "float": 'Failed calling Xlogy with "Xlogy()(input=float, other=Tensor)".\nThe valid calling should be: \n'
             '"Xlogy()(input=<Tensor>, other=<Tensor>)".',
}


@pytest.mark.parametrize("number", [2, 2.0], ids=["int", "float"])
def test_mint_xlogy_number_input_as_2_10(number):
    from mindspore import mint
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    with pytest.raises(TypeError) as err:
        mint.xlogy(number, x)
    assert str(err.value) == MINT_XLOGY_2_10[type(number).__name__]
    np.testing.assert_allclose(mint.xlogy(x, 2).asnumpy(), [0.6931472, 1.3862944], rtol=1e-6)
    np.testing.assert_allclose(ms.jit(lambda a: mint.xlogy(number, a))(x).asnumpy(), [0.0, 1.3862944], rtol=1e-6)
