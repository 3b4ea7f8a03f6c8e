"""``ops.vm_impl_registry`` / ``ops.get_vm_impl_fn``: Python implementations of primitives registered for
debugging, looked up by a primitive (instance, by its class) or a name. An entry is a generator: called with
the primitive, it returns the implementation function."""

from __future__ import annotations

from collections import UserDict
from typing import Any

from .operations._primitive import Primitive

__all__ = ["VmImplRegistry", "vm_impl_registry", "get_vm_impl_fn"]


class VmImplRegistry(UserDict):
    """Registered implementation generators, keyed by primitive name (and by class for a class)."""

    def register(self, prim: Any) -> Any:
        """Decorator: register ``fn`` for ``prim`` (a name or a Primitive subclass)."""

        def deco(fn: Any) -> Any:
            if isinstance(prim, str):
                self[prim] = fn
            elif isinstance(prim, type) and issubclass(prim, Primitive):
                self[id(prim)] = fn
                self[prim.__name__] = fn
            return fn

        return deco

    def get(self, prim_obj: Any, default: Any = None) -> Any:  # type: ignore[override]
        """The generator for a name, a Primitive instance (by its class, then its name), or ``default``."""
        if isinstance(prim_obj, str):
            return self.data.get(prim_obj, default)
        if isinstance(prim_obj, Primitive):
            found = self.data.get(id(type(prim_obj)))
            return found if found is not None else self.data.get(prim_obj.name, default)
        return default


vm_impl_registry = VmImplRegistry()


def get_vm_impl_fn(prim: Any) -> Any:
    """The registered implementation of ``prim`` (a Primitive or its name), or None."""
    out = vm_impl_registry.get(prim, None)
    return out(prim) if out else None
