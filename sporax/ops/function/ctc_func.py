"""Connectionist temporal classification (``ops.ctc_loss``, ``ops.CTCLoss``, ``ops.CTCLossV2``,
``ops.ctc_greedy_decoder``) and the RNN-transducer loss (``ops.RNNTLoss``).

The CTC forward variable is computed in log space as one ``lax.scan`` over time, all sequences of the
batch at once; its gradient is the autodiff of that scan. States that cannot be reached are ``-inf``
and get zero gradient (the log-sum-exp below never takes the log of 0 on a path that is differentiated).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._engine import jax, jnp, lax
from ...common.tensor import Tensor
from .._utils import compiled_op, wrap

__all__ = ["ctc_loss", "ctc_greedy_decoder"]


def _lse(*xs: Any) -> Any:
    """``log(sum(exp(x)))`` of same-shape arrays, ``-inf`` where all are ``-inf``, with finite gradients."""
    m = xs[0]
    for x in xs[1:]:
        m = jnp.maximum(m, x)
    fin = jnp.isfinite(m)
    ms = lax.stop_gradient(jnp.where(fin, m, jnp.zeros_like(m)))
    s = sum(jnp.exp(x - ms) for x in xs)
    pos = s > 0
    return jnp.where(pos, jnp.log(jnp.where(pos, s, jnp.ones_like(s))) + ms, jnp.full_like(m, -jnp.inf))


def ctc_alpha(
    log_probs: Any,
    ext: Any,
    ext_len: Any,
    input_lengths: Any,
    blank: int,
    merge_repeated: bool = True,
) -> tuple[Any, Any]:
    """The forward variables of CTC.

    Args:
        log_probs: ``(T, N, C)`` log-probabilities.
        ext: ``(N, L)`` extended labels (blank, l1, blank, l2, ..., blank), padded with blank.
        ext_len: ``(N,)`` the used length of ``ext`` (``2 * target_length + 1``).
        input_lengths: ``(N,)`` frames used per sequence.
        merge_repeated: False allows no repeat of a label state (TensorFlow's ``ctc_merge_repeated=False``).

    Returns:
        ``(log_alpha, loglik)``: ``(N, T, L)`` log alphas (frozen after each input length) and ``(N,)``
        log-likelihoods.
    """
    t_max, n, _ = log_probs.shape
    L = ext.shape[1]
    dt = log_probs.dtype
    neg_inf = jnp.asarray(-jnp.inf, dt)
    emit = jnp.take_along_axis(log_probs, jnp.broadcast_to(ext[None], (t_max, n, L)), axis=2)  # (T, N, L)
    s_idx = jnp.arange(L)[None, :]
    in_seq = s_idx < ext_len[:, None]
    prev2 = jnp.concatenate([jnp.full((n, 2), -1, ext.dtype), ext[:, :-2]], axis=1)
    skip_ok = (ext != blank) & (s_idx >= 2)
    if merge_repeated:
        skip_ok = skip_ok & (ext != prev2)
    stay_ok = jnp.ones_like(skip_ok) if merge_repeated else (ext == blank)
    alpha0 = jnp.where((s_idx < 2) & in_seq, emit[0], neg_inf)

    def shift(a: Any, k: int) -> Any:
        return jnp.concatenate([jnp.full((n, k), -jnp.inf, dt), a[:, :-k]], axis=1)

    def step(alpha: Any, xs: Any) -> tuple[Any, Any]:
        e, t = xs
        stay = jnp.where(stay_ok, alpha, neg_inf)
        skip = jnp.where(skip_ok, shift(alpha, 2), neg_inf)
        new = _lse(stay, shift(alpha, 1), skip) + e
        new = jnp.where(in_seq, new, neg_inf)
        new = jnp.where((t < input_lengths)[:, None], new, alpha)
        return new, new

    if t_max > 1:
        _, rest = lax.scan(step, alpha0, (emit[1:], jnp.arange(1, t_max)))
        alphas = jnp.concatenate([alpha0[None], rest], axis=0)
    else:
        alphas = alpha0[None]
    last = alphas[-1]
    end1 = jnp.take_along_axis(last, jnp.maximum(ext_len - 1, 0)[:, None], axis=1)[:, 0]
    end2 = jnp.take_along_axis(last, jnp.maximum(ext_len - 2, 0)[:, None], axis=1)[:, 0]
    end2 = jnp.where(ext_len >= 2, end2, neg_inf)
    loglik = _lse(end1, end2)
    loglik = jnp.where(input_lengths > 0, loglik, jnp.where(ext_len == 1, jnp.zeros_like(loglik), neg_inf))
    # frames past an input length are -inf in log_alpha (as MindSpore's kernel leaves them)
    t_ok = (jnp.arange(t_max)[:, None] < input_lengths[None, :])[:, :, None]
    alphas = jnp.where(t_ok, alphas, neg_inf)
    return jnp.transpose(alphas, (1, 0, 2)), loglik


def _extend(targets: Any, target_lengths: Any, blank: int) -> tuple[Any, Any]:
    n, s = targets.shape
    ext = jnp.full((n, 2 * s + 1), blank, targets.dtype)
    ext = ext.at[:, 1::2].set(jnp.where(jnp.arange(s)[None] < target_lengths[:, None], targets, blank))
    return ext, 2 * target_lengths + 1


def _int_tensor(x: Any, name: str, op: str) -> Any:
    if isinstance(x, Tensor):
        return x._data
    if isinstance(x, (list, tuple)):
        return jnp.asarray(np.asarray(x, np.int64))
    raise TypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")


def ctc_loss_v2(
    log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any, blank: int, zero_infinity: bool, op: str
) -> tuple[Tensor, Tensor]:
    """``(neg_log_likelihood (N,), log_alpha (N, T, 2S+1))`` (``ops.CTCLossV2`` with reduction 'none')."""
    lp = log_probs._data if isinstance(log_probs, Tensor) else None
    if lp is None:
        raise TypeError(f"For '{op}', the 'log_probs' must be a Tensor, but got {type(log_probs).__name__}.")
    if lp.ndim != 3:
        raise ValueError(f"For '{op}', the 'log_probs' must be 3-D (T, N, C), but got {lp.ndim}-D.")
    if not jnp.issubdtype(lp.dtype, jnp.floating):
        raise TypeError(f"For '{op}', the dtype of 'log_probs' must be float32 or float64, but got {log_probs.dtype}.")
    t_max, n, c = lp.shape
    tg = _int_tensor(targets, "targets", op)
    if tg.ndim != 2 or tg.shape[0] != n:
        raise ValueError(f"For '{op}', the 'targets' must be 2-D (N, S) with N = {n}, but got {tuple(tg.shape)}.")
    il = _int_tensor(input_lengths, "input_lengths", op)
    tl = _int_tensor(target_lengths, "target_lengths", op)
    for name, v in (("input_lengths", il), ("target_lengths", tl)):
        if tuple(v.shape) != (n,):
            raise ValueError(f"For '{op}', the '{name}' shape must be ({n},), but got {tuple(v.shape)}.")
    if not 0 <= blank < c:
        raise ValueError(f"For '{op}', the 'blank' must be in [0, {c}), but got {blank}.")
    if not any(isinstance(v, jax.core.Tracer) for v in (tg, il, tl)):
        il_np, tl_np, tg_np = np.asarray(il), np.asarray(tl), np.asarray(tg)
        if (il_np > t_max).any() or (il_np < 0).any():
            raise ValueError(f"For '{op}', the 'input_lengths' must be in [0, {t_max}], but got {il_np.tolist()}.")
        if (tl_np > tg_np.shape[1]).any() or (tl_np < 0).any():
            raise ValueError(
                f"For '{op}', the 'target_lengths' must be in [0, {tg_np.shape[1]}], but got {tl_np.tolist()}."
            )
        used = np.arange(tg_np.shape[1])[None] < tl_np[:, None]
        if ((tg_np < 0) | (tg_np >= c))[used].any():
            raise ValueError(f"For '{op}', the 'targets' must be in [0, {c}), but got {tg_np[used].tolist()}.")
    nll, log_alpha = _ctc_v2(log_probs, wrap(tg), wrap(il), wrap(tl), blank, zero_infinity)
    return nll, log_alpha


def _ctc_nll_impl(lp: Any, ext: Any, ext_len: Any, il: Any, blank: int) -> tuple[Any, Any]:
    log_alpha, loglik = ctc_alpha(lp, ext, ext_len, il, blank)
    return -loglik, log_alpha


@functools.partial(jax.custom_vjp, nondiff_argnums=(4,))
def _ctc_nll(lp: Any, ext: Any, ext_len: Any, il: Any, blank: int) -> tuple[Any, Any]:
    """``(nll, log_alpha)`` per sequence (one scan), with MindSpore's (and PyTorch's) gradient convention
    for ``nll``: ``exp(log_probs) - posterior`` on the frames each sequence uses, i.e. the gradient with
    respect to the logits of a log_softmax that produced ``log_probs``; 0 on other frames and for infinite
    losses. ``log_alpha`` carries no gradient."""
    return _ctc_nll_impl(lp, ext, ext_len, il, blank)


def _ctc_nll_fwd(lp: Any, ext: Any, ext_len: Any, il: Any, blank: int) -> tuple[Any, Any]:
    (nll, log_alpha), vjp = jax.vjp(lambda x: _ctc_nll_impl(x, ext, ext_len, il, blank), lp)
    return (nll, log_alpha), (vjp, lp, il, nll, log_alpha)


def _ctc_nll_bwd(blank: int, res: Any, g: Any) -> tuple[Any, None, None, None]:
    vjp, lp, il, nll, log_alpha = res
    (true_grad,) = vjp((g[0], jnp.zeros_like(log_alpha)))
    used = (jnp.arange(lp.shape[0])[:, None] < il[None, :]) & jnp.isfinite(nll)[None, :]
    grad = jnp.where(used[:, :, None], true_grad + jnp.exp(lp) * g[0][None, :, None], jnp.zeros_like(lp))
    return grad, None, None, None


_ctc_nll.defvjp(_ctc_nll_fwd, _ctc_nll_bwd)


@compiled_op
def _ctc_v2(log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any, blank: int, zero_infinity: bool):
    lp = log_probs._data
    tg = targets._data.astype(jnp.int32)
    il = input_lengths._data.astype(jnp.int32)
    tl = target_lengths._data.astype(jnp.int32)
    ext, ext_len = _extend(tg, tl, blank)
    nll, log_alpha = _ctc_nll(lp, ext, ext_len, il, blank)
    if zero_infinity:
        nll = jnp.where(jnp.isinf(nll), jnp.zeros_like(nll), nll)
    return wrap(nll), wrap(log_alpha)


def ctc_loss(
    log_probs: Any,
    targets: Any,
    input_lengths: Any,
    target_lengths: Any,
    blank: int = 0,
    reduction: str = "mean",
    zero_infinity: bool = False,
) -> tuple[Tensor, Tensor]:
    """CTC loss of ``(T, N, C)`` log-probabilities against padded ``(N, S)`` targets: ``(loss, log_alpha)``.

    'mean' divides each sequence's loss by its target length (at least 1) and averages over the batch.
    """
    op = "ctc_loss"
    validator.check_value_type("blank", blank, [int], op)
    validator.check_value_type("reduction", reduction, [str], op)
    validator.check_string(reduction, ["none", "sum", "mean"], "reduction", op)
    validator.check_value_type("zero_infinity", zero_infinity, [bool], op)
    nll, log_alpha = ctc_loss_v2(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity, op)
    if reduction == "none":
        return nll, log_alpha
    return _ctc_reduce(nll, wrap(_int_tensor(target_lengths, "target_lengths", op)), reduction), log_alpha


@compiled_op
def _ctc_reduce(nll: Any, target_lengths: Any, reduction: str) -> Tensor:
    loss = nll._data
    if reduction == "sum":
        return wrap(jnp.sum(loss))
    tl = jnp.maximum(target_lengths._data.astype(jnp.float32), 1.0)
    return wrap(jnp.mean(loss.astype(jnp.float32) / tl).astype(loss.dtype))


# ----------------------------------------------------- TensorFlow-style CTCLoss
def ctc_loss_tf(
    inputs: Any,
    labels_indices: Any,
    labels_values: Any,
    sequence_length: Any,
    preprocess_collapse_repeated: bool,
    ctc_merge_repeated: bool,
    ignore_longer_outputs_than_inputs: bool,
) -> tuple[Tensor, Tensor]:
    """``ops.CTCLoss``: ``(max_time, batch, num_classes)`` logits (softmax taken here), blank = the last
    class, labels as a sparse tensor (``labels_indices`` ``(n, 2)`` in row-major order, ``labels_values``
    ``(n,)``); returns ``(loss (batch,), gradient w.r.t. inputs)``. Traceable (labels become dense
    ``(batch, n)`` targets inside the program); concrete labels are checked on the host."""
    op = "CTCLoss"
    x = inputs._data if isinstance(inputs, Tensor) else None
    if x is None or x.ndim != 3:
        raise ValueError(f"For '{op}', the 'inputs' must be a 3-D Tensor (max_time, batch, num_classes).")
    t_max, n, c = x.shape
    idx = _int_tensor(labels_indices, "labels_indices", op)
    vals = _int_tensor(labels_values, "labels_values", op)
    seq = _int_tensor(sequence_length, "sequence_length", op)
    if idx.ndim != 2 or idx.shape[1] != 2 or tuple(vals.shape) != (idx.shape[0],):
        raise ValueError(
            f"For '{op}', the 'labels_indices' must be (n, 2) and 'labels_values' (n,), "
            f"but got {tuple(idx.shape)} and {tuple(vals.shape)}."
        )
    if tuple(seq.shape) != (n,):
        raise ValueError(f"For '{op}', the 'sequence_length' shape must be ({n},), but got {tuple(seq.shape)}.")
    if not any(isinstance(v, jax.core.Tracer) for v in (idx, vals, seq)):
        _verify_tf_labels(
            np.asarray(idx),
            np.asarray(vals),
            np.asarray(seq),
            t_max,
            n,
            c,
            op,
            preprocess_collapse_repeated,
            ctc_merge_repeated,
            ignore_longer_outputs_than_inputs,
        )
    return _ctc_tf(inputs, wrap(idx), wrap(vals), wrap(seq), preprocess_collapse_repeated, ctc_merge_repeated)


def _verify_tf_labels(idx, vals, seq, t_max, n, c, op, collapse, merge, ignore_longer) -> None:
    if (seq > t_max).any() or (seq < 0).any():
        raise ValueError(f"For '{op}', the 'sequence_length' must be in [0, {t_max}], but got {seq.tolist()}.")
    if idx.shape[0] and ((idx[:, 0] < 0).any() or (idx[:, 0] >= n).any()):
        raise ValueError(f"For '{op}', the batch index of 'labels_indices' must be in [0, {n}).")
    labels: list[list[int]] = [[] for _ in range(n)]
    for (b, _), v in sorted(zip(map(tuple, idx.tolist()), vals.tolist())):
        labels[b].append(int(v))
    if collapse:
        labels = [[v for i, v in enumerate(lab) if i == 0 or v != lab[i - 1]] for lab in labels]
    for b, lab in enumerate(labels):
        if any(v < 0 or v >= c - 1 for v in lab):
            raise ValueError(
                f"For '{op}', the labels must be in [0, {c - 1}) (num_classes - 1 is blank), but got {lab}."
            )
        need = len(lab) + (sum(1 for i in range(1, len(lab)) if lab[i] == lab[i - 1]) if merge else 0)
        if need > seq[b] and not ignore_longer:
            raise ValueError(
                f"For '{op}', the labels of batch {b} need {need} time steps, but the sequence length is {seq[b]}."
            )


def _dense_labels(idx: Any, vals: Any, n: int, collapse: bool) -> tuple[Any, Any]:
    """Dense ``(n_batch, n_values)`` targets and their lengths from row-major sparse labels."""
    m = vals.shape[0]
    b = idx[:, 0].astype(jnp.int32)
    v = vals.astype(jnp.int32)
    keep = jnp.ones((m,), bool)
    if collapse and m > 1:
        same = (b[1:] == b[:-1]) & (v[1:] == v[:-1])
        keep = keep.at[1:].set(~same)
    onehot = (b[:, None] == jnp.arange(n)[None, :]) & keep[:, None]  # (m, n)
    pos = jnp.cumsum(onehot.astype(jnp.int32), axis=0) - 1  # position of each value within its batch
    p = jnp.take_along_axis(pos, b[:, None], axis=1)[:, 0]
    dense = jnp.zeros((n, max(m, 1)), jnp.int32)
    dense = dense.at[jnp.where(keep, b, n), jnp.where(keep, p, 0)].set(v, mode="drop")
    lengths = jnp.sum(onehot.astype(jnp.int32), axis=0)
    return dense, lengths


@jax.custom_vjp
def _loss_with_grad(x: Any, loss: Any, grad: Any) -> Any:
    return loss


def _lwg_fwd(x: Any, loss: Any, grad: Any) -> tuple[Any, Any]:
    return loss, grad


def _lwg_bwd(grad: Any, g: Any) -> tuple[Any, Any, Any]:
    return grad * g[None, :, None], jnp.zeros_like(g), jnp.zeros_like(grad)


_loss_with_grad.defvjp(_lwg_fwd, _lwg_bwd)


@jax.custom_vjp
def _costs_with_grad(x: Any, costs: Any, grad: Any) -> Any:
    """``costs`` (batch first) whose gradient with respect to ``x`` is the precomputed ``grad``."""
    return costs


def _cwg_fwd(x: Any, costs: Any, grad: Any) -> tuple[Any, Any]:
    return costs, grad


def _cwg_bwd(grad: Any, g: Any) -> tuple[Any, Any, Any]:
    return grad * g.reshape(g.shape + (1,) * (grad.ndim - 1)), jnp.zeros_like(g), jnp.zeros_like(grad)


_costs_with_grad.defvjp(_cwg_fwd, _cwg_bwd)


@compiled_op
def _ctc_tf(inputs: Any, idx: Any, vals: Any, seq: Any, collapse: bool, merge_repeated: bool):
    x = inputs._data
    t_max, n, c = x.shape
    il = seq._data.astype(jnp.int32)
    tg, tl = _dense_labels(idx._data, vals._data, n, collapse)
    ext, ext_len = _extend(tg, tl, c - 1)
    if merge_repeated:
        repeats = jnp.sum((tg[:, 1:] == tg[:, :-1]) & (jnp.arange(1, tg.shape[1])[None] < tl[:, None]), axis=1)
    else:
        repeats = jnp.zeros_like(tl)
    skip = tl + repeats > il  # too long for its input (ignore_longer_outputs_than_inputs): loss 0

    def losses(logits: Any) -> Any:
        lp = jax.nn.log_softmax(logits.astype(jnp.float32), axis=-1)
        _, loglik = ctc_alpha(lp, ext, ext_len, il, c - 1, merge_repeated)
        return jnp.where(skip, jnp.zeros_like(loglik), -loglik)

    xs = lax.stop_gradient(x)
    loss, vjp = jax.vjp(losses, xs)
    (grad,) = vjp(jnp.ones_like(loss))
    t_mask = (jnp.arange(t_max)[:, None] < il[None, :])[:, :, None]
    grad = jnp.where(t_mask, grad, jnp.zeros_like(grad)).astype(x.dtype)
    loss = loss.astype(x.dtype)
    # the loss's gradient is the op's own gradient output (no second differentiation of the scan)
    return wrap(_loss_with_grad(x, loss, grad)), wrap(grad)


# ------------------------------------------------------------ greedy decoding
def ctc_greedy_decoder(inputs: Any, sequence_length: Any, merge_repeated: bool = True) -> tuple[Tensor, ...]:
    """Greedy (best path) CTC decoding of ``(max_time, batch, num_classes)`` logits, blank = the last
    class: ``(decoded_indices (total, 2), decoded_values (total,), decoded_shape (2,), log_probability
    (batch, 1))`` — the ``ops.CTCGreedyDecoder`` primitive, as in MindSpore (the output sizes depend on
    the values, so it runs eagerly)."""
    from ..operations.detection_ops import CTCGreedyDecoder

    return CTCGreedyDecoder(merge_repeated)(inputs, sequence_length)


# ------------------------------------------------------------- RNN transducer
def rnnt_loss(acts: Any, labels: Any, input_length: Any, label_length: Any, blank_label: int) -> tuple[Tensor, Tensor]:
    """``ops.RNNTLoss``: ``(B, T, U + 1, V)`` logits (log-softmax taken here), ``(B, U)`` labels; returns
    ``(costs (B,), gradient w.r.t. acts)``."""
    op = "RNNTLoss"
    a = acts._data if isinstance(acts, Tensor) else None
    if a is None or a.ndim != 4:
        raise ValueError(f"For '{op}', the rank of 'acts' must be 4, but got {getattr(acts, 'ndim', None)}.")
    b, _, u1, v = a.shape
    lab = _int_tensor(labels, "labels", op)
    il = _int_tensor(input_length, "input_length", op)
    ll = _int_tensor(label_length, "label_length", op)
    if lab.ndim != 2 or lab.shape[0] != b or lab.shape[1] != u1 - 1:
        raise ValueError(f"For '{op}', the 'labels' shape must be ({b}, {u1 - 1}), but got {tuple(lab.shape)}.")
    for name, t in (("input_length", il), ("label_length", ll)):
        if tuple(t.shape) != (b,):
            raise ValueError(f"For '{op}', the '{name}' shape must be ({b},), but got {tuple(t.shape)}.")
    if not 0 <= blank_label < v:
        raise ValueError(f"For '{op}', the 'blank_label' must be in [0, {v}), but got {blank_label}.")
    return _rnnt(acts, wrap(lab), wrap(il), wrap(ll), blank_label)


@compiled_op
def _rnnt(acts: Any, labels: Any, input_length: Any, label_length: Any, blank: int):
    x = acts._data
    lab = labels._data.astype(jnp.int32)
    il = input_length._data.astype(jnp.int32)
    ll = label_length._data.astype(jnp.int32)
    b, t_max, u1, _ = x.shape

    def costs(logits: Any) -> Any:
        lp = jax.nn.log_softmax(logits.astype(jnp.float32), axis=-1)
        blank_lp = lp[..., blank]  # (B, T, U+1)
        emit_lp = jnp.take_along_axis(lp[:, :, :-1, :], lab[:, None, :, None], axis=3)[..., 0]  # (B, T, U)
        u_idx = jnp.arange(u1)[None, :]
        neg_inf = jnp.asarray(-jnp.inf, jnp.float32)

        def along_u(prev_row: Any, emit_row: Any) -> Any:
            # alpha[t, u] = lse(alpha[t-1, u] + blank[t-1, u], alpha[t, u-1] + emit[t, u-1])
            def inner(carry: Any, xs: Any) -> tuple[Any, Any]:
                from_top, e = xs
                val = _lse(from_top, carry + e)
                return val, val

            first = prev_row[:, 0]
            _, rest = lax.scan(inner, first, (prev_row[:, 1:].T, emit_row.T))
            return jnp.concatenate([first[:, None], rest.T], axis=1)

        alpha0 = along_u(jnp.where(u_idx == 0, 0.0, jnp.full((b, u1), neg_inf)), emit_lp[:, 0])

        def step(alpha: Any, t: Any) -> tuple[Any, Any]:
            top = alpha + blank_lp[:, t - 1]
            new = along_u(top, emit_lp[:, t])
            new = jnp.where((t < il)[:, None], new, alpha)
            return new, None

        alpha, _ = lax.scan(step, alpha0, jnp.arange(1, t_max)) if t_max > 1 else (alpha0, None)
        last_t = jnp.maximum(il - 1, 0)
        fin_blank = jnp.take_along_axis(blank_lp, last_t[:, None, None], axis=1)[:, 0]  # (B, U+1)
        at_u = jnp.take_along_axis(alpha + fin_blank, ll[:, None], axis=1)[:, 0]
        return -at_u

    cost, vjp = jax.vjp(costs, lax.stop_gradient(x))
    (grad,) = vjp(jnp.ones_like(cost))
    cost, grad = cost.astype(x.dtype), grad.astype(x.dtype)
    # the costs' gradient is the op's own gradient output (no second differentiation of the scans)
    return wrap(_costs_with_grad(x, cost, grad)), wrap(grad)
