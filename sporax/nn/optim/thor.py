"""THOR: the second-order optimizer with Kronecker-factored curvature (``nn.thor``), and ``ConvertNetUtils``.

As MindSpore 2.10's ``nn.thor`` (its GPU/CPU optimizer, ``ThorGpu``). For each Dense/Conv2d weight ``w``
(``(out, in...)``, reshaped to ``(out, in*kh*kw)``) with the layer's statistics ``A`` and ``G`` (see
``nn.layer.thor_layer``) and ``lambda = damping[step]``::

    A_inv = (A + sqrt(lambda / a_norm) I)^-1 * f,   G_inv = (G * batch^2 / loss_scale^2 + sqrt(lambda / g_norm) I)^-1 * f
    g    <- G_inv . g . A_inv

(``a_norm = g_norm = f = 1`` for Dense; for Conv2d the spatial normalizers and ``f = sqrt(1 / a_norm)``; the
inverses are block-diagonal in blocks of 128, as MindSpore's ``CholeskyTrsm(split_dim=128)``). Embedding rows
are scaled by ``1 / (A / batch + sqrt(lambda))`` and multiplied by ``G_inv`` (the documented ``(G + lambda
I)^-1``); LayerNorm parameters by ``1 / (g^2 / batch + sqrt(lambda))``. Then weight decay, optional
gradient clipping (by norm 1.0) and the momentum update. The inverses are recomputed every ``frequency``
steps (the first step of each period; the others reuse them), as MindSpore's ``ModelThor`` schedules it; in
data parallel the inverses are all-reduced (averaged when ``gradients_mean``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.initializer import initializer
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ..cell import Cell
from ..layer import basic, clip, container, conv, embedding, normalization
from ..layer.thor_layer import Conv2dThor, DenseThor, EmbeddingLookupThor, EmbeddingThor
from ..wrap.cell_wrapper import run_if
from .optimizer import Optimizer

__all__ = ["thor", "ConvertNetUtils"]

Other, Conv, FC, Embedding, LayerNorm, BatchNorm = -1, 1, 2, 3, 4, 5
_SPLIT_DIM = 128
_CLIP_NORM = 1.0


def _block_inverse(m: Any, split: int = _SPLIT_DIM) -> Any:
    """The inverse of the block diagonal of ``m`` (blocks of ``split``; the last one padded with I)."""
    n = m.shape[0]
    if n <= split:
        return ops.inverse(m)
    nb = -(-n // split)
    pad = nb * split - n
    mp = ops.pad(m, (0, pad, 0, pad)) + _pad_eye(n, pad, m.dtype) if pad else m
    blocks = [ops.inverse(mp[i * split : (i + 1) * split, i * split : (i + 1) * split]) for i in range(nb)]
    return ops.block_diag(*blocks)[:n, :n]


def _pad_eye(n: int, pad: int, dtype: Any) -> Tensor:
    e = np.zeros((n + pad, n + pad), np.float32)
    e[n:, n:] = np.eye(pad)
    return Tensor(e, dtype)


def _owners(net: Cell) -> dict[int, Cell]:
    return {id(p): cell for _, cell in net.cells_and_names() for p in cell.get_parameters(expand=False)}


def _layer_type(cell: Cell, param: Parameter) -> int:
    if isinstance(cell, (DenseThor, Conv2dThor)):
        if param is cell.weight:
            return Conv if isinstance(cell, Conv2dThor) else FC
        return Other
    if isinstance(cell, (EmbeddingThor, EmbeddingLookupThor)):
        return Embedding
    if isinstance(cell, normalization.LayerNorm):
        return LayerNorm
    return Other


class ThorGpu(Optimizer):
    """THOR (see the module text); made by :func:`thor`."""

    def __init__(
        self,
        net: Cell,
        learning_rate: Any,
        damping: Any,
        momentum: float,
        weight_decay: float = 0.0,
        loss_scale: float = 1.0,
        batch_size: int = 32,
        use_nesterov: bool = False,
        decay_filter: Any = lambda x: x.name not in [],
        split_indices: Any = None,
        enable_clip_grad: bool = False,
        frequency: int = 100,
    ) -> None:
        params = [p for p in net.get_parameters() if p.requires_grad]
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_thor_args(momentum, frequency, learning_rate, Tensor, self.cls_name)
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.params = self._parameters
        self.use_nesterov = validator.check_bool(use_nesterov)
        self.moments = self.params.clone(prefix="moments", init="zeros")
        self.opt = ops.ApplyMomentum(use_nesterov=self.use_nesterov)
        self.net = net
        self.batch_size = Tensor(batch_size, mstype.float32)
        self.loss_scale_factor = 1.0 / (loss_scale * loss_scale)
        self.batch_size_scale = float(batch_size * batch_size)
        self.damping = damping
        self.cov_step = Parameter(initializer(0, [1], mstype.int32), name="cov_step", requires_grad=False)
        self.thor = True
        self.weight_decay_value = weight_decay
        self.decay_flags = tuple(decay_filter(x) for x in self._parameters)
        self.enable_clip_grad = enable_clip_grad
        self.frequency = frequency
        self.split_indices = split_indices
        self._build_layer_map(net)
        self._define_reducer()

    def _define_reducer(self) -> None:
        """In data parallel the inverses are averaged over the devices (MindSpore all-reduces them)."""
        from ... import context
        from ..wrap.grad_reducer import DistributedGradReducer

        mode = context.get_auto_parallel_context("parallel_mode")
        self.is_distributed = mode not in ("stand_alone", context.ParallelMode.STAND_ALONE)
        self.grad_reducer_inv = None
        if self.is_distributed:
            from ...parallel._utils import _get_device_num, _get_gradients_mean

            mean, degree = _get_gradients_mean(), _get_device_num()
            self.grad_reducer_inv = DistributedGradReducer(list(self.matrix_a) + list(self.matrix_g), mean, degree)

    def _build_layer_map(self, net: Cell) -> None:
        """Per parameter: its layer type and THOR layer; one pair of inverse Parameters per THOR layer."""
        owners = _owners(net)
        self.layer_types: list[Any] = []
        self.thor_layers: list[tuple[int, Any]] = []  # (index of its inverses, THOR layer) per parameter
        inv_a: list[Parameter] = []
        inv_g: list[Parameter] = []
        for param in self.params:
            cell: Any = owners.get(id(param))  # a THOR layer's statistics are attributes it sets at run time
            kind = _layer_type(cell, param) if cell is not None else Other
            self.layer_types.append(kind)
            if kind in (Conv, FC, Embedding):
                k = len(inv_a)
                self.thor_layers.append((k, cell))
                a_shape = (
                    (cell.vocab_size,)
                    if kind == Embedding
                    else (cell.matrix_a_dim,) * 2
                    if kind == Conv
                    else (cell.in_channels,) * 2
                )
                g_dim = cell.embedding_size if kind == Embedding else cell.out_channels
                inv_a.append(
                    Parameter(Tensor(np.zeros(a_shape, np.float32)), name=f"matrix_a_inv_{k}", requires_grad=False)
                )
                inv_g.append(
                    Parameter(
                        Tensor(np.zeros((g_dim, g_dim), np.float32)), name=f"matrix_g_inv_{k}", requires_grad=False
                    )
                )
            else:
                self.thor_layers.append((-1, None))
        self.matrix_a = ParameterTuple(inv_a)
        self.matrix_g = ParameterTuple(inv_g)

    def get_frequency(self) -> int:
        return self.frequency

    def _update_inverses(self, damping_step: Any) -> None:
        """Recompute every THOR layer's ``A_inv`` and ``G_inv`` from its statistics."""
        for kind, (k, cell) in zip(self.layer_types, self.thor_layers):
            if k < 0:
                continue
            if kind == Conv:
                a, g = cell.matrix_a_cov, cell.matrix_g_cov
                damping_a = ops.sqrt(damping_step / cell.a_normalizer.reshape(()))
                damping_g = ops.sqrt(damping_step / cell.g_normalizer.reshape(()))
                feature = ops.sqrt(1.0 / cell.a_normalizer.reshape(()))
            else:
                a, g = cell.matrix_a, cell.matrix_g
                damping_a = damping_g = ops.sqrt(damping_step)
                feature = 1.0
            g = g * self.loss_scale_factor * self.batch_size_scale + damping_g * ops.eye(
                g.shape[0], g.shape[0], mstype.float32
            )
            if kind == Embedding:
                a_inv = 1.0 / (a / self.batch_size + damping_a)
                g_inv = ops.inverse(g)
            else:
                a_inv = _block_inverse(a + damping_a * ops.eye(a.shape[0], a.shape[0], mstype.float32))
                g_inv = _block_inverse(g)
            ops.assign(self.matrix_a[k], a_inv * feature)
            ops.assign(self.matrix_g[k], g_inv * feature)
        if self.grad_reducer_inv is not None:
            reduced = self.grad_reducer_inv(tuple(self.matrix_a) + tuple(self.matrix_g))
            for param, value in zip(list(self.matrix_a) + list(self.matrix_g), reduced):
                ops.assign(param, value)

    def _precondition(self, gradients: tuple, damping_step: Any) -> tuple:
        out = []
        for g, kind, (k, _cell) in zip(gradients, self.layer_types, self.thor_layers):
            if kind in (Conv, FC):
                flat = g.reshape(g.shape[0], -1)
                g = ops.matmul(ops.matmul(self.matrix_g[k], flat), self.matrix_a[k]).reshape(g.shape)
            elif kind == Embedding:
                g = ops.matmul(ops.expand_dims(self.matrix_a[k], 1) * g, self.matrix_g[k])
            elif kind == LayerNorm:
                g = g / (ops.square(g) / self.batch_size + ops.sqrt(damping_step))
            out.append(g)
        return tuple(out)

    def construct(self, gradients: Any) -> tuple[bool, ...]:
        gradients = self.scale_grad(tuple(gradients))
        damping_step = ops.cast(ops.gather(self.damping, self.cov_step, 0), mstype.float32).reshape(())
        renew = ops.equal(ops.floor_mod(self.cov_step, self.frequency), 0).reshape(())
        if self.thor:
            run_if(renew, self._update_inverses, damping_step)
        gradients = self._precondition(gradients, damping_step)
        ops.assign_add(self.cov_step, Tensor([1], mstype.int32))
        if self.weight_decay_value > 0:
            gradients = tuple(
                g + self.weight_decay_value * p if flag else g
                for g, p, flag in zip(gradients, self.params, self.decay_flags)
            )
        if self.enable_clip_grad:
            gradients = tuple(clip.ClipByNorm()(g, Tensor(_CLIP_NORM, g.dtype)) for g in gradients)
        lr = self.get_lr()
        self._advance_step()
        for grad, param, moment in zip(gradients, self.params, self.moments):
            self.opt(param, moment, lr, grad, self.momentum)
        return (True,) * self.param_length


def thor(
    net: Cell,
    learning_rate: Any,
    damping: Any,
    momentum: float,
    weight_decay: float = 0.0,
    loss_scale: float = 1.0,
    batch_size: int = 32,
    use_nesterov: bool = False,
    decay_filter: Any = lambda x: x.name not in [],
    split_indices: Any = None,
    enable_clip_grad: bool = False,
    frequency: int = 100,
) -> ThorGpu:
    """Convert ``net``'s Dense/Conv2d/Embedding layers to their THOR forms and return the THOR optimizer.

    Args:
        net (Cell): the network. learning_rate (Tensor): per-step learning rates. damping (Tensor): per-step
        damping. momentum (float). weight_decay (float). loss_scale (float). batch_size (int).
        use_nesterov (bool). decay_filter (function). split_indices (list). enable_clip_grad (bool).
        frequency (int): the inverses are recomputed every ``frequency`` steps (>= 2).
    """
    ConvertNetUtils().convert_to_thor_net(net)
    return ThorGpu(
        net, learning_rate, damping, momentum, weight_decay, loss_scale, batch_size, use_nesterov, decay_filter,
        split_indices=split_indices, enable_clip_grad=enable_clip_grad, frequency=frequency,
    )  # fmt: skip


class ConvertNetUtils:
    """Replace a network's Dense, Conv2d, Embedding and EmbeddingLookup layers by their THOR forms (the same
    Parameters and names)."""

    def __init__(self) -> None:
        self._convert_method_map = {
            basic.Dense: ConvertNetUtils._convert_dense,
            embedding.Embedding: ConvertNetUtils._convert_embedding,
            conv.Conv2d: ConvertNetUtils._convert_conv2d,
            embedding.EmbeddingLookup: ConvertNetUtils._convert_embeddinglookup,
        }

    @staticmethod
    def _convert_dense(subcell: Any) -> DenseThor:
        new = DenseThor(
            subcell.in_channels, subcell.out_channels, weight_init=subcell.weight, has_bias=subcell.has_bias,
            bias_init="zeros", activation=subcell.activation if subcell.activation_flag else None,
        )  # fmt: skip
        if subcell.has_bias:
            new.bias = subcell.bias
        return new

    @staticmethod
    def _convert_embedding(subcell: Any) -> EmbeddingThor:
        new = EmbeddingThor(subcell.vocab_size, subcell.embedding_size, use_one_hot=False)
        new.embedding_table = subcell.embedding_table
        return new

    @staticmethod
    def _convert_embeddinglookup(subcell: Any) -> EmbeddingLookupThor:
        new = EmbeddingLookupThor(
            subcell.vocab_size, subcell.embedding_size, target=subcell.target, sparse=subcell.sparse
        )
        new.embedding_table = subcell.embedding_table
        return new

    @staticmethod
    def _convert_conv2d(subcell: Any) -> Conv2dThor:
        return Conv2dThor(
            subcell.in_channels, subcell.out_channels, kernel_size=subcell.kernel_size[0], stride=subcell.stride,
            padding=subcell.padding, pad_mode=subcell.pad_mode, has_bias=subcell.has_bias, weight_init=subcell.weight,
        )  # fmt: skip

    @staticmethod
    def _need_change(subcell: Any, prefix: str) -> bool:
        if isinstance(subcell, (basic.Dense, conv.Conv2d)) and subcell.weight.requires_grad:
            return not ("rpn_with_loss.rpn_convs_list." in prefix.lower() or "wide" in prefix.lower())
        return (
            isinstance(subcell, (embedding.Embedding, embedding.EmbeddingLookup))
            and subcell.embedding_table.requires_grad
        )

    def _convert_to_thor_net(self, net: Cell) -> None:
        change = False
        for name, subcell in net.name_cells().items():
            if subcell is net or isinstance(subcell, (DenseThor, Conv2dThor, EmbeddingThor, EmbeddingLookupThor)):
                continue
            method = self._convert_method_map.get(type(subcell))
            if method is not None:
                prefix = subcell.param_prefix
                if self._need_change(subcell, prefix):
                    new = method(subcell)
                    new.update_parameters_name(prefix + ".")
                    net.insert_child_to_cell(name, new)
                    change = True
            elif not isinstance(subcell, (normalization.LayerNorm, normalization._BatchNorm)):
                self._convert_to_thor_net(subcell)
        if isinstance(net, container.SequentialCell) and change:
            net.cell_list = list(net.cells())

    def convert_to_thor_net(self, net: Cell) -> None:
        """Convert ``net`` in place (its cells get their structural names first)."""
        net.update_cell_prefix()
        self._convert_to_thor_net(net)
        net.update_cell_type("second-order")
