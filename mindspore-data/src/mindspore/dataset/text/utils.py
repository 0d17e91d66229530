"""Vocabularies and string-array helpers of ``mindspore.dataset.text``.

A :class:`Vocab` maps tokens (str) to ids (int); :class:`mindspore.dataset.text.Lookup` applies it to
string arrays. String data in pipelines is NumPy ``str_`` arrays; :func:`to_str` and :func:`to_bytes`
convert between those and ``bytes_`` arrays.
"""
import collections
import os

import numpy as np

from mindspore.plugin import MSRuntimeError, MSTypeError, MSValueError
from mindspore.dataset.transforms._base import check_bool, check_pos_int, check_type

__all__ = ["Vocab", "to_bytes", "to_str"]


def _check_tokens(special_tokens, special_first):
    if special_tokens is None:
        special_tokens = []
    check_type(special_tokens, list, "special_tokens")
    for token in special_tokens:
        check_type(token, str, "special_tokens")
    if len(set(special_tokens)) != len(special_tokens):
        raise MSValueError("special_tokens contains duplicate token.")
    check_bool(special_first, "special_first")
    return special_tokens


class Vocab:
    """A token -> id mapping, built by the ``from_*`` class methods.

    Examples:
        >>> from mindspore.dataset import text
        >>> vocab = text.Vocab.from_list(["hello", "world"], special_tokens=["<unk>"])
        >>> vocab.tokens_to_ids(["<unk>", "world"])
        [0, 2]
    """

    def __init__(self):
        self._token_to_id = {}
        self._id_to_token = {}

    @classmethod
    def _from_tokens(cls, words, special_tokens, special_first, source):
        special_tokens = _check_tokens(special_tokens, special_first)
        seen = set()
        for word in words:
            if word in seen:
                raise MSValueError(f"{source} contains duplicate word: {word}.")
            seen.add(word)
        clash = seen.intersection(special_tokens)
        if clash:
            raise MSValueError(f"special_tokens and {source} contain duplicate word: {sorted(clash)[0]}.")
        ordered = list(special_tokens) + list(words) if special_first else list(words) + list(special_tokens)
        vocab = cls()
        vocab._token_to_id = {word: index for index, word in enumerate(ordered)}
        vocab._id_to_token = dict(enumerate(ordered))
        return vocab

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """A vocab of ``word_list`` (ids in list order) plus ``special_tokens`` before or after.

        Args:
            word_list (list[str]): the words, without duplicates.
            special_tokens (list[str], optional): extra tokens, e.g. ``["<pad>", "<unk>"]``. Default: ``None``.
            special_first (bool, optional): put the special tokens first. Default: ``True``.

        Raises:
            TypeError: wrong argument types.
            ValueError: duplicate words, or a special token that is also a word.

        Examples:
            >>> from mindspore.dataset import text
            >>> text.Vocab.from_list(["a", "b"]).vocab()
            {'a': 0, 'b': 1}
        """
        check_type(word_list, list, "word_list")
        for word in word_list:
            check_type(word, str, "word_list")
        return cls._from_tokens(word_list, special_tokens, special_first, "word_list")

    @classmethod
    def from_dict(cls, word_dict):
        """A vocab with the given ``{word: id}`` pairs (ids are non-negative ints).

        Examples:
            >>> from mindspore.dataset import text
            >>> text.Vocab.from_dict({"a": 3, "b": 7}).tokens_to_ids("b")
            7
        """
        check_type(word_dict, dict, "word_dict")
        vocab = cls()
        for word, index in word_dict.items():
            check_type(word, str, "word_dict key")
            check_type(index, int, "word_dict value")
            if index < 0:
                raise MSValueError(f"from_dict: index can not be negative, but got {word}: {index}.")
            vocab._token_to_id[word] = index
            vocab._id_to_token[index] = word
        return vocab

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None, special_first=True):
        """A vocab of the words in a text file, one per line (the part before ``delimiter`` when given).

        Args:
            file_path (str): the file.
            delimiter (str, optional): separator after the word on each line. Default: ``""`` (whole line).
            vocab_size (int, optional): read only the first ``vocab_size`` words. Default: ``None`` (all).
            special_tokens (list[str], optional): extra tokens. Default: ``None``.
            special_first (bool, optional): put the special tokens first. Default: ``True``.

        Raises:
            ValueError: the file does not exist or has duplicate words.

        Examples:
            >>> from mindspore.dataset import text
            >>> vocab = text.Vocab.from_file("/path/to/vocab.txt", ",")
        """
        check_type(file_path, str, "file_path")
        check_type(delimiter, str, "delimiter")
        if vocab_size is not None:
            check_pos_int(vocab_size, "vocab_size")
        if not os.path.isfile(file_path):
            raise MSValueError(f"from_file: the file {file_path} does not exist or is not a file.")
        words = []
        with open(file_path, encoding="utf-8") as handle:
            for line in handle:
                if vocab_size is not None and len(words) >= vocab_size:
                    break
                word = line.rstrip("\r\n")
                if delimiter:
                    word = word.split(delimiter, 1)[0]
                words.append(word)
        return cls._from_tokens(words, special_tokens, special_first, f"file {file_path}")

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None, special_tokens=None,
                     special_first=True):
        """A vocab of the tokens in string columns of a dataset, most frequent first (ties alphabetical).

        Args:
            dataset (Dataset): the dataset to read (one epoch).
            columns (Union[str, list[str]], optional): the columns to count; ``None`` means all.
            freq_range (tuple[int, int], optional): keep tokens whose count is in ``[min, max]``
                (either may be ``None``). Default: ``None`` (all).
            top_k (int, optional): keep the ``top_k`` most frequent after ``freq_range``. Default: ``None``.
            special_tokens (list[str], optional): extra tokens. Default: ``None``.
            special_first (bool, optional): put the special tokens first. Default: ``True``.

        Examples:
            >>> import mindspore.dataset as ds
            >>> from mindspore.dataset import text
            >>> data = ds.NumpySlicesDataset({"text": [["a", "b"], ["a", "c"]]}, shuffle=False)
            >>> text.Vocab.from_dataset(data, "text").tokens_to_ids(["a", "b", "c"])
            [0, 1, 2]
        """
        if isinstance(columns, str):
            columns = [columns]
        if columns is not None:
            check_type(columns, list, "columns")
        low, high = 0, None
        if freq_range is not None:
            check_type(freq_range, tuple, "freq_range")
            if len(freq_range) != 2:
                raise MSValueError("freq_range needs to be a tuple of 2 elements.")
            low = 0 if freq_range[0] is None else freq_range[0]
            high = freq_range[1]
            if high is not None and low > high:
                raise MSValueError(f"freq_range should be (min, max) with min <= max, but got {freq_range}.")
        if top_k is not None:
            check_pos_int(top_k, "top_k")
        counts = collections.Counter()
        for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
            for name in (columns if columns is not None else list(row)):
                if name not in row:
                    raise MSRuntimeError(f"from_dataset: column {name} does not exist in the dataset.")
                counts.update(to_str(np.asarray(row[name])).reshape(-1).tolist())
        kept = [(word, n) for word, n in counts.items() if n >= low and (high is None or n <= high)]
        kept.sort(key=lambda item: (-item[1], item[0]))
        if top_k is not None:
            kept = kept[:top_k]
        return cls._from_tokens([word for word, _ in kept], special_tokens, special_first, "dataset")

    def vocab(self):
        """The ``{token: id}`` dict.

        Examples:
            >>> from mindspore.dataset import text
            >>> text.Vocab.from_list(["x"]).vocab()
            {'x': 0}
        """
        return dict(self._token_to_id)

    def tokens_to_ids(self, tokens):
        """Id of a token (``-1`` when absent), or the list of ids of a list/array of tokens.

        Examples:
            >>> from mindspore.dataset import text
            >>> text.Vocab.from_list(["x"]).tokens_to_ids(["x", "y"])
            [0, -1]
        """
        if isinstance(tokens, np.ndarray):
            tokens = to_str(tokens).tolist()
        if isinstance(tokens, str):
            return self._token_to_id.get(tokens, -1)
        check_type(tokens, list, "tokens")
        return [self._token_to_id.get(token, -1) for token in tokens]

    def ids_to_tokens(self, ids):
        """Token of an id (``""`` when absent), or the list of tokens of a list/array of ids.

        Examples:
            >>> from mindspore.dataset import text
            >>> text.Vocab.from_list(["x"]).ids_to_tokens([0, 5])
            ['x', '']
        """
        if isinstance(ids, np.ndarray):
            ids = ids.tolist()
        if isinstance(ids, (int, np.integer)) and not isinstance(ids, bool):
            return self._id_to_token.get(int(ids), "")
        check_type(ids, list, "ids")
        return [self._id_to_token.get(int(index), "") for index in ids]

    def __contains__(self, token):
        return token in self._token_to_id

    def __len__(self):
        return len(self._token_to_id)


def to_str(array, encoding="utf8"):
    """A ``bytes_`` array decoded to a ``str_`` array (``str_`` arrays are returned as they are).

    Raises:
        TypeError: ``array`` is not a NumPy array.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset import text
        >>> text.to_str(np.array([b"ab", b"c"]))
        array(['ab', 'c'], dtype='<U2')
    """
    if not isinstance(array, np.ndarray):
        raise MSTypeError(f"input should be a NumPy array. Got {type(array)}.")
    if array.dtype.kind == "S":
        return np.char.decode(array, encoding)
    if array.dtype.kind == "O":
        return np.array([v.decode(encoding) if isinstance(v, bytes) else str(v) for v in array.reshape(-1)],
                        dtype=np.str_).reshape(array.shape)
    return array


def to_bytes(array, encoding="utf8"):
    """A ``str_`` array encoded to a ``bytes_`` array.

    Raises:
        TypeError: ``array`` is not a NumPy array.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset import text
        >>> text.to_bytes(np.array(["ab"]))
        array([b'ab'], dtype='|S2')
    """
    if not isinstance(array, np.ndarray):
        raise MSTypeError(f"input should be a NumPy array. Got {type(array)}.")
    if array.dtype.kind == "U":
        return np.char.encode(array, encoding)
    return array
