"""Turning recorded values into summary ``Event`` messages, as MindSpore's summary adapter does: scalars (first
element of a tensor), tensors (``float_data`` + ``dims`` + dtype), histograms (MindSpore's bucket count rule, NaN
and inf counted apart) and images (an NCHW batch tiled 8 per row into one RGB canvas, scaled to uint8, PNG)."""
from __future__ import annotations

import platform
import struct
import time
import zlib

import numpy as np

import mindspore.log as logger
from mindspore.train._summary_pb2 import DataType, Event

__all__ = ["EVENT_FILE_NAME_MARK", "event_file_name", "init_event", "summary_event"]

EVENT_FILE_NAME_MARK = ".out.events.summary."
EVENT_FILE_INIT_VERSION = "MindSpore.Event:1"
_F32_MIN, _F32_MAX = np.finfo(np.float32).min, np.finfo(np.float32).max

_NP_TO_PROTO = {np.bool_: "DT_BOOL", np.int8: "DT_INT8", np.int16: "DT_INT16", np.int32: "DT_INT32",
                np.int64: "DT_INT64", np.uint8: "DT_UINT8", np.uint16: "DT_UINT16", np.uint32: "DT_UINT32",
                np.uint64: "DT_UINT64", np.float16: "DT_FLOAT16", np.float32: "DT_FLOAT32",
                np.float64: "DT_FLOAT64"}


def event_file_name(prefix, suffix, time_second, device_id):
    """``<prefix>.out.events.summary.<time>.<device id>.<host><suffix>``."""
    return f"{prefix}{EVENT_FILE_NAME_MARK}{time_second}.{device_id}.{platform.node()}{suffix}"


def init_event():
    """The first event of every file: the format version."""
    event = Event()
    event.wall_time = time.time()
    event.version = EVENT_FILE_INIT_VERSION
    return event


def summary_event(values, step, wall_time):
    """One ``Event`` holding ``values``: a list of ``(plugin, tag, ndarray)`` (plugin: scalar/tensor/histogram/image,
    or landscape with serialised ``LossLandscape`` bytes)."""
    event = Event()
    event.wall_time = wall_time
    event.step = int(step)
    summary = event.summary
    for plugin, tag, data in values:
        value = summary.value.add()
        value.tag = tag
        ok = True
        if plugin == "scalar":
            ok = _fill_scalar(tag, data, value)
        elif plugin == "tensor":
            _fill_tensor(data, value.tensor)
        elif plugin == "histogram":
            _fill_histogram(data, value.histogram)
        elif plugin == "image":
            ok = _fill_image(tag, data, value.image)
        elif plugin == "landscape":
            value.loss_landscape.ParseFromString(data)
        else:
            ok = False
            logger.error(f"Summary type({plugin}) is error, tag = {tag}")
        if not ok:
            del summary.value[-1]
    return event


def _fill_scalar(tag, np_value, value):
    if np_value.size >= 1:
        if np_value.size > 1:
            logger.info(f"The tensor is not a single scalar, tag = {tag}, ndim = {np_value.ndim}, "
                        f"shape = {np_value.shape}")
        value.scalar_value = np.asarray(np_value).reshape(-1)[0].item()
        return True
    logger.error(f"The size of Summary tensor should greater than 1, but got size = {np_value.size}, this means has "
                 f"no values inside tensor, ")
    return False


def _fill_tensor(np_value, tensor):
    proto = _NP_TO_PROTO.get(np_value.dtype.type)
    if proto is None:
        raise TypeError("Transform numpy type failed in Summary, expect numpy type is one of ['np.bool_', 'np.int8', "
                        "'np.int16', 'np.int32', 'np.int64', 'np.uint8', 'np.uint16', 'np.uint32', 'np.uint64', "
                        "'np.float16', 'np.float32', 'np.float64'].")
    tensor.data_type = DataType[proto]
    tensor.float_data.extend(np_value.reshape(-1).tolist())
    tensor.dims.extend(int(d) for d in np_value.shape)


def _histogram_bins(count):
    if not count:
        return 1
    if count <= 5:
        return 2
    if count <= 10:
        return 3
    if count <= 880:
        return count // 10 + 1
    return 90


def _fill_histogram(np_value, hist):
    masked = np.ma.masked_invalid(np_value)
    total, valid = np_value.size, int(masked.count())
    invalid = []
    for test in (np.isnan, np.isposinf, np.isneginf):
        invalid.append(int(np.count_nonzero(test(np_value))) if total - valid > sum(invalid) else 0)
    hist.count = total
    hist.nan_count, hist.pos_inf_count, hist.neg_inf_count = invalid
    if not valid:
        logger.warning(f"There are no valid values in the ndarray(size={total}, shape={np_value.shape})")
        return
    if issubclass(np_value.dtype.type, np.floating):
        hist.min = masked.min(fill_value=np.inf)
        hist.max = masked.max(fill_value=-np.inf)
        if hist.min < _F32_MIN or hist.max > _F32_MAX:
            logger.warning(f"Values({hist.min}, {hist.max}) are too large, you may encounter some undefined "
                           f"behaviours hereafter.")
    else:
        hist.min = masked.min()
        hist.max = masked.max()
    hist.sum = masked.sum(dtype=np.float64)
    first, last = hist.min, hist.max
    if not first < last:
        first -= 0.5
        last += 0.5
    edges = np.linspace(first, last, _histogram_bins(valid) + 1, dtype=np_value.dtype)
    counts, edges = np.histogram(np_value, bins=edges)
    for count, left, right in zip(counts, edges, edges[1:]):
        bucket = hist.buckets.add()
        bucket.width = right - left
        bucket.count = count
        bucket.left = left


def _canvas(batch, per_row=8):
    """NCHW -> one CHW canvas (gray images repeated to 3 channels), ``per_row`` images per row."""
    if batch.shape[1] == 1:
        batch = np.concatenate([batch] * 3, 1)
    n, _, h, w = batch.shape
    cols = min(n, per_row)
    rows = int(np.ceil(n / cols))
    out = np.zeros((3, h * rows, w * cols))
    for i in range(n):
        r, c = divmod(i, cols)
        out[:, r * h:(r + 1) * h, c * w:(c + 1) * w] = batch[i]
    return out


def _png(rgb):
    """Minimal PNG (8-bit RGB, no filtering) of an HxWx3 uint8 array."""
    height, width, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _fill_image(tag, np_value, image):
    if np_value.ndim != 4 or np_value.shape[1] not in (1, 3):
        logger.error(f"The dimension of Summary tensor should be 4 or second dimension should be 1 or 3, but got "
                     f"tag = {tag}, ndim = {np_value.ndim}, shape={np_value.shape}, which means Summary tensor is "
                     f"not Image.")
        return False
    if 0 in np_value.shape:
        logger.error(f"The tensor with shape({np_value.shape}) is not a valid image because the shape contains zero.")
        return False
    tensor = _canvas(np_value).transpose(1, 2, 0)
    scale, shift = 1, 0
    hi, lo = np.max(tensor), np.min(tensor)
    # the canvas is float64 whatever the input dtype (MindSpore's uint8 test sees the canvas), so uint8 images are
    # rescaled like any other
    if hi <= 1 and lo >= 0:
        scale = 255
    else:
        if hi != lo:
            scale = 255 / (hi - lo + 1)
        shift = lo
    pixels = ((tensor.astype(np.float32) - shift) * scale).astype(np.uint8)
    image.height, image.width, image.colorspace = pixels.shape
    image.encoded_image = _png(np.ascontiguousarray(pixels))
    return True
