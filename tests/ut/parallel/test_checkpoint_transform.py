"""mindspore.parallel's strategy files and distributed checkpoints against MindSpore 2.10.

The fixtures (tools/make_parallel_reference.py) were written by MindSpore: two strategy files (4 ranks -> 2
ranks), the 4 source ranks' checkpoints, and the 2 checkpoints MindSpore's transform_checkpoints wrote from
them. sporax reads MindSpore's files, writes byte-identical strategy files, and re-slices to MindSpore's
result; a network loads the merged parameters under any layout.
"""

import json
import os
import pathlib

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops, parallel
from sporax.parallel import _strategy as st

FIX = pathlib.Path(__file__).parent / "fixtures"
REF = json.loads((FIX / "reference.json").read_text())
SRC, DST = str(FIX / "src_strategy.ckpt"), str(FIX / "dst_strategy.ckpt")


def raised(fn):
    with pytest.raises(Exception) as info:
        fn()
    return {"error": type(info.value).__name__, "message": str(info.value).split("\n")[0]}


def load(path):
    return {k: v.asnumpy() for k, v in ms.load_checkpoint(str(path)).items()}


def whole():
    """The whole parameters, merged from the 4 source ranks with MindSpore's layouts."""
    return {k: v.asnumpy() for k, v in
            parallel.load_distributed_checkpoint(None, [str(FIX / "src" / f"rank_{r}" / f"net{r}.ckpt") for r in range(4)],
                                                 train_strategy_filename=SRC, return_param_dict=True).items()}  # fmt: skip


def test_build_searched_strategy_reads_mindsporess_file():
    got = parallel.build_searched_strategy(SRC)
    assert {
        k: [list(v.dev_matrix[0].dim), list(v.tensor_map[0].dim), v.opt_weight_shard_size, v.opt_weight_shard_step]
        for k, v in got.items()
    } == REF["build_searched_strategy"]
    assert ms.train.build_searched_strategy is parallel.build_searched_strategy is ms.build_searched_strategy
    errs = REF["strategy_errors"]

    def named(fn):
        got = raised(fn)
        return dict(got, message=got["message"].replace(str(FIX), "<FIXTURES>"))

    assert named(lambda: parallel.build_searched_strategy(str(FIX / "missing.ckpt"))) == errs["missing"]
    assert named(lambda: parallel.build_searched_strategy(3)) == errs["type"]
    assert named(lambda: parallel.build_searched_strategy(str(FIX / "bad_strategy.ckpt"))) == errs["bad"]
    # MindSpore's JSON form of a strategy file
    js = parallel.build_searched_strategy(str(FIX / "strategy.json"))
    assert {k: [list(v.dev_matrix[0].dim), list(v.tensor_map[0].dim)] for k, v in js.items()} == REF["json_strategy"]


def test_strategy_file_written_byte_identical(tmp_path):
    layouts = st.read_layouts(SRC)
    st.write_strategy_file(str(tmp_path / "s.ckpt"), layouts)
    assert (tmp_path / "s.ckpt").read_bytes() == (FIX / "src_strategy.ckpt").read_bytes()


def test_rank_list_for_transform():
    for r in range(2):
        assert sorted(parallel.rank_list_for_transform(r, SRC, DST)) == REF["rank_list"][str(r)]
    assert parallel.rank_list_for_transform(0, SRC, DST) == REF["rank_list_order"]  # highest first
    assert parallel.rank_list_for_transform(1) == REF["rank_list_none"]
    assert raised(lambda: parallel.rank_list_for_transform("0", SRC)) == REF["rank_id_type"]
    assert parallel.rank_list_for_convert is parallel.rank_list_for_transform
    # the same layout: each rank reads only its own checkpoint; 2 -> 4 ranks: both source ranks
    for r in range(4):
        assert parallel.rank_list_for_transform(r, SRC, SRC) == REF["rank_list_same"][str(r)]
        assert parallel.rank_list_for_transform(r, DST, SRC) == REF["rank_list_back"][str(r)]


def test_transform_checkpoints_matches_mindspore(tmp_path):
    parallel.transform_checkpoints(str(FIX / "src"), str(tmp_path), "net", SRC, DST)
    for r in range(2):
        got, want = load(tmp_path / f"rank_{r}" / f"net{r}.ckpt"), load(FIX / "dst" / f"rank_{r}" / f"net{r}.ckpt")
        assert got.keys() == want.keys()
        for k in want:
            np.testing.assert_array_equal(got[k], want[k])
    # by rank, from the files rank_list_for_transform names
    files = {r: str(FIX / "src" / f"rank_{r}" / f"net{r}.ckpt") for r in parallel.rank_list_for_transform(1, SRC, DST)}
    parallel.transform_checkpoint_by_rank(1, files, str(tmp_path / "one.ckpt"), SRC, DST)
    for k, v in load(FIX / "dst" / "rank_1" / "net1.ckpt").items():
        np.testing.assert_array_equal(load(tmp_path / "one.ckpt")[k], v)
    # with only the files rank_list_for_transform names: the same layout needs rank 3's own file alone
    own = {r: str(FIX / "src" / f"rank_{r}" / f"net{r}.ckpt") for r in parallel.rank_list_for_transform(3, SRC, SRC)}
    parallel.transform_checkpoint_by_rank(3, own, str(tmp_path / "three.ckpt"), SRC, SRC)
    for k, v in load(FIX / "src" / "rank_3" / "net3.ckpt").items():
        np.testing.assert_array_equal(load(tmp_path / "three.ckpt")[k], v)
    assert parallel.convert_checkpoints is parallel.transform_checkpoints
    assert parallel.convert_checkpoint_by_rank is parallel.transform_checkpoint_by_rank
    with pytest.raises(ValueError, match="does not exist"):
        parallel.transform_checkpoint_by_rank(0, {0: str(tmp_path / "nope.ckpt")}, str(tmp_path / "x.ckpt"))


def test_merge_sliced_parameter():
    strat = parallel.build_searched_strategy(SRC)
    parts = [Parameter(Tensor(load(FIX / "src" / f"rank_{r}" / f"net{r}.ckpt")["w1"]), "w1") for r in range(4)]
    merged = parallel.merge_sliced_parameter(parts, strat)
    assert merged.name == "w1"
    np.testing.assert_array_equal(merged.asnumpy(), np.array(REF["merge_w1"], np.float32))
    axis0 = parallel.merge_sliced_parameter([Parameter(Tensor(np.full((2, 3), r, np.float32)), "p") for r in range(3)])
    np.testing.assert_array_equal(axis0.asnumpy(), np.array(REF["merge_axis0"], np.float32))
    errs = REF["merge_errors"]
    assert raised(lambda: parallel.merge_sliced_parameter((1, 2))) == errs["not_list"]
    assert raised(lambda: parallel.merge_sliced_parameter([])) == errs["empty"]
    assert (
        raised(lambda: parallel.merge_sliced_parameter([Parameter(Tensor(np.ones(2)), "p")], [1]))
        == errs["strategy_type"]
    )
    assert raised(lambda: parallel.merge_sliced_parameter([Parameter(Tensor(np.ones(2)), "p"), 3])) == errs["element"]


def test_load_distributed_checkpoint_into_a_network():
    full = whole()
    # the merged parameters are the whole ones, the optimizer-sharded moment included
    np.testing.assert_array_equal(full["w1"], np.arange(128, dtype=np.float32).reshape(8, 16))
    np.testing.assert_array_equal(full["m"], np.arange(32, dtype=np.float32).reshape(8, 4) - 50)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w1 = Parameter(Tensor(np.zeros((8, 16), np.float32)), name="w1")
            self.b = Parameter(Tensor(np.zeros(4, np.float32)), name="b")

        def construct(self, x):
            return ops.matmul(x, self.w1)

    net = Net()
    files = [str(FIX / "src" / f"rank_{r}" / f"net{r}.ckpt") for r in range(4)]
    assert parallel.load_distributed_checkpoint(net, files, None, SRC) is None
    np.testing.assert_array_equal(net.w1.asnumpy(), full["w1"])
    np.testing.assert_array_equal(net.b.asnumpy(), full["b"])
    assert ms.load_distributed_checkpoint is parallel.load_distributed_checkpoint


def test_per_rank_checkpoints_round_trip(tmp_path):
    """Save a network as 4 ranks' slices (MindSpore's layout of files), then load it back whole."""
    params = {k: Parameter(Tensor(v), k) for k, v in whole().items()}
    files = parallel._checkpoint.save_rank_checkpoints(params, str(tmp_path / "ckpt"), "net", SRC)
    for r, f in files.items():  # the same slices MindSpore saved
        for k, v in load(FIX / "src" / f"rank_{r}" / f"net{r}.ckpt").items():
            np.testing.assert_array_equal(load(f)[k], v)
    back = parallel.load_distributed_checkpoint(None, [files[r] for r in range(4)], None, SRC, return_param_dict=True)
    for k, p in params.items():
        np.testing.assert_array_equal(back[k].asnumpy(), p.asnumpy())
    # this rank's (0) file, or the same file of a rank holding the same slices: w1 is split over all 4 ranks,
    # so none; with w1 left out (b, w2, m only), rank 2 holds rank 0's slices
    assert ms.get_ckpt_path_with_strategy(files[0], SRC) == files[0]
    assert ms.get_ckpt_path_with_strategy(str(tmp_path / "ckpt" / "rank_0" / "gone.ckpt"), SRC) is None
    layouts = {k: v for k, v in st.read_layouts(SRC).items() if k != "w1"}
    st.write_strategy_file(str(tmp_path / "no_w1.ckpt"), layouts)
    (tmp_path / "ckpt" / "rank_2" / "same.ckpt").write_bytes(b"x")
    got = ms.get_ckpt_path_with_strategy(str(tmp_path / "ckpt" / "rank_0" / "same.ckpt"), str(tmp_path / "no_w1.ckpt"))
    assert got == str(tmp_path / "ckpt" / "rank_2" / "same.ckpt")


def test_segmented_and_unified(tmp_path):
    seg = tmp_path / "seg"
    seg.mkdir()
    ms.save_checkpoint([{"name": "a", "data": Tensor(np.ones(2, np.float32))}], str(seg / "part0.ckpt"))
    ms.save_checkpoint([{"name": "b", "data": Tensor(np.zeros(3, np.float32))}], str(seg / "part1.ckpt"))
    got = parallel.load_segmented_checkpoints(str(seg))
    assert sorted(got) == ["a", "b"] and got["b"].shape == (3,)
    # unified_safetensors: the 4 ranks' slices as whole parameters in one safetensors file
    src = tmp_path / "st"
    for r in range(4):
        d = load(FIX / "src" / f"rank_{r}" / f"net{r}.ckpt")
        (src / f"rank_{r}").mkdir(parents=True)
        ms.save_checkpoint(
            [{"name": k, "data": Tensor(v)} for k, v in d.items()],
            str(src / f"rank_{r}" / "n.safetensors"),
            format="safetensors",
        )
    parallel.unified_safetensors(str(src), SRC, str(tmp_path / "out"))
    # the files MindSpore 2.10 wrote for the same input, and the same map
    assert sorted(os.listdir(tmp_path / "out")) == REF["unified_files"]
    assert json.loads((tmp_path / "out" / "param_name_map.json").read_text()) == REF["unified_map"]
    merged = ms.load_checkpoint(str(tmp_path / "out" / "part0.safetensors"), format="safetensors")
    np.testing.assert_array_equal(merged["w2"].asnumpy(), whole()["w2"])


def test_merge_pipeline_strategys_and_group_info(tmp_path):
    """Two stages' strategy files (written by MindSpore, one operator strategy each) merged as MindSpore
    merges them: "<stage>-<name>" parameters, current_stage 1; sporax's own files (no operators) by their
    current_stage."""
    parallel.merge_pipeline_strategys(str(FIX / "stages"), str(tmp_path / "merged.ckpt"))
    msg = st.pb.ParallelStrategyMap()
    msg.ParseFromString((tmp_path / "merged.ckpt").read_bytes())
    got = {
        "current_stage": msg.current_stage,
        "names": sorted(it.param_name for it in msg.parallel_layout_item),
        "ops": len(msg.parallel_strategy_item),
    }
    assert got == REF["merged_pipeline"]
    # the stage prefix is read back as the parameter's own name
    assert sorted(st.read_layouts(str(tmp_path / "merged.ckpt"))) == ["b", "w1", "w2"]
    own = tmp_path / "own"
    st.write_strategy_file(str(own / "s0.ckpt"), {"a": st.Layout1([2], [0])}, stage=0)
    st.write_strategy_file(str(own / "s1.ckpt"), {"c": st.Layout1([2], [-1])}, stage=1)
    parallel.merge_pipeline_strategys(str(own), str(tmp_path / "own.json"))
    assert sorted(json.loads((tmp_path / "own.json").read_text())["parallel_layout_item"]) == ["0-a", "1-c"]
    assert parallel.restore_group_info_list(str(FIX / "group_info.pb")) == REF["restore_group_info_list"]


def test_algo_parameters():
    parallel.reset_algo_parameters()
    for k, v in REF["algo_defaults"].items():
        assert parallel.get_algo_parameters(k) == v
    errs = REF["algo"]
    assert raised(lambda: parallel.set_algo_parameters(foo=1)) == errs["bad_key"]
    assert raised(lambda: parallel.set_algo_parameters(fully_use_devices=1)) == errs["bad_type"]
    assert raised(lambda: parallel.set_algo_parameters(tensor_slice_align_size=0)) == errs["align"]
    assert raised(lambda: parallel.get_algo_parameters("foo")) == errs["get_bad"]
    parallel.set_algo_parameters(enable_algo_approxi=True, algo_approxi_epsilon=0.5)
    assert parallel.get_algo_parameters("algo_approxi_epsilon") == 0.5
    parallel.reset_algo_parameters()
    assert ms.set_algo_parameters is parallel.set_algo_parameters


def test_op_strategy_config(tmp_path):
    parallel.set_op_strategy_config("SAVE", str(tmp_path / "sub" / "ops.json"))
    assert (tmp_path / "sub").is_dir()
    with pytest.raises(KeyError, match="absolute"):
        parallel.set_op_strategy_config("SAVE", "rel.json")
    with pytest.raises(KeyError, match=".json"):
        parallel.set_op_strategy_config("SAVE", str(tmp_path / "a.txt"))
    with pytest.raises(KeyError, match="'SAVE' or 'LOAD'"):
        parallel.set_op_strategy_config("KEEP", str(tmp_path / "a.json"))


def test_layout_and_primitive_shard_as_mindspore():
    layout = ms.Layout((2, 2, 2), ("dp", "sp", "mp"))
    d = layout("dp", "mp").to_dict()
    assert {k: (list(v) if isinstance(v, tuple) else v) for k, v in d.items() if k != "alias_name"} == REF[
        "layout_dict"
    ]
    assert [
        list(t) if isinstance(t, tuple) else t for t in layout(("dp", "sp"), "None").to_dict()["tensor_map"]
    ] == REF["layout_tuple"]
    errs = REF["layout_errors"]
    assert raised(lambda: ms.Layout([2, 2], ("a", "b"))) == errs["matrix_type"]
    assert raised(lambda: ms.Layout((2, 2), ("a",))) == errs["len"]
    assert raised(lambda: ms.Layout((2, 2), ("a", "None"))) == errs["none"]
    assert raised(lambda: ms.Layout((2, 2), ("a", "a"))) == errs["repeat"]
    assert raised(lambda: ms.Layout((2, 2), ("a", "b"))("c")) == errs["axis"]
    assert raised(lambda: ms.Layout((2, 2), ("a", "b"))("a", "a")) == errs["twice"]
    mm = ops.MatMul().shard(((2, 1), (1, 1)))
    assert str(mm) == REF["prim_repr"]
    serrs = REF["shard_errors"]
    assert raised(lambda: ops.MatMul().shard([[2, 1], [1, 1]])) == serrs["not_tuple"]
    assert raised(lambda: ops.MatMul().shard((1, 2))) == serrs["element"]
    assert raised(lambda: ops.MatMul().shard(((2.0, 1), (1, 1)))) == serrs["value"]
    assert raised(lambda: ops.MatMul().shard(None, ((1, 1),))) == serrs["out_only"]
    # ms.shard / Cell.shard check their arguments as MindSpore's Shard does
    with pytest.raises(TypeError, match="For 'Shard', the 'in_strategy' should be a tuple, but got list."):
        ms.shard(ops.relu, [(1, 1)])
    with pytest.raises(TypeError, match="the strategy can only pass in consistent type"):
        ms.shard(ops.relu, ((1, 1), layout("dp", "mp")))
    with pytest.raises(TypeError, match="'parameter_plan' should be a dict or None, but got list"):
        nn.Dense(2, 2).shard(((1, 1),), parameter_plan=[1])
    # outside the semi-auto modes a strategy records and computes as before
    x = Tensor(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(mm(x, Tensor(np.ones((3, 2), np.float32))).asnumpy(), np.full((2, 2), 3.0))
    assert ms.reshard(x, layout("dp", "mp")) is x
    assert isinstance(mm, ops.MatMul) and type(mm).__name__ == "MatMul"
    # semi-auto parallel over more devices than the job has: said before anything runs
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=4)
    try:
        with pytest.raises(ValueError, match="asks for 4 devices, but this job has 1"):
            mm(x, Tensor(np.ones((3, 2), np.float32)))
        with pytest.raises(ValueError, match=r"cannot split the tensor of shape \(3, 3\): its dimension 0 \(3\)"):
            mm(Tensor(np.ones((3, 3), np.float32)), Tensor(np.ones((3, 2), np.float32)))
    finally:
        ms.reset_auto_parallel_context()


def test_pipeline_cells_check_arguments():
    net = nn.Dense(2, 2)
    with pytest.raises(TypeError, match="must cell type"):
        nn.PipelineCell(1, 2)
    with pytest.raises(ValueError, match="must be large than 0"):
        nn.PipelineCell(net, 0)
    with pytest.raises(TypeError, match="must be integer"):
        nn.MicroBatchInterleaved(net, 2.0)
    with pytest.raises(KeyError, match="stage_config"):
        nn.PipelineCell(net, 2, stage_config={"nothere": 1})
    with pytest.raises(ValueError, match="no 'shard'"):
        nn.PipelineCell(net, 2).shard(((1, 1),))
    triple = nn.VirtualDatasetCellTriple(_Add3())
    one = Tensor(np.ones(2, np.float32))
    np.testing.assert_array_equal(triple(one, one, one).asnumpy(), [3.0, 3.0])
    p = Parameter(Tensor(np.ones(2, np.float32)), name="p")
    p.add_pipeline_stage(1)
    p.add_pipeline_stage(0)
    assert p._pipeline_stages == [1, 0]
    with pytest.raises(TypeError, match="`stage` must be a positive number of int type"):
        p.add_pipeline_stage(-1)
    parallel.sync_pipeline_shared_parameters(net)
    parallel.parameter_broadcast(net, {"weight": None})  # one process: the values are everyone's
    with pytest.raises(TypeError, match="layout should be dict"):
        parallel.parameter_broadcast(net, [])


class _Add3(nn.Cell):
    def construct(self, a, b, c):
        return a + b + c
