"""Conv2d/Conv1d and pooling layers: forward against NumPy, gradients against finite differences
(every pooling lowering: reshape max-pool with its mask VJP, reduce_window, windows+argmax), default
initialisation, errors.

Convolution lowerings (DESIGN §5): 'plain' (lax.conv) and 'gemm' (im2col + GEMM with a GEMM-written VJP,
what CPU runs) against a NumPy reference, forward and gradients w.r.t. input, weight and bias, eagerly,
under ``sporax.jit`` and inside ``scan_steps`` (sink mode)."""

import math
import zlib

import numpy as np
import pytest
from _grad_check import assert_fd_grads

import sporax as ms
from sporax import nn, ops
from sporax._engine import scan_steps
from sporax.ops import _lowering as L
from sporax.ops.function import _conv_pool as CP

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


def np_conv2d_full(x, w, proj, stride, pads, dilation, groups):
    """Forward, and the gradients of ``sum(conv(x, w) * proj)`` w.r.t. x and w, in float64 loops."""
    xp = np.pad(x, ((0, 0), (0, 0), *pads))
    n, c, h, wd = xp.shape
    o, cg, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    y, dxp, dw = np.zeros((n, o, oh, ow)), np.zeros_like(xp), np.zeros_like(w)
    og = o // groups
    for g in range(groups):
        cs, os_ = slice(g * cg, (g + 1) * cg), slice(g * og, (g + 1) * og)
        for i in range(kh):
            for j in range(kw):
                hs = slice(i * dilation[0], i * dilation[0] + (oh - 1) * stride[0] + 1, stride[0])
                ws = slice(j * dilation[1], j * dilation[1] + (ow - 1) * stride[1] + 1, stride[1])
                patch = xp[:, cs, hs, ws]
                y[:, os_] += np.einsum("nchw,oc->nohw", patch, w[os_, :, i, j])
                if proj is not None:
                    dw[os_, :, i, j] += np.einsum("nohw,nchw->oc", proj[:, os_], patch)
                    dxp[:, cs, hs, ws] += np.einsum("nohw,oc->nchw", proj[:, os_], w[os_, :, i, j])
    dx = dxp[:, :, pads[0][0] : pads[0][0] + x.shape[2], pads[1][0] : pads[1][0] + x.shape[3]]
    return y, dx, dw


def fd_check(f, x, params, rtol=1e-6, atol=1e-8, eps=1e-6):
    if params:
        gx, gw = ms.grad(f, 0, params)(x)
    else:
        gx, gw = ms.grad(f, 0)(x), ()
    assert_fd_grads(f, x, params, [gx, *gw], rtol, atol, eps)


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
        "Conv2d(input_channels=1, output_channels=6, kernel_size=(5, 5), stride=(1, 1), pad_mode=valid, "
        "padding=0, dilation=(1, 1), group=1, has_bias=False, weight_init=None, bias_init=None, format=NCHW)"
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


# ------------------------------------------------------- convolution lowerings
# (in, out, group), kernel, stride, dilation, pad_mode/padding, input H x W
CONV_CASES = [
    ((1, 6, 1), (5, 5), 1, 1, dict(pad_mode="valid"), (12, 12)),  # LeNet's first layer
    ((6, 4, 1), (3, 3), 1, 1, dict(pad_mode="same"), (7, 8)),
    ((3, 4, 1), (3, 2), (2, 1), 1, dict(pad_mode="same"), (9, 7)),  # strided 'same': asymmetric pads
    ((2, 3, 1), (3, 3), 2, 1, dict(pad_mode="pad", padding=1), (8, 9)),
    ((2, 3, 1), (2, 3), (2, 3), (2, 1), dict(pad_mode="pad", padding=(1, 0, 2, 1)), (11, 12)),
    ((2, 2, 1), (3, 3), 1, (2, 3), dict(pad_mode="valid"), (10, 11)),  # dilated
    ((4, 6, 2), (3, 3), 1, 1, dict(pad_mode="same"), (6, 6)),  # groups
    ((4, 4, 4), (3, 3), 2, 1, dict(pad_mode="pad", padding=1), (7, 7)),  # depthwise, strided
    ((6, 6, 3), (1, 1), 1, 1, dict(pad_mode="valid"), (5, 4)),  # 1x1
    ((3, 2, 1), (4, 4), 3, 1, dict(pad_mode="valid"), (10, 10)),  # stride leaves the last row/column unused
]


def _conv_case(case, dtype):
    rng = np.random.default_rng(zlib.crc32(repr(case).encode()))  # own stream: other tests keep theirs
    (cin, cout, group), k, stride, dilation, pad_kw, hw = case
    x = rng.standard_normal((2, cin, *hw)).astype(dtype)
    w = rng.standard_normal((cout, cin // group, *k)).astype(dtype)
    b = rng.standard_normal(cout).astype(dtype)
    s = CP.tuple_n(stride, 2, "stride", "t")
    d = CP.tuple_n(dilation, 2, "dilation", "t")
    pads = CP._resolve_pads(hw, k, s, d, pad_kw["pad_mode"], pad_kw.get("padding", 0), "t")
    args = dict(stride=stride, dilation=dilation, groups=group, **pad_kw)
    return x, w, b, s, d, pads, args


@pytest.mark.parametrize("lowering", ["plain", "gemm", "nhwc"])  # grouped cases: 'nhwc' keeps the CPU choice
@pytest.mark.parametrize("case", CONV_CASES)
def test_conv2d_lowerings_match_numpy(case, lowering):
    """Forward and gradients (input, weight, bias) of each lowering against NumPy, eagerly and under jit."""
    x, w, b, s, d, pads, args = _conv_case(case, np.float64)
    rng = np.random.default_rng(1)
    y_ref, _, _ = np_conv2d_full(x, w, None, s, pads, d, args["groups"])
    y_ref = y_ref + b[None, :, None, None]
    proj = rng.standard_normal(y_ref.shape)
    _, dx_ref, dw_ref = np_conv2d_full(x, w, proj, s, pads, d, args["groups"])
    db_ref = proj.sum((0, 2, 3))

    def loss(xv, wv, bv):
        return ops.sum(ops.conv2d(xv, wv, bv, **args) * T(proj))

    with L.force_lowering(conv=lowering):
        y = ops.conv2d(T(x), T(w), T(b), **args)
        grads = ms.grad(loss, (0, 1, 2))(T(x), T(w), T(b))  # compiled (sporax.grad jit-compiles)
        y_jit = ms.jit(lambda xv, wv, bv: ops.conv2d(xv, wv, bv, **args))(T(x), T(w), T(b))
    np.testing.assert_allclose(y.asnumpy(), y_ref, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(y_jit.asnumpy(), y_ref, rtol=1e-10, atol=1e-10)
    for g, ref in zip(grads, (dx_ref, dw_ref, db_ref)):
        np.testing.assert_allclose(g.asnumpy(), ref, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("case", CONV_CASES[:5] + CONV_CASES[6:8])
def test_conv2d_gemm_float32_matches_plain(case):
    """float32: the GEMM lowering equals lax.conv within float32 rounding, forward and backward."""
    x, w, b, _, _, _, args = _conv_case(case, np.float32)
    outs = {}
    for lowering in ("plain", "gemm", "nhwc"):

        def loss(xv, wv, bv):
            y = ops.conv2d(xv, wv, bv, **args)
            return ops.sum(ops.sin(y))

        with L.force_lowering(conv=lowering):
            y = ops.conv2d(T(x), T(w), T(b), **args)
            outs[lowering] = [y.asnumpy()] + [g.asnumpy() for g in ms.grad(loss, (0, 1, 2))(T(x), T(w), T(b))]
    for lowering in ("gemm", "nhwc"):
        for a, g in zip(outs["plain"], outs[lowering]):
            assert a.dtype == g.dtype == np.float32
            np.testing.assert_allclose(g, a, rtol=2e-5, atol=2e-5 * np.abs(a).max())


def test_conv_lowering_choice():
    f32 = lambda *s: np.zeros(s, np.float32)
    assert L.conv_lowering(f32(32, 1, 32, 32), f32(6, 1, 5, 5), (1, 1), (1, 1), 1) == "gemm"  # CPU: LeNet
    assert L.conv_lowering(f32(32, 6, 14, 14), f32(16, 6, 5, 5), (1, 1), (1, 1), 1) == "gemm"
    assert L.conv_lowering(f32(32, 16, 34, 34), f32(16, 16, 3, 3), (1, 1), (1, 1), 1) == "nhwc"  # large im2col
    # few channels: im2col + GEMM; into 16 or more output channels (an RGB stem) with the pixels as rows
    assert L.conv_lowering(f32(32, 3, 66, 66), f32(16, 3, 3, 3), (1, 1), (1, 1), 1) == "gemm_cl"
    assert L.conv_lowering(f32(32, 3, 66, 66), f32(8, 3, 3, 3), (1, 1), (1, 1), 1) == "gemm"
    assert L.conv_lowering(f32(32, 16, 18, 18), f32(16, 8, 3, 3), (1, 1), (1, 1), 2) == "gemm"  # grouped
    assert L.conv_lowering(
        f32(2, 3, 8, 8).astype(np.float16), f32(4, 3, 3, 3).astype(np.float16), (1, 1), (1, 1), 1
    ) == ("plain")
    huge = np.lib.stride_tricks.as_strided(f32(1, 1, 1, 1), (64, 64, 128, 128), (0, 0, 0, 0))
    assert L.conv_lowering(huge, f32(64, 64, 3, 3), (1, 1), (1, 1), 1) == "nhwc"
    assert L.conv_lowering(huge, f32(64, 1, 3, 3), (1, 1), (1, 1), 64) == "plain"  # grouped, huge
    with pytest.raises(ValueError, match="unknown lowering"):
        with L.force_lowering(conv="eigen"):
            pass
    with pytest.raises(ValueError, match="'lowering' must be one of"):
        L.conv2d_array(f32(1, 1, 3, 3), f32(1, 1, 1, 1), (1, 1), [(0, 0), (0, 0)], (1, 1), 1, lowering="x")
    with pytest.raises(ValueError, match="'nhwc' lowering takes groups == 1"):
        L.conv2d_array(f32(1, 2, 3, 3), f32(2, 1, 1, 1), (1, 1), [(0, 0), (0, 0)], (1, 1), 2, lowering="nhwc")


def test_conv1d_gemm_matches_plain():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 4, 9))
    w = rng.standard_normal((6, 2, 3))
    outs = []
    for lowering in ("plain", "gemm"):  # grouped
        f = lambda xv, wv: ops.sum(ops.conv1d(xv, wv, None, 2, "pad", (1, 2), 2, 2) ** 2)
        with L.force_lowering(conv=lowering):
            outs.append([g.asnumpy() for g in ms.grad(f, (0, 1))(T(x), T(w))])
    for lowering in ("plain", "nhwc"):  # dilated, strided
        f = lambda xv, wv: ops.sum(ops.conv1d(xv, wv, None, 2, "pad", (1, 2), 2, 1) ** 2)
        with L.force_lowering(conv=lowering):
            outs.append([g.asnumpy() for g in ms.grad(f, (0, 1))(T(x), T(np.concatenate([w, w], 1)))])
    for a, g in (outs[:2], outs[2:]):
        for u, v in zip(a, g):
            np.testing.assert_allclose(v, u, rtol=1e-10)


class _SmallCNN(nn.Cell):
    def __init__(self, dtype):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, pad_mode="valid", has_bias=True, dtype=dtype)
        self.conv2 = nn.Conv2d(4, 6, 3, stride=2, pad_mode="same", has_bias=True, dtype=dtype)
        self.pool = nn.MaxPool2d(2, 2)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(6 * 2 * 2, 3, dtype=dtype)

    def construct(self, x, y):
        h = self.pool(self.relu(self.conv1(x)))
        h = self.relu(self.conv2(h))
        return ops.mean((self.fc(self.flatten(h)) - y) ** 2)


@pytest.mark.parametrize("lowering", ["plain", "gemm", "nhwc"])
def test_conv_train_steps_in_scan_steps_match_a_python_loop(lowering):
    """Sink mode: SGD steps inside one scan_steps program equal the same steps one by one, eagerly,
    with the plain lowering (float64: the comparison is exact up to summation order)."""
    ms.set_seed(3)
    rng = np.random.default_rng(3)
    net = _SmallCNN(ms.float64)
    init = [p.asnumpy() for p in net.trainable_params()]
    xs = rng.standard_normal((4, 2, 1, 10, 10))
    ys = rng.standard_normal((4, 2, 3))

    def make_step():
        opt = nn.SGD(net.trainable_params(), 0.1)
        vg = ms.value_and_grad(net, None, opt.parameters)

        def step(x, y):
            loss, grads = vg(x, y)
            opt(grads)
            return loss

        return step

    step = make_step()
    with L.force_lowering(conv="plain"):
        ref_losses = [float(step(T(x), T(y)).asnumpy()) for x, y in zip(xs, ys)]
    ref_w = [p.asnumpy() for p in net.trainable_params()]
    for p, v in zip(net.trainable_params(), init):
        p.set_data(T(v))
    step = make_step()
    sink = ms.jit(lambda a, b: scan_steps(lambda row: step(*row), (a, b)))
    with L.force_lowering(conv=lowering):
        losses = sink(T(xs), T(ys)).asnumpy()
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-10)
    for p, ref in zip(net.trainable_params(), ref_w):
        np.testing.assert_allclose(p.asnumpy(), ref, rtol=1e-9, atol=1e-12)


def test_reshape_maxpool_requests_cpu_compiler_options(monkeypatch):
    """A compiled function with a reshape max-pool asks for the CPU fusion options (DESIGN §5); ones this
    jaxlib rejects are dropped, explicit compiler_options win."""
    from _compile_spy import spy_compiler_options

    from sporax._engine import _jit

    seen = spy_compiler_options(monkeypatch)
    rng = np.random.default_rng(4)
    x = T(rng.standard_normal((2, 3, 4, 4)).astype(np.float32))
    pool = lambda v: ops.max_pool2d(v, 2, 2)
    np.testing.assert_array_equal(ms.jit(pool)(x).asnumpy(), pool(x).asnumpy())
    assert seen[-1] == _jit._supported(L.CPU_POOL_OPTIONS) == L.CPU_POOL_OPTIONS  # accepted by this jaxlib
    seen.clear()
    ms.jit(lambda v: ops.max_pool2d(v, 3, 2))(x)  # reduce_window: nothing requested
    assert seen[-1] is None

    def bogus(v):
        _jit.request_compiler_options({"xla_cpu_experimental_ynn_fusion_type": "LIBRARY_FUSION_TYPE_NOPE"})
        return v * 2

    np.testing.assert_array_equal(ms.jit(bogus)(x).asnumpy(), x.asnumpy() * 2)  # dropped, still compiles
    assert seen[-1] is None
    explicit = _jit.StatefulJit(pool, compiler_options={})
    explicit(x)
    assert seen[-1] is None


# ---------------------------------------------------------------------- pooling
def test_maxpool2d_defaults_repr():
    p = nn.MaxPool2d()
    assert (p.kernel_size, p.stride, p.pad_mode) == (1, 1, "VALID")
    assert repr(nn.MaxPool2d(kernel_size=2, stride=2)) == "MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)"
    assert repr(nn.AvgPool2d(3, 1, "same")) == "AvgPool2d(kernel_size=3, stride=1, pad_mode=SAME)"
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


@pytest.mark.parametrize("k", [(2, 2), (2, 3), (3, 1)])
def test_maxpool_reshape_lowering_ties_match_reduce_window(k):
    """Windows full of ties (as after a ReLU) and distinct values: the reshape max-pool's mask VJP routes
    each window's gradient to its first maximum, as reduce_window's select_and_scatter does; eagerly,
    under jit and inside scan_steps."""
    rng = np.random.default_rng(5)
    x = np.maximum(rng.standard_normal((2, 3, 6, 6)), 0)  # many zero windows
    x[0, 0, :2, :3] = 1.0  # an all-equal non-zero window
    proj = rng.standard_normal((2, 3, 6 // k[0], 6 // k[1]))
    outs = {}
    for pool in ("plain", "reshape"):
        f = lambda v: ops.sum(ops.max_pool2d(v, k, k) * T(proj))  # a new function: compiled per lowering
        with L.force_lowering(maxpool=pool):
            g = ms.grad(f)(T(x)).asnumpy()
            g_scan = ms.jit(lambda a: scan_steps(lambda v: ms.grad(f)(v), a))(T(np.stack([x, x * 2]))).asnumpy()
        outs[pool] = (g, g_scan)
    np.testing.assert_array_equal(outs["reshape"][0], outs["plain"][0])
    np.testing.assert_array_equal(outs["reshape"][1], outs["plain"][1])
    np.testing.assert_array_equal(outs["reshape"][1][0], outs["plain"][0])


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
    assert repr(nn.AdaptiveAvgPool2d((4, 2))) == "AdaptiveAvgPool2d(output_size=(4, 2))"


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
