"""``mindspore.dataset.TextBaseDataset``: MindSpore 2.10's base class of the datasets that can feed text tools
(``build_vocab``, ``build_sentencepiece_vocab``), which libraries test with ``isinstance`` (MindNLP's ``Vocab``
builder refuses a dataset that is not one).

In 2.10 it sits in the bases of the text sources and, through ``UnionBaseDataset``, of the general sources and every
pipeline operation (``batch``, ``map``, ``zip``...), but not of the image-only sources (``MnistDataset``,
``ImageFolderDataset``...). The classes here have their own bases, so it is a virtual base class holding 2.10's
list: a dataset is a ``TextBaseDataset`` exactly when it (or a class it derives from) is on it.
"""
import abc
import warnings

import mindspore.dataset.engine as _engine
from mindspore.dataset.engine import datasets_bucket as _bucket, datasets_ops as _ops

__all__ = ["TextBaseDataset"]

# the public classes 2.10 derives from TextBaseDataset (directly or through UnionBaseDataset)
_TEXT_BASED = (
    "AGNewsDataset", "AmazonReviewDataset", "BatchDataset", "BucketBatchByLengthDataset", "CLUEDataset", "CSVDataset",
    "Caltech101Dataset", "CoNLL2000Dataset", "ConcatDataset", "DBpediaDataset", "EnWik9Dataset", "FilterDataset",
    "Flowers102Dataset", "GeneratorDataset", "IMDBDataset", "IWSLT2016Dataset", "IWSLT2017Dataset", "MapDataset",
    "MindDataset", "Multi30kDataset", "NumpySlicesDataset", "OBSMindDataset", "PaddedBatchDataset", "PaddedDataset",
    "PennTreebankDataset", "ProjectDataset", "RenameDataset", "RepeatDataset", "SBDataset", "SQuADDataset",
    "SST2Dataset", "SVHNDataset", "ShuffleDataset", "SkipDataset", "SogouNewsDataset", "SyncWaitDataset",
    "TFRecordDataset", "TakeDataset", "TextFileDataset", "UDPOSDataset", "WikiTextDataset", "YahooAnswersDataset",
    "YelpReviewDataset", "ZipDataset")


class TextBaseDataset(abc.ABC):
    """Abstract class to represent a text source dataset which produces content to the data pipeline."""


def build_vocab(self, columns, freq_range, top_k, special_tokens, special_first):
    """Deprecated since MindSpore 2.0: use :meth:`mindspore.dataset.text.Vocab.from_dataset`. As in 2.10 it only
    issues a DeprecationWarning and returns None."""
    warnings.warn("mindspore.dataset.Dataset.build_vocab is deprecated from version 2.0 and will be removed in a "
                  "future version. Use mindspore.dataset.text.Vocab.from_dataset instead.", DeprecationWarning,
                  stacklevel=2)


def build_sentencepiece_vocab(self, columns, vocab_size, character_coverage, model_type, params):
    """Deprecated since MindSpore 2.0: use :meth:`mindspore.dataset.text.SentencePieceVocab.from_dataset`. As in 2.10
    it only issues a DeprecationWarning and returns None."""
    warnings.warn("mindspore.dataset.Dataset.build_sentencepiece_vocab is deprecated from version 2.0 and will be "
                  "removed in a future version. Use mindspore.dataset.text.SentencePieceVocab.from_dataset instead.",
                  DeprecationWarning, stacklevel=2)


# 2.10's text datasets inherit the two deprecated methods from TextBaseDataset; ours are registered with it (a
# virtual base gives no methods), so they get them here, with the registration
for _name in _TEXT_BASED:
    _cls = getattr(_engine, _name, None) or getattr(_ops, _name, None) or getattr(_bucket, _name, None)
    if isinstance(_cls, type):
        TextBaseDataset.register(_cls)
        for _method in (build_vocab, build_sentencepiece_vocab):
            if _method.__name__ not in _cls.__dict__:
                setattr(_cls, _method.__name__, _method)
del _name, _cls, _method
