"""DLPack exchange: :func:`to_dlpack` and :func:`from_dlpack` share a tensor's memory with other frameworks.

The device runtime does the work (:meth:`mindspore.plugin.DeviceRuntime.to_dlpack`/``from_dlpack``): by default
the buffer's own ``__dlpack__`` (NumPy and CuPy arrays have one), and on a host runtime ``numpy.from_dlpack``. No
data is copied: the capsule and the tensor made from it share memory with the source.
"""
from mindspore._errors import MSTypeError
from mindspore._runtime import backend
from mindspore.common.dtype import to_ms_dtype
from mindspore.common.tensor import Tensor

__all__ = ["to_dlpack", "from_dlpack"]


def to_dlpack(tensor):
    """A DLPack capsule (``"dltensor"``) sharing ``tensor``'s memory, for another framework's ``from_dlpack``.

    Args:
        tensor (Tensor): the tensor to share (materialised first if it was made with ``init``).

    Returns:
        PyCapsule, consumable once.

    Raises:
        TypeError: ``tensor`` is not a Tensor.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore.utils import to_dlpack, from_dlpack
        >>> x = ms.Tensor([1.0, 2.0])
        >>> from_dlpack(to_dlpack(x))
        Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])
    """
    if not isinstance(tensor, Tensor):
        raise MSTypeError(f"For 'to_dlpack', the 'tensor' must be Tensor, but got {type(tensor).__name__}.")
    buffer = tensor._buffer()
    return backend.owner_of(buffer).to_dlpack(buffer)


def from_dlpack(dlpack):
    """A Tensor sharing the memory of ``dlpack``: a DLPack capsule, or an object with ``__dlpack__`` (a NumPy or
    CuPy array, another framework's tensor).

    Raises:
        TypeError: ``dlpack`` is neither.
        RuntimeError: the capsule was already consumed, or holds memory this device cannot read.
    """
    if type(dlpack).__name__ != "PyCapsule" and not hasattr(dlpack, "__dlpack__"):
        raise MSTypeError(f"For 'from_dlpack', the 'dlpack' must be a DLPack capsule or an object with "
                          f"'__dlpack__', but got {type(dlpack).__name__}.")
    buffer = backend.data_runtime().from_dlpack(dlpack)
    return Tensor._make(buffer, to_ms_dtype(buffer.dtype))
