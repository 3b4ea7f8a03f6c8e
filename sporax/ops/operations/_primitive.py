"""``Primitive``: the base of MindSpore's operator classes (``ops.ReLU()``, ``ops.ReduceMean(keep_dims)``).

A primitive is configured at construction (its *attributes*) and called with tensors. Subclasses
implement ``__call__`` by delegating to the functional op, the one implementation of each operation.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register", "constexpr"]


class Primitive:
    """Base class of operator classes."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name or type(self).__name__
        self.attrs: dict[str, Any] = {}

    def add_prim_attr(self, name: str, value: Any) -> Primitive:
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name: str) -> Primitive:
        self.attrs.pop(name, None)
        return self

    def init_prim_io_names(self, inputs: Any, outputs: Any) -> None:
        self.attrs["input_names"], self.attrs["output_names"] = inputs, outputs

    def set_device(self, device_target: str) -> Primitive:
        return self

    def shard(self, *args: Any, **kwargs: Any) -> Primitive:
        return self

    def recompute(self, mode: bool = True) -> Primitive:
        return self

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"The primitive '{self.name}' does not implement __call__.")

    def __repr__(self) -> str:
        attrs = ", ".join(f"{k}={v!r}" for k, v in self.attrs.items() if k not in ("input_names", "output_names"))
        return f"Prim[{self.name}]" + (f"<{attrs}>" if attrs else "")


class PrimitiveWithInfer(Primitive):
    pass


class PrimitiveWithCheck(Primitive):
    pass


def prim_attr_register(fn: Any) -> Any:
    """Decorator for a primitive's ``__init__`` recording its arguments as attributes."""
    import functools
    import inspect

    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def init(self: Primitive, *args: Any, **kwargs: Any) -> None:
        Primitive.__init__(self)
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        for k, v in list(bound.arguments.items())[1:]:
            self.attrs[k] = v
        fn(self, *args, **kwargs)

    return init


def constexpr(fn: Any = None, get_instance: bool = True, reuse_result: bool = True, check: bool = True) -> Any:
    """MindSpore's ``constexpr``: a function evaluated in Python on constant inputs. In sporax every
    Python function already runs at trace time, so this returns the function unchanged."""
    if fn is None:
        return lambda f: f
    return fn
