"""Cityscapes, Photo Tour (Brown et al. patches), Oxford Flowers 102, LFW, LSUN (extracted folders) and SBD.

Flowers102, LFW, LSUN and SBD are described in their class docstrings.

CityscapesDataset: ``leftImg8bit/<split>/<city>/<stem>_leftImg8bit.png`` with the annotation
``gtFine/<split>/<city>/<stem>_gtFine_{instanceIds,labelIds,color}.png`` or ``..._polygons.json`` (``gtCoarse``
for ``quality_mode='coarse'``); rows ``image`` and ``task`` (the annotation image, or the polygon JSON as a
compact string), cities and files in name order.

PhotoTourDataset: ``<name>/patches<nnnn>.bmp`` (1024x1024 grey bitmaps of 16x16 patches of 64x64 pixels, row
by row), ``info.txt`` (one line per patch: 3D point id, unused) and ``m50_100000_100000_0.txt`` (matching
pairs: ``patch1 point1 unused patch2 point2 unused unused``). Train rows: ``image`` uint8 (64, 64, 1), one per
line of ``info.txt``; test rows: ``image1``, ``image2``, ``matches`` uint32 (1 when the two patches show the
same 3D point).
"""
import json
import os

import numpy as np

from mindspore.dataset.engine.datasets_vision import check_bool, check_usage
from mindspore.dataset.engine.datasets_vision_more import _ImageList, _Source, image_column, read_text

__all__ = ["CityscapesDataset", "PhotoTourDataset", "Flowers102Dataset", "LFWDataset", "LSUNDataset",
           "SBDataset"]

_CITYSCAPES_SUFFIX = {"instance": "instanceIds.png", "semantic": "labelIds.png", "color": "color.png",
                      "polygon": "polygons.json"}


class CityscapesDataset(_ImageList):
    """The Cityscapes data set (see the module docstring).

    Args:
        dataset_dir (str): the root folder (holding ``leftImg8bit`` and ``gtFine``/``gtCoarse``).
        usage (str, optional): 'train', 'test', 'val' or 'all' ('fine'); 'train', 'train_extra', 'val' or 'all'
            ('coarse'). Default: 'train'.
        quality_mode (str, optional): 'fine' or 'coarse'. Default: 'fine'.
        task (str, optional): 'instance', 'semantic', 'polygon' or 'color'. Default: 'instance'.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Columns: ``image`` uint8, ``task`` uint8 (or the polygon JSON string).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.CityscapesDataset("/path/to/cityscapes", usage="val", task="semantic", decode=True)
    """

    _api = "CityscapesDataset"

    def __init__(self, dataset_dir, usage="train", quality_mode="fine", task="instance", num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=None, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        self.quality_mode = check_usage(quality_mode, self._api, ("fine", "coarse"))
        valid = ("train", "test", "val", "all") if quality_mode == "fine" else ("train", "train_extra", "val", "all")
        self.usage = check_usage(usage, self._api, valid)
        self.task = check_usage(task, self._api, tuple(_CITYSCAPES_SUFFIX))
        decode = bool(decode)
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.decode = decode
        self.column_names = ["image", "task"]

    def _load(self):
        gt = "gtFine" if self.quality_mode == "fine" else "gtCoarse"
        splits = ([s for s in ("train", "test", "val", "train_extra") if s != ("train_extra" if self.quality_mode ==
                                                                                "fine" else "test")]
                  if self.usage == "all" else [self.usage])
        items = []
        for split in splits:
            image_root = os.path.join(self.dataset_dir, "leftImg8bit", split)
            if not os.path.isdir(image_root):
                raise RuntimeError(f"Invalid path, Cityscapes Dataset image folder '{image_root}' does not exist.")
            for city in sorted(os.listdir(image_root)):
                folder = os.path.join(image_root, city)
                if not os.path.isdir(folder):
                    continue
                for name in sorted(os.listdir(folder)):
                    if not name.endswith("_leftImg8bit.png"):
                        continue
                    stem = name[:-len("_leftImg8bit.png")]
                    target = os.path.join(self.dataset_dir, gt, split, city,
                                          f"{stem}_{gt}_{_CITYSCAPES_SUFFIX[self.task]}")
                    items.append((os.path.join(folder, name), target))
        self._set_items(items)

    def _make_row(self, item):
        image = image_column(item[0], self.decode)
        if self.task == "polygon":
            try:
                doc = json.loads(read_text(item[1], "Cityscapes"))
            except ValueError as exc:
                raise RuntimeError(f"Invalid file, failed to parse json file: {item[1]} ({exc}).") from None
            return image, np.array(json.dumps(doc, separators=(",", ":"), ensure_ascii=False, sort_keys=True))
        return image, image_column(item[1], self.decode)


_PHOTOTOUR_NAMES = ("notredame", "yosemite", "liberty", "notredame_harris", "yosemite_harris", "liberty_harris")


class PhotoTourDataset(_Source):
    """The Photo Tour (multi-view stereo correspondence) patch data set (see the module docstring).

    Args:
        dataset_dir (str): the root folder.
        name (str): 'notredame', 'yosemite', 'liberty' or their '_harris' variants.
        usage (str, optional): 'train' or 'test'. Default: None ('train').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.PhotoTourDataset("/path/to/photo_tour", name="liberty", usage="test")
    """

    _api = "PhotoTourDataset"

    def __init__(self, dataset_dir, name, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.name = check_usage(name, self._api, _PHOTOTOUR_NAMES)
        self.usage = check_usage(usage if usage is not None else "train", self._api, ("train", "test"))
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.column_names = ["image"] if self.usage == "train" else ["image1", "image2", "matches"]
        self._bitmaps = {}

    def _load(self):
        folder = os.path.join(self.dataset_dir, self.name)
        info = [line.split() for line in read_text(os.path.join(folder, "info.txt"), "PhotoTour").splitlines()
                if line.strip()]
        self._num_patches = len(info)
        if self.usage == "train":
            self._set_items(list(range(len(info))), folder)
            return
        pairs = []
        matches_path = os.path.join(folder, "m50_100000_100000_0.txt")
        for number, line in enumerate(read_text(matches_path, "PhotoTour").splitlines(), 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 7:
                raise RuntimeError(f"Invalid data, {matches_path} line {number} should have 7 columns.")
            pairs.append((int(fields[0]), int(fields[3]), int(fields[1] == fields[4])))
        self._set_items(pairs, matches_path)

    def _patch(self, index):
        if not 0 <= index < self._num_patches:
            raise RuntimeError(f"Invalid data, patch {index} is out of range [0, {self._num_patches}).")
        bitmap_id = index // 256
        bitmap = self._bitmaps.get(bitmap_id)
        if bitmap is None:
            from PIL import Image
            path = os.path.join(self.dataset_dir, self.name, f"patches{bitmap_id:04d}.bmp")
            try:
                with Image.open(path) as img:
                    bitmap = np.asarray(img.convert("L"))
            except OSError as exc:
                raise RuntimeError(f"Invalid file, failed to read {path}: {exc}") from None
            self._bitmaps[bitmap_id] = bitmap
        row, col = divmod(index % 256, 16)
        return bitmap[row * 64:(row + 1) * 64, col * 64:(col + 1) * 64].reshape(64, 64, 1).copy()

    def _make_row(self, item):
        if self.usage == "train":
            return (self._patch(item),)
        return self._patch(item[0]), self._patch(item[1]), np.array(item[2], np.uint32)


def _loadmat(path, api):
    try:
        from scipy.io import loadmat
    except ImportError:
        raise RuntimeError(f"{api} reads MATLAB .mat files with SciPy, which is not installed: pip install scipy") \
            from None
    try:
        return loadmat(path)
    except (OSError, ValueError, TypeError) as exc:
        raise RuntimeError(f"Invalid file, failed to read MATLAB file '{path}': {exc}") from None


class Flowers102Dataset(_ImageList):
    """The Oxford 102 Category Flowers data set: ``jpg/image_<nnnnn>.jpg``, ``imagelabels.mat`` (``labels``,
    1-based), ``setid.mat`` (``trnid``, ``valid``, ``tstid``, 1-based image numbers) and, for segmentation,
    ``segmim/segmim_<nnnnn>.jpg``. Reading the ``.mat`` files needs SciPy (``pip install scipy``), as in MindSpore.

    Args:
        dataset_dir (str): the root folder.
        task (str, optional): 'Classification' or 'Segmentation'. Default: 'Classification'.
        usage (str, optional): 'train', 'valid', 'test' or 'all' (train, test, valid). Default: 'all'.
        num_samples (int, optional): rows to read. Default: None (all).
        num_parallel_workers (int, optional): reader threads. Default: 1.
        shuffle (bool, optional): shuffle the rows. Default: None.
        decode (bool, optional): decode the images. Default: False.
        sampler, num_shards, shard_id: as for :class:`MnistDataset`.

    Columns: ``image`` uint8, (Segmentation: ``segmentation`` uint8,) ``label`` uint32 (class - 1).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.Flowers102Dataset("/path/to/flowers102", usage="train", decode=True)
    """

    _api = "Flowers102Dataset"

    def __init__(self, dataset_dir, task="Classification", usage="all", num_samples=None, num_parallel_workers=1,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None):
        self.task = check_usage(task, self._api, ("Classification", "Segmentation"))
        self.usage = check_usage(usage, self._api, ("train", "valid", "test", "all"))
        check_bool(decode, "decode", self._api)
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, None)
        self.decode = decode
        self.column_names = ["image", "label"] if task == "Classification" else ["image", "segmentation", "label"]

    def _load(self):
        labels = np.asarray(_loadmat(os.path.join(self.dataset_dir, "imagelabels.mat"), self._api)["labels"])
        labels = labels.reshape(-1).astype(np.int64)
        sets = _loadmat(os.path.join(self.dataset_dir, "setid.mat"), self._api)
        keys = {"train": ["trnid"], "valid": ["valid"], "test": ["tstid"],
                "all": ["trnid", "tstid", "valid"]}[self.usage]
        items = []
        for key in keys:
            for number in np.asarray(sets[key]).reshape(-1).astype(np.int64):
                if not 1 <= number <= labels.size:
                    raise RuntimeError(f"Invalid data, image number {number} of '{key}' has no label in "
                                       f"imagelabels.mat ({labels.size} labels).")
                image = os.path.join(self.dataset_dir, "jpg", f"image_{number:05d}.jpg")
                label = np.array(labels[number - 1] - 1, np.uint32)
                if self.task == "Segmentation":
                    items.append((image, os.path.join(self.dataset_dir, "segmim", f"segmim_{number:05d}.jpg"), label))
                else:
                    items.append((image, label))
        self._set_items(items)

    def _make_row(self, item):
        if self.task == "Segmentation":
            return image_column(item[0], self.decode), image_column(item[1], self.decode), item[2].copy()
        return image_column(item[0], self.decode), item[1].copy()


_LFW_FOLDERS = {"original": "lfw", "funneled": "lfw_funneled", "deepfunneled": "lfw-deepfunneled"}


class LFWDataset(_ImageList):
    """The Labeled Faces in the Wild data set: the image folders ``lfw``, ``lfw_funneled``, ``lfw-deepfunneled``
    (``<name>/<name>_<nnnn>.jpg``), ``lfw-names.txt`` (``name<TAB>count``; a person's label is its line) and the
    split files ``peopleDevTrain.txt``, ``peopleDevTest.txt``, ``people.txt`` (10 folds), ``pairsDevTrain.txt``,
    ``pairsDevTest.txt``, ``pairs.txt`` (10 folds).

    Args:
        dataset_dir (str): the root folder.
        task (str, optional): 'people' (``image``, ``label``) or 'pairs' (``image1``, ``image2``, ``label``: 1 for
            the same person). Default: None ('people').
        usage (str, optional): 'train' (DevTrain), 'test' (DevTest), '10fold' or 'all' (train then test).
            Default: None ('all').
        image_set (str, optional): 'original', 'funneled' or 'deepfunneled'. Default: None ('funneled').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Columns: images uint8; ``label`` uint32.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.LFWDataset("/path/to/lfw", task="pairs", usage="test", image_set="deepfunneled")
    """

    _api = "LFWDataset"

    def __init__(self, dataset_dir, task=None, usage=None, image_set=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        self.task = check_usage(task if task is not None else "people", self._api, ("people", "pairs"))
        self.usage = check_usage(usage, self._api, ("train", "test", "10fold", "all"))
        self.image_set = check_usage(image_set if image_set is not None else "funneled", self._api,
                                     tuple(_LFW_FOLDERS))
        check_bool(decode, "decode", self._api)
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.decode = decode
        self.column_names = ["image", "label"] if self.task == "people" else ["image1", "image2", "label"]

    def _image(self, name, number):
        return os.path.join(self.dataset_dir, _LFW_FOLDERS[self.image_set], name, f"{name}_{int(number):04d}.jpg")

    def _lines(self, name):
        path = os.path.join(self.dataset_dir, name)
        return path, [line.split() for line in read_text(path, "LFW").splitlines() if line.strip()]

    def _entries(self, name, ten_folds):
        """The entry lines of a split file: after its count line, or, for the 10-fold files, fold by fold."""
        path, lines = self._lines(name)
        if not lines:
            return []
        if not ten_folds:
            return lines[1:]
        header = lines[0]
        folds = int(header[0])
        per_fold = int(header[1]) * 2 if self.task == "pairs" else None
        entries, pos = [], 1
        for _ in range(folds):
            if per_fold is None:
                if pos >= len(lines):
                    raise RuntimeError(f"Invalid data, {path} ends before its {folds} folds.")
                count = int(lines[pos][0])
                pos += 1
            else:
                count = per_fold
            entries += lines[pos:pos + count]
            pos += count
        return entries

    def _load(self):
        _, names = self._lines("lfw-names.txt")
        index = {fields[0]: k for k, fields in enumerate(names)}
        stem = "people" if self.task == "people" else "pairs"
        files = {"train": [(f"{stem}DevTrain.txt", False)], "test": [(f"{stem}DevTest.txt", False)],
                 "10fold": [(f"{stem}.txt", True)],
                 "all": [(f"{stem}DevTrain.txt", False), (f"{stem}DevTest.txt", False)]}[self.usage]
        items = []
        for name, ten_folds in files:
            for fields in self._entries(name, ten_folds):
                if self.task == "people":
                    person, count = fields[0], int(fields[1])
                    if person not in index:
                        raise RuntimeError(f"Invalid data, {person} of {name} is not in lfw-names.txt.")
                    items += [(self._image(person, k), np.array(index[person], np.uint32))
                              for k in range(1, count + 1)]
                elif len(fields) == 3:
                    items.append((self._image(fields[0], fields[1]), self._image(fields[0], fields[2]),
                                  np.array(1, np.uint32)))
                elif len(fields) == 4:
                    items.append((self._image(fields[0], fields[1]), self._image(fields[2], fields[3]),
                                  np.array(0, np.uint32)))
                else:
                    raise RuntimeError(f"Invalid data, a line of {name} should be 'name i j' or 'name1 i name2 j'.")
        self._set_items(items)

    def _make_row(self, item):
        if self.task == "people":
            return image_column(item[0], self.decode), item[1].copy()
        return image_column(item[0], self.decode), image_column(item[1], self.decode), item[2].copy()


_LSUN_CLASSES = ("bedroom", "bridge", "church_outdoor", "classroom", "conference_room", "dining_room", "kitchen",
                 "living_room", "restaurant", "tower")


class LSUNDataset(_ImageList):
    """The LSUN scene data set, extracted into image folders ``<class>_train``, ``<class>_val`` and ``test``.

    Args:
        dataset_dir (str): the root folder.
        usage (str, optional): 'train', 'test', 'valid' or 'all' (train and val folders). Default: None ('all').
        classes (list[str], optional): the classes to read (taken in name order). Default: None (every class
            folder present, in name order).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Columns: ``image`` uint8, ``label`` uint32: the index of the image's folder among the folders read (with
    'all', ``bedroom_train`` and ``bedroom_val`` are two labels); ``test`` images have label 0.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.LSUNDataset("/path/to/lsun", usage="train", classes=["bedroom", "classroom"])
    """

    _api = "LSUNDataset"

    def __init__(self, dataset_dir, usage=None, classes=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, ("train", "test", "valid", "all"))
        if classes is not None:
            if not isinstance(classes, list):
                raise TypeError(f"Argument classes with value {classes} is not of type [<class 'list'>], but got "
                                f"{type(classes)}.")
            for name in classes:
                if name not in _LSUN_CLASSES:
                    raise ValueError(f"Input classes is not within the valid set of {list(_LSUN_CLASSES)}.")
        self.classes = list(classes) if classes is not None else None
        check_bool(decode, "decode", self._api)
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.decode = decode
        self.column_names = ["image", "label"]

    def _folders(self):
        if self.usage == "test":
            return ["test"]
        suffixes = {"train": ["_train"], "valid": ["_val"], "all": ["_train", "_val"]}[self.usage]
        if self.classes is not None:
            return [f"{c}{s}" for c in sorted(set(self.classes)) for s in suffixes]
        return sorted(n for n in os.listdir(self.dataset_dir) if os.path.isdir(os.path.join(self.dataset_dir, n))
                      and any(n.endswith(s) and n[:-len(s)] in _LSUN_CLASSES for s in suffixes))

    def _load(self):
        items = []
        for label, folder in enumerate(self._folders()):
            path = os.path.join(self.dataset_dir, folder)
            if not os.path.isdir(path):
                raise RuntimeError(f"Invalid file, failed to find LSUN folder '{path}'.")
            items += [(os.path.join(path, name), np.array(label, np.uint32)) for name in sorted(os.listdir(path))
                      if os.path.isfile(os.path.join(path, name))]
        self._set_items(items)


class SBDataset(_ImageList):
    """The Semantic Boundaries Dataset: ``img/<id>.jpg``, ``cls/<id>.mat`` (the MATLAB struct ``GTcls`` with
    ``Segmentation`` and the 20 per-class sparse ``Boundaries``) and the lists ``train.txt``, ``val.txt``,
    ``train_noval.txt``. Reading the ``.mat`` files needs SciPy (``pip install scipy``), as in MindSpore.

    Args:
        dataset_dir (str): the root folder.
        task (str, optional): 'Boundaries' or 'Segmentation'. Default: 'Boundaries'.
        usage (str, optional): 'train', 'val', 'train_noval' or 'all' (train then val). Default: 'all'.
        num_samples (int, optional): rows to read. Default: None (all).
        num_parallel_workers (int, optional): reader threads. Default: 1.
        shuffle (bool, optional): shuffle the rows. Default: None.
        decode (bool, optional): decode the images. Default: None (False).
        sampler, num_shards, shard_id: as for :class:`MnistDataset`.

    Columns: ``image`` uint8, ``task``: the boundaries (20, H, W) or the segmentation (H, W), as stored (uint8).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.SBDataset("/path/to/sbd", task="Segmentation", usage="val", decode=True)
    """

    _api = "SBDataset"

    def __init__(self, dataset_dir, task='Boundaries', usage='all', num_samples=None, num_parallel_workers=1,
                 shuffle=None, decode=None, sampler=None, num_shards=None, shard_id=None):
        self.task = check_usage(task, self._api, ("Boundaries", "Segmentation"))
        self.usage = check_usage(usage, self._api, ("train", "val", "train_noval", "all"))
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, None)
        self.decode = bool(decode)
        self.column_names = ["image", "task"]

    def _load(self):
        names = []
        for usage in (["train", "val"] if self.usage == "all" else [self.usage]):
            path = os.path.join(self.dataset_dir, f"{usage}.txt")
            if not os.path.isfile(path):
                raise RuntimeError(f"SBDataset: {path} not found")
            names += [line.strip() for line in read_text(path, "SBD").splitlines() if line.strip()]
        self._set_items([(os.path.join(self.dataset_dir, "img", f"{n}.jpg"),
                          os.path.join(self.dataset_dir, "cls", f"{n}.mat")) for n in names])

    def _target(self, path):
        struct = _loadmat(path, self._api)["GTcls"][0]
        field = struct[self.task][0]
        if self.task == "Segmentation":
            return np.ascontiguousarray(field)
        return np.stack([field[c][0].toarray() for c in range(20)])

    def _make_row(self, item):
        return image_column(item[0], self.decode), self._target(item[1])
