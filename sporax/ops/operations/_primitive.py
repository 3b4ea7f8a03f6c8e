"""``Primitive``: the base of MindSpore's operator classes (``ops.ReLU()``, ``ops.ReduceMean(keep_dims)``).

A primitive is configured at construction (its *attributes*) and called with tensors. Subclasses
implement ``__call__`` by delegating to the functional op, the one implementation of each operation.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "Primitive",
    "PrimitiveWithInfer",
    "PrimitiveWithCheck",
    "prim_attr_register",
    "prim_arg_register",
    "constexpr",
]


class Primitive:
    """Base class of operator classes."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name or type(self).__name__
        self.attrs: dict[str, Any] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # MindSpore's operator classes without configuration take no constructor arguments
        # (``ops.ReLU()``): a subclass that does not define ``__init__`` gets one without ``name``
        # (its name is the class name), so its signature is MindSpore's. Base classes meant to be
        # subclassed by users (PrimitiveWithInfer...) define ``__init__`` and keep ``name``; user
        # subclasses (outside sporax) keep what they inherit, as in MindSpore.
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith("sporax.") and "__init__" not in cls.__dict__ and _inherits_base_init(cls):

            def __init__(self: Primitive) -> None:
                Primitive.__init__(self)

            __init__.__qualname__ = f"{cls.__qualname__}.__init__"
            cls.__init__ = __init__  # type: ignore[method-assign]

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


def _inherits_base_init(cls: type) -> bool:
    """Whether ``cls`` would inherit the ``name``-taking ``__init__`` of a user-facing base class."""
    for klass in cls.__mro__[1:]:
        if "__init__" in klass.__dict__:
            return klass.__dict__["__init__"] in _NAMED_INITS
    return False


class PrimitiveWithInfer(Primitive):
    def __init__(self, name: str | None = None) -> None:
        Primitive.__init__(self, name)


class PrimitiveWithCheck(Primitive):
    def __init__(self, name: str | None = None) -> None:
        Primitive.__init__(self, name)


_NAMED_INITS = (Primitive.__dict__["__init__"],)


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


def prim_arg_register(fn: Any) -> Any:
    """MindSpore's ``prim_arg_register``: like :func:`prim_attr_register` (the ``__init__`` arguments become
    the primitive's attributes)."""
    return prim_attr_register(fn)


def constexpr(
    fn: Any = None, get_instance: bool = True, name: Any = None, reuse_result: bool = True, check: bool = True
) -> Any:
    """MindSpore's ``constexpr``: a function evaluated in Python on constant inputs. In sporax every
    Python function already runs at trace time, so this returns the function unchanged."""
    if fn is None:
        return lambda f: f
    return fn
