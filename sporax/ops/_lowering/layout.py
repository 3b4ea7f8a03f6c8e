"""Layout hints between the CPU lowerings: which physical order an NC... array came out of.

The CPU convolutions compute in another order than NCHW ("nhwc": channels last; "gemm": [C, B, H, W]) and
hand back a transposed array. An op that only needs the channel axis (batch norm) computes in that order
when its input carries a hint: it transposes its input into the producer's order (XLA cancels the two
transposes) and its result back (which XLA cancels with the next convolution's transpose, through
elementwise activations and residual additions). Without the hint, batch norm in NCHW between two
channels-last convolutions costs two full-size transposes per layer in the forward and as many in the
backward (ResNet-18: ~20 % of a CPU step), and the forward that ``TrainOneStepCell`` runs beside the
gradient's no longer matches the gradient's forward, so XLA keeps both.

The hint is only an optimisation: an array without one (or an op that ignores it) computes in NC... order,
with the same values. Hints are kept in a weak table keyed by the array (a JAX tracer while tracing).
"""

from __future__ import annotations

import weakref
from typing import Any

from ..._engine import jnp

__all__ = ["tag", "physical_perm", "to_physical", "from_physical", "add_per_channel", "to_phases", "from_phases"]

# id(array) -> (weak reference to the array, permutation from the NC... axes to the physical order)
_HINTS: dict[int, tuple[Any, tuple[int, ...]]] = {}


def tag(x: Any, perm: tuple[int, ...]) -> Any:
    """Record that NC... ``x`` is ``transpose(z, inverse(perm))`` of an array ``z`` computed in the order
    ``perm`` (``z == x.transpose(perm)``). Returns ``x``."""
    key = id(x)

    def forget(_ref: Any) -> None:
        _HINTS.pop(key, None)

    try:
        ref = weakref.ref(x, forget)
    except TypeError:  # not weak-referenceable (a NumPy scalar, say): no hint
        return x
    _HINTS[key] = (ref, tuple(perm))
    return x


def physical_perm(x: Any) -> tuple[int, ...] | None:
    """The permutation ``tag`` recorded for ``x`` (None: compute in NC... order)."""
    hit = _HINTS.get(id(x))
    if hit is None or hit[0]() is not x:
        return None
    return hit[1]


def to_physical(x: Any, perm: tuple[int, ...]) -> Any:
    """``x`` in the physical order ``perm``."""
    return jnp.transpose(x, perm)


def from_physical(z: Any, perm: tuple[int, ...]) -> Any:
    """NC... view of ``z`` computed in the order ``perm``, tagged with it."""
    inv = tuple(perm.index(i) for i in range(len(perm)))
    return tag(jnp.transpose(z, inv), perm)


def add_per_channel(x: Any, b: Any) -> Any:
    """``x + b`` for NC... ``x`` and a per-channel ``b`` [C] (a convolution's bias), in ``x``'s physical
    order when it has one (the result keeps the hint)."""
    perm = physical_perm(x)
    if perm is None:
        return x + b.reshape((1, -1) + (1,) * (x.ndim - 2))
    shape = [1] * x.ndim
    shape[perm.index(1)] = -1
    return from_physical(to_physical(x, perm) + b.reshape(shape), perm)


# The phase layout of the CPU GEMM convolutions (``conv.conv_cbhw`` with a split): [C, sh, sw, B, H / sh, W / sw],
# output pixel (r * sh + a, q * sw + e) in phase (a, e). An sh x sw max-pool over it reduces sh * sw
# contiguous blocks (vectorised) instead of size-2 axes inside the pixels; XLA cancels the two
# conversions between the convolution and the pool (through the activation between them).
def to_phases(x: Any, sh: int, sw: int) -> Any:
    """NCHW ``x`` (H, W multiples of ``sh``, ``sw``) in the phase layout [C, sh, sw, B, H / sh, W / sw]."""
    n, c, h, w = x.shape
    return jnp.transpose(x.reshape(n, c, h // sh, sh, w // sw, sw), (1, 3, 5, 0, 2, 4))


def from_phases(z: Any) -> Any:
    """The NCHW array of phase-layout ``z`` [C, sh, sw, B, PH, PW]."""
    c, sh, sw, n, ph, pw = z.shape
    return jnp.transpose(z, (3, 0, 4, 1, 5, 2)).reshape(n, c, ph * sh, pw * sw)
