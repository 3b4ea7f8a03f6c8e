"""``nn.GraphCell``: a network loaded from a file (``mindspore.load``), run as a Cell.

A :class:`FuncGraph` is what ``load`` returns: the file's weights (name -> array) and a function running
its program on sporax's operators. ``GraphCell`` turns the weights into Parameters (so ``params_init``,
``parameters_dict`` and checkpoints work on them) and compiles its call like a train-step cell, PyNative
included: the graph was exported from compiled code and has no Python control flow.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..common.parameter import Parameter
from ..common.tensor import Tensor
from .cell import Cell

__all__ = ["FuncGraph", "GraphCell"]


class FuncGraph:
    """A graph loaded from a file (MindSpore's ``FuncGraph`` of a loaded MindIR). Subclasses give the
    weights and the program."""

    def parameters(self) -> list[tuple[str, np.ndarray]]:
        """The graph's weights, (name, value) in the file's order."""
        raise NotImplementedError

    def run(self, params: dict[str, Any], *inputs: Any) -> Any:
        """The graph's outputs for ``inputs``, with ``params`` (name -> Tensor) as its weights."""
        raise NotImplementedError


class GraphCell(Cell):
    """Run a graph loaded by ``load`` (MindIR or sporax's StableHLO) as a Cell.

    Args:
        graph (FuncGraph): the loaded graph.
        params_init (dict): new values of the graph's weights, name -> Tensor or Parameter. Default: ``None``.
        obf_random_seed (int): for MindSpore's dynamic obfuscation, which is not supported. Default: ``None``.
    """

    _auto_jit = True

    def __init__(self, graph: Any, params_init: Any = None, obf_random_seed: Any = None) -> None:
        super().__init__(auto_prefix=True)
        if obf_random_seed is not None:
            raise NotImplementedError("Dynamic structure obfuscation is not supported now.")
        if not isinstance(graph, FuncGraph):
            raise TypeError(
                "For 'GraphCell', the argument 'graph' must be a FuncGraph loaded from MindIR, "
                f"but got type {type(graph)}."
            )
        params_init = {} if params_init is None else params_init
        if not isinstance(params_init, dict):
            raise TypeError(f"For 'GraphCell', the argument 'params_init' must be a dict, but got {type(params_init)}.")
        for name, value in params_init.items():
            if not isinstance(name, str) or not isinstance(value, Tensor):
                raise TypeError(
                    "For 'GraphCell', the key of the 'params_init' must be str, and the value must be Tensor or "
                    f"Parameter, but got the key type: {type(name)}, and the value type: {type(value)}"
                )
        self.graph = graph
        for name, value in graph.parameters():
            new = params_init.get(name)
            if new is not None and tuple(new.shape) != tuple(value.shape):
                raise ValueError(
                    f"For 'GraphCell', the shape of the parameter '{name}' in 'params_init' must be "
                    f"{tuple(value.shape)}, but got {tuple(new.shape)}."
                )
            data = Tensor(new.asnumpy()) if new is not None else Tensor(value)
            self._params[name] = Parameter(data, name=name, requires_grad=False)

    def construct(self, *inputs: Any) -> Any:
        return self.graph.run(dict(self._params), *inputs)
