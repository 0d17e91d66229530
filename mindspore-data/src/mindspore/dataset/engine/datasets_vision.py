"""Vision sources on their standard file formats: MNIST (IDX), CIFAR-10/100 (binary version), image folders.

Each source is a :class:`MappableDataset`: ``_load`` reads and checks the files' metadata once, ``_get_row``
reads one row (thread-safe, from memory-mapped files where the format allows). Row types are MindSpore's:

================== =========================================================================
MnistDataset       ``image`` uint8 (rows, cols, 1) — (28, 28, 1) for MNIST; ``label`` uint32 ()
Cifar10Dataset     ``image`` uint8 (32, 32, 3) HWC; ``label`` uint32 ()
Cifar100Dataset    ``image`` uint8 (32, 32, 3); ``coarse_label``, ``fine_label`` uint32 ()
ImageFolderDataset ``image`` uint8 1-D (the file's bytes), or (H, W, 3) RGB with ``decode=True``; ``label`` int32 ()
================== =========================================================================

Row order (``shuffle=False``) is MindSpore's: for ``usage='all'`` the files in name order (MNIST and
CIFAR-100: test before train; CIFAR-10: ``data_batch_*`` then ``test_batch``); image folders class by class
(folders in name order), files in name order. A malformed or truncated file raises ``RuntimeError`` naming it.
"""
import os
import threading

import numpy as np

from mindspore.dataset.engine.datasets import MappableDataset

__all__ = ["MnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset"]

_USAGES = ("train", "test", "all")


def check_dir(dataset_dir, api):
    """``dataset_dir`` as a str path; ``ValueError`` when it is not an existing folder."""
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"For '{api}', the 'dataset_dir' must be a str, but got {type(dataset_dir).__name__}.")
    path = os.fspath(dataset_dir)
    if not os.path.isdir(path) or not os.access(path, os.R_OK):
        raise ValueError(f"The folder {path} does not exist or is not a directory or permission denied!")
    return path


def check_usage(usage, api, valid=_USAGES):
    if usage is None:
        return "all"
    if not isinstance(usage, str):
        raise TypeError(f"For '{api}', the 'usage' must be a str, but got {type(usage).__name__}.")
    if usage not in valid:
        raise ValueError(f"Input usage is not within the valid set of {list(valid)}.")
    return usage


def check_bool(value, name, api):
    if not isinstance(value, bool):
        raise TypeError(f"For '{api}', the '{name}' must be a bool, but got {type(value).__name__}.")


class RecordFile:
    """Fixed-size records stored in a file from ``offset`` on, read one by one with positional reads.

    Not memory-mapped: a file truncated (or replaced) while a pass runs makes a read come back short, which
    is a clear ``RuntimeError`` naming the file, where a mapping would kill the process with SIGBUS.
    Picklable (the file is opened again after unpickling) and safe to use from several threads
    (``os.pread`` has no shared file position).
    """

    def __init__(self, path, offset, dtype, shape):
        self.path, self.offset, self.dtype, self.shape = path, offset, np.dtype(dtype), tuple(shape)
        self._row_bytes = int(np.prod(self.shape[1:], dtype=np.int64)) * self.dtype.itemsize
        self._fd = None
        self._lock = threading.Lock()

    def __getstate__(self):
        return {"path": self.path, "offset": self.offset, "dtype": self.dtype, "shape": self.shape}

    def __setstate__(self, state):
        self.__init__(state["path"], state["offset"], state["dtype"], state["shape"])

    def __del__(self):
        fd = getattr(self, "_fd", None)
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass

    def _file(self):
        fd = self._fd
        if fd is None:
            with self._lock:
                if self._fd is None:
                    try:
                        self._fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
                    except OSError as exc:
                        raise RuntimeError(f"Failed to read '{self.path}': {exc}") from None
                fd = self._fd
        return fd

    def _read(self, start, nbytes, what):
        data = bytearray()
        while len(data) < nbytes:
            try:
                chunk = os.pread(self._file(), nbytes - len(data), start + len(data))
            except OSError as exc:
                raise RuntimeError(f"Failed to read {what} of '{self.path}': {exc}") from None
            if not chunk:
                raise RuntimeError(f"Failed to read {what} of '{self.path}': the file ends at byte "
                                   f"{start + len(data)}, before the {nbytes} bytes it should have there; it was "
                                   f"truncated or replaced while the dataset was reading it.")
            data += chunk
        return data

    def row(self, index):
        """Record ``index`` as an array of shape ``shape[1:]``."""
        if not 0 <= index < self.shape[0]:
            raise IndexError(f"record {index} of '{self.path}' is out of range [0, {self.shape[0]})")
        data = self._read(self.offset + index * self._row_bytes, self._row_bytes, f"record {index}")
        return np.frombuffer(data, self.dtype).reshape(self.shape[1:])   # over a bytearray: writable

    def all(self):
        """Every record, as one array of ``shape``."""
        if self._row_bytes * self.shape[0] == 0:
            return np.zeros(self.shape, self.dtype)
        data = self._read(self.offset, self._row_bytes * self.shape[0], "its records")
        return np.frombuffer(data, self.dtype).reshape(self.shape)


# ---------------------------------------------------------------------------------------------------------------
# MNIST

_MNIST_FILES = {
    "train": (("train-images-idx3-ubyte", "train-images.idx3-ubyte"), ("train-labels-idx1-ubyte",
                                                                        "train-labels.idx1-ubyte")),
    "test": (("t10k-images-idx3-ubyte", "t10k-images.idx3-ubyte"), ("t10k-labels-idx1-ubyte",
                                                                     "t10k-labels.idx1-ubyte")),
}
_IDX_IMAGES_MAGIC, _IDX_LABELS_MAGIC = 2051, 2049


def _find(folder, names):
    for name in names:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    return None


def _read_be_words(path, count, what):
    size = os.path.getsize(path)
    if size < 4 * count:
        raise RuntimeError(f"Invalid MNIST {what} file '{path}': it has {size} bytes, fewer than its "
                           f"{4 * count}-byte header; the file is truncated or not an IDX file.")
    with open(path, "rb") as f:
        return [int(v) for v in np.frombuffer(f.read(4 * count), ">u4")], size


def read_idx_images(path):
    """(RecordFile of uint8 (n, rows, cols, 1)) after checking the IDX header and the file size."""
    (magic, n, rows, cols), size = _read_be_words(path, 4, "image")
    if magic != _IDX_IMAGES_MAGIC:
        raise RuntimeError(f"Invalid MNIST image file '{path}': magic number {magic} is not {_IDX_IMAGES_MAGIC} "
                           "(an IDX file of uint8 images); the file is corrupted or not MNIST images.")
    need = 16 + n * rows * cols
    if size < need:
        raise RuntimeError(f"Invalid MNIST image file '{path}': the header announces {n} images of {rows}x{cols} "
                           f"({need} bytes) but the file has {size} bytes; the file is truncated.")
    return RecordFile(path, 16, np.uint8, (n, rows, cols, 1))


def read_idx_labels(path):
    (magic, n), size = _read_be_words(path, 2, "label")
    if magic != _IDX_LABELS_MAGIC:
        raise RuntimeError(f"Invalid MNIST label file '{path}': magic number {magic} is not {_IDX_LABELS_MAGIC} "
                           "(an IDX file of uint8 labels); the file is corrupted or not MNIST labels.")
    if size < 8 + n:
        raise RuntimeError(f"Invalid MNIST label file '{path}': the header announces {n} labels but the file "
                           f"has {size - 8} label bytes; the file is truncated.")
    with open(path, "rb") as f:
        f.seek(8)
        return np.frombuffer(f.read(n), np.uint8).astype(np.uint32)


class MnistDataset(MappableDataset):
    """The MNIST data set, read from its four IDX files (uncompressed, as MindSpore reads them).

    Args:
        dataset_dir (str): folder with ``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``,
            ``t10k-images-idx3-ubyte`` and ``t10k-labels-idx1-ubyte``.
        usage (str, optional): 'train' (60,000 rows), 'test' (10,000) or 'all'. Default: None ('all').
        num_samples (int, optional): rows to read. Default: None (all).
        num_parallel_workers (int, optional): reader threads. Default: None (the config value).
        shuffle (bool, optional): shuffle the rows. Default: None (True unless a sampler is given).
        sampler (Sampler, optional): the sampler. Default: None.
        num_shards (int, optional): split the rows into this many shards. Default: None.
        shard_id (int, optional): the shard to read. Default: None.
        cache (DatasetCache, optional): unused. Default: None.

    Columns: ``image`` uint8 (28, 28, 1), ``label`` uint32 ().

    Raises:
        ValueError: `dataset_dir` is not a folder, or `usage` is invalid.
        RuntimeError: (when rows are read) a file is missing, truncated or has a wrong magic number.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.MnistDataset("/path/to/mnist", usage="train", shuffle=False)
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(dataset_dir, type(self).__name__)
        self.usage = check_usage(usage, type(self).__name__)
        super().__init__(num_samples=num_samples, num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id, cache=cache)
        self.column_names = ["image", "label"]
        self._parts = None

    def _load(self):
        splits = ["test", "train"] if self.usage == "all" else [self.usage]
        parts = []
        for split in splits:
            images_names, labels_names = _MNIST_FILES[split]
            images_path = _find(self.dataset_dir, images_names)
            labels_path = _find(self.dataset_dir, labels_names)
            if images_path is None or labels_path is None:
                if self.usage == "all":
                    continue
                missing = os.path.join(self.dataset_dir, images_names[0] if images_path is None else labels_names[0])
                raise RuntimeError(f"Invalid file, failed to find MNIST file '{missing}' for usage '{split}'.")
            images = read_idx_images(images_path)
            labels = read_idx_labels(labels_path)
            if labels.size != images.shape[0]:
                raise RuntimeError(f"Invalid MNIST files: '{images_path}' holds {images.shape[0]} images but "
                                   f"'{labels_path}' holds {labels.size} labels.")
            parts.append((images, labels))
        if not parts:
            raise RuntimeError(f"Invalid data, no valid data matching the dataset API {type(self).__name__}. "
                               f"Please check file path or dataset API: {self.dataset_dir} holds no MNIST IDX files.")
        self._parts = parts
        self._starts = np.cumsum([0] + [p[1].size for p in parts])

    def _num_rows(self):
        return int(self._starts[-1])

    def _get_row(self, index):
        k = int(np.searchsorted(self._starts, index, side="right")) - 1
        images, labels = self._parts[k]
        local = index - int(self._starts[k])
        return images.row(local), np.array(labels[local], np.uint32)

    def _row_labels(self):
        self._ensure_loaded()
        return np.concatenate([p[1] for p in self._parts])


# ---------------------------------------------------------------------------------------------------------------
# CIFAR

class _CifarBase(MappableDataset):
    """CIFAR binary version: fixed-size records ``labels + 3072 image bytes`` (CHW, 32x32)."""

    _api = ""
    _num_labels = 1
    _label_columns = ()

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(dataset_dir, self._api)
        self.usage = check_usage(usage, self._api)
        super().__init__(num_samples=num_samples, num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id, cache=cache)
        self.column_names = ["image", *self._label_columns]
        self._files = None

    def _load(self):
        names = sorted(n for n in os.listdir(self.dataset_dir) if os.path.isfile(os.path.join(self.dataset_dir, n)))
        chosen = self._select(names)
        if not chosen:
            raise RuntimeError(f"Invalid data, no valid data matching the dataset API {self._api}. Please check file "
                               f"path or dataset API: {self.dataset_dir} holds no {self._describe()} for usage "
                               f"'{self.usage}'.")
        record = self._num_labels + 3072
        files = []
        for name in chosen:
            path = os.path.join(self.dataset_dir, name)
            size = os.path.getsize(path)
            if size == 0 or size % record:
                raise RuntimeError(f"Invalid {self._api[:-7].lower()} file '{path}': its size {size} bytes is not a "
                                   f"positive multiple of the {record}-byte record; the file is truncated or not "
                                   f"the binary version of {self._api[:-7].upper()}.")
            files.append(RecordFile(path, 0, np.uint8, (size // record, record)))
        self._files = files
        self._starts = np.cumsum([0] + [f.shape[0] for f in files])

    def _num_rows(self):
        return int(self._starts[-1])

    def _get_row(self, index):
        k = int(np.searchsorted(self._starts, index, side="right")) - 1
        rec = self._files[k].row(index - int(self._starts[k]))
        nl = self._num_labels
        image = np.ascontiguousarray(rec[nl:].reshape(3, 32, 32).transpose(1, 2, 0))
        return (image, *(np.array(rec[j], np.uint32) for j in range(nl)))

    def _row_labels(self):
        self._ensure_loaded()
        return np.concatenate([f.all()[:, 0] for f in self._files]).astype(np.uint32)


class Cifar10Dataset(_CifarBase):
    """The CIFAR-10 data set, binary version (``data_batch_1.bin`` ... ``data_batch_5.bin``, ``test_batch.bin``).

    Args:
        dataset_dir (str): the folder holding the ``.bin`` files.
        usage (str, optional): 'train' (the ``data_batch_*.bin`` files), 'test' (``test_batch.bin``) or 'all'.
            Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``image`` uint8 (32, 32, 3), ``label`` uint32 ().

    Raises:
        ValueError: `dataset_dir` is not a folder, or `usage` is invalid.
        RuntimeError: (when rows are read) no data file, or a file whose size is not a multiple of 3073 bytes.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.Cifar10Dataset("/path/to/cifar-10-batches-bin", usage="test", shuffle=False)
    """

    _api = "Cifar10Dataset"
    _num_labels = 1
    _label_columns = ("label",)

    def _describe(self):
        return "CIFAR-10 binary files (data_batch_*.bin, test_batch.bin)"

    def _select(self, names):
        train = [n for n in names if n.startswith("data_batch") and n.endswith(".bin")]
        test = [n for n in names if n.startswith("test_batch") and n.endswith(".bin")]
        return {"train": train, "test": test, "all": train + test}[self.usage]


class Cifar100Dataset(_CifarBase):
    """The CIFAR-100 data set, binary version (``train.bin``, ``test.bin``).

    Args:
        dataset_dir (str): the folder holding the ``.bin`` files.
        usage (str, optional): 'train', 'test' or 'all'. Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``image`` uint8 (32, 32, 3), ``coarse_label`` uint32 (), ``fine_label`` uint32 ().

    Raises:
        ValueError: `dataset_dir` is not a folder, or `usage` is invalid.
        RuntimeError: (when rows are read) no data file, or a file whose size is not a multiple of 3074 bytes.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.Cifar100Dataset("/path/to/cifar-100-binary", usage="train")
    """

    _api = "Cifar100Dataset"
    _num_labels = 2
    _label_columns = ("coarse_label", "fine_label")
    _row_labels = None      # no 'label' column: PKSampler reads its class_column from the rows

    def _describe(self):
        return "CIFAR-100 binary files (train.bin, test.bin)"

    def _select(self, names):
        wanted = {"train": ["train.bin"], "test": ["test.bin"], "all": ["test.bin", "train.bin"]}[self.usage]
        return [n for n in wanted if n in names]


# ---------------------------------------------------------------------------------------------------------------
# image folders

class ImageFolderDataset(MappableDataset):
    """Images in one sub-folder per class: ``dataset_dir/<class>/<file>``.

    Args:
        dataset_dir (str): the root folder.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        extensions (list[str], optional): keep files with these extensions (case-sensitive, e.g. ['.JPEG', '.png']).
            Default: None (all files).
        class_indexing (dict, optional): class folder name -> label; only those folders are read.
            Default: None (folders in name order get labels 0, 1, ...).
        decode (bool, optional): decode images (Pillow) into RGB arrays. Default: False (raw file bytes).
        decrypt (callable, optional): ``decrypt(path) -> bytes`` reads an encrypted image file. Default: None.

    Columns: ``image`` uint8 1-D (file bytes) or (H, W, 3) when `decode` is True; ``label`` int32 ().

    Raises:
        ValueError: `dataset_dir` is not a folder, or `class_indexing`/`extensions` are invalid.
        RuntimeError: (when rows are read) no image found, or an image cannot be decoded.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.ImageFolderDataset("/path/to/imagenet/train", extensions=[".JPEG"], decode=True)
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 extensions=None, class_indexing=None, decode=False, num_shards=None, shard_id=None, cache=None,
                 decrypt=None):
        api = "ImageFolderDataset"
        self.dataset_dir = check_dir(dataset_dir, api)
        if extensions is not None and (not isinstance(extensions, (list, tuple))
                                       or not all(isinstance(e, str) for e in extensions)):
            raise TypeError(f"For '{api}', the 'extensions' must be a list of str, but got {extensions!r}.")
        if class_indexing is not None:
            if not isinstance(class_indexing, dict) or not all(
                    isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                    for k, v in class_indexing.items()):
                raise TypeError(f"For '{api}', the 'class_indexing' must be a dict of str to int, but got "
                                f"{class_indexing!r}.")
            if any(v < 0 for v in class_indexing.values()):
                raise ValueError(f"For '{api}', the labels in 'class_indexing' must be non-negative.")
        check_bool(decode, "decode", api)
        if decrypt is not None and not callable(decrypt):
            raise TypeError(f"For '{api}', the 'decrypt' must be callable, but got {type(decrypt).__name__}.")
        super().__init__(num_samples=num_samples, num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id, cache=cache)
        self.extensions = list(extensions) if extensions else None
        self.class_indexing = dict(class_indexing) if class_indexing else None
        self.decode = decode
        self.decrypt = decrypt
        self.column_names = ["image", "label"]
        self._paths = None

    def _class_map(self):
        if self.class_indexing is not None:
            return dict(self.class_indexing)
        folders = sorted(n for n in os.listdir(self.dataset_dir) if os.path.isdir(os.path.join(self.dataset_dir, n)))
        return {name: k for k, name in enumerate(folders)}

    def _load(self):
        classes = self._class_map()
        paths, labels = [], []
        for name in sorted(classes):
            folder = os.path.join(self.dataset_dir, name)
            if not os.path.isdir(folder):
                continue
            with os.scandir(folder) as entries:   # scandir: no stat() per file on most file systems
                names = sorted(e.name for e in entries if e.is_file())
            for file_name in names:
                if self.extensions is not None and os.path.splitext(file_name)[1] not in self.extensions:
                    continue
                paths.append(os.path.join(folder, file_name))
                labels.append(classes[name])
        if not paths:
            raise RuntimeError(f"Invalid data, ImageFolderDataset API can't read the data file (interface mismatch "
                               f"or no data found). Check image folder file path: {self.dataset_dir}")
        self._paths = paths
        self._labels = np.array(labels, np.int32)

    def _num_rows(self):
        return len(self._paths)

    def _read_bytes(self, path):
        try:
            if self.decrypt is not None:
                return bytes(self.decrypt(path))
            with open(path, "rb") as f:
                return f.read()
        except OSError as exc:
            raise RuntimeError(f"Invalid file, failed to read image file '{path}': {exc.strerror}") from None

    def _get_row(self, index):
        path = self._paths[index]
        data = self._read_bytes(path)
        label = np.array(self._labels[index], np.int32)
        if not self.decode:
            return np.frombuffer(data, np.uint8).copy(), label
        import io

        from PIL import Image, UnidentifiedImageError
        try:
            with Image.open(io.BytesIO(data)) as img:
                image = np.asarray(img.convert("RGB"))
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
            raise RuntimeError(f"Invalid image, {path} decode failed, the image is broken or permission denied "
                               f"({exc}).") from None
        return image, label

    def get_class_indexing(self):
        """The class folder name -> label dict."""
        return self._class_map()

    def _row_labels(self):
        self._ensure_loaded()
        return self._labels
