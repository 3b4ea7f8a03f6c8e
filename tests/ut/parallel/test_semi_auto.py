"""Semi-auto parallel on XLA's SPMD partitioner, on 4 and 8 simulated CPU devices (one subprocess each: the
device count is fixed when JAX starts). See semi_auto_worker.py for the cases: a column- then row-split
MatMul pair (tuple strategies), the same with Layouts, Cell.shard with a parameter plan and ms.shard, the
parallel optimizer, and a 2-stage pipeline over micro-batches. Each trains to the weights of one-device
training (1e-5)."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

WORKER = pathlib.Path(__file__).parent / "semi_auto_worker.py"


def run_worker(n, tmp_path):
    dump = tmp_path / "hlo"
    env = dict(os.environ)
    env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={n} --xla_dump_to={dump} --xla_dump_hlo_as_text"
    r = subprocess.run(
        [sys.executable, str(WORKER), str(n), str(dump)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("n", [4, 8])
def test_semi_auto_parallel_trains_as_one_device(n, tmp_path):
    out = run_worker(n, tmp_path)
    # column split then row split: the weights end split as the strategies say, and XLA all-reduces the
    # row split's partial sums
    mp = out["mp"]
    assert mp["diff"] < 1e-5 and mp["loss_diff"] < 1e-5
    assert mp["w1"] == [1, n] and mp["w2"] == [n, 1]
    # strategy_ckpt_config's save_file: MindSpore's strategy file, written when the step compiled
    assert mp["strategy_file"] == {"w1": [[1, 1, n], [-1, 0]], "w2": [[1, n, 1], [1, -1]]}
    # the only collective: the row split's partial output (16 x 4 float32) all-reduced, once: TrainOneStepCell
    # runs one forward for the loss and the gradient (ops.composite._grad.forward_and_grads)
    assert mp["comm"] == {"all-reduce": 16 * 4 * 4}
    # layouts: a 2 x n/2 device matrix, dp on the batch, mp on the weights
    lay = out["layout"]
    assert lay["diff"] < 1e-5 and lay["w1"] == [1, n // 2] and lay["w2"] == [n // 2, 1]
    assert lay["reshard"] == [2, n // 2] and lay["reshard_value"] == 0.0  # reshard(x, layout("dp", "mp"))
    # Cell.shard's parameter plan places the weight; ms.shard splits the function's input batch
    cs = out["cell_shard"]
    assert cs["diff"] < 1e-5 and cs["placed"] == [1, n] and cs["fn"] < 1e-5 and cs["fn_cut"] == [n, 1]
    # the parallel optimizer: Adam's moments split along dimension 0 over optimizer_weight_shard_size devices
    opt = out["opt_shard"]
    assert opt["diff"] < 1e-5 and opt["moment"] == [n // 2, 1]
    assert opt["functional_diff"] < 1e-5 and opt["functional_moment"] == [n // 2, 1]  # a jit step, no TrainOneStepCell
    # pipeline: 2 micro-batches, loss = sum of their means = twice the batch mean; weights as one device
    # AUTO_PARALLEL without strategies: data parallel over every device (the gradients all-reduced)
    assert out["auto"]["diff"] < 1e-5 and out["auto"]["comm"].get("all-reduce", 0) >= (8 * 16 + 16 * 4) * 4
    # dataset_strategy ((2, n/2), (n, 1)): each step input laid out by its own strategy
    assert out["dataset_strategy"] == [[2, n // 2], [n, 1]]
    # Model.infer_*_layout: MindSpore's parameter_layout_dict ([device matrix, tensor map, ...]), no update
    inf = out["infer"]
    want = {"w1": [[1, 1, n], [-1, 0]], "w2": [[1, n, 1], [1, -1]]}
    assert inf["predict"] == want and inf["train"] == want and inf["unchanged"] == 0.0
    assert inf["standalone"] == "Infer predict layout only supports semi auto parallel and auto parallel mode."
    pp = out["pipeline"]
    assert pp["diff"] < 1e-5
    assert abs(pp["loss0"] - 2 * out["ref_loss0"]) < 1e-5
    assert abs(pp["interleaved"] - 4 * out["ref_loss0"]) < 1e-5
