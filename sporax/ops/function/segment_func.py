"""Segment reductions (``mindspore.ops`` functional): ``unsorted_segment_sum/max/min/prod`` (rows reduced by
segment id into ``num_segments`` rows; ids out of range are dropped) and the sorted-id ``segment_*`` kernels
of ``ops.SegmentSum()`` & co. (eager: the output length is ``max(id) + 1``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._engine import jax, jnp
from ...common.tensor import Tensor
from .._utils import arr, as_tensor_array, wrap
from ._array_utils import _concrete

__all__ = ["unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod"]


def _unsorted_segment(kernel: Any, input_x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
    a = as_tensor_array(input_x)
    ids = as_tensor_array(segment_ids)
    n = int(arr(num_segments))
    return wrap(kernel(a.reshape((-1,) + a.shape[ids.ndim :]), ids.reshape(-1), n))


def unsorted_segment_sum(input_x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
    """Sum the rows of ``input_x`` by ``segment_ids`` into ``num_segments`` rows (ids out of range are dropped)."""
    return _unsorted_segment(jax.ops.segment_sum, input_x, segment_ids, num_segments)


def _finite_fill(kernel: Any) -> Any:
    """MindSpore fills empty segments of max/min with the dtype's lowest/highest finite value, not -inf/inf."""

    def k(flat: Any, ids: Any, n: int) -> Any:
        out = kernel(flat, ids, n)
        if jnp.issubdtype(out.dtype, jnp.floating):
            fi = jnp.finfo(out.dtype)
            out = jnp.where(jnp.isneginf(out), fi.min, jnp.where(jnp.isposinf(out), fi.max, out))
        return out

    return k


def unsorted_segment_max(x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
    """The maximum of the rows of ``x`` per segment id (empty segments: the dtype's lowest finite value)."""
    return _unsorted_segment(_finite_fill(jax.ops.segment_max), x, segment_ids, num_segments)


def unsorted_segment_min(x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
    """The minimum of the rows of ``x`` per segment id (empty segments: the dtype's highest finite value)."""
    return _unsorted_segment(_finite_fill(jax.ops.segment_min), x, segment_ids, num_segments)


def unsorted_segment_prod(x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
    """The product of the rows of ``x`` per segment id (empty segments: 1)."""
    return _unsorted_segment(jax.ops.segment_prod, x, segment_ids, num_segments)


def _sorted_segment(kernel: Any, name: str) -> Any:
    prim = "Segment" + name.split("_")[1].capitalize()

    def op(input_x: Any, segment_ids: Any) -> Tensor:
        a = as_tensor_array(input_x)
        ids = _concrete(as_tensor_array(segment_ids), prim)
        if ids.ndim != 1 or (a.ndim and ids.shape[0] != a.shape[0]):
            raise ValueError(
                f"For '{prim}', 'segment_ids' must be 1-D with length x.shape[0], but got shape {ids.shape}."
            )
        if ids.size and (ids.min() < 0 or np.any(np.diff(ids) < 0)):
            raise ValueError(f"For '{prim}', 'segment_ids' must be sorted and non-negative, but got {ids.tolist()}.")
        n = int(ids.max()) + 1 if ids.size else 0
        return wrap(kernel(a, jnp.asarray(ids), n))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (
        f"``{name}(input_x, segment_ids)``: reduce the rows of ``input_x`` by the sorted ``segment_ids``; "
        "empty segments give 0 (eager only: the output length is ``max(segment_ids) + 1``)."
    )
    return op


def _seg_empty_zero(fn: Any) -> Any:
    def k(a: Any, ids: Any, n: int) -> Any:
        out = fn(a, ids, n)
        present = jax.ops.segment_sum(jnp.ones(ids.shape, jnp.int32), ids, n) > 0
        return jnp.where(present.reshape((-1,) + (1,) * (a.ndim - 1)), out, jnp.zeros((), a.dtype))

    return k


segment_sum = _sorted_segment(lambda a, ids, n: jax.ops.segment_sum(a, ids, n), "segment_sum")


segment_prod = _sorted_segment(_seg_empty_zero(lambda a, ids, n: jax.ops.segment_prod(a, ids, n)), "segment_prod")


segment_max = _sorted_segment(_seg_empty_zero(lambda a, ids, n: jax.ops.segment_max(a, ids, n)), "segment_max")


segment_min = _sorted_segment(_seg_empty_zero(lambda a, ids, n: jax.ops.segment_min(a, ids, n)), "segment_min")


segment_mean = _sorted_segment(
    lambda a, ids, n: (
        jax.ops.segment_sum(a, ids, n)
        / jnp.maximum(jax.ops.segment_sum(jnp.ones(ids.shape, a.dtype), ids, n), 1).reshape((-1,) + (1,) * (a.ndim - 1))
    ),
    "segment_mean",
)
