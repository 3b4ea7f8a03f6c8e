"""Stacked recurrent layers: RNN, GRU, LSTM.

Parameters have MindSpore's names, shapes, order and initialiser (``Uniform(1 / sqrt(hidden_size))``):
``weight_ih_l{k}[_reverse]`` ``[G * hidden, in]``, ``weight_hh_l{k}[_reverse]`` ``[G * hidden, hidden]``,
``bias_ih_l{k}[_reverse]``, ``bias_hh_l{k}[_reverse]`` ``[G * hidden]`` held in the ParameterTuples
``w_ih_list``, ``w_hh_list``, ``b_ih_list``, ``b_hh_list``, so checkpoints interchange with MindSpore.
Gate order: LSTM ``i, f, g, o``; GRU ``r, z, n``. Each layer runs as one ``lax.scan`` over time (both
directions of a bidirectional layer in the same scan); see ``ops/_lowering/rnn.py``.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from ... import _checkparam as validator
from ...common import dtype as mstype
from ...common.initializer import Uniform, initializer
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ...ops.function import rnn_func
from ..cell import Cell

__all__ = ["LSTM", "GRU", "RNN"]

_log = logging.getLogger("sporax")
_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}
_FLOATS = (mstype.float32, mstype.float16)


class _RNNBase(Cell):
    """The shared body of RNN/GRU/LSTM (see the module docstring)."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        has_bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        name = self.cls_name
        validator.check_positive_int(hidden_size, "hidden_size", name)
        validator.check_positive_int(input_size, "input_size", name)
        validator.check_positive_int(num_layers, "num_layers", name)
        validator.check_is_float(dropout, "dropout", name)
        validator.check_value_type("has_bias", has_bias, [bool], name)
        validator.check_value_type("batch_first", batch_first, [bool], name)
        validator.check_value_type("bidirectional", bidirectional, [bool], name)
        if not 0 <= dropout < 1:
            raise ValueError(
                f"For '{name}', the 'dropout' must be a number in range [0, 1) representing the probability of "
                f"an element being zeroed, but got {dropout}."
            )
        if dropout > 0 and num_layers == 1:
            _log.warning(
                "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                "num_layers greater than 1, but got dropout=%s and num_layers=%s",
                dropout,
                num_layers,
            )
        if mode not in _GATES:
            raise ValueError(
                f"For '{name}', the 'mode' must be in ['RNN_RELU', 'RNN_TANH', 'LSTM', 'GRU'], but got {mode}."
            )
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.batch_first = batch_first
        self.num_layers = num_layers
        self.dropout = dropout
        self.bidirectional = bidirectional
        self.has_bias = has_bias
        self.is_lstm = mode == "LSTM"
        num_directions = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        stdv = 1 / math.sqrt(hidden_size)
        w_ih, w_hh, b_ih, b_hh = [], [], [], []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else hidden_size * num_directions
                suffix = "_reverse" if direction == 1 else ""

                def param(shape: tuple[int, ...], pname: str) -> Parameter:
                    return Parameter(initializer(Uniform(stdv), shape, dtype), name=pname)

                w_ih.append(param((gate_size, layer_input_size), f"weight_ih_l{layer}{suffix}"))
                w_hh.append(param((gate_size, hidden_size), f"weight_hh_l{layer}{suffix}"))
                if has_bias:
                    b_ih.append(param((gate_size,), f"bias_ih_l{layer}{suffix}"))
                    b_hh.append(param((gate_size,), f"bias_hh_l{layer}{suffix}"))
        self.w_ih_list = ParameterTuple(w_ih)
        self.w_hh_list = ParameterTuple(w_hh)
        self.b_ih_list = ParameterTuple(b_ih)
        self.b_hh_list = ParameterTuple(b_hh)

    def construct(self, x: Tensor, hx: Any = None, seq_length: Tensor | None = None) -> Any:
        validator.check_rnn_inputs(
            x, hx, seq_length, self, Tensor, _FLOATS, (mstype.int32, mstype.int64), self.cls_name
        )
        if hx is None:
            h0 = c0 = None
            batch = x.shape[0] if self.batch_first else x.shape[1]
            shape = (self.num_layers * (2 if self.bidirectional else 1), batch, self.hidden_size)
            from ... import ops

            h0 = ops.zeros(shape, x.dtype)
            c0 = h0 if self.is_lstm else None
        elif self.is_lstm:
            h0, c0 = hx
        else:
            h0, c0 = hx, None
        weights = tuple(self.w_ih_list) + tuple(self.w_hh_list) + tuple(self.b_ih_list) + tuple(self.b_hh_list)
        out, h_n, c_n = rnn_func.rnn_stack(
            self.mode,
            x,
            h0,
            c0,
            weights,
            seq_length,
            self.num_layers,
            self.bidirectional,
            self.has_bias,
            self.batch_first,
            float(self.dropout),
            bool(self.training),
        )
        if self.is_lstm:
            return out, (h_n, c_n)
        return out, h_n


class RNN(_RNNBase):
    r"""Stacked Elman RNN: ``h_t = activation(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)``.

    Args:
        input_size (int): features of the input.
        hidden_size (int): features of the hidden state.
        num_layers (int): stacked layers. Default 1.
        nonlinearity (str): ``'tanh'`` or ``'relu'``. Default ``'tanh'``.
        has_bias (bool): whether there are ``b_ih`` and ``b_hh``. Default True.
        batch_first (bool): ``x`` is ``(batch, seq, feature)``. Default False.
        dropout (float): dropout on the outputs of each layer but the last, in [0, 1). Default 0.
        bidirectional (bool): run a reverse direction too. Default False.
        dtype: parameter dtype. Default float32.

    Inputs:
        - **x** (Tensor) - ``(seq_len, batch, input_size)`` (or batch first), float32 or float16.
        - **hx** (Tensor) - ``(num_directions * num_layers, batch, hidden_size)``. Default zeros.
        - **seq_length** (Tensor) - ``(batch,)`` int32/int64 valid lengths. Default None.

    Outputs:
        ``(output, hx_n)``: ``(seq_len, batch, num_directions * hidden_size)`` and the last states.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.RNN(10, 16, 2, batch_first=True)
        >>> out, hn = net(ms.Tensor(np.ones([3, 5, 10], np.float32)), ms.Tensor(np.ones([2, 3, 16], np.float32)))
        >>> out.shape, hn.shape
        ((3, 5, 16), (2, 3, 16))
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        mode = "RNN_TANH"
        if "nonlinearity" in kwargs:
            nl = kwargs.pop("nonlinearity")
            if nl == "tanh":
                mode = "RNN_TANH"
            elif nl == "relu":
                mode = "RNN_RELU"
            else:
                raise ValueError(f"For 'RNN', the 'nonlinearity' must be in ['tanh', 'relu'], but got {nl}.")
        super().__init__(mode, *args, **kwargs)


class GRU(_RNNBase):
    r"""Stacked GRU: ``r = σ(W_ir x + b_ir + W_hr h + b_hr)``, ``z = σ(...)``,
    ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``, ``h' = (1 - z) * n + z * h``.

    Args, Inputs and Outputs as :class:`RNN` (without ``nonlinearity``).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.GRU(10, 16, 2, batch_first=True)
        >>> out, hn = net(ms.Tensor(np.ones([3, 5, 10], np.float32)))
        >>> out.shape
        (3, 5, 16)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("GRU", *args, **kwargs)


class LSTM(_RNNBase):
    r"""Stacked LSTM: gates ``i, f, g, o`` from ``W_ih x + b_ih + W_hh h + b_hh``; ``c' = f * c + i * g``,
    ``h' = o * tanh(c')``.

    Args as :class:`GRU`. Inputs: ``x``, ``hx = (h_0, c_0)`` (default zeros), ``seq_length``.
    Outputs: ``(output, (h_n, c_n))``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.LSTM(10, 16, 2, batch_first=True, bidirectional=True)
        >>> out, (hn, cn) = net(ms.Tensor(np.ones([3, 5, 10], np.float32)))
        >>> out.shape, hn.shape
        ((3, 5, 32), (4, 3, 16))
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)
