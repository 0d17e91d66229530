"""``mindspore.common.symbol.Symbol``: a symbolic dimension of a dynamic-shape Tensor (``Tensor(shape=[Symbol(...),
3])``), as in MindSpore 2.10. It depends on nothing of the framework, so ``Tensor`` can read it."""

__all__ = ["Symbol"]


class Symbol:
    """A symbolic dimension for a dynamic-shape Tensor: ``max``/``min`` bounds, and ``divisor * N + remainder``.

    Examples:
        >>> import mindspore as ms
        >>> s = ms.Symbol(max=64, divisor=8)
        >>> ms.Tensor(shape=[s, 3], dtype=ms.float32)
    """

    def __init__(self, max=0, min=1, divisor=1, remainder=0, unique=False, **kwargs):  # noqa: A002 - MindSpore's names
        for name, value, typ in (("max", max, int), ("min", min, int), ("divisor", divisor, int),
                                 ("remainder", remainder, int), ("unique", unique, bool)):
            if not isinstance(value, typ):
                raise TypeError(f"For 'Symbol', the argument '{name}' must be {typ.__name__}, but got {type(value)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got {divisor}")
        if remainder < 0 or remainder >= divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range '[0, {divisor})', but got "
                             f"{remainder}")
        self.max = max
        self.min = min
        self.divisor = divisor
        self.remainder = remainder
        self.unique = unique
        self.id = id(self)

    def to_dict(self):
        res = {}
        if self.max > self.min:
            res["max"] = self.max
        if self.min > self.divisor + self.remainder:   # the symbol is "d * N + r" with N >= 1
            res["min"] = self.min
        if self.divisor != 1:
            res["divisor"] = self.divisor
        if self.remainder != 0:
            res["remainder"] = self.remainder
        if self.unique:
            res["id"] = self.id
        return res

    def __str__(self):
        return str(self.to_dict())

    def accepts(self, dim):
        """Whether a concrete dimension ``dim`` satisfies this symbol."""
        if dim < self.min or (self.max > 0 and dim > self.max):
            return False
        return dim % self.divisor == self.remainder
