"""The float-status primitives have their meaning on every backend: a status tensor records whether anything
it was made to depend on overflowed (ModelZoo's loss-scale cells), eagerly and inside jit / GRAPH_MODE."""

import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops
from sporax.common import dtype as mstype


def test_float_status_of_one_tensor():
    fs = ops.FloatStatus()
    out = fs(ms.Tensor(np.array([1.0, np.inf], np.float32)))
    assert out.shape == (1,) and out.dtype == mstype.float32 and out.asnumpy().tolist() == [1.0]
    assert fs(ms.Tensor(np.array([1.0, 2.0], np.float16))).asnumpy().tolist() == [0.0]
    assert fs(ms.Tensor(np.array([np.nan]))).asnumpy().tolist() == [1.0]


class LossScaleStep(nn.Cell):
    """The status flow of ModelZoo's TrainOneStepWithLossScaleCell (MindSpore 1.x, Ascend)."""

    def __init__(self):
        super().__init__()
        self.alloc_status = ops.NPUAllocFloatStatus()
        self.get_status = ops.NPUGetFloatStatus()
        self.clear_status = ops.NPUClearFloatStatus()
        self.reduce_sum = ops.ReduceSum(keep_dims=False)
        self.base = ms.Tensor(1, mstype.float32)
        self.less_equal = ops.LessEqual()

    def construct(self, x, scale):
        loss = ops.reduce_sum(x * x)
        init = self.alloc_status()
        init = ops.depend(init, loss)
        clear_status = self.clear_status(init)
        scale = ops.depend(scale, clear_status)
        grads = ms.grad(lambda t: ops.reduce_sum(t * t) * scale)(x)
        init = ops.depend(init, (grads,))
        get_status = self.get_status(init)
        init = ops.depend(init, get_status)
        flag_sum = self.reduce_sum(init, (0,))
        return self.less_equal(self.base, flag_sum), init


@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_loss_scale_status_flow(mode):
    step = LossScaleStep()
    run = step if mode == "eager" else ms.jit(step.construct)
    x = ms.Tensor(np.array([1.0, 2.0], np.float16))
    overflow, status = run(x, ms.Tensor(np.float16(1024.0)))
    assert not bool(overflow) and status.shape == (8,) and status.asnumpy().sum() == 0
    overflow, status = run(x, ms.Tensor(np.float16(60000.0)))  # 2 * 2 * 60000 overflows float16
    assert bool(overflow) and status.asnumpy()[0] == 1.0


def test_clear_forgets_what_came_before():
    status = ops.NPUAllocFloatStatus()()
    ops.depend(status, ms.Tensor(np.array([np.inf], np.float32)))
    zeros = ops.NPUClearFloatStatus()(status)
    assert zeros.asnumpy().tolist() == [0.0] * 8
    ops.depend(status, ms.Tensor(np.array([1.0], np.float32)))
    assert ops.NPUGetFloatStatus()(status).asnumpy().sum() == 0.0
    ops.depend(status, [ms.Tensor(np.array([np.nan], np.float32))])
    got = ops.NPUGetFloatStatus()(status)
    assert got is status and status.asnumpy().tolist() == [1.0] + [0.0] * 7
