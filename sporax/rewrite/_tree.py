"""``SymbolTree``: a network's ``construct`` as a list of nodes that can be edited and turned back into a
network (new code, generated with Python's ``ast``)."""

from __future__ import annotations

import ast
import copy
import itertools
import linecache
import os
import sys
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from ._node import Node, NodeData, NodeType, _is_cell
from ._parser import Parser, _store, parse_construct
from ._values import ScopedValue, ValueType

__all__ = ["SymbolTree", "Position"]

_code_ids = itertools.count()


class Position:
    """Where ``SymbolTree.insert`` puts a node: before or after ``node`` of ``tree``."""

    def __init__(self, tree: SymbolTree, node: NodeData, before: bool) -> None:
        self.tree, self.node, self.before = tree, node, before


def _names_in(value: ScopedValue) -> Iterator[str]:
    if value.type == ValueType.NamingValue and not value.scope:
        yield value.value
    elif value.type in (ValueType.TupleValue, ValueType.ListValue):
        for v in value.value:
            yield from _names_in(v)
    elif value.type == ValueType.DictValue:
        for v in value.value.values():
            yield from _names_in(v)
    elif value.type == ValueType.UnsupportedValue and isinstance(value.value, ast.AST):
        yield from (n.id for n in ast.walk(value.value) if isinstance(n, ast.Name))


def _reads(node: NodeData) -> list[str]:
    names: list[str] = []
    for v in [*node.args, *node.kwargs.values(), node.attributes.get("owner")]:
        if isinstance(v, ScopedValue):
            names.extend(_names_in(v))
    if node.stmt is not None and node.node_type in (NodeType.Python, NodeType.ControlFlow):
        names.extend(n.id for n in ast.walk(node.stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
    return names


class SymbolTree:
    """The nodes of a network's ``construct`` (MindSpore's rewrite): create it with
    :meth:`SymbolTree.create`, read and edit nodes, then :meth:`get_network` makes a new network (a subclass
    of the original class sharing its sub-cells and Parameters) whose ``construct`` is the edited code.

    Args:
        handler: the tree (MindSpore passes its internal tree; here a SymbolTree).
    """

    # set by create (a SymbolTree made from another shares its state)
    _network: Any  # the Cell the tree was made from
    _names: set[str]  # node names taken
    _variables: set[str]  # variable names taken
    _modified: bool
    _saved_file_name: str
    _fdef: ast.FunctionDef  # construct's parsed definition
    _globals: dict[str, Any]  # construct's globals (and closure)
    _nodes: list[NodeData]

    def __init__(self, handler: Any) -> None:
        if isinstance(handler, SymbolTree):
            self.__dict__.update(handler.__dict__)

    # ------------------------------------------------------------------ creation
    @classmethod
    def create(cls, network: Any) -> SymbolTree:
        """The SymbolTree of ``network`` (a Cell; its class's ``construct`` source must be available)."""
        if not _is_cell(network):
            raise TypeError(
                f"For 'SymbolTree', the type of 'network' should be Cell, but got type '{type(network).__name__}'."
            )
        tree = object.__new__(cls)
        tree._network = network
        tree._names = set()
        tree._variables = set()
        tree._modified = False
        tree._saved_file_name = "./network_define.py"
        nodes, tree._fdef, tree._globals = parse_construct(network, tree._unique)
        tree._nodes = []
        for n in nodes:
            tree._adopt(n)
        return tree

    def _unique(self, base: str, variable: bool = False) -> str:
        taken = self._variables if variable else self._names
        name = base
        for i in itertools.count(1):
            if name not in taken and (not variable or name not in self._names):
                break
            name = f"{base}_{i}"
        taken.add(name)
        return name

    def _adopt(self, node: NodeData) -> None:
        node.tree = self
        self._nodes.append(node)
        self._names.add(node.name)
        self._variables.update(t.value for t in node.targets if not t.scope)

    # ------------------------------------------------------------------ reading
    def get_handler(self) -> SymbolTree:
        return self

    def get_origin_network(self) -> Any:
        return self._network

    def nodes(self, all_nodes: bool = False) -> Iterator[Node]:
        """The nodes in order (``all_nodes``: with the nodes of the sub-networks' trees)."""
        for n in list(self._nodes):
            yield Node(n)
            if all_nodes and n.node_type == NodeType.Tree:
                yield from Node(n).get_sub_tree().nodes(all_nodes=True)

    def all_nodes(self, subtree_nodes: bool = True) -> list[Node]:
        return list(self.nodes(all_nodes=subtree_nodes))

    def get_node(self, node_name: str) -> Node | None:
        """The node named ``node_name`` (None if there is none)."""
        for n in self._nodes:
            if n.name == node_name:
                return Node(n)
        return None

    def get_inputs(self) -> list[Node]:
        return [Node(n) for n in self._nodes if n.node_type == NodeType.Input]

    def unique_name(self, name: str = "output") -> str:
        """``name``, or ``name_<n>``: a name no node or variable of this tree has."""
        candidate = name
        for i in itertools.count(1):
            if candidate not in self._names and candidate not in self._variables:
                return candidate
            candidate = f"{name}_{i}"
        raise AssertionError("unreachable")

    def _provider_of(self, node: NodeData, value: ScopedValue) -> tuple[NodeData, int] | None:
        names = list(_names_in(value))
        if len(names) != 1:
            return None
        index = self._nodes.index(node)
        for prev in reversed(self._nodes[:index]):
            for i, t in enumerate(prev.targets):
                if not t.scope and t.value == names[0]:
                    return prev, i
        return None

    def _providers(self, node: NodeData) -> list[NodeData]:
        index = self._nodes.index(node)
        out: list[NodeData] = []
        for name in _reads(node):
            for prev in reversed(self._nodes[:index]):
                if any(not t.scope and t.value == name for t in prev.targets):
                    if prev not in out:
                        out.append(prev)
                    break
        return out

    def _users(self, node: NodeData) -> list[NodeData]:
        return [n for n in self._nodes[self._nodes.index(node) + 1 :] if node in self._providers(n)]

    # ------------------------------------------------------------------ editing
    def _node_of(self, node: Node | str, what: str = "node") -> NodeData:
        if isinstance(node, str):
            found = self.get_node(node)
            if found is None:
                raise RuntimeError(f"For 'SymbolTree', the node '{node}' is not in the tree.")
            return found._node
        if not isinstance(node, Node):
            raise TypeError(
                f"For 'SymbolTree', the type of '{what}' should be one of '['Node', 'str']', but got type "
                f"'{type(node).__name__}'."
            )
        if node._node not in self._nodes:
            raise RuntimeError(f"For 'SymbolTree', the node '{node.get_name()}' is not in the tree.")
        return node._node

    def before(self, node: Node | str) -> Position:
        """The position before ``node`` (for :meth:`insert`)."""
        return Position(self, self._node_of(node), True)

    def after(self, node: Node | str) -> Position:
        """The position after ``node`` (for :meth:`insert`)."""
        return Position(self, self._node_of(node), False)

    def insert(self, position: Position, node: Node) -> Node:
        """Insert ``node`` (made by ``Node.create_*``) at ``position``; its name is made unique."""
        if not isinstance(position, Position) or position.tree is not self:
            raise TypeError(
                "For 'SymbolTree', the 'position' should be one returned by this tree's before() or after()."
            )
        if not isinstance(node, Node):
            raise TypeError(
                f"For 'SymbolTree', the type of 'node' should be Node, but got type '{type(node).__name__}'."
            )
        data = node._node
        if data.tree is not None:
            raise RuntimeError(f"For 'SymbolTree', the node '{data.name}' is already in a tree.")
        if data.node_type == NodeType.Input and not position.before and position.node.node_type != NodeType.Input:
            raise RuntimeError("For 'SymbolTree', an Input node can only be inserted among the inputs.")
        data.name = self._unique(data.name)
        if (
            data.func is not None
            and isinstance(data.func, ScopedValue)
            and data.func.scope == "self"
            and data.instance is not None
        ):
            data.func = ScopedValue.create_naming_value(data.name, "self")
            data.attributes["new_attribute"] = True
        index = self._nodes.index(position.node) + (0 if position.before else 1)
        data.tree = self
        self._nodes.insert(index, data)
        self._variables.update(t.value for t in data.targets if not t.scope)
        self._modified = True
        return node

    def erase(self, node: Node | str) -> Node | None:
        """Remove ``node``; its users then read the same names from earlier nodes."""
        data = self._node_of(node)
        self._nodes.remove(data)
        self._names.discard(data.name)
        data.tree = None
        self._modified = True
        return Node(data)

    def replace(self, old_node: Node, new_nodes: list[Node]) -> Node:
        """Put ``new_nodes`` (in order) where ``old_node`` is; returns the last new node."""
        if not isinstance(new_nodes, list | tuple) or not new_nodes or not all(isinstance(n, Node) for n in new_nodes):
            raise TypeError("For 'SymbolTree', the 'new_nodes' should be a non-empty list of Node.")
        data = self._node_of(old_node, "old_node")
        position = self.before(Node(data))
        for n in new_nodes:
            self.insert(position, n)
        self.erase(Node(data))
        return new_nodes[-1]

    def set_output(self, index: int, return_value: str) -> Node:
        """Make the returned value ``index`` the variable ``return_value``."""
        outputs = [n for n in self._nodes if n.node_type == NodeType.Output]
        if not outputs:
            raise RuntimeError("For 'SymbolTree', the tree has no return.")
        out = Node(outputs[-1])
        out.set_arg(index, return_value)
        return out

    def flatten_static_if_control_flow(self) -> None:
        """Replace each ``if`` whose condition is a constant or an attribute of the network with the branch it
        takes."""
        for data in [n for n in self._nodes if n.node_type == NodeType.ControlFlow and isinstance(n.stmt, ast.If)]:
            self._flatten_if(data)

    def flatten_nodes(self, node: Node, erase_nodes_after_return: bool = False) -> None:
        """Flatten the static ``if`` ``node`` (its taken branch replaces it); with ``erase_nodes_after_return``,
        nodes after a return in that branch are dropped."""
        data = self._node_of(node)
        if data.node_type != NodeType.ControlFlow or not isinstance(data.stmt, ast.If):
            raise TypeError(f"For 'flatten_nodes', the node '{data.name}' is not an if statement.")
        self._flatten_if(data, erase_nodes_after_return, must=True)

    def _flatten_if(self, data: NodeData, erase_after_return: bool = False, must: bool = False) -> None:
        stmt = data.stmt
        if not isinstance(stmt, ast.If):  # (the callers pick if statements)
            return
        test = stmt.test
        if isinstance(test, ast.Constant):
            taken = bool(test.value)
        elif isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name) and test.value.id == "self":
            taken = bool(getattr(self._network, test.attr))
        elif must:
            raise RuntimeError(f"For 'flatten_nodes', the condition of '{data.name}' is not static.")
        else:
            return
        body = stmt.body if taken else stmt.orelse
        new = Parser(self._network, self._globals, self._unique).statements(body)
        if erase_after_return:
            cut = next((i for i, n in enumerate(new) if n.node_type == NodeType.Output), None)
            new = new if cut is None else new[: cut + 1]
        index = self._nodes.index(data)
        self.erase(Node(data))
        for offset, n in enumerate(new):
            n.tree = self
            self._nodes.insert(index + offset, n)
            self._variables.update(t.value for t in n.targets if not t.scope)

    # ------------------------------------------------------------------ code
    def _bind(self, obj: Any, namespace: dict) -> str:
        for key, value in namespace.items():
            if value is obj and key.startswith("_rewrite_obj_"):
                return key
        key = f"_rewrite_obj_{len([k for k in namespace if k.startswith('_rewrite_obj_')])}"
        namespace[key] = obj
        return key

    def _statement(self, n: NodeData, namespace: dict) -> ast.stmt | None:
        bind = lambda obj: self._bind(obj, namespace)  # noqa: E731
        if n.node_type in (NodeType.Python, NodeType.ControlFlow):
            return copy.deepcopy(n.stmt)
        if n.node_type == NodeType.Input:
            return None
        if n.node_type == NodeType.Output:
            elts = [a.to_ast(bind) for a in n.args]
            value = ast.Tuple(elts=elts, ctx=ast.Load()) if n.attributes.get("tuple") or len(elts) != 1 else elts[0]
            return ast.Return(value=value if elts or n.attributes.get("tuple") else None)
        if n.node_type == NodeType.MathOps:
            args = [a.to_ast(bind) for a in n.args]
            kind = n.attributes.get("math")
            if kind == "unaryop":
                expr: ast.expr = ast.UnaryOp(op=n.func, operand=args[0])
            elif kind == "compare":
                expr = ast.Compare(left=args[0], ops=[n.func], comparators=[args[1]])
            elif kind == "boolop":
                expr = ast.BoolOp(op=n.func, values=args)
            else:
                expr = ast.BinOp(left=args[0], op=n.func, right=args[1])
        else:
            func: ast.expr
            if n.node_type == NodeType.CallMethod and "owner" in n.attributes:
                func = ast.Attribute(value=n.attributes["owner"].to_ast(bind), attr=n.func, ctx=ast.Load())
            elif isinstance(n.func, ScopedValue):
                func = n.func.to_ast(bind)
            elif isinstance(n.func, ast.expr):
                func = copy.deepcopy(n.func)
            else:
                func = ast.Name(id=bind(n.func), ctx=ast.Load())
            args = [
                ast.Starred(value=a.value.value, ctx=ast.Load())
                if a.type == ValueType.UnsupportedValue and isinstance(a.value, ast.Starred)
                else a.to_ast(bind)
                for a in n.args
            ]
            keywords = [ast.keyword(arg=None if k == "**" else k, value=v.to_ast(bind)) for k, v in n.kwargs.items()]
            expr = ast.Call(func=func, args=args, keywords=keywords)
        if not n.targets:
            return ast.Expr(value=expr)
        return ast.Assign(targets=[_store(n.targets)], value=expr, lineno=0)

    def _function(self, namespace: dict) -> ast.FunctionDef:
        inputs = [n for n in self._nodes if n.node_type == NodeType.Input]
        plain = [n for n in inputs if "star" not in n.attributes]
        star = {n.attributes["star"]: n for n in inputs if "star" in n.attributes}
        defaults = [n.default.to_ast() for n in plain if n.default is not None]
        args = ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg="self")] + [ast.arg(arg=n.targets[0].value) for n in plain],
            vararg=ast.arg(arg=star["*"].targets[0].value) if "*" in star else None,
            kwonlyargs=[],
            kw_defaults=[],
            kwarg=ast.arg(arg=star["**"].targets[0].value) if "**" in star else None,
            defaults=defaults,
        )
        body = [s for s in (self._statement(n, namespace) for n in self._nodes) if s is not None] or [ast.Pass()]
        fdef = ast.FunctionDef(name="construct", args=args, body=body, decorator_list=[], returns=None)
        if sys.version_info >= (3, 12):  # unparse reads type_params from 3.12
            fdef.type_params = []
        return ast.fix_missing_locations(fdef)

    def _class_name(self) -> str:
        return f"{type(self._network).__name__}Opt"

    def get_code(self) -> str:
        """The source of the rewritten network's class (its ``construct``; the new sub-cells are attributes
        set when the network is made)."""
        namespace: dict = {}
        cls = ast.ClassDef(
            name=self._class_name(),
            bases=[ast.Name(id=type(self._network).__name__, ctx=ast.Load())],
            keywords=[],
            body=[self._function(namespace)],
            decorator_list=[],
        )
        if sys.version_info >= (3, 12):  # unparse reads type_params from 3.12
            cls.type_params = []
        return ast.unparse(ast.fix_missing_locations(cls)) + "\n"

    def get_network(self) -> Any:
        """A new network: an instance of a subclass of the original class, sharing its sub-cells and
        Parameters, with the inserted cells as attributes and the edited ``construct``."""
        namespace = dict(self._globals)
        module = ast.Module(body=[self._function(namespace)], type_ignores=[])
        source = ast.unparse(ast.fix_missing_locations(module)) + "\n"
        filename = f"<sporax rewrite {self._class_name()} {next(_code_ids)}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        exec(compile(source, filename, "exec"), namespace)  # noqa: S102 (the code this tree generated)
        origin = type(self._network)
        new_cls = type(
            self._class_name(), (origin,), {"construct": namespace["construct"], "__module__": origin.__module__}
        )
        net: Any = object.__new__(new_cls)
        net.__dict__.update(self._network.__dict__)
        for key, value in list(net.__dict__.items()):
            if isinstance(value, OrderedDict | dict) and key.startswith("_"):
                net.__dict__[key] = type(value)(value)
        net.__dict__["_compiled"] = None
        for n in self._nodes:
            if n.attributes.get("new_attribute"):
                setattr(net, n.name, n.instance)
            elif n.node_type == NodeType.Tree and n.sub_tree is not None and n.sub_tree._changed():
                attr = n.func.value
                sub_net = n.sub_tree.get_network()
                net.__dict__["_cells"][attr] = sub_net
                if attr in net.__dict__:
                    net.__dict__[attr] = sub_net
        return net

    def _changed(self) -> bool:
        return self._modified or any(n.sub_tree is not None and n.sub_tree._changed() for n in self._nodes)

    # ------------------------------------------------------------------ printing, files
    def print_node_tabulate(self, all_nodes: bool = False) -> None:
        """Print the nodes: type, name, code, arguments, targets."""
        rows = [("node type", "name", "codes", "arg providers", "target users")]
        namespace: dict = {}
        for node in self.nodes(all_nodes=all_nodes):
            n = node._node
            stmt = self._statement(n, namespace)
            code = (
                ast.unparse(ast.fix_missing_locations(stmt)).split("\n")[0] if stmt is not None else n.targets[0].value
            )
            providers = {i: (p.get_name(), o) for i, (p, o) in node.get_arg_providers().items()}
            users = {i: [(u.get_name(), a) for u, a in v] for i, v in node._target_users().items()}
            rows.append((str(n.node_type), n.name, code, str(providers), str(users)))
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())

    def dump(self) -> None:
        """Print the nodes (name, type, targets, arguments)."""
        for n in self._nodes:
            print(f"{n.name}: {n.node_type} targets={[str(t) for t in n.targets]} args={[str(a) for a in n.args]}")

    def set_saved_file_name(self, file_name: str) -> None:
        if not isinstance(file_name, str):
            raise TypeError(
                f"For 'SymbolTree', the type of 'file_name' should be str, but got type '{type(file_name).__name__}'."
            )
        self._saved_file_name = file_name if file_name.endswith(".py") else f"{file_name}.py"

    def get_saved_file_name(self) -> str:
        return self._saved_file_name

    def save_network_to_file(self) -> None:
        """Write :meth:`get_code` to :meth:`get_saved_file_name`."""
        with open(os.path.realpath(self._saved_file_name), "w", encoding="utf-8") as f:
            f.write(self.get_code())
