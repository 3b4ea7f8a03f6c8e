"""BatchNorm1d/2d and LayerNorm: forward against NumPy, moving statistics (eagerly, under jit, inside
value_and_grad: exactly once per step), gradients against finite differences, names, errors."""

import numpy as np
import pytest
from _grad_check import assert_fd_grads

import sporax as ms
from sporax import nn, ops

rng = np.random.default_rng(3)


def T(a):
    return ms.Tensor(np.asarray(a))


def np_bn_train(x, gamma, beta, eps=1e-5):
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    m, v = x.mean(axes), x.var(axes)
    return (x - m.reshape(shape)) / np.sqrt(v.reshape(shape) + eps) * gamma.reshape(shape) + beta.reshape(shape)


def test_bn_params_names_defaults_repr():
    bn = nn.BatchNorm2d(3)
    assert [p.name for p in bn.get_parameters()] == ["mean", "variance", "gamma", "beta"]
    assert [p.requires_grad for p in bn.get_parameters()] == [False, False, True, True]
    np.testing.assert_array_equal(bn.moving_variance.asnumpy(), np.ones(3))
    assert bn.momentum == 0.9 and bn.eps == 1e-5 and bn.use_batch_statistics is None
    assert repr(bn).startswith("BatchNorm2d(num_features=3, eps=1e-05, momentum=0.9, gamma=Parameter (name=gamma")

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 3, 3)
            self.bn = nn.BatchNorm2d(3)

        def construct(self, x):
            return self.bn(self.conv1(x))

    net = Net()
    assert [p.name for p in net.get_parameters()] == [
        "conv1.weight",
        "bn.moving_mean",
        "bn.moving_variance",
        "bn.gamma",
        "bn.beta",
    ]
    assert [p.name for p in net.trainable_params()] == ["conv1.weight", "bn.gamma", "bn.beta"]
    assert nn.BatchNorm2d(2, affine=False).gamma.requires_grad is False


def test_bn2d_train_eval_and_moving_stats_eager():
    bn = nn.BatchNorm2d(3, momentum=0.8, gamma_init=T(np.array([1.0, 2.0, 0.5], np.float32)), beta_init=0.1)
    x = rng.standard_normal((4, 3, 5, 5)).astype(np.float32) * 2 + 1
    bn.set_train()
    y = bn(T(x)).asnumpy()
    g, b = bn.gamma.asnumpy(), bn.beta.asnumpy()
    np.testing.assert_allclose(y, np_bn_train(x.astype(np.float64), g, b), rtol=1e-4, atol=1e-4)
    n = 4 * 5 * 5
    mean, var_unbiased = x.mean((0, 2, 3)), x.var((0, 2, 3)) * n / (n - 1)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.2 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), 0.8 + 0.2 * var_unbiased, rtol=1e-5)
    bn(T(x))
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.2 * mean * (1 + 0.8), rtol=1e-5, atol=1e-6)
    bn.set_train(False)
    mm, mv = bn.moving_mean.asnumpy(), bn.moving_variance.asnumpy()
    y = bn(T(x)).asnumpy()
    ref = (x - mm[None, :, None, None]) / np.sqrt(mv[None, :, None, None] + 1e-5) * g[None, :, None, None] + b[
        None, :, None, None
    ]
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), mm)  # inference leaves them alone


def test_bn_use_batch_statistics():
    x = rng.standard_normal((6, 2)).astype(np.float32)
    bn = nn.BatchNorm1d(2, use_batch_statistics=True)  # eval mode, still batch stats (and updates)
    np.testing.assert_allclose(bn(T(x)).asnumpy(), np_bn_train(x, np.ones(2), np.zeros(2)), rtol=1e-4, atol=1e-5)
    assert np.abs(bn.moving_mean.asnumpy()).sum() > 0
    bn = nn.BatchNorm1d(2, use_batch_statistics=False)
    bn.set_train()
    np.testing.assert_allclose(bn(T(x)).asnumpy(), x / np.sqrt(1 + 1e-5), rtol=1e-5)


def test_bn1d_3d_input():
    bn = nn.BatchNorm1d(3)
    bn.set_train()
    x = rng.standard_normal((4, 3, 6))
    x32 = x.astype(np.float32)
    np.testing.assert_allclose(
        bn(T(x32)).asnumpy(), np_bn_train(x32.astype(np.float64), np.ones(3), np.zeros(3)), rtol=1e-4, atol=1e-4
    )


def _bn_net():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 3)
            self.bn = nn.BatchNorm1d(3)

        def construct(self, x):
            return self.bn(self.fc(x))

    return Net()


def test_bn_stats_update_once_under_jit_and_value_and_grad():
    x = T(rng.standard_normal((8, 4)).astype(np.float32))
    ref = _bn_net()
    ref.set_train()
    h = ref.fc(x).asnumpy()
    expect_mean = 0.1 * h.mean(0)
    expect_var = 0.9 + 0.1 * h.var(0, ddof=1)

    for mode in ("eager-grad", "jit", "jit-grad", "graph"):
        net = _bn_net()
        for p, q in zip(net.get_parameters(), ref.get_parameters()):
            p.set_data(T(q.asnumpy()))
        net.bn.moving_mean.set_data(T(np.zeros(3, np.float32)))
        net.bn.moving_variance.set_data(T(np.ones(3, np.float32)))
        net.set_train()
        f = lambda a: ops.sum(net(a) ** 2)
        vg = ms.value_and_grad(f, None, net.trainable_params())
        if mode == "eager-grad":
            vg(x)
        elif mode == "jit":
            ms.jit(lambda a: net(a))(x)
        elif mode == "jit-grad":
            ms.jit(lambda a: vg(a))(x)
        else:
            ms.set_context(mode=ms.GRAPH_MODE)
            net(x)
            ms.set_context(mode=ms.PYNATIVE_MODE)
        np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), expect_mean, rtol=1e-5, atol=1e-6, err_msg=mode)
        np.testing.assert_allclose(net.bn.moving_variance.asnumpy(), expect_var, rtol=1e-5, err_msg=mode)


def test_bn_jit_repeated_steps_accumulate():
    net = _bn_net()
    net.set_train()
    x = T(rng.standard_normal((8, 4)).astype(np.float32))
    vg = ms.value_and_grad(lambda a: ops.sum(net(a)), None, net.trainable_params())
    step = ms.jit(lambda a: vg(a))
    h = net.fc(x).asnumpy().mean(0)
    for _ in range(3):
        step(x)
    np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), h * (1 - 0.9**3), rtol=1e-5, atol=1e-6)


def test_bn_gradients_fd():
    bn = nn.BatchNorm2d(2, gamma_init=T(np.array([1.5, -0.5])), beta_init=T(np.array([0.2, 0.3])), dtype=ms.float64)
    bn.set_train()
    x = T(rng.standard_normal((3, 2, 2, 2)))
    proj = T(rng.standard_normal((3, 2, 2, 2)))
    f = lambda v: ops.sum(bn(v) * proj)
    params = bn.trainable_params()
    gx, gw = ms.grad(f, 0, params)(x)
    assert_fd_grads(f, x, params, [gx, *gw], 1e-5, 1e-7)


def test_bn_errors():
    bn = nn.BatchNorm2d(3)
    with pytest.raises(
        ValueError, match=r"For 'BatchNorm2d', the 'x' shape\[1\] must be equal to 'num_features': 3, but got 4"
    ):
        bn(T(np.ones((2, 4, 2, 2), np.float32)))
    with pytest.raises(ValueError, match="For 'BatchNorm2d', the dimension of 'x' must be 4, but got 2"):
        bn(T(np.ones((2, 3), np.float32)))
    with pytest.raises(ValueError, match="momentum"):
        nn.BatchNorm2d(3, momentum=1.5)
    with pytest.raises(ValueError, match="num_features"):
        nn.BatchNorm1d(0)


def test_layernorm():
    ln = nn.LayerNorm((4,))
    assert [p.name for p in ln.get_parameters()] == ["gamma", "beta"] and ln.epsilon == 1e-7
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    ref = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-7)
    np.testing.assert_allclose(ln(T(x)).asnumpy(), ref, rtol=1e-4, atol=1e-5)
    ln2 = nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1, gamma_init=2.0, beta_init=1.0)
    ref = (x - x.mean((1, 2), keepdims=True)) / np.sqrt(x.var((1, 2), keepdims=True) + 1e-7) * 2 + 1
    np.testing.assert_allclose(ln2(T(x)).asnumpy(), ref, rtol=1e-4, atol=1e-5)
    with pytest.raises(TypeError, match="normalized_shape"):
        nn.LayerNorm(4)
    with pytest.raises(ValueError, match="'gamma' shape must be"):
        nn.LayerNorm((5,))(T(x))


def test_layernorm_gradients_fd():
    ln = nn.LayerNorm(
        (3,),
        gamma_init=T(np.array([1.0, 2.0, -1.0])),
        beta_init=T(np.array([0.1, 0.0, 0.2])),
        epsilon=1e-5,
        dtype=ms.float64,
    )
    x = T(rng.standard_normal((2, 3)))
    proj = T(rng.standard_normal((2, 3)))
    f = lambda v: ops.sum(ln(v) * proj)
    gx, (gg, gb) = ms.grad(f, 0, ln.trainable_params())(x)
    eps = 1e-6
    xv = x.asnumpy()
    num = np.zeros_like(xv)
    for idx in np.ndindex(xv.shape):
        a, b = xv.copy(), xv.copy()
        a[idx] += eps
        b[idx] -= eps
        num[idx] = (float(f(T(a)).asnumpy()) - float(f(T(b)).asnumpy())) / (2 * eps)
    np.testing.assert_allclose(gx.asnumpy(), num, rtol=1e-5, atol=1e-7)
    xhat = (xv - xv.mean(-1, keepdims=True)) / np.sqrt(xv.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(gg.asnumpy(), (xhat * proj.asnumpy()).sum(0), rtol=1e-6)
    np.testing.assert_allclose(gb.asnumpy(), proj.asnumpy().sum(0), rtol=1e-6)
