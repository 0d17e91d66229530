"""``nn.Embedding``: a lookup table of ``vocab_size`` vectors of size ``embedding_size``.

The table is the Parameter ``embedding_table`` (vocab_size, embedding_size), initialised by default with
``'normal'``, i.e. MindSpore's ``Normal(sigma=0.01)``. A ``padding_idx`` row is zeroed at creation only
(its gradient is not masked, as in MindSpore). ``use_one_hot=True`` computes the lookup as a one-hot
matrix product, which gives the same values.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk

__all__ = ["Embedding"]


class Embedding(Cell):
    r"""Maps integer ids to vectors: ``output[..., :] = embedding_table[ids[...]]``.

    Args:
        vocab_size (int): number of rows.
        embedding_size (int): size of each vector.
        use_one_hot (bool): compute the lookup as ``one_hot(ids) @ table``. Default: ``False``.
        embedding_table (Union[Tensor, str, Initializer, numbers.Number]): initializer of the table.
            Default: ``'normal'`` (N(0, 0.01^2)).
        dtype (mindspore.dtype): dtype of the table. Default: ``mindspore.float32``.
        padding_idx (int, None): a row in [0, vocab_size) set to zeros at creation. Default: ``None``.

    Inputs:
        - **x** (Tensor) - integer ids (int32 or int64) of any shape.

    Outputs:
        Tensor of shape ``x.shape + (embedding_size,)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Embedding(20000, 768, True)
        >>> net(ms.Tensor(np.ones([8, 128]), ms.int32)).shape
        (8, 128, 768)
    """

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=mstype.float32, padding_idx=None):
        super().__init__()
        self.vocab_size = chk.check_int("Embedding", "vocab_size", vocab_size)
        self.embedding_size = chk.check_int("Embedding", "embedding_size", embedding_size)
        self.use_one_hot = chk.check_bool("Embedding", "use_one_hot", use_one_hot)
        if not isinstance(dtype, mstype.Type) or dtype not in mstype.number_type:
            raise MSTypeError(f"For 'Embedding', the 'dtype' must be a number type, but got {dtype}.")
        self.dtype = dtype
        table = initializer(embedding_table, [vocab_size, embedding_size], dtype=dtype)
        self.padding_idx = padding_idx
        if padding_idx is not None:
            self.padding_idx = chk.check_int("Embedding", "padding_idx", padding_idx)
            if not 0 <= padding_idx < vocab_size:
                raise MSValueError(f"For 'Embedding', the 'padding_idx' must be in range [0, {vocab_size}), but got "
                                   f"{padding_idx}.")
            data = table.init_data().asnumpy().copy()
            data[padding_idx] = 0
            table = Tensor(data, dtype)
        self.embedding_table = Parameter(table, name="embedding_table")
        self.gather = ops.Gather()
        self.one_hot = ops.OneHot()
        self.on_value = Tensor(1.0, dtype)
        self.off_value = Tensor(0.0, dtype)

    def construct(self, ids):
        chk.check_tensor("Embedding", "ids", ids)
        if ids.dtype not in mstype.int_type and ids.dtype not in mstype.uint_type:
            raise MSTypeError(f"For 'Embedding', the 'ids' must be a Tensor of int32 or int64, but got {ids.dtype}.")
        out_shape = tuple(ids.shape) + (self.embedding_size,)
        flat_ids = ops.reshape(ids, (-1,))
        if self.use_one_hot:
            one_hot_ids = self.one_hot(flat_ids, self.vocab_size, self.on_value, self.off_value)
            flat = ops.matmul(one_hot_ids, self.embedding_table)
        else:
            flat = self.gather(self.embedding_table, flat_ids, 0)
        return ops.reshape(flat, out_shape)

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx={self.padding_idx}")


# MindSpore groups mindspore.nn's cells into its own modules: a cell imported from its `nn.layer.embedding` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.nn")
