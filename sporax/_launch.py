"""``sporax launch``: start a MindSpore script on N processes (ranks), on one machine or several.

Each rank is ``sporax run SCRIPT`` with the process group in its environment: ``SPORAX_COORDINATOR``
(rank 0's machine and port), ``SPORAX_NUM_PROCESSES``, ``SPORAX_PROCESS_ID``, ``SPORAX_LOCAL_RANK``,
``SPORAX_LOCAL_SIZE`` (read by ``_engine/_parallel``), and for the script's own use MindSpore's
``RANK_ID``, ``RANK_SIZE``, ``DEVICE_ID`` and ``LOCAL_RANK``. On several machines, run the same command on
each with ``--nnodes``, its ``--node-rank`` and rank 0's ``--master-addr``/``--master-port``.

If a rank fails, the others are stopped and ``launch`` exits with the failed rank's code; what the
script wrote (checkpoints, logs) stays on disk.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from typing import IO, Any

__all__ = ["launch"]

DEFAULT_PORT = 8118  # msrun's default master port


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _child_env(rank: int, world: int, local_rank: int, local_size: int, coordinator: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SPORAX_COORDINATOR=coordinator,
        SPORAX_NUM_PROCESSES=str(world),
        SPORAX_PROCESS_ID=str(rank),
        SPORAX_LOCAL_RANK=str(local_rank),
        SPORAX_LOCAL_SIZE=str(local_size),
        RANK_ID=str(rank),
        RANK_SIZE=str(world),
        DEVICE_ID=str(local_rank),
        LOCAL_RANK=str(local_rank),
    )
    return env


def launch(
    script: str,
    args: list[str],
    nproc: int,
    nnodes: int = 1,
    node_rank: int = 0,
    master_addr: str = "127.0.0.1",
    master_port: int | None = None,
    log_dir: str | None = None,
    run_options: list[str] | None = None,
) -> int:
    """Run `script` on `nproc` ranks on this machine (of ``nproc * nnodes``); the exit code of the run."""
    if nproc < 1 or nnodes < 1 or not 0 <= node_rank < nnodes:
        print(
            f"sporax launch: need -n >= 1, --nnodes >= 1 and 0 <= --node-rank < --nnodes "
            f"(got -n {nproc}, --nnodes {nnodes}, --node-rank {node_rank})",
            file=sys.stderr,
        )
        return 2
    if not os.path.isfile(script):
        print(f"sporax launch: no such file: {script}", file=sys.stderr)
        return 2
    if master_port is None:
        master_port = _free_port() if nnodes == 1 else DEFAULT_PORT
    world = nproc * nnodes
    coordinator = f"{master_addr}:{master_port}"
    logs: list[IO[Any]] = []
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
    procs: list[tuple[int, subprocess.Popen[bytes]]] = []
    for local in range(nproc):
        rank = node_rank * nproc + local
        cmd = [sys.executable, "-m", "sporax", "run", *(run_options or []), script, *args]
        out: Any = None
        if log_dir:
            out = open(os.path.join(log_dir, f"worker_{rank}.log"), "wb")  # noqa: SIM115 - closed below
            logs.append(out)
        env = _child_env(rank, world, local, nproc, coordinator)
        procs.append((rank, subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT if out else None)))
    if log_dir:
        print(f"sporax launch: {nproc} ranks writing to {os.path.join(log_dir, 'worker_<rank>.log')}", flush=True)
    try:
        return _wait(procs)
    except KeyboardInterrupt:
        _stop(procs)
        return 130
    finally:
        for f in logs:
            f.close()


def _wait(procs: list[tuple[int, subprocess.Popen[bytes]]]) -> int:
    running = list(procs)
    while running:
        done = [(rank, p, p.poll()) for rank, p in running]
        failed = [(rank, code) for rank, _, code in done if code]
        running = [(rank, p) for rank, p, code in done if code is None]
        if failed:
            # A rank's failure makes the ranks waiting for it fail too: name every rank that stopped.
            time.sleep(0.5)
            failed += [(rank, p.poll()) for rank, p in running if p.poll()]
            running = [(rank, p) for rank, p in running if p.poll() is None]
            what = ", ".join(f"rank {rank} exited with code {code}" for rank, code in failed)
            print(f"sporax launch: {what}; stopping the other ranks.", file=sys.stderr, flush=True)
            _stop(running)
            return failed[0][1]
        time.sleep(0.05)
    return 0


def _stop(procs: list[tuple[int, subprocess.Popen[bytes]]], grace: float = 5.0) -> None:
    for _, p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for _, p in procs:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
