"""Sink mode: the same losses as step-by-step training, MindSpore's sink_size semantics and counters,
DatasetHelper / connect_network_with_dataset, data_sink, both sink strategies."""

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
from sporax import Parameter, Tensor, nn, ops
from sporax.train import DatasetHelper, Model, connect_network_with_dataset, data_sink
from sporax.train._sink import choose_strategy
from sporax.train.callback import Callback, LossMonitor

N, D, C = 40, 4, 3


def numbers(n=N):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, D)).astype(np.float32)
    y = np.argmax(x @ rng.standard_normal((D, C)), axis=1).astype(np.int32)
    return x, y


def shuffled(batch=4, n=N, drop=True):
    ds.config.set_seed(3)
    x, y = numbers(n)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=True).batch(batch, drop_remainder=drop)


class Net(nn.Cell):
    def __init__(self, dropout=False):
        super().__init__()
        self.fc = nn.Dense(D, 8)
        self.out = nn.Dense(8, C)
        self.drop = nn.Dropout(p=0.3) if dropout else None

    def construct(self, x):
        h = ops.relu(self.fc(x))
        if self.drop is not None:
            h = self.drop(h)
        return self.out(h)


def make(dropout=False):
    ms.set_seed(7)
    net = Net(dropout)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return net, Model(net, loss, opt)


class Losses(Callback):
    def __init__(self):
        self.losses, self.steps, self.epochs, self.batch_nums = [], [], [], []

    def on_train_step_end(self, rc):
        p = rc.original_args()
        self.losses.append(float(p.net_outputs.asnumpy()))
        self.steps.append(p.cur_step_num)
        self.epochs.append(p.cur_epoch_num)
        self.batch_nums.append(p.batch_num)


@pytest.fixture(params=["scan", "loop"])
def strategy(request, monkeypatch):
    monkeypatch.setenv("SPORAX_SINK_STRATEGY", request.param)
    return request.param


@pytest.mark.parametrize(("strategy", "mode"), [("scan", ms.PYNATIVE_MODE), ("loop", ms.GRAPH_MODE)])
def test_sink_and_step_by_step_give_the_same_losses(strategy, mode, monkeypatch):
    monkeypatch.setenv("SPORAX_SINK_STRATEGY", strategy)
    ms.set_context(mode=mode)
    net_a, model_a = make(dropout=True)
    steps = Losses()
    model_a.train(3, shuffled(), callbacks=[steps])  # 10 batches per epoch
    net_b, model_b = make(dropout=True)
    sinks = Losses()
    model_b.train(6, shuffled(), callbacks=[sinks], dataset_sink_mode=True, sink_size=5)
    assert model_b.train_network is not None and len(sinks.losses) == 6
    # a sink reports its last step; same data order, same dropout masks, same updates
    np.testing.assert_array_equal(sinks.losses, steps.losses[4::5])
    for pa, pb in zip(net_a.get_parameters(), net_b.get_parameters()):
        np.testing.assert_array_equal(pa.asnumpy(), pb.asnumpy())
    assert sinks.steps == [5, 10, 15, 20, 25, 30] and sinks.epochs == [1, 2, 3, 4, 5, 6]
    assert sinks.batch_nums == [5] * 6


def test_sink_size_continues_across_dataset_epochs(strategy, capsys):
    """Each sink epoch takes the next sink_size batches of the data stream (MindSpore's semantics)."""
    seen = Parameter(Tensor(np.zeros((), np.float32)), name="seen", requires_grad=False)
    count = Parameter(Tensor(np.zeros((), np.float32)), name="count", requires_grad=False)

    class Step(nn.Cell):
        def __init__(self):
            super().__init__()
            self.seen, self.count = seen, count

        def construct(self, x):
            ops.assign_add(self.seen, x.sum())
            ops.assign_add(self.count, Tensor(1.0, ms.float32))
            return x.sum()

    x = np.arange(10, dtype=np.float32)
    data = ds.NumpySlicesDataset({"x": x}, shuffle=False).batch(1)
    rec = Losses()
    Model(Step()).train(5, data, callbacks=[rec, LossMonitor()], dataset_sink_mode=True, sink_size=4)
    stream = np.tile(x, 2)  # 20 steps over two dataset epochs
    assert rec.losses == [float(stream[4 * k + 3]) for k in range(5)]
    assert float(count.asnumpy()) == 20 and float(seen.asnumpy()) == stream.sum()
    out = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in out] == [f"epoch: {e} step: 4" for e in range(1, 6)]


def test_sink_size_minus_one_is_the_dataset(strategy):
    _, model = make()
    rec = Losses()
    model.train(2, shuffled(), callbacks=rec, dataset_sink_mode=True)
    assert rec.steps == [10, 20] and rec.batch_nums == [10, 10]


def test_sink_with_a_smaller_last_batch(strategy):
    """A shape change inside a sink starts a new compiled chunk; the numbers stay those of the loop."""
    _, model_a = make()
    steps = Losses()
    model_a.train(2, shuffled(batch=6, drop=False), callbacks=steps)  # 7 batches, the last of 4 rows
    _, model_b = make()
    sinks = Losses()
    model_b.train(2, shuffled(batch=6, drop=False), callbacks=sinks, dataset_sink_mode=True)
    np.testing.assert_array_equal(sinks.losses, [steps.losses[6], steps.losses[13]])


def test_sink_epoch_callbacks_and_stop():
    class Stop(Callback):
        def on_train_epoch_end(self, rc):
            if rc.original_args().cur_epoch_num == 2:
                rc.request_stop()

    _, model = make()
    rec = Losses()
    model.train(5, shuffled(), callbacks=[rec, Stop()], dataset_sink_mode=True, sink_size=3)
    assert rec.steps == [3, 6]


def test_strategy_choice(monkeypatch):
    monkeypatch.delenv("SPORAX_SINK_STRATEGY", raising=False)
    conv = nn.SequentialCell([nn.Conv2d(1, 2, 3), nn.Flatten()])
    assert choose_strategy(Net()) == "scan" and choose_strategy(conv) == "scan"
    monkeypatch.setenv("SPORAX_SINK_STRATEGY", "loop")
    assert choose_strategy(conv) == "loop"


def test_conv_network_sinks_in_one_program_with_the_loop_numbers(monkeypatch):
    """A conv net (im2col + GEMM on CPU) inside the scan gives the numbers of the step-by-step loop."""

    def run(strategy):
        monkeypatch.setenv("SPORAX_SINK_STRATEGY", strategy)
        ms.set_seed(3)
        net = nn.SequentialCell([nn.Conv2d(1, 4, 3, pad_mode="valid"), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten()])
        net.append(nn.Dense(4 * 3 * 3, C))
        model = Model(
            net,
            nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
            nn.Momentum(net.trainable_params(), 0.1, 0.9),
        )
        rng = np.random.default_rng(0)
        x = rng.standard_normal((24, 1, 8, 8)).astype(np.float32)
        y = rng.integers(0, C, 24).astype(np.int32)
        rec = Losses()
        data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)
        model.train(2, data, callbacks=rec, dataset_sink_mode=True, sink_size=3)
        return rec.losses, [p.asnumpy() for p in net.get_parameters()]

    scan_losses, scan_w = run("scan")
    loop_losses, loop_w = run("loop")
    np.testing.assert_allclose(scan_losses, loop_losses, rtol=1e-6)
    for a, b in zip(scan_w, loop_w):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


# --------------------------------------------------------------- DatasetHelper
def test_dataset_helper_without_sink_yields_rows_per_epoch():
    x, y = numbers()
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)
    helper = DatasetHelper(data, dataset_sink_mode=False, epoch_num=2)
    for _ in range(2):
        rows = list(helper)
        assert len(rows) == 5
        np.testing.assert_array_equal(rows[0][0].asnumpy(), x[:8])
    assert helper.sink_size() == 1
    types, shapes = helper.types_shapes()
    assert types == [ms.float32, ms.int32] and shapes == [(8, D), (8,)]
    with pytest.raises(RuntimeError, match="should be called in dataset sink mode"):
        connect_network_with_dataset(Net(), helper)


def test_dataset_helper_sink_and_connected_network(strategy):
    """Seed 001's custom loop: DatasetHelper(sink) + connect_network_with_dataset, one call per sink."""
    ms.set_seed(7)
    net = Net()
    train = nn.TrainOneStepCell(
        nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
        nn.Momentum(net.trainable_params(), 0.1, 0.9),
    )
    ref = []
    x, y = numbers()
    for k in range(12):  # 3 sinks of 4 batches of 8 (the data has 5: the sinks go on into the next epoch)
        i = (k % 5) * 8
        ref.append(float(train(Tensor(x[i : i + 8]), Tensor(y[i : i + 8])).asnumpy()))

    ms.set_seed(7)
    net = Net()
    train = nn.TrainOneStepCell(
        nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
        nn.Momentum(net.trainable_params(), 0.1, 0.9),
    )
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)
    helper = DatasetHelper(data, dataset_sink_mode=True, sink_size=4, epoch_num=3)
    sink_net = connect_network_with_dataset(train, helper)
    assert connect_network_with_dataset(train, helper) is sink_net
    assert sink_net.sink_strategy == strategy and helper.sink_size() == 4
    assert list(sink_net.parameters_dict()) == list(train.parameters_dict())  # checkpoint names unchanged
    got = []
    for _ in range(3):
        for inputs in helper:
            assert inputs == ()
            got.append(float(sink_net(*inputs).asnumpy()))
    np.testing.assert_array_equal(got, ref[3::4])
    with pytest.raises(TypeError, match="takes its data from the dataset"):
        sink_net(Tensor(x[:8]))
    with pytest.raises(ValueError, match="connected to other network"):
        connect_network_with_dataset(Net(), helper)
    helper.release()


def test_dataset_helper_arguments():
    data = ds.NumpySlicesDataset({"x": np.zeros((4, 2), np.float32)}, shuffle=False).batch(2)
    with pytest.raises(ValueError, match="'sink_size' must be -1 or positive, but got sink_size 0"):
        DatasetHelper(data, True, 0)
    with pytest.raises(TypeError, match="'dataset_sink_mode' must be bool"):
        DatasetHelper(data, 1)
    assert DatasetHelper(data, True).sink_size() == 2


def test_connected_network_checks_the_columns():
    data = ds.NumpySlicesDataset({"x": np.zeros((4, 2), np.float32)}, shuffle=False).batch(2)
    helper = DatasetHelper(data, True, 2)
    net = connect_network_with_dataset(nn.WithLossCell(nn.Dense(2, 2), nn.MSELoss()), helper)
    with pytest.raises(ValueError, match="takes 2 inputs, but the train dataset yields 1 columns"):
        net()
    helper.release()


# ----------------------------------------------------------------- data_sink
def test_data_sink_runs_sink_size_steps_per_call(strategy):
    total = Parameter(Tensor(np.zeros((), np.float32)), name="total", requires_grad=False)

    def step(x, y):
        ops.assign_add(total, (x * y).sum())
        return x.sum() + total

    x = np.arange(6, dtype=np.float32)
    data = ds.NumpySlicesDataset({"x": x, "y": 2 * x}, shuffle=False)
    sink = data_sink(step, data, sink_size=4)
    outs = [float(sink().asnumpy()) for _ in range(3)]  # 12 steps: twice round the data
    stream = np.tile(x, 2)
    acc = np.cumsum(2 * stream * stream)
    assert outs == [float(stream[k] + acc[k]) for k in (3, 7, 11)]
    assert float(total.asnumpy()) == acc[-1]


def test_data_sink_with_a_train_step_and_errors():
    x, y = numbers()
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)
    ms.set_seed(7)
    net = Net()
    train = nn.TrainOneStepCell(
        nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
        nn.Momentum(net.trainable_params(), 0.1, 0.9),
    )
    sink = data_sink(train, data, sink_size=5)
    first = float(sink().asnumpy())
    second = float(sink().asnumpy())
    assert np.isfinite(first) and second < first
    with pytest.raises(ValueError, match="has been used with network"):
        data_sink(train, data)
    fresh = ds.NumpySlicesDataset({"x": x}, shuffle=False)
    with pytest.raises(ValueError, match="'sink_size' must be positive, but got sink_size 0"):
        data_sink(train, fresh, sink_size=0)
    with pytest.raises(TypeError, match="'sink_size' should be int"):
        data_sink(train, fresh, sink_size=1.0)
    with pytest.raises(ValueError, match="input shape of 'set_inputs'"):
        data_sink(train, fresh, input_signature=Tensor(np.zeros((3,), np.float32)))


def test_a_step_that_cannot_be_compiled_runs_eagerly_step_by_step(monkeypatch):
    monkeypatch.delenv("SPORAX_SINK_STRATEGY", raising=False)
    seen = []

    def step(x):
        seen.append(int(x))  # a Python number from a tensor: cannot be traced
        return x * 2

    data = ds.NumpySlicesDataset({"x": np.arange(5, dtype=np.float32)}, shuffle=False)
    sink = data_sink(step, data, sink_size=3)
    with pytest.warns(RuntimeWarning, match="could not compile"):
        out = sink()
    assert float(out.asnumpy()) == 4.0 and seen[-3:] == [0, 1, 2]
    assert float(sink().asnumpy()) == 0.0 and seen[-3:] == [3, 4, 0]
    assert sink.__sporax_sink__.strategy == "scan-fallback"
