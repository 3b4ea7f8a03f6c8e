"""Data parallel on 2 processes started by `sporax launch -n 2` (CPU collectives over Gloo).

Each rank trains on its shard of every batch; with mean-reduced losses and ``gradients_mean=True`` the
averaged gradient is the gradient of the whole batch, so the ranks' weights must stay identical and equal
a single process trained on the whole batches (to float32 rounding)."""

import json
import os
import pathlib
import subprocess
import sys
import time

import numpy as np
import pytest

SCRIPTS = pathlib.Path(__file__).parent / "dp_scripts"


def sporax(*args, cwd, timeout=180):
    return subprocess.run(
        [sys.executable, "-m", "sporax", *args], capture_output=True, text=True, timeout=timeout, cwd=cwd
    )


def test_collectives_on_two_ranks(tmp_path):
    r = sporax("launch", "-n", "2", "--log-dir", "logs", str(SCRIPTS / "collectives.py"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    logs = [(tmp_path / "logs" / f"worker_{i}.log").read_text() for i in range(2)]
    assert not any("Gloo" in text for text in logs)
    outs = [json.loads(next(line for line in text.splitlines() if line.startswith("{"))) for text in logs]
    assert [o["rank"] for o in outs] == [0, 1] and all(o["size"] == 2 for o in outs)
    for o in outs:  # rank i holds i + 1
        assert o["sum"] == [[3.0] * 3] * 2
        assert (o["max"], o["min"], o["prod"], o["int_sum"]) == (2.0, 1.0, 2.0, 3)
        assert o["gather"] == [1.0, 1.0, 2.0, 2.0]
        assert o["broadcast"] == 2.0
        assert o["jit"] == 7.0  # (2 + 4) + 1
        assert o["func_all_reduce"] == 3.0 and o["func_gather_shape"] == [4, 3] and o["func_broadcast"] == 1.0
    assert outs[0]["reduce_scatter"] == [0.0, 3.0] and outs[1]["reduce_scatter"] == [6.0, 9.0]


@pytest.mark.parametrize(
    ("style", "mode"),
    [
        ("cell", "graph"),
        ("cell", "pynative"),
        ("functional", "pynative"),
        ("functional", "graph"),
        ("model_sink", "graph"),
    ],
)
def test_two_ranks_train_as_one_process_on_the_whole_batch(style, mode, tmp_path):
    script = str(SCRIPTS / "train.py")
    one = sporax("run", script, style, mode, str(tmp_path), cwd=tmp_path)
    assert one.returncode == 0, one.stderr[-3000:]
    two = sporax("launch", "-n", "2", script, style, mode, str(tmp_path), cwd=tmp_path)
    assert two.returncode == 0, two.stderr[-3000:]
    w1 = np.load(tmp_path / "w_1_0.npy")
    r0, r1 = np.load(tmp_path / "w_2_0.npy"), np.load(tmp_path / "w_2_1.npy")
    np.testing.assert_array_equal(r0, r1)  # the ranks apply the same averaged gradient
    np.testing.assert_allclose(r0, w1, rtol=1e-5, atol=1e-6)
    init = np.load(tmp_path / "w_1_0.npy")  # training moved the weights
    assert np.abs(init).sum() > 0


def test_model_train_step_by_step_on_two_ranks(tmp_path):
    script = str(SCRIPTS / "train.py")
    two = sporax("launch", "-n", "2", script, "model", "graph", str(tmp_path), cwd=tmp_path)
    assert two.returncode == 0, two.stderr[-3000:]
    one = sporax("run", script, "model", "graph", str(tmp_path), cwd=tmp_path)
    assert one.returncode == 0, one.stderr[-3000:]
    r0, r1 = np.load(tmp_path / "w_2_0.npy"), np.load(tmp_path / "w_2_1.npy")
    np.testing.assert_array_equal(r0, r1)
    np.testing.assert_allclose(r0, np.load(tmp_path / "w_1_0.npy"), rtol=1e-5, atol=1e-6)


def test_parameter_broadcast_gives_every_rank_rank_0_weights(tmp_path):
    r = sporax("launch", "-n", "2", "--log-dir", "logs", str(SCRIPTS / "broadcast_params.py"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    logs = [(tmp_path / "logs" / f"worker_{i}.log").read_text() for i in range(2)]
    rows = [next(line.split()[1:] for line in text.splitlines() if line.startswith("broadcast")) for text in logs]
    (_, before0, after0), (_, before1, after1) = rows
    assert before0 != before1 and after0 == after1 == before0


def test_a_failing_rank_stops_the_launch(tmp_path):
    start = time.monotonic()
    r = sporax("launch", "-n", "2", str(SCRIPTS / "fail.py"), cwd=tmp_path, timeout=120)
    assert r.returncode == 1
    assert "ValueError: rank 1 fails on purpose" in r.stderr
    launcher = next(line for line in r.stderr.splitlines() if line.startswith("sporax launch:"))
    assert "rank 1 exited with code 1" in launcher and launcher.endswith("stopping the other ranks.")
    assert "JaxRuntimeError" not in r.stderr
    assert "must not get here" not in r.stdout
    assert time.monotonic() - start < 60


def test_log_dir_holds_one_log_per_rank(tmp_path):
    r = sporax("launch", "-n", "2", "--log-dir", "logs", str(SCRIPTS / "fail.py"), cwd=tmp_path)
    assert r.returncode == 1
    assert sorted(os.listdir(tmp_path / "logs")) == ["worker_0.log", "worker_1.log"]
    assert "rank 1 fails on purpose" in (tmp_path / "logs" / "worker_1.log").read_text()
    assert "fails on purpose" not in r.stdout + r.stderr and "2 ranks writing to" in r.stdout


def test_launch_argument_errors(tmp_path):
    r = sporax("launch", "-n", "0", "x.py", cwd=tmp_path)
    assert r.returncode == 2 and "need -n >= 1" in r.stderr
    r = sporax("launch", "-n", "2", "missing.py", cwd=tmp_path)
    assert r.returncode == 2 and "no such file: missing.py" in r.stderr
