"""Transposed convolutions with MindSpore's argument semantics: ``conv_transpose2d`` (PyTorch-style sizes),
``conv3d_transpose`` (MindSpore's pad modes), and the shared core the primitives (``Conv2DTranspose``,
``Conv2DBackpropInput``, ``Conv3DTranspose``) and layers (``Conv1d/2d/3dTranspose``) use.

The kernels are the input gradient of a convolution (``ops/_lowering``: canonical channels-last
convolutions in forward and VJP on CPU, ``lax.conv`` on GPU).
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ...common.tensor import Tensor
from .. import _lowering as L
from .._amp import amp_white
from .._utils import as_tensor_array, wrap
from ._conv_pool import PAD_MODES, _dtype_name, _explicit_pads, _same_pads, tuple_n

__all__ = ["conv_transpose2d", "conv3d_transpose"]


def transpose_geometry(
    in_sp: tuple[int, ...],
    k: tuple[int, ...],
    s: tuple[int, ...],
    d: tuple[int, ...],
    pad_mode: str,
    padding: Any,
    output_padding: tuple[int, ...],
    op: str,
    out_sp: tuple[int, ...] | None = None,
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """The forward-convolution pads and the (unpadded) output spatial shape of a transposed convolution.

    'pad': ``(in - 1) * s - lo - hi + d * (k - 1) + 1 + output_padding``; 'valid': no padding; 'same':
    ``in * s`` with the forward 'same' padding. ``out_sp`` (``Conv2DBackpropInput``'s ``input_size``)
    overrides the size; the pads then follow the forward convolution of that size."""
    nsp = len(k)
    if pad_mode == "pad":
        pads = _explicit_pads(padding, nsp, op)
    elif padding not in (0, (0,) * nsp, (0,) * (2 * nsp), [0] * nsp, [0] * (2 * nsp)):
        raise ValueError(f"For '{op}', the 'padding' must be 0 when 'pad_mode' is '{pad_mode}', but got {padding}.")
    else:
        pads = [(0, 0)] * nsp
    if out_sp is None:
        if pad_mode == "same":
            out_sp = tuple(in_sp[i] * s[i] for i in range(nsp))
        else:
            out_sp = tuple(
                (in_sp[i] - 1) * s[i] - pads[i][0] - pads[i][1] + d[i] * (k[i] - 1) + 1 + output_padding[i]
                for i in range(nsp)
            )
    if pad_mode == "same":
        pads = [_same_pads(out_sp[i], k[i], s[i], d[i]) for i in range(nsp)]
    if any(o <= 0 for o in out_sp):
        raise ValueError(f"For '{op}', the output spatial shape {tuple(out_sp)} must be positive.")
    return pads, tuple(int(o) for o in out_sp)


def conv_transpose_nd(
    input: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    pad_mode: str,
    padding: Any,
    dilation: Any,
    groups: int,
    output_padding: Any,
    nsp: int,
    op: str,
    out_sp: tuple[int, ...] | None = None,
) -> Any:
    """The array result of a transposed convolution of NC... ``input`` with ``weight`` [C_in, C_out /
    groups, k...] (1-D runs as 2-D with a unit height)."""
    x, w = as_tensor_array(input), as_tensor_array(weight)
    validator.check_conv_transpose_operands(x, w, groups, nsp, op, _dtype_name)
    pad_mode = validator.check_one_of(pad_mode, PAD_MODES, "pad_mode", op, ignore_case=True)
    s = tuple_n(stride, nsp, "stride", op, allow_long=True)
    d = tuple_n(dilation, nsp, "dilation", op, allow_long=True)
    op_pad = tuple_n(output_padding, nsp, "output_padding", op, minimum=0, allow_long=True)
    for i in range(nsp):
        if op_pad[i] >= max(s[i], d[i]):
            raise ValueError(
                f"For '{op}', the 'output_padding' must be smaller than max('stride', 'dilation') in each "
                f"dimension, but got 'output_padding': {op_pad}, 'stride': {s} and 'dilation': {d}."
            )
    if pad_mode != "pad" and any(op_pad):
        raise ValueError(
            f"For '{op}', the 'output_padding' must be zero when 'pad_mode' is not 'pad', but got "
            f"'output_padding' {output_padding} and 'pad_mode' '{pad_mode}'."
        )
    k = tuple(w.shape[2:])
    pads, out = transpose_geometry(tuple(x.shape[2:]), k, s, d, pad_mode, padding, op_pad, op, out_sp)
    if nsp == 1:
        y = L.conv_transpose_array(
            x[:, :, None, :], w[:, :, None, :], (1, s[0]), [(0, 0), pads[0]], (1, d[0]), groups, (1, out[0])
        )[:, :, 0, :]
    else:
        y = L.conv_transpose_array(x, w, s, pads, d, groups, out)
    if bias is not None:
        b = as_tensor_array(bias)
        c_out = w.shape[1] * groups
        if b.shape != (c_out,):
            raise ValueError(f"For '{op}', the 'bias' shape must be ({c_out},), but got {tuple(b.shape)}.")
        y = y + b.astype(y.dtype).reshape((1, -1) + (1,) * nsp)
    return y


@amp_white(bias=("bias", 1))
def conv_transpose2d(
    input: Any,
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Tensor:
    """2-D transposed convolution of NCHW ``input`` with ``weight`` [C_in, C_out / groups, kH, kW]:
    output size ``(H - 1) * stride - 2 * padding + dilation * (kH - 1) + output_padding + 1``.
    (MindSpore 2.10 registers this kernel on Ascend only; here it runs on every backend.)"""
    pads = tuple_n(padding, 2, "padding", "conv_transpose2d", minimum=0)
    return wrap(
        conv_transpose_nd(
            input, weight, bias, stride, "pad", pads, dilation, groups, output_padding, 2, "conv_transpose2d"
        )
    )


@amp_white
def conv3d_transpose(
    inputs: Any,
    weight: Any,
    pad_mode: str = "valid",
    padding: Any = 0,
    stride: Any = 1,
    dilation: Any = 1,
    group: int = 1,
    output_padding: Any = 0,
) -> Tensor:
    """3-D transposed convolution of NCDHW ``inputs`` with ``weight`` [C_in, C_out / group, kD, kH, kW].

    ``pad_mode``: 'valid' (output ``(D - 1) * stride + dilation * (kD - 1) + 1``), 'same' (``D * stride``)
    or 'pad' (``padding``: an int or 6 ints (head, tail, top, bottom, left, right); ``output_padding``
    adds to the output's far end)."""
    return wrap(
        conv_transpose_nd(
            inputs, weight, None, stride, pad_mode, padding, dilation, group, output_padding, 3, "conv3d_transpose"
        )
    )


def conv_transpose(
    input: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    pad_mode: str,
    padding: Any,
    dilation: Any,
    groups: int,
    output_padding: Any,
    nsp: int,
    op: str,
    out_sp: tuple[int, ...] | None = None,
) -> Tensor:
    """``conv_transpose_nd`` as a Tensor (Conv2DBackpropInput, Conv1dTranspose: not on amp's white list)."""
    return wrap(
        conv_transpose_nd(
            input, weight, bias, stride, pad_mode, padding, dilation, groups, output_padding, nsp, op, out_sp
        )
    )


# Conv2DTranspose / Conv3DTranspose (and the layers built on them) are on MindSpore's AmpAuto white list
conv_transpose_white = amp_white(bias=("bias", 1))(conv_transpose)
