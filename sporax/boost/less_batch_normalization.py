"""``LessBN``: fewer BatchNorms in residual blocks, and a normalized last fully-connected layer.

As MindSpore 2.10's ``mindspore.boost.LessBN``: the network is flagged ``less_bn`` (``Cell.set_boost``) and,
with ``fn_flag``, the last ``Dense`` of every cell becomes :class:`CommonHeadLastFN` (L2-normalized input and
weight rows, times a learned scale), keeping the Dense's Parameters and names. MindSpore then removes, in
graph compilation, the BatchNorms of a bottleneck residual branch except the one before the residual
``Add`` (its ``less_bn`` pass). sporax does the same on the cells: :func:`_remove_residual_bn` reads each
flagged cell's ``construct``, follows the branch that flows into the ``+`` back through the child calls, and
where it matches the pattern of MindSpore's pass, those BatchNorm children become ``Identity``.
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
# MindSpore's pass walks back from a residual Add along its first input; per layer its graph has
# TupleGetItem+BatchNorm (one "bn" step here), Conv2D ("conv"), ReLU ("relu"). Its three patterns share the
# first branch below (a bottleneck: bn3 conv3 relu bn2 conv2 relu bn1 conv1 from the Add) and remove the
# BatchNorms at steps 3 and 6 (bn2, bn1); the second branch is a convolution shortcut (bn conv) or the
# block's input (MindSpore asks that input to be the previous block's ReLU, which a cell cannot see).
_FIRST = ["bn", "conv", "relu", "bn", "conv", "relu", "bn", "conv"]
_DROP = (3, 6)
_SHORTCUT = ["bn", "conv"]


def _kind(cell: Any) -> list[str]:
    from ..nn.layer.activation import ReLU
    from ..nn.layer.container import SequentialCell
    from ..nn.layer.conv import Conv2d
    from ..nn.layer.normalization import _BatchNorm

    if isinstance(cell, _BatchNorm):
        return ["bn"]
    if isinstance(cell, Conv2d):
        return ["conv"]
    if isinstance(cell, ReLU):
        return ["relu"]
    if isinstance(cell, SequentialCell):  # a shortcut SequentialCell(conv, bn): its steps, last first
        steps = [_kind(c) for c in reversed(list(cell.cells()))]
        return [k for part in steps for k in part] if all(steps) else []
    return []


def _is_self_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
        and len(node.args) == 1
    )


def _branch(node: ast.AST, assigns: dict, line: int, cell: Cell, args: set) -> tuple[list, bool]:
    """The (kind, child attribute) steps ``node`` flows back through (``self.c(x)`` steps into ``x``, a name
    to its last assignment before ``line``), and whether it ends at an argument of ``construct``."""
    out: list[tuple[str, str]] = []
    for _ in range(64):
        if isinstance(node, ast.Name):
            earlier = [(ln, v) for ln, v in assigns.get(node.id, []) if ln < line]
            if not earlier:
                return out, node.id in args
            line, node = earlier[-1]
            continue
        if _is_self_call(node):
            kinds = _kind(cell._cells.get(node.func.attr))
            if not kinds:
                break
            out += [(k, node.func.attr if len(kinds) == 1 else "") for k in kinds]
            node = node.args[0]
            continue
        break
    return out, False


def _assignments(tree: ast.AST, cell: Cell) -> dict:
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
                known = isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name) and test.value.id == "self"
                flag = bool(getattr(cell, test.attr, False)) if known else None
                visit(stmt.body, live and flag is not False)
                visit(stmt.orelse, live and flag is not True)
            elif isinstance(stmt, (ast.For, ast.While, ast.With)):
                visit(stmt.body, live)

    fn = tree.body[0]
    visit(fn.body, True)
    return assigns


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
    args = {a.arg for a in fn.args.args[1:]}
    assigns = _assignments(tree, cell)
    removed: list[str] = []
    for node in ast.walk(fn):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
            continue
        first, _ = _branch(node.left, assigns, node.lineno, cell, args)
        second, at_input = _branch(node.right, assigns, node.lineno, cell, args)
        second_kinds = [k for k, _ in second]
        if [k for k, _ in first[: len(_FIRST)]] == _FIRST and (
            second_kinds[:2] == _SHORTCUT or (not second and at_input)
        ):
            removed += [first[i][1] for i in _DROP if first[i][1]]
    return removed


def _remove_residual_bn(network: Cell) -> None:
    """Replace the BatchNorms MindSpore's ``less_bn`` pass removes by ``Identity`` (their Parameters go)."""
    from ..nn.layer.basic import Identity

    for _, cell in list(network.cells_and_names()):
        for name in dict.fromkeys(_residual_bn_to_remove(cell)):
            cell._cells[name] = Identity()
            object.__setattr__(cell, name, cell._cells[name])
