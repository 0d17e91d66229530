"""The data engine: the Dataset graph (``datasets``, ``datasets_ops``), sources, samplers, iterators and
parallel workers. ``mindspore.dataset`` re-exports the public names."""
import importlib

from mindspore.dataset.engine.datasets import (Dataset, MappableDataset, Schema, Shuffle, SourceDataset,  # noqa: F401
                                               zip)
from mindspore.dataset.engine.datasets_ops import (BatchDataset, BatchInfo, ConcatDataset,  # noqa: F401
                                                   FilterDataset, MapDataset, PaddedBatchDataset, ProjectDataset,
                                                   RenameDataset, RepeatDataset, ShuffleDataset, SkipDataset,
                                                   TakeDataset, ZipDataset)
from mindspore.dataset.engine.datasets_user_defined import (GeneratorDataset, NumpySlicesDataset,  # noqa: F401
                                                            PaddedDataset)
from mindspore.dataset.engine.cache_client import DatasetCache  # noqa: F401
from mindspore.dataset.engine.callbacks import DSCallback  # noqa: F401
from mindspore.dataset.engine.iterators import DictIterator, TupleIterator  # noqa: F401
from mindspore.dataset.engine.serializer import compare, deserialize, serialize, show  # noqa: F401
from mindspore.dataset.engine.samplers import (DistributedSampler, PKSampler, RandomSampler, Sampler,  # noqa: F401
                                               SequentialSampler, SubsetRandomSampler, SubsetSampler,
                                               WeightedRandomSampler)

__all__ = ["Dataset", "MappableDataset", "SourceDataset", "Schema", "Shuffle", "zip", "BatchInfo",
           "GeneratorDataset", "NumpySlicesDataset", "PaddedDataset",
           "DistributedSampler", "PKSampler", "RandomSampler", "Sampler", "SequentialSampler", "SubsetRandomSampler",
           "SubsetSampler", "WeightedRandomSampler", "DSCallback", "WaitedDSCallback", "DatasetCache",
           "serialize", "deserialize", "show", "compare"]

# Sources written in their own modules (by file format); a module not present yet is skipped.
_SOURCE_MODULES = {
    "datasets_vision": ["MnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset"],
    "datasets_text": ["TextFileDataset"],
    "datasets_standard": ["CSVDataset"],
    "datasets_mindrecord": ["MindDataset"],
    "datasets_vision_more": ["SVHNDataset", "USPSDataset", "SemeionDataset", "STL10Dataset", "CelebADataset",
                             "Places365Dataset", "Caltech256Dataset", "Food101Dataset"],
    "datasets_detection": ["VOCDataset", "CocoDataset"],
    "datasets_text_more": ["AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "SogouNewsDataset",
                           "YahooAnswersDataset", "YelpReviewDataset", "PennTreebankDataset", "WikiTextDataset",
                           "EnWik9Dataset", "SST2Dataset", "CoNLL2000Dataset", "UDPOSDataset", "IMDBDataset",
                           "CLUEDataset", "SQuADDataset", "Multi30kDataset", "IWSLT2016Dataset",
                           "IWSLT2017Dataset"],
    "datasets_audio": ["LJSpeechDataset", "SpeechCommandsDataset", "YesNoDataset", "CMUArcticDataset",
                       "LibriTTSDataset", "GTZANDataset"],
    "datasets_vision_lists": ["OmniglotDataset", "SBUDataset", "FlickrDataset", "SUN397Dataset",
                              "RenderedSST2Dataset", "ManifestDataset", "DIV2KDataset", "Caltech101Dataset",
                              "FakeImageDataset", "RandomDataset"],
    "datasets_tfrecord": ["TFRecordDataset"],
    "datasets_vision_boxes": ["KITTIDataset", "WIDERFaceDataset"],
    "datasets_vision_extra": ["CityscapesDataset", "PhotoTourDataset", "Flowers102Dataset", "LFWDataset",
                              "LSUNDataset", "SBDataset"],
    "datasets_idx": ["FashionMnistDataset", "KMnistDataset", "EMnistDataset", "QMnistDataset"],
    "datasets_audio_tedlium": ["TedliumDataset"],
}

for _module_name, _names in _SOURCE_MODULES.items():
    _full_name = f"{__name__}.{_module_name}"
    try:
        _module = importlib.import_module(_full_name)
    except ModuleNotFoundError as _err:
        if _err.name != _full_name:
            raise
        continue
    for _name in _names:
        if hasattr(_module, _name):
            globals()[_name] = getattr(_module, _name)
            __all__.append(_name)


def __getattr__(name):
    if name == "WaitedDSCallback":    # built on first use, as in mindspore.dataset: its base is mindspore.train's
        from mindspore.dataset.engine import callbacks
        return callbacks.WaitedDSCallback
    raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
