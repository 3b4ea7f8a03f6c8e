"""Networks of the mindspore.rewrite reference (tools/make_top_reference.py rewrite), at module level as
MindSpore's rewrite needs; tests/ut/common/test_rewrite.py defines the same networks on sporax."""

import numpy as np
from mindspore import Tensor, nn, ops


class RwNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.dense.weight.set_data(Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) / 10 - 0.5))
        self.dense.bias.set_data(Tensor(np.array([0.1, -0.2, 0.3], np.float32)))
        self.relu = nn.ReLU()
        self.add = ops.Add()

    def construct(self, x, y=1):
        x = self.dense(x)
        z = self.relu(x)
        w = self.add(z, y)
        v = ops.abs(w)
        u = v * 2 + x
        return u


class RwSub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(x) + 1


class RwOuter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.dense.weight.set_data(Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) / 10 - 0.5))
        self.dense.bias.set_data(Tensor(np.array([0.1, -0.2, 0.3], np.float32)))
        self.sub = RwSub()

    def construct(self, x):
        x = self.dense(x)
        y = self.sub(x)
        return y
