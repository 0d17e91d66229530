"""Vision sources made of image files plus a list or folder structure.

================== ==================================================================================
OmniglotDataset    ``images_background`` / ``images_evaluation``: ``<alphabet>/<character>/<file>``;
                   ``image``, ``label`` int32 (the (alphabet, character) pair's index in name order)
SBUDataset         ``SBU_captioned_photo_dataset_urls.txt`` / ``_captions.txt``, ``sbu_images/m_<a>_<b>``:
                   ``image``, ``caption`` (lines whose image is missing are skipped)
FlickrDataset      images + ``<image>#<k>\\t<caption>`` token file: ``image``, ``annotation`` string (5,)
SUN397Dataset      ``ClassName.txt`` (``/a/abbey``, ...) and ``<class>/<files>``: ``image``, ``label`` uint32
RenderedSST2Dataset ``{train,valid,test}/{negative,positive}/<files>``: ``image``, ``label`` uint32
ManifestDataset    a JSON-lines manifest (``source``, ``usage``, ``annotation`` names): ``image``,
                   ``label`` int32 (a scalar, or (n,) for several annotations)
DIV2KDataset       ``DIV2K_<usage>_HR/<id>.png`` and ``DIV2K_<usage>_LR_<downgrade>/X<scale>/<id>x<scale>.png``:
                   ``hr_image``, ``lr_image``
Caltech101Dataset  ``101_ObjectCategories/<class>/image_<nnnn>.jpg`` (``BACKGROUND_Google`` left out):
                   ``image``, ``category`` int64
FakeImageDataset   random images: ``image`` uint8 (H, W, C), ``label`` uint32
RandomDataset      random rows of a schema (or of random columns)
================== ==================================================================================
"""
import json
import os

import numpy as np

from mindspore.dataset import config
from mindspore.dataset.engine.datasets import MappableDataset, Schema
from mindspore.dataset.engine.datasets_vision import check_bool, check_usage
from mindspore.dataset.engine.datasets_vision_more import _ImageList, image_column, read_text

__all__ = ["OmniglotDataset", "SBUDataset", "FlickrDataset", "SUN397Dataset", "RenderedSST2Dataset",
           "ManifestDataset", "DIV2KDataset", "Caltech101Dataset", "FakeImageDataset", "RandomDataset"]

_IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".JPG", ".JPEG", ".PNG", ".BMP")


def _subdirs(folder):
    return sorted(n for n in os.listdir(folder) if os.path.isdir(os.path.join(folder, n)))


def _files(folder, extensions=None):
    return sorted(n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n))
                  and (extensions is None or os.path.splitext(n)[1] in extensions))


class _SimpleImageList(_ImageList):
    def _common(self, dataset_dir, decode, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                cache, columns):
        check_bool(decode, "decode", self._api)
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.decode = decode
        self.column_names = list(columns)


class OmniglotDataset(_SimpleImageList):
    """The Omniglot data set.

    Args:
        dataset_dir (str): the folder holding ``images_background`` and ``images_evaluation``.
        background (bool, optional): the background set (True) or the evaluation set. Default: None (True).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Columns: ``image`` uint8, ``label`` int32 (the character's index, alphabets and characters in name order).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.OmniglotDataset("/path/to/omniglot", background=False, decode=True)
    """

    _api = "OmniglotDataset"

    def __init__(self, dataset_dir, background=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.background = True if background is None else background
        check_bool(self.background, "background", self._api)
        self._common(dataset_dir, decode, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                     cache, ["image", "label"])

    def _load(self):
        root = os.path.join(self.dataset_dir, "images_background" if self.background else "images_evaluation")
        if not os.path.isdir(root):
            raise RuntimeError(f"Invalid file, failed to find Omniglot folder '{root}'.")
        items, label = [], 0
        for alphabet in _subdirs(root):
            for character in _subdirs(os.path.join(root, alphabet)):
                folder = os.path.join(root, alphabet, character)
                for name in _files(folder, _IMAGE_EXTENSIONS):
                    items.append((os.path.join(folder, name), np.array(label, np.int32)))
                label += 1
        self._set_items(items, root)


class SBUDataset(_SimpleImageList):
    """The SBU Captioned Photo data set.

    Args:
        dataset_dir (str): the folder holding the two list files and ``sbu_images``.
        decode (bool, optional): decode the images. Default: False.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``image`` uint8, ``caption`` string. The image of the URL ``http://.../<a>/<b>`` is
    ``sbu_images/m_<a>_<b>``; URLs whose image is missing are skipped.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.SBUDataset("/path/to/sbu", decode=True)
    """

    _api = "SBUDataset"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self._common(dataset_dir, decode, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                     cache, ["image", "caption"])

    def _load(self):
        urls = read_text(os.path.join(self.dataset_dir, "SBU_captioned_photo_dataset_urls.txt"), "SBU").splitlines()
        captions = read_text(os.path.join(self.dataset_dir, "SBU_captioned_photo_dataset_captions.txt"),
                             "SBU").splitlines()
        if len(urls) != len(captions):
            raise RuntimeError(f"Invalid data, the SBU url file has {len(urls)} lines but the caption file has "
                               f"{len(captions)}.")
        images = os.path.join(self.dataset_dir, "sbu_images")
        items = []
        for url, caption in zip(urls, captions):
            url = url.strip()
            if not url:
                continue
            parts = url.split("/")
            path = os.path.join(images, "m_" + "_".join(parts[-2:]))
            if os.path.isfile(path):
                items.append((path, np.array(caption.strip())))
        if not items:
            raise RuntimeError(f"Invalid data, no valid images in {images}, check SBU dataset.")
        self._set_items(items)


class FlickrDataset(_SimpleImageList):
    """The Flickr8k / Flickr30k data sets: an image folder and the caption token file.

    Args:
        dataset_dir (str): the image folder.
        annotation_file (str): ``Flickr8k.token.txt`` / ``results_20130124.token`` (``<image>#<k><TAB>caption``).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: None (False).

    Columns: ``image`` uint8, ``annotation`` string (the image's captions in file order); images in name order.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.FlickrDataset("/path/to/Flickr8k_Dataset", "/path/to/Flickr8k.token.txt")
    """

    _api = "FlickrDataset"

    def __init__(self, dataset_dir, annotation_file, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        if not isinstance(annotation_file, str) or not os.path.isfile(annotation_file):
            raise ValueError(f"The file {annotation_file} does not exist or permission denied!")
        self.annotation_file = annotation_file
        self._common(dataset_dir, bool(decode), num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                     shard_id, cache, ["image", "annotation"])

    def _load(self):
        captions = {}
        for number, line in enumerate(read_text(self.annotation_file, "Flickr").splitlines(), 1):
            if not line.strip():
                continue
            key, sep, caption = line.partition("\t")
            if not sep or "#" not in key:
                raise RuntimeError(f"Invalid data, {self.annotation_file} line {number} should be "
                                   f"'<image>#<k><TAB><caption>'.")
            captions.setdefault(key.rsplit("#", 1)[0], []).append(caption.strip())
        items = [(os.path.join(self.dataset_dir, name), np.array(texts)) for name, texts in sorted(captions.items())]
        self._set_items(items, self.annotation_file)


class SUN397Dataset(_SimpleImageList):
    """The SUN397 scene data set: ``ClassName.txt`` and one folder per class.

    Args:
        dataset_dir (str): the root folder.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Columns: ``image`` uint8, ``label`` uint32 (the class's line in ``ClassName.txt``).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.SUN397Dataset("/path/to/SUN397", decode=True)
    """

    _api = "SUN397Dataset"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self._common(dataset_dir, decode, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                     cache, ["image", "label"])

    def _load(self):
        classes = [c.strip() for c in read_text(os.path.join(self.dataset_dir, "ClassName.txt"),
                                                "SUN397").splitlines() if c.strip()]
        items = []
        for label, cls in enumerate(classes):
            folder = os.path.join(self.dataset_dir, cls.lstrip("/"))
            if not os.path.isdir(folder):
                continue
            for name in _files(folder, (".jpg",)):
                items.append((os.path.join(folder, name), np.array(label, np.uint32)))
        self._set_items(items)


class RenderedSST2Dataset(_SimpleImageList):
    """The Rendered SST2 data set: ``{train,valid,test}/{negative,positive}/<images>``.

    Args:
        dataset_dir (str): the root folder.
        usage (str, optional): 'train', 'val', 'test' or 'all'. Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Columns: ``image`` uint8, ``label`` uint32 (negative 0, positive 1).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.RenderedSST2Dataset("/path/to/rendered-sst2", usage="val")
    """

    _api = "RenderedSST2Dataset"
    _order = ("test", "train", "valid")

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, ("train", "val", "test", "all"))
        self._common(dataset_dir, decode, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                     cache, ["image", "label"])

    def _load(self):
        folders = self._order if self.usage == "all" else [{"val": "valid"}.get(self.usage, self.usage)]
        items = []
        for usage in folders:
            for label, name in enumerate(("negative", "positive")):
                folder = os.path.join(self.dataset_dir, usage, name)
                if os.path.isdir(folder):
                    items += [(os.path.join(folder, f), np.array(label, np.uint32))
                              for f in _files(folder, _IMAGE_EXTENSIONS)]
        self._set_items(items)

    def get_class_indexing(self):
        return {"negative": 0, "positive": 1}


class ManifestDataset(_SimpleImageList):
    """Images listed in a manifest file (JSON lines with ``source``, ``usage`` and classification
    ``annotation`` names).

    Args:
        dataset_file (str): the manifest.
        usage (str, optional): 'train', 'eval' or 'inference'. Default: 'train'.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        class_indexing (dict, optional): class name -> label. Default: None (the usage's names in name order).
        decode (bool, optional): decode the images. Default: False.

    Columns: ``image`` uint8, ``label`` int32 (scalar; (n,) when an image has n annotations).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.ManifestDataset("/path/to/manifest.json", usage="eval", decode=True)
    """

    _api = "ManifestDataset"

    def __init__(self, dataset_file, usage="train", num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, class_indexing=None, decode=False, num_shards=None, shard_id=None, cache=None):
        if not isinstance(dataset_file, str) or not os.path.isfile(dataset_file):
            raise ValueError(f"The file {dataset_file} does not exist or permission denied!")
        self.usage = check_usage(usage, self._api, ("train", "eval", "inference"))
        if class_indexing is not None and (not isinstance(class_indexing, dict) or not all(
                isinstance(k, str) and isinstance(v, int) for k, v in class_indexing.items())):
            raise TypeError(f"For '{self._api}', the 'class_indexing' must be a dict of str to int, but got "
                            f"{class_indexing!r}.")
        self.dataset_file = dataset_file
        self.class_indexing = class_indexing
        self._common(os.path.dirname(os.path.abspath(dataset_file)), decode, num_samples, num_parallel_workers,
                     shuffle, sampler, num_shards, shard_id, cache, ["image", "label"])

    def _load(self):
        entries = []
        for number, line in enumerate(read_text(self.dataset_file, "Manifest").splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                source = record["source"]
                usage = record.get("usage", "").lower()
                names = [a["name"] for a in record.get("annotation", []) if "name" in a]
            except (ValueError, KeyError, TypeError) as exc:
                raise RuntimeError(f"Invalid data, {self.dataset_file} line {number} is not a manifest record: "
                                   f"{exc}.") from None
            if usage == self.usage:
                entries.append((source, names))
        indexing = self.class_indexing
        if indexing is None:
            indexing = {name: k for k, name in enumerate(sorted({n for _, names in entries for n in names}))}
        self._indexing = dict(indexing)
        items = []
        for source, names in entries:
            missing = [n for n in names if n not in indexing]
            if missing:
                raise RuntimeError(f"Invalid data, the class '{missing[0]}' of {source} is not in class_indexing.")
            labels = np.array([indexing[n] for n in names], np.int32)
            items.append((source, labels[0] if labels.size == 1 else labels))
        self._set_items(items, self.dataset_file)

    def get_class_indexing(self):
        self._ensure_loaded()
        return dict(self._indexing)


class DIV2KDataset(_SimpleImageList):
    """The DIV2K super-resolution data set.

    Args:
        dataset_dir (str): the ``DIV2K`` folder.
        usage (str, optional): 'train', 'valid' or 'all' (train then valid). Default: 'train'.
        downgrade (str, optional): 'bicubic', 'unknown', 'mild', 'difficult' or 'wild'. Default: 'bicubic'.
        scale (int, optional): 2, 3, 4 or 8 (8 only with 'bicubic'). Default: 2.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Columns: ``hr_image``, ``lr_image`` (uint8).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.DIV2KDataset("/path/to/DIV2K", usage="valid", scale=4, decode=True)
    """

    _api = "DIV2KDataset"

    def __init__(self, dataset_dir, usage="train", downgrade="bicubic", scale=2, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, ("train", "valid", "all"))
        self.downgrade = check_usage(downgrade, self._api, ("bicubic", "unknown", "mild", "difficult", "wild"))
        if scale not in (2, 3, 4, 8) or isinstance(scale, bool):
            raise ValueError("Input scale is not within the valid set of [2, 3, 4, 8].")
        if scale == 8 and downgrade != "bicubic":
            raise ValueError("DIV2KNode: scale equal to 8 is allowed only in bicubic downgrade.")
        if downgrade in ("mild", "difficult", "wild") and scale != 4:
            raise ValueError(f"DIV2KNode: {downgrade} downgrade requires scale equal to 4.")
        self.scale = scale
        self._common(dataset_dir, decode, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                     cache, ["hr_image", "lr_image"])

    def _load(self):
        items = []
        for usage in (["train", "valid"] if self.usage == "all" else [self.usage]):
            hr_dir = os.path.join(self.dataset_dir, f"DIV2K_{usage}_HR")
            if self.downgrade in ("bicubic", "unknown"):
                lr_dir = os.path.join(self.dataset_dir, f"DIV2K_{usage}_LR_{self.downgrade}", f"X{self.scale}")
                suffix = f"x{self.scale}"
            else:
                lr_dir = os.path.join(self.dataset_dir, f"DIV2K_{usage}_LR_{self.downgrade}")
                suffix = self.downgrade[0]
            if not os.path.isdir(hr_dir):
                raise RuntimeError(f"Invalid file, failed to find DIV2K folder '{hr_dir}'.")
            for name in _files(hr_dir, (".png",)):
                stem = os.path.splitext(name)[0]
                lr = os.path.join(lr_dir, f"{stem}{suffix}.png")
                if not os.path.isfile(lr):
                    raise RuntimeError(f"Invalid file, the low resolution image {lr} of {name} does not exist.")
                items.append((os.path.join(hr_dir, name), lr))
        self._set_items(items)

    def _make_row(self, item):
        return image_column(item[0], self.decode), image_column(item[1], self.decode)


class Caltech101Dataset(_SimpleImageList):
    """The Caltech 101 data set (categories; the outline annotations need MATLAB files and are not read).

    Args:
        dataset_dir (str): the folder holding ``101_ObjectCategories``.
        target_type (str, optional): 'category' (the only target read here). Default: None ('category').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as for :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Columns: ``image`` uint8, ``category`` int64 (class folders in name order, ``BACKGROUND_Google`` left out).

    Raises:
        ValueError: `target_type` is 'annotation' or 'all' (they need the ``Annotations`` MATLAB files).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.Caltech101Dataset("/path/to/caltech101", decode=True)
    """

    _api = "Caltech101Dataset"

    def __init__(self, dataset_dir, target_type=None, num_samples=None, num_parallel_workers=1, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None):
        target_type = "category" if target_type is None else target_type
        check_usage(target_type, self._api, ("category", "annotation", "all"))
        if target_type != "category":
            raise ValueError(f"Caltech101Dataset: target_type '{target_type}' reads the outline annotations "
                             f"(MATLAB .mat files), which this implementation does not read; use 'category'.")
        self.target_type = target_type
        self._common(dataset_dir, decode, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                     None, ["image", "category"])

    def _load(self):
        root = os.path.join(self.dataset_dir, "101_ObjectCategories")
        if not os.path.isdir(root):
            raise RuntimeError(f"Invalid file, failed to find Caltech101 folder '{root}'.")
        classes = [c for c in _subdirs(root) if c != "BACKGROUND_Google"]
        items = []
        for label, cls in enumerate(classes):
            folder = os.path.join(root, cls)
            items += [(os.path.join(folder, f), np.array(label, np.int64)) for f in _files(folder, (".jpg",))]
        self._set_items(items)


class FakeImageDataset(MappableDataset):
    """Random images with random labels, drawn from a NumPy generator seeded by `base_seed` and the row index
    (each row is reproducible; MindSpore's own random numbers differ).

    Args:
        num_images (int, optional): number of rows. Default: 1000.
        image_size (tuple, optional): (height, width, channels). Default: (224, 224, 3).
        num_classes (int, optional): labels are in [0, num_classes). Default: 10.
        base_seed (int, optional): the seed. Default: 0.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``image`` uint8 `image_size`, ``label`` uint32 ().

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.FakeImageDataset(num_images=8, image_size=(32, 32, 3), num_classes=4)
    """

    def __init__(self, num_images=1000, image_size=(224, 224, 3), num_classes=10, base_seed=0, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        for name, value in (("num_images", num_images), ("num_classes", num_classes)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"Argument {name} with value {value} is not of type [<class 'int'>], but got "
                                f"{type(value)}.")
            if value <= 0:
                raise ValueError(f"Input {name} is not within the required interval of [1, 2147483647].")
        if not isinstance(image_size, (tuple, list)) or len(image_size) != 3 or not all(
                isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in image_size):
            raise ValueError(f"image_size should be a tuple of 3 positive int, but got {image_size!r}.")
        if isinstance(base_seed, bool) or not isinstance(base_seed, int) or base_seed < 0:
            raise ValueError("Input base_seed is not within the required interval of [0, 4294967295].")
        super().__init__(num_samples=num_samples, num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id, cache=cache)
        self.num_images, self.image_size = num_images, tuple(image_size)
        self.num_classes, self.base_seed = num_classes, base_seed
        self.column_names = ["image", "label"]

    def _num_rows(self):
        return self.num_images

    def _get_row(self, index):
        rng = np.random.default_rng([self.base_seed, index])
        image = rng.integers(0, 256, self.image_size, dtype=np.uint8)
        return image, np.array(rng.integers(0, self.num_classes), np.uint32)


_RANDOM_TYPES = (np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64, np.float32,
                 np.float64, np.bool_)


class RandomDataset(MappableDataset):
    """Rows of random values for the columns of a schema (or random columns), for tests and benchmarks.

    Args:
        total_rows (int, optional): number of rows. Default: None (a random number in [1, 1024]).
        schema (Union[str, Schema], optional): the columns (name, type, shape); a path is read as a schema JSON
            file. Default: None (1 to 4 random columns of random numeric types and shapes).
        columns_list (list[str], optional): keep only these columns of the schema. Default: None.
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`MnistDataset`.

    Values are drawn from a NumPy generator seeded by ``mindspore.dataset.config``'s seed and the row index
    (each row is reproducible; MindSpore's own random numbers differ). A column without a shape gets a
    random 1-D shape.

    Examples:
        >>> import mindspore.dataset as ds
        >>> from mindspore import dtype as mstype
        >>> schema = ds.Schema()
        >>> schema.add_column("image", de_type=mstype.uint8, shape=[2])
        >>> dataset = ds.RandomDataset(schema=schema, total_rows=4)
    """

    def __init__(self, total_rows=None, schema=None, columns_list=None, num_samples=None, num_parallel_workers=None,
                 cache=None, shuffle=None, num_shards=None, shard_id=None):
        if total_rows is not None and (isinstance(total_rows, bool) or not isinstance(total_rows, int)
                                       or total_rows < 0):
            raise ValueError("Input total_rows is not within the required interval of [0, 2147483647].")
        if isinstance(schema, str):
            schema = Schema(schema)
        if schema is not None and not isinstance(schema, Schema):
            raise TypeError(f"Argument schema with value {schema!r} is not of type [str, Schema].")
        super().__init__(num_samples=num_samples, num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=None, num_shards=num_shards, shard_id=shard_id, cache=cache)
        seed = config.get_seed()
        rng = np.random.default_rng([seed, 7])
        if schema is None or not schema.columns:
            columns = [{"name": f"c{k}", "type": np.dtype(_RANDOM_TYPES[int(rng.integers(len(_RANDOM_TYPES)))]),
                        "shape": [int(v) for v in rng.integers(1, 5, int(rng.integers(1, 3)))]}
                       for k in range(int(rng.integers(1, 5)))]
        else:
            columns = [dict(c) for c in schema.columns]
        for column in columns:
            if column["shape"] is None:
                column["shape"] = [int(rng.integers(1, 9))]
        if columns_list is not None:
            names = [c["name"] for c in columns]
            missing = [c for c in columns_list if c not in names]
            if missing:
                raise ValueError(f"RandomDataset: columns {missing} are not in the schema {names}.")
            columns = [c for c in columns if c["name"] in columns_list]
        self.total_rows = total_rows if total_rows else (schema.num_rows if schema is not None and schema.num_rows
                                                         else int(rng.integers(1, 1025)))
        self._columns = columns
        self._seed = seed
        self.column_names = [c["name"] for c in columns]

    def _num_rows(self):
        return self.total_rows

    def _get_row(self, index):
        rng = np.random.default_rng([self._seed, index, 11])
        row = []
        for column in self._columns:
            dtype, shape = np.dtype(column["type"]), tuple(column["shape"])
            if dtype.kind == "f":
                row.append(rng.random(shape).astype(dtype))
            elif dtype.kind == "b":
                row.append(rng.integers(0, 2, shape).astype(bool))
            elif dtype.kind in "iu":
                info = np.iinfo(dtype)
                row.append(rng.integers(max(info.min, -1 << 31), min(info.max, (1 << 31) - 1), shape,
                                        endpoint=True).astype(dtype))
            else:
                row.append(np.array([str(v) for v in rng.integers(0, 100, shape).ravel()]).reshape(shape))
        return tuple(row)
