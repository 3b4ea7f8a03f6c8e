"""Distributed-checkpoint fixtures recorded under real MindSpore 2.10 (its CPU build runs the checkpoint
transforms; semi-auto training itself needs Ascend/GPU devices).

    cd /tmp && /work/msvenv/bin/python /work/main/tools/make_parallel_reference.py

Writes tests/ut/parallel/fixtures/: two strategy files serialized with MindSpore's own ``node_strategy_pb2``
(4 source ranks -> 2 destination ranks; a column split, a 2x2 device matrix, a replicated bias, and an
optimizer-sharded moment), the 4 source ranks' checkpoints saved by ``mindspore.save_checkpoint``, the 2
destination checkpoints MindSpore's ``transform_checkpoints`` wrote from them, and reference.json (what
``build_searched_strategy``, ``rank_list_for_transform``, ``merge_sliced_parameter``, ``restore_group_info_list``,
``unified_safetensors`` returned, wrote or raised). tests/ut/parallel/test_checkpoint_transform.py compares sporax against them.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "ut" / "parallel" / "fixtures"

# name: (device matrix, tensor map, optimizer shard size, optimizer shard step)
SRC = {
    "w1": ([4], [-1, 0], 0, 0),  # columns over 4 ranks
    "w2": ([2, 2], [0, -1], 0, 0),  # rows over the device matrix's last axis
    "b": ([4], [-1], 0, 0),  # a copy on every rank
    "m": ([4], [-1, -1], 2, 1),  # replicated, then cut in 2 along axis 0 by the parallel optimizer
}
DST = {
    "w1": ([2], [0, -1], 0, 0),
    "w2": ([2], [-1, 0], 0, 0),
    "b": ([2], [-1], 0, 0),
    "m": ([2], [0, -1], 0, 0),
}
W = {
    "w1": np.arange(8 * 16, dtype=np.float32).reshape(8, 16),
    "w2": np.arange(16 * 4, dtype=np.float32).reshape(16, 4) + 1000,
    "b": np.arange(4, dtype=np.float32),
    "m": np.arange(8 * 4, dtype=np.float32).reshape(8, 4) - 50,
}


def scratch_dir():
    d = Path("/tmp/sporax_parallel_ref")
    d.mkdir(exist_ok=True)
    return d


def write_strategy(pb, path, layouts, stage=None):
    """A strategy file; with ``stage`` also one operator strategy of that pipeline stage (MindSpore's stage
    files have them)."""
    msg = pb.ParallelStrategyMap()
    msg.current_stage = 0
    if stage is not None:
        op = msg.parallel_strategy_item.add()
        op.node_name = f"Default/MatMul-op{stage}"
        op.parallel_strategys.stage = stage
        op.parallel_strategys.parallel_strategy.add().dim.extend([1, 4])
    for name, (dm, tm, osz, ost) in layouts.items():
        item = msg.parallel_layout_item.add()
        item.param_name = name
        lay = item.parallel_layouts
        lay.dev_matrix.add().dim.extend(dm)
        lay.tensor_map.add().dim.extend(tm)
        lay.param_split_shape.add()
        lay.indices_offset.add()
        lay.field = 0
        lay.opt_weight_shard_size = osz
        lay.opt_weight_shard_step = ost
    path.write_bytes(msg.SerializeToString())


def slice_for(name, rank):
    """What MindSpore's rank ``rank`` holds of W[name] under SRC (its rule: rank unravelled row-major over
    the device matrix; a tensor-map entry counts device-matrix axes from the right)."""
    a = W[name]
    if name == "w1":
        return a[:, rank * 4 : (rank + 1) * 4]
    if name == "w2":
        k = rank % 2
        return a[k * 8 : (k + 1) * 8]
    if name == "m":
        k = rank % 2
        return a[k * 4 : (k + 1) * 4]
    return a


def err(fn):
    try:
        return {"value": fn()}
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__, "message": str(e).split("\n")[0]}


def main():
    import mindspore as ms
    from mindspore import Parameter, Tensor
    from mindspore.train import node_strategy_pb2 as pb

    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    write_strategy(pb, OUT / "src_strategy.ckpt", SRC)
    write_strategy(pb, OUT / "dst_strategy.ckpt", DST)
    for r in range(4):
        (OUT / "src" / f"rank_{r}").mkdir(parents=True)
        ms.save_checkpoint(
            [{"name": n, "data": Tensor(np.ascontiguousarray(slice_for(n, r)))} for n in W],
            str(OUT / "src" / f"rank_{r}" / f"net{r}.ckpt"),
        )
    ms.transform_checkpoints(str(OUT / "src"), str(OUT / "dst"), "net", str(OUT / "src_strategy.ckpt"),
                             str(OUT / "dst_strategy.ckpt"))  # fmt: skip
    ref = {}
    strat = ms.build_searched_strategy(str(OUT / "src_strategy.ckpt"))
    ref["build_searched_strategy"] = {
        k: [list(v.dev_matrix[0].dim), list(v.tensor_map[0].dim), v.opt_weight_shard_size, v.opt_weight_shard_step]
        for k, v in strat.items()
    }
    ref["rank_list"] = {
        r: sorted(ms.rank_list_for_transform(r, str(OUT / "src_strategy.ckpt"), str(OUT / "dst_strategy.ckpt")))
        for r in range(2)
    }
    ref["rank_list_none"] = ms.rank_list_for_transform(1)
    ref["rank_list_order"] = ms.rank_list_for_transform(
        0, str(OUT / "src_strategy.ckpt"), str(OUT / "dst_strategy.ckpt")
    )
    ref["rank_list_same"] = {
        r: ms.rank_list_for_transform(r, str(OUT / "src_strategy.ckpt"), str(OUT / "src_strategy.ckpt"))
        for r in range(4)
    }
    ref["rank_list_back"] = {
        r: ms.rank_list_for_transform(r, str(OUT / "dst_strategy.ckpt"), str(OUT / "src_strategy.ckpt"))
        for r in range(4)
    }
    merged = ms.merge_sliced_parameter([Parameter(Tensor(slice_for("w1", r)), "w1") for r in range(4)], strat)
    ref["merge_w1"] = merged.asnumpy().tolist()
    ref["merge_axis0"] = (
        ms.merge_sliced_parameter([Parameter(Tensor(np.full((2, 3), r, np.float32)), "p") for r in range(3)])
        .asnumpy()
        .tolist()
    )
    ref["merge_errors"] = {
        "not_list": err(lambda: ms.merge_sliced_parameter((1, 2))),
        "empty": err(lambda: ms.merge_sliced_parameter([])),
        "strategy_type": err(lambda: ms.merge_sliced_parameter([Parameter(Tensor(np.ones(2)), "p")], [1])),
        "element": err(lambda: ms.merge_sliced_parameter([Parameter(Tensor(np.ones(2)), "p"), 3])),
    }
    ref["rank_id_type"] = err(lambda: ms.rank_list_for_transform("0", str(OUT / "src_strategy.ckpt")))
    ref["algo"] = {
        "bad_key": err(lambda: ms.set_algo_parameters(foo=1)),
        "bad_type": err(lambda: ms.set_algo_parameters(fully_use_devices=1)),
        "align": err(lambda: ms.set_algo_parameters(tensor_slice_align_size=0)),
        "get_bad": err(lambda: ms.get_algo_parameters("foo")),
    }
    ms.reset_algo_parameters()
    ref["algo_defaults"] = {
        k: ms.get_algo_parameters(k)
        for k in ("fully_use_devices", "elementwise_op_strategy_follow", "enable_algo_approxi", "algo_approxi_epsilon",
                  "tensor_slice_align_enable", "tensor_slice_align_size")
    }  # fmt: skip
    group = pb.ParallelGroupMap()
    item = group.parallel_group_item.add()
    item.group_name = "4-dp"
    item.parallel_group_ranks.dim.extend([0, 2])
    group.ckpt_restore_rank_list.dim.extend([0, 2])
    (OUT / "group_info.pb").write_bytes(group.SerializeToString())
    ref["restore_group_info_list"] = ms.restore_group_info_list(str(OUT / "group_info.pb"))
    layout = ms.Layout((2, 2, 2), ("dp", "sp", "mp"))
    ref["layout_dict"] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in layout("dp", "mp").to_dict().items()
                          if k != "alias_name"}  # fmt: skip
    ref["layout_tuple"] = list(Layout_map(layout(("dp", "sp"), "None").to_dict()["tensor_map"]))
    ref["layout_errors"] = {
        "matrix_type": err(lambda: ms.Layout([2, 2], ("a", "b"))),
        "len": err(lambda: ms.Layout((2, 2), ("a",))),
        "none": err(lambda: ms.Layout((2, 2), ("a", "None"))),
        "repeat": err(lambda: ms.Layout((2, 2), ("a", "a"))),
        "axis": err(lambda: ms.Layout((2, 2), ("a", "b"))("c")),
        "twice": err(lambda: ms.Layout((2, 2), ("a", "b"))("a", "a")),
    }
    ref["prim_repr"] = str(ms.ops.MatMul().shard(((2, 1), (1, 1))))
    ref["shard_errors"] = {
        "not_tuple": err(lambda: ms.ops.MatMul().shard([[2, 1], [1, 1]])),
        "element": err(lambda: ms.ops.MatMul().shard((1, 2))),
        "value": err(lambda: ms.ops.MatMul().shard(((2.0, 1), (1, 1)))),
        "out_only": err(lambda: ms.ops.MatMul().shard(None, ((1, 1),))),
    }
    # strategy files: errors, MindSpore's JSON form, and the pipeline stages merged
    ref["strategy_errors"] = {
        "missing": err(lambda: ms.build_searched_strategy(str(OUT / "missing.ckpt"))),
        "type": err(lambda: ms.build_searched_strategy(3)),
    }
    (OUT / "bad_strategy.ckpt").write_bytes(b"not a protobuf")
    ref["strategy_errors"]["bad"] = err(lambda: ms.build_searched_strategy(str(OUT / "bad_strategy.ckpt")))
    for e in ref["strategy_errors"].values():  # the fixtures' folder, wherever the tests run
        e["message"] = e["message"].replace(str(OUT), "<FIXTURES>")
    (OUT / "strategy.json").write_text(json.dumps({"current_stage": 0, "parallel_layout_item": {
        "w1": {"dev_matrix": [4], "tensor_map": [-1, 0], "field": 0, "opt_weight_shard_step": 0,
               "opt_weight_shard_size": 0}}}))  # fmt: skip
    js = ms.build_searched_strategy(str(OUT / "strategy.json"))
    ref["json_strategy"] = {k: [list(v.dev_matrix[0].dim), list(v.tensor_map[0].dim)] for k, v in js.items()}
    (OUT / "stages").mkdir()
    for stage, layouts in ((0, {"w1": SRC["w1"]}), (1, {"w2": SRC["w2"], "b": SRC["b"]})):
        write_strategy(pb, OUT / "stages" / f"stage{stage}.ckpt", layouts, stage)
    ms.merge_pipeline_strategys(str(OUT / "stages"), str(scratch_dir() / "merged.ckpt"))
    merged_map = pb.ParallelStrategyMap()
    merged_map.ParseFromString((scratch_dir() / "merged.ckpt").read_bytes())
    ref["merged_pipeline"] = {
        "current_stage": merged_map.current_stage,
        "names": sorted(it.param_name for it in merged_map.parallel_layout_item),
        "ops": len(merged_map.parallel_strategy_item),
    }
    # unified_safetensors: the source ranks' files as safetensors, merged (in a scratch folder)
    scratch = Path("/tmp/sporax_unified_ref")
    shutil.rmtree(scratch, ignore_errors=True)
    for r in range(4):
        d = ms.load_checkpoint(str(OUT / "src" / f"rank_{r}" / f"net{r}.ckpt"))
        (scratch / "src" / f"rank_{r}").mkdir(parents=True)
        ms.save_checkpoint([{"name": k, "data": v} for k, v in d.items()],
                           str(scratch / "src" / f"rank_{r}" / f"net{r}.safetensors"), format="safetensors")  # fmt: skip
    ms.unified_safetensors(str(scratch / "src"), str(OUT / "src_strategy.ckpt"), str(scratch / "out"))
    ref["unified_files"] = sorted(os.listdir(scratch / "out"))
    ref["unified_map"] = json.loads((scratch / "out" / "param_name_map.json").read_text())
    (OUT / "reference.json").write_text(json.dumps(ref, indent=1, sort_keys=True, default=_plain))
    for f in OUT.rglob("*"):
        f.chmod(0o755 if f.is_dir() else 0o644)
    print("wrote", OUT)


def Layout_map(tmap):  # noqa: N802
    return [list(t) if isinstance(t, tuple) else t for t in tmap]


def _plain(o):
    return o.tolist() if hasattr(o, "tolist") else str(o)


if __name__ == "__main__":
    os.chdir("/tmp")
    main()
