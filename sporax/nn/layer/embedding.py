"""Embedding layer."""

from __future__ import annotations

from typing import Any

from ... import ops
from ...common import dtype as mstype
from ...common.initializer import Normal, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ..cell import Cell

__all__ = ["Embedding"]


class Embedding(Cell):
    """A lookup table ``embedding_table`` ``[vocab_size, embedding_size]`` indexed by integer ids: the output
    shape is ``ids.shape + (embedding_size,)``.

    Args:
        vocab_size: number of rows.
        embedding_size: size of each row.
        use_one_hot: compute the lookup as a one-hot matmul (same result). Default False.
        embedding_table: initializer of the table. Default 'normal' (sigma 0.01).
        dtype: the dtype of the ids. Default int32.
        padding_idx: a row initialised to zeros. Default None.
    """

    def __init__(
        self,
        vocab_size: int,
        embedding_size: int,
        use_one_hot: bool = False,
        embedding_table: Any = "normal",
        dtype: Any = mstype.int32,
        padding_idx: int | None = None,
    ) -> None:
        super().__init__()
        for name, v in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"For 'Embedding', the '{name}' must be a positive int, but got {v}.")
        if not isinstance(use_one_hot, bool):
            raise TypeError(f"For 'Embedding', the 'use_one_hot' must be a bool, but got {type(use_one_hot).__name__}.")
        if dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'Embedding', the 'dtype' must be int32 or int64, but got {dtype}.")
        self.vocab_size, self.embedding_size, self.use_one_hot, self.dtype = (
            vocab_size,
            embedding_size,
            use_one_hot,
            dtype,
        )
        self.init_tensor = initializer(
            Normal(0.01)
            if isinstance(embedding_table, str) and embedding_table.lower() == "normal"
            else embedding_table,
            [vocab_size, embedding_size],
        )
        self.padding_idx = padding_idx
        if padding_idx is not None:
            if (
                isinstance(padding_idx, bool)
                or not isinstance(padding_idx, int)
                or not -vocab_size <= padding_idx < vocab_size
            ):
                raise ValueError(
                    f"For 'Embedding', the 'padding_idx' must be an int in range [{-vocab_size}, {vocab_size}), "
                    f"but got {padding_idx}."
                )
            arr = self.init_tensor.asnumpy()
            arr[padding_idx] = 0
            self.init_tensor = Tensor(arr)
        self.embedding_table = Parameter(self.init_tensor, name="embedding_table")

    def construct(self, ids: Tensor) -> Tensor:
        if not isinstance(ids, Tensor):
            raise TypeError(f"For 'Embedding', the 'ids' must be a Tensor, but got {type(ids).__name__}.")
        if not isinstance(ids.dtype, mstype.Int):
            raise TypeError(f"For 'Embedding', the dtype of 'ids' must be int32 or int64, but got {ids.dtype}.")
        if self.use_one_hot:
            flat = ops.reshape(ids, (-1,))
            onehot = ops.one_hot(flat, self.vocab_size, 1.0, 0.0)
            out = ops.matmul(ops.cast(onehot, self.embedding_table.dtype), self.embedding_table)
            return ops.reshape(out, (*ids.shape, self.embedding_size))
        return ops.gather(self.embedding_table, ids, 0)

    def extend_repr(self) -> str:
        return (
            f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
            f"embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx={self.padding_idx}"
        )
