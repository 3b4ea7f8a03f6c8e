"""Loss scaling cells: FixedLossScaleUpdateCell, DynamicLossScaleUpdateCell and
TrainOneStepWithLossScaleCell.

The overflow check is ``isfinite`` on the gradients (MindSpore's GPU method), so it runs on every
backend, CPU included (MindSpore's CPU build has no kernels for it). The optimizer update is skipped on
overflow by :func:`~sporax.nn.wrap.cell_wrapper.run_if`, which needs no Python control flow on the
overflow flag: the cell compiles in GRAPH_MODE and under ``jit`` as it runs in PyNative.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import context, ops
from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.composite._grad import forward_and_grads
from ..cell import Cell
from .cell_wrapper import TrainOneStepCell, run_if

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell"]

_grad_scale = ops.MultitypeFuncGraph("grad_scale")


@_grad_scale.register("Tensor", "Tensor")
def tensor_grad_scale(scale: Any, grad: Any) -> Any:
    return grad * ops.cast(ops.reciprocal(scale), ops.dtype(grad))


_grad_overflow = ops.MultitypeFuncGraph("_grad_overflow")


@_grad_overflow.register("Tensor")
def _tensor_grad_overflow(grad: Any) -> Any:
    """``[1.]`` if ``grad`` holds an inf or a nan, else ``[0.]`` (MindSpore's FloatStatus)."""
    finite = ops.isfinite(grad).all()
    return ops.reshape(ops.cast(ops.logical_not(finite), mstype.float32), (1,))


def _leaves(x: Any) -> list[Any]:
    if isinstance(x, (tuple, list)):
        return [leaf for item in x for leaf in _leaves(item)]
    return [x]


class DynamicLossScaleUpdateCell(Cell):
    r"""Dynamic loss scale update cell.

    The loss scale starts at `loss_scale_value`. On a step that overflows it is divided by `scale_factor`
    (never below 1); after `scale_window` consecutive steps without overflow it is multiplied by
    `scale_factor`. :meth:`mindspore.amp.DynamicLossScaleManager.get_update_cell` returns this cell, and
    :class:`TrainOneStepWithLossScaleCell` calls it every step.

    Args:
        loss_scale_value (float): Initial loss scale.
        scale_factor (int): Coefficient of increase and decrease.
        scale_window (int): Number of consecutive steps without overflow after which the scale increases.

    Inputs:
        - **loss_scale** (Parameter) - The loss scale, shape :math:`()` or :math:`(1,)`; updated in place.
        - **overflow** (Tensor) - A bool Tensor: whether this step overflowed.

    Outputs:
        Tensor, the input `overflow`.

    Examples:
        >>> manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**12, scale_factor=2, scale_window=1000)
        >>> train_network = nn.TrainOneStepWithLossScaleCell(net_with_loss, optimizer, scale_sense=manager)
    """

    def __init__(self, loss_scale_value: Any, scale_factor: Any, scale_window: Any) -> None:
        super().__init__()
        self.scale_window = Tensor(scale_window, dtype=mstype.int32)
        self.scale_factor = Tensor(scale_factor, dtype=mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, dtype=mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, dtype=mstype.int32), name="last_overflow_iterator_step")
        self.minimum_loss_scale = Tensor(1.0, dtype=mstype.float32)

    def get_loss_scale(self) -> Any:
        """The initial loss scale value, as given.

        Returns:
            float, the loss scale value.
        """
        return self.loss_scale_value

    def construct(self, loss_scale: Any, overflow: Any) -> Any:
        overflow_cond = overflow
        loss_scale_on_overflow = ops.select(
            overflow_cond,
            ops.maximum(loss_scale * ops.reciprocal(self.scale_factor), self.minimum_loss_scale),
            loss_scale,
        )
        should_inc = ops.less_equal(self.scale_window, self.cur_iter - self.last_overflow_iter)
        last_iter_cond = ops.logical_or(overflow_cond, should_inc)
        last_overflow_iter = ops.select(last_iter_cond, self.cur_iter, self.last_overflow_iter)
        ops.assign(self.last_overflow_iter, last_overflow_iter)
        update_scale_cond = ops.logical_and(should_inc, ops.logical_not(overflow_cond))
        scale_mul_res = loss_scale_on_overflow * self.scale_factor
        scaled_loss_scale = ops.select(update_scale_cond, scale_mul_res, loss_scale_on_overflow)
        ops.assign(loss_scale, scaled_loss_scale)
        ops.assign(self.cur_iter, self.cur_iter + 1)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """Update cell with a fixed loss scale value: it only passes the overflow flag on.

    :meth:`mindspore.amp.FixedLossScaleManager.get_update_cell` returns this cell.

    Args:
        loss_scale_value (float): The loss scale.

    Inputs:
        - **loss_scale** (Tensor) - Ignored.
        - **overflow** (Tensor) - A bool Tensor: whether this step overflowed.

    Outputs:
        Tensor, the input `overflow`.
    """

    def __init__(self, loss_scale_value: Any) -> None:
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self) -> Any:
        """The loss scale value.

        Returns:
            float, the loss scale value.
        """
        return self.loss_scale_value

    def construct(self, _: Any, overflow: Any) -> Any:
        return overflow


class _LossScaleChecks:
    """The overflow check and loss-scale update of :class:`TrainOneStepWithLossScaleCell`, shared with
    ``boost.BoostTrainOneStepWithLossScaleCell`` (which sets the same attributes)."""

    if TYPE_CHECKING:  # set by the cells' __init__
        hyper_map: Any
        is_distributed: bool
        allreduce: Any
        less_equal: Any
        base: Tensor
        loss_scaling_manager: Cell | None
        scale_sense: Parameter

    def _set_sense_scale(self, sens: Any) -> None:
        """Set the loss scale (for a `scale_sense` given as a Tensor).

        Args:
            sens (Tensor): The new loss scale, of the shape and dtype of the current one.
        """
        if not isinstance(sens, Tensor):
            raise TypeError(
                f"For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be Tensor, but got {type(sens)}"
            )
        self.scale_sense.set_data(sens)

    def _scaled_sens(self, loss: Any) -> Any:
        """The loss's cotangent: the loss scale, in the loss's dtype and shape."""
        if not isinstance(loss, Tensor):
            raise TypeError(
                f"For '{type(self).__name__}', the network must return one Tensor (the loss), "
                f"but got {type(loss).__name__}."
            )
        filled = ops.ones_like(loss) * ops.cast(self.scale_sense, ops.dtype(loss))
        if filled.shape != loss.shape:  # a (1,) scale for a 0-d loss
            filled = ops.reshape(filled, loss.shape)
        return filled

    def _start_overflow_check(self, pre_cond: Any, compute_input: Any) -> tuple[Any, Any]:
        """Start floating-point overflow detection.

        MindSpore clears the device's overflow register here on Ascend; sporax checks the gradients
        themselves, so there is nothing to clear.

        Args:
            pre_cond (Tensor): Whatever must be computed before the check starts (the loss).
            compute_input (object): The input of the computation to check (the loss scale).

        Returns:
            Tuple[object, object], the status (pass it to :meth:`get_overflow_status`) and `compute_input`.
        """
        status = Tensor([0] * 8, mstype.int32)
        return status, compute_input

    def _check_overflow_status_on_infnan_mode(self, grad_overflow_check_func: Any, compute_output: Any) -> Any:
        flags = _leaves(self.hyper_map(ops.partial(grad_overflow_check_func), compute_output))
        if not flags:
            return ops.zeros((), mstype.float32)
        return ops.reshape(ops.addn(flags), ())

    def _get_overflow_status(self, status: Any, compute_output: Any) -> Any:
        """Whether any of `compute_output` (the gradients) is inf or nan.

        Args:
            status (object): The first output of :meth:`start_overflow_check`.
            compute_output (Union[Tensor, tuple[Tensor]]): The tensors to check.

        Returns:
            Tensor, a 0-d bool: True if there is an overflow.
        """
        flag_sum = self._check_overflow_status_on_infnan_mode(_grad_overflow, compute_output)
        if self.is_distributed:
            flag_sum = self.allreduce(flag_sum)
        return self.less_equal(self.base, flag_sum)

    def _process_loss_scale(self, overflow: Any) -> Any:
        """Update the loss scale by the loss scale update cell (if any) from `overflow`.

        Args:
            overflow (Tensor): Whether the step overflowed.

        Returns:
            Tensor, `overflow`.
        """
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow


class TrainOneStepWithLossScaleCell(_LossScaleChecks, TrainOneStepCell):
    r"""One training step with loss scaling.

    The loss's cotangent is the loss scale, the gradients are divided by it, and when any gradient is not
    finite the optimizer update is skipped. The loss scale is updated by `scale_sense` when it is a Cell
    (:class:`DynamicLossScaleUpdateCell`, :class:`FixedLossScaleUpdateCell`), or set by the user with
    :meth:`set_sense_scale` when it is a Tensor. Runs on CPU, GPU and every other backend.

    Args:
        network (Cell): The training network with its loss (one output).
        optimizer (Cell): Optimizer for updating the network parameters.
        scale_sense (Union[Tensor, Cell]): A loss scale update Cell, or the loss scale as a Tensor of shape
            :math:`()` or :math:`(1,)`.

    Inputs:
        - **\*inputs** (Tuple(Tensor)) - The network's inputs.

    Outputs:
        Tuple of 3 Tensor: the loss, the overflow flag (bool) and the loss scale after this step's update.

    Raises:
        TypeError: If `scale_sense` is neither Cell nor Tensor.
        ValueError: If the shape of `scale_sense` is neither :math:`(1,)` nor :math:`()`.

    Examples:
        >>> manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**12, scale_factor=2, scale_window=1000)
        >>> train_network = nn.TrainOneStepWithLossScaleCell(net_with_loss, optimizer, scale_sense=manager)
        >>> loss, overflow, scale = train_network(inputs, labels)
    """

    def __init__(self, network: Cell, optimizer: Cell, scale_sense: Any) -> None:
        super().__init__(network, optimizer, sens=None)
        self.hyper_map = ops.HyperMap()
        self.base = Tensor(1, mstype.float32)
        self.base0 = Tensor(0, mstype.int32)
        self.reduce_sum = ops.ReduceSum(keep_dims=False)
        self.reduce_all = ops.ReduceAll(keep_dims=False)
        # MindSpore's primitive attributes; math_ops makes these classes from a table, which mypy cannot see
        self.less_equal = ops.LessEqual()  # type: ignore[attr-defined]
        self.equal = ops.Equal()  # type: ignore[attr-defined]
        self.logic_not = ops.LogicalNot()  # type: ignore[attr-defined]
        self.is_distributed = self.parallel_mode != context.ParallelMode.STAND_ALONE
        self.allreduce = ops.AllReduce()
        self.gpu_target = context.get_context("device_target") == "GPU"
        self.loss_scaling_manager = None
        self._grad_divisor = 1.0  # micro-batches per step (gradient accumulation)
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), dtype=mstype.float32), name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape in ((1,), ()):
                self.scale_sense = Parameter(scale_sense, name="scale_sense")
            else:
                raise ValueError(
                    "For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be (1,) or (), "
                    f"but got {scale_sense.shape}."
                )
        else:
            raise TypeError(
                "For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or Tensor, "
                f"but got 'scale_sense' type: {type(scale_sense)}."
            )
        self.enable_tuple_broaden = True

    # MindSpore's public names of the shared checks
    set_sense_scale = _LossScaleChecks._set_sense_scale
    start_overflow_check = _LossScaleChecks._start_overflow_check
    get_overflow_status = _LossScaleChecks._get_overflow_status
    process_loss_scale = _LossScaleChecks._process_loss_scale

    def construct(self, *inputs: Any) -> Any:
        # loss = self.network(*inputs); grads = self.grad(self.network, weights)(*inputs, scaled sens) with
        # one forward: the loss is the loss of the dropout masks the gradients come from, as in MindSpore
        loss, grads = forward_and_grads(self.network, self.weights, self._scaled_sens)(*inputs)
        status, scaling_sens = self.start_overflow_check(loss, self.scale_sense)
        unscale = scaling_sens if self._grad_divisor == 1.0 else scaling_sens * self._grad_divisor
        grads = self.hyper_map(ops.partial(_grad_scale, unscale), grads)
        grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        # no Python `if` on the flag: the update is applied where there is no overflow
        loss = ops.depend(loss, run_if(ops.logical_not(overflow), self.optimizer, grads))
        # the scale after this step's update, as a value (what MindSpore's graph mode returns)
        return loss, cond, self.scale_sense.value()
