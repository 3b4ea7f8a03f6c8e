"""Layout ops (``mindspore.ops`` functional): block moves between batch, space and depth
(``space_to_batch_nd``, ``batch_to_space_nd``, depth/space), sequence reversal, and the TensorFlow-style
matrix-diagonal family (``matrix_diag``, ``matrix_diag_part``, ``matrix_set_diag``) with its ``align``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _checkparam as validator
from ..._checkparam import check_instance
from ..._engine import jnp
from ...common.tensor import Tensor
from .._utils import arr, as_tensor_array, check_axis, wrap

__all__ = [
    "space_to_batch_nd",
    "batch_to_space_nd",
    "reverse_sequence",
    "matrix_diag",
    "matrix_diag_part",
    "matrix_set_diag",
    "move_to",
    "diag",
    "diagonal",
    "trace",
    "tril",
    "triu",
    "matrix_band_part",
    "diagflat",
]


def _ints(value: Any, n: int | None, name: str, op: str) -> tuple[int, ...]:
    if isinstance(value, Tensor):
        value = value.asnumpy().reshape(-1).tolist()
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if n is None:
            raise TypeError(f"For '{op}', the '{name}' must be a tuple of ints, but got {value}.")
        return (int(value),) * n
    return tuple(int(v) for v in value)


def _pairs(value: Any, name: str, op: str) -> list[tuple[int, int]]:
    if isinstance(value, Tensor):
        value = value.asnumpy().tolist()
    out = [tuple(int(v) for v in p) for p in value]
    if any(len(p) != 2 or p[0] < 0 or p[1] < 0 for p in out):
        raise ValueError(
            f"For '{op}', the '{name}' must be a list of non-negative [begin, end] pairs, but got {value}."
        )
    return out  # type: ignore[return-value]


def space_to_batch_nd(input_x: Any, block_size: Any, paddings: Any) -> Tensor:
    """Zero-pad the last ``M`` (spatial) dims by ``paddings``, then move ``block_size`` blocks of them into
    the batch dim: ``(N, C, H, W)`` -> ``(N * bh * bw, C, (H + pad) / bh, (W + pad) / bw)``."""
    op = "SpaceToBatchND"
    a = as_tensor_array(input_x)
    pads = _pairs(paddings, "paddings", op)
    m = len(pads)
    blocks = _ints(block_size, m, "block_size", op)
    if len(blocks) != m or any(b < 1 for b in blocks):
        raise ValueError(f"For '{op}', the 'block_size' must hold {m} positive ints, but got {blocks}.")
    if a.ndim < m + 1:
        raise ValueError(f"For '{op}', the rank of 'input_x' must be at least {m + 1}, but got {a.ndim}.")
    first = a.ndim - m
    a = jnp.pad(a, [(0, 0)] * first + list(pads))
    for d, b in zip(range(first, a.ndim), blocks):
        if a.shape[d] % b:
            raise ValueError(
                f"For '{op}', the padded spatial dim {d} ({a.shape[d]}) must be divisible by block size {b}."
            )
    n, mid = a.shape[0], a.shape[1:first]
    split = [n, *mid]
    for d, b in zip(range(first, a.ndim), blocks):
        split += [a.shape[d] // b, b]
    r = a.reshape(split)
    nb = len(mid) + 1
    block_axes = [nb + 2 * i + 1 for i in range(m)]
    spatial_axes = [nb + 2 * i for i in range(m)]
    r = jnp.transpose(r, block_axes + [0] + list(range(1, nb)) + spatial_axes)
    return wrap(r.reshape((n * int(np.prod(blocks)), *mid, *[a.shape[first + i] // blocks[i] for i in range(m)])))


def batch_to_space_nd(input_x: Any, block_shape: Any, crops: Any) -> Tensor:
    """The inverse of :func:`space_to_batch_nd`: move batch blocks back into the last ``M`` dims, then crop."""
    op = "BatchToSpaceND"
    a = as_tensor_array(input_x)
    cr = _pairs(crops, "crops", op)
    m = len(cr)
    blocks = _ints(block_shape, m, "block_shape", op)
    if len(blocks) != m or any(b < 1 for b in blocks):
        raise ValueError(f"For '{op}', the 'block_shape' must hold {m} positive ints, but got {blocks}.")
    prod = int(np.prod(blocks))
    if a.shape[0] % prod:
        raise ValueError(f"For '{op}', the batch dim ({a.shape[0]}) must be divisible by {prod}.")
    first = a.ndim - m
    n = a.shape[0] // prod
    mid = a.shape[1:first]
    spatial = a.shape[first:]
    r = a.reshape((*blocks, n, *mid, *spatial))
    nb = 1 + len(mid)
    axes = [m + i for i in range(nb)]
    for i in range(m):
        axes += [m + nb + i, i]
    r = jnp.transpose(r, axes).reshape((n, *mid, *[spatial[i] * blocks[i] for i in range(m)]))
    sl = [slice(None)] * first + [slice(c0, r.shape[first + i] - c1) for i, (c0, c1) in enumerate(cr)]
    return wrap(r[tuple(sl)])


def reverse_sequence(x: Any, seq_lengths: Any, seq_dim: int, batch_dim: int = 0) -> Tensor:
    """Reverse the first ``seq_lengths[b]`` elements along ``seq_dim`` of each slice ``b`` of ``batch_dim``."""
    a = as_tensor_array(x)
    lens = as_tensor_array(seq_lengths)
    sd = check_axis(seq_dim, a.ndim, "ReverseSequence", "seq_dim")
    bd = check_axis(batch_dim, a.ndim, "ReverseSequence", "batch_dim")
    if sd == bd:
        raise ValueError("For 'ReverseSequence', 'seq_dim' and 'batch_dim' cannot be the same dimension.")
    if lens.ndim != 1 or lens.shape[0] != a.shape[bd]:
        raise ValueError(
            f"For 'ReverseSequence', 'seq_lengths' must be 1-D of length {a.shape[bd]}, but got {tuple(lens.shape)}."
        )
    n = a.shape[sd]
    j = jnp.arange(n)
    shape = [1] * a.ndim
    shape[sd] = n
    j = j.reshape(shape)
    lshape = [1] * a.ndim
    lshape[bd] = a.shape[bd]
    ln = lens.reshape(lshape).astype(j.dtype)
    src = jnp.where(j < ln, ln - 1 - j, j)
    return wrap(jnp.take_along_axis(a, jnp.broadcast_to(src, a.shape), axis=sd))


# ------------------------------------------------------------ matrix diagonals
_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _k_range(k: Any, op: str) -> tuple[int, int]:
    v = np.asarray(arr(k)).reshape(-1).tolist()
    if not 1 <= len(v) <= 2:
        raise ValueError(f"For '{op}', 'k' must hold one or two ints, but got {v}.")
    lo, hi = int(v[0]), int(v[-1])
    if lo > hi:
        raise ValueError(f"For '{op}', k[0] must not be greater than k[1], but got k = {v}.")
    return lo, hi


def _align(align: str, op: str) -> str:
    if align not in _ALIGNS:
        raise ValueError(f"For '{op}', 'align' must be one of {list(_ALIGNS)}, but got '{align}'.")
    return align


def _diag_positions(rows: int, cols: int, lo: int, hi: int, width: int, align: str) -> tuple[np.ndarray, ...]:
    """For diagonals ``hi..lo`` (row ``t`` of the packed form is diagonal ``hi - t``) and slot ``p`` of
    ``width``: the matrix coordinates (i, j) and whether the slot holds an element."""
    t = np.arange(hi - lo + 1)[:, None]
    p = np.arange(width)[None, :]
    d = hi - t
    length = np.minimum(rows + np.minimum(0, d), cols - np.maximum(0, d))
    right = np.where(d >= 0, align.startswith("RIGHT"), align.endswith("RIGHT"))
    q = p - np.where(right, width - length, 0)
    valid = (q >= 0) & (q < length)
    i = np.where(d >= 0, q, q - d)
    j = np.where(d >= 0, q + d, q)
    return np.where(valid, i, 0), np.where(valid, j, 0), valid


def matrix_diag(
    x: Any, k: Any = 0, num_rows: int = -1, num_cols: int = -1, padding_value: Any = 0, align: str = "RIGHT_LEFT"
) -> Tensor:
    """Matrices whose diagonals ``k`` (an int or a ``[low, high]`` range) hold ``x``, others ``padding_value``."""
    op = "MatrixDiagV3"
    a = as_tensor_array(x)
    lo, hi = _k_range(k, op)
    _align(align, op)
    packed = a if hi > lo else a[..., None, :]
    if packed.ndim < 2 or packed.shape[-2] != hi - lo + 1:
        raise ValueError(f"For '{op}', 'x' must hold {hi - lo + 1} diagonals, but got shape {tuple(a.shape)}.")
    width = packed.shape[-1]
    nr, nc = int(arr(num_rows)), int(arr(num_cols))
    min_rows, min_cols = width - min(hi, 0), width + max(lo, 0)
    rows = nr if nr > 0 else min_rows
    cols = nc if nc > 0 else min_cols
    if rows < min_rows and cols < min_cols:
        raise ValueError(f"For {op}, the number of rows or columns is not consistent with the specified k and x.")
    i, j, valid = _diag_positions(rows, cols, lo, hi, width, align)
    out = jnp.full((*packed.shape[:-2], rows, cols), jnp.asarray(arr(padding_value), a.dtype))
    ii, jj = np.where(valid, i, rows), np.where(valid, j, cols)  # slots without an element are dropped
    return wrap(out.at[..., ii, jj].set(packed, mode="drop"))


def matrix_diag_part(x: Any, k: Any, padding_value: Any, align: str = "RIGHT_LEFT") -> Tensor:
    """The diagonals ``k`` of the matrices in ``x``, packed with ``padding_value`` (shape ``(..., num_diags,
    max_len)``; the diagonal axis is dropped for a single ``k``)."""
    op = "MatrixDiagPartV3"
    a = as_tensor_array(x)
    if a.ndim < 2:
        raise ValueError(f"For '{op}', the rank of 'x' must be at least 2, but got {a.ndim}.")
    lo, hi = _k_range(k, op)
    _align(align, op)
    rows, cols = a.shape[-2], a.shape[-1]
    if not (-rows < lo <= hi < cols):
        raise ValueError(f"For '{op}', 'k' must lie in ({-rows}, {cols}), but got [{lo}, {hi}].")
    width = max(min(rows + min(0, d), cols - max(0, d)) for d in range(lo, hi + 1))
    i, j, valid = _diag_positions(rows, cols, lo, hi, width, align)
    out = jnp.where(valid, a[..., i, j], jnp.asarray(arr(padding_value), a.dtype))
    return wrap(out if hi > lo else out[..., 0, :])


def matrix_set_diag(x: Any, diagonal: Any, k: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """A copy of ``x`` with its diagonals ``k`` replaced by ``diagonal`` (packed as :func:`matrix_diag_part`)."""
    op = "MatrixSetDiagV3"
    a = as_tensor_array(x)
    dg = as_tensor_array(diagonal).astype(a.dtype)
    lo, hi = _k_range(k, op)
    _align(align, op)
    rows, cols = a.shape[-2], a.shape[-1]
    packed = dg if hi > lo else dg[..., None, :]
    width = packed.shape[-1]
    i, j, valid = _diag_positions(rows, cols, lo, hi, width, align)
    ii, jj = np.where(valid, i, rows), np.where(valid, j, cols)
    return wrap(a.at[..., ii, jj].set(jnp.broadcast_to(packed, a.shape[:-2] + packed.shape[-2:]), mode="drop"))


# ------------------------------------------------------------------ placement
def move_to(input: Any, to: str = "CPU", blocking: bool = True) -> Tensor:
    """A copy of ``input`` on the host (``to='CPU'``) or on the default accelerator (``'Ascend'``/``'GPU'``:
    whichever device XLA runs on). ``blocking=False`` returns before the copy completes."""
    from ..._engine import jax

    validator.check_choice(to, ("CPU", "Ascend", "GPU"), "to", "move_to")
    check_instance(input, Tensor, "input", "move_to")
    a = as_tensor_array(input)
    dev = jax.devices("cpu")[0] if to == "CPU" else jax.devices()[0]
    out = jax.device_put(a, dev)
    if blocking:
        out.block_until_ready()
    return wrap(out)


def diag(input: Any) -> Tensor:
    """The tensor of shape ``input.shape + input.shape`` with ``input`` on its diagonal
    (``out[i..., i...] = input[i...]``; a 1-D input gives the usual diagonal matrix), as MindSpore's Diag."""
    a = as_tensor_array(input)
    if a.ndim == 0:
        raise ValueError("For 'Diag', the rank of 'input_x' must be at least 1, but got 0.")
    return wrap(jnp.diag(a.reshape(-1)).reshape(a.shape + a.shape))


def diagonal(input: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    return wrap(jnp.diagonal(as_tensor_array(input), offset, dim1, dim2))


def trace(input: Any) -> Tensor:
    return wrap(jnp.trace(as_tensor_array(input)))


def tril(input: Any, diagonal: int = 0) -> Tensor:
    return wrap(jnp.tril(as_tensor_array(input), diagonal))


def triu(input: Any, diagonal: int = 0) -> Tensor:
    return wrap(jnp.triu(as_tensor_array(input), diagonal))


def matrix_band_part(x: Any, lower: Any, upper: Any) -> Tensor:
    """Keep the band of each matrix: ``lower`` sub-diagonals and ``upper`` super-diagonals (-1: all)."""
    a = as_tensor_array(x)
    m, n = a.shape[-2], a.shape[-1]
    i = jnp.arange(m)[:, None]
    j = jnp.arange(n)[None, :]
    lo, up = int(arr(lower)), int(arr(upper))
    keep = ((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))
    return wrap(jnp.where(keep, a, jnp.zeros((), a.dtype)))


def diagflat(input: Any, offset: int = 0) -> Tensor:
    """A 2-D tensor with the flattened ``input`` on the ``offset`` diagonal."""
    if not isinstance(offset, int) or isinstance(offset, bool):
        raise TypeError(f"For 'diagflat', the 'offset' must be an int, but got {type(offset).__name__}.")
    return wrap(jnp.diagflat(as_tensor_array(input), offset))
