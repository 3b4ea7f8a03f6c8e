"""``mindspore.ops.primitive``: the primitive base classes and decorators (one implementation, in
``ops.operations._primitive``), and ``jit_context``."""

from __future__ import annotations

from typing import Any

from .operations._primitive import (
    Primitive,
    PrimitiveWithCheck,
    PrimitiveWithInfer,
    constexpr,
    prim_arg_register,
    prim_attr_register,
)

__all__ = [
    "Primitive",
    "PrimitiveWithCheck",
    "PrimitiveWithInfer",
    "constexpr",
    "prim_arg_register",
    "prim_attr_register",
    "jit_context",
    "SUPPORTED_TUPLE_IN_TUPLE_STRATEGY",
]

# the primitives whose shard strategies may nest tuples (MindSpore's list; sharding strategies are
# accepted and ignored by sporax primitives)
SUPPORTED_TUPLE_IN_TUPLE_STRATEGY = ["GroupedMatmul", "FusedInferAttentionScore", "Custom", "Index"]


def jit_context() -> Any:
    """The context of the jit compilation running now: MindSpore's hook for its bytecode capture (None when
    none is set, as in sporax, which traces Python directly)."""
    return None
