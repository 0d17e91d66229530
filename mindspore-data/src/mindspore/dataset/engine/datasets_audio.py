"""Audio corpora on their original layouts (PCM WAV files read with the standard library's ``wave``).

``waveform`` is float32 (channels, samples): each sample divided by the largest value of its type (16-bit:
x / 32767, as MindSpore decodes them; 8-bit unsigned: (x - 128) / 127; 24- and 32-bit likewise).

==================== ==================================================================================
LJSpeechDataset      ``metadata.csv`` (``id|transcription|normalized``), ``wavs/<id>.wav``: waveform,
                     sample_rate int32, transcription, normalized_transcription
SpeechCommandsDataset ``<label>/<speaker>_nohash_<n>.wav``, ``validation_list.txt``, ``testing_list.txt``:
                     waveform, sample_rate int32, label, speaker_id, utterance_number int32
YesNoDataset         ``<0|1>_..._<0|1>.wav``: waveform, sample_rate int32, label int32 (8,)
CMUArcticDataset     ``cmu_us_<name>_arctic/etc/txt.done.data``, ``.../wav/<id>.wav``: waveform,
                     sample_rate uint32, transcript, utterance_id
LibriTTSDataset      ``<usage>/<speaker>/<chapter>/<spk>_<chap>.trans.tsv`` and the WAVs: waveform,
                     sample_rate uint32, original_text, normalized_text, speaker_id uint32, chapter_id
                     uint32, utterance_id
GTZANDataset         ``<genre>/<genre>.<nnnnn>.wav``: waveform, sample_rate uint32, label (the genre)
==================== ==================================================================================
"""
import os
import re
import wave

import numpy as np

from mindspore.dataset.engine.datasets_vision import check_usage
from mindspore.dataset.engine.datasets_vision_more import _Source, read_text

__all__ = ["LJSpeechDataset", "SpeechCommandsDataset", "YesNoDataset", "CMUArcticDataset", "LibriTTSDataset",
           "GTZANDataset"]


def read_wav(path):
    """(float32 (channels, samples), sample rate) of a PCM WAV file."""
    try:
        with wave.open(path, "rb") as w:
            channels, width, rate, frames = w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes()
            data = w.readframes(frames)
    except FileNotFoundError:
        raise RuntimeError(f"Invalid file, failed to open wav file: {path}.") from None
    except (OSError, wave.Error, EOFError) as exc:
        raise RuntimeError(f"Invalid file, {path} is not a PCM wav file ({exc}).") from None
    if width == 1:
        samples = (np.frombuffer(data, np.uint8).astype(np.float32) - 128.0) / 127.0
    elif width == 2:
        samples = (np.frombuffer(data, "<i2").astype(np.float64) / 32767.0).astype(np.float32)
    elif width == 3:
        raw = np.frombuffer(data, np.uint8).reshape(-1, 3).astype(np.int32)
        values = raw[:, 0] | (raw[:, 1] << 8) | (raw[:, 2] << 16)
        values = np.where(values >= 1 << 23, values - (1 << 24), values)
        samples = (values.astype(np.float64) / float((1 << 23) - 1)).astype(np.float32)
    else:
        samples = (np.frombuffer(data, "<i4").astype(np.float64) / float((1 << 31) - 1)).astype(np.float32)
    samples = samples[:len(samples) // channels * channels]
    return np.ascontiguousarray(samples.reshape(-1, channels).T), rate


class _AudioSource(_Source):
    def __init__(self, dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache):
        self._init(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)


class LJSpeechDataset(_AudioSource):
    """The LJ Speech data set: ``metadata.csv`` and ``wavs/<id>.wav``.

    Args:
        dataset_dir (str): the ``LJSpeech-1.1`` folder.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``waveform`` float32 (1, samples), ``sample_rate`` int32, ``transcription``,
    ``normalized_transcription`` (strings); rows in ``metadata.csv`` order.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.LJSpeechDataset("/path/to/LJSpeech-1.1", shuffle=False)
    """

    _api = "LJSpeechDataset"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self.column_names = ["waveform", "sample_rate", "transcription", "normalized_transcription"]

    def _load(self):
        meta = os.path.join(self.dataset_dir, "metadata.csv")
        items = []
        for number, line in enumerate(read_text(meta, "LJSpeech").splitlines(), 1):
            if not line.strip():
                continue
            fields = line.split("|")
            if len(fields) != 3:
                raise RuntimeError(f"Invalid data, {meta} line {number} should be 'id|transcription|normalized', "
                                   f"but has {len(fields)} fields.")
            items.append((os.path.join(self.dataset_dir, "wavs", fields[0] + ".wav"), fields[1], fields[2]))
        self._set_items(items, meta)

    def _make_row(self, item):
        waveform, rate = read_wav(item[0])
        return waveform, np.array(rate, np.int32), np.array(item[1]), np.array(item[2])


class SpeechCommandsDataset(_AudioSource):
    """The Speech Commands data set: ``<label>/<speaker>_nohash_<n>.wav`` with the split lists
    ``validation_list.txt`` and ``testing_list.txt`` (``_background_noise_`` is not read).

    Args:
        dataset_dir (str): the root folder.
        usage (str, optional): 'train' (files in neither list), 'valid', 'test' or 'all'. Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``waveform`` float32 (1, samples), ``sample_rate`` int32, ``label``, ``speaker_id`` (strings),
    ``utterance_number`` int32; rows in path order.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.SpeechCommandsDataset("/path/to/speech_commands", usage="test", shuffle=False)
    """

    _api = "SpeechCommandsDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, ("train", "valid", "test", "all"))
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self.column_names = ["waveform", "sample_rate", "label", "speaker_id", "utterance_number"]

    def _list(self, name):
        path = os.path.join(self.dataset_dir, name)
        return {line.strip() for line in read_text(path, "SpeechCommands").splitlines() if line.strip()}

    def _load(self):
        valid = self._list("validation_list.txt") if self.usage in ("train", "valid") else set()
        test = self._list("testing_list.txt") if self.usage in ("train", "test") else set()
        rels = []
        for label in sorted(os.listdir(self.dataset_dir)):
            folder = os.path.join(self.dataset_dir, label)
            if not os.path.isdir(folder) or label == "_background_noise_":
                continue
            rels += [f"{label}/{n}" for n in sorted(os.listdir(folder)) if n.endswith(".wav")]
        if self.usage == "valid":
            rels = [r for r in rels if r in valid]
        elif self.usage == "test":
            rels = [r for r in rels if r in test]
        elif self.usage == "train":
            rels = [r for r in rels if r not in valid and r not in test]
        items = []
        for rel in rels:
            label, name = rel.split("/", 1)
            match = re.fullmatch(r"(.+)_nohash_(\d+)\.wav", name)
            if match is None:
                raise RuntimeError(f"Invalid file name, {rel} should be '<speaker>_nohash_<number>.wav'.")
            items.append((os.path.join(self.dataset_dir, label, name), label, match.group(1), int(match.group(2))))
        self._set_items(items)

    def _make_row(self, item):
        waveform, rate = read_wav(item[0])
        return (waveform, np.array(rate, np.int32), np.array(item[1]), np.array(item[2]),
                np.array(item[3], np.int32))


class YesNoDataset(_AudioSource):
    """The Yes/No (Hebrew) data set: ``<8 digits 0/1 joined by _>.wav`` files in `dataset_dir`.

    Args:
        dataset_dir (str): the ``waves_yesno`` folder.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``waveform`` float32 (1, samples), ``sample_rate`` int32, ``label`` int32 (8,) (the digits of the
    file name). Rows in file name order (MindSpore lists the folder unsorted).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.YesNoDataset("/path/to/waves_yesno", shuffle=False)
    """

    _api = "YesNoDataset"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self.column_names = ["waveform", "sample_rate", "label"]

    def _load(self):
        items = []
        for name in sorted(os.listdir(self.dataset_dir)):
            stem, ext = os.path.splitext(name)
            if ext != ".wav":
                continue
            parts = stem.split("_")
            if not all(p.isdigit() for p in parts):
                raise RuntimeError(f"Invalid file name, {name} should be digits joined by '_'.")
            items.append((os.path.join(self.dataset_dir, name), np.array([int(p) for p in parts], np.int32)))
        self._set_items(items)

    def _make_row(self, item):
        waveform, rate = read_wav(item[0])
        return waveform, np.array(rate, np.int32), item[1].copy()


_ARCTIC_NAMES = ("aew", "ahw", "aup", "awb", "axb", "bdl", "clb", "eey", "fem", "gka", "jmk", "ksp", "ljm", "lnh",
                 "rms", "rxr", "slp", "slt")


class CMUArcticDataset(_AudioSource):
    """The CMU ARCTIC data set: ``cmu_us_<name>_arctic/etc/txt.done.data`` and ``.../wav/<utterance>.wav``.

    Args:
        dataset_dir (str): the folder holding ``cmu_us_<name>_arctic``.
        name (str, optional): the speaker: 'aew', 'ahw', 'aup', 'awb', 'axb', 'bdl', 'clb', 'eey', 'fem', 'gka',
            'jmk', 'ksp', 'ljm', 'lnh', 'rms', 'rxr', 'slp' or 'slt'. Default: None ('aew').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``waveform`` float32 (1, samples), ``sample_rate`` uint32, ``transcript``, ``utterance_id``
    (e.g. 'a0001').

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.CMUArcticDataset("/path/to/cmu_arctic", name="slt", shuffle=False)
    """

    _api = "CMUArcticDataset"

    def __init__(self, dataset_dir, name=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.name = check_usage(name if name is not None else "aew", self._api, _ARCTIC_NAMES)
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self.column_names = ["waveform", "sample_rate", "transcript", "utterance_id"]

    def _load(self):
        base = os.path.join(self.dataset_dir, f"cmu_us_{self.name}_arctic")
        labels = os.path.join(base, "etc", "txt.done.data")
        if not os.path.isfile(labels):
            raise RuntimeError(f"Invalid file, failed to find label file: {labels}")
        items = []
        for number, line in enumerate(read_text(labels, "CMUArctic").splitlines(), 1):
            match = re.match(r'\s*\(\s*(\S+)\s+"(.*)"\s*\)\s*$', line)
            if match is None:
                if line.strip():
                    raise RuntimeError(f"Invalid data, {labels} line {number} should be '( <id> \"<text>\" )'.")
                continue
            utterance = match.group(1)
            items.append((os.path.join(base, "wav", utterance + ".wav"), match.group(2),
                          utterance.split("_", 1)[1] if "_" in utterance else utterance))
        self._set_items(items, labels)

    def _make_row(self, item):
        waveform, rate = read_wav(item[0])
        return waveform, np.array(rate, np.uint32), np.array(item[1]), np.array(item[2])


_LIBRITTS_USAGES = ("dev-clean", "dev-other", "test-clean", "test-other", "train-clean-100", "train-clean-360",
                    "train-other-500")


class LibriTTSDataset(_AudioSource):
    """The LibriTTS data set: ``<usage>/<speaker>/<chapter>/<speaker>_<chapter>.trans.tsv`` (``id<TAB>original
    <TAB>normalized``) and the ``<id>.wav`` files.

    Args:
        dataset_dir (str): the ``LibriTTS`` folder.
        usage (str, optional): 'dev-clean', 'dev-other', 'test-clean', 'test-other', 'train-clean-100',
            'train-clean-360', 'train-other-500' or 'all' (those in that order). Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``waveform`` float32 (1, samples), ``sample_rate`` uint32, ``original_text``, ``normalized_text``,
    ``speaker_id`` uint32, ``chapter_id`` uint32, ``utterance_id``.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.LibriTTSDataset("/path/to/LibriTTS", usage="dev-clean", shuffle=False)
    """

    _api = "LibriTTSDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, _LIBRITTS_USAGES + ("all",))
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self.column_names = ["waveform", "sample_rate", "original_text", "normalized_text", "speaker_id",
                             "chapter_id", "utterance_id"]

    def _load(self):
        items = []
        for usage in (_LIBRITTS_USAGES if self.usage == "all" else [self.usage]):
            root = os.path.join(self.dataset_dir, usage)
            if not os.path.isdir(root):
                continue
            for speaker in sorted(os.listdir(root)):
                speaker_dir = os.path.join(root, speaker)
                if not os.path.isdir(speaker_dir):
                    continue
                for chapter in sorted(os.listdir(speaker_dir)):
                    folder = os.path.join(speaker_dir, chapter)
                    trans = os.path.join(folder, f"{speaker}_{chapter}.trans.tsv")
                    if not os.path.isfile(trans):
                        continue
                    for number, line in enumerate(read_text(trans, "LibriTTS").splitlines(), 1):
                        if not line.strip():
                            continue
                        fields = line.split("\t")
                        if len(fields) != 3:
                            raise RuntimeError(f"Invalid data, {trans} line {number} should be 'id<TAB>original"
                                               f"<TAB>normalized'.")
                        utterance = fields[0]
                        parts = utterance.split("_")
                        if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
                            raise RuntimeError(f"Invalid data, utterance id '{utterance}' in {trans} should start "
                                               f"with '<speaker>_<chapter>_'.")
                        items.append((os.path.join(folder, utterance + ".wav"), fields[1], fields[2], int(parts[0]),
                                      int(parts[1]), utterance))
        self._set_items(items)

    def _make_row(self, item):
        waveform, rate = read_wav(item[0])
        return (waveform, np.array(rate, np.uint32), np.array(item[1]), np.array(item[2]),
                np.array(item[3], np.uint32), np.array(item[4], np.uint32), np.array(item[5]))


_GTZAN_GENRES = ("blues", "classical", "country", "disco", "hiphop", "jazz", "metal", "pop", "reggae", "rock")


class GTZANDataset(_AudioSource):
    """The GTZAN genre collection: ``<genre>/<genre>.<nnnnn>.wav`` for the ten genres.

    Args:
        dataset_dir (str): the ``genres`` folder.
        usage (str, optional): 'all' reads every file; 'train', 'valid' and 'test' read the files of the
            filtered split that MindSpore uses. Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``waveform`` float32 (1, samples), ``sample_rate`` uint32, ``label`` (the genre).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.GTZANDataset("/path/to/genres", usage="all", shuffle=False)
    """

    _api = "GTZANDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, ("all",))
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self.column_names = ["waveform", "sample_rate", "label"]

    def _load(self):
        items = []
        for genre in _GTZAN_GENRES:
            folder = os.path.join(self.dataset_dir, genre)
            if not os.path.isdir(folder):
                continue
            for name in sorted(os.listdir(folder)):
                if re.fullmatch(re.escape(genre) + r"\.\d{5}\.wav", name):
                    items.append((os.path.join(folder, name), genre))
        self._set_items(items)

    def _make_row(self, item):
        waveform, rate = read_wav(item[0])
        return waveform, np.array(rate, np.uint32), np.array(item[1])
