"""Records what real MindSpore 2.10 (CPU) answers for the calls of :data:`HAL_CASES` (``mindspore.hal``) and for
``mindspore.log``'s ``get_level``/``get_log_config`` under the environments of :data:`LOG_ENVS`, into
``tests/fixtures/api/hal_log_msref.json`` (each result's repr, or its exception type and message).
``test_hal.py`` and ``test_log.py`` replay them.

Run with a Python that has real MindSpore (CPU)::

    /tmp/w/msref/bin/python tests/api/make_hal_log_fixture.py
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_FILE = os.path.join(HERE, "..", "fixtures", "api", "hal_log_msref.json")

#: expressions on ``hal`` (``is_initialized`` depends on what ran before: test_hal.py checks it in a fresh process)
HAL_CASES = [
    "hal.is_available('CPU')",
    "hal.is_available('GPU')",
    "hal.is_available('Ascend')",
    "hal.is_available('cpu')",
    "hal.is_available(0)",
    "hal.is_initialized('gpu')",
    "hal.device_count()",
    "hal.device_count('CPU')",
    "hal.device_count('GPU')",
    "hal.device_count('xx')",
    "hal.device_count(0)",
    "hal.get_device_name(0)",
    "hal.get_device_name(0, 'CPU')",
    "hal.get_device_name(-1)",
    "hal.get_device_name(5)",
    "hal.get_device_name('CPU')",
    "hal.get_device_name(0, 'Ascend')",
    "hal.get_device_capability(0)",
    "hal.get_device_properties(0)",
    "hal.get_arch_list()",
    "hal.get_arch_list('CPU')",
    "hal.memory_allocated()",
    "hal.memory_allocated('CPU')",
    "hal.max_memory_allocated()",
    "hal.memory_reserved()",
    "hal.max_memory_reserved('CPU')",
    "hal.memory_allocated('GPU')",
    "hal.empty_cache()",
    "hal.reset_peak_memory_stats()",
    "hal.reset_max_memory_allocated()",
    "hal.reset_max_memory_reserved()",
    "hal.synchronize()",
    "hal.current_stream().query()",
    "hal.Stream().query()",
    "hal.Event(enable_timing=True).query()",
    "hal.Stream(priority='a')",
    "hal.Event(enable_timing=1)",
]

#: environments for ``mindspore.log`` (each in a fresh process)
LOG_ENVS = [
    {},
    {"GLOG_v": "0"},
    {"GLOG_v": "3"},
    {"GLOG_v": "4"},
    {"GLOG_v": "7"},
    {"GLOG_logtostderr": "2"},
    # (GLOG_logtostderr=0 without GLOG_log_dir: MindSpore's C++ logger ends the process at import, before Python
    # can raise; test_log.py checks our ValueError with MindSpore's Python message)
    {"GLOG_v": "1", "GLOG_logtostderr": "0", "GLOG_log_dir": "{tmp}", "GLOG_stderrthreshold": "3"},
    {"GLOG_logtostderr": "0", "GLOG_log_dir": "{tmp}", "logger_maxBytes": "1000", "logger_backupCount": "3"},
    {"GLOG_logtostderr": "0", "GLOG_log_dir": "{tmp}", "logger_maxBytes": "x"},
    {"GLOG_stderrthreshold": "9"},
]

_LOG_PROBE = """
import json
try:
    import mindspore.log as log
    print(json.dumps({"level": log.get_level(), "config": log.get_log_config()}))
except Exception as e:
    print(json.dumps({"error": [c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins"][0],
                      "message": str(e).splitlines()[0]}))
"""


def answer(fn):
    try:
        return {"repr": repr(fn())}
    except Exception as e:  # noqa: BLE001 - the exception is what is recorded
        return {"error": [c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins"][0],
                "message": str(e).splitlines()[0] if str(e) else ""}


def run_log_case(env, python, tmp):
    full = {k: v for k, v in os.environ.items() if not k.startswith(("GLOG_", "logger_"))}
    full.update({k: v.replace("{tmp}", tmp) for k, v in env.items()})
    out = subprocess.run([python, "-c", _LOG_PROBE], env=full, capture_output=True, text=True, check=False)
    lines = [line for line in out.stdout.strip().splitlines() if line.startswith("{")]
    if lines:
        result = json.loads(lines[-1])
    else:   # MindSpore validates the variables at import too, where the probe cannot catch it
        last = [line for line in out.stderr.splitlines() if "Error: " in line][-1]
        kind, message = last.split(": ", 1)
        result = {"error": kind, "message": message}
    if "config" in result and "GLOG_log_dir" in result["config"]:
        result["config"]["GLOG_log_dir"] = result["config"]["GLOG_log_dir"].replace(tmp, "{tmp}")
    return result


def main():
    import tempfile
    import mindspore as ms
    from mindspore import hal
    ms.set_context(mode=ms.PYNATIVE_MODE)
    hal_results = {expr: answer(lambda e=expr: eval(e, {"hal": hal})) for expr in HAL_CASES}  # noqa: S307
    tmp = tempfile.mkdtemp()
    log_results = [run_log_case(env, sys.executable, tmp) for env in LOG_ENVS]
    with open(OUT_FILE, "w", encoding="utf-8") as fh:
        json.dump({"hal": hal_results, "log": log_results}, fh, indent=1, sort_keys=True)
    print(f"wrote {OUT_FILE}")


if __name__ == "__main__":
    main()
