"""Channel dropout: ops.dropout1d/2d/3d, ops.Dropout2D/Dropout3D, nn.Dropout1d/2d/3d, nn.DropoutExt/Dropout2dExt:
whole channels zeroed, the rest scaled by 1/(1-p), drawn from the framework RNG (same seed, same masks, in
PyNative, jit and grad), identity in inference, MindSpore's errors."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

SHAPES = {"dropout1d": (4, 16, 5), "dropout2d": (4, 16, 3, 3), "dropout3d": (4, 16, 2, 2, 2)}


@pytest.mark.parametrize("name", list(SHAPES))
def test_channels_dropped_whole_and_scaled(name):
    fn = getattr(ops, name)
    x = Tensor(np.ones(SHAPES[name], np.float32))
    ms.set_seed(5)
    out = fn(x, 0.25).asnumpy()
    per_channel = out.reshape(out.shape[0], out.shape[1], -1)
    assert np.all((per_channel == 0).all(-1) | (np.abs(per_channel - 1 / 0.75) < 1e-6).all(-1))
    frac = (per_channel[..., 0] == 0).mean()
    assert 0.05 < frac < 0.5
    ms.set_seed(5)
    np.testing.assert_array_equal(fn(x, 0.25).asnumpy(), out)  # the framework RNG
    assert fn(x, 0.25, training=False) is x


def test_dropout1d_unbatched_and_primitives_mask():
    x = Tensor(np.ones((8, 5), np.float32))
    out = ops.dropout1d(x, 0.5).asnumpy()
    assert out.shape == (8, 5) and np.all((out == 0).all(-1) | (out == 2).all(-1))
    o, mask = ops.Dropout2D(0.8)(Tensor(np.ones((2, 3, 2, 2), np.float32)))
    assert mask.dtype == ms.bool_ and mask.shape == (2, 3, 2, 2)
    np.testing.assert_allclose(o.asnumpy(), mask.asnumpy() / 0.8, rtol=1e-6)
    o3, m3 = ops.Dropout3D(keep_prob=0.0)(Tensor(np.ones((1, 2, 1, 1, 1), np.float32)))
    assert np.all(o3.asnumpy() == 0)
    xi = Tensor(np.full((2, 4, 2, 2), 3, np.int32))  # integer inputs keep their dtype
    oi = ops.dropout2d(xi, 0.5)
    assert oi.dtype == ms.int32 and set(np.unique(oi.asnumpy())) <= {0, 6}


def test_layers_train_eval_jit_and_grad():
    x = Tensor(np.random.RandomState(0).rand(2, 8, 3, 3).astype(np.float32) + 0.5)
    d = nn.Dropout2d(0.5)
    assert d(x) is x  # a Cell is in inference until set_train
    d.set_train()
    ms.set_seed(1)
    eager = d(x).asnumpy()
    ms.set_seed(1)  # the gradient runs compiled: the same mask as eagerly
    g = ms.grad(lambda t: (d(t) * t).sum())(x).asnumpy()
    keep = eager != 0
    np.testing.assert_allclose(g[keep], 2 * 2 * x.asnumpy()[keep], rtol=1e-5)
    assert np.all(g[~keep] == 0)
    for cls, shape in ((nn.Dropout1d, (2, 8, 3)), (nn.Dropout3d, (2, 8, 1, 2, 2))):
        out = cls(0.5).set_train()(Tensor(np.ones(shape, np.float32))).asnumpy()
        assert set(np.unique(out)) <= {0.0, 2.0}
    assert repr(nn.Dropout2d(0.2)) == "Dropout2d(p=0.8)"  # MindSpore prints keep_prob there
    assert nn.DropoutExt(0.5)(x) is x
    out = nn.DropoutExt(0.5).set_train()(x).asnumpy()
    assert set(np.unique(out[out != 0] / (2 * x.asnumpy()[out != 0])).round(5)) == {1.0}
    out = nn.Dropout2dExt(0.5).set_train()(x).asnumpy()
    assert np.all((out.reshape(2, 8, -1) == 0).all(-1) | (out.reshape(2, 8, -1) != 0).all(-1))


X4 = Tensor(np.ones((2, 4, 3, 3), np.float32))
ERRORS = [
    (
        lambda: ops.dropout2d(X4[0], 0.5),
        ValueError,
        "For primitive[Dropout2D], the rank of input  must be equal to 4 , but got 3.",
    ),
    (lambda: ops.dropout1d(X4, 0.5), ValueError, "For dropout1d, input shape should be 2D or 3D, but got 4."),
    (lambda: ops.dropout1d(X4, 1), TypeError, "For dropout1d, 'p' must be float"),
    (lambda: ops.dropout3d(X4, 0.5), ValueError, "For primitive[Dropout3D], the rank of input  must be equal to 5"),
    (
        lambda: ops.dropout2d(X4, 1.5),
        ValueError,
        "For 'Dropout2D', the 'keep_prob' must be in range of [0.0, 1.0], but got -0.5 with type 'float'.",
    ),
    (
        lambda: ops.Dropout2D(1.5),
        ValueError,
        "For 'Dropout2D', the 'keep_prob' must be in range of [0.0, 1.0], but got 1.5 with type 'float'.",
    ),
    (lambda: nn.Dropout2d(1), TypeError, "For 'Dropout2d', the type of 'p' should be 'float', but got type 'int'."),
    (lambda: nn.Dropout3d(1.5), ValueError, "For 'Dropout3d', the 'p' must be a number in range [0, 1], but got 1.5."),
]


@pytest.mark.parametrize("fn,err,msg", ERRORS)
def test_errors(fn, err, msg):
    with pytest.raises(err) as info:
        fn()
    assert msg in str(info.value)
