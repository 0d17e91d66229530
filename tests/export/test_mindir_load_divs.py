"""A MindIR file MindSpore 2.10 exported with its ``Divs`` primitive (a tensor divided by a Python number in a
GRAPH_MODE construct, as the model zoo's SSD decoder does) loads and runs with 2.10's numbers.

Fixture: tests/fixtures/zoo_cv/divs.mindir and divs.npz, recorded by record_divs_mindir.py against real 2.10.
"""
import pathlib

import numpy as np

import mindspore as ms
from mindspore import nn

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "zoo_cv"


def test_divs_from_mindspore_2_10_runs():
    graph = ms.load(str(FIXTURES / "divs.mindir"))
    assert "Divs" in graph.primitives
    ref = np.load(FIXTURES / "divs.npz")
    y0, y1 = nn.GraphCell(graph)(ms.Tensor(ref["x"]), ms.Tensor(ref["k"]))
    np.testing.assert_array_equal(y0.asnumpy(), ref["y0"])
    assert y1.dtype == ms.float32     # Divs divides an int tensor truly
    np.testing.assert_array_equal(y1.asnumpy(), ref["y1"])
