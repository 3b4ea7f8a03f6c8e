"""Rank 1 fails while rank 0 waits for it in a collective: `sporax launch` must stop both."""

import numpy as np
from mindspore import Tensor, ops
from mindspore.communication import get_rank, init

init()
if get_rank() == 1:
    raise ValueError("rank 1 fails on purpose")
ops.AllReduce()(Tensor(np.ones(3, np.float32)))
print("rank 0 must not get here", flush=True)
