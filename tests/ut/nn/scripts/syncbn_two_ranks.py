"""nn.SyncBatchNorm on each rank of `sporax launch -n 2`: each rank holds half the batch; the outputs, the
moving statistics and the gradients must equal a plain BatchNorm2d over the whole batch. Prints one JSON line."""

import json

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn
from mindspore.communication import get_group_size, get_rank, init

init()
r, n = get_rank(), get_group_size()
full = np.random.RandomState(0).randn(4 * n, 3, 2, 2).astype(np.float32)
mine = full[4 * r : 4 * (r + 1)]
probe = np.random.RandomState(1).randn(*full.shape).astype(np.float32)

sync = nn.SyncBatchNorm(3)
ref = nn.BatchNorm2d(3)
for net in (sync, ref):
    net.set_train(True)
    net.gamma.set_data(Tensor(np.array([1.0, 2.0, 0.5], np.float32)))
out = {"rank": r, "is_global": sync.is_global}
y = sync(Tensor(mine)).asnumpy()
y_ref = ref(Tensor(full)).asnumpy()[4 * r : 4 * (r + 1)]
out["forward"] = float(np.abs(y - y_ref).max())
out["moving_var"] = float(np.abs(sync.moving_variance.asnumpy() - ref.moving_variance.asnumpy()).max())
out["moving_mean"] = float(np.abs(sync.moving_mean.asnumpy() - ref.moving_mean.asnumpy()).max())
jy = ms.jit(sync)(Tensor(mine)).asnumpy()
out["jit"] = float(np.abs(jy - y_ref).max())

# gradients: d/dx and d/dgamma of sum(y * probe); the reference over the full batch
p_mine = Tensor(probe[4 * r : 4 * (r + 1)])
gx, (gg, gb) = ms.value_and_grad(lambda t: (sync(t) * p_mine).sum(), 0, [sync.gamma, sync.beta])(Tensor(mine))[1]
rx, (rg, rb) = ms.value_and_grad(lambda t: (ref(t) * Tensor(probe)).sum(), 0, [ref.gamma, ref.beta])(Tensor(full))[1]
out["grad_x"] = float(np.abs(gx.asnumpy() - rx.asnumpy()[4 * r : 4 * (r + 1)]).max())
# each rank's gamma gradient is its share; their sum (what a DistributedGradReducer's all-reduce gives) is the
# full-batch one
from mindspore.communication import comm_func  # noqa: E402

out["grad_gamma"] = float(np.abs(comm_func.all_reduce(gg)[0].asnumpy() - rg.asnumpy()).max())
out["grad_beta"] = float(np.abs(comm_func.all_reduce(gb)[0].asnumpy() - rb.asnumpy()).max())
print(json.dumps(out), flush=True)
