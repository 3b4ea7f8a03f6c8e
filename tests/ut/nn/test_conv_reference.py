"""Convolution, pooling, padding, resizing and image ops, primitives and layers against MindSpore 2.10:
forward values and gradients (of ``sum(out * cot)`` w.r.t. the inputs and the layer parameters) recorded by
``tools/make_nn_conv_reference.py`` under real MindSpore (fixture ``fixtures/nn_conv_reference.npz``).

Every MindSpore name in ``CHECKED`` has at least one case in the fixture (checked below).
"""

import json
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

FIX = np.load(Path(__file__).parent / "fixtures" / "nn_conv_reference.npz")
CASES = json.loads(str(FIX["__cases__"]))

# the names the fixture checks ("prim.X" cases are ops.X primitives)
CHECKED = (
    "nn.AdaptiveAvgPool1d",
    "nn.AdaptiveAvgPool3d",
    "nn.AdaptiveMaxPool1d",
    "nn.AdaptiveMaxPool3d",
    "nn.AvgPool1d",
    "nn.AvgPool3d",
    "nn.CentralCrop",
    "nn.ChannelShuffle",
    "nn.ConstantPad1d",
    "nn.ConstantPad2d",
    "nn.ConstantPad3d",
    "nn.Conv1dTranspose",
    "nn.Conv2dBnAct",
    "nn.Conv2dTranspose",
    "nn.Conv3d",
    "nn.Conv3dTranspose",
    "nn.ImageGradients",
    "nn.LPPool1d",
    "nn.LPPool2d",
    "nn.LRN",
    "nn.MSSSIM",
    "nn.MaxPool1d",
    "nn.MaxPool3d",
    "nn.MaxUnpool2d",
    "nn.PSNR",
    "nn.Pad",
    "nn.PixelShuffle",
    "nn.PixelUnshuffle",
    "nn.ReflectionPad1d",
    "nn.ReflectionPad2d",
    "nn.ReflectionPad3d",
    "nn.ReplicationPad1d",
    "nn.ReplicationPad2d",
    "nn.ReplicationPad3d",
    "nn.SSIM",
    "nn.Upsample",
    "nn.ZeroPad2d",
    "ops.AdaptiveAvgPool3D",
    "ops.AdaptiveMaxPool2D",
    "ops.AdaptiveMaxPool3D",
    "ops.AdjustHue",
    "ops.AdjustSaturation",
    "ops.AvgPool",
    "ops.AvgPool3D",
    "ops.BoundingBoxDecode",
    "ops.BoundingBoxEncode",
    "ops.ChannelShuffle",
    "ops.Conv2D",
    "ops.Conv2DBackpropInput",
    "ops.Conv2DTranspose",
    "ops.Conv3D",
    "ops.Conv3DTranspose",
    "ops.CropAndResize",
    "ops.DeformableOffsets",
    "ops.FractionalMaxPool3DWithFixedKsize",
    "ops.FractionalMaxPoolWithFixedKsize",
    "ops.GridSampler2D",
    "ops.GridSampler3D",
    "ops.HSVToRGB",
    "ops.LRN",
    "ops.MaxPool3D",
    "ops.MaxPool3DWithArgmax",
    "ops.MaxPoolWithArgmaxV2",
    "ops.MaxUnpool2D",
    "ops.MaxUnpool3D",
    "ops.MirrorPad",
    "ops.PadV3",
    "ops.RGBToHSV",
    "ops.ResizeArea",
    "ops.ResizeBicubic",
    "ops.ResizeBilinearV2",
    "ops.ResizeLinear1D",
    "ops.ResizeNearestNeighbor",
    "ops.ResizeNearestNeighborV2",
    "ops.UpsampleNearest3D",
    "ops.UpsampleTrilinear3D",
    "ops.adaptive_avg_pool1d",
    "ops.adaptive_avg_pool3d",
    "ops.adaptive_max_pool1d",
    "ops.adaptive_max_pool2d",
    "ops.adaptive_max_pool3d",
    "ops.avg_pool1d",
    "ops.avg_pool3d",
    "ops.bounding_box_decode",
    "ops.bounding_box_encode",
    "ops.channel_shuffle",
    "ops.conv3d",
    "ops.conv3d_transpose",
    "ops.crop_and_resize",
    "ops.deformable_conv2d",
    "ops.grid_sample",
    "ops.interpolate",
    "ops.lp_pool1d",
    "ops.lp_pool2d",
    "ops.lrn",
    "ops.max_pool2d",
    "ops.max_pool3d",
    "ops.max_unpool1d",
    "ops.max_unpool2d",
    "ops.max_unpool3d",
    "ops.mirror_pad",
    "ops.pixel_shuffle",
    "ops.pixel_unshuffle",
    "ops.upsample",
)


def _tuples(v):
    if isinstance(v, list):
        return tuple(_tuples(e) for e in v)
    if isinstance(v, dict):
        return {k: _tuples(e) for k, e in v.items()}
    return v


def _build(target, kwargs):
    kind, attr = target.split(".")
    kw = _tuples(kwargs)
    if kind == "ops":
        fn = getattr(ops, attr)
        return (lambda *a: fn(*a, **kw)), None
    if kind == "prim":
        prim = getattr(ops, attr)(**kw.get("init", {}))
        extra = kw.get("call", ())
        return (lambda *a: prim(*a, *extra)), None
    net = getattr(nn, attr)(**kw)
    return net, net


def _bind(run, consts, n):
    def bound(*args):
        it = iter(args)
        return run(*[consts[i] if i in consts else next(it) for i in range(n)])

    return bound


def _close(got, want, what):
    got = got.asnumpy() if isinstance(got, Tensor) else np.asarray(got)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    if want.dtype.kind in "iu":
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5, err_msg=what)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_against_mindspore(case):
    name, target, in_specs, kwargs, opts = case
    run, net = _build(target, kwargs)
    # constant inputs (paddings, sizes, indices) are bound, not traced: MindSpore takes their values
    consts = {i: Tensor(FIX[f"{name}/in{i}"]) for i, spec in enumerate(in_specs) if spec[0] in ("const", "uconst")}
    if consts:
        run = _bind(run, consts, len(in_specs))
    xs = [Tensor(FIX[f"{name}/in{i}"]) for i, spec in enumerate(in_specs) if spec[0] not in ("const", "uconst")]
    params = {}
    if net is not None:
        for p in net.get_parameters():
            key = f"{name}/p:{p.name.split('.')[-1]}"
            if key in FIX:
                p.set_data(Tensor(FIX[key]))
                params[p.name] = p
    n_out = sum(1 for k in FIX.files if k.startswith(f"{name}/out"))
    if opts.get("grad"):
        # one compiled value_and_grad gives the outputs (as aux) and the gradients of sum(out0 * cot)
        cot = Tensor(FIX[f"{name}/cot"])
        diff = tuple(range(len(xs)))

        def loss(*a):
            o = run(*a)
            o = o if isinstance(o, tuple) else (o,)
            return (o[0] * cot).sum(), *o

        weights = list(net.trainable_params()) if params else None
        (_, *outs), grads = ms.value_and_grad(loss, grad_position=diff, weights=weights, has_aux=True)(*xs)
        gin, gw = grads if params else (grads, ())
        for p, g in zip(weights or (), gw):
            _close(g, FIX[f"{name}/gp:{p.name.split('.')[-1]}"], f"{name} d{p.name}")
    else:
        outs = run(*xs)
        outs = outs if isinstance(outs, tuple) else (outs,)
    assert len(outs) == n_out, f"{name}: {len(outs)} outputs, MindSpore gives {n_out}"
    for i, o in enumerate(outs):
        _close(o, FIX[f"{name}/out{i}"], f"{name} out{i}")
    if not opts.get("grad"):
        return
    gin = gin if isinstance(gin, tuple) else (gin,)
    float_pos = [i for i, spec in enumerate(in_specs) if spec[0] not in ("const", "uconst")]
    for i, g in zip(diff, gin):
        _close(g, FIX[f"{name}/gin{float_pos[i]}"], f"{name} d(in{float_pos[i]})")


def test_checked_names_have_cases():
    targets = {c[1].replace("prim.", "ops.") for c in CASES}
    assert targets == set(CHECKED)
