"""Per-sample gradients (MindSpore's vmap tutorial style): ``vmap`` over ``value_and_grad`` of a model written
with ``mindspore.numpy``. Run it with `sporax run examples/numpy_per_sample_grads.py [batch] [features]`.
"""

import sys

import mindspore as ms
import mindspore.numpy as mnp
import numpy as np
from mindspore import ops


def predict(weights, bias, x):
    return mnp.tanh(mnp.dot(x, weights) + bias)


def loss_fn(weights, bias, x, target):
    pred = predict(weights, bias, x)
    return mnp.mean(mnp.square(pred - target))


def main(batch=8, features=4):
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    weights = mnp.asarray(rng.standard_normal((features, 1)).astype(np.float32).tolist())
    bias = mnp.zeros((1,))
    x = mnp.asarray(rng.standard_normal((batch, features)).astype(np.float32).tolist())
    target = mnp.asarray(rng.standard_normal((batch, 1)).astype(np.float32).tolist())

    grad_fn = ms.value_and_grad(loss_fn, grad_position=(0, 1))
    per_sample = ms.vmap(grad_fn, in_axes=(None, None, 0, 0))
    losses, (w_grads, b_grads) = per_sample(weights, bias, x, target)

    # the mean of the per-sample gradients is the batch gradient
    _, (w_batch, b_batch) = grad_fn(weights, bias, x, target)
    err = float(mnp.amax(mnp.abs(mnp.mean(w_grads, axis=0) - w_batch)))
    print(f"per-sample losses {losses.shape}, weight grads {w_grads.shape}, bias grads {b_grads.shape}")
    print(f"max |mean(per-sample) - batch| = {err:.2e}")
    assert err < 1e-5
    _ = ops
    return losses, w_grads, b_grads


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
