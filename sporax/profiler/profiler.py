"""``Profiler``, ``profile`` and ``tensorboard_trace_handler`` on ``jax.profiler``.

A profiler session writes, under ``output_path`` (default ``./data``)::

    <worker>_<timestamp>_sporax_ms/
        plugins/profile/<run>/<host>.xplane.pb      TensorBoard's profile plugin (xprof) opens it
        plugins/profile/<run>/<host>.trace.json.gz  Perfetto / chrome://tracing open it
        profiler_info.json                          the profiler's parameters and metadata
        memory_profile.prof                         with profile_memory: device memory by buffer (pprof)
        PROFILER_OUTPUT/                            written by analyse() / on_trace_ready
            op_statistic.csv    per operator type: count, total/min/avg/max time, ratio
            kernel_details.csv  one row per executed XLA operation
            trace_view.json     the Chrome trace, uncompressed

``tensorboard --logdir <output_path>`` shows every session (the Profile tab).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from .._engine import _profiler
from . import _analysis
from ._enums import AicoreMetrics, ExportType, ProfilerAction, ProfilerActivity, ProfilerLevel
from .schedule import _default_schedule_fn

__all__ = ["Profiler", "Profile", "tensorboard_trace_handler", "_ExperimentalConfig"]

_log = logging.getLogger("sporax")

PROFILER_STEP = "ProfilerStep"  # with its step_num (MindSpore names the range ProfilerStep#<n>)


class _ExperimentalConfig:
    """Extra options of ``profile`` (MindSpore's ``_ExperimentalConfig``). On XLA they are recorded in
    ``profiler_info.json``: `profiler_level`, `aic_metrics`, `l2_cache`, `mstx` ranges (see :class:`mstx`,
    always recorded), `export_type` (text files either way), host system options."""

    def __init__(
        self,
        profiler_level: ProfilerLevel = ProfilerLevel.Level0,
        aic_metrics: AicoreMetrics = AicoreMetrics.AiCoreNone,
        l2_cache: bool = False,
        mstx: bool = False,
        data_simplification: bool = True,
        export_type: list | None = None,
        mstx_domain_include: list | None = None,
        mstx_domain_exclude: list | None = None,
        sys_io: bool = False,
        sys_interconnection: bool = False,
        host_sys: list | None = None,
    ) -> None:
        self.profiler_level = profiler_level
        self.aic_metrics = aic_metrics
        self.l2_cache = l2_cache
        self.mstx = mstx
        self.data_simplification = data_simplification
        self.export_type = export_type if export_type is not None else [ExportType.Text]
        self.mstx_domain_include = mstx_domain_include or []
        self.mstx_domain_exclude = mstx_domain_exclude or []
        self.sys_io = sys_io
        self.sys_interconnection = sys_interconnection
        self.host_sys = host_sys or []

    def to_dict(self) -> dict[str, Any]:
        return {k: _jsonable(v) for k, v in vars(self).items()}


# (type, default) of every Profiler keyword, as MindSpore's ProfilerParameters.
_PARAMS: dict[str, tuple[Any, Any]] = {
    "output_path": (str, "./data"),
    "profiler_level": (ProfilerLevel, ProfilerLevel.Level0),
    "activities": (list, [ProfilerActivity.CPU, ProfilerActivity.NPU]),
    "aic_metrics": (AicoreMetrics, AicoreMetrics.AiCoreNone),
    "with_stack": (bool, False),
    "profile_memory": (bool, False),
    "data_process": (bool, False),
    "parallel_strategy": (bool, False),
    "start_profile": (bool, True),
    "l2_cache": (bool, False),
    "hbm_ddr": (bool, False),
    "pcie": (bool, False),
    "sys_io": (bool, False),
    "sys_interconnection": (bool, False),
    "host_sys": (list, []),
    "sync_enable": (bool, True),
    "data_simplification": (bool, True),
    "record_shapes": (bool, False),
    "export_type": (list, [ExportType.Text]),
    "mstx": (bool, False),
    "mstx_domain_include": (list, []),
    "mstx_domain_exclude": (list, []),
}


def _jsonable(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return [_jsonable(x) for x in v]
    if hasattr(v, "value") and hasattr(v, "name"):
        return v.value
    return v


def _params(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The profiler's parameters: unknown keywords and wrong types are logged and replaced by defaults."""
    exp = kwargs.pop("experimental_config", None)
    if exp is not None and isinstance(exp, _ExperimentalConfig):
        for k, v in vars(exp).items():
            kwargs.setdefault(k, v)
    out: dict[str, Any] = {}
    for name in kwargs:
        if name not in _PARAMS and name not in ("schedule", "on_trace_ready"):
            _log.warning(f"Profiler does not support the parameter '{name}', it will be ignored.")
    for name, (typ, default) in _PARAMS.items():
        value = kwargs.get(name)
        if value is None:
            value = list(default) if isinstance(default, list) else default
        elif not isinstance(value, typ) or (typ is not bool and isinstance(value, bool)):
            _log.warning(
                f"For Profiler, the parameter {name} must be {typ.__name__}, but got {value!r}. reset to {default}."
            )
            value = list(default) if isinstance(default, list) else default
        out[name] = value
    if isinstance(out["output_path"], str):
        out["output_path"] = os.path.abspath(out["output_path"])
    return out


class _Collector:
    """One profiler's sessions: the interface MindSpore's action controller drives (``init``, ``start``,
    ``stop``, ``finalize``, ``analyse``, ``clear``) over one ``jax.profiler`` trace at a time."""

    def __init__(self, params: dict[str, Any], metadata: dict[str, Any], worker: str | None) -> None:
        self.params = params
        self.metadata = metadata
        self.worker = worker or f"{socket.gethostname()}_{os.getpid()}"
        self.session: str | None = None
        self.run_dir: str | None = None
        self.tracing = False
        self.finished: list[tuple[str, str | None]] = []  # (session dir, run dir) of stopped sessions
        self.analysed: set[str] = set()

    def init(self) -> None:
        stamp = time.strftime("%Y%m%d%H%M%S") + f"{int(time.time() * 1000) % 1000:03d}"
        self.session = os.path.join(self.params["output_path"], f"{self.worker}_{stamp}_sporax_ms")
        n = 1
        while os.path.exists(self.session):
            self.session = os.path.join(self.params["output_path"], f"{self.worker}_{stamp}_{n}_sporax_ms")
            n += 1
        os.makedirs(self.session, exist_ok=True)

    def start(self) -> None:
        if self.session is None:
            self.init()
        level = {"LevelNone": 1, "Level0": 1, "Level1": 2, "Level2": 3}.get(self.params["profiler_level"].value, 1)
        try:
            _profiler.start_trace(str(self.session), host_level=level, python_stack=bool(self.params["with_stack"]))
            self.tracing = True
        except RuntimeError as err:  # another profiler records (one trace per process)
            _log.error(f"Profiler start failed: {err}")

    def stop(self) -> None:
        if self.session is None or not self.tracing:
            return
        self.tracing = False
        self.run_dir = _profiler.stop_trace()
        if self.params["profile_memory"]:
            _profiler.save_memory_profile(os.path.join(str(self.session), "memory_profile.prof"))

    def finalize(self) -> None:
        if self.session is None:
            return
        info = {k: _jsonable(v) for k, v in self.params.items()}
        info["metadata"] = dict(self.metadata)
        info["platform"] = _profiler.platform()
        with open(os.path.join(self.session, "profiler_info.json"), "w", encoding="utf-8") as f:
            json.dump(info, f, indent=1, default=str)
        self.finished.append((self.session, self.run_dir))

    def analyse(self, async_mode: bool = False, pretty: bool = False) -> None:
        """Write the tables of every session not analysed yet and print each op statistic table."""
        todo = [(s, r) for s, r in self.finished if s not in self.analysed and r is not None]
        self.analysed.update(s for s, _ in todo)
        if not todo:
            return

        def work() -> None:
            for session, run in todo:
                out = os.path.join(session, _analysis.OUTPUT_DIR)
                stats = _analysis.analyse_run(str(run), out, pretty)
                print(f"[sporax profiler] operator time, {os.path.join(out, _analysis.OP_STATISTIC)}:")
                print(_analysis.format_table(stats), flush=True)

        if async_mode:
            threading.Thread(target=work, daemon=False).start()
        else:
            work()

    def clear(self) -> None:
        self.session = None
        self.run_dir = None

    def delete_dir(self) -> None:
        if self.session is not None:
            shutil.rmtree(self.session, ignore_errors=True)


def _transitions(c: _Collector, ready: Callable[[], None]) -> dict[tuple[Any, Any], list[Callable[..., Any]]]:
    N, W, R, S = ProfilerAction.NONE, ProfilerAction.WARM_UP, ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE
    save = [c.stop, c.finalize, ready, c.clear]

    def warn(msg: str) -> Callable[[], None]:
        return lambda: _log.warning(msg)

    return {
        (N, W): [c.init],
        (N, R): [c.init, c.start],
        (N, S): [c.init, c.start],
        (W, N): [warn("Incorrect schedule: WARMUP followed by NONE"), c.start, c.stop, c.finalize, c.clear],
        (W, R): [c.start],
        (W, S): [c.start],
        (R, N): [warn("Incorrect schedule: RECORD followed by NONE"), c.stop, c.finalize, c.clear],
        (R, W): [warn("Incorrect schedule: RECORD followed by WARMUP"), c.stop, c.finalize, c.clear],
        (S, N): save,
        (S, W): [*save, c.init],
        (S, R): [*save, c.init, c.start],
        (S, S): [*save, c.init, c.start],
        (W, None): [
            warn(
                "Incorrect schedule: Stop profiler while current state is WARMUP which will result in empty parsed data."
            ),
            c.clear,
            c.delete_dir,
        ],
        (R, None): [c.stop, c.finalize, ready, c.clear],
        (S, None): [c.stop, c.finalize, ready, c.clear],
    }


class _ProfilerBase:
    """What ``Profiler`` and ``profile`` share: the schedule's state machine over a :class:`_Collector`."""

    def _setup(self, kwargs: dict[str, Any]) -> None:
        schedule = kwargs.pop("schedule", None)
        on_trace_ready = kwargs.pop("on_trace_ready", None)
        if on_trace_ready is not None and not callable(on_trace_ready):
            _log.warning("on_trace_ready is not callable, set by default.")
            on_trace_ready = None
        self._metadata: dict[str, Any] = {}
        self._params = _params(kwargs)
        handler = getattr(on_trace_ready, "_sporax_trace_handler", None)
        if handler is not None:  # tensorboard_trace_handler(dir_name, worker_name) says where data goes
            self._params["output_path"] = handler["dir_name"]
        self._collector = _Collector(self._params, self._metadata, handler["worker_name"] if handler else None)
        self.on_trace_ready = on_trace_ready
        if schedule is not None and callable(schedule):
            self.schedule: Callable[[int], ProfilerAction] = schedule
            self._record_steps = True
        else:
            if schedule is not None:
                _log.warning("schedule is not Callable, set by default.")
            self.schedule = _default_schedule_fn
            self._record_steps = False
        self._has_started = False
        self._step_mark: Any = None
        self.step_num = 0
        self.current_action: ProfilerAction = self.schedule(self.step_num)
        self._ready = lambda: self.on_trace_ready(self._collector) if self.on_trace_ready else None
        self._actions = _transitions(self._collector, self._ready)
        if self._params["start_profile"]:
            self.start()

    def _transit(self, prev: Any, cur: Any) -> None:
        for action in self._actions.get((prev, cur), []):
            action()

    def _close_step(self) -> None:
        """End the current step's range; with `sync_enable` (the default) after its device work has run, so
        the step's operations fall inside it (XLA dispatches asynchronously)."""
        if self._step_mark is not None:
            if self._params["sync_enable"]:
                _profiler.synchronize()
            self._step_mark.__exit__(None, None, None)
            self._step_mark = None

    def _mark_step(self) -> None:
        self._close_step()
        if self._record_steps and self._has_started and _profiler.tracing():
            self._step_mark = _profiler.step_annotation(PROFILER_STEP, self.step_num)
            self._step_mark.__enter__()

    def start(self) -> None:
        """Start collecting (the schedule's first action); a second call is logged and ignored."""
        if self._has_started:
            _log.warning("The profiler has already started. Do not turn on again in the open state.")
            return
        self._has_started = True
        self._transit(ProfilerAction.NONE, self.current_action)
        self._mark_step()

    def stop(self) -> None:
        """Stop collecting; the recorded session is saved and ``on_trace_ready`` is called with it."""
        if not self._has_started:
            _log.error("The profiler has not started. Do not turn off again in the closed state.")
            return
        self._has_started = False
        self._mark_step()
        self._transit(self.current_action, None)

    def step(self) -> None:
        """Mark the end of a training step: advances the schedule (warm-up, record, save)."""
        if not self._has_started:
            _log.error("Profiler is stopped, step takes no effect!")
            return
        prev = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._close_step()
        self._transit(prev, self.current_action)
        self._mark_step()

    def add_metadata(self, key: str, value: str) -> None:
        """Record a metadata pair in the session's ``profiler_info.json``."""
        if not isinstance(key, str) or not isinstance(value, str):
            _log.warning("The key and value of metadata must be string. Skip this metadata.")
            return
        if key in self._metadata:
            _log.warning(f"{key} is already saved as metadata, override it.")
        self._metadata[key] = value

    def add_metadata_json(self, key: str, value: str) -> None:
        """Record a metadata pair whose value is a JSON string (stored parsed)."""
        if not isinstance(key, str) or not isinstance(value, str):
            _log.warning("The key and value of metadata must be string. Skip this metadata.")
            return
        try:
            parsed = json.loads(value)
        except ValueError:
            _log.warning("The metadata value must be json format string. Skip this metadata")
            return
        if key in self._metadata:
            _log.warning(f"{key} is already saved as metadata, override it.")
        self._metadata[key] = parsed

    def __enter__(self) -> Any:
        if not self._has_started:
            self.start()
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        if self._has_started:
            self.stop()

    def __del__(self) -> None:
        try:
            if getattr(self, "_has_started", False) and not sys.is_finalizing():
                self.stop()
                _log.warning("Profiler is stopped at the end of the program.")
        except Exception:  # noqa: BLE001  (never raise from a finalizer)
            pass


class Profiler(_ProfilerBase):
    """Collects a trace of the training on ``jax.profiler``: the framework's host events, every XLA
    operation with its time, and the steps marked by :meth:`step`.

    Keyword Args:
        output_path (str): Where sessions are written. Default: ``"./data"``.
        start_profile (bool): Start collecting at once. Default: ``True``.
        schedule (schedule): Which steps are recorded (with :meth:`step`). Default: ``None``, every step.
        on_trace_ready (Callable): Called with the session when it is saved, e.g.
            :func:`tensorboard_trace_handler`. Default: ``None``.
        sync_enable (bool): With a schedule, each step's range ends after its device work has run, so
            ``step_trace_time.csv`` attributes the work to its step (XLA dispatches asynchronously).
            Default: ``True``.
        profiler_level (ProfilerLevel): The host tracer's detail (``Level0``: framework ranges and XLA ops,
            ``Level1``/``Level2``: more runtime events). XLA's op events are recorded at every level.
        with_stack (bool): Record the Python calls (jax's python tracer) in the trace. Default: ``False``.
        profile_memory (bool): Save the device memory held by live buffers when the session stops, as a
            pprof profile (``memory_profile.prof``). Default: ``False``.
        activities, aic_metrics, data_process, parallel_strategy, l2_cache, hbm_ddr, pcie,
        data_simplification, record_shapes, export_type, mstx, host_sys ...: MindSpore's other options,
        checked (a wrong type is logged and replaced by its default) and recorded in ``profiler_info.json``
        (they select Ascend/CANN data sources).

    :meth:`analyse` writes ``op_statistic.csv`` (time per operator type), ``kernel_details.csv`` and
    ``trace_view.json`` and prints the operator table. See ``docs/profiler.md``.

    Examples:
        >>> import sporax as ms
        >>> from sporax.profiler import Profiler
        >>> prof = Profiler(output_path="./prof_data")
        >>> # ... train ...
        >>> prof.analyse()
    """

    def __init__(self, **kwargs: Any) -> None:
        self._setup(dict(kwargs))

    def analyse(
        self, offline_path: Any = None, pretty: bool = False, step_list: Any = None, mode: str = "sync"
    ) -> None:
        """Stop collecting if running, then write and print the tables of the sessions collected.

        Args:
            offline_path (str, optional): Deprecated; use :meth:`offline_analyse`. Default: ``None``.
            pretty (bool, optional): Indent ``trace_view.json``. Default: ``False``.
            step_list (list, optional): Accepted (every recorded step is analysed). Default: ``None``.
            mode (str, optional): ``"sync"`` or ``"async"`` (analysed in a background thread). Default: ``"sync"``.
        """
        if offline_path:
            _log.warning(
                "The parameter 'offline_path' for Profiler.analyse() is deprecated, "
                "please use Profiler.offline_analyse() instead."
            )
        if mode not in ("sync", "async"):
            _log.warning(f"mode must be one of ['sync', 'async'], but got {mode!r}. reset to 'sync'.")
            mode = "sync"
        if self._has_started:
            on_ready, self.on_trace_ready = self.on_trace_ready, None
            self.stop()
            self.on_trace_ready = on_ready
        self._collector.analyse(async_mode=mode == "async", pretty=pretty)

    @classmethod
    def offline_analyse(
        cls, path: str, pretty: bool = False, step_list: Any = None, data_simplification: bool = True
    ) -> None:
        """Analyse the sessions saved under `path` (a ``*_sporax_ms`` directory or its parent)."""
        real = os.path.realpath(path)
        sessions = (
            [real]
            if real.endswith("_sporax_ms")
            else sorted(os.path.join(real, d) for d in os.listdir(real) if d.endswith("_sporax_ms"))
        )
        if not sessions:
            _log.error(f"Invalid path: {real}. Expected a *_sporax_ms directory or a parent directory of them")
            return
        for session in sessions:
            runs = (
                sorted(
                    (
                        os.path.join(session, "plugins", "profile", r)
                        for r in os.listdir(os.path.join(session, "plugins", "profile"))
                    ),
                    key=os.path.getmtime,
                )
                if os.path.isdir(os.path.join(session, "plugins", "profile"))
                else []
            )
            if runs:
                out = os.path.join(session, _analysis.OUTPUT_DIR)
                stats = _analysis.analyse_run(runs[-1], out, pretty)
                print(f"[sporax profiler] operator time, {os.path.join(out, _analysis.OP_STATISTIC)}:")
                print(_analysis.format_table(stats), flush=True)

    def op_analyse(self, op_name: Any, device_id: Any = None) -> str:
        """The executed operations whose type or name is `op_name` (a str or list of str), as a JSON string
        of ``kernel_details.csv`` rows."""
        names = (
            [op_name] if isinstance(op_name, str) else list(op_name) if isinstance(op_name, list | tuple) else [None]
        )
        if not all(isinstance(n, str) for n in names):
            raise TypeError("For 'op_analyse', the parameter 'op_name' must be str or list of str.")
        rows = []
        for _, run in self._collector.finished:
            if run is not None:
                rows += [r for r in _analysis.kernel_rows(run) if r["Type"] in names or r["Name"] in names]
        return json.dumps(rows)


class Profile(_ProfilerBase):
    """``mindspore.profiler.profile``: the profiler as a context manager with explicit options; see
    :class:`Profiler` for what is collected and written.

    Examples:
        >>> from sporax.profiler import profile, schedule, tensorboard_trace_handler
        >>> with profile(schedule=schedule(wait=0, warmup=1, active=2),
        ...              on_trace_ready=tensorboard_trace_handler("./prof")) as prof:
        ...     for step in range(3):
        ...         train_step()
        ...         prof.step()
    """

    def __init__(
        self,
        activities: Iterable[ProfilerActivity] | None = None,
        with_stack: bool = False,
        profile_memory: bool = False,
        data_process: bool = False,
        parallel_strategy: bool = False,
        start_profile: bool = True,
        hbm_ddr: bool = False,
        pcie: bool = False,
        sync_enable: bool = True,
        record_shapes: bool = False,
        schedule: Callable[[int], ProfilerAction] | None = None,
        on_trace_ready: Callable[..., Any] | None = None,
        experimental_config: _ExperimentalConfig | None = None,
    ) -> None:
        self._setup(
            {
                "activities": list(activities) if activities is not None else None,
                "with_stack": with_stack,
                "profile_memory": profile_memory,
                "data_process": data_process,
                "parallel_strategy": parallel_strategy,
                "start_profile": start_profile,
                "hbm_ddr": hbm_ddr,
                "pcie": pcie,
                "sync_enable": sync_enable,
                "record_shapes": record_shapes,
                "schedule": schedule,
                "on_trace_ready": on_trace_ready,
                "experimental_config": experimental_config,
            }
        )


def tensorboard_trace_handler(
    dir_name: str | None = None, worker_name: str | None = None, analyse_flag: bool = True, async_mode: bool = False
) -> Callable[[Any], None]:
    """An ``on_trace_ready`` callback: sessions go to `dir_name` (default ``"./data"``), named after
    `worker_name` (default ``<host>_<pid>``), and each saved session is analysed (its tables written and
    printed) when `analyse_flag` is True, in a background thread with `async_mode`."""
    if not isinstance(analyse_flag, bool):
        _log.warning("analyse_flag is not bool, set by default.")
        analyse_flag = True
    if not isinstance(async_mode, bool):
        _log.warning("async_mode is not bool, set by default.")
        async_mode = False
    if dir_name is not None and not isinstance(dir_name, str):
        _log.warning("dir_name is not str, set by default.")
        dir_name = None

    def handler_fn(prof_inst: Any) -> None:
        if analyse_flag:
            prof_inst.analyse(async_mode=async_mode)

    handler_fn._sporax_trace_handler = {  # type: ignore[attr-defined]
        "dir_name": os.path.abspath(dir_name or "./data"),
        "worker_name": worker_name if isinstance(worker_name, str) and worker_name else None,
    }
    return handler_fn
