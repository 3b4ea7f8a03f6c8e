"""nn.thor (THOR) and its layers (DenseThor, Conv2dThor, EmbeddingThor, EmbeddingLookupThor), ConvertNetUtils
and train.ConvertModelUtils: the statistics A and G of each layer and the preconditioned momentum update
checked against a NumPy implementation of MindSpore's formulas on a tiny model (inverses renewed every
`frequency` steps)."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.train import ConvertModelUtils, ConvertNetUtils, Model
from sporax.train.train_thor.model_thor import ModelThor, _ThorTrainOneStepCell


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 3)
        self.fc2 = nn.Dense(3, 2)

    def construct(self, x):
        return self.fc2(ops.tanh(self.fc1(x)))


def np_thor_run(params, x, y, steps, lr, damping, momentum, freq, bs):
    """MindSpore's THOR update (ThorGpu + DenseThor) in NumPy for MLP and MSELoss."""
    w1, b1, w2, b2 = (p.astype(np.float64) for p in params)
    moms = [np.zeros_like(v) for v in (w1, b1, w2, b2)]
    inv = {}
    n = x.shape[0]
    for k in range(steps):
        h = np.tanh(x @ w1.T + b1)
        o = h @ w2.T + b2
        d2 = 2 * (o - y) / o.size
        d1 = (d2 @ w2) * (1 - h**2)
        stats = [(x.T @ x / 4, d1.T @ d1 / n), (h.T @ h / 3, d2.T @ d2 / n)]
        if k % freq == 0:
            sd = np.sqrt(damping[k])
            for i, (a, g) in enumerate(stats):
                inv[i] = (np.linalg.inv(a + sd * np.eye(len(a))), np.linalg.inv(g * bs * bs + sd * np.eye(len(g))))
        grads = [d1.T @ x, d1.sum(0), d2.T @ h, d2.sum(0)]
        grads[0] = inv[0][1] @ grads[0] @ inv[0][0]
        grads[2] = inv[1][1] @ grads[2] @ inv[1][0]
        out = []
        for p, m, g in zip((w1, b1, w2, b2), moms, grads):
            m[...] = momentum * m + g
            out.append(p - lr[k] * m)
        w1, b1, w2, b2 = out
    return w1, b1, w2, b2


def test_thor_dense_update_against_numpy():
    rng = np.random.default_rng(0)
    net = MLP()
    params = [p.asnumpy().copy() for p in net.trainable_params()]
    x = rng.standard_normal((4, 4)).astype(np.float32)
    y = rng.standard_normal((4, 2)).astype(np.float32)
    lr = np.array([0.1, 0.05, 0.05, 0.02, 0.02], np.float32)
    damping = np.array([0.03, 0.02, 0.01, 0.01, 0.005], np.float32)
    opt = nn.thor(net, Tensor(lr), Tensor(damping), 0.9, batch_size=4, frequency=2)
    assert isinstance(net.fc1, nn.DenseThor) and isinstance(net.fc2, nn.DenseThor)
    assert [p.name for p in net.trainable_params()] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert net.cell_type == "second-order"
    step = _ThorTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    for _ in range(5):
        step(Tensor(x), Tensor(y))
    want = np_thor_run(params, x.astype(np.float64), y.astype(np.float64), 5, lr, damping, 0.9, 2, 4)
    for p, w in zip(net.trainable_params(), want):
        np.testing.assert_allclose(p.asnumpy(), w, rtol=2e-4, atol=2e-5)
    assert int(opt.cov_step.asnumpy()[0]) == 5
    assert [p.name for p in opt.matrix_a] == ["matrix_a_inv_0", "matrix_a_inv_1"]


def test_dense_thor_statistics_and_gradient():
    rng = np.random.default_rng(1)
    layer = nn.DenseThor(3, 2, has_bias=True)
    x = rng.standard_normal((5, 3)).astype(np.float32)
    w = layer.weight.asnumpy()
    out = layer(Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, x @ w.T, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(layer.matrix_a.asnumpy(), x.T @ x / 3, rtol=1e-5, atol=1e-6)
    # G leaves the backward pass as the gradient of matrix_g; the weight's gradient is unchanged
    gw, gg = ms.grad(lambda v: (layer(v) ** 2).sum(), None, [layer.weight, layer.matrix_g])(Tensor(x))
    d = 2 * out
    np.testing.assert_allclose(gw.asnumpy(), d.T @ x, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gg.asnumpy(), d.T @ d / 5, rtol=1e-5, atol=1e-5)
    layer.thor = False
    np.testing.assert_allclose(layer(Tensor(x)).asnumpy(), out, rtol=1e-6)
    with pytest.raises(ValueError, match="weight init shape error"):
        nn.DenseThor(3, 2, weight_init=Tensor(np.ones((3, 3), np.float32)))


def np_im2col_same(x, k, s):
    n, c, h, w = x.shape
    ho, wo = -(-h // s), -(-w // s)
    ph, pw = max(0, (ho - 1) * s + k - h), max(0, (wo - 1) * s + k - w)
    xp = np.pad(x, ((0, 0), (0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)))
    out = np.zeros((c, k, k, n, ho, wo), x.dtype)
    for i in range(k):
        for j in range(k):
            out[:, i, j] = xp[:, :, i : i + s * (ho - 1) + 1 : s, j : j + s * (wo - 1) + 1 : s].transpose(1, 0, 2, 3)
    return out


def test_conv2d_thor_statistics():
    rng = np.random.default_rng(2)
    layer = nn.Conv2dThor(2, 3, 3, stride=2, pad_mode="same")
    x = rng.standard_normal((2, 2, 5, 5)).astype(np.float32)
    out = layer(Tensor(x))
    ref = nn.Conv2d(2, 3, 3, stride=2, pad_mode="same", weight_init=layer.weight)
    np.testing.assert_allclose(out.asnumpy(), ref(Tensor(x)).asnumpy(), rtol=1e-5, atol=1e-5)
    cols = np_im2col_same(x, 3, 2)  # (C, kh, kw, N, Ho, Wo)
    p = cols.reshape(2 * 9, 2, -1).mean(1)
    np.testing.assert_allclose(layer.matrix_a_cov.asnumpy(), p @ p.T / 9, rtol=1e-4, atol=1e-5)
    assert float(layer.a_normalizer.asnumpy()[0]) == 9.0
    (gg,) = ms.grad(lambda v: (layer(v) ** 2).sum(), None, [layer.matrix_g_cov])(Tensor(x))
    d = (2 * out.asnumpy()).mean(0).reshape(3, -1)
    np.testing.assert_allclose(gg.asnumpy(), d @ d.T / 9, rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="must be divisible by 'group'"):
        nn.Conv2dThor(3, 4, 3, group=2)


def test_embedding_thor_statistics():
    emb = nn.EmbeddingThor(6, 3)
    ids = Tensor(np.array([[1, 2], [2, 5]], np.int32))
    out = emb(ids)
    table = emb.embedding_table.asnumpy()
    np.testing.assert_allclose(out.asnumpy(), table[[[1, 2], [2, 5]]])
    np.testing.assert_array_equal(emb.matrix_a.asnumpy(), [0, 1, 2, 0, 0, 1])
    (gg,) = ms.grad(lambda v: (emb(v) ** 2).sum(), None, [emb.matrix_g])(ids)
    d = 2 * out.asnumpy().reshape(-1, 3)
    np.testing.assert_allclose(gg.asnumpy(), d.T @ d / 4, rtol=1e-5, atol=1e-6)
    lookup = nn.EmbeddingLookupThor(6, 3)
    np.testing.assert_allclose(lookup(ids).asnumpy(), lookup.embedding_table.asnumpy()[[[1, 2], [2, 5]]])
    np.testing.assert_array_equal(lookup.matrix_a.asnumpy(), [0, 1, 2, 0, 0, 1])


def test_thor_errors_and_convert_utils():
    net = MLP()
    lr = Tensor(np.full(4, 0.1, np.float32))
    with pytest.raises(ValueError, match="'frequency' must be at least 2"):
        nn.thor(MLP(), lr, lr, 0.9, frequency=1)
    with pytest.raises(ValueError, match="'momentum' must be at least 0.0"):
        nn.thor(MLP(), lr, lr, -0.1)
    with pytest.raises(TypeError):
        nn.thor(MLP(), 0.1, lr, 0.9)
    ConvertNetUtils().convert_to_thor_net(net)
    assert isinstance(net.fc1, nn.DenseThor)
    opt = nn.thor(net, lr, lr, 0.9, frequency=3)
    assert opt.get_frequency() == 3
    model = Model(net, nn.MSELoss(), opt)
    thor_model = ConvertModelUtils.convert_to_thor_model(model, net, nn.MSELoss(), opt)
    assert isinstance(thor_model, ModelThor)
    assert isinstance(thor_model._train_network, _ThorTrainOneStepCell)
    x, y = Tensor(np.ones((2, 4), np.float32)), Tensor(np.zeros((2, 2), np.float32))
    loss0 = float(thor_model._train_network(x, y).asnumpy())
    loss1 = float(thor_model._train_network(x, y).asnumpy())
    assert loss1 < loss0
    plain = Model(MLP(), nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    assert ConvertModelUtils.convert_to_thor_model(plain, net, optimizer=plain._optimizer) is plain


class ConvEmbNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5, 4)
        self.conv = nn.Conv2d(1, 2, 3, pad_mode="same", has_bias=False)
        self.norm = nn.LayerNorm((2,), begin_norm_axis=-1, begin_params_axis=-1)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(2 * 4 * 4, 2)

    def construct(self, ids):
        x = self.emb(ids).reshape(ids.shape[0], 1, 4, 4)  # 4 ids of 4 features: a 4x4 image
        x = self.conv(x)
        x = self.norm(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
        return self.fc(self.flatten(x))


def test_thor_conv_embedding_layernorm_updates_against_numpy():
    net = ConvEmbNet()
    lr, damp, bs = 0.1, 0.02, 2
    opt = nn.thor(net, Tensor(np.full(3, lr, np.float32)), Tensor(np.full(3, damp, np.float32)), 0.9, batch_size=bs)
    assert isinstance(net.conv, nn.Conv2dThor) and isinstance(net.emb, nn.EmbeddingThor)
    assert opt.layer_types == [3, 1, 4, 4, 2, -1]  # Embedding, Conv, LayerNorm x2, FC, Other (bias)
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    ids = Tensor(np.array([[0, 1, 2, 1], [3, 4, 4, 0]], np.int32))
    y = Tensor(np.ones((2, 2), np.float32))
    params = net.trainable_params()
    before = [p.asnumpy().astype(np.float64) for p in params]
    grads = [g.asnumpy().astype(np.float64) for g in ms.grad(loss_net, None, params)(ids, y)]
    _ThorTrainOneStepCell(loss_net, opt)(ids, y)
    sd = np.sqrt(damp)
    # embedding rows: 1 / (counts / batch + sqrt(damping)), then G_inv
    counts = net.emb.matrix_a.asnumpy().astype(np.float64)
    g_emb = net.emb.matrix_g.asnumpy().astype(np.float64)
    g_inv = np.linalg.inv(g_emb * bs * bs + sd * np.eye(4))
    want_emb = ((1 / (counts / bs + sd))[:, None] * grads[0]) @ g_inv
    np.testing.assert_allclose(before[0] - params[0].asnumpy(), lr * want_emb, rtol=2e-3, atol=1e-6)
    # convolution: damping and features scaled by the spatial normalizers
    an = float(net.conv.a_normalizer.asnumpy()[0])
    gn = float(net.conv.g_normalizer.asnumpy()[0])
    a = net.conv.matrix_a_cov.asnumpy().astype(np.float64)
    g = net.conv.matrix_g_cov.asnumpy().astype(np.float64)
    f = np.sqrt(1 / an)
    a_inv = np.linalg.inv(a + np.sqrt(damp / an) * np.eye(len(a))) * f
    g_inv = np.linalg.inv(g * bs * bs + np.sqrt(damp / gn) * np.eye(len(g))) * f
    want_conv = (g_inv @ grads[1].reshape(2, -1) @ a_inv).reshape(grads[1].shape)
    np.testing.assert_allclose(before[1] - params[1].asnumpy(), lr * want_conv, rtol=2e-3, atol=1e-6)
    # LayerNorm's gamma and beta: g / (g^2 / batch + sqrt(damping))
    for i in (2, 3):
        want = grads[i] / (grads[i] ** 2 / bs + sd)
        np.testing.assert_allclose(before[i] - params[i].asnumpy(), lr * want, rtol=2e-3, atol=1e-6)
    # the bias is plain momentum SGD
    np.testing.assert_allclose(before[5] - params[5].asnumpy(), lr * grads[5], rtol=1e-4, atol=1e-7)


class SmallCNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.bn = nn.BatchNorm2d(4)
        self.flat = nn.Flatten()
        self.fc = nn.Dense(4 * 6 * 6, 3)

    def construct(self, x):
        return self.fc(self.flat(ops.relu(self.bn(self.conv(x)))))


def test_thor_the_way_modelzoo_resnet_uses_it():
    from sporax.nn.optim import thor
    from sporax.train import FixedLossScaleManager
    from sporax.train.train_thor import ConvertModelUtils as ZooConvertModelUtils

    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 1, 6, 6)).astype(np.float32)
    y = rng.integers(0, 3, 16).astype(np.int32)
    ds = ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)
    net = SmallCNN()
    opt = thor(
        net,
        Tensor(np.full(50, 0.05, np.float32)),
        Tensor(np.full(50, 0.05, np.float32)),
        0.9,
        1e-4,
        128,
        8,
        frequency=3,
    )
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    ls = FixedLossScaleManager(128, drop_overflow_update=False)
    kw = {"loss_scale_manager": ls, "metrics": {"acc"}, "amp_level": "O2", "keep_batchnorm_fp32": False}
    model = Model(net, loss_fn=loss, optimizer=opt, **kw)
    model = ZooConvertModelUtils().convert_to_thor_model(model=model, network=net, loss_fn=loss, optimizer=opt, **kw)
    assert isinstance(model._train_network, _ThorTrainOneStepCell)
    model.train(4, ds, dataset_sink_mode=False)
    assert int(opt.cov_step.asnumpy()[0]) == 8
    assert model.eval(ds)["acc"] > 0.6


def test_thor_layer_statistics_against_mindspore():
    """A and G of DenseThor / EmbeddingThor equal MindSpore 2.10's (tools/make_nn_boost_reference.py)."""
    import os

    ref = np.load(os.path.join(os.path.dirname(__file__), "..", "boost", "fixtures", "boost_reference.npz"))
    dense = nn.DenseThor(3, 2, weight_init=Tensor(ref["thor_w"]), has_bias=False)
    (gg,) = ms.grad(lambda v: (dense(v) ** 2).sum(), None, [dense.matrix_g])(Tensor(ref["thor_x"]))
    np.testing.assert_allclose(dense.matrix_a.asnumpy(), ref["thor_dense_a"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gg.asnumpy(), ref["thor_dense_g"], rtol=1e-5, atol=1e-5)
    emb = nn.EmbeddingThor(6, 3, embedding_table=Tensor(ref["thor_table"]))
    (eg,) = ms.grad(lambda t: (emb(t) ** 2).sum(), None, [emb.matrix_g])(Tensor(ref["thor_ids"]))
    np.testing.assert_array_equal(emb.matrix_a.asnumpy(), ref["thor_emb_a"])
    np.testing.assert_allclose(eg.asnumpy(), ref["thor_emb_g"], rtol=1e-5, atol=1e-7)
