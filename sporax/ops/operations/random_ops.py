"""Random operator classes (``ops.UniformReal(seed=0, seed2=0)``, ``ops.StandardNormal()``...).

``seed`` and ``seed2`` both 0 draw from the global random state; otherwise the key is derived from them
(and the global seed), as in MindSpore.
"""

from __future__ import annotations

from typing import Any

from ...common import dtype as mstype
from .. import function as F
from .._utils import check_int
from ..function import random_func as R
from ._primitive import Primitive
from .math_ops import _set_attrs

__all__ = [
    "UniformReal",
    "StandardNormal",
    "UniformInt",
    "StandardLaplace",
    "Gamma",
    "RandomGamma",
    "Poisson",
    "RandomPoisson",
    "Multinomial",
    "RandomCategorical",
    "Randperm",
    "RandomShuffle",
    "RandomChoiceWithMask",
    "Bernoulli",
]


def _op_seed(prim: Primitive) -> int | None:
    """One op seed from a random primitive's (seed, seed2); None (the global state) when both are 0."""
    if not prim.seed and not prim.seed2:
        return None
    return prim.seed * 1000003 + prim.seed2 + 1


class _Random(Primitive):
    def __init__(self, seed: int = 0, seed2: int = 0) -> None:
        super().__init__()
        _set_attrs(self, seed=check_int(seed, "seed", self.name, 0), seed2=check_int(seed2, "seed2", self.name, 0))

    @property
    def _seed(self) -> int | None:
        return _op_seed(self)


class UniformReal(_Random):
    """``UniformReal(seed=0, seed2=0)(shape)``: Float32 samples from U[0, 1)."""

    def __call__(self, shape: Any) -> Any:
        return F.rand(shape, seed=self._seed)


class StandardNormal(_Random):
    """``StandardNormal(seed=0, seed2=0)(shape)``: Float32 samples from N(0, 1)."""

    def __call__(self, shape: Any) -> Any:
        return F.standard_normal(shape, self._seed)


class UniformInt(_Random):
    """``UniformInt(seed=0, seed2=0)(shape, minval, maxval)``: Int32 samples from [minval, maxval)."""

    def __call__(self, shape: Any, minval: Any, maxval: Any) -> Any:
        return F.uniform(shape, minval, maxval, self._seed, mstype.int32)


class StandardLaplace(_Random):
    """``StandardLaplace(seed=0, seed2=0)(shape)``: samples from Laplace(0, 1)."""

    def __call__(self, shape: Any) -> Any:
        return F.laplace(shape, 0.0, 1.0, self._seed)


class Gamma(_Random):
    """``Gamma(seed=0, seed2=0)(shape, alpha, beta)``."""

    def __call__(self, shape: Any, alpha: Any, beta: Any) -> Any:
        return F.gamma(shape, alpha, beta, self._seed)


class RandomGamma(_Random):
    """``RandomGamma(seed=0, seed2=0)(shape, alpha)``."""

    def __call__(self, shape: Any, alpha: Any) -> Any:
        return F.random_gamma(shape, alpha, self._seed)


class Poisson(_Random):
    """``Poisson(seed=0, seed2=0)(shape, mean)``: Int32 samples."""

    def __call__(self, shape: Any, mean: Any) -> Any:
        return F.poisson(shape, mean, self._seed)


class RandomPoisson(_Random):
    """``RandomPoisson(seed=0, seed2=0, dtype=mstype.int64)(shape, rate)``."""

    def __init__(self, seed: int = 0, seed2: int = 0, dtype: Any = mstype.int64) -> None:
        super().__init__(seed, seed2)
        _set_attrs(self, dtype=dtype)

    def __call__(self, shape: Any, rate: Any) -> Any:
        return F.random_poisson(shape, rate, self._seed, self.dtype)


class Multinomial(_Random):
    """``Multinomial(seed=0, seed2=0, dtype=mstype.int32)(x, num_samples)``: sampling with replacement."""

    def __init__(self, seed: int = 0, seed2: int = 0, dtype: Any = mstype.int32) -> None:
        super().__init__(seed, seed2)
        _set_attrs(self, dtype=dtype)

    def __call__(self, x: Any, num_samples: Any) -> Any:
        n = int(num_samples.item()) if hasattr(num_samples, "item") else num_samples
        return F.cast(F.multinomial(x, n, True, self._seed), self.dtype)


class RandomCategorical(Primitive):
    """``RandomCategorical(dtype=mstype.int64)(logits, num_sample, seed=0)``."""

    def __init__(self, dtype: Any = mstype.int64) -> None:
        super().__init__()
        _set_attrs(self, dtype=dtype)

    def __call__(self, logits: Any, num_sample: int, seed: int = 0) -> Any:
        return F.random_categorical(logits, num_sample, seed, self.dtype)


class Randperm(Primitive):
    """``Randperm(max_length=1, pad=-1, dtype=mstype.int32)(n)``: a permutation of ``0..n-1`` padded with
    ``pad`` to ``max_length``."""

    def __init__(self, max_length: int = 1, pad: int = -1, dtype: Any = mstype.int32) -> None:
        super().__init__()
        _set_attrs(self, max_length=check_int(max_length, "max_length", self.name, 1), pad=pad, dtype=dtype)

    def __call__(self, n: Any) -> Any:
        k = int(n.reshape(-1)[0].item()) if hasattr(n, "reshape") else int(n)
        if k > self.max_length:
            raise ValueError(f"For 'Randperm', the 'n' ({k}) cannot exceed 'max_length' ({self.max_length}).")
        perm = F.randperm(k, 0, 0, self.dtype)
        if k == self.max_length:
            return perm
        pad = F.full((self.max_length - k,), self.pad, dtype=self.dtype)
        return F.concat((perm, pad))


class RandomShuffle(_Random):
    """``RandomShuffle(seed=0, seed2=0)(x)``: permute ``x`` along its first dimension."""

    def __call__(self, x: Any) -> Any:
        return F.shuffle(x, self._seed)


class RandomChoiceWithMask(Primitive):
    """``RandomChoiceWithMask(count=256, seed=0, seed2=0)(input_x)`` -> ``(index, mask)``."""

    def __init__(self, count: int = 256, seed: int = 0, seed2: int = 0) -> None:
        super().__init__()
        _set_attrs(self, count=check_int(count, "count", self.name, 1), seed=seed, seed2=seed2)

    def __call__(self, input_x: Any) -> Any:
        return R._choice(input_x, self.count, self.seed, self.seed2)


class Bernoulli(_Random):
    """``Bernoulli(seed=-1, offset=0)(x, p)``: 0/1 samples in ``x``'s dtype."""

    def __init__(self, seed: int = -1, offset: int = 0) -> None:
        Primitive.__init__(self)
        _set_attrs(self, seed=seed, seed2=0, offset=offset)

    @property
    def _seed(self) -> int | None:
        return None if self.seed < 0 else self.seed + self.offset + 1

    def __call__(self, x: Any, p: Any) -> Any:
        return F.bernoulli(x, p, self._seed)


class TruncatedNormal(Primitive):
    """``TruncatedNormal(dtype=mstype.float32, seed=0, seed2=0)(shape)``: N(0, 1) truncated to [-2, 2]."""

    def __init__(self, dtype: Any = mstype.float32, seed: int = 0, seed2: int = 0) -> None:
        super().__init__()
        _set_attrs(
            self, dtype=dtype, seed=check_int(seed, "seed", self.name), seed2=check_int(seed2, "seed2", self.name)
        )

    def __call__(self, shape: Any) -> Any:
        return R.truncated_normal(shape, self.dtype, _op_seed(self))


class ParameterizedTruncatedNormal(_Random):
    """``ParameterizedTruncatedNormal(seed=0, seed2=0)(shape, mean, stdevs, min, max)``."""

    def __call__(self, shape: Any, mean: Any, stdevs: Any, min: Any, max: Any) -> Any:
        return R.parameterized_truncated_normal(shape, mean, stdevs, min, max, self._seed)


class LogNormalReverse(Primitive):
    """``LogNormalReverse(mean=1.0, std=2.0)(input)``: log-normal samples shaped like ``input``."""

    def __init__(self, mean: float = 1.0, std: float = 2.0) -> None:
        super().__init__()
        _set_attrs(self, mean=float(mean), std=float(std))

    def __call__(self, input: Any) -> Any:
        return R.log_normal_reverse(input, self.mean, self.std)


class NonDeterministicInts(Primitive):
    """``NonDeterministicInts(dtype=mstype.int64)(shape)``: integers over the whole range of ``dtype``."""

    def __init__(self, dtype: Any = mstype.int64) -> None:
        super().__init__()
        _set_attrs(self, dtype=dtype)

    def __call__(self, shape: Any) -> Any:
        return R.non_deterministic_ints(shape, self.dtype)


class RandpermV2(Primitive):
    """``RandpermV2(seed=0, offset=0, dtype=mstype.int64)(n)``: a random permutation of ``0..n-1``."""

    def __init__(self, seed: int = 0, offset: int = 0, dtype: Any = mstype.int64) -> None:
        super().__init__()
        _set_attrs(self, seed=seed, offset=offset, dtype=dtype)

    def __call__(self, n: Any) -> Any:
        return R.randperm_v2(n, self.seed, self.offset, self.dtype)


class MultinomialWithReplacement(Primitive):
    """``MultinomialWithReplacement(numsamples, replacement=False)(x, seed, offset)``."""

    def __init__(self, numsamples: int, replacement: bool = False) -> None:
        super().__init__()
        _set_attrs(self, numsamples=check_int(numsamples, "numsamples", self.name, 1), replacement=replacement)

    def __call__(self, x: Any, seed: Any, offset: Any) -> Any:
        return F.multinomial_with_replacement(x, seed, offset, self.numsamples, self.replacement)


__all__ += [
    "TruncatedNormal",
    "ParameterizedTruncatedNormal",
    "LogNormalReverse",
    "NonDeterministicInts",
    "RandpermV2",
    "MultinomialWithReplacement",
]
