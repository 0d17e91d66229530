"""A network whose output is a constant (a Tensor made in construct, or a tuple of them; also a Python value:
``return 3``, ``return (x, 2)``, ``return None``) exports as in MindSpore 2.10: to MindIR with the constant as a
Constant node of the graph (what 2.10 writes; 2.10's ms.load + GraphCell runs
ours' files, checked by tests/fixtures/refusals_2_10/record_const_outputs.py DIR), loadable by ours, and to ONNX.
2.10's own files (const_outputs/) load on ours with the same results."""
import importlib.util
import json
import pathlib
import re

import numpy as np
import pytest

_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "refusals_2_10"
_spec = importlib.util.spec_from_file_location("const_output_cases", _DIR / "const_output_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
_RECORDED = json.loads((_DIR / "const_outputs.json").read_text())
REF = _RECORDED["outputs"]
REF_PY = _RECORDED["python_outputs"]
ONNX_ERRORS = _RECORDED["onnx_errors"]


def _producers(path):
    """op_type of the node producing each output of a MindIR file's graph (MakeTuple's inputs for a tuple)."""
    from mindspore.train import mind_ir_pb2
    model = mind_ir_pb2.ModelProto()
    model.ParseFromString(pathlib.Path(path).read_bytes())
    by_output = {o: n for n in model.graph.node for o in n.output}
    top = by_output[model.graph.output[0].name]
    leaves = [by_output.get(i) for i in top.input] if "MakeTuple" in top.op_type else [top]
    return ["Input" if n is None else "Constant" if n.op_type == "Constant" else "CNode" for n in leaves]


@pytest.mark.parametrize("name", sorted(cases.NETS))
def test_const_output_exports_to_mindir_as_2_10(name, tmp_path):
    cases.export(name, str(tmp_path / name))
    path = tmp_path / f"{name}.mindir"
    assert cases.load_and_run(str(path)) == REF[name]
    assert _producers(path) == _producers(_DIR / "const_outputs" / f"{name}.mindir")


@pytest.mark.parametrize("name", sorted(cases.NETS))
def test_2_10_const_output_files_load(name):
    assert cases.load_and_run(str(_DIR / "const_outputs" / f"{name}.mindir")) == REF[name]


@pytest.mark.parametrize("name", sorted(cases.NETS))
def test_const_output_exports_to_onnx(name, tmp_path):
    pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    cases.export(name, str(tmp_path / name), fmt="ONNX")
    session = ort.InferenceSession(str(tmp_path / f"{name}.onnx"))
    feed = {i.name: np.ones((2, 3), np.float32) for i in session.get_inputs()}
    got = session.run(None, feed)
    assert [o.tolist() for o in got] == [values for _, values in REF[name]]


@pytest.mark.parametrize("name", sorted(cases.PY_NETS))
def test_python_const_output_exports_to_mindir_as_2_10(name, tmp_path):
    """``return 3``, ``return (1, 2)``, ``return (x, 2)``...: written as a Constant node; loaded, the graph returns
    that Python value (a tuple as a tuple, a list as a list), as 2.10's load does with 2.10's files and ours."""
    cases.export_py(name, str(tmp_path / name))
    path = tmp_path / f"{name}.mindir"
    assert cases.load_and_run_py(str(path)) == REF_PY[name]
    assert _producers(path) == _producers(_DIR / "const_outputs" / f"{name}.mindir")


@pytest.mark.parametrize("name", sorted(cases.PY_NETS))
def test_2_10_python_const_output_files_load(name):
    assert cases.load_and_run_py(str(_DIR / "const_outputs" / f"{name}.mindir")) == REF_PY[name]


@pytest.mark.parametrize("name", sorted(set(cases.PY_NETS) - {"ListOut"}))
def test_python_const_output_refused_by_onnx_as_2_10(name, tmp_path):
    """ONNX outputs are tensors: 2.10 refuses a Python constant output (its node names carry counters of its own)."""
    kind, message = ONNX_ERRORS[name]
    assert cases.onnx_error(name, str(tmp_path / name)) == [kind, re.sub(r"(?:CNode|ValueNode)_\d+\(", "ValueNode(",
                                                                         message)]
