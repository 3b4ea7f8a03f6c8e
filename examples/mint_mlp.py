"""A small classifier written entirely in ``mindspore.mint``: mint.nn layers, mint.nn.functional losses,
mint.optim.AdamW and a ``jit`` train step. Run it with `sporax run examples/mint_mlp.py [steps]`.
"""

import sys

import mindspore as ms
import numpy as np
from mindspore import mint, nn
from mindspore.mint.nn import functional as F


class Net(nn.Cell):
    def __init__(self, in_features=16, hidden=32, classes=4):
        super().__init__()
        self.conv = mint.nn.Conv1d(1, 4, 3, padding=1)
        self.bn = mint.nn.BatchNorm1d(4)
        self.fc1 = mint.nn.Linear(4 * in_features, hidden)
        self.act = mint.nn.GELU()
        self.fc2 = mint.nn.Linear(hidden, classes)

    def construct(self, x):
        h = self.bn(self.conv(mint.unsqueeze(x, 1)))
        h = mint.flatten(F.relu(h), 1)
        return self.fc2(self.act(self.fc1(h)))


def main(steps=30, batch=32, in_features=16, classes=4):
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    centers = rng.standard_normal((classes, in_features)).astype(np.float32) * 2
    labels = rng.integers(0, classes, batch)
    x = ms.Tensor(centers[labels] + rng.standard_normal((batch, in_features)).astype(np.float32) * 0.5)
    y = ms.Tensor(labels.astype(np.int64))

    net = Net(in_features, 32, classes)
    net.set_train(True)
    optimizer = mint.optim.AdamW(net.trainable_params(), lr=1e-2)

    def forward(data, label):
        return F.cross_entropy(net(data), label)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    @ms.jit
    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    losses = [float(train_step(x, y)) for _ in range(steps)]
    net.set_train(False)
    acc = float(mint.mean((mint.argmax(net(x), 1) == y).astype(ms.float32)))
    print(f"loss {losses[0]:.4f} -> {losses[-1]:.4f}, train accuracy {acc:.2f}")
    return losses, acc


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
