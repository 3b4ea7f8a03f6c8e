"""Dense, Flatten, Unflatten, Identity, Dropout, Embedding: forward against NumPy, gradients against
finite differences, default initialisation, names, errors."""

import math

import numpy as np
import pytest
from _grad_check import assert_fd_grads

import sporax as ms
from sporax import nn, ops

rng = np.random.default_rng(0)


def T(a):
    return ms.Tensor(np.asarray(a))


def fd_check(net, x, rtol=1e-6, atol=1e-8, eps=1e-6):
    """Gradients of a random projection of ``net(x)`` w.r.t. x and the trainable params vs central FD."""
    params = net.trainable_params()
    proj = T(rng.standard_normal(net(x).shape))

    def f(inp):
        return ops.sum(net(inp) * proj)

    gx, gw = ms.grad(f, 0, params)(x)
    assert_fd_grads(f, x, params, [gx, *gw], rtol, atol, eps)


# ------------------------------------------------------------------------ Dense
def test_dense_forward_nd_and_activation():
    net = nn.Dense(4, 3, activation="relu")
    x = rng.standard_normal((2, 5, 4)).astype(np.float32)
    w, b = net.weight.asnumpy(), net.bias.asnumpy()
    np.testing.assert_allclose(net(T(x)).asnumpy(), np.maximum(x @ w.T + b, 0), rtol=1e-5, atol=1e-6)
    assert isinstance(net.activation, nn.ReLU)
    net2 = nn.Dense(4, 3, has_bias=False, activation=nn.Tanh())
    assert net2.bias is None
    np.testing.assert_allclose(net2(T(x)).asnumpy(), np.tanh(x @ net2.weight.asnumpy().T), rtol=1e-5, atol=1e-6)


def test_dense_default_init_bounds_and_names():
    ms.set_seed(1)
    net = nn.Dense(256, 128)
    w, b = net.weight.asnumpy(), net.bias.asnumpy()
    bound = 1 / math.sqrt(256)
    assert w.shape == (128, 256) and b.shape == (128,)
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.05 * bound
    assert abs(w.mean()) < 0.01 * bound
    assert [p.name for p in net.get_parameters()] == ["weight", "bias"]
    assert net.weight.dtype == ms.float32
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros", dtype=ms.float64)
    assert net.weight.dtype == ms.float64 and (net.weight.asnumpy() == 1).all()


def test_dense_repr_and_errors():
    assert repr(nn.Dense(256, 128)) == "Dense(input_channels=256, output_channels=128, has_bias=True)"
    assert repr(nn.Dense(2, 1, has_bias=False)) == "Dense(input_channels=2, output_channels=1)"
    net = nn.Dense(256, 128)
    with pytest.raises(ValueError, match=r"^For 'Dense', the 'x' shape\[-1\] must be 256, but got 16\.$"):
        net(T(np.ones((2, 16), np.float32)))
    with pytest.raises(TypeError, match="Float32.*Float64"):
        net(T(np.ones((2, 256))))
    with pytest.raises(KeyError, match="'name' must be in"):
        nn.Dense(2, 2, activation="nope")
    with pytest.raises(TypeError, match="activation"):
        nn.Dense(2, 2, activation=3)
    with pytest.raises(ValueError, match="in_channels"):
        nn.Dense(0, 2)


def test_dense_gradients_fd():
    net = nn.Dense(3, 2, activation="tanh", dtype=ms.float64)
    fd_check(net, T(rng.standard_normal((4, 3))))


def test_nested_parameter_names():
    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(2, 2)
            self.emb = nn.Embedding(5, 2)

        def construct(self, x):
            return self.fc(x)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.block = Block()
            self.seq = nn.SequentialCell([nn.Dense(2, 3), nn.PReLU()])

        def construct(self, x):
            return self.seq(self.block(x))

    names = [p.name for p in Net().get_parameters()]
    assert names == [
        "block.fc.weight",
        "block.fc.bias",
        "block.emb.embedding_table",
        "seq.0.weight",
        "seq.0.bias",
        "seq.1.w",  # the structural (attribute) name, as MindSpore renames nested parameters
    ]


# --------------------------------------------------------------- Flatten etc.
def test_flatten_unflatten_identity():
    x = T(rng.standard_normal((2, 3, 4, 5)).astype(np.float32))
    assert nn.Flatten()(x).shape == (2, 60)
    assert nn.Flatten(0, 1)(x).shape == (6, 4, 5)
    assert nn.Flatten(2)(x).shape == (2, 3, 20)
    assert nn.Unflatten(1, (3, 1))(x).shape == (2, 3, 1, 4, 5)
    np.testing.assert_array_equal(nn.Unflatten(-1, (5, 1))(x).asnumpy()[..., 0], x.asnumpy())
    assert nn.Identity()(x) is x


# ---------------------------------------------------------------------- Dropout
def test_dropout_args_and_repr():
    assert nn.Dropout().p == 0.5 and nn.Dropout().keep_prob == 0.5
    d = nn.Dropout(keep_prob=0.8, p=0.1)
    assert d.p == 0.1 and abs(d.keep_prob - 0.9) < 1e-12
    assert repr(nn.Dropout(p=0.1)) == "Dropout(p=0.1)"
    assert repr(nn.Dropout(keep_prob=0.8)) == "Dropout(keep_prob=0.8)"
    with pytest.raises(ValueError, match=r"For 'Dropout', the 'p' must be a number in range \[0, 1\)"):
        nn.Dropout(p=1.0)
    with pytest.raises(ValueError, match=r"'keep_prob' must be a number in range \(0, 1\]"):
        nn.Dropout(keep_prob=0.0)
    with pytest.raises(TypeError, match="'p' must be a float or int"):
        nn.Dropout(p="0.5")


def test_dropout_eval_identity_and_train_scaling():
    x = T(np.ones((64, 64), np.float32))
    d = nn.Dropout(p=0.25)
    assert d(x) is x  # eval by default
    d.set_train()
    y = d(x).asnumpy()
    kept = y != 0
    assert abs(kept.mean() - 0.75) < 0.03
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)
    assert not np.array_equal(d(x).asnumpy(), y)  # a fresh mask each call
    d.set_train(False)
    assert d(x) is x
    with pytest.raises(TypeError, match="For 'Dropout', the dtype of 'x'"):
        nn.Dropout(p=0.5).set_train()(T(np.ones(3, np.int32)))


def test_dropout_same_mask_pynative_jit_graph():
    x = T(rng.standard_normal((8, 16)).astype(np.float32))
    d = nn.Dropout(p=0.5)
    d.set_train()
    ms.set_seed(7)
    eager = [d(x).asnumpy() for _ in range(2)]
    step = ms.jit(lambda v: d(v))
    ms.set_seed(7)
    jitted = [step(x).asnumpy() for _ in range(2)]
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(7)
    graph = [d(x).asnumpy() for _ in range(2)]
    for a, b, c in zip(eager, jitted, graph):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)
    assert not np.array_equal(eager[0], eager[1])


def test_dropout_inside_grad_masks_gradient():
    d = nn.Dropout(p=0.5)
    d.set_train()
    x = T(np.ones((10, 10), np.float32))
    ms.set_seed(3)
    y = d(x).asnumpy()
    ms.set_seed(3)
    g = ms.grad(lambda v: ops.sum(d(v)))(x).asnumpy()
    np.testing.assert_allclose(g, y)  # d(sum(x * m / (1-p)))/dx = m / (1-p) = y for x = 1


# -------------------------------------------------------------------- Embedding
def test_embedding():
    ms.set_seed(0)
    emb = nn.Embedding(10, 4, padding_idx=2)
    table = emb.embedding_table.asnumpy()
    assert table.shape == (10, 4) and (table[2] == 0).all()
    assert abs(np.delete(table, 2, 0).std() - 0.01) < 0.004
    ids = np.array([[1, 2, 9], [0, 0, 5]], np.int32)
    np.testing.assert_array_equal(emb(T(ids)).asnumpy(), table[ids])
    emb_oh = nn.Embedding(10, 4, use_one_hot=True, embedding_table=T(table))
    np.testing.assert_allclose(emb_oh(T(ids.astype(np.int64))).asnumpy(), table[ids])
    assert "vocab_size=10, embedding_size=4, use_one_hot=False" in repr(emb)
    with pytest.raises(TypeError, match="For 'Embedding', the dtype of 'ids'"):
        emb(T(np.ones(3, np.float32)))
    with pytest.raises(ValueError, match="padding_idx"):
        nn.Embedding(3, 2, padding_idx=5)


def test_embedding_gradient_scatter():
    emb = nn.Embedding(5, 3, embedding_table="ones")
    ids = T(np.array([1, 1, 3], np.int32))
    (g,) = ms.grad(lambda i: ops.sum(emb(i)), None, emb.trainable_params())(ids)
    expect = np.zeros((5, 3))
    expect[1] = 2
    expect[3] = 1
    np.testing.assert_allclose(g.asnumpy(), expect)
