"""Turning samples into batches: :func:`default_collate` (batching on) and :func:`default_convert` (batching off).

Both walk the sample's structure: mappings keep their keys, namedtuples their type, other tuples become lists (as
2.10, for backwards compatibility with PyTorch), other sequences keep their type when it can be rebuilt. At the
leaves, :func:`collate` looks the element's type up in a ``collate_fn_map`` (exact type first, then ``isinstance``
in the map's order). With 2.10's map, NumPy arrays, NumPy scalars, Python numbers and Tensors become one
:class:`mindspore.Tensor` stacked along a new first axis; Python floats become Float64 (the only case that does not
follow :class:`~mindspore.Tensor`'s own inference, which makes them Float32), ints Int64, bools Bool; strings and
bytes stay a list.
"""
import copy
from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence

import numpy as np

from mindspore import Tensor, float64

__all__ = ["collate", "default_collate", "default_collate_fn_map", "default_convert"]


def _not_a_tensor_dtype(array):
    # strings, bytes and Python objects (NumPy kinds U, S, O) have no Tensor dtype
    return array.dtype.kind in "USO"


def _rebuild_mapping(mapping, values):
    """``mapping``'s type holding ``values`` (a dict with the same keys); a plain dict if the type cannot."""
    try:
        if isinstance(mapping, MutableMapping):
            clone = copy.copy(mapping)   # keeps the attributes of a dict subclass
            clone.update(values)
            return clone
        return type(mapping)(values)
    except TypeError:
        return values


def _rebuild_sequence(sequence, items):
    """``sequence``'s type holding ``items``; a list if the type cannot be rebuilt (``range``, ...)."""
    try:
        if isinstance(sequence, MutableSequence):
            clone = copy.copy(sequence)
            for i, item in enumerate(items):
                clone[i] = item
            return clone
        return type(sequence)(items)
    except TypeError:
        return list(items)


def default_convert(data):
    """Convert the NumPy arrays and scalars in one sample to :class:`mindspore.Tensor` (batching disabled).

    * a NumPy array whose dtype is not ``str``, ``bytes`` or ``object``, or a NumPy number or bool: a Tensor of the
      same dtype (arrays of strings or objects stay arrays);
    * a mapping: the same keys, each value converted; a namedtuple: its type, each field converted; another tuple:
      a list of the converted items; another sequence (not ``str``/``bytes``): its type if it can be rebuilt, else
      a list;
    * anything else (Python numbers, strings, Tensors): unchanged.

    Args:
        data (Any): one sample.

    Returns:
        Any, the converted sample.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset.dataloader import default_convert
        >>> default_convert({"data": np.array([0, 1, 2])})
        {'data': Tensor(shape=[3], dtype=Int64, value= [0, 1, 2])}
    """
    if isinstance(data, Tensor):
        return data
    if isinstance(data, (np.number, np.bool_)):
        return Tensor(data)
    if isinstance(data, np.ndarray):
        return data if _not_a_tensor_dtype(data) else Tensor.from_numpy(data)
    if isinstance(data, Mapping):
        return _rebuild_mapping(data, {key: default_convert(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(item) for item in data))
    if isinstance(data, tuple):
        return [default_convert(item) for item in data]
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_sequence(data, [default_convert(item) for item in data])
    return data


def collate(batch, *, collate_fn_map=None):
    """Collate ``batch`` (a list of samples of one structure) with the leaf functions of ``collate_fn_map``.

    A leaf function is called as ``fn(batch, collate_fn_map=collate_fn_map)``. The element's exact type is looked up
    first, then each key (a type or a tuple of types) with ``isinstance``, in order. Mappings are collated key by
    key, sequences position by position (all of one length), namedtuples field by field.

    Args:
        batch (list): the samples.

    Keyword Args:
        collate_fn_map (dict, optional): element type (or tuple of types) to leaf function. Default: ``None``.

    Returns:
        Any, the collated batch.

    Raises:
        TypeError: an element type that neither the map nor the structural rules handle.
        RuntimeError: sequences of different lengths.

    Examples:
        >>> import mindspore
        >>> from mindspore.dataset.dataloader._utils.collate import collate
        >>> collate([(0, 3), (1, 4)], collate_fn_map={int: lambda b, *, collate_fn_map: mindspore.tensor(b)})
        [Tensor(shape=[2], dtype=Int64, value= [0, 1]), Tensor(shape=[2], dtype=Int64, value= [3, 4])]
    """
    elem = batch[0]
    if collate_fn_map is not None:
        leaf_fn = collate_fn_map.get(type(elem))
        if leaf_fn is None:
            leaf_fn = next((fn for types, fn in collate_fn_map.items() if isinstance(elem, types)), None)
        if leaf_fn is not None:
            return leaf_fn(batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, Mapping):
        return _rebuild_mapping(elem, {key: collate([sample[key] for sample in batch], collate_fn_map=collate_fn_map)
                                       for key in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(collate(field, collate_fn_map=collate_fn_map) for field in zip(*batch)))
    if isinstance(elem, Sequence):
        if len({len(sample) for sample in batch}) > 1:
            raise RuntimeError("Each element in list of batch must be of equal size.")
        columns = [collate(column, collate_fn_map=collate_fn_map) for column in zip(*batch)]
        if isinstance(elem, tuple):
            return columns
        return _rebuild_sequence(elem, columns)
    raise TypeError(f"Cannot find the appropriate collate function for type {type(elem)} in collate_fn_map.")


def _stack_tensors(batch, *, collate_fn_map=None):  # noqa: ARG001 - the leaf-function signature
    return Tensor(np.stack([np.asarray(t.asnumpy()) for t in batch], axis=0))


def _stack_arrays(batch, *, collate_fn_map=None):
    if _not_a_tensor_dtype(batch[0]):
        raise TypeError(f"NumPy arrays with dtype {batch[0].dtype} are not supported for collation.")
    # through the Tensor entry, so that a map overriding how Tensors stack applies to arrays too
    return collate([Tensor.from_numpy(array) for array in batch], collate_fn_map=collate_fn_map)


def _tensor_of(batch, *, collate_fn_map=None):  # noqa: ARG001
    return Tensor(list(batch))


def _float64_tensor(batch, *, collate_fn_map=None):  # noqa: ARG001
    return Tensor(list(batch), dtype=float64)


def _as_list(batch, *, collate_fn_map=None):  # noqa: ARG001
    return batch


#: 2.10's leaf functions of :func:`default_collate`, in its lookup order
default_collate_fn_map = {
    Tensor: _stack_tensors,
    np.ndarray: _stack_arrays,
    (np.bool_, np.number, np.object_): _tensor_of,
    float: _float64_tensor,
    int: _tensor_of,
    str: _as_list,
    bytes: _as_list,
}


def default_collate(batch):
    """Stack a list of samples into a batch along a new first axis (batching enabled).

    * Tensors, NumPy arrays (not of strings or objects), NumPy scalars and Python ints and bools: one
      :class:`mindspore.Tensor` (NumPy's dtype kept; ints Int64; Python floats Float64);
    * strings and bytes: the list of them;
    * mappings, namedtuples and other sequences: collated recursively by key, field or position (tuples give
      lists).

    Args:
        batch (list): the samples.

    Returns:
        Any, the batch.

    Examples:
        >>> from mindspore.dataset.dataloader import default_collate
        >>> default_collate([{"data": 0, "label": 2}, {"data": 1, "label": 3}])
        {'data': Tensor(shape=[2], dtype=Int64, value= [0, 1]), 'label': Tensor(shape=[2], dtype=Int64, value= [2, 3])}
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)
