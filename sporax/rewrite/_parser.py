"""Reading a network's ``construct`` into rewrite nodes (Python's ``ast``).

Each statement becomes nodes; nested calls and operators in a statement are taken apart into nodes of their
own, each writing a fresh variable (``relu_var = self.relu(x); y = self.dense(relu_var)``), so every node is
one call or one operator. Control flow (``if``/``for``/``while``) stays one ``ControlFlow`` node, other
statements one ``Python`` node, kept as written.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

from ._node import NodeData, NodeType, value_of
from ._values import ScopedValue, ValueType

__all__ = ["parse_construct", "Parser"]

_OP_NAMES = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mult", ast.Div: "div", ast.FloorDiv: "floordiv", ast.Mod: "mod",
    ast.Pow: "pow", ast.MatMult: "matmult", ast.BitAnd: "bitand", ast.BitOr: "bitor", ast.BitXor: "bitxor",
    ast.LShift: "lshift", ast.RShift: "rshift", ast.USub: "usub", ast.UAdd: "uadd", ast.Not: "not",
    ast.Invert: "invert", ast.Eq: "eq", ast.NotEq: "noteq", ast.Lt: "lt", ast.LtE: "lte", ast.Gt: "gt",
    ast.GtE: "gte", ast.Is: "is", ast.IsNot: "isnot", ast.In: "in", ast.NotIn: "notin", ast.And: "and",
    ast.Or: "or",
}  # fmt: skip


def _is_simple(expr: ast.expr) -> bool:
    if isinstance(expr, ast.Name | ast.Constant):
        return True
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return True
    if isinstance(expr, ast.Tuple | ast.List):
        return all(_is_simple(e) for e in expr.elts)
    return False


def _target_values(target: ast.expr) -> list[ScopedValue] | None:
    if isinstance(target, ast.Name):
        return [ScopedValue.create_naming_value(target.id)]
    if isinstance(target, ast.Tuple | ast.List):
        names = [e.id for e in target.elts if isinstance(e, ast.Name)]
        if len(names) == len(target.elts):
            return [ScopedValue.create_naming_value(n) for n in names]
    return None


def _is_user_cell(obj: Any) -> bool:
    return not type(obj).__module__.startswith("sporax.")


def _is_container(obj: Any) -> bool:
    return type(obj).__name__ in ("SequentialCell", "CellList", "CellDict")


class Parser:
    """Turns statements of ``construct`` into :class:`NodeData`; ``unique`` names nodes and variables."""

    def __init__(self, network: Any, globals_: dict, unique: Any) -> None:
        self.network = network
        self.globals = globals_
        self.unique = unique

    # ------------------------------------------------------------------ statements
    def statements(self, body: list[ast.stmt]) -> list[NodeData]:
        nodes: list[NodeData] = []
        for stmt in body:
            nodes.extend(self.statement(stmt))
        return nodes

    def statement(self, stmt: ast.stmt) -> list[NodeData]:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            targets = _target_values(stmt.targets[0])
            if targets is not None and not _is_simple(stmt.value):
                return self.expression(stmt.value, targets)
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            return self.expression(stmt.value, [])
        if isinstance(stmt, ast.Return):
            return self.output(stmt)
        if isinstance(stmt, ast.If | ast.For | ast.While | ast.AsyncFor | ast.With | ast.Try):
            kind = {ast.If: "if", ast.While: "while"}.get(type(stmt), "for" if isinstance(stmt, ast.For) else "block")
            args = [value_of(stmt.test)] if isinstance(stmt, ast.If | ast.While) else []
            return [NodeData(NodeType.ControlFlow, self.unique(f"{kind}_node"), [], args=args, stmt=stmt)]
        targets = []
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            targets = _target_values(stmt.targets[0]) or []
        return [NodeData(NodeType.Python, self.unique("python_node"), targets, args=[], stmt=stmt)]

    def output(self, stmt: ast.Return) -> list[NodeData]:
        nodes: list[NodeData] = []
        if stmt.value is None:
            elts: list[ast.expr] = []
        elif isinstance(stmt.value, ast.Tuple):
            elts = list(stmt.value.elts)
        else:
            elts = [stmt.value]
        args = [self.operand(e, nodes) for e in elts]
        out = NodeData(NodeType.Output, self.unique("return"), [], args=args)
        out.attributes["tuple"] = isinstance(stmt.value, ast.Tuple)
        return [*nodes, out]

    # ------------------------------------------------------------------ expressions
    def operand(self, expr: ast.expr, nodes: list[NodeData]) -> ScopedValue:
        """The value of ``expr``, with the nodes computing it appended to ``nodes``."""
        if _is_simple(expr):
            return value_of(expr)
        if isinstance(expr, ast.Starred):
            return ScopedValue(ValueType.UnsupportedValue, "", expr)
        base = self._base_name(expr)
        var = ScopedValue.create_naming_value(self.unique(f"{base}_var", variable=True))
        nodes.extend(self.expression(expr, [var]))
        return var

    @staticmethod
    def _base_name(expr: ast.expr) -> str:
        if isinstance(expr, ast.Call):
            f = expr.func
            return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "call"
        if isinstance(expr, ast.BinOp | ast.UnaryOp):
            return _OP_NAMES.get(type(expr.op), "op")
        if isinstance(expr, ast.Compare):
            return "compare"
        if isinstance(expr, ast.BoolOp):
            return "boolop"
        return type(expr).__name__.lower()

    def expression(self, expr: ast.expr, targets: list[ScopedValue]) -> list[NodeData]:
        nodes: list[NodeData] = []
        if isinstance(expr, ast.Call):
            node = self.call(expr, targets, nodes)
        elif isinstance(expr, ast.BinOp | ast.UnaryOp | ast.Compare | ast.BoolOp) and self._math_ok(expr):
            node = self.math(expr, targets, nodes)
        else:
            stmt = ast.Assign(targets=[_store(targets)], value=expr, lineno=0) if targets else ast.Expr(value=expr)
            node = NodeData(NodeType.Python, self.unique("python_node"), targets, stmt=stmt)
        return [*nodes, node]

    @staticmethod
    def _math_ok(expr: ast.expr) -> bool:
        return not isinstance(expr, ast.Compare) or len(expr.ops) == 1

    def math(self, expr: ast.expr, targets: list[ScopedValue], nodes: list[NodeData]) -> NodeData:
        op: ast.AST
        if isinstance(expr, ast.BinOp):
            op, operands, prefix = expr.op, [expr.left, expr.right], "binop"
        elif isinstance(expr, ast.UnaryOp):
            op, operands, prefix = expr.op, [expr.operand], "unaryop"
        elif isinstance(expr, ast.Compare):
            op, operands, prefix = expr.ops[0], [expr.left, expr.comparators[0]], "compare"
        elif isinstance(expr, ast.BoolOp):
            op, operands, prefix = expr.op, list(expr.values), "boolop"
        else:
            raise TypeError(f"not an operator expression: {ast.dump(expr)}")
        args = [self.operand(e, nodes) for e in operands]
        name = self.unique(f"{prefix}_{_OP_NAMES.get(type(op), 'op')}")
        node = NodeData(NodeType.MathOps, name, targets, func=op, args=args)
        node.attributes["math"] = prefix
        return node

    def call(self, expr: ast.Call, targets: list[ScopedValue], nodes: list[NodeData]) -> NodeData:
        args = [self.operand(a, nodes) for a in expr.args]
        kwargs = {}
        for kw in expr.keywords:
            if kw.arg is None:
                kwargs["**"] = ScopedValue(ValueType.UnsupportedValue, "", kw.value)
            else:
                kwargs[kw.arg] = self.operand(kw.value, nodes)
        f = expr.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
            obj = getattr(self.network, f.attr, None)
            kind = self._kind_of_attribute(obj)
            func = ScopedValue.create_naming_value(f.attr, "self")
            return NodeData(kind, self.unique(f.attr), targets, func, args, kwargs, obj)
        resolved = self._resolve(f)
        if resolved is not None:
            name = getattr(resolved, "__name__", None) or self._base_name(expr)
            return NodeData(NodeType.CallFunction, self.unique(name), targets, f, args, kwargs, resolved)
        if isinstance(f, ast.Attribute):  # a method of a local value: x.reshape(...)
            owner = self.operand(f.value, nodes)
            node = NodeData(NodeType.CallMethod, self.unique(f.attr), targets, f.attr, args, kwargs)
            node.attributes["owner"] = owner
            return node
        func_value = self.operand(f, nodes)
        return NodeData(
            NodeType.CallFunction, self.unique(self._base_name(expr)), targets, func_value.to_ast(), args, kwargs
        )

    @staticmethod
    def _kind_of_attribute(obj: Any) -> NodeType:
        from ._node import _is_cell, _is_primitive

        if _is_cell(obj):
            if _is_container(obj):
                return NodeType.CellContainer
            return NodeType.Tree if _is_user_cell(obj) else NodeType.CallCell
        if _is_primitive(obj):
            return NodeType.CallPrimitive
        return NodeType.CallMethod

    def _resolve(self, f: ast.expr) -> Any:
        """The object a function expression (``abs``, ``ops.abs``, ``F.relu``) names in construct's globals."""
        if isinstance(f, ast.Name):
            if f.id in self.globals:
                return self.globals[f.id]
            import builtins

            return getattr(builtins, f.id, None)
        if isinstance(f, ast.Attribute):
            base = self._resolve(f.value)
            if base is not None and inspect.ismodule(base) or isinstance(base, type):
                return getattr(base, f.attr, None)
        return None


def _store(targets: list[ScopedValue]) -> ast.expr:
    if len(targets) == 1:
        return _store_one(targets[0])
    return ast.Tuple(elts=[_store_one(t) for t in targets], ctx=ast.Store())


def _store_one(t: ScopedValue) -> ast.expr:
    if t.scope:
        return ast.Attribute(value=ast.Name(id=t.scope, ctx=ast.Load()), attr=t.value, ctx=ast.Store())
    return ast.Name(id=t.value, ctx=ast.Store())


def parse_construct(network: Any, unique: Any) -> tuple[list[NodeData], ast.FunctionDef, dict]:
    """The nodes of ``type(network).construct``, its parsed definition and globals."""
    construct = type(network).construct
    try:
        source = textwrap.dedent(inspect.getsource(construct))
    except (OSError, TypeError) as err:
        raise RuntimeError(
            f"For 'SymbolTree', the source of {type(network).__name__}.construct is not available: {err}"
        ) from None
    fdef = ast.parse(source).body[0]
    if not isinstance(fdef, ast.FunctionDef):
        raise RuntimeError(f"For 'SymbolTree', {type(network).__name__}.construct is not a function definition.")
    globals_ = dict(getattr(construct, "__globals__", {}))
    closure = getattr(construct, "__closure__", None) or ()
    globals_.update({n: c.cell_contents for n, c in zip(construct.__code__.co_freevars, closure, strict=False)})
    parser = Parser(network, globals_, unique)
    a = fdef.args
    positional = [*a.posonlyargs, *a.args][1:]  # without self
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    nodes = []
    for arg, default in zip(positional, defaults, strict=True):
        target = ScopedValue.create_naming_value(arg.arg)
        nodes.append(
            NodeData(
                NodeType.Input,
                unique(f"input_{arg.arg}"),
                [target],
                default=None if default is None else value_of(default),
            )
        )
    for star_arg, kind in ((a.vararg, "*"), (a.kwarg, "**")):
        if star_arg is not None:
            node = NodeData(
                NodeType.Input, unique(f"input_{star_arg.arg}"), [ScopedValue.create_naming_value(star_arg.arg)]
            )
            node.attributes["star"] = kind
            nodes.append(node)
    nodes.extend(parser.statements(fdef.body))
    return nodes, fdef, globals_
