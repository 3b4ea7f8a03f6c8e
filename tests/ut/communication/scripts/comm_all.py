"""Every communication API family on each rank of `sporax launch -n 2`; prints one JSON line per rank."""

import json

import mindspore as ms
import numpy as np
from mindspore import Tensor, ops
from mindspore.communication import comm_func
from mindspore.mint import distributed as dist

dist.init_process_group()
r, n = dist.get_rank(), dist.get_world_size()
f32 = np.float32


def t(v):
    return Tensor(np.asarray(v, f32))


out = {"rank": r, "size": n, "initialized": dist.is_initialized()}

# mint.distributed: in place
x = t([r + 1.0, 10.0 * (r + 1)])
dist.all_reduce(x)
out["all_reduce"] = x.asnumpy().tolist()
x = t([r + 1.0, 2.0])
dist.all_reduce(x, op="avg")
out["avg"] = x.asnumpy().tolist()
lst = [t([0.0, 0.0]) for _ in range(n)]
dist.all_gather(lst, t([r, r]))
out["all_gather"] = [v.asnumpy().tolist() for v in lst]
g = t(np.zeros((4,)))
dist.all_gather_into_tensor(g, t([r, r]))
out["all_gather_into_tensor"] = g.asnumpy().tolist()
b = t([r + 5.0, r + 5.0])
dist.broadcast(b, src=1)
out["broadcast"] = b.asnumpy().tolist()
red = t([r + 1.0, r + 1.0])
dist.reduce(red, dst=0, op="max")
out["reduce"] = red.asnumpy().tolist()
rs = t([0.0])
dist.reduce_scatter_tensor(rs, t([1.0 + r, 2.0 + r]))
out["reduce_scatter_tensor"] = rs.asnumpy().tolist()
gl = [t([0.0, 0.0]) for _ in range(n)]
dist.gather(t([r, r]), gl, dst=1)
out["gather"] = [v.asnumpy().tolist() for v in gl]
sc = t([0.0, 0.0])
dist.scatter(sc, [t([10.0, 11.0]), t([20.0, 21.0])] if r == 0 else None, src=0)
out["scatter"] = sc.asnumpy().tolist()
a2a_out = [t([0.0, 0.0]) for _ in range(n)]
dist.all_to_all(a2a_out, [t([10 * r + j, 10 * r + j]) for j in range(n)])
out["all_to_all"] = [v.asnumpy().tolist() for v in a2a_out]
single = t(np.zeros(3 if r == 0 else 3))
# rank 0 sends 1 row to rank 0 and 2 to rank 1; rank 1 sends 2 rows to rank 0 and 1 to rank 1
dist.all_to_all_single(
    single, t([100 * r + k for k in range(3)]), [1, 2] if r == 0 else [2, 1], [1, 2] if r == 0 else [2, 1]
)
out["all_to_all_single"] = single.asnumpy().tolist()
uneven = t(np.zeros(3))
dist.all_gather_into_tensor_uneven(uneven, t([r + 1.0] * (r + 1)), [1, 2])
out["gather_uneven"] = uneven.asnumpy().tolist()
# point to point
if r == 0:
    dist.send(t([1.0, 2.0, 3.0]), dst=1)
    h = dist.isend(t([4.0]), dst=1, tag=7)
    h.wait()
    dist.send_object_list([{"from": 0}, [1, 2]], dst=1)
else:
    buf = t([0.0, 0.0, 0.0])
    assert dist.recv(buf, src=0) == 0
    out["recv"] = buf.asnumpy().tolist()
    b2 = t([0.0])
    dist.irecv(b2, src=0, tag=7).wait()
    out["irecv"] = b2.asnumpy().tolist()
    objs = [None, None]
    dist.recv_object_list(objs, src=0)
    out["recv_object_list"] = objs
peer = 1 - r
recv_buf = t([0.0, 0.0])
handles = dist.batch_isend_irecv([dist.P2POp("isend", t([r, r]), peer), dist.P2POp("irecv", recv_buf, peer)])
handles[0].wait()
out["batch_isend_irecv"] = recv_buf.asnumpy().tolist()
# objects
objs = [None] * n
dist.all_gather_object(objs, {"rank": r})
out["all_gather_object"] = objs
bl = ["a", r] if r == 1 else [None, None]
dist.broadcast_object_list(bl, src=1)
out["broadcast_object_list"] = bl
so = [None]
dist.scatter_object_list(so, ["for0", "for1"] if r == 0 else None, src=0)
out["scatter_object_list"] = so[0]
gathered = [None] * n if r == 0 else None
dist.gather_object(r * 3, gathered, dst=0)
out["gather_object"] = gathered
# ops functions out of place, primitives, comm_func
ops.set_comm_ops_inplace(False)
res, handle = ops.all_reduce(t([r + 1.0]), op="prod")
out["ops_prod"] = res.asnumpy().tolist()
ops.set_comm_ops_inplace(True)
out["Reduce"] = ops.Reduce(0)(t([r + 1.0, 1.0])).asnumpy().tolist()
out["AlltoAll"] = ops.AlltoAll(2, 0, 0)(t([[r, 0.0], [r, 1.0]])).asnumpy().tolist()
out["AllGatherV"] = ops.AllGatherV()(t([r + 1.0] * (r + 1)), [1, 2]).asnumpy().tolist()
out["CollectiveScatter"] = ops.CollectiveScatter(1)(t([[r, 0.0], [r, 1.0]])).asnumpy().tolist()
if r == 0:
    ops.Send(3, 1)(t([9.0, 8.0]))
else:
    out["Receive"] = ops.Receive(3, 0, [2], ms.float32)().asnumpy().tolist()
# MindSpore's NeighborExchangeV2 example: rank 0 exchanges its bottom row with rank 1's top row
if r == 0:
    nx = ops.NeighborExchangeV2(
        [-1, -1, -1, -1, 1, -1, -1, -1], [0, 1, 0, 0], [-1, -1, -1, -1, 1, -1, -1, -1], [0, 1, 0, 0], "NCHW"
    )
    out["NeighborExchangeV2"] = nx(Tensor(np.ones([1, 1, 2, 2]), ms.float32)).asnumpy().tolist()
else:
    nx = ops.NeighborExchangeV2(
        [0, -1, -1, -1, -1, -1, -1, -1], [1, 0, 0, 0], [0, -1, -1, -1, -1, -1, -1, -1], [1, 0, 0, 0], "NCHW"
    )
    out["NeighborExchangeV2"] = nx(Tensor(np.ones([1, 1, 2, 2]) * 2, ms.float32)).asnumpy().tolist()
out["comm_func_reduce"] = comm_func.reduce(t([r + 2.0, 1.0]), dst=1).asnumpy().tolist()
out["comm_func_scatter"] = comm_func.scatter_tensor(t([[r, 0.0], [r, 1.0]]), src=0).asnumpy().tolist()
store = ops.TCPStore("127.0.0.1", 0)
store.add("counter", r + 1)
dist.barrier()
out["store"] = int(store.add("counter", 0))
dist.barrier()
print(json.dumps(out), flush=True)
