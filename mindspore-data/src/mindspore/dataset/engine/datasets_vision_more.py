"""More vision sources on their original file layouts.

================= ======================================================================================
SVHNDataset       ``{train,test,extra}_32x32.mat``: ``image`` uint8 (32, 32, 3), ``label`` uint32 (10 -> 0)
USPSDataset       ``usps``/``usps.t`` (libsvm text): ``image`` uint8 (16, 16, 1), ``label`` uint32 (class - 1)
SemeionDataset    ``semeion.data``: ``image`` uint8 (16, 16) of 0/1, ``label`` uint32
STL10Dataset      ``{train,test,unlabeled}_X.bin`` / ``_y.bin``: ``image`` uint8 (96, 96, 3), ``label`` int32
                  (class - 1; -1 for unlabeled images)
CelebADataset     ``list_attr_celeba.txt``, ``list_eval_partition.txt`` and the images: ``image``, ``attr``
                  uint32 (number of attributes,) with -1 -> 0
Places365Dataset  ``categories_places365.txt``, ``places365_<usage>.txt``, image folders: ``image``,
                  ``label`` uint32
Caltech256Dataset ``<NNN.class>/<files>``: ``image``, ``label`` int32 (folder index in name order)
Food101Dataset    ``images/<class>/<id>.jpg``, ``meta/{train,test}.txt``: ``image``, ``label`` string
================= ======================================================================================

``image`` is the file's bytes (uint8 1-D) unless ``decode=True`` (RGB uint8 (H, W, 3)).
"""
import io
import os

import numpy as np

from mindspore.dataset.engine.datasets import MappableDataset, Shuffle
from mindspore.dataset.engine.datasets_vision import check_bool, check_dir, check_usage

__all__ = ["SVHNDataset", "USPSDataset", "SemeionDataset", "STL10Dataset", "CelebADataset", "Places365Dataset",
           "Caltech256Dataset", "Food101Dataset"]


def read_file(path, decrypt=None):
    """The bytes of a file (through ``decrypt(path)`` when given); ``RuntimeError`` naming it otherwise."""
    try:
        if decrypt is not None:
            return bytes(decrypt(path))
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise RuntimeError(f"Invalid file, failed to read file '{path}': {exc.strerror}") from None


def decode_image(data, path):
    """RGB uint8 (H, W, 3) from encoded image bytes (Pillow)."""
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(io.BytesIO(data)) as img:
            return np.asarray(img.convert("RGB"))
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise RuntimeError(f"Invalid image, {path} decode failed, the image is broken or permission denied "
                           f"({exc}).") from None


def image_column(path, decode, decrypt=None):
    data = read_file(path, decrypt)
    if decode:
        return decode_image(data, path)
    return np.frombuffer(data, np.uint8).copy()


def read_text(path, api):
    try:
        with open(path, "r", encoding="utf-8") as f:
            return f.read()
    except OSError:
        raise RuntimeError(f"Invalid file, failed to open {path}: {api} file is damaged or permission "
                           f"denied.") from None


def interleave(file_rows, num_workers):
    """Row ids of several files in the order MindSpore's file readers yield them without shuffling.

    File ``f`` is read by worker ``f % num_workers`` (a worker reads its files one after the other), and the
    rows are taken from the workers in turn, one row each, skipping the workers that are done.
    """
    from mindspore.dataset import config
    workers = num_workers or config.get_num_parallel_workers()
    starts = np.concatenate(([0], np.cumsum(file_rows))).astype(np.int64)
    streams = [[] for _ in range(max(1, min(workers, len(file_rows))))]
    for f in range(len(file_rows)):
        streams[f % len(streams)].extend(range(int(starts[f]), int(starts[f + 1])))
    order = []
    for k in range(max((len(s) for s in streams), default=0)):
        order.extend(s[k] for s in streams if k < len(s))
    return order


def no_data(api, where):
    return RuntimeError(f"Invalid data, no valid data matching the dataset API {api}. Please check file path or "
                        f"dataset API: {where}.")


class _Source(MappableDataset):
    """A source whose rows come from ``self._items`` (built by ``_load``) through ``_make_row``."""

    _api = ""

    def _init(self, dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache):
        self.dataset_dir = check_dir(dataset_dir, self._api)
        super().__init__(num_samples=num_samples, num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id, cache=cache)
        self._items = None

    def _num_rows(self):
        return len(self._items)

    def _get_row(self, index):
        return self._make_row(self._items[index])

    def _set_items(self, items, where=None):
        if not items:
            raise no_data(self._api, where or self.dataset_dir)
        self._items = items


# ---------------------------------------------------------------------------------------------------------------
# SVHN

class SVHNDataset(_Source):
    """The SVHN data set (cropped digits, format 2): ``train_32x32.mat``, ``test_32x32.mat``, ``extra_32x32.mat``.

    Reading the MATLAB files needs SciPy (``pip install scipy``), as in MindSpore.

    Args:
        dataset_dir (str): the folder with the ``.mat`` files.
        usage (str, optional): 'train', 'test', 'extra' or 'all' (in that order). Default: None ('all').
        num_samples (int, optional): rows to read. Default: None (all).
        num_parallel_workers (int, optional): reader threads. Default: 1.
        shuffle (bool, optional): shuffle the rows. Default: None (True unless a sampler is given).
        sampler (Sampler, optional): the sampler. Default: None.
        num_shards (int, optional): number of shards. Default: None.
        shard_id (int, optional): the shard to read. Default: None.

    Columns: ``image`` uint8 (32, 32, 3), ``label`` uint32 () (the digit; SVHN's label 10 is the digit 0).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.SVHNDataset("/path/to/svhn", usage="train", shuffle=False)
    """

    _api = "SVHNDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=1, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None):
        self.usage = check_usage(usage, self._api, ("train", "test", "extra", "all"))
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, None)
        self.column_names = ["image", "label"]

    def _load(self):
        try:
            from scipy.io import loadmat
        except ImportError:
            raise RuntimeError("SVHNDataset reads MATLAB .mat files with SciPy, which is not installed: "
                               "pip install scipy") from None
        images, labels = [], []
        for usage in (["train", "test", "extra"] if self.usage == "all" else [self.usage]):
            path = os.path.join(self.dataset_dir, f"{usage}_32x32.mat")
            if not os.path.isfile(path):
                raise RuntimeError(f"Invalid file, failed to find SVHN file '{path}' for usage '{usage}'.")
            try:
                mat = loadmat(path)
                x, y = np.asarray(mat["X"]), np.asarray(mat["y"]).reshape(-1)
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise RuntimeError(f"Invalid file, failed to read SVHN file '{path}': {exc}") from None
            if x.ndim != 4 or x.shape[:3] != (32, 32, 3) or x.shape[3] != y.size:
                raise RuntimeError(f"Invalid SVHN file '{path}': 'X' has shape {list(x.shape)} and 'y' {y.size} "
                                   f"labels; expected (32, 32, 3, N) images and N labels.")
            images.append(np.ascontiguousarray(x.transpose(3, 0, 1, 2)).astype(np.uint8))
            labels.append((y.astype(np.int64) % 10).astype(np.uint32))
        self._images = np.concatenate(images)
        self._labels = np.concatenate(labels)
        self._set_items(range(self._labels.size))

    def _make_row(self, index):
        return self._images[index].copy(), np.array(self._labels[index], np.uint32)

    def _row_labels(self):
        self._ensure_loaded()
        return self._labels


# ---------------------------------------------------------------------------------------------------------------
# USPS, Semeion, STL-10

class USPSDataset(_Source):
    """The USPS data set in its libsvm text form: ``usps`` (train, 7,291 rows) and ``usps.t`` (test, 2,007).

    Each line is ``<class 1..10> 1:<v> 2:<v> ... 256:<v>`` with values in [-1, 1]; a pixel is
    ``(v + 1) / 2 * 255``.

    Args:
        dataset_dir (str): the folder with ``usps`` and ``usps.t``.
        usage (str, optional): 'train', 'test' or 'all' (train then test). Default: None ('all').
        num_samples (int, optional): rows to read. Default: None (all).
        num_parallel_workers (int, optional): reader threads. Default: None.
        shuffle (Union[bool, Shuffle], optional): Shuffle.GLOBAL (default), Shuffle.FILES or False.
        num_shards (int, optional): number of shards. Default: None.
        shard_id (int, optional): the shard to read. Default: None.
        cache (DatasetCache, optional): unused. Default: None.

    Columns: ``image`` uint8 (16, 16, 1), ``label`` uint32 () (class - 1).

    Without shuffling, the rows of the two files are interleaved as MindSpore's readers yield them: one row
    from each file in turn while both have rows (with one reader thread, ``usps`` then ``usps.t``).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.USPSDataset("/path/to/usps", usage="test", shuffle=False)
    """

    _api = "USPSDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api)
        shuffle_flag = shuffle
        if isinstance(shuffle, Shuffle):
            shuffle = shuffle is not Shuffle.INFILE or True
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id, cache)
        self.shuffle_flag = shuffle_flag
        self.column_names = ["image", "label"]

    def _parse(self, path):
        images, labels = [], []
        with open(path, "r", encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                fields = line.split()
                if not fields:
                    continue
                if len(fields) != 257:
                    raise RuntimeError(f"Invalid data, the number of split characters ':' in USPS data file is "
                                       f"corrupted, should be 257, but got {len(fields)} (file {path}, line "
                                       f"{number}).")
                try:
                    label = int(float(fields[0]))
                    values = np.array([float(f.split(":", 1)[1]) for f in fields[1:]], np.float64)
                except (ValueError, IndexError):
                    raise RuntimeError(f"Invalid data, USPS data file {path} line {number} is not "
                                       f"'<label> 1:<v> ... 256:<v>'.") from None
                images.append(values)
                labels.append(label - 1)
        return images, labels

    def _load(self):
        names = {"train": ["usps"], "test": ["usps.t"], "all": ["usps", "usps.t"]}[self.usage]
        images, labels, file_rows = [], [], []
        for name in names:
            path = os.path.join(self.dataset_dir, name)
            if not os.path.isfile(path):
                raise RuntimeError(f"Invalid file, failed to find USPS file '{path}'.")
            got_images, got_labels = self._parse(path)
            images += got_images
            labels += got_labels
            file_rows.append(len(got_labels))
        if not images:
            raise no_data(self._api, self.dataset_dir)
        order = interleave(file_rows, self.num_parallel_workers)
        values = np.stack(images)[order]
        labels = [labels[k] for k in order]
        self._images = ((values + 1.0) / 2.0 * 255.0).astype(np.uint8).reshape(-1, 16, 16, 1)
        self._labels = np.array(labels, np.uint32)
        self._set_items(range(len(labels)))

    def _make_row(self, index):
        return self._images[index].copy(), np.array(self._labels[index], np.uint32)


class SemeionDataset(_Source):
    """The Semeion handwritten digits: ``semeion.data`` (256 binary pixels then a one-hot digit per line).

    Args:
        dataset_dir (str): the folder with ``semeion.data``.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``image`` uint8 (16, 16) of 0 and 1, ``label`` uint32 ().

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.SemeionDataset("/path/to/semeion", shuffle=False)
    """

    _api = "SemeionDataset"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.column_names = ["image", "label"]

    def _load(self):
        path = os.path.join(self.dataset_dir, "semeion.data")
        text = read_text(path, "Semeion")
        images, labels = [], []
        for number, line in enumerate(text.splitlines(), 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 266:
                raise RuntimeError(f"Invalid data, the Semeion file {path} line {number} has {len(fields)} values, "
                                   f"expected 256 pixels and 10 label flags.")
            values = np.array([float(v) for v in fields], np.float64)
            images.append(values[:256].astype(np.uint8).reshape(16, 16))
            labels.append(int(np.argmax(values[256:])))
        self._images = images
        self._labels = np.array(labels, np.uint32)
        self._set_items(range(len(labels)))

    def _make_row(self, index):
        return self._images[index].copy(), np.array(self._labels[index], np.uint32)


class STL10Dataset(_Source):
    """The STL-10 data set, binary version: ``train_X.bin``/``train_y.bin``, ``test_X.bin``/``test_y.bin``,
    ``unlabeled_X.bin`` (images stored column-major, 3x96x96).

    Args:
        dataset_dir (str): the folder with the ``.bin`` files.
        usage (str, optional): 'train', 'test', 'unlabeled', 'train+unlabeled' or 'all' (test, train,
            unlabeled). Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``image`` uint8 (96, 96, 3), ``label`` int32 () (class 0..9, or -1 for unlabeled images).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.STL10Dataset("/path/to/stl10_binary", usage="train", shuffle=False)
    """

    _api = "STL10Dataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, ("train", "test", "unlabeled", "train+unlabeled", "all"))
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.column_names = ["image", "label"]

    def _load(self):
        from mindspore.dataset.engine.datasets_vision import RecordFile
        splits = {"train": ["train"], "test": ["test"], "unlabeled": ["unlabeled"],
                  "train+unlabeled": ["train", "unlabeled"], "all": ["test", "train", "unlabeled"]}[self.usage]
        items = []
        record = 3 * 96 * 96
        for split in splits:
            x_path = os.path.join(self.dataset_dir, f"{split}_X.bin")
            if not os.path.isfile(x_path):
                raise RuntimeError(f"Invalid file, failed to find STL10 file '{x_path}' for usage '{split}'.")
            size = os.path.getsize(x_path)
            if size % record:
                raise RuntimeError(f"Invalid STL10 file '{x_path}': its size {size} bytes is not a multiple of the "
                                   f"{record}-byte image.")
            images = RecordFile(x_path, 0, np.uint8, (size // record, record))
            if split == "unlabeled":
                labels = np.full(images.shape[0], -1, np.int32)
            else:
                y_path = os.path.join(self.dataset_dir, f"{split}_y.bin")
                if not os.path.isfile(y_path):
                    raise RuntimeError(f"Invalid file, failed to find STL10 file '{y_path}' for usage '{split}'.")
                labels = np.fromfile(y_path, np.uint8).astype(np.int32) - 1
                if labels.size != images.shape[0]:
                    raise RuntimeError(f"Invalid STL10 files: '{x_path}' holds {images.shape[0]} images but "
                                       f"'{y_path}' holds {labels.size} labels.")
            items += [(images, k, labels[k]) for k in range(images.shape[0])]
        self._set_items(items)

    def _make_row(self, item):
        images, k, label = item
        image = np.ascontiguousarray(images.row(k).reshape(3, 96, 96).transpose(2, 1, 0))
        return image, np.array(label, np.int32)


# ---------------------------------------------------------------------------------------------------------------
# Image lists: CelebA, Places365, Caltech256, Food101

class _ImageList(_Source):
    """Rows ``(image, *labels)`` from ``self._items = [(path, label arrays...)]``."""

    decode = False
    decrypt = None

    def _make_row(self, item):
        return (image_column(item[0], self.decode, self.decrypt), *item[1:])


class CelebADataset(_ImageList):
    """The CelebA data set: images and ``list_attr_celeba.txt`` (optionally ``list_eval_partition.txt``) in
    ``dataset_dir``.

    Args:
        dataset_dir (str): the folder.
        num_parallel_workers (int, optional): reader threads. Default: None.
        shuffle (bool, optional): shuffle the rows. Default: None.
        usage (str, optional): 'train' (partition 0), 'valid' (1), 'test' (2) or 'all'. Default: 'all'.
        sampler (Sampler, optional): the sampler. Default: None.
        decode (bool, optional): decode the images. Default: False.
        extensions (list[str], optional): keep files with these extensions. Default: None (all).
        num_samples, num_shards, shard_id, cache: as for :class:`MnistDataset`.
        decrypt (callable, optional): ``decrypt(path) -> bytes``. Default: None.

    Columns: ``image`` uint8, ``attr`` uint32 (one per attribute; -1 in the file is 0).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.CelebADataset("/path/to/celeba", usage="train", decode=True)
    """

    _api = "CelebADataset"

    def __init__(self, dataset_dir, num_parallel_workers=None, shuffle=None, usage='all', sampler=None, decode=False,
                 extensions=None, num_samples=None, num_shards=None, shard_id=None, cache=None, decrypt=None):
        self.usage = check_usage(usage, self._api, ("train", "valid", "test", "all"))
        check_bool(decode, "decode", self._api)
        if extensions is not None and (not isinstance(extensions, (list, tuple))
                                       or not all(isinstance(e, str) for e in extensions)):
            raise TypeError(f"For '{self._api}', the 'extensions' must be a list of str, but got {extensions!r}.")
        if decrypt is not None and not callable(decrypt):
            raise TypeError(f"For '{self._api}', the 'decrypt' must be callable, but got {type(decrypt).__name__}.")
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.decode, self.extensions, self.decrypt = decode, list(extensions) if extensions else None, decrypt
        self.column_names = ["image", "attr"]

    def _load(self):
        attr_path = os.path.join(self.dataset_dir, "list_attr_celeba.txt")
        lines = read_text(attr_path, "CelebA").splitlines()
        if len(lines) < 2:
            raise RuntimeError(f"Invalid file, {attr_path} must start with the number of images and the attribute "
                               f"names.")
        num_attrs = len(lines[1].split())
        partition = None
        if self.usage != "all":
            part_path = os.path.join(self.dataset_dir, "list_eval_partition.txt")
            partition = {}
            for line in read_text(part_path, "CelebA").splitlines():
                fields = line.split()
                if len(fields) == 2:
                    partition[fields[0]] = fields[1]
        wanted = {"train": "0", "valid": "1", "test": "2"}.get(self.usage)
        items = []
        for number, line in enumerate(lines[2:], 3):
            fields = line.split()
            if not fields:
                continue
            name = fields[0]
            if self.extensions is not None and os.path.splitext(name)[1] not in self.extensions:
                continue
            if partition is not None and partition.get(name) != wanted:
                continue
            if len(fields) != num_attrs + 1:
                raise RuntimeError(f"Invalid data, {attr_path} line {number} has {len(fields) - 1} attributes but the "
                                   f"header names {num_attrs}.")
            try:
                attrs = np.array([max(int(v), 0) for v in fields[1:]], np.uint32)
            except ValueError:
                raise RuntimeError(f"Invalid data, {attr_path} line {number}: the attributes must be integers.") \
                    from None
            items.append((os.path.join(self.dataset_dir, name), attrs))
        self._set_items(items, attr_path)


_PLACES_USAGES = ("train-standard", "train-challenge", "val")


class Places365Dataset(_ImageList):
    """The Places365 data set: ``categories_places365.txt``, ``places365_train_standard.txt``,
    ``places365_train_challenge.txt``, ``places365_val.txt`` and the image folders ``data_256_standard``,
    ``data_large_standard`` (``_challenge``), ``val_256`` and ``val_large``.

    Args:
        dataset_dir (str): the root folder.
        usage (str, optional): 'train-standard', 'train-challenge' or 'val'. Default: None ('train-standard').
        small (bool, optional): the 256x256 images (True) or the large ones (False). Default: True.
        decode (bool, optional): decode the images. Default: False.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``image`` uint8, ``label`` uint32 ().

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.Places365Dataset("/path/to/places365", usage="val", decode=True)
    """

    _api = "Places365Dataset"

    def __init__(self, dataset_dir, usage=None, small=True, decode=False, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        if usage is None:
            usage = "train-standard"
        self.usage = check_usage(usage, self._api, _PLACES_USAGES)
        check_bool(small, "small", self._api)
        check_bool(decode, "decode", self._api)
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.small, self.decode = small, decode
        self.column_names = ["image", "label"]

    def _load(self):
        categories = os.path.join(self.dataset_dir, "categories_places365.txt")
        read_text(categories, "Places365")
        list_name = {"train-standard": "places365_train_standard.txt",
                     "train-challenge": "places365_train_challenge.txt", "val": "places365_val.txt"}[self.usage]
        size = "256" if self.small else "large"
        folder = {"train-standard": f"data_{size}_standard", "train-challenge": f"data_{size}_challenge",
                  "val": f"val_{size}"}[self.usage]
        list_path = os.path.join(self.dataset_dir, list_name)
        items = []
        for number, line in enumerate(read_text(list_path, "Places365").splitlines(), 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 2:
                raise RuntimeError(f"Invalid data, {list_path} line {number} is not '<image> <label>'.")
            try:
                label = int(fields[1])
            except ValueError:
                raise RuntimeError(f"Invalid data, {list_path} line {number}: the label must be an integer.") \
                    from None
            items.append((os.path.join(self.dataset_dir, folder, fields[0].lstrip("/")), np.array(label, np.uint32)))
        self._set_items(items, list_path)


class Caltech256Dataset(_ImageList):
    """The Caltech-256 data set: one folder per class (``001.ak47``, ...), labelled in folder name order.

    Args:
        dataset_dir (str): the folder holding the class folders.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Columns: ``image`` uint8, ``label`` int32 ().

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.Caltech256Dataset("/path/to/256_ObjectCategories", decode=True)
    """

    _api = "Caltech256Dataset"
    _extensions = (".jpg", ".JPEG", ".png", ".PNG", ".bmp", ".BMP", ".jpeg", ".JPG", ".tif", ".tiff")

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        check_bool(decode, "decode", self._api)
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.decode = decode
        self.column_names = ["image", "label"]

    def _load(self):
        folders = sorted(n for n in os.listdir(self.dataset_dir) if os.path.isdir(os.path.join(self.dataset_dir, n)))
        items = []
        for label, name in enumerate(folders):
            folder = os.path.join(self.dataset_dir, name)
            for file_name in sorted(os.listdir(folder)):
                path = os.path.join(folder, file_name)
                if os.path.isfile(path) and os.path.splitext(file_name)[1] in self._extensions:
                    items.append((path, np.array(label, np.int32)))
        self._set_items(items)

    def get_class_indexing(self):
        self._ensure_loaded()
        folders = sorted(n for n in os.listdir(self.dataset_dir) if os.path.isdir(os.path.join(self.dataset_dir, n)))
        return {name: k for k, name in enumerate(folders)}


class Food101Dataset(_ImageList):
    """The Food-101 data set: ``images/<class>/<id>.jpg`` with the splits in ``meta/train.txt`` and
    ``meta/test.txt`` (lines ``<class>/<id>``).

    Args:
        dataset_dir (str): the root folder (holding ``images`` and ``meta``).
        usage (str, optional): 'train', 'test' or 'all' (train then test). Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Columns: ``image`` uint8, ``label`` string (the class name).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.Food101Dataset("/path/to/food-101", usage="test", decode=True)
    """

    _api = "Food101Dataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api)
        check_bool(decode, "decode", self._api)
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.decode = decode
        self.column_names = ["image", "label"]

    def _load(self):
        items = []
        for split in (["train", "test"] if self.usage == "all" else [self.usage]):
            list_path = os.path.join(self.dataset_dir, "meta", f"{split}.txt")
            for line in read_text(list_path, "Food101").splitlines():
                entry = line.strip()
                if not entry:
                    continue
                label = entry.split("/", 1)[0]
                items.append((os.path.join(self.dataset_dir, "images", entry + ".jpg"), np.array(label)))
        self._set_items(items)
