"""Train-step cells: WithLossCell, WithEvalCell, TrainOneStepCell, ForwardValueAndGrad, WithGradCell.

The pieces the train-step cells share live here too: :func:`run_if` applies an update (an optimizer call)
only where a boolean Tensor is True, without Python control flow on the tensor, so the loss-scale cell
(skip on overflow) and gradient accumulation (apply every N steps) compile on every backend.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

from ... import _checkparam as validator
from ... import _engine, context, ops
from ..._engine import is_tracer
from ...common import dtype as mstype
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ...ops.composite._grad import forward_and_grads
from ...parallel._shard import prepare_train_step
from ..cell import Cell
from .grad_reducer import DistributedGradReducer

__all__ = [
    "WithLossCell",
    "WithEvalCell",
    "WithGradCell",
    "TrainOneStepCell",
    "ForwardValueAndGrad",
    "GetNextSingleOp",
    "ParameterUpdate",
]


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)``."""

    def __init__(self, backbone: Cell, loss_fn: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = validator.check_instance(backbone, Cell, "backbone", "WithLossCell")
        self._loss_fn = validator.check_instance(loss_fn, Cell, "loss_fn", "WithLossCell")

    def construct(self, data: Any, label: Any) -> Any:
        out = self._backbone(data)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self) -> Cell:
        return self._backbone


class WithEvalCell(Cell):
    """Returns ``(loss, outputs, label)`` for evaluation."""

    def __init__(self, network: Cell, loss_fn: Cell, add_cast_fp32: bool = False) -> None:
        super().__init__(auto_prefix=False)
        self._network = validator.check_instance(network, Cell, "network", "WithEvalCell")
        self._loss_fn = validator.check_instance(loss_fn, Cell, "loss_fn", "WithEvalCell")
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data: Any, label: Any) -> Any:
        outputs = self._network(data)
        if self.add_cast_fp32:  # floating values only: integer class labels stay integers (MindSpore)
            from ...common import dtype as mstype
            from ...ops.composite._multitype import mixed_precision_cast

            label = mixed_precision_cast(mstype.float32, label)
            outputs = mixed_precision_cast(mstype.float32, outputs)
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class WithGradCell(Cell):
    """Returns the gradients of the network's loss w.r.t. its trainable parameters."""

    def __init__(self, network: Cell, loss_fn: Cell | None = None, sens: Any = None) -> None:
        super().__init__(auto_prefix=False)
        self.network = validator.check_instance(network, Cell, "network", "WithGradCell")
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = ops.GradOperation(get_by_list=True, sens_param=(sens is not None))
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs: Any) -> Any:
        weights = self.weights
        if self.sens is None:
            return self.grad(self.network_with_loss, weights)(*inputs)
        return self.grad(self.network_with_loss, weights)(*inputs, self.sens)


def run_if(cond: Any, fn: Callable[..., Any], *args: Any) -> Any:
    """Run ``fn(*args)`` (an optimizer step, say) only when the one-element bool Tensor ``cond`` is True.

    With a concrete ``cond`` (PyNative) it is a Python branch. Inside a compiled function it is what
    ``if cond: fn(*args)`` compiles to (one ``lax.cond``; the Parameters ``fn`` writes keep their values
    when ``cond`` is False). Returns ``cond`` (as a 0-d bool Tensor).
    """
    if not isinstance(cond, Tensor):
        cond = Tensor(bool(cond), mstype.bool_)
    if cond.size != 1:
        raise ValueError(f"The condition of a conditional update must have one element, but got shape {cond.shape}.")
    cond = ops.cast(cond.reshape(()), mstype.bool_)
    if not is_tracer(cond._data):
        if bool(cond):
            fn(*args)
        return cond
    _engine.run_if(cond._data, fn, *args)
    return cond


def _parallel_reducer(weights: Any) -> tuple[bool, Any]:
    mode = context.get_auto_parallel_context("parallel_mode")
    if mode in (context.ParallelMode.DATA_PARALLEL, context.ParallelMode.HYBRID_PARALLEL):
        from ...parallel._utils import _get_device_num, _get_gradients_mean

        return True, DistributedGradReducer(weights, _get_gradients_mean(), _get_device_num())
    return False, ops.identity


class TrainOneStepCell(Cell):
    """One training step: forward, backward with ``sens`` as the loss's cotangent, gradient reduction,
    optimizer update. Returns the loss.

    Args:
        network: the network with its loss (one output).
        optimizer: the optimizer (a Cell).
        sens: the number filled as the loss's cotangent. Default 1.0.
        return_grad: also return the gradients (as a dict name -> gradient).

    In PyNative mode the step (this cell's ``construct``, and a subclass's) runs as one compiled function,
    as ``Model.train`` runs it and as MindSpore runs optimizers: the loss and the update are the same bits
    as in GRAPH_MODE. Python in ``construct`` follows GRAPH_MODE's rules (``docs/graph_mode.md``); a
    ``construct`` that cannot be compiled runs op by op.
    """

    _auto_jit = True

    def __init__(self, network: Cell, optimizer: Cell, sens: Any = None, return_grad: bool = False) -> None:
        super().__init__(auto_prefix=False)
        self.network = validator.check_instance(network, Cell, "network", "TrainOneStepCell")
        self.network.set_grad()
        self.optimizer = validator.check_instance(optimizer, Cell, "optimizer", "TrainOneStepCell")
        if not hasattr(optimizer, "parameters"):
            raise TypeError("For 'TrainOneStepCell', the 'optimizer' must be an Optimizer (with 'parameters').")
        self.weights = self.optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)
        self.grad_no_sens = ops.GradOperation(get_by_list=True)
        self.sense_flag = sens is not None
        if sens is None:
            sens = 1.0
        if isinstance(sens, bool) or not isinstance(sens, (numbers.Number, Tensor)):
            raise TypeError(f"For 'TrainOneStepCell', the 'sens' must be a number, but got {type(sens).__name__}.")
        self.sens: Any = sens  # a number or a Tensor
        self.return_grad = return_grad
        self.weights_name = [p.name for p in self.weights]
        self.parallel_mode = context.get_auto_parallel_context("parallel_mode")
        self.reducer_flag, self.grad_reducer = _parallel_reducer(self.weights)
        prepare_train_step(self)  # semi-auto parallel: the parallel optimizer, the strategy file (no-op otherwise)

    def _fill_sens(self, loss: Tensor) -> Tensor:
        return ops.fill(loss.dtype, loss.shape, self.sens)

    def construct(self, *inputs: Any) -> Any:
        # loss = self.network(*inputs); grads = self.grad(self.network, self.weights)(*inputs, sens) with
        # one forward: the loss is the loss of the dropout masks the gradients come from, as in MindSpore
        loss, grads = forward_and_grads(self.network, self.weights, self._fill_sens)(*inputs)
        grads = self.grad_reducer(grads)
        loss = ops.depend(loss, self.optimizer(grads))
        if self.return_grad:
            return loss, {w.name: g for w, g in zip(self.weights, grads, strict=True)}
        return loss


class ForwardValueAndGrad(Cell):
    """The network's outputs and its gradients (w.r.t. inputs and/or ``weights``), MindSpore's
    ``nn.ForwardValueAndGrad``."""

    def __init__(
        self,
        network: Cell,
        weights: Any = None,
        get_all: bool = False,
        get_by_list: bool = False,
        sens_param: bool = False,
    ) -> None:
        super().__init__(auto_prefix=False)
        self.network = validator.check_instance(network, Cell, "network", "ForwardValueAndGrad")
        # MindSpore takes a ParameterTuple or a plain list/tuple of Parameters (net.trainable_params()), and
        # ignores 'weights' when get_by_list is False.
        if get_by_list and not isinstance(weights, (ParameterTuple, list, tuple)):
            raise TypeError(
                "For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the argument 'weights' must be "
                f"Parameters array, but got '{type(weights)}'"
            )
        self.weights = weights
        self.get_by_list, self.sens_param = get_by_list, sens_param
        self.grad = ops.GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)

    def construct(self, *inputs: Any) -> Any:
        loss = self.network(*inputs[:-1] if self.sens_param else inputs)
        if self.get_by_list:
            grads = self.grad(self.network, self.weights)(*inputs)
        else:
            grads = self.grad(self.network)(*inputs)
        return loss, grads


class GetNextSingleOp(Cell):
    """The next row of the device queue ``queue_name`` (``Dataset.device_que``), as a tuple of Tensors.

    Args:
        dataset_types (list[:class:`mindspore.dtype`]): the dtype of each column.
        dataset_shapes (list[tuple[int]]): the shape of each column.
        queue_name (str): the queue to read.

    Raises:
        RuntimeError: no queue of that name, or a row that does not match the types and shapes.
    """

    def __init__(self, dataset_types: Any, dataset_shapes: Any, queue_name: str) -> None:
        super().__init__()
        validator.check_value_type("queue_name", queue_name, [str], "GetNext")
        if len(dataset_types) != len(dataset_shapes):
            raise ValueError(
                f"For 'GetNext', the length of 'types' must be equal to the length of 'shapes', but got "
                f"{len(dataset_types)} and {len(dataset_shapes)}."
            )
        self.types = list(dataset_types)
        self.shapes = [tuple(s) for s in dataset_shapes]
        self.output_num = len(dataset_types)
        self.shared_name = queue_name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # the queue is read on the host at each call (GRAPH_MODE too): a compiled call would keep its first row
        return self._run_construct(*args, **kwargs)

    def construct(self) -> tuple:
        from ...dataset.engine._device_queue import queue_by_name

        queue = queue_by_name(self.shared_name)
        if queue is None:
            raise RuntimeError(f"For 'GetNext', there is no data queue named '{self.shared_name}'.")
        row = tuple(next(queue))
        got = [(x.dtype, tuple(x.shape)) for x in row]
        if got != list(zip(self.types, self.shapes)):
            raise RuntimeError(
                f"For 'GetNext', the data of queue '{self.shared_name}' has types and shapes {got}, "
                f"but {list(zip(self.types, self.shapes))} were expected."
            )
        return row


class ParameterUpdate(Cell):
    """Write ``param`` with the input (``update(x)`` sets ``param`` to ``x`` and returns ``x``).

    Args:
        param (Parameter): the Parameter to update.
    """

    def __init__(self, param: Parameter) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got {type(param)}.")
        self._param = param

    def construct(self, x: Any) -> Any:
        ops.assign(self._param, x)
        return x
