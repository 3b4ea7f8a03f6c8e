"""Dataset.send / Dataset.recv between the pipelines of 2 processes (`sporax launch -n 2`, CPU over Gloo)."""

import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).parent / "scripts" / "send_recv.py"


def test_dataset_send_recv_two_ranks(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "sporax", "launch", "-n", "2", "--log-dir", "logs", str(SCRIPT)],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    logs = [(tmp_path / "logs" / f"worker_{i}.log").read_text() for i in range(2)]
    assert r.returncode == 0, r.stderr[-2000:] + logs[0][-2000:] + logs[1][-2000:]
    o0, o1 = (json.loads(next(line for line in text.splitlines() if line.startswith("{"))) for text in logs)
    # rank 1 receives rank 0's first row (dtypes and shapes kept), then a Tensor sent as such
    assert o1["row"] == [[[0.0, 1.0], "Float32"], [0, "Int32"]]
    assert o1["tensor"] == [[[7, 7, 7], [7, 7, 7]], "Int64"]
    # recv from the own rank reads this dataset's next row
    assert o0["own"] == [[2.0, 3.0], 1]
