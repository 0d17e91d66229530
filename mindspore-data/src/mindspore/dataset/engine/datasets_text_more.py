"""Text corpora on their original file layouts (non-mappable in MindSpore: ``shuffle`` takes ``Shuffle``
modes, sharding splits the file-ordered rows; see :mod:`mindspore.dataset.engine.datasets_text`).

For ``usage='all'`` the files are read in MindSpore's order (with one reader thread): ``test.csv`` before
``train.csv`` (``train.csv`` first for Sogou News and Yelp), the other corpora in file name order. Every
column is a string, except IMDB's ``label`` (int32).

====================== =============================================== =========================================
source                 files                                           columns
====================== =============================================== =========================================
AGNewsDataset          ``train.csv``, ``test.csv``                     index, title, description
AmazonReviewDataset    ``train.csv``, ``test.csv``                     label, title, content
DBpediaDataset         ``train.csv``, ``test.csv``                     class, title, content
SogouNewsDataset       ``train.csv``, ``test.csv``                     index, title, content
YahooAnswersDataset    ``train.csv``, ``test.csv``                     class, title, content, answer
YelpReviewDataset      ``train.csv``, ``test.csv``                     label, text
PennTreebankDataset    ``ptb.{train,valid,test}.txt``                  text (non-empty lines)
WikiTextDataset        ``wiki.{train,valid,test}.tokens``              text (non-empty lines)
EnWik9Dataset          ``enwik9``                                      text (every line, empty ones included)
SST2Dataset            ``{train,dev,test}.tsv``                        sentence, label (test: sentence)
CoNLL2000Dataset       ``train.txt``, ``test.txt``                     word, pos_tag, chunk_tag (1-D per sentence)
UDPOSDataset           ``en-ud-tag.v2.{train,dev,test}.txt``           word, universal, stanford (1-D per sentence)
IMDBDataset            ``{train,test}/{pos,neg}/*.txt`` (mappable)     text, label int32 (pos 1, neg 0)
====================== =============================================== =========================================

CoNLL-2000 and UD POS sentences end at a blank line; words after the last blank line are not a sentence
(MindSpore drops them too).
"""
import csv
import io
import os

import numpy as np

from mindspore.dataset.engine.datasets import MappableDataset, Shuffle
from mindspore.dataset.engine.datasets_text import FileSource, TextFileDataset, index_lines
from mindspore.dataset.engine.datasets_vision import check_dir, check_usage

__all__ = ["AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "SogouNewsDataset", "YahooAnswersDataset",
           "YelpReviewDataset", "PennTreebankDataset", "WikiTextDataset", "EnWik9Dataset", "SST2Dataset",
           "CoNLL2000Dataset", "UDPOSDataset", "IMDBDataset", "CLUEDataset", "SQuADDataset", "Multi30kDataset",
           "IWSLT2016Dataset", "IWSLT2017Dataset"]


def usage_files(api, dataset_dir, usage, names):
    """The existing files of ``names[usage]`` (``usage='all'``: of every usage) under ``dataset_dir``."""
    folder = check_dir(dataset_dir, api)
    wanted = [n for u in names for n in names[u]] if usage == "all" else names[usage]
    files = [os.path.join(folder, n) for n in wanted if os.path.isfile(os.path.join(folder, n))]
    if not files:
        raise ValueError(f"Invalid data, {api} API can't read the data file (interface mismatch or no data found). "
                         f"Check {folder}: no file among {wanted}.")
    return files


def _read_utf8(path, api):
    try:
        with open(path, "r", encoding="utf-8", newline="") as f:
            return f.read()
    except OSError as exc:
        raise RuntimeError(f"Invalid file, failed to open {api} file: {path} ({exc.strerror}).") from None
    except UnicodeDecodeError as exc:
        raise RuntimeError(f"Invalid file, {path} is not valid UTF-8 ({exc.reason} at byte {exc.start}).") from None


class _RowFiles(FileSource):
    """A file source whose rows (tuples of arrays) are parsed per file by ``_parse_file`` in ``_load``."""

    def _init_files(self, files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache):
        super().__init__(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def _load(self):
        self._rows_per_file = [self._parse_file(path) for path in self.dataset_files]
        self._set_file_rows(len(rows) for rows in self._rows_per_file)

    def _num_rows(self):
        return int(self._starts[-1])

    def _get_row(self, index):
        k, local = self._locate(index)
        return tuple(np.array(v) for v in self._rows_per_file[k][local])


class _CsvCorpus(_RowFiles):
    """``train.csv``/``test.csv`` with quoted fields and no header (the Zhang et al. text classification sets)."""

    _columns = ()
    _train_first = False      # the file order of usage='all'

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api)
        self.dataset_dir = os.fspath(dataset_dir) if isinstance(dataset_dir, (str, os.PathLike)) else dataset_dir
        names = {"train": ["train.csv"], "test": ["test.csv"]}
        if not self._train_first:
            names = {"test": names["test"], "train": names["train"]}
        files = usage_files(self._api, dataset_dir, self.usage, names)
        self._init_files(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self.dataset_files = files
        self.column_names = list(self._columns)

    def _parse_file(self, path):
        text = _read_utf8(path, self._api)
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=",", quotechar='"', doublequote=True)
        rows = []
        try:
            for fields in reader:
                if not fields:
                    continue
                if len(fields) != len(self._columns):
                    raise RuntimeError(f"Invalid file, failed to parse csv file: {path} at line {reader.line_num}: "
                                       f"the record has {len(fields)} fields but {self._api} has "
                                       f"{len(self._columns)} columns {list(self._columns)}.")
                rows.append(tuple(fields))
        except csv.Error as exc:
            raise RuntimeError(f"Invalid file, failed to parse csv file: {path} at line {reader.line_num}: {exc}.") \
                from None
        return rows


def _csv_doc(name, columns, folder):
    return f"""The {name} data set: ``train.csv`` and ``test.csv`` (quoted CSV, no header) in `dataset_dir`.

    Args:
        dataset_dir (str): the folder ({folder}).
        usage (str, optional): 'train', 'test' or 'all'. Default: None ('all').
        num_samples (int, optional): rows to read (per shard). Default: None (all).
        num_parallel_workers (int, optional): reader threads. Default: None.
        shuffle (Union[bool, Shuffle], optional): Shuffle.GLOBAL (default), Shuffle.FILES, Shuffle.INFILE or False.
        num_shards (int, optional): number of shards. Default: None.
        shard_id (int, optional): the shard to read. Default: None.
        cache (DatasetCache, optional): unused. Default: None.

    Columns: {", ".join(f"``{c}``" for c in columns)} (strings).

    Raises:
        ValueError: `dataset_dir` holds none of the usage's files, or `usage` is invalid.
        RuntimeError: (when rows are read) a record has the wrong number of fields.
    """


class AGNewsDataset(_CsvCorpus):
    _api = "AGNewsDataset"
    _columns = ("index", "title", "description")
    __doc__ = _csv_doc("AG News", _columns, "ag_news_csv")


class AmazonReviewDataset(_CsvCorpus):
    _api = "AmazonReviewDataset"
    _columns = ("label", "title", "content")
    __doc__ = _csv_doc("Amazon Review (polarity or full)", _columns, "amazon_review_polarity_csv")


class DBpediaDataset(_CsvCorpus):
    _api = "DBpediaDataset"
    _columns = ("class", "title", "content")
    __doc__ = _csv_doc("DBpedia ontology", _columns, "dbpedia_csv")


class SogouNewsDataset(_CsvCorpus):
    _api = "SogouNewsDataset"
    _columns = ("index", "title", "content")
    _train_first = True
    __doc__ = _csv_doc("Sogou News", _columns, "sogou_news_csv")


class YahooAnswersDataset(_CsvCorpus):
    _api = "YahooAnswersDataset"
    _columns = ("class", "title", "content", "answer")
    __doc__ = _csv_doc("Yahoo! Answers", _columns, "yahoo_answers_csv")


class YelpReviewDataset(_CsvCorpus):
    _api = "YelpReviewDataset"
    _columns = ("label", "text")
    _train_first = True
    __doc__ = _csv_doc("Yelp Review (polarity or full)", _columns, "yelp_review_polarity_csv")


class _LineCorpus(TextFileDataset):
    """Non-empty lines of the usage's files (TextFileDataset's rows)."""

    _api = ""
    _usages = ("train", "valid", "test", "all")
    _names = {}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, self._usages)
        files = usage_files(self._api, dataset_dir, self.usage, self._names)
        super().__init__(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self.dataset_dir = os.fspath(dataset_dir)


class PennTreebankDataset(_LineCorpus):
    """The Penn Treebank language-modelling corpus: ``ptb.train.txt``, ``ptb.valid.txt``, ``ptb.test.txt``.

    Args:
        dataset_dir (str): the folder with the files.
        usage (str, optional): 'train', 'valid', 'test' or 'all'. Default: None ('all').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`TextFileDataset`.

    Column: ``text`` (each non-empty line, spaces kept).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.PennTreebankDataset("/path/to/ptb", usage="train", shuffle=False)
    """

    _api = "PennTreebankDataset"
    _names = {"train": ["ptb.train.txt"], "valid": ["ptb.valid.txt"], "test": ["ptb.test.txt"]}


class WikiTextDataset(_LineCorpus):
    """The WikiText-2/103 corpus: ``wiki.train.tokens``, ``wiki.valid.tokens``, ``wiki.test.tokens``.

    Args:
        dataset_dir (str): the folder with the files.
        usage (str, optional): 'train', 'valid', 'test' or 'all'. Default: None ('all').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`TextFileDataset`.

    Column: ``text`` (each non-empty line; a line holding a single space is a row).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.WikiTextDataset("/path/to/wikitext-2", usage="valid", shuffle=False)
    """

    _api = "WikiTextDataset"
    _names = {"train": ["wiki.train.tokens"], "valid": ["wiki.valid.tokens"], "test": ["wiki.test.tokens"]}


class EnWik9Dataset(TextFileDataset):
    """The enwik9 file (the first 10^9 bytes of an English Wikipedia XML dump), one row per line.

    Args:
        dataset_dir (str): the folder holding ``enwik9``.
        num_samples (int, optional): rows to read. Default: None (all).
        num_parallel_workers (int, optional): reader threads. Default: None.
        shuffle (Union[bool, Shuffle], optional): Default: True (Shuffle.GLOBAL).
        num_shards, shard_id, cache: as for :class:`TextFileDataset`.

    Column: ``text`` (every line, empty lines included).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.EnWik9Dataset("/path/to/enwik9_dir", shuffle=False, num_samples=10)
    """

    _api = "EnWik9Dataset"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=True, num_shards=None,
                 shard_id=None, cache=None):
        files = usage_files(self._api, dataset_dir, "all", {"all": ["enwik9"]})
        super().__init__(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self.dataset_dir = os.fspath(dataset_dir)

    def _load(self):
        lines = []
        for path in self.dataset_files:
            starts, ends = index_lines(path)
            # index_lines drops empty lines: rebuild the full line list from the newline positions
            size = os.path.getsize(path)
            with open(path, "rb") as f:
                data = np.frombuffer(f.read(), np.uint8)
            newlines = np.flatnonzero(data == 10)
            line_starts = np.concatenate(([0], newlines + 1)).astype(np.int64)
            line_ends = np.concatenate((newlines, [size])).astype(np.int64)
            if line_starts[-1] >= size:      # nothing after the last newline
                line_starts, line_ends = line_starts[:-1], line_ends[:-1]
            del starts, ends
            lines.append((line_starts, line_ends))
        self._lines = lines
        self._set_file_rows(len(s) for s, _ in lines)


class SST2Dataset(_RowFiles):
    """The SST-2 (GLUE) data set: ``train.tsv``, ``dev.tsv``, ``test.tsv`` (tab-separated, with a header line).

    Args:
        dataset_dir (str): the folder with the files.
        usage (str, optional): 'train', 'dev' or 'test'. Default: None ('train').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`TextFileDataset`.

    Columns: ``sentence``, ``label`` (strings; 'test' has only ``sentence``).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.SST2Dataset("/path/to/SST-2", usage="dev", shuffle=False)
    """

    _api = "SST2Dataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        if usage is None:
            usage = "train"
        self.usage = check_usage(usage, self._api, ("train", "dev", "test"))
        files = usage_files(self._api, dataset_dir, self.usage, {u: [f"{u}.tsv"] for u in ("train", "dev", "test")})
        self._init_files(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self.dataset_dir = os.fspath(dataset_dir)
        self.column_names = ["sentence"] if self.usage == "test" else ["sentence", "label"]

    def _parse_file(self, path):
        rows = []
        for number, line in enumerate(_read_utf8(path, self._api).split("\n")[1:], 2):
            line = line.rstrip("\r")
            if not line:
                continue
            fields = line.split("\t")
            if len(fields) != 2:
                raise RuntimeError(f"Invalid file, {path} line {number} should have 2 tab-separated fields, but got "
                                   f"{len(fields)}.")
            rows.append((fields[1],) if self.usage == "test" else (fields[0], fields[1]))
        return rows


class _TaggedSentences(_RowFiles):
    """One row per sentence of ``word tag tag`` lines; a blank line ends a sentence."""

    _columns = ()
    _names = {}
    _usages = ()

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, self._usages)
        files = usage_files(self._api, dataset_dir, self.usage, self._names)
        self._init_files(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self.dataset_dir = os.fspath(dataset_dir)
        self.column_names = list(self._columns)

    def _parse_file(self, path):
        rows, current = [], []
        for number, line in enumerate(_read_utf8(path, self._api).splitlines(), 1):
            line = line.rstrip("\r")
            if not line.strip():
                if current:
                    rows.append(tuple(np.array(col) for col in zip(*current)))
                    current = []
                continue
            fields = line.split()
            if len(fields) != len(self._columns):
                raise RuntimeError(f"Invalid file content, each line should contain {len(self._columns)} columns, "
                                   f"representing {', '.join(self._columns[:-1])} and {self._columns[-1]} "
                                   f"({path} line {number}).")
            current.append(fields)
        return rows

    def _get_row(self, index):
        k, local = self._locate(index)
        return tuple(a.copy() for a in self._rows_per_file[k][local])

    def _set_file_rows(self, rows):
        # files whose words never end with a blank line hold no sentence: an empty dataset, as in MindSpore
        self._file_rows = [int(r) for r in rows]
        self._starts = np.concatenate(([0], np.cumsum(self._file_rows))).astype(np.int64)


class CoNLL2000Dataset(_TaggedSentences):
    """The CoNLL-2000 chunking data set: ``train.txt`` and ``test.txt`` (``word POS chunk`` per line).

    Args:
        dataset_dir (str): the folder with the files.
        usage (str, optional): 'train', 'test' or 'all'. Default: None ('all').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`TextFileDataset`.

    Columns: ``word``, ``pos_tag``, ``chunk_tag`` (1-D string arrays, one item per word of the sentence).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.CoNLL2000Dataset("/path/to/conll2000", usage="train", shuffle=False)
    """

    _api = "CoNLL2000Dataset"
    _columns = ("word", "pos_tag", "chunk_tag")
    _names = {"train": ["train.txt"], "test": ["test.txt"]}
    _usages = ("train", "test", "all")


class UDPOSDataset(_TaggedSentences):
    """The UD English POS data set: ``en-ud-tag.v2.train.txt``, ``...dev.txt``, ``...test.txt``
    (``word<TAB>universal<TAB>stanford`` per line).

    Args:
        dataset_dir (str): the folder with the files.
        usage (str, optional): 'train', 'valid' (the ``dev`` file), 'test' or 'all'. Default: None ('all').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`TextFileDataset`.

    Columns: ``word``, ``universal``, ``stanford`` (1-D string arrays).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.UDPOSDataset("/path/to/udpos", usage="test", shuffle=False)
    """

    _api = "UDPOSDataset"
    _columns = ("word", "universal", "stanford")
    _names = {"train": ["en-ud-tag.v2.train.txt"], "valid": ["en-ud-tag.v2.dev.txt"],
              "test": ["en-ud-tag.v2.test.txt"]}
    _usages = ("train", "valid", "test", "all")


class IMDBDataset(MappableDataset):
    """The IMDB movie review data set: ``{train,test}/{pos,neg}/*.txt`` (``unsup`` is not read).

    Args:
        dataset_dir (str): the ``aclImdb`` folder.
        usage (str, optional): 'train', 'test' or 'all' (train then test). Default: None ('all').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as for
            :class:`MnistDataset`.

    Columns: ``text`` string, ``label`` int32 (1 for ``pos``, 0 for ``neg``); within a usage the ``pos``
    files come first, each folder in file name order.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.IMDBDataset("/path/to/aclImdb", usage="test", shuffle=False)
    """

    _api = "IMDBDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(dataset_dir, self._api)
        self.usage = check_usage(usage, self._api)
        super().__init__(num_samples=num_samples, num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id, cache=cache)
        self.column_names = ["text", "label"]

    def _load(self):
        items = []
        for usage in (["train", "test"] if self.usage == "all" else [self.usage]):
            for label_name, label in (("pos", 1), ("neg", 0)):
                folder = os.path.join(self.dataset_dir, usage, label_name)
                if not os.path.isdir(folder):
                    continue
                for name in sorted(os.listdir(folder)):
                    path = os.path.join(folder, name)
                    if os.path.isfile(path) and name.endswith(".txt"):
                        items.append((path, label))
        if not items:
            raise RuntimeError(f"Invalid data, no valid data matching the dataset API IMDBDataset. Please check file "
                               f"path or dataset API: {self.dataset_dir}.")
        self._items = items

    def _num_rows(self):
        return len(self._items)

    def _get_row(self, index):
        path, label = self._items[index]
        return np.array(_read_utf8(path, self._api)), np.array(label, np.int32)


_CLUE_KEYS = {
    "AFQMC": {"train": ["sentence1", "sentence2", "label"], "test": ["id", "sentence1", "sentence2"],
              "eval": ["sentence1", "sentence2", "label"]},
    "TNEWS": {"train": ["label", "label_desc", "sentence", "keywords"], "test": ["id", "keywords", "sentence"],
              "eval": ["label", "label_desc", "sentence", "keywords"]},
    "IFLYTEK": {"train": ["label", "label_des", "sentence"], "test": ["id", "sentence"],
                "eval": ["label", "label_des", "sentence"]},
    "CMNLI": {"train": ["sentence1", "sentence2", "label"], "test": ["id", "sentence1", "sentence2"],
              "eval": ["sentence1", "sentence2", "label"]},
    "WSC": {"train": ["span1_index", "span2_index", "span1_text", "span2_text", "idx", "text", "label"],
            "test": ["span1_index", "span2_index", "span1_text", "span2_text", "idx", "text"],
            "eval": ["span1_index", "span2_index", "span1_text", "span2_text", "idx", "text", "label"]},
    "CSL": {"train": ["id", "abst", "keyword", "label"], "test": ["id", "abst", "keyword"],
            "eval": ["id", "abst", "keyword", "label"]},
}


class CLUEDataset(_RowFiles):
    """The CLUE benchmark classification sets: JSON-lines files of one task.

    Args:
        dataset_files (Union[str, list[str]]): the files (or glob patterns), read in name order.
        task (str, optional): 'AFQMC', 'TNEWS', 'IFLYTEK', 'CMNLI', 'WSC' or 'CSL'. Default: 'AFQMC'.
        usage (str, optional): 'train', 'test' or 'eval'. Default: 'train'.
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`TextFileDataset`.

    Columns: the task's keys for the usage, in name order (WSC's ``target`` fields are columns of their own):
    integers are uint32, strings are strings, lists are 1-D string arrays.

    Raises:
        ValueError: a file does not exist, or `task`/`usage` is invalid.
        RuntimeError: (when rows are read) a line is not JSON or lacks a key.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.CLUEDataset("/path/to/afqmc/train.json", task="AFQMC", usage="train", shuffle=False)
    """

    _api = "CLUEDataset"

    def __init__(self, dataset_files, task='AFQMC', usage='train', num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        self.task = check_usage(task, self._api, tuple(_CLUE_KEYS))
        self.usage = check_usage(usage, self._api, ("train", "test", "eval"))
        self._init_files(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self._keys = _CLUE_KEYS[self.task][self.usage]
        self.column_names = sorted(self._keys)

    def _parse_file(self, path):
        import json
        rows = []
        for number, line in enumerate(_read_utf8(path, self._api).splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as exc:
                raise RuntimeError(f"Invalid file, failed to parse json file: {path} line {number}: {exc}.") \
                    from None
            flat = dict(record)
            if isinstance(record.get("target"), dict):
                flat.update(record["target"])
            row = []
            for key in self.column_names:
                if key not in flat:
                    raise RuntimeError(f"Invalid data, the key '{key}' of task {self.task} ({self.usage}) is missing "
                                       f"in {path} line {number}.")
                value = flat[key]
                if isinstance(value, bool) or not isinstance(value, (int, str, list)):
                    value = str(value)
                if isinstance(value, int):
                    row.append(np.array(value, np.uint32))
                elif isinstance(value, list):
                    row.append(np.array([str(v) for v in value]))
                else:
                    row.append(np.array(value))
            rows.append(tuple(row))
        return rows

    def _get_row(self, index):
        k, local = self._locate(index)
        return tuple(a.copy() for a in self._rows_per_file[k][local])


class SQuADDataset(_RowFiles):
    """The SQuAD 1.1 / 2.0 question answering sets: ``train-v1.1.json``/``dev-v1.1.json`` (or ``-v2.0``).

    Args:
        dataset_dir (str): the folder with the JSON files.
        usage (str, optional): 'train', 'dev' or 'all' (train then dev). Default: None ('all').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`TextFileDataset`.

    Columns: ``context``, ``question`` (strings), ``text`` (the answers, 1-D strings), ``answer_start``
    (uint32, 1-D); one row per question.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.SQuADDataset("/path/to/SQuAD1", usage="dev", shuffle=False)
    """

    _api = "SQuADDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, ("train", "dev", "all"))
        folder = check_dir(dataset_dir, self._api)
        names = {u: [n for n in (f"{u}-v1.1.json", f"{u}-v2.0.json") if os.path.isfile(os.path.join(folder, n))]
                 for u in ("train", "dev")}
        files = usage_files(self._api, dataset_dir, self.usage, names)
        self._init_files(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self.dataset_files = files
        self.dataset_dir = folder
        self.column_names = ["context", "question", "text", "answer_start"]

    def _parse_file(self, path):
        import json
        try:
            doc = json.loads(_read_utf8(path, self._api))
            rows = []
            for article in doc["data"]:
                for paragraph in article["paragraphs"]:
                    context = paragraph["context"]
                    for qa in paragraph["qas"]:
                        answers = qa.get("answers", [])
                        rows.append((np.array(context), np.array(qa["question"]),
                                     np.array([a["text"] for a in answers] or [""]),
                                     np.array([a["answer_start"] for a in answers] or [-1]).astype(np.uint32)))
        except (ValueError, KeyError, TypeError) as exc:
            raise RuntimeError(f"Invalid file, failed to parse SQuAD file: {path} ({exc!r}).") from None
        return rows

    def _get_row(self, index):
        k, local = self._locate(index)
        return tuple(a.copy() for a in self._rows_per_file[k][local])


class Multi30kDataset(_RowFiles):
    """The Multi30k translation set: ``training/train.{de,en}``, ``validation/val.{de,en}``,
    ``mmt16_task1_test/test.{de,en}`` (line k of one language is the translation of line k of the other).

    Args:
        dataset_dir (str): the root folder.
        usage (str, optional): 'train', 'valid', 'test' or 'all' (test, train, valid). Default: None ('all').
        language_pair (Sequence[str], optional): ('en', 'de') or ('de', 'en'): the languages of ``text`` and
            ``translation``. Default: None (('en', 'de')).
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`TextFileDataset`.

    Columns: ``text``, ``translation`` (strings).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.Multi30kDataset("/path/to/multi30k", usage="train", language_pair=["de", "en"])
    """

    _api = "Multi30kDataset"
    _stems = {"test": "mmt16_task1_test/test", "train": "training/train", "valid": "validation/val"}

    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, num_shards=None, shard_id=None, cache=None):
        self.usage = check_usage(usage, self._api, ("train", "valid", "test", "all"))
        pair = ["en", "de"] if language_pair is None else list(language_pair)
        if pair not in (["en", "de"], ["de", "en"]):
            raise ValueError(f"language_pair can only be ['en', 'de'] or ['de', 'en'], but got {language_pair!r}.")
        self.language_pair = pair
        folder = check_dir(dataset_dir, self._api)
        usages = list(self._stems) if self.usage == "all" else [self.usage]
        files = []
        for usage in usages:
            path = os.path.join(folder, f"{self._stems[usage]}.{pair[0]}")
            if not os.path.isfile(os.path.join(folder, f"{self._stems[usage]}.{pair[1]}")) or \
                    not os.path.isfile(path):
                raise RuntimeError(f"Multi30kDataset: dataset file: [{path}] is invalid or does not exist.")
            files.append(path)
        self._init_files(files, num_samples, num_parallel_workers, True if shuffle is None else shuffle,
                         num_shards, shard_id, cache)
        self.dataset_files = files
        self.dataset_dir = folder
        self.column_names = ["text", "translation"]

    def _parse_file(self, path):
        other = path[:-len(self.language_pair[0])] + self.language_pair[1]
        texts = [line for line in _read_utf8(path, self._api).splitlines() if line.strip()]
        translations = [line for line in _read_utf8(other, self._api).splitlines() if line.strip()]
        if len(texts) != len(translations):
            raise RuntimeError(f"Invalid data, {path} has {len(texts)} lines but {other} has {len(translations)}.")
        return list(zip(texts, translations))


def _iwslt_sentences(path, api):
    """The sentences of an IWSLT file: the non-tag lines of ``train.tags.*``, the ``<seg>`` texts of ``*.xml``."""
    text = _read_utf8(path, api)
    if not path.endswith(".xml"):
        return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("<")]
    import xml.etree.ElementTree as ET
    try:
        root = ET.fromstring(text.encode("utf-8"))
    except ET.ParseError as exc:
        raise RuntimeError(f"Invalid file, failed to load xml file: {path} ({exc}).") from None
    return [(seg.text or "").strip() for seg in root.iter("seg")]


class _IWSLT(_RowFiles):
    """Pairs of sentences of the usage's source-language files and their target-language twins."""

    _prefix = ""

    def _setup(self, folder, usage, src, tgt, sets, num_samples, num_parallel_workers, shuffle, num_shards, shard_id,
               cache):
        pair = f"{src}-{tgt}"
        names = {"train": f"train.tags.{pair}.{src}", "valid": f"{self._prefix}.TED.{sets[0]}.{pair}.{src}.xml",
                 "test": f"{self._prefix}.TED.{sets[1]}.{pair}.{src}.xml"}
        usages = ["train", "valid", "test"] if usage == "all" else [usage]
        files = []
        for name in (names[u] for u in usages):
            path = os.path.join(folder, name)
            if not os.path.isfile(path):
                raise RuntimeError(f"Invalid file, failed to open file: {path}.")
            files.append(path)
        self._src, self._tgt = src, tgt
        self._init_files(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self.dataset_files = files
        self.column_names = ["text", "translation"]

    def _parse_file(self, path):
        head, tail = path.rsplit(f".{self._src}", 1)
        other = f"{head}.{self._tgt}{tail}"
        texts, translations = _iwslt_sentences(path, self._api), _iwslt_sentences(other, self._api)
        if len(texts) != len(translations):
            raise RuntimeError(f"Invalid data, {path} has {len(texts)} sentences but {other} has "
                               f"{len(translations)}.")
        return list(zip(texts, translations))


def _check_pair(language_pair, default, valid_pairs, api):
    pair = tuple(default if language_pair is None else language_pair)
    if len(pair) != 2 or pair not in valid_pairs:
        raise ValueError(f"For '{api}', the 'language_pair' must be one of {sorted(valid_pairs)}, but got "
                         f"{language_pair!r}.")
    return pair


_IWSLT16_PAIRS = {(a, "en") for a in ("ar", "de", "fr", "cs")} | {("en", a) for a in ("ar", "de", "fr", "cs")}
_IWSLT16_SETS = ("dev2010", "tst2010", "tst2011", "tst2012", "tst2013", "tst2014")
_IWSLT17_LANGS = ("en", "nl", "de", "it", "ro")


class IWSLT2016Dataset(_IWSLT):
    """The IWSLT 2016 TED translation set: ``texts/<src>/<tgt>/<src>-<tgt>/train.tags.<pair>.<lang>`` and
    ``IWSLT16.TED.<set>.<pair>.<lang>.xml``.

    Args:
        dataset_dir (str): the root folder (holding ``texts``).
        usage (str, optional): 'train', 'valid', 'test' or 'all' (in that order). Default: None ('all').
        language_pair (sequence, optional): (source, target), one of ('ar'|'de'|'fr'|'cs', 'en') or the reverse.
            Default: None (('de', 'en')).
        valid_set (str, optional): 'dev2010', 'tst2010', 'tst2011', 'tst2012', 'tst2013' or 'tst2014'.
            Default: None ('tst2013').
        test_set (str, optional): as `valid_set`. Default: None ('tst2014').
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`TextFileDataset`.

    Columns: ``text`` (source sentence), ``translation`` (target sentence).

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.IWSLT2016Dataset("/path/to/iwslt2016", usage="train", language_pair=("de", "en"))
    """

    _api = "IWSLT2016Dataset"
    _prefix = "IWSLT16"

    def __init__(self, dataset_dir, usage=None, language_pair=None, valid_set=None, test_set=None, num_samples=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, num_parallel_workers=None, cache=None):
        self.usage = check_usage(usage, self._api, ("train", "valid", "test", "all"))
        src, tgt = _check_pair(language_pair, ("de", "en"), _IWSLT16_PAIRS, self._api)
        self.valid_set = check_usage(valid_set if valid_set is not None else "tst2013", self._api, _IWSLT16_SETS)
        self.test_set = check_usage(test_set if test_set is not None else "tst2014", self._api, _IWSLT16_SETS)
        folder = os.path.join(check_dir(dataset_dir, self._api), "texts", src, tgt, f"{src}-{tgt}")
        self.dataset_dir = os.fspath(dataset_dir)
        self.language_pair = (src, tgt)
        self._setup(folder, self.usage, src, tgt, (self.valid_set, self.test_set), num_samples,
                    num_parallel_workers, shuffle, num_shards, shard_id, cache)


class IWSLT2017Dataset(_IWSLT):
    """The IWSLT 2017 multilingual TED set: ``texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo/`` with
    ``train.tags.<pair>.<lang>``, ``IWSLT17.TED.dev2010.<pair>.<lang>.xml`` (valid) and
    ``IWSLT17.TED.tst2010.<pair>.<lang>.xml`` (test).

    Args:
        dataset_dir (str): the root folder (holding ``texts``).
        usage (str, optional): 'train', 'valid', 'test' or 'all' (in that order). Default: None ('all').
        language_pair (sequence, optional): two different languages among 'en', 'nl', 'de', 'it', 'ro'.
            Default: None (('de', 'en')).
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as for :class:`TextFileDataset`.

    Columns: ``text``, ``translation``.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.IWSLT2017Dataset("/path/to/iwslt2017", usage="valid", language_pair=("en", "it"))
    """

    _api = "IWSLT2017Dataset"
    _prefix = "IWSLT17"

    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, num_parallel_workers=None, cache=None):
        self.usage = check_usage(usage, self._api, ("train", "valid", "test", "all"))
        pairs = {(a, b) for a in _IWSLT17_LANGS for b in _IWSLT17_LANGS if a != b}
        src, tgt = _check_pair(language_pair, ("de", "en"), pairs, self._api)
        folder = os.path.join(check_dir(dataset_dir, self._api), "texts", "DeEnItNlRo", "DeEnItNlRo",
                              "DeEnItNlRo-DeEnItNlRo")
        self.dataset_dir = os.fspath(dataset_dir)
        self.language_pair = (src, tgt)
        self._setup(folder, self.usage, src, tgt, ("dev2010", "tst2010"), num_samples, num_parallel_workers,
                    shuffle, num_shards, shard_id, cache)
