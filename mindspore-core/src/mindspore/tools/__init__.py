"""MindSpore's ``mindspore.tools``: the device health checks and the dump switch (also in :mod:`mindspore.utils`)."""
from mindspore.tools.data_dump import set_dump  # noqa: F401
from mindspore.tools.sdc_detect import get_sdc_detect_result, sdc_detect_start, sdc_detect_stop  # noqa: F401
# through the submodule of the same name, so that `mindspore.tools.stress_detect` stays the function, as in MindSpore
from mindspore.tools.stress_detect import stress_detect  # noqa: F401

__all__ = ["stress_detect", "sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result", "set_dump"]
