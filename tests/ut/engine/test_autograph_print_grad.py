"""``print`` in converted control flow under reverse-mode autodiff prints once per forward step.

The backward pass of a tensor ``while`` recomputes forward steps; that recomputation must be silent, so
the output is what PyNative prints for the forward pass, and the gradients are unchanged.
"""

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor
from sporax._engine import jax


def _flush():
    jax.effects_barrier()


def _fd(fn, x, eps=1e-4):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        a, b = x.copy(), x.copy()
        a[i] += eps
        b[i] -= eps
        g[i] = (fn(a) - fn(b)) / (2 * eps)
    return g


def _make():
    w = Parameter(Tensor(np.asarray([1.5, 0.5])), name="w")

    def loss(x):
        y = x
        i = 0
        while y.sum() < 20.0:
            print("step", i, y)
            if y.sum() > 5.0:
                print(f"big {y.sum():.3f}")  # a print in an `if` in the loop: a cond inside the body
                y = y + 0.25
            y = y * w + 1.0
            i = i + 1
        return (y * y).sum()

    return w, loss


X = np.asarray([1.0, 2.0])


@pytest.mark.parametrize("mode", ["pynative", "jit", "graph"])
def test_print_in_a_differentiated_while_prints_each_forward_step_once(capsys, mode):
    w, loss = _make()
    want_value = float(loss(Tensor(X)))
    eager = capsys.readouterr().out
    assert eager.count("step") == 5 and eager.count("big") == 3

    vg = ms.value_and_grad(loss, 0, [w])
    if mode == "jit":
        vg = ms.jit(vg)
    elif mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    value, (gx, (gw,)) = vg(Tensor(X))
    _flush()
    assert capsys.readouterr().out == eager
    ms.set_context(mode=ms.PYNATIVE_MODE)

    assert float(value) == pytest.approx(want_value)
    np.testing.assert_allclose(gx.asnumpy(), _fd(lambda a: float(loss(Tensor(a))), X), rtol=1e-5)

    def loss_w(wv):
        w.set_data(Tensor(wv))
        return float(loss(Tensor(X)))

    w0 = w.asnumpy()
    want_gw = _fd(loss_w, w0)
    w.set_data(Tensor(w0))
    capsys.readouterr()
    np.testing.assert_allclose(gw.asnumpy(), want_gw, rtol=1e-5)

    # a second call runs the compiled program again: the same output, once
    vg(Tensor(X))
    _flush()
    assert capsys.readouterr().out == eager


def test_print_in_a_tensor_range_loop_under_grad(capsys):
    def loss(x, n):
        y = x
        for i in range(n):
            print("i", i, y.sum())
            y = y * 1.5
        return y.sum()

    n = Tensor(np.asarray(3, np.int64))
    loss(Tensor(X), n)
    eager = capsys.readouterr().out
    g = ms.grad(loss)(Tensor(X), n)
    _flush()
    assert capsys.readouterr().out == eager
    np.testing.assert_allclose(g.asnumpy(), [1.5**3] * 2)


def test_print_in_a_differentiated_if_prints_once(capsys):
    def loss(x):
        if x.sum() > 0:
            print("positive", x.sum())
            y = (x * x).sum()
        else:
            print("negative", x)
            y = (-x).sum()
        return y

    for x in ([1.0, 2.0], [-1.0, -2.0]):
        x = Tensor(np.asarray(x))
        loss(x)
        eager = capsys.readouterr().out
        for grad in (ms.grad(loss), ms.jit(ms.grad(loss))):
            g = grad(x)
            _flush()
            assert capsys.readouterr().out == eager
            np.testing.assert_allclose(g.asnumpy(), 2 * x.asnumpy() if float(x.sum()) > 0 else -np.ones(2))


def test_only_the_rewrites_prints_are_silenced(capsys):
    """A user's own jax.debug.callback in the loop is left alone (it runs in the recomputation too)."""
    calls = []

    def loss(x):
        y = x
        while y.sum() < 10.0:
            print("step", y.sum())
            jax.debug.callback(lambda v: calls.append(float(v)), y.sum())
            y = y * 2.0
        return y.sum()

    loss(Tensor(X))
    eager = capsys.readouterr().out
    calls.clear()
    ms.grad(loss)(Tensor(X))
    _flush()
    assert capsys.readouterr().out == eager
    # forward: 2 steps (3 -> 6 -> 12); backward recomputation: 1 + 0 steps replayed, then the step itself
    assert calls[:2] == [3.0, 6.0] and len(calls) > 2
