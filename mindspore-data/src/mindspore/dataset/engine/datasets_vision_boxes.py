"""KITTI object detection and WIDER FACE, on their annotation text formats.

KITTIDataset: ``data_object_image_2/{training,testing}/image_2/<nnnnnn>.png`` and
``data_object_label_2/training/label_2/<nnnnnn>.txt`` (one object per line: ``type truncated occluded alpha
left top right bottom height width length x y z rotation_y``). Train rows: ``image``, ``label`` uint32 (n, 1)
(the object types seen in the label files numbered in name order), ``truncated`` float32 (n, 1),
``occluded`` uint32 (n, 1), ``alpha`` float32 (n, 1), ``bbox`` float32 (n, 4), ``dimensions`` float32 (n, 3),
``location`` float32 (n, 3), ``rotation_y`` float32 (n, 1). Test rows: ``image``. Images are numbered
``000000``, ``000001``, ... up to the number of files.

WIDERFaceDataset: ``WIDER_{train,val,test}/images/<event>/<file>.jpg`` and ``wider_face_split``'s
``wider_face_{train,val}_bbx_gt.txt`` (a file name, a count, then ``x y w h blur expression illumination
occlusion pose invalid`` per face, as MindSpore reads the fields) or ``wider_face_test_filelist.txt``. Rows:
``image``, ``bbox`` int32 (n, 4), ``blur``, ``expression``, ``illumination``, ``occlusion``, ``pose``,
``invalid`` int32 (n,); test rows: ``image``.
"""
import os

import numpy as np

from mindspore.dataset.engine.datasets_vision import check_bool, check_usage
from mindspore.dataset.engine.datasets_vision_more import _ImageList, image_column, read_text

__all__ = ["KITTIDataset", "WIDERFaceDataset"]


class KITTIDataset(_ImageList):
    """The KITTI 2D object detection data set (see the module docstring for the layout and columns).

    Args:
        dataset_dir (str): the root folder.
        usage (str, optional): 'train' or 'test'. Default: None ('train').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.KITTIDataset("/path/to/kitti", usage="train", decode=True)
    """

    _api = "KITTIDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage if usage is not None else "train", self._api, ("train", "test"))
        check_bool(decode, "decode", self._api)
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.decode = decode
        if self.usage == "train":
            self.column_names = ["image", "label", "truncated", "occluded", "alpha", "bbox", "dimensions",
                                 "location", "rotation_y"]
        else:
            self.column_names = ["image"]

    def _load(self):
        split = "training" if self.usage == "train" else "testing"
        image_dir = os.path.join(self.dataset_dir, "data_object_image_2", split, "image_2")
        if not os.path.isdir(image_dir):
            raise RuntimeError(f"Invalid file, failed to find KITTI folder '{image_dir}'.")
        count = len([n for n in os.listdir(image_dir) if os.path.isfile(os.path.join(image_dir, n))])
        ids = [f"{k:06d}" for k in range(count)]
        if self.usage == "test":
            self._set_items([(os.path.join(image_dir, f"{i}.png"),) for i in ids])
            return
        label_dir = os.path.join(self.dataset_dir, "data_object_label_2", split, "label_2")
        parsed = []
        for image_id in ids:
            path = os.path.join(label_dir, f"{image_id}.txt")
            objects = []
            for number, line in enumerate(read_text(path, "KITTI").splitlines(), 1):
                fields = line.split()
                if not fields:
                    continue
                if len(fields) != 15:
                    raise RuntimeError(f"Invalid data, {path} line {number} should have 15 fields, but got "
                                       f"{len(fields)}.")
                try:
                    values = [float(v) for v in fields[1:]]
                except ValueError:
                    raise RuntimeError(f"Invalid data, {path} line {number}: the fields after the type must be "
                                       f"numbers.") from None
                objects.append((fields[0], values))
            parsed.append((image_id, objects))
        names = sorted({name for _, objects in parsed for name, _ in objects})
        index = {name: k for k, name in enumerate(names)}
        items = []
        for image_id, objects in parsed:
            values = np.array([v for _, v in objects], np.float64).reshape(-1, 14)
            items.append((os.path.join(image_dir, f"{image_id}.png"),
                          np.array([[index[n]] for n, _ in objects], np.uint32).reshape(-1, 1),
                          values[:, 0:1].astype(np.float32),
                          values[:, 1:2].astype(np.int64).astype(np.uint32),
                          values[:, 2:3].astype(np.float32), values[:, 3:7].astype(np.float32),
                          values[:, 7:10].astype(np.float32), values[:, 10:13].astype(np.float32),
                          values[:, 13:14].astype(np.float32)))
        self._class_index = index
        self._set_items(items)

    def _make_row(self, item):
        return (image_column(item[0], self.decode), *(a.copy() for a in item[1:]))


class WIDERFaceDataset(_ImageList):
    """The WIDER FACE data set (see the module docstring for the layout and columns).

    Args:
        dataset_dir (str): the root folder.
        usage (str, optional): 'train', 'test', 'valid' or 'all' (train then valid). Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.
        decode (bool, optional): decode the images. Default: False.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.WIDERFaceDataset("/path/to/wider_face", usage="valid", decode=True)
    """

    _api = "WIDERFaceDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, ("train", "test", "valid", "all"))
        check_bool(decode, "decode", self._api)
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.decode = decode
        self.column_names = ["image"] if self.usage == "test" else [
            "image", "bbox", "blur", "expression", "illumination", "occlusion", "pose", "invalid"]

    def _load(self):
        split_dir = os.path.join(self.dataset_dir, "wider_face_split")
        if self.usage == "test":
            listing = os.path.join(split_dir, "wider_face_test_filelist.txt")
            items = [(os.path.join(self.dataset_dir, "WIDER_test", "images", line.strip()),)
                     for line in read_text(listing, "WIDERFace").splitlines() if line.strip()]
            self._set_items(items, listing)
            return
        items = []
        for usage in (["train", "val"] if self.usage == "all" else [{"valid": "val"}.get(self.usage, self.usage)]):
            path = os.path.join(split_dir, f"wider_face_{usage}_bbx_gt.txt")
            lines = [line.strip() for line in read_text(path, "WIDERFace").splitlines()]
            pos = 0
            while pos < len(lines):
                name = lines[pos]
                if not name:
                    pos += 1
                    continue
                try:
                    count = int(lines[pos + 1])
                except (IndexError, ValueError):
                    raise RuntimeError(f"Invalid data, {path} line {pos + 2} should be the number of faces of "
                                       f"{name}.") from None
                faces = []
                for line in lines[pos + 2:pos + 2 + max(count, 1)]:
                    fields = line.split()
                    if len(fields) < 10:
                        raise RuntimeError(f"Invalid data, a face line of {name} in {path} should have 10 values.")
                    faces.append([int(float(v)) for v in fields[:10]])
                if count == 0:
                    faces = []
                pos += 2 + max(count, 1)
                values = np.array(faces, np.int32).reshape(-1, 10)
                items.append((os.path.join(self.dataset_dir, f"WIDER_{usage}", "images", name),
                              values[:, 0:4].copy(), *(values[:, k].copy() for k in range(4, 10))))
        self._set_items(items)

    def _make_row(self, item):
        return (image_column(item[0], self.decode), *(a.copy() for a in item[1:]))
