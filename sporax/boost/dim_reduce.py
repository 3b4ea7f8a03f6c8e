"""``DimReduce``: a quasi-Newton step in a PCA subspace of the weights, plus momentum on the rest.

As MindSpore 2.10's ``mindspore.boost.DimReduce`` (one device or several, each holding ``n_components /
rank_size`` rows of the PCA matrix)::

    grad_k   = pca_mat . grad                          (the gradient in the subspace, k = n_components)
    dk       = - bk . grad_k                           (bk: BFGS estimate of the inverse Hessian, k x k)
    sk       = rho^m . dk,   m the first of 0, 1 with  new_loss < old_loss + sigma . grad_k^T . sk
    grad_res = gamma . grad_res + grad - pca_mat^T . grad_k
    delta    = alpha . grad_res - pca_mat^T . sk       (the optimizer, SGD with lr 1, applies delta)

``bk`` is updated from ``yk = grad_k - grad_k_last`` and the last ``sk`` when ``yk . sk > 1e-20``. The line
search runs the network on the step's inputs (as MindSpore does); it decides on the host, so the step runs
op by op.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import ops
from ..common import dtype as mstype
from ..common.parameter import Parameter, ParameterTuple
from ..common.tensor import Tensor
from ..nn.cell import Cell

__all__ = ["DimReduce"]


class DimReduce(Cell):
    """The dimension-reduction training step (see the module text).

    Args:
        network (Cell): the network with its loss.
        optimizer (Cell): applies the update (``SGD`` with learning rate 1 under ``AutoBoost``).
        weight (ParameterTuple): the trainable Parameters.
        pca_mat_local (numpy.ndarray): this device's rows of the PCA matrix, ``(k_local, total weight size)``.
        n_components (int): the number of PCA components ``k``.
        rho, gamma, alpha, sigma (float): the step-length base, momentum, residual learning rate and
            sufficient-decrease factor.
        rank (int), rank_size (int): this device and the number of devices.
    """

    def __init__(
        self,
        network: Cell,
        optimizer: Cell,
        weight: Any,
        pca_mat_local: Any,
        n_components: int,
        rho: float,
        gamma: float,
        alpha: float,
        sigma: float,
        rank: int,
        rank_size: int,
    ) -> None:
        super().__init__()
        self.network = network
        self.optimizer = optimizer
        self.rank, self.rank_size = rank, rank_size
        self.gamma, self.alpha, self.sigma = gamma, alpha, sigma
        self.float_type = mstype.float32
        self.max_search_time = 2
        self.rho_list = [Tensor(np.power(rho, i), self.float_type) for i in range(self.max_search_time)]
        self.rho_list.append(Tensor(0, self.float_type))
        self._set_local_pca_mat(pca_mat_local, n_components, weight)
        self._set_init_parameter(weight)

    def _set_local_pca_mat(self, pca_mat_local: Any, n_components: int, parameter_tuple: Any) -> None:
        self.n_components = n_components
        local_dim = math.ceil(n_components // self.rank_size)
        self.start_index = self.rank * local_dim
        self.end_index = (self.rank + 1) * local_dim
        start = 0
        pcas = []
        for param in parameter_tuple:
            size = int(np.prod(param.shape))
            pcas.append(Tensor(np.asarray(pca_mat_local)[:, start : start + size], self.float_type))
            start += size
        self.pca_list_local = tuple(pcas)
        pad_num = self.rank_size * local_dim - n_components
        self.dk_pad_flag = bool(pad_num)
        if pad_num:
            self.dk_pad_part = Tensor(np.zeros([pad_num, 1]), self.float_type)
        if self.rank_size > 1:
            self.broadcast_list = [ops.Broadcast(i) for i in range(self.rank_size)]
            self.allreduce = ops.AllReduce()
            self.allgather = ops.AllGather()

    def _set_init_parameter(self, parameter_tuple: Any) -> None:
        k = self.n_components
        self.epsilon = np.power(10.0, -20)
        self.gk_last = Parameter(Tensor(np.zeros([k, 1]), self.float_type), name="gk_last")
        self.gk_last_init = Parameter(Tensor(False), name="gk_last_init")
        self.bk = Parameter(Tensor(np.eye(k), self.float_type), name="bk")
        self.sk = Parameter(Tensor(np.zeros([k, 1]), self.float_type), name="sk")
        self.eye = Tensor(np.eye(k), self.float_type)
        weights = ParameterTuple(parameter_tuple)
        self.grad_res_momentum = weights.clone(prefix="grad_res_momentum", init="zeros")
        self.gk_last_back = Parameter(Tensor(np.zeros([k, 1]), self.float_type), name="gk_last_back")
        self.bk_back = Parameter(Tensor(np.eye(k), self.float_type), name="bk_back")
        self.grad_proj_init = weights.clone(prefix="grad_proj_init", init="zeros")
        self.dn_init = weights.clone(prefix="dn_init", init="zeros")

    def construct(self, loss: Any, old_grad: Any, loss_scale: Any, weight: Any, weight_clone: Any, *inputs: Any) -> Any:
        gk, old_loss, gk_local = self._generate_gk(loss, old_grad, loss_scale)
        ops.assign(self.gk_last_back, self.gk_last)
        ops.assign(self.bk_back, self.bk)
        dk = self._apply_quasi_newton_update(gk)
        dk_pad = ops.concat((dk, self.dk_pad_part)) if self.dk_pad_flag else dk
        dk_local = dk_pad[self.start_index : self.end_index, :]
        dn = tuple(_back_project(dk_local, p, g) for p, g in zip(self.pca_list_local, old_grad))
        grad_proj = tuple(_back_project(gk_local, p, g) for p, g in zip(self.pca_list_local, old_grad))
        if self.rank_size > 1:
            dn_parts = [b(dn) for b in self.broadcast_list]
            proj_parts = [b(grad_proj) for b in self.broadcast_list]
            dn = tuple(sum(p[i] for p in dn_parts) for i in range(len(dn)))
            grad_proj = tuple(sum(p[i] for p in proj_parts) for i in range(len(grad_proj)))
        rho, find = self._line_search(gk, dk, dn, old_loss, weight, weight_clone, *inputs)
        if not find:
            ops.assign(self.gk_last, self.gk_last_back)
            ops.assign(self.bk, self.bk_back)
        self._res_loss(old_grad, grad_proj, weight, weight_clone, rho, dn)  # the gradients as given (MindSpore)
        return loss

    def _generate_gk(self, loss: Any, old_grad: Any, loss_scale: Any) -> tuple[Any, Any, Any]:
        grads = tuple(ops.cast(g, self.float_type) / loss_scale for g in old_grad)
        old_loss = self.allreduce(loss) // self.rank_size if self.rank_size > 1 else loss
        gk_local = sum(ops.matmul(p, ops.reshape(g, (-1, 1))) for p, g in zip(self.pca_list_local, grads))
        gk_pad = self.allgather(gk_local) if self.rank_size > 1 else gk_local
        gk = ops.reshape(gk_pad, (-1, 1))[0 : self.n_components, :]
        return gk, old_loss, gk_local

    def _apply_quasi_newton_update(self, gk: Any) -> Any:
        """BFGS update of ``bk`` from the last step, then ``dk = -bk . gk``."""
        if bool(self.gk_last_init):
            yk = gk - self.gk_last
            g = float(ops.squeeze(ops.matmul(yk.T, self.sk)))
            if g > self.epsilon:
                pk = 1.0 / g
                t1 = self.eye - ops.matmul(pk * yk, self.sk.T)
                new_bk = ops.matmul(ops.matmul(t1.T, self.bk), t1) + ops.matmul(pk * self.sk, self.sk.T)
                ops.assign(self.bk, new_bk)
        else:
            ops.assign(self.gk_last_init, Tensor(True))
        ops.assign(self.gk_last, gk)
        return -1 * ops.matmul(self.bk, gk)

    def _line_search(self, gk: Any, dk: Any, dn: Any, old_loss: Any, weight: Any, weight_clone: Any, *inputs: Any):
        for i in range(self.max_search_time):
            if self._find_rho(gk, dk, dn, old_loss, weight, weight_clone, self.rho_list[i], *inputs):
                return self.rho_list[i], True
        return self.rho_list[-1], False

    def _find_rho(
        self, gk: Any, dk: Any, dn: Any, old_loss: Any, weight: Any, weight_clone: Any, rho: Any, *inputs: Any
    ):
        """Try the step ``-rho . dn``: keep ``sk = rho . dk`` if the loss falls enough; weights restored."""
        self.optimizer(tuple(-1 * rho * d for d in dn))
        new_loss = self.network(*inputs)
        if self.rank_size > 1:
            new_loss = self.allreduce(new_loss) // self.rank_size
        expected = old_loss + self.sigma * rho * ops.squeeze(ops.matmul(gk.T, dk))
        found = bool(expected > new_loss)
        if found:
            ops.assign(self.sk, rho * dk)
        for w, c in zip(weight, weight_clone):
            ops.assign(w, c.copy())  # copies: the optimizer's compiled step donates its Parameters' buffers
        return found

    def _res_loss(self, old_grad: Any, grad_proj: Any, weight: Any, weight_clone: Any, rho: Any, dn: Any) -> Any:
        deltas = []
        for mom, g, proj, d in zip(self.grad_res_momentum, old_grad, grad_proj, dn):
            new_mom = self.gamma * mom + g - proj
            ops.assign(mom, new_mom)
            deltas.append(self.alpha * new_mom - rho * d)
        self.optimizer(tuple(deltas))
        for c, w in zip(weight_clone, weight):
            ops.assign(c, w.copy())
        return weight_clone


def _back_project(coef: Any, pca: Any, grad: Any) -> Any:
    """``pca^T . coef`` in the shape of ``grad``."""
    return ops.reshape(ops.matmul(pca.T, coef), grad.shape)
