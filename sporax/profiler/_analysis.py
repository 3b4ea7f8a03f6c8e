"""Turning a trace into MindSpore's tables: ``op_statistic.csv`` (time per operator type),
``kernel_details.csv`` (one row per executed operator), ``step_trace_time.csv`` (per marked step: computing,
communication and free time) and ``trace_view.json`` (the Chrome trace).

The operators are the XLA operations the trace recorded (``_engine/_profiler``). An XLA operation is
often a fusion of several HLO instructions; its type is the opcode of its main instruction (a
convolution or dot inside it first, else its root), so a convolution lowered to a GEMM shows as ``dot``
with JAX op ``conv_general_dilated``/``dot_general``.
"""

from __future__ import annotations

import csv
import gzip
import json
import os
import re
import shutil
from collections.abc import Sequence
from typing import Any

from .._engine import _profiler

OP_STATISTIC = "op_statistic.csv"
KERNEL_DETAILS = "kernel_details.csv"
STEP_TRACE = "step_trace_time.csv"
TRACE_VIEW = "trace_view.json"
OUTPUT_DIR = "PROFILER_OUTPUT"

STAT_HEADERS = [
    "OP Type",
    "Core Type",
    "Count",
    "Total Time(us)",
    "Min Time(us)",
    "Avg Time(us)",
    "Max Time(us)",
    "Ratio(%)",
]
DETAIL_HEADERS = ["Name", "Type", "JAX Op", "HLO Module", "Accelerator Core", "Start Time(us)", "Duration(us)"]

STEP_HEADERS = ["Step", "Computing(us)", "Communication(us)", "Free(us)", "Step Time(us)"]
_COLLECTIVES = {
    "all-reduce",
    "all-gather",
    "reduce-scatter",
    "collective-permute",
    "all-to-all",
    "collective-broadcast",
}

_SUFFIX = re.compile(r"\.\d+$")


def _name_type(op: str) -> str:
    """An op type from an HLO instruction name alone (``convolution.3`` -> ``convolution``)."""
    return _SUFFIX.sub("", op)


def kernel_rows(run_dir: str) -> list[dict[str, Any]]:
    """One row per executed XLA operation of the trace in `run_dir`, in start order."""
    xplane, _ = _profiler.trace_files(run_dir)
    if xplane is None:
        return []
    info = _profiler.hlo_op_info(xplane)
    core = _profiler.platform().upper()
    rows = []
    for module, op, start, dur in sorted(_profiler.xla_op_events(xplane), key=lambda e: e[2]):
        op_type, jax_op = info.get((module, op), (_name_type(op), ""))
        rows.append(
            {
                "Name": op,
                "Type": op_type,
                "JAX Op": jax_op,
                "HLO Module": module,
                "Accelerator Core": core,
                "Start Time(us)": round(start, 3),
                "Duration(us)": round(dur, 3),
            }
        )
    return rows


def op_statistic(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of ``op_statistic.csv``: per op type its count and total/min/avg/max time, by total time."""
    groups: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        groups.setdefault((r["Type"], r["Accelerator Core"]), []).append(float(r["Duration(us)"]))
    total = sum(sum(v) for v in groups.values()) or 1.0
    out: list[dict[str, Any]] = []
    for (op_type, core), durs in groups.items():
        s = sum(durs)
        out.append(
            {
                "OP Type": op_type,
                "Core Type": core,
                "Count": len(durs),
                "Total Time(us)": round(s, 3),
                "Min Time(us)": round(min(durs), 3),
                "Avg Time(us)": round(s / len(durs), 3),
                "Max Time(us)": round(max(durs), 3),
                "Ratio(%)": round(100.0 * s / total, 2),
            }
        )
    out.sort(key=lambda r: -float(r["Total Time(us)"]))
    return out


def step_trace(run_dir: str, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per marked step (``prof.step()`` under a schedule): the time of its computing and communication
    operations and the rest of the step (free: host work, waiting), in us."""
    xplane, _ = _profiler.trace_files(run_dir)
    if xplane is None:
        return []
    out = []
    for step, start, dur in _profiler.step_events(xplane):
        end = start + dur
        inside = [r for r in rows if start <= float(r["Start Time(us)"]) < end]
        comm = sum(float(r["Duration(us)"]) for r in inside if r["Type"] in _COLLECTIVES)
        comp = sum(float(r["Duration(us)"]) for r in inside if r["Type"] not in _COLLECTIVES)
        out.append(
            {
                "Step": step,
                "Computing(us)": round(comp, 3),
                "Communication(us)": round(comm, 3),
                "Free(us)": round(max(dur - comp - comm, 0.0), 3),
                "Step Time(us)": round(dur, 3),
            }
        )
    return out


def _write_csv(path: str, headers: list[str], rows: Sequence[dict[str, Any]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=headers)
        w.writeheader()
        w.writerows(rows)


def analyse_run(run_dir: str, out_dir: str, pretty: bool = False) -> list[dict[str, Any]]:
    """Write the tables of the trace in `run_dir` into `out_dir`; returns the op statistic rows."""
    os.makedirs(out_dir, exist_ok=True)
    rows = kernel_rows(run_dir)
    stats = op_statistic(rows)
    _write_csv(os.path.join(out_dir, KERNEL_DETAILS), DETAIL_HEADERS, rows)
    _write_csv(os.path.join(out_dir, OP_STATISTIC), STAT_HEADERS, stats)
    steps = step_trace(run_dir, rows)
    if steps:
        _write_csv(os.path.join(out_dir, STEP_TRACE), STEP_HEADERS, steps)
    _, trace = _profiler.trace_files(run_dir)
    if trace is not None:
        target = os.path.join(out_dir, TRACE_VIEW)
        if pretty:
            with gzip.open(trace, "rt", encoding="utf-8") as f:
                data = json.load(f)
            with open(target, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=1)
        else:
            with gzip.open(trace, "rb") as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
    return stats


def format_table(stats: Sequence[dict[str, Any]], limit: int = 20) -> str:
    """The op statistic as a text table (the first `limit` op types by total time)."""
    cols = ["OP Type", "Count", "Total Time(us)", "Avg Time(us)", "Ratio(%)"]
    body = [[str(r[c]) for c in cols] for r in list(stats)[:limit]]
    widths = [max(len(c), *(len(b[i]) for b in body)) if body else len(c) for i, c in enumerate(cols)]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cols, widths)))]
    lines.append("  ".join("-" * w for w in widths))
    for b in body:
        lines.append("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(b, widths))))
    if len(stats) > limit:
        lines.append(f"... {len(stats) - limit} more op types in {OP_STATISTIC}")
    return "\n".join(lines)
