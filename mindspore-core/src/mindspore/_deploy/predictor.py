"""``mindspore.Predictor``: a lean inference entry point for MindIR models.

It needs the graph runtime only: the MindIR reader, our primitives, the compiler and the eager dispatcher. It
imports nothing of ``mindspore.nn``, ``mindspore.train.model`` or ``mindspore.dataset`` (a test runs it with
those imports made to fail), so an inference service depends on as little as a model file does.
"""
from __future__ import annotations

import os

import numpy as np

from mindspore._deploy.mindir.reader import MindIRGraph, load
from mindspore._errors import MSTypeError, MSValueError
from mindspore._pipeline.compiler import cache_for, compiled_entry, generation
from mindspore._runtime import dispatch as _dispatch
from mindspore.common.tensor import Tensor

__all__ = ["Predictor"]

# Importing the eager dispatcher installs the interpreter our primitives run on: without ``import mindspore``
# (which does it too) a Predictor still works.
_EAGER_INTERPRETER = _dispatch


class Predictor:
    """Run a MindIR model on NumPy arrays: load it once, compile it once per input shape, predict.

    Our counterpart of MindSpore Lite's ``mindspore_lite.Model`` for MindIR files, with the same steps under
    simpler names: the constructor is Lite's ``build_from_file(model_path, ModelType.MINDIR, dec_key=...,
    dec_mode=...)``; :attr:`inputs` is ``get_inputs()`` (each input's name, shape with ``-1`` for a dynamic
    dimension, and dtype); :meth:`predict` is ``predict(inputs)``, taking and returning NumPy arrays instead of
    Lite tensors. There is no ``resize``: every new input shape is compiled on its first call and reused after
    (as ``nn.GraphCell`` does), so a dynamic batch needs nothing declared. :meth:`predict_batches` streams an
    iterable of batches through the model. As Lite's built model, a compiled shape reads the weights as
    constants (BatchNorm is folded into the convolution before it): giving a weight new data
    (``graph.update_parameters``) compiles again, a write into a weight's array in place is not seen.

    Args:
        model (Union[str, MindIRGraph]): the path of a ``.mindir`` file, or a graph ``mindspore.load`` returned.
        dec_key (bytes, optional): the key of an encrypted file. Default: ``None``.
        dec_mode (Union[str, function], optional): ``"AES-GCM"``, ``"AES-CBC"``, ``"SM4-CBC"`` or a function
            ``dec_mode(data, dec_key) -> bytes``. Default: ``"AES-GCM"``.

    Raises:
        TypeError: If ``model`` is neither a path nor a loaded graph.
        ValueError: If the file does not exist or is not a ``.mindir`` file.
        RuntimeError: If the file can not be decrypted, parsed, or uses a primitive this loader does not run.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> predictor = ms.Predictor("lenet.mindir")
        >>> predictor.inputs
        (MindIRInput(name='x', shape=(-1, 1, 32, 32), dtype=Float32),)
        >>> logits = predictor.predict(np.zeros((4, 1, 32, 32), np.float32))
        >>> logits.shape
        (4, 10)
    """

    def __init__(self, model, dec_key=None, dec_mode="AES-GCM"):
        if isinstance(model, MindIRGraph):
            graph = model
        elif isinstance(model, (str, os.PathLike)):
            path = os.fspath(model)
            if not path.endswith(".mindir"):
                raise MSValueError(f"For 'Predictor', the 'model' must be a MindIR file ending with '.mindir', but "
                                   f"got '{path}'.")
            if not os.path.isfile(path):
                raise MSValueError(f"For 'Predictor', the MindIR file '{path}' does not exist.")
            if dec_key is not None and not isinstance(dec_key, bytes):
                raise MSTypeError(f"For 'Predictor', the 'dec_key' must be bytes, but got {type(dec_key).__name__}.")
            graph = load(os.path.realpath(path), dec_key=dec_key, dec_mode=dec_mode)
        else:
            raise MSTypeError(f"For 'Predictor', the 'model' must be a path of a MindIR file or a graph loaded by "
                              f"mindspore.load, but got {type(model).__name__}.")
        self._graph = graph
        self._last = None   # (shapes and dtypes of the last call's arrays, its compiled graph, generation())

    @property
    def inputs(self):
        """``(name, shape, dtype)`` of each input; ``-1`` marks a dimension of any size."""
        return self._graph.inputs

    @property
    def outputs(self):
        """``(name, shape, dtype)`` of each output, as the file declares them."""
        return self._graph.outputs

    @property
    def graph(self):
        """The loaded :class:`~mindspore._deploy.mindir.reader.MindIRGraph`."""
        return self._graph

    def predict(self, *inputs):
        """Run the model on ``inputs`` (NumPy arrays, Tensors or nested lists, one per model input).

        A NumPy array whose dtype differs from the input's is cast when the cast stays within its kind
        (``float64`` -> ``float32``, ``int64`` -> ``int32``); anything else is an error.

        Returns:
            A NumPy array, or a tuple of them when the model returns several values.
        """
        last = self._last
        if last is not None:
            # batch after batch of one shape: the checks and the compiled graph of the last call hold (the cache
            # lookup costs about as much as a small layer)
            layout, entry, gen, direct = last
            if len(inputs) == len(layout) and all(type(x) is np.ndarray and x.shape == shape and x.dtype == dtype
                                                  for x, (shape, dtype) in zip(inputs, layout)) \
                    and gen == generation() and not entry.stale():
                if direct is not None:
                    return direct(inputs)
                return _to_numpy(entry.run(tuple(Tensor(x) for x in inputs), None))
        tensors = tuple(self._tensor(i, x) for i, x in enumerate(inputs))
        self._graph.check_inputs(tensors, "Predictor.predict")
        entry = compiled_entry(cache_for(self), self._graph.run, tensors, name="Predictor", freeze_weights=True)
        out = entry.run(tensors, None)
        if all(type(x) is np.ndarray and x.dtype == t.dtype.to_numpy() for x, t in zip(inputs, tensors)):
            self._last = (tuple((x.shape, x.dtype) for x in inputs), entry, generation(),
                          _direct_runner(entry, len(inputs)))
        else:
            self._last = None
        return _to_numpy(out)

    __call__ = predict

    def predict_batches(self, batches):
        """Yield :meth:`predict` of each item of ``batches``: a tuple of inputs, or one array for a one-input
        model. Nothing is read ahead: each batch is run when the next output is asked for."""
        for batch in batches:
            yield self.predict(*(batch if isinstance(batch, (tuple, list)) else (batch,)))

    def _tensor(self, i, x):
        if isinstance(x, Tensor):
            return x
        specs = self._graph.inputs
        dtype = specs[i].dtype if i < len(specs) else None
        arr = np.asarray(x)
        if dtype is not None:
            want = np.dtype(dtype.to_numpy())
            if arr.dtype != want:
                if not np.can_cast(arr.dtype, want, casting="same_kind"):
                    raise MSTypeError(f"For 'Predictor.predict', input {i} '{specs[i].name}' must have dtype {dtype}, "
                                      f"but got a NumPy array of {arr.dtype}, which does not cast to it safely.")
                arr = arr.astype(want)
        return Tensor(arr)

    def __repr__(self):
        ins = ", ".join(f"{i.name}: {i.dtype}{list(i.shape) if i.shape is not None else ''}" for i in self.inputs)
        return f"Predictor({self._graph.source!r}, inputs=({ins}))"


def _direct_runner(entry, n):
    """For a compiled graph whose program takes the ``n`` arrays in order and returns graph values only (a loaded
    MindIR's, with its weights frozen): a function running it on NumPy arrays straight through the runtime's
    transfers (no Tensor objects, no flattening of arguments), or None. The arrays are not copied on a host
    runtime: a graph never writes into its inputs (the memory plan keeps them); an output that may share memory
    with an input (a view of it) is copied, so that outputs never alias the caller's arrays."""
    from mindspore._infer.staging import unflatten
    from mindspore._runtime import backend

    p = entry.program
    if p.state or p.guards or tuple(p.input_leaves) != tuple(range(n)) or \
            any(kind != "graph" for kind, _ in p.out_plan):
        return None
    runtime = backend.data_runtime()
    executable, weights, tree = entry.executable, p.weights, p.out_tree
    plan = [k for _, k in p.out_plan]
    from_host, to_host, host = runtime.from_host, runtime.to_host, runtime.is_host

    def run(arrays):
        arrays = [a if a.flags.c_contiguous else np.ascontiguousarray(a) for a in arrays]
        outs = executable(*[from_host(a) for a in arrays], *[w._buffer() for w in weights])
        values = [to_host(outs[k]) for k in plan]
        if host:
            values = [v.copy() if any(np.may_share_memory(v, a) for a in arrays) else v for v in values]
        return _to_numpy(unflatten(tree, values))
    return run


def _to_numpy(out):
    if isinstance(out, (tuple, list)):
        return tuple(_to_numpy(o) for o in out)
    if isinstance(out, Tensor):
        return out.asnumpy()
    return out
