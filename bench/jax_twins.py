"""Hand-written JAX + optax twins of the example models the bench times (bench_models.example_sides): the
same architecture, initial weights (copied from the sporax network before its first step), loss, optimizer
and batch, written as the JAX documentation and Flax's examples write them: pure functions over a dict of
parameters, one ``jax.jit`` step returning the new parameters and optimizer state, optax for the update.
Each step donates its parameters and optimizer state (``donate_argnums``), as Flax's and optax's examples
do: XLA updates them in place instead of allocating new buffers every step, and sporax's own step donates
the state it writes; a twin without it would not be the best ordinary JAX and would favour sporax. The
wrappers (``twin_sides``'s ``run``) only ever pass the state the previous step returned.

- ``lstm``: frozen embedding gather, 2 bidirectional LSTM layers, each direction one ``lax.scan`` over time
  with the input projection (``x @ w_ih.T + b``) hoisted out of the scan as one GEMM; ``seq_length`` masking
  as Flax's ``nn.RNN`` does it (the carry is kept past a sequence's end, the reverse direction reads each
  sequence's valid prefix reversed); Dense on the last layer's final states; optax.adam(0.01).
- ``transformer``: token + learned position embeddings, pre-norm encoder layers (fused QKV projection,
  ``jnp.einsum`` attention with an additive causal mask, exact GELU), dropout 0.1 with ``jax.random``
  (a key folded with the step count), final LayerNorm, Dense head; optax.adamw(3e-3, b1=0.9, b2=0.99,
  eps=1e-6, weight_decay=0.01 on the matrices). MindSpore's AdamWeightDecay has no bias correction,
  optax's adamw has: the same work per step.
- ``resnet18``: NHWC activations and HWIO kernels with ``lax.conv_general_dilated`` (what Flax's ResNet
  example uses), BatchNorm in training mode (batch statistics, running averages updated with momentum 0.9),
  optax.chain(add_decayed_weights(1e-4) on the weights, sgd(0.1, momentum=0.9)) (MindSpore's Momentum with
  weight decay).

:func:`twin_sides` builds a twin from a sporax side and checks that both compute the same losses from the
same weights before anything is timed.
"""

from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax import lax


def _np_params(net) -> dict[str, np.ndarray]:
    return {p.name: np.asarray(p.asnumpy()) for p in net.get_parameters()}


def _xent(logits, labels):
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


def _dense(x, p, name):
    return x @ p[name + ".weight"].T + p[name + ".bias"]


# ------------------------------------------------------------------------------------------------- LSTM
def _lstm_direction(x, mask, w_ih, w_hh, b):
    """One direction of one layer over time-major ``x`` [T, B, I]: (outputs [T, B, H], final h [B, H])."""
    gi = x @ w_ih.T + b  # the input projection of every step: one GEMM, out of the scan
    hidden = w_hh.shape[1]
    h0 = jnp.zeros((x.shape[1], hidden), x.dtype)

    def cell(carry, inp):
        h, c = carry
        g_t, m_t = inp
        i, f, g, o = jnp.split(g_t + h @ w_hh.T, 4, axis=-1)
        c_new = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h_new = jax.nn.sigmoid(o) * jnp.tanh(c_new)
        m = m_t[:, None]
        return (jnp.where(m, h_new, h), jnp.where(m, c_new, c)), jnp.where(m, h_new, 0.0)

    (h, _), ys = lax.scan(cell, (h0, h0), (gi, mask))
    return ys, h


def lstm_loss(p, table, ids, lengths, labels, num_layers=2):
    x = jnp.swapaxes(table[ids], 0, 1)  # [T, B, E], time-major for the scan
    t = jnp.arange(x.shape[0])[:, None]
    mask = t < lengths[None, :]
    rev = jnp.where(mask, lengths[None, :] - 1 - t, t)[:, :, None]  # each sequence's valid prefix reversed
    finals = []
    for layer in range(num_layers):
        outs, finals = [], []
        for suffix in ("", "_reverse"):
            w = [p[f"encoder.{k}_l{layer}{suffix}"] for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
            xin = x if not suffix else jnp.take_along_axis(x, rev, axis=0)
            ys, h = _lstm_direction(xin, mask, w[0], w[1], w[2] + w[3])
            outs.append(ys if not suffix else jnp.take_along_axis(ys, rev, axis=0))
            finals.append(h)
        x = jnp.concatenate(outs, axis=-1)
    return _xent(_dense(jnp.concatenate(finals, axis=-1), p, "decoder"), labels)


def _lstm_twin(net, batch, cfg):
    params = _np_params(net)
    table = jnp.asarray(params.pop("embedding.embedding_table"))
    params = {k: jnp.asarray(v) for k, v in params.items()}
    ids, lengths, labels = (jnp.asarray(b.asnumpy()) for b in batch)
    tx = optax.adam(0.01)

    @functools.partial(jax.jit, donate_argnums=(0, 1))
    def step(p, s):
        loss, g = jax.value_and_grad(lstm_loss)(p, table, ids, lengths, labels)
        updates, s = tx.update(g, s, p)
        return optax.apply_updates(p, updates), s, loss

    return step, (params, tx.init(params))


# ------------------------------------------------------------------------------------------ Transformer
def _layer_norm(x, p, name, eps):
    mean = x.mean(-1, keepdims=True)
    var = jnp.square(x - mean).mean(-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + eps) * p[name + ".gamma"] + p[name + ".beta"]


def _dropout(x, rate, key):
    if key is None or rate == 0.0:
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def transformer_loss(p, ids, targets, key, nhead, num_layers, rate=0.1):
    """Mean next-token cross-entropy; ``key`` None runs without dropout (evaluation)."""
    b, s = ids.shape
    keys = list(jax.random.split(key, 1 + 4 * num_layers)) if key is not None else [None] * (1 + 4 * num_layers)
    x = p["tok_emb.embedding_table"][ids] + p["pos_emb.embedding_table"][:s]
    x = _dropout(x, rate, keys.pop())
    d = x.shape[-1]
    hd = d // nhead
    causal = jnp.tril(jnp.ones((s, s), bool))
    for i in range(num_layers):
        pre = f"encoder.layers.{i}."
        h = _layer_norm(x, p, pre + "norm1", 1e-5)
        qkv = h @ p[pre + "self_attn.in_proj_weight"].T + p[pre + "self_attn.in_proj_bias"]
        q, k, v = (t.reshape(b, s, nhead, hd) for t in jnp.split(qkv, 3, axis=-1))
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(hd)
        attn = jax.nn.softmax(jnp.where(causal, scores, -jnp.inf), axis=-1)
        attn = _dropout(attn, rate, keys.pop())
        o = jnp.einsum("bhqk,bkhd->bqhd", attn, v).reshape(b, s, d)
        x = x + _dropout(_dense(o, p, pre + "self_attn.out_proj"), rate, keys.pop())
        h = _layer_norm(x, p, pre + "norm2", 1e-5)
        h = _dropout(jax.nn.gelu(_dense(h, p, pre + "dense1"), approximate=False), rate, keys.pop())
        x = x + _dropout(_dense(h, p, pre + "dense2"), rate, keys.pop())
    logits = _dense(_layer_norm(x, p, "encoder.norm", 1e-7), p, "head")
    return _xent(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def _transformer_twin(net, batch, cfg):
    params = {k: jnp.asarray(v) for k, v in _np_params(net).items()}
    ids, targets = (jnp.asarray(b.asnumpy()) for b in batch)
    decay = jax.tree_util.tree_map(lambda v: v.ndim > 1, params)
    tx = optax.adamw(3e-3, b1=0.9, b2=0.99, eps=1e-6, weight_decay=0.01, mask=decay)
    base = jax.random.key(0)
    nhead, layers = cfg["nhead"], cfg["layers"]

    @functools.partial(jax.jit, donate_argnums=(0, 1, 2))
    def step(p, s, n):
        key = jax.random.fold_in(base, n)
        loss, g = jax.value_and_grad(transformer_loss)(p, ids, targets, key, nhead, layers)
        updates, s = tx.update(g, s, p)
        return optax.apply_updates(p, updates), s, n + 1, loss

    def eval_loss(p):
        return transformer_loss(p, ids, targets, None, nhead, layers)

    return step, (params, tx.init(params), jnp.zeros((), jnp.int32)), eval_loss


# ---------------------------------------------------------------------------------------------- ResNet
def _conv(x, w, stride, pad):
    return lax.conv_general_dilated(
        x, w, (stride, stride), ((pad, pad), (pad, pad)), dimension_numbers=("NHWC", "HWIO", "NHWC")
    )


def _bn(x, p, stats, name, new_stats, momentum=0.9, eps=1e-5):
    """BatchNorm in training mode over N, H, W; the running averages go to ``new_stats``."""
    mean = x.mean((0, 1, 2))
    var = jnp.square(x - mean).mean((0, 1, 2))
    n = x.size // x.shape[-1]
    new_stats[name + ".moving_mean"] = momentum * stats[name + ".moving_mean"] + (1 - momentum) * mean
    new_stats[name + ".moving_variance"] = momentum * stats[name + ".moving_variance"] + (1 - momentum) * var * (
        n / (n - 1)
    )
    return (x - mean) * lax.rsqrt(var + eps) * p[name + ".gamma"] + p[name + ".beta"]


def resnet18_loss(p, stats, x, y):
    new_stats: dict = {}
    h = jax.nn.relu(_bn(_conv(x, p["conv1.weight"], 1, 1), p, stats, "bn1", new_stats))
    for stage in range(1, 5):
        for blk in range(2):
            pre = f"layer{stage}.{blk}."
            stride = 2 if stage > 1 and blk == 0 else 1
            out = jax.nn.relu(_bn(_conv(h, p[pre + "conv1.weight"], stride, 1), p, stats, pre + "bn1d", new_stats))
            out = _bn(_conv(out, p[pre + "conv2.weight"], 1, 1), p, stats, pre + "bn2d", new_stats)
            if pre + "down_sample_layer.0.weight" in p:
                down = _conv(h, p[pre + "down_sample_layer.0.weight"], stride, 0)
                h = _bn(down, p, stats, pre + "down_sample_layer.1", new_stats)
            h = jax.nn.relu(out + h)
    return _xent(_dense(h.mean((1, 2)), p, "end_point"), y), new_stats


def _resnet18_twin(net, batch, cfg):
    params, stats = {}, {}
    for k, v in _np_params(net).items():
        if "moving_" in k:
            stats[k] = jnp.asarray(v)
        else:  # convolution kernels OIHW -> HWIO
            params[k] = jnp.asarray(v.transpose(2, 3, 1, 0) if v.ndim == 4 else v)
    x = jnp.asarray(batch[0].asnumpy().transpose(0, 2, 3, 1))  # NCHW -> NHWC
    y = jnp.asarray(batch[1].asnumpy())
    decay = {k: not any(t in k for t in ("beta", "gamma", "bias")) for k in params}
    tx = optax.chain(optax.add_decayed_weights(1e-4, mask=decay), optax.sgd(0.1, momentum=0.9))

    @functools.partial(jax.jit, donate_argnums=(0, 1, 2))
    def step(p, s, st):
        (loss, st), g = jax.value_and_grad(resnet18_loss, has_aux=True)(p, st, x, y)
        updates, s = tx.update(g, s, p)
        return optax.apply_updates(p, updates), s, st, loss

    return step, (params, tx.init(params), stats)


BUILDERS = {"lstm": _lstm_twin, "transformer": _transformer_twin, "resnet18": _resnet18_twin}


def twin_sides(name: str, cfg: dict, sides: dict, rtol: float = 1e-2) -> dict:
    """Add the JAX twin of an example workload to its sporax ``sides`` (bench_models.example_sides, before
    any step ran): ``jax`` (zero-argument, one step, returns the loss), ``first_step_s`` (sporax's first
    GRAPH step, with its compile), ``jax_first_step_s`` (the twin's) and ``check`` (the losses compared); when
    the two disagree there is no ``jax`` side and ``check`` says so.

    The LSTM and ResNet-18 compare the losses of their first two steps (the second after one update); the
    Transformer trains with dropout, so it compares the loss of both networks without dropout, then steps."""
    import time

    if name not in BUILDERS:
        return sides
    built = BUILDERS[name](sides["net"], sides["batch"], cfg)
    step, state = built[0], list(built[1])

    def run():
        out = step(*state)
        state[:] = out[:-1]
        return out[-1]

    ours, ref = [], []
    if name == "transformer":  # dropout: compare the losses without it, from the same initial weights
        loss_cell = sides["step"].network
        loss_cell.set_train(False)
        ours.append(float(loss_cell(*sides["batch"]).asnumpy()))
        loss_cell.set_train(True)
        ref.append(float(jax.jit(built[2])(state[0])))
    t = time.perf_counter()
    ours.append(float(sides["graph"]().asnumpy()))
    sides["first_step_s"] = time.perf_counter() - t
    t = time.perf_counter()
    ref.append(float(run()))
    sides["jax_first_step_s"] = time.perf_counter() - t
    if name != "transformer":
        ours.append(float(sides["graph"]().asnumpy()))
        ref.append(float(run()))
    what = "loss without dropout, then one step" if name == "transformer" else "losses of steps 1 and 2"
    sides["check"] = f"{what}: sporax {', '.join(f'{v:.6g}' for v in ours)}; jax {', '.join(f'{v:.6g}' for v in ref)}"
    # the first loss: the same forward from the same weights; the second follows one update, where Adam's
    # first step (+-lr per weight) flips with the sign of near-zero gradients and MindSpore's Adam adds eps
    # to the uncorrected second moment (optax: to the corrected one)
    tols = [1e-4, rtol][: 1 if name == "transformer" else 2]
    if all(np.isclose(a, b, rtol=t) for a, b, t in zip(ours, ref, tols)):
        sides["jax"] = run
    else:  # never time a twin that computes something else; the report says so
        sides["check"] = f"DISAGREE (rtol {tols}), twin not timed: {sides['check']}"
    return sides
