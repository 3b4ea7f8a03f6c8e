"""Members of MindSpore's C++ tensor (``get_bytes``, ``data_sync``, ``set_``, ``index``, the init and view flags,
``offload``...), a mixin of ``Tensor`` through ``TensorMethods``; ``Parameter`` inherits them.

A flag a method sets lives in a Parameter's ``__dict__``; a plain Tensor (no ``__dict__``: its slots are its
array) keeps its flags in a table entry that goes with the tensor.
"""

from __future__ import annotations

import os
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np

from .._engine import jax
from . import dtype as mstype
from ._op_registry import ops as _ops

if TYPE_CHECKING:
    from .tensor import Tensor

__all__ = ["TensorCppMembers"]

# id(tensor) -> (weak reference to it, its flags), for tensors without a __dict__
_FLAGS: dict[int, tuple[Any, dict[str, Any]]] = {}


class TensorCppMembers:
    """Mixin of :class:`Tensor` (through ``TensorMethods``): the C++ tensor's members."""

    __slots__ = ()

    def _flags(self) -> dict[str, Any]:
        """This tensor's flags: its ``__dict__`` (a Parameter), else its entry in the table."""
        own = getattr(self, "__dict__", None)
        if own is not None:
            return own
        key = id(self)
        entry = _FLAGS.get(key)
        if entry is None or entry[0]() is not self:

            def forget(_: Any, k: int = key) -> None:
                _FLAGS.pop(k, None)

            entry = _FLAGS[key] = (weakref.ref(self, forget), {})
        return entry[1]

    @property
    def init_flag(self) -> bool:
        """The flag :meth:`set_init_flag` set (MindSpore: the tensor was initialised in a graph)."""
        return self._flags().get("_init_flag", False)

    def set_init_flag(self, flag: bool) -> None:
        self._flags()["_init_flag"] = bool(flag)

    def set_cast_dtype(self, dtype: Any = None) -> None:
        """Record the dtype the tensor is cast to where it is used (mixed precision); the value keeps its dtype,
        as in MindSpore."""
        self._flags()["_cast_dtype"] = dtype

    def offload(self, file_path: str) -> bool:
        """Write the value's raw bytes to ``file_path`` (``offload_file_path()`` tells where). The XLA buffer
        stays: compiled steps own the buffers between calls."""
        with open(file_path, "wb") as f:
            f.write(self.get_bytes())
        self._flags()["_offload_path"] = os.fspath(file_path)
        return True

    def offload_file_path(self) -> str:
        return self._flags().get("_offload_path", "")

    # An XLA array owns its buffer: a tensor is never a view of another one, and it is filled when made.
    index_of_parent_ = None
    parent_tensor_ = None
    init = None
    init_finished = True
    symbolic_shape = None
    virtual_flag = False
    delta_seed = 0

    @property
    def _raw(self) -> Any:
        """The stored array (a Parameter's is read without its ``to_float`` cast)."""
        this: Any = self
        return this._data

    def is_init(self) -> bool:
        """Whether the value comes from a lazy initializer still to run (never for a plain Tensor)."""
        return False

    @staticmethod
    def convert_bytes_to_tensor(bytes_data: bytes, shape: Any, dtype: Any) -> Tensor:
        """A Tensor of ``shape`` and ``dtype`` holding the raw bytes ``bytes_data``."""
        from .tensor import Tensor

        arr = np.frombuffer(bytes_data, dtype=mstype.to_np(dtype))
        return Tensor(arr.reshape(tuple(shape)).copy())

    def get_bytes(self) -> bytes:
        """The raw bytes of the value (C order)."""
        return np.ascontiguousarray(np.asarray(self._raw)).tobytes()

    def data_sync(self, wait: bool = True) -> None:
        """Wait for the computations producing the value to finish."""
        if wait:
            jax.block_until_ready(self._raw)

    def wait_pipeline(self) -> None:
        """Wait for the pending computations on this tensor."""
        jax.block_until_ready(self._raw)

    def assign_value_cpp(self, value: Any) -> Any:
        """Assign another tensor's value to this one (MindSpore's C++ ``assign_value``); returns it."""
        this: Any = self
        return this.assign_value(value)

    def index(self, indices: Any) -> Tensor:
        """Advanced indexing by a tuple of index Tensors, one per leading dimension (``x[i0, i1, ...]``)."""
        from .tensor import Tensor

        if not isinstance(indices, tuple | list) or not all(isinstance(i, Tensor) for i in indices):
            raise TypeError(
                f"index(): argument 'indices' (position 1) must be tuple of Tensor, not {type(indices).__name__}."
            )
        this: Any = self
        return this[tuple(indices)]

    def set_(self, source: Any = None, storage_offset: int = 0, size: Any = None, stride: Any = None) -> Any:
        """Make the value ``source`` (empty when None); with ``size`` (and ``stride``), the elements of
        ``source``'s flat storage at ``storage_offset + sum(index * stride)``, as PyTorch's ``set_``."""
        from .tensor import Tensor

        if source is None:
            value = np.zeros((0,), np.asarray(self._raw).dtype)
        else:
            flat = np.asarray(source.asnumpy() if isinstance(source, Tensor) else source).reshape(-1)
            if size is None:
                value = (
                    flat[storage_offset:].reshape(tuple(source.shape)) if storage_offset == 0 else flat[storage_offset:]
                )
            else:
                size = tuple(size)
                if stride is None:
                    stride = tuple(int(np.prod(size[i + 1 :], dtype=np.int64)) for i in range(len(size)))
                grid = np.indices(size).reshape(len(size), -1) if size else np.zeros((0, 1), np.int64)
                idx = storage_offset + (np.asarray(stride, np.int64)[:, None] * grid).sum(axis=0)
                value = flat[idx].reshape(size)
        this: Any = self
        this._data = Tensor(value)._data
        return self

    def set_device_address(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError(
            "set_device_address now only support Ascend backend! An XLA buffer cannot adopt a raw device pointer: "
            "exchange device memory with sporax.utils.from_dlpack."
        )

    def to_coo(self) -> Any:
        """The nonzero entries as a COOTensor (Int32 indices, as MindSpore's)."""
        coo = _ops().dense_to_sparse_coo(self)
        return type(coo)(coo.indices.astype(mstype.int32), coo.values, coo.shape)

    def to_csr(self) -> Any:
        """The nonzero entries of a 2-D tensor as a CSRTensor."""
        return _ops().dense_to_sparse_csr(self)
