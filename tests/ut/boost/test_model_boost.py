"""Model(boost_level=...) and amp.build_train_network(boost_level=...): at O1/O2 the network and optimizer go
through AutoBoost and train with a boost train cell, as MindSpore 2.10's Model does; at O0 nothing changes."""

import logging

import numpy as np
import pytest

import sporax as ms
from sporax import boost, nn
from sporax import dataset as ds
from sporax.train import Model


@pytest.fixture(autouse=True)
def _fresh_autoboost():
    # AutoBoost is one instance per process (as MindSpore's): each test starts from none
    boost.AutoBoost._instance = None
    yield
    boost.AutoBoost._instance = None


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def _data(n=16):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, 4)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int32) + (x[:, 1] > 0).astype(np.int32)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)


def _model(level, **kw):
    ms.set_seed(0)
    net = Net()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, opt, boost_level=level, **kw)


def test_o0_is_plain_and_o1_boosts():
    m0 = _model("O0", metrics={"acc"})
    assert type(m0._train_network) is nn.TrainOneStepCell
    boost.AutoBoost._instance = None
    m1 = _model("O1", metrics={"acc"})
    assert isinstance(m1._train_network, boost.BoostTrainOneStepCell)
    assert boost.AutoBoost().level == "O1"
    # O1 freezes gradients by groups: the optimizer is wrapped in FreezeOpt
    assert isinstance(m1._optimizer, boost.FreezeOpt)
    before = [p.asnumpy().copy() for p in m1._network.trainable_params()]
    m1.train(2, _data(), dataset_sink_mode=False)
    after = [p.asnumpy() for p in m1._network.trainable_params()]
    assert any(not np.array_equal(a, b) for a, b in zip(before, after))
    assert np.isfinite(m1.eval(_data(), dataset_sink_mode=False)["acc"])


def test_boost_needs_metrics_or_eval_network(caplog):
    with caplog.at_level(logging.WARNING):
        m = _model("O1")
    assert "the eval_network and metrics cannot be undefined at the same time" in caplog.text
    assert type(m._optimizer) is nn.Momentum


def test_build_train_network_boost_cells():
    net, loss = Net(), nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    cell = ms.amp.build_train_network(net, opt, loss, boost_level="O1")
    assert isinstance(cell, boost.BoostTrainOneStepCell)
    manager = ms.amp.DynamicLossScaleManager()
    cell = ms.amp.build_train_network(net, opt, loss, boost_level="O2", loss_scale_manager=manager)
    assert isinstance(cell, boost.BoostTrainOneStepWithLossScaleCell)
    with pytest.raises(ValueError, match="boost_level"):
        ms.amp.build_train_network(net, opt, loss, boost_level="O3")


def test_sink_mode_runs_the_boosted_cell_step_by_step(caplog):
    m = _model("O1", metrics={"acc"})
    with caplog.at_level(logging.WARNING):
        m.train(1, _data(), dataset_sink_mode=True)
    assert "dataset sink mode runs step by step" in caplog.text
    with pytest.raises(ValueError, match="'sink_size' must be -1, but got 1"):
        m.train(1, _data(), dataset_sink_mode=True, sink_size=1)
