"""``mstx`` trace markers, ``EnvProfiler`` (profiling from ``MS_PROFILER_OPTIONS``) and
``DynamicProfilerMonitor`` (profiling steps chosen in a JSON file while training runs)."""

from __future__ import annotations

import atexit
import itertools
import json
import logging
import os
import threading
import time
from typing import Any

from .._engine import _profiler
from ..train.callback._callback import Callback
from ._enums import AicoreMetrics, ExportType, HostSystem, ProfilerActivity, ProfilerLevel
from .profiler import Profile, _ExperimentalConfig, tensorboard_trace_handler
from .schedule import Schedule

__all__ = ["Mstx", "EnvProfiler", "DynamicProfilerMonitor"]

_log = logging.getLogger("sporax")


class Mstx:
    """Markers and ranges in the profiler's trace (MindSpore's ``mstx``, NPU's tooling extension): on XLA
    they are trace annotations on the calling thread, shown in xprof and Perfetto next to the ops they
    enclose. `stream` is accepted (XLA orders work itself); `domain` prefixes the name (``domain::message``)
    unless it is ``"default"``."""

    _ids = itertools.count(1)
    _open: dict[int, Any] = {}
    _lock = threading.Lock()

    @staticmethod
    def _name(message: Any, domain: Any, func: str) -> str | None:
        if not message or not isinstance(message, str):
            _log.warning(f"Invalid message for mstx.{func} func. Please input valid message string.")
            return None
        if not isinstance(domain, str) or domain == "":
            _log.warning(f"Invalid domain name for mstx.{func} func. Please input str and can not be empty.")
            return None
        return message if domain == "default" else f"{domain}::{message}"

    @staticmethod
    def mark(message: str, stream: Any = None, domain: str = "default") -> None:
        """A point marker named `message` in the trace."""
        name = Mstx._name(message, domain, "mark")
        if name is not None:
            with _profiler.annotation(name):
                pass

    @staticmethod
    def range_start(message: str, stream: Any = None, domain: str = "default") -> int:
        """Open a range named `message`; returns its id for :meth:`range_end` (0 when invalid)."""
        name = Mstx._name(message, domain, "range_start")
        if name is None:
            return 0
        ann = _profiler.annotation(name)
        ann.__enter__()
        with Mstx._lock:
            rid = next(Mstx._ids)
            Mstx._open[rid] = ann
        return rid

    @staticmethod
    def range_end(range_id: int, domain: str = "default") -> None:
        """Close the range `range_id` opened by :meth:`range_start`."""
        if range_id == 0:
            return
        if not isinstance(range_id, int) or range_id < 0:
            _log.warning("Invalid range_id for mstx.range_end func. Please input return value from mstx.range_start.")
            return
        with Mstx._lock:
            ann = Mstx._open.pop(range_id, None)
        if ann is not None:
            ann.__exit__(None, None, None)


def _enum(cls: Any, value: Any, default: Any) -> Any:
    if isinstance(value, cls):
        return value
    for member in cls:
        if value in (member.value, member.name):
            return member
    return default


def _enums(cls: Any, values: Any, default: list) -> list:
    if values is None:
        return list(default)
    if isinstance(values, str):
        values = [v.strip() for v in values.split(",") if v.strip()]
    out = [_enum(cls, v, None) for v in values]
    return [v for v in out if v is not None]


def _profile_from_options(opts: dict[str, Any], output_path: str, start_profile: bool, sched: Any = None) -> Profile:
    exp = _ExperimentalConfig(
        profiler_level=_enum(ProfilerLevel, opts.get("profiler_level"), ProfilerLevel.Level0),
        aic_metrics=_enum(AicoreMetrics, opts.get("aic_metrics"), AicoreMetrics.AiCoreNone),
        l2_cache=bool(opts.get("l2_cache", False)),
        mstx=bool(opts.get("mstx", False)),
        data_simplification=bool(opts.get("data_simplification", True)),
        export_type=_enums(ExportType, opts.get("export_type"), [ExportType.Text]),
        host_sys=_enums(HostSystem, opts.get("host_sys"), []),
    )
    return Profile(
        activities=_enums(ProfilerActivity, opts.get("activities"), [ProfilerActivity.CPU, ProfilerActivity.NPU]),
        with_stack=bool(opts.get("with_stack", False)),
        profile_memory=bool(opts.get("profile_memory", False)),
        start_profile=start_profile,
        record_shapes=bool(opts.get("record_shapes", False)),
        schedule=sched,
        on_trace_ready=tensorboard_trace_handler(output_path, analyse_flag=bool(opts.get("analyse", True))),
        experimental_config=exp,
    )


class EnvProfiler:
    """Profiling the whole run from the environment: ``MS_PROFILER_OPTIONS`` holds a JSON object
    (``{"start": true, "output_path": "./prof", "profiler_level": "Level0", ...}``). :meth:`init_profiler`
    (called when sporax is imported with the variable set) starts a profiler when ``"start"`` is true;
    :meth:`analyse` (run at exit) stops it, which writes and analyses the session."""

    profiler: Profile | None = None

    @classmethod
    def init_profiler(cls) -> None:
        raw = os.environ.get("MS_PROFILER_OPTIONS")
        if not raw:
            return
        try:
            opts = json.loads(raw)
        except json.JSONDecodeError:
            opts = None
        if not isinstance(opts, dict):
            _log.error("Failed to load MS_PROFILER_OPTIONS, json decode error.")
            return
        if not opts.get("start", False) or cls.profiler is not None:
            return
        cls.profiler = _profile_from_options(opts, opts.get("output_path", "./data"), start_profile=False)
        cls.profiler.start()
        atexit.register(cls().analyse)

    def analyse(self) -> None:
        prof = type(self).profiler
        if prof is None:
            return
        type(self).profiler = None
        if prof._has_started:
            prof.stop()


class DynamicProfilerMonitor(Callback):
    """Profile the steps named in a JSON file that can be edited while training runs.

    The file is ``<cfg_path>/profiler_config.json`` (created with ``"start_step": -1`` when missing). When it
    holds ``"is_valid": true`` and a ``start_step``/``stop_step`` range not run yet, the monitor records
    those steps into ``<output_path>/rank<r>_start<a>_stop<b>`` and analyses them. The file is re-read at most
    every `poll_interval` seconds. Use it as a ``Model.train`` callback or call :meth:`step` after each step
    of a functional loop (steps are counted from 1).

    Args:
        cfg_path (str): The directory of ``profiler_config.json``.
        output_path (str, optional): Where sessions go. Default: ``"./dyn_profile_data"``.
        poll_interval (int, optional): Seconds between reads of the file. Default: ``2``.
    """

    _DEFAULT = {
        "start_step": -1,
        "stop_step": -1,
        "profiler_level": "Level0",
        "activities": ["CPU", "NPU"],
        "analyse": True,
        "analyse_mode": -1,
        "prof_path": "./",
        "is_valid": False,
    }

    def __init__(
        self,
        cfg_path: str | None = None,
        output_path: str = "./dyn_profile_data",
        poll_interval: int = 2,
        **kwargs: Any,
    ) -> None:
        if not isinstance(cfg_path, str):
            raise TypeError(
                f"For 'DynamicProfilerMonitor', the 'cfg_path' must be str, but got {type(cfg_path).__name__}."
            )
        if not isinstance(poll_interval, int) or isinstance(poll_interval, bool) or poll_interval < 1:
            _log.error("Poll interval must be an integer greater than 1, reset to 2.")
            poll_interval = 2
        self._cfg_json = os.path.realpath(os.path.join(cfg_path, "profiler_config.json"))
        self._output_path = output_path or "dyn_profile_data"
        self._poll_interval = poll_interval
        self._kwargs = kwargs
        if not os.path.exists(self._cfg_json):
            os.makedirs(cfg_path, exist_ok=True)
            with open(self._cfg_json, "w", encoding="utf-8") as f:
                json.dump(self._DEFAULT, f, indent=4)
        self._cfg: dict[str, Any] = {}
        self._read_at = -float("inf")
        self._profiler: Profile | None = None
        self._range: tuple[int, int] | None = None
        self._last_start: int | None = None
        self._step_num = 0
        self._begin(1)

    def _config(self) -> dict[str, Any]:
        now = time.monotonic()
        if now - self._read_at >= self._poll_interval:
            self._read_at = now
            try:
                with open(self._cfg_json, encoding="utf-8") as f:
                    cfg = json.load(f)
                self._cfg = cfg if isinstance(cfg, dict) else {}
            except (OSError, json.JSONDecodeError):
                self._cfg = {}
        return self._cfg

    def _begin(self, step: int) -> None:
        cfg = self._config()
        if not cfg.get("is_valid", False) or self._profiler is not None:
            return
        try:
            start, stop = int(cfg.get("start_step", -1)), int(cfg.get("stop_step", -1))
        except (TypeError, ValueError):
            return
        if start < 0 or start == self._last_start or step != start:
            return
        if stop < start:
            _log.error(f"Dynamic profiler stop_step {stop} is less than start_step {start}, skip.")
            return
        from .._engine import _parallel

        base = cfg.get("prof_path", "./")
        base = self._output_path if base in ("./", "", None) else base
        path = os.path.join(base, f"rank{_parallel.rank()}_start{start}_stop{stop}")
        sched = Schedule(wait=0, warmup=0, active=stop - start + 1, repeat=1, skip_first=0)
        self._profiler = _profile_from_options(cfg, path, start_profile=False, sched=sched)
        self._profiler.start()
        self._range, self._last_start = (start, stop), start
        print(f"[sporax profiler] Dynamic profiler start at step {start}, will stop at step {stop}", flush=True)

    def _end(self, step: int) -> None:
        if self._profiler is None or self._range is None:
            return
        self._profiler.step()
        if step >= self._range[1]:
            if self._profiler._has_started:
                self._profiler.stop()
            self._profiler, self._range = None, None
            print(f"[sporax profiler] Dynamic profiler stop at step {step}", flush=True)

    def step_begin(self, run_context: Any) -> None:
        self._begin(run_context.original_args().cur_step_num)

    def step_end(self, run_context: Any) -> None:
        self._end(run_context.original_args().cur_step_num)

    def on_train_end(self, run_context: Any) -> None:
        if self._profiler is not None and self._profiler._has_started:
            self._profiler.stop()
        self._profiler = None

    def step(self) -> None:
        """After each step of a functional training loop: ends the step just run, begins the next (a
        ``start_step`` of 1 starts recording when the monitor is created)."""
        self._step_num += 1
        self._end(self._step_num)
        self._begin(self._step_num + 1)
