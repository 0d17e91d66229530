"""The TED-LIUM corpus (releases 1, 2 and 3): NIST SPHERE audio (``sph/<talk>.sph``) segmented by the STM
transcripts (``stm/<talk>.stm``), under ``<usage>/`` for releases 1 and 2 and ``data/`` for release 3.

SPHERE: a text header (``NIST_1A``, its size, then ``key -type value`` lines up to ``end_head``) followed by the
PCM samples (``sample_n_bytes``, ``sample_byte_format`` 01 little / 10 big endian, ``channel_count`` interleaved).
Each STM line ``<talk> <channel> <speaker> <start> <end> <identifier> <transcript...>`` is one row: the samples
from ``start`` to ``end`` seconds, as float32 (channels, samples) divided by 2^15 (2^(8n-1) for n-byte samples).

Rows come line by line: the first line of every STM file (files by name, then usages in MindSpore's order
dev/test/train), then the second lines, and so on, which is the order MindSpore 2.10 gives.
"""
import os

import numpy as np

from mindspore.dataset.engine.datasets_audio import _AudioSource
from mindspore.dataset.engine.datasets_vision import check_usage
from mindspore.dataset.engine.datasets_vision_more import read_text

__all__ = ["TedliumDataset"]

_RELEASES = ("release1", "release2", "release3")


def read_sph(path):
    """(header dict, int array (samples, channels)) of a NIST SPHERE file with PCM samples."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise RuntimeError(f"Invalid file, failed to open sph file: {path} ({exc}).") from None
    if not data.startswith(b"NIST_1A"):
        raise RuntimeError(f"Invalid file, {path} is not a NIST SPHERE file (no 'NIST_1A' header).")
    try:
        header_size = int(data[8:16].strip())
    except ValueError:
        raise RuntimeError(f"Invalid file, {path} has an invalid SPHERE header size.") from None
    header = {}
    for line in data[16:header_size].decode("latin-1").splitlines():
        line = line.strip("\x00 ")
        if line == "end_head":
            break
        parts = line.split(None, 2)
        if len(parts) == 3:
            key, kind, value = parts
            header[key] = int(value) if kind == "-i" else (float(value) if kind == "-r" else value)
    width = int(header.get("sample_n_bytes", 2))
    channels = int(header.get("channel_count", 1))
    coding = str(header.get("sample_coding", "pcm"))
    if not coding.startswith("pcm") or width not in (1, 2, 4):
        raise RuntimeError(f"Invalid file, {path}: only PCM samples of 1, 2 or 4 bytes are supported, but got "
                           f"sample_coding {coding!r} with {width} bytes (shorten-compressed files need sph2pipe).")
    order = ">" if str(header.get("sample_byte_format", "01")) == "10" else "<"
    dtype = np.dtype(f"{order}i{width}") if width > 1 else np.dtype(np.int8)
    body = data[header_size:]
    body = body[:len(body) // (width * channels) * width * channels]
    return header, np.frombuffer(body, dtype).reshape(-1, channels)


class TedliumDataset(_AudioSource):
    """The TED-LIUM speech corpus: rows are the transcribed segments of the talks.

    Args:
        dataset_dir (str): the release folder (``TEDLIUM_release1``, ``TEDLIUM_release2``, ``TEDLIUM_release-3``).
        release (str): 'release1', 'release2' or 'release3'.
        usage (str, optional): 'train', 'test', 'dev' or 'all' for releases 1 and 2; 'all' for release 3.
            Default: None ('all').
        extensions (str, optional): the audio files' extension; only '.sph'. Default: None ('.sph').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``waveform`` float32 (channels, samples), ``sample_rate`` int32, ``transcript``, ``talk_id``,
    ``speaker_id``, ``identifier`` (strings).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.TedliumDataset("/path/to/TEDLIUM_release1", "release1", usage="test", shuffle=False)
    """

    _api = "TedliumDataset"

    def __init__(self, dataset_dir, release, usage=None, extensions=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        if not isinstance(release, str):
            raise TypeError(f"Argument release with value {release!r} is not of type [<class 'str'>], but got "
                            f"{type(release)}.")
        if release not in _RELEASES:
            raise ValueError(f"Input release is not within the valid set of {list(_RELEASES)}.")
        valid = ("all",) if release == "release3" else ("train", "test", "dev", "all")
        self.release = release
        self.usage = check_usage(usage, self._api, valid)
        if extensions is not None and extensions != ".sph":
            raise ValueError(f"Input extensions is not within the valid set of ['.sph'], but got {extensions!r}.")
        self.extensions = ".sph"
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self.column_names = ["waveform", "sample_rate", "transcript", "talk_id", "speaker_id", "identifier"]

    def _folders(self):
        if self.release == "release3":
            return [os.path.join(self.dataset_dir, "data")]
        usages = ("dev", "test", "train") if self.usage == "all" else (self.usage,)
        return [os.path.join(self.dataset_dir, u) for u in usages]

    def _load(self):
        per_file = []
        for folder in self._folders():
            stm_dir = os.path.join(folder, "stm")
            if not os.path.isdir(stm_dir):
                raise RuntimeError(f"Invalid file, failed to open folder: {stm_dir}")
            for order, name in enumerate(sorted(n for n in os.listdir(stm_dir) if n.endswith(".stm"))):
                path = os.path.join(stm_dir, name)
                lines = []
                for number, line in enumerate(read_text(path, self._api).splitlines(), 1):
                    if not line.strip() or line.startswith(";;"):
                        continue
                    parts = line.split()
                    if len(parts) < 6:
                        raise RuntimeError(f"Invalid data, {path} line {number} should be '<talk> <channel> "
                                           f"<speaker> <start> <end> <identifier> <transcript>'.")
                    talk = parts[0]
                    sph = os.path.join(folder, "sph", talk + self.extensions)
                    lines.append((sph, float(parts[3]), float(parts[4]), " ".join(parts[6:]), talk, parts[2],
                                  parts[5]))
                per_file.append((name, lines))
        per_file.sort(key=lambda item: item[0])
        items = []
        depth = max((len(lines) for _, lines in per_file), default=0)
        for i in range(depth):
            items += [lines[i] for _, lines in per_file if i < len(lines)]
        self._set_items(items)

    def _make_row(self, item):
        sph, start, end, transcript, talk, speaker, identifier = item
        header, samples = read_sph(sph)
        rate = int(header.get("sample_rate", 16000))
        width = samples.dtype.itemsize
        begin, stop = int(round(start * rate)), int(round(end * rate))
        if begin < 0 or stop > samples.shape[0] or begin >= stop:
            raise RuntimeError(f"Invalid data, the segment [{start}, {end}] s of {sph} is outside its "
                               f"{samples.shape[0] / rate:.2f} s of audio.")
        scale = float(1 << (8 * width - 1))
        waveform = (samples[begin:stop].astype(np.float64) / scale).astype(np.float32).T
        return (np.ascontiguousarray(waveform), np.array(rate, np.int32), np.array(transcript), np.array(talk),
                np.array(speaker), np.array(identifier))
