"""``mindspore.nn.layer.rnn_cells``: MindSpore 2.10's module path of the single-step recurrent cells.

Outside code subclasses ``RNNCellBase`` from here (MindOCR's FP16-safe ``GRUCell`` does); the cells themselves live
with the recurrent layers in :mod:`mindspore.nn.layer.rnns`, and this module re-exports them under 2.10's names.
``RNNCellBase(input_size, hidden_size, has_bias, num_chunks, dtype)`` registers ``weight_ih``
(num_chunks * H, input_size), ``weight_hh`` (num_chunks * H, H) and, with ``has_bias``, ``bias_ih`` and ``bias_hh``
(num_chunks * H,), all drawn from U(-1/sqrt(H), 1/sqrt(H)).
"""
from mindspore.nn.layer.rnns import GRUCell, LSTMCell, RNNCell
from mindspore.nn.layer.rnns import _RNNCellBase as RNNCellBase  # noqa: F401 - 2.10 keeps it out of __all__

__all__ = ["LSTMCell", "GRUCell", "RNNCell"]
