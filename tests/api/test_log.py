"""``mindspore.log`` against real MindSpore 2.10: ``get_level``/``get_log_config`` under the GLOG environments
recorded by ``make_hal_log_fixture.py`` (each in a fresh process, as the logger reads them once)."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

import mindspore as ms

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "api" / "hal_log_msref.json").read_text())
sys.path.insert(0, str(pathlib.Path(__file__).parent))
from make_hal_log_fixture import LOG_ENVS, _LOG_PROBE  # noqa: E402


def _run(env, tmp):
    full = {k: v for k, v in os.environ.items() if not k.startswith(("GLOG_", "logger_"))}
    full.update({k: v.replace("{tmp}", str(tmp)) for k, v in env.items()})
    out = subprocess.run([sys.executable, "-c", _LOG_PROBE], env=full, capture_output=True, text=True, check=True,
                         timeout=300)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if "config" in result and "GLOG_log_dir" in result["config"]:
        result["config"]["GLOG_log_dir"] = result["config"]["GLOG_log_dir"].replace(str(tmp), "{tmp}")
    return result, out.stderr


@pytest.mark.parametrize("index", range(len(LOG_ENVS)), ids=[json.dumps(e) for e in LOG_ENVS])
def test_log_config_as_mindspore(index, tmp_path):
    result, _ = _run(LOG_ENVS[index], tmp_path)
    assert result == FIXTURE["log"][index]


def test_logs_to_rotating_files_and_stderr_by_threshold(tmp_path):
    code = ("import mindspore.log as log\n"
            "log.info('an info line')\nlog.warning('a warning line')\nlog.error('an error line')\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GLOG_", "logger_"))}
    env.update({"GLOG_v": "1", "GLOG_logtostderr": "0", "GLOG_log_dir": str(tmp_path), "GLOG_stderrthreshold": "3"})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         timeout=300)
    (logfile,) = (tmp_path / "rank_0" / "logs").iterdir()
    text = logfile.read_text()
    assert logfile.name.startswith("mindspore.log.")
    assert "[INFO] ME(" in text and "an info line" in text and "an error line" in text
    assert "an error line" in out.stderr and "a warning line" not in out.stderr


def test_file_logging_without_a_directory_is_refused(monkeypatch):
    from mindspore import log
    monkeypatch.setenv("GLOG_logtostderr", "0")
    monkeypatch.delenv("GLOG_log_dir", raising=False)
    log._reset()
    try:
        with pytest.raises(ValueError, match="When GLOG_logtostderr is set to 0, the directory of saving log "
                                             "GLOG_log_dir must be set, but got it empty."):
            log.get_level()
    finally:
        monkeypatch.undo()
        log._reset()


def test_top_level_names():
    assert ms.get_level is ms.log.get_level and ms.get_log_config is ms.log.get_log_config


def test_log_action_once_silences_later_warnings():
    # mindspore.log._LogActionOnce (2.10's), which outside layers (MindOCR's ABINet) decorate __init__ with
    from mindspore.log import _LogActionOnce

    class Logger:
        def __init__(self):
            self.messages = []

        def warning(self, msg):
            self.messages.append(msg)

    logger = Logger()

    @_LogActionOnce(logger=logger, key="test_log_action_once")
    def build(i):
        logger.warning(f"w{i}")
        return 2 * i

    @_LogActionOnce(logger=logger, key="test_log_action_once_silent", no_warning=True)
    def silent():
        logger.warning("never")

    assert (build(1), build(2)) == (2, 4) and logger.messages == ["w1"]
    silent()
    assert logger.messages == ["w1"] and logger.warning.__func__ is Logger.warning
