"""`sporax msrun` / `sporax launch` as MindSpore users call them, and the launcher's faults (issues 13 and 19):
an unmodified msrun launch script, the environment msrun sets per rank, per-rank logs and scheduler.log; a
hung rank named after the timeout; SIGTERM/SIGHUP tear the whole job down (no process survives); a rank
killed by a signal is reported first. Subprocess tests with short timeouts; docs/reliability.md names them."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

import pytest

SCRIPTS = pathlib.Path(__file__).parent / "launch_scripts"
BIN = os.path.dirname(sys.executable)  # the `sporax` console script of this environment


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = BIN + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def sporax(*args: str, cwd, timeout: float = 90, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sporax", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=_env(**env),
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def test_unmodified_msrun_script(tmp_path):
    port = _free_port()
    (tmp_path / "run.sh").write_text(
        "#!/bin/bash\n"
        f"sporax msrun --worker_num=2 --local_worker_num=2 --master_port={port} --log_dir=msrun_log "
        f"--join=True {SCRIPTS / 'env_allreduce.py'}\n"
    )
    r = subprocess.run(["bash", "run.sh"], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=_env())
    assert r.returncode == 0, r.stderr[-3000:]
    logs = tmp_path / "msrun_log"
    assert sorted(os.listdir(logs)) == ["scheduler.log", "worker_0.log", "worker_1.log"]
    for rank in range(2):
        line = next(x for x in (logs / f"worker_{rank}.log").read_text().splitlines() if x.startswith("RESULT "))
        got = json.loads(line[len("RESULT ") :])
        assert got["rank"] == rank and got["size"] == 2 and got["sum"] == [3.0, 3.0]
        assert got["env"] == {
            "RANK_ID": str(rank),
            "RANK_SIZE": "2",
            "DEVICE_ID": str(rank),
            "MS_WORKER_NUM": "2",
            "MS_NODE_ID": str(rank),
            "MS_ROLE": "MS_WORKER",
            "MS_SCHED_HOST": "127.0.0.1",
            "MS_SCHED_PORT": str(port),
        }
    assert r.stdout.count("RESULT ") == 2  # --join=True: the worker logs are tailed to the console
    sched = (logs / "scheduler.log").read_text()
    assert "started rank 0" in sched and "rank 1 exited with code 0" in sched


def test_msrun_defaults_log_to_the_working_directory(tmp_path):
    port = _free_port()
    r = sporax(
        "msrun",
        "--worker_num=1",
        "--local_worker_num=1",
        f"--master_port={port}",
        "--worker_log_name=w_{hostname}",
        str(SCRIPTS / "env_allreduce.py"),
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    host = socket.gethostname()
    assert sorted(os.listdir(tmp_path)) == sorted(["scheduler.log", f"w_{host}_0.log"])
    assert "RESULT " in (tmp_path / f"w_{host}_0.log").read_text() and "RESULT " not in r.stdout  # no --join


def test_msrun_options_are_checked(capsys):
    from sporax.cli import main

    script = str(SCRIPTS / "env_allreduce.py")
    assert main(["msrun", "--worker_num=3", "--local_worker_num=2", script]) == 2
    assert "must be a multiple of the ranks on this machine" in capsys.readouterr().err
    assert main(["msrun", "--worker_num=4", "--local_worker_num=2", script]) == 2
    assert "needs its --node_rank" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["launch", "--sim_level=7", script])
    assert "--sim_level" in capsys.readouterr().err


def test_a_hung_rank_is_named(tmp_path):
    start = time.monotonic()
    r = sporax("launch", "-n", "2", "--cluster_time_out", "2", str(SCRIPTS / "hang.py"), cwd=tmp_path)
    assert r.returncode == 124, r.stderr[-3000:]
    line = next(x for x in r.stderr.splitlines() if "stopped making progress" in x)
    assert line.startswith("sporax launch: rank 1 (at collective #2")  # joined (#1), passed the first barrier
    assert "while rank 0 wait in collective #3 'all_reduce'" in line and "--cluster_time_out" in line
    assert "must not get here" not in r.stdout
    assert time.monotonic() - start < 45


def test_a_rank_killed_by_a_signal_is_reported_first(tmp_path):
    r = sporax("launch", "-n", "2", str(SCRIPTS / "killed.py"), cwd=tmp_path)
    assert r.returncode == 128 + signal.SIGKILL, r.stderr[-3000:]
    line = next(x for x in r.stderr.splitlines() if x.startswith("sporax launch: rank"))
    assert line.startswith("sporax launch: rank 1 killed by SIGKILL")


@pytest.mark.parametrize(
    ("sig", "mode"), [(signal.SIGTERM, "plain"), (signal.SIGHUP, "stubborn"), (signal.SIGKILL, "plain")]
)
def test_signals_tear_the_whole_job_down(tmp_path, sig, mode):
    launcher = subprocess.Popen(
        [sys.executable, "-m", "sporax", "launch", "-n", "2", str(SCRIPTS / "sleeper.py"), str(tmp_path), mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(SPORAX_STOP_GRACE="1"),
    )
    try:
        deadline = time.monotonic() + 60
        while not all((tmp_path / f"pids_{r}").exists() for r in range(2)):
            assert launcher.poll() is None and time.monotonic() < deadline, launcher.communicate()[1][-3000:]
            time.sleep(0.1)
        pids = [int(p) for r in range(2) for p in (tmp_path / f"pids_{r}").read_text().split()]
        launcher.send_signal(sig)
        _, err = launcher.communicate(timeout=30)
    finally:
        if launcher.poll() is None:
            launcher.kill()
    if sig == signal.SIGKILL:  # the launcher dies at once; its ranks asked for SIGTERM at its death
        assert launcher.returncode == -sig
    else:
        assert launcher.returncode == 128 + sig
        assert f"received {signal.Signals(sig).name}: stopping every rank" in err
    deadline = time.monotonic() + 10
    while [p for p in pids if _alive(p)] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in pids if _alive(p)]  # ranks (a stubborn one too) and their children


def test_data_parallel_step_carries_index_checks(tmp_path):
    r = sporax("launch", "-n", "2", str(SCRIPTS / "dp_bad_label.py"), cwd=tmp_path)
    assert r.returncode == 1, r.stderr[-3000:]
    assert "the label must be in range [0, 2], but got 5. (found after running the compiled" in r.stderr
    assert "sporax launch: rank 1 exited with code 1" in r.stderr
    assert "rank 1 after the bad step" not in r.stdout
