"""Parameter names of cells appended to a CellList / SequentialCell, as MindSpore 2.10 gives them (its
``_get_prefix_and_index`` reads the prefix off the names already there: after a first SequentialCell ``0.0.weight``
the next cell's names start with ``0.1.``). Checkpoints written by 2.10 for the model zoo's ConvNeXt
(research/cv/convnext: ``downsample_layers``/``stages`` built with ``CellList.append``) load only with these names.
Literals from tests/fixtures/zoo_research/record_celllist_names_2_10.py run against 2.10."""
import sys
from pathlib import Path

FIX = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "zoo_research"
sys.path.insert(0, str(FIX))
from record_celllist_names_2_10 import build  # noqa: E402

sys.path.remove(str(FIX))

WANT = {
    "append": ['0.0.weight', '0.1.gamma', '0.1.beta', '0.1.0.gamma', '0.1.0.beta', '0.1.1.weight', '0.2.0.gamma',
               '0.2.0.beta', '0.2.1.weight'],
    "extend": ['0.0.weight', '0.0.bias', '1.0.weight', '1.0.bias'],
    "extend_after": ['0.0.weight', '0.0.bias', '0.1.0.weight', '0.1.0.bias', '0.2.0.weight', '0.2.0.bias'],
    "insert": ['0.weight', '0.bias', '1.weight', '1.bias', '2.weight', '2.bias'],
    "sequential_append": ['0.0.weight', '0.0.bias', '0.1.weight', '0.1.bias'],
}


def test_parameter_names_as_in_2_10():
    got = {name: [p.name for p in cell.get_parameters()] for name, cell in build().items()}
    assert got == WANT


def test_insert_moves_the_later_cells_up():
    cells = build()["insert"]
    assert [tuple(c.weight.shape) for c in cells] == [(2, 2), (3, 2), (2, 2)]
    assert [c.weight.name for c in cells] == ["0.weight", "1.weight", "2.weight"]
