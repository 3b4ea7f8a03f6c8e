"""``ValueType`` and ``ScopedValue``: the values a rewrite node reads and writes."""

from __future__ import annotations

import ast
from enum import Enum
from typing import Any

from .._checkparam import check_scoped_type, check_value_type

__all__ = ["ValueType", "ScopedValue"]


class ValueType(Enum):
    """The kinds of :class:`ScopedValue`."""

    ConstantValue = 0
    TupleValue = 20
    ListValue = 21
    DictValue = 22
    NamingValue = 40
    CustomObjValue = 41
    UnsupportedValue = 50


_CONSTANTS = (int, float, str, bool, type(None), bytes, complex)


class ScopedValue:
    """A value of a node: a constant, a tuple/list/dict of values, or a name (``x``, ``self.dense``:
    ``scope`` ``"self"``) of a variable.

    Args:
        arg_type (ValueType): The kind of value.
        scope (str, optional): The scope of a name (``"self"`` for an attribute of the network). Default: ``""``.
        value (Any, optional): The value, or the name. Default: ``None``.
    """

    def __init__(self, arg_type: ValueType, scope: str = "", value: Any = None) -> None:
        check_scoped_type(arg_type, ValueType, "arg_type")
        check_scoped_type(scope, str, "scope")
        self.type = arg_type
        self.scope = scope
        self.value = value

    @classmethod
    def create_variable_value(cls, value: Any) -> ScopedValue | None:
        """A ScopedValue of ``value``: a constant, a tuple/list/dict (of values), an existing ScopedValue, or
        another object (CustomObjValue)."""
        if isinstance(value, ScopedValue):
            return value
        if isinstance(value, _CONSTANTS):
            return cls(ValueType.ConstantValue, "", value)
        if isinstance(value, tuple):
            return cls(ValueType.TupleValue, "", tuple(cls.create_variable_value(v) for v in value))
        if isinstance(value, list):
            return cls(ValueType.ListValue, "", [cls.create_variable_value(v) for v in value])
        if isinstance(value, dict):
            return cls(ValueType.DictValue, "", {k: cls.create_variable_value(v) for k, v in value.items()})
        return cls(ValueType.CustomObjValue, "", value)

    @classmethod
    def create_naming_value(cls, name: str, scope: str = "") -> ScopedValue:
        """A name (``scope.name``, or ``name`` without scope) referring to a variable."""
        check_scoped_type(name, str, "name")
        check_scoped_type(scope, str, "scope")
        return cls(ValueType.NamingValue, scope, name)

    @staticmethod
    def create_name_values(
        names: list[str] | tuple[str, ...], scopes: list[str] | tuple[str, ...] | None = None
    ) -> list[ScopedValue]:
        """Naming values for ``names`` (with ``scopes``, one per name)."""
        check_value_type("names", names, [list, tuple], "ScopedValue")
        if scopes is not None and (not isinstance(scopes, list | tuple) or len(scopes) != len(names)):
            raise RuntimeError("Length of names should be equal to length of scopes")
        scopes = scopes if scopes is not None else [""] * len(names)
        return [ScopedValue.create_naming_value(n, s) for n, s in zip(names, scopes, strict=True)]

    # ------------------------------------------------------------------ code
    def to_ast(self, bind: Any = None) -> ast.expr:
        """The expression of this value (``bind(obj)`` names a CustomObjValue in the generated code)."""
        t = self.type
        if t == ValueType.NamingValue:
            if self.scope:
                return ast.Attribute(value=ast.Name(id=self.scope, ctx=ast.Load()), attr=self.value, ctx=ast.Load())
            return ast.Name(id=self.value, ctx=ast.Load())
        if t == ValueType.ConstantValue:
            return ast.Constant(value=self.value)
        if t == ValueType.TupleValue:
            return ast.Tuple(elts=[v.to_ast(bind) for v in self.value], ctx=ast.Load())
        if t == ValueType.ListValue:
            return ast.List(elts=[v.to_ast(bind) for v in self.value], ctx=ast.Load())
        if t == ValueType.DictValue:
            return ast.Dict(
                keys=[ast.Constant(value=k) for k in self.value], values=[v.to_ast(bind) for v in self.value.values()]
            )
        if t == ValueType.CustomObjValue and bind is not None:
            return ast.Name(id=bind(self.value), ctx=ast.Load())
        if t == ValueType.UnsupportedValue and isinstance(self.value, ast.expr):
            return self.value
        raise RuntimeError(f"Illegal ValueType: {t}")

    def __str__(self) -> str:
        if self.type == ValueType.NamingValue:
            return f"{self.scope}.{self.value}" if self.scope else str(self.value)
        if self.type == ValueType.ConstantValue:
            return str(self.value)
        if self.type == ValueType.CustomObjValue:
            return f"CustomObj: {self.value}"
        if self.type == ValueType.UnsupportedValue and isinstance(self.value, ast.AST):
            return ast.unparse(self.value)
        return f"Illegal ValueType: {self.type}"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, ScopedValue):
            return False
        return self.type == other.type and self.scope == other.scope and self.value == other.value

    def __hash__(self) -> int:
        try:
            return hash((self.type, self.scope, self.value))
        except TypeError:
            return hash((self.type, self.scope, id(self.value)))


def naming(value: ScopedValue | str) -> ScopedValue:
    """``value``, a string turned into a naming value."""
    return ScopedValue.create_naming_value(value) if isinstance(value, str) else value
