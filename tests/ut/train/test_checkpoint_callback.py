"""ModelCheckpoint and CheckpointConfig: file names, rotation, prefix collisions (MindSpore's rule), append_info,
exception_save, async and timed saves; the files load with sporax.load_checkpoint."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.train import CheckpointConfig, LambdaCallback, ModelCheckpoint, RunContext
from sporax.train.callback import _CallbackManager, _chg_ckpt_file_name_if_same_exist, _InternalCallbackParam


class _Boom(Exception):
    pass


def _train_network():
    net = nn.Dense(3, 2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt), net


def fake_train(callbacks, network, epochs=3, batch_num=5, fail_at=None, sink_size=None, on_step=None):
    """MindSpore's Model._train_process, without a dataset or real steps."""
    cb_params = _InternalCallbackParam(
        train_network=network,
        epoch_num=epochs,
        batch_num=sink_size or batch_num,
        cur_step_num=0,
        mode="train",
        dataset_sink_mode=bool(sink_size),
        net_outputs=None,
    )
    with _CallbackManager(callbacks) as list_callback:
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        for epoch in range(epochs):
            cb_params.cur_epoch_num = epoch + 1
            list_callback.on_train_epoch_begin(run_context)
            for step in range(1, (1 if sink_size else batch_num) + 1):
                cb_params.cur_step_num += sink_size or 1
                list_callback.on_train_step_begin(run_context)
                if (epoch + 1, step) == fail_at:
                    raise _Boom
                if on_step is not None:
                    on_step(epoch + 1, step)
                cb_params.net_outputs = Tensor(np.float32(1.0))
                list_callback.on_train_step_end(run_context)
            list_callback.on_train_epoch_end(run_context)
        list_callback.on_train_end(run_context)
    return cb_params


def _ckpts(d):
    return sorted(f for f in os.listdir(d) if f.endswith((".ckpt", ".safetensors")))


def test_names_rotation_and_final_save(tmp_path):
    # the file list MindSpore 2.10 leaves for this run (3 epochs x 5 steps, every 2 steps, keep 3)
    train_net, _ = _train_network()
    cfg = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3)
    cb = ModelCheckpoint(prefix="net", directory=str(tmp_path), config=cfg)
    fake_train(cb, train_net)
    assert _ckpts(tmp_path) == ["net-3_2.ckpt", "net-3_4.ckpt", "net-3_5.ckpt"]
    assert cb.latest_ckpt_file_name == os.path.join(str(tmp_path), "net-3_5.ckpt")
    # default config: every step, newest 5 kept
    d2 = tmp_path / "default"
    fake_train(ModelCheckpoint(prefix="lenet", directory=str(d2)), train_net, epochs=2, batch_num=4)
    assert _ckpts(d2) == ["lenet-1_4.ckpt", "lenet-2_1.ckpt", "lenet-2_2.ckpt", "lenet-2_3.ckpt", "lenet-2_4.ckpt"]


def test_files_hold_network_and_optimizer_state(tmp_path):
    train_net, net = _train_network()
    net.bias.set_data(Tensor(np.array([1.5, -2.0], np.float32)))
    cb = ModelCheckpoint(prefix="m", directory=str(tmp_path), config=CheckpointConfig(save_checkpoint_steps=5))
    fake_train(cb, train_net, epochs=1, batch_num=5)
    params = ms.load_checkpoint(str(tmp_path / "m-1_5.ckpt"))
    assert list(params) == [
        "weight",
        "bias",
        "global_step",
        "learning_rate",
        "momentum",
        "moments.weight",
        "moments.bias",
    ]
    np.testing.assert_array_equal(params["bias"].asnumpy(), [1.5, -2.0])
    fresh = nn.Dense(3, 2)
    not_loaded, _ = ms.load_param_into_net(fresh, params)
    assert not_loaded == [] and np.array_equal(fresh.bias.asnumpy(), [1.5, -2.0])
    # saved_network: only that network is saved
    d2 = tmp_path / "saved"
    cfg = CheckpointConfig(save_checkpoint_steps=5, saved_network=net)
    fake_train(ModelCheckpoint(prefix="m", directory=str(d2), config=cfg), train_net, epochs=1, batch_num=5)
    assert list(ms.load_checkpoint(str(d2 / "m-1_5.ckpt"))) == ["weight", "bias"]


def test_prefix_collision_rule(tmp_path):
    # the prefixes MindSpore 2.10 picks for these directory contents
    expected = [
        ([], "net", "net"),
        (["net-1_1.ckpt"], "net_1", "net"),
        (["net-1_1.ckpt", "net_1-2_2.ckpt"], "net_2", "net"),
        (["net_3-1_1.ckpt"], "net_4", "net"),
        (["network-1_1.ckpt"], "net", "net"),
        (["net-graph.meta"], "net", "net"),
        (["net_a-1_1.ckpt"], "net", "net"),
        (["net-1_1_breakpoint.ckpt"], "net", "net_1"),
        (["net.ckpt"], "net", "net"),
        (["net-1_1.safetensors"], "net_1", "net"),
        (["net1-1_1.ckpt"], "net", "net"),
    ]
    for i, (files, prefix, exception_prefix) in enumerate(expected):
        d = tmp_path / str(i)
        d.mkdir()
        for name in files:
            (d / name).write_bytes(b"")
        assert _chg_ckpt_file_name_if_same_exist(str(d), "net") == prefix, files
        assert _chg_ckpt_file_name_if_same_exist(str(d), "net", True) == exception_prefix, files
    # a second ModelCheckpoint in the same directory writes prefix_1-... and rotates only its own files
    train_net, _ = _train_network()
    d = tmp_path / "run"
    fake_train(ModelCheckpoint("net", str(d), CheckpointConfig(keep_checkpoint_max=2)), train_net, 1, 3)
    second = ModelCheckpoint("net", str(d), CheckpointConfig(keep_checkpoint_max=2))
    fake_train(second, train_net, 1, 3)
    assert _ckpts(d) == ["net-1_2.ckpt", "net-1_3.ckpt", "net_1-1_2.ckpt", "net_1-1_3.ckpt"]
    assert ModelCheckpoint("net", str(d))._prefix == "net_2"


def test_append_info(tmp_path):
    train_net, _ = _train_network()
    cfg = CheckpointConfig(save_checkpoint_steps=4, append_info=["epoch_num", "step_num", {"lr": 0.5, "tag": "x"}])
    fake_train(ModelCheckpoint("a", str(tmp_path), cfg), train_net, epochs=2, batch_num=3)
    params = ms.load_checkpoint(str(tmp_path / "a-2_3.ckpt"))
    assert int(params["epoch_num"].asnumpy()) == 2 and int(params["step_num"].asnumpy()) == 6
    assert params["epoch_num"].dtype == ms.int64 and params["lr"].dtype == ms.float32
    assert float(params["lr"].asnumpy()) == 0.5 and params["tag"] == "x"
    first = ms.load_checkpoint(str(tmp_path / "a-2_1.ckpt"))
    assert int(first["step_num"].asnumpy()) == 4
    with pytest.raises(ValueError, match=r"must be in \['epoch_num', 'step_num'\], but got epoch"):
        CheckpointConfig(append_info=["epoch"])
    with pytest.raises(TypeError, match="must has only one dict"):
        CheckpointConfig(append_info=[{"a": 1}, {"b": 2}])
    with pytest.raises(TypeError, match="'append_info' must be list"):
        CheckpointConfig(append_info="epoch_num")
    with pytest.raises(TypeError, match="the value type must be int or float or bool"):
        CheckpointConfig(append_info=[{"a": [1]}])


def test_exception_save(tmp_path):
    train_net, net = _train_network()
    cfg = CheckpointConfig(save_checkpoint_steps=100, exception_save=True, append_info=["epoch_num", "step_num"])
    with pytest.raises(_Boom):
        fake_train(ModelCheckpoint("e", str(tmp_path), cfg), train_net, epochs=3, batch_num=4, fail_at=(2, 3))
    assert _ckpts(tmp_path) == ["e-2_3_breakpoint.ckpt"]
    params = ms.load_checkpoint(str(tmp_path / "e-2_3_breakpoint.ckpt"))
    assert int(params["epoch_num"].asnumpy()) == 2 and int(params["step_num"].asnumpy()) == 3
    assert "moments.weight" in params
    with pytest.raises(_Boom):
        fake_train(ModelCheckpoint("e", str(tmp_path), cfg), train_net, epochs=3, batch_num=4, fail_at=(1, 1))
    assert "e_1-1_1_breakpoint.ckpt" in _ckpts(tmp_path)
    # without exception_save nothing is written
    d = tmp_path / "none"
    with pytest.raises(_Boom):
        fake_train(ModelCheckpoint("e", str(d), CheckpointConfig(save_checkpoint_steps=100)), train_net, fail_at=(1, 2))
    assert _ckpts(d) == []


def test_async_save_timed_save_and_callables(tmp_path):
    train_net, _ = _train_network()
    cb = ModelCheckpoint("s", str(tmp_path), CheckpointConfig(save_checkpoint_steps=2, async_save=True))
    fake_train(cb, train_net, epochs=1, batch_num=4)
    assert _ckpts(tmp_path) == ["s-1_2.ckpt", "s-1_4.ckpt"]
    assert "weight" in ms.load_checkpoint(str(tmp_path / "s-1_4.ckpt"))
    # by time: save_checkpoint_seconds applies when save_checkpoint_steps is 0
    d = tmp_path / "timed"
    cfg = CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=1, keep_checkpoint_max=10)
    assert cfg.save_checkpoint_seconds == 1
    fake_train(
        ModelCheckpoint("t", str(d), cfg),
        train_net,
        epochs=1,
        batch_num=3,
        on_step=lambda e, s: time.sleep(1.05) if s == 2 else None,
    )
    assert _ckpts(d) == ["t-1_2.ckpt", "t-1_3.ckpt"]  # after the slow step, and the final save
    # callable prefix and directory
    d2 = tmp_path / "call"
    cb = ModelCheckpoint(
        prefix=lambda p: f"step{p.cur_step_num}",
        directory=lambda p: str(d2 / f"e{p.cur_epoch_num}"),
        config=CheckpointConfig(save_checkpoint_steps=2),
    )
    fake_train(cb, train_net, epochs=2, batch_num=2)
    assert _ckpts(d2 / "e1") == ["step2.ckpt"] and _ckpts(d2 / "e2") == ["step4.ckpt"]
    # safetensors
    d3 = tmp_path / "st"
    fake_train(
        ModelCheckpoint("f", str(d3), CheckpointConfig(save_checkpoint_steps=2, format="safetensors")),
        train_net,
        epochs=1,
        batch_num=2,
    )
    assert _ckpts(d3) == ["f-1_2.safetensors"]
    assert "weight" in ms.load_checkpoint(str(d3 / "f-1_2.safetensors"), format="safetensors")


def test_sink_mode_names(tmp_path):
    train_net, _ = _train_network()
    fake_train(
        ModelCheckpoint("k", str(tmp_path), CheckpointConfig(save_checkpoint_steps=1000)),
        train_net,
        epochs=3,
        sink_size=1000,
    )
    assert _ckpts(tmp_path) == ["k-1_1000.ckpt", "k-2_1000.ckpt", "k-3_1000.ckpt"]


def test_config_and_callback_errors(tmp_path):
    cfg = CheckpointConfig()
    assert (cfg.save_checkpoint_steps, cfg.keep_checkpoint_max, cfg.integrated_save, cfg.async_save) == (
        1,
        5,
        True,
        False,
    )
    assert cfg.save_checkpoint_seconds is None and cfg.keep_checkpoint_per_n_minutes is None
    assert cfg.enc_mode == "AES-GCM" and cfg.format == "ckpt" and cfg.append_dict is None
    assert cfg.get_checkpoint_policy()["keep_checkpoint_max"] == 5
    minutes = CheckpointConfig(keep_checkpoint_max=0, keep_checkpoint_per_n_minutes=2)
    assert minutes.keep_checkpoint_max == 0 and minutes.keep_checkpoint_per_n_minutes == 2
    with pytest.raises(ValueError, match="can't be all None or 0"):
        CheckpointConfig(save_checkpoint_steps=0, keep_checkpoint_max=0)
    with pytest.raises(ValueError, match="must be int and must >= 0, but got '-1'"):
        CheckpointConfig(save_checkpoint_steps=-1)
    with pytest.raises(TypeError, match="'saved_network' must be None or Cell"):
        CheckpointConfig(saved_network=1)
    with pytest.raises(ValueError, match="when format is 'safetensors', other param must be default"):
        CheckpointConfig(format="safetensors", crc_check=True)
    with pytest.raises(NotImplementedError, match="encryption"):
        CheckpointConfig(enc_key=b"0123456789abcdef")
    with pytest.raises(ValueError, match="'prefix' for checkpoint file name is invalid"):
        ModelCheckpoint(prefix="a/b", directory=str(tmp_path))
    with pytest.raises(TypeError, match="should be 'CheckpointConfig'"):
        ModelCheckpoint(directory=str(tmp_path), config={})
    with pytest.raises(TypeError, match="The path is invalid, the type should be string."):
        ModelCheckpoint(directory=1)
    train_net, _ = _train_network()
    cb = ModelCheckpoint(directory=str(tmp_path), config=CheckpointConfig(remove_redundancy=True))
    with pytest.raises(TypeError, match="only be used in parallel scenarios"):
        fake_train(cb, train_net, epochs=1, batch_num=1)


def test_crc_and_lambda_interplay(tmp_path):
    train_net, net = _train_network()
    seen = []
    cb = ModelCheckpoint("c", str(tmp_path), CheckpointConfig(save_checkpoint_steps=1, crc_check=True))
    fake_train(
        [cb, LambdaCallback(on_train_step_end=lambda rc: seen.append(cb.latest_ckpt_file_name))],
        train_net,
        epochs=1,
        batch_num=2,
    )
    assert [os.path.basename(s) for s in seen] == ["c-1_1.ckpt", "c-1_2.ckpt"]
    assert "weight" in ms.load_checkpoint(seen[-1], crc_check=True)
