"""The ONNX exporter: a captured network (:func:`mindspore._deploy.capture.capture`) as an ONNX model, opset 17.

``save(captured, path, ...)`` converts the graph's applies in program order, each primitive through its
converter (``_ops_math``, ``_ops_nn``, ``_ops_array``; recurrent layers kept whole by capture through
``_rnn``), checks the model with ``onnx.checker`` (full shape and type inference) and writes it
atomically. The graph's inputs are named after ``construct``'s arguments (or ``input_names``), its
outputs ``output_0``, ``output_1`` ... (or ``output_names``; MindSpore names them after internal node
numbers), its weights by ``Parameter.name``. Unknown dimensions are ``dim_param`` named after their
symbol (``B``, or the name given in ``dynamic_axes``). A primitive without an ONNX form is an error
naming it and the user's source line.

The ``onnx`` package is imported only when a model is written: ``pip install onnx``.
"""
from __future__ import annotations

from mindspore._errors import MSTypeError

__all__ = ["save", "build"]


def build(captured, *, input_names=None, output_names=None, export_params=True, keep_initializers_as_inputs=False):
    """The ``onnx.ModelProto`` of ``captured`` (not checked, not written)."""
    from mindspore._deploy.onnx import _model
    return _model.build(captured, input_names, output_names, export_params, keep_initializers_as_inputs)


def save(captured, path, *, input_names=None, output_names=None, export_params=True,
         keep_initializers_as_inputs=False, encrypt=None):
    """Write the ONNX model of ``captured`` to ``path`` atomically.

    Args:
        captured (Captured): the network, from :func:`mindspore._deploy.capture.capture` (``composites=True``
            keeps LSTM/GRU/RNN layers whole).
        path (str): the model file.
        input_names (list[str]): names of the graph inputs, in order (the first ones when shorter).
        output_names (list[str]): names of the graph outputs, in order (the first ones when shorter).
        export_params (bool): write the weights as initializers; ``False`` makes them graph inputs.
        keep_initializers_as_inputs (bool): also list the weights among the graph inputs.
        encrypt (Callable[[bytes], bytes]): applied to the serialized model (customized encryption).
    """
    from mindspore._deploy.onnx import _model
    if encrypt is not None and not callable(encrypt):
        raise MSTypeError(f"For 'export', the 'encrypt' must be a function bytes -> bytes, but got "
                          f"{type(encrypt).__name__}.")
    model = _model.build(captured, input_names, output_names, bool(export_params), bool(keep_initializers_as_inputs))
    _model.write(model, path, encrypt)
