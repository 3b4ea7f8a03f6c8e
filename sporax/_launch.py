"""``sporax launch`` / ``sporax msrun``: start a MindSpore script on N processes (ranks), on one machine or several.

Each rank is ``sporax run SCRIPT`` with the process group in its environment: ``SPORAX_COORDINATOR``
(rank 0's machine and port), ``SPORAX_NUM_PROCESSES``, ``SPORAX_PROCESS_ID``, ``SPORAX_LOCAL_RANK``,
``SPORAX_LOCAL_SIZE`` (read by ``_engine/_parallel``), and for the script's own use what MindSpore's msrun sets
for a worker: ``RANK_ID``, ``RANK_SIZE``, ``DEVICE_ID``, ``MS_WORKER_NUM``, ``MS_NODE_ID``, ``MS_ROLE``
(``MS_WORKER``), ``MS_SCHED_HOST``, ``MS_SCHED_PORT``, ``MS_TOPO_TIMEOUT`` (and ``MS_SIMULATION_LEVEL`` with
``--sim_level``), plus ``LOCAL_RANK``. On several machines, run the same command on each with its node rank.

The launcher supervises the job until every rank has ended; no process of the job outlives it:

* a rank that fails stops the others; a rank killed by a signal is named first (``rank 1 killed by SIGKILL``)
  and the launcher exits with 128 + that signal, otherwise with the failed rank's code;
* a rank that stops making progress while the others wait for it in a collective (a hang) ends the job after
  the timeout (``--cluster_time_out`` / ``SPORAX_HANG_TIMEOUT``, default 600 s, msrun's default; 0 or negative:
  wait forever), naming that rank and the collective the others wait in; exit code 124;
* SIGINT, SIGTERM and SIGHUP to the launcher signal every rank's process group, wait up to
  ``SPORAX_STOP_GRACE`` seconds (default 5), then SIGKILL them; the launcher exits with 128 + the signal. A
  launcher killed outright (SIGKILL) takes its ranks with it on Linux: each asked for SIGTERM at its death.

What the script wrote (checkpoints, logs) stays on disk. With a log directory each rank writes
``<log_dir>/worker_<rank>.log``; ``sporax msrun`` also writes ``scheduler.log`` there (the launcher's own record:
ranks started, exits, hangs, signals) and, with ``--join=True``, shows the worker logs on the console
(``--tail_worker_log``), as msrun does.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import IO, Any

__all__ = ["launch", "DEFAULT_PORT", "DEFAULT_TIMEOUT", "ENV_TIMEOUT", "ENV_PROGRESS", "HANG_EXIT_CODE"]

DEFAULT_PORT = 8118  # msrun's default master port
DEFAULT_TIMEOUT = 600  # seconds; msrun's default --cluster_time_out
ENV_TIMEOUT = "SPORAX_HANG_TIMEOUT"
ENV_GRACE = "SPORAX_STOP_GRACE"
ENV_PROGRESS = "SPORAX_PROGRESS_FILE"  # where a rank records the collectives it entered (_engine/_progress)
HANG_EXIT_CODE = 124
_STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


class _Signalled(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _child_env(
    rank: int,
    world: int,
    local_rank: int,
    local_size: int,
    master: tuple[str, int],
    timeout: float,
    progress: str,
    sim_level: int = -1,
) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SPORAX_COORDINATOR=f"{master[0]}:{master[1]}",
        SPORAX_NUM_PROCESSES=str(world),
        SPORAX_PROCESS_ID=str(rank),
        SPORAX_LOCAL_RANK=str(local_rank),
        SPORAX_LOCAL_SIZE=str(local_size),
        RANK_ID=str(rank),
        RANK_SIZE=str(world),
        DEVICE_ID=str(local_rank),
        LOCAL_RANK=str(local_rank),
        MS_WORKER_NUM=str(world),
        MS_NODE_ID=str(rank),
        MS_ROLE="MS_WORKER",
        MS_SCHED_HOST=master[0],
        MS_SCHED_PORT=str(master[1]),
        MS_TOPO_TIMEOUT=str(int(timeout)),
    )
    env[ENV_PROGRESS] = progress
    if sim_level >= 0:
        env["MS_SIMULATION_LEVEL"] = str(sim_level)
    return env


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def _cores_for(local: int, nproc: int) -> set[int] | None:
    """``--bind_core=True``: an equal share of this machine's cores per local rank."""
    try:
        cores = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None
    share = max(1, len(cores) // nproc)
    mine = cores[local * share : (local + 1) * share]
    return set(mine) if mine else None


def _in_child(cores: set[int] | None) -> Any:
    """What a rank does before it runs: bind its cores (``--bind_core``), and on Linux ask for SIGTERM when the
    launcher dies (even by SIGKILL), so that no rank is left running without it."""
    libc: Any = None
    if sys.platform.startswith("linux"):
        import ctypes
        import ctypes.util

        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        except OSError:
            libc = None
    parent = os.getpid()

    def setup() -> None:
        if cores:
            os.sched_setaffinity(0, cores)
        if libc is not None:
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
            if os.getppid() != parent:  # the launcher died before the call: do as it would have asked
                os.kill(os.getpid(), signal.SIGTERM)

    return setup


class _Log:
    """The launcher's own record (``scheduler.log`` under ``sporax msrun``) and its messages on stderr."""

    def __init__(self, path: str | None) -> None:
        self._f: IO[str] | None = open(path, "a", encoding="utf-8") if path else None  # noqa: SIM115

    def note(self, msg: str, console: bool = False) -> None:
        if self._f is not None:
            self._f.write(time.strftime("%Y-%m-%d %H:%M:%S ") + msg + "\n")
            self._f.flush()
        if console:
            print(f"sporax launch: {msg}", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._f is not None:
            self._f.close()


def _tee(src: Any, dst: IO[bytes], console: bool) -> None:
    """Copy a rank's output into its log file and, when tailed, onto the console."""
    out = sys.stdout.buffer
    for chunk in iter(lambda: src.read1(65536), b""):
        dst.write(chunk)
        dst.flush()
        if console:
            out.write(chunk)
            out.flush()


def _tailed(spec: str, local_ranks: list[int]) -> set[int]:
    """msrun's --tail_worker_log: "-1" all, else a comma list of ranks (out of range: none)."""
    if spec.strip() == "-1":
        return set(local_ranks)
    try:
        wanted = {int(x) for x in spec.split(",") if x.strip()}
    except ValueError:
        return set()
    return wanted & set(local_ranks)


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
    *,
    timeout: float | None = None,
    msrun: bool = False,
    join: bool = True,
    tail_worker_log: str = "-1",
    bind_core: bool = False,
    sim_level: int = -1,
    worker_log_name: str = "worker",
) -> int:
    """Run `script` on `nproc` ranks on this machine (of ``nproc * nnodes``); the exit code of the run.

    `timeout` (seconds; None: ``SPORAX_HANG_TIMEOUT`` or 600; 0 or negative: none) is how long a rank may stay
    behind the others' collective before the job is ended as hung. `msrun` adds msrun's ``scheduler.log`` and,
    with `join`, shows the ranks' logs (`tail_worker_log`) on the console."""
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
    if timeout is None:
        timeout = float(os.environ.get(ENV_TIMEOUT, DEFAULT_TIMEOUT))
    world = nproc * nnodes
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
    log = _Log(os.path.join(log_dir, "scheduler.log") if (msrun and log_dir) else None)
    progress_dir = tempfile.mkdtemp(prefix="sporax-launch-")
    ranks = [node_rank * nproc + local for local in range(nproc)]
    tailed = _tailed(tail_worker_log, ranks) if (msrun and join and log_dir) else set()
    files: list[IO[Any]] = []
    threads: list[threading.Thread] = []
    procs: list[tuple[int, subprocess.Popen[bytes]]] = []
    old_handlers = _install_handlers()
    try:
        for local, rank in enumerate(ranks):
            cmd = [sys.executable, "-m", "sporax", "run", *(run_options or []), script, *args]
            out: Any = None
            if log_dir:
                out = open(os.path.join(log_dir, f"{worker_log_name}_{rank}.log"), "wb")  # noqa: SIM115
                files.append(out)
            env = _child_env(
                rank,
                world,
                local,
                nproc,
                (master_addr, master_port),
                timeout,
                os.path.join(progress_dir, f"rank_{rank}"),
                sim_level,
            )
            cores = _cores_for(local, nproc) if bind_core else None
            p = subprocess.Popen(
                cmd,
                env=env,
                stdout=subprocess.PIPE if rank in tailed else out,
                stderr=subprocess.STDOUT if out else None,
                start_new_session=True,  # its own process group: stopping the job reaches its children too
                preexec_fn=_in_child(cores),  # noqa: PLW1509
            )
            if rank in tailed:
                t = threading.Thread(target=_tee, args=(p.stdout, out, True), daemon=True)
                t.start()
                threads.append(t)
            procs.append((rank, p))
            log.note(f"started rank {rank} (pid {p.pid}): {' '.join(cmd)}")
        if log_dir:
            where = os.path.join(log_dir, f"{worker_log_name}_<rank>.log")
            print(f"sporax launch: {nproc} ranks writing to {where}", flush=True)
        return _wait(procs, _Progress(progress_dir, ranks, timeout), log)
    except _Signalled as sig:
        name = _signal_name(sig.signum)
        log.note(f"received {name}: stopping every rank", console=True)
        _stop(procs)
        return 128 + sig.signum
    finally:
        _restore_handlers(old_handlers)
        _stop(procs, grace=0.0)  # nothing of the job survives the launcher (ranks' children included)
        for t in threads:
            t.join(timeout=2.0)
        for f in files:
            f.close()
        log.close()
        for name in os.listdir(progress_dir):
            os.unlink(os.path.join(progress_dir, name))
        os.rmdir(progress_dir)


def _install_handlers() -> dict[int, Any]:
    if threading.current_thread() is not threading.main_thread():
        return {}

    def handler(signum: int, frame: Any) -> None:
        raise _Signalled(signum)

    old: dict[int, Any] = {}
    for name in _STOP_SIGNALS:
        sig = getattr(signal, name, None)
        if sig is not None:
            old[sig] = signal.signal(sig, handler)
    return old


def _restore_handlers(old: dict[int, Any]) -> None:
    for sig, h in old.items():
        signal.signal(sig, h)


class _Progress:
    """How far each rank got: the number of collectives it entered (each rank's ``_engine/_progress`` writes
    ``"<count> <program>"`` to its file), and when that last changed (the launcher's clock)."""

    def __init__(self, directory: str, ranks: list[int], timeout: float) -> None:
        self.dir = directory
        self.timeout = timeout
        now = time.monotonic()
        self.state: dict[int, tuple[int, str, float]] = {r: (0, "", now) for r in ranks}
        self._next = now

    def _read(self, rank: int) -> tuple[int, str]:
        try:
            with open(os.path.join(self.dir, f"rank_{rank}"), "rb") as f:
                text = f.read(256).decode("utf-8", "replace").strip("\x00 \n")
        except OSError:
            return 0, ""
        count, _, what = text.partition(" ")
        return (int(count), what.strip()) if count.isdigit() else (0, "")

    def hung(self, live: set[int]) -> str | None:
        """A message naming the ranks that stopped behind the others' collective for ``timeout``, or None."""
        if self.timeout <= 0 or len(self.state) < 2:
            return None
        now = time.monotonic()
        if now < self._next:
            return None
        self._next = now + min(0.5, max(0.05, self.timeout / 4))
        for r, (count, _, _) in list(self.state.items()):
            new = self._read(r)
            if new[0] != count:
                self.state[r] = (new[0], new[1], now)
        waiting = {r: s for r, s in self.state.items() if r in live}
        if not waiting:
            return None
        top = max(s[0] for s in waiting.values())
        behind = {r: s for r, s in self.state.items() if s[0] < top and now - s[2] >= self.timeout}
        if not behind:
            return None
        waiters = sorted(r for r, s in waiting.items() if s[0] == top)
        what = waiting[waiters[0]][1]
        names = ", ".join(
            f"rank {r} (at collective #{c}{' ' + repr(w) if w else ''}, "
            f"{'exited' if r not in live else 'running'}, no progress for {now - t:.0f} s)"
            for r, (c, w, t) in sorted(behind.items())
        )
        ranks = "rank" if len(waiters) == 1 else "ranks"
        return (
            f"{names} stopped making progress, while {ranks} {', '.join(map(str, waiters))} wait in collective "
            f"#{top}{' ' + repr(what) if what else ''}; stopping the job (hang timeout {self.timeout:g} s: "
            f"--cluster_time_out or {ENV_TIMEOUT})."
        )


def _describe(rank: int, code: int) -> str:
    if code < 0:
        return f"rank {rank} killed by {_signal_name(-code)}"
    return f"rank {rank} exited with code {code}"


def _wait(procs: list[tuple[int, subprocess.Popen[bytes]]], progress: _Progress, log: _Log) -> int:
    running = list(procs)
    while running:
        done = [(rank, p, p.poll()) for rank, p in running]
        failed: list[tuple[int, int]] = [(rank, code) for rank, _, code in done if code]
        for rank, _, code in done:
            if code == 0:
                log.note(f"rank {rank} exited with code 0")
        running = [(rank, p) for rank, p, code in done if code is None]
        if failed:
            # A rank's failure makes the ranks waiting for it fail too: name every rank that stopped, the ones
            # killed by a signal first (the cause; the others' errors follow from it).
            time.sleep(0.5)
            failed += [(rank, code) for rank, p in running if (code := p.poll())]
            running = [(rank, p) for rank, p in running if p.poll() is None]
            failed.sort(key=lambda rc: (rc[1] >= 0, rc[0]))
            what = ", ".join(_describe(rank, code) for rank, code in failed)
            log.note(f"{what}; stopping the other ranks.", console=True)
            _stop(running)
            code = failed[0][1]
            return 128 - code if code < 0 else code
        hang = progress.hung({rank for rank, _ in running})
        if hang:
            log.note(hang, console=True)
            _stop(running)
            return HANG_EXIT_CODE
        time.sleep(0.05)
    return 0


def _stop(procs: list[tuple[int, subprocess.Popen[bytes]]], grace: float | None = None) -> None:
    """SIGTERM every rank's process group, wait up to `grace` seconds, then SIGKILL what is left."""
    if grace is None:
        grace = float(os.environ.get(ENV_GRACE, "5"))
    for _, p in procs:
        if grace > 0 and p.poll() is None:
            _killpg(p.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for _, p in procs:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        _killpg(p.pid, signal.SIGKILL)  # the rank if still there, and any child it left in its group
        p.wait()


def _killpg(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass
