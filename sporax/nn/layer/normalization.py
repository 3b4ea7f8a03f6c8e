"""Normalisation layers: BatchNorm1d, BatchNorm2d, LayerNorm."""

from __future__ import annotations

from typing import Any

from ... import ops
from ...common import dtype as mstype
from ...common.initializer import initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.function import nn_func
from ..cell import Cell

__all__ = ["BatchNorm1d", "BatchNorm2d", "LayerNorm"]


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
        if isinstance(num_features, bool) or not isinstance(num_features, int) or num_features < 1:
            raise ValueError(f"For '{op}', the 'num_features' must be a positive int, but got {num_features}.")
        if not isinstance(eps, (int, float)) or isinstance(eps, bool) or eps <= 0:
            raise ValueError(f"For '{op}', the 'eps' must be a positive float, but got {eps}.")
        if isinstance(momentum, bool) or not isinstance(momentum, (int, float)) or not 0 <= momentum <= 1:
            raise ValueError(f"For '{op}', the 'momentum' must be a number in range [0, 1], but got {momentum}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{op}', the 'data_format' must be 'NCHW', but got '{data_format}'.")
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

    def _check_input(self, x: Tensor) -> None:
        op = type(self).__name__
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{op}', the 'x' must be a Tensor, but got {type(x).__name__}.")
        if x.ndim not in self._ndims:
            want = " or ".join(str(n) for n in self._ndims)
            raise ValueError(f"For '{op}', the dimension of 'x' must be {want}, but got {x.ndim}.")
        if x.shape[1] != self.num_features:
            raise ValueError(
                f"For '{op}', the 'x' shape[1] must be equal to 'num_features': {self.num_features}, "
                f"but got {x.shape[1]} (x shape {x.shape})."
            )
        if not isinstance(x.dtype, mstype.Float):
            raise TypeError(f"For '{op}', the dtype of 'x' must be float, but got {x.dtype}.")

    def construct(self, x: Tensor) -> Tensor:
        self._check_input(x)
        training = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        # the moving statistics follow ``moving = momentum * moving + (1 - momentum) * batch``
        return nn_func.batch_norm(
            x, self.moving_mean, self.moving_variance, self.gamma, self.beta, training, 1.0 - self.momentum, self.eps
        )

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
