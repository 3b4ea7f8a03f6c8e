"""The channels-last CPU convolutions ('nhwc': padding inside the windows, 1x1 ones as a GEMM) against
``lax.conv``'s own autodiff ('plain') in float64: values and both gradients, on the paddings the windows
cannot hold (wider than the kernel: the input gradient crops instead of padding negatively), strides that
leave rows unused, 1x1 convolutions (strided, padded), 3-D and transposed convolutions."""

import jax
import numpy as np
import pytest

from sporax.ops import _lowering as L
from sporax.ops._lowering import conv as C

pytestmark = pytest.mark.skipif(jax.default_backend() != "cpu", reason="the CPU lowering")


def _values_and_grads(fn, *arrays):
    """``fn``'s value and the gradients of <fn(...), probe> for every operand, under each lowering."""
    out = {}
    for lowering in ("plain", "nhwc"):
        with L.force_lowering(conv=lowering):
            y = jax.jit(fn)(*arrays)
            probe = np.random.default_rng(3).standard_normal(y.shape)
            grads = jax.jit(jax.grad(lambda *a: (fn(*a) * probe).sum(), tuple(range(len(arrays)))))(*arrays)
        out[lowering] = [np.asarray(y), *map(np.asarray, grads)]
    return out


def _assert_same(out):
    for got, want in zip(out["nhwc"], out["plain"]):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


# (C, O, kernel, stride, pads, dilation, H, W)
CASES_2D = [
    (3, 4, (3, 3), (2, 2), [(3, 3), (3, 3)], (1, 1), (7, 6)),  # padding wider than the kernel's reach
    (2, 3, (1, 1), (1, 1), [(1, 2), (0, 1)], (1, 1), (5, 4)),  # padded 1x1: a convolution, not a GEMM
    (4, 3, (1, 1), (2, 3), [(0, 0), (0, 0)], (1, 1), (7, 8)),  # strided 1x1: the GEMM path
    (2, 2, (3, 2), (3, 2), [(0, 2), (1, 0)], (2, 1), (11, 9)),  # dilated, asymmetric, unused last rows
    (3, 2, (2, 2), (1, 1), [(0, 0), (4, 0)], (1, 1), (4, 4)),  # one-sided padding past the kernel
]


@pytest.mark.parametrize("case", CASES_2D)
def test_conv2d_nhwc_matches_lax_autodiff(case):
    c, o, k, s, pads, d, hw = case
    rng = np.random.default_rng(abs(hash(repr(case))) % 2**32)
    x, w = rng.standard_normal((2, c, *hw)), rng.standard_normal((o, c, *k))
    _assert_same(_values_and_grads(lambda x, w: L.conv2d_array(x, w, s, pads, d, 1), x, w))


@pytest.mark.parametrize("case", [CASES_2D[0], CASES_2D[3]])
def test_conv2d_nhwc_weight_gradient_in_batch_chunks(case, monkeypatch):
    """Large batches sum the weight gradient over batch chunks in a loop, and a strided convolution's input
    gradient runs chunk by chunk: here one image per chunk."""
    monkeypatch.setattr(C, "_WGRAD_CHUNK_BYTES", 1)
    monkeypatch.setattr(C, "_WGRAD_CHUNK_MIN_OUT", 1)
    monkeypatch.setattr(C, "_DGRAD_WHOLE_BYTES", 0)  # strided: the input gradient in chunks too
    monkeypatch.setattr(C, "_DGRAD_CHUNK_BYTES", 1)
    c, o, k, s, pads, d, hw = case
    rng = np.random.default_rng(11)
    x, w = rng.standard_normal((3, c, *hw)), rng.standard_normal((o, c, *k))
    _assert_same(_values_and_grads(lambda x, w: L.conv2d_array(x, w, s, pads, d, 1), x, w))
    jaxpr = str(jax.make_jaxpr(jax.grad(lambda x, w: L.conv2d_array(x, w, s, pads, d, 1, "nhwc").sum(), (0, 1)))(x, w))
    assert jaxpr.count("scan") == 2


def test_conv3d_nhwc_matches_lax_autodiff():
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((2, 2, 5, 4, 6)), rng.standard_normal((3, 2, 2, 3, 1))
    fn = lambda x, w: L.conv_nd_array(x, w, (2, 1, 2), [(2, 2), (0, 1), (1, 0)], (1, 2, 1), 1)  # noqa: E731
    _assert_same(_values_and_grads(fn, x, w))


@pytest.mark.parametrize(
    "stride, pads, out_shape",
    [
        ((2, 2), [(1, 1), (0, 1)], (7, 8)),  # as conv_transpose2d with padding gives
        ((2, 1), [(0, 0), (2, 2)], (10, 2)),  # output_padding: longer than the windows reach
        ((3, 2), [(1, 2), (0, 1)], (11, 9)),  # both: padding cropped, output_padding added
    ],
)
def test_conv_transpose_nhwc_matches_lax_autodiff(stride, pads, out_shape):
    rng = np.random.default_rng(sum(out_shape))
    x, w = rng.standard_normal((2, 3, 4, 4)), rng.standard_normal((3, 2, 3, 3))
    fn = lambda x, w: L.conv_transpose_array(x, w, stride, pads, (1, 1), 1, out_shape)  # noqa: E731
    _assert_same(_values_and_grads(fn, x, w))


# ------------------------------------------------------------------ the 2x2 phase layout ('gemm' + max-pool)
# (C, O, kernel, stride, pads, dilation, H, W): even output sizes, so the GEMM convolution writes 2x2 phases
PHASE_CASES = [
    (1, 6, (5, 5), (1, 1), [(0, 0), (0, 0)], (1, 1), (12, 12)),  # LeNet5's first layer, smaller
    (2, 3, (3, 3), (2, 2), [(1, 1), (1, 1)], (1, 1), (8, 8)),  # strided: phases two strides apart
    (2, 2, (3, 2), (1, 2), [(0, 1), (2, 0)], (2, 1), (9, 10)),  # dilated, asymmetric padding
]


def _conv_relu_pool(x, w, s, pads, d, pool):
    y = L.conv2d_array(x, w, s, pads, d, 1)
    y = jax.nn.relu(y - jax.lax.stop_gradient(jax.numpy.quantile(y, 0.9)))  # zero windows: ties
    return L.block_max_pool(y, *pool) if pool else y


@pytest.mark.parametrize("case", PHASE_CASES)
def test_gemm_conv_in_phases_matches_lax_autodiff(case):
    """The GEMM convolution writing its output in 2x2 phases, alone and under a ReLU and a 2x2 max-pool
    (windows of ties after the ReLU: the first maximum takes the gradient): values and both gradients
    equal those of lax.conv + reduce_window's autodiff and of the layout without phases."""
    c, o, k, s, pads, d, hw = case
    rng = np.random.default_rng(sum(hw))
    x, w = rng.standard_normal((2, c, *hw)), rng.standard_normal((o, c, *k))
    out = {}
    with jax.enable_x64():
        for name, kw in {
            "plain": dict(conv="plain", maxpool="plain"),
            "phases": dict(conv="gemm"),
            "nophase": dict(conv="gemm", phases=False),
        }.items():
            with L.force_lowering(**kw):
                fn = lambda x, w: _conv_relu_pool(x, w, s, pads, d, (2, 2))  # noqa: E731
                if name != "plain":  # the convolution alone: [O, 2, 2, B, OH / 2, OW / 2] or [O, 1, 1, B, OH, OW]
                    conv = jax.make_jaxpr(lambda x, w: L.conv2d_array(x, w, s, pads, d, 1))(x, w)
                    assert ("2,2,2" if name == "phases" else "1,1,2") in str(conv).replace(" ", "")
                y = jax.jit(fn)(x, w)
                probe = np.random.default_rng(3).standard_normal(y.shape)
                grads = jax.jit(jax.grad(lambda x, w: (fn(x, w) * probe).sum(), (0, 1)))(x, w)
            out[name] = [np.asarray(y), *map(np.asarray, grads)]
    assert (out["plain"][0] == 0).mean() > 0.3
    for name in ("phases", "nophase"):
        for got, want in zip(out[name], out["plain"]):
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize(
    "c, o, k, pads, hw",
    [
        (1, 6, (5, 5), [(0, 0), (0, 0)], (12, 12)),  # LeNet5's first layer, smaller
        (3, 2, (4, 2), [(1, 0), (0, 1)], (10, 12)),  # even kernel: an odd padded size, extended by a zero row
        (2, 3, (3, 3), [(1, 1), (1, 1)], (6, 8)),
    ],
)
def test_space_to_depth_conv_matches_lax_autodiff(c, o, k, pads, hw, monkeypatch):
    """Stride-1 GEMM convolutions into 2x2 phases through space-to-depth (``conv.conv_s2d``, chosen for
    K = C * kh * kw <= ``_S2D_MAX_K``; forced here for every size): values and both gradients equal lax.conv's
    autodiff, under a ReLU and a 2x2 max-pool too."""
    calls = []
    real = C.conv_s2d
    monkeypatch.setattr(C, "conv_s2d", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(L, "_S2D_MAX_K", 10**6)
    rng = np.random.default_rng(sum(hw))
    x, w = rng.standard_normal((2, c, *hw)), rng.standard_normal((o, c, *k))
    out = {}
    with jax.enable_x64():
        for name in ("plain", "gemm"):
            with L.force_lowering(conv=name, maxpool="plain" if name == "plain" else None):
                for pool in (None, (2, 2)):
                    fn = lambda x, w: _conv_relu_pool(x, w, (1, 1), pads, (1, 1), pool)  # noqa: E731
                    y = jax.jit(fn)(x, w)
                    probe = np.random.default_rng(3).standard_normal(y.shape)
                    grads = jax.jit(jax.grad(lambda x, w: (fn(x, w) * probe).sum(), (0, 1)))(x, w)
                    out[name, pool] = [np.asarray(y), *map(np.asarray, grads)]
    assert calls
    for pool in (None, (2, 2)):
        for got, want in zip(out["gemm", pool], out["plain", pool]):
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("k", [(2, 2), (3, 2)])
def test_phase_maxpool_sends_ties_to_the_first_element(k):
    """MindSpore 2.10's max-pool backward (checked on its CPU wheel) gives a window's gradient to the first
    maximum in row-major order; the phase-layout pool does too, also for NaN-free all-equal windows."""
    x = np.zeros((1, 2, 2 * k[0], 2 * k[1]))
    x[0, 1, 0, 1] = x[0, 1, 1, 0] = 1.0  # window (0, 0) of channel 1: the first of two maxima is (0, 1)
    g = np.asarray(
        jax.jit(jax.grad(lambda v: (L.block_max_pool(v, *k) * np.arange(1, 9).reshape(1, 2, 2, 2)).sum()))(x)
    )
    want = np.zeros_like(x)
    want[0, 0, :: k[0], :: k[1]] = np.arange(1, 5).reshape(2, 2)
    want[0, 1, :: k[0], :: k[1]] = np.arange(5, 9).reshape(2, 2)
    want[0, 1, 0, 0], want[0, 1, 0, 1] = 0, 5
    np.testing.assert_array_equal(g, want)


def test_phase_maxpool_integers():
    x = np.random.default_rng(0).integers(-50, 50, (2, 3, 4, 6)).astype(np.int32)
    y = np.asarray(jax.jit(lambda v: L.block_max_pool(v, 2, 3))(x))
    np.testing.assert_array_equal(y, x.reshape(2, 3, 2, 2, 2, 3).max((3, 5)))


def test_pointwise_forward_mode():
    """1x1 convolutions (a plain 2-D GEMM, no custom VJP) keep forward-mode differentiation."""
    rng = np.random.default_rng(8)
    x, w, t = rng.standard_normal((3, 4, 4, 6)), rng.standard_normal((3, 4, 1, 1)), rng.standard_normal((3, 4, 4, 6))
    out = {}
    for lowering in ("plain", "nhwc"):
        with L.force_lowering(conv=lowering):
            fn = lambda x: L.conv2d_array(x, w, (2, 2), [(0, 0), (0, 0)], (1, 1), 1)  # noqa: E731
            out[lowering] = [np.asarray(v) for v in jax.jvp(fn, (x,), (t,))]
    for got, want in zip(out["nhwc"], out["plain"]):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def test_compiler_options_follow_the_convolutions(monkeypatch):
    """Programs with channels-last convolutions on large inputs ask XLA:CPU for YNNPACK's elementwise
    fusions too, also when they have max-pools, in whichever order they are traced (the pool's request is
    a default); a pool after GEMM convolutions, or alone, asks for the pool's options."""
    from _compile_spy import spy_compiler_options

    import sporax as ms

    seen = spy_compiler_options(monkeypatch)
    rng = np.random.default_rng(2)
    x = ms.Tensor(rng.standard_normal((2, 16, 8, 8)).astype(np.float32))
    w = ms.Tensor(rng.standard_normal((16, 16, 3, 3)).astype(np.float32))
    x1, w1 = ms.Tensor(np.ones((2, 1, 8, 8), np.float32)), ms.Tensor(np.ones((4, 1, 3, 3), np.float32))
    conv = lambda x, w: ms.ops.conv2d(x, w, pad_mode="pad", padding=1)  # noqa: E731
    pool = lambda v: ms.ops.max_pool2d(ms.ops.relu(v), 2, 2)  # noqa: E731
    ms.jit(conv)(x, w)
    assert seen[-1] is None  # small activations: jaxlib's defaults
    monkeypatch.setattr(L, "_CONV_OPTIONS_MIN_BYTES", x.nbytes)
    for fn, args, want in [
        (conv, (x, w), C.CPU_CONV_OPTIONS),  # 16 channels: 'nhwc'
        (lambda x, w: pool(conv(x, w)), (x, w), C.CPU_CONV_OPTIONS),
        (pool, (x,), L.CPU_POOL_OPTIONS),  # a new trace: the convolution before does not count
        (lambda x, w: pool(conv(x, w)), (x1, w1), L.CPU_POOL_OPTIONS),  # one input channel: 'gemm'
        (lambda x, w: (pool(x), conv(x, w)), (x, w), C.CPU_CONV_OPTIONS),  # the pool traced first
        # a pool after a GEMM convolution in a program with 'nhwc' ones, also inside a gradient
        (lambda x, w, a, b: (conv(x, w), pool(conv(a, b))), (x, w, x1, w1), C.CPU_CONV_OPTIONS),
        (
            lambda x, w, a, b: (conv(x, w), ms.grad(lambda v: pool(conv(v, b)).sum())(a)),
            (x, w, x1, w1),
            C.CPU_CONV_OPTIONS,
        ),
    ]:
        ms.jit(fn)(*args)
        assert seen[-1] == want


def test_lenet_step_compiler_options(monkeypatch):
    """LeNet5's train step (GEMM convolutions, 2x2 max-pools in their phase layout) compiles with the
    pool's options, one program per step."""
    from _compile_spy import spy_compiler_options

    import sporax as ms
    from sporax import nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2 = nn.Conv2d(1, 6, 5, pad_mode="valid"), nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.pool, self.relu, self.fc = nn.MaxPool2d(2, 2), nn.ReLU(), nn.Dense(16 * 5 * 5, 10)

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            return self.fc(self.pool(self.relu(self.conv2(x))).reshape(x.shape[0], -1))

    seen = spy_compiler_options(monkeypatch)
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.SGD(net.trainable_params(), 0.01)
    grad_fn = ms.value_and_grad(lambda x, y: loss(net(x), y), None, opt.parameters)

    @ms.jit
    def step(x, y):
        value, grads = grad_fn(x, y)
        opt(grads)
        return value

    step(ms.Tensor(np.ones((2, 1, 32, 32), np.float32)), ms.Tensor(np.array([1, 2], np.int32)))
    assert seen == [L.CPU_POOL_OPTIONS]


@pytest.mark.parametrize(
    "k, pads, d, hw",
    [
        ((3, 3), [(1, 1), (1, 1)], (1, 1), (4, 4)),  # ResNet-18's last stage: 31 % of the work on padding
        ((3, 2), [(2, 0), (1, 1)], (1, 2), (3, 5)),  # asymmetric, dilated
        ((3, 3), [(1, 1), (1, 1)], (1, 1), (2, 2)),  # corner taps reach one pixel
    ],
)
def test_conv2d_tiny_images_per_tap_gemms(k, pads, d, hw):
    """Stride-1 convolutions whose windows lie largely on the padding run as one GEMM per kernel tap
    over the pixels it reaches (no convolution op in the program); values and gradients as lax.conv's."""
    rng = np.random.default_rng(sum(hw))
    x, w = rng.standard_normal((2, 3, *hw)), rng.standard_normal((4, 3, *k))
    fn = lambda x, w: L.conv2d_array(x, w, (1, 1), pads, d, 1)  # noqa: E731
    _assert_same(_values_and_grads(fn, x, w))
    with L.force_lowering(conv="nhwc"):
        jaxpr = str(jax.make_jaxpr(jax.grad(lambda x, w: fn(x, w).sum(), (0, 1)))(x, w))
    assert "conv_general_dilated" not in jaxpr and "dot_general" in jaxpr
