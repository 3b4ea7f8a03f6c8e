"""``mindspore.ops.auto_generate.cpp_create_prim_instance_helper``: ``op_args_default_value`` (each operator
class's constructor defaults, by class name) and ``op_labels`` (the per-op labels MindSpore's C++ side
reads: none in sporax), read from sporax's operator classes."""

from __future__ import annotations

import inspect
from typing import Any

from .. import operations as _operations

__all__ = ["op_args_default_value", "op_labels"]


def _defaults() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name in vars(_operations)["__all__"]:  # computed at import: mypy does not see it as an attribute
        cls = getattr(_operations, name, None)
        if not inspect.isclass(cls):
            continue
        try:
            params = inspect.signature(cls).parameters.values()
        except (TypeError, ValueError):
            continue
        found = {p.name: p.default for p in params if p.default is not p.empty}
        if found:
            out[name] = found
    return out


op_args_default_value: dict[str, dict[str, Any]] = _defaults()
op_labels: dict[str, dict[str, Any]] = {}
