"""``mindspore.log``: MindSpore's Python logger, configured by the GLOG environment variables.

The logger is set up once, on first use, from the environment (as MindSpore does):

* ``GLOG_v``: the level, ``0`` DEBUG, ``1`` INFO, ``2`` WARNING (default), ``3`` ERROR, ``4`` CRITICAL;
* ``GLOG_logtostderr``: ``1`` (default) logs to stderr; ``0`` logs to rotating files
  ``<GLOG_log_dir>/rank_<RANK_ID>/logs/mindspore.log.<pid>`` (``GLOG_log_dir`` is then required), and
  records at or above ``GLOG_stderrthreshold`` (default ``2``) also to stderr;
* ``logger_maxBytes`` (default 52428800) and ``logger_backupCount`` (default 30): the rotation.

Invalid values raise ``ValueError`` at first use, with MindSpore's messages. :func:`get_level` and
:func:`get_log_config` report the configuration in effect; :func:`debug`, :func:`info`, :func:`warning`,
:func:`error` and :func:`critical` log through it.
"""
import logging
import os
import sys
import threading
from logging.handlers import RotatingFileHandler

__all__ = ["get_level", "get_log_config"]

_STD_ON, _STD_OFF = "1", "0"
_MAX_BYTES, _BACKUP_COUNT = "52428800", "30"
_GLOG_TO_LEVEL = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR,
                  "4": logging.CRITICAL}
_LEVEL_TO_GLOG = {v: k for k, v in _GLOG_TO_LEVEL.items()}
#: logger setting -> the environment variable that sets it
_ENV = {"level": "GLOG_v", "console": "GLOG_logtostderr", "filepath": "GLOG_log_dir",
        "maxBytes": "logger_maxBytes", "backupCount": "logger_backupCount", "stderr_level": "GLOG_stderrthreshold"}
_FORMAT = ("[%(levelname)s] %(sub_module)s(%(process)d:%(thread)d,%(processName)s):%(asctime)s "
           "[%(filename)s:%(lineno)d] %(message)s")

_lock = threading.Lock()
_logger = [None]


class _Formatter(logging.Formatter):
    """MindSpore's record layout: ``[WARNING] ME(pid:tid,MainProcess):2024-01-01-12:00:00.123.456 [file:line] msg``."""

    def __init__(self, sub_module):
        super().__init__(_FORMAT)
        self.sub_module = sub_module

    def formatTime(self, record, datefmt=None):  # noqa: N802 - logging's name
        import datetime
        t = datetime.datetime.fromtimestamp(record.created)
        return t.strftime("%Y-%m-%d-%H:%M:%S") + f".{t.microsecond // 1000:03d}.{t.microsecond % 1000:03d}"

    def format(self, record):
        record.sub_module = self.sub_module
        return super().format(record)


def _env_config():
    return {key: os.environ[var].strip() for key, var in _ENV.items() if os.environ.get(var)}


def _verify_level(level):
    if level not in _GLOG_TO_LEVEL:
        raise ValueError(f"Incorrect log level, please check the configuration of GLOG_v or GLOG_stderrthreshold, "
                         f"desired log level: 4-CRITICAL, 3-ERROR, 2-WARNING, 1-INFO, 0-DEBUG. But got {level}.")


def _verify(cfg):
    for key in ("level", "stderr_level"):
        if key in cfg:
            _verify_level(cfg[key])
    console = cfg.get("console")
    if console is None:
        return
    if console not in (_STD_OFF, _STD_ON):
        raise ValueError(f"Incorrect value, the value of GLOG_logtostderr must be 0 or 1, but got {console}.")
    if console == _STD_OFF:
        if not cfg.get("filepath"):
            raise ValueError("When GLOG_logtostderr is set to 0, the directory of saving log GLOG_log_dir must be "
                             "set, but got it empty.")
        for key in ("maxBytes", "backupCount"):
            value = cfg.get(key)
            if value is not None and not value.isdigit():
                raise ValueError(f"Incorrect value, the value of {_ENV[key]} must be positive integer. "
                                 f"But got {_ENV[key]}:{value}.")


def _rank_id():
    rank = os.environ.get("RANK_ID")
    return rank if rank and rank.isdigit() else "0"


def _setup(cfg):
    name = f"ME.mindspore.log.{os.getpid()}"
    logger = logging.getLogger(name)
    logger.setLevel(_GLOG_TO_LEVEL[cfg.get("level", "2")])
    logger.propagate = False
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    stderr = logging.StreamHandler(sys.stderr)
    stderr.name = "StreamHandler"
    stderr.setFormatter(_Formatter("ME"))
    if cfg.get("console", _STD_ON) == _STD_ON:
        logger.addHandler(stderr)
        return logger
    log_dir = os.path.join(os.path.realpath(cfg["filepath"]), f"rank_{_rank_id()}", "logs")
    os.makedirs(log_dir, mode=0o700, exist_ok=True)
    to_file = RotatingFileHandler(os.path.join(log_dir, f"mindspore.log.{os.getpid()}"),
                                  maxBytes=int(cfg.get("maxBytes", _MAX_BYTES)),
                                  backupCount=int(cfg.get("backupCount", _BACKUP_COUNT)), encoding="utf8")
    to_file.name = "FileHandler"
    to_file.setFormatter(_Formatter("ME"))
    logger.addHandler(to_file)
    stderr.setLevel(_GLOG_TO_LEVEL[cfg.get("stderr_level", "2")])
    logger.addHandler(stderr)
    return logger


def _get_logger():
    """The process's MindSpore logger, set up from the environment at first use."""
    logger = _logger[0]
    if logger is not None:
        return logger
    with _lock:
        if _logger[0] is None:
            cfg = _env_config()
            _verify(cfg)
            _logger[0] = _setup(cfg)
        return _logger[0]


def _reset():
    """Forget the logger, so that the next use reads the environment again (tests)."""
    with _lock:
        logger = _logger[0]
        _logger[0] = None
        if logger is not None:
            for handler in list(logger.handlers):
                handler.close()
                logger.removeHandler(handler)


def get_level():
    """The log level in effect, as ``GLOG_v`` writes it: ``'4'`` (CRITICAL), ``'3'`` (ERROR), ``'2'`` (WARNING,
    the default), ``'1'`` (INFO) or ``'0'`` (DEBUG).

    Raises:
        ValueError: the GLOG environment variables hold invalid values.

    Examples:
        >>> import os
        >>> os.environ['GLOG_v'] = '3'
        >>> import mindspore as ms
        >>> ms.get_level()
        '3'
    """
    return _LEVEL_TO_GLOG.get(_get_logger().getEffectiveLevel())


def get_log_config():
    """The logger's configuration, keyed by the environment variables: ``GLOG_v`` and ``GLOG_logtostderr``;
    when logging to files also ``GLOG_log_dir`` (the directory the files are in, ``.../rank_<id>/logs``),
    ``logger_maxBytes``, ``logger_backupCount`` (ints) and ``GLOG_stderrthreshold``.

    Raises:
        ValueError: the GLOG environment variables hold invalid values.

    Examples:
        >>> import mindspore as ms
        >>> ms.get_log_config()
        {'GLOG_v': '2', 'GLOG_logtostderr': '1'}
    """
    logger = _get_logger()
    handler = logger.handlers[0]
    config = {"GLOG_v": get_level(), "GLOG_logtostderr": _STD_ON}
    if handler.name == "FileHandler":
        config["GLOG_logtostderr"] = _STD_OFF
        config["GLOG_log_dir"] = os.path.dirname(handler.baseFilename)
        config["logger_maxBytes"] = handler.maxBytes
        config["logger_backupCount"] = handler.backupCount
        config["GLOG_stderrthreshold"] = _LEVEL_TO_GLOG.get(logger.handlers[1].level)
    return config


def debug(msg, *args, **kwargs):
    """Log ``msg % args`` at DEBUG level."""
    _get_logger().debug(msg, *args, stacklevel=2, **kwargs)


def info(msg, *args, **kwargs):
    """Log ``msg % args`` at INFO level."""
    _get_logger().info(msg, *args, stacklevel=2, **kwargs)


def warning(msg, *args, **kwargs):
    """Log ``msg % args`` at WARNING level."""
    _get_logger().warning(msg, *args, stacklevel=2, **kwargs)


def error(msg, *args, **kwargs):
    """Log ``msg % args`` at ERROR level."""
    _get_logger().error(msg, *args, stacklevel=2, **kwargs)


def critical(msg, *args, **kwargs):
    """Log ``msg % args`` at CRITICAL level."""
    _get_logger().critical(msg, *args, stacklevel=2, **kwargs)


class _LogActionOnce:
    """Decorator (2.10's, used by outside libraries' layers): the wrapped call logs ``logger.warning`` only the
    first time any call decorated with ``key`` runs (every time never, with ``no_warning``); later calls run with the
    logger's ``warning`` silenced, restored afterwards."""

    is_logged = {}

    def __init__(self, logger, key, no_warning=False):
        self.logger = logger
        self.key = key
        self.no_warning = no_warning

    def __call__(self, func):
        def wrapper(*args, **kwargs):
            if not hasattr(self.logger, "warning"):
                return func(*args, **kwargs)
            old = self.logger.warning
            if self.no_warning or self.key in _LogActionOnce.is_logged:
                self.logger.warning = lambda msg, *a, **k: None
            else:
                _LogActionOnce.is_logged[self.key] = True
            try:
                return func(*args, **kwargs)
            finally:
                self.logger.warning = old
        return wrapper
