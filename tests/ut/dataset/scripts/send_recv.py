"""Dataset.send / Dataset.recv on each rank of `sporax launch -n 2`; prints one JSON line per rank."""

import json

import numpy as np

import sporax.dataset as ds
from sporax import Tensor
from sporax.mint import distributed as dist

dist.init_process_group()
r = dist.get_rank()
data = ds.NumpySlicesDataset(
    {"a": np.arange(6, dtype=np.float32).reshape(3, 2) + 10 * r, "b": np.arange(3, dtype=np.int32) + r},
    shuffle=False,
)
out = {"rank": r}
if r == 0:
    data.send(dst=1)  # this dataset's first row
    data.send(Tensor(np.full((2, 3), 7, np.int64)), dst=[1])
    out["own"] = [t.asnumpy().tolist() for t in data.recv(src=0)]  # own rank: the next row of this dataset
else:
    row = data.recv(src=0)
    out["row"] = [(t.asnumpy().tolist(), str(t.dtype)) for t in row]
    t = data.recv(src=0)
    out["tensor"] = (t.asnumpy().tolist(), str(t.dtype))
print(json.dumps(out))
