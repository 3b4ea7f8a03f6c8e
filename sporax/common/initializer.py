"""Weight initializers (``mindspore.common.initializer``).

Values are drawn on the host with NumPy from the generator seeded by ``set_seed``, with MindSpore's
formulas for fan-in/fan-out, gains and truncation.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .. import _checkparam as validator
from . import dtype as mstype
from .seed import host_rng
from .tensor import Tensor

__all__ = [
    "Initializer",
    "initializer",
    "TruncatedNormal",
    "Normal",
    "Uniform",
    "HeUniform",
    "HeNormal",
    "XavierUniform",
    "XavierNormal",
    "One",
    "Zero",
    "Constant",
    "Identity",
    "Sparse",
    "Dirac",
    "Orthogonal",
    "VarianceScaling",
]


def _fans(shape: tuple[int, ...]) -> tuple[int, int]:
    """(fan_in, fan_out) of a weight shape (out, in, *kernel), MindSpore's ``_calculate_fan_in_and_fan_out``."""
    if len(shape) < 2:
        raise ValueError(
            "'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 dimensions, but got "
            f"dimensions {len(shape)}."
        )
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


# MindSpore's private helper names, which programs import (mindspore.common.initializer._calculate_...)
_calculate_fan_in_and_fan_out = _fans


def _calculate_correct_fan(shape: tuple[int, ...], mode: str) -> int:
    """fan_in or fan_out of ``shape`` (``mode`` 'fan_in' / 'fan_out', any case)."""
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"'mode' {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _fans(shape)
    return fan_in if mode == "fan_in" else fan_out


def _gain(nonlinearity: str, param: Any = None) -> float:
    linear = (
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
        "sigmoid",
    )
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"For the initializer, the nonlinearity '{nonlinearity}' is not supported.")


_calculate_gain = _gain


class Initializer:
    """Base class: subclasses fill a NumPy array in ``_initialize``."""

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs

    def _initialize(self, arr: np.ndarray) -> None:
        raise NotImplementedError

    def __call__(self, arr: np.ndarray) -> None:
        self._initialize(arr)

    def _make(self, shape: tuple[int, ...]) -> np.ndarray:
        arr = np.zeros(shape, np.float64)
        self._initialize(arr)
        return arr

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


class Zero(Initializer):
    def _initialize(self, arr: np.ndarray) -> None:
        arr.fill(0)


class One(Initializer):
    def _initialize(self, arr: np.ndarray) -> None:
        arr.fill(1)


class Constant(Initializer):
    def __init__(self, value: Any) -> None:
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr: np.ndarray) -> None:
        arr.fill(self.value)


class Normal(Initializer):
    def __init__(self, sigma: float = 0.01, mean: float = 0.0) -> None:
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _initialize(self, arr: np.ndarray) -> None:
        arr[...] = host_rng().normal(self.mean, self.sigma, arr.shape)


class Uniform(Initializer):
    def __init__(self, scale: float = 0.07) -> None:
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr: np.ndarray) -> None:
        arr[...] = host_rng().uniform(-self.scale, self.scale, arr.shape)


class TruncatedNormal(Initializer):
    """Normal(mean, sigma) truncated to [a, b] (MindSpore 2.x: a=-2, b=2 in absolute units)."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0, a: float = -2.0, b: float = 2.0) -> None:
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _initialize(self, arr: np.ndarray) -> None:
        rng = host_rng()
        out = rng.normal(self.mean, self.sigma, arr.shape)
        bad = (out < self.a) | (out > self.b)
        while bad.any():
            out[bad] = rng.normal(self.mean, self.sigma, int(bad.sum()))
            bad = (out < self.a) | (out > self.b)
        arr[...] = out


class XavierUniform(Initializer):
    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr: np.ndarray) -> None:
        fan_in, fan_out = _fans(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        arr[...] = host_rng().uniform(-bound, bound, arr.shape)


class XavierNormal(Initializer):
    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr: np.ndarray) -> None:
        fan_in, fan_out = _fans(arr.shape)
        std = self.gain * math.sqrt(2.0 / (fan_in + fan_out))
        arr[...] = host_rng().normal(0.0, std, arr.shape)


class _He(Initializer):
    def __init__(self, negative_slope: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu") -> None:
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        validator.check_choice(mode, ("fan_in", "fan_out"), "mode", type(self).__name__)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _std(self, shape: tuple[int, ...]) -> float:
        fan_in, fan_out = _fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        return _gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)


class HeUniform(_He):
    def _initialize(self, arr: np.ndarray) -> None:
        bound = math.sqrt(3.0) * self._std(arr.shape)
        arr[...] = host_rng().uniform(-bound, bound, arr.shape)


class HeNormal(_He):
    def _initialize(self, arr: np.ndarray) -> None:
        arr[...] = host_rng().normal(0.0, self._std(arr.shape), arr.shape)


class Identity(Initializer):
    def _initialize(self, arr: np.ndarray) -> None:
        if arr.ndim != 2:
            raise ValueError(f"For 'Identity', the tensor must be 2-D, but got shape {arr.shape}.")
        arr[...] = np.eye(*arr.shape)


class Dirac(Initializer):
    def __init__(self, groups: int = 1) -> None:
        super().__init__(groups=groups)
        self.groups = groups

    def _initialize(self, arr: np.ndarray) -> None:
        if arr.ndim not in (3, 4, 5):
            raise ValueError(f"For 'Dirac', the tensor must be 3-, 4- or 5-D, but got shape {arr.shape}.")
        arr.fill(0)
        out_per = arr.shape[0] // self.groups
        m = min(out_per, arr.shape[1])
        centre = tuple(s // 2 for s in arr.shape[2:])
        for g in range(self.groups):
            for d in range(m):
                arr[(g * out_per + d, d, *centre)] = 1


class Orthogonal(Initializer):
    def __init__(self, gain: float = 1.0) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr: np.ndarray) -> None:
        if arr.ndim < 2:
            raise ValueError(f"For 'Orthogonal', the tensor must be at least 2-D, but got shape {arr.shape}.")
        rows, cols = arr.shape[0], int(np.prod(arr.shape[1:]))
        flat = host_rng().normal(0.0, 1.0, (rows, cols))
        if rows < cols:
            flat = flat.T
        q, r = np.linalg.qr(flat)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        arr[...] = self.gain * q.reshape(arr.shape)


class Sparse(Initializer):
    def __init__(self, sparsity: float, sigma: float = 0.01) -> None:
        super().__init__(sparsity=sparsity, sigma=sigma)
        self.sparsity, self.sigma = sparsity, sigma

    def _initialize(self, arr: np.ndarray) -> None:
        if arr.ndim != 2:
            raise ValueError(f"For 'Sparse', the tensor must be 2-D, but got shape {arr.shape}.")
        rows, cols = arr.shape
        rng = host_rng()
        arr[...] = rng.normal(0, self.sigma, arr.shape)
        zeros = int(math.ceil(self.sparsity * rows))
        for c in range(cols):
            arr[rng.permutation(rows)[:zeros], c] = 0


class VarianceScaling(Initializer):
    def __init__(self, scale: float = 1.0, mode: str = "fan_in", distribution: str = "truncated_normal") -> None:
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0:
            raise ValueError(f"For 'VarianceScaling', the 'scale' must be positive, but got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"For 'VarianceScaling', the 'mode' must be fan_in, fan_out or fan_avg, but got '{mode}'.")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"For 'VarianceScaling', the 'distribution' '{distribution}' is not supported.")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def _initialize(self, arr: np.ndarray) -> None:
        fan_in, fan_out = _fans(arr.shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        scale = self.scale / max(1.0, n)
        rng = host_rng()
        if self.distribution == "uniform":
            lim = math.sqrt(3.0 * scale)
            arr[...] = rng.uniform(-lim, lim, arr.shape)
        elif self.distribution == "untruncated_normal":
            arr[...] = rng.normal(0, math.sqrt(scale), arr.shape)
        else:
            std = math.sqrt(scale) / 0.87962566103423978
            TruncatedNormal(std, 0.0, -2 * std, 2 * std)._initialize(arr)


_NAMES: dict[str, type[Initializer]] = {
    "zeros": Zero,
    "zero": Zero,
    "ones": One,
    "one": One,
    "normal": Normal,
    "uniform": Uniform,
    "truncatednormal": TruncatedNormal,
    "truncated_normal": TruncatedNormal,
    "xavier_uniform": XavierUniform,
    "xavieruniform": XavierUniform,
    "xavier_normal": XavierNormal,
    "xaviernormal": XavierNormal,
    "he_uniform": HeUniform,
    "heuniform": HeUniform,
    "he_normal": HeNormal,
    "henormal": HeNormal,
    "identity": Identity,
    "orthogonal": Orthogonal,
    "dirac": Dirac,
    "variancescaling": VarianceScaling,
}


def _resolve(init: Any) -> Initializer | Tensor | np.ndarray:
    if isinstance(init, Initializer):
        return init
    if isinstance(init, str):
        cls = _NAMES.get(init.lower())
        if cls is None:
            raise ValueError(
                f"For 'initializer', the init name '{init}' is not supported. Supported: {sorted(set(_NAMES))}."
            )
        return cls()
    if isinstance(init, bool) or isinstance(init, numbers.Number):
        return Constant(init)
    if isinstance(init, (Tensor, np.ndarray)):
        return init
    raise TypeError(
        "For 'initializer', the 'init' must be a Tensor, numpy.ndarray, str, Initializer or number, "
        f"but got {type(init).__name__}."
    )


def _fill(init: Any, shape: Any, dtype: Any) -> np.ndarray:
    """NumPy array of ``shape``/``dtype`` filled per ``init``."""
    np_dtype = mstype.to_np(dtype)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    ini = _resolve(init)
    if isinstance(ini, (Tensor, np.ndarray)):
        arr = ini.asnumpy() if isinstance(ini, Tensor) else np.asarray(ini)
        if tuple(arr.shape) != shape:
            raise ValueError(
                f"For 'initializer', the shape of the init tensor must be {shape}, but got {tuple(arr.shape)}."
            )
        return arr.astype(np_dtype)
    return ini._make(shape).astype(np_dtype)


def initializer(init: Any, shape: Any = None, dtype: Any = mstype.float32) -> Tensor:
    """A Tensor of ``shape`` and ``dtype`` filled per ``init`` (name, Initializer, Tensor or number).

    With a Tensor or array ``init``, ``shape`` may be omitted and must match if given.
    """
    if isinstance(init, (Tensor, np.ndarray)) and shape is None:
        shape = tuple(init.shape)
    if shape is None:
        raise ValueError("For 'initializer', the 'shape' must be given unless 'init' is a Tensor.")
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(shape)
    for s in shape:
        if not isinstance(s, (int, np.integer)) or s < 0:
            raise ValueError(f"For 'initializer', the 'shape' must hold non-negative ints, but got {shape}.")
    return Tensor(_fill(init, shape, dtype))
