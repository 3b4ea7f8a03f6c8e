"""Silent data corruption detection on matrix products (``sdc_detect_start`` / ``_stop`` /
``get_sdc_detect_result``).

While detection is on, each matrix product called through ``sporax.ops`` (``matmul``, ``mm``, ``bmm``,
``batch_matmul``; Tensor ``@`` included) is checked with an algorithm-based checksum: the column sums of
``C = A @ B`` must equal ``(column sums of A) @ B`` within the rounding a product of that depth can make. A
mismatch (a device computing wrong values) sets the result flag. The check runs inside compiled programs too
(its verdict comes back through a host callback); MindSpore checks the backward products as well, sporax the
products it is asked for. The checks roughly double the cost of the products.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from .._engine import is_tracer, jax
from ..common import _op_intercept
from ..common.tensor import Tensor

__all__ = ["sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result"]

_CHECKED = frozenset(("Matmul", "Mm", "Bmm", "BatchMatmul"))
_state: dict[str, Any] = {"detector": None, "corrupted": False}
_lock = threading.Lock()


def _mark(bad: Any) -> None:
    if bool(np.asarray(bad)):
        with _lock:
            _state["corrupted"] = True


class _Detector:
    def __ms_dispatch__(self, func: Any, args: tuple, kwargs: dict | None = None) -> Any:
        out = func(*args, **(kwargs or {}))
        if func.name in _CHECKED and len(args) >= 2 and all(isinstance(a, Tensor) for a in args[:2]):
            self._verify_product(args[0]._data, args[1]._data, out._data if isinstance(out, Tensor) else None)
        return out

    @staticmethod
    def _verify_product(a: Any, b: Any, c: Any) -> None:
        jnp = jax.numpy
        if c is None or a.ndim < 2 or b.ndim < 2 or not jnp.issubdtype(c.dtype, jnp.floating):
            return
        a32, b32, c32 = (jnp.asarray(v, jnp.float32) for v in (a, b, c))
        lhs = c32.sum(axis=-2)
        rhs = jnp.matmul(a32.sum(axis=-2)[..., None, :], b32)[..., 0, :]
        scale = jnp.matmul(jnp.abs(a32).sum(axis=-2)[..., None, :], jnp.abs(b32))[..., 0, :]
        eps = float(jnp.finfo(c.dtype).eps)
        bad = jnp.any(jnp.abs(lhs - rhs) > 4.0 * (a.shape[-1] + a.shape[-2]) * eps * scale + 1e-30)
        if is_tracer(bad):
            jax.debug.callback(_mark, bad)
        else:
            _mark(bad)


def sdc_detect_start() -> None:
    """Start checking matrix products for silent data corruption (the result flag starts clear)."""
    with _lock:
        if _state["detector"] is not None:
            return
        _state["corrupted"] = False
        _state["detector"] = _Detector()
    _op_intercept.push(_state["detector"])


def sdc_detect_stop() -> None:
    """Stop checking (the result stays readable)."""
    with _lock:
        detector, _state["detector"] = _state["detector"], None
    if detector is not None:
        _op_intercept.pop(detector)


def get_sdc_detect_result() -> bool:
    """Whether a checked product came out wrong since detection started."""
    return bool(_state["corrupted"])
