"""Stacked recurrent layers with MindSpore's semantics (``nn.RNN``/``nn.GRU``/``nn.LSTM`` and their cells
call these). Each layer is one ``lax.scan`` over time (``ops/_lowering/rnn.py``); eagerly the whole stack is
one compiled program per configuration and shapes.
"""

from __future__ import annotations

from typing import Any

from ..._engine import jnp
from .._lowering import rnn as _rnn
from .._utils import as_tensor_array, compiled_op, wrap

__all__: list[str] = []


@compiled_op
def rnn_stack(
    mode: str,
    x: Any,
    h0: Any,
    c0: Any,
    weights: tuple[Any, ...],
    seq_length: Any,
    num_layers: int,
    bidirectional: bool,
    has_bias: bool,
    batch_first: bool,
    dropout: float,
    training: bool,
) -> tuple[Any, Any, Any]:
    """Run ``num_layers`` layers. ``weights`` is MindSpore's parameter order: all ``weight_ih`` (layer-major,
    forward then reverse), all ``weight_hh``, then (with ``has_bias``) all ``bias_ih``, all ``bias_hh``.

    Returns Tensors ``(output, h_n, c_n)`` (``c_n`` None unless LSTM), in ``x``'s dtype."""
    from .nn_func import dropout as _dropout

    xa = as_tensor_array(x)
    dt = xa.dtype
    d = 2 if bidirectional else 1
    n = num_layers * d
    ws = [as_tensor_array(w).astype(dt) for w in weights]
    w_ih, w_hh = ws[:n], ws[n : 2 * n]
    b_ih, b_hh = (ws[2 * n : 3 * n], ws[3 * n : 4 * n]) if has_bias else (None, None)
    h = as_tensor_array(h0).astype(dt)
    c = None if c0 is None else as_tensor_array(c0).astype(dt)
    sl = None if seq_length is None else as_tensor_array(seq_length)
    if batch_first:
        xa = jnp.swapaxes(xa, 0, 1)
    hs, cs = [], []
    for layer in range(num_layers):
        sel = slice(layer * d, layer * d + d)
        out, h_n, c_n = _rnn.rnn_layer(
            mode,
            xa,
            h[sel],
            None if c is None else c[sel],
            w_ih[sel],
            w_hh[sel],
            None if b_ih is None else b_ih[sel],
            None if b_hh is None else b_hh[sel],
            sl,
        )
        hs.append(h_n)
        if c_n is not None:
            cs.append(c_n)
        if training and dropout != 0 and layer < num_layers - 1:
            out = as_tensor_array(_dropout(wrap(out), p=dropout, training=True))
        xa = out
    if batch_first:
        xa = jnp.swapaxes(xa, 0, 1)
    h_out = jnp.concatenate(hs, axis=0)
    c_out = jnp.concatenate(cs, axis=0) if cs else None
    return wrap(xa), wrap(h_out), (None if c_out is None else wrap(c_out))


@compiled_op
def rnn_cell(mode: str, x: Any, h: Any, c: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any) -> tuple[Any, Any]:
    """One step of a cell (``nn.RNNCell``/``GRUCell``/``LSTMCell``); ``(h, c)`` as Tensors (``c`` None
    unless LSTM). Weights are cast to ``x``'s dtype."""
    xa = as_tensor_array(x)
    dt = xa.dtype

    def arr(t: Any) -> Any:
        return None if t is None else as_tensor_array(t).astype(dt)

    wi, wh, bi, bh = arr(w_ih), arr(w_hh), arr(b_ih), arr(b_hh)
    gi = jnp.matmul(xa, wi.T)
    if bi is not None:
        gi = gi + bi
    h_new, c_new = _rnn.cell_step(mode, gi, arr(h), arr(c), wh, bh)
    return wrap(h_new), (None if c_new is None else wrap(c_new))
