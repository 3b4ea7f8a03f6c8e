"""How the runtime dispatches work (``mindspore.runtime`` executor settings), with the meaning XLA gives them."""

from __future__ import annotations

import json
import logging
import os
import re
from typing import Any

from .._engine import _device

__all__ = [
    "launch_blocking",
    "dispatch_threads_num",
    "set_cpu_affinity",
    "set_kernel_launch_group",
    "set_kernel_launch_capture",
]

_log = logging.getLogger("sporax")
_conf: dict[str, Any] = {}


def launch_blocking() -> None:
    """Run device work synchronously, so an error is raised at the op that caused it.

    On CPU this switches XLA:CPU's asynchronous dispatch off (each computation runs to its end before
    the call returns). On GPU, XLA keeps its device queue: errors surface at the next wait (``asnumpy()``,
    :func:`synchronize`)."""
    _device.set_launch_blocking()
    _conf["launch_blocking"] = True


def dispatch_threads_num(threads_num: int) -> None:
    """Set the number of runtime dispatch threads (MindSpore's default 5), once.

    Checked and recorded: XLA dispatches from the calling thread and sizes its own thread pools
    (``XLA_FLAGS=--xla_cpu_multi_thread_eigen``/``intra_op_parallelism_threads`` before start).

    Raises:
        TypeError: If `threads_num` is not an int.
        ValueError: If it is not positive.
        RuntimeError: If called a second time.
    """
    if "dispatch_threads_num" in _conf:
        raise RuntimeError("The 'dispatch_threads_num' can not be set repeatedly.")
    if isinstance(threads_num, bool) or not isinstance(threads_num, int):
        raise TypeError(f"The argument 'threads_num' must be type of int, but got {type(threads_num).__name__}.")
    if threads_num <= 0:
        raise ValueError(f"The 'threads_num' must be a positive integer, but got {threads_num}.")
    _conf["dispatch_threads_num"] = threads_num


_RANGE = re.compile(r"^(\d+-\d+|\d+)(,(\d+-\d+|\d+))*$")


def _expand(ranges: Any) -> list[int]:
    if isinstance(ranges, int) and not isinstance(ranges, bool):
        return [ranges]
    if not isinstance(ranges, str):
        raise TypeError(f"The parameter '{ranges}' must be str/int, but got {type(ranges)}")
    out: list[int] = []
    for seg in ranges.split(","):
        seg = seg.strip()
        if not seg:
            raise ValueError(f"CPU range '{ranges}' is invalid due to empty segment.")
        if "-" in seg:
            a, b = (int(v) for v in seg.split("-", 1))
            if a > b:
                raise ValueError(f"CPU range '{seg}' start should not exceed end.")
            out.extend(range(a, b + 1))
        else:
            out.append(int(seg))
    return out


def _cpus_for_this_rank(affinity_cpu_list: Any, module_to_cpu_dict: Any) -> list[int]:
    from .._engine import _parallel

    available = sorted(os.sched_getaffinity(0))
    if affinity_cpu_list:
        cpus = sorted({c for r in affinity_cpu_list for c in _expand(r)})
    else:  # split the available cores evenly among this machine's ranks
        n, r = max(_parallel.local_size(), 1), _parallel.local_rank()
        per = max(len(available) // n, 1)
        cpus = available[r * per : (r + 1) * per] or available
    if module_to_cpu_dict:
        picked = {cpus[i] for idx in module_to_cpu_dict.values() for i in idx if i < len(cpus)}
        cpus = sorted(picked) or cpus
    missing = [c for c in cpus if c not in available]
    if missing:
        raise RuntimeError(f"set_cpu_affinity: the CPUs {missing} are not available in this environment {available}.")
    return cpus


def set_cpu_affinity(
    enable_affinity: bool, affinity_cpu_list: Any = None, module_to_cpu_dict: Any = None, bind_file: Any = None
) -> None:
    """Bind this process to CPU cores, once.

    XLA has no per-module threads to bind (MindSpore binds its main, runtime, pynative and minddata threads
    separately): every thread of the process is bound to the union of the cores given, so XLA's CPU
    thread pools and the dataset workers started later run there.

    Args:
        enable_affinity (bool): Bind (True) or leave the process unbound (False).
        affinity_cpu_list (list[str] | dict, optional): This process's cores, as ranges (``["0-3", "8"]``), or
            ``{"device<i>": [...]}`` per device (this rank's local device). Default: ``None``: the available
            cores split evenly among this machine's ranks (``sporax launch``).
        module_to_cpu_dict (dict, optional): ``{"main": [0, 1], ...}``, indices into those cores; the union of
            the indices is used. Default: ``None``.
        bind_file (str, optional): An msrun bind file (JSON with ``"bind_cpu": {"device<i>": {module: ranges}}``).

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If a range or index is malformed, or `bind_file` cannot be read.
        RuntimeError: If called a second time, or a core is not available.
    """
    from .._engine import _parallel

    if isinstance(affinity_cpu_list, dict):
        affinity_cpu_list = affinity_cpu_list.get(f"device{_parallel.local_rank()}", False)
        if affinity_cpu_list is False:
            _log.warning(
                "'mindspore.runtime.set_cpu_affinity' is not enabled as wrong dict passed in to affinity_cpu_list."
            )
            return
    if "cpu_affinity" in _conf:
        raise RuntimeError("The 'mindspore.runtime.set_cpu_affinity' cannot be set repeatedly.")
    if not isinstance(enable_affinity, bool):
        raise TypeError(f"The parameter 'enable_affinity' must be bool, but got {type(enable_affinity)}")
    if not enable_affinity:
        _conf["cpu_affinity"] = None
        return
    if bind_file is not None:
        if not isinstance(bind_file, str):
            raise TypeError(f"The parameter 'bind_file' must be a string path, but got {type(bind_file)}")
        if not os.path.exists(bind_file):
            raise ValueError(f"The bind file '{bind_file}' does not exist.")
        try:
            with open(bind_file, encoding="utf-8") as f:
                conf = json.load(f)
        except json.JSONDecodeError as e:
            raise ValueError(f"Failed to parse bind file '{bind_file}' as JSON.") from e
        if not isinstance(conf, dict):
            raise ValueError(f"The bind file '{bind_file}' content must be a JSON object.")
        entry = conf.get("bind_cpu", {}).get(f"device{_parallel.local_rank()}", {})
        affinity_cpu_list = [str(v) for v in entry.values()] if isinstance(entry, dict) else None
        module_to_cpu_dict = None
    if affinity_cpu_list is not None:
        if not isinstance(affinity_cpu_list, list):
            raise TypeError(f"The parameter '{affinity_cpu_list}' must be list, but got {type(affinity_cpu_list)}")
        for r in affinity_cpu_list:
            if not isinstance(r, str):
                raise ValueError(f"CPU range '{r}' in '{affinity_cpu_list}' should be a string.")
            if not _RANGE.match(r):
                raise ValueError(
                    f"CPU range '{r}' in '{affinity_cpu_list}' should be in format 'cpuidX-cpuidY' or "
                    "'cpuidX,cpuidY,cpuidZ'."
                )
    if module_to_cpu_dict is not None:
        if not isinstance(module_to_cpu_dict, dict):
            raise TypeError(f"The parameter '{module_to_cpu_dict}' must be dict, but got {type(module_to_cpu_dict)}")
        for name, idx in module_to_cpu_dict.items():
            if not isinstance(idx, list):
                raise ValueError(f"The value of module_to_cpu_dict: {idx} should be a list.")
            for i in idx:
                if isinstance(i, bool) or not isinstance(i, int) or i < 0:
                    raise ValueError(
                        f"CPU index '{i}' for module '{name}' in '{idx}' should be a non-negative integer."
                    )
    cpus = _cpus_for_this_rank(affinity_cpu_list, module_to_cpu_dict)
    for tid in os.listdir("/proc/self/task") if os.path.isdir("/proc/self/task") else ["0"]:
        try:
            os.sched_setaffinity(int(tid), cpus)
        except OSError:
            pass
    _conf["cpu_affinity"] = cpus


def set_kernel_launch_group(thread_num: int = 2, kernel_group_num: int = 8) -> None:
    """Not supported: groups Ascend kernel launches across threads; XLA launches a compiled program's
    kernels itself.

    Raises:
        RuntimeError: Always.
    """
    raise RuntimeError(
        "For 'set_kernel_launch_group', kernel launch groups are only supported on Ascend: XLA launches each "
        "compiled program's kernels itself. Compile the step (GRAPH_MODE or jit) to launch it as one program."
    )


def set_kernel_launch_capture(enable_capture_graph: bool, op_capture_skip: Any = None) -> None:
    """Not supported: captures Ascend kernel launches into a graph; on XLA a compiled program is already one
    executable (on GPU, XLA uses CUDA graphs for it itself).

    Raises:
        RuntimeError: Always.
    """
    raise RuntimeError(
        "For 'set_kernel_launch_capture', kernel launch capture is only supported on Ascend: on XLA a compiled "
        "program (GRAPH_MODE or jit) already runs as one executable."
    )
