"""Model: train / eval / fit / predict on small synthetic datasets, network building, callback hooks and
cb_params, MindSpore's errors."""

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
from sporax import Tensor, nn
from sporax.train import Model
from sporax.train.callback import Callback, LossMonitor
from sporax.train.metrics import Accuracy, Loss

N, D, C = 48, 4, 3


def data(n=N, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, D)).astype(np.float32)
    w = rng.standard_normal((D, C)).astype(np.float32)
    y = np.argmax(x @ w, axis=1).astype(np.int32)
    return x, y


def dataset(batch=8, n=N, shuffle=False, columns=("x", "y"), seed=0):
    x, y = data(n, seed)
    cols = {"x": x, "y": y}
    if len(columns) == 3:
        cols["z"] = y
    return ds.NumpySlicesDataset({k: cols[k] for k in columns}, shuffle=shuffle).batch(batch)


def make(metrics=None, lr=0.1):
    ms.set_seed(1)
    net = nn.Dense(D, C)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return net, loss, opt, Model(net, loss, opt, metrics=metrics)


class Recorder(Callback):
    """Records every hook with the counters it saw."""

    def __init__(self):
        self.calls = []
        self.losses = []
        self.params = []

    def _rec(self, name, run_context):
        p = run_context.original_args()
        self.calls.append((name, p.get("cur_epoch_num"), p.get("cur_step_num")))
        self.params.append(dict(p))

    def on_train_begin(self, rc):
        self._rec("train_begin", rc)

    def on_train_epoch_begin(self, rc):
        self._rec("epoch_begin", rc)

    def on_train_step_begin(self, rc):
        self._rec("step_begin", rc)

    def on_train_step_end(self, rc):
        self._rec("step_end", rc)
        self.losses.append(float(rc.original_args().net_outputs.asnumpy()))

    def on_train_epoch_end(self, rc):
        self._rec("epoch_end", rc)

    def on_train_end(self, rc):
        self._rec("train_end", rc)

    def on_eval_begin(self, rc):
        self._rec("eval_begin", rc)

    def on_eval_epoch_begin(self, rc):
        self._rec("eval_epoch_begin", rc)

    def on_eval_step_begin(self, rc):
        self._rec("eval_step_begin", rc)

    def on_eval_step_end(self, rc):
        self._rec("eval_step_end", rc)

    def on_eval_epoch_end(self, rc):
        self._rec("eval_epoch_end", rc)

    def on_eval_end(self, rc):
        self._rec("eval_end", rc)


def reference_losses(epochs, batch=8, lr=0.1):
    """The same training written as a plain loop over TrainOneStepCell."""
    ms.set_seed(1)
    net = nn.Dense(D, C)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), lr, 0.9))
    step.set_train()
    x, y = data()
    out = []
    for _ in range(epochs):
        for i in range(0, N, batch):
            out.append(float(step(Tensor(x[i : i + batch]), Tensor(y[i : i + batch])).asnumpy()))
    return out


# ---------------------------------------------------------------- building
def test_network_building_paths():
    net, loss, opt, model = make()
    assert isinstance(model.train_network, nn.TrainOneStepCell)
    assert isinstance(model.train_network.network, nn.WithLossCell)
    assert model.predict_network is net and model.eval_network is None

    only_loss = Model(net, loss)
    assert isinstance(only_loss.train_network, nn.WithLossCell)
    train_cell = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    assert Model(train_cell).train_network is train_cell

    with_metrics = Model(net, loss, opt, metrics={"acc": Accuracy()})
    assert isinstance(with_metrics.eval_network, nn.WithEvalCell)
    assert with_metrics._eval_indexes == [0, 1, 2]

    own_eval = nn.WithEvalCell(net, loss)
    m = Model(net, loss, opt, metrics={"acc"}, eval_network=own_eval, eval_indexes=[0, 1, 2])
    assert m.eval_network is own_eval


def test_network_building_errors():
    net, loss, opt, _ = make()
    with pytest.raises(ValueError, match="If `metrics` is set, `eval_network` must not be None"):
        Model(net, metrics={"acc"})
    with pytest.raises(ValueError, match="'eval_indexes' must be a list or None"):
        Model(net, loss, opt, metrics={"acc"}, eval_network=nn.WithEvalCell(net, loss), eval_indexes=[0, 1])
    with pytest.raises(ValueError, match="Auto mixed precision will not work because 'optimizer' is None"):
        Model(net, loss, amp_level="O2")
    with pytest.raises(ValueError, match="'amp_level' must be one of"):
        Model(net, loss, opt, amp_level="O9")
    with pytest.raises(ValueError, match="The argument in 'kwargs' should be 'loss_scale_manager'"):
        Model(net, loss, opt, keep_bn=True)
    with pytest.raises(ValueError, match="'optimizer' can not be None when set 'loss_scale_manager'"):
        Model(net, loss, loss_scale_manager=object())
    with pytest.raises(TypeError, match="'network' must be a Cell"):
        Model(lambda x: x)
    with pytest.raises(KeyError):
        Model(net, loss, opt, metrics={"no_such_metric"})


# ------------------------------------------------------------------ train
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_train_matches_a_plain_loop(mode):
    ms.set_context(mode=mode)
    ref = reference_losses(2)
    _, _, _, model = make()
    rec = Recorder()
    model.train(2, dataset(), callbacks=[rec])
    np.testing.assert_array_equal(rec.losses, ref)
    assert ref[-1] < ref[0]


def test_prebuilt_train_cell_trains_like_loss_and_optimizer():
    ref = reference_losses(1)
    ms.set_seed(1)
    net = nn.Dense(D, C)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    rec = Recorder()
    Model(step).train(1, dataset(), callbacks=rec)
    np.testing.assert_array_equal(rec.losses, ref)


def test_callback_hook_order_and_counters():
    _, _, _, model = make()
    rec = Recorder()
    model.train(2, dataset(batch=16), callbacks=[rec])
    steps = []
    for e in (1, 2):
        steps += [("epoch_begin", e, 3 * (e - 1))]
        for s in range(1, 4):
            k = 3 * (e - 1) + s
            steps += [("step_begin", e, k), ("step_end", e, k)]
        steps += [("epoch_end", e, 3 * e)]
    assert rec.calls == [("train_begin", None, 0), *steps, ("train_end", 2, 6)]


def test_cb_params_fields():
    net, loss, opt, model = make()
    rec = Recorder()
    train_ds = dataset(batch=16)
    model.train(1, train_ds, callbacks=[rec])
    p = rec.params[3]  # the first step_end
    assert p["train_network"] is model.train_network
    assert p["network"] is net and p["optimizer"] is opt and p["loss_fn"] is loss
    assert p["epoch_num"] == 1 and p["batch_num"] == 3 and p["cur_epoch_num"] == 1 and p["cur_step_num"] == 1
    assert p["mode"] == "train" and p["dataset_sink_mode"] is False
    assert p["train_dataset"] is train_ds and p["list_callback"] == [rec]
    assert p["parallel_mode"] == "stand_alone" and p["device_number"] == 1
    x, y = p["train_dataset_element"]
    assert x.shape == (16, D) and y.shape == (16,)
    assert isinstance(p["net_outputs"], Tensor) and p["net_outputs"].shape == ()


def test_legacy_hook_spelling_and_request_stop():
    class Stopper(Callback):
        def __init__(self):
            self.seen = []

        def step_end(self, run_context):
            self.seen.append(run_context.original_args().cur_step_num)
            if len(self.seen) == 2:
                run_context.request_stop()

    _, _, _, model = make()
    cb = Stopper()
    model.train(3, dataset(), callbacks=cb)
    assert cb.seen == [1, 2]


def test_parameters_are_the_cells_at_every_callback():
    class Check(Callback):
        def __init__(self):
            self.ok = []

        def on_train_step_end(self, rc):
            # the weights a callback reads are those that produced this step's update
            p = rc.original_args()
            w = p.network.weight.asnumpy()
            self.ok.append(not np.array_equal(w, self.prev) if hasattr(self, "prev") else True)
            self.prev = w

    _, _, _, model = make()
    cb = Check()
    model.train(1, dataset(), callbacks=[cb])
    assert all(cb.ok) and len(cb.ok) == N // 8


def test_initial_epoch_continues_counters_and_data():
    _, _, _, model = make()
    rec = Recorder()
    model.train(3, dataset(), callbacks=[rec], initial_epoch=1)
    epochs = [c[1] for c in rec.calls if c[0] == "epoch_begin"]
    assert epochs == [2, 3]
    assert rec.params[0]["epoch_num"] == 2


def test_loss_monitor_text(capsys):
    _, _, _, model = make()
    model.train(1, dataset(batch=16), callbacks=[LossMonitor()])
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split(",")[0] for line in lines] == [f"epoch: 1 step: {s}" for s in (1, 2, 3)]
    assert all(", loss is " in line for line in lines)


# ------------------------------------------------------------ eval / fit / predict
def accuracy_of(net):
    x, y = data()
    return float(np.mean(np.argmax(net(Tensor(x)).asnumpy(), axis=1) == y))


def test_eval_gives_the_metrics():
    net, loss, _, model = make(metrics={"acc": Accuracy(), "loss": Loss()})
    model.train(2, dataset())
    rec = Recorder()
    res = model.eval(dataset(batch=16), callbacks=rec)
    assert set(res) == {"acc", "loss"}
    assert res["acc"] == pytest.approx(accuracy_of(net))
    x, y = data()
    want_loss = float(loss(net(Tensor(x)), Tensor(y)).asnumpy())
    assert res["loss"] == pytest.approx(want_loss, rel=1e-5)
    names = [c[0] for c in rec.calls]
    assert names == ["eval_begin", "eval_epoch_begin"] + ["eval_step_begin", "eval_step_end"] * 3 + [
        "eval_epoch_end",
        "eval_end",
    ]
    p = rec.params[-1]
    assert p["mode"] == "eval" and p["batch_num"] == 3 and p["metrics"] == res


def test_eval_with_own_eval_network_and_indexes():
    class Eval(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x, y):
            return self.net(x), y

    net, loss, opt, _ = make()
    model = Model(net, loss, opt, metrics={"acc": Accuracy()}, eval_network=Eval(net))
    assert model.eval(dataset())["acc"] == pytest.approx(accuracy_of(net))


def test_fit_evaluates_every_valid_frequency(capsys):
    _, _, _, model = make(metrics={"acc": Accuracy()})
    rec = Recorder()
    model.fit(4, dataset(), dataset(batch=16), valid_frequency=2, callbacks=[LossMonitor(0), rec])
    out = capsys.readouterr().out
    assert [line.split(", metrics")[0] for line in out.splitlines()] == [
        "Eval result: epoch 2",
        "Eval result: epoch 4",
    ]
    names = [c[0] for c in rec.calls]
    assert names.count("eval_begin") == 2 and names.count("step_end") == 4 * 6
    # the training counters are back after the evaluation
    after = [c for c in rec.calls if c[0] == "epoch_end"]
    assert [c[2] for c in after] == [6, 12, 18, 24]


def test_fit_valid_frequency_list_and_errors():
    _, _, _, model = make(metrics={"acc"})
    rec = Recorder()
    model.fit(3, dataset(), dataset(), valid_frequency=[3], callbacks=rec)
    assert [c[0] for c in rec.calls].count("eval_begin") == 1
    with pytest.raises(TypeError, match="'valid_frequency' must be a list or an integer"):
        model.fit(1, dataset(), dataset(), valid_frequency=1.5)
    _, _, _, plain = make()
    with pytest.raises(ValueError, match="'metrics' can not be"):
        plain.fit(1, dataset(), dataset())


def test_predict():
    net, _, _, model = make()
    x, _ = data()
    np.testing.assert_allclose(model.predict(Tensor(x)).asnumpy(), net(Tensor(x)).asnumpy(), rtol=1e-6)
    with pytest.raises(TypeError, match="The types of input data must be"):
        model.predict(object())


# ------------------------------------------------------------------ errors
def test_train_argument_errors():
    _, _, _, model = make()
    d = dataset()
    with pytest.raises(ValueError, match="must bigger than parameter 'initial_epoch'"):
        model.train(2, d, initial_epoch=2)
    with pytest.raises(ValueError, match="'sink_size' must be -1 or positive, but got 0"):
        model.train(1, d, dataset_sink_mode=True, sink_size=0)
    with pytest.raises(ValueError, match="'sink_size' must be -1 or positive, but got -2"):
        model.train(1, d, dataset_sink_mode=True, sink_size=-2)
    with pytest.raises(TypeError, match="'dataset_sink_mode' must be bool"):
        model.train(1, d, dataset_sink_mode=1)
    with pytest.raises(ValueError, match="For 'Model.train', the 'epoch' must be a positive int"):
        model.train(0, d)
    with pytest.raises(ValueError, match="For Model.eval, the model argument 'metrics' can not be None or empty"):
        model.eval(d)


def test_wrong_number_of_columns():
    _, _, _, model = make()
    with pytest.raises(ValueError, match="'train_dataset' should return two elements, but got 3"):
        model.train(1, dataset(columns=("x", "y", "z")))
    ms.set_seed(1)
    net = nn.Dense(D, C)
    train_cell = nn.TrainOneStepCell(
        nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True)),
        nn.Momentum(net.trainable_params(), 0.1, 0.9),
    )
    with pytest.raises(ValueError, match=r"For 'Model', the train network 'TrainOneStepCell' takes"):
        Model(train_cell).train(1, dataset(columns=("x",)))

    class Two(nn.Cell):
        def construct(self, x, y):
            return x.sum()

    with pytest.raises(ValueError, match=r"takes 2 inputs, but the train dataset yields 3 columns \['x', 'y', 'z'\]"):
        Model(Two()).train(1, dataset(columns=("x", "y", "z")))


def test_a_dataset_trains_one_model_only():
    _, _, _, first = make()
    d = dataset()
    first.train(1, d)
    _, _, _, second = make()
    with pytest.raises(RuntimeError, match="had been used in other model"):
        second.train(1, d)


def test_build_checks_and_warm_up():
    ref = reference_losses(2)
    _, _, _, model = make(metrics={"acc"})
    d = dataset()
    model.build(d, dataset(), epoch=2)
    with pytest.raises(ValueError, match="the value of parameter 'epoch' in Model.build should be equal"):
        model.train(1, d)
    rec = Recorder()
    model.train(2, d, callbacks=rec)
    np.testing.assert_array_equal(rec.losses, ref)  # the warm-up step left no trace
    _, _, _, plain = make()
    with pytest.raises(RuntimeError, match="metric fn can not be None or empty"):
        plain.build(valid_dataset=dataset())
    with pytest.raises(ValueError, match="can not both be None"):
        plain.build()


def test_mixed_precision_and_loss_scale_paths():
    from sporax.amp import DynamicLossScaleManager, FixedLossScaleManager

    for kw in (
        {"amp_level": "O2"},
        {"loss_scale_manager": FixedLossScaleManager(128.0, drop_overflow_update=True)},
        {"loss_scale_manager": DynamicLossScaleManager(2.0**10, 2, 50)},
    ):
        ms.set_seed(1)
        net = nn.Dense(D, C)
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9), **kw)
        assert isinstance(model.train_network, nn.TrainOneStepWithLossScaleCell)
        seen = []

        class Outputs(Callback):
            def on_train_step_end(self, rc):
                out = rc.original_args().net_outputs
                seen.append((float(out[0].asnumpy()), bool(out[1].asnumpy())))

        model.train(2, dataset(), callbacks=Outputs())
        model.train(3, dataset(), callbacks=Outputs(), dataset_sink_mode=True, sink_size=4, initial_epoch=2)
        assert len(seen) == 12 + 1 and all(np.isfinite(v) for v, _ in seen)
        manager = kw.get("loss_scale_manager")
        if isinstance(manager, FixedLossScaleManager):
            assert manager.get_loss_scale() == 128.0 and not any(o for _, o in seen)
            assert seen[-2][0] < seen[0][0]


def test_fit_in_sink_mode(capsys):
    net, _, _, model = make(metrics={"acc": Accuracy()})
    rec = Recorder()
    model.fit(2, dataset(), dataset(batch=16), callbacks=[LossMonitor(), rec], dataset_sink_mode=True, sink_size=3)
    out = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in out] == [
        "epoch: 1 step: 3",
        "Eval result: epoch 1",
        "epoch: 2 step: 3",
        "Eval result: epoch 2",
    ]
    assert out[-1] == f"Eval result: epoch 2, metrics: {{'acc': {accuracy_of(net)}}}"
    ends = [(c, p) for c, p in zip(rec.calls, rec.params) if c[0] == "epoch_end"]
    assert [c[2] for c, _ in ends] == [3, 6]
    assert all(p["dataset_sink_mode"] is True and "acc" in p["metrics"] for _, p in ends)
