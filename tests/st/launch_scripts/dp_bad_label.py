"""A data-parallel train step (collectives compiled in) where rank 1's batch has a label out of range: rank 1
raises the index error when it reads that step's loss (as a loop printing the loss does; the flag is never
waited for at the call itself), and the launcher stops the job."""

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn
from mindspore.communication import get_rank, init

init()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
net = nn.Dense(4, 3)
loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.1, 0.9))
x = Tensor(np.ones((2, 4), np.float32))
print("good step", float(step(x, Tensor(np.array([0, 2], np.int32))).asnumpy()), flush=True)
bad = 5 if get_rank() == 1 else 1
out = step(x, Tensor(np.array([0, bad], np.int32)))
print(f"rank {get_rank()} after the bad step, loss", float(out.asnumpy()), flush=True)
