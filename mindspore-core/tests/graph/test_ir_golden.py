"""Golden IR text: the parser's output, inference's typed graph, autodiff's graph and the graph after each
pass of the pipeline, for the programs of ``_samples.py``.

A mismatch prints a diff. After a deliberate change to the IR or a pass, regenerate the files with
``MS_UPDATE_GOLDEN=1 pytest mindspore-core/tests/graph/test_ir_golden.py`` and review the diff.
"""
import difflib
import os
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore._infer.specialize import specialize
from mindspore._ir import print_module, verify
from mindspore._parse.parser import parse
from mindspore._pipeline import passes

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import _samples as S  # noqa: E402

GOLDEN = pathlib.Path(__file__).parent / "golden"
UPDATE = bool(os.environ.get("MS_UPDATE_GOLDEN"))


def check_golden(name, text):
    path = GOLDEN / f"{name}.ir"
    if UPDATE:
        path.write_text(text)
        return
    assert path.exists(), f"no golden file {path.name}: run with MS_UPDATE_GOLDEN=1 to create it"
    expected = path.read_text()
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "now"))
        pytest.fail(f"IR of {name} differs from {path.name}:\n{diff}")


@pytest.fixture(autouse=True)
def _verify_every_pass(monkeypatch):
    monkeypatch.setattr(passes, "VERIFY", True)


@pytest.mark.parametrize("fn", [S.straight_line, S.branches, S.loops, S.closures_and_comprehensions,
                                S.Block.construct], ids=lambda f: f.__qualname__)
def test_parser(fn):
    graph = parse(fn)
    verify(graph, typed=False)
    check_golden("parse_" + fn.__qualname__.replace(".", "_"), print_module(graph))


def _x(*shape):
    return ms.Tensor(np.ones(shape, np.float32))


def test_inference_specialises_constants_and_unrolls():
    program = specialize(S.loops, (_x(3), 4))
    verify(program.graph)
    check_golden("infer_loops_n4", print_module(program.graph))


def test_inference_of_a_cell_with_a_tensor_condition():
    ms.set_seed(0)
    block = S.Block()
    program = specialize(block._call_eagerly_or_staged, (_x(2, 4),), name="Block_construct")
    verify(program.graph)
    check_golden("infer_block", print_module(program.graph))


def test_autodiff_graph_of_a_cell():
    ms.set_seed(0)
    block = S.Block()
    program = specialize(ms.grad(block, grad_position=0, weights=block.trainable_params()), (_x(2, 4),),
                         name="grad_Block")
    verify(program.graph)
    check_golden("grad_block", print_module(program.graph))


@pytest.mark.cpu_backend
def test_each_pass(tmp_path):
    program = specialize(S.pass_sample, (_x(2, 2), _x(2, 2)), name="pass_sample")
    passes.run_pipeline(program.graph, save_dir=str(tmp_path))
    dumped = sorted(p.name for p in tmp_path.iterdir())
    assert dumped == [f"pass_sample_{i:02d}_{name}.ir" for i, name in enumerate(["infer"] + passes.pass_names())]
    for name in dumped:
        check_golden(name[:-3], (tmp_path / name).read_text())


@pytest.mark.cpu_backend
def test_each_pass_changes_what_it_owns(tmp_path):
    """Each pass of the sample is not a no-op: consecutive dumps differ where the pass has work."""
    program = specialize(S.pass_sample, (_x(2, 2), _x(2, 2)), name="pass_sample")
    passes.run_pipeline(program.graph, save_dir=str(tmp_path))
    texts = [(tmp_path / f"pass_sample_{i:02d}_{n}.ir").read_text()
             for i, n in enumerate(["infer"] + passes.pass_names())]
    names = passes.pass_names()
    for i, name in enumerate(names):
        if name in ("dce_after_backend", "fold_batchnorm"):  # fold_batchnorm works on frozen graphs only
            continue
        assert texts[i + 1] != texts[i], f"pass {name} changed nothing on the sample"


def test_pipeline_prefix_runs_only_the_named_passes():
    program = specialize(S.pass_sample, (_x(2, 2), _x(2, 2)), name="pass_sample")
    passes.run_pipeline(program.graph, upto="inline")
    text = print_module(program.graph)
    assert "CustomCall" not in text and "Exp" in text   # inlined, but nothing removed yet
