"""The MNIST-like sources stored as IDX files: Fashion-MNIST, KMNIST, EMNIST and QMNIST.

Rows are MindSpore's: ``image`` uint8 (rows, cols, 1) and ``label`` uint32 — a scalar, or for
``QMnistDataset(compat=False)`` the eight QMNIST label fields (class, NIST HSF series, writer id, digit index,
NIST class, global id, duplicate, unused) as uint32 (8,). For ``usage='all'`` the test files come before the
train files (and QMNIST's ``nist`` files come last), as in MindSpore.
"""
import os
import struct

import numpy as np

from mindspore.dataset.engine.datasets import MappableDataset
from mindspore.dataset.engine.datasets_vision import (MnistDataset, check_dir, check_usage, read_idx_images,
                                                      read_idx_labels)

__all__ = ["FashionMnistDataset", "KMnistDataset", "EMnistDataset", "QMnistDataset"]


class FashionMnistDataset(MnistDataset):
    """The Fashion-MNIST data set: the four MNIST-named IDX files (``train-images-idx3-ubyte``, ...).

    Args:
        dataset_dir (str): the folder with the IDX files.
        usage (str, optional): 'train' (60,000 rows), 'test' (10,000) or 'all'. Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``image`` uint8 (28, 28, 1), ``label`` uint32 ().

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.FashionMnistDataset("/path/to/fashion_mnist", usage="test", shuffle=False)
    """

    _api = "FashionMnistDataset"


class KMnistDataset(MnistDataset):
    """The KMNIST (Kuzushiji-MNIST) data set: the four MNIST-named IDX files.

    Args and columns as for :class:`FashionMnistDataset`.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.KMnistDataset("/path/to/kmnist", usage="train", shuffle=False)
    """

    _api = "KMnistDataset"


class _IdxParts(MappableDataset):
    """Rows taken from a list of (images RecordFile, labels array) parts, one after the other."""

    def _set_parts(self, parts):
        self._parts = parts
        self._starts = np.cumsum([0] + [len(p[1]) for p in parts])

    def _num_rows(self):
        return int(self._starts[-1])

    def _part(self, index):
        k = int(np.searchsorted(self._starts, index, side="right")) - 1
        return self._parts[k], index - int(self._starts[k])


_EMNIST_NAMES = ("byclass", "bymerge", "balanced", "letters", "digits", "mnist")


class EMnistDataset(_IdxParts):
    """The EMNIST data set: ``emnist-<name>-<train|test>-images-idx3-ubyte`` and ``...-labels-idx1-ubyte``.

    Args:
        dataset_dir (str): the folder with the IDX files.
        name (str): the split: 'byclass', 'bymerge', 'balanced', 'letters', 'digits' or 'mnist'.
        usage (str, optional): 'train', 'test' or 'all'. Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``image`` uint8 (28, 28, 1) (as stored: EMNIST images are transposed), ``label`` uint32 ().

    Raises:
        ValueError: `dataset_dir` is not a folder, or `name`/`usage` is invalid.
        RuntimeError: (when rows are read) the files are missing, truncated or have a wrong magic number.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.EMnistDataset("/path/to/emnist", name="letters", usage="train", shuffle=False)
    """

    def __init__(self, dataset_dir, name, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        api = "EMnistDataset"
        self.dataset_dir = check_dir(dataset_dir, api)
        if not isinstance(name, str):
            raise TypeError(f"For '{api}', the 'name' must be a str, but got {type(name).__name__}.")
        if name not in _EMNIST_NAMES:
            raise ValueError(f"Input name is not within the valid set of {list(_EMNIST_NAMES)}.")
        self.name = name
        self.usage = check_usage(usage, api)
        super().__init__(num_samples=num_samples, num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id, cache=cache)
        self.column_names = ["image", "label"]

    def _load(self):
        parts = []
        for split in (["test", "train"] if self.usage == "all" else [self.usage]):
            images = os.path.join(self.dataset_dir, f"emnist-{self.name}-{split}-images-idx3-ubyte")
            labels = os.path.join(self.dataset_dir, f"emnist-{self.name}-{split}-labels-idx1-ubyte")
            if not (os.path.isfile(images) and os.path.isfile(labels)):
                if self.usage == "all":
                    continue
                missing = images if not os.path.isfile(images) else labels
                raise RuntimeError(f"Invalid file, failed to find EMNIST file '{missing}' for usage '{split}'.")
            image_file, label_values = read_idx_images(images), read_idx_labels(labels)
            if image_file.shape[0] != label_values.size:
                raise RuntimeError(f"Invalid EMNIST files: '{images}' holds {image_file.shape[0]} images but "
                                   f"'{labels}' holds {label_values.size} labels.")
            parts.append((image_file, label_values))
        if not parts:
            raise RuntimeError(f"Invalid data, no valid data matching the dataset API EMnistDataset. Please check "
                               f"file path or dataset API: {self.dataset_dir} holds no EMNIST '{self.name}' files.")
        self._set_parts(parts)

    def _get_row(self, index):
        (images, labels), local = self._part(index)
        return images.row(local), np.array(labels[local], np.uint32)

    def _row_labels(self):
        self._ensure_loaded()
        return np.concatenate([p[1] for p in self._parts])


_QMNIST_USAGES = ("train", "test", "test10k", "test50k", "nist", "all")
_QMNIST_LABELS_MAGIC = 0x0C02   # IDX: int32 items, 2 dimensions


def read_idx2_int(path):
    """QMNIST's extended labels: an (n, 8) int32 big-endian IDX file, as an int64 array."""
    size = os.path.getsize(path)
    if size < 12:
        raise RuntimeError(f"Invalid QMNIST label file '{path}': it has {size} bytes, fewer than its 12-byte "
                           f"header; the file is truncated or not an IDX file.")
    with open(path, "rb") as f:
        magic, n, cols = struct.unpack(">III", f.read(12))
        if magic != _QMNIST_LABELS_MAGIC:
            raise RuntimeError(f"Invalid QMNIST label file '{path}': magic number {magic} is not "
                               f"{_QMNIST_LABELS_MAGIC} (an IDX file of int32 label rows).")
        need = n * cols * 4
        data = f.read(need)
    if len(data) < need:
        raise RuntimeError(f"Invalid file, failed to read {need} bytes from {path}: the data file is damaged or the "
                           f"content is incomplete.")
    return np.frombuffer(data, ">i4").reshape(n, cols).astype(np.int64)


class QMnistDataset(_IdxParts):
    """The QMNIST data set: ``qmnist-<train|test>-images-idx3-ubyte`` / ``-labels-idx2-int`` and the NIST
    extension ``xnist-images-idx3-ubyte`` / ``xnist-labels-idx2-int``.

    Args:
        dataset_dir (str): the folder with the IDX files.
        usage (str, optional): 'train', 'test', 'test10k' (the first 10,000 test rows), 'test50k' (the other
            50,000), 'nist' or 'all'. Default: None ('all').
        compat (bool, optional): True: ``label`` is the class (uint32 scalar), as MNIST; False: the eight
            label fields (uint32 (8,)). Default: True.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``image`` uint8 (28, 28, 1), ``label`` uint32 () or (8,).

    Raises:
        ValueError: `dataset_dir` is not a folder, or `usage` is invalid.
        RuntimeError: (when rows are read) the files are missing or truncated.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.QMnistDataset("/path/to/qmnist", usage="train", compat=False, shuffle=False)
    """

    def __init__(self, dataset_dir, usage=None, compat=True, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        api = "QMnistDataset"
        self.dataset_dir = check_dir(dataset_dir, api)
        self.usage = check_usage(usage, api, _QMNIST_USAGES)
        if not isinstance(compat, bool):
            raise TypeError(f"For '{api}', the 'compat' must be a bool, but got {type(compat).__name__}.")
        self.compat = compat
        super().__init__(num_samples=num_samples, num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id, cache=cache)
        self.column_names = ["image", "label"]

    def _load(self):
        stems = {"train": ["qmnist-train"], "test": ["qmnist-test"], "test10k": ["qmnist-test"],
                 "test50k": ["qmnist-test"], "nist": ["xnist"],
                 "all": ["qmnist-train", "qmnist-test", "xnist"]}[self.usage]
        parts = []
        for stem in stems:
            images = os.path.join(self.dataset_dir, f"{stem}-images-idx3-ubyte")
            labels = os.path.join(self.dataset_dir, f"{stem}-labels-idx2-int")
            if not (os.path.isfile(images) and os.path.isfile(labels)):
                if self.usage == "all":
                    continue
                missing = images if not os.path.isfile(images) else labels
                raise RuntimeError(f"Invalid file, failed to find QMNIST file '{missing}'.")
            image_file, label_rows = read_idx_images(images), read_idx2_int(labels)
            if image_file.shape[0] != label_rows.shape[0]:
                raise RuntimeError(f"Invalid QMNIST files: '{images}' holds {image_file.shape[0]} images but "
                                   f"'{labels}' holds {label_rows.shape[0]} labels.")
            rows = np.arange(label_rows.shape[0])
            if self.usage in ("test10k", "test50k"):
                if label_rows.shape[0] < 60000:
                    need = (10000 if self.usage == "test10k" else 60000) * 28 * 28
                    raise RuntimeError(f"Invalid file, failed to read {need} bytes from {images}: the data file is "
                                       f"damaged or the content is incomplete.")
                rows = rows[:10000] if self.usage == "test10k" else rows[10000:]
            parts.append((image_file, label_rows, rows))
        if not parts:
            raise RuntimeError(f"Invalid data, no valid data matching the dataset API QMnistDataset. Please check "
                               f"file path or dataset API: {self.dataset_dir} holds no QMNIST files.")
        self._parts = parts
        self._starts = np.cumsum([0] + [len(p[2]) for p in parts])

    def _get_row(self, index):
        (images, labels, rows), local = self._part(index)
        local = int(rows[local])
        label = labels[local, 0] if self.compat else labels[local]
        return images.row(local), np.array(label).astype(np.uint32)
