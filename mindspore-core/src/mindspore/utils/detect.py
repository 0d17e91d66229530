"""Ascend hardware checks: silent data corruption (SDC) detection and stress detection.

Both are features of Ascend's runtime (CANN's hardware self-tests). MindSpore on a CPU or GPU answers as these do:
``sdc_detect_start``/``sdc_detect_stop`` switch a detection that then never fires (``get_sdc_detect_result()`` is
False), ``stress_detect("aic")`` raises ``RuntimeError("Stress detection is not supported.")``, and an unknown
detection type logs an error and returns 1. On Ascend the current device runtime is asked to run them
(``DeviceRuntime.stress_detect``/``sdc_detect_*``, which mindspore-ascend provides).
"""
from mindspore._errors import MSRuntimeError
from mindspore._runtime import backend
from mindspore.log import error

__all__ = ["stress_detect", "sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result"]

_sdc = {"running": False}


def _runtime_method(name):
    runtime = backend.data_runtime()
    return getattr(runtime, name, None)


def sdc_detect_start():
    """Start detecting silent data corruption in the gradients (Ascend; elsewhere nothing is ever detected)."""
    method = _runtime_method("sdc_detect_start")
    if method is not None:
        method()
    _sdc["running"] = True


def sdc_detect_stop():
    """Stop the detection :func:`sdc_detect_start` started."""
    method = _runtime_method("sdc_detect_stop")
    if method is not None:
        method()
    _sdc["running"] = False


def get_sdc_detect_result():
    """Whether silent data corruption was detected since the detection started (bool)."""
    method = _runtime_method("get_sdc_detect_result")
    return bool(method()) if method is not None else False


def stress_detect(detect_type="aic"):
    """Run the device's stress test: ``"aic"`` (AI Core) or ``"hccs"`` (the interconnect). Returns 0 when the
    device passed, another code otherwise (1 for an unknown ``detect_type``).

    Raises:
        RuntimeError: the device cannot run stress tests (every device but Ascend's).
    """
    if detect_type not in ("aic", "hccs"):
        error(f"For stress detect, detection type must be 'aic' or 'hccs'.But got {detect_type}. "
              f"Exiting stress detect.")
        return 1
    method = _runtime_method("stress_detect")
    if method is None:
        raise MSRuntimeError("Stress detection is not supported.")
    return int(method(detect_type))
