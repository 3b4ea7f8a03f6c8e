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
from .rnns import _check_dtype, _check_is_tensor, _check_is_tuple, _check_tuple_length

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
            self.bias_ih = param((g,), "bias_ih")
            self.bias_hh = param((g,), "bias_hh")
        else:
            self.bias_ih = None
            self.bias_hh = None

    def reset_parameters(self, dtype: Any = mstype.float32) -> None:
        """Draw every parameter again from ``Uniform(1 / sqrt(hidden_size))``."""
        stdv = 1 / math.sqrt(self.hidden_size)
        for weight in self.get_parameters():
            weight.set_data(initializer(Uniform(stdv), weight.shape, dtype))

    def _check_x(self, x: Any, hx_list: list[tuple[str, Any]]) -> None:
        name = self.cls_name
        _check_is_tensor("x", x, name)
        for n, h in hx_list:
            _check_is_tensor(n, h, name)
        _check_dtype("x", x.dtype, name)
        for n, h in hx_list:
            _check_dtype(n, h.dtype, name)
        if x.ndim != 2 or x.shape[1] != self.input_size:
            raise ValueError(
                f"For '{name}', the shape of 'x' must be (batch_size, {self.input_size}), but got {tuple(x.shape)}."
            )
        for n, h in hx_list:
            if tuple(h.shape) != (x.shape[0], self.hidden_size):
                raise ValueError(
                    f"For '{name}', the shape of '{n}' must be ({x.shape[0]}, {self.hidden_size}), "
                    f"but got {tuple(h.shape)}."
                )

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
        self._check_x(x, [("hx", hx)])
        h, _ = self._step("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU", x, hx, None)
        return h


def _check_lstmcell_init(func: Any) -> Any:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if len(args) > 4 or "batch_size" in kwargs or "dropout" in kwargs or "bidirectional" in kwargs:
            raise ValueError(
                "The arguments of `nn.LSTMCell` from old MindSpore version(<1.6) are detected, if you still need "
                "use single LSTM layer, please use `nn.LSTM` instead."
            )
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

    @_check_lstmcell_init
    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True, dtype: Any = mstype.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, num_chunks=4, dtype=dtype)
        self.support_non_tensor_inputs = True

    def construct(self, x: Tensor, hx: Any) -> tuple[Tensor, Tensor]:
        name = self.cls_name
        _check_is_tensor("x", x, name)
        _check_is_tuple("hx", hx, name)
        _check_tuple_length("hx", hx, 2, name)
        self._check_x(x, [("hx[0]", hx[0]), ("hx[1]", hx[1])])
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
        self._check_x(x, [("hx", hx)])
        h, _ = self._step("GRU", x, hx, None)
        return h
