"""Pre-trained token vectors read from local text files, and ``ToVectors`` which looks tokens up.

File format (word2vec text / GloVe / fastText ``.vec``): one ``token v1 v2 ... vD`` line per token; a first
line of two integers (``count dim``, as in ``.vec`` files) is a header and skipped. The first occurrence of a
token wins; every line must have the same dimension. ``max_vectors`` keeps the first lines only.

``CharNGram`` reads the char n-gram file of Hashimoto et al. (lines ``<n>gram-<chars> v1 ... vD``): a token's
vector is the mean of the vectors of its 2-, 3- and 4-grams (over ``#BEGIN#`` + characters + ``#END#``)
that the file has, or the unknown vector when it has none.
"""
import os

import numpy as np

from mindspore.plugin import MSTypeError, MSValueError
from mindspore.dataset.transforms._base import TensorOperation, check_bool, runtime_error, to_array
from mindspore.dataset.text.transforms import _strings

__all__ = ["Vectors", "FastText", "GloVe", "CharNGram", "ToVectors"]


def _check_path(file_path):
    if not isinstance(file_path, str):
        raise MSTypeError(f"Argument file_path with value {file_path} is not of type [<class 'str'>], but got "
                          f"{type(file_path)}.")
    if not os.path.isfile(file_path):
        raise RuntimeError(f"Vectors: the file {file_path} does not exist or permission denied.")


def _check_max_vectors(max_vectors):
    if max_vectors is None:
        return None
    if isinstance(max_vectors, bool) or not isinstance(max_vectors, int):
        raise MSTypeError(f"Argument max_vectors with value {max_vectors} is not of type [<class 'int'>], but got "
                          f"{type(max_vectors)}.")
    if max_vectors < 0:
        raise MSValueError("Input max_vectors is not within the required interval of [0, 2147483647].")
    return max_vectors


def read_vectors(file_path, max_vectors=None):
    """(tokens -> row dict, float32 (n, dim) matrix) of a vector text file."""
    table, rows, dim = {}, [], None
    with open(file_path, "r", encoding="utf-8", errors="strict") as f:
        for number, line in enumerate(f, 1):
            fields = line.rstrip("\n").rstrip("\r").split(" ")
            fields = [x for x in fields if x != ""]
            if not fields:
                continue
            if number == 1 and len(fields) == 2 and all(x.isdigit() for x in fields):
                continue            # "count dim" header of .vec files
            if max_vectors is not None and len(rows) >= max_vectors:
                break
            token, values = fields[0], fields[1:]
            if dim is None:
                dim = len(values)
                if dim == 0:
                    raise RuntimeError(f"Vectors: invalid file {file_path} line {number}: a token without values.")
            elif len(values) != dim:
                raise RuntimeError(f"Vectors: invalid file {file_path} line {number}: the vector has {len(values)} "
                                   f"values, but the first one has {dim}.")
            if token in table:
                continue
            try:
                rows.append(np.array([float(v) for v in values], np.float32))
            except ValueError:
                raise RuntimeError(f"Vectors: invalid file {file_path} line {number}: the values must be numbers.") \
                    from None
            table[token] = len(rows) - 1
    if not rows:
        raise RuntimeError(f"Vectors: the file {file_path} holds no vector.")
    return table, np.stack(rows)


class Vectors:
    """Token vectors from a text file (``token v1 ... vD`` per line).

    Examples:
        >>> from mindspore.dataset import text
        >>> vectors = text.Vectors.from_file("/path/to/vectors.txt", max_vectors=10000)
    """

    def __init__(self):
        self._table, self._matrix = {}, np.zeros((0, 0), np.float32)

    @classmethod
    def _check_name(cls, file_path):
        """Checks of the file name (none for generic vectors)."""

    @classmethod
    def from_file(cls, file_path, max_vectors=None):
        """Read the vectors of `file_path` (the first `max_vectors` lines when given)."""
        _check_path(file_path)
        max_vectors = _check_max_vectors(max_vectors)
        cls._check_name(file_path)
        vectors = cls()
        vectors._table, vectors._matrix = read_vectors(file_path, max_vectors)
        return vectors

    @property
    def dim(self):
        return int(self._matrix.shape[1]) if self._matrix.size else 0

    def lookup(self, token):
        """The vector of `token`, or None."""
        row = self._table.get(token)
        return None if row is None else self._matrix[row]

    def __len__(self):
        return len(self._table)


class FastText(Vectors):
    """fastText vectors: a ``.vec`` file.

    Examples:
        >>> from mindspore.dataset import text
        >>> vectors = text.FastText.from_file("/path/to/wiki.en.vec")
    """

    @classmethod
    def _check_name(cls, file_path):
        if not file_path.endswith(".vec"):
            raise RuntimeError(f"FastText: invalid file {file_path}, the file of FastText vectors must end with "
                               f"'.vec'.")


class GloVe(Vectors):
    """GloVe vectors: a ``glove.<corpus>.<dim>d.txt`` file.

    Examples:
        >>> from mindspore.dataset import text
        >>> vectors = text.GloVe.from_file("/path/to/glove.6B.300d.txt")
    """

    @classmethod
    def _check_name(cls, file_path):
        name = os.path.basename(file_path)
        if not (name.startswith("glove.") and name.endswith(".txt")):
            raise RuntimeError(f"GloVe: invalid file {file_path}, the file of GloVe vectors must be named "
                               f"'glove.<corpus>.<dim>d.txt'.")


class CharNGram(Vectors):
    """Char n-gram vectors (``<n>gram-<chars> v1 ... vD`` lines); see the module docstring for the lookup.

    Examples:
        >>> from mindspore.dataset import text
        >>> vectors = text.CharNGram.from_file("/path/to/charNgram.txt")
    """

    def lookup(self, token):
        chars = ["#BEGIN#"] + list(token) + ["#END#"]
        found = []
        for n in (2, 3, 4):
            for i in range(len(chars) - n + 1):
                row = self._table.get(f"{n}gram-{''.join(chars[i:i + n])}")
                if row is not None:
                    found.append(self._matrix[row])
        if not found:
            return None
        return np.mean(np.stack(found), axis=0).astype(np.float32)


class ToVectors(TensorOperation):
    """Look tokens up in a :class:`Vectors` (or FastText, GloVe, CharNGram).

    Args:
        vectors (Vectors): the vectors.
        unk_init (list[float], optional): the vector of unknown tokens. Default: None (zeros).
        lower_case_backup (bool, optional): look an unknown token up again in lower case. Default: False.

    Returns a float32 array (tokens, dim), or (dim,) for a single token.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset import text
        >>> to_vectors = text.ToVectors(text.Vectors.from_file("/path/to/vectors.txt"))
    """

    def __init__(self, vectors, unk_init=None, lower_case_backup=False):
        if not isinstance(vectors, Vectors):
            raise MSTypeError(f"vectors should be a Vectors, FastText, GloVe or CharNGram, but got {type(vectors)}.")
        if unk_init is not None:
            if not isinstance(unk_init, (list, tuple)) or not all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) for v in unk_init):
                raise MSTypeError(f"unk_init should be a list of float, but got {unk_init!r}.")
        self.vectors = vectors
        self.unk_init = list(unk_init) if unk_init is not None else None
        self.lower_case_backup = check_bool(lower_case_backup, "lower_case_backup")

    def __call__(self, value):
        tokens = _strings(to_array(value, "ToVectors") if not isinstance(value, str) else np.asarray(value),
                          "ToVectors")
        if tokens.ndim > 1:
            raise runtime_error("ToVectors", f"the input should be a string scalar or 1-D, but got shape "
                                f"{tokens.shape}.")
        flat = tokens.reshape(-1).tolist()
        if not flat:
            raise runtime_error("ToVectors", "the input should not be empty.")
        dim = self.vectors.dim
        unk = np.zeros(dim, np.float32) if self.unk_init is None else np.array(self.unk_init, np.float32)
        if unk.shape != (dim,):
            raise runtime_error("ToVectors", f"unk_init must have the dimension of the vectors ({dim}), but has "
                                f"{unk.shape[0]} values.")
        out = []
        for token in flat:
            vector = self.vectors.lookup(token)
            if vector is None and self.lower_case_backup:
                vector = self.vectors.lookup(token.lower())
            out.append(unk if vector is None else vector)
        result = np.stack(out).astype(np.float32)
        return result[0] if len(flat) == 1 else result
