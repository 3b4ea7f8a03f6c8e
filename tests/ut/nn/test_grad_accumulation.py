"""Gradient accumulation over 4 micro-batches equals one step on the 4x batch (to 1e-6): GradAccumulationCell
through amp.build_train_network (with and without loss scaling), and GradientAccumulation across calls in
PyNative, under jit and in GRAPH_MODE."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, amp, nn
from sporax.nn.wrap.grad_accumulation import (
    GradientAccumulation,
    _TrainGradAccuStepCell,
    _TrainGradAccuWithLossScaleCell,
)

RNG = np.random.RandomState(0)
X = RNG.randn(16, 6).astype(np.float32)
Y = RNG.randn(16, 3).astype(np.float32)
X2 = RNG.randn(16, 6).astype(np.float32)
Y2 = RNG.randn(16, 3).astype(np.float32)


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 8, weight_init="normal")
        self.act = nn.Tanh()
        self.fc2 = nn.Dense(8, 3, weight_init="normal")

    def construct(self, x):
        return self.fc2(self.act(self.fc1(x)))


def _pair(seed=3):
    """Two identical networks with their Momentum optimizers."""
    out = []
    for _ in range(2):
        ms.set_seed(seed)
        net = MLP()
        out.append((net, nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)))
    return out


def _reference(net, opt, batches):
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    return [float(step(Tensor(x), Tensor(y)).asnumpy()) for x, y in batches]


def _assert_same_params(a, b):
    for p, q in zip(a.trainable_params(), b.trainable_params()):
        np.testing.assert_allclose(p.asnumpy(), q.asnumpy(), rtol=1e-6, atol=1e-6, err_msg=p.name)


def test_grad_accumulation_cell_equals_the_full_batch_step():
    (net, opt), (ref, ref_opt) = _pair()
    acc = nn.GradAccumulationCell(nn.WithLossCell(net, nn.MSELoss()), 4)
    step = amp.build_train_network(acc, opt)
    assert type(step) is _TrainGradAccuStepCell and step.micro_size == 4 and step.sens == 0.25
    ref_losses = _reference(ref, ref_opt, [(X, Y), (X2, Y2)])
    losses = [float(step(Tensor(x), Tensor(y)).asnumpy()) for x, y in [(X, Y), (X2, Y2)]]
    _assert_same_params(net, ref)
    # the cell returns the sum of the micro-batch losses (MindSpore's GradAccumulationCell)
    np.testing.assert_allclose(np.array(losses) / 4, ref_losses, rtol=1e-6)


def test_grad_accumulation_cell_with_loss_scaling():
    (net, opt), (ref, ref_opt) = _pair()
    acc = nn.GradAccumulationCell(nn.WithLossCell(net, nn.MSELoss()), 4)
    manager = amp.DynamicLossScaleManager(init_loss_scale=2**10, scale_factor=2, scale_window=100)
    step = amp.build_train_network(acc, opt, loss_scale_manager=manager)
    assert type(step) is _TrainGradAccuWithLossScaleCell
    _reference(ref, ref_opt, [(X, Y)])
    _, overflow, scale = step(Tensor(X), Tensor(Y))
    assert not bool(overflow.asnumpy()) and float(scale.asnumpy()) == 2**10
    _assert_same_params(net, ref)


def test_grad_accumulation_cell_errors():
    with_loss = nn.WithLossCell(MLP(), nn.MSELoss())
    with pytest.raises(TypeError, match="the argument 'micro_size' must be integer"):
        nn.GradAccumulationCell(with_loss, 2.0)
    with pytest.raises(ValueError, match="the argument 'micro_size' must be large than 0, but got 0"):
        nn.GradAccumulationCell(with_loss, 0)
    with pytest.raises(TypeError, match="the argument 'network' must cell type"):
        nn.GradAccumulationCell(lambda x: x, 2)
    acc = nn.GradAccumulationCell(with_loss, 3)
    with pytest.raises(
        ValueError, match="the 0th dimension shape of input\\(16\\) must be divided by micro size\\(3\\)"
    ):
        acc(Tensor(X), Tensor(Y))


class AccumulatingStep(nn.TrainOneStepCell):
    """The documented use of GradientAccumulation: one micro-batch per call."""

    def __init__(self, network, optimizer, steps):
        super().__init__(network, optimizer)
        self.accumulation = GradientAccumulation(steps, optimizer)

    def construct(self, *inputs):
        loss = self.network(*inputs)
        grads = self.grad_no_sens(self.network, self.weights)(*inputs)
        return self.accumulation(loss, self.grad_reducer(grads))


@pytest.mark.parametrize("mode", ["pynative", "jit", "graph"])
def test_gradient_accumulation_across_calls_equals_the_full_batch_step(mode):
    (net, opt), (ref, ref_opt) = _pair()
    step = AccumulatingStep(nn.WithLossCell(net, nn.MSELoss()), opt, 4)
    call = step
    if mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    elif mode == "jit":
        call = ms.jit(step)
    start = [p.asnumpy().copy() for p in net.trainable_params()]
    for i in range(4):
        call(Tensor(X[4 * i : 4 * i + 4]), Tensor(Y[4 * i : 4 * i + 4]))
        if i < 3:  # nothing applied yet: weights and momentum untouched
            for p, s in zip(net.trainable_params(), start):
                np.testing.assert_array_equal(p.asnumpy(), s)
            assert not opt.moments[0].asnumpy().any()
    assert int(step.accumulation._accumulation_step.asnumpy()) == 0
    assert not any(a.asnumpy().any() for a in step.accumulation._grad_accumulation)
    for i in range(4):
        call(Tensor(X2[4 * i : 4 * i + 4]), Tensor(Y2[4 * i : 4 * i + 4]))
    _reference(ref, ref_opt, [(X, Y), (X2, Y2)])
    _assert_same_params(net, ref)


def test_gradient_accumulation_names_and_errors():
    net = MLP()
    opt = nn.SGD(net.trainable_params(), 0.1)
    acc = GradientAccumulation(2, opt)
    names = ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert [p.name for p in net.trainable_params()] == names  # not renamed by the wrapper
    assert [p.name for p in acc._grad_accumulation] == [f"grad_accumulation.{p.name}" for p in opt.parameters]
    with pytest.raises(ValueError, match="the number of gradients must be 4"):
        acc(Tensor(1.0), (Tensor(np.zeros((8, 6), np.float32)),))
    grads = [Tensor(np.zeros(p.shape, np.float32)) for p in opt.parameters]
    grads[1] = Tensor(np.zeros(5, np.float32))
    with pytest.raises(ValueError, match="the gradient of 'fc1.bias' must have shape \\(8,\\), but got \\(5,\\)"):
        acc(Tensor(1.0), tuple(grads))
    with pytest.raises(ValueError, match="'max_accumulation_step' must be large than 0"):
        GradientAccumulation(0, opt)
    with pytest.raises(TypeError, match="the 'optimizer' must be a Cell"):
        GradientAccumulation(2, "sgd")
