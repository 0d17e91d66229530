"""``TextFileDataset`` and the file-aware sampler shared by the file-based sources.

MindSpore reads text and CSV files as *non-mappable* sources. Their semantics are kept here on top of
random access (each line's byte range is indexed once):

- files are read in lexicographic order of their paths (glob patterns are expanded);
- ``shuffle``: ``False`` reads rows in order; ``Shuffle.FILES`` shuffles the order of the files;
  ``True``/``Shuffle.GLOBAL`` shuffles the files and passes the shard's rows through 2.10's shuffle buffer;
  ``Shuffle.INFILE`` reads rows in order, as 2.10's text, CSV, CLUE and TFRecord readers do (none of them
  shuffles inside a file). With a seed set, these are 2.10's exact orders (``FileOrderSampler._file_order`` and
  ``_shuffle_op``);
- ``num_shards``/``shard_id``: shard ``k`` reads rows ``[k * n, (k + 1) * n)`` of the (file-ordered) row
  sequence, ``n = ceil(rows / num_shards)``, wrapping around to the first rows when the last shard is short,
  so that every shard has the same number of rows and together they cover every row (TFRecordDataset without
  ``shard_equal_rows`` shards whole files instead: shard ``k`` reads the files at positions ``k, k + num_shards,
  ...`` of the file order, so its row count can change from epoch to epoch). Sharded, the file order depends
  only on the epoch (2.10 seeds it 1, 2, ...), so shards of one job agree;
- the rows of a shard come in the order MindSpore's reader threads yield them (GLOBAL: before its buffer):
  the shard's runs of rows of one file are dealt to the ``num_parallel_workers`` readers in turn and the
  readers hand over one row each in turn (with one worker, or one file, that is plain file order; with two
  workers and files ``a``, ``b``: ``a1 b1 a2 b2 ...``). ``num_samples`` keeps the first rows of that order.
"""
import glob
import os
import threading

import numpy as np

from mindspore.dataset import config
from mindspore.dataset.engine import cxx_random, samplers
from mindspore.dataset.engine.datasets import MappableDataset, Shuffle, _check_int, _check_shards, _check_workers

__all__ = ["TextFileDataset"]

_SHUFFLE_NAMES = {"false": "none", "global": "global", "adaptive": "global", "partial": "global",
                  "files": "files", "infile": "infile"}


def shuffle_mode(shuffle, api):
    """'none', 'global', 'files' or 'infile' from a bool, None (= ``default``) or a ``Shuffle`` member."""
    if shuffle is None or shuffle is True:
        return "global"
    if shuffle is False:
        return "none"
    value = getattr(shuffle, "value", shuffle)
    if isinstance(value, str) and value.lower() in _SHUFFLE_NAMES:
        return _SHUFFLE_NAMES[value.lower()]
    raise TypeError(f"For '{api}', the 'shuffle' must be a bool or a Shuffle value (Shuffle.GLOBAL, Shuffle.FILES, "
                    f"Shuffle.INFILE), but got {shuffle!r}.")


def find_files(dataset_files, api):
    """The sorted list of files named by a path, a glob pattern, or a list of them; ``ValueError`` if none."""
    if isinstance(dataset_files, (str, os.PathLike)):
        patterns = [os.fspath(dataset_files)]
    elif isinstance(dataset_files, (list, tuple)) and dataset_files:
        patterns = []
        for item in dataset_files:
            if not isinstance(item, (str, os.PathLike)):
                raise TypeError(f"For '{api}', the 'dataset_files' must be a str or a list of str, but got an item "
                                f"of type {type(item).__name__}.")
            patterns.append(os.fspath(item))
    else:
        raise TypeError(f"For '{api}', the 'dataset_files' must be a str or a non-empty list of str, but got "
                        f"{dataset_files!r}.")
    files = []
    for pattern in patterns:
        if os.path.isfile(pattern):
            files.append(pattern)
            continue
        matches = sorted(p for p in glob.glob(pattern) if os.path.isfile(p))
        if not matches:
            raise ValueError(f"The file {pattern} does not exist or permission denied!")
        files.extend(matches)
    return sorted(files)


class FileOrderSampler(samplers.BuiltinSampler):
    """Row ids of file-based sources: file/in-file shuffling and shard selection (see the module docstring).

    ``file_rows`` (rows per file, in reading order) is bound by the dataset before each pass. With
    ``strided=True`` shard ``k`` takes positions ``k, k + num_shards, ...`` (MindDataset's sharding) instead of
    a contiguous block; with ``file_sharded=True`` (TFRecordDataset's default) it takes whole files, those at
    positions ``k, k + num_shards, ...`` of the pass's file order.
    """

    _salt = 11

    def __init__(self, mode, num_shards=None, shard_id=None, num_samples=None, strided=False, num_workers=None,
                 file_sharded=False):
        super().__init__(num_samples)
        self.mode = mode
        self.num_shards = num_shards if num_shards is not None else 1
        self.shard_id = shard_id if shard_id is not None else 0
        self.strided = strided
        self.file_sharded = file_sharded
        self.num_workers = num_workers
        self.file_rows = None
        self.seed = config.get_seed()

    def is_shuffled(self):
        return self.mode != "none"

    def is_sharded(self):
        return self.num_shards > 1

    def _per_shard(self, num_rows):
        return -(-num_rows // self.num_shards) if num_rows else 0

    def _by_files(self):
        return self.file_sharded and self.num_shards > 1 and not self.strided

    def _own_count(self, num_rows):
        if self._by_files() and self.file_rows is not None:
            # 2.10 counts a file-sharded shard by the files it holds before any shuffle
            return self._limit(sum(self.file_rows[self.shard_id::self.num_shards]))
        return self._limit(self._per_shard(num_rows))

    def _file_order(self, num_files, pass_idx, seed):
        """The order the files are read in at pass ``pass_idx``."""
        order = np.arange(num_files)
        if self.mode in ("files", "global"):
            # 2.10's NonMappableLeafOp::ShuffleKeys: every pass shuffles the previous file order (std::shuffle)
            # with std::mt19937(pipeline seed); sharded, with seeds 1, 2, ... (so that shards agree)
            if self.num_shards > 1:
                order = self._chained_order(order, 1, pass_idx)
            else:
                order = self._chained_order(order, seed, pass_idx, seed_step=0)
        return order

    def _ordered(self, num_rows, pass_idx, seed):
        rows = list(self.file_rows) if self.file_rows is not None else [num_rows]
        starts = np.concatenate(([0], np.cumsum(rows))).astype(np.int64)
        pieces = [np.arange(starts[f], starts[f + 1], dtype=np.int64)
                  for f in self._file_order(len(rows), pass_idx, seed)]
        return np.concatenate(pieces) if pieces else np.zeros(0, np.int64)

    def _shard_rows(self, num_rows, pass_idx, seed):
        """The rows of this shard at pass ``pass_idx``, in file order (before the readers interleave them)."""
        if self._by_files():
            rows = list(self.file_rows) if self.file_rows is not None else [num_rows]
            starts = np.concatenate(([0], np.cumsum(rows))).astype(np.int64)
            files = self._file_order(len(rows), pass_idx, seed)[self.shard_id::self.num_shards]
            pieces = [np.arange(starts[f], starts[f + 1], dtype=np.int64) for f in files]
            return np.concatenate(pieces) if pieces else np.zeros(0, np.int64)
        ordered = self._ordered(num_rows, pass_idx, seed)
        per = self._per_shard(num_rows)
        if self.strided:
            positions = self.shard_id + self.num_shards * np.arange(per, dtype=np.int64)
        else:
            positions = self.shard_id * per + np.arange(per, dtype=np.int64)
        return ordered[positions % num_rows]

    def _own_ids(self, num_rows, pass_idx, seed):
        if num_rows == 0:
            return np.zeros(0, np.int64)
        ids = self._shard_rows(num_rows, pass_idx, seed)
        if not self.strided:
            ids = self._interleave(ids)
        ids = ids[:self._limit(len(ids))]
        if self.mode == "global" and not self.strided:
            ids = self._shuffle_op(ids, num_rows, pass_idx, seed)
        return ids

    def _shuffle_op(self, ids, num_rows, pass_idx, seed):
        """The ShuffleOp 2.10 puts over a globally shuffled file source. Its buffer holds 4 times the rows per
        file of a shard (``ceil(rows / num_shards) // files``, ``num_samples`` not counted), at most 10000 (at
        least 4 per file is what 2.10 measures; when a shard has fewer rows than files, the whole shard). Its
        std::mt19937_64(pipeline seed) runs on from pass to pass, one draw per row."""
        per_file = -(-num_rows // self.num_shards) // len(self.file_rows or [num_rows])
        size = min(4 * per_file, 10000) or 10000
        key = (seed & 0xFFFFFFFF, num_rows)
        last = getattr(self, "_shuffle_engine", None)
        if last is not None and last[0] == key and last[1] == pass_idx - 1:
            engine = last[2]
        else:
            engine = cxx_random.MT19937_64(seed & 0xFFFFFFFF)
            # one draw per row of every earlier pass (file-sharded passes differ in length)
            engine.take(sum(self._limit(len(self._shard_rows(num_rows, p, seed))) for p in range(pass_idx)))
        ids = np.asarray(list(cxx_random.shuffle_buffer(ids.tolist(), size, engine)), dtype=np.int64)
        self._shuffle_engine = (key, pass_idx, engine)
        return ids

    def _interleave(self, ids):
        """The shard's rows in the order MindSpore's reader threads yield them: the shard splits into pieces
        (runs of rows of one file), piece ``k`` goes to worker ``k % num_workers`` (each worker reads its
        pieces one after the other), and the workers hand over one row each in turn."""
        workers = self.num_workers or config.get_num_parallel_workers()
        if workers <= 1 or ids.size == 0 or self.file_rows is None:
            return ids
        starts = np.concatenate(([0], np.cumsum(self.file_rows))).astype(np.int64)
        files = np.searchsorted(starts, ids, side="right") - 1
        breaks = files[1:] != files[:-1]
        if self.mode in ("none", "infile"):
            breaks |= ids[1:] != ids[:-1] + 1
        pieces = np.split(ids, np.flatnonzero(breaks) + 1)
        if len(pieces) <= 1:
            return ids
        streams = [np.concatenate(pieces[w::workers]) for w in range(min(workers, len(pieces)))]
        order = []
        for k in range(max(len(stream) for stream in streams)):
            order.extend(int(stream[k]) for stream in streams if k < len(stream))
        return np.array(order, np.int64)


class FileSource(MappableDataset):
    """Base of the file-based sources: sorted file list, shuffle modes and block sharding via
    :class:`FileOrderSampler`. Subclasses fill ``self._file_rows`` (rows per file) in ``_load``."""

    _api = ""

    def __init__(self, dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache):
        _check_workers(num_parallel_workers)   # (before the files, as 2.10's validators)
        self.dataset_files = find_files(dataset_files, self._api)
        mode = shuffle_mode(shuffle, self._api)
        _check_shards(num_shards, shard_id)
        if num_samples is not None:
            _check_int(num_samples, "num_samples", 0, 2 ** 63 - 1)
        sampler = FileOrderSampler(mode, num_shards, shard_id, num_samples or None, num_workers=num_parallel_workers)
        super().__init__(num_parallel_workers=num_parallel_workers, sampler=sampler, cache=cache)
        self.num_samples = num_samples
        self.shuffle_flag = shuffle
        self.num_shards = num_shards
        self.shard_id = shard_id
        self._file_rows = None

    def _bind_sampler(self):
        sampler = self.sampler
        while sampler is not None:
            if isinstance(sampler, FileOrderSampler):
                sampler.file_rows = list(self._file_rows)
            sampler = sampler.child_sampler
        super()._bind_sampler()

    def _locate(self, index):
        k = int(np.searchsorted(self._starts, index, side="right")) - 1
        return k, index - int(self._starts[k])

    def _set_file_rows(self, rows):
        self._file_rows = [int(r) for r in rows]
        self._starts = np.concatenate(([0], np.cumsum(self._file_rows))).astype(np.int64)
        if self._starts[-1] == 0:
            raise RuntimeError(f"Invalid data, {self._api} API can't read the data file (interface mismatch or no "
                               f"data found). Check file path: {', '.join(self.dataset_files)}.")


def index_lines(path, chunk_size=1 << 22):
    """Start and end byte offsets of the non-empty lines of a file (the ``\\n`` excluded)."""
    starts, ends = [], []
    line_start = 0
    pos = 0
    with open(path, "rb") as f:
        while True:
            chunk = f.read(chunk_size)
            if not chunk:
                break
            newlines = np.flatnonzero(np.frombuffer(chunk, np.uint8) == 10) + pos
            if newlines.size:
                line_starts = np.concatenate(([line_start], newlines[:-1] + 1))
                starts.append(line_starts)
                ends.append(newlines)
                line_start = int(newlines[-1]) + 1
            pos += len(chunk)
    if pos > line_start:
        starts.append(np.array([line_start]))
        ends.append(np.array([pos]))
    starts = np.concatenate(starts).astype(np.int64) if starts else np.zeros(0, np.int64)
    ends = np.concatenate(ends).astype(np.int64) if ends else np.zeros(0, np.int64)
    keep = ends > starts
    return starts[keep], ends[keep]


class _FileHandles:
    """Per-file read-only descriptors for ``pread``; picklable (descriptors are reopened after unpickling)."""

    def __init__(self, paths):
        self.paths = list(paths)
        self._fds = {}
        self._lock = threading.Lock()

    def __getstate__(self):
        return {"paths": self.paths}

    def __setstate__(self, state):
        self.paths = state["paths"]
        self._fds = {}
        self._lock = threading.Lock()

    def read(self, k, start, end):
        with self._lock:
            fd = self._fds.get(k)
            if fd is None:
                try:
                    fd = os.open(self.paths[k], os.O_RDONLY | getattr(os, "O_BINARY", 0))
                except OSError as exc:
                    raise RuntimeError(f"Failed to open file '{self.paths[k]}': {exc.strerror}") from None
                self._fds[k] = fd
            if not hasattr(os, "pread"):
                os.lseek(fd, start, os.SEEK_SET)
                return os.read(fd, end - start)
        return os.pread(fd, end - start, start)

    def __del__(self):
        for fd in getattr(self, "_fds", {}).values():
            try:
                os.close(fd)
            except OSError:
                pass


class TextFileDataset(FileSource):
    """Lines of text files, one row per non-empty line.

    Args:
        dataset_files (Union[str, list[str]]): files or glob patterns; the files are read in lexicographic order.
        num_samples (int, optional): rows to read (per shard). Default: None (all).
        num_parallel_workers (int, optional): reader threads. Default: None.
        shuffle (Union[bool, Shuffle], optional): ``Shuffle.GLOBAL`` (default, same as True), ``Shuffle.FILES``,
            ``Shuffle.INFILE`` or False.
        num_shards (int, optional): number of shards. Default: None.
        shard_id (int, optional): the shard to read. Default: None.
        cache (DatasetCache, optional): unused. Default: None.

    Column: ``text``, a string scalar (the line without its ``\\n``; a ``\\r`` before it is kept, as in MindSpore).

    Raises:
        ValueError: a file does not exist.
        RuntimeError: (when rows are read) no line in any file, or a line is not valid UTF-8.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.TextFileDataset(["/path/to/a.txt", "/path/to/b.txt"], shuffle=False)
    """

    _api = "TextFileDataset"

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self.column_names = ["text"]
        self._lines = None
        self._handles = _FileHandles(self.dataset_files)

    def _load(self):
        lines = []
        for path in self.dataset_files:
            try:
                lines.append(index_lines(path))
            except OSError as exc:
                raise RuntimeError(f"Failed to read text file '{path}': {exc.strerror}") from None
        self._lines = lines
        self._set_file_rows(len(s) for s, _ in lines)

    def _num_rows(self):
        return int(self._starts[-1])

    def _get_row(self, index):
        k, local = self._locate(index)
        starts, ends = self._lines[k]
        data = self._handles.read(k, int(starts[local]), int(ends[local]))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RuntimeError(f"Invalid text file '{self.dataset_files[k]}': its non-empty line {local + 1} is not "
                               f"valid UTF-8 ({exc.reason} at byte {exc.start}).") from None
        return (np.array(text),)
