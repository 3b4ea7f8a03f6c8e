"""Rank 1 is killed by SIGKILL while rank 0 waits for it in a collective."""

import os
import signal

import numpy as np
from mindspore import Tensor, ops
from mindspore.communication import get_rank, init

init()
if get_rank() == 1:
    os.kill(os.getpid(), signal.SIGKILL)
ops.AllReduce()(Tensor(np.ones(3, np.float32))).asnumpy()
