"""boost.AdaSum on each rank of `sporax launch -n 2` (one device per group, two groups): every rank ends with
old - AdaSum(update of rank 0, update of rank 1). Prints one JSON line."""

import json

import numpy as np
from mindspore import Parameter, Tensor, boost
from mindspore.communication import get_group_size, get_rank, init

init()
r, n = get_rank(), get_group_size()
updates = [np.random.RandomState(10 + i).randn(3, 4).astype(np.float32) for i in range(n)]
old = np.random.RandomState(0).randn(3, 4).astype(np.float32)
param = Parameter(Tensor(old.copy()), name="w")
old_param = Parameter(Tensor(old.copy()), name="old_w")
ada = boost.AdaSum(r, 1, n, [param])
ada((Tensor(updates[r]),), [param], [old_param])
a, b = updates
dot = (a * b).sum() + 1e-12
want = (1 - dot / (2 * ((a * a).sum() + 1e-12))) * a + (1 - dot / (2 * ((b * b).sum() + 1e-12))) * b
out = {"rank": r, "size": n, "calc_times": ada.calc_times, "err": float(np.abs(param.asnumpy() - (old - want)).max())}
print(json.dumps(out), flush=True)
