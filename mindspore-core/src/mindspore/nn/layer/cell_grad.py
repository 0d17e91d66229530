"""``Jvp`` and ``Vjp``: Cells computing a function's output with its Jacobian-vector / vector-Jacobian product
(MindSpore 2.10 keeps them, deprecated in favour of ``ops.jvp`` / ``ops.vjp``, which they call).

Both are called as ``cell(*inputs, v)``: the last argument is the vector (a Tensor, or a tuple for several
inputs/outputs), and they return ``(output, product)``; with a single input the product is a Tensor, else a
tuple with one entry per input.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError
from mindspore.nn.cell import Cell

__all__ = ["Jvp", "Vjp"]


class Jvp(Cell):
    """``(fn(*inputs), J(inputs) @ v)``: forward-mode product of ``fn``'s Jacobian with ``v``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> jvp = nn.Jvp(lambda x, y: x ** 3 + y)
        >>> x = ms.Tensor(np.array([1., 2.], np.float32))
        >>> y = ms.Tensor(np.array([3., 4.], np.float32))
        >>> v = ms.Tensor(np.ones(2, np.float32))
        >>> out, prod = jvp(x, y, (v, v))
        >>> out.asnumpy().tolist(), prod.asnumpy().tolist()
        ([4.0, 12.0], [4.0, 13.0])
    """

    def __init__(self, fn):
        super().__init__()
        if not callable(fn):
            raise MSTypeError(f"For 'Jvp', the 'fn' must be a Cell or a function, but got {type(fn).__name__}.")
        self.fn = fn

    def construct(self, *args):
        inputs, v = args[:-1], args[-1]
        if len(inputs) == 1:
            return ops.jvp(self.fn, inputs[0], v)
        return ops.jvp(self.fn, tuple(inputs), v)


class Vjp(Cell):
    """``(fn(*inputs), v @ J(inputs))``: reverse-mode product of ``v`` with ``fn``'s Jacobian.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> vjp = nn.Vjp(lambda x, y: x ** 3 + y)
        >>> x = ms.Tensor(np.array([1., 2.], np.float32))
        >>> y = ms.Tensor(np.array([3., 4.], np.float32))
        >>> out, (dx, dy) = vjp(x, y, ms.Tensor(np.ones(2, np.float32)))
        >>> dx.asnumpy().tolist(), dy.asnumpy().tolist()
        ([3.0, 12.0], [1.0, 1.0])
    """

    def __init__(self, fn):
        super().__init__()
        if not callable(fn):
            raise MSTypeError(f"For 'Vjp', the 'fn' must be a Cell or a function, but got {type(fn).__name__}.")
        self.fn = fn

    def construct(self, *args):
        inputs, v = args[:-1], args[-1]
        output, vjp_fn = ops.vjp(self.fn, *inputs)
        grads = vjp_fn(v)
        if len(inputs) == 1 and isinstance(grads, (tuple, list)):
            return output, grads[0]
        return output, grads if len(inputs) == 1 else tuple(grads)
