"""ops.LSTM against MindSpore 2.10's CPU kernel (flat weight layout; outputs and input gradients), and the Ascend
fused-weight forms ops.DynamicRNN / ops.DynamicGRUV2 / ops.BasicLSTMCell against nn.LSTM / nn.GRU (themselves
checked against MindSpore) with the weights rearranged, plus their gate outputs against NumPy."""

from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

DATA = np.load(Path(__file__).resolve().parents[1] / "nn" / "fixtures" / "nn_seq_reference.npz")
LSTM_CASES = [(3, 4, 1, 1, True), (3, 4, 1, 2, True), (4, 4, 3, 1, True), (3, 4, 1, 1, False)]


@pytest.mark.parametrize("i,h,layers,d,bias", LSTM_CASES)
def test_lstm_op_against_mindspore(i, h, layers, d, bias):
    name = f"P.lstm_{i}{h}{layers}{d}{int(bias)}"
    op = ops.LSTM(i, h, layers, bias, d == 2, 0.0)
    args = [Tensor(DATA[f"{name}/in.{k}"]) for k in range(4)]
    outs = op(*args)
    assert outs[3].shape == (1, 1)
    for k in range(3):
        np.testing.assert_allclose(outs[k].asnumpy(), DATA[f"{name}/out.{k}"], rtol=1e-5, atol=1e-6)
    if (i, h, layers, d) not in ((3, 4, 1, 2), (4, 4, 3, 1)):
        return  # gradients: bidirectional and stacked cover the layout (one XLA compilation each)
    probes = [Tensor(DATA[f"{name}/probe/out.{k}"]) for k in range(3)]
    g = ms.grad(lambda *a: sum((o * p).sum() for o, p in zip(op(*a)[:3], probes)))(*args)
    np.testing.assert_allclose(g.asnumpy(), DATA[f"{name}/grad/in.0"], rtol=1e-4, atol=1e-5)


def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


def test_dynamic_rnn_and_basic_lstm_cell_match_lstm():
    rng = np.random.RandomState(0)
    i_sz, h_sz, t, b = 3, 4, 5, 2
    net = nn.LSTM(i_sz, h_sz)
    x = rng.randn(t, b, i_sz).astype(np.float32)
    h0, c0 = (rng.randn(1, b, h_sz).astype(np.float32) * 0.3 for _ in range(2))
    y, (hn, cn) = net(Tensor(x), (Tensor(h0), Tensor(c0)))
    w_ih, w_hh, b_ih, b_hh = (p.asnumpy() for p in net.trainable_params())

    def ifgo_to_ijfo(m):  # rows i, f, g, o -> blocks i, j(=g), f, o
        i, f, g, o = np.split(m, 4, axis=0)
        return np.concatenate([i, g, f, o], axis=0)

    w = np.concatenate([ifgo_to_ijfo(w_ih), ifgo_to_ijfo(w_hh)], axis=1).T  # (I + H, 4H)
    bias = ifgo_to_ijfo(b_ih + b_hh)
    outs = ops.DynamicRNN()(Tensor(x), Tensor(w), Tensor(bias), None, Tensor(h0), Tensor(c0))
    np.testing.assert_allclose(outs[0].asnumpy(), y.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[2].asnumpy()[-1], cn.asnumpy()[0], rtol=1e-5, atol=1e-6)
    gates = np.concatenate([x[0], h0[0]], 1) @ w + bias
    gi, gj, gf, go = np.split(gates, 4, axis=1)
    np.testing.assert_allclose(outs[3].asnumpy()[0], _sigmoid(gi), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[4].asnumpy()[0], np.tanh(gj), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[7].asnumpy()[-1], np.tanh(cn.asnumpy()[0]), rtol=1e-5, atol=1e-6)
    ct, ht, it, jt, ft, ot, tct = ops.BasicLSTMCell(forget_bias=0.5)(
        Tensor(x[0]), Tensor(h0[0]), Tensor(c0[0]), Tensor(w), Tensor(bias)
    )
    want_f = _sigmoid(gf + 0.5)
    want_c = want_f * c0[0] + _sigmoid(gi) * np.tanh(gj)
    np.testing.assert_allclose(ft.asnumpy(), want_f, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ct.asnumpy(), want_c, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ht.asnumpy(), _sigmoid(go) * np.tanh(want_c), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("gate_order", ["rzh", "zrh"])
def test_dynamic_gru_v2_matches_gru(gate_order):
    rng = np.random.RandomState(1)
    net = nn.GRU(3, 4)
    x = rng.randn(5, 2, 3).astype(np.float32)
    h0 = rng.randn(2, 4).astype(np.float32) * 0.3
    y, hn = net(Tensor(x), Tensor(h0[None]))
    w_ih, w_hh, b_ih, b_hh = (p.asnumpy() for p in net.trainable_params())

    def order(m):
        r, z, n = np.split(m, 3, axis=0)
        return np.concatenate([r, z, n] if gate_order == "rzh" else [z, r, n], axis=0)

    outs = ops.DynamicGRUV2(gate_order=gate_order)(
        Tensor(x), Tensor(order(w_ih).T), Tensor(order(w_hh).T), Tensor(order(b_ih)), Tensor(order(b_hh)), None,
        Tensor(h0),
    )  # fmt: skip
    np.testing.assert_allclose(outs[0].asnumpy(), y.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[1].asnumpy()[-1], hn.asnumpy()[0], rtol=1e-5, atol=1e-6)
    hr, hz, hnn = np.split(h0 @ w_hh.T + b_hh, 3, axis=1)
    xr, xz, xn = np.split(x[0] @ w_ih.T + b_ih, 3, axis=1)
    np.testing.assert_allclose(outs[3].asnumpy()[0], _sigmoid(xr + hr), rtol=1e-5, atol=1e-6)  # reset
    np.testing.assert_allclose(outs[2].asnumpy()[0], _sigmoid(xz + hz), rtol=1e-5, atol=1e-6)  # update
    np.testing.assert_allclose(outs[5].asnumpy()[0], hnn, rtol=1e-5, atol=1e-6)  # hidden_new


ERRORS = [
    (
        lambda: ops.LSTM(3, 4, 1, True, False, 0.0)(
            Tensor(np.ones((5, 2, 3), np.float32)),
            Tensor(np.zeros((1, 2, 4), np.float32)),
            Tensor(np.zeros((1, 2, 4), np.float32)),
            Tensor(np.zeros((10, 1, 1), np.float32)),
        ),
        ValueError,
        "For 'LSTM', the size of 'w' must be 128 for these settings, but got 10.",
    ),
    (lambda: ops.LSTM(3, 0, 1, True, False, 0.0), ValueError, "For 'LSTM', the 'hidden_size' must be int and must > 0"),
    (lambda: ops.DynamicRNN(cell_type="GRU"), ValueError, "'cell_type' must be str and must be in"),
    (lambda: ops.DynamicGRUV2(gate_order="hzr"), ValueError, "'gate_order' must be str and must be in"),
    (lambda: ops.BasicLSTMCell(keep_prob=2.0), ValueError, "For 'BasicLSTMCell', the 'keep_prob' must be in range"),
]


@pytest.mark.parametrize("fn,err,msg", ERRORS)
def test_errors(fn, err, msg):
    with pytest.raises(err) as info:
        fn()
    assert msg in str(info.value)
