"""Discrete cosine transforms of ``mindspore.scipy`` (SciPy's ``scipy.fft`` API): the orthonormal type II
transform ``dct``/``dctn`` and its inverse ``idct``/``idctn``, each one call of its primitive (``DCT``,
``IDCT``, ``DCTN``, ``IDCTN``, also exposed here as in MindSpore 2.10), differentiable and usable in GRAPH_MODE."""
from mindspore.ops._defs.array import cached_prim
from mindspore.ops._defs.dct import DCT, DCTN, IDCT, IDCTN

__all__ = ['dct', 'idct', 'dctn', 'idctn']


def dct(x, type=2, n=None, axis=-1, norm=None):  # pylint: disable=redefined-builtin
    """Compute the Discrete Cosine Transform of input tensor x.

    Args:
        x (Tensor): Tensor to transform (int16, int32, int64, float16, float32, float64, complex64, complex128).
        type (int, optional): Type of the DCT; only ``2`` is supported. Default: ``2``.
        n (int, optional): Length of the transform: `x` is truncated or zero-padded to it along `axis`.
            Default: ``None`` (``x.shape[axis]``).
        axis (int, optional): Axis along which the transform is computed. Default: ``-1``.
        norm (str, optional): Normalization mode; only ``"ortho"`` is supported. Default: ``None`` (``"ortho"``).

    Returns:
        Tensor, the transform: float32 for integer, float16 and float32 input, else the dtype of `x`; the size
        of `axis` is `n`.

    Raises:
        TypeError: If `x` is not a Tensor of a supported dtype, or `n`/`axis` is not an int.
        ValueError: If `type` is not 2, `norm` not "ortho", `axis` out of range or `n` less than 1.

    Supported Platforms:
        ``Ascend`` ``CPU``

    Examples:
        >>> from mindspore.scipy.fft import dct
        >>> from mindspore import Tensor
        >>> print(dct(Tensor([1, 2, 3]), 2, 3, -1, "ortho"))
        [ 3.4641018e+00 -1.4142137e+00 -5.9604645e-08]
    """
    return cached_prim(DCT)(x, type, n, axis, norm)


def idct(x, type=2, n=None, axis=-1, norm=None):  # pylint: disable=redefined-builtin
    """Compute the inverse Discrete Cosine Transform of input tensor x (the inverse of :func:`dct`).

    Args:
        x (Tensor): Tensor to transform (int16, int32, int64, float16, float32, float64, complex64, complex128).
        type (int, optional): Type of the DCT inverted; only ``2`` is supported. Default: ``2``.
        n (int, optional): Length of the transform. Default: ``None`` (``x.shape[axis]``).
        axis (int, optional): Axis along which the transform is computed. Default: ``-1``.
        norm (str, optional): Normalization mode; only ``"ortho"`` is supported. Default: ``None`` (``"ortho"``).

    Returns:
        Tensor, as for :func:`dct`.

    Raises:
        TypeError: If `x` is not a Tensor of a supported dtype, or `n`/`axis` is not an int.
        ValueError: If `type` is not 2, `norm` not "ortho", `axis` out of range or `n` less than 1.

    Supported Platforms:
        ``Ascend`` ``CPU``

    Examples:
        >>> from mindspore.scipy.fft import idct
        >>> from mindspore import Tensor
        >>> print(idct(Tensor([1, 2, 3]), 2, 3, -1, "ortho"))
        [ 3.2163088  -1.8721395   0.38788158]
    """
    return cached_prim(IDCT)(x, type, n, axis, norm)


def dctn(x, type=2, s=None, axes=None, norm=None):  # pylint: disable=redefined-builtin
    """Compute the N-dimensional Discrete Cosine Transform of input tensor x.

    Args:
        x (Tensor): Tensor to transform (int16, int32, int64, float16, float32, float64, complex64, complex128).
        type (int, optional): Type of the DCT; only ``2`` is supported. Default: ``2``.
        s (tuple[int], optional): Signal sizes along `axes` (truncation or zero padding). Default: ``None``.
        axes (tuple[int], optional): Axes of the transform. Default: ``None``: every axis, or the last
            ``len(s)`` when `s` is given.
        norm (str, optional): Normalization mode; only ``"ortho"`` is supported. Default: ``None`` (``"ortho"``).

    Returns:
        Tensor, the transform (dtype as for :func:`dct`), `axes` resized to `s`.

    Raises:
        TypeError: If `x` is not a Tensor of a supported dtype, or `s`/`axes` hold non-ints.
        ValueError: If `type` is not 2, `norm` not "ortho", `axes` out of range or repeated, `s` less than 1
            or of another length than `axes`.

    Supported Platforms:
        ``Ascend`` ``CPU``

    Examples:
        >>> from mindspore.scipy.fft import dctn
        >>> from mindspore import Tensor
        >>> print(dctn(Tensor([[1, 2, 3], [2, 1, 1]]), 2, s=(2, 3), axes=(0, 1), norm="ortho"))
        [[ 4.082483   -0.49999988  0.28867507]
         [ 0.81649655 -1.4999999  -0.28867507]]
    """
    return cached_prim(DCTN)(x, type, s, axes, norm)


def idctn(x, type=2, s=None, axes=None, norm=None):  # pylint: disable=redefined-builtin
    """Compute the N-dimensional inverse Discrete Cosine Transform of input tensor x (the inverse of
    :func:`dctn`).

    Args:
        x (Tensor): Tensor to transform (int16, int32, int64, float16, float32, float64, complex64, complex128).
        type (int, optional): Type of the DCT inverted; only ``2`` is supported. Default: ``2``.
        s (tuple[int], optional): Signal sizes along `axes`. Default: ``None``.
        axes (tuple[int], optional): Axes of the transform. Default: ``None`` (as :func:`dctn`).
        norm (str, optional): Normalization mode; only ``"ortho"`` is supported. Default: ``None`` (``"ortho"``).

    Returns:
        Tensor, as for :func:`dctn`.

    Raises:
        TypeError: If `x` is not a Tensor of a supported dtype, or `s`/`axes` hold non-ints.
        ValueError: As for :func:`dctn`.

    Supported Platforms:
        ``Ascend`` ``CPU``

    Examples:
        >>> from mindspore.scipy.fft import idctn
        >>> from mindspore import Tensor
        >>> print(idctn(Tensor([[1, 2, 3], [2, 1, 1]]), 2, s=(2, 3), axes=(0, 1), norm="ortho"))
        [[ 3.8794453  -1.0846562   0.8794453 ]
         [ 0.66910195 -1.5629487  -0.33089805]]
    """
    return cached_prim(IDCTN)(x, type, s, axes, norm)
