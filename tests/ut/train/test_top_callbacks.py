"""ckpt_to_safetensors / safetensors_to_ckpt / async_ckpt_thread_status, FlopsUtilizationCollector and
TrainFaultTolerance (references: tools/make_top_reference.py train)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
from sporax import Tensor, nn
from sporax.train import (
    FlopsUtilizationCollector,
    Model,
    TrainFaultTolerance,
    async_ckpt_thread_status,
    ckpt_to_safetensors,
    safetensors_to_ckpt,
)

REF = json.loads((Path(__file__).parent / "fixtures" / "top_train_reference.json").read_text())["convert"]


def _dense():
    net = nn.Dense(2, 2)
    net.weight.set_data(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)))
    net.bias.set_data(Tensor(np.array([0.5, -0.5], np.float32)))
    return net


def test_ckpt_safetensors_conversion(tmp_path):
    d = str(tmp_path)
    net = _dense()
    ms.save_checkpoint(net, os.path.join(d, "a.ckpt"))
    ckpt_to_safetensors(os.path.join(d, "a.ckpt"), name_map={"weight": "w2"})
    assert sorted(os.listdir(d)) == REF["single"]
    loaded = ms.load_checkpoint(os.path.join(d, "a.safetensors"), format="safetensors")
    assert sorted(loaded) == REF["renamed"]
    np.testing.assert_array_equal(loaded["w2"].asnumpy(), net.weight.asnumpy())
    os.makedirs(os.path.join(d, "rank_0"))
    ms.save_checkpoint(net, os.path.join(d, "rank_0", "b.ckpt"))
    ckpt_to_safetensors(d, save_path=os.path.join(d, "out"), processes_num=2)
    assert [sorted(os.listdir(os.path.join(d, "out"))), sorted(os.listdir(os.path.join(d, "out", "rank_0")))] == REF[
        "dir"
    ]
    safetensors_to_ckpt(os.path.join(d, "out"), save_path=os.path.join(d, "back"), file_name_regex="^b")
    assert sorted(os.listdir(os.path.join(d, "back", "rank_0"))) == REF["back"]
    back = ms.load_checkpoint(os.path.join(d, "back", "rank_0", "b.ckpt"))
    np.testing.assert_array_equal(back["bias"].asnumpy(), net.bias.asnumpy())
    cases = {
        "missing": ("/nonexist",),
        "save_path_file": (os.path.join(d, "a.ckpt"), os.path.join(d, "x.txt")),
        "name_map": (os.path.join(d, "a.ckpt"), None, [1]),
        "suffix": (os.path.join(d, "a.safetensors"),),
        "regex": (os.path.join(d, "a.ckpt"), None, None, "zzz"),
        "no_rank": (os.path.join(d, "out", "rank_0"),),
    }
    for key, args in cases.items():
        with pytest.raises(ValueError) as info:
            ckpt_to_safetensors(*args)
        assert str(info.value).replace(d, "<d>") == REF["errors"][key]["message"]
    with pytest.raises(ValueError) as info:
        safetensors_to_ckpt(os.path.join(d, "a.ckpt"))
    assert str(info.value).replace(d, "<d>") == REF["errors"]["to_ckpt_suffix"]["message"]


def test_async_ckpt_thread_status(tmp_path):
    assert async_ckpt_thread_status() is REF["async_status"]
    ms.save_checkpoint(_dense(), str(tmp_path / "c.ckpt"), async_save=True)
    from sporax.train._ckpt_write import _wait_async_thread_save_ckpt

    _wait_async_thread_save_ckpt()
    assert async_ckpt_thread_status() is False
    assert ms.async_ckpt_thread_status is async_ckpt_thread_status


def _data(n=8):
    rng = np.random.RandomState(0)
    x, y = rng.randn(n, 4).astype(np.float32), rng.randn(n, 3).astype(np.float32)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)


def test_flops_utilization_collector(capsys):
    with pytest.raises(ValueError, match="The 'data_size' must be int and must > 0, but got '0'"):
        FlopsUtilizationCollector(0)
    with pytest.raises(TypeError):
        FlopsUtilizationCollector(1, full_flops=1)
    net = nn.Dense(4, 3, has_bias=False)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    model.train(1, _data(16), callbacks=[FlopsUtilizationCollector(3, computility=1e9)], dataset_sink_mode=False)
    out = capsys.readouterr().out
    m = re.search(
        r"Full model flops is ([\d.e+]+), Full hardware flops is ([\d.e+]+), Shard model flops is ([\d.e+]+)", out
    )
    assert m, out
    flops = float(m.group(3))
    # the forward matmul (2*4*4*3) plus the weight gradient's matmul at least; the step's XLA figure
    assert flops >= 2 * (2 * 4 * 4 * 3) and float(m.group(1)) == flops
    lines = re.findall(r"Train per step time: ([\d.]+) ms mfu:([\d.]+)% hfu:([\d.]+)%", out)
    assert len(lines) == 3  # steps 1, 2 and 4 (not every data_size-th), as MindSpore prints
    t, mfu, _ = (float(v) for v in lines[-1])
    assert abs(mfu - 100 * flops / 1e9 / (t / 1000)) <= 0.02 + 1e-3 * mfu


def test_train_fault_tolerance_saves_on_failure(tmp_path):
    with pytest.raises(ValueError, match="TrainFaultTolerance construct need to set ckpt_save_fn or ckpt_save_path!"):
        TrainFaultTolerance()
    os.environ["MS_ENABLE_TFT"] = "{UCE:1}"
    try:
        with pytest.raises(ValueError, match="need Ascend devices"):
            TrainFaultTolerance(str(tmp_path))
    finally:
        del os.environ["MS_ENABLE_TFT"]

    net = nn.Dense(4, 3)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    weights = []

    class Fail(ms.train.Callback):
        def on_train_step_end(self, run_context):
            weights.append(net.weight.asnumpy().copy())
            if run_context.original_args().cur_step_num == 3:
                raise RuntimeError("device lost")

    tft = TrainFaultTolerance(str(tmp_path))
    with pytest.raises(RuntimeError, match="device lost"):
        model.train(2, _data(8), callbacks=[tft, Fail()], dataset_sink_mode=False)
    path = tmp_path / "ttp_saved_checkpoints-step_3" / "rank_0" / "ttp_rank_0-2_1.ckpt"
    assert tft.saved_path == str(path) and path.exists()
    saved = ms.load_checkpoint(str(path))
    np.testing.assert_array_equal(saved["weight"].asnumpy(), weights[-1])
    assert int(saved["step_num"]) == 3 and int(saved["epoch_num"]) == 2 and int(saved["batch_num"]) == 2

    calls = []
    tft = TrainFaultTolerance(ckpt_save_fn=lambda cb, extra: calls.append((cb.cur_step_num, extra)))
    weights.clear()
    with pytest.raises(RuntimeError, match="device lost"):
        model.train(1, _data(16), callbacks=[tft, Fail()], dataset_sink_mode=False)
    assert calls == [(3, {"__exception_save__": True})]


LANDSCAPE = {"landscape_size": 4, "unit": "epoch", "num_samples": 8,
             "create_landscape": {"train": True, "result": False}, "intervals": [[1, 2, 3]]}  # fmt: skip


def test_summary_collector_landscape_and_summary_landscape(tmp_path):
    """SummaryCollector keeps the weights of the intervals (MindSpore's ckpt_dir layout and metadata);
    SummaryLandscape's PCA landscape (grid, loss path, convergence point) equals MindSpore 2.10's."""
    from sporax.train import SummaryCollector, SummaryLandscape
    from sporax.train.summary import _event

    ref = json.loads((Path(__file__).parent / "fixtures" / "top_train_reference.json").read_text())["landscape"]
    fix = Path(__file__).parent / "fixtures" / "fit_eval_net.ckpt"
    rng = np.random.RandomState(0)
    x, y = rng.randn(10, 3).astype(np.float32), rng.randn(10, 2).astype(np.float32)
    vx, vy = rng.randn(7, 3).astype(np.float32), rng.randn(7, 2).astype(np.float32)

    def make():
        net = nn.Dense(3, 2)
        ms.load_checkpoint(str(fix), net)
        return net

    d = str(tmp_path / "s")
    net = make()
    train = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)
    collector = SummaryCollector(d, collect_specified_data={"collect_landscape": LANDSCAPE})
    Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1)).train(
        3, train, callbacks=[collector], dataset_sink_mode=False
    )
    assert sorted(os.listdir(os.path.join(d, "ckpt_dir"))) == ref["ckpt_dir"]
    meta = json.loads(Path(d, "ckpt_dir", "train_metadata.json").read_text())
    meta["model_params_file_map"] = {k: os.path.basename(v) for k, v in meta["model_params_file_map"].items()}
    assert meta == ref["metadata"]

    def callback_fn():
        network = make()
        valid = ds.NumpySlicesDataset({"x": vx, "y": vy}, shuffle=False).batch(2)
        return Model(network, nn.MSELoss()), network, valid, {"Loss": nn.Loss()}

    land = SummaryLandscape(d)
    with pytest.raises(ValueError, match='"device_ids" should be between 0 and 7, but got 9'):
        land.gen_landscapes_with_multi_process(callback_fn, device_ids=[9])
    out = str(tmp_path / "out")
    land.gen_landscapes_with_multi_process(callback_fn, device_ids=[0], output=out)
    (path,) = [os.path.join(out, f) for f in os.listdir(out) if f.endswith("_landscape")]
    values = {v["tag"]: v for e in _event.read_events(path) for v in e.get("values", [])}
    pca = ref["pca"]
    for key in ("x", "y", "z", "convergence"):
        got = values[f"landscape_[1, 3]/{key}"]["value"]
        want = np.asarray(pca[key]) if key != "convergence" else np.asarray([0.0, 0.0, pca[key][0]])
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(values["landscape_[1, 3]/path"]["value"], pca["path"], rtol=2e-5, atol=2e-6)
    # the training result along random directions: at the grid's centre the loss of the final weights
    out2 = str(tmp_path / "out2")
    override = {"create_landscape": {"train": False, "result": True}, "landscape_size": 5}
    land.gen_landscapes_with_multi_process(callback_fn, collect_landscape=override, device_ids=[0], output=out2)
    (path,) = [os.path.join(out2, f) for f in os.listdir(out2) if f.endswith("_landscape")]
    values = {v["tag"]: v for e in _event.read_events(path) for v in e.get("values", [])}
    z = values["landscape_[3]/z"]["value"]
    assert z.shape == (5, 5)
    np.testing.assert_allclose(z[2][2], pca["convergence"][0], rtol=2e-5)
    land.clean_ckpt()
    assert not os.path.exists(os.path.join(d, "ckpt_dir"))


def _lineage_events(path):
    """LineageEvents of a _lineage file, decoded by field number (lineage.proto)."""
    import struct

    from sporax.train.summary import _event

    def text(msg, field):
        return msg[field][0].decode() if field in msg else None

    out = []
    for record in _event.read_records(path):
        ev = _event.parse_message(record)
        if 6 in ev:
            tl = _event.parse_message(ev[6][0])
            hyper = _event.parse_message(tl[1][0])
            algo = _event.parse_message(tl[3][0])
            model = _event.parse_message(tl[4][0])
            data = _event.parse_message(tl[2][0]) if 2 in tl else {}
            out.append({"train_lineage": {
                "algorithm": {"loss": struct.unpack("<f", algo[2][0])[0], "network": text(algo, 1)},
                "hyper_parameters": {
                    "batch_size": hyper[8][0], "device_num": hyper[6][0], "epoch": hyper[4][0],
                    "learning_rate": struct.unpack("<f", hyper[2][0])[0], "loss_function": text(hyper, 3),
                    "optimizer": text(hyper, 1), "parallel_mode": text(hyper, 5),
                },
                "model": {"path": text(model, 3), "size": str(model[4][0])},
                "train_dataset": {"train_dataset_size": data[2][0]},
            }})  # fmt: skip
        if 7 in ev:
            el = _event.parse_message(ev[7][0])
            valid = _event.parse_message(el[3][0])
            out.append(
                {"evaluation_lineage": {"metric": text(el, 2), "valid_dataset": {"valid_dataset_size": valid[2][0]}}}
            )
    return out


def test_summary_collector_lineage_files(tmp_path):
    """SummaryCollector writes MindSpore's _lineage file: the train lineage of Model.train and the evaluation
    lineage of Model.eval, with MindSpore 2.10's values (its dataset-graph record is not written)."""
    import platform

    from sporax.train import SummaryCollector

    ref = json.loads((Path(__file__).parent / "fixtures" / "top_train_reference.json").read_text())["lineage"]
    rng = np.random.RandomState(0)
    x, y = rng.randn(10, 3).astype(np.float32), rng.randn(10, 2).astype(np.float32)
    vx, vy = rng.randn(7, 3).astype(np.float32), rng.randn(7, 2).astype(np.float32)
    net = nn.Dense(3, 2)
    ms.load_checkpoint(str(Path(__file__).parent / "fixtures" / "fit_eval_net.ckpt"), net)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1), metrics={"loss": nn.Loss()})
    for mode in ("train", "eval"):
        d = tmp_path / mode
        data = ds.NumpySlicesDataset({"x": x, "y": y} if mode == "train" else {"x": vx, "y": vy}, shuffle=False)
        collector = SummaryCollector(str(d), collect_freq=1, collect_specified_data={"collect_landscape": None})
        if mode == "train":
            model.train(2, data.batch(4), callbacks=[collector], dataset_sink_mode=False)
        else:
            model.eval(data.batch(3), callbacks=[collector], dataset_sink_mode=False)
        names = sorted(re.sub(r"\.\d{9,11}\.", ".<time>.", n).replace(platform.node(), "<host>") for n in os.listdir(d))
        assert set(ref[mode]["files"]) <= set(names)
        (lineage,) = [n for n in os.listdir(d) if n.endswith("_lineage")]
        got = _lineage_events(str(d / lineage))
        want = [e for e in ref[mode]["events"] if "dataset_graph" not in e]
        assert len(got) == len(want) == 1
        if mode == "train":
            g, w = got[0]["train_lineage"], want[0]["train_lineage"]
            np.testing.assert_allclose(g["algorithm"].pop("loss"), w["algorithm"].pop("loss"), rtol=1e-5)
            np.testing.assert_allclose(
                g["hyper_parameters"].pop("learning_rate"), w["hyper_parameters"].pop("learning_rate"), rtol=1e-6
            )
            assert g == w
        else:
            g, w = got[0]["evaluation_lineage"], want[0]["evaluation_lineage"]
            np.testing.assert_allclose(
                json.loads(g.pop("metric"))["loss"], json.loads(w.pop("metric"))["loss"], rtol=1e-5
            )
            assert g == w


def test_flops_utilization_collector_sink_mode(capsys):
    """In sink mode the figure is one step's (the compiled scan runs sink_size steps per call)."""
    flops = {}
    for sink in (False, True):
        net = nn.Dense(4, 3, has_bias=False)
        model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
        model.train(
            1, _data(16), callbacks=[FlopsUtilizationCollector(2)], dataset_sink_mode=sink, sink_size=2 if sink else -1
        )
        out = capsys.readouterr().out
        flops[sink] = float(re.search(r"Shard model flops is ([\d.e+]+)", out).group(1))
    np.testing.assert_allclose(flops[True], flops[False], rtol=0.05)
