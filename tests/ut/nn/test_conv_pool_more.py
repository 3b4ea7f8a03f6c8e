"""Convolution/pooling/resize names MindSpore 2.10 cannot run on CPU (checked against NumPy or against the
MindSpore-checked ops they equal), MindSpore's error messages, the 1.x ResizeBilinear deprecation, and the
CPU lowering of 3-D and transposed convolutions inside ``lax.scan`` (canonical channels-last dimension
numbers in forward and backward: no naive loop nests in sink mode)."""

import warnings

import jax
import jax.extend
import numpy as np
import pytest
from jax import lax

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.ops import _lowering as L
from sporax.ops.operations import image_ops

rng = np.random.default_rng(7)


def T(a):
    return Tensor(np.asarray(a, np.float32))


def np_conv2d(x, w, stride=(1, 1), pads=((0, 0), (0, 0))):
    xp = np.pad(x, ((0, 0), (0, 0), *pads))
    n, _, h, wd = xp.shape
    o, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride[0] + 1, (wd - kw) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i * stride[0] : i * stride[0] + kh, j * stride[1] : j * stride[1] + kw]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w)
    return out


# ------------------------------------------------------------------ transposed convolution
@pytest.mark.parametrize("stride,padding,output_padding", [(1, 0, 0), (2, 1, 1), ((2, 3), (0, 1), (1, 2))])
def test_conv_transpose2d_is_the_adjoint_of_conv2d(stride, padding, output_padding):
    # MindSpore 2.10 registers ConvTranspose2D on Ascend only; its definition: the input gradient of conv2d
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    w = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)
    b = rng.standard_normal(2).astype(np.float32)
    s = (stride, stride) if isinstance(stride, int) else stride
    p = (padding, padding) if isinstance(padding, int) else padding
    op = (output_padding, output_padding) if isinstance(output_padding, int) else output_padding
    y = ops.conv_transpose2d(T(x), T(w), T(b), stride, padding, output_padding).asnumpy()
    oh = (4 - 1) * s[0] - 2 * p[0] + 3 + op[0]
    ow = (5 - 1) * s[1] - 2 * p[1] + 3 + op[1]
    assert y.shape == (2, 2, oh, ow)
    a = rng.standard_normal((2, 2, oh, ow))
    # <conv2d(a, w), x> == <a, conv_transpose2d(x, w)>: conv2d over the padded a, cropped to x's size
    conv = np_conv2d(a, w.astype(np.float64), s, ((p[0], p[0]), (p[1], p[1])))[:, :, :4, :5]
    lhs = np.sum(conv * x)
    rhs = np.sum(a * (y - b[None, :, None, None]))
    np.testing.assert_allclose(lhs, rhs, rtol=1e-4)


def test_conv_transpose2d_groups_and_errors():
    x = T(rng.standard_normal((1, 4, 3, 3)))
    w = T(rng.standard_normal((4, 1, 2, 2)))
    y = ops.conv_transpose2d(x, w, groups=2, stride=2)
    assert y.shape == (1, 2, 6, 6)
    # group 0 of the output only sees input channels 0-1
    y0 = ops.conv_transpose2d(x[:, :2], w[:2], stride=2)
    np.testing.assert_allclose(y[:, :1].asnumpy(), y0.asnumpy(), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="For 'conv_transpose2d', the 'output_padding' must be smaller"):
        ops.conv_transpose2d(x, w, groups=2, stride=2, output_padding=2)
    with pytest.raises(ValueError, match="For 'conv_transpose2d', the channel number of 'input'"):
        ops.conv_transpose2d(x[:, :3], w)


# --------------------------------------------------------------------- Unfold, pools
def np_patches(x, k, s, r, same):
    n, c, h, w = x.shape
    eff = [(k[i] - 1) * r[i] + 1 for i in range(2)]
    if same:
        oh, ow = -(-h // s[0]), -(-w // s[1])
        ph = max((oh - 1) * s[0] + eff[0] - h, 0)
        pw = max((ow - 1) * s[1] + eff[1] - w, 0)
        x = np.pad(x, ((0, 0), (0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)))
    else:
        oh, ow = (h - eff[0]) // s[0] + 1, (w - eff[1]) // s[1] + 1
    out = np.zeros((n, k[0] * k[1] * c, oh, ow), np.float32)
    for i in range(oh):
        for j in range(ow):
            for a in range(k[0]):
                for b in range(k[1]):
                    out[:, (a * k[1] + b) * c : (a * k[1] + b + 1) * c, i, j] = x[
                        :, :, i * s[0] + a * r[0], j * s[1] + b * r[1]
                    ]
    return out


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_unfold_extracts_patches(padding):
    # MindSpore 2.10 has no CPU kernel for ExtractImagePatches; TF's definition, depth (row, col, channel)
    x = rng.standard_normal((2, 3, 6, 7)).astype(np.float32)
    net = nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1], padding)
    np.testing.assert_allclose(net(T(x)).asnumpy(), np_patches(x, (2, 3), (2, 1), (1, 2), padding == "same"))
    with pytest.raises(ValueError, match=r"For 'Unfold' the format of 'ksizes' must be \[1, ksize_row"):
        nn.Unfold([2, 2], [1, 1, 1, 1], [1, 1, 1, 1])


def test_max_unpool_layers_invert_max_pool():
    x = T(rng.standard_normal((2, 3, 8)))
    y, idx = nn.MaxPool1d(2, 2, pad_mode="pad", return_indices=True)(x)
    out = nn.MaxUnpool1d(2)(y, idx).asnumpy()
    keep = out != 0
    np.testing.assert_array_equal(out[keep], x.asnumpy()[keep])
    assert keep.sum() == y.size
    x3 = T(rng.standard_normal((1, 2, 4, 4, 4)))
    y3, idx3 = ops.max_pool3d(x3, 2, 2, return_indices=True)
    out3 = nn.MaxUnpool3d(2)(y3, idx3, (1, 2, 4, 4, 4)).asnumpy()
    np.testing.assert_allclose(out3.reshape(1, 2, -1).max(-1), y3.asnumpy().reshape(1, 2, -1).max(-1))
    with pytest.raises(ValueError, match="For MaxUnpool3d, output_size must be tuple"):
        nn.MaxUnpool3d(2)(y3, idx3, [1, 2, 4, 4, 4])


def test_ext_pool_layers():
    x = T(rng.standard_normal((2, 3, 9, 8)))
    np.testing.assert_allclose(
        nn.AvgPool2dExt(3, 2, 1, count_include_pad=False)(x).asnumpy(),
        nn.AvgPool2d(3, 2, "pad", 1, count_include_pad=False)(x).asnumpy(),
    )
    np.testing.assert_allclose(nn.MaxPool2dExt(2)(x).asnumpy(), ops.max_pool2d(x, 2).asnumpy())
    x1 = T(rng.standard_normal((2, 3, 9)))
    np.testing.assert_allclose(nn.AvgPool1dExt(3, 2, 1)(x1).asnumpy(), ops.avg_pool1d(x1, 3, 2, 1).asnumpy())
    x3 = T(rng.standard_normal((1, 2, 5, 6, 7)))
    np.testing.assert_allclose(
        nn.AvgPool3dExt(2, divisor_override=3)(x3).asnumpy(), ops.avg_pool3d(x3, 2, 2, divisor_override=3).asnumpy()
    )


def test_max_pool_with_argmax_is_int32():
    x = T(rng.standard_normal((1, 2, 6, 6)))
    y, idx = ops.MaxPoolWithArgmax(2, 2)(x)
    assert idx.dtype == ms.int32
    ref_y, ref_i = ops.max_pool2d(x, 2, 2, return_indices=True)
    np.testing.assert_array_equal(idx.asnumpy(), ref_i.asnumpy())
    np.testing.assert_array_equal(y.asnumpy(), ref_y.asnumpy())


# ---------------------------------------------------------------- 1.x ResizeBilinear
def test_resize_bilinear_is_deprecated_and_keeps_1x_behaviour():
    image_ops._WARNED.clear()
    x = T(rng.standard_normal((1, 2, 4, 5)))
    with pytest.warns(DeprecationWarning, match="'nn.ResizeBilinear' was removed in MindSpore 2.x.*nn.Upsample"):
        net = nn.ResizeBilinear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.ResizeBilinear(half_pixel_centers=True)  # one warning per process
    want = ops.ResizeBilinearV2()(x, (8, 10)).asnumpy()  # TF's legacy coordinates (checked against MindSpore)
    np.testing.assert_allclose(net(x, scale_factor=2).asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(
        net(x, size=(3, 7), align_corners=True).asnumpy(),
        ops.ResizeBilinearV2(align_corners=True)(x, (3, 7)).asnumpy(),
        rtol=1e-6,
    )
    with pytest.warns(DeprecationWarning, match="'ops.ResizeBilinear' was removed"):
        prim = ops.ResizeBilinear((8, 10))
    np.testing.assert_allclose(prim(x).asnumpy(), want, rtol=1e-6)
    with pytest.raises(ValueError, match="only one of 'size' or 'scale_factor' must be set"):
        net(x)


# ------------------------------------------------------------------------ errors
def test_mindspore_error_messages():
    x1 = T(rng.standard_normal((2, 3, 9)))
    with pytest.raises(TypeError, match="For 'avg_pool1d', the type of 'kernel_size' should be 'int'"):
        ops.avg_pool1d(x1, (3,))
    with pytest.raises(ValueError, match="For adaptive_avg_pool1d input's last dimension must be divisible"):
        ops.adaptive_avg_pool1d(x1, 4)
    with pytest.raises(ValueError, match="For 'interpolate', 'bilinear' mode supports 4D input, but got 3D input"):
        ops.interpolate(x1, size=4, mode="bilinear")
    with pytest.raises(ValueError, match="align_corners option can only be set with the interpolating modes"):
        ops.interpolate(x1, size=4, align_corners=True)
    with pytest.raises(ValueError, match="For 'Pad', the 'mode' must be str and must be in"):
        nn.Pad(((1, 1),), mode="EDGE")
    with pytest.raises(ValueError, match="For 'ConstantPad1d', the length of parameter 'padding' with tuple type"):
        nn.ConstantPad1d((1, 2, 3, 4), 0.0)
    with pytest.raises(TypeError, match="For 'ReflectionPad2d' the input 'padding' must be an integer or tuple"):
        nn.ReflectionPad2d([1, 1])
    with pytest.raises(ValueError, match=r"For 'CentralCrop', the 'central_fraction' must be in range \(0.0, 1.0\]"):
        nn.CentralCrop(1.5)
    with pytest.raises(ValueError, match="For ChannelShuffle, the param `groups` must be larger than 0"):
        nn.ChannelShuffle(0)
    with pytest.raises(ValueError, match="For 'Conv3d', the 'padding size' must be equal to 6"):
        nn.Conv3d(2, 2, 3, pad_mode="pad", padding=(1, 1, 1))
    with pytest.raises(ValueError, match="when output_padding is not zero, pad_mode must be 'pad'"):
        nn.Conv2dTranspose(2, 2, 3, stride=2, output_padding=1)(T(np.ones((1, 2, 3, 3))))
    with pytest.raises(ValueError, match="For 'MirrorPad', the paddings of dimension 1 must be in"):
        ops.MirrorPad()(T(np.ones((2, 3))), Tensor(np.array([[0, 0], [3, 0]])))


def test_conv_layers_parameters_and_initialisers():
    net = nn.Conv3dTranspose(4, 6, (1, 2, 3), group=2, has_bias=True)
    assert net.weight.shape == (4, 3, 1, 2, 3) and net.bias.shape == (6,)
    bound = 1 / np.sqrt(3 * 6)  # fan_in of the transposed weight: (out / group) * prod(kernel)
    assert np.abs(net.bias.asnumpy()).max() <= bound
    assert nn.Conv1dTranspose(3, 5, 4).weight.shape == (3, 5, 1, 4)
    assert nn.Conv3d(2, 4, 3).weight.shape == (4, 2, 3, 3, 3)
    assert [p.name for p in nn.Conv2dBnAct(2, 3, 3, has_bn=True).trainable_params()] == [
        "conv.weight",
        "batchnorm.gamma",
        "batchnorm.beta",
    ]


def test_ssim_psnr_gradients_by_finite_differences():
    a = rng.random((1, 1, 6, 6)).astype(np.float64)
    b = rng.random((1, 1, 6, 6)).astype(np.float32)
    net = nn.SSIM(filter_size=3)
    g = ms.grad(lambda x: net(x, T(b)).sum())(T(a)).asnumpy()
    eps = 1e-2
    for idx in [(0, 0, 2, 3), (0, 0, 0, 5)]:
        hi, lo = a.copy(), a.copy()
        hi[idx] += eps
        lo[idx] -= eps
        fd = (net(T(hi), T(b)).asnumpy().sum() - net(T(lo), T(b)).asnumpy().sum()) / (2 * eps)
        np.testing.assert_allclose(g[idx], fd, rtol=2e-2, atol=1e-4)
    psnr = nn.PSNR()
    gp = ms.grad(lambda x: psnr(x, T(b)).sum())(T(a)).asnumpy()
    diff = a.astype(np.float32) - b
    mse = np.mean(diff**2)
    np.testing.assert_allclose(gp[0], (-10 / np.log(10)) * (2 * diff[0] / diff.size) / mse, rtol=1e-3)


# ----------------------------------------------------------------- CPU lowering in scan
def _conv_eqns(jaxpr):
    found = []
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "conv_general_dilated":
            found.append(eqn)
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            found.extend(_conv_eqns(sub))
    return found


@pytest.mark.skipif(jax.default_backend() != "cpu", reason="the CPU lowering")
def test_3d_and_transposed_convs_in_scan_stay_canonical():
    x = np.ones((4, 2, 2, 5, 5, 5), np.float32)
    w = np.ones((3, 2, 3, 3, 3), np.float32)
    canonical = lax.conv_dimension_numbers((1, 5, 5, 5, 2), (3, 3, 3, 2, 3), ("NDHWC", "DHWIO", "NDHWC"))

    def loss(w, xs):
        def body(c, xb):
            y = L.conv_nd_array(xb, w, (1, 1, 1), [(1, 1)] * 3, (1, 1, 1), 1)
            z = L.conv_transpose_array(y, w, (2, 2, 2), [(1, 0)] * 3, (1, 1, 1), 1, (11, 10, 10))
            return c + z.sum(), None

        return lax.scan(body, 0.0, xs)[0]

    jaxpr = jax.make_jaxpr(jax.grad(loss))(w, x).jaxpr
    eqns = _conv_eqns(jaxpr)
    assert len(eqns) >= 6  # forward and both backward convolutions of each
    for eqn in eqns:
        assert eqn.params["dimension_numbers"] == canonical
        assert eqn.params["feature_group_count"] == 1
    # the same values as lax.conv's own autodiff (a longer out_shape, as output_padding gives, included)
    xs = rng.standard_normal(x.shape).astype(np.float32)
    got = jax.jit(jax.grad(loss))(w, xs)
    with L.force_lowering(conv="plain"):
        want = jax.jit(jax.grad(loss))(w, xs)
    np.testing.assert_allclose(got, want, rtol=2e-4, atol=1e-3)


# --------------------------------------------------------------- fractional / grid
def test_fractional_max_pool_function_and_layers_match_the_primitive():
    # the primitive is checked against MindSpore (fixture); the function and layers share its windows
    x = T(rng.standard_normal((2, 3, 9, 8)))
    samples = Tensor(rng.random((2, 3, 2)).astype(np.float32))
    y, idx = ops.FractionalMaxPoolWithFixedKsize((3, 2), (5, 4))(x, samples)
    y2, idx2 = ops.fractional_max_pool2d(x, (3, 2), (5, 4), return_indices=True, _random_samples=samples)
    np.testing.assert_array_equal(y.asnumpy(), y2.asnumpy())
    np.testing.assert_array_equal(idx.asnumpy(), idx2.asnumpy())
    y3 = nn.FractionalMaxPool2d((3, 2), output_ratio=(0.6, 0.5), _random_samples=samples)(x)
    assert y3.shape == (2, 3, 5, 4)
    np.testing.assert_array_equal(y3.asnumpy(), y.asnumpy())
    x5 = T(rng.standard_normal((1, 2, 5, 6, 7)))
    s5 = Tensor(rng.random((1, 2, 3)).astype(np.float32))
    a, ia = ops.FractionalMaxPool3DWithFixedKsize(2, (3, 4, 4))(x5, s5)
    b = nn.FractionalMaxPool3d(2, output_size=(3, 4, 4), _random_samples=s5)(x5)
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    # the values are the input at the returned indices; random windows (no samples) keep the shape
    np.testing.assert_array_equal(
        np.take_along_axis(x5.asnumpy().reshape(1, 2, -1), ia.asnumpy().reshape(1, 2, -1), 2),
        a.asnumpy().reshape(1, 2, -1),
    )
    assert ops.fractional_max_pool3d(x5, 2, output_ratio=0.5).shape == (1, 2, 2, 3, 3)
    with pytest.raises(ValueError, match="'output_size' and 'output_ratio' can not be None or be specified"):
        ops.fractional_max_pool2d(x, 2)


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_gradients_by_finite_differences(padding_mode):
    # MindSpore 2.10's CPU grid-sampler gradient kernel fails; forward values are in the fixture
    x = rng.standard_normal((1, 1, 3, 4))
    grid = Tensor((rng.random((1, 2, 2, 2)) * 2.4 - 1.2).astype(np.float32))

    def f(a):
        return (ops.grid_sample(a, grid, padding_mode=padding_mode) ** 2).sum()

    g = ms.grad(f)(T(x)).asnumpy()
    eps = 1e-3
    for idx in [(0, 0, 1, 1), (0, 0, 0, 3), (0, 0, 2, 0)]:
        hi, lo = x.copy(), x.copy()
        hi[idx] += eps
        lo[idx] -= eps
        fd = (f(T(hi)).asnumpy() - f(T(lo)).asnumpy()) / (2 * eps)
        np.testing.assert_allclose(g[idx], fd, rtol=1e-2, atol=1e-3)


def test_amp_auto_white_list_convs():
    # MindSpore's AmpAuto white list: Conv3D, Conv2DTranspose, Conv3DTranspose (not Conv2DBackpropInput)
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.c3 = nn.Conv3d(2, 2, 3)
            self.t2 = nn.Conv2dTranspose(2, 2, 3)
            self.t1 = nn.Conv1dTranspose(2, 2, 3)

        def construct(self, x3, x2, x1):
            return self.c3(x3), self.t2(x2), self.t1(x1)

    net = ms.amp.auto_mixed_precision(Net(), "auto", ms.float16)
    y3, y2, y1 = net(T(np.ones((1, 2, 4, 4, 4))), T(np.ones((1, 2, 3, 3))), T(np.ones((1, 2, 5))))
    assert y3.dtype == ms.float16
    assert y2.dtype == ms.float16
    assert y1.dtype == ms.float32  # Conv1dTranspose runs Conv2DBackpropInput: not on the list


def test_dilation2d_against_numpy():
    # MindSpore 2.10's CPU build cannot run Dilation2D (its pad_mode attribute fails to convert): TF's definition
    x = rng.standard_normal((1, 2, 6, 7)).astype(np.float32)
    f = rng.standard_normal((2, 2, 3)).astype(np.float32)
    y = ops.Dilation2D((1, 1, 2, 1), (1, 1, 1, 2), pad_mode="VALID")(T(x), T(f)).asnumpy()
    oh, ow = (6 - 2) // 2 + 1, (7 - 5) // 1 + 1
    want = np.full((1, 2, oh, ow), -np.inf, np.float32)
    for i in range(2):
        for j in range(3):
            want = np.maximum(
                want, x[:, :, i : i + (oh - 1) * 2 + 1 : 2, 2 * j : 2 * j + ow] + f[None, :, i, j, None, None]
            )
    np.testing.assert_allclose(y, want, rtol=1e-6)
    same = ops.Dilation2D(1, 1)(T(x), T(f))
    assert same.shape == (1, 2, 6, 7)


def test_adaptive_pool_aliases():
    x = T(rng.standard_normal((1, 2, 7, 5)))
    np.testing.assert_array_equal(
        ops.adaptive_avg_pool2d_ext(x, (3, 2)).asnumpy(), ops.adaptive_avg_pool2d(x, (3, 2)).asnumpy()
    )
    from sporax.ops import functional as F

    y, idx = F.AdaptiveMaxPool2D((3, 2))(x)
    want, want_idx = ops.adaptive_max_pool2d(x, (3, 2), True)
    np.testing.assert_array_equal(y.asnumpy(), want.asnumpy())
    np.testing.assert_array_equal(idx.asnumpy(), want_idx.asnumpy())


def test_depthwise_conv2d_native_is_a_per_channel_conv():
    # deprecated in MindSpore (no CPU kernel in 2.10): each channel correlated with its own filter
    x = rng.standard_normal((2, 3, 6, 6)).astype(np.float32)
    w = rng.standard_normal((1, 3, 3, 3)).astype(np.float32)
    y = ops.DepthwiseConv2dNative(1, 3, pad_mode="pad", pad=1, stride=2)(T(x), T(w)).asnumpy()
    for c in range(3):
        want = np_conv2d(x[:, c : c + 1], w[:, c : c + 1], (2, 2), ((1, 1), (1, 1)))
        np.testing.assert_allclose(y[:, c : c + 1], want, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="For 'DepthwiseConv2dNative', the batch of 'weight' must be 1, but got 2"):
        ops.DepthwiseConv2dNative(1, 3)(T(x), T(np.ones((2, 3, 3, 3))))


@pytest.mark.parametrize("overlapping", [False, True])
@pytest.mark.parametrize("pseudo_random", [False, True])
def test_tf_fractional_pools_follow_their_sequences(overlapping, pseudo_random):
    # MindSpore's random sequences cannot be reproduced: check the sequences' rules (TF's, as MindSpore
    # 2.10 returns them: [0 2 3 5 7] for 7 rows at ratio 1.5) and the values against NumPy over them
    x = rng.standard_normal((2, 7, 8, 3)).astype(np.float32)
    for prim, red in ((ops.FractionalMaxPool, np.max), (ops.FractionalAvgPool, np.mean)):
        y, rows, cols = prim([1.0, 1.5, 2.0, 1.0], pseudo_random, overlapping)(T(x))
        rows, cols = rows.asnumpy(), cols.asnumpy()
        assert y.shape == (2, 4, 4, 3) and rows.dtype == np.int64
        assert rows[0] == 0 and rows[-1] == 7 and cols[0] == 0 and cols[-1] == 8
        assert set(np.diff(rows)) <= {1, 2} and set(np.diff(cols)) == {2}
        want = np.zeros((2, 4, 4, 3), np.float32)
        for i in range(4):
            for j in range(4):
                r1, c1 = min(rows[i + 1] + overlapping, 7), min(cols[j + 1] + overlapping, 8)
                want[:, i, j] = red(x[:, rows[i] : r1, cols[j] : c1], axis=(1, 2))
        np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_deformable_conv2d_zero_offsets_is_conv2d_and_errors():
    x = T(rng.standard_normal((1, 2, 5, 5)))
    w = T(rng.standard_normal((3, 2, 3, 3)))
    b = T(rng.standard_normal(3))
    off = np.zeros((1, 27, 3, 3), np.float32)
    off[:, 18:] = 1.0  # masks
    y = ops.deformable_conv2d(x, w, T(off), (3, 3), (1, 1, 1, 1), (0, 0, 0, 0), bias=b)
    np.testing.assert_allclose(y.asnumpy(), ops.conv2d(x, w, b).asnumpy(), rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="For 'DeformableOffsets', The modulated must be set to True."):
        ops.deformable_conv2d(x, w, T(off), (3, 3), (1, 1, 1, 1), (0, 0, 0, 0), modulated=False)
