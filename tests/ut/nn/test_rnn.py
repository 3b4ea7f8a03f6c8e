"""nn.RNN / nn.GRU / nn.LSTM and nn.RNNCell / nn.GRUCell / nn.LSTMCell against MindSpore 2.10 reference values
(outputs and gradients), parameter names and layout, seq_length masks, dropout, one scan per layer, errors."""

import numpy as np
import pytest
from _seq_ref import check_case

import sporax as ms
from sporax import Tensor, nn

CASES = [
    ("lstm_bi2_bf", lambda: nn.LSTM(3, 4, 2, batch_first=True, bidirectional=True)),
    ("lstm_bi2_seq", lambda: nn.LSTM(3, 4, 2, bidirectional=True)),
    ("lstm_1_nohx", lambda: nn.LSTM(3, 4)),
    ("gru_bi1_seq", lambda: nn.GRU(3, 4, 1, bidirectional=True)),
    ("gru_2_nobias", lambda: nn.GRU(3, 4, 2, has_bias=False)),
    ("rnn_relu_2_bf", lambda: nn.RNN(3, 4, 2, nonlinearity="relu", batch_first=True)),
    ("rnn_tanh_bi_seq", lambda: nn.RNN(3, 4, 1, bidirectional=True, batch_first=True)),
    ("rnncell_tanh", lambda: nn.RNNCell(3, 4)),
    ("rnncell_relu", lambda: nn.RNNCell(3, 4, nonlinearity="relu")),
    ("lstmcell", lambda: nn.LSTMCell(3, 4)),
    ("grucell_nobias", lambda: nn.GRUCell(3, 4, has_bias=False)),
]


# gradients for the cases that between them cover every path (bidirectional + seq_length + stacked layers, each
# mode, the cells); outputs for all (each gradient is one more XLA compilation)
GRAD_CASES = {"lstm_bi2_seq", "gru_bi1_seq", "rnn_relu_2_bf", "lstmcell", "grucell_nobias"}


@pytest.mark.parametrize("name,factory", CASES, ids=[c[0] for c in CASES])
def test_against_mindspore(name, factory):
    check_case(name, factory(), grads=name in GRAD_CASES)


def test_parameter_names_layout_and_init():
    net = nn.LSTM(3, 4, 2, bidirectional=True)
    names = [(p.name, p.shape) for p in net.trainable_params()]
    assert names[:4] == [
        ("weight_ih_l0", (16, 3)),
        ("weight_ih_l0_reverse", (16, 3)),
        ("weight_ih_l1", (16, 8)),
        ("weight_ih_l1_reverse", (16, 8)),
    ]
    assert [n for n, _ in names[4:]] == [
        f"{k}_l{i}{s}" for k in ("weight_hh", "bias_ih", "bias_hh") for i in (0, 1) for s in ("", "_reverse")
    ]
    for p in net.trainable_params():  # MindSpore's Uniform(1 / sqrt(hidden_size))
        assert np.abs(p.asnumpy()).max() <= 0.5
    gru = nn.GRU(2, 5, has_bias=False)
    assert [(p.name, p.shape) for p in gru.trainable_params()] == [("weight_ih_l0", (15, 2)), ("weight_hh_l0", (15, 5))]
    assert [p.name for p in nn.GRUCell(2, 3).trainable_params()] == ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.enc = nn.RNN(3, 4)

    assert [p.name for p in Net().trainable_params()][0] == "enc.weight_ih_l0"


def test_seq_length_zeroes_padding_and_freezes_state():
    net = nn.GRU(2, 3, batch_first=True, bidirectional=True)
    x = Tensor(np.random.RandomState(1).randn(2, 4, 2).astype(np.float32))
    out, h = net(x, seq_length=Tensor(np.array([2, 4], np.int32)))
    o = out.asnumpy()
    assert np.all(o[0, 2:] == 0) and np.all(o[1] != 0)
    # the forward state of sample 0 is its output at t=1; the reverse state its reverse output at t=0
    np.testing.assert_allclose(h.asnumpy()[0, 0], o[0, 1, :3], rtol=1e-6)
    np.testing.assert_allclose(h.asnumpy()[1, 0], o[0, 0, 3:], rtol=1e-6)
    short, _ = net(x[:1, :2])
    np.testing.assert_allclose(short.asnumpy()[0], o[0, :2], rtol=1e-5, atol=1e-6)


def test_dropout_between_layers_train_only():
    ms.set_seed(3)
    net = nn.LSTM(3, 8, 2, dropout=0.5)
    x = Tensor(np.ones((4, 2, 3), np.float32))
    net.set_train(False)
    a, _ = net(x)
    b, _ = net(x)
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    net.set_train(True)
    c, _ = net(x)
    d, _ = net(x)
    assert not np.allclose(c.asnumpy(), a.asnumpy()) and not np.allclose(c.asnumpy(), d.asnumpy())


def test_one_scan_per_layer_and_float16():
    import jax

    from sporax.ops.function import rnn_func

    net = nn.GRU(3, 4, 3, bidirectional=True)
    x = Tensor(np.ones((5, 2, 3), np.float16))
    ws = tuple(net.trainable_params())
    h0 = np.zeros((6, 2, 4), np.float16)

    def run(xa, ha):
        o, h, _ = rnn_func.rnn_stack("GRU", Tensor(xa), Tensor(ha), None, ws, None, 3, True, True, False, 0.0, False)
        return o._data, h._data

    text = str(jax.make_jaxpr(run)(x._data, h0))
    assert text.count("scan[") == 3 and "while[" not in text
    out, h = net(x)
    assert out.dtype == ms.float16 and h.dtype == ms.float16 and out.shape == (5, 2, 8)


ERRORS = [
    (lambda: nn.LSTM(3, 0), ValueError, "For 'LSTM', the 'hidden_size' must be int and must > 0, but got '0'"),
    (lambda: nn.LSTM(3, 4, dropout=1), TypeError, "For 'LSTM', the type of 'dropout' must be 'float', but got 'int'."),
    (lambda: nn.GRU(3, 4, dropout=1.5), ValueError, "For 'GRU', the 'dropout' must be a number in range [0, 1)"),
    (lambda: nn.LSTM(3, 4, has_bias=1), TypeError, "For 'LSTM', the type of 'has_bias' should be 'bool'"),
    (lambda: nn.RNN(3, 4, nonlinearity="gelu"), ValueError, "must be in ['tanh', 'relu'], but got gelu."),
    (lambda: nn.RNNCell(3, 4, nonlinearity="gelu"), ValueError, "must be str and must be in '['tanh', 'relu']'"),
    (lambda: nn.LSTMCell(3, 4, True, ms.float32, 5), ValueError, "from old MindSpore version(<1.6)"),
]
X = np.ones((5, 2, 3), np.float32)
CALL_ERRORS = [
    (lambda: nn.LSTM(3, 4)(Tensor(X), Tensor(np.ones((1, 2, 4), np.float32))), TypeError, "the 'hx' must be"),
    (lambda: nn.LSTM(3, 4)(Tensor(X), (Tensor(np.ones((1, 2, 4), np.float32)),)), TypeError, "length of 'hx'"),
    (
        lambda: nn.GRU(3, 4)(Tensor(X), Tensor(np.ones((1, 2, 4), np.float16))),
        TypeError,
        "For 'GRU', the type of 'hx' should be same as 'x', but got 'x' with type Float32 and 'hx' with type Float16.",
    ),
    (
        lambda: nn.GRU(3, 4)(Tensor(X), None, Tensor(np.array([1, 2, 3], np.int32))),
        ValueError,
        "For 'GRU' batch size of x and seq_length must be equal, but got 2 of x and 3 of seq_length.",
    ),
    (
        lambda: nn.GRU(3, 4)(Tensor(X), None, Tensor(np.array([1.0, 2.0], np.float32))),
        TypeError,
        "For 'GRU', the 'seq_length' should be one of [mindspore.int32, mindspore.int64], but got 'mindspore.float32'.",
    ),
    (
        lambda: nn.GRUCell(3, 4)(Tensor(X[0]), Tensor(np.ones((2, 4), np.float64))),
        TypeError,
        "For 'GRUCell', the 'hx' should be one of [mindspore.float32, mindspore.float16], but got 'mindspore.float64'.",
    ),
    (lambda: nn.LSTMCell(3, 4)(Tensor(X[0]), Tensor(np.ones((2, 4), np.float32))), TypeError, "the 'hx' must be"),
    (lambda: nn.GRU(3, 4)(Tensor(X[0])), ValueError, "the dimension of 'x' must be 3, but got 2"),
    (lambda: nn.GRU(2, 4)(Tensor(X)), ValueError, "the 'x' shape[2] must be 2 (input_size), but got 3"),
]


@pytest.mark.parametrize("fn,err,msg", ERRORS + CALL_ERRORS)
def test_errors(fn, err, msg):
    with pytest.raises(err) as info:
        fn()
    assert msg in str(info.value)
