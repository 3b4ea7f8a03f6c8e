"""``Optimizer``: the base class of MindSpore's optimizers.

An optimizer is a Cell whose state (moments, ``global_step``, learning rate) is Parameters;
``optimizer(grads)`` runs ``construct`` as one compiled update over every parameter (``_auto_jit``), and
inside a compiled training step it is inlined into that step. Subclasses write ``construct(gradients)``
with sporax ops and update parameters in place with ``ops.assign``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ... import _checkparam as validator
from ... import context, ops
from ...common import dtype as mstype
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ...parallel._shard import prepare_optimizer
from ..cell import Cell
from ..layer.container import CellList
from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["Optimizer"]


def opt_init_args_register(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Record an optimizer's ``__init__`` arguments as ``init_params`` / ``init_args``."""

    @functools.wraps(fn)
    def deco(self: Any, *args: Any, **kwargs: Any) -> Any:
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self")
        if "params" in arguments:
            object.__setattr__(self, "init_params", {"params": arguments.pop("params")})
        if "optimizer" in arguments:
            object.__setattr__(self, "init_params", {"params": arguments.pop("optimizer").init_params["params"]})
        if "learning_rate" in arguments:  # kept apart, as MindSpore does (a schedule Cell is kept as None)
            lr = arguments.pop("learning_rate")
            if isinstance(lr, Tensor):
                lr = lr.asnumpy().tolist()
            object.__setattr__(self, "init_learning_rate", None if isinstance(lr, Cell) else lr)
        object.__setattr__(self, "init_args", arguments)
        return fn(self, *args, **kwargs)

    # MindSpore's registered optimizers show ``(*args, **kwargs)`` as their signature: no ``__wrapped__``.
    del deco.__wrapped__
    return deco


class Optimizer(Cell):
    """Base class for updating parameters. Use one of its subclasses.

    Parameters can be grouped: a list of dicts with keys ``'params'`` (required), ``'lr'``,
    ``'weight_decay'``, ``'grad_centralization'``, or a single ``{'order_params': [...]}`` dict giving the
    order the optimizer keeps its parameters in. Without groups, `weight_decay` applies to parameters whose
    names contain neither ``'beta'`` nor ``'gamma'``.

    Args:
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): A fixed learning rate
            (float, int or 0-d Tensor, at least 0), a per-step one (1-d Tensor or Iterable: step ``i`` takes
            element ``i``) or a LearningRateSchedule called with the global step.
        parameters (Union[list[Parameter], list[dict]]): The parameters to update, or parameter groups.
        weight_decay (Union[float, int, Cell]): Weight decay (L2 penalty), at least 0, or a Cell called
            with the global step (dynamic weight decay). Default: ``0.0``.
        loss_scale (float): Gradients are divided by it; greater than 0. Default: ``1.0``.

    Raises:
        TypeError: If `learning_rate` is not one of int, float, Tensor, Iterable, LearningRateSchedule.
        TypeError: If an element of `parameters` is neither Parameter nor dict.
        TypeError: If `loss_scale` is not a float, or `weight_decay` neither a float, an int nor a Cell.
        ValueError: If `loss_scale` is not greater than 0, or `weight_decay` or `learning_rate` less than 0.
        ValueError: If `learning_rate` is a Tensor with more than one dimension.
    """

    _auto_jit = True
    _support_parallel_optimizer = False

    def __init__(self, learning_rate: Any, parameters: Any, weight_decay: Any = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(auto_prefix=False)
        parameters = validator.check_optim_params(parameters, "parameters")
        if not all(isinstance(x, Parameter) for x in parameters) and not all(isinstance(x, dict) for x in parameters):
            raise TypeError(
                "For 'Optimizer', all elements of the argument 'parameters' must be 'Parameter' or 'dict', "
                "please check the 'parameters'."
            )
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        validator.check_arg_type("loss_scale", loss_scale, [float], self.cls_name)
        validator.check_positive_float(loss_scale, "loss_scale", self.cls_name)
        self.loss_scale = loss_scale
        self.dynamic_weight_decay = False
        self.grad_centralization = False
        self._unique = True
        self._target = context.get_context("device_target")
        self.dynamic_lr = False
        self.global_step = Parameter(Tensor(np.zeros([1], np.int32)), name="global_step")
        self.is_group = False
        self.is_group_lr = False
        self.is_group_params_ordered = False
        self.use_parallel = False
        learning_rate = self._preprocess_single_lr(learning_rate)
        if isinstance(parameters[0], dict):
            self.is_group = True
            self.group_params: list[Parameter] = []
            self.group_lr: list[Any] = []
            self.group_weight_decay: list[Any] = []
            self.group_grad_centralization: list[bool] = []
            self._init_group_params(parameters, learning_rate, weight_decay, self.grad_centralization)
        self._init_opt_attrs(learning_rate, parameters, weight_decay)
        prepare_optimizer(self)  # semi-auto parallel's parallel optimizer splits the state (a no-op otherwise)

    # ------------------------------------------------------------ construction
    def _init_opt_attrs(self, learning_rate: Any, parameters: list[Any], weight_decay: Any) -> None:
        weight_decay = self._preprocess_weight_decay(weight_decay)
        # a schedule Cell, a Tensor, or one of those per group
        self.learning_rate: Any
        self.weight_decay: Any
        self.dynamic_decay_flags: Any  # a bool, or a tuple of them (one per group)
        if self.is_group_lr:
            if self.dynamic_lr:
                self.learning_rate = CellList(self.group_lr, auto_prefix=False)
            else:
                self.learning_rate = ParameterTuple(self.group_lr)
        else:
            self.learning_rate = self._build_single_lr(learning_rate, "learning_rate")
        if self.is_group:
            self.parameters = ParameterTuple(self.group_params)
            self.decay_flags = tuple(isinstance(x, Cell) or x > 0 for x in self.group_weight_decay)
            self.dynamic_decay_flags = tuple(isinstance(x, Cell) for x in self.group_weight_decay)
            self.weight_decay = tuple(
                x if flag else Tensor(x, mstype.float32)
                for x, flag in zip(self.group_weight_decay, self.dynamic_decay_flags)
            )
            self.exec_weight_decay = any(self.decay_flags)
            self.grad_centralization_flags = tuple(self.group_grad_centralization)
        else:
            self.parameters = ParameterTuple(parameters)
            self.decay_flags = tuple("beta" not in x.name and "gamma" not in x.name for x in self.parameters)
            self.dynamic_decay_flags = isinstance(weight_decay, Cell)
            self.exec_weight_decay = isinstance(weight_decay, Cell) or weight_decay > 0
            self.weight_decay = weight_decay if self.dynamic_decay_flags else Tensor(weight_decay, mstype.float32)
        self._parameters = self.parameters
        self.reciprocal_scale = Tensor(1.0 / self.loss_scale, mstype.float32)
        self.need_scale = self.loss_scale != 1.0
        self.global_step_increase_tensor = Tensor(np.ones([1], np.int32))
        self.param_length = len(self._parameters)
        self.optim_filter = (True,) * self.param_length
        self.ps_parameters = (False,) * self.param_length
        self.cache_enable = (False,) * self.param_length
        self.enable_tuple_broaden = True

    def _preprocess_weight_decay(self, weight_decay: Any) -> Any:
        if isinstance(weight_decay, (float, int)) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)
            validator.check_non_negative_float(weight_decay, "weight_decay", self.cls_name)
            return weight_decay * self.loss_scale
        if isinstance(weight_decay, Cell):
            self.dynamic_weight_decay = True
            return _WrappedWeightDecay(weight_decay, self.loss_scale)
        raise TypeError(
            f"For 'Optimizer', the argument 'Weight_decay' must be int, float or Cell, but got {type(weight_decay)}."
        )

    def _preprocess_single_lr(self, learning_rate: Any) -> Any:
        """A float, a 0-d or 1-d Float32 Tensor, or a LearningRateSchedule."""
        if isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, bool):
            learning_rate = float(learning_rate)
            validator.check_non_negative_float(learning_rate, "learning rate", self.cls_name)
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            return Tensor(learning_rate.asnumpy(), mstype.float32)
        if isinstance(learning_rate, LearningRateSchedule):
            self.dynamic_lr = True
            return learning_rate
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim > 1:
                raise ValueError(
                    "For 'Optimizer', if 'learning_rate' is Tensor type, then the dimension of it should be 0 or 1, "
                    f"but got {learning_rate.ndim}."
                )
            self.dynamic_lr = True
            return Tensor(learning_rate.asnumpy(), mstype.float32)
        if isinstance(learning_rate, Iterable) and not isinstance(learning_rate, (str, bytes)):
            self.dynamic_lr = True
            return Tensor(np.array(list(learning_rate)).astype(np.float32))
        raise TypeError(
            "For 'Optimizer', the argument 'learning_rate' must be int, float, Tensor, Iterable or "
            f"LearningRateSchedule, but got {type(learning_rate)}."
        )

    def _build_single_lr(self, learning_rate: Any, name: str) -> Any:
        """A Parameter for a fixed rate, a LearningRateSchedule for a dynamic one."""
        if isinstance(learning_rate, float):
            learning_rate = Tensor(learning_rate, mstype.float32)
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            lr = Parameter(learning_rate, name)
            return _ConvertToCell(lr) if self.is_group_lr and self.dynamic_lr else lr
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1:
            return _IteratorLearningRate(learning_rate, name)
        return learning_rate

    def _parse_group_params(self, parameters: list[Any], learning_rate: Any) -> None:
        validator.check_group_params(parameters, Parameter)
        tensor_lr_length = learning_rate.size if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1 else 0
        for group_param in parameters:
            if "order_params" in group_param:
                self.is_group_params_ordered = True
                continue
            if "lr" in group_param:
                self.is_group_lr = True
                group_lr = self._preprocess_single_lr(group_param["lr"])
                if isinstance(group_lr, Tensor) and group_lr.ndim == 1:
                    if tensor_lr_length == 0:
                        tensor_lr_length = group_lr.size
                    elif group_lr.size != tensor_lr_length:
                        raise ValueError(
                            "For 'Optimizer', the Tensor type dynamic learning rate in group must be the same size "
                            "as the argument 'learning_rate'."
                        )

    def _init_group_params(
        self, parameters: list[Any], learning_rate: Any, weight_decay: Any, grad_centralization: bool
    ) -> None:
        self._parse_group_params(parameters, learning_rate)
        default_lr = self._build_single_lr(learning_rate, "learning_rate")
        params_store: list[str] = []
        ordered_parameters = None
        for group_num, group_param in enumerate(parameters):
            if "order_params" in group_param:
                ordered_parameters = list(group_param["order_params"])
                continue
            group = list(group_param["params"])
            self.group_params += group
            if "lr" in group_param:
                lr = self._preprocess_single_lr(group_param["lr"])
                lr = self._build_single_lr(lr, "learning_rate_group_" + str(group_num))
            else:
                lr = default_lr
            wd = self._preprocess_weight_decay(group_param.get("weight_decay", weight_decay))
            if "grad_centralization" in group_param:
                gc = validator.check_grad_centralization(group_param["grad_centralization"])
                self.grad_centralization = gc
            else:
                gc = grad_centralization
            for param in group:
                if param.name in params_store:
                    raise RuntimeError(
                        f"For 'Optimizer', the {param.name} parameter already exists, it does not support repeated "
                        "setting. Please check whether the optimizer parameter has been set multiple times."
                    )
                params_store.append(param.name)
                self.group_lr.append(lr)
                self.group_weight_decay.append(wd)
                self.group_grad_centralization.append(gc)
        if self.is_group_params_ordered and ordered_parameters is not None:
            self._order_and_adjust_group_params(ordered_parameters)

    def _order_and_adjust_group_params(self, ordered_parameters: list[Parameter]) -> None:
        n = len(self.group_params)
        if len(ordered_parameters) != n:
            raise ValueError(
                "For 'Optimizer', the length of order parameters must be the same as the length of group "
                f"parameters, but got order parameters' length {len(ordered_parameters)}, group parameters' "
                f"length {n}."
            )
        names = [p.name for p in ordered_parameters]
        params: list[Any] = [None] * n
        lrs: list[Any] = [None] * n
        wds: list[Any] = [None] * n
        gcs: list[Any] = [None] * n
        for param, lr, wd, gc in zip(
            self.group_params, self.group_lr, self.group_weight_decay, self.group_grad_centralization
        ):
            if param.name not in names:
                raise ValueError(
                    f"For 'Optimizer', the parameter {param.name} in group parameters is not in 'order_params'."
                )
            index = names.index(param.name)
            params[index], lrs[index], wds[index], gcs[index] = param, lr, wd, gc
        self.group_params, self.group_lr = params, lrs
        self.group_weight_decay, self.group_grad_centralization = wds, gcs

    # -------------------------------------------------------------- properties
    @property
    def unique(self) -> bool:
        """Whether sparse gradients are de-duplicated (dense gradients: no effect)."""
        return self._unique

    @unique.setter
    def unique(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For 'Optimizer', the property 'unique' must be bool, but got {type(value)}")
        self._unique = value

    @property
    def target(self) -> str:
        """Where the update runs: ``'CPU'``, ``'GPU'`` or ``'Ascend'`` (sporax compiles it with the step)."""
        return self._target

    @target.setter
    def target(self, value: str) -> None:
        raise NotImplementedError

    def _set_base_target(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"For 'Optimizer', the property 'target' must be string, but got {type(value)}")
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError(
                f"For 'Optimizer', the property 'target' must be one of ['CPU', 'Ascend' ,'GPU'], but got {value}"
            )
        if self._target == "CPU" and value in ("Ascend", "GPU"):
            raise ValueError(
                "For 'Optimizer', the property 'target' cannot be set to 'GPU' or 'Ascend' in the 'CPU' environment."
            )
        if self._target == "GPU" and value == "Ascend":
            raise ValueError(
                "For 'Optimizer', the property 'target' cannot be set to 'Ascend' in the 'GPU' environment."
            )
        self._target = value

    # ---------------------------------------------------------- step helpers
    def _update_local_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Prefix the names of this optimizer's own Parameters (its state, not the network's ones it
        updates) with ``prefix``, as MindSpore does when several optimizers share a network (boost)."""
        user = {id(p) for p in self.parameters}
        for name, param in self.parameters_and_names(expand=recurse):
            if id(param) not in user:
                param.name = prefix + name

    def flatten_gradients(self, gradients: tuple[Any, ...]) -> tuple[Any, ...]:
        """Gradients for flattened (contiguous) parameters: sporax never flattens, so they are returned as is."""
        return gradients

    def decay_weight(self, gradients: tuple[Any, ...]) -> tuple[Any, ...]:
        """``grad + weight_decay * param`` for the parameters that decay.

        Args:
            gradients (tuple[Tensor]): The gradients of the parameters.

        Returns:
            tuple[Tensor], the gradients after weight decay.
        """
        if not self.exec_weight_decay:
            return gradients
        weight_decay = self.get_weight_decay()
        if not self.is_group:
            weight_decay = (weight_decay,) * self.param_length
        return tuple(
            g + p * ops.cast(wd, p.dtype) if flag else g
            for wd, flag, p, g in zip(weight_decay, self.decay_flags, self._parameters, gradients)
        )

    def gradients_centralization(self, gradients: tuple[Any, ...]) -> tuple[Any, ...]:
        """Centralize the gradients of groups with ``grad_centralization``: ``g - mean(g, axes 1..n-1)`` for
        gradients of rank at least 2 whose dimension 1 is a multiple of 16 (convolution weights).

        Args:
            gradients (tuple[Tensor]): The gradients of the parameters.

        Returns:
            tuple[Tensor], the gradients after centralization.
        """
        if not self.is_group:
            return gradients
        out = []
        for flag, g in zip(self.grad_centralization_flags, gradients):
            if flag and g.ndim >= 2 and g.shape[1] % 16 == 0:
                g = g - ops.mean(g, tuple(range(1, g.ndim)), True)
            out.append(g)
        return tuple(out)

    def scale_grad(self, gradients: tuple[Any, ...]) -> tuple[Any, ...]:
        """Divide the gradients by `loss_scale` (when it is not 1).

        Args:
            gradients (tuple[Tensor]): The gradients of the parameters.

        Returns:
            tuple[Tensor], the unscaled gradients.
        """
        if not self.need_scale:
            return gradients
        return tuple(g * ops.cast(self.reciprocal_scale, g.dtype) for g in gradients)

    def _gradient_tuple(self, gradients: Any) -> tuple[Any, ...]:
        """``gradients`` as a tuple, one per parameter, each of its parameter's shape (else MindSpore's errors)."""
        return validator.check_gradients(gradients, self._parameters, Tensor, self.cls_name)

    def _prepared(self, gradients: Any, centralize: bool = True) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """A step's common start: ``gradients`` checked, flattened, weight-decayed, centralized (unless not
        ``centralize``) and divided by the loss scale, with the per-parameter learning rates; advances the step."""
        gradients = self._gradient_tuple(gradients)
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        if centralize:
            gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lrs = self._lr_per_param(self.get_lr())
        self._advance_step()
        return gradients, lrs

    def _grad_sparse_indices_deduplicate(self, gradients: tuple[Any, ...]) -> tuple[Any, ...]:
        return gradients

    def _is_dynamic_lr_or_weight_decay(self) -> bool:
        return self.dynamic_lr or self.dynamic_weight_decay

    def get_weight_decay(self) -> Any:
        """The weight decay of the current step (a tuple, one per parameter, when parameters are grouped).

        Returns:
            Tensor, or tuple[Tensor] for grouped parameters.
        """
        if self.dynamic_weight_decay:
            if self.is_group:
                return tuple(
                    wd(self.global_step) if flag else wd
                    for wd, flag in zip(self.weight_decay, self.dynamic_decay_flags)
                )
            return self.weight_decay(self.global_step)
        return self.weight_decay

    def get_lr(self) -> Any:
        """The learning rate of the current step (a tuple, one per parameter, with group learning rates).
        It does not advance ``global_step``: each optimizer step advances it once, after reading the rate
        (as MindSpore 2.10), so user code may call it between steps.

        Returns:
            Tensor, or tuple[Tensor] for group learning rates.
        """
        lr: Any = self.learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                lr = tuple(schedule(self.global_step).reshape(()) for schedule in self.learning_rate)
            else:
                lr = self.learning_rate(self.global_step).reshape(())
        return lr

    def _advance_step(self) -> None:
        ops.assign_add(self.global_step, self.global_step_increase_tensor)

    def _lr_per_param(self, lr: Any) -> tuple[Any, ...]:
        return tuple(lr) if self.is_group_lr else (lr,) * self.param_length

    def get_lr_parameter(self, param: Any) -> Any:
        """The learning rate of `param` (or of each Parameter in a list): a Parameter for a fixed rate, the
        LearningRateSchedule for a dynamic one.

        Args:
            param (Union[Parameter, list[Parameter]]): The parameter(s).

        Returns:
            Parameter, LearningRateSchedule, or a list of them.
        """

        def get_lr_value(learning_rate: Any) -> Any:
            if isinstance(learning_rate, (_ConvertToCell, _IteratorLearningRate)):
                return learning_rate.learning_rate
            return learning_rate

        if isinstance(param, Parameter):
            param_list = [param]
        elif isinstance(param, list):
            param_list = param
        else:
            raise TypeError(
                f"For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' type, but got {type(param)}."
            )
        ids = [id(p) for p in self._parameters]
        lr = []
        for p in param_list:
            validator.check_arg_type("parameter", p, [Parameter], self.cls_name)
            if id(p) not in ids:
                raise ValueError(
                    f"For 'get_lr_parameter', the parameter {p.name} is not in optimizer, please check whether the "
                    "argument 'param' is correct."
                )
            if self.is_group_lr:
                lr.append(get_lr_value(self.learning_rate[ids.index(id(p))]))
            else:
                lr.append(get_lr_value(self.learning_rate))
        return lr if isinstance(param, list) else lr[0]

    def broadcast_params(self, optim_result: Any) -> Any:
        """Parallel-optimizer broadcast: every rank holds every parameter in sporax, so nothing moves."""
        return optim_result

    def construct(self, *hyper_params: Any) -> Any:
        raise NotImplementedError


class _ConvertToCell(LearningRateSchedule):
    """A fixed learning rate Parameter as a schedule (group learning rates mixing fixed and dynamic)."""

    def __init__(self, learning_rate: Parameter) -> None:
        super().__init__()
        if not isinstance(learning_rate, Parameter):
            raise TypeError(
                f"For 'Optimizer', the argument 'learning_rate' must be Parameter, but got {type(learning_rate)}."
            )
        self.learning_rate = learning_rate

    def construct(self, global_step: Any) -> Any:
        return self.learning_rate + 0.0


class _IteratorLearningRate(LearningRateSchedule):
    """A 1-d Tensor of per-step learning rates as a schedule: step ``i`` takes element ``i``."""

    def __init__(self, learning_rate: Tensor, name: str) -> None:
        super().__init__()
        if not isinstance(learning_rate, Tensor):
            raise TypeError(
                f"For 'Optimizer', the argument 'learning_rate' must be Tensor, but got {type(learning_rate)}."
            )
        if learning_rate.ndim != 1:
            raise ValueError(
                f"For 'Optimizer', the dimension of the argument 'learning_rate' should be 1, but got {learning_rate.ndim}."
            )
        self.learning_rate = Parameter(learning_rate, name)

    def construct(self, global_step: Any) -> Any:
        return ops.gather(self.learning_rate, global_step, 0)


class _WrappedWeightDecay(Cell):
    """A dynamic weight decay Cell, multiplied by the loss scale."""

    def __init__(self, weight_decay: Cell, loss_scale: float = 1.0) -> None:
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = Tensor(loss_scale, mstype.float32)

    def construct(self, global_step: Any) -> Any:
        return self.weight_decay(global_step) * self.loss_scale
