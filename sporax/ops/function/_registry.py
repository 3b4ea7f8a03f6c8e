"""``ops.tensor_operator_registry``: MindSpore's name -> operator registry that Tensor methods use.

``get(name)`` returns what was registered under `name` (``setattr(tensor_operator_registry, name, fn)``, as
MindSpore's own modules register), else the ``sporax.ops`` function of that name; an unknown name raises
AttributeError as in MindSpore.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Registry", "tensor_operator_registry"]


class Registry:
    """Used for tensor operator registration."""

    def get(self, obj_str: str) -> Any:
        if not isinstance(obj_str, str):
            raise TypeError("key for tensor registry must be string.")
        if obj_str in self.__dict__:
            return self.__dict__[obj_str]
        ops = importlib.import_module("sporax.ops")
        if hasattr(ops, obj_str):
            return getattr(ops, obj_str)
        raise AttributeError(f"'Registry' object has no attribute '{obj_str}'")


tensor_operator_registry = Registry()
