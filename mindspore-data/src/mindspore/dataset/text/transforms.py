"""Text transforms of ``mindspore.dataset.text``: vocabulary lookup, simple tokenizers and sequence
editing. Tokenizers take a scalar string (a 0-d ``str_`` array or a Python ``str``) and return a 1-D
``str_`` array of tokens; with ``with_offsets=True`` they also return the start and end byte
offsets (UTF-8) of every token as uint32 arrays.
"""
import enum
import re

import numpy as np

from mindspore.plugin import MSTypeError
from mindspore.common import dtype as mstype
from mindspore.dataset.transforms._base import (
    TensorOperation, check_bool, check_int, check_pos_int, check_type, runtime_error, to_array)
from mindspore.dataset.transforms.transforms import to_numpy_dtype
from mindspore.dataset.text.utils import Vocab, to_str

__all__ = ["AddToken", "Lookup", "PythonTokenizer", "SlidingWindow", "ToNumber", "Truncate", "UnicodeCharTokenizer",
           "WhitespaceTokenizer"]


class Implementation(enum.IntEnum):
    """Implementation types for operations (MindSpore 2.10 keeps this name here, out of ``__all__``; MindNLP's
    tokenizers set ``Implementation.PY``). Here every text operation is written in Python.

    - Implementation.C: the operation is implemented in C++
    - Implementation.PY: the operation is implemented in Python
    """

    C = 0
    PY = 1


def _strings(value, op_name):
    array = value if isinstance(value, np.ndarray) else np.asarray(value)
    if array.dtype.kind not in ("U", "S", "O"):
        raise runtime_error(op_name, f"the input should be string, but got {array.dtype}.")
    return to_str(array)


def _scalar_string(value, op_name):
    array = _strings(to_array(value, op_name) if not isinstance(value, str) else np.asarray(value), op_name)
    if array.ndim != 0:
        raise runtime_error(op_name, f"the input should be a scalar string tensor, but got shape {array.shape}.")
    return str(array)


def _with_offsets(text, spans, with_offsets):
    """Tokens (``[""]`` for no token, as MindSpore) and, when asked, their UTF-8 byte offsets."""
    if not spans:
        spans = [(0, 0)]
    tokens = np.array([text[a:b] for a, b in spans], dtype=np.str_)
    if not with_offsets:
        return tokens
    byte_pos = np.cumsum([0] + [len(ch.encode("utf-8")) for ch in text])
    starts = np.array([byte_pos[a] for a, _ in spans], dtype=np.uint32)
    limits = np.array([byte_pos[b] for _, b in spans], dtype=np.uint32)
    return tokens, starts, limits


class WhitespaceTokenizer(TensorOperation):
    """Split a string on Unicode whitespace.

    Args:
        with_offsets (bool, optional): also return start/end byte offsets. Default: ``False``.

    Raises:
        RuntimeError: the input is not a scalar string.

    Examples:
        >>> from mindspore.dataset import text
        >>> text.WhitespaceTokenizer()("Welcome to  Beijing")
        array(['Welcome', 'to', 'Beijing'], dtype='<U7')
    """

    def __init__(self, with_offsets=False):
        self.with_offsets = check_bool(with_offsets, "with_offsets")

    def __call__(self, value):
        text = _scalar_string(value, "WhitespaceTokenizer")
        spans = [match.span() for match in re.finditer(r"\S+", text)]
        return _with_offsets(text, spans, self.with_offsets)


class UnicodeCharTokenizer(TensorOperation):
    """Split a string into its Unicode characters.

    Args:
        with_offsets (bool, optional): also return start/end byte offsets. Default: ``False``.

    Examples:
        >>> from mindspore.dataset import text
        >>> text.UnicodeCharTokenizer()("ab")
        array(['a', 'b'], dtype='<U1')
    """

    def __init__(self, with_offsets=False):
        self.with_offsets = check_bool(with_offsets, "with_offsets")

    def __call__(self, value):
        text = _scalar_string(value, "UnicodeCharTokenizer")
        return _with_offsets(text, [(i, i + 1) for i in range(len(text))], self.with_offsets)


class PythonTokenizer(TensorOperation):
    """Tokenize a string with a Python function returning a list of strings.

    Args:
        tokenizer (Callable[[str], list[str]]): the tokenizer.

    Examples:
        >>> from mindspore.dataset import text
        >>> text.PythonTokenizer(lambda s: s.split(","))("a,b")
        array(['a', 'b'], dtype='<U1')
    """

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise MSTypeError(f"tokenizer is not a callable Python function, got {type(tokenizer)}.")
        self.tokenizer = tokenizer

    def __call__(self, value):
        text = _scalar_string(value, "PythonTokenizer")
        return np.array(self.tokenizer(text), dtype=np.str_)


class Lookup(TensorOperation):
    """Map tokens to their ids in a :class:`Vocab`.

    Args:
        vocab (Vocab): the vocabulary.
        unknown_token (str, optional): token whose id replaces absent tokens; ``None`` makes an absent
            token an error. Default: ``None``.
        data_type (mindspore.dtype, optional): numeric type of the ids. Default: ``mstype.int32``.

    Raises:
        TypeError: ``vocab`` is not a Vocab, or ``data_type`` is not numeric.
        RuntimeError: a token (or ``unknown_token``) is not in the vocabulary.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset import text
        >>> vocab = text.Vocab.from_list(["<unk>", "a"])
        >>> text.Lookup(vocab, "<unk>")(np.array(["a", "z"]))
        array([1, 0], dtype=int32)
    """

    def __init__(self, vocab, unknown_token=None, data_type=mstype.int32):
        check_type(vocab, Vocab, "vocab")
        if unknown_token is not None:
            check_type(unknown_token, str, "unknown_token")
        check_type(data_type, mstype.Type, "data_type")
        self._np_dtype = to_numpy_dtype(data_type)
        if self._np_dtype.kind not in "biuf":
            raise MSTypeError("Lookup does not support a string to string mapping, data_type can only be numeric.")
        self.vocab = vocab
        self.unknown_token = unknown_token
        self.data_type = data_type

    def __call__(self, value):
        tokens = _strings(to_array(value, "Lookup") if not isinstance(value, str) else np.asarray(value), "Lookup")
        table = self.vocab._token_to_id  # pylint: disable=protected-access
        default = None
        if self.unknown_token is not None:
            default = table.get(self.unknown_token)
            if default is None:
                raise runtime_error("Lookup", f"unknown_token: {self.unknown_token} doesn't exist in vocab.")
        ids = []
        for token in tokens.reshape(-1).tolist():
            index = table.get(token, default)
            if index is None:
                raise runtime_error("Lookup", f"\"{token}\" doesn't exist in vocab and no unknown token is "
                                    f"specified.")
            ids.append(index)
        return np.array(ids, dtype=np.int64).reshape(tokens.shape).astype(self._np_dtype)


class ToNumber(TensorOperation):
    """Parse strings into numbers of a numeric MindSpore type.

    Args:
        data_type (mindspore.dtype): the numeric type.

    Raises:
        TypeError: ``data_type`` is not a numeric type.
        RuntimeError: a string is not a number or is out of the type's range.

    Examples:
        >>> import numpy as np
        >>> from mindspore import dtype as mstype
        >>> from mindspore.dataset import text
        >>> text.ToNumber(mstype.int8)(np.array(["1", "-2"]))
        array([ 1, -2], dtype=int8)
    """

    def __init__(self, data_type):
        check_type(data_type, mstype.Type, "data_type")
        self._np_dtype = to_numpy_dtype(data_type)
        if self._np_dtype.kind not in "iuf":
            raise MSTypeError(f"data_type: {data_type} is not numeric data type.")
        self.data_type = data_type

    def _parse(self, text):
        kind = self._np_dtype.kind
        try:
            number = float(text) if kind == "f" else int(text)
        except ValueError:
            raise runtime_error("ToNumber", f"string \"{text}\" can not be converted to {self._np_dtype}.") from None
        if kind in "iu":
            info = np.iinfo(self._np_dtype)
            if not info.min <= number <= info.max:
                raise runtime_error("ToNumber", f"string \"{text}\" is outside the range of {self._np_dtype}.")
        elif np.isfinite(number):
            with np.errstate(over="ignore"):
                overflow = not np.isfinite(np.array(number).astype(self._np_dtype))
            if overflow:
                raise runtime_error("ToNumber", f"string \"{text}\" is outside the range of {self._np_dtype}.")
        return number

    def __call__(self, value):
        strings = _strings(to_array(value, "ToNumber") if not isinstance(value, str) else np.asarray(value),
                           "ToNumber")
        numbers = [self._parse(text) for text in strings.reshape(-1).tolist()]
        return np.array(numbers, dtype=self._np_dtype).reshape(strings.shape)


class SlidingWindow(TensorOperation):
    """Windows of ``width`` consecutive elements of a 1-D input: shape ``(n - width + 1, width)``.

    Args:
        width (int): window width.
        axis (int, optional): the axis (0 or -1 for 1-D input). Default: ``0``.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset import text
        >>> text.SlidingWindow(2)(np.array([1, 2, 3]))
        array([[1, 2],
               [2, 3]])
    """

    def __init__(self, width, axis=0):
        self.width = check_pos_int(width, "width")
        self.axis = check_int(axis, "axis")

    def __call__(self, value):
        array = to_array(value, "SlidingWindow")
        if array.ndim != 1 or self.axis not in (0, -1):
            raise runtime_error("SlidingWindow", f"SlidingWindow supports 1D input only for now, but got rank "
                                f"{array.ndim} with axis {self.axis}.")
        if array.shape[0] < self.width:
            return np.empty((0, self.width), dtype=array.dtype)
        return np.lib.stride_tricks.sliding_window_view(array, self.width).copy()


class Truncate(TensorOperation):
    """Keep the first ``max_seq_len`` elements of the last axis of a 1-D or 2-D input.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset import text
        >>> text.Truncate(2)(np.array([1, 2, 3]))
        array([1, 2])
    """

    def __init__(self, max_seq_len):
        self.max_seq_len = check_pos_int(max_seq_len, "max_seq_len")

    def __call__(self, value):
        array = to_array(value, "Truncate")
        if array.ndim not in (1, 2):
            raise runtime_error("Truncate", f"the input should be 1-D or 2-D, but got rank {array.ndim}.")
        return array[..., :self.max_seq_len].copy()


class AddToken(TensorOperation):
    """Add a token at the beginning or end of a 1-D string array.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset import text
        >>> text.AddToken("TOKEN", begin=True)(np.array(["a", "b"]))
        array(['TOKEN', 'a', 'b'], dtype='<U5')
    """

    def __init__(self, token, begin=True):
        self.token = check_type(token, str, "token")
        self.begin = check_bool(begin, "begin")

    def __call__(self, value):
        strings = _strings(to_array(value, "AddToken"), "AddToken")
        if strings.ndim != 1:
            raise runtime_error("AddToken", f"the input should be 1-D, but got rank {strings.ndim}.")
        parts = [np.array([self.token]), strings] if self.begin else [strings, np.array([self.token])]
        return np.concatenate(parts)
