"""Resume N -> M: a semi-auto job of 4 ranks saves each rank's slices and its strategy file; a job of 2
ranks loads them (load_distributed_checkpoint merges the slices) and trains on with the loss sequence of an
uninterrupted 2-rank run from that point (and of the 4-rank job going on). Simulated CPU devices, one
subprocess per job (resume_worker.py)."""

import json
import os
import pathlib
import subprocess
import sys

WORKER = pathlib.Path(__file__).parent / "resume_worker.py"


def job(mode, n, tmp_path):
    env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={n}")
    r = subprocess.run(
        [sys.executable, str(WORKER), mode, str(n), str(tmp_path)], capture_output=True, text=True, env=env, timeout=300
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_resume_four_ranks_on_two(tmp_path):
    saved = job("save", 4, tmp_path)
    assert saved["split"] == {"w1": [1, 4], "w2": [4, 1]}  # each rank saved a quarter of each weight
    assert sorted(os.listdir(tmp_path / "ckpt")) == [f"rank_{r}" for r in range(4)]
    resumed = job("resume", 2, tmp_path)
    assert resumed["ranks"] == 4
    for a, b, c in zip(resumed["resumed"], resumed["whole"], saved["losses"]):
        assert abs(a - b) < 1e-5 and abs(a - c) < 1e-5
