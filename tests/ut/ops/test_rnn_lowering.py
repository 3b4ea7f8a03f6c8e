"""ops/_lowering/rnn.py's layer (one scan, its own backward pass, the reverse direction read from the flipped
sequence) against a plain step-by-step reference differentiated by JAX: outputs, final states and the gradients
of every input, for each mode, one and two directions, with and without ``seq_len`` and biases."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax.ops._lowering import rnn

T, B, I, H = 5, 3, 4, 6


def reference_layer(mode, x, h0, c0, w_ih, w_hh, b_ih, b_hh, seq_len):
    """Each direction step by step with ``cell_step``; the reverse direction reads each sequence's valid
    prefix reversed (MindSpore's ReverseSequence), padded steps keep the state and output zeros."""
    lens = np.full((B,), T) if seq_len is None else np.asarray(seq_len)
    outs, hs, cs = [], [], []
    for d in range(w_ih.shape[0]):
        h, c = h0[d], None if c0 is None else c0[d]
        rows = [[None] * B for _ in range(T)]
        for t in range(T):
            src = [t if d == 0 or t >= n else n - 1 - t for n in lens]  # the time index each sequence reads
            xt = jnp.stack([x[s, b] for b, s in enumerate(src)])
            gi = xt @ w_ih[d].T + (0 if b_ih is None else b_ih[d])
            h_new, c_new = rnn.cell_step(mode, gi, h, c, w_hh[d], None if b_hh is None else b_hh[d])
            valid = jnp.asarray(t < lens)[:, None]
            h = jnp.where(valid, h_new, h)
            c = None if c is None else jnp.where(valid, c_new, c)
            y = jnp.where(valid, h_new, 0.0)
            for b, s in enumerate(src):
                rows[s][b] = y[b]
        outs.append(jnp.stack([jnp.stack(r) for r in rows]))
        hs.append(h)
        cs.append(c)
    return jnp.concatenate(outs, -1), jnp.stack(hs), None if c0 is None else jnp.stack(cs)


CASES = [
    ("LSTM", 2, True, True),
    ("LSTM", 1, False, False),
    ("GRU", 2, True, True),
    ("GRU", 1, False, True),
    ("RNN_TANH", 2, False, False),
    ("RNN_RELU", 1, True, True),
]


@pytest.mark.parametrize(
    "mode,d,masked,bias", CASES, ids=[f"{m}-{d}dir-{'seq' if s else 'full'}" for m, d, s, _ in CASES]
)
def test_layer_matches_step_by_step_reference(mode, d, masked, bias):
    rng = np.random.default_rng(0)
    g = rnn.GATES[mode] * H

    def arr(*shape):
        return jnp.asarray(rng.standard_normal(shape).astype(np.float32) * 0.5)

    args = {
        "x": arr(T, B, I),
        "h0": arr(d, B, H),
        "c0": arr(d, B, H) if mode == "LSTM" else None,
        "w_ih": arr(d, g, I),
        "w_hh": arr(d, g, H),
        "b_ih": arr(d, g) if bias else None,
        "b_hh": arr(d, g) if bias else None,
    }
    seq_len = jnp.asarray([5, 2, 0], jnp.int32) if masked else None
    probes = (arr(T, B, d * H), arr(d, B, H), arr(d, B, H))
    names = [k for k, v in args.items() if v is not None]

    def loss(impl, *vals):
        kw = dict(args, **dict(zip(names, vals)))
        out, h_n, c_n = impl(mode, kw["x"], kw["h0"], kw["c0"], kw["w_ih"], kw["w_hh"], kw["b_ih"], kw["b_hh"], seq_len)
        total = (out * probes[0]).sum() + (h_n * probes[1]).sum()
        if c_n is not None:
            total = total + (c_n * probes[2]).sum()
        return total, (out, h_n, c_n)

    vals = [args[k] for k in names]
    grad = jax.value_and_grad(loss, argnums=tuple(range(1, len(names) + 1)), has_aux=True)
    (_, got), got_grads = jax.jit(grad, static_argnums=0)(rnn.rnn_layer, *vals)
    (_, want), want_grads = grad(reference_layer, *vals)
    for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5)
    if masked:
        assert np.all(np.asarray(got[0])[:, 2] == 0) and np.all(np.asarray(got[0])[2:, 1] == 0)
    for name, a, b in zip(names, got_grads, want_grads):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-5, err_msg=name)


def test_float16_layer_keeps_its_dtype_in_values_and_gradients():
    rng = np.random.default_rng(1)
    x = jnp.asarray(rng.standard_normal((T, B, I)), jnp.float16)
    w_ih = jnp.asarray(rng.standard_normal((2, 4 * H, I)) * 0.3, jnp.float16)
    w_hh = jnp.asarray(rng.standard_normal((2, 4 * H, H)) * 0.3, jnp.float16)

    def loss(x, w_ih, w_hh):
        h0 = jnp.zeros((2, B, H), x.dtype)
        out, h_n, c_n = rnn.rnn_layer("LSTM", x, h0, h0, w_ih, w_hh, None, None, jnp.asarray([5, 3, 1]))
        return out.astype(jnp.float32).sum() + h_n.astype(jnp.float32).sum(), out

    (_, out), grads = jax.value_and_grad(loss, argnums=(0, 1, 2), has_aux=True)(x, w_ih, w_hh)
    assert out.dtype == jnp.float16 and all(g.dtype == jnp.float16 for g in grads)
    (_, out32), grads32 = jax.value_and_grad(loss, argnums=(0, 1, 2), has_aux=True)(
        x.astype(jnp.float32), w_ih.astype(jnp.float32), w_hh.astype(jnp.float32)
    )
    np.testing.assert_allclose(np.asarray(out, np.float32), np.asarray(out32), atol=1e-2)
    for g16, g32 in zip(grads, grads32):
        np.testing.assert_allclose(np.asarray(g16, np.float32), np.asarray(g32), rtol=2e-2, atol=2e-2)


def _lstm_args(seed=2):
    rng = np.random.default_rng(seed)

    def arr(*shape):
        return jnp.asarray(rng.standard_normal(shape).astype(np.float32) * 0.5)

    return arr(T, B, I), arr(2, B, H), arr(2, B, H), (arr(2, 4 * H, I), arr(2, 4 * H, H), arr(2, 4 * H), arr(2, 4 * H))


def test_layer_inside_an_outer_scan_matches_step_by_step_calls():
    # sink mode runs the train step inside a scan over steps: the layer's buffers must not depend on being
    # called once (their initial zeros are computed from the step's data there)
    x, h0, c0, weights = _lstm_args()
    seq_len = jnp.asarray([5, 2, 4], jnp.int32)

    def sgd_step(ws, xs):
        def loss(ws):
            out, h_n, c_n = rnn.rnn_layer("LSTM", xs, h0, c0, *ws, seq_len)
            return (out**2).sum() + h_n.sum() + c_n.sum()

        val, grads = jax.value_and_grad(loss)(ws)
        return tuple(w - 0.01 * g for w, g in zip(ws, grads)), val

    batches = jnp.stack([x, x * 0.5, -x])
    got_ws, got_vals = jax.jit(lambda ws: jax.lax.scan(sgd_step, ws, batches))(weights)
    step = jax.jit(sgd_step)
    ws, vals = weights, []
    for k in range(3):
        ws, v = step(ws, batches[k])
        vals.append(v)
    np.testing.assert_allclose(np.asarray(got_vals), np.asarray(vals), rtol=1e-5)
    for a, b in zip(got_ws, ws):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_a_nan_in_one_sequence_stays_in_that_sequence(mode):
    # the loop's buffers start from zeros computed from the data (x * 0): a NaN there must never reach the
    # other sequences' outputs or gradients, nor a padded step's zero output
    rng = np.random.default_rng(3)
    g = rnn.GATES[mode] * H
    x = jnp.asarray(rng.standard_normal((T, B, I)).astype(np.float32))
    ws = [jnp.asarray(rng.standard_normal(s).astype(np.float32) * 0.4) for s in ((2, g, I), (2, g, H), (2, g), (2, g))]
    h0 = jnp.zeros((2, B, H), jnp.float32)
    c0 = h0 if mode == "LSTM" else None
    seq_len = jnp.asarray([5, 3, 2], jnp.int32)
    probe = jnp.asarray(rng.standard_normal((T, B, 2 * H)).astype(np.float32))

    def run(x, probe):
        def loss(x):
            out, h_n, _ = rnn.rnn_layer(mode, x, h0, c0, *ws, seq_len)
            return (out * probe).sum() + h_n.sum(), out

        (_, out), dx = jax.value_and_grad(loss, has_aux=True)(x)
        return out, dx

    clean_out, clean_dx = map(np.asarray, jax.jit(run)(x, probe))
    nan_out, nan_dx = map(np.asarray, jax.jit(run)(x.at[0, 0, 0].set(jnp.nan), probe.at[0, 0, 0].set(jnp.nan)))
    assert np.isnan(nan_out[:, 0]).any()
    np.testing.assert_allclose(nan_out[:, 1:], clean_out[:, 1:], rtol=1e-6)
    np.testing.assert_allclose(nan_dx[:, 1:], clean_dx[:, 1:], rtol=1e-6)
    assert np.all(nan_out[3:, 1] == 0) and np.all(nan_out[2:, 2] == 0)


def test_weight_gradient_transpose_is_the_plain_transpose_even_with_nan():
    # on CPU the weight gradients are transposed inside a conditional (both branches the same, the predicate
    # computed from the data): any predicate, NaN included, gives w.T
    w = jnp.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    for v in (w, w.at[0, 0].set(jnp.nan)):
        got = jax.jit(rnn._materialized_transpose)(v)
        np.testing.assert_array_equal(np.asarray(got), np.asarray(v).T)
    a = jnp.asarray(np.random.default_rng(4).standard_normal((6, 3)).astype(np.float32))
    dy = jnp.asarray(np.random.default_rng(5).standard_normal((6, 5)).astype(np.float32))
    np.testing.assert_allclose(np.asarray(jax.jit(rnn._weight_grad)(a, dy)), np.asarray(dy.T @ a), rtol=1e-5)


def test_lstm_with_only_the_hidden_bias_gets_its_gradient():
    x, h0, c0, (w_ih, w_hh, _, b_hh) = _lstm_args(6)

    def loss(impl, b):
        out, h_n, c_n = impl("LSTM", x, h0, c0, w_ih, w_hh, None, b, None)
        return (out**2).sum() + h_n.sum() + c_n.sum()

    got = jax.jit(jax.grad(lambda b: loss(rnn.rnn_layer, b)))(b_hh)
    want = jax.grad(lambda b: loss(reference_layer, b))(b_hh)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-4, atol=1e-5)
