"""Normalisation layers: BatchNorm1d/2d/3d, SyncBatchNorm, LayerNorm, LayerNormExt, GroupNorm,
InstanceNorm1d/2d/3d (MindSpore's parameter names: ``gamma``, ``beta``, ``moving_mean`` named ``mean`` and
``moving_variance`` named ``variance``)."""

from __future__ import annotations

import numbers
from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.initializer import Initializer, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.function import nn_func, norm_func
from ..cell import Cell

__all__ = [
    "BatchNorm1d",
    "BatchNorm2d",
    "BatchNorm3d",
    "LayerNorm",
    "LayerNormExt",
    "GroupNorm",
    "SyncBatchNorm",
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
]


class _BatchNorm(Cell):
    """Batch normalisation over the channel axis (1).

    Training (``set_train()``, or ``use_batch_statistics=True``) normalises with the batch statistics and
    updates ``moving_mean`` / ``moving_variance`` as ``momentum * moving + (1 - momentum) * batch`` (the
    unbiased batch variance); inference uses the moving statistics.
    """

    _ndims: tuple[int, ...] = (4,)

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.9,
        affine: bool = True,
        gamma_init: Any = "ones",
        beta_init: Any = "zeros",
        moving_mean_init: Any = "zeros",
        moving_var_init: Any = "ones",
        use_batch_statistics: bool | None = None,
        data_format: str = "NCHW",
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        op = type(self).__name__
        validator.check_value_type("num_features", num_features, [int], op)
        if num_features < 1:
            raise ValueError(f"For '{op}', the 'num_features' must be at least 1, but got {num_features}.")
        if not isinstance(eps, (int, float)) or isinstance(eps, bool) or eps <= 0:
            raise ValueError(f"For '{op}', the 'eps' must be a positive float, but got {eps}.")
        if isinstance(momentum, bool) or not isinstance(momentum, (int, float)) or not 0 <= momentum <= 1:
            raise ValueError(f"For '{op}', the 'momentum' must be a number in range [0, 1], but got {momentum}.")
        validator.check_string(data_format, ["NCHW", "NHWC"], "format", op)
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise ValueError(
                f"For '{op}', the 'use_batch_statistics' must be a bool or None, but got {use_batch_statistics}."
            )
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.use_batch_statistics, self.format = affine, use_batch_statistics, data_format
        self.moving_mean = Parameter(
            initializer(moving_mean_init, num_features, dtype), name="mean", requires_grad=False
        )
        self.moving_variance = Parameter(
            initializer(moving_var_init, num_features, dtype), name="variance", requires_grad=False
        )
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype), name="beta", requires_grad=affine)

    def _validate_input(self, x: Tensor) -> None:
        op = type(self).__name__
        validator.check_instance(x, Tensor, "x", op)
        validator.check_ndim(x.ndim, self._ndims, "x", op)
        validator.check_shape_dim(x.shape, 1, self.num_features, "num_features", "x", op)
        validator.check_dtype_kind("x", x.dtype, mstype.Float, "float", op)

    _sync = False

    def construct(self, x: Tensor) -> Tensor:
        nhwc = self.format == "NHWC"
        if nhwc:  # channels last: normalise the channel axis as NCHW does
            x = ops.moveaxis(x, -1, 1)
        self._validate_input(x)
        training = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        # the moving statistics follow ``moving = momentum * moving + (1 - momentum) * batch``
        fn = norm_func.sync_batch_norm if self._sync else nn_func.batch_norm
        y = fn(
            x, self.moving_mean, self.moving_variance, self.gamma, self.beta, training, 1.0 - self.momentum, self.eps
        )
        return ops.moveaxis(y, 1, -1) if nhwc else y

    def extend_repr(self) -> str:
        return (
            f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma}, "
            f"beta={self.beta}, moving_mean={self.moving_mean}, moving_variance={self.moving_variance}"
        )


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of a 2-D ``(N, C)`` or 3-D ``(N, C, L)`` input (see ``BatchNorm2d``)."""

    _ndims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of a 4-D ``(N, C, H, W)`` input.

    Args:
        num_features: the channel number C.
        eps: added to the variance. Default 1e-5.
        momentum: moving-average factor: ``moving = momentum * moving + (1 - momentum) * batch``. Default 0.9.
        affine: whether ``gamma`` and ``beta`` are trained. Default True.
        gamma_init, beta_init, moving_mean_init, moving_var_init: initializers ('ones', 'zeros', 'zeros', 'ones').
        use_batch_statistics: None (default): batch statistics in training, moving ones in inference;
            True: always batch statistics (and updates); False: always the moving statistics.
        data_format: 'NCHW'.
        dtype: parameter dtype. Default float32.
    """

    _ndims = (4,)


class LayerNorm(Cell):
    """Layer normalisation: statistics over the axes from ``begin_norm_axis``; ``gamma``/``beta`` of shape
    ``normalized_shape`` apply from ``begin_params_axis``.

    Args:
        normalized_shape: a tuple or list: the shape of ``gamma``/``beta``.
        begin_norm_axis: first normalised axis. Default -1.
        begin_params_axis: first axis covered by the parameters. Default -1.
        gamma_init, beta_init: initializers. Default 'ones', 'zeros'.
        epsilon: added to the variance. Default 1e-7.
        dtype: parameter dtype. Default float32.
    """

    def __init__(
        self,
        normalized_shape: Any,
        begin_norm_axis: int = -1,
        begin_params_axis: int = -1,
        gamma_init: Any = "ones",
        beta_init: Any = "zeros",
        epsilon: float = 1e-7,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(
                f"For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] or list[int], but got "
                f"{normalized_shape} and the type is {type(normalized_shape)}."
            )
        if not normalized_shape:
            raise ValueError(
                "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
                f"but got normalized_shape = {normalized_shape}"
            )
        self.normalized_shape = normalized_shape
        self.begin_norm_axis, self.begin_params_axis, self.epsilon = begin_norm_axis, begin_params_axis, epsilon
        self.gamma = Parameter(initializer(gamma_init, normalized_shape, dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, normalized_shape, dtype), name="beta")
        self.layer_norm = ops.LayerNorm(begin_norm_axis, begin_params_axis, epsilon)

    def construct(self, input_x: Tensor) -> Tensor:
        y, _, _ = self.layer_norm(input_x, self.gamma, self.beta)
        return y

    def extend_repr(self) -> str:
        return f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, begin_params_axis={self.begin_params_axis}, gamma{self.gamma}, beta={self.beta}"


class BatchNorm3d(Cell):
    """Batch normalisation of a 5-D ``(N, C, D, H, W)`` input (the statistics per channel over N, D, H, W).

    Args as :class:`BatchNorm2d` (without ``data_format``). As in MindSpore the parameters live in a
    ``BatchNorm2d`` child named ``bn2d`` (checkpoint names ``bn2d.gamma``, ``bn2d.mean``...).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.BatchNorm3d(3)(ms.Tensor(np.ones([2, 3, 2, 2, 2], np.float32))).shape
        (2, 3, 2, 2, 2)
    """

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.9,
        affine: bool = True,
        gamma_init: Any = "ones",
        beta_init: Any = "zeros",
        moving_mean_init: Any = "zeros",
        moving_var_init: Any = "ones",
        use_batch_statistics: bool | None = None,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        self.bn2d = BatchNorm2d(
            num_features=num_features,
            eps=eps,
            momentum=momentum,
            affine=affine,
            gamma_init=gamma_init,
            beta_init=beta_init,
            moving_mean_init=moving_mean_init,
            moving_var_init=moving_var_init,
            use_batch_statistics=use_batch_statistics,
            data_format="NCHW",
            dtype=dtype,
        )

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim != 5:
            raise ValueError(f"For 'BatchNorm3d', the in_shape must have 5 dims, but got {x.ndim}.")
        n, c, d, h, w = x.shape
        return ops.reshape(self.bn2d(ops.reshape(x, (n, c, d * h, w))), (n, c, d, h, w))


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose training statistics are those of the whole batch across all ranks of a
    ``sporax launch`` job (an all-reduce of the per-channel sums inside the step); in one process it is
    ``BatchNorm2d``. Takes 2-D ``(N, C)`` or 4-D ``(N, C, H, W)`` inputs.

    Args as :class:`BatchNorm2d`, plus ``process_groups``: None (all ranks), 0 (no synchronisation: plain
    batch normalisation), or a list of rank lists; sporax's collectives run over the world group (user groups
    are not supported on GPU/CPU, as in MindSpore), so the group holding this rank must contain every rank.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.SyncBatchNorm(3)(ms.Tensor(np.ones([2, 3, 2, 2], np.float32))).shape
        (2, 3, 2, 2)
    """

    _ndims = (2, 4)

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.9,
        affine: bool = True,
        gamma_init: Any = "ones",
        beta_init: Any = "zeros",
        moving_mean_init: Any = "zeros",
        moving_var_init: Any = "ones",
        use_batch_statistics: bool | None = None,
        process_groups: Any = None,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__(
            num_features,
            eps,
            momentum,
            affine,
            gamma_init,
            beta_init,
            moving_mean_init,
            moving_var_init,
            use_batch_statistics,
            dtype=dtype,
        )
        from ...communication.management import get_group_size, get_rank

        self.process_groups = process_groups
        self.is_global = False
        if process_groups != 0:
            rank, size = get_rank(), get_group_size()
            if process_groups is not None:
                validator.check_isinstance("process_groups", process_groups, list)
                seen: set[int] = set()
                for group in process_groups:
                    validator.check_isinstance("sub group", group, list)
                    for rid in group:
                        validator.check_int_range(
                            rid, 0, size, validator.INC_LEFT, "rank id in process_groups", self.cls_name
                        )
                        if rid in seen:
                            raise ValueError(
                                f"For '{self.cls_name}', rank id in 'process_groups' must not be duplicated, "
                                f"but got {process_groups}."
                            )
                        seen.add(rid)
                    if rank in group and len(group) > 1:
                        if sorted(group) != list(range(size)):
                            raise RuntimeError(
                                f"For '{self.cls_name}', a process group of some ranks ({group}) is not supported: "
                                "sporax's collectives run over the world group (user groups are not supported on "
                                "GPU and CPU, as in MindSpore)."
                            )
                        self.is_global = True
            elif size > 1:
                self.is_global = True
        self._sync = self.is_global

    def _validate_input(self, x: Tensor) -> None:
        if x.ndim not in (2, 4):
            raise ValueError(f"For '{self.cls_name}', the must have 2 dims or 4 dims, but got {x.ndim}.")
        super()._validate_input(x)


class _InstanceNorm(Cell):
    """Instance normalisation: each sample's channels normalised by their own mean and variance over the
    spatial axes (in training and inference alike, as MindSpore's InstanceNorm); training also updates
    ``moving_mean``/``moving_variance`` as ``(1 - momentum) * moving + momentum * batch``."""

    _ndim = 4

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.1,
        affine: bool = True,
        gamma_init: Any = "ones",
        beta_init: Any = "zeros",
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        name = self.cls_name
        validator.check_value_type("num_features", num_features, [int], name)
        validator.check_value_type("eps", eps, [float], name)
        validator.check_value_type("momentum", momentum, [float], name)
        validator.check_value_type("affine", affine, [bool], name)
        validator.check_init_types(
            name, {"gamma_init": gamma_init, "beta_init": beta_init}, Tensor, Initializer, mstype.float32
        )
        if num_features < 1:
            raise ValueError(f"For '{name}', the 'num_features' must be at least 1, but got {num_features}.")
        if momentum < 0 or momentum > 1:
            raise ValueError(f"For '{name}', the 'momentum' must be a number in range [0, 1], but got {momentum}.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.moving_mean = Parameter(initializer("zeros", num_features, dtype), name="mean", requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", num_features, dtype), name="variance", requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype), name="beta", requires_grad=affine)

    def construct(self, x: Tensor) -> Tensor:
        name = self.cls_name
        if x.ndim != self._ndim:
            raise ValueError(f"For '{name}', the in_shape must have {self._ndim} dims, but got {x.ndim}.")
        if x.shape[1] != self.num_features:
            raise ValueError(
                f"For '{name}', the 'x' shape[1] must be equal to 'num_features': {self.num_features}, "
                f"but got {x.shape[1]}."
            )
        if x.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(
                f"For '{name}', the 'x' should be one of [mindspore.float16, mindspore.float32], but got "
                f"'mindspore.{x.dtype.name}'."
            )
        return norm_func.instance_norm(
            x, self.gamma, self.beta, self.moving_mean, self.moving_variance, self.eps, self.momentum, self.training
        )

    def extend_repr(self) -> str:
        return (
            f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma}, "
            f"beta={self.beta}, moving_mean={self.moving_mean}, moving_variance={self.moving_variance}"
        )


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of a 3-D ``(N, C, L)`` input (see ``InstanceNorm2d``).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.InstanceNorm1d(3)(ms.Tensor(np.ones([2, 3, 4], np.float32))).shape
        (2, 3, 4)
    """

    _ndim = 3


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of a 4-D ``(N, C, H, W)`` input: ``(x - mean) / sqrt(var + eps) * gamma + beta``
    with ``mean``/``var`` per sample and channel over H, W.

    Args:
        num_features (int): the channel number C.
        eps (float): added to the variance. Default 1e-5.
        momentum (float): moving-average factor in [0, 1]. Default 0.1.
        affine (bool): whether ``gamma``/``beta`` are trained. Default True.
        gamma_init, beta_init: initializers ('ones', 'zeros').
        dtype: parameter dtype. Default float32.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.InstanceNorm2d(3)(ms.Tensor(np.ones([2, 3, 2, 2], np.float32))).shape
        (2, 3, 2, 2)
    """

    _ndim = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of a 5-D ``(N, C, D, H, W)`` input (see ``InstanceNorm2d``).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.InstanceNorm3d(3)(ms.Tensor(np.ones([2, 3, 2, 2, 2], np.float32))).shape
        (2, 3, 2, 2, 2)
    """

    _ndim = 5


class GroupNorm(Cell):
    """Group normalisation (``ops.group_norm``) of an ``(N, C, *)`` input with per-channel ``gamma``/``beta``.

    Args:
        num_groups (int): groups the channels are divided into.
        num_channels (int): C; divisible by ``num_groups``.
        eps (float): added to the variance. Default 1e-5.
        affine (bool): whether ``gamma``/``beta`` are trained. Default True.
        gamma_init, beta_init: initializers ('ones', 'zeros').
        dtype: parameter dtype. Default float32.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.GroupNorm(2, 4)(ms.Tensor(np.ones([1, 4, 2, 2], np.float32))).sum()
        Tensor(shape=[], dtype=Float32, value= 0)
    """

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-05,
        affine: bool = True,
        gamma_init: Any = "ones",
        beta_init: Any = "zeros",
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        name = self.cls_name
        self.num_groups = validator.check_positive_int(num_groups, "num_groups", name)
        self.num_channels = validator.check_positive_int(num_channels, "num_channels", name)
        if num_channels % num_groups != 0:
            raise ValueError(
                f"For '{name}', the 'num_channels' must be divided by 'num_groups', but got 'num_channels': "
                f"{num_channels}, 'num_groups': {num_groups}."
            )
        self.eps = validator.check_value_type("eps", eps, (float,), name)
        self.affine = validator.check_bool(affine, arg_name="affine", prim_name=name)
        self.gamma = Parameter(initializer(gamma_init, num_channels, dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_channels, dtype), name="beta", requires_grad=affine)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim >= 2 and x.shape[1] != self.num_channels:
            raise ValueError(
                f"For '{self.cls_name}', the channel(the second dim of the input 'x') must be equal to "
                f"num_channels, but got channel: {x.shape[1]}, num_channels: {self.num_channels}."
            )
        return norm_func.group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)

    def extend_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class LayerNormExt(Cell):
    """Layer normalisation over the trailing ``normalized_shape`` axes (``ops.layer_norm``), with an optional
    elementwise ``weight`` (ones) and ``bias`` (zeros).

    Args:
        normalized_shape (Union[int, tuple[int], list[int]]): the trailing shape normalised.
        eps (float): added to the variance. Default 1e-5.
        elementwise_affine (bool): whether there are ``weight``/``bias``. Default True.
        bias (bool): whether there is ``bias`` (with ``elementwise_affine``). Default True.
        dtype: parameter dtype. Default None (float32).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.LayerNormExt(3)(ms.Tensor(np.ones([2, 3], np.float32))).shape
        (2, 3)
    """

    def __init__(
        self,
        normalized_shape: Any,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral) and not isinstance(normalized_shape, bool):
            normalized_shape = (int(normalized_shape),)
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(
                f"For '{self.cls_name}', the type of 'normalized_shape' must be tuple[int] or list[int], but got "
                f"{normalized_shape} and the type is {type(normalized_shape)}."
            )
        if not normalized_shape:
            raise ValueError(
                "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
                f"but got normalized_shape = {normalized_shape}"
            )
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        dt = mstype.float32 if dtype is None else dtype
        self.weight = self.bias = None
        if elementwise_affine:
            self.weight = Parameter(initializer("ones", self.normalized_shape, dt), name="weight")
            if bias:
                self.bias = Parameter(initializer("zeros", self.normalized_shape, dt), name="bias")

    def construct(self, input: Tensor) -> Tensor:
        return ops.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extend_repr(self) -> str:
        return f"normalized_shape={self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
