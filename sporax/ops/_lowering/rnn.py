"""Recurrent layers as one ``lax.scan`` over time per layer (both directions of a bidirectional layer run
in the same scan, stacked on a leading direction axis).

The input projection ``x @ w_ih.T + b_ih`` of every time step is one GEMM before the scan; the scan body
does only the recurrent ``h @ w_hh.T`` and the gate arithmetic. Gate layouts are MindSpore's (and
PyTorch's): LSTM ``[i, f, g, o]``, GRU ``[r, z, n]`` (the ``n`` gate's hidden bias stays inside the reset
product), RNN one block. With ``seq_len``, steps at ``t >= seq_len[b]`` keep the state and output zeros,
and the reverse direction reads each sequence's valid prefix reversed (MindSpore's ``ReverseSequence``).

How it runs on XLA:CPU (each choice measured on the 2-layer BiLSTM train step, b32, T32, H128): the
projection's output stays in its natural ``[T, B, D, G]`` layout and the scan reads direction 1 at ``T - 1 - t``
and writes its outputs there (no flipped or transposed copies of the sequence); the bias is added inside the
loop (no pass over the whole projection). The layer has its own backward pass (``_layer``) that computes every
weight gradient as one GEMM over all steps after the backward scan; the weights come in and their gradients go
out per direction (no stacking or slicing around the layer). The LSTM needs no residual or gradient buffers of
its own: each forward step writes its gate activations (one ``tanh`` over the whole gate block) over the
projection slots it has just read, each backward step its gate gradients over the activations it has just
read, so the gate gradients come out in the projection's layout and the input gradient, the input weights'
gradients and the biases' are one GEMM (one reduction) over both directions. The backward step builds the
gate gradients as one concatenate of the four gates' products along the ``4H`` axis (a stack on a ``[4, H]``
view times a derivative select ran at ~1.1 ns per element). On CPU each weight gradient is transposed once
into its own row-major buffer (``_materialized_transpose``) before the optimizer reads it. GRU/RNN keep one
stacked residual per step and write the gate gradients per direction (``[D, T, B, G]``). The other buffers the
scans fill (outputs, states, GRU/RNN residuals and gradients) start from zeros computed from the call's data,
not constants: inside sink mode's scan over train steps XLA hoists a constant zero buffer out of that loop and
copies it in at every step (about 11 MB per BiLSTM layer and step).

Measured without gain on XLA:CPU (jaxlib 0.10): unrolling the scan (2, 4, 8: no faster, compile time grows;
fully: 5x slower); residuals holding the gates' derivatives (``[..., 6, H]``, the backward step one product per
gate element: 20 % slower, XLA:CPU does not vectorise a fusion that selects per gate block over a ``[4, H]``
view of a ``[4H]`` row); stacking the two directions by a select instead of a concatenate (45 % slower); the
backward scan indexed by its own int32 counter or a carried index (a dynamic slice's start index inside a
loop-body fusion is reloaded per element either way); the LSTM residual in a buffer of its own, or the bias
added before the loop (same time); ``w_hh`` untransposed in the loop's dot (3 % slower); the weight gradients
from the gate gradients transposed once (XLA:CPU transposes the 4 MB matrix at ~2 ms: 23 % slower); a dot
contracting both operands' leading axes for the weight gradients (15 % slower).

Everything here takes and returns jax arrays; ``ops.function.rnn_func`` keeps MindSpore's semantics.
"""

from __future__ import annotations

import functools
from typing import Any

from ..._engine import jax, jnp, lax
from . import rnn_differentiated_by_jax

__all__ = ["GATES", "rnn_layer", "cell_step", "lstm_gates_sequence", "gru_gates_sequence"]

#: gate blocks per mode (rows of ``w_ih`` / ``w_hh`` are ``GATES[mode] * hidden_size``)
GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def cell_step(mode: str, gi: Any, h: Any, c: Any, w_hh: Any, b_hh: Any) -> tuple[Any, Any]:
    """One step: ``gi`` is the input projection (bias included); returns ``(h, c)`` (``c`` None unless LSTM).

    ``h`` ``[..., B, H]`` and ``w_hh`` ``[..., G, H]`` share their leading (direction) axes."""
    gh = jnp.einsum("...bh,...gh->...bg", h, w_hh)
    if b_hh is not None:
        gh = gh + b_hh[..., None, :]
    h, c, _ = _gates(mode, gi, gh, h, c)
    return h, c


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
        w_ih ``[D, G, I]``, w_hh ``[D, G, H]``, b_ih/b_hh ``[D, G]`` or None; or each a sequence of the ``D``
            directions' arrays (``ops.function.rnn_func`` passes the parameters so: their gradients then come
            back per direction, with no stacking and slicing around the layer).
        seq_len: ``[B]`` valid lengths or None.

    Returns:
        ``(out [T, B, D * H], h_n [D, B, H], c_n [D, B, H] or None)``.

    The reverse direction reads the input flipped in time. With ``seq_len`` the flipped sequence starts with
    ``T - seq_len[b]`` padding steps; those keep the initial state, so the valid steps see ``x[n-1], ..., x[0]``
    exactly as MindSpore's ``ReverseSequence`` gives them, without a gather.
    """
    t_len, batch = x.shape[0], x.shape[1]
    d = len(w_ih)
    mask = None
    if seq_len is not None:
        t = jnp.arange(t_len, dtype=jnp.int32)[:, None]
        n = seq_len.astype(jnp.int32)[None, :]
        steps = [t < n] + ([t >= t_len - n] if d == 2 else [])
        mask = jnp.stack(steps, axis=1)[..., None]  # [T, D, B, 1], in scan order
    ws = tuple(None if w is None else tuple(w[k] for k in range(d)) for w in (w_ih, w_hh, b_ih, b_hh))
    # inside ``forward_mode`` (jvp, jacfwd...) the scan as it is: its own backward is a custom VJP
    layer = _layer.fun if rnn_differentiated_by_jax() else _layer
    out, h_n, c_n = layer(mode, x, h0, c0, *ws, mask)
    return out.reshape(t_len, batch, -1), h_n, c_n


def _gates_in(x: Any, w_ih: Any) -> Any:
    """The input projections of every step and direction as one GEMM ``[T * B, I] x [I, D * G]``: ``[T, B, D, G]``
    in the GEMM's natural layout (the bias is added inside the loop: no pass over the whole projection)."""
    t_len, batch = x.shape[:2]
    gi = lax.dot_general(x.reshape(t_len * batch, -1), jnp.concatenate(w_ih), (((1,), (1,)), ((), ())))
    return gi.reshape(t_len, batch, len(w_ih), -1)


def _weight_grad(a: Any, dy: Any) -> Any:
    """``dy.T @ a`` (``a`` ``[N, K]``, ``dy`` ``[N, G]``) -> ``[G, K]``. XLA:CPU's fast GEMM takes ``[M, K] x [K, N]``
    and ``[M, K] x [N, K]``; a dot contracting the leading axis of both falls back to a slow kernel. Transposing
    the small operand ``a`` (not ``dy``), behind barriers so XLA folds neither transpose back into the dot, keeps
    it on the fast kernel; the GEMM's ``[K, G]`` result is then transposed once into its own buffer (see
    ``_materialized_transpose``)."""
    return _materialized_transpose(lax.optimization_barrier(lax.optimization_barrier(a.T) @ dy))


def _materialized_transpose(w: Any) -> Any:
    """``w.T`` in a row-major buffer of its own. On CPU XLA would fuse the transpose into every consumer (each
    of the optimizer's passes over the weight gradient then reads it strided, 2-4x slower than in order) or
    give the gradient a column-major layout that those passes transpose again; the flat result of a
    conditional (its two branches the same) can only be produced by one transposing pass. Other backends: the
    plain transpose (a conditional there would wait for its predicate on the host)."""
    from . import backend

    if backend() != "cpu":
        return w.T
    flat = lax.cond(_variant_zero(w) == 0, _flat_transpose, _flat_transpose, w)
    return flat.reshape(w.shape[::-1])


def _flat_transpose(w: Any) -> Any:
    return w.T.reshape(-1)


# ------------------------------------------------------------------------------------------------ recurrence
# ``_layer`` runs the scan over the precomputed input projections and has its own backward pass: the
# forward keeps one stacked residual per step (the gate activations), and the backward scan does one
# ``[B, G] x [G, H]`` dot and the gate arithmetic per step; the weight and bias gradients are one GEMM / one
# reduction over all steps after it (XLA's transpose of the scan would accumulate an outer product per step
# and keep a dozen per-step buffers).


def _lstm_activations(a: Any) -> Any:
    """``[sigmoid(i), sigmoid(f), tanh(g), sigmoid(o)]`` of the gate pre-activations ``a`` ``[..., 4H]`` as one
    ``tanh`` over the whole block (``sigmoid(x) = (1 + tanh(x / 2)) / 2``): one elementwise pass XLA fuses."""
    h4 = a.shape[-1]
    col = jnp.arange(h4)
    is_g = (col >= h4 // 2) & (col < 3 * h4 // 4)
    half = jnp.asarray(0.5, a.dtype)
    t = jnp.tanh(a * jnp.where(is_g, jnp.asarray(1, a.dtype), half))
    return jnp.where(is_g, t, t * half + half)


def _step_fwd(mode: str, g: Any, h: Any, c: Any, w_hh_t: Any, b_hh: Any) -> tuple[Any, Any, Any]:
    """``(h_new, c_new, residual)`` for one step of all directions (``h`` ``[D, B, H]``, ``w_hh_t`` ``[D, H, G]``)."""
    gh = jnp.einsum("dbh,dhg->dbg", h, w_hh_t)
    if b_hh is not None:
        gh = gh + b_hh[:, None, :]
    return _gates(mode, g, gh, h, c)


def _gates(mode: str, g: Any, gh: Any, h: Any, c: Any) -> tuple[Any, Any, Any]:
    """The gate arithmetic of one step from the input and hidden projections ``g``, ``gh`` (biases included):
    ``(h_new, c_new, residual)`` (``c_new`` None unless LSTM; the residual is what the backward pass reads)."""
    if mode == "LSTM":
        act = _lstm_activations(g + gh)
        i, f, gg, o = jnp.split(act, 4, axis=-1)
        c_new = f * c + i * gg
        return o * jnp.tanh(c_new), c_new, act
    if mode == "GRU":
        i_r, i_z, i_n = jnp.split(g, 3, axis=-1)
        h_r, h_z, h_n = jnp.split(gh, 3, axis=-1)
        r = jax.nn.sigmoid(i_r + h_r)
        z = jax.nn.sigmoid(i_z + h_z)
        n = jnp.tanh(i_n + r * h_n)
        return n + z * (h - n), None, jnp.concatenate([r, z, n, h_n], axis=-1)
    pre = g + gh
    return (jnp.tanh(pre) if mode == "RNN_TANH" else jnp.maximum(pre, 0)), None, None


def _at_step(seq: Any, t: Any) -> Any:
    """``seq`` ``[T, B, D, F]`` in time order -> ``[D, B, F]`` at scan step ``t`` (direction 1 reads ``T - 1 - t``)."""
    fwd = lax.dynamic_index_in_dim(seq, t, 0, keepdims=False)[:, 0]
    if seq.shape[2] == 1:
        return fwd[None]
    bwd = lax.dynamic_index_in_dim(seq, seq.shape[0] - 1 - t, 0, keepdims=False)[:, 1]
    return jnp.stack([fwd, bwd])


def _put_step(buf: Any, t: Any, val: Any) -> Any:
    """Write ``val`` ``[D, B, F]`` of scan step ``t`` into ``buf`` ``[T, B, D, F]`` in time order."""
    zero = jnp.zeros((), t.dtype)
    buf = lax.dynamic_update_slice(buf, val[0][None, :, None], (t, zero, zero, zero))
    if buf.shape[2] == 2:
        buf = lax.dynamic_update_slice(buf, val[1][None, :, None], (buf.shape[0] - 1 - t, zero, zero + 1, zero))
    return buf


def _scan_fwd(
    mode: str, gi: Any, b_in: Any, h0: Any, c0: Any, w_hh: Any, b_hh: Any, mask: Any, keep: bool
) -> tuple[Any, ...]:
    """The forward scan; ``(out [T, B, D, H], h_n, c_n, hs, cs, res)`` (the last three only with ``keep``; ``hs``
    and ``cs`` in scan order; ``res`` in scan order ``[T, D, B, F]``, or for LSTM in the projection's time-order
    layout ``[T, B, D, 4H]``: each step writes its gate activations over the projections it has just read, so
    the residual needs no buffer of its own). ``b_in`` ``[D, G]`` (or None) is added to the projections."""
    lstm = mode == "LSTM"
    in_place = keep and lstm
    t_len, batch, d = gi.shape[:3]
    w_hh_t = jnp.swapaxes(w_hh, 1, 2)

    zero = jnp.zeros((), h0.dtype)

    def step(carry: Any, t: Any) -> tuple[Any, None]:
        h, c, out, bufs = carry
        src = bufs[2] if in_place else gi
        g = _at_step(src, t)
        if b_in is not None:
            g = g + b_in[:, None, :]
        h_new, c_new, res = _step_fwd(mode, g, h, c, w_hh_t, b_hh)
        y = h_new
        if mask is not None:
            m = lax.dynamic_index_in_dim(mask, t, 0, keepdims=False)
            y = jnp.where(m, h_new, zero)
            h_new = jnp.where(m, h_new, h)
            if lstm:
                c_new = jnp.where(m, c_new, c)
        out = _put_step(out, t, y)
        if keep:
            put = (
                (lambda b, v: _put_step(b, t, v))
                if in_place
                else (lambda b, v: lax.dynamic_update_index_in_dim(b, v, t, 0))
            )
            bufs = tuple(
                None if b is None else lax.dynamic_update_index_in_dim(b, v, t, 0)
                for b, v in zip(bufs[:2], (h_new, c_new), strict=True)
            ) + (None if bufs[2] is None else put(bufs[2], res),)
        return (h_new, c_new, out, bufs), None

    # every buffer the loop fills starts from a zero that depends on this call's data (a constant one would be
    # hoisted out of an enclosing loop, sink mode's scan over steps, and copied in at every step), each buffer
    # from its own (XLA would merge equal broadcasts and copy one of them)
    def buf(like: Any, k: int) -> Any:
        return None if like is None or not keep else jnp.broadcast_to(_variant_zero(gi, k), (t_len, *like.shape))

    res_like = jax.eval_shape(lambda: _step_fwd(mode, _at_step(gi, 0), h0, c0, w_hh_t, b_hh)[2])
    out0 = jnp.broadcast_to(_variant_zero(gi), (t_len, batch, d, h0.shape[-1]))
    bufs0 = (buf(h0, 1), buf(c0 if lstm else None, 2), gi if in_place else buf(res_like, 3))
    steps = jnp.arange(t_len, dtype=jnp.int32)
    (h_n, c_n, out, (hs, cs, res)), _ = lax.scan(step, (h0, c0 if lstm else None, out0, bufs0), steps)
    return out, h_n, c_n, hs, cs, res


def _variant_zero(x: Any, k: int = 0) -> Any:
    """A scalar zero of ``x``'s dtype computed from ``x`` (XLA keeps ``x * 0`` for floats: NaN and inf give NaN),
    so that a buffer initialised from it stays inside any loop that ``x`` varies in. Every element of such a
    buffer is written before it is read."""
    if x.size == 0:
        return jnp.zeros((), x.dtype)
    return x.reshape(-1)[k % x.size] * jnp.zeros((), x.dtype)


def _shift(first: Any, seq: Any) -> Any:
    """``[first, seq[0], ..., seq[T-2]]``: the state before each step."""
    return jnp.concatenate([first[None], seq[:-1]], axis=0)


@functools.partial(jax.custom_vjp, nondiff_argnums=(0,))
def _layer(
    mode: str, x: Any, h0: Any, c0: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any, mask: Any
) -> tuple[Any, Any, Any]:
    """``(out [T, B, D, H], h_n, c_n)`` of one layer (``out`` in time order; direction 1 runs from ``T - 1`` down);
    ``mask`` ``[T, D, B, 1]`` (scan order) or None: a masked step keeps the state and outputs zeros. ``c_n`` is
    None unless LSTM. The weights and biases are tuples of the directions' arrays."""
    gi, b_in, w_hh_s, b_hh_s = _inputs(mode, x, w_ih, w_hh, b_ih, b_hh)
    out, h_n, c_n, _, _, _ = _scan_fwd(mode, gi, b_in, h0, c0, w_hh_s, b_hh_s, mask, keep=False)
    return out, h_n, c_n


def _inputs(mode: str, x: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any) -> tuple[Any, Any, Any, Any]:
    """The scan's inputs: the input projections (without bias), the bias the loop adds to them ``[D, G]``, the
    stacked ``w_hh`` and the hidden bias left for the loop. Outside GRU the hidden bias adds to the input
    projection's (one add per step, not two)."""
    if mode != "GRU" and b_hh is not None:
        b_ih = b_hh if b_ih is None else tuple(a + b for a, b in zip(b_ih, b_hh, strict=True))
        b_hh = None
    b_in = None if b_ih is None else jnp.stack(b_ih)
    return _gates_in(x, w_ih), b_in, jnp.stack(w_hh), None if b_hh is None else jnp.stack(b_hh)


def _layer_fwd(
    mode: str, x: Any, h0: Any, c0: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any, mask: Any
) -> tuple[Any, Any]:
    gi, b_in, w_hh_s, b_hh_s = _inputs(mode, x, w_ih, w_hh, b_ih, b_hh)
    out, h_n, c_n, hs, cs, res = _scan_fwd(mode, gi, b_in, h0, c0, w_hh_s, b_hh_s, mask, keep=True)
    return (out, h_n, c_n), (x, h0, c0, w_ih, w_hh, b_ih, b_hh, mask, hs, cs, res)


def _layer_bwd(mode: str, saved: Any, cts: Any) -> tuple[Any, ...]:
    x, h0, c0, w_ih, w_hh, b_ih, b_hh, mask, hs, cs, res = saved
    dgi, dgh, dh0, dc0, hp_time = _scan_bwd(mode, h0, c0, jnp.stack(w_hh), mask, hs, cs, res, cts)
    d = len(w_ih)
    n = x.shape[0] * x.shape[1]
    xm = x.reshape(n, -1)
    hp_m = hp_time.reshape(d, n, -1)
    if mode == "LSTM":
        # dgi (= dgh) [T, B, D, G] in time order, the projection's layout: one GEMM over both directions for the
        # input gradient, the input weights' gradients and the biases'
        g = dgi.shape[-1]
        dgi_all = dgi.reshape(n, d * g)
        dx = dgi_all @ jnp.concatenate(w_ih)
        dw_all = _weight_grad(xm, dgi_all)
        dw_ih = tuple(dw_all[k * g : (k + 1) * g] for k in range(d))
        db_all = dgi_all.sum(axis=0)
        db = tuple(db_all[k * g : (k + 1) * g] for k in range(d))
        db_ih, db_hh = (None if b is None else db for b in (b_ih, b_hh))
        dw_hh = tuple(_weight_grad(hp_m[k], dgi[:, :, k].reshape(n, g)) for k in range(d))
        return dx.reshape(x.shape), dh0, dc0, dw_ih, dw_hh, db_ih, db_hh, None
    # dgi, dgh, hp_time: [D, T, B, *] in time order, so every direction's slice is one contiguous matrix
    g = dgi.shape[-1]
    dgi_m, dgh_m = dgi.reshape(d, n, g), dgh.reshape(d, n, g)
    dx = dgi_m[0] @ w_ih[0]
    for k in range(1, d):
        dx = dx + dgi_m[k] @ w_ih[k]
    dw_ih = tuple(_weight_grad(xm, dgi_m[k]) for k in range(d))
    dw_hh = tuple(_weight_grad(hp_m[k], dgh_m[k]) for k in range(d))
    db_ih = None if b_ih is None else tuple(dgi_m[k].sum(axis=0) for k in range(d))
    db_hh = None if b_hh is None else tuple(dgh_m[k].sum(axis=0) for k in range(d))
    return dx.reshape(x.shape), dh0, dc0, dw_ih, dw_hh, db_ih, db_hh, None


_layer.defvjp(_layer_fwd, _layer_bwd)


def _put_dir(buf: Any, t: Any, val: Any) -> Any:
    """Write ``val`` ``[D, B, F]`` of scan step ``t`` into ``buf`` ``[D, T, B, F]`` in time order."""
    zero = jnp.zeros((), t.dtype)
    buf = lax.dynamic_update_slice(buf, val[:1, None], (zero, t, zero, zero))
    if buf.shape[0] == 2:
        buf = lax.dynamic_update_slice(buf, val[1:, None], (zero + 1, buf.shape[1] - 1 - t, zero, zero))
    return buf


def _scan_bwd(
    mode: str, h0: Any, c0: Any, w_hh: Any, mask: Any, hs: Any, cs: Any, res: Any, cts: Any
) -> tuple[Any, ...]:
    """The backward scan: ``(dgi, dgh, dh0, dc0, hp_time)``, the gradients of the input and hidden projections
    and the state before each step, each ``[D, T, B, *]`` in time order; for LSTM ``dgi`` (= ``dgh``) is
    ``[T, B, D, G]``, written over the residual ``res`` (same layout) slot by slot as the steps read it."""
    d_out, d_hn, d_cn = cts
    lstm = mode == "LSTM"
    t_len, d, batch = hs.shape[:3]
    h_prev = _shift(h0, hs)  # [T, D, B, H], scan order
    c_prev = _shift(c0, cs) if lstm else None
    zero = jnp.zeros((), hs.dtype)

    def step(carry: Any, inp: Any) -> tuple[Any, Any]:
        dh, dc, dgi_buf, dgh_buf = carry
        t, m, hp, cp, c_t, r_t, h_t = inp
        if lstm:
            r_t = _at_step(dgi_buf, t)
        dy = _at_step(d_out, t)
        if m is None:
            dh_new, dh_keep = dh + dy, None
        else:
            dh_new, dh_keep = jnp.where(m, dh + dy, zero), jnp.where(m, zero, dh)
        if lstm:
            dc_new, dc_keep = (dc, None) if m is None else (jnp.where(m, dc, zero), jnp.where(m, zero, dc))
            r4 = r_t.reshape(r_t.shape[:-1] + (4, -1))
            i, f, gg, o = (r4[..., k, :] for k in range(4))
            tc = jnp.tanh(c_t)
            dc_new = dc_new + dh_new * o * (1 - tc * tc)
            da = jnp.concatenate(
                [
                    dc_new * gg * (i - i * i),
                    dc_new * cp * (f - f * f),
                    dc_new * i * (1 - gg * gg),
                    dh_new * tc * (o - o * o),
                ],
                axis=-1,
            )
            dgi = dgh = da
            dc = dc_new * f if dc_keep is None else dc_new * f + dc_keep
            dh_direct = dh_keep
        elif mode == "GRU":
            r, z, n, hn = jnp.split(r_t, 4, axis=-1)
            dan = dh_new * (1 - z) * (1 - n * n)
            dar = dan * hn * r * (1 - r)
            daz = dh_new * (hp - n) * z * (1 - z)
            dgi = jnp.concatenate([dar, daz, dan], axis=-1)
            dgh = jnp.concatenate([dar, daz, dan * r], axis=-1)
            dh_direct = dh_new * z if dh_keep is None else dh_new * z + dh_keep
        else:
            deriv = (1 - h_t * h_t) if mode == "RNN_TANH" else (h_t > 0).astype(h_t.dtype)
            dgi = dgh = dh_new * deriv
            dh_direct = dh_keep
        dh = jnp.einsum("dbg,dgh->dbh", dgh, w_hh)
        if dh_direct is not None:
            dh = dh + dh_direct
        dgi_buf = _put_step(dgi_buf, t, dgi) if lstm else _put_dir(dgi_buf, t, dgi)
        if dgh_buf is not None:
            dgh_buf = _put_dir(dgh_buf, t, dgh)
        return (dh, dc, dgi_buf, dgh_buf), None

    xs = (
        jnp.arange(t_len, dtype=jnp.int32),
        mask,
        h_prev if mode == "GRU" else None,
        c_prev,
        cs,
        None if lstm else res,
        hs if mode not in ("LSTM", "GRU") else None,
    )
    g = w_hh.shape[1]

    # the buffers start from zeros computed from the cotangents (see ``_scan_fwd``); one of the two is a
    # constant where the layer's output or final state is not used
    def buf(k: int) -> Any:
        return jnp.broadcast_to(_variant_zero(d_out, k) + _variant_zero(d_hn, k), (d, t_len, batch, g))

    init = (d_hn, d_cn if lstm else None, res if lstm else buf(0), buf(1) if mode == "GRU" else None)
    (dh0, dc0, dgi, dgh), _ = lax.scan(step, init, xs, reverse=True)
    dgh = dgi if dgh is None else dgh
    # the state before each step, in time order, for the weight gradient over all steps at once
    hp_time = h_prev[:, 0][None] if d == 1 else jnp.stack([h_prev[:, 0], h_prev[::-1, 1]])
    return dgi, dgh, dh0, dc0, hp_time


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
