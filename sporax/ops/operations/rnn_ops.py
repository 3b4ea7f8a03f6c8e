"""Recurrent operator classes: ``ops.LSTM`` (MindSpore's CPU/GPU flat-weight LSTM), ``ops.DynamicRNN``,
``ops.DynamicGRUV2`` and ``ops.BasicLSTMCell`` (MindSpore's Ascend fused-weight forms, here on every backend).
Each runs one ``lax.scan`` per layer (``ops/_lowering/rnn.py``)."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._engine import jnp
from .._lowering import rnn as _rnn
from .._utils import as_tensor_array, wrap
from ..function import rnn_func
from ._primitive import Primitive

__all__ = ["LSTM", "DynamicRNN", "DynamicGRUV2", "BasicLSTMCell"]


class LSTM(Primitive):
    r"""Stacked LSTM over ``(seq_len, batch, input_size)`` with all weights in one flat Tensor ``w`` of shape
    ``(weight_size, 1, 1)``, laid out as MindSpore's CPU kernel reads it: every layer's and direction's
    ``weight_ih`` ``(4H, in)`` (layer-major, forward then reverse), then every ``weight_hh`` ``(4H, H)``, then
    (``has_bias``) every combined bias ``b_ih + b_hh`` ``(4H,)``; gate order ``i, f, g, o``.

    Inputs ``(x, h, c, w)`` with ``h``/``c`` ``(num_layers * num_directions, batch, H)``. Outputs
    ``(output, h_n, c_n, reserve, state)``; ``reserve`` and ``state`` are MindSpore's kernel workspaces, here
    ``(1, 1)`` zeros. (MindSpore's CPU kernel stacks layers with oneDNN, which needs every layer's input size equal
    to ``hidden_size * num_directions``; sporax takes any sizes.)

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> op = ms.ops.LSTM(3, 4, 1, True, False, 0.0)
        >>> x = ms.Tensor(np.ones([5, 2, 3], np.float32))
        >>> h = ms.Tensor(np.zeros([1, 2, 4], np.float32))
        >>> w = ms.Tensor(np.full([16 * 7 + 16, 1, 1], 0.1, np.float32))
        >>> out, hn, cn, _, _ = op(x, h, h, w)
        >>> out.shape
        (5, 2, 4)
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int,
        has_bias: bool,
        bidirectional: bool,
        dropout: float,
        proj_size: int = 0,
    ) -> None:
        super().__init__()
        self.input_size = validator.check_positive_int(input_size, "input_size", self.name)
        self.hidden_size = validator.check_positive_int(hidden_size, "hidden_size", self.name)
        self.num_layers = validator.check_positive_int(num_layers, "num_layers", self.name)
        self.has_bias = validator.check_value_type("has_bias", has_bias, (bool,), self.name)
        self.bidirectional = validator.check_value_type("bidirectional", bidirectional, (bool,), self.name)
        validator.check_value_type("dropout", dropout, [float], self.name)
        self.dropout = validator.check_float_range(dropout, 0, 1, validator.INC_BOTH, "dropout", self.name)
        self.proj_size = validator.check_int_range(
            proj_size, 0, hidden_size, validator.INC_LEFT, "proj_size", self.name
        )
        if proj_size:
            raise ValueError(f"For '{self.name}', 'proj_size' > 0 is not supported by sporax, but got {proj_size}.")
        self.num_directions = 2 if bidirectional else 1
        self.attrs.update(
            input_size=input_size,
            hidden_size=hidden_size,
            num_layers=num_layers,
            has_bias=has_bias,
            bidirectional=bidirectional,
            dropout=dropout,
            proj_size=proj_size,
        )

    def _split(self, w: Any) -> tuple[Any, ...]:
        flat = as_tensor_array(w).reshape(-1)
        g, h, d = 4 * self.hidden_size, self.hidden_size, self.num_directions
        shapes_ih = [
            (g, self.input_size if layer == 0 else h * d) for layer in range(self.num_layers) for _ in range(d)
        ]
        n = len(shapes_ih)
        sizes = [a * b for a, b in shapes_ih] + [g * h] * n + ([g] * n if self.has_bias else [])
        if flat.shape[0] != sum(sizes):
            raise ValueError(
                f"For '{self.name}', the size of 'w' must be {sum(sizes)} for these settings, but got {flat.shape[0]}."
            )
        pieces, pos = [], 0
        for k, size in enumerate(sizes):
            shape = shapes_ih[k] if k < n else ((g, h) if k < 2 * n else (g,))
            pieces.append(wrap(flat[pos : pos + size].reshape(shape)))
            pos += size
        if self.has_bias:
            pieces += [wrap(jnp.zeros((g,), flat.dtype))] * n  # the combined bias is b_ih; b_hh is zero
        return tuple(pieces)

    def __call__(self, x: Any, h: Any, c: Any, w: Any) -> Any:
        a = as_tensor_array(x)
        if a.ndim != 3 or a.shape[2] != self.input_size:
            raise ValueError(
                f"For '{self.name}', the shape of 'x' must be (seq_len, batch, {self.input_size}), "
                f"but got {tuple(a.shape)}."
            )
        want = (self.num_layers * self.num_directions, a.shape[1], self.hidden_size)
        for name, t in (("h", h), ("c", c)):
            if tuple(t.shape) != want:
                raise ValueError(f"For '{self.name}', the shape of '{name}' must be {want}, but got {tuple(t.shape)}.")
        out, h_n, c_n = rnn_func.rnn_stack(
            "LSTM", x, h, c, self._split(w), None, self.num_layers, self.bidirectional, self.has_bias, False,
            float(self.dropout), self.dropout > 0,
        )  # fmt: skip
        empty = wrap(jnp.zeros((1, 1), a.dtype))
        return out, h_n, c_n, empty, empty


class DynamicRNN(Primitive):
    r"""A one-layer LSTM with MindSpore's fused weight (``DynamicRNN``): ``w`` ``(I + H, 4H)`` with gate blocks
    ``i, j, f, o`` (``j`` the candidate), ``b`` ``(4H,)``, ``forget_bias`` added to ``f``, ``cell_clip > 0``
    clipping the cell. Inputs ``(x, w, b, seq_length, init_h, init_c)`` (``seq_length`` None, ``init_h``/``init_c``
    ``(1, B, H)``); outputs ``(y, output_h, output_c, i, j, f, o, tanhct)``, each ``(T, B, H)``.
    MindSpore runs it on Ascend only; sporax on every backend, in the inputs' dtype.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.random.rand(2, 16, 64).astype(np.float16))
        >>> w = ms.Tensor(np.random.rand(96, 128).astype(np.float16))
        >>> b = ms.Tensor(np.random.rand(128).astype(np.float16))
        >>> h = ms.Tensor(np.random.rand(1, 16, 32).astype(np.float16))
        >>> ms.ops.DynamicRNN()(x, w, b, None, h, h)[0].shape
        (2, 16, 32)
    """

    def __init__(
        self,
        cell_type: str = "LSTM",
        direction: str = "UNIDIRECTIONAL",
        cell_depth: int = 1,
        use_peephole: bool = False,
        keep_prob: float = 1.0,
        cell_clip: float = -1.0,
        num_proj: int = 0,
        time_major: bool = True,
        activation: str = "tanh",
        forget_bias: float = 0.0,
        is_training: bool = True,
    ) -> None:
        super().__init__()
        name = self.name
        validator.check_value_type("cell_depth", cell_depth, [int], name)
        validator.check_value_type("num_proj", num_proj, [int], name)
        for n_, v in (("keep_prob", keep_prob), ("cell_clip", cell_clip), ("forget_bias", forget_bias)):
            validator.check_value_type(n_, v, [float], name)
        for n_, v in (("use_peephole", use_peephole), ("time_major", time_major), ("is_training", is_training)):
            validator.check_value_type(n_, v, [bool], name)
        validator.check_string(cell_type, ["LSTM"], "cell_type", name)
        validator.check_string(direction, ["UNIDIRECTIONAL"], "direction", name)
        validator.check_string(activation, ["tanh"], "activation", name)
        if not time_major:
            raise ValueError(f"For '{name}', only 'time_major' True is supported, but got {time_major}.")
        if use_peephole or num_proj:
            raise ValueError(f"For '{name}', 'use_peephole' and 'num_proj' are not supported (as on Ascend).")
        self.cell_clip, self.forget_bias = cell_clip, forget_bias
        self.attrs.update(
            cell_type=cell_type, direction=direction, cell_depth=cell_depth, use_peephole=use_peephole,
            keep_prob=keep_prob, cell_clip=cell_clip, num_proj=num_proj, time_major=time_major,
            activation=activation, forget_bias=forget_bias, is_training=is_training,
        )  # fmt: skip

    def __call__(self, x: Any, w: Any, b: Any, seq_length: Any, init_h: Any, init_c: Any) -> Any:
        if seq_length is not None:
            raise ValueError(f"For '{self.name}', only 'seq_length' None is supported, but got a Tensor.")
        a, wa, ba = as_tensor_array(x), as_tensor_array(w), as_tensor_array(b)
        h0, c0 = as_tensor_array(init_h), as_tensor_array(init_c)
        hdim = wa.shape[1] // 4
        if wa.shape != (a.shape[2] + hdim, 4 * hdim) or ba.shape != (4 * hdim,):
            raise ValueError(
                f"For '{self.name}', 'w' must be (input_size + hidden_size, 4 * hidden_size) and 'b' "
                f"(4 * hidden_size,), but got {tuple(wa.shape)} and {tuple(ba.shape)}."
            )
        outs = _rnn.lstm_gates_sequence(
            a, wa.astype(a.dtype), ba.astype(a.dtype), h0.reshape(h0.shape[-2:]).astype(a.dtype),
            c0.reshape(c0.shape[-2:]).astype(a.dtype), self.forget_bias, self.cell_clip,
        )  # fmt: skip
        h, c, i, j, f, o, tc = (wrap(t.astype(ba.dtype)) for t in outs)
        return h, h, c, i, j, f, o, tc


class DynamicGRUV2(Primitive):
    r"""A one-layer GRU with MindSpore's transposed weights (``DynamicGRUV2``): ``weight_input`` ``(I, 3H)``,
    ``weight_hidden`` ``(H, 3H)``, gate blocks in ``gate_order`` ('rzh' or 'zrh'), the reset gate applied after
    the hidden matmul. Inputs ``(x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, init_h)``
    (``seq_length`` None, ``init_h`` ``(B, H)``); outputs ``(y, output_h, update, reset, new, hidden_new)``,
    each ``(T, B, H)``. MindSpore runs it on Ascend only; sporax on every backend.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.random.rand(2, 8, 64).astype(np.float16))
        >>> wi = ms.Tensor(np.random.rand(64, 48).astype(np.float16))
        >>> wh = ms.Tensor(np.random.rand(16, 48).astype(np.float16))
        >>> h = ms.Tensor(np.random.rand(8, 16).astype(np.float16))
        >>> ms.ops.DynamicGRUV2()(x, wi, wh, None, None, None, h)[0].shape
        (2, 8, 16)
    """

    def __init__(
        self,
        direction: str = "UNIDIRECTIONAL",
        cell_depth: int = 1,
        keep_prob: float = 1.0,
        cell_clip: float = -1.0,
        num_proj: int = 0,
        time_major: bool = True,
        activation: str = "tanh",
        gate_order: str = "rzh",
        reset_after: bool = True,
        is_training: bool = True,
    ) -> None:
        super().__init__()
        name = self.name
        validator.check_value_type("cell_depth", cell_depth, [int], name)
        validator.check_value_type("num_proj", num_proj, [int], name)
        validator.check_value_type("keep_prob", keep_prob, [float], name)
        validator.check_value_type("cell_clip", cell_clip, [float], name)
        for n_, v in (("time_major", time_major), ("reset_after", reset_after), ("is_training", is_training)):
            validator.check_value_type(n_, v, [bool], name)
        validator.check_string(direction, ["UNIDIRECTIONAL"], "direction", name)
        validator.check_string(activation, ["tanh"], "activation", name)
        self.gate_order = validator.check_string(gate_order, ["zrh", "rzh"], "gate_order", name)
        if not time_major or not reset_after or num_proj:
            raise ValueError(f"For '{name}', only time_major=True, reset_after=True and num_proj=0 are supported.")
        self.attrs.update(
            direction=direction, cell_depth=cell_depth, keep_prob=keep_prob, cell_clip=cell_clip, num_proj=num_proj,
            time_major=time_major, activation=activation, gate_order=gate_order, reset_after=reset_after,
            is_training=is_training,
        )  # fmt: skip

    def __call__(
        self, x: Any, weight_input: Any, weight_hidden: Any, bias_input: Any, bias_hidden: Any, seq_length: Any,
        init_h: Any,
    ) -> Any:  # fmt: skip
        if seq_length is not None:
            raise ValueError(f"For '{self.name}', only 'seq_length' None is supported, but got a Tensor.")
        a = as_tensor_array(x)
        h0 = as_tensor_array(init_h)
        out_dt = h0.dtype if bias_input is None else as_tensor_array(bias_input).dtype

        def arr(t: Any) -> Any:
            return None if t is None else as_tensor_array(t).astype(a.dtype)

        outs = _rnn.gru_gates_sequence(
            a, arr(weight_input), arr(weight_hidden), arr(bias_input), arr(bias_hidden), h0.astype(a.dtype),
            self.gate_order,
        )  # fmt: skip
        h, z, r, n, hn = (wrap(t.astype(out_dt)) for t in outs)
        return h, h, z, r, n, hn


class BasicLSTMCell(Primitive):
    r"""One LSTM step with MindSpore's fused weight (``BasicLSTMCell``, deprecated there): ``w`` ``(I + H, 4H)``
    gate blocks ``i, j, f, o``, ``b`` ``(4H,)``, ``forget_bias`` added to ``f``. Inputs ``(x, h, c, w, b)``;
    outputs ``(ct, ht, it, jt, ft, ot, tanhct)``, each ``(B, H)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.random.rand(1, 32).astype(np.float16))
        >>> h = ms.Tensor(np.random.rand(1, 2).astype(np.float16))
        >>> w = ms.Tensor(np.random.rand(34, 8).astype(np.float16))
        >>> b = ms.Tensor(np.random.rand(8).astype(np.float16))
        >>> ms.ops.BasicLSTMCell()(x, h, h, w, b)[0].shape
        (1, 2)
    """

    def __init__(
        self, keep_prob: float = 1.0, forget_bias: float = 1.0, state_is_tuple: bool = True, activation: str = "tanh"
    ) -> None:
        super().__init__()
        name = self.name
        self.keep_prob = validator.check_value_type("keep_prob", keep_prob, [float], name)
        self.keep_prob = validator.check_float_range(keep_prob, 0.0, 1.0, validator.INC_BOTH, "keep_prob", name)
        self.forget_bias = validator.check_value_type("forget_bias", forget_bias, [float], name)
        self.state_is_tuple = validator.check_value_type("state_is_tuple", state_is_tuple, [bool], name)
        self.activation = validator.check_string(activation, ["tanh"], "activation", name)
        self.attrs.update(
            keep_prob=keep_prob, forget_bias=forget_bias, state_is_tuple=state_is_tuple, activation=activation
        )

    def __call__(self, x: Any, h: Any, c: Any, w: Any, b: Any) -> Any:
        a = as_tensor_array(x)
        outs = _rnn.lstm_gates_sequence(
            a[None], as_tensor_array(w).astype(a.dtype), as_tensor_array(b).astype(a.dtype),
            as_tensor_array(h).astype(a.dtype), as_tensor_array(c).astype(a.dtype), self.forget_bias,
        )  # fmt: skip
        ht, ct, it, jt, ft, ot, tc = (wrap(t[0]) for t in outs)
        return ct, ht, it, jt, ft, ot, tc
