"""``mindspore.dataset.text``: vocabularies, vocabulary lookup, simple tokenizers and sequence transforms.

Examples:
    >>> import numpy as np
    >>> from mindspore.dataset import text
    >>> vocab = text.Vocab.from_list(["hello", "world"], special_tokens=["<unk>"])
    >>> tokens = text.WhitespaceTokenizer()("hello big world")
    >>> text.Lookup(vocab, unknown_token="<unk>")(tokens)
    array([1, 0, 2], dtype=int32)
"""
from mindspore.dataset.text import transforms, transforms_more, utils, vectors
from mindspore.dataset.text.transforms import *  # noqa: F401,F403
from mindspore.dataset.text.transforms import __all__ as _transforms_all
from mindspore.dataset.text.transforms_more import *  # noqa: F401,F403
from mindspore.dataset.text.transforms_more import __all__ as _transforms_more_all
from mindspore.dataset.text.utils import *  # noqa: F401,F403
from mindspore.dataset.text.utils import __all__ as _utils_all
from mindspore.dataset.text.vectors import *  # noqa: F401,F403
from mindspore.dataset.text.vectors import __all__ as _vectors_all

__all__ = sorted(_transforms_all + _transforms_more_all) + sorted(_utils_all + _vectors_all)
