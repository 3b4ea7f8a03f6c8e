"""Rank 1 stops (a long sleep) before a collective that rank 0 enters: the launcher must name rank 1."""

import time

import numpy as np
from mindspore import Tensor, ops
from mindspore.communication import get_rank, init

init()
if get_rank() == 1:
    time.sleep(600)
ops.AllReduce()(Tensor(np.ones(3, np.float32))).asnumpy()
print("rank 0 must not get here", flush=True)
