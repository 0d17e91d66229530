"""Video decoding for ``mindspore.dataset.vision``: ``read_video``, ``read_video_timestamps``, the
``DecodeVideo`` transform and ``VideoDecoder``, through FFmpeg via PyAV (the ``av`` package), as
MindSpore decodes video with FFmpeg.

Frames come out as ``<T, H, W, 3>`` RGB uint8, audio as ``<C, L>`` planar samples in the codec's
sample type (float32 for AAC, int16 for MP2, ...; an empty float32 ``<1, 0>`` when there is none).
As MindSpore's decoder: the whole file is decoded; ``start_pts``/``end_pts`` are float32 values
rounded in the video stream's time base (``"sec"`` divided by the float32 time base); a frame is kept
when its timestamp lies in that range; the audio is cut to the same share of the video (samples per
decoded frame times the index of the first kept frame, and times the number of kept frames).
"""
import io
import math
import os
from fractions import Fraction

import numpy as np

from mindspore.plugin import MSRuntimeError, MSTypeError, MSValueError
from mindspore.dataset.transforms._base import TensorOperation

__all__ = ["DecodeVideo", "VideoDecoder", "read_video", "read_video_timestamps"]

def _av():
    try:
        import av  # pylint: disable=import-outside-toplevel
    except ImportError as exc:  # pragma: no cover - av is a dependency of mindspore-data
        raise MSRuntimeError("Video decoding needs PyAV (FFmpeg): pip install av") from exc
    return av


def _open(source, op_name):
    av = _av()
    try:
        return av.open(source, metadata_errors="ignore")
    except (av.FFmpegError, OSError, ValueError) as exc:
        raise MSRuntimeError(f"{op_name}: failed to open the video: {exc}") from exc


def _check_filename(filename):
    if not isinstance(filename, str):
        raise MSTypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")
    if not os.path.isfile(filename):
        raise MSValueError(f"Invalid file path, {filename} does not exist.")
    return filename


def _check_pts_unit(pts_unit):
    if not isinstance(pts_unit, str):
        raise MSTypeError(f"Input pts_unit is not of type {str}, but got: {type(pts_unit)}")
    if pts_unit not in ("pts", "sec"):
        raise MSValueError(f"Not supported pts_unit for {pts_unit}")
    return pts_unit


def _c_round(value):
    """C's ``round``: halves away from zero."""
    return int(math.floor(abs(value) + 0.5)) * (1 if value >= 0 else -1)


def _frame_rate(stream):
    rate = stream.average_rate
    if rate is None or rate.denominator <= 0 or rate.numerator == 0:
        rate = Fraction(stream.time_base.denominator, stream.time_base.numerator)
    return Fraction(rate)


def _planar(samples, channels):
    """PyAV gives packed audio as ``<1, L * C>``: make it ``<C, L>``."""
    if samples.shape[0] == 1 and channels > 1:
        return samples.reshape(-1, channels).T
    return samples


def _time_range(stream, start_pts, end_pts, pts_unit):
    """``[start, end]`` in the video stream's time base, rounded as MindSpore (float32 arithmetic)."""
    if pts_unit == "pts":
        return _c_round(np.float32(start_pts)), _c_round(np.float32(end_pts))
    time_base = np.float32(float(stream.time_base))
    return _c_round(np.float32(start_pts) / time_base), _c_round(np.float32(end_pts) / time_base)


def _decode(container, start_pts, end_pts, pts_unit):
    """Decode every packet, as MindSpore does: the frames whose timestamp lies in the (rounded)
    ``[start_pts, end_pts]``, and the audio cut to the same share of the video."""
    info = {}
    video_stream = container.streams.video[0] if container.streams.video else None
    audio_stream = container.streams.audio[0] if container.streams.audio else None
    if video_stream is None and audio_stream is None:
        raise MSRuntimeError("ReadVideo: Neither audio nor visual is found.")
    start = end = 0
    increment = 1
    if video_stream is not None:
        rate = _frame_rate(video_stream)
        time_base = video_stream.time_base
        increment = max((time_base.denominator * rate.denominator) // (time_base.numerator * rate.numerator), 1)
        start, end = _time_range(video_stream, start_pts, end_pts, pts_unit)
        info["video_fps"] = float(np.float32(float(rate)))
    samples, selected = [], []
    frame_number = start_frame = 0
    streams = [stream for stream in (video_stream, audio_stream) if stream is not None]
    for packet in container.demux(*streams):
        for frame in packet.decode():
            if packet.stream is audio_stream:
                samples.append(_planar(frame.to_ndarray(), len(frame.layout.channels)))
                continue
            if frame.pts is None:
                current = frame_number * increment
            elif increment == 1 and frame_number == 0 and frame.pts > 1:
                current = 1
            else:
                current = frame.pts
            if current == 1 and frame_number == 0 and start == 1:
                start = 0
            if start <= current <= end:
                if start > 0 and not selected:
                    start_frame = frame_number
                selected.append(frame.to_ndarray(format="rgb24"))
            frame_number += 1
    if selected:
        video = np.stack(selected)
    elif video_stream is not None:
        video = np.empty((0, video_stream.codec_context.height, video_stream.codec_context.width, 3), np.uint8)
    else:
        video = np.empty((0, 1, 1, 3), np.uint8)
    if audio_stream is not None:
        info["audio_fps"] = int(audio_stream.rate)
    if not samples:
        return video, np.empty((1, 0), dtype=np.float32), info
    audio = np.concatenate(samples, axis=1)
    points = audio.shape[1]
    if video_stream is not None and frame_number > 0:
        per_frame = np.float32(points) / np.float32(frame_number)
        first = _c_round(start_frame * per_frame)
        last = first + _c_round(len(selected) * per_frame)
        if not (first < 1 and last >= points):
            audio = audio[:, first:last]
    return video, audio, info


def _check_range(start_pts, end_pts):
    kinds = (float, Fraction, int)
    if not isinstance(start_pts, kinds) or isinstance(start_pts, bool):
        raise MSTypeError(f"Input start_pts is not of type {list(kinds)}, but got: {type(start_pts)}")
    if end_pts is None:
        end_pts = 2147483647.0
    if not isinstance(end_pts, kinds) or isinstance(end_pts, bool):
        raise MSTypeError(f"Input end_pts is not of type {list(kinds)}, but got: {type(end_pts)}")
    if start_pts < 0:
        raise MSValueError(f"Not supported start_pts for {start_pts}. The start_pts should be >= 0.")
    if end_pts < start_pts:
        raise MSValueError(f"Not supported end_pts for {end_pts}. start_pts = {start_pts}. The end_pts should be "
                           f">= start_pts.")
    return start_pts, end_pts


def read_video(filename, start_pts=0, end_pts=None, pts_unit="pts"):
    """Read the video frames, audio samples and frame rates of a video file (AVI, MP4, MOV, H264, ...).

    Args:
        filename (str): the video file.
        start_pts (Union[float, Fraction, int], optional): first timestamp to read. Default: ``0``.
        end_pts (Union[float, Fraction, int], optional): last timestamp to read; ``None`` reads to the end.
            Default: ``None``.
        pts_unit (str, optional): ``"pts"`` (the stream's time base) or ``"sec"``. Default: ``"pts"``.

    Returns:
        - numpy.ndarray, ``<T, H, W, 3>`` uint8 RGB frames.
        - numpy.ndarray, ``<C, L>`` audio samples in the codec's sample type (``<1, 0>`` float32 without audio).
        - dict, ``{"video_fps": float}`` and, with audio, ``"audio_fps": int`` (the sample rate).

    Raises:
        TypeError: wrong argument types.
        ValueError: the file does not exist, ``start_pts < 0``, ``end_pts < start_pts`` or an unknown ``pts_unit``.
        RuntimeError: the file is not a video FFmpeg can read.

    Examples:
        >>> import mindspore.dataset.vision as vision
        >>> video, audio, metadata = vision.read_video("/path/to/file.mp4")
    """
    _check_filename(filename)
    start_pts, end_pts = _check_range(start_pts, end_pts)
    _check_pts_unit(pts_unit)
    with _open(filename, "ReadVideo") as container:
        return _decode(container, start_pts, end_pts, pts_unit)


def read_video_timestamps(filename, pts_unit="pts"):
    """The timestamps of the video frames of a file, and its frame rate.

    Args:
        filename (str): the video file.
        pts_unit (str, optional): ``"pts"`` (ints in the stream's time base) or ``"sec"`` (floats).
            Default: ``"pts"``.

    Returns:
        - list, the timestamps in decoding order of presentation.
        - float, the video frame rate.

    Raises:
        TypeError: ``filename`` or ``pts_unit`` is not a str.
        RuntimeError: the file does not exist or is not a video; an unknown ``pts_unit``.

    Examples:
        >>> import mindspore.dataset.vision as vision
        >>> timestamps, fps = vision.read_video_timestamps("/path/to/file.mp4", "sec")
    """
    if not isinstance(filename, str):
        raise MSTypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")
    if not os.path.isfile(filename):
        raise MSRuntimeError(f"ReadVideoTimestamps: invalid file path, {filename} does not exist.")
    if not isinstance(pts_unit, str) or pts_unit not in ("pts", "sec"):
        raise MSRuntimeError(f"ReadVideoTimestamps: not supported pts_unit for {pts_unit}, it should be 'pts' or "
                             f"'sec'.")
    with _open(filename, "ReadVideoTimestamps") as container:
        if not container.streams.video:
            return [], 0.0
        stream = container.streams.video[0]
        pts = sorted(packet.pts for packet in container.demux(stream) if packet.pts is not None)
        fps = float(stream.average_rate) if stream.average_rate is not None else 0.0
    if pts_unit == "sec":
        time_base = float(np.float32(float(stream.time_base)))  # MindSpore keeps the time base as a float
        return [p * time_base for p in pts], fps
    return [int(p) for p in pts], fps


class DecodeVideo(TensorOperation):
    """Decode a whole encoded video (1-D uint8 bytes of an AVI, MP4, MOV, H264, ... file) into its
    frames and audio, as :func:`read_video`.

    Returns:
        tuple, ``<T, H, W, 3>`` uint8 frames and ``<C, L>`` audio samples.

    Raises:
        RuntimeError: the input is not a non-empty 1-D uint8 array, or not a video.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> video, audio = vision.DecodeVideo()(np.fromfile("/path/to/file.mp4", np.uint8))
    """

    def __call__(self, data):
        if isinstance(data, (bytes, bytearray)):
            data = np.frombuffer(data, dtype=np.uint8)
        if hasattr(data, "asnumpy"):
            data = data.asnumpy()
        if not isinstance(data, np.ndarray):
            raise MSTypeError(f"DecodeVideo: the input should be a NumPy array, but got {type(data)}.")
        if data.ndim != 1:
            raise MSRuntimeError(f"DecodeVideo: the input should be a 1-D array, but got rank {data.ndim}.")
        if data.dtype != np.uint8:
            raise MSRuntimeError(f"DecodeVideo: the data type of the input should be uint8, but got {data.dtype}.")
        if data.size == 0:
            raise MSRuntimeError("DecodeVideo: the input is empty.")
        with _open(io.BytesIO(data.tobytes()), "DecodeVideo") as container:
            video, audio, _ = _decode(container, 0, 2147483647.0, "pts")
        return video, audio


class VideoDecoder:
    """A decoder for the video stream of one file: its metadata, and frames by index.

    Args:
        source (str): the video file.

    Raises:
        TypeError: ``source`` is not a str.
        ValueError: ``source`` does not exist.

    Examples:
        >>> import mindspore.dataset.vision as vision
        >>> reader = vision.VideoDecoder(source="/path/to/file.mp4")
        >>> frames = reader.get_frames_at([0, 2])
    """

    def __init__(self, source):
        if not isinstance(source, str):
            raise MSTypeError(f"path: {source} is not string")
        if not os.path.isfile(source):
            raise MSValueError(f"The file {source} does not exist or permission denied!")
        self.source = source
        self._metadata = self.metadata

    @property
    def metadata(self):
        """dict: ``width``, ``height``, ``duration_seconds``, ``num_frames`` and ``average_fps`` of the video."""
        with _open(self.source, "VideoDecoder") as container:
            if not container.streams.video:
                raise MSRuntimeError(f"VideoDecoder: {self.source} has no video stream.")
            stream = container.streams.video[0]
            if stream.duration is not None:
                duration = float(stream.duration * stream.time_base)
            else:
                duration = float(container.duration / 1_000_000) if container.duration else 0.0
            num_frames = int(stream.frames) or sum(1 for _ in container.decode(video=0))
            fps = float(stream.average_rate) if stream.average_rate is not None else 0.0
            return {"width": stream.codec_context.width, "height": stream.codec_context.height,
                    "duration_seconds": duration, "num_frames": num_frames, "average_fps": fps}

    def get_frames_at(self, indices):
        """The frames at ``indices`` (in presentation order) as ``<T, H, W, 3>`` uint8 RGB.

        Args:
            indices (list[int]): frame indices in ``[0, num_frames)``.

        Raises:
            TypeError: ``indices`` is not a list of ints.
            ValueError: an index is out of range.
        """
        if not isinstance(indices, list):
            raise MSTypeError(f"Argument indices with value {indices} is not of type [<class 'list'>], but got "
                              f"{type(indices)}.")
        for i, index in enumerate(indices):
            if not isinstance(index, int) or isinstance(index, bool):
                raise MSTypeError(f"Argument indices[{i}] with value {index} is not of type [<class 'int'>], but got "
                                  f"{type(index)}.")
            if not 0 <= index < self._metadata["num_frames"]:
                raise MSValueError(f"Invalid frame index[{i}]={index}, it should be in [0, "
                                   f"{self._metadata['num_frames']}).")
        if not indices:
            return np.empty(0, dtype=np.uint8)
        with _open(self.source, "VideoDecoder") as container:
            frames = sorted((frame for frame in container.decode(video=0) if frame.pts is not None),
                            key=lambda frame: frame.pts)
            wanted = set(indices)
            decoded = {i: frames[i].to_ndarray(format="rgb24") for i in wanted if i < len(frames)}
        if len(decoded) != len(wanted):
            raise MSRuntimeError(f"VideoDecoder: {self.source} has fewer decodable frames than its metadata says.")
        return np.stack([decoded[i] for i in indices])
