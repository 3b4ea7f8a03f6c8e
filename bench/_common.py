"""Helpers the bench scripts share: one-core pinning, the peers' interpreters, a line-JSON worker protocol
(the driver sends a request, the worker times it and answers), and the machine/version facts RESULTS.md
states."""

from __future__ import annotations

import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORE = os.environ.get("BENCH_CORE", "1")
XLA_ONE_THREAD = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
TORCH_PYTHON = os.environ.get("TORCH_PYTHON", "/work/venvs/torch/bin/python")


def _first_existing(*paths: str) -> str:
    return next((p for p in paths if os.path.exists(p)), paths[0])


MS_PYTHON = os.environ.get("MS_PYTHON") or _first_existing("/work/msvenv/bin/python", "/work/ms-venv/bin/python")


def pinned_env() -> dict[str, str]:
    """The environment of a pinned child: one OpenMP/MKL thread, XLA's CPU client on one thread."""
    return dict(
        os.environ,
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        OPENBLAS_NUM_THREADS="1",
        XLA_FLAGS=XLA_ONE_THREAD,
        GLOG_v="3",
        PYTHONWARNINGS="ignore",
    )


def pinned(cmd: list[str], core: str | None = None) -> list[str]:
    return ["taskset", "-c", core or CORE, *cmd] if shutil.which("taskset") else cmd


def maxrss_mb() -> float:
    """This process's peak resident set size, MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(step: Callable[[], Any], n: int, sync: Callable[[Any], Any]) -> float:
    """Seconds per call of ``step`` over ``n`` calls, waiting for the last result with ``sync``."""
    start = time.perf_counter()
    out = None
    for _ in range(n):
        out = step()
    sync(out)
    return (time.perf_counter() - start) / n


# ------------------------------------------------------------------------------------- worker protocol
def serve(handle: Callable[[dict], dict], ready: dict | None = None) -> None:
    """Answer line-JSON requests on stdin with ``handle(request)`` on the real stdout; whatever the code
    prints goes to stderr (profilers and compilers print)."""
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    if ready is not None:
        out.write(json.dumps(ready) + "\n")
        out.flush()
    for line in sys.stdin:
        req = json.loads(line)
        try:
            reply = handle(req)
        except Exception as exc:  # noqa: BLE001  (the driver reports it and goes on)
            reply = {"error": f"{type(exc).__name__}: {exc}"[:300]}
        out.write(json.dumps(reply) + "\n")
        out.flush()


class Worker:
    """A pinned child process answering line-JSON requests (see :func:`serve`)."""

    def __init__(
        self,
        cmd: list[str],
        wait_ready: bool = False,
        timeout: float = 900,
        env: dict | None = None,
        cwd: str = ROOT,
        core: str | None = None,
    ):
        self.proc = subprocess.Popen(
            pinned(cmd, core),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**pinned_env(), **(env or {})},
            cwd=cwd,
        )
        self.timeout = timeout
        self.ready = self._read() if wait_ready else None

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"worker {self.proc.args} ended (exit {self.proc.wait()})")
        return json.loads(line)

    def ask(self, **req: Any) -> dict:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)
        except Exception:  # noqa: BLE001
            self.proc.kill()


# ---------------------------------------------------------------------------------------------- facts
def _run(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd="/tmp").stdout.strip()
    except Exception:  # noqa: BLE001
        return ""


def machine_facts() -> dict[str, str]:
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu)
    except OSError:
        pass
    facts = {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "python": platform.python_version(),
        "sporax rev": _run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]),
        "load average (1/5/15 min) at start": " / ".join(f"{v:.1f}" for v in os.getloadavg()),
    }
    import jax
    import jaxlib

    facts["jax"], facts["jaxlib"] = jax.__version__, jaxlib.__version__
    facts["torch"] = (
        _run([TORCH_PYTHON, "-c", "import torch; print(torch.__version__)"]) if os.path.exists(TORCH_PYTHON) else ""
    ) or "absent"
    facts["mindspore"] = (
        _run([MS_PYTHON, "-c", "import mindspore; print(mindspore.__version__)"]) if os.path.exists(MS_PYTHON) else ""
    ) or "absent"
    return facts


def gemm_peak_gflops(n: int = 1024, reps: int = 10) -> float:
    """The core's float32 GEMM rate: best of ``reps`` n x n x n matmuls in XLA, GFLOP/s (run pinned)."""
    import jax
    import jax.numpy as jnp

    a = jnp.ones((n, n), jnp.float32)
    f = jax.jit(lambda x: x @ x)
    f(a).block_until_ready()
    best = min(timed(lambda: f(a), 1, lambda o: o.block_until_ready()) for _ in range(reps))
    return 2 * n**3 / best / 1e9
