"""parameter_broadcast=True: the reducer gives every rank rank 0's initial weights (no common seed)."""

import mindspore as ms
from mindspore import nn
from mindspore.communication import get_rank, init

init()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True, parameter_broadcast=True)
ms.set_seed(10 + get_rank())  # different initial weights per rank
net = nn.Dense(4, 3)
before = float(net.weight.asnumpy().sum())
nn.DistributedGradReducer(net.trainable_params())
print("broadcast", get_rank(), before, float(net.weight.asnumpy().sum()), flush=True)
