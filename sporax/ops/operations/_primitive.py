"""``Primitive``: the base of MindSpore's operator classes (``ops.ReLU()``, ``ops.ReduceMean(keep_dims)``).

A primitive is configured at construction (its *attributes*) and called with tensors. Subclasses
implement ``__call__`` by delegating to the functional op, the one implementation of each operation.
"""

from __future__ import annotations

import enum
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

__all__ = [
    "prim_type",
    "Primitive_",
    "PrimitiveFunction_",
    "Primitive",
    "PrimitiveWithInfer",
    "PrimitiveWithCheck",
    "prim_attr_register",
    "prim_arg_register",
    "constexpr",
]


class prim_type(enum.IntEnum):  # noqa: N801 - MindSpore's name
    """How a primitive is inferred and run (MindSpore's ``prim_type``): sporax's own operator classes are
    ``builtin``, a ``PrimitiveWithInfer`` subclass ``py_infer_shape``, a ``PrimitiveWithCheck`` one
    ``py_infer_check``, ``Custom`` ``user_custom``."""

    unknown = 0
    builtin = 1
    py_infer_shape = 2
    user_custom = 3
    py_infer_check = 4


class Primitive_:  # noqa: N801 - MindSpore's name
    """The attribute store under every primitive (MindSpore's C++ ``Primitive_``): its attributes, its type
    (:class:`prim_type`), its instance name and user data."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self.attrs: dict[str, Any] = {}
        self._prim_type = prim_type.builtin
        self.instance_name = ""
        self._user_data: dict[str, Any] = {}

    def add_attr(self, name: str, value: Any) -> None:
        self.attrs[name] = value

    def del_attr(self, name: str) -> None:
        self.attrs.pop(name, None)

    def get_attr_dict(self) -> dict[str, Any]:
        return dict(self.attrs)

    def set_prim_type(self, kind: prim_type) -> None:
        self._prim_type = prim_type(kind)

    def set_instance_name(self, name: str) -> None:
        self.instance_name = name

    def set_user_data(self, key: str, value: Any) -> None:
        self._user_data[key] = value

    def get_user_data(self, key: str) -> Any:
        return self._user_data.get(key)


class PrimitiveFunction_:  # noqa: N801 - MindSpore's name
    """A functional primitive (MindSpore's C++ ``PrimitiveFunction_``, what its generated ``ops.auto_generate``
    functions call): a name and labels; calling one is calling the functional op of that name."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self._labels: dict[str, Any] = {}

    def clone(self) -> PrimitiveFunction_:
        other = type(self)(self.name)
        other._labels = dict(self._labels)
        return other

    def set_label(self, key: str, value: Any) -> None:
        self._labels[key] = value

    def get_label(self, key: str) -> Any:
        return self._labels.get(key)

    def has_label(self, key: str) -> bool:
        return key in self._labels


_NO_NAME: Any = object()


class Primitive(Primitive_):
    """Base class of operator classes. ``name`` is required, as in MindSpore, for classes defined outside
    sporax (``super().__init__("MyOp")``; ``prim_attr_register`` passes the class name); sporax's own classes
    are named after themselves."""

    def __init__(self, name: str = _NO_NAME) -> None:
        if name is _NO_NAME:
            cls = type(self)
            if cls in _USER_BASES or not cls.__module__.startswith("sporax."):
                raise TypeError("Primitive.__init__() missing 1 required positional argument: 'name'")
            name = type(self).__name__
        Primitive_.__init__(self, name)

    if TYPE_CHECKING:
        # An operator's attributes are its constructor arguments, set by name (``prim.axis``, ``prim.keep_dims``:
        # ``_set_attrs`` / ``add_prim_attr``), as MindSpore's are: for mypy, any attribute of a Primitive exists.
        def __getattr__(self, name: str) -> Any: ...

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
            init: Callable[..., None] = __init__  # the class's own signature: no ``name``
            cls.__init__ = init  # type: ignore[method-assign]

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

    def shard(self, in_strategy: Any = None, out_strategy: Any = None) -> Primitive:
        """Lay the inputs (and outputs) out as ``in_strategy`` / ``out_strategy`` say in semi-auto parallel
        (tuples of cuts per dimension, or Layouts); see :mod:`sporax.ops._sharding`."""
        from .._sharding import shard_primitive

        return shard_primitive(self, in_strategy, out_strategy)

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
    """A primitive whose output shape and dtype are inferred in Python (``infer_shape``/``infer_dtype``, or
    ``infer_value`` for constants). sporax runs the primitive's ``__call__`` and infers by tracing, so the
    infer methods are kept for MindSpore's API (``__infer__`` calls them)."""

    def __init__(self, name: str = _NO_NAME) -> None:
        Primitive.__init__(self, name)
        self.set_prim_type(prim_type.py_infer_shape)

    def infer_shape(self, *args: Any) -> Any:
        return None

    def infer_dtype(self, *args: Any) -> Any:
        return None

    def infer_value(self, *args: Any) -> Any:
        return None

    def __infer__(self, *args: Any) -> dict[str, Any]:
        """MindSpore's abstract inference: ``{'shape', 'dtype', 'value'}`` of ``args`` (each a dict with
        those keys) from the three infer methods."""
        shapes = [a["shape"] for a in args]
        dtypes = [a["dtype"] for a in args]
        values = [a.get("value") for a in args]
        value = self.infer_value(*values) if all(v is not None for v in values) else None
        return {"shape": self.infer_shape(*shapes), "dtype": self.infer_dtype(*dtypes), "value": value}


class PrimitiveWithCheck(Primitive):
    """A primitive whose inputs are checked in Python (``check_shape``/``check_dtype``) before it runs."""

    def __init__(self, name: str = _NO_NAME) -> None:
        Primitive.__init__(self, name)
        self.set_prim_type(prim_type.py_infer_check)

    def check_shape(self, *args: Any) -> None:
        return None

    def check_dtype(self, *args: Any) -> None:
        return None

    def __check__(self, *args: Any) -> None:
        """MindSpore's input check: ``check_shape`` and ``check_dtype`` on the arguments' shapes and dtypes."""
        self.check_shape(*[a["shape"] for a in args])
        self.check_dtype(*[a["dtype"] for a in args])


_NAMED_INITS = (Primitive.__dict__["__init__"],)
_USER_BASES = (Primitive, PrimitiveWithInfer, PrimitiveWithCheck)

# MindSpore's signatures: ``name`` has no default (sporax's own classes are named after themselves)
for _cls in (Primitive, PrimitiveWithInfer, PrimitiveWithCheck):
    _init = _cls.__dict__["__init__"]
    _sig = inspect.signature(_init)
    _init.__signature__ = _sig.replace(  # type: ignore[attr-defined]
        parameters=[_sig.parameters["self"], _sig.parameters["name"].replace(default=inspect.Parameter.empty)]
    )
del _cls, _init, _sig


def prim_attr_register(fn: Any) -> Any:
    """Decorator for a primitive's ``__init__`` recording its arguments as attributes."""
    import functools

    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def init(self: Primitive, *args: Any, **kwargs: Any) -> None:
        base = next(c for c in type(self).__mro__ if c in (PrimitiveWithInfer, PrimitiveWithCheck, Primitive))
        base.__init__(self, type(self).__name__)
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        for k, v in list(bound.arguments.items())[1:]:
            self.attrs[k] = v
            setattr(self, k, v)
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
