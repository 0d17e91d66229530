"""A gradient seed whose dtype differs from its output's (``GradOperation(sens_param=True)``'s ``sens``, a vjp
vector, a jvp tangent) is refused as MindSpore 2.10 refuses it, never cast: PYNATIVE with "The dtype should be
Float16, but got Float32, ..." (a TypeError; a scalar output takes any seed), GRAPH_MODE (and anything compiled,
jvp included) with "Type Join Failed: dtype1 = <the seed's>, dtype2 = <the output's>." (a Python number against a
tensor output: "dtype2 = Any"). The nn wrappers and amp's train networks, which build their own seeds, still run on a
float16 network. Recorded by tests/fixtures/refusals_2_10/record_sens_dtype.py (sens_dtype.json)."""
import builtins
import importlib.util
import json
import pathlib

import pytest


_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "refusals_2_10"
_spec = importlib.util.spec_from_file_location("sens_dtype_cases", _DIR / "sens_dtype_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
REF = json.loads((_DIR / "sens_dtype.json").read_text())["cases"]


pytestmark = pytest.mark.usefixtures("restore_mode")


@pytest.mark.parametrize("case", cases.all_cases(), ids="/".join)
def test_sens_dtype_as_2_10(case):
    name, mode = case
    want = REF[f"{name}/{mode}"]
    if "value" in want:
        assert cases.call(name, mode) == want["value"]
        return
    with pytest.raises(getattr(builtins, want["error"])) as err:
        cases.call(name, mode)
    # (2.10's PYNATIVE message goes on with the buffer's address and contents: the shared part is compared)
    assert cases.message(err.value).startswith(want["message"]), cases.message(err.value)
