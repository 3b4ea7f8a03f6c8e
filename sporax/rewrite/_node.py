"""``NodeType`` and ``Node``: one statement of a network's ``construct`` in a :class:`SymbolTree`."""

from __future__ import annotations

import ast
from enum import Enum
from typing import Any

from .._checkparam import check_node_targets, check_node_values, check_value_type
from ._values import ScopedValue, ValueType, naming

__all__ = ["NodeType", "Node", "NodeData"]


class NodeType(Enum):
    """The kinds of :class:`Node`."""

    Unknown = 0
    CallCell = 1
    CallPrimitive = 2
    CallModule = 3
    CallFunction = 4
    CallMethod = 5
    Python = 6
    Input = 7
    Output = 8
    Tree = 9
    CellContainer = 10
    MathOps = 11
    ControlFlow = 12


class NodeData:
    """What a node is: its name, kind, output names (``targets``), callee (``func``: ``self.dense``,
    ``ops.abs``, ``x.reshape`` or a math operator), arguments, the object it calls (``instance``), and for
    Python / control-flow statements the statement itself."""

    def __init__(
        self,
        node_type: NodeType,
        name: str,
        targets: list[ScopedValue],
        func: Any = None,
        args: list[ScopedValue] | None = None,
        kwargs: dict[str, ScopedValue] | None = None,
        instance: Any = None,
        stmt: ast.stmt | None = None,
        default: ScopedValue | None = None,
    ) -> None:
        self.node_type = node_type
        self.name = name
        self.targets = list(targets)
        self.func = func
        self.args = list(args or [])
        self.kwargs = dict(kwargs or {})
        self.instance = instance
        self.stmt = stmt
        self.default = default
        self.tree: Any = None  # the SymbolTree holding the node
        self.sub_tree: Any = None  # NodeType.Tree: the sub-cell's SymbolTree, made on first use
        self.attributes: dict[str, Any] = {}


def _is_cell(obj: Any) -> bool:
    return callable(getattr(type(obj), "construct", None)) and hasattr(obj, "cells_and_names")


def _is_primitive(obj: Any) -> bool:
    return any(c.__name__ == "Primitive" for c in type(obj).__mro__)


class Node:
    """A node of a :class:`SymbolTree` (made by ``SymbolTree.create``, or by ``Node.create_call_cell`` /
    ``create_call_function`` / ``create_input`` for inserting)."""

    def __init__(self, node: NodeData) -> None:
        self._node = node

    # ------------------------------------------------------------------ creation
    @staticmethod
    def create_call_cell(
        cell: Any,
        targets: list[ScopedValue | str],
        args: list[ScopedValue] | None = None,
        kwargs: dict[str, ScopedValue] | None = None,
        name: str = "",
        is_sub_net: bool = False,
    ) -> Node:
        """A node ``targets = self.<name>(*args, **kwargs)`` calling ``cell`` (a Cell or a Primitive), which
        becomes an attribute of the rewritten network. ``is_sub_net``: the cell is a network whose own
        construct may be rewritten (NodeType.Tree)."""
        if not (_is_cell(cell) or _is_primitive(cell)):
            raise TypeError(
                f"For 'Node', the type of 'cell' should be one of '['Cell', 'Primitive']', but got type '{type(cell).__name__}'."
            )
        values = [naming(t) for t in check_node_targets(targets, ScopedValue)]
        check_node_values(args or [], "args", ScopedValue)
        check_node_values((kwargs or {}).values(), "kwargs", ScopedValue)
        check_value_type("name", name, [str], "Node")
        check_value_type("is_sub_net", is_sub_net, [bool], "Node")
        kind = (
            NodeType.Tree
            if is_sub_net and _is_cell(cell)
            else NodeType.CallCell
            if _is_cell(cell)
            else NodeType.CallPrimitive
        )
        name = name or type(cell).__name__.lower()
        data = NodeData(kind, name, values, ScopedValue.create_naming_value(name, "self"), args, kwargs, cell)
        return Node(data)

    @staticmethod
    def create_call_function(
        function: Any,
        targets: list[ScopedValue | str],
        args: list[ScopedValue] | None = None,
        kwargs: dict[str, ScopedValue] | None = None,
    ) -> Node:
        """A node ``targets = function(*args, **kwargs)``."""
        if not callable(function) or _is_cell(function):
            raise TypeError(
                f"For 'Node', the type of 'function' should be function, but got type '{type(function).__name__}'."
            )
        values = [naming(t) for t in check_node_targets(targets, ScopedValue)]
        check_node_values(args or [], "args", ScopedValue)
        check_node_values((kwargs or {}).values(), "kwargs", ScopedValue)
        name = getattr(function, "__name__", "function")
        return Node(NodeData(NodeType.CallFunction, name, values, function, args, kwargs, function))

    @staticmethod
    def create_input(param_name: str, default: ScopedValue | None = None) -> Node:
        """An input of ``construct`` named ``param_name`` (with a default value)."""
        check_value_type("param_name", param_name, [str], "Node")
        if default is not None:
            check_node_values([default], "default", ScopedValue)
        target = ScopedValue.create_naming_value(param_name)
        return Node(NodeData(NodeType.Input, f"input_{param_name}", [target], default=default))

    # ------------------------------------------------------------------ reading
    def get_handler(self) -> NodeData:
        return self._node

    def get_name(self) -> str:
        return self._node.name

    def get_node_type(self) -> NodeType:
        return self._node.node_type

    def get_instance(self) -> Any:
        """The object the node calls (a Cell, a Primitive, a function), or None."""
        return self._node.instance

    def get_instance_type(self) -> type:
        n = self._node
        if n.node_type == NodeType.CallFunction:
            return n.instance
        return type(n.instance)

    def get_args(self) -> list[ScopedValue]:
        return list(self._node.args)

    def get_kwargs(self) -> dict[str, ScopedValue]:
        return dict(self._node.kwargs)

    def get_targets(self) -> list[ScopedValue]:
        return list(self._node.targets)

    def get_symbol_tree(self) -> Any:
        return self._node.tree

    def get_sub_tree(self) -> Any:
        """The SymbolTree of the sub-network this node calls (NodeType.Tree)."""
        if self._node.node_type != NodeType.Tree:
            raise TypeError(
                f"For 'get_sub_tree', the node_type of node should be 'NodeType.Tree', but got {self._node.node_type}."
            )
        if self._node.sub_tree is None:
            from ._tree import SymbolTree

            self._node.sub_tree = SymbolTree.create(self._node.instance)
        return self._node.sub_tree

    def get_inputs(self) -> list[Node]:
        """The nodes whose outputs this node reads."""
        tree = self._node.tree
        return [] if tree is None else [Node(n) for n in tree._providers(self._node)]

    def get_users(self) -> list[Node]:
        """The nodes reading this node's outputs."""
        tree = self._node.tree
        return [] if tree is None else [Node(n) for n in tree._users(self._node)]

    def get_arg_providers(self) -> dict:
        """``{argument index: (providing node, index of its output)}``."""
        tree = self._node.tree
        out = {}
        for i, arg in enumerate(self._node.args):
            found = tree._provider_of(self._node, arg) if tree is not None else None
            if found is not None:
                out[i] = (Node(found[0]), found[1])
        return out

    def get_target_users(self, index: int = -1) -> dict | list:
        """``{output index: [(user node, argument index), ...]}``, or the list of one output's users."""
        table = self._target_users()
        return table if index == -1 else table[index]

    def _target_users(self) -> dict[int, list]:
        tree = self._node.tree
        table: dict[int, list] = {i: [] for i in range(len(self._node.targets))}
        if tree is not None:
            for user in tree._users(self._node):
                for arg_index, (provider, out_index) in Node(user).get_arg_providers().items():
                    if provider._node is self._node:
                        table[out_index].append((Node(user), arg_index))
        return table

    def get_attribute(self, key: str) -> Any:
        return self._node.attributes.get(key)

    def get_attributes(self) -> dict[str, Any]:
        return dict(self._node.attributes)

    def set_attribute(self, key: str, value: Any) -> None:
        check_value_type("key", key, [str], "Node")
        self._node.attributes[key] = value

    # ------------------------------------------------------------------ editing
    def set_arg(self, index: int, arg: ScopedValue | str) -> None:
        """Make argument ``index`` ``arg`` (a name as str, or a ScopedValue)."""
        check_value_type("index", index, [int], "Node")
        if not isinstance(arg, ScopedValue | str):
            raise TypeError(
                f"For 'Node', the type of 'arg' should be one of '['ScopedValue', 'str']', but got type '{type(arg).__name__}'."
            )
        if not 0 <= index < len(self._node.args):
            raise ValueError(f"For 'Node', the 'index' should be in [0, {len(self._node.args)}), but got {index}.")
        self._node.args[index] = naming(arg)
        self._changed()

    def set_arg_by_node(self, arg_idx: int, src_node: Node, out_idx: int | None = None) -> None:
        """Make argument ``arg_idx`` the output ``out_idx`` (default: the only one) of ``src_node``."""
        if not isinstance(src_node, Node):
            raise TypeError(
                f"For 'Node', the type of 'src_node' should be Node, but got type '{type(src_node).__name__}'."
            )
        targets = src_node._node.targets
        if out_idx is None:
            if len(targets) != 1:
                raise RuntimeError("node should has one output when out_idx is not provided")
            out_idx = 0
        if not 0 <= out_idx < len(targets):
            raise RuntimeError(f"out_idx out of range: {out_idx}")
        self.set_arg(arg_idx, targets[out_idx])

    def _changed(self) -> None:
        if self._node.tree is not None:
            self._node.tree._modified = True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and other._node is self._node

    def __hash__(self) -> int:
        return id(self._node)


def value_of(expr: ast.expr) -> ScopedValue:
    """The ScopedValue of a simple expression (a name, ``self.x``, a constant, a tuple/list of them)."""
    if isinstance(expr, ast.Name):
        return ScopedValue.create_naming_value(expr.id)
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return ScopedValue.create_naming_value(expr.attr, expr.value.id)
    if isinstance(expr, ast.Constant):
        return ScopedValue(ValueType.ConstantValue, "", expr.value)
    if isinstance(expr, ast.Tuple | ast.List):
        kind = ValueType.TupleValue if isinstance(expr, ast.Tuple) else ValueType.ListValue
        vals = [value_of(e) for e in expr.elts]
        return ScopedValue(kind, "", tuple(vals) if kind == ValueType.TupleValue else vals)
    return ScopedValue(ValueType.UnsupportedValue, "", expr)
