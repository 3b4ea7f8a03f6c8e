"""The remaining ops of MindSpore's ``other_ops``/``control_ops``/``_embedding_cache_ops`` families that have
a meaning on XLA: rotary position embedding, KV-cache writes (``ReshapeAndCache``), the old dropout mask pair,
embedding-cache id maps (``SubAndFilter``, ``MapUniform``), the graph-IR switch pair (``GeSwitch``/``Merge``,
eager only), ``PyFunc`` (a NumPy function on the host) and candidate samplers."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._checkparam import check_instance
from ..._engine import jax, jnp
from ...common.seed import next_key
from ...common.tensor import Tensor
from .._utils import arr, as_tensor_array, np_dtype, wrap
from ._array_utils import _concrete

__all__ = [
    "rotary_position_embedding",
    "geswitch",
    "merge",
    "uniform_candidate_sampler",
    "log_uniform_candidate_sampler",
]


def rotary_position_embedding(x: Any, cos: Any, sin: Any, mode: int = 0) -> Tensor:
    """``x * cos + rotate(x) * sin`` over the last dim: ``mode=0`` rotates halves (GPT-NeoX,
    ``[-x2, x1]``), ``mode=1`` interleaved pairs (GPT-J, ``[-x1, x0, -x3, x2, ...]``)."""
    if isinstance(mode, bool) or not isinstance(mode, int):
        raise TypeError(f"For 'RotaryPositionEmbedding', the 'mode' must be an int, but got {type(mode).__name__}.")
    for name, v in (("x", x), ("cos", cos), ("sin", sin)):
        if not isinstance(v, Tensor):
            raise TypeError(
                f"For 'RotaryPositionEmbedding', the '{name}' must be a Tensor, but got {type(v).__name__}."
            )
    a, c, s = as_tensor_array(x), as_tensor_array(cos), as_tensor_array(sin)
    if a.shape[-1] % 2:
        raise ValueError(f"For 'RotaryPositionEmbedding', the last dim of 'x' must be even, but got {a.shape[-1]}.")
    if mode == 0:
        h = a.shape[-1] // 2
        rot = jnp.concatenate([-a[..., h:], a[..., :h]], axis=-1)
    elif mode == 1:
        pairs = a.reshape(a.shape[:-1] + (-1, 2))
        rot = jnp.stack([-pairs[..., 1], pairs[..., 0]], axis=-1).reshape(a.shape)
    else:
        raise ValueError(f"For 'RotaryPositionEmbedding', the 'mode' must be 0 or 1, but got {mode}.")
    return wrap((a * c.astype(a.dtype) + rot * s.astype(a.dtype)).astype(a.dtype))


def reshape_and_cache(key: Any, value: Any, key_cache: Any, value_cache: Any, slot_mapping: Any) -> Any:
    """Write each token's ``key``/``value`` into the paged caches (``(blocks, block_size, heads, dim)``) at the slot
    ``slot_mapping[t]`` (block ``slot // block_size``, offset ``slot % block_size``; negative slots are skipped).
    Parameters are updated in place; returns ``key_cache``."""
    from .gather_scatter_func import _write_back

    slots = as_tensor_array(slot_mapping).reshape(-1)
    for src, cache in ((key, key_cache), (value, value_cache)):
        if cache is None or src is None:
            continue
        c = as_tensor_array(cache)
        blocks, block_size = c.shape[0], c.shape[1]
        s = as_tensor_array(src).reshape((slots.shape[0],) + c.shape[2:]).astype(c.dtype)
        valid = (slots >= 0) & (slots < blocks * block_size)
        b = jnp.where(valid, slots // block_size, blocks)  # out of range: dropped
        o = jnp.where(valid, slots % block_size, 0)
        _write_back(cache, wrap(c.at[b, o].set(s, mode="drop")))
    return key_cache


def dropout_gen_mask(shape: Any, keep_prob: Any, seed: int | None = None) -> Tensor:
    """A bit mask (UInt8, ``ceil(n / 128) * 16`` bytes, little-endian bits) keeping each of the ``n`` elements
    with probability ``keep_prob``."""
    shp = tuple(int(v) for v in (shape.asnumpy().reshape(-1) if isinstance(shape, Tensor) else shape))
    n = int(np.prod(shp)) if shp else 1
    nbytes = -(-n // 128) * 16
    keep = jax.random.uniform(next_key(seed), (nbytes * 8,), jnp.float32) < jnp.asarray(arr(keep_prob), jnp.float32)
    keep = keep & (jnp.arange(nbytes * 8) < n)
    bits = keep.reshape(nbytes, 8).astype(jnp.uint8) << jnp.arange(8, dtype=jnp.uint8)
    return wrap(bits.sum(axis=1, dtype=jnp.uint8))


def dropout_do_mask(input_x: Any, mask: Any, keep_prob: Any) -> Tensor:
    """``input_x * bit / keep_prob`` with the bits of a :func:`dropout_gen_mask` mask."""
    a = as_tensor_array(input_x)
    m = as_tensor_array(mask).astype(jnp.uint8)
    bits = ((m[:, None] >> jnp.arange(8, dtype=jnp.uint8)) & 1).reshape(-1)[: a.size].reshape(a.shape)
    kp = jnp.asarray(arr(keep_prob), a.dtype)
    return wrap(jnp.where(bits.astype(bool), a / kp, jnp.zeros((), a.dtype)))


def sub_and_filter(input_x: Any, max_num: int, offset: int) -> tuple[Tensor, Tensor]:
    """``input_x - offset`` for the elements that land in ``[0, max_num)``, and their indices (eager only)."""
    a = _concrete(as_tensor_array(input_x), "SubAndFilter").reshape(-1)
    shifted = a - int(offset)
    keep = (shifted >= 0) & (shifted < int(max_num))
    return Tensor(shifted[keep]), Tensor(np.flatnonzero(keep).astype(a.dtype))


def map_uniform(input: Any, per_group_size: int, group_num: int) -> Tensor:
    """``key % group_num * per_group_size + key // group_num``."""
    a = as_tensor_array(input)
    if int(group_num) <= 0:
        raise ValueError(f"For 'MapUniform', the 'group_num' must be positive, but got {group_num}.")
    return wrap(a % int(group_num) * int(per_group_size) + a // int(group_num))


# ------------------------------------------------------------------ graph-IR switch (eager)
class _Dead:
    """The output of the branch GeSwitch did not take."""

    def __repr__(self) -> str:
        return "<dead branch>"


_DEAD = _Dead()


def geswitch(data: Any, pred: Any) -> tuple[Any, Any]:
    """``(false_output, true_output)``: ``data`` on the taken branch, a dead marker on the other (eager only;
    in compiled code write Python ``if`` on the tensor, which sporax converts, or use ``ops.select``)."""
    check_instance(pred, Tensor, "pred", "GeSwitch")
    if not isinstance(data, (Tensor, int, float)):
        raise TypeError(f"For 'GeSwitch', the 'data' must be a Tensor or a number, but got {type(data).__name__}.")
    p = bool(_concrete(as_tensor_array(pred), "GeSwitch"))
    return (_DEAD, data) if p else (data, _DEAD)


def merge(*args: Any) -> tuple[Any, Tensor]:
    """``merge(inputs)`` -> ``(data, index)``: the one live input of ``inputs`` (the outputs of :func:`geswitch`
    branches)."""
    if len(args) != 1:
        raise TypeError(f"For 'Merge', expected one input (a tuple or list), but got {len(args)}.")
    inputs = args[0]
    if not isinstance(inputs, (tuple, list)):
        raise TypeError(f"For 'Merge', the 'inputs' must be a tuple or list, but got {type(inputs).__name__}.")
    live = [i for i, v in enumerate(inputs) if v is not _DEAD]
    if not live:
        raise ValueError("For 'Merge', one of the inputs must be live, but all are dead branches.")
    return inputs[live[0]], Tensor(np.int32(live[0]))


# ------------------------------------------------------------------ host functions
def py_func(fn: Any, inputs: Any, out_types: Any, out_shapes: Any) -> Any:
    """``fn`` (on NumPy arrays) run on the host; inside a compiled program through a host callback with the
    declared output types and shapes."""
    specs = [jax.ShapeDtypeStruct(tuple(s), np_dtype(t)) for t, s in zip(out_types, out_shapes)]

    def host(*vals: Any) -> Any:
        out = fn(*[np.asarray(v) for v in vals])
        out = out if isinstance(out, (tuple, list)) else (out,)
        return tuple(np.asarray(o, dtype=sp.dtype).reshape(sp.shape) for o, sp in zip(out, specs))

    res = jax.pure_callback(host, tuple(specs), *[as_tensor_array(v) for v in inputs])
    return tuple(wrap(r) for r in res)


# ------------------------------------------------------------------ candidate samplers
def _candidates(
    op: str,
    true_classes: Any,
    num_true: int,
    num_sampled: int,
    unique: bool,
    range_max: int,
    seed: int,
    probs: np.ndarray,
    remove_accidental_hits: bool = False,
) -> tuple[Tensor, Tensor, Tensor]:
    tc = _concrete(as_tensor_array(true_classes), op)
    if tc.ndim != 2 or tc.shape[1] != num_true:
        raise ValueError(f"For '{op}', 'true_classes' must have shape (batch, {num_true}), but got {tc.shape}.")
    if tc.size and (tc.min() < 0 or tc.max() >= range_max):
        raise ValueError(f"For '{op}', 'true_classes' must be in [0, {range_max}), but got {tc.reshape(-1).tolist()}.")
    if unique and num_sampled > range_max:
        raise ValueError(
            f"For '{op}', 'num_sampled' ({num_sampled}) cannot exceed 'range_max' ({range_max}) when unique."
        )
    key = next_key(seed or None)
    rng = np.random.default_rng(np.asarray(jax.random.key_data(key)).astype(np.uint64))
    p = probs.copy()
    if remove_accidental_hits:
        p[np.unique(tc)] = 0
        p = p / p.sum()
    picked: list[int] = []
    tries = 0
    while len(picked) < num_sampled:
        c = int(rng.choice(range_max, p=p))
        tries += 1
        if unique and c in picked:
            continue
        picked.append(c)

    def expected(q: np.ndarray) -> np.ndarray:
        if unique:
            return -np.expm1(tries * np.log1p(-q))
        return q * num_sampled

    return (
        Tensor(np.asarray(picked, tc.dtype)),
        Tensor(expected(probs[tc]).astype(np.float32)),
        Tensor(expected(probs[np.asarray(picked)]).astype(np.float32)),
    )


def uniform_candidate_sampler(
    true_classes: Any,
    num_true: int,
    num_sampled: int,
    unique: bool,
    range_max: int,
    seed: int = 0,
    remove_accidental_hits: bool = False,
) -> tuple[Tensor, Tensor, Tensor]:
    """Sample ``num_sampled`` classes uniformly from ``[0, range_max)`` (without repeats when ``unique``);
    returns ``(sampled_candidates, true_expected_count, sampled_expected_count)`` (eager only)."""
    probs = np.full(range_max, 1.0 / range_max)
    return _candidates(
        "UniformCandidateSampler",
        true_classes,
        num_true,
        num_sampled,
        unique,
        range_max,
        seed,
        probs,
        remove_accidental_hits,
    )


def log_uniform_candidate_sampler(
    true_classes: Any, num_true: int = 1, num_sampled: int = 5, unique: bool = True, range_max: int = 5, seed: int = 0
) -> tuple[Tensor, Tensor, Tensor]:
    """As :func:`uniform_candidate_sampler` with Zipf's law: ``P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``."""
    k = np.arange(range_max, dtype=np.float64)
    probs = np.log((k + 2) / (k + 1)) / np.log(range_max + 1)
    return _candidates(
        "LogUniformCandidateSampler", true_classes, num_true, num_sampled, unique, range_max, seed, probs
    )


def edit_distance(
    hypothesis_indices: Any,
    hypothesis_values: Any,
    hypothesis_shape: Any,
    truth_indices: Any,
    truth_values: Any,
    truth_shape: Any,
    normalize: bool = True,
) -> Tensor:
    """Levenshtein distances between the sparse sequences of ``hypothesis`` and ``truth`` (COO indices whose last
    coordinate orders each sequence), shape ``max(shapes)[:-1]``, Float32; with ``normalize`` divided by the
    truth's length (eager only)."""
    hi = _concrete(as_tensor_array(hypothesis_indices), "EditDistance").astype(np.int64)
    hv = _concrete(as_tensor_array(hypothesis_values), "EditDistance")
    ti = _concrete(as_tensor_array(truth_indices), "EditDistance").astype(np.int64)
    tv = _concrete(as_tensor_array(truth_values), "EditDistance")
    hs = _concrete(as_tensor_array(hypothesis_shape), "EditDistance").astype(np.int64)
    ts = _concrete(as_tensor_array(truth_shape), "EditDistance").astype(np.int64)
    if hs.shape != ts.shape or hi.shape[-1] != hs.shape[0] or ti.shape[-1] != ts.shape[0]:
        raise ValueError(
            "For 'EditDistance', the ranks of 'hypothesis_shape', 'truth_shape' and the indices must agree, but got "
            f"{hs.shape}, {ts.shape}, {hi.shape}, {ti.shape}."
        )
    out_shape = tuple(np.maximum(hs, ts)[:-1].tolist())

    def sequences(idx: np.ndarray, vals: np.ndarray) -> dict[tuple[int, ...], list[Any]]:
        seqs: dict[tuple[int, ...], list[tuple[int, Any]]] = {}
        for row, v in zip(idx.tolist(), vals.tolist()):
            seqs.setdefault(tuple(row[:-1]), []).append((row[-1], v))
        return {k: [v for _, v in sorted(s, key=lambda t: t[0])] for k, s in seqs.items()}

    hyp, truth = sequences(hi, hv), sequences(ti, tv)
    out = np.zeros(out_shape, np.float32)
    for b in np.ndindex(*out_shape):
        h, t = hyp.get(b, []), truth.get(b, [])
        prev = list(range(len(t) + 1))
        for i, hx in enumerate(h, 1):
            cur = [i] + [0] * len(t)
            for j, tx in enumerate(t, 1):
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (hx != tx))
            prev = cur
        d = float(prev[-1])
        if normalize:
            d = d / len(t) if t else (float("inf") if d else float("nan"))
        out[b] = d
    return Tensor(out)
