"""``mindspore.utils``: DLPack exchange, dispatch modes, execution-order checks for distributed jobs, fault
tolerance helpers, and the Ascend hardware checks (SDC and stress detection)."""
from mindspore.utils.detect import get_sdc_detect_result, sdc_detect_start, sdc_detect_stop
# through MindSpore's module path, so that `mindspore.utils.stress_detect` stays the function, as in MindSpore
from mindspore.utils.stress_detect import stress_detect
from mindspore.utils.dlpack import from_dlpack, to_dlpack
from mindspore.utils.execution_order import comm_exec_order_check, runtime_execution_order_check
from mindspore.utils.fault_tolerance import ExitByRequest, RSCPluginHandle, TFTCommValue
from mindspore.utils.ms_dispatch import MsDispatchMode

__all__ = ["stress_detect", "ExitByRequest", "runtime_execution_order_check", "comm_exec_order_check",
           "sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result", "RSCPluginHandle", "TFTCommValue",
           "from_dlpack", "to_dlpack", "MsDispatchMode"]
