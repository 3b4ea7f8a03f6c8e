"""Single recurrent cells: RNNCell, GRUCell, LSTMCell (one time step; MindSpore's parameter names
``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh`` and initialiser ``Uniform(1 / sqrt(hidden_size))``)."""

from __future__ import annotations

import functools
import logging
import math
from typing import Any

from ... import _checkparam as validator
from ...common import dtype as mstype
from ...common.initializer import Uniform, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.function import rnn_func
from ..cell import Cell
from .rnns import _FLOATS

__all__ = ["LSTMCell", "GRUCell", "RNNCell"]

_log = logging.getLogger("sporax")


class RNNCellBase(Cell):
    """Parameters and checks shared by the cells."""

    def __init__(
        self, input_size: int, hidden_size: int, has_bias: bool, num_chunks: int, dtype: Any = mstype.float32
    ) -> None:
        super().__init__()
        validator.check_value_type("has_bias", has_bias, [bool], self.cls_name)
        validator.check_positive_int(hidden_size, "hidden_size", self.cls_name)
        validator.check_positive_int(input_size, "input_size", self.cls_name)
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.has_bias = has_bias
        g = num_chunks * hidden_size
        stdv = 1 / math.sqrt(hidden_size)

        def param(shape: tuple[int, ...], name: str) -> Parameter:
            return Parameter(initializer(Uniform(stdv), shape, dtype), name=name)

        self.weight_ih = param((g, input_size), "weight_ih")
        self.weight_hh = param((g, hidden_size), "weight_hh")
        if has_bias:
            self.bias_ih: Parameter | None = param((g,), "bias_ih")
            self.bias_hh: Parameter | None = param((g,), "bias_hh")
        else:
            self.bias_ih = None
            self.bias_hh = None

    def reset_parameters(self, dtype: Any = mstype.float32) -> None:
        """Draw every parameter again from ``Uniform(1 / sqrt(hidden_size))``."""
        stdv = 1 / math.sqrt(self.hidden_size)
        for weight in self.get_parameters():
            weight.set_data(initializer(Uniform(stdv), weight.shape, dtype))

    def _step(self, mode: str, x: Tensor, h: Tensor, c: Tensor | None) -> Any:
        return rnn_func.rnn_cell(mode, x, h, c, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)


class RNNCell(RNNCellBase):
    r"""One Elman RNN step: ``h' = nonlinearity(W_ih x + b_ih + W_hh h + b_hh)``.

    Args:
        input_size (int): features of ``x``.
        hidden_size (int): features of ``hx``.
        has_bias (bool): whether there are ``bias_ih``/``bias_hh``. Default True.
        nonlinearity (str): ``'tanh'`` or ``'relu'``. Default ``'tanh'``.
        dtype: parameter dtype. Default float32.

    Inputs:
        - **x** (Tensor) - ``(batch_size, input_size)``.
        - **hx** (Tensor) - ``(batch_size, hidden_size)``.

    Outputs:
        ``hx'`` ``(batch_size, hidden_size)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> cell = ms.nn.RNNCell(10, 16)
        >>> cell(ms.Tensor(np.ones([3, 10], np.float32)), ms.Tensor(np.ones([3, 16], np.float32))).shape
        (3, 16)
    """

    _non_linearity = ["tanh", "relu"]

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        has_bias: bool = True,
        nonlinearity: str = "tanh",
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__(input_size, hidden_size, has_bias, num_chunks=1, dtype=dtype)
        validator.check_value_type("nonlinearity", nonlinearity, [str], self.cls_name)
        validator.check_string(nonlinearity, self._non_linearity, "nonlinearity", self.cls_name)
        self.nonlinearity = nonlinearity

    def construct(self, x: Tensor, hx: Tensor) -> Tensor:
        validator.check_rnn_cell_inputs(
            x, [("hx", hx)], self.input_size, self.hidden_size, Tensor, _FLOATS, self.cls_name
        )
        h, _ = self._step("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU", x, hx, None)
        return h


def _reject_old_arguments(func: Any) -> Any:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        validator.check_lstmcell_args(len(args), kwargs)
        return func(*args, **kwargs)

    return wrapper


class LSTMCell(RNNCellBase):
    r"""One LSTM step: gates ``i, f, g, o``; ``c' = f * c + i * g``, ``h' = o * tanh(c')``.

    Args:
        input_size (int): features of ``x``.
        hidden_size (int): features of the state.
        has_bias (bool): whether there are ``bias_ih``/``bias_hh``. Default True.
        dtype: parameter dtype. Default float32.

    Inputs:
        - **x** (Tensor) - ``(batch_size, input_size)``.
        - **hx** (tuple) - ``(h, c)``, each ``(batch_size, hidden_size)``.

    Outputs:
        ``(h', c')``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> cell = ms.nn.LSTMCell(10, 16)
        >>> h = ms.Tensor(np.ones([3, 16], np.float32))
        >>> hy, cy = cell(ms.Tensor(np.ones([3, 10], np.float32)), (h, h))
        >>> hy.shape
        (3, 16)
    """

    @_reject_old_arguments
    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True, dtype: Any = mstype.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, num_chunks=4, dtype=dtype)
        self.support_non_tensor_inputs = True

    def construct(self, x: Tensor, hx: Any) -> tuple[Tensor, Tensor]:
        name = self.cls_name
        validator.check_rnn_tensor("x", x, Tensor, name)
        validator.check_rnn_tuple("hx", hx, Tensor, name)
        validator.check_rnn_tuple_length("hx", hx, 2, name)
        validator.check_rnn_cell_inputs(
            x, [("hx[0]", hx[0]), ("hx[1]", hx[1])], self.input_size, self.hidden_size, Tensor, _FLOATS, self.cls_name
        )
        return self._step("LSTM", x, hx[0], hx[1])


class GRUCell(RNNCellBase):
    r"""One GRU step: ``r, z = σ(...)``, ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``,
    ``h' = n + z * (h - n)``.

    Args, Inputs and Outputs as :class:`RNNCell` (without ``nonlinearity``).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> cell = ms.nn.GRUCell(10, 16)
        >>> cell(ms.Tensor(np.ones([3, 10], np.float32)), ms.Tensor(np.ones([3, 16], np.float32))).shape
        (3, 16)
    """

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True, dtype: Any = mstype.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, num_chunks=3, dtype=dtype)

    def construct(self, x: Tensor, hx: Tensor) -> Tensor:
        validator.check_rnn_cell_inputs(
            x, [("hx", hx)], self.input_size, self.hidden_size, Tensor, _FLOATS, self.cls_name
        )
        h, _ = self._step("GRU", x, hx, None)
        return h
