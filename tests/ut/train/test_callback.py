"""Callbacks driven by a hand-written loop that follows MindSpore's Model loop (no dependency on Model): hook
order and cb_params fields, LossMonitor/TimeMonitor text, EarlyStopping, ReduceLROnPlateau, LearningRateScheduler,
History, LambdaCallback, OnRequestExit, BackupAndRestore (kill and resume), ProgressBar."""

from __future__ import annotations

import io
import json
import os
import re
import signal

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.train import (
    BackupAndRestore,
    Callback,
    EarlyStopping,
    History,
    LambdaCallback,
    LearningRateScheduler,
    LossMonitor,
    OnRequestExit,
    ProgressBar,
    ReduceLROnPlateau,
    RunContext,
    TimeMonitor,
)
from sporax.train.callback import _CallbackManager, _InternalCallbackParam


class _Stop(Exception):
    pass


def fake_train(
    callbacks,
    epochs=2,
    batch_num=3,
    losses=None,
    step_fn=None,
    network=None,
    optimizer=None,
    sink_size=None,
    eval_results=None,
    initial_epoch=0,
    honour_resume=True,
):
    """MindSpore's Model._train_process / _train_dataset_sink_process, without a dataset.

    losses: callable (epoch, step_in_epoch) -> loss value, or step_fn: callable (epoch, step) -> Tensor output.
    eval_results: callable epoch -> dict, set as cb_params.metrics/eval_results before on_train_epoch_end (fit).
    """
    cb_params = _InternalCallbackParam()
    cb_params.train_network = network
    cb_params.epoch_num = epochs - initial_epoch
    cb_params.batch_num = sink_size if sink_size else batch_num
    cb_params.cur_step_num = 0
    cb_params.mode = "train"
    cb_params.loss_fn = None
    cb_params.optimizer = optimizer
    cb_params.train_dataset = None
    cb_params.network = network
    cb_params.dataset_sink_mode = bool(sink_size)
    cb_params.net_outputs = None
    with _CallbackManager(callbacks) as list_callback:
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        start = initial_epoch
        if honour_resume and cb_params.get("resume_epoch"):
            start = max(start, cb_params.resume_epoch)
            cb_params.cur_step_num = cb_params.resume_step
        for epoch in range(start, epochs):
            cb_params.cur_epoch_num = epoch + 1
            list_callback.on_train_epoch_begin(run_context)
            steps = 1 if sink_size else batch_num
            for step in range(1, steps + 1):
                cb_params.cur_step_num += sink_size if sink_size else 1
                list_callback.on_train_step_begin(run_context)
                if step_fn is not None:
                    out = step_fn(epoch + 1, step)
                else:
                    out = Tensor(np.asarray(losses(epoch + 1, step), np.float32))
                cb_params.net_outputs = out
                list_callback.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            if eval_results is not None:
                res = eval_results(epoch + 1)
                cb_params.metrics = {k: v for k, v in res.items() if k != "eval_loss"}
                cb_params.eval_results = dict(res)
            list_callback.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)
    return cb_params


def fake_eval(callbacks, batch_num=2):
    cb_params = _InternalCallbackParam(mode="eval", batch_num=batch_num, cur_step_num=0, dataset_sink_mode=False)
    with _CallbackManager(callbacks) as list_callback:
        run_context = RunContext(cb_params)
        list_callback.on_eval_begin(run_context)
        list_callback.on_eval_epoch_begin(run_context)
        for _ in range(batch_num):
            cb_params.cur_step_num += 1
            list_callback.on_eval_step_begin(run_context)
            cb_params.net_outputs = Tensor(np.float32(0.5))
            list_callback.on_eval_step_end(run_context)
        list_callback.on_eval_epoch_end(run_context)
        cb_params.metrics = {"acc": 0.5}
        list_callback.on_eval_end(run_context)
    return cb_params


# ----------------------------------------------------------------------------- base classes
class Legacy(Callback):
    def __init__(self, log):
        self.log = log

    def begin(self, rc):
        self.log.append(("begin", rc.original_args().get("mode")))

    def epoch_begin(self, rc):
        self.log.append(("epoch_begin", rc.original_args().get("cur_epoch_num")))

    def step_begin(self, rc):
        self.log.append(("step_begin", rc.original_args().cur_step_num))

    def step_end(self, rc):
        self.log.append(("step_end", rc.original_args().cur_step_num))

    def epoch_end(self, rc):
        self.log.append(("epoch_end", rc.original_args().get("cur_epoch_num")))

    def end(self, rc):
        self.log.append(("end", rc.original_args().get("mode")))


class New(Callback):
    def __init__(self, log):
        self.log = log
        self.entered = self.exited = 0

    def __enter__(self):
        self.entered += 1
        return self

    def __exit__(self, *err):
        self.exited += 1

    def on_train_begin(self, rc):
        self.log.append("on_train_begin")

    def on_train_epoch_begin(self, rc):
        self.log.append("on_train_epoch_begin")

    def on_train_step_begin(self, rc):
        self.log.append("on_train_step_begin")

    def on_train_step_end(self, rc):
        self.log.append("on_train_step_end")

    def on_train_epoch_end(self, rc):
        self.log.append("on_train_epoch_end")

    def on_train_end(self, rc):
        self.log.append("on_train_end")


def test_hook_order_both_spellings():
    log = []
    new = New(log)
    fake_train([Legacy(log), new], epochs=2, batch_num=2, losses=lambda e, s: 1.0)
    expected = [("begin", "train"), "on_train_begin"]
    step = 0
    for epoch in (1, 2):
        expected += [("epoch_begin", epoch), "on_train_epoch_begin"]
        for _ in range(2):
            step += 1
            expected += [("step_begin", step), "on_train_step_begin", ("step_end", step), "on_train_step_end"]
        expected += [("epoch_end", epoch), "on_train_epoch_end"]
    expected += [("end", "train"), "on_train_end"]
    assert log == expected
    assert (new.entered, new.exited) == (1, 1)

    log.clear()
    fake_eval([Legacy(log)], batch_num=1)  # on_eval_* call the legacy hooks too
    assert log == [
        ("begin", "eval"),
        ("epoch_begin", None),
        ("step_begin", 1),
        ("step_end", 1),
        ("epoch_end", None),
        ("end", "eval"),
    ]


def test_cb_params_fields():
    seen = {}

    def grab(rc):
        p = rc.original_args()
        seen.update(
            {
                k: p.get(k)
                for k in (
                    "cur_epoch_num",
                    "cur_step_num",
                    "batch_num",
                    "epoch_num",
                    "mode",
                    "dataset_sink_mode",
                    "optimizer",
                    "train_network",
                )
            }
        )
        seen["loss"] = p.net_outputs

    net = nn.Dense(2, 1)
    fake_train(LambdaCallback(on_train_step_end=grab), epochs=3, batch_num=4, losses=lambda e, s: 0.25, network=net)
    assert seen["cur_epoch_num"] == 3 and seen["cur_step_num"] == 12 and seen["batch_num"] == 4
    assert seen["epoch_num"] == 3 and seen["mode"] == "train" and seen["dataset_sink_mode"] is False
    assert seen["train_network"] is net and float(seen["loss"].asnumpy()) == 0.25


def test_manager_run_context_and_params_errors():
    with pytest.raises(TypeError, match="is not a Callback or a list of Callback"):
        _CallbackManager(object())
    with pytest.raises(TypeError, match="the elements in 'callbacks' must be Callback functions"):
        _CallbackManager([LossMonitor(), 1])
    with _CallbackManager(None) as m:
        m.on_train_begin(RunContext({}))  # nothing to call
    with pytest.raises(TypeError, match="should be dict type"):
        RunContext([1])
    rc = RunContext({"a": 1})
    assert rc.original_args() == {"a": 1} and not rc.get_stop_requested()
    rc.request_stop()
    assert rc.get_stop_requested()
    p = _InternalCallbackParam()
    p.x = 3
    assert p["x"] == 3 and p.x == 3 and p.get("y") is None
    with pytest.raises(AttributeError):
        _ = p.y
    with pytest.raises(KeyError):  # MindSpore raises KeyError
        _ = p.y
    assert not hasattr(p, "y") and getattr(p, "y", 5) == 5
    cb = Callback()
    with cb as entered:
        assert entered is cb


# ----------------------------------------------------------------------------- LossMonitor / TimeMonitor
def test_loss_monitor_text(capsys):
    values = {(1, 1): 2.304311513900757, (1, 2): 2.1, (2, 1): 1.5, (2, 2): 1.25}
    fake_train(LossMonitor(), epochs=2, batch_num=2, losses=lambda e, s: values[(e, s)])
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "epoch: 1 step: 1, loss is 2.304311513900757",
        f"epoch: 1 step: 2, loss is {float(np.float32(2.1))}",
        "epoch: 2 step: 1, loss is 1.5",
        "epoch: 2 step: 2, loss is 1.25",
    ]
    # per_print_times counts global steps; vector losses print their mean; tuple outputs print the first
    fake_train(LossMonitor(2), epochs=2, batch_num=3, step_fn=lambda e, s: Tensor(np.array([1.0, 2.0], np.float32)))
    assert capsys.readouterr().out.splitlines() == [
        "epoch: 1 step: 2, loss is 1.5",
        "epoch: 2 step: 1, loss is 1.5",
        "epoch: 2 step: 3, loss is 1.5",
    ]
    fake_train(LossMonitor(), epochs=1, batch_num=1, step_fn=lambda e, s: (Tensor(np.float32(0.5)), Tensor(False)))
    assert capsys.readouterr().out == "epoch: 1 step: 1, loss is 0.5\n"
    fake_train(LossMonitor(0), epochs=1, batch_num=2, losses=lambda e, s: 1.0)
    assert capsys.readouterr().out == ""


def test_loss_monitor_sink_mode_and_fit(capsys):
    # sink mode: one callback call per sink of 1000 steps, counters as MindSpore's
    fake_train(LossMonitor(), epochs=3, sink_size=1000, losses=lambda e, s: 0.5 / e)
    assert capsys.readouterr().out.splitlines() == [
        "epoch: 1 step: 1000, loss is 0.5",
        "epoch: 2 step: 1000, loss is 0.25",
        f"epoch: 3 step: 1000, loss is {float(np.float32(0.5 / 3))}",
    ]
    fake_train(
        LossMonitor(),
        epochs=1,
        batch_num=1,
        losses=lambda e, s: 1.0,
        eval_results=lambda e: {"acc": np.float64(0.75), "top": np.float32(0.5), "eval_loss": 0.1},
    )
    assert capsys.readouterr().out.splitlines() == [
        "epoch: 1 step: 1, loss is 1.0",
        "Eval result: epoch 1, metrics: {'acc': 0.75, 'top': 0.5}",
    ]


def test_loss_monitor_nan_and_args():
    with pytest.raises(ValueError, match=r"In epoch: 1 step: 2, loss is NAN or INF, training process cannot continue"):
        fake_train(LossMonitor(), epochs=1, batch_num=3, losses=lambda e, s: np.nan if s == 2 else 1.0)
    with pytest.raises(ValueError, match="must be int and must >= 0, but got '-1'"):
        LossMonitor(-1)
    with pytest.raises(TypeError, match="must be int, but got 'float'"):
        LossMonitor(1.5)


def test_time_monitor_text(capsys):
    fake_train([TimeMonitor()], epochs=2, batch_num=4, losses=lambda e, s: 1.0)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert re.fullmatch(r"Train epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms", line), line
    fake_train([TimeMonitor(data_time=True)], epochs=1, batch_num=2, losses=lambda e, s: 1.0)
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(
        r"Train epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms \(data time: \d+\.\d{3} ms\)", line
    )
    fake_eval([TimeMonitor()])
    assert capsys.readouterr().out.startswith("Eval epoch time: ")
    with pytest.raises(TypeError, match="The 'data_time' must be a bool, but got int."):
        TimeMonitor(data_time=1)
    cb = TimeMonitor()
    with pytest.raises(TypeError, match="must be int, but got 'NoneType'"):
        cb.epoch_end(RunContext(_InternalCallbackParam(mode="train", batch_num=0)))
    cb = TimeMonitor(data_size=5)
    cb.epoch_end(RunContext(_InternalCallbackParam(mode="train")))
    assert capsys.readouterr().out.startswith("Train epoch time: ")


# ----------------------------------------------------------------------------- EarlyStopping / ReduceLROnPlateau
def test_early_stopping(capsys):
    losses = [1.0, 0.8, 0.81, 0.79, 0.9, 0.95, 0.99]
    cb = EarlyStopping(monitor="eval_loss", patience=2, verbose=True)
    p = fake_train(
        cb, epochs=10, batch_num=1, losses=lambda e, s: 1.0, eval_results=lambda e: {"eval_loss": losses[e - 1]}
    )
    assert p.cur_epoch_num == 6 and cb.stopped_epoch == 6 and cb.best == pytest.approx(0.79)
    assert capsys.readouterr().out.strip() == "Epoch 00006: early stopping"
    # min_delta: improvements smaller than it do not count
    cb = EarlyStopping(monitor="eval_loss", patience=1, min_delta=0.05)
    p = fake_train(
        cb,
        epochs=10,
        batch_num=1,
        losses=lambda e, s: 1.0,
        eval_results=lambda e: {"eval_loss": [1.0, 0.97, 0.5, 0.49][e - 1]},
    )
    assert p.cur_epoch_num == 2
    # 'max' mode inferred for accuracy; patience 0 stops after the first epoch (MindSpore's rule)
    cb = EarlyStopping(monitor="acc", patience=0)
    p = fake_train(cb, epochs=5, batch_num=1, losses=lambda e, s: 1.0, eval_results=lambda e: {"acc": 0.1 * e})
    assert p.cur_epoch_num == 1 and cb.best == pytest.approx(0.1)
    # monitor="loss" reads the train loss; baseline must also be beaten
    cb = EarlyStopping(monitor="loss", patience=2, baseline=0.5)
    p = fake_train(cb, epochs=10, batch_num=1, losses=lambda e, s: 1.0 / e)
    assert p.cur_epoch_num == 2  # neither 1.0 nor 0.5 beats the baseline: the wait counter is never reset
    with pytest.raises(ValueError, match="mode should be 'auto', 'min' or 'max', but got up."):
        EarlyStopping(mode="up")
    with pytest.raises(TypeError, match="The type of 'monitor' should be 'str'"):
        EarlyStopping(monitor=1)


def test_early_stopping_restores_best_weights(capsys):
    net = nn.Dense(2, 1)
    values = iter([0.5, 0.3, 0.6, 0.7])

    def step(e, s):
        net.bias.set_data(Tensor(np.array([float(e)], np.float32)))
        return Tensor(np.float32(1.0))

    cb = EarlyStopping(monitor="eval_loss", patience=2, restore_best_weights=True, verbose=True)
    fake_train(
        cb, epochs=10, batch_num=1, step_fn=step, network=net, eval_results=lambda e: {"eval_loss": next(values)}
    )
    assert float(net.bias.asnumpy()[0]) == 2.0  # the weights of epoch 2, the best one
    assert "Restoring model weights from the end of the best epoch." in capsys.readouterr().out


def test_early_stopping_missing_monitor_is_ignored(caplog):
    cb = EarlyStopping(monitor="acc", patience=0)
    p = fake_train(cb, epochs=3, batch_num=1, losses=lambda e, s: 1.0)
    assert p.cur_epoch_num == 3 and "not available" in caplog.text


def _optimizer(lr=0.1):
    net = nn.Dense(2, 1)
    return net, nn.Momentum(net.trainable_params(), lr, 0.9)


def test_reduce_lr_on_plateau(capsys):
    net, opt = _optimizer(0.1)
    cb = ReduceLROnPlateau(monitor="eval_loss", factor=0.1, patience=1, verbose=True, cooldown=1, min_lr=0.0005)
    losses = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    fake_train(
        cb,
        epochs=6,
        batch_num=1,
        losses=lambda e, s: 1.0,
        network=net,
        optimizer=opt,
        eval_results=lambda e: {"eval_loss": losses[e - 1]},
    )
    # as MindSpore 2.10 prints it: the cooldown counter runs down before the wait counter is checked
    assert capsys.readouterr().out.splitlines() == [
        "Epoch 00002: ReduceLROnPlateau reducing learning rate to 0.010000001.",
        "Epoch 00003: ReduceLROnPlateau reducing learning rate to 0.001.",
        "Epoch 00004: ReduceLROnPlateau reducing learning rate to 0.0005.",
    ]
    assert float(opt.learning_rate.asnumpy()) == np.float32(0.0005)
    net = nn.Dense(2, 1)
    dyn = nn.Momentum(net.trainable_params(), [0.1, 0.05, 0.01], 0.9)
    with pytest.raises(ValueError, match="does not support dynamic learning rate"):
        fake_train(ReduceLROnPlateau(), epochs=1, batch_num=1, losses=lambda e, s: 1.0, optimizer=dyn)
    with pytest.raises(ValueError, match=r"must be in range of \(0.0, 1.0\)"):
        ReduceLROnPlateau(factor=1.0)


def test_learning_rate_scheduler():
    net, opt = _optimizer(0.1)
    seen = []

    def schedule(lr, step):
        seen.append((lr, step))
        return lr * 0.5 if step % 2 == 0 else lr

    fake_train(LearningRateScheduler(schedule), epochs=1, batch_num=4, losses=lambda e, s: 1.0, optimizer=opt)
    assert [s for _, s in seen] == [1, 2, 3, 4]
    assert seen[0][0] == 0.1 and seen[2][0] == 0.05  # the printed float32 value, as MindSpore reads it
    assert float(opt.learning_rate.asnumpy()) == np.float32(0.025)


def test_history_and_lambda():
    hist = History()
    fake_train(
        hist,
        epochs=2,
        batch_num=2,
        losses=lambda e, s: e + s / 10,
        eval_results=lambda e: {"acc": e / 10, "eval_loss": 1.0},
    )
    assert hist.epoch == {"epoch": [1, 2]}
    assert hist.history["net_output"] == [pytest.approx(1.2), pytest.approx(2.2)]
    assert hist.history["acc"] == [0.1, 0.2]
    calls = []
    cb = LambdaCallback(
        on_train_epoch_end=lambda rc: calls.append(rc.original_args().cur_epoch_num),
        on_eval_end=lambda rc: calls.append("eval"),
    )
    fake_train(cb, epochs=2, batch_num=1, losses=lambda e, s: 1.0)
    fake_eval(cb)
    assert calls == [1, 2, "eval"]


# ----------------------------------------------------------------------------- OnRequestExit
def test_on_request_exit_signal_and_config(tmp_path, caplog):
    net = nn.Dense(2, 1)
    cb = OnRequestExit(file_name="Net", directory=str(tmp_path), sig=signal.SIGUSR1)

    def step(e, s):
        if (e, s) == (1, 2):
            os.kill(os.getpid(), signal.SIGUSR1)
        return Tensor(np.float32(1.0))

    p = fake_train(cb, epochs=3, batch_num=4, step_fn=step, network=net)
    assert p.cur_epoch_num == 1 and p.cur_step_num == 2  # stopped after the step that saw the signal
    saved = tmp_path / "rank_0" / "Net_train.ckpt"
    loaded = ms.load_checkpoint(str(saved))
    assert int(loaded["epoch_num"].asnumpy()) == 1 and int(loaded["step_num"].asnumpy()) == 2
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), net.weight.asnumpy())
    assert "cannot export MINDIR" in caplog.text
    assert signal.getsignal(signal.SIGUSR1) is signal.SIG_DFL  # handler restored

    # the next run loads the saved checkpoint when it starts; a config file also asks for an exit
    net2 = nn.Dense(2, 1)
    config = tmp_path / "exit.json"
    cb2 = OnRequestExit(
        save_mindir=False, file_name="Net", directory=str(tmp_path), config_file=str(config), sig=signal.SIGUSR1
    )

    def step2(e, s):
        if s == 3:
            config.write_text(json.dumps({"GracefulExit": 1}))
        return Tensor(np.float32(1.0))

    p = fake_train(cb2, epochs=3, batch_num=4, step_fn=step2, network=net2)
    assert p.cur_step_num == 3
    np.testing.assert_array_equal(net2.weight.asnumpy(), net.weight.asnumpy())
    with pytest.raises(ValueError, match="SIGKILL"):
        OnRequestExit(directory=str(tmp_path), sig=signal.SIGKILL)
    with pytest.raises(ValueError, match="'save_ckpt' must be isinstance of"):
        OnRequestExit(save_ckpt=1, directory=str(tmp_path))


# ----------------------------------------------------------------------------- BackupAndRestore
class _DropNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.drop = nn.Dropout(p=0.5)
        self.fc2 = nn.Dense(8, 2)

    def construct(self, x):
        return self.fc2(self.drop(self.fc1(x)))


def _train_setup():
    ms.set_seed(3)
    net = _DropNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    # one rate per step of the 12 trained (past its end a dynamic lr list raises, as MindSpore's Gather does)
    lr = nn.piecewise_constant_lr([3, 6, 9, 12], [0.1, 0.05, 0.01, 0.005])
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    train.set_train()
    rng = np.random.RandomState(0)
    data = [
        (Tensor(rng.randn(8, 4).astype(np.float32)), Tensor(rng.randint(0, 2, 8).astype(np.int32))) for _ in range(3)
    ]
    return train, opt, data


def _run(callbacks, record, kill_at=None):
    train, opt, data = _train_setup()

    def step(e, s):
        if (e, s) == kill_at:
            raise _Stop
        out = train(*data[(s + e) % 3])  # the data order depends on the epoch, like a shuffled dataset
        record.append(float(out.asnumpy()))
        return out

    return fake_train(callbacks, epochs=4, batch_num=3, step_fn=step, network=train, optimizer=opt)


def test_backup_and_restore_reproduces_losses(tmp_path):
    full = []
    _run([], full)
    assert len(full) == 12

    backup = str(tmp_path / "backup")
    first = []
    with pytest.raises(_Stop):
        _run([BackupAndRestore(backup)], first, kill_at=(3, 2))
    assert first == full[:7] and os.path.exists(os.path.join(backup, "backup.ckpt"))

    second = []
    cb = BackupAndRestore(backup)
    p = _run([cb], second)
    assert cb.restored_epoch == 2 and cb.restored_step == 6
    assert p.cur_epoch_num == 4 and p.cur_step_num == 12
    assert second == full[6:]  # bit for bit: weights, momentum, lr schedule position, dropout RNG
    assert not os.path.exists(os.path.join(backup, "backup.ckpt"))  # delete_checkpoint=True


def test_backup_and_restore_save_freq_and_args(tmp_path):
    backup = str(tmp_path / "b")
    cb = BackupAndRestore(backup, save_freq=2, delete_checkpoint=False)
    saved = []

    def check(rc):
        saved.append(os.path.exists(cb.backup_file))

    fake_train(
        [cb, LambdaCallback(on_train_epoch_end=check)],
        epochs=3,
        batch_num=1,
        losses=lambda e, s: 1.0,
        network=nn.Dense(1, 1),
    )
    assert saved == [False, True, True] and os.path.exists(cb.backup_file)
    assert int(ms.load_checkpoint(cb.backup_file)["__backup_epoch_num__"].asnumpy()) == 2
    with pytest.raises(TypeError, match="must be int, but got 'str'"):
        BackupAndRestore(backup, save_freq="step")
    with pytest.raises(TypeError, match="must be a bool, but got int"):
        BackupAndRestore(backup, delete_checkpoint=1)
    with pytest.raises(TypeError, match="The path is invalid, the type should be string."):
        BackupAndRestore(1)


# ----------------------------------------------------------------------------- ProgressBar
def test_progress_bar_plain_lines():
    out = io.StringIO()  # not a terminal: plain lines
    fake_train(
        ProgressBar(lines_per_epoch=2, file=out),
        epochs=2,
        batch_num=4,
        losses=lambda e, s: 1.0 / s,
        eval_results=lambda e: {"acc": 0.5},
    )
    lines = out.getvalue().splitlines()
    assert re.fullmatch(r"epoch 1 step 2/4 \(50%\), loss 0\.5, \d+\.\d\d ms/step", lines[0]), lines
    assert re.fullmatch(r"epoch 1 done in \d+\.\d\d s, loss 0\.25", lines[1]), lines
    assert lines[2] == "epoch 1 metrics: {'acc': 0.5}"
    assert len(lines) == 6
    with pytest.raises(TypeError, match="'dynamic' must be bool or None"):
        ProgressBar(dynamic=1)


def test_progress_bar_tqdm():
    pytest.importorskip("tqdm")
    out = io.StringIO()
    fake_train(ProgressBar(file=out, dynamic=True), epochs=1, batch_num=5, losses=lambda e, s: 0.125)
    fake_eval(ProgressBar(file=out, dynamic=True), batch_num=3)
    text = out.getvalue()
    assert "epoch 1" in text and "5/5" in text and "loss=0.125" in text and "eval" in text and "3/3" in text
