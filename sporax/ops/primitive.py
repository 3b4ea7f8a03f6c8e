"""``mindspore.ops.primitive``: the primitive base classes and decorators (one implementation, in
``ops.operations._primitive``), and ``jit_context``."""

from __future__ import annotations

from typing import Any

from ._sharding import Layout
from .operations._primitive import (
    Primitive,
    Primitive_,
    PrimitiveFunction_,
    PrimitiveWithCheck,
    PrimitiveWithInfer,
    constexpr,
    prim_arg_register,
    prim_attr_register,
    prim_type,
)

__all__ = [
    "Primitive",
    "Primitive_",
    "PrimitiveFunction_",
    "prim_type",
    "PrimitiveWithCheck",
    "PrimitiveWithInfer",
    "constexpr",
    "prim_arg_register",
    "prim_attr_register",
    "jit_context",
    "Layout",
    "SUPPORTED_TUPLE_IN_TUPLE_STRATEGY",
]

# the primitives whose shard strategies may nest tuples (MindSpore's list; sharding strategies are
# accepted and ignored by sporax primitives)
SUPPORTED_TUPLE_IN_TUPLE_STRATEGY = ["GroupedMatmul", "FusedInferAttentionScore", "Custom", "Index"]


def jit_context() -> Any:
    """The context of the jit compilation running now: MindSpore's hook for its bytecode capture (None when
    none is set, as in sporax, which traces Python directly)."""
    return None
