"""Every collective on each rank; prints one JSON line per rank (run under `sporax launch -n 2`)."""

import json

import mindspore as ms
import numpy as np
from mindspore import Tensor, ops
from mindspore.communication import comm_func, get_group_size, get_rank, init

init()
r, n = get_rank(), get_group_size()
x = Tensor(np.full((2, 3), r + 1, np.float32))


@ms.jit
def compiled_sum(a):
    return ops.AllReduce()(a * 2) + 1


out = {
    "rank": r,
    "size": n,
    "sum": ops.AllReduce()(x).asnumpy().tolist(),
    "max": float(ops.AllReduce(ops.ReduceOp.MAX)(x).asnumpy()[0, 0]),
    "min": float(ops.AllReduce(ops.ReduceOp.MIN)(x).asnumpy()[0, 0]),
    "prod": float(ops.AllReduce(ops.ReduceOp.PROD)(x).asnumpy()[0, 0]),
    "int_sum": int(ops.AllReduce()(Tensor([r + 1], ms.int32)).asnumpy()[0]),
    "gather": ops.AllGather()(x).asnumpy()[:, 0].tolist(),
    "reduce_scatter": ops.ReduceScatter()(Tensor(np.arange(4, dtype=np.float32) * (r + 1))).asnumpy().tolist(),
    "broadcast": float(ops.Broadcast(1)((x,))[0].asnumpy()[0, 0]),
    "jit": float(compiled_sum(x).asnumpy()[0, 0]),
    "func_all_reduce": comm_func.all_reduce(x)[0].asnumpy()[0, 0].item(),
    "func_gather_shape": list(comm_func.all_gather_into_tensor(x)[0].shape),
    "func_broadcast": comm_func.broadcast(x, src=0).asnumpy()[0, 0].item(),
}
comm_func.barrier()
print(json.dumps(out), flush=True)
