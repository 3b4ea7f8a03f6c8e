"""mint.distributed, the ops communication functions and primitives, comm_func, point-to-point and object
collectives on 2 processes of `sporax launch -n 2` (one launch: scripts/comm_all.py; CPU over Gloo)."""

import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).parent / "scripts" / "comm_all.py"


def test_every_communication_family_on_two_ranks(tmp_path):
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
    assert (o0["rank"], o1["rank"], o0["size"], o0["initialized"]) == (0, 1, 2, True)
    for o in (o0, o1):  # the same on both ranks
        assert o["all_reduce"] == [3.0, 30.0] and o["avg"] == [1.5, 2.0]
        assert o["all_gather"] == [[0.0, 0.0], [1.0, 1.0]] and o["all_gather_into_tensor"] == [0.0, 0.0, 1.0, 1.0]
        assert o["broadcast"] == [6.0, 6.0] and o["reduce"] == [2.0, 2.0]  # rank 1 keeps its own tensor
        assert o["gather_uneven"] == [1.0, 2.0, 2.0] and o["AllGatherV"] == [1.0, 2.0, 2.0]
        assert o["all_gather_object"] == [{"rank": 0}, {"rank": 1}] and o["broadcast_object_list"] == ["a", 1]
        assert o["ops_prod"] == [2.0] and o["store"] == 3
    assert (o0["reduce_scatter_tensor"], o1["reduce_scatter_tensor"]) == ([3.0], [5.0])
    assert o0["gather"] == [[0.0, 0.0], [0.0, 0.0]] and o1["gather"] == [[0.0, 0.0], [1.0, 1.0]]
    assert (o0["scatter"], o1["scatter"]) == ([10.0, 11.0], [20.0, 21.0])
    assert o0["all_to_all"] == [[0.0, 0.0], [10.0, 10.0]] and o1["all_to_all"] == [[1.0, 1.0], [11.0, 11.0]]
    assert (o0["all_to_all_single"], o1["all_to_all_single"]) == ([0.0, 100.0, 101.0], [1.0, 2.0, 102.0])
    assert o1["recv"] == [1.0, 2.0, 3.0] and o1["irecv"] == [4.0]
    assert o1["recv_object_list"] == [{"from": 0}, [1, 2]]
    assert (o0["batch_isend_irecv"], o1["batch_isend_irecv"]) == ([1.0, 1.0], [0.0, 0.0])
    assert (o0["scatter_object_list"], o1["scatter_object_list"]) == ("for0", "for1")
    assert o0["gather_object"] == [0, 3] and o1["gather_object"] is None
    assert (o0["Reduce"], o1["Reduce"]) == ([3.0, 2.0], [0.0])
    assert o0["AlltoAll"] == [[0.0, 0.0], [1.0, 0.0]] and o1["AlltoAll"] == [[0.0, 1.0], [1.0, 1.0]]
    assert (o0["CollectiveScatter"], o1["CollectiveScatter"]) == ([[1.0, 0.0]], [[1.0, 1.0]])
    assert o1["Receive"] == [9.0, 8.0]
    assert o0["NeighborExchangeV2"] == [[[[1.0, 1.0], [1.0, 1.0], [2.0, 2.0]]]]  # MindSpore's documented example
    assert o1["NeighborExchangeV2"] == [[[[1.0, 1.0], [2.0, 2.0], [2.0, 2.0]]]]
    assert (o0["comm_func_reduce"], o1["comm_func_reduce"]) == ([0.0], [5.0, 2.0])
    assert (o0["comm_func_scatter"], o1["comm_func_scatter"]) == ([[0.0, 0.0]], [[0.0, 1.0]])
