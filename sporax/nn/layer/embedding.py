"""Embedding layers: Embedding, EmbeddingExt, EmbeddingLookup, MultiFieldEmbeddingLookup.

Out-of-range indices: eagerly ``Embedding``/``EmbeddingExt`` (and ``EmbeddingLookup`` with ``target='DEVICE'``)
raise MindSpore's ``For 'Gather', the 'input_indices' should be in the range [0, n), but got i.`` naming the
index; ``EmbeddingLookup`` on its default ``target='CPU'`` gives zero rows, as MindSpore's CPU kernel does.
"""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ... import ops
from ...common import dtype as mstype
from ...common.initializer import Normal, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.function import embedding_func
from ..cell import Cell
from .clip import ClipByNorm

__all__ = ["Embedding", "EmbeddingExt", "EmbeddingLookup", "MultiFieldEmbeddingLookup"]

_NUMBER_TYPES = (
    mstype.int8,
    mstype.int16,
    mstype.int32,
    mstype.int64,
    mstype.uint8,
    mstype.uint16,
    mstype.uint32,
    mstype.uint64,
    mstype.float16,
    mstype.float32,
    mstype.float64,
    mstype.bfloat16,
    mstype.complex64,
    mstype.complex128,
)


class Embedding(Cell):
    """A lookup table ``embedding_table`` ``[vocab_size, embedding_size]`` indexed by integer ids: the output
    shape is ``ids.shape + (embedding_size,)``.

    Args:
        vocab_size (int): number of rows.
        embedding_size (int): size of each row.
        use_one_hot (bool): compute the lookup as a one-hot matmul (same result). Default False.
        embedding_table: initializer of the table. Default 'normal' (sigma 0.01).
        dtype: the dtype of the one-hot values (a number type). Default float32.
        padding_idx (int): a row in ``[0, vocab_size)`` initialised to zeros. Default None.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.Embedding(20000, 768, True)
        >>> net(ms.Tensor(np.ones([8, 128]), ms.int32)).shape
        (8, 128, 768)
    """

    def __init__(
        self,
        vocab_size: int,
        embedding_size: int,
        use_one_hot: bool = False,
        embedding_table: Any = "normal",
        dtype: Any = mstype.float32,
        padding_idx: int | None = None,
    ) -> None:
        super().__init__()
        name = self.cls_name
        self.vocab_size = validator.check_value_type("vocab_size", vocab_size, [int], name)
        self.embedding_size = validator.check_value_type("embedding_size", embedding_size, [int], name)
        validator.check_value_type("use_one_hot", use_one_hot, [bool], name)
        validator.check_tensor_dtype_valid("dtype", dtype, _NUMBER_TYPES, name)
        for n, v in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if v < 1:
                raise ValueError(f"For '{name}', the '{n}' must be a positive int, but got {v}.")
        self.use_one_hot, self.dtype = use_one_hot, dtype
        init = embedding_table
        if isinstance(init, str) and init.lower() == "normal":
            init = Normal(0.01)
        self.init_tensor = initializer(init, [vocab_size, embedding_size])
        self.padding_idx = padding_idx
        if padding_idx is not None:
            self.padding_idx = validator.check_int_range(
                padding_idx, 0, vocab_size, validator.INC_LEFT, "padding_idx", name
            )
            arr = self.init_tensor.asnumpy()
            arr[padding_idx] = 0
            self.init_tensor = Tensor(arr)
        self.embedding_table = Parameter(self.init_tensor, name="embedding_table")

    def construct(self, ids: Tensor) -> Tensor:
        validator.check_instance(ids, Tensor, "ids", "Embedding")
        validator.check_dtype_kind("ids", ids.dtype, mstype.Int, "int32 or int64", "Embedding")
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


class EmbeddingExt(Cell):
    """A lookup table ``weight`` ``[num_embeddings, embedding_dim]`` (``ops.embedding``), initialised from
    ``Normal(1, 0)``.

    Args:
        num_embeddings (int), embedding_dim (int): the table's shape.
        padding_idx (int): a row in ``[-num_embeddings, num_embeddings)`` zeroed and without gradient.
        max_norm (float): rows looked up are renormalised to at most this norm (in the table). Default None.
        norm_type (float): the norm's ``p``. Default 2.0.
        scale_grad_by_freq (bool): gradients divided by index frequency. Default False.
        sparse (bool): must be False. _weight (Tensor): an initial table. _freeze (bool): no gradient.
        dtype: table dtype. Default None (float32).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.EmbeddingExt(10, 3)(ms.Tensor(np.array([[1, 2]], np.int32))).shape
        (1, 2, 3)
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Any = None,
        _freeze: bool = False,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        name = self.cls_name
        self.sparse = validator.check_value_type("sparse", sparse, [bool], name)
        if self.sparse:
            raise ValueError("For Embedding, the scenerio, where `sparse` is True, has not be supported.")
        self.num_embeddings = validator.check_value_type("num_embeddings", num_embeddings, [int], name)
        self.embedding_dim = validator.check_value_type("embedding_dim", embedding_dim, [int], name)
        self.dtype = dtype if dtype is not None else mstype.float32
        validator.check_tensor_dtype_valid("dtype", self.dtype, _NUMBER_TYPES, name)
        self.padding_idx = padding_idx
        if _weight is None:
            table = initializer(Normal(1, 0), [num_embeddings, embedding_dim], self.dtype).asnumpy()
            if padding_idx is not None:
                self.padding_idx = validator.check_int_range(
                    padding_idx, -num_embeddings, num_embeddings, validator.INC_LEFT, "padding_idx", name
                )
                table[padding_idx] = 0
            self.weight = Parameter(Tensor(table, self.dtype), name="weight", requires_grad=not _freeze)
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError(
                    "For Embedding, shape of weight should be match with num_embeddings and embedding_dim, but got "
                    f"weight.shape: {tuple(_weight.shape)}, and (num_embeddings, embedding_dim): "
                    f"({num_embeddings}, {embedding_dim})"
                )
            self.weight = Parameter(_weight, name="weight", requires_grad=not _freeze)
        self.max_norm = max_norm
        if max_norm is not None:
            self.max_norm = validator.check_value_type("max_norm", max_norm, [float], name)
        self.norm_type = norm_type
        if norm_type is not None:
            self.norm_type = validator.check_value_type("norm_type", norm_type, [float], name)
        self.scale_grad_by_freq = validator.check_value_type("scale_grad_by_freq", scale_grad_by_freq, [bool], name)

    def construct(self, input: Tensor) -> Tensor:
        return ops.embedding(
            input, self.weight, self.padding_idx, self.max_norm, self.norm_type, self.scale_grad_by_freq
        )

    def extend_repr(self) -> str:
        return (
            f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
            f"padding_idx={self.padding_idx}, max_norm={self.max_norm}, norm_type={self.norm_type}, "
            f"scale_grad_by_freq={self.scale_grad_by_freq}, dtype={self.dtype}"
        )


class EmbeddingLookup(Cell):
    """A lookup table ``embedding_table`` ``[vocab_size, embedding_size]``: rows at ``indices``.

    ``target='CPU'`` (default) looks up as MindSpore's EmbeddingLookup kernel (out-of-range indices give zero
    rows); ``'DEVICE'`` as Gather. ``slice_mode``/``manual_shapes`` are MindSpore's model-parallel sharding
    hints (sporax runs data parallel: they are accepted and have no effect). ``max_norm`` clips each row's
    L2 norm in the output.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.nn.EmbeddingLookup(4, 2)(ms.Tensor(np.array([[1, 0], [3, 2]], np.int32))).shape
        (2, 2, 2)
    """

    BATCH_SLICE = "batch_slice"
    FIELD_SLICE = "field_slice"
    TABLE_ROW_SLICE = "table_row_slice"
    TABLE_COLUMN_SLICE = "table_column_slice"

    def __init__(
        self,
        vocab_size: int,
        embedding_size: int,
        param_init: Any = "normal",
        target: str = "CPU",
        slice_mode: str = "batch_slice",
        manual_shapes: Any = None,
        max_norm: float | None = None,
        sparse: bool = True,
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__()
        name = self.cls_name
        validator.check_value_type("sparse", sparse, [bool], name)
        self.vocab_size = validator.check_positive_int(vocab_size, "vocab_size")
        self.target = target
        self.sparse = sparse
        validator.check_string(target, ["CPU", "DEVICE"], "target", name)
        if not sparse and target == "CPU":
            raise ValueError(
                f"For '{name}', 'sparse' must be True when 'target' is \"CPU\", but got 'sparse': {sparse} and "
                f"'target': {target}"
            )
        self.embedding_size = validator.check_positive_int(embedding_size, "embedding_size", name)
        self.embedding_table = Parameter(
            initializer(param_init, [self.vocab_size, self.embedding_size], dtype=dtype), name="embedding_table"
        )
        self.slice_mode, self.manual_shapes = slice_mode, manual_shapes
        self.forward_unique = False
        self.max_norm = max_norm
        if max_norm is not None:
            self.max_norm = validator.check_positive_float(max_norm, "max_norm", name)

    def _lookup(self, indices: Tensor) -> Tensor:
        validator.check_instance(indices, Tensor, "indices", self.cls_name)
        validator.check_dtype_kind("indices", indices.dtype, mstype.Int, "int32 or int64", self.cls_name)
        if self.target == "CPU":
            out = ops.EmbeddingLookup()(self.embedding_table, indices, 0)
        else:
            out = ops.gather(self.embedding_table, indices, 0)
        if self.max_norm is not None:
            axis = tuple(range(indices.ndim, out.ndim))
            out = ClipByNorm(axis)(out, Tensor(self.max_norm, mstype.float32))
        return out

    def construct(self, indices: Tensor) -> Tensor:
        return self._lookup(indices)


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """Embeddings of sparse multi-field features, merged per field: for each sample, the rows at
    ``input_indices`` ``(B, K)`` are weighted by ``input_values`` ``(B, K)`` and reduced over the entries with
    the same ``field_ids`` by ``operator`` ('SUM', 'MEAN' or 'MAX'). Output ``(B, field_size, embedding_size)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.MultiFieldEmbeddingLookup(10, 2, field_size=2, operator="SUM")
        >>> ids = ms.Tensor(np.array([[2, 4, 6], [6, 7, 9]], np.int32))
        >>> vals = ms.Tensor(np.ones([2, 3], np.float32))
        >>> fields = ms.Tensor(np.array([[0, 1, 1], [1, 0, 1]], np.int32))
        >>> net(ids, vals, fields).shape
        (2, 2, 2)
    """

    OPERATOR_SUM = "SUM"
    OPERATOR_MEAN = "MEAN"
    OPERATOR_MAX = "MAX"

    def __init__(
        self,
        vocab_size: int,
        embedding_size: int,
        field_size: int,
        param_init: Any = "normal",
        target: str = "CPU",
        slice_mode: str = "batch_slice",
        feature_num_list: Any = None,
        max_norm: float | None = None,
        sparse: bool = True,
        operator: str = "SUM",
        dtype: Any = mstype.float32,
    ) -> None:
        super().__init__(
            vocab_size, embedding_size, param_init, target, slice_mode, feature_num_list, max_norm, sparse, dtype=dtype
        )
        self.field_size = validator.check_positive_int(field_size, "field_size", self.cls_name)
        self.operator = operator
        validator.check_string(operator, ["SUM", "MAX", "MEAN"], "operator", self.cls_name)

    # MindSpore's API: MultiFieldEmbeddingLookup is an EmbeddingLookup whose construct takes other inputs
    def construct(self, input_indices: Tensor, input_values: Tensor, field_ids: Tensor) -> Tensor:  # type: ignore[override]
        name = self.cls_name
        for pname, t in (("input_indices", input_indices), ("input_values", input_values), ("field_ids", field_ids)):
            if t.ndim != 2:
                raise ValueError(f"For '{name}', the dimension of '{pname}' must be 2d, but got {t.ndim}")
        validator.check_type_name("input_indices", input_indices.dtype, [mstype.int32, mstype.int64], name)
        validator.check_type_name("input_values", input_values.dtype, [mstype.float32], name)
        validator.check_type_name("field_ids", field_ids.dtype, [mstype.int32], name)
        out = self._lookup(input_indices)
        return embedding_func.field_merge(out, input_values, field_ids, self.field_size, self.operator)
