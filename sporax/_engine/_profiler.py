"""The profiler's engine: ``jax.profiler`` traces and the XLA op events read back from them.

A trace session writes ``<log_dir>/plugins/profile/<run>/<host>.xplane.pb`` (TensorBoard's profile plugin,
xprof, opens it) and ``<host>.trace.json.gz`` (a Chrome trace: Perfetto and ``chrome://tracing`` open it).
:func:`xla_op_events` reads the executed XLA operations back from the ``.xplane.pb`` with jaxlib's own
reader (``jax.profiler.ProfileData``); :func:`hlo_op_info` decodes the HLO modules that the trace embeds
(a small protobuf wire-format reader, no protobuf package needed) to name what each op computes: the
HLO opcode of a fusion's main instruction (``convolution``, ``dot``, ...) and the JAX primitive it came from.
"""

from __future__ import annotations

import glob
import os
import threading
from collections.abc import Iterator
from typing import Any

import jax

from ._device import SYNC_MODULE, synchronize

_lock = threading.Lock()
_state: dict[str, Any] = {"dir": None}


def start_trace(log_dir: str, host_level: int = 2, python_stack: bool = True) -> None:
    """Start collecting a trace into `log_dir` (one session per process, as jax allows). `host_level` is the
    host tracer's verbosity (1-3; XLA's op events are recorded at every level), `python_stack` records the
    Python calls (the python tracer)."""
    with _lock:
        if _state["dir"] is not None:
            raise RuntimeError("The profiler has already started.")
        os.makedirs(log_dir, exist_ok=True)
        synchronize()  # work queued before the start stays out of the trace
        options = jax.profiler.ProfileOptions()
        options.host_tracer_level = host_level
        options.python_tracer_level = 1 if python_stack else 0
        jax.profiler.start_trace(log_dir, profiler_options=options)
        _state["dir"] = log_dir


def save_memory_profile(path: str) -> None:
    """The device memory held by live buffers now, as a pprof profile (``pprof -http=: path``)."""
    jax.profiler.save_device_memory_profile(path)


def stop_trace() -> str | None:
    """Stop the session and write its files; returns the run directory written (None if none was running)."""
    with _lock:
        log_dir = _state["dir"]
        if log_dir is None:
            return None
        before = set(glob.glob(os.path.join(log_dir, "plugins", "profile", "*")))
        synchronize()  # the work queued while tracing runs into the trace
        jax.profiler.stop_trace()
        _state["dir"] = None
    runs = sorted(set(glob.glob(os.path.join(log_dir, "plugins", "profile", "*"))) - before, key=os.path.getmtime)
    if not runs:
        runs = sorted(glob.glob(os.path.join(log_dir, "plugins", "profile", "*")), key=os.path.getmtime)
    return runs[-1] if runs else None


def tracing() -> bool:
    return _state["dir"] is not None


def step_annotation(name: str, step: int) -> Any:
    """A context marking one training step in the trace (xprof's step view reads it)."""
    return jax.profiler.StepTraceAnnotation(name, step_num=step)


def annotation(name: str) -> Any:
    """A context marking a named range in the trace."""
    return jax.profiler.TraceAnnotation(name)


def block_until_ready(x: Any) -> Any:
    return jax.block_until_ready(x)


def platform() -> str:
    return jax.default_backend()


# ------------------------------------------------------------------------------ reading a trace back
def xla_op_events(xplane_path: str) -> list[tuple[str, str, float, float]]:
    """The XLA operations the trace recorded: ``(hlo_module, hlo_op, start_us, duration_us)``, on the host
    CPU threads (XLA:CPU) and on the devices' kernel lines (GPU)."""
    from jax.profiler import ProfileData

    data = ProfileData.from_file(xplane_path)
    device: list[tuple[str, str, float, float]] = []
    host: list[tuple[str, str, float, float]] = []
    for plane in data.planes:
        if plane.name == "/host:metadata":
            continue
        lines = list(plane.lines)
        # a GPU plane has an "XLA Ops" line and the same ops again on its stream lines: count them once
        ops_lines = [ln for ln in lines if ln.name == "XLA Ops"]
        out = device if plane.name.startswith("/device:") else host
        for line in ops_lines or lines:
            for ev in line.events:
                stats = dict(ev.stats)
                op = stats.get("hlo_op")
                if op is None:
                    continue
                module = str(stats.get("hlo_module", ""))
                if module == SYNC_MODULE:  # synchronize()'s marker, not the user's work
                    continue
                out.append((module, str(op), ev.start_ns / 1e3, ev.duration_ns / 1e3))
    # where devices report their ops (GPU), host-side launch records of the same ops are not op time
    return device or host


def step_events(xplane_path: str, name: str = "ProfilerStep") -> list[tuple[int, float, float]]:
    """The steps marked in the trace (:func:`step_annotation`): ``(step_num, start_us, duration_us)``."""
    from jax.profiler import ProfileData

    out = []
    for plane in ProfileData.from_file(xplane_path).planes:
        for line in plane.lines:
            for ev in line.events:
                if ev.name == name:
                    stats = dict(ev.stats)
                    out.append((int(stats.get("step_num", -1)), ev.start_ns / 1e3, ev.duration_ns / 1e3))
    return sorted(out, key=lambda e: e[1])


def _varint(b: bytes, i: int) -> tuple[int, int]:
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def _fields(b: bytes) -> Iterator[tuple[int, Any]]:
    """(field number, value) of one protobuf message: ints for varints, bytes for the rest."""
    i, n = 0, len(b)
    while i < n:
        key, i = _varint(b, i)
        f, wt = key >> 3, key & 7
        v: Any
        if wt == 0:
            v, i = _varint(b, i)
        elif wt == 1:
            v, i = b[i : i + 8], i + 8
        elif wt == 5:
            v, i = b[i : i + 4], i + 4
        elif wt == 2:
            ln, i = _varint(b, i)
            v, i = b[i : i + ln], i + ln
        else:
            raise ValueError(f"unsupported protobuf wire type {wt}")
        yield f, v


def _first(fl: list[tuple[int, Any]], n: int, default: Any = None) -> Any:
    return next((v for f, v in fl if f == n), default)


def _text(v: Any) -> str:
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else ""


# Which instruction names a fusion: the first of these opcodes found in it, else its root.
_MAIN_OPCODES = (
    "convolution",
    "dot",
    "custom-call",
    "select-and-scatter",
    "reduce-window",
    "scatter",
    "gather",
    "sort",
    "reduce",
    "all-reduce",
    "all-gather",
    "reduce-scatter",
    "collective-permute",
    "all-to-all",
)


def hlo_op_info(xplane_path: str) -> dict[tuple[str, str], tuple[str, str]]:
    """``{(hlo_module, hlo_op): (op_type, jax_op)}`` from the HLO modules the trace embeds.

    ``op_type`` is the HLO opcode of the instruction, or for a fusion the opcode of its main instruction
    (a convolution or dot inside it first); ``jax_op`` is the JAX primitive named in its metadata
    (``dot_general``, ``conv_general_dilated``...), or ``""``. Empty when the file cannot be decoded."""
    try:
        with open(xplane_path, "rb") as f:
            data = f.read()
        return _decode_hlo_info(data)
    except (OSError, ValueError, IndexError):
        return {}


def _decode_hlo_info(data: bytes) -> dict[tuple[str, str], tuple[str, str]]:
    info: dict[tuple[str, str], tuple[str, str]] = {}
    for f, plane in _fields(data):  # XSpace.planes
        if f != 1:
            continue
        pl = list(_fields(plane))
        if _first(pl, 2) != b"/host:metadata":
            continue
        for pf, entry in pl:
            if pf != 4:  # XPlane.event_metadata (map entries)
                continue
            meta = _first(list(_fields(entry)), 2)
            if not isinstance(meta, bytes):
                continue
            for mf, stat in _fields(meta):
                if mf != 5:  # XEventMetadata.stats
                    continue
                proto = _first(list(_fields(stat)), 6)  # XStat.bytes_value: an HloProto
                if isinstance(proto, bytes):
                    _read_hlo_module(proto, info)
    return info


def _read_hlo_module(hlo_proto: bytes, info: dict[tuple[str, str], tuple[str, str]]) -> None:
    module = _first(list(_fields(hlo_proto)), 1)
    if not isinstance(module, bytes):
        return
    ml = list(_fields(module))
    name = _text(_first(ml, 1))
    comps: dict[int, list[tuple[str, str, str, list[int]]]] = {}
    for f, comp in ml:
        if f != 3:
            continue
        cl = list(_fields(comp))
        instrs = []
        for cf, ins in cl:
            if cf != 2:
                continue
            il = list(_fields(ins))
            md = _first(il, 7)
            jax_op = _text(_first(list(_fields(md)), 2)) if isinstance(md, bytes) else ""
            called: list[int] = []
            for x, c in il:
                if x == 38:
                    if isinstance(c, bytes):
                        j = 0
                        while j < len(c):
                            v, j = _varint(c, j)
                            called.append(v)
                    else:
                        called.append(c)
            instrs.append((_text(_first(il, 1)), _text(_first(il, 2)), jax_op.rsplit("/", 1)[-1], called))
        comps[_first(cl, 5, 0)] = instrs

    def main_of(cid: int, depth: int = 0) -> tuple[str, str] | None:
        found: dict[str, str] = {}
        for _, opcode, jax_op, called in comps.get(cid, []):
            if opcode in _MAIN_OPCODES:
                found.setdefault(opcode, jax_op)
            elif opcode == "fusion" and depth < 4:
                for c in called:
                    sub = main_of(c, depth + 1)
                    if sub is not None:
                        found.setdefault(sub[0], sub[1])
        for opcode in _MAIN_OPCODES:
            if opcode in found:
                return opcode, found[opcode]
        return None

    for comp in comps.values():
        for ins_name, opcode, jax_op, called in comp:
            if opcode == "fusion":
                main = None
                for c in called:
                    main = main_of(c)
                    if main is not None:
                        break
                if main is None:
                    body = comps.get(called[0], []) if called else []
                    ops = [o for _, o, _, _ in body if o not in ("parameter", "bitcast", "constant", "tuple")]
                    main = (ops[-1] if ops else "fusion", next((j for _, o, j, _ in reversed(body) if j), jax_op))
                info[(name, ins_name)] = (main[0], main[1] or jax_op)
            else:
                info[(name, ins_name)] = (opcode, jax_op)


def trace_files(run_dir: str) -> tuple[str | None, str | None]:
    """The run's ``.xplane.pb`` and ``.trace.json.gz`` (None where absent)."""
    xp = sorted(glob.glob(os.path.join(run_dir, "*.xplane.pb")))
    tj = sorted(glob.glob(os.path.join(run_dir, "*.trace.json.gz")))
    return (xp[0] if xp else None, tj[0] if tj else None)
