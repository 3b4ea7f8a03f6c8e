"""MindSpore's logger (``mindspore.log``): ``get_level``, ``get_log_config`` and the module-level
``debug``/``info``/``warning``/``error``/``critical`` that programs call as ``from mindspore import log as logger``.

Configured, as in MindSpore, by GLOG-style environment variables read when the logger is first used:

* ``GLOG_v``: the level, 0 DEBUG, 1 INFO, 2 WARNING (default), 3 ERROR, 4 CRITICAL;
* ``GLOG_logtostderr``: 1 (default) logs to stderr; 0 writes rotating files under
  ``$GLOG_log_dir/rank_<RANK_ID>/logs/mindspore.log.<pid>`` (``logger_maxBytes``, ``logger_backupCount``), with
  records at or above ``GLOG_stderrthreshold`` (default 2) also on stderr.

Records look like MindSpore's: ``[WARNING] ME(pid:thread,MainProcess):2026-01-01-12:00:00.123.456 [file:line] msg``.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from logging.handlers import RotatingFileHandler
from typing import Any

__all__ = ["get_level", "get_log_config"]

STD_ON = "1"
STD_OFF = "0"
MAX_BYTES = "52428800"
BACKUP_COUNT = "30"
LOGGER_LEVEL = "2"

_name_to_level = {"DEBUG": 10, "INFO": 20, "WARNING": 30, "ERROR": 40, "CRITICAL": 50}
_gloglevel_to_name = {"0": "DEBUG", "1": "INFO", "2": "WARNING", "3": "ERROR", "4": "CRITICAL"}
_level_to_glog = {v: k for k, v in zip(_gloglevel_to_name, _name_to_level.values(), strict=True)}
_confmap_dict = {
    "level": "GLOG_v",
    "console": "GLOG_logtostderr",
    "filepath": "GLOG_log_dir",
    "maxBytes": "logger_maxBytes",
    "backupCount": "logger_backupCount",
    "stderr_level": "GLOG_stderrthreshold",
}

_lock = threading.Lock()
_logger: list[logging.Logger | None] = [None]


class _Formatter(logging.Formatter):
    """MindSpore's record layout; the timestamp is ``%Y-%m-%d-%H:%M:%S.mmm.uuu``."""

    def __init__(self) -> None:
        super().__init__(
            "[%(levelname)s] ME(%(process)d:%(thread)d,%(processName)s):%(asctime)s "
            "[%(filepath)s:%(lineno)d] %(message)s"
        )

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        stamp = time.strftime("%Y-%m-%d-%H:%M:%S", self.converter(record.created))
        micros = f"{round(record.msecs * 1000):06d}"
        return f"{stamp}.{micros[:3]}.{micros[3:]}"

    def format(self, record: logging.LogRecord) -> str:
        idx = record.pathname.rfind("sporax")
        record.filepath = record.pathname[idx:] if idx >= 0 else record.pathname
        return super().format(record)


def _env_config() -> dict[str, str]:
    out = {}
    for key, env in _confmap_dict.items():
        value = os.environ.get(env)
        if value:
            out[key] = value.strip()
    return out


def _verify_level(level: str) -> None:
    if level not in _gloglevel_to_name:
        raise ValueError(
            "Incorrect log level, please check the configuration of GLOG_v or GLOG_stderrthreshold, desired log "
            f"level: 4-CRITICAL, 3-ERROR, 2-WARNING, 1-INFO, 0-DEBUG. But got {level}."
        )


def _verify_config(cfg: dict[str, str]) -> None:
    for key in ("level", "stderr_level"):
        if key in cfg:
            _verify_level(cfg[key])
    console = cfg.get("console")
    if console is None:
        return
    if console not in (STD_OFF, STD_ON):
        raise ValueError(f"Incorrect value, the value of GLOG_logtostderr must be 0 or 1, but got {console}.")
    if console == STD_OFF:
        if not cfg.get("filepath"):
            raise ValueError(
                "When GLOG_logtostderr is set to 0, the directory of saving log GLOG_log_dir must be set, "
                "but got it empty."
            )
        for key in ("maxBytes", "backupCount"):
            value = cfg.get(key)
            if value is not None and not value.isdigit():
                env = _confmap_dict[key]
                raise ValueError(
                    f"Incorrect value, the value of {env} must be positive integer. But got {env}:{value}."
                )


def _rank_id() -> str:
    return os.getenv("RANK_ID") or os.getenv("OMPI_COMM_WORLD_RANK") or os.getenv("MS_NODE_ID") or "0"


def _get_logger() -> logging.Logger:
    """The process's MindSpore logger, set up from the environment on first use."""
    logger = _logger[0]
    if logger is not None:
        return logger
    with _lock:
        if _logger[0] is not None:
            return _logger[0]
        cfg = _env_config()
        _verify_config(cfg)
        log_name = f"mindspore.log.{os.getpid()}"
        logger = logging.getLogger(f"ME.{log_name}")
        logger.setLevel(_gloglevel_to_name[cfg.get("level", LOGGER_LEVEL)])
        logger.propagate = False
        for h in list(logger.handlers):
            logger.removeHandler(h)
        formatter = _Formatter()
        if cfg.get("console", STD_ON) == STD_ON:
            handler: logging.Handler = logging.StreamHandler(sys.stderr)
            handler.name = "StreamHandler"
            handler.setFormatter(formatter)
            logger.addHandler(handler)
        else:
            log_dir = os.path.join(os.path.realpath(cfg["filepath"]), f"rank_{_rank_id()}", "logs")
            os.makedirs(log_dir, mode=0o700, exist_ok=True)
            handler = RotatingFileHandler(
                os.path.join(log_dir, log_name),
                maxBytes=int(cfg.get("maxBytes", MAX_BYTES)),
                backupCount=int(cfg.get("backupCount", BACKUP_COUNT)),
                encoding="utf8",
            )
            handler.name = "FileHandler"
            handler.setFormatter(formatter)
            logger.addHandler(handler)
            err = logging.StreamHandler(sys.stderr)
            err.name = "StreamHandler"
            err.setFormatter(formatter)
            err.setLevel(_gloglevel_to_name[cfg.get("stderr_level", LOGGER_LEVEL)])
            logger.addHandler(err)
        _logger[0] = logger
        return logger


def _reset() -> None:
    """Forget the logger so the next use reads the environment again (tests)."""
    with _lock:
        logger = _logger[0]
        if logger is not None:
            for h in list(logger.handlers):
                logger.removeHandler(h)
                h.close()
        _logger[0] = None


def debug(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` with severity DEBUG on the MindSpore logger."""
    kwargs.setdefault("stacklevel", 2)
    _get_logger().debug(msg, *args, **kwargs)


def info(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` with severity INFO on the MindSpore logger."""
    kwargs.setdefault("stacklevel", 2)
    _get_logger().info(msg, *args, **kwargs)


def warning(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` with severity WARNING on the MindSpore logger."""
    kwargs.setdefault("stacklevel", 2)
    _get_logger().warning(msg, *args, **kwargs)


def error(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` with severity ERROR on the MindSpore logger."""
    kwargs.setdefault("stacklevel", 2)
    _get_logger().error(msg, *args, **kwargs)


def critical(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` with severity CRITICAL on the MindSpore logger."""
    kwargs.setdefault("stacklevel", 2)
    _get_logger().critical(msg, *args, **kwargs)


def get_level() -> str:
    """The logger's level as a GLOG level string: '4' CRITICAL, '3' ERROR, '2' WARNING, '1' INFO, '0' DEBUG."""
    return _level_to_glog[_get_logger().getEffectiveLevel()]


def get_log_config() -> dict[str, Any]:
    """The logger's configuration, keyed by the GLOG environment variables that set it."""
    logger = _get_logger()
    handler = logger.handlers[0]
    config: dict[str, Any] = {"GLOG_v": get_level(), "GLOG_logtostderr": STD_ON}
    if handler.name == "FileHandler":
        assert isinstance(handler, RotatingFileHandler)
        config["GLOG_logtostderr"] = STD_OFF
        config["GLOG_log_dir"] = os.path.split(handler.baseFilename)[0]
        config["logger_maxBytes"] = handler.maxBytes
        config["logger_backupCount"] = handler.backupCount
        config["GLOG_stderrthreshold"] = _level_to_glog.get(logger.handlers[1].level)
    return config
