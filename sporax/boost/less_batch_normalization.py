"""``LessBN``: fewer BatchNorms in residual blocks, and a normalized last fully-connected layer.

As MindSpore 2.10's ``mindspore.boost.LessBN``: the network is flagged ``less_bn`` (``Cell.set_boost``) and,
with ``fn_flag``, the last ``Dense`` of every cell becomes :class:`CommonHeadLastFN` (L2-normalized input and
weight rows, times a learned scale), keeping the Dense's Parameters and names. MindSpore then removes, in
graph compilation, BatchNorms of residual blocks (its ``less_bn`` pass: in a cell's graph, at an ``Add`` whose
two branches match one of its ResNet patterns, e.g. the first bottleneck of a stage loses bn1, bn2 and the
shortcut's BatchNorm). sporax does the same on the cells: :func:`_remove_residual_bn` reads each cell's
``construct``, walks both branches of each ``+`` back through the child calls as the pass walks the graph,
and the BatchNorms the matching pattern removes become ``Identity`` (checked against MindSpore 2.10's
outputs). MindSpore's MobileNet/DenseNet patterns are not carried over.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

import numpy as np

from .. import ops
from ..common import dtype as mstype
from ..common.initializer import initializer
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..nn.cell import Cell
from ..nn.layer import Dense

__all__ = ["CommonHeadLastFN", "LessBN"]


class CommonHeadLastFN(Cell):
    """The normalized head: ``multiplier * (l2norm(x, 1) @ l2norm(weight, 1).T + bias)``."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        weight_init: Any = "normal",
        bias_init: Any = "zeros",
        has_bias: bool = True,
    ) -> None:
        super().__init__()
        self.weight = Parameter(
            initializer(weight_init, [out_channels, in_channels]), requires_grad=True, name="weight"
        )
        self.x_norm = ops.L2Normalize(axis=1)
        self.w_norm = ops.L2Normalize(axis=1)
        self.fc = ops.MatMul(transpose_a=False, transpose_b=True)
        self.multiplier = Parameter(Tensor(np.ones([1]), mstype.float32), requires_grad=True, name="multiplier")
        self.has_bias = has_bias
        if has_bias:
            self.bias_add = ops.BiasAdd()
            self.bias = Parameter(initializer(bias_init, [out_channels]), requires_grad=True, name="bias")

    def construct(self, x: Any) -> Any:
        x = self.fc(self.x_norm(x), self.w_norm(self.weight))
        if self.has_bias:
            x = self.bias_add(x, self.bias)
        return self.multiplier * x


class LessBN(Cell):
    """Wrap ``network`` for the less-BatchNorm boost.

    Args:
        network (Cell): the network.
        fn_flag (bool): replace the last ``Dense`` of each cell by :class:`CommonHeadLastFN`. Default False.
    """

    def __init__(self, network: Cell, fn_flag: bool = False) -> None:
        super().__init__()
        self.network = network
        if "less_bn" not in self.network.get_flags():
            self.network.set_boost("less_bn")
            self.network.update_cell_prefix()
            if fn_flag:
                self._convert_to_less_bn_net(self.network)
            _remove_residual_bn(self.network)
            self.network.add_flags(defer_inline=True)

    @staticmethod
    def _convert_dense(subcell: Dense) -> CommonHeadLastFN:
        new = CommonHeadLastFN(subcell.in_channels, subcell.out_channels, subcell.weight, subcell.bias, False)
        new.update_parameters_name(subcell.param_prefix + ".")
        return new

    def construct(self, *inputs: Any) -> Any:
        return self.network(*inputs)

    def _convert_to_less_bn_net(self, net: Cell) -> None:
        dense_name, dense_list = [], []
        for name, subcell in net.name_cells().items():
            if subcell is net:
                continue
            if isinstance(subcell, Dense):
                dense_name.append(name)
                dense_list.append(subcell)
            else:
                self._convert_to_less_bn_net(subcell)
        if dense_list:
            net.insert_child_to_cell(dense_name[-1], LessBN._convert_dense(dense_list[-1]))


# ----------------------------------------------------------------------------- the residual-branch pass
# MindSpore's pass looks at each cell's graph: at an ``Add`` of two computed values it walks each input
# back along first inputs. A BatchNorm layer is two graph nodes (BatchNorm and the TupleGetItem of its
# output: "G", "B"), a Conv2d one ("C"), ReLU "R", MaxPool "M"; a value that is an argument of the cell
# ends the walk. Each pattern gives, per branch, how many nodes must match (its kinds repeat cyclically)
# and which node positions (counted over both branches) are removed; only BatchNorms are removed.
_PATTERNS = (
    # residual block, convolution shortcut
    ((12, "GBCR", (4, 11)), (3, "GBC", (12, 14))),
    # residual block, ReLU shortcut
    ((12, "GBCR", (4, 11)), (1, "R", (12, 2))),
    # the first residual block of a stage (its first convolution reads the cell's input)
    ((11, "GBCRGBCRGBC", (4, 10)), (3, "GBC", (11, 13))),
    # basic block, convolution shortcut
    ((8, "GBCR", (4, 6)), (3, "GBC", (8, 11))),
    # the first basic block after a max-pool
    ((7, "GBCRGBC", (4, 6)), (1, "M", (7, 10))),
    # basic block, ReLU shortcut
    ((8, "GBCR", (4, 6)), (1, "R", (8, 11))),
)


def _kind(cell: Any) -> list[tuple[str, str]]:
    """The graph nodes of a call of ``cell``, last first, each with the path (below ``cell``) of the
    BatchNorm it belongs to ([] when the walk cannot go through it)."""
    from ..nn.layer.activation import ReLU
    from ..nn.layer.container import SequentialCell
    from ..nn.layer.conv import Conv2d
    from ..nn.layer.normalization import _BatchNorm
    from ..nn.layer.pooling import MaxPool2d

    if isinstance(cell, _BatchNorm):
        return [("G", ""), ("B", "")]
    for cls, kind in ((Conv2d, "C"), (ReLU, "R"), (MaxPool2d, "M")):
        if isinstance(cell, cls):
            return [(kind, "")]
    if isinstance(cell, SequentialCell):  # its layers, last first (inlined into the caller's graph)
        out = []
        for name, child in reversed(list(cell.name_cells().items())):
            part = _kind(child)
            if not part:
                return []
            out += [(k, name + ("." + sub if sub else "")) if k == "B" else (k, "") for k, sub in part]
        return out
    return []


def _self_call(node: ast.AST) -> tuple[str, ast.expr] | None:
    """(attribute, argument) of a ``self.<attr>(x)`` call; None for another node."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
        and len(node.args) == 1
    ):
        return node.func.attr, node.args[0]
    return None


def _branch(node: ast.AST, assigns: dict, line: int, cell: Cell) -> list[tuple[str, str]]:
    """The (node kind, child attribute of a BatchNorm) of the graph nodes ``node`` flows back through
    (``self.c(x)`` steps into ``x``, a name to its last assignment before ``line``)."""
    out: list[tuple[str, str]] = []
    for _ in range(64):
        if isinstance(node, ast.Name):
            earlier = [(ln, v) for ln, v in assigns.get(node.id, []) if ln < line]
            if not earlier:
                break  # an argument of the cell (not a node of its graph)
            line, node = earlier[-1]
            continue
        call = _self_call(node)
        if call is not None:
            attr, node = call
            kinds = _kind(cell._cells.get(attr))
            if not kinds:
                out.append(("?", ""))
                break
            out += [(k, attr + ("." + sub if sub else "")) if k == "B" else (k, "") for k, sub in kinds]
            continue
        out.append(("?", ""))
        break
    return out


def _assignments(fn: ast.FunctionDef, cell: Cell) -> dict:
    """{name: [(line, value)]} of ``construct``'s assignments, leaving out those under an
    ``if self.<flag>:`` whose flag is False on this cell (MindSpore resolves those when it compiles)."""
    assigns: dict[str, list] = {}

    def visit(body: list, live: bool) -> None:
        for stmt in body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                if live:
                    assigns.setdefault(stmt.targets[0].id, []).append((stmt.lineno, stmt.value))
            elif isinstance(stmt, ast.If):
                test = stmt.test
                flag = None  # unknown: both branches may run
                if isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name) and test.value.id == "self":
                    flag = bool(getattr(cell, test.attr, False))
                visit(stmt.body, live and flag is not False)
                visit(stmt.orelse, live and flag is not True)
            elif isinstance(stmt, (ast.For, ast.While, ast.With)):
                visit(stmt.body, live)

    visit(fn.body, True)
    return assigns


def _match(first: list, second: list) -> list[str]:
    """The BatchNorm attributes the first matching pattern removes ([] when none matches)."""
    for (n1, kinds1, range1), (n2, kinds2, range2) in _PATTERNS:
        if len(first) < n1 or len(second) < n2:
            continue
        if any(first[i][0] != kinds1[i % len(kinds1)] for i in range(n1)):
            continue
        if any(second[i][0] != kinds2[i % len(kinds2)] for i in range(n2)):
            continue
        nodes = [(i, first[i]) for i in range(n1)] + [(n1 + i, second[i]) for i in range(n2)]
        out = []
        for pos, (kind, name) in nodes:
            lo, hi = range1 if pos < n1 else range2
            if kind == "B" and name and lo <= pos <= hi:
                out.append(name)
        return out
    return []


def _residual_bn_to_remove(cell: Cell) -> list[str]:
    """The BatchNorm children of ``cell`` that MindSpore's pass removes (read from its ``construct``)."""
    if type(cell).construct is Cell.construct:
        return []
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(type(cell).construct)))
    except (OSError, TypeError, SyntaxError):
        return []
    fn = tree.body[0]
    if not isinstance(fn, ast.FunctionDef):
        return []
    assigns = _assignments(fn, cell)
    removed: list[str] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            removed += _match(
                _branch(node.left, assigns, node.lineno, cell), _branch(node.right, assigns, node.lineno, cell)
            )
    return removed


def _remove_residual_bn(network: Cell) -> None:
    """Replace the BatchNorms MindSpore's ``less_bn`` pass removes by ``Identity`` (their Parameters go)."""
    from ..nn.layer.basic import Identity
    from ..nn.layer.container import SequentialCell

    for _, cell in list(network.cells_and_names()):
        for path in dict.fromkeys(_residual_bn_to_remove(cell)):
            parent_path, _, name = path.rpartition(".")
            parent = cell.get_sub_cell(parent_path) if parent_path else cell
            if isinstance(parent, SequentialCell):
                parent[list(parent.name_cells()).index(name)] = Identity()
            else:
                parent._cells[name] = Identity()
                object.__setattr__(parent, name, parent._cells[name])
