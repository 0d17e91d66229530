"""``mindspore.nn.layer.rnn_cells``: MindSpore 2.10's module path of the single-step recurrent cells.

Outside code subclasses ``RNNCellBase`` from here (MindOCR's FP16-safe ``GRUCell`` does); the cells themselves live
with the recurrent layers in :mod:`mindspore.nn.layer.rnns`, and this module re-exports them under 2.10's names.
``RNNCellBase(input_size, hidden_size, has_bias, num_chunks, dtype)`` registers ``weight_ih``
(num_chunks * H, input_size), ``weight_hh`` (num_chunks * H, H) and, with ``has_bias``, ``bias_ih`` and ``bias_hh``
(num_chunks * H,), all drawn from U(-1/sqrt(H), 1/sqrt(H)).
"""
from mindspore.nn.layer.rnns import GRUCell, LSTMCell, RNNCell
from mindspore.nn.layer.rnns import _linear
from mindspore.nn.layer.rnns import _RNNCellBase as RNNCellBase  # noqa: F401 - 2.10 keeps it out of __all__
from mindspore.ops._defs import rnn as _rnn_defs

__all__ = ["LSTMCell", "GRUCell", "RNNCell"]


# 2.10's private one-step functions of this module, ``(inputs, hidden, w_ih, w_hh, b_ih, b_hh)`` with torch-layout
# weights (biases may be None), which libraries import from here (MindNLP's recurrent layers): the new hidden state,
# for LSTM ``(h, c)`` from ``hidden = (h, c)``.
def _rnn_tanh_cell(inputs, hidden, w_ih, w_hh, b_ih, b_hh):
    return _rnn_defs.step("RNN_TANH", _linear(inputs, w_ih, b_ih), hidden, w_hh, b_hh)


def _rnn_relu_cell(inputs, hidden, w_ih, w_hh, b_ih, b_hh):
    return _rnn_defs.step("RNN_RELU", _linear(inputs, w_ih, b_ih), hidden, w_hh, b_hh)


def _gru_cell(inputs, hidden, w_ih, w_hh, b_ih, b_hh):
    return _rnn_defs.step("GRU", _linear(inputs, w_ih, b_ih), hidden, w_hh, b_hh)


def _lstm_cell(inputs, hidden, w_ih, w_hh, b_ih, b_hh):
    return _rnn_defs.step("LSTM", _linear(inputs, w_ih, b_ih), hidden, w_hh, b_hh)
