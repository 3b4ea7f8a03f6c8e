"""Semi-auto parallel across 2 processes (`sporax launch -n 2`, one CPU device each, the mesh spanning
both; XLA's collectives over Gloo): a column- then row-split MLP, fed the whole batch on every rank
(full_batch=True) or each rank its part (MindSpore's default), the parallel optimizer, a 2-stage pipeline
(PipelineCell, PipelineGradReducer) and Model.train with a dataset sink train to the weights of one process
on the whole batch (1e-5)."""

import pathlib
import subprocess
import sys

import numpy as np

SCRIPT = pathlib.Path(__file__).parent / "parallel_scripts" / "semi_auto.py"


def sporax(*args, cwd):
    return subprocess.run([sys.executable, "-m", "sporax", *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_semi_auto_on_two_processes_trains_as_one(tmp_path):
    one = sporax("run", str(SCRIPT), str(tmp_path), cwd=tmp_path)
    assert one.returncode == 0, one.stderr[-3000:]
    two = sporax("launch", "-n", "2", "--log-dir", "logs", str(SCRIPT), str(tmp_path), cwd=tmp_path)
    assert two.returncode == 0, (two.stderr + (tmp_path / "logs" / "worker_0.log").read_text())[-3000:]
    w1, w2 = np.load(tmp_path / "semi_1.npz"), np.load(tmp_path / "semi_2.npz")
    assert sorted(w1.files) == sorted(w2.files) == [
        "Adam_part_w1", "Adam_part_w2", "Momentum_full_w1", "Momentum_full_w2", "Momentum_part_w1", "Momentum_part_w2",
        "Pipeline_w1", "Pipeline_w2", "Sink_w1", "Sink_w2",
    ]  # fmt: skip
    for k in w1.files:
        np.testing.assert_allclose(w2[k], w1[k], atol=1e-5)
