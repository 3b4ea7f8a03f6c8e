"""One pass over the whole public API, in seconds: if this fails, start here."""

import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)
        self.bn = nn.BatchNorm1d(3)
        self.drop = nn.Dropout(p=0.1)

    def construct(self, x):
        return self.drop(self.bn(self.fc(x)))


def test_smoke_whole_api(tmp_path):
    ms.set_seed(0)
    x = Tensor(np.random.RandomState(0).randn(8, 4).astype(np.float32))
    y = Tensor(np.arange(8, dtype=np.int32) % 3)

    # tensors, ops, primitives
    assert (x + 1.0).dtype == ms.float32 and Tensor(1).dtype == ms.int64
    assert ops.ReduceMean(keep_dims=True)(x, 1).shape == (8, 1)
    assert f"{ops.mean(x):.3f}"

    # cells, losses, optimizers, gradients, jit, GRAPH_MODE
    net = Net()
    loss_fn = nn.CrossEntropyLoss()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    grad_fn = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, opt.parameters)

    @ms.jit
    def step(a, b):
        loss, grads = grad_fn(a, b)
        opt(grads)
        return loss

    net.set_train()
    losses = [float(step(x, y)) for _ in range(5)]
    assert losses[-1] < losses[0]
    ms.set_context(mode=ms.GRAPH_MODE)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    assert np.isfinite(float(train(x, y)))
    ms.set_context(mode=ms.PYNATIVE_MODE)

    # control flow under jit
    p = Parameter(Tensor(np.zeros((), np.float32)), name="p")

    @ms.jit
    def bump(v):
        if v.sum() > 0:
            ops.assign_add(p, Tensor(1.0))
        return p * 1

    bump(x * 0 + 1)
    bump(x * 0 - 1)
    assert float(p) == 1.0

    # dataset -> Model with callbacks and metrics, sink mode, checkpoints
    import sporax.dataset as ds

    data = ds.NumpySlicesDataset({"x": x.asnumpy(), "y": y.asnumpy()}, shuffle=False).batch(4)
    model = ms.Model(net, loss_fn, opt, metrics={"acc": nn.Accuracy()})
    hist = ms.History()
    model.train(2, data, callbacks=[hist], dataset_sink_mode=True)
    assert "acc" in model.eval(data)
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path)
    not_loaded, _ = ms.load_param_into_net(Net(), ms.load_checkpoint(path))
    assert not_loaded == []

    # amp and loss scaling
    from sporax import amp

    net2 = Net()
    scaled = amp.build_train_network(net2, nn.SGD(net2.trainable_params(), 0.01), nn.CrossEntropyLoss(), level="O2")
    out = scaled(x, y)
    assert np.isfinite(float(out[0] if isinstance(out, tuple) else out))
