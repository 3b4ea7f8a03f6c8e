"""Reference values of MindSpore 2.10's convolution, pooling, padding, resizing and image ops and layers.

Run under real MindSpore (its own venv, numpy<2):

    /work/msvenv/bin/python tools/make_nn_conv_reference.py

writes ``tests/ut/nn/fixtures/nn_conv_reference.npz``: the case list (JSON, key ``__cases__``), each case's
inputs (``<case>/in<i>``), its layer parameters (``<case>/p:<name>``), MindSpore's outputs (``<case>/out<i>``),
and, for differentiable cases, the gradients of ``sum(out0 * cot)`` (``<case>/cot``) w.r.t. the inputs
(``<case>/gin<i>``) and the parameters (``<case>/gp:<name>``). ``tests/ut/nn/test_conv_reference.py``
replays the cases on sporax.

A case: ``(name, target, inputs, kwargs, options)``. ``target`` is ``ops.<fn>`` (called as
``fn(*inputs, **kwargs)``), ``nn.<Layer>`` (built with ``kwargs``, called on the inputs), or
``prim.<Primitive>`` (built with ``kwargs["init"]``, called on the inputs and ``kwargs["call"]``).
``inputs`` are ``[dtype, shape]`` (random normal, seeded), ``["uniform", shape]`` ([0, 1)), ``["int", shape,
high]``, ``["const", value, dtype]`` or ``["uconst", shape]`` (uniform, a constant argument). ``options``: ``grad`` (check gradients), ``params`` (set the layer's parameters from seeded random
values instead of their initialisers).
JSON lists stand for tuples on both sides (MindSpore's validators want tuples).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "ut" / "nn" / "fixtures" / "nn_conv_reference.npz"

F = "float32"
G = {"grad": True}
GP = {"grad": True, "params": True}

CASES: list = [
    # ------------------------------------------------------------------ convolution (functional)
    ("conv3d_valid", "ops.conv3d", [[F, [1, 2, 5, 6, 5]], [F, [3, 2, 3, 2, 3]]], {}, G),
    (
        "conv3d_same_s2",
        "ops.conv3d",
        [[F, [2, 2, 5, 5, 6]], [F, [4, 2, 3, 3, 3]]],
        {"pad_mode": "same", "stride": 2},
        G,
    ),
    (
        "conv3d_pad6_dil",
        "ops.conv3d",
        [[F, [1, 2, 6, 6, 6]], [F, [2, 2, 2, 3, 2]]],
        {"pad_mode": "pad", "padding": [1, 2, 0], "dilation": [1, 2, 1]},
        G,
    ),
    (
        "conv3d_groups",
        "ops.conv3d",
        [[F, [1, 4, 4, 4, 4]], [F, [4, 2, 3, 3, 3]]],
        {"groups": 2, "pad_mode": "pad", "padding": 1},
        G,
    ),
    ("conv3d_transpose_valid", "ops.conv3d_transpose", [[F, [1, 2, 3, 3, 3]], [F, [2, 3, 2, 2, 2]]], {"stride": 2}, G),
    (
        "conv3d_transpose_same",
        "ops.conv3d_transpose",
        [[F, [1, 2, 3, 2, 3]], [F, [2, 3, 3, 3, 3]]],
        {"pad_mode": "same", "stride": 2},
        G,
    ),
    (
        "conv3d_transpose_pad_op",
        "ops.conv3d_transpose",
        [[F, [1, 2, 3, 3, 3]], [F, [2, 2, 3, 3, 3]]],
        {"pad_mode": "pad", "padding": 1, "stride": 2, "output_padding": 1},
        G,
    ),
    # ------------------------------------------------------------------ convolution (layers)
    (
        "Conv3d_same",
        "nn.Conv3d",
        [[F, [1, 2, 4, 5, 4]]],
        {"in_channels": 2, "out_channels": 3, "kernel_size": 3, "has_bias": True},
        GP,
    ),
    (
        "Conv3d_pad_group",
        "nn.Conv3d",
        [[F, [1, 4, 4, 4, 4]]],
        {
            "in_channels": 4,
            "out_channels": 2,
            "kernel_size": [2, 3, 3],
            "pad_mode": "pad",
            "padding": [0, 1, 1, 1, 1, 0],
            "group": 2,
        },
        GP,
    ),
    (
        "Conv1dTranspose_same",
        "nn.Conv1dTranspose",
        [[F, [2, 3, 5]]],
        {"in_channels": 3, "out_channels": 2, "kernel_size": 3, "stride": 2, "has_bias": True},
        GP,
    ),
    (
        "Conv1dTranspose_valid_s3",
        "nn.Conv1dTranspose",
        [[F, [1, 2, 4]]],
        {"in_channels": 2, "out_channels": 2, "kernel_size": 2, "stride": 3, "pad_mode": "valid"},
        GP,
    ),
    (
        "Conv1dTranspose_pad",
        "nn.Conv1dTranspose",
        [[F, [1, 2, 5]]],
        {
            "in_channels": 2,
            "out_channels": 4,
            "kernel_size": 3,
            "stride": 2,
            "pad_mode": "pad",
            "padding": 1,
            "group": 2,
        },
        GP,
    ),
    (
        "Conv2dTranspose_same",
        "nn.Conv2dTranspose",
        [[F, [2, 3, 4, 5]]],
        {"in_channels": 3, "out_channels": 2, "kernel_size": 3, "stride": 2, "has_bias": True},
        GP,
    ),
    (
        "Conv2dTranspose_valid",
        "nn.Conv2dTranspose",
        [[F, [1, 2, 3, 4]]],
        {
            "in_channels": 2,
            "out_channels": 3,
            "kernel_size": [2, 3],
            "stride": [2, 1],
            "pad_mode": "valid",
            "dilation": [1, 2],
        },
        GP,
    ),
    (
        "Conv2dTranspose_pad_op",
        "nn.Conv2dTranspose",
        [[F, [1, 2, 4, 4]]],
        {
            "in_channels": 2,
            "out_channels": 3,
            "kernel_size": 3,
            "stride": 2,
            "pad_mode": "pad",
            "padding": [1, 0, 1, 1],
            "output_padding": 1,
            "has_bias": True,
        },
        GP,
    ),
    (
        "Conv2dTranspose_group",
        "nn.Conv2dTranspose",
        [[F, [1, 4, 3, 3]]],
        {"in_channels": 4, "out_channels": 2, "kernel_size": 3, "stride": 2, "group": 2},
        GP,
    ),
    (
        "Conv3dTranspose_same",
        "nn.Conv3dTranspose",
        [[F, [1, 2, 3, 3, 2]]],
        {"in_channels": 2, "out_channels": 3, "kernel_size": 3, "stride": 2, "has_bias": True},
        GP,
    ),
    (
        "Conv3dTranspose_pad_op",
        "nn.Conv3dTranspose",
        [[F, [1, 2, 3, 3, 3]]],
        {
            "in_channels": 2,
            "out_channels": 2,
            "kernel_size": 3,
            "stride": 2,
            "pad_mode": "pad",
            "padding": 1,
            "output_padding": 1,
        },
        GP,
    ),
    (
        "Conv2D_prim",
        "prim.Conv2D",
        [[F, [1, 2, 5, 5]], [F, [3, 2, 3, 3]]],
        {"init": {"out_channel": 3, "kernel_size": 3, "pad_mode": "pad", "pad": [1, 0, 0, 1], "stride": 2}},
        G,
    ),
    (
        "Conv3D_prim",
        "prim.Conv3D",
        [[F, [1, 2, 4, 4, 4]], [F, [3, 2, 2, 2, 2]]],
        {"init": {"out_channel": 3, "kernel_size": 2, "pad_mode": "same"}},
        G,
    ),
    (
        "Conv2DBackpropInput_prim",
        "prim.Conv2DBackpropInput",
        [[F, [1, 3, 3, 3]], [F, [3, 2, 3, 3]]],
        {"init": {"out_channel": 3, "kernel_size": 3, "pad_mode": "same", "stride": 2}, "call": [[1, 2, 6, 6]]},
        G,
    ),
    (
        "Conv2DTranspose_prim",
        "prim.Conv2DTranspose",
        [[F, [1, 3, 3, 3]], [F, [3, 2, 3, 3]]],
        {
            "init": {"out_channel": 3, "kernel_size": 3, "pad_mode": "pad", "pad": 1, "stride": 2},
            "call": [[1, 2, 5, 5]],
        },
        G,
    ),
    (
        "Conv3DTranspose_prim",
        "prim.Conv3DTranspose",
        [[F, [1, 2, 2, 3, 2]], [F, [2, 3, 2, 2, 2]]],
        {"init": {"in_channel": 2, "out_channel": 3, "kernel_size": 2, "stride": 2}},
        G,
    ),
    # ------------------------------------------------------------------ pooling (functional)
    ("avg_pool1d", "ops.avg_pool1d", [[F, [2, 3, 9]]], {"kernel_size": 3, "stride": 2, "padding": 1}, G),
    (
        "avg_pool1d_ceil_nopad",
        "ops.avg_pool1d",
        [[F, [1, 2, 8]]],
        {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False},
        G,
    ),
    (
        "avg_pool3d",
        "ops.avg_pool3d",
        [[F, [1, 2, 5, 6, 7]]],
        {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False},
        G,
    ),
    (
        "avg_pool3d_div",
        "ops.avg_pool3d",
        [[F, [1, 2, 4, 5, 4]]],
        {"kernel_size": 2, "stride": 2, "divisor_override": 3},
        G,
    ),
    (
        "avg_pool3d_incl",
        "ops.avg_pool3d",
        [[F, [1, 1, 4, 5, 5]]],
        {"kernel_size": [2, 3, 3], "stride": [1, 2, 2], "padding": [1, 1, 1, 1, 0, 1]},
        G,
    ),
    (
        "max_pool3d",
        "ops.max_pool3d",
        [[F, [1, 2, 5, 6, 7]]],
        {"kernel_size": 3, "stride": 2, "padding": 1, "return_indices": True},
        G,
    ),
    (
        "max_pool3d_ceil_dil",
        "ops.max_pool3d",
        [[F, [1, 2, 6, 6, 7]]],
        {"kernel_size": 2, "stride": 2, "dilation": [1, 2, 1], "ceil_mode": True},
        G,
    ),
    (
        "max_pool2d_idx",
        "ops.max_pool2d",
        [[F, [2, 3, 7, 6]]],
        {"kernel_size": 3, "stride": 2, "padding": 1, "return_indices": True},
        G,
    ),
    ("adaptive_avg_pool1d", "ops.adaptive_avg_pool1d", [[F, [2, 3, 8]]], {"output_size": 4}, G),
    ("adaptive_max_pool1d", "ops.adaptive_max_pool1d", [[F, [2, 3, 9]]], {"output_size": 3}, G),
    ("adaptive_avg_pool3d", "ops.adaptive_avg_pool3d", [[F, [1, 2, 5, 6, 7]]], {"output_size": [2, None, 3]}, G),
    (
        "adaptive_max_pool3d",
        "ops.adaptive_max_pool3d",
        [[F, [1, 2, 5, 6, 7]]],
        {"output_size": [2, 4, 3], "return_indices": True},
        G,
    ),
    (
        "adaptive_max_pool2d_idx",
        "ops.adaptive_max_pool2d",
        [[F, [1, 2, 7, 5]]],
        {"output_size": [3, 2], "return_indices": True},
        G,
    ),
    ("lp_pool1d", "ops.lp_pool1d", [[F, [2, 3, 9]]], {"norm_type": 2, "kernel_size": 3, "stride": 2}, {}),
    (
        "lp_pool2d_ceil",
        "ops.lp_pool2d",
        [[F, [1, 2, 5, 6]]],
        {"norm_type": 3.0, "kernel_size": [2, 3], "ceil_mode": True},
        {},
    ),
    (
        "max_unpool2d",
        "ops.max_unpool2d",
        [[F, [1, 2, 2, 2]], ["const", [[[[0, 3], [9, 14]], [[5, 2], [8, 15]]]], "int64"]],
        {"kernel_size": 2},
        G,
    ),
    (
        "max_unpool1d_size",
        "ops.max_unpool1d",
        [[F, [1, 2, 3]], ["const", [[[0, 3, 4], [1, 2, 6]]], "int64"]],
        {"kernel_size": 2, "output_size": [1, 2, 7]},
        G,
    ),
    (
        "max_unpool3d",
        "ops.max_unpool3d",
        [[F, [1, 1, 1, 2, 1]], ["const", [[[[[3], [14]]]]], "int64"]],
        {"kernel_size": 2},
        G,
    ),
    # ------------------------------------------------------------------ pooling (layers)
    ("MaxPool1d", "nn.MaxPool1d", [[F, [2, 3, 9]]], {"kernel_size": 3, "stride": 2}, G),
    ("MaxPool1d_same", "nn.MaxPool1d", [[F, [2, 3, 9]]], {"kernel_size": 4, "stride": 2, "pad_mode": "same"}, G),
    (
        "MaxPool1d_pad_idx",
        "nn.MaxPool1d",
        [[F, [3, 9]]],
        {"kernel_size": 3, "stride": 2, "pad_mode": "pad", "padding": 1, "return_indices": True},
        G,
    ),
    ("MaxPool3d_same", "nn.MaxPool3d", [[F, [1, 2, 5, 6, 7]]], {"kernel_size": 3, "stride": 2, "pad_mode": "same"}, G),
    (
        "MaxPool3d_pad",
        "nn.MaxPool3d",
        [[F, [2, 5, 6, 7]]],
        {"kernel_size": 3, "stride": 2, "pad_mode": "pad", "padding": 1, "ceil_mode": True},
        G,
    ),
    ("AvgPool1d", "nn.AvgPool1d", [[F, [2, 3, 9]]], {"kernel_size": 3, "stride": 2}, G),
    ("AvgPool1d_same", "nn.AvgPool1d", [[F, [2, 3, 9]]], {"kernel_size": 3, "stride": 2, "pad_mode": "same"}, G),
    (
        "AvgPool1d_pad",
        "nn.AvgPool1d",
        [[F, [3, 9]]],
        {"kernel_size": 3, "stride": 2, "pad_mode": "pad", "padding": 1, "count_include_pad": False},
        G,
    ),
    ("AvgPool3d_same", "nn.AvgPool3d", [[F, [1, 2, 5, 6, 7]]], {"kernel_size": 3, "stride": 2, "pad_mode": "same"}, G),
    (
        "AvgPool3d_pad_div",
        "nn.AvgPool3d",
        [[F, [2, 4, 5, 6]]],
        {"kernel_size": 2, "stride": 2, "pad_mode": "pad", "padding": 1, "divisor_override": 5},
        G,
    ),
    ("AdaptiveAvgPool1d", "nn.AdaptiveAvgPool1d", [[F, [2, 3, 8]]], {"output_size": 2}, G),
    ("AdaptiveMaxPool1d", "nn.AdaptiveMaxPool1d", [[F, [2, 3, 9]]], {"output_size": 3}, G),
    ("AdaptiveAvgPool3d", "nn.AdaptiveAvgPool3d", [[F, [1, 2, 5, 6, 7]]], {"output_size": [3, 2, 4]}, G),
    ("AdaptiveMaxPool3d", "nn.AdaptiveMaxPool3d", [[F, [2, 5, 6, 7]]], {"output_size": 3, "return_indices": True}, G),
    ("LPPool1d", "nn.LPPool1d", [[F, [2, 3, 9]]], {"norm_type": 1, "kernel_size": 3, "stride": 2}, G),
    ("LPPool2d", "nn.LPPool2d", [[F, [1, 2, 6, 6]]], {"norm_type": 2, "kernel_size": 2}, {}),
    (
        "MaxUnpool2d",
        "nn.MaxUnpool2d",
        [[F, [1, 2, 2, 2]], ["const", [[[[0, 3], [9, 14]], [[5, 2], [8, 15]]]], "int64"]],
        {"kernel_size": 2},
        G,
    ),
    # ------------------------------------------------------------------ padding
    (
        "mirror_pad_reflect",
        "ops.mirror_pad",
        [[F, [2, 3, 4]], ["const", [[0, 0], [1, 2], [3, 1]], "int64"]],
        {"mode": "REFLECT"},
        G,
    ),
    (
        "mirror_pad_symmetric",
        "ops.mirror_pad",
        [[F, [2, 3, 4]], ["const", [[1, 0], [2, 2], [0, 4]], "int64"]],
        {"mode": "SYMMETRIC"},
        G,
    ),
    (
        "MirrorPad_prim",
        "prim.MirrorPad",
        [[F, [1, 3, 4]], ["const", [[0, 0], [1, 1], [2, 2]], "int64"]],
        {"init": {"mode": "SYMMETRIC"}},
        G,
    ),
    ("PadV3_edge", "prim.PadV3", [[F, [1, 1, 3, 4]]], {"init": {"mode": "edge"}, "call": [[1, 2, 2, 0], None]}, G),
    (
        "PadV3_reflect",
        "prim.PadV3",
        [[F, [1, 2, 3, 4]]],
        {"init": {"mode": "reflect"}, "call": [[1, 2, 2, 1], None]},
        G,
    ),
    ("PadV3_circular", "prim.PadV3", [[F, [1, 2, 5]]], {"init": {"mode": "circular"}, "call": [[2, 3], None]}, G),
    ("Pad_constant", "nn.Pad", [[F, [2, 3, 4]]], {"paddings": [[0, 1], [1, 1], [2, 0]]}, G),
    ("Pad_reflect", "nn.Pad", [[F, [2, 3, 4]]], {"paddings": [[0, 0], [1, 2], [2, 3]], "mode": "REFLECT"}, G),
    ("Pad_symmetric", "nn.Pad", [[F, [3, 4]]], {"paddings": [[2, 1], [3, 4]], "mode": "SYMMETRIC"}, G),
    ("ConstantPad1d", "nn.ConstantPad1d", [[F, [2, 3, 4]]], {"padding": [2, -1], "value": 1.5}, G),
    ("ConstantPad2d", "nn.ConstantPad2d", [[F, [2, 3, 4]]], {"padding": 1, "value": -2.0}, G),
    ("ConstantPad3d", "nn.ConstantPad3d", [[F, [1, 2, 3, 4]]], {"padding": [1, 0, 0, 2, 1, 1], "value": 0.5}, G),
    ("ZeroPad2d", "nn.ZeroPad2d", [[F, [1, 3, 4]]], {"padding": [1, -1, 0, 2]}, G),
    ("ReflectionPad1d", "nn.ReflectionPad1d", [[F, [2, 3, 5]]], {"padding": [3, 1]}, G),
    ("ReflectionPad2d", "nn.ReflectionPad2d", [[F, [3, 4, 5]]], {"padding": [1, 2, 3, 0]}, G),
    ("ReflectionPad3d", "nn.ReflectionPad3d", [[F, [1, 2, 3, 4, 3]]], {"padding": 1}, G),
    ("ReplicationPad1d", "nn.ReplicationPad1d", [[F, [3, 5]]], {"padding": [1, 3]}, G),
    ("ReplicationPad2d", "nn.ReplicationPad2d", [[F, [1, 2, 3, 4]]], {"padding": [2, 0, 1, 3]}, G),
    ("ReplicationPad3d", "nn.ReplicationPad3d", [[F, [2, 3, 2, 3]]], {"padding": [1, 1, 0, 1, 2, 0]}, G),
    # ------------------------------------------------------------------ resizing
    ("interp_nearest_3d", "ops.interpolate", [[F, [1, 2, 5]]], {"size": 8}, G),
    ("interp_nearest_4d", "ops.interpolate", [[F, [1, 2, 4, 5]]], {"size": [7, 3]}, G),
    ("interp_nearest_5d_sf", "ops.interpolate", [[F, [1, 1, 2, 3, 4]]], {"scale_factor": [2.0, 1.5, 0.5]}, G),
    ("interp_nearest_exact", "ops.interpolate", [[F, [1, 2, 5, 4]]], {"size": [3, 7], "mode": "nearest-exact"}, G),
    ("interp_linear", "ops.interpolate", [[F, [2, 2, 5]]], {"size": 8, "mode": "linear"}, G),
    ("interp_linear_ac", "ops.interpolate", [[F, [2, 2, 5]]], {"size": 3, "mode": "linear", "align_corners": True}, G),
    ("interp_bilinear", "ops.interpolate", [[F, [1, 2, 4, 5]]], {"size": [7, 3], "mode": "bilinear"}, G),
    (
        "interp_bilinear_ac",
        "ops.interpolate",
        [[F, [1, 2, 4, 5]]],
        {"size": [6, 8], "mode": "bilinear", "align_corners": True},
        G,
    ),
    (
        "interp_bilinear_sf",
        "ops.interpolate",
        [[F, [1, 2, 4, 5]]],
        {"scale_factor": [1.5, 2.0], "mode": "bilinear", "recompute_scale_factor": True},
        G,
    ),
    ("interp_bicubic", "ops.interpolate", [[F, [1, 2, 4, 5]]], {"size": [7, 9], "mode": "bicubic"}, G),
    (
        "interp_bicubic_ac",
        "ops.interpolate",
        [[F, [1, 2, 4, 5]]],
        {"size": [3, 8], "mode": "bicubic", "align_corners": True},
        G,
    ),
    ("interp_trilinear", "ops.interpolate", [[F, [1, 2, 3, 4, 3]]], {"size": [5, 6, 2], "mode": "trilinear"}, G),
    (
        "interp_trilinear_sf",
        "ops.interpolate",
        [[F, [1, 2, 3, 4, 3]]],
        {"scale_factor": [1.7, 2.0, 0.9], "mode": "trilinear"},
        G,
    ),
    (
        "interp_trilinear_ac",
        "ops.interpolate",
        [[F, [1, 1, 3, 4, 3]]],
        {"size": [5, 2, 4], "mode": "trilinear", "align_corners": True},
        G,
    ),
    ("interp_area", "ops.interpolate", [[F, [1, 2, 7, 5]]], {"size": [3, 2], "mode": "area"}, G),
    ("interp_area_1d", "ops.interpolate", [[F, [1, 2, 9]]], {"size": 3, "mode": "area"}, G),
    ("upsample", "ops.upsample", [[F, [1, 2, 4, 5]]], {"size": [8, 10], "mode": "bilinear", "align_corners": True}, G),
    ("Upsample", "nn.Upsample", [[F, [1, 2, 3, 4]]], {"size": [6, 5], "mode": "bilinear"}, G),
    ("ResizeBilinearV2", "prim.ResizeBilinearV2", [[F, [1, 2, 4, 5]]], {"init": {}, "call": [[7, 3]]}, G),
    (
        "ResizeBilinearV2_half",
        "prim.ResizeBilinearV2",
        [[F, [1, 2, 4, 5]]],
        {"init": {"half_pixel_centers": True}, "call": [[7, 8]]},
        G,
    ),
    (
        "ResizeBilinearV2_ac",
        "prim.ResizeBilinearV2",
        [[F, [1, 2, 4, 5]]],
        {"init": {"align_corners": True}, "call": [[7, 3]]},
        G,
    ),
    ("ResizeNearestNeighbor", "prim.ResizeNearestNeighbor", [[F, [1, 2, 4, 5]]], {"init": {"size": [7, 3]}}, G),
    (
        "ResizeNearestNeighbor_ac",
        "prim.ResizeNearestNeighbor",
        [[F, [1, 2, 4, 5]]],
        {"init": {"size": [7, 3], "align_corners": True}},
        G,
    ),
    (
        "ResizeNearestNeighbor_half",
        "prim.ResizeNearestNeighbor",
        [[F, [1, 2, 4, 5]]],
        {"init": {"size": [7, 3], "half_pixel_centers": True}},
        G,
    ),
    (
        "ResizeNearestNeighborV2",
        "prim.ResizeNearestNeighborV2",
        [[F, [1, 2, 4, 5]], ["const", [3, 8], "int32"]],
        {"init": {}},
        G,
    ),
    ("ResizeBicubic_legacy", "prim.ResizeBicubic", [[F, [1, 2, 4, 5]], ["const", [7, 3], "int32"]], {"init": {}}, G),
    (
        "ResizeLinear1D_half",
        "prim.ResizeLinear1D",
        [[F, [1, 2, 5]], ["const", [8], "int64"]],
        {"init": {"coordinate_transformation_mode": "half_pixel"}},
        G,
    ),
    ("UpsampleNearest3D", "prim.UpsampleNearest3D", [[F, [1, 1, 2, 3, 4]]], {"init": {}, "call": [[3, 5, 2]]}, G),
    (
        "UpsampleTrilinear3D",
        "prim.UpsampleTrilinear3D",
        [[F, [1, 1, 2, 3, 4]]],
        {"init": {}, "call": [None, [2.0, 1.5, 0.7]]},
        G,
    ),
    # ------------------------------------------------------------------ pixel rearrangement
    ("pixel_shuffle", "ops.pixel_shuffle", [[F, [2, 8, 2, 3]]], {"upscale_factor": 2}, G),
    ("pixel_unshuffle", "ops.pixel_unshuffle", [[F, [2, 2, 4, 6]]], {"downscale_factor": 2}, G),
    ("PixelShuffle", "nn.PixelShuffle", [[F, [9, 2, 2]]], {"upscale_factor": 3}, G),
    ("PixelUnshuffle", "nn.PixelUnshuffle", [[F, [1, 1, 6, 3]]], {"downscale_factor": 3}, G),
    ("channel_shuffle", "ops.channel_shuffle", [[F, [1, 6, 2, 2]]], {"groups": 3}, {}),
    ("ChannelShuffle", "nn.ChannelShuffle", [[F, [2, 4, 3]]], {"groups": 2}, G),
    ("ChannelShuffle_prim", "prim.ChannelShuffle", [[F, [1, 6, 2, 1]]], {"init": {"group": 2}}, {}),
    # ------------------------------------------------------------------ more primitives
    (
        "MaxPool3D_prim",
        "prim.MaxPool3D",
        [[F, [1, 2, 5, 4, 5]]],
        {"init": {"kernel_size": 2, "strides": 2, "pad_mode": "SAME"}},
        G,
    ),
    (
        "AvgPool3D_prim",
        "prim.AvgPool3D",
        [[F, [1, 2, 5, 4, 5]]],
        {"init": {"kernel_size": 3, "strides": 2, "pad_mode": "pad", "pad": 1, "count_include_pad": False}},
        G,
    ),
    (
        "AvgPool_prim_same",
        "prim.AvgPool",
        [[F, [1, 2, 5, 6]]],
        {"init": {"kernel_size": 3, "strides": 2, "pad_mode": "SAME"}},
        G,
    ),
    (
        "MaxPoolWithArgmaxV2",
        "prim.MaxPoolWithArgmaxV2",
        [[F, [1, 2, 5, 6]]],
        {"init": {"kernel_size": 3, "strides": 2, "pads": 1}},
        G,
    ),
    (
        "MaxPool3DWithArgmax",
        "prim.MaxPool3DWithArgmax",
        [[F, [1, 2, 4, 5, 4]]],
        {"init": {"ksize": 2, "strides": 2, "pads": 1}},
        G,
    ),
    (
        "AdaptiveAvgPool3D_prim",
        "prim.AdaptiveAvgPool3D",
        [[F, [1, 2, 5, 4, 3]]],
        {"init": {"output_size": [2, 3, 2]}},
        G,
    ),
    ("AdaptiveMaxPool2D_prim", "prim.AdaptiveMaxPool2D", [[F, [1, 2, 5, 4]]], {"init": {"output_size": [2, 3]}}, G),
    (
        "AdaptiveMaxPool3D_prim",
        "prim.AdaptiveMaxPool3D",
        [[F, [1, 2, 5, 4, 3]], ["const", [2, 2, 1], "int32"]],
        {"init": {}},
        G,
    ),
    (
        "MaxUnpool2D_prim",
        "prim.MaxUnpool2D",
        [[F, [1, 1, 2, 2]], ["const", [[[[0, 3], [9, 14]]]], "int64"]],
        {"init": {"ksize": 2}},
        G,
    ),
    (
        "MaxUnpool3D_prim",
        "prim.MaxUnpool3D",
        [[F, [1, 1, 1, 1, 2]], ["const", [[[[[3, 14]]]]], "int64"]],
        {"init": {"ksize": 2, "strides": 2}},
        G,
    ),
    # ------------------------------------------------------------------ image layers, Conv2dBnAct
    ("SSIM", "nn.SSIM", [[F, [2, 3, 12, 13]], [F, [2, 3, 12, 13]]], {}, {"graph": True}),
    (
        "SSIM_small",
        "nn.SSIM",
        [[F, [1, 2, 6, 7]], [F, [1, 2, 6, 7]]],
        {"max_val": 2, "filter_size": 3, "filter_sigma": 0.8, "k1": 0.02, "k2": 0.05},
        {"graph": True},
    ),
    (
        "MSSSIM",
        "nn.MSSSIM",
        [["uniform", [1, 2, 16, 16]], ["uniform", [1, 2, 16, 16]]],
        {"power_factors": [0.3, 0.3, 0.4], "filter_size": 3},
        {"graph": True},
    ),
    ("PSNR", "nn.PSNR", [[F, [2, 3, 4, 5]], [F, [2, 3, 4, 5]]], {"max_val": 2.0}, {"graph": True}),
    ("CentralCrop", "nn.CentralCrop", [[F, [2, 3, 7, 8]]], {"central_fraction": 0.6}, G),
    ("CentralCrop_3d", "nn.CentralCrop", [[F, [3, 9, 5]]], {"central_fraction": 0.3}, G),
    ("ImageGradients", "nn.ImageGradients", [[F, [2, 3, 4, 5]]], {}, G),
    (
        "Conv2dBnAct",
        "nn.Conv2dBnAct",
        [[F, [2, 3, 5, 5]]],
        {"in_channels": 3, "out_channels": 4, "kernel_size": 3, "has_bn": True, "activation": "relu", "has_bias": True},
        GP,
    ),
    (
        "Conv2dBnAct_leaky",
        "nn.Conv2dBnAct",
        [[F, [1, 2, 6, 6]]],
        {
            "in_channels": 2,
            "out_channels": 2,
            "kernel_size": 2,
            "stride": 2,
            "pad_mode": "valid",
            "activation": "leakyrelu",
            "alpha": 0.1,
        },
        GP,
    ),
    # ------------------------------------------------------------------ image processing
    ("lrn", "ops.lrn", [[F, [2, 5, 2, 3]]], {"depth_radius": 1, "bias": 1.0, "alpha": 0.5, "beta": 0.75}, G),
    (
        "LRN_prim",
        "prim.LRN",
        [[F, [1, 7, 2, 2]]],
        {"init": {"depth_radius": 2, "bias": 2.0, "alpha": 0.1, "beta": 0.5}},
        G,
    ),
    ("LRN", "nn.LRN", [[F, [1, 4, 3, 2]]], {"depth_radius": 3}, G),
    (
        "bounding_box_encode",
        "ops.bounding_box_encode",
        [
            ["const", [[0, 0, 4, 4], [1, 2, 6, 8], [2, 1, 3, 9]], "float32"],
            ["const", [[1, 1, 5, 6], [0, 0, 3, 3], [2, 2, 4, 7]], "float32"],
        ],
        {"means": [0.1, 0.0, 0.2, 0.0], "stds": [0.5, 1.0, 2.0, 1.0]},
        {},
    ),
    (
        "BoundingBoxDecode",
        "prim.BoundingBoxDecode",
        [
            ["const", [[0, 0, 4, 4], [1, 2, 6, 8]], "float32"],
            ["const", [[0.1, 0.2, 0.3, -0.2], [1.0, -1.0, 5.0, 0.0]], "float32"],
        ],
        {"init": {"max_shape": [7, 9], "stds": [1.0, 2.0, 1.0, 0.5]}},
        {},
    ),
    (
        "BoundingBoxEncode",
        "prim.BoundingBoxEncode",
        [["const", [[0, 0, 4, 4]], "float32"], ["const", [[1, 1, 5, 6]], "float32"]],
        {"init": {}},
        {},
    ),
    (
        "bounding_box_decode",
        "ops.bounding_box_decode",
        [
            ["const", [[0, 0, 4, 4], [1, 2, 6, 8]], "float32"],
            ["const", [[0.1, 0.2, 0.3, -0.2], [1.0, -1.0, 5.0, 0.0]], "float32"],
        ],
        {"max_shape": [7, 9]},
        {},
    ),
    (
        "crop_and_resize",
        "ops.crop_and_resize",
        [
            [F, [2, 5, 6, 2]],
            ["const", [[0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1], [-0.2, 0.3, 0.5, 1.2]], "float32"],
            ["const", [0, 1, 0], "int32"],
        ],
        {"crop_size": [3, 4], "extrapolation_value": 0.5},
        G,
    ),
    (
        "crop_and_resize_nearest",
        "ops.crop_and_resize",
        [
            [F, [1, 5, 6, 3]],
            ["const", [[0.1, 0.2, 0.8, 0.9], [0.5, 0.5, 0.5, 0.5]], "float32"],
            ["const", [0, 0], "int32"],
        ],
        {"crop_size": [4, 1], "method": "nearest"},
        {},
    ),
    (
        "CropAndResize",
        "prim.CropAndResize",
        [[F, [1, 4, 4, 1]], ["const", [[0.0, 0.0, 0.5, 1.0]], "float32"], ["const", [0], "int32"]],
        {"init": {}, "call": [[2, 3]]},
        G,
    ),
    ("grid_sample", "ops.grid_sample", [[F, [2, 2, 4, 5]], ["uconst", [2, 3, 4, 2]]], {}, {}),
    (
        "grid_sample_border_ac",
        "ops.grid_sample",
        [[F, [1, 2, 4, 5]], ["uconst", [1, 3, 2, 2]]],
        {"padding_mode": "border", "align_corners": True},
        {},
    ),
    (
        "grid_sample_reflect",
        "ops.grid_sample",
        [[F, [1, 1, 4, 5]], ["uconst", [1, 4, 3, 2]]],
        {"padding_mode": "reflection"},
        {},
    ),
    (
        "grid_sample_reflect_ac",
        "ops.grid_sample",
        [[F, [1, 1, 4, 5]], ["uconst", [1, 4, 3, 2]]],
        {"padding_mode": "reflection", "align_corners": True},
        {},
    ),
    ("grid_sample_nearest", "ops.grid_sample", [[F, [1, 2, 4, 5]], ["uconst", [1, 3, 3, 2]]], {"mode": "nearest"}, {}),
    ("GridSampler3D", "prim.GridSampler3D", [[F, [1, 2, 3, 4, 5]], ["uconst", [1, 2, 3, 2, 3]]], {"init": {}}, {}),
    (
        "GridSampler2D",
        "prim.GridSampler2D",
        [[F, [1, 2, 3, 4]], ["uconst", [1, 2, 2, 2]]],
        {"init": {"padding_mode": "border"}},
        {},
    ),
    ("RGBToHSV", "prim.RGBToHSV", [["uniform", [1, 2, 3, 3]]], {"init": {}}, {}),
    ("HSVToRGB", "prim.HSVToRGB", [["uniform", [1, 2, 4, 3]]], {"init": {}}, {}),
    ("AdjustHue", "prim.AdjustHue", [["uniform", [2, 3, 3]], ["const", 0.2, "float32"]], {"init": {}}, {}),
    ("AdjustHue_neg", "prim.AdjustHue", [["uniform", [2, 3, 3]], ["const", -0.4, "float32"]], {"init": {}}, {}),
    (
        "AdjustSaturation",
        "prim.AdjustSaturation",
        [["uniform", [2, 3, 3]], ["const", 0.5, "float32"]],
        {"init": {}},
        {},
    ),
    (
        "AdjustSaturation_up",
        "prim.AdjustSaturation",
        [["uniform", [2, 3, 3]], ["const", 3.0, "float32"]],
        {"init": {}},
        {},
    ),
    (
        "FractionalMaxPoolWithFixedKsize",
        "prim.FractionalMaxPoolWithFixedKsize",
        [[F, [1, 2, 7, 8]], ["uconst", [1, 2, 2]]],
        {"init": {"ksize": 2, "output_shape": [4, 5]}},
        G,
    ),
    (
        "FractionalMaxPool3DWithFixedKsize",
        "prim.FractionalMaxPool3DWithFixedKsize",
        [[F, [1, 2, 5, 6, 7]], ["uconst", [1, 2, 3]]],
        {"init": {"ksize": [2, 2, 3], "output_shape": [3, 4, 4]}},
        G,
    ),
    (
        "fractional_max_pool2d_ratio",
        "prim.FractionalMaxPoolWithFixedKsize",
        [[F, [2, 1, 9, 6]], ["uconst", [2, 1, 2]]],
        {"init": {"ksize": [3, 2], "output_shape": [5, 3]}},
        G,
    ),
    ("ResizeArea", "prim.ResizeArea", [[F, [1, 4, 5, 2]], ["const", [3, 7], "int32"]], {"init": {}}, {}),
    ("ResizeArea_down", "prim.ResizeArea", [[F, [2, 7, 9, 1]], ["const", [3, 4], "int32"]], {"init": {}}, {}),
    (
        "ResizeArea_ac",
        "prim.ResizeArea",
        [[F, [1, 5, 6, 1]], ["const", [3, 4], "int32"]],
        {"init": {"align_corners": True}},
        {},
    ),
    (
        "deformable_conv2d",
        "ops.deformable_conv2d",
        [[F, [1, 2, 5, 6]], [F, [3, 2, 3, 3]], [F, [1, 27, 3, 4]]],
        {"kernel_size": [3, 3], "strides": [1, 1, 1, 1], "padding": [0, 0, 0, 0]},
        G,
    ),
    (
        "deformable_conv2d_s2_pad_dg",
        "ops.deformable_conv2d",
        [[F, [2, 4, 6, 5]], [F, [2, 4, 2, 3]], [F, [2, 36, 4, 2]]],
        {
            "kernel_size": [2, 3],
            "strides": [1, 1, 2, 2],
            "padding": [1, 1, 1, 0],
            "deformable_groups": 2,
            "dilations": [1, 1, 1, 1],
        },
        G,
    ),
    (
        "DeformableOffsets",
        "prim.DeformableOffsets",
        [[F, [1, 2, 5, 6]], [F, [1, 12, 5, 6]]],
        {"init": {"strides": [1, 1, 1, 1], "pads": [0, 1, 0, 1], "ksize": [2, 2]}},
        G,
    ),
]


def _tuples(v):
    if isinstance(v, list):
        return tuple(_tuples(e) for e in v)
    if isinstance(v, dict):
        return {k: _tuples(e) for k, e in v.items()}
    return v


def make_inputs(rng, specs):
    out = []
    for s in specs:
        if s[0] == "const":
            out.append(np.asarray(s[1], dtype=s[2]))
        elif s[0] in ("uniform", "uconst"):
            out.append(rng.rand(*s[1]).astype(np.float32))
        elif s[0] == "int":
            out.append(rng.randint(0, s[2], size=s[1]).astype(np.int64))
        else:
            out.append(rng.randn(*s[1]).astype(s[0]))
    return out


def main() -> None:
    import mindspore as ms
    from mindspore import Tensor, nn, ops

    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    arrays: dict[str, np.ndarray] = {}
    cases = []
    for name, target, in_specs, kwargs, opts in CASES:
        rng = np.random.RandomState(sum(map(ord, name)))
        # a few layers only run compiled in MindSpore 2.10 (SSIM/PSNR: a ScalarCast PyNative refuses)
        ms.set_context(mode=ms.GRAPH_MODE if opts.get("graph") else ms.PYNATIVE_MODE)
        xs = make_inputs(rng, in_specs)
        kind, attr = target.split(".")
        kw = _tuples(kwargs)
        params = {}
        if kind == "ops":
            fn = getattr(ops, attr)

            def run(*a, fn=fn, kw=kw):
                return fn(*a, **kw)

            net = None
        elif kind == "prim":
            prim = getattr(ops, attr)(**kw.get("init", {}))
            extra = kw.get("call", ())

            def run(*a, prim=prim, extra=extra):
                return prim(*a, *extra)

            net = None
        else:
            net = getattr(nn, attr)(**kw)
            if opts.get("params"):
                for p in net.get_parameters():
                    v = rng.randn(*p.shape).astype(np.float32) * 0.5
                    if "variance" in p.name:
                        v = np.abs(v) + 0.5
                    p.set_data(Tensor(v))
                    params[p.name.split(".")[-1]] = v
            run = net
        try:
            outs = run(*[Tensor(x) for x in xs])
        except Exception as err:  # a case MindSpore refuses: report, leave out
            print(f"SKIPPED {name}: {type(err).__name__}: {str(err).splitlines()[0]}")
            continue
        outs = outs if isinstance(outs, tuple) else (outs,)
        for i, x in enumerate(xs):
            arrays[f"{name}/in{i}"] = x
        for k, v in params.items():
            arrays[f"{name}/p:{k}"] = v
        for i, o in enumerate(outs):
            arrays[f"{name}/out{i}"] = o.asnumpy()
        if opts.get("grad"):
            try:
                cot = rng.randn(*outs[0].shape).astype(np.float32)
                arrays[f"{name}/cot"] = cot
                diff = [
                    i
                    for i, (x, spec) in enumerate(zip(xs, in_specs))
                    if x.dtype.kind == "f" and spec[0] not in ("const", "uconst")
                ]

                def loss(*a, run=run, cot=cot):
                    o = run(*a)
                    o = o[0] if isinstance(o, tuple) else o
                    return (o * Tensor(cot)).sum()

                if net is not None and params:
                    weights = list(net.trainable_params())
                    gin, gw = ms.value_and_grad(loss, grad_position=tuple(diff), weights=weights)(
                        *[Tensor(x) for x in xs]
                    )[1]
                    for p, g in zip(weights, gw):
                        arrays[f"{name}/gp:{p.name.split('.')[-1]}"] = g.asnumpy()
                else:
                    gin = ms.grad(loss, grad_position=tuple(diff))(*[Tensor(x) for x in xs])
                gin = gin if isinstance(gin, tuple) else (gin,)
                for i, g in zip(diff, gin):
                    arrays[f"{name}/gin{i}"] = g.asnumpy()
            except Exception as err:  # MindSpore has no gradient kernel on CPU: forward values only
                print(f"NO GRADIENT {name}: {type(err).__name__}: {str(err).strip().splitlines()[-1][:120]}")
                opts = {k: v for k, v in opts.items() if k != "grad"}
                for key in [k for k in arrays if k.startswith(f"{name}/g") or k == f"{name}/cot"]:
                    del arrays[key]
        cases.append([name, target, in_specs, kwargs, opts])
        print(f"{name}: {[o.shape for o in outs]}")
    arrays["__cases__"] = np.array(json.dumps(cases))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(cases)} cases)")


if __name__ == "__main__":
    main()
