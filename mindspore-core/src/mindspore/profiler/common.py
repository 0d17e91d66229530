"""The options of ``mindspore.profiler``: levels, activities and export types as MindSpore 2.10 names them, and
:class:`_ExperimentalConfig`, the bundle of less common options ``profile`` takes."""
from enum import Enum

__all__ = ["ProfilerLevel", "ProfilerActivity", "AicoreMetrics", "ExportType", "HostSystem", "_ExperimentalConfig"]


class ProfilerLevel(Enum):
    """How much is collected: ``LevelNone`` (steps and marks only), ``Level0`` (every operator: name, start,
    duration), ``Level1`` (and input shapes and dtypes), ``Level2`` (and the Python call site)."""
    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(Enum):
    """Where operators are timed: on the host (``CPU``) or on the device (``GPU``, ``NPU``)."""
    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class AicoreMetrics(Enum):
    """Ascend AI Core counters (collected only by Ascend's own profiler; accepted and recorded in the metadata)."""
    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"


class ExportType(Enum):
    """The formats the analysis writes: ``Text`` (JSON and CSV files) or ``Db`` (an SQLite database)."""
    Db = "db"
    Text = "text"


class HostSystem(Enum):
    """Host resources to sample (Ascend's profiler; accepted and recorded in the metadata)."""
    CPU = "cpu"
    MEM = "mem"
    DISK = "disk"
    NETWORK = "network"
    OSRT = "osrt"


class _ExperimentalConfig:
    """Less common profiler options, for :class:`mindspore.profiler.profile`'s ``experimental_config``.

    Args:
        profiler_level (ProfilerLevel, optional): Default ``ProfilerLevel.Level0``.
        aic_metrics (AicoreMetrics, optional): Default ``AicoreMetrics.AiCoreNone``.
        l2_cache (bool, optional): Default ``False``.
        mstx (bool, optional): record :class:`mindspore.profiler.mstx` marks and ranges. Default ``False``.
        data_simplification (bool, optional): drop intermediate files after the analysis. Default ``True``.
        export_type (list[ExportType], optional): Default ``[ExportType.Text]``.
        mstx_domain_include (list[str], optional): record only these mstx domains. Default ``None``.
        mstx_domain_exclude (list[str], optional): do not record these mstx domains. Default ``None``.
        sys_io (bool, optional): Default ``False``.
        sys_interconnection (bool, optional): Default ``False``.
        host_sys (list[HostSystem], optional): Default ``None``.
    """

    def __init__(self, profiler_level=ProfilerLevel.Level0, aic_metrics=AicoreMetrics.AiCoreNone, l2_cache=False,
                 mstx=False, data_simplification=True, export_type=None, mstx_domain_include=None,
                 mstx_domain_exclude=None, sys_io=False, sys_interconnection=False, host_sys=None):
        self.profiler_level = profiler_level
        self.aic_metrics = aic_metrics
        self.l2_cache = l2_cache
        self.mstx = mstx
        self.data_simplification = data_simplification
        self.export_type = export_type
        self.mstx_domain_include = mstx_domain_include
        self.mstx_domain_exclude = mstx_domain_exclude
        self.sys_io = sys_io
        self.sys_interconnection = sys_interconnection
        self.host_sys = host_sys
