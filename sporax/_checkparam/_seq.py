"""The forms of the sequence layers: ``nn.RNN``/``GRU``/``LSTM`` and their cells, the Transformer layers and
multi-head attention (the messages these layers already give, MindSpore's; tests pin them). ``Tensor``, the
dtypes and the activation cells live in upper layers: a check that needs one takes it as an argument."""

from __future__ import annotations

from typing import Any

from ._core import check_tensors_dtypes_same_and_valid


def _type_text(value: Any, tensor_cls: type) -> str:
    if isinstance(value, tensor_cls):
        return f"Tensor[{getattr(value, 'dtype', None)}]"
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, int):
        return "Int64"
    if isinstance(value, float):
        return "Float32"
    return type(value).__name__


def check_rnn_tensor(name: str, value: Any, tensor_cls: type, prim_name: str) -> None:
    """A Tensor input (None passes): ``For 'LSTM', the 'x' must be
    '<class 'mindspore._c_expression.typing.TensorType'>', but got 'Int64'``."""
    if value is not None and not isinstance(value, tensor_cls):
        raise TypeError(
            f"For '{prim_name}', the '{name}' must be '<class 'mindspore._c_expression.typing.TensorType'>', "
            f"but got '{_type_text(value, tensor_cls)}'"
        )


def check_rnn_tuple(name: str, value: Any, tensor_cls: type, prim_name: str) -> None:
    """A tuple input (None passes): ``For 'LSTM', the 'hx' must be '<class
    'mindspore._c_expression.typing.Tuple'>', but got 'Tensor[Float32]'``."""
    if value is not None and not isinstance(value, tuple):
        raise TypeError(
            f"For '{prim_name}', the '{name}' must be '<class 'mindspore._c_expression.typing.Tuple'>', "
            f"but got '{_type_text(value, tensor_cls)}'"
        )


def check_rnn_tuple_length(name: str, value: Any, length: int, prim_name: str) -> None:
    """``For 'LSTM', the length of 'hx' must be '2', but got '1'`` (a TypeError, as MindSpore's)."""
    if value is not None and len(value) != length:
        raise TypeError(f"For '{prim_name}', the length of '{name}' must be '{length}', but got '{len(value)}'")


def check_rnn_float_dtype(name: str, dtype: Any, floats: tuple[Any, ...], prim_name: str) -> None:
    """``dtype`` is one of ``floats`` (float32, float16): ``For 'GRUCell', the 'hx' should be one of
    [mindspore.float32, mindspore.float16], but got 'mindspore.float64'.``"""
    if dtype not in floats:
        raise TypeError(
            f"For '{prim_name}', the '{name}' should be one of [mindspore.float32, mindspore.float16], "
            f"but got 'mindspore.{dtype.name}'."
        )


def check_rnn_inputs(
    x: Any,
    hx: Any,
    seq_length: Any,
    layer: Any,
    tensor_cls: type,
    floats: tuple[Any, ...],
    ints: tuple[Any, ...],
    prim_name: str,
) -> None:
    """``nn.RNN``/``GRU``/``LSTM``'s call inputs against the ``layer`` (its ``input_size``, ``hidden_size``,
    ``num_layers``, ``bidirectional``, ``batch_first``, ``is_lstm``): ``x`` a 3-D Tensor of ``input_size``
    features, ``hx`` (a Tensor, or for LSTM an ``(h, c)`` tuple) of ``x``'s float dtype and shape
    ``(num_directions * num_layers, batch, hidden_size)``, ``seq_length`` an int Tensor of ``batch`` lengths."""
    name = prim_name
    check_rnn_tensor("x", x, tensor_cls, name)
    if x.ndim != 3:
        raise ValueError(f"For '{name}', the dimension of 'x' must be 3, but got {x.ndim}.")
    feat = x.shape[2]
    if feat != layer.input_size:
        raise ValueError(f"For '{name}', the 'x' shape[2] must be {layer.input_size} (input_size), but got {feat}.")
    batch = x.shape[0] if layer.batch_first else x.shape[1]
    want = (layer.num_layers * (2 if layer.bidirectional else 1), batch, layer.hidden_size)
    if hx is not None:
        if not layer.is_lstm:
            check_rnn_tensor("h", hx, tensor_cls, name)
            check_tensors_dtypes_same_and_valid({"x": x.dtype, "hx": hx.dtype}, floats, name)
            states: tuple[tuple[str, Any], ...] = (("hx", hx),)
        else:
            check_rnn_tuple("hx", hx, tensor_cls, name)
            check_rnn_tuple_length("hx", hx, 2, name)
            check_rnn_tensor("hx[0]", hx[0], tensor_cls, name)
            check_rnn_tensor("hx[1]", hx[1], tensor_cls, name)
            check_tensors_dtypes_same_and_valid(
                {"x": x.dtype, "hx[0]": hx[0].dtype, "hx[1]": hx[1].dtype}, floats, name
            )
            states = (("hx[0]", hx[0]), ("hx[1]", hx[1]))
        for sname, s in states:
            if tuple(s.shape) != want:
                raise ValueError(
                    f"For '{name}', the shape of '{sname}' must be {want} (num_directions * num_layers, "
                    f"batch_size, hidden_size), but got {tuple(s.shape)}."
                )
    if seq_length is not None:
        check_rnn_tensor("seq_length", seq_length, tensor_cls, name)
        if seq_length.dtype not in ints:
            raise TypeError(
                f"For '{name}', the 'seq_length' should be one of [mindspore.int32, mindspore.int64], "
                f"but got 'mindspore.{seq_length.dtype.name}'."
            )
        if seq_length.ndim != 1 or seq_length.shape[0] != batch:
            got = seq_length.shape[0] if seq_length.ndim else 0
            raise ValueError(
                f"For '{name}' batch size of x and seq_length must be equal, but got {batch} of x and "
                f"{got} of seq_length."
            )


def check_rnn_cell_inputs(
    x: Any,
    states: list[tuple[str, Any]],
    input_size: int,
    hidden_size: int,
    tensor_cls: type,
    floats: Any,
    prim_name: str,
) -> None:
    """A cell's ``x`` ``(batch, input_size)`` and ``states`` (``[(name, Tensor)]``, each ``(batch, hidden_size)``),
    all Tensors of a float dtype in ``floats``."""
    name = prim_name
    check_rnn_tensor("x", x, tensor_cls, name)
    for n, h in states:
        check_rnn_tensor(n, h, tensor_cls, name)
    check_rnn_float_dtype("x", x.dtype, floats, name)
    for n, h in states:
        check_rnn_float_dtype(n, h.dtype, floats, name)
    if x.ndim != 2 or x.shape[1] != input_size:
        raise ValueError(
            f"For '{name}', the shape of 'x' must be (batch_size, {input_size}), but got {tuple(x.shape)}."
        )
    for n, h in states:
        if tuple(h.shape) != (x.shape[0], hidden_size):
            raise ValueError(
                f"For '{name}', the shape of '{n}' must be ({x.shape[0]}, {hidden_size}), but got {tuple(h.shape)}."
            )


def check_lstmcell_args(n_args: int, kwargs: dict[str, Any]) -> None:
    """``nn.LSTMCell`` called with the arguments of MindSpore < 1.6 (``batch_size``, ``dropout``,
    ``bidirectional``, or more than ``(self, input_size, hidden_size, has_bias)`` by position)."""
    if n_args > 4 or "batch_size" in kwargs or "dropout" in kwargs or "bidirectional" in kwargs:
        raise ValueError(
            "The arguments of `nn.LSTMCell` from old MindSpore version(<1.6) are detected, if you still need "
            "use single LSTM layer, please use `nn.LSTM` instead."
        )


def check_attention_mask_dtype(mask: Any, bool_dtype: Any, float_cls: type, excp_cls: type[Exception]) -> None:
    """A key padding mask is bool or floating (None passes); ``excp_cls`` is the layer's error class."""
    if mask is not None and mask.dtype != bool_dtype and not isinstance(mask.dtype, float_cls):
        raise excp_cls("only bool and floating types of key_padding_mask are supported")


def check_transformer_activation(
    activation: Any, cell_cls: type, cells: tuple[type, ...], fns: tuple[Any, ...]
) -> None:
    """A Transformer layer's activation: ``'relu'``/``'gelu'`` (the name is checked where it is resolved), one of
    the ``cells`` classes' instances, or one of the functions ``fns``."""
    if not isinstance(activation, (str, cell_cls)) and not callable(activation):
        raise ValueError(f"The argument 'activation' must be str, callable or Cell instance, but get {activation}.")
    if isinstance(activation, cell_cls):
        if not isinstance(activation, cells):
            raise ValueError(f"The argument 'activation' must be nn.ReLU or nn.GELU instance, but get {activation}.")
        return
    if callable(activation) and not any(activation is f for f in fns):
        raise ValueError(f"The argument 'activation' must be ops.relu or ops.gelu instance, but get {activation}.")


def check_mha_shapes(query: Any, key: Any, value: Any, key_padding_mask: Any, attn_mask: Any, num_heads: int) -> bool:
    """Multi-head attention's input ranks (batched 3-D or unbatched 2-D, masks to match); returns whether the
    query is batched."""
    qn, kn, vn = query.ndim, key.ndim, value.ndim
    if qn == 3:
        if kn != 3 or vn != 3:
            raise ValueError(
                f"For batched `query`, the `key` and `value` must be 3D tensor, but got `key` with {kn}D and "
                f"`value` with {vn}D."
            )
    elif qn == 2:
        if kn != 2 or vn != 2:
            raise ValueError(
                f"For unbatched `query`, the `key` and `value` must be 2D tensor, but got `key` with {kn}D and "
                f"`value` with {vn}D."
            )
    else:
        raise ValueError(f"The `query` should be unbatched 2D or batched 3D tensor, but got `query` with {qn}D.")
    what = "batched" if qn == 3 else "unbatched"
    if key_padding_mask is not None:
        want = 2 if qn == 3 else 1
        if key_padding_mask.ndim != want:
            raise ValueError(
                f"For {what} `query`, the `key_padding_mask` must be `None` or {want}D, but got "
                f"`key_padding_mask` with {key_padding_mask.ndim}D."
            )
    if attn_mask is not None:
        if attn_mask.ndim not in (2, 3):
            raise ValueError(
                f"For {what} `query`, the `attn_mask` must be `None`, 2-D or 3-D, but got `attn_mask` "
                f"with{attn_mask.ndim}D."
            )
        if qn == 2 and attn_mask.ndim == 3:
            expected = (num_heads, query.shape[0], key.shape[0])
            if tuple(attn_mask.shape) != expected:
                raise ValueError(f"The shape of `attn_mask` must to be {expected}, but got {tuple(attn_mask.shape)}.")
    return qn == 3
