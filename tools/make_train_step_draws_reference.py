"""Record, with real MindSpore 2.10 (CPU), which dropout masks a train step's loss and gradient see.

Each step cell runs ``sum(dropout(w * x))`` (w = 1, x = ones(1000), p = 0.5): its value is the count of kept
elements times 2, and its gradient w.r.t. ``w`` is the same count for the mask the gradient's forward drew,
so equal numbers mean one mask. Writes tests/ut/nn/fixtures/train_step_draws_ms210.json, which
tests/ut/nn/test_train_step_draws.py compares sporax's pattern of equal masks with.

Run with MindSpore's venv, from /tmp (MindSpore leaves files in its working directory):
    cd /tmp && /work/msvenv/bin/python /work/main/tools/make_train_step_draws_reference.py
"""

import json
import pathlib

import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn, ops

OUT = pathlib.Path(__file__).resolve().parents[1] / "tests" / "ut" / "nn" / "fixtures" / "train_step_draws_ms210.json"


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((1,), np.float32)), name="w")
        self.drop = nn.Dropout(p=0.5)

    def construct(self, x):
        return self.drop(self.w * x).sum()


class _Step(nn.Cell):
    sens_param = False

    def __init__(self, net):
        super().__init__()
        self.net = net
        self.weights = net.trainable_params()
        self.grad = ops.GradOperation(get_by_list=True, sens_param=self.sens_param)


class StepSens(_Step):
    """loss = net(x); grads = grad(net, weights)(x, sens): the ModelZoo train-step form."""

    sens_param = True

    def construct(self, x):
        loss = self.net(x)
        g = self.grad(self.net, self.weights)(x, ops.ones_like(loss))
        return loss, g[0]


class StepNoSens(_Step):
    def construct(self, x):
        loss = self.net(x)
        g = self.grad(self.net, self.weights)(x)
        return loss, g[0]


class StepTwice(_Step):
    """Two calls of the network, then its gradient."""

    def construct(self, x):
        loss = self.net(x)
        loss2 = self.net(x)
        g = self.grad(self.net, self.weights)(x)
        return loss, g[0], loss2


class StepOther(_Step):
    """The gradient on other inputs than the call's."""

    def construct(self, x, y):
        loss = self.net(x)
        g = self.grad(self.net, self.weights)(y)
        return loss, g[0]


def main():
    result = {"mindspore": ms.__version__}
    for mode_name, mode in (("graph", ms.GRAPH_MODE), ("pynative", ms.PYNATIVE_MODE)):
        ms.set_context(mode=mode)
        for cls in (StepSens, StepNoSens, StepTwice, StepOther):
            ms.set_seed(1)
            net = Net()
            net.set_train()
            step = cls(net)
            x = Tensor(np.ones((1000,), np.float32))
            args = (x, Tensor(np.ones((1000,), np.float32))) if cls is StepOther else (x,)
            steps = [[float(np.asarray(v.asnumpy()).reshape(-1)[0]) for v in step(*args)] for _ in range(3)]
            result[f"{mode_name}/{cls.__name__}"] = steps
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in result.items()) + "\n}\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
