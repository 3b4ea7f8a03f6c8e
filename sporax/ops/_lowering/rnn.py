"""Recurrent layers as one ``lax.scan`` over time per layer (both directions of a bidirectional layer run
in the same scan, stacked on a leading direction axis).

The input projection ``x @ w_ih.T + b_ih`` of every time step is one GEMM before the scan; the scan body
does only the recurrent ``h @ w_hh.T`` and the gate arithmetic. Gate layouts are MindSpore's (and
PyTorch's): LSTM ``[i, f, g, o]``, GRU ``[r, z, n]`` (the ``n`` gate's hidden bias stays inside the reset
product), RNN one block. With ``seq_len``, steps at ``t >= seq_len[b]`` keep the state and output zeros,
and the reverse direction reads each sequence's valid prefix reversed (MindSpore's ``ReverseSequence``).

Everything here takes and returns jax arrays; ``ops.function.rnn_func`` keeps MindSpore's semantics.
"""

from __future__ import annotations

from typing import Any

from ..._engine import jax, jnp, lax

__all__ = ["GATES", "rnn_layer", "reverse_time_index", "cell_step", "lstm_gates_sequence", "gru_gates_sequence"]

#: gate blocks per mode (rows of ``w_ih`` / ``w_hh`` are ``GATES[mode] * hidden_size``)
GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def reverse_time_index(t_len: int, seq_len: Any) -> Any:
    """``[T, B]`` time indices that reverse each sequence's first ``seq_len[b]`` steps and keep the rest."""
    t = jnp.arange(t_len, dtype=jnp.int32)[:, None]
    n = seq_len.astype(jnp.int32)[None, :]
    return jnp.where(t < n, n - 1 - t, t)


def _reverse(x: Any, idx: Any) -> Any:
    """``x`` ``[T, B, ...]`` with time reversed (per-sequence when ``idx`` is given)."""
    if idx is None:
        return x[::-1]
    return jnp.take_along_axis(x, idx.reshape(idx.shape + (1,) * (x.ndim - 2)), axis=0)


def cell_step(mode: str, gi: Any, h: Any, c: Any, w_hh: Any, b_hh: Any) -> tuple[Any, Any]:
    """One step: ``gi`` is the input projection (bias included); returns ``(h, c)`` (``c`` None unless LSTM).

    ``h`` ``[..., B, H]`` and ``w_hh`` ``[..., G, H]`` share their leading (direction) axes."""
    gh = jnp.einsum("...bh,...gh->...bg", h, w_hh)
    if b_hh is not None:
        gh = gh + b_hh[..., None, :]
    if mode == "LSTM":
        i, f, g, o = jnp.split(gi + gh, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        return jax.nn.sigmoid(o) * jnp.tanh(c), c
    if mode == "GRU":
        i_r, i_z, i_n = jnp.split(gi, 3, axis=-1)
        h_r, h_z, h_n = jnp.split(gh, 3, axis=-1)
        r = jax.nn.sigmoid(i_r + h_r)
        z = jax.nn.sigmoid(i_z + h_z)
        n = jnp.tanh(i_n + r * h_n)
        return n + z * (h - n), None
    pre = gi + gh
    return (jnp.tanh(pre) if mode == "RNN_TANH" else jnp.maximum(pre, 0)), None


def rnn_layer(
    mode: str,
    x: Any,
    h0: Any,
    c0: Any,
    w_ih: Any,
    w_hh: Any,
    b_ih: Any,
    b_hh: Any,
    seq_len: Any = None,
) -> tuple[Any, Any, Any]:
    """One layer, ``D`` directions (1 or 2; direction 1 runs backwards in time), as one scan.

    Args:
        x: ``[T, B, I]``.
        h0, c0: ``[D, B, H]`` (``c0`` None unless LSTM).
        w_ih ``[D, G, I]``, w_hh ``[D, G, H]``, b_ih/b_hh ``[D, G]`` or None.
        seq_len: ``[B]`` valid lengths or None.

    Returns:
        ``(out [T, B, D * H], h_n [D, B, H], c_n [D, B, H] or None)``.
    """
    t_len = x.shape[0]
    d = w_ih.shape[0]
    idx = None if seq_len is None else reverse_time_index(t_len, seq_len)
    xs = x[None] if d == 1 else jnp.stack([x, _reverse(x, idx)])  # [D, T, B, I]
    gi = jnp.einsum("dtbi,dgi->tdbg", xs, w_ih)
    if b_ih is not None:
        gi = gi + b_ih[None, :, None, :]
    lstm = mode == "LSTM"
    if seq_len is None:

        def step(carry: Any, g: Any) -> tuple[Any, Any]:
            h, c = carry
            h, c = cell_step(mode, g, h, c, w_hh, b_hh)
            return (h, c), h

        (h_n, c_n), ys = lax.scan(step, (h0, c0 if lstm else None), gi)
    else:
        valid = (jnp.arange(t_len)[:, None] < seq_len[None, :])[:, None, :, None]  # [T, 1, B, 1]

        def step(carry: Any, inp: Any) -> tuple[Any, Any]:
            h, c = carry
            g, m = inp
            h_new, c_new = cell_step(mode, g, h, c, w_hh, b_hh)
            h = jnp.where(m, h_new, h)
            if lstm:
                c = jnp.where(m, c_new, c)
            return (h, c), jnp.where(m, h_new, jnp.zeros((), h_new.dtype))

        (h_n, c_n), ys = lax.scan(step, (h0, c0 if lstm else None), (gi, valid))
    # ys: [T, D, B, H]
    outs = [ys[:, 0]]
    if d == 2:
        outs.append(_reverse(ys[:, 1], idx))
    out = outs[0] if d == 1 else jnp.concatenate(outs, axis=-1)
    return out, h_n, c_n


def lstm_gates_sequence(
    x: Any, w: Any, b: Any, h0: Any, c0: Any, forget_bias: float = 0.0, cell_clip: float = -1.0
) -> tuple[Any, ...]:
    """MindSpore's fused-weight LSTM (``DynamicRNN``/``BasicLSTMCell``): ``w`` ``(I + H, 4H)`` with gate blocks
    ``[i, j, f, o]``, ``b`` ``(4H,)``; ``forget_bias`` added to ``f`` before its sigmoid; ``cell_clip > 0`` clips
    the cell state. One scan over ``x`` ``(T, B, I)``; returns every step's ``(h, c, i, j, f, o, tanh(c))``,
    each ``(T, B, H)``."""
    n_in = x.shape[-1]
    gx = jnp.einsum("tbi,ig->tbg", x, w[:n_in]) + b
    wh = w[n_in:]

    def step(carry: Any, g: Any) -> tuple[Any, Any]:
        h, c = carry
        i, j, f, o = jnp.split(g + h @ wh, 4, axis=-1)
        i, j, o = jax.nn.sigmoid(i), jnp.tanh(j), jax.nn.sigmoid(o)
        f = jax.nn.sigmoid(f + forget_bias)
        c = f * c + i * j
        if cell_clip > 0:
            c = jnp.clip(c, -cell_clip, cell_clip)
        tc = jnp.tanh(c)
        h = o * tc
        return (h, c), (h, c, i, j, f, o, tc)

    _, outs = lax.scan(step, (h0, c0), gx)
    return outs


def gru_gates_sequence(x: Any, wi: Any, wh: Any, bi: Any, bh: Any, h0: Any, gate_order: str = "rzh") -> tuple[Any, ...]:
    """MindSpore's ``DynamicGRUV2`` (reset after the hidden matmul): ``wi`` ``(I, 3H)``, ``wh`` ``(H, 3H)``, gate
    blocks in ``gate_order`` (``'rzh'`` or ``'zrh'``). One scan; returns every step's
    ``(h, z, r, n, W_hn h + b_hn)``, each ``(T, B, H)``."""
    gx = jnp.einsum("tbi,ig->tbg", x, wi)
    if bi is not None:
        gx = gx + bi

    def parts(g: Any) -> tuple[Any, Any, Any]:
        a, b_, n = jnp.split(g, 3, axis=-1)
        return (a, b_, n) if gate_order == "rzh" else (b_, a, n)

    def step(h: Any, g: Any) -> tuple[Any, Any]:
        gh = h @ wh
        if bh is not None:
            gh = gh + bh
        xr, xz, xn = parts(g)
        hr, hz, hn = parts(gh)
        r = jax.nn.sigmoid(xr + hr)
        z = jax.nn.sigmoid(xz + hz)
        n = jnp.tanh(xn + r * hn)
        h = (1 - z) * n + z * h
        return h, (h, z, r, n, hn)

    _, outs = lax.scan(step, h0, gx)
    return outs
