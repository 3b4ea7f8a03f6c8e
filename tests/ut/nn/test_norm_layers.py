"""BatchNorm1d/3d, SyncBatchNorm, GroupNorm, LayerNorm(begin axes), LayerNormExt, InstanceNorm1d/2d/3d and the
functional group_norm / l2_normalize / renorm / rms_norm / add_rms_norm / add_layer_norm: values and gradients
against MindSpore 2.10 (fixture) or NumPy where MindSpore's CPU build has no kernel, and MindSpore's errors."""

import numpy as np
import pytest
from _seq_ref import DATA, check_case

import sporax as ms
from sporax import Tensor, nn, ops

LAYER_CASES = [
    ("bn1d_train_3d", lambda: nn.BatchNorm1d(3), True),
    ("bn3d_train", lambda: nn.BatchNorm3d(3), True),
    ("bn3d_eval", lambda: nn.BatchNorm3d(3), False),
    ("syncbn_train", lambda: nn.SyncBatchNorm(3), True),
    ("groupnorm_4d", lambda: nn.GroupNorm(2, 4), False),
    ("groupnorm_3d", lambda: nn.GroupNorm(4, 4, eps=1e-3), False),
    ("layernorm_axis1", lambda: nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1), False),
    ("layernorm_mixed", lambda: nn.LayerNorm((4,), begin_norm_axis=1, begin_params_axis=-1), False),
]


@pytest.mark.parametrize("name,factory,train", LAYER_CASES, ids=[c[0] for c in LAYER_CASES])
def test_layers_against_mindspore(name, factory, train):
    net = factory()
    net.set_train(train)
    check_case(name, net, rtol=1e-4, atol=1e-5)


FN_CASES = [
    ("F.group_norm", lambda x, w, b: ops.group_norm(x, 2, w, b, 1e-4)),
    ("F.l2_normalize", lambda x: ops.L2Normalize(axis=1, epsilon=1e-4)(x)),
    ("F.renorm", lambda x: ops.renorm(x, 2, 0, 1.5)),
]


@pytest.mark.parametrize("name,fn", FN_CASES, ids=[c[0] for c in FN_CASES])
def test_functional_against_mindspore(name, fn):
    n_in = sum(1 for k in DATA.files if k.startswith(f"{name}/in."))
    args = [Tensor(DATA[f"{name}/in.{i}"]) for i in range(n_in)]
    out = fn(*args)
    np.testing.assert_allclose(out.asnumpy(), DATA[f"{name}/out.0"], rtol=1e-5, atol=1e-6)
    probe = Tensor(DATA[f"{name}/probe/out.0"])
    g = ms.grad(lambda *xs: (fn(*xs) * probe).sum(), grad_position=0)(*args)
    np.testing.assert_allclose(g.asnumpy(), DATA[f"{name}/grad/in.0"], rtol=1e-4, atol=1e-5)


def _np_norm(x, axes, eps):
    m = x.mean(axis=axes, keepdims=True)
    v = x.var(axis=axes, keepdims=True)
    return (x - m) / np.sqrt(v + eps)


@pytest.mark.parametrize(
    "cls,shape",
    [(nn.InstanceNorm1d, (2, 3, 5)), (nn.InstanceNorm2d, (2, 3, 2, 3)), (nn.InstanceNorm3d, (2, 3, 2, 2, 2))],
)
def test_instance_norm_numpy(cls, shape):
    # MindSpore's InstanceNorm kernel is GPU-only: checked against NumPy
    rng = np.random.RandomState(0)
    x = rng.randn(*shape).astype(np.float32)
    gamma, beta = rng.randn(3).astype(np.float32), rng.randn(3).astype(np.float32)
    net = cls(3, gamma_init=Tensor(gamma), beta_init=Tensor(beta))
    assert [p.name for p in net.get_parameters()] == ["mean", "variance", "gamma", "beta"]
    axes = tuple(range(2, len(shape)))
    bshape = (1, 3) + (1,) * (len(shape) - 2)
    ref = _np_norm(x, axes, 1e-5) * gamma.reshape(bshape) + beta.reshape(bshape)
    net.set_train(True)
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), ref, rtol=1e-4, atol=1e-5)
    m = x.size // (shape[0] * 3)
    want_mean = 0.1 * x.mean(axis=axes).mean(0)
    want_var = 0.9 + 0.1 * (x.var(axis=axes) * m / (m - 1)).mean(0)
    np.testing.assert_allclose(net.moving_mean.asnumpy(), want_mean, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(net.moving_variance.asnumpy(), want_var, rtol=1e-4, atol=1e-6)
    net.set_train(False)  # inference also uses the instance statistics
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), ref, rtol=1e-4, atol=1e-5)
    probe = rng.randn(*shape).astype(np.float32)
    g = ms.grad(lambda t: (net(t) * Tensor(probe)).sum())(Tensor(x))
    # the analytic gradient of per-instance normalisation
    n = np.prod([shape[a] for a in axes])
    xh = _np_norm(x, axes, 1e-5)
    dy = probe * gamma.reshape(bshape)
    rstd = 1 / np.sqrt(x.var(axis=axes, keepdims=True) + 1e-5)
    dx = rstd / n * (n * dy - dy.sum(axes, keepdims=True) - xh * (dy * xh).sum(axes, keepdims=True))
    np.testing.assert_allclose(g.asnumpy(), dx, rtol=1e-3, atol=1e-4)


def test_layernormext_and_rms_family_numpy():
    rng = np.random.RandomState(1)
    x = rng.randn(2, 3, 4).astype(np.float32)
    ln = nn.LayerNormExt((3, 4), eps=1e-6)
    assert [p.name for p in ln.get_parameters()] == ["weight", "bias"]
    np.testing.assert_allclose(ln(Tensor(x)).asnumpy(), _np_norm(x, (1, 2), 1e-6), rtol=1e-4, atol=1e-5)
    assert nn.LayerNormExt(4, elementwise_affine=False).weight is None
    assert nn.LayerNormExt(4, bias=False).bias is None
    g = rng.randn(4).astype(np.float32)
    y, rstd = ops.rms_norm(Tensor(x), Tensor(g), 1e-6)
    want_rstd = 1 / np.sqrt((x**2).mean(-1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(rstd.asnumpy(), want_rstd, rtol=1e-5)
    np.testing.assert_allclose(y.asnumpy(), x * want_rstd * g, rtol=1e-5, atol=1e-6)
    y2, _, s = ops.add_rms_norm(Tensor(x), Tensor(x), Tensor(g))
    np.testing.assert_allclose(s.asnumpy(), 2 * x)
    np.testing.assert_allclose(y2.asnumpy(), y.asnumpy(), rtol=1e-5, atol=1e-6)
    b = rng.randn(4).astype(np.float32)
    y3, mean, rs, s3 = ops.add_layer_norm(Tensor(x), Tensor(x), Tensor(g), Tensor(b), 1e-5, True)
    np.testing.assert_allclose(y3.asnumpy(), _np_norm(2 * x, (2,), 1e-5) * g + b, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mean.asnumpy(), (2 * x).mean(-1, keepdims=True), rtol=1e-5, atol=1e-6)
    assert rs.shape == (2, 3, 1) and s3.shape == x.shape
    with pytest.raises(ValueError, match="For 'RmsNorm', the 'epsilon' must be in range"):
        ops.rms_norm(Tensor(x), Tensor(g), 0.0)


def test_syncbatchnorm_one_process_is_batchnorm_and_nhwc():
    x = Tensor(np.random.RandomState(2).randn(4, 3, 2, 2).astype(np.float32))
    a, b = nn.SyncBatchNorm(3), nn.BatchNorm2d(3)
    a.set_train(True)
    b.set_train(True)
    np.testing.assert_allclose(a(x).asnumpy(), b(x).asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(a.moving_variance.asnumpy(), b.moving_variance.asnumpy(), rtol=1e-6)
    assert not nn.SyncBatchNorm(3, process_groups=[[0]]).is_global
    with pytest.raises(ValueError, match="rank id in process_groups"):
        nn.SyncBatchNorm(3, process_groups=[[0, 5]])
    nhwc = nn.BatchNorm2d(3, data_format="NHWC")
    nhwc.set_train(True)
    out = nhwc(ops.transpose(x, (0, 2, 3, 1)))
    np.testing.assert_allclose(ops.transpose(out, (0, 3, 1, 2)).asnumpy(), b(x).asnumpy(), rtol=1e-5, atol=1e-6)
    assert [p.name for p in nn.BatchNorm3d(2).get_parameters()] == [
        "bn2d.moving_mean",  # as MindSpore names them
        "bn2d.moving_variance",
        "bn2d.gamma",
        "bn2d.beta",
    ]


X4 = Tensor(np.ones((2, 4, 3, 3), np.float32))
X5 = Tensor(np.ones((2, 4, 2, 3, 3), np.float32))
ERRORS = [
    (
        lambda: nn.GroupNorm(3, 4),
        ValueError,
        "For 'GroupNorm', the 'num_channels' must be divided by 'num_groups', but got 'num_channels': 4, 'num_groups': 3.",
    ),
    (
        lambda: nn.GroupNorm(2, 4, eps=1),
        TypeError,
        "For 'GroupNorm', the type of 'eps' should be 'float', but got type 'int'.",
    ),
    (lambda: nn.GroupNorm(2, 4)(X4[:, :2]), ValueError, "must be equal to num_channels, but got channel: 2"),
    (lambda: nn.InstanceNorm2d(4)(X5), ValueError, "For 'InstanceNorm2d', the in_shape must have 4 dims, but got 5."),
    (
        lambda: nn.InstanceNorm2d(4, eps=1),
        TypeError,
        "For 'InstanceNorm2d', the type of 'eps' should be 'float', but got type 'int'.",
    ),
    (lambda: nn.BatchNorm3d(4)(X4), ValueError, "For 'BatchNorm3d', the in_shape must have 5 dims, but got 4."),
    (lambda: nn.SyncBatchNorm(4)(X5), ValueError, "For 'SyncBatchNorm', the must have 2 dims or 4 dims, but got 5."),
    (lambda: nn.LayerNorm(()), ValueError, "Expected normalized_shape to be at least 1-dimensional"),
    (lambda: nn.BatchNorm2d(0), ValueError, "For 'BatchNorm2d', the 'num_features' must be at least 1, but got 0."),
    (lambda: nn.BatchNorm2d(2.0), TypeError, "For 'BatchNorm2d', the type of 'num_features' should be 'int'"),
    (lambda: ops.group_norm(X4, 3), ValueError, "'num_groups' must divide the channel"),
]


@pytest.mark.parametrize("fn,err,msg", ERRORS)
def test_errors(fn, err, msg):
    with pytest.raises(err) as info:
        fn()
    assert msg in str(info.value)


def test_amp_auto_lists():
    """Under amp 'auto' (MindSpore's AmpAuto lists): GroupNorm and Pdist are black-listed (float32 from float16
    inputs); RmsNorm is on no list (keeps float16)."""
    from sporax import amp

    h = Tensor(np.random.RandomState(3).rand(2, 4, 3).astype(np.float16))

    class Run(nn.Cell):
        def __init__(self, fn):
            super().__init__()
            self.fn = fn

        def construct(self):
            return self.fn()

    def dtype_of(fn):
        out = amp.auto_mixed_precision(Run(fn), "auto", ms.float16)()
        return (out[0] if isinstance(out, tuple) else out).dtype

    assert dtype_of(lambda: ops.group_norm(h, 2)) == ms.float32
    assert dtype_of(lambda: ops.pdist(h[0])) == ms.float32
    assert dtype_of(lambda: ops.rms_norm(h, Tensor(np.ones(3, np.float16)))) == ms.float16
