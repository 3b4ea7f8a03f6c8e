"""Conv2d/Conv1d and pooling layers: forward against NumPy, gradients against finite differences
(every pooling lowering: reshape max-pool with its mask VJP, reduce_window, windows+argmax), default
initialisation, errors."""

import math

import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops

rng = np.random.default_rng(2)


def T(a):
    return ms.Tensor(np.asarray(a))


def np_conv2d(x, w, stride=(1, 1), pads=((0, 0), (0, 0)), groups=1):
    xp = np.pad(x, ((0, 0), (0, 0), *pads))
    n, _, h, wd = xp.shape
    o, cg, kh, kw = w.shape
    oh, ow = (h - kh) // stride[0] + 1, (wd - kw) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for g in range(groups):
        for i in range(kh):
            for j in range(kw):
                patch = xp[
                    :,
                    g * cg : (g + 1) * cg,
                    i : i + (oh - 1) * stride[0] + 1 : stride[0],
                    j : j + (ow - 1) * stride[1] + 1 : stride[1],
                ]
                out[:, g * og : (g + 1) * og] += np.einsum("nchw,oc->nohw", patch, w[g * og : (g + 1) * og, :, i, j])
    return out


def fd_check(f, x, params, rtol=1e-6, atol=1e-8, eps=1e-6):
    if params:
        gx, gw = ms.grad(f, 0, params)(x)
    else:
        gx, gw = ms.grad(f, 0)(x), ()
    xv = x.asnumpy().copy()
    for p, g in zip([None, *params], [gx, *gw]):
        base = xv if p is None else p.asnumpy().copy()
        num = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            vals = []
            for sgn in (1, -1):
                v = base.copy()
                v[idx] += sgn * eps
                if p is None:
                    vals.append(float(f(T(v)).asnumpy()))
                else:
                    p.set_data(T(v))
                    vals.append(float(f(x).asnumpy()))
            num[idx] = (vals[0] - vals[1]) / (2 * eps)
        if p is not None:
            p.set_data(T(base))
        np.testing.assert_allclose(g.asnumpy(), num, rtol=rtol, atol=atol)


# ---------------------------------------------------------------------- Conv2d
def test_conv2d_defaults_and_init_bounds():
    ms.set_seed(0)
    conv = nn.Conv2d(16, 32, 3)
    assert conv.pad_mode == "same" and conv.bias is None and conv.weight.shape == (32, 16, 3, 3)
    w = conv.weight.asnumpy()
    bound = 1 / math.sqrt(16 * 9)
    assert np.abs(w).max() <= bound and abs(w.std() - bound / math.sqrt(3)) < 0.05 * bound
    conv = nn.Conv2d(4, 6, (3, 2), group=2, has_bias=True)
    assert conv.weight.shape == (6, 2, 3, 2)
    assert np.abs(conv.bias.asnumpy()).max() <= 1 / math.sqrt(2 * 6)
    assert [p.name for p in conv.get_parameters()] == ["weight", "bias"]
    assert repr(nn.Conv2d(1, 6, 5, pad_mode="valid")) == (
        "Conv2d<input_channels=1, output_channels=6, kernel_size=(5, 5), stride=(1, 1), pad_mode=valid, "
        "padding=0, dilation=(1, 1), group=1, has_bias=False, weight_init=None, bias_init=None, format=NCHW>"
    )


@pytest.mark.parametrize(
    "kw, pads",
    [
        (dict(pad_mode="valid"), ((0, 0), (0, 0))),
        (dict(pad_mode="same"), ((1, 1), (0, 1))),
        (dict(pad_mode="pad", padding=(1, 0, 2, 1)), ((1, 0), (2, 1))),
        (dict(pad_mode="pad", padding=1, stride=2), ((1, 1), (1, 1))),
    ],
)
def test_conv2d_forward(kw, pads):
    conv = nn.Conv2d(4, 6, (3, 2), has_bias=True, group=2, **kw)
    x = rng.standard_normal((2, 4, 7, 6)).astype(np.float32)
    s = kw.get("stride", 1)
    ref = np_conv2d(x.astype(np.float64), conv.weight.asnumpy().astype(np.float64), (s, s), pads, 2)
    ref += conv.bias.asnumpy()[None, :, None, None]
    np.testing.assert_allclose(conv(T(x)).asnumpy(), ref, rtol=1e-4, atol=1e-5)


def test_conv2d_gradients_fd():
    conv = nn.Conv2d(2, 3, 3, stride=2, pad_mode="pad", padding=1, has_bias=True, dtype=ms.float64)
    x = T(rng.standard_normal((2, 2, 5, 5)))
    proj = T(rng.standard_normal(conv(x).shape))
    fd_check(lambda v: ops.sum(conv(v) * proj), x, conv.trainable_params())


def test_conv2d_errors():
    conv = nn.Conv2d(3, 4, 3)
    with pytest.raises(
        ValueError, match=r"For 'Conv2d', the 'x' shape\[1\] \(channels\) must be equal to 'in_channels': 3, but got 1"
    ):
        conv(T(np.ones((1, 1, 5, 5), np.float32)))
    with pytest.raises(ValueError, match="For 'Conv2d', the dimension of 'x' must be 4"):
        conv(T(np.ones((3, 5, 5), np.float32)))
    with pytest.raises(TypeError, match="Float32.*Float64"):
        conv(T(np.ones((1, 3, 5, 5))))
    with pytest.raises(ValueError, match="too small"):
        nn.Conv2d(3, 4, 5, pad_mode="valid")(T(np.ones((1, 3, 3, 3), np.float32)))
    with pytest.raises(ValueError, match="'in_channels' must be divisible by attr 'group'"):
        nn.Conv2d(3, 4, 3, group=2)
    with pytest.raises(ValueError, match="'padding' must be 0 when 'pad_mode' is 'same'"):
        nn.Conv2d(3, 4, 3, padding=1)
    with pytest.raises(ValueError, match="pad_mode"):
        nn.Conv2d(3, 4, 3, pad_mode="full")
    with pytest.raises(ValueError, match="NHWC"):
        nn.Conv2d(3, 4, 3, data_format="NHWC")


def test_conv1d():
    conv = nn.Conv1d(3, 4, 3, pad_mode="pad", padding=(1, 2), has_bias=True, dtype=ms.float64)
    assert conv.weight.shape == (4, 3, 1, 3)
    x = rng.standard_normal((2, 3, 8))
    ref = np_conv2d(x[:, :, None], conv.weight.asnumpy(), (1, 1), ((0, 0), (1, 2)))[:, :, 0]
    ref += conv.bias.asnumpy()[None, :, None]
    np.testing.assert_allclose(conv(T(x)).asnumpy(), ref, rtol=1e-10)
    assert nn.Conv1d(3, 4, 3, stride=2)(T(x.astype(np.float32))).shape == (2, 4, 4)


# ---------------------------------------------------------------------- pooling
def test_maxpool2d_defaults_repr():
    p = nn.MaxPool2d()
    assert (p.kernel_size, p.stride, p.pad_mode) == (1, 1, "VALID")
    assert repr(nn.MaxPool2d(kernel_size=2, stride=2)) == "MaxPool2d<kernel_size=2, stride=2, pad_mode=VALID>"
    assert repr(nn.AvgPool2d(3, 1, "same")) == "AvgPool2d<kernel_size=3, stride=1, pad_mode=SAME>"
    with pytest.raises(ValueError, match="can only be set when 'pad_mode' is 'pad'"):
        nn.MaxPool2d(3, 1, padding=1)
    with pytest.raises(ValueError, match="pad_mode"):
        nn.MaxPool2d(2, 2, "full")


def np_maxpool(x, k, s, pads=((0, 0), (0, 0))):
    xp = np.pad(x, ((0, 0), (0, 0), *pads), constant_values=-np.inf)
    oh, ow = (xp.shape[2] - k) // s + 1, (xp.shape[3] - k) // s + 1
    out = np.full(x.shape[:2] + (oh, ow), -np.inf)
    for i in range(k):
        for j in range(k):
            out = np.maximum(out, xp[:, :, i : i + (oh - 1) * s + 1 : s, j : j + (ow - 1) * s + 1 : s])
    return out


@pytest.mark.parametrize(
    "cell, ref",
    [
        (nn.MaxPool2d(2, 2), lambda x: np_maxpool(x, 2, 2)),  # reshape lowering
        (nn.MaxPool2d(3, 3), lambda x: np_maxpool(x, 3, 3)),  # reshape lowering, cropped edge
        (nn.MaxPool2d(3, 2), lambda x: np_maxpool(x, 3, 2)),  # reduce_window
        (nn.MaxPool2d(3, 1, "same"), lambda x: np_maxpool(x, 3, 1, ((1, 1), (1, 1)))),
        (nn.MaxPool2d(3, 2, "pad", padding=1), lambda x: np_maxpool(x, 3, 2, ((1, 1), (1, 1)))),
    ],
)
def test_maxpool2d_forward(cell, ref):
    x = rng.standard_normal((2, 3, 8, 7))
    np.testing.assert_allclose(cell(T(x)).asnumpy(), ref(x))


def test_avgpool2d_forward():
    x = rng.standard_normal((2, 3, 6, 6))
    ref = x.reshape(2, 3, 3, 2, 3, 2).mean((3, 5))
    np.testing.assert_allclose(nn.AvgPool2d(2, 2)(T(x)).asnumpy(), ref)
    same = nn.AvgPool2d(3, 1, "same")(T(x)).asnumpy()
    np.testing.assert_allclose(same[:, :, 0, 0], x[:, :, :2, :2].mean((2, 3)))  # padding not counted
    padded = nn.AvgPool2d(3, 1, "pad", padding=1)(T(x)).asnumpy()
    np.testing.assert_allclose(padded[:, :, 0, 0], x[:, :, :2, :2].sum((2, 3)) / 9)
    excl = nn.AvgPool2d(3, 1, "pad", padding=1, count_include_pad=False)(T(x)).asnumpy()
    np.testing.assert_allclose(excl, same)


@pytest.mark.parametrize(
    "make",
    [
        lambda: nn.MaxPool2d(2, 2),
        lambda: nn.MaxPool2d(3, 2),
        lambda: nn.MaxPool2d(3, 2, "pad", padding=1, ceil_mode=True),
        lambda: nn.AvgPool2d(3, 2, "same"),
        lambda: nn.AvgPool2d(2, 1, "pad", padding=1, count_include_pad=False),
        lambda: nn.AdaptiveAvgPool2d((2, 3)),
        lambda: nn.AdaptiveMaxPool2d((2, 2)),
    ],
)
def test_pool_gradients_fd(make):
    cell = make()
    x = T(rng.permutation(2 * 2 * 6 * 5).reshape(2, 2, 6, 5) / 7.0)  # distinct values: no ties
    proj = T(rng.standard_normal(cell(x).shape))
    fd_check(lambda v: ops.sum(cell(v) * proj), x, [])


def test_maxpool_reshape_lowering_tie_goes_to_first():
    x = T(np.zeros((1, 1, 4, 4)))
    g_fast = ms.grad(lambda v: ops.sum(nn.MaxPool2d(2, 2)(v)))(x).asnumpy()
    g_rw = ms.grad(lambda v: ops.sum(ops.max_pool2d(v, 2, 2, 0, dilation=(1, 1), ceil_mode=True)))(x).asnumpy()
    expect = np.zeros((4, 4))
    expect[::2, ::2] = 1
    np.testing.assert_array_equal(g_fast[0, 0], expect)
    np.testing.assert_array_equal(g_rw[0, 0], expect)


def test_maxpool_return_indices():
    x = rng.standard_normal((1, 2, 5, 5))
    out, idx = nn.MaxPool2d(3, 2, "pad", padding=1, return_indices=True)(T(x))
    np.testing.assert_allclose(out.asnumpy(), np_maxpool(x, 3, 2, ((1, 1), (1, 1))))
    np.testing.assert_allclose(
        np.take_along_axis(x.reshape(1, 2, -1), idx.asnumpy().reshape(1, 2, -1), -1).reshape(out.shape), out.asnumpy()
    )


def test_pool_jit_and_3d_input():
    x = T(rng.standard_normal((3, 6, 6)).astype(np.float32))
    p = nn.MaxPool2d(2, 2)
    np.testing.assert_array_equal(ms.jit(lambda v: p(v))(x).asnumpy(), p(x).asnumpy())
    assert p(x).shape == (3, 3, 3)


def test_pool_too_small():
    with pytest.raises(
        ValueError, match=r"For 'MaxPool2d', the input shape \(1, 1, 2, 2\) is too small for 'kernel_size' \(3, 3\)"
    ):
        nn.MaxPool2d(3, 1)(T(np.ones((1, 1, 2, 2), np.float32)))
    with pytest.raises(ValueError, match="For 'AvgPool2d'"):
        nn.AvgPool2d(4, 1)(T(np.ones((1, 1, 3, 3), np.float32)))


def test_adaptive_layers():
    x = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    np.testing.assert_allclose(nn.AdaptiveAvgPool2d(1)(T(x)).asnumpy(), x.mean((2, 3), keepdims=True), rtol=1e-5)
    np.testing.assert_allclose(
        nn.AdaptiveAvgPool2d((4, 2))(T(x)).asnumpy(), x.reshape(2, 3, 4, 2, 2, 4).mean((3, 5)), rtol=1e-5
    )
    np.testing.assert_allclose(nn.AdaptiveMaxPool2d(2)(T(x)).asnumpy(), x.reshape(2, 3, 2, 4, 2, 4).max((3, 5)))
    assert repr(nn.AdaptiveAvgPool2d((4, 2))) == "AdaptiveAvgPool2d<output_size=(4, 2)>"


def test_lenet_train_step_grads_match_eager_and_jit():
    class LeNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(2, 2)
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 4 * 4, 10)

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            return self.fc1(self.flatten(x))

    net = LeNet()
    assert [p.name for p in net.trainable_params()] == ["conv1.weight", "conv2.weight", "fc1.weight", "fc1.bias"]
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    x = T(rng.standard_normal((4, 1, 28, 28)).astype(np.float32))
    y = T(np.array([1, 2, 3, 4], np.int32))
    f = lambda a, b: loss_fn(net(a), b)
    vg = ms.value_and_grad(f, None, net.trainable_params())
    loss, grads = vg(x, y)
    loss_j, grads_j = ms.jit(lambda a, b: vg(a, b))(x, y)
    np.testing.assert_allclose(loss.asnumpy(), loss_j.asnumpy(), rtol=1e-5)
    for g, gj in zip(grads, grads_j):
        np.testing.assert_allclose(g.asnumpy(), gj.asnumpy(), rtol=1e-4, atol=1e-6)
    assert all(np.abs(g.asnumpy()).sum() > 0 for g in grads)
