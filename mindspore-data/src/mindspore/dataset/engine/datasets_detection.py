"""Detection/segmentation sources: PASCAL VOC and COCO, on their original annotation formats.

VOCDataset (``Annotations/*.xml``, ``ImageSets/{Main,Segmentation}/<usage>.txt``, ``JPEGImages``,
``SegmentationClass``):

- Detection: ``image``, ``bbox`` float32 (n, 4) ``[xmin, ymin, width, height]``, ``label``, ``difficult``,
  ``truncate`` uint32 (n, 1). Without ``class_indexing`` the labels number the object names found in the
  usage's annotations in name order.
- Segmentation: ``image``, ``target`` (the ``SegmentationClass`` PNG).

CocoDataset (one annotation JSON, images in ``dataset_dir``; rows in the JSON's ``images`` order):

=========== ======================================================================================
Detection   ``image``, ``bbox`` float32 (n, 4), ``category_id`` uint32 (n, 1), ``iscrowd`` uint32 (n, 1)
Stuff       ``image``, ``segmentation`` float32 (polygons, padded with -1; or the RLE counts), ``iscrowd``
            uint32 (1, 1)
Keypoint    ``image``, ``keypoints`` float32 (n, 3k), ``num_keypoints`` uint32 (n, 1)
Panoptic    ``image``, ``bbox`` float32 (n, 4), ``category_id``, ``iscrowd``, ``area`` uint32 (n, 1)
Captioning  ``image``, ``captions`` string (n, 1)
=========== ======================================================================================
"""
import json
import os
import xml.etree.ElementTree as ET

import numpy as np

from mindspore.dataset.engine.datasets_vision import check_bool, check_dir
from mindspore.dataset.engine.datasets_vision_more import _Source, image_column

__all__ = ["VOCDataset", "CocoDataset"]


def _check_class_indexing(class_indexing, api):
    if class_indexing is None:
        return None
    if not isinstance(class_indexing, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in class_indexing.items()):
        raise TypeError(f"For '{api}', the 'class_indexing' must be a dict of str to int, but got "
                        f"{class_indexing!r}.")
    return dict(class_indexing)


def _check_str(value, name, api, valid):
    if not isinstance(value, str):
        raise TypeError(f"For '{api}', the '{name}' must be a str, but got {type(value).__name__}.")
    if valid is not None and value not in valid:
        raise ValueError(f"Input {name} is not within the valid set of {list(valid)}.")
    return value


class VOCDataset(_Source):
    """The PASCAL VOC data set (2007/2012 layout).

    Args:
        dataset_dir (str): the VOC root (``VOCdevkit/VOC2012``).
        task (str, optional): 'Segmentation' or 'Detection'. Default: 'Segmentation'.
        usage (str, optional): the image set: ``ImageSets/<Main|Segmentation>/<usage>.txt``. Default: 'train'.
        class_indexing (dict, optional): object name -> label (Detection only). Default: None.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.
        extra_metadata (bool, optional): add a ``_meta-filename`` column. Default: False.
        decrypt (callable, optional): ``decrypt(path) -> bytes``. Default: None.

    Raises:
        ValueError: `dataset_dir` is not a folder, `task` is invalid, or `class_indexing` is given for
            Segmentation.
        RuntimeError: (when rows are read) a file is missing, an annotation is malformed, or an object name is
            not in `class_indexing`.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.VOCDataset("/path/to/VOC2012", task="Detection", usage="train", decode=True)
    """

    _api = "VOCDataset"

    def __init__(self, dataset_dir, task="Segmentation", usage="train", class_indexing=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None, extra_metadata=False, decrypt=None):
        self.task = _check_str(task, "task", self._api, ("Segmentation", "Detection"))
        self.usage = _check_str(usage, "usage", self._api, None)
        self.class_indexing = _check_class_indexing(class_indexing, self._api)
        if task == "Segmentation" and class_indexing is not None:
            raise ValueError("class_indexing is not supported in Segmentation task.")
        check_bool(decode, "decode", self._api)
        check_bool(extra_metadata, "extra_metadata", self._api)
        set_dir = "Segmentation" if task == "Segmentation" else "Main"
        check_dir(dataset_dir, self._api)
        image_set = os.path.join(os.fspath(dataset_dir), "ImageSets", set_dir, f"{usage}.txt")
        if not os.path.isfile(image_set):
            raise ValueError(f"Invalid file, failed to find file: {image_set}, please check the 'usage' "
                             f"({usage}) and the 'task' ({task}).")
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.decode, self.extra_metadata, self.decrypt = decode, extra_metadata, decrypt
        self._image_set = image_set
        if task == "Segmentation":
            self.column_names = ["image", "target"]
        else:
            self.column_names = ["image", "bbox", "label", "difficult", "truncate"]
        if extra_metadata:
            self.column_names.append("_meta-filename")

    def _ids(self):
        with open(self._image_set, "r", encoding="utf-8") as f:
            return [line.strip() for line in f if line.strip()]

    def _annotation(self, image_id):
        path = os.path.join(self.dataset_dir, "Annotations", f"{image_id}.xml")
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as exc:
            raise RuntimeError(f"Invalid file, failed to open xml file: {path} ({exc}).") from None
        objects = []
        for obj in root.iter("object"):
            name = (obj.findtext("name") or "").strip()
            box = obj.find("bndbox")
            if not name or box is None:
                raise RuntimeError(f"Invalid data, the 'name' or 'bndbox' of an object is missing in {path}.")
            try:
                xmin, ymin, xmax, ymax = (float(box.findtext(k)) for k in ("xmin", "ymin", "xmax", "ymax"))
            except (TypeError, ValueError):
                raise RuntimeError(f"Invalid data, the bndbox in {path} needs numeric xmin, ymin, xmax and ymax.") \
                    from None
            if min(xmin, ymin, xmax - xmin, ymax - ymin) <= 0:
                raise RuntimeError(f"Invalid bndbox, the coordinate of bndbox in {path} should be greater than 0, "
                                   f"but got {{{xmin:g}, {ymin:g}, {xmax:g}, {ymax:g}}}.")
            difficult = int(float(obj.findtext("difficult") or 0))
            truncated = int(float(obj.findtext("truncated") or 0))
            objects.append((name, [xmin, ymin, xmax - xmin, ymax - ymin], difficult, truncated))
        if not objects:
            raise RuntimeError(f"Invalid data, no valid object found in xml file: {path}.")
        return objects

    def _load(self):
        ids = self._ids()
        items = []
        if self.task == "Segmentation":
            for image_id in ids:
                items.append((image_id, os.path.join(self.dataset_dir, "JPEGImages", f"{image_id}.jpg"),
                              os.path.join(self.dataset_dir, "SegmentationClass", f"{image_id}.png")))
            self._set_items(items, self._image_set)
            return
        annotations = [(image_id, self._annotation(image_id)) for image_id in ids]
        indexing = self.class_indexing
        if indexing is None:
            names = sorted({obj[0] for _, objs in annotations for obj in objs})
            indexing = {name: k for k, name in enumerate(names)}
        self._indexing = indexing
        for image_id, objects in annotations:
            for obj in objects:
                if obj[0] not in indexing:
                    raise RuntimeError(f"Invalid label, the label name '{obj[0]}' of {image_id}.xml is not in "
                                       f"class_indexing {sorted(indexing)}.")
            bbox = np.array([o[1] for o in objects], np.float32).reshape(-1, 4)
            label = np.array([[indexing[o[0]]] for o in objects], np.uint32)
            difficult = np.array([[o[2]] for o in objects], np.uint32)
            truncate = np.array([[o[3]] for o in objects], np.uint32)
            items.append((image_id, os.path.join(self.dataset_dir, "JPEGImages", f"{image_id}.jpg"),
                          bbox, label, difficult, truncate))
        self._set_items(items, self._image_set)

    def _make_row(self, item):
        image_id, image_path = item[0], item[1]
        image = image_column(image_path, self.decode, self.decrypt)
        if self.task == "Segmentation":
            row = (image, image_column(item[2], self.decode, self.decrypt))
        else:
            row = (image, *(a.copy() for a in item[2:]))
        if self.extra_metadata:
            row += (np.array(image_id),)
        return row

    def get_class_indexing(self):
        """The object name -> label dict (Detection)."""
        if self.task != "Detection":
            raise RuntimeError("get_class_indexing is not supported in Segmentation task.")
        self._ensure_loaded()
        return dict(self._indexing)


_COCO_COLUMNS = {
    "Detection": ["image", "bbox", "category_id", "iscrowd"],
    "Stuff": ["image", "segmentation", "iscrowd"],
    "Keypoint": ["image", "keypoints", "num_keypoints"],
    "Panoptic": ["image", "bbox", "category_id", "iscrowd", "area"],
    "Captioning": ["image", "captions"],
}


class CocoDataset(_Source):
    """The COCO data set: images in `dataset_dir`, annotations in one JSON file.

    Args:
        dataset_dir (str): the image folder.
        annotation_file (str): the annotation JSON.
        task (str, optional): 'Detection', 'Stuff', 'Panoptic', 'Keypoint' or 'Captioning'. Default: 'Detection'.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.
        extra_metadata (bool, optional): add a ``_meta-filename`` column. Default: False.
        decrypt (callable, optional): ``decrypt(path) -> bytes``. Default: None.

    Raises:
        ValueError: `dataset_dir` or `annotation_file` does not exist, or `task` is invalid.
        RuntimeError: (when rows are read) the JSON lacks a needed key, or an image has no annotation.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.CocoDataset("/path/to/coco/train2017", "/path/to/instances_train2017.json")
    """

    _api = "CocoDataset"

    def __init__(self, dataset_dir, annotation_file, task="Detection", num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None, cache=None,
                 extra_metadata=False, decrypt=None):
        self.task = _check_str(task, "task", self._api, tuple(_COCO_COLUMNS))
        if not isinstance(annotation_file, (str, os.PathLike)) or not os.path.isfile(annotation_file):
            raise ValueError(f"The file {annotation_file} does not exist or permission denied!")
        check_bool(decode, "decode", self._api)
        check_bool(extra_metadata, "extra_metadata", self._api)
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.annotation_file = os.fspath(annotation_file)
        self.decode, self.extra_metadata, self.decrypt = decode, extra_metadata, decrypt
        self.column_names = list(_COCO_COLUMNS[task])
        if extra_metadata:
            self.column_names.append("_meta-filename")

    def _fail(self, what):
        return RuntimeError(f"Invalid annotation, {what} in annotation file: {self.annotation_file}.")

    def _load(self):
        try:
            with open(self.annotation_file, "r", encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as exc:
            raise RuntimeError(f"Invalid file, failed to open json file: {self.annotation_file} ({exc}).") from None
        if "images" not in doc:
            raise self._fail("the attribute of 'images' is missing")
        if "annotations" not in doc:
            raise self._fail("the attribute of 'annotations' is missing")
        images = []
        for image in doc["images"]:
            if "id" not in image or "file_name" not in image:
                raise self._fail("the attribute of 'id' or 'file_name' of an image is missing")
            images.append((image["id"], image["file_name"]))
        by_image = {}
        for ann in doc["annotations"]:
            if "image_id" not in ann:
                raise self._fail("the attribute of 'image_id' is missing")
            by_image.setdefault(ann["image_id"], []).append(ann)
        parse = getattr(self, f"_parse_{self.task.lower()}")
        items = []
        for image_id, file_name in images:
            anns = by_image.get(image_id)
            if not anns:
                continue
            items.append((file_name, parse(anns)))
        self._categories = {c["name"]: c["id"] for c in doc.get("categories", []) if "name" in c and "id" in c}
        self._set_items(items, self.annotation_file)

    def _need(self, ann, key):
        if key not in ann:
            raise self._fail(f"the attribute of '{key}' is missing")
        return ann[key]

    def _parse_detection(self, anns):
        bbox = np.array([self._need(a, "bbox") for a in anns], np.float32).reshape(-1, 4)
        category = np.array([[self._need(a, "category_id")] for a in anns], np.uint32)
        iscrowd = np.array([[a.get("iscrowd", 0)] for a in anns], np.uint32)
        return bbox, category, iscrowd

    def _parse_stuff(self, anns):
        polygons, iscrowd = [], 0
        for ann in anns:
            iscrowd = int(ann.get("iscrowd", 0))
            seg = self._need(ann, "segmentation")
            if iscrowd:
                if not isinstance(seg, dict) or "counts" not in seg:
                    raise self._fail("the attribute of 'counts' is missing")
                polygons.append([float(v) for v in seg["counts"]])
            else:
                polygons.extend([float(v) for v in poly] for poly in seg)
        width = max((len(p) for p in polygons), default=0)
        segmentation = np.full((len(polygons), width), -1.0, np.float32)
        for k, poly in enumerate(polygons):
            segmentation[k, :len(poly)] = poly
        return segmentation, np.array([[iscrowd]], np.uint32)

    def _parse_keypoint(self, anns):
        keypoints = np.array([self._need(a, "keypoints") for a in anns], np.float32)
        keypoints = keypoints.reshape(len(anns), -1)
        num = np.array([[self._need(a, "num_keypoints")] for a in anns], np.uint32)
        return keypoints, num

    def _parse_panoptic(self, anns):
        segments = [s for a in anns for s in self._need(a, "segments_info")]
        bbox = np.array([self._need(s, "bbox") for s in segments], np.float32).reshape(-1, 4)
        category = np.array([[self._need(s, "category_id")] for s in segments], np.uint32)
        iscrowd = np.array([[s.get("iscrowd", 0)] for s in segments], np.uint32)
        area = np.array([[self._need(s, "area")] for s in segments], np.uint32)
        return bbox, category, iscrowd, area

    def _parse_captioning(self, anns):
        return (np.array([[str(self._need(a, "caption"))] for a in anns]),)

    def _make_row(self, item):
        file_name, columns = item
        image = image_column(os.path.join(self.dataset_dir, file_name), self.decode, self.decrypt)
        row = (image, *(c.copy() for c in columns))
        if self.extra_metadata:
            row += (np.array(file_name),)
        return row

    def get_class_indexing(self):
        """The category name -> id dict (Detection, Panoptic)."""
        if self.task not in ("Detection", "Panoptic"):
            raise RuntimeError("Invalid parameter, GetClassIndex only valid in \"Detection\" and \"Panoptic\" task.")
        self._ensure_loaded()
        return dict(self._categories)
