"""``BoostTrainOneStepCell`` and its loss-scale form: a train step with the boosts ``AutoBoost`` turned on.

As MindSpore 2.10: with a ``FreezeOpt`` optimizer each call runs the train step of the group the freezing
sequence names (then moves to the next step of the sequence); with ``grad_accumulation`` the gradients are
averaged over ``grad_accumulation_step`` calls before one update; an optimizer flagged ``dim_reduce`` runs
the ``DimReduce`` step; one flagged ``adasum`` (with 2, 4, 8... data-parallel groups of ``device_number``
devices) combines the groups' updates with ``AdaSum``. The freezing step and ``DimReduce`` decide on the host
(which group, the line search), so those steps call compiled group steps or run op by op.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import context, ops
from ..common import dtype as mstype
from ..common.parameter import Parameter, ParameterTuple
from ..common.tensor import Tensor
from ..nn.cell import Cell
from ..nn.layer.container import SequentialCell
from ..nn.wrap.cell_wrapper import TrainOneStepCell, run_if
from ..nn.wrap.grad_reducer import DistributedGradReducer
from ..nn.wrap.loss_scale import _grad_overflow, _grad_scale, _LossScaleChecks
from ..ops.composite._grad import forward_and_grads
from .adasum import AdaSum
from .boost import AutoBoost
from .dim_reduce import DimReduce
from .grad_freeze import FreezeOpt, freeze_cell

__all__ = ["BoostTrainOneStepCell", "BoostTrainOneStepWithLossScaleCell"]


class _OutputToFloat16(Cell):
    """Cast a cell's output back to float16 (a loss-scale group boundary kept in float32)."""

    def __init__(self, op: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._op = op

    def construct(self, *inputs: Any) -> Any:
        return ops.cast(self._op(*inputs), mstype.float16)


class BoostTrainOneStepCell(TrainOneStepCell):
    """One boosted training step (see the module text). Returns the loss.

    Args:
        network (Cell): the network with its loss.
        optimizer (Union[Optimizer, FreezeOpt]): the optimizer.
        sens (numbers.Number): the loss's cotangent. Default None (1.0).
    """

    def __init__(self, network: Cell, optimizer: Any, sens: Any = None) -> None:
        super().__init__(network, optimizer, sens)
        self.hyper_map = ops.HyperMap()
        self.freeze = isinstance(optimizer, FreezeOpt)
        if not self.freeze:
            self.weights = self.optimizer.parameters
        self.train_strategy = getattr(self.optimizer, "train_strategy", None)
        self.auto_boost = AutoBoost()
        self.use_grad_accumulation = self.parallel_mode in (
            context.ParallelMode.DATA_PARALLEL,
            context.ParallelMode.STAND_ALONE,
        ) and bool(self.auto_boost.boost_config.get("grad_accumulation", False))
        self.max_accumulation_step = 1
        if self.use_grad_accumulation:
            self.max_accumulation_step = self.auto_boost.grad_accumulation_step
            if self.max_accumulation_step <= 1:
                self.max_accumulation_step = 1
                self.use_grad_accumulation = False
        self.accumulation_step = Parameter(Tensor(0, dtype=mstype.int32), name="accumulation_step")
        if self.use_grad_accumulation:
            self.grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self.enable_dim_reduce = self.check_dim_reduce_enable()
        if self.enable_dim_reduce:
            self._init_dim_reduce()
        self.freeze_nets = None
        self.step = Parameter(Tensor(0, dtype=mstype.int32), name="step")
        if self.freeze:
            self.mean, self.degree = (None, None)
            if self.reducer_flag:
                from ..parallel._utils import _get_device_num, _get_gradients_mean

                self.mean, self.degree = _get_gradients_mean(), _get_device_num()
            self.freeze_nets = freeze_cell(
                self.reducer_flag,
                self.network,
                self.optimizer,
                self.sens,
                self.grad,
                self.use_grad_accumulation,
                self.mean,
                self.degree,
                self.max_accumulation_step,
            )
        self.enable_adasum = self.check_adasum_enable()
        self.sync_tensor = Parameter(Tensor(0, dtype=mstype.int32), name="sync_tensor")
        if self.enable_adasum:
            self._init_adasum()

    @property
    def host_driven(self) -> bool:
        """The host picks what runs at each step (a frozen group's step, DimReduce, AdaSum): Model calls this
        cell as it is instead of compiling one program around it (sporax/common/_compile.py)."""
        return bool(self.freeze or self.enable_dim_reduce or self.enable_adasum)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.freeze:  # the host picks the group's step (each compiles itself)
            return self.gradient_freeze_process(*args)
        if self.enable_dim_reduce or self.enable_adasum:  # host decisions: op by op
            return self._run_construct(*args, **kwargs)
        return super().__call__(*args, **kwargs)

    def construct(self, *inputs: Any) -> Any:
        if self.freeze:
            return self.gradient_freeze_process(*inputs)
        # the loss and the gradients from one forward (sens = 1 without a sens), as TrainOneStepCell
        loss, grads = forward_and_grads(self.network, self.weights, self._fill_sens)(*inputs)
        sens = self._fill_sens(loss)
        grads = self.grad_reducer(grads)
        if self.use_grad_accumulation:
            return self.gradient_accumulation_process(loss, grads, sens, *inputs)
        return self._apply(loss, grads, sens, *inputs)

    def _apply(self, loss: Any, grads: Any, sens: Any, *inputs: Any) -> Any:
        if self.enable_dim_reduce:
            return ops.depend(loss, self.dim_reduce(loss, grads, sens, self.weights, self.weights_clone, *inputs))
        if self.enable_adasum:
            return ops.depend(loss, self.adasum_process(loss, grads))
        return ops.depend(loss, self.optimizer(grads))

    def gradient_freeze_process(self, *inputs: Any) -> Any:
        """Run the train step of the group the sequence names at this step, then advance the step."""
        nets = self.freeze_nets
        if nets is None:
            raise RuntimeError(f"For '{type(self).__name__}', layer freezing needs a FreezeOpt optimizer.")
        step = int(self.step.asnumpy())
        if self.train_strategy is None:
            index, max_index = step, len(nets)
        else:
            index, max_index = int(self.train_strategy.asnumpy()[step]), len(self.train_strategy)
        loss = nets[index](*inputs)
        self.step.set_data(Tensor(0 if step + 1 >= max_index else step + 1, mstype.int32))
        return loss

    def gradient_accumulation_process(self, loss: Any, grads: Any, sens: Any, *inputs: Any) -> Any:
        """Add ``grads / max_accumulation_step``; every ``max_accumulation_step`` calls apply the sum and clear."""
        n = self.max_accumulation_step
        for acc, g in zip(self.grad_accumulation, grads):
            ops.assign_add(acc, g / n)
        ops.assign_add(self.accumulation_step, Tensor(1, mstype.int32))
        full = self.accumulation_step >= n
        acc = tuple(self.grad_accumulation)
        run_if(full, self._apply_accumulated, loss, acc, sens, *inputs)
        return loss

    def _apply_accumulated(self, loss: Any, acc: Any, sens: Any, *inputs: Any) -> None:
        self._apply(loss, acc, sens, *inputs)
        ops.assign(self.accumulation_step, Tensor(0, mstype.int32))
        for a in self.grad_accumulation:
            ops.assign(a, ops.zeros_like(a))

    def adasum_process(self, loss: Any, grads: Any) -> Any:
        """Local update, then the AdaSum of the groups' updates of this device's slice of the weights,
        then every device of the group takes the others' slices."""
        loss = ops.depend(loss, self.optimizer(grads))
        rank_weights = self.weights[self.start[self.server_rank] : self.end[self.server_rank]]
        delta_w = tuple(old - new for new, old in zip(rank_weights, self.grad_clone))
        self.adasum(delta_w, rank_weights, self.grad_clone)
        for i in range(self.device_number):
            weight_tuple = tuple(self.weights[self.start[i] : self.end[i]])
            update_weights = self.adasum.broadcast_list[i](weight_tuple)
            target = self.grad_clone if i == self.server_rank else weight_tuple
            for dst, src in zip(target, update_weights):
                ops.assign(dst, src)
        return loss

    def check_adasum_enable(self) -> bool:
        """AdaSum runs when the optimizer is flagged ``adasum``, gradients are reduced, and the number of
        groups (``group size // 8``) is a power of two above 1."""
        if not getattr(self.optimizer, "adasum", None) or not self.reducer_flag:
            return False
        from ..communication.management import get_group_size

        group_number = get_group_size() // 8
        return bool(group_number > 1 and group_number & (group_number - 1) == 0)

    def check_dim_reduce_enable(self) -> bool:
        return bool(getattr(self.optimizer, "dim_reduce", None))

    def _init_dim_reduce(self) -> None:
        from ..communication.management import get_group_size, get_rank
        from .base import _load_local_pca_mat

        ab = self.auto_boost
        rank_size = 1 if self.parallel_mode == context.ParallelMode.STAND_ALONE else get_group_size()
        if ab.local_pca_mat_path is None:
            raise RuntimeError("dim_reduce needs the local PCA matrix: AutoBoost.network_auto_process_train finds it.")
        pca_mat = _load_local_pca_mat(ab.local_pca_mat_path, ab.timeout)
        self.weights_clone = ParameterTuple(self.weights).clone(prefix="weights_clone", init="same")
        self.dim_reduce = DimReduce(
            self.network, self.optimizer, self.weights, pca_mat, ab.n_components,
            ab.rho, ab.gamma, ab.alpha, ab.sigma, get_rank(), rank_size,
        )  # fmt: skip

    def _init_adasum(self) -> None:
        from ..communication.management import create_group, get_group_size, get_rank

        rank, rank_size = get_rank(), get_group_size()
        self.device_number = self.auto_boost.device_number
        group_number = rank_size // self.device_number
        self.server_rank = rank % self.device_number
        per_rank = len(self.weights) // self.device_number
        self.start = [x * per_rank for x in range(self.device_number)]
        self.end = [(x + 1) * per_rank for x in range(self.device_number)]
        self.end[-1] = len(self.weights)
        current = self.weights[self.start[self.server_rank] : self.end[self.server_rank]]
        self.grad_clone = ParameterTuple(current).clone(prefix="delta_weight")
        self.adasum = AdaSum(rank, self.device_number, group_number, self.grad_clone)
        from ..parallel._utils import _get_device_num, _get_gradients_mean

        self.degree = int(_get_device_num() // group_number)
        group_list = [list(range(x * self.degree, (x + 1) * self.degree)) for x in range(group_number)]
        name = "allreduce_" + str(rank // self.device_number)
        create_group(name, group_list[rank // self.device_number])
        self.grad_reducer = DistributedGradReducer(self.weights, _get_gradients_mean(), self.degree, group=name)


class BoostTrainOneStepWithLossScaleCell(_LossScaleChecks, BoostTrainOneStepCell):
    """A boosted step with loss scaling; returns ``(loss, overflow, loss scale)``.

    Args:
        network (Cell): the network with its loss.
        optimizer (Cell): the optimizer.
        scale_sense (Union[Tensor, Cell]): a loss scale update Cell or the loss scale (shape ``()`` or
            ``(1,)``); with ``loss_scale_group`` on, a :class:`GroupLossScaleManager`.
    """

    def __init__(self, network: Cell, optimizer: Any, scale_sense: Any) -> None:
        super().__init__(network, optimizer, sens=None)
        self.base = Tensor(1, mstype.float32)
        self.base0 = Tensor(0, mstype.int32)
        self.less_equal = ops.less_equal  # MindSpore's LessEqual primitive: the same kernel
        self.allreduce = ops.AllReduce()
        self.is_distributed = self.parallel_mode != context.ParallelMode.STAND_ALONE
        self.loss_scaling_manager = None
        self.enable_enhanced_amp = bool(self.auto_boost.boost_config.get("loss_scale_group", False))
        if self.enable_enhanced_amp:
            if not isinstance(scale_sense, Cell) or not hasattr(scale_sense, "set_loss_scale_status"):
                raise TypeError(f"The scale_sense must be enhanced amp Cell, bug got {type(scale_sense)}")
            self.loss_scaling_manager = scale_sense
            self.loss_scale_groups = scale_sense.loss_scale_groups
            self._init_enhanced_amp()
            self._do_keep_mix_fp32(self.network)
        elif isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), dtype=mstype.float32), name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((1,), ()):
                raise ValueError(f"The shape of scale_sense must be (1,) or (), but got {scale_sense.shape}")
            self.scale_sense = Parameter(scale_sense, name="scale_sense")
        else:
            raise TypeError(f"The scale_sense must be Cell or Tensor, but got {type(scale_sense)}")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.enable_dim_reduce or self.enable_adasum:  # host decisions: op by op
            return self._run_construct(*args, **kwargs)
        return TrainOneStepCell.__call__(self, *args, **kwargs)  # (no freezing here, as MindSpore)

    def construct(self, *inputs: Any) -> Any:
        if self.enable_enhanced_amp:  # each group's scale is applied to its gradients, not to the loss
            loss, grads = forward_and_grads(self.network, self.weights, ops.ones_like)(*inputs)
            cond, scaling_sens = self._enhanced_amp_process_overflow_status(self.grad_reducer(grads))
            return loss, cond, scaling_sens
        loss, grads = forward_and_grads(self.network, self.weights, self._scaled_sens)(*inputs)
        scaling_sens = self.scale_sense
        status, _ = self._start_overflow_check(loss, scaling_sens)
        filled = self._scaled_sens(loss)
        grads = self.hyper_map(ops.partial(_grad_scale, scaling_sens), grads)
        grads = self.grad_reducer(grads)
        cond = self._get_overflow_status(status, grads)
        overflow = self._process_loss_scale(cond)
        if self.enable_dim_reduce or self.enable_adasum:
            if not bool(overflow):
                loss = self._multi_update(loss, grads, filled, *inputs)
        else:
            run_if(ops.logical_not(overflow), self._multi_update, loss, grads, filled, *inputs)
        return loss, cond, self.scale_sense.value()  # the scale after this step's update

    def _multi_update(self, loss: Any, grads: Any, filled: Any, *inputs: Any) -> Any:
        if self.use_grad_accumulation:
            return self.gradient_accumulation_process(loss, grads, filled, *inputs)
        return self._apply(loss, grads, filled, *inputs)

    # ------------------------------------------------------------------ loss scale per group of layers
    def _init_enhanced_amp(self) -> None:
        self.params_len = len(self.optimizer.parameters)
        self.optimizer_loss_scale = [len(g) for g in self.loss_scale_groups if len(g)]
        self.reduce_ratio = Tensor(1.0 / (2**0.5), mstype.float32)
        self.growth_ratio = Tensor(2 ** (1.0 / 1000.0), mstype.float32)
        n = len(self.loss_scale_groups)
        self.overflow_status_list = ParameterTuple(
            Parameter(Tensor(np.zeros([8]), mstype.int32), name=f"mix_layer_status_{x}", requires_grad=False)
            for x in range(n)
        )
        manager: Any = self.loss_scaling_manager  # a GroupLossScaleManager (loss_scale_group on)
        manager.set_loss_scale_status(n, manager.get_loss_scale())
        group_of = {id(p): i for i, g in enumerate(self.loss_scale_groups) for p in g}
        self._param_group = [group_of.get(id(p), -1) for p in self.weights]

    def _enhanced_amp_process_overflow_status(self, grads: Any) -> tuple[Any, Any]:
        """Per group: overflow of its Parameters' gradients; its scale times ``1/sqrt(2)`` (overflow) or
        ``2**(1/1000)``. Without any overflow the gradients, divided by their group's new scale, update."""
        manager: Any = self.loss_scaling_manager  # a GroupLossScaleManager (loss_scale_group on)
        overflow_global = Tensor(0, mstype.int32)
        scales = []
        for layer, status in enumerate(self.overflow_status_list):
            flags = [_grad_overflow(g) for g, k in zip(grads, self._param_group) if k == layer]
            bad = ops.reshape(ops.addn(flags), ()) >= 1 if flags else Tensor(False)
            ops.assign(status, ops.fill(mstype.int32, (8,), 1) * ops.cast(bad, mstype.int32))
            if self.reducer_flag:
                bad = self.allreduce(ops.cast(bad, mstype.float32)) >= 1
            overflow_global = overflow_global + ops.cast(bad, mstype.int32)
            ratio = ops.select(bad, self.reduce_ratio, self.growth_ratio)
            scales.append(manager.update_loss_scale_status(layer, ratio))
        per_param = tuple(scales[k] if k >= 0 else self.base for k in self._param_group)
        run_if(overflow_global < 1, self._scaled_update, per_param, grads)
        return overflow_global, scales[0]

    def _scaled_update(self, per_param: Any, grads: Any) -> None:
        self.optimizer(tuple(_grad_scale(s, g) for s, g in zip(per_param, grads)))

    def _do_keep_mix_fp32(self, network: Cell) -> None:
        """Keep each ``GroupLossScaleManager`` boundary in float32 (its output cast back to float16)."""
        change = False
        for name, subcell in network.name_cells().items():
            if subcell is network:
                continue
            if "GroupLossScaleManager" in subcell.cls_name:
                network._cells[name] = _OutputToFloat16(subcell.to_float(mstype.float32))
                change = True
            else:
                self._do_keep_mix_fp32(subcell)
        if isinstance(network, SequentialCell) and change:
            network.cell_list = list(network.cells())
