"""THOR layers: Dense, Conv2d, Embedding and EmbeddingLookup that also record the statistics of the THOR
second-order optimizer (``nn.thor``).

As MindSpore 2.10 (its GPU/CPU path): while ``thor`` is True, the forward pass stores the input covariance
``A`` (``matrix_a`` / ``matrix_a_cov``) and the backward pass the covariance of the gradient of the layer's
output ``G`` (``matrix_g`` / ``matrix_g_cov``):

* ``DenseThor``: ``A = x^T x / in_channels``, ``G = dout^T dout / batch``.
* ``Conv2dThor``: the input patches (im2col, "same" padding, the layer's stride) averaged over the batch,
  ``P`` of shape ``(C*kh*kw, Ho*Wo)``: ``A = P P^T / (Ho*Wo)``; the output gradient averaged over the
  batch, ``D`` of shape ``(Cout, Ho*Wo)``: ``G = D D^T / (Ho*Wo)``; ``a_normalizer = g_normalizer = Ho*Wo``.
* ``EmbeddingThor`` / ``EmbeddingLookupThor``: ``A`` = how often each row was looked up, ``G = dout^T dout /
  tokens``.

MindSpore writes ``G`` from a gradient hook. A JAX backward pass cannot write state, so here ``G`` leaves
the backward pass as the gradient of the ``matrix_g`` Parameter: the THOR train step (``ConvertModelUtils``)
differentiates the ``matrix_g`` Parameters too and stores those gradients (:func:`thor_statistics`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ... import ops
from ..._engine import custom_vjp_call
from ...common import dtype as mstype
from ...common.initializer import initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ..cell import Cell
from .activation import get_activation
from .conv import Conv2d
from .embedding import EmbeddingLookup

__all__ = ["DenseThor", "Conv2dThor", "EmbeddingThor", "EmbeddingLookupThor", "thor_statistics"]


def _with_g_statistic(out: Any, carrier: Parameter, stat: Any) -> Any:
    """``out`` unchanged; in the backward pass the gradient of ``carrier`` is ``stat(dout)``."""

    def backward(args: Any, _out: Any, dout: Any) -> Any:
        return dout, ops.cast(stat(ops.cast(dout, mstype.float32)), carrier.dtype)

    return custom_vjp_call(lambda o, _c: o, backward, (out, carrier.value()), [])


def thor_statistics(network: Cell) -> list[Parameter]:
    """The ``matrix_g`` Parameters (``G`` statistics) of the THOR layers of ``network``, in order."""
    out = []
    for _, cell in network.cells_and_names():
        if isinstance(cell, (DenseThor, EmbeddingThor, EmbeddingLookupThor)):
            out.append(cell.matrix_g)
        elif isinstance(cell, Conv2dThor):
            out.append(cell.matrix_g_cov)
    return out


def _outer_mean(d: Any, normalizer: Any) -> Any:
    return ops.matmul(d.T, d) / normalizer


class DenseThor(Cell):
    """A Dense layer recording THOR's ``A`` and ``G`` (see the module text). Arguments as ``nn.Dense``."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        weight_init: Any = "normal",
        bias_init: Any = "zeros",
        has_bias: bool = True,
        activation: Any = None,
    ) -> None:
        super().__init__()
        self.thor = True
        self.in_channels = validator.check_positive_int(in_channels, "in_channels", self.cls_name)
        self.out_channels = validator.check_positive_int(out_channels, "out_channels", self.cls_name)
        self.has_bias = validator.check_bool(has_bias, "has_bias", self.cls_name)
        if isinstance(weight_init, Tensor) and (
            weight_init.ndim != 2 or tuple(weight_init.shape) != (out_channels, in_channels)
        ):
            raise ValueError(
                f"For '{self.cls_name}', weight init shape error. The dim of 'weight_init' should be equal to 2, "
                "and the first dim must be equal to 'out_channels', and the second dim must be equal to "
                f"'in_channels'. But got 'weight_init': {weight_init}, 'out_channels': {out_channels}, "
                f"'in_channels': {in_channels}."
            )
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels]), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and (bias_init.ndim != 1 or bias_init.shape[0] != out_channels):
                raise ValueError(
                    f"For '{self.cls_name}', bias init shape error. The dim of 'bias_init' should be equal to 1, "
                    "and the first dim must be equal to 'out_channels'. But got "
                    f"'bias_init': {bias_init}, 'out_channels': {out_channels}."
                )
            self.bias = Parameter(initializer(bias_init, [out_channels]), name="bias")
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        self.activation_flag = self.activation is not None
        self.matrix_a = Parameter(Tensor(np.eye(in_channels, dtype=np.float32)), name="matrix_a", requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.eye(out_channels, dtype=np.float32)), name="matrix_g", requires_grad=False)

    def construct(self, x: Any) -> Any:
        if self.thor:
            xf = ops.cast(x, mstype.float32)
            ops.assign(self.matrix_a, ops.matmul(xf.T, xf) / self.in_channels)
            x = ops.matmul(x, self.weight.T)
            x = _with_g_statistic(x, self.matrix_g, lambda d: _outer_mean(d, d.shape[0]))
        else:
            x = ops.matmul(x, self.weight.T)
        if self.has_bias:
            x = ops.bias_add(x, self.bias)
        if self.activation_flag and self.activation is not None:
            x = self.activation(x)
        return x

    def extend_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        return s + (f", has_bias={self.has_bias}" if self.has_bias else "")


class Conv2dThor(Conv2d):
    """A Conv2d layer (NCHW) recording THOR's ``A`` and ``G`` (see the module text). Arguments as
    ``nn.Conv2d`` (``weight_init`` default "normal", ``has_bias`` default False)."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        pad_mode: str = "same",
        padding: Any = 0,
        dilation: Any = 1,
        group: int = 1,
        has_bias: bool = False,
        weight_init: Any = "normal",
        bias_init: Any = "zeros",
    ) -> None:
        for what, n in (("in_channels", in_channels), ("out_channels", out_channels)):
            if isinstance(n, int) and isinstance(group, int) and group > 0 and n % group:
                raise ValueError(
                    f"For 'Conv2dThor', the '{what}' must be divisible by 'group', but got '{what}': {n} and "
                    f"'group': {group}."
                )
        # a Parameter given as the initial value (ConvertNetUtils) is copied, not registered as an attribute
        weight_init = Tensor(weight_init.asnumpy()) if isinstance(weight_init, Parameter) else weight_init
        bias_init = Tensor(bias_init.asnumpy()) if isinstance(bias_init, Parameter) else bias_init
        super().__init__(
            in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
            weight_init, bias_init,
        )  # fmt: skip
        self.thor = True
        self.hw = self.kernel_size[0] * self.kernel_size[1]
        self.matrix_a_dim = in_channels * self.hw
        self.matrix_g_dim = out_channels
        self.a_normalizer = Parameter(initializer(1, [1], mstype.float32), name="a_normalizer", requires_grad=False)
        self.g_normalizer = Parameter(initializer(1, [1], mstype.float32), name="g_normalizer", requires_grad=False)
        zeros_a = np.zeros([self.matrix_a_dim, self.matrix_a_dim], np.float32)
        zeros_g = np.zeros([self.matrix_g_dim, self.matrix_g_dim], np.float32)
        self.matrix_a_cov = Parameter(Tensor(zeros_a), name="matrix_a", requires_grad=False)
        self.matrix_g_cov = Parameter(Tensor(zeros_g), name="matrix_g", requires_grad=False)

    def _patches(self, x: Any) -> Any:
        """im2col with "same" padding and this layer's stride, averaged over the batch: (C*kh*kw, Ho*Wo)."""
        n, c, h, w = x.shape
        (kh, kw), (sh, sw) = self.kernel_size, self.stride
        ho, wo = -(-h // sh), -(-w // sw)
        ph = max(0, (ho - 1) * sh + kh - h)
        pw = max(0, (wo - 1) * sw + kw - w)
        xp = ops.pad(x, (pw // 2, pw - pw // 2, ph // 2, ph - ph // 2))
        cols = []
        for i in range(kh):
            for j in range(kw):
                cols.append(xp[:, :, i : i + sh * (ho - 1) + 1 : sh, j : j + sw * (wo - 1) + 1 : sw])
        patches = ops.stack(cols, axis=0).reshape(kh, kw, n, c, ho * wo)  # (kh, kw, N, C, Ho*Wo)
        patches = ops.transpose(patches, (3, 0, 1, 2, 4)).mean(axis=3)  # (C, kh, kw, Ho*Wo)
        return patches.reshape(c * kh * kw, ho * wo)

    def construct(self, x: Any) -> Any:
        if not self.thor:
            return super().construct(x)
        p = ops.cast(self._patches(x), mstype.float32)
        normalizer = p.shape[1]
        ops.assign(self.matrix_a_cov, ops.matmul(p, p.T) / normalizer)
        ops.assign(self.a_normalizer, Tensor([normalizer], mstype.float32))
        output = super().construct(x)  # (the bias does not change the output's gradient)
        ops.assign(self.g_normalizer, Tensor([output.shape[2] * output.shape[3]], mstype.float32))

        def g_stat(d: Any) -> Any:
            dm = d.mean(axis=0).reshape(d.shape[1], -1)
            return ops.matmul(dm, dm.T) / dm.shape[1]

        return _with_g_statistic(output, self.matrix_g_cov, g_stat)

    def extend_repr(self) -> str:
        return (
            f"input_channels={self.in_channels}, output_channels={self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
            f"group={self.group}, has_bias={self.has_bias}, bias_init={self.bias_init}"
        )


def _embedding_statistics(cell: Any, ids: Any, out: Any) -> Any:
    """Record ``A`` (row counts) and route ``G`` of an embedding lookup ``out`` of ``ids``."""
    flat = ids.reshape(-1)
    counts = ops.one_hot(flat, cell.vocab_size, Tensor(1.0, mstype.float32), Tensor(0.0, mstype.float32)).sum(0)
    ops.assign(cell.matrix_a, counts)
    rows = out.reshape(-1, cell.embedding_size)
    rows = _with_g_statistic(rows, cell.matrix_g, lambda d: _outer_mean(d, d.shape[0]))
    return rows.reshape(out.shape)


def _embedding_stat_params(cell: Any, vocab_size: int, embedding_size: int) -> None:
    cell.thor = True
    cell.matrix_a = Parameter(Tensor(np.zeros([vocab_size], np.float32)), name="matrix_a", requires_grad=False)
    cell.matrix_g = Parameter(
        Tensor(np.zeros([embedding_size, embedding_size], np.float32)), name="matrix_g", requires_grad=False
    )


class EmbeddingThor(Cell):
    """An Embedding layer recording THOR's ``A`` and ``G``. Arguments as ``nn.Embedding``."""

    def __init__(
        self,
        vocab_size: int,
        embedding_size: int,
        use_one_hot: bool = False,
        embedding_table: Any = "normal",
        dtype: Any = mstype.float32,
        padding_idx: Any = None,
    ) -> None:
        super().__init__()
        name = self.cls_name
        self.vocab_size = validator.check_value_type("vocab_size", vocab_size, [int], name)
        self.embedding_size = validator.check_value_type("embedding_size", embedding_size, [int], name)
        validator.check_value_type("use_one_hot", use_one_hot, [bool], name)
        self.use_one_hot = use_one_hot
        self.dtype = dtype
        table = initializer(embedding_table, [vocab_size, embedding_size]).asnumpy()
        self.padding_idx = padding_idx
        if padding_idx is not None:
            self.padding_idx = validator.check_int_range(
                padding_idx, 0, vocab_size, validator.INC_BOTH, "padding_idx", name
            )
            table[self.padding_idx] = 0
        self.embedding_table = Parameter(Tensor(table), name="embedding_table")
        _embedding_stat_params(self, vocab_size, embedding_size)

    def construct(self, ids: Any) -> Any:
        out_shape = (*ids.shape, self.embedding_size)
        flat = ids.reshape(-1)
        if self.use_one_hot:
            one_hot = ops.one_hot(flat, self.vocab_size, Tensor(1.0, self.dtype), Tensor(0.0, self.dtype))
            return ops.matmul(one_hot, self.embedding_table).reshape(out_shape)
        out = ops.gather(self.embedding_table, flat, 0).reshape(out_shape)
        return _embedding_statistics(self, ids, out) if self.thor else out

    def extend_repr(self) -> str:
        return (
            f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
            f"embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx={self.padding_idx}"
        )


class EmbeddingLookupThor(EmbeddingLookup):
    """An EmbeddingLookup recording THOR's ``A`` and ``G``. Arguments as ``nn.EmbeddingLookup``."""

    def __init__(
        self,
        vocab_size: int,
        embedding_size: int,
        param_init: Any = "normal",
        target: str = "CPU",
        slice_mode: str = "batch_slice",
        manual_shapes: Any = None,
        max_norm: Any = None,
        sparse: bool = True,
    ) -> None:
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, manual_shapes, max_norm, sparse)
        _embedding_stat_params(self, vocab_size, embedding_size)

    def construct(self, indices: Any) -> Any:
        out = self._lookup(indices)
        return _embedding_statistics(self, indices, out) if self.thor else out
