"""Print what msrun's environment tells a rank, then all-reduce: run by an unmodified msrun launch script."""

import json
import os

import numpy as np
from mindspore import Tensor, ops
from mindspore.communication import get_group_size, get_rank, init

init()
keys = ["RANK_ID", "RANK_SIZE", "DEVICE_ID", "MS_WORKER_NUM", "MS_NODE_ID", "MS_ROLE", "MS_SCHED_HOST", "MS_SCHED_PORT"]
env = {k: os.environ.get(k) for k in keys}
total = ops.AllReduce()(Tensor(np.full(2, get_rank() + 1, np.float32))).asnumpy().tolist()
print("RESULT " + json.dumps({"rank": get_rank(), "size": get_group_size(), "env": env, "sum": total}), flush=True)
