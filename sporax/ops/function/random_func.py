"""Random sampling ops (``mindspore.ops`` functional): uniform, normal, integers, permutations, categorical.

Every op draws its key from :func:`sporax.common.seed.next_key`: with no ``seed`` the global random
state is split and advanced (as implicit state, so the op works the same eagerly, under ``jit`` and
inside gradients); with a ``seed`` the key is derived from it and the global seed.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ..._engine import jax, jnp
from ...common import dtype as mstype
from ...common.seed import next_key
from ...common.tensor import Tensor
from .._utils import arr, as_tensor_array, check_int, np_dtype, wrap

__all__ = [
    "uniform",
    "standard_normal",
    "normal",
    "randn",
    "rand",
    "randn_like",
    "rand_like",
    "randint",
    "randint_like",
    "randperm",
    "multinomial",
    "bernoulli",
    "shuffle",
    "gamma",
    "random_gamma",
    "poisson",
    "random_poisson",
    "laplace",
    "random_categorical",
    "choice_with_mask",
]


# Samplers with internal loops, compiled once per shape (op-by-op dispatch of their loops is slow).
_gamma = jax.jit(jax.random.gamma, static_argnames=("shape", "dtype"))
_poisson = jax.jit(jax.random.poisson, static_argnames=("shape", "dtype"))


def _seed(seed: Any, op: str) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"For '{op}', the 'seed' must be an int, but got {type(seed).__name__}.")
    if seed < 0:
        raise ValueError(f"For '{op}', the 'seed' must be >= 0, but got {seed}.")
    return int(seed)


def _key(seed: Any, op: str) -> Any:
    return next_key(_seed(seed, op))


def _shape(shape: Any, op: str, name: str = "shape") -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = tuple(int(s) for s in np.asarray(shape.asnumpy()).reshape(-1))
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (int(shape),)
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"For '{op}', the '{name}' must be a tuple of ints, but got {type(shape).__name__}.")
    out = []
    for s in shape:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"For '{op}', the '{name}' must be a tuple of ints, but got {tuple(shape)}.")
        if s < 0:
            raise ValueError(f"For '{op}', the '{name}' must hold non-negative ints, but got {tuple(shape)}.")
        out.append(int(s))
    return tuple(out)


def _size(size: tuple[Any, ...], op: str) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (tuple, list, Tensor)):
        return _shape(size[0], op, "size")
    return _shape(tuple(size), op, "size")


def _float_dtype(dtype: Any, op: str, default: Any = mstype.float32) -> np.dtype:
    dt = default if dtype is None else dtype
    if not isinstance(dt, mstype.Float):
        raise TypeError(f"For '{op}', the 'dtype' must be a float dtype, but got {dt}.")
    return np_dtype(dt)


def _param(value: Any, dtype: Any) -> Any:
    """A distribution parameter (number or Tensor) as an array of ``dtype``."""
    return jnp.asarray(as_tensor_array(value) if isinstance(value, Tensor) else arr(value), dtype)


# ------------------------------------------------------------ continuous
def uniform(shape: Any, minval: Any, maxval: Any, seed: Any = None, dtype: Any = mstype.float32) -> Tensor:
    """Samples from the uniform distribution on ``[minval, maxval)``; integer dtypes draw integers.

    Args:
        shape (tuple): the output shape.
        minval (Tensor): the lower bound.
        maxval (Tensor): the upper bound (exclusive).
        seed (int, optional): the op's seed. Default: ``None``.
        dtype (mindspore.dtype): ``float16``, ``float32``, ``int32``... Default: ``mstype.float32``.

    Returns:
        Tensor, of ``shape`` broadcast with the bounds' shapes.
    """
    shp = _shape(shape, "uniform")
    nd = np_dtype(dtype)
    key = _key(seed, "uniform")
    if np.issubdtype(nd, np.integer):
        lo, hi = _param(minval, nd), _param(maxval, nd)
        out_shape = jnp.broadcast_shapes(shp, lo.shape, hi.shape)
        return wrap(jax.random.randint(key, out_shape, lo, hi, dtype=nd))
    if not np.issubdtype(nd, np.floating):
        raise TypeError(f"For 'uniform', the 'dtype' must be an int or float dtype, but got {dtype}.")
    lo, hi = _param(minval, nd), _param(maxval, nd)
    out_shape = jnp.broadcast_shapes(shp, lo.shape, hi.shape)
    return wrap(jax.random.uniform(key, out_shape, nd, lo, hi))


def standard_normal(shape: Any, seed: Any = None) -> Tensor:
    """Samples from N(0, 1) as Float32."""
    return wrap(jax.random.normal(_key(seed, "standard_normal"), _shape(shape, "standard_normal"), jnp.float32))


def normal(shape: Any, mean: Any, stddev: Any, seed: Any = None) -> Tensor:
    """Samples from N(``mean``, ``stddev``), Float32 (the output shape broadcasts with the parameters')."""
    shp = _shape(shape, "normal")
    m, s = _param(mean, jnp.float32), _param(stddev, jnp.float32)
    out_shape = jnp.broadcast_shapes(shp, m.shape, s.shape)
    return wrap(m + s * jax.random.normal(_key(seed, "normal"), out_shape, jnp.float32))


def randn(*size: Any, dtype: Any = None, seed: Any = None) -> Tensor:
    """Samples from N(0, 1) of shape ``size`` (``randn(2, 3)`` or ``randn((2, 3))``)."""
    nd = _float_dtype(dtype, "randn")
    return wrap(jax.random.normal(_key(seed, "randn"), _size(size, "randn"), nd))


def rand(*size: Any, dtype: Any = None, seed: Any = None) -> Tensor:
    """Samples from U[0, 1) of shape ``size``."""
    nd = _float_dtype(dtype, "rand")
    return wrap(jax.random.uniform(_key(seed, "rand"), _size(size, "rand"), nd))


def randn_like(input: Any, seed: Any = None, *, dtype: Any = None) -> Tensor:
    a = as_tensor_array(input)
    nd = _float_dtype(
        dtype, "randn_like", mstype.from_np(a.dtype) if jnp.issubdtype(a.dtype, jnp.floating) else mstype.float32
    )
    return wrap(jax.random.normal(_key(seed, "randn_like"), a.shape, nd))


def rand_like(input: Any, seed: Any = None, *, dtype: Any = None) -> Tensor:
    a = as_tensor_array(input)
    nd = _float_dtype(
        dtype, "rand_like", mstype.from_np(a.dtype) if jnp.issubdtype(a.dtype, jnp.floating) else mstype.float32
    )
    return wrap(jax.random.uniform(_key(seed, "rand_like"), a.shape, nd))


def laplace(shape: Any, mean: Any, lambda_param: Any, seed: Any = None) -> Tensor:
    """Samples from the Laplace distribution with location ``mean`` and scale ``lambda_param``."""
    shp = _shape(shape, "laplace")
    m, b = _param(mean, jnp.float32), _param(lambda_param, jnp.float32)
    out_shape = jnp.broadcast_shapes(shp, m.shape, b.shape)
    return wrap(m + b * jax.random.laplace(_key(seed, "laplace"), out_shape, jnp.float32))


def gamma(shape: Any, alpha: Any, beta: Any, seed: Any = None) -> Tensor:
    """Samples from Gamma(``alpha``, rate ``beta``); the output shape broadcasts ``shape``, ``alpha``'s and
    ``beta``'s (MindSpore's: ``(3, 1, 2)`` with ``alpha`` ``(2, 2)`` gives ``(3, 2, 2)``)."""
    shp = _shape(shape, "gamma")
    a_arr = as_tensor_array(alpha)
    dt = a_arr.dtype if jnp.issubdtype(a_arr.dtype, jnp.floating) else jnp.float32
    a, b = _param(alpha, dt), _param(beta, dt)
    try:  # MindSpore: the output shape broadcasts ``shape`` with the parameters' shapes
        out_shape = jnp.broadcast_shapes(shp, a.shape, b.shape)
    except ValueError:
        raise ValueError(
            f"For 'Gamma', broadcast_alpha_beta.shape and shape.shape need to broadcast, but got "
            f"{tuple(jnp.broadcast_shapes(a.shape, b.shape))} and {shp}."
        ) from None
    return wrap(_gamma(_key(seed, "gamma"), a, out_shape, dt) / b)


def random_gamma(shape: Any, alpha: Any, seed: Any = None) -> Tensor:
    """Samples from Gamma(``alpha``, 1); the output shape is ``shape + alpha.shape``."""
    shp = _shape(shape, "random_gamma")
    a = as_tensor_array(alpha)
    dt = a.dtype if jnp.issubdtype(a.dtype, jnp.floating) else jnp.float32
    a = a.astype(dt)
    return wrap(_gamma(_key(seed, "random_gamma"), a, shp + tuple(a.shape), dt))


def poisson(shape: Any, mean: Any, seed: Any = None) -> Tensor:
    """Samples from Poisson(``mean``) as Int32; the output shape broadcasts ``shape`` with ``mean``'s."""
    shp = _shape(shape, "poisson")
    lam = _param(mean, jnp.float32)
    out_shape = jnp.broadcast_shapes(shp, lam.shape)
    return wrap(_poisson(_key(seed, "poisson"), lam, out_shape, jnp.int32))


def random_poisson(shape: Any, rate: Any, seed: Any = None, dtype: Any = mstype.float32) -> Tensor:
    """Samples from Poisson(``rate``); the output shape is ``shape + rate.shape``."""
    shp = _shape(shape, "random_poisson")
    lam = _param(rate, jnp.float32)
    out = _poisson(_key(seed, "random_poisson"), lam, shp + tuple(lam.shape), jnp.int64)
    return wrap(out.astype(np_dtype(dtype)))


# -------------------------------------------------------------- discrete
def randint(low: Any, high: Any, size: Any, seed: Any = None, *, dtype: Any = None) -> Tensor:
    """Random integers in ``[low, high)`` of shape ``size`` (Int64 by default)."""
    for name, v in (("low", low), ("high", high)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"For 'randint', the '{name}' must be an int, but got {type(v).__name__}.")
    if not isinstance(size, tuple):
        raise TypeError(f"For 'randint', the 'size' must be a tuple, but got {type(size).__name__}.")
    dt = mstype.int64 if dtype is None else dtype
    if not isinstance(dt, (mstype.Int, mstype.UInt)):
        raise ValueError(f"For 'randint', the 'dtype' must be an int dtype, but got {dt}.")
    if high <= low:
        raise ValueError(f"For 'randint', the 'high' must be greater than 'low', but got low={low}, high={high}.")
    nd = np_dtype(dt)
    return wrap(jax.random.randint(_key(seed, "randint"), _shape(size, "randint", "size"), low, high, dtype=nd))


def randint_like(input: Any, low: Any, high: Any, seed: Any = None, *, dtype: Any = None) -> Tensor:
    a = as_tensor_array(input)
    dt = dtype if dtype is not None else mstype.from_np(a.dtype)
    if not isinstance(dt, (mstype.Int, mstype.UInt)):
        dt = mstype.int64
    return randint(low, high, tuple(a.shape), seed, dtype=dt)


def randperm(n: Any, seed: Any = 0, offset: Any = 0, dtype: Any = mstype.int64) -> Tensor:
    """A random permutation of ``0..n-1``."""
    n = int(n.item()) if isinstance(n, Tensor) else check_int(n, "n", "randperm", 0)
    if not isinstance(dtype, (mstype.Int, mstype.UInt, mstype.Float)):
        raise TypeError(f"For 'randperm', the 'dtype' must be a number dtype, but got {dtype}.")
    seed = _seed(seed, "randperm")
    key = next_key(seed + int(offset) if seed else None)
    return wrap(jax.random.permutation(key, n).astype(np_dtype(dtype)))


def multinomial(input: Any, num_samples: int, replacement: bool = True, seed: Any = None) -> Tensor:
    """Draw ``num_samples`` category indices per row of the (unnormalised) probabilities ``input``.

    Returns:
        Tensor of Int32 (as MindSpore), shape ``(num_samples,)`` for a 1-D input, ``(rows, num_samples)`` for 2-D.
    """
    p = as_tensor_array(input)
    if p.ndim not in (1, 2):
        raise ValueError(f"For 'multinomial', the 'input' must be 1-D or 2-D, but got {p.ndim}-D.")
    num_samples = check_int(num_samples, "num_samples", "multinomial", 1)
    k = p.shape[-1]
    if not replacement and num_samples > k:
        raise ValueError(
            f"For 'multinomial', without replacement 'num_samples' ({num_samples}) cannot exceed "
            f"the number of categories ({k})."
        )
    key = _key(seed, "multinomial")
    logits = jnp.log(p.astype(jnp.float32))
    batch = p.shape[:-1]
    if replacement:
        out = jax.random.categorical(key, logits, axis=-1, shape=(num_samples, *batch))
        out = jnp.moveaxis(out, 0, -1)
    else:
        g = jax.random.gumbel(key, logits.shape, jnp.float32)
        out = jax.lax.top_k(logits + g, num_samples)[1]
    return wrap(out.astype(jnp.int32))


def random_categorical(logits: Any, num_sample: int, seed: int = 0, dtype: Any = mstype.int64) -> Tensor:
    """Draw ``num_sample`` categories per row of the 2-D ``logits``: shape ``(rows, num_sample)``."""
    lg = as_tensor_array(logits)
    key = next_key(_seed(seed, "random_categorical") or None)
    out = jax.random.categorical(key, lg.astype(jnp.float32), axis=-1, shape=(int(num_sample), *lg.shape[:-1]))
    return wrap(jnp.moveaxis(out, 0, -1).astype(np_dtype(dtype)))


def bernoulli(input: Any, p: Any = 0.5, seed: Any = None) -> Tensor:
    """0/1 samples (in ``input``'s dtype) that are 1 with probability ``p``."""
    a = as_tensor_array(input)
    prob = _param(p, jnp.float32)
    draw = jax.random.uniform(_key(seed, "bernoulli"), a.shape, jnp.float32) < prob
    return wrap(draw.astype(a.dtype))


def shuffle(x: Any, seed: Any = None) -> Tensor:
    """Randomly permute ``x`` along its first dimension."""
    a = as_tensor_array(x)
    if a.ndim == 0:
        raise ValueError("For 'shuffle', the 'x' must have at least one dimension.")
    return wrap(jax.random.permutation(_key(seed, "shuffle"), a, axis=0, independent=False))


def choice_with_mask(input_x: Any, count: int = 256, seed: Any = None) -> tuple[Tensor, Tensor]:
    """Pick up to ``count`` random coordinates of True entries of the bool ``input_x`` (see :func:`_choice`)."""
    return _choice(input_x, count, 0 if seed is None else seed, 0)


def _choice(input_x: Any, count: int = 256, seed: int = 0, seed2: int = 0) -> tuple[Tensor, Tensor]:
    """Pick up to ``count`` random coordinates of True entries of the bool ``input_x``.

    Returns:
        tuple(Tensor, Tensor): the coordinates (Int32, shape ``(count, rank)``, zero-padded) and a bool mask
        of which rows are real.
    """
    m = as_tensor_array(input_x)
    if m.dtype != jnp.bool_:
        raise TypeError(
            f"For 'RandomChoiceWithMask', the 'input_x' must be a bool Tensor, but got {mstype.from_np(m.dtype)}."
        )
    flat = m.reshape(-1)
    key = next_key((int(seed) * 1000003 + int(seed2)) or None)
    score = jnp.where(flat, jax.random.uniform(key, flat.shape, jnp.float32), -1.0)
    count = int(count)
    kk = builtins.min(count, flat.shape[0])
    top_s, top_i = jax.lax.top_k(score, kk)
    valid = top_s >= 0
    coords = jnp.stack(jnp.unravel_index(top_i, m.shape), axis=-1).astype(jnp.int32)
    coords = jnp.where(valid[:, None], coords, 0)
    if kk < count:
        coords = jnp.concatenate([coords, jnp.zeros((count - kk, m.ndim), jnp.int32)])
        valid = jnp.concatenate([valid, jnp.zeros((count - kk,), jnp.bool_)])
    return wrap(coords), wrap(valid)


# --------------------------------------------------- in-place and generator-based draws
def _gen_key(generator: Any, op: str) -> Any:
    """A key from ``generator`` (a :class:`sporax.Generator`) or, with None, from the global random state."""
    if generator is None:
        return next_key()
    if not hasattr(generator, "_next_key"):
        raise TypeError(f"For '{op}', the 'generator' must be a Generator, but got {type(generator).__name__}.")
    return generator._next_key()


def _write_back(input: Any, value: Any) -> Any:
    from .gather_scatter_func import _write_back as wb

    return wb(input, wrap(value))


def _float_of(input: Any, op: str) -> Any:
    a = as_tensor_array(input)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For '{op}', the 'input' must be a float Tensor, but got {mstype.from_np(a.dtype)}.")
    return a


def uniform_(input: Any, from_: Any = 0, to: Any = 1, *, generator: Any = None) -> Any:
    """Fill ``input`` in place with samples from U[``from_``, ``to``) and return it."""
    a = _float_of(input, "uniform_")
    if float(arr(from_)) > float(arr(to)):
        raise ValueError(f"For 'uniform_', 'from_' must not exceed 'to', but got from_={from_}, to={to}.")
    draw = jax.random.uniform(_gen_key(generator, "uniform_"), a.shape, jnp.float32, float(arr(from_)), float(arr(to)))
    return _write_back(input, draw.astype(a.dtype))


def tensor_uniform(input: Any, from_: Any = 0.0, to: Any = 1.0, generator: Any = None) -> Tensor:
    """``Tensor.uniform``: a new tensor like ``input`` of samples from U[``from_``, ``to``)."""
    a = _float_of(input, "Tensor.uniform")
    draw = jax.random.uniform(_gen_key(generator, "uniform"), a.shape, jnp.float32, float(arr(from_)), float(arr(to)))
    return wrap(draw.astype(a.dtype))


def normal_(input: Any, mean: Any = 0, std: Any = 1, *, generator: Any = None) -> Any:
    """Fill ``input`` in place with samples from N(``mean``, ``std``) and return it."""
    a = _float_of(input, "normal_")
    if float(arr(std)) < 0:
        raise ValueError(f"For 'normal_', the 'std' must be non-negative, but got {std}.")
    z = jax.random.normal(_gen_key(generator, "normal_"), a.shape, jnp.float32)
    return _write_back(input, (float(arr(mean)) + float(arr(std)) * z).astype(a.dtype))


def exponential_(input: Any, lambd: Any = 1, *, generator: Any = None) -> Any:
    """Fill ``input`` in place with samples from Exp(``lambd``) (mean ``1 / lambd``) and return it."""
    a = _float_of(input, "exponential_")
    if float(arr(lambd)) <= 0:
        raise ValueError(f"For 'exponential_', the 'lambd' must be positive, but got {lambd}.")
    e = jax.random.exponential(_gen_key(generator, "exponential_"), a.shape, jnp.float32)
    return _write_back(input, (e / float(arr(lambd))).astype(a.dtype))


def random_(input: Any, from_: Any = 0, to: Any = None, *, generator: Any = None) -> Any:
    """Fill ``input`` in place with integers drawn uniformly from [``from_``, ``to``) (``to=None``: up to the
    dtype's largest integer, 2**mantissa for floats) and return it."""
    a = as_tensor_array(input)
    lo = int(arr(from_))
    if to is None:
        if jnp.issubdtype(a.dtype, jnp.floating):
            hi = 2 ** (jnp.finfo(a.dtype).nmant + 1)
        elif a.dtype == jnp.bool_:
            hi = 2
        else:
            hi = int(jnp.iinfo(a.dtype).max)
    else:
        hi = int(arr(to))
    if lo >= hi:
        raise ValueError(f"For 'random_', 'from_' must be less than 'to', but got from_={lo}, to={hi}.")
    draw = jax.random.randint(_gen_key(generator, "random_"), a.shape, lo, hi, dtype=jnp.int64)
    return _write_back(input, draw.astype(a.dtype))


def standard_laplace(shape: Any, seed: Any = None) -> Tensor:
    """Samples from Laplace(0, 1), Float32."""
    return laplace(shape, 0.0, 1.0, seed)


def truncated_normal(shape: Any, dtype: Any = mstype.float32, seed: Any = None) -> Tensor:
    """Samples from N(0, 1) truncated to [-2, 2]."""
    nd = _float_dtype(dtype, "TruncatedNormal")
    key = _key(seed, "TruncatedNormal")
    return wrap(jax.random.truncated_normal(key, -2.0, 2.0, _shape(shape, "TruncatedNormal"), jnp.float32).astype(nd))


def parameterized_truncated_normal(shape: Any, mean: Any, stdevs: Any, min: Any, max: Any, seed: Any = None) -> Tensor:
    """Samples from N(``mean[b]``, ``stdevs[b]``) truncated to [``min[b]``, ``max[b]``] for each batch row ``b``
    (``shape = (batch, n)``; the parameters are 1-D of length ``batch``)."""
    shp = _shape(shape, "ParameterizedTruncatedNormal")
    m = as_tensor_array(mean)
    dt = m.dtype if jnp.issubdtype(m.dtype, jnp.floating) else jnp.float32
    m, s, lo, hi = (_param(v, jnp.float32).reshape(-1, *([1] * (len(shp) - 1))) for v in (mean, stdevs, min, max))
    z = jax.random.truncated_normal(_key(seed, "ParameterizedTruncatedNormal"), (lo - m) / s, (hi - m) / s, shp)
    return wrap((m + s * z).astype(dt))


def log_normal_reverse(input: Any, mean: float = 1.0, std: float = 2.0) -> Tensor:
    """Samples from the log-normal distribution ``exp(N(mean, std))``, shaped like ``input``."""
    a = _float_of(input, "LogNormalReverse")
    z = jax.random.normal(next_key(), a.shape, jnp.float32)
    return wrap(jnp.exp(mean + std * z).astype(a.dtype))


def non_deterministic_ints(shape: Any, dtype: Any = mstype.int64) -> Tensor:
    """Integers spread over the whole range of ``dtype`` (drawn from the global random state)."""
    nd = np_dtype(dtype)
    if nd not in (np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.uint32), np.dtype(np.uint64)):
        raise TypeError(
            f"For 'NonDeterministicInts', the 'dtype' must be int32, int64, uint32 or uint64, but got {dtype}."
        )
    bits = jax.random.bits(
        next_key(), _shape(shape, "NonDeterministicInts"), jnp.uint64 if nd.itemsize == 8 else jnp.uint32
    )
    return wrap(jax.lax.bitcast_convert_type(bits, nd))


def multinomial_with_replacement(x: Any, seed: Any, offset: Any, numsamples: int, replacement: bool = False) -> Tensor:
    """:func:`multinomial` whose op seed is ``seed + offset`` (both may be Tensors)."""
    s = int(np.asarray(arr(seed)).reshape(-1)[0]) + int(np.asarray(arr(offset)).reshape(-1)[0])
    return multinomial(x, numsamples, replacement, s if s > 0 else None)


def randperm_v2(n: Any, seed: int = 0, offset: int = 0, dtype: Any = mstype.int64) -> Tensor:
    """A random permutation of ``0..n-1`` (``n`` an int or 0-d/1-element Tensor)."""
    k = int(np.asarray(arr(n)).reshape(-1)[0])
    return randperm(k, seed, offset, dtype)


__all__ += ["uniform_", "normal_", "exponential_", "random_", "standard_laplace", "multinomial_with_replacement"]
