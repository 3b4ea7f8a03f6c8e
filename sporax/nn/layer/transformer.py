"""MultiheadAttention and the Transformer layers, with MindSpore's argument names, defaults, parameter names
and initialisers (``in_proj_weight`` XavierUniform, ``in_proj_bias`` zeros, ``out_proj`` a ``Dense``;
``Transformer`` re-initialises every matrix with ``xavier_uniform``), so checkpoints interchange.

Masks follow MindSpore (and PyTorch): a bool mask is True where attention is NOT allowed; a float mask is
added to the scores. One difference: MindSpore 2.10 adds a bool ``key_padding_mask`` to a float ``attn_mask``
as 1.0 (so padded keys are not masked); sporax masks them (``-inf``), as the mask means. The attention product is one fused path per backend (``ops/_lowering/attention.py``).
"""

from __future__ import annotations

import copy
import math
from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.initializer import HeUniform, Uniform, XavierNormal, XavierUniform, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.function.attention_func import multi_head_attention_forward
from ..cell import Cell
from .activation import GELU, ReLU
from .basic import Dense, Dropout
from .container import CellList
from .normalization import LayerNorm

__all__ = [
    "MultiheadAttention",
    "TransformerEncoderLayer",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerDecoder",
    "Transformer",
]


def _dense(n_in: int, n_out: int, has_bias: bool = True, dtype: Any = mstype.float32) -> Dense:
    """MindSpore's Transformer Dense: HeUniform(sqrt(5)) weight, Uniform(1 / sqrt(fan_in)) bias."""
    return Dense(
        n_in,
        n_out,
        has_bias=has_bias,
        weight_init=HeUniform(math.sqrt(5)),
        bias_init=Uniform(1 / math.sqrt(n_in)),
        dtype=dtype,
    )


class MultiheadAttention(Cell):
    r"""Multi-head attention: ``concat(head_1, ..., head_h) W_o`` with
    ``head_i = softmax((Q W_q^i)(K W_k^i)^T / sqrt(d)) V W_v^i``.

    Args:
        embed_dim (int): model dimension; divisible by ``num_heads``.
        num_heads (int): heads.
        dropout (float): dropout on the attention weights (training). Default 0.0.
        has_bias (bool): biases on the input and output projections. Default True.
        add_bias_kv (bool): learnt ``bias_k``/``bias_v`` appended to the keys and values. Default False.
        add_zero_attn (bool): a zero key/value appended. Default False.
        kdim, vdim (int): key/value feature sizes. Default None (``embed_dim``).
        batch_first (bool): inputs are ``(batch, seq, feature)``. Default False.
        dtype: parameter dtype. Default float32.

    Inputs:
        - **query** ``(L, N, E)``, **key** ``(S, N, kdim)``, **value** ``(S, N, vdim)`` (or unbatched 2-D).
        - **key_padding_mask** ``(N, S)``, **need_weights** (default True), **attn_mask** ``(L, S)`` or
          ``(N * num_heads, L, S)``, **average_attn_weights** (default True).

    Outputs:
        ``(attn_output, attn_output_weights)``, or ``(attn_output,)`` when ``need_weights`` is False.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> mha = ms.nn.MultiheadAttention(8, 2)
        >>> x = ms.Tensor(np.ones([5, 3, 8], np.float32))
        >>> out, w = mha(x, x, x)
        >>> out.shape, w.shape
        ((5, 3, 8), (3, 5, 5))
    """

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        has_bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim: int | None = None,
        vdim: int | None = None,
        batch_first: bool = False,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        if dtype is None:
            dtype = mstype.float32
        if not self._qkv_same_embed_dim:
            self.q_proj_weight: Parameter | None = Parameter(
                initializer(XavierUniform(), (embed_dim, embed_dim), dtype), "q_proj_weight"
            )
            self.k_proj_weight: Parameter | None = Parameter(
                initializer(XavierUniform(), (embed_dim, self.kdim), dtype), "k_proj_weight"
            )
            self.v_proj_weight: Parameter | None = Parameter(
                initializer(XavierUniform(), (embed_dim, self.vdim), dtype), "v_proj_weight"
            )
            self.in_proj_weight: Parameter | None = None
        else:
            self.in_proj_weight = Parameter(
                initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype), "in_proj_weight"
            )
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        if has_bias:
            self.in_proj_bias: Parameter | None = Parameter(
                initializer("zeros", (3 * embed_dim,), dtype), "in_proj_bias"
            )
        else:
            self.in_proj_bias = None
        self.out_proj = _dense(embed_dim, embed_dim, has_bias=has_bias, dtype=dtype)
        if add_bias_kv:
            self.bias_k: Parameter | None = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_k")
            self.bias_v: Parameter | None = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_v")
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self.dtype = dtype

    def construct(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Tensor | None = None,
        need_weights: bool = True,
        attn_mask: Tensor | None = None,
        average_attn_weights: bool = True,
    ) -> tuple[Tensor, ...]:
        if key_padding_mask is not None:
            validator.check_attention_mask_dtype(key_padding_mask, mstype.bool_, mstype.Float, ValueError)
        q_is_k, k_is_v = query is key, key is value
        is_batched = query.ndim == 3
        if self.batch_first and is_batched:
            query, key, value = (ops.swapaxes(t, 1, 0) for t in (query, key, value))
        out, weights = multi_head_attention_forward(
            query,
            key,
            value,
            self.embed_dim,
            self.num_heads,
            self.in_proj_weight,
            self.in_proj_bias,
            self.bias_k,
            self.bias_v,
            self.add_zero_attn,
            float(self.dropout),
            self.out_proj.weight,
            self.out_proj.bias,
            training=bool(self.training),
            key_padding_mask=key_padding_mask,
            attn_mask=attn_mask,
            use_separate_proj_weight=not self._qkv_same_embed_dim,
            q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights,
            k_is_v=k_is_v,
            q_is_k=q_is_k,
            need_weights=bool(need_weights),
        )
        if self.batch_first and is_batched:
            out = ops.swapaxes(out, 1, 0)
        if need_weights:
            return out, weights
        return (out,)


def _get_activation_fn(activation: str) -> Any:
    if activation == "relu":
        return ops.relu
    if activation == "gelu":
        return ops.gelu
    raise ValueError(f"The activation must be relu/gelu, but get {activation}")


def _resolve_activation(activation: Any) -> Any:
    validator.check_transformer_activation(activation, Cell, (ReLU, GELU), (ops.relu, ops.gelu))
    return _get_activation_fn(activation) if isinstance(activation, str) else activation


class _LayerBase(Cell):
    """What the encoder and decoder layers share: the feed-forward block, norms and dropouts."""

    def _common(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int,
        dropout: float,
        activation: Any,
        layer_norm_eps: float,
        batch_first: bool,
        norm_first: bool,
        dtype: Any,
        n_norms: int,
    ) -> None:
        self.dense1 = _dense(d_model, dim_feedforward, dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = _dense(dim_feedforward, d_model, dtype=dtype)
        self.norm_first = norm_first
        for i in range(1, n_norms + 1):
            setattr(self, f"norm{i}", LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for i in range(1, n_norms + 1):
            setattr(self, f"dropout{i}", Dropout(p=dropout))
        self.activation1 = activation
        self.activation = _resolve_activation(activation)
        self.d_model = d_model
        self.nhead = nhead
        self.dim_feedforward = dim_feedforward
        self.dropout_num = dropout
        self.layernorm_eps = layer_norm_eps
        self.batch_first = batch_first
        self.dtype = dtype

    def _ff(self, x: Tensor, drop: Cell) -> Tensor:
        return drop(self.dense2(self.dropout(self.activation(self.dense1(x)))))

    def _attend(self, attn: Cell, x: Tensor, mem: Tensor, mask: Any, kpm: Any, drop: Cell) -> Tensor:
        return drop(attn(x, mem, mem, attn_mask=mask, key_padding_mask=kpm, need_weights=False)[0])


class TransformerEncoderLayer(_LayerBase):
    """Self-attention then a feed-forward block, each with a residual and a LayerNorm (after, or before with
    ``norm_first``).

    Args:
        d_model (int), nhead (int), dim_feedforward (int, default 2048), dropout (float, default 0.1),
        activation ('relu', 'gelu', nn.ReLU/nn.GELU, ops.relu/ops.gelu; default 'relu'),
        layer_norm_eps (default 1e-5), batch_first (default False), norm_first (default False), dtype.

    Inputs: **src**, **src_mask**, **src_key_padding_mask**. Outputs: a Tensor shaped as ``src``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> layer = ms.nn.TransformerEncoderLayer(8, 2, 16)
        >>> layer(ms.Tensor(np.ones([5, 3, 8], np.float32))).shape
        (5, 3, 8)
    """

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: Any = "relu",
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self._common(
            d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first, dtype, 2
        )

    def construct(
        self, src: Tensor, src_mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None
    ) -> Tensor:
        validator.check_attention_mask_dtype(src_key_padding_mask, mstype.bool_, mstype.Float, AssertionError)
        x = src
        if self.norm_first:
            h = self.norm1(x)
            x = x + self._attend(self.self_attn, h, h, src_mask, src_key_padding_mask, self.dropout1)
            x = x + self._ff(self.norm2(x), self.dropout2)
        else:
            x = self.norm1(x + self._attend(self.self_attn, x, x, src_mask, src_key_padding_mask, self.dropout1))
            x = self.norm2(x + self._ff(x, self.dropout2))
        return x


class TransformerDecoderLayer(_LayerBase):
    """Self-attention, attention over the encoder's ``memory``, then a feed-forward block, each with a residual
    and a LayerNorm. Args as :class:`TransformerEncoderLayer`.

    Inputs: **tgt**, **memory**, **tgt_mask**, **memory_mask**, **tgt_key_padding_mask**,
    **memory_key_padding_mask**.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> layer = ms.nn.TransformerDecoderLayer(8, 2, 16)
        >>> layer(ms.Tensor(np.ones([4, 3, 8], np.float32)), ms.Tensor(np.ones([5, 3, 8], np.float32))).shape
        (4, 3, 8)
    """

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: Any = "relu",
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self._common(
            d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first, dtype, 3
        )

    def construct(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
    ) -> Tensor:
        x = tgt
        if self.norm_first:
            h = self.norm1(x)
            x = x + self._attend(self.self_attn, h, h, tgt_mask, tgt_key_padding_mask, self.dropout1)
            h = self.norm2(x)
            x = x + self._attend(self.multihead_attn, h, memory, memory_mask, memory_key_padding_mask, self.dropout2)
            x = x + self._ff(self.norm3(x), self.dropout3)
        else:
            x = self.norm1(x + self._attend(self.self_attn, x, x, tgt_mask, tgt_key_padding_mask, self.dropout1))
            x = self.norm2(
                x + self._attend(self.multihead_attn, x, memory, memory_mask, memory_key_padding_mask, self.dropout2)
            )
            x = self.norm3(x + self._ff(x, self.dropout3))
        return x


class TransformerEncoder(Cell):
    """``num_layers`` copies of ``encoder_layer`` (fresh layers with its settings, as MindSpore) and an optional
    final ``norm``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> enc = ms.nn.TransformerEncoder(ms.nn.TransformerEncoderLayer(8, 2, 16), 2)
        >>> enc(ms.Tensor(np.ones([5, 3, 8], np.float32))).shape
        (5, 3, 8)
    """

    def __init__(self, encoder_layer: Cell, num_layers: int, norm: Cell | None = None) -> None:
        super().__init__()
        el = encoder_layer
        layer = TransformerEncoderLayer(
            el.d_model,
            el.nhead,
            el.dim_feedforward,
            el.dropout_num,
            el.activation1,
            el.layernorm_eps,
            el.batch_first,
            el.norm_first,
            dtype=el.dtype,
        )
        self.layers = CellList([copy.deepcopy(layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def construct(
        self, src: Tensor, src_mask: Tensor | None = None, src_key_padding_mask: Tensor | None = None
    ) -> Tensor:
        validator.check_attention_mask_dtype(src_key_padding_mask, mstype.bool_, mstype.Float, AssertionError)
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(Cell):
    """``num_layers`` copies of ``decoder_layer`` and an optional final ``norm``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> dec = ms.nn.TransformerDecoder(ms.nn.TransformerDecoderLayer(8, 2, 16), 2)
        >>> dec(ms.Tensor(np.ones([4, 3, 8], np.float32)), ms.Tensor(np.ones([5, 3, 8], np.float32))).shape
        (4, 3, 8)
    """

    def __init__(self, decoder_layer: Cell, num_layers: int, norm: Cell | None = None) -> None:
        super().__init__()
        dl = decoder_layer
        layer = TransformerDecoderLayer(
            dl.d_model,
            dl.nhead,
            dl.dim_feedforward,
            dl.dropout_num,
            dl.activation1,
            dl.layernorm_eps,
            dl.batch_first,
            dl.norm_first,
            dtype=dl.dtype,
        )
        self.layers = CellList([copy.deepcopy(layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def construct(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
    ) -> Tensor:
        output = tgt
        for mod in self.layers:
            output = mod(
                output,
                memory,
                tgt_mask=tgt_mask,
                memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
            )
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Cell):
    """An encoder-decoder Transformer (``TransformerEncoder`` + ``TransformerDecoder``, each with a final
    LayerNorm). Every parameter with more than one dimension is re-initialised with ``xavier_uniform``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.Transformer(8, 2, 1, 1, 16)
        >>> net(ms.Tensor(np.ones([5, 3, 8], np.float32)), ms.Tensor(np.ones([4, 3, 8], np.float32))).shape
        (4, 3, 8)
    """

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: Any = "relu",
        custom_encoder: Cell | None = None,
        custom_decoder: Cell | None = None,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            enc_layer = TransformerEncoderLayer(
                d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first, dtype
            )
            self.encoder = TransformerEncoder(
                enc_layer, num_encoder_layers, LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
            )
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            dec_layer = TransformerDecoderLayer(
                d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first, dtype
            )
            self.decoder = TransformerDecoder(
                dec_layer, num_decoder_layers, LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
            )
        for _, p in self.parameters_and_names():
            if p.ndim > 1:
                p.set_data(initializer("xavier_uniform", p.shape, p.dtype))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def construct(
        self,
        src: Tensor,
        tgt: Tensor,
        src_mask: Tensor | None = None,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
    ) -> Tensor:
        is_batched = src.ndim == 3
        if is_batched:
            axis = 0 if self.batch_first else 1
            if src.shape[axis] != tgt.shape[axis]:
                raise ValueError("The number of batch size for 'src' and 'tgt' must be equal.")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError("The number of features for 'src' and 'tgt' must be equal to `d_model`.")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(
            tgt,
            memory,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
        )
