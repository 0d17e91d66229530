"""MindSpore's ``mindspore.utils.sdc_detect``."""
from mindspore.utils.detect import get_sdc_detect_result, sdc_detect_start, sdc_detect_stop  # noqa: F401

__all__ = ["sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result"]
