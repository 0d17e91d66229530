"""GRAPH_MODE memory planning keeps a value's buffer alive while a view of it is still read.

Two stacked highway layers (the model zoo's FastSpeech CBHG ``Highway``) on a 3-D input: ``nn.Dense`` reads a
reshape of its input, and the gradient of the second layer's weights reads that reshape after the input's last
direct use (the fused ``x * (1 - s)`` chain). The CPU plan let that chain write into the input's buffer, so the
weight gradient read overwritten values (layers.1.t.weight off by up to 0.27 here, FastSpeech's postnet highway
gradients about 0). The numbers are MindSpore 2.10's (tests/fixtures/zoo_nlp3/record_view_lifetime.py).
"""
import importlib.util
import pathlib

import numpy as np

import mindspore as ms

_spec = importlib.util.spec_from_file_location(
    "record_view_lifetime", pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "zoo_nlp3" /
    "record_view_lifetime.py")
rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rec)

# MindSpore 2.10, GRAPH_MODE, CPU (record_view_lifetime.py)
_GRADS_2_10 = {
    "layers.1.h.weight": [[0.455517, -0.28065, 0.575734], [0.616006, -0.382332, 0.474459],
                          [0.537293, -0.335056, 0.572828]],
    "layers.1.h.bias": [2.398934, 2.54698, 2.593445],
    "layers.1.t.weight": [[-0.276775, 0.034612, 0.246673], [0.15531, -0.27787, -0.044745],
                          [0.199148, -0.166525, -0.055878]],
    "layers.1.t.bias": [0.215544, 0.656213, 0.434154],
    "layers.0.h.weight": [[-0.682955, -0.455303, -0.227652], [2.586923, -2.586923, -1.724615],
                          [-1.666861, 0.917303, 3.501467]],
    "layers.0.t.weight": [[-2.455999, 0.850144, 0.828824], [1.710556, -2.319146, -1.750599],
                          [0.601846, -1.268013, -0.934026]],
}


def test_weight_gradients_read_the_input_not_a_reused_buffer():
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = rec.weight_grads()
    finally:
        ms.set_context(mode=mode)
    for name, want in _GRADS_2_10.items():
        np.testing.assert_allclose(got[name], want, rtol=1e-5, atol=2e-6, err_msg=name)
