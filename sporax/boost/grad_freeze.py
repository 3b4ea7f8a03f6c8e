"""Gradient freezing: each step updates only one group of layers (the last ones always, earlier ones less often).

As MindSpore 2.10's ``mindspore.boost.grad_freeze``: :class:`GradientFreeze` splits the trainable Parameters
into ``param_groups`` nested groups (group ``i`` holds the Parameters from split ``i`` to the end, so group 0 is
the whole network), draws the per-step sequence of groups (``freeze_type`` 0: a fixed cycle; 1: random,
later groups likelier) with a share ``freeze_p`` of steps training a frozen group, and :class:`FreezeOpt`
holds one optimizer per group. :func:`freeze_cell` builds one train step per group; ``BoostTrainOneStepCell``
runs the one the sequence names at each step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import nn, ops
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..nn.cell import Cell
from ..nn.optim import LARS, Optimizer
from ..nn.wrap.grad_accumulation import GradientAccumulation
from ..nn.wrap.grad_reducer import DistributedGradReducer
from .base import ParameterProcess, _opt_parts

__all__ = ["GradientFreeze", "FreezeOpt", "freeze_cell"]

CONTINUOUS_STRATEGY = 0
INTERVAL_STRATEGY = 1


class FreezeOpt(Cell):
    """One optimizer per parameter group, all of ``opt``'s class and arguments.

    Args:
        opt (Optimizer): the optimizer to copy (``LARS`` is copied around its inner optimizer).
        train_parameter_groups (Union[tuple, list]): the Parameters (or groups) of each optimizer.
            Default None: one optimizer over all of ``opt``'s Parameters.
        train_strategy (Union[tuple(int), list(int), Tensor]): the group index of each step. Default None.
    """

    def __init__(self, opt: Any, train_parameter_groups: Any = None, train_strategy: Any = None) -> None:
        super().__init__()
        if not isinstance(opt, Optimizer):
            raise TypeError(f"The first arg 'opt' must be an Optimizer instance, but got {type(opt)}")
        if train_strategy is not None and train_parameter_groups is None:
            raise ValueError(
                "When the 'train_strategy' is specified, the value of 'train_parameter_groups' must also be specified"
            )
        self.is_lars, single, self.opt_init_args, self.lars_init_args, self.learning_rate = _opt_parts(opt)
        self.opt_class: Any = type(single)  # the optimizer's class, called with its own keyword arguments
        self.single_opt = single
        self.parameters = single.parameters
        self.dynamic_lr = single.dynamic_lr
        self.opts: list[Any] = []
        if train_parameter_groups is None:
            self.groups_num = 1
            train_parameter_groups = (tuple(opt.parameters),)
        else:
            if not isinstance(train_parameter_groups, (tuple, list)):
                raise TypeError("The specified 'train_parameter_groups' should be tuple or list")
            self.groups_num = len(train_parameter_groups)
        self._init_train_strategy(train_strategy)
        self._create_new_group_learning_rate()
        self.opt_index = 0
        for params in train_parameter_groups:
            if not isinstance(params, (tuple, list)):
                raise TypeError(
                    "The each element of 'train_parameter_groups' should be tuple or list to store the Parameter"
                )
            self.opts.append(self._generate_new_optimizer(params))
            self.opt_index += 1

    def _init_train_strategy(self, train_strategy: Any) -> None:
        if isinstance(train_strategy, (tuple, list)):
            if not all(isinstance(e, int) for e in train_strategy):
                raise ValueError("The element in train_strategy should be int number")
            self.train_strategy: Tensor | None = Tensor(train_strategy, mstype.int32)
        elif isinstance(train_strategy, Tensor):
            if train_strategy.ndim != 1 or train_strategy.dtype != mstype.int32:
                raise ValueError(
                    "When train_strategy is a Tensor, the dimension should be 1 and the dtype should be int32"
                )
            self.train_strategy = train_strategy
        elif train_strategy is None:
            self.train_strategy = None
        else:
            raise TypeError("The specified 'train_strategy' should be None, tuple, list or Tensor")

    def _create_new_group_learning_rate(self) -> None:
        """A dynamic learning-rate list is dealt out to the groups by the strategy (step i -> its group)."""
        self.dynamic_learning_rate: list[list[Any]] = [[] for _ in range(self.groups_num)]
        if self.learning_rate is None:
            self.learning_rate = self.single_opt.learning_rate
            return
        if self.dynamic_lr and isinstance(self.learning_rate, list) and isinstance(self.train_strategy, Tensor):
            strategy = [int(v) for v in self.train_strategy.asnumpy()]
            if len(self.learning_rate) <= len(strategy):
                for i, lr in enumerate(self.learning_rate):
                    self.dynamic_learning_rate[strategy[i]].append(lr)

    def _generate_new_optimizer(self, params: Any) -> Any:
        lr = self.dynamic_learning_rate[self.opt_index] or self.learning_rate
        prefix = f"boost_{self.opt_index}"
        opt = self.opt_class(params=params, learning_rate=lr, **self.opt_init_args)
        opt._update_local_parameters_name(prefix)
        if self.is_lars:
            opt = LARS(opt, **self.lars_init_args)
            opt._update_local_parameters_name(prefix)
        return opt


class _TrainFreezeCell(Cell):
    """The train step of one group: gradients of that group's Parameters only, then its optimizer."""

    _auto_jit = True

    def __init__(
        self,
        net: Cell,
        sens: Any,
        grad: Any,
        grad_reducer: Any,
        use_grad_accumulation: bool,
        optimizer: Any,
        max_accumulation_step: int = 1,
    ) -> None:
        super().__init__(auto_prefix=False)
        self.net = net
        self.grad = grad
        self.grad_reducer = grad_reducer
        self.opt = optimizer
        self.parameters = optimizer.parameters
        self.sens = sens
        self.use_grad_accumulation = use_grad_accumulation
        self.max_accumulation_step = max_accumulation_step
        if use_grad_accumulation:
            self.grad_accumulation = GradientAccumulation(self.max_accumulation_step, self.opt)

    def construct(self, *inputs: Any) -> Any:
        loss = self.net(*inputs)
        sens = ops.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.net, self.parameters)(*inputs, sens)
        grads = self.grad_reducer(grads)
        if self.use_grad_accumulation:
            return self.grad_accumulation(loss, grads)
        return ops.depend(loss, self.opt(grads))


class GradientFreeze:
    """Make the freezing plan of a network and its ``FreezeOpt``.

    Args:
        param_groups (int): the number of parameter groups.
        freeze_type (int): 0 (a fixed cycle of groups) or 1 (random groups, later ones likelier).
        freeze_p (float): the share of steps that train a frozen group (group > 0).
        total_steps (int): the number of training steps (the sequence covers 1.01 times as many).
    """

    def __init__(self, param_groups: int, freeze_type: int, freeze_p: float, total_steps: int) -> None:
        self._param_groups = param_groups
        self._freeze_type = freeze_type
        self._freeze_p = freeze_p
        self._total_steps = total_steps
        self.grad_reducer = nn.Identity()

    def split_parameters_groups(self, net: Cell, freeze_para_groups_number: int) -> list[list[Any]]:
        """Nested groups of trainable Parameters: layers of >= 3 Parameters (with their ``bn``/``bias``
        ones) are grouped; group ``i`` holds the layers from ``i * stride`` to the end."""
        grouped: list[list[Any]] = []
        tmp: list[Any] = []
        for para in net.trainable_params():
            name = para.name
            if "bn" in name or "bias" in name:
                tmp.append(para)
            elif len(tmp) >= 3:
                grouped.append(tmp)
                tmp = [para]
            else:
                tmp.append(para)
        if tmp:
            grouped.append(tmp)
        stride = len(grouped) // freeze_para_groups_number
        return [sum(grouped[i * stride :], []) for i in range(freeze_para_groups_number)]

    def generate_freeze_index_sequence(
        self, parameter_groups_number: int, freeze_strategy: int, freeze_p: float, total_steps: int
    ) -> list[int]:
        """The group index of each step (``int(total_steps * 1.01)`` steps)."""
        total_step = int(total_steps * 1.01)
        if parameter_groups_number <= 1:
            return [0] * total_step
        if freeze_strategy == CONTINUOUS_STRATEGY:
            zero_cnt = int(freeze_p * (parameter_groups_number - 1) // (1 - freeze_p) + 0.5)
            sub_idx = [0] * zero_cnt + list(range(1, parameter_groups_number))
            idxes: list[int] = []
            while len(idxes) < total_step:
                idxes += sub_idx
            return idxes
        if freeze_strategy == INTERVAL_STRATEGY:
            index_all = list(range(1, parameter_groups_number))
            prob = [x / sum(index_all) for x in index_all]
            idxes = [0]
            zero_cnt, freeze_cnt = 1, 0
            while len(idxes) < total_step:
                if 1.0 * freeze_cnt / (zero_cnt + freeze_cnt) < 1 - freeze_p:
                    idxes.append(int(np.random.choice(index_all[::-1], p=prob)))
                    freeze_cnt += 1
                else:
                    idxes.append(0)
                    zero_cnt += 1
            return idxes
        raise ValueError(f"Unsupported freezing training strategy '{freeze_strategy}'")

    def freeze_generate(self, network: Cell, optimizer: Any) -> tuple[Cell, FreezeOpt]:
        """(network, a FreezeOpt over the nested groups with the drawn step sequence)."""
        groups = self.split_parameters_groups(network, self._param_groups)
        for i in range(self._param_groups):
            groups[i] = ParameterProcess.generate_group_params(groups[i], optimizer.init_params["params"])
        strategy = self.generate_freeze_index_sequence(
            self._param_groups, self._freeze_type, self._freeze_p, self._total_steps
        )
        return network, FreezeOpt(optimizer, groups, strategy)


def freeze_cell(
    reducer_flag: bool,
    network: Cell,
    optimizer: FreezeOpt,
    sens: Any,
    grad: Any,
    use_grad_accumulation: bool,
    mean: Any = None,
    degree: Any = None,
    max_accumulation_step: int = 1,
) -> tuple[Cell, ...]:
    """One train-step cell per optimizer of ``optimizer.opts`` (with a gradient reducer per group when
    ``reducer_flag``)."""
    if reducer_flag:
        processer = ParameterProcess()
        reducers: list[Cell] = [
            DistributedGradReducer(processer.assign_parameter_group(opt.parameters), mean, degree)
            for opt in optimizer.opts
        ]
    else:
        reducers = [nn.Identity() for _ in optimizer.opts]
    return tuple(
        _TrainFreezeCell(network, sens, grad, reducer, use_grad_accumulation, opt, max_accumulation_step)
        for reducer, opt in zip(reducers, optimizer.opts)
    )
