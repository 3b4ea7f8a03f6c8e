"""``OptimizerProcess`` / ``ParameterProcess``: rebuild an optimizer over new parameter groups (gradient
centralization, a boosted network's Parameters, gradient fusion groups), and the PCA helpers of ``DimReduce``.

As MindSpore 2.10's ``mindspore.boost.base``: an optimizer is rebuilt from the arguments it was made with
(``init_args``/``init_params``/``init_learning_rate``, recorded by ``opt_init_args_register``); a ``LARS``
is rebuilt around a rebuilt inner optimizer.
"""

from __future__ import annotations

import copy
import logging
import math
import os
import time
from typing import Any

import numpy as np

from .. import nn
from .._checkparam import check_param_list
from ..common.parameter import Parameter
from ..nn.optim import LARS
from .less_batch_normalization import CommonHeadLastFN

__all__ = ["OptimizerProcess", "ParameterProcess"]

_log = logging.getLogger("sporax")


def _opt_parts(opt: Any) -> tuple[bool, Any, dict, dict, Any]:
    """(is LARS, inner optimizer, its init_args, LARS's init_args ({} without LARS), initial learning rate)."""
    if isinstance(opt, LARS):
        return True, opt.opt, opt.opt.init_args, opt.init_args, opt.opt.init_learning_rate
    return False, opt, opt.init_args, {}, opt.init_learning_rate


class OptimizerProcess:
    """Rebuild ``opt`` (its class and arguments) over other parameters or groups.

    Args:
        opt (Optimizer): the optimizer to rebuild (``LARS`` is rebuilt around its inner optimizer).
    """

    def __init__(self, opt: Any) -> None:
        self.is_lars, self.single_opt, self.opt_init_args, self.lars_init_args, self.learning_rate = _opt_parts(opt)
        self.opt_class = type(self.single_opt)
        self.origin_params = opt.init_params["params"]

    @staticmethod
    def build_params_dict(network: Any) -> dict:
        """{id(Parameter): the cell that owns it} for every cell of ``network``."""
        params_dict = {}
        for _, cell in network.cells_and_names():
            for par in cell.get_parameters(expand=False):
                params_dict[id(par)] = cell
        return params_dict

    @staticmethod
    def build_gc_params_group(params_dict: dict, parameters: list) -> list:
        """Split each group into the Parameters that get gradient centralization (weights of
        ordinary layers) and those that do not (``beta``/``gamma``/``bias``, grouped convolutions, the
        normalized head of ``LessBN``)."""
        group_params = []
        for group_param in parameters:
            if "order_params" in group_param:
                group_params.append(group_param)
                continue
            gc_params, plain_params = [], []
            for param in group_param["params"]:
                name = param.name
                if "beta" in name or "gamma" in name or "bias" in name:
                    plain_params.append(param)
                    continue
                cell = params_dict[id(param)]
                if (isinstance(cell, nn.Conv2d) and cell.group > 1) or isinstance(cell, CommonHeadLastFN):
                    plain_params.append(param)
                else:
                    gc_params.append(param)
            if gc_params:
                new_group = _copy_group(group_param, gc_params)
                new_group["grad_centralization"] = True
                group_params.append(new_group)
            if plain_params:
                group_params.append(_copy_group(group_param, plain_params))
        return group_params

    def add_grad_centralization(self, network: Any) -> None:
        """Turn on gradient centralization for the weights of ``network`` (grouped parameters only)."""
        params_dict = OptimizerProcess.build_params_dict(network)
        parameters = check_param_list(self.origin_params, Parameter)
        if isinstance(parameters[0], Parameter):
            _log.warning("Only group parameters support gradient centralization.")
            return
        self.origin_params = OptimizerProcess.build_gc_params_group(params_dict, parameters)

    def generate_new_optimizer(self) -> Any:
        """A new optimizer of the same class and arguments over ``origin_params``."""
        if self.learning_rate is None:
            self.learning_rate = self.single_opt.learning_rate
        opt = self.opt_class(params=self.origin_params, learning_rate=self.learning_rate, **self.opt_init_args)
        return LARS(opt, **self.lars_init_args) if self.is_lars else opt


def _copy_group(group_param: dict, params: list) -> dict:
    """A copy of a parameter-group dict with ``params`` replaced (the other entries copied)."""
    out = {k: copy.deepcopy(v) for k, v in group_param.items() if k != "params"}
    out["params"] = params
    return out


class ParameterProcess:
    """Map new Parameters (a boosted network's) onto an optimizer's original parameter groups, and assign
    gradient fusion groups (``comm_fusion``)."""

    def __init__(self) -> None:
        self._parameter_indices = 1

    @staticmethod
    def generate_group_params(parameters: list, origin_params: Any) -> list:
        """Parameter groups over ``parameters`` shaped like ``origin_params``: each Parameter joins the group
        its namesake was in; new names join a copy of the group with the most settings."""
        origin = check_param_list(origin_params, Parameter)
        if isinstance(origin[0], Parameter):
            return [{"params": parameters}]
        return ParameterProcess._generate_new_group_params(parameters, origin)

    @staticmethod
    def _generate_new_group_params(parameters: list, origin_params: list) -> list:
        group_params = []
        names = [param.name for param in parameters]
        unplaced = list(names)
        richest: dict = {}
        max_keys = 0
        for group_param in origin_params:
            if "order_params" in group_param:
                new_group = {k: copy.deepcopy(v) for k, v in group_param.items() if k != "order_params"}
                new_group["order_params"] = parameters
                group_params.append(new_group)
                continue
            values = []
            for param in group_param["params"]:
                if param.name in names:
                    values.append(parameters[names.index(param.name)])
                    unplaced.remove(param.name)
            group_params.append(_copy_group(group_param, values))
            if len(group_param) > max_keys:
                max_keys = len(group_param)
                richest = _copy_group(group_param, [])
        if unplaced:
            values = [parameters[names.index(name)] for name in unplaced]
            if richest:
                richest["params"] = values
                group_params.append(richest)
            else:
                group_params.append({"params": values})
        return group_params

    def assign_parameter_group(self, parameters: Any, split_point: list | None = None) -> Any:
        """Set each Parameter's gradient fusion group (``comm_fusion``): a new group starts at each index of
        ``split_point`` (default: half way)."""
        if not isinstance(parameters, (list, tuple)) or not parameters:
            return parameters
        split = split_point if split_point else [len(parameters) // 2]
        for i, param in enumerate(parameters):
            if i in split:
                self._parameter_indices += 1
            param.comm_fusion = self._parameter_indices
        return parameters


# ----------------------------------------------------------------------------- DimReduce's PCA matrix
def _get_local_pca_mat_path(
    weight_load_dir: Any, pca_mat_path: Any, n_component: int, device_number: int, network: Any
) -> str:
    """Compute (or load) the PCA matrix of saved weights and write this rank's slice; returns its path."""
    from ..communication.management import get_rank

    if pca_mat_path is not None and os.path.isfile(pca_mat_path) and pca_mat_path.endswith(".npy"):
        full_path, exists = pca_mat_path, True
    else:
        if weight_load_dir is None or not os.path.isdir(weight_load_dir):
            raise ValueError(f"The weight_load_dir: {weight_load_dir} is None / not exists / not directory.")
        full_path, exists = os.path.join(weight_load_dir, "pca_mat_temp.npy"), False
    end_path = os.path.join(os.path.dirname(full_path), "save_pca_end.txt")
    if os.path.exists(end_path):
        os.remove(end_path)
    rank = get_rank()
    local_path = full_path[:-4] + "_rank_" + str(rank) + ".npy"
    if os.path.exists(local_path):
        os.remove(local_path)
    if rank % device_number != 0:
        return local_path
    if exists:
        pca_mat = np.load(full_path)
    else:
        pca_mat = _compute_pca_mat(_load_weights(weight_load_dir, network), n_component)
        np.save(full_path, pca_mat)
    _save_local_pca_mat(pca_mat, full_path, n_component)
    return local_path


_CHECKPOINT_LOADER: dict[str, Any] = {}


def register_checkpoint_loader(load_checkpoint: Any) -> None:
    """``sporax.train`` gives its ``load_checkpoint`` here when it loads (boost sits below train)."""
    _CHECKPOINT_LOADER["load"] = load_checkpoint


def _load_weights(weight_load_dir: str, network: Any) -> np.ndarray:
    """One row per checkpoint in ``weight_load_dir``: the network's trainable weights, flattened."""
    load_checkpoint = _CHECKPOINT_LOADER.get("load")
    if load_checkpoint is None:
        raise RuntimeError("Loading the weights of DimReduce needs sporax.train (import sporax.train first).")
    names = [param.name for param in network.trainable_params()]
    rows = []
    for file in sorted(os.listdir(weight_load_dir)):
        if not file.endswith(".ckpt"):
            continue
        param_dict = load_checkpoint(os.path.join(weight_load_dir, file))
        rows.append(np.concatenate([v.asnumpy().reshape(1, -1) for k, v in param_dict.items() if k in names], 1))
    return np.concatenate(rows, axis=0)


def _compute_pca_mat(data: np.ndarray, n_component: int, randomized: bool = True) -> np.ndarray:
    """The first ``n_component`` principal directions of the rows of ``data`` (one per row)."""
    if data.shape[0] < n_component:
        raise ValueError(f"The samples: {data.shape[0]} is less than: n_component {n_component}.")
    data = data - np.mean(data, axis=0)
    if not randomized:
        u, _, v = np.linalg.svd(data, full_matrices=False)
        return _svd_flip(u, v, transpose=False)[1][:n_component]
    n_random = n_component + 10
    transpose = data.shape[0] < data.shape[1]
    if transpose:
        data = data.T
    q_mat = _randomized_range_finder(data, n_random)
    u_hat, _, vt_mat = np.linalg.svd(q_mat.T @ data, full_matrices=False)
    u_mat, vt_mat = _svd_flip(q_mat @ u_hat, vt_mat, transpose)
    return u_mat[:, :n_component].T if transpose else vt_mat[:n_component, :]


def _randomized_range_finder(data: np.ndarray, size: int, n_iter: int = 1) -> np.ndarray:
    from scipy import linalg as la

    q_mat = np.random.normal(size=(data.shape[1], size))
    for _ in range(n_iter):
        q_mat, _ = la.lu(data @ q_mat, permute_l=True)
        q_mat, _ = la.lu(data.T @ q_mat, permute_l=True)
    q_mat, _ = la.qr(data @ q_mat, mode="economic")
    return q_mat


def _svd_flip(u: np.ndarray, v: np.ndarray, transpose: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Deterministic signs: the largest entry of each column of ``u`` (row of ``v`` when ``transpose``) > 0."""
    if not transpose:
        signs = np.sign(u[np.argmax(np.abs(u), axis=0), range(u.shape[1])])
    else:
        signs = np.sign(v[range(v.shape[0]), np.argmax(np.abs(v), axis=1)])
    return u * signs, v * signs[:, np.newaxis]


def _save_local_pca_mat(pca_mat: np.ndarray, full_path: str, n_component: int) -> None:
    """Write each rank's rows of the PCA matrix (``<path>_rank_<i>.npy``), then the end marker file."""
    from ..communication.management import get_group_size

    rank_size = get_group_size()
    local_dim = math.ceil(n_component // rank_size)
    for rank_id in range(rank_size):
        start = min(n_component, rank_id * local_dim)
        end = min(n_component, (rank_id + 1) * local_dim)
        p_local = np.zeros([local_dim, pca_mat.shape[1]])
        p_local[0 : end - start, :] = pca_mat[start:end, :]
        np.save(f"{full_path[:-4]}_rank_{rank_id}.npy", p_local)
    with open(os.path.join(os.path.dirname(full_path), "save_pca_end.txt"), "w", encoding="utf-8"):
        pass


def _load_local_pca_mat(local_path: str, timeout: float) -> np.ndarray:
    """This rank's PCA rows, once rank 0 has written them (waits up to ``timeout`` seconds)."""
    end_path = os.path.join(os.path.dirname(local_path), "save_pca_end.txt")
    start = time.time()
    while not os.path.exists(end_path):
        if time.time() - start > timeout:
            raise RuntimeError(f"the time of waiting to load local pca mat is larger than {timeout} second.")
        time.sleep(0.5)
    return np.load(local_path)
