"""nn.SyncBatchNorm across 2 processes of `sporax launch -n 2` (CPU over Gloo): each rank normalises its half of
the batch with the statistics of the whole batch, so outputs, moving statistics and input gradients equal a
BatchNorm2d over the whole batch, eagerly and under jit (scripts/syncbn_two_ranks.py)."""

import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).parent / "scripts" / "syncbn_two_ranks.py"


def test_syncbatchnorm_two_ranks_equals_batchnorm_on_the_whole_batch(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "sporax", "launch", "-n", "2", "--log-dir", "logs", str(SCRIPT)],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    logs = [(tmp_path / "logs" / f"worker_{i}.log").read_text() for i in range(2)]
    assert r.returncode == 0, r.stderr[-2000:] + logs[0][-2000:] + logs[1][-2000:]
    for i, text in enumerate(logs):
        o = json.loads(next(line for line in text.splitlines() if line.startswith("{")))
        assert o["rank"] == i and o["is_global"]
        for key in ("forward", "jit", "moving_mean", "moving_var", "grad_x", "grad_beta"):
            assert o[key] < 1e-5, (key, o[key])
        assert o["grad_gamma"] < 1e-4
