"""A central finite-difference check of gradients, shared by the nn layer tests."""

import numpy as np

import sporax as ms


def assert_fd_grads(f, x, params, grads, rtol, atol, eps=1e-6):
    """``grads`` (of the scalar ``f`` at ``x``: first w.r.t. ``x``, then each of ``params``) equal central finite
    differences of ``f``; each Parameter is restored after it is perturbed."""
    xv = x.asnumpy().copy()
    for p, g in zip([None, *params], grads):
        base = xv if p is None else p.asnumpy().copy()
        num = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            vals = []
            for sgn in (1, -1):
                v = base.copy()
                v[idx] += sgn * eps
                if p is None:
                    vals.append(float(f(ms.Tensor(v)).asnumpy()))
                else:
                    p.set_data(ms.Tensor(v))
                    vals.append(float(f(x).asnumpy()))
            num[idx] = (vals[0] - vals[1]) / (2 * eps)
        if p is not None:
            p.set_data(ms.Tensor(base))
        np.testing.assert_allclose(g.asnumpy(), num, rtol=rtol, atol=atol, err_msg="x" if p is None else p.name)
