"""Quickstart (MindSpore tutorial, seed 000): an MLP trained by hand with value_and_grad and @jit.

Written exactly as a MindSpore user writes it; run it with `sporax run examples/quickstart.py`.
"""

import mindspore
import numpy as np
from mindspore import Tensor, nn


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mlp = nn.SequentialCell(
            [
                nn.Dense(16 * 16, 128),
                nn.ReLU(),
                nn.Dense(128, 128),
                nn.ReLU(),
                nn.Dense(128, 10),
            ]
        )
        self.loss_fn = nn.CrossEntropyLoss()

    def construct(self, x, y):
        return self.loss_fn(self.mlp(x), y)


def main():
    mindspore.set_seed(0)
    np.random.seed(0)
    model = MLP()
    optimizer = nn.SGD(model.trainable_params(), 0.1)
    grad_fn = mindspore.value_and_grad(model, None, optimizer.parameters)

    @mindspore.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    # a learnable toy task: the label is the index of the largest of 10 pixel groups
    x = np.random.randn(256, 256).astype(np.float32)
    y = x[:, :250].reshape(256, 10, 25).sum(-1).argmax(-1).astype(np.int32)
    x, y = Tensor(x), Tensor(y)
    total_step = 50
    for step in range(total_step):
        loss = train_step(x, y)
        if step % 10 == 0 or step == total_step - 1:
            print(f"loss: {loss:>7f}  [{step + 1:>5d}/{total_step:>5d}]")


if __name__ == "__main__":
    main()
