"""Members of MindSpore's ``Parameter`` that come from its C++ tensor: flags, raw bytes, offloading, ``set_``,
``index``, hooks by id (a mixin of :class:`~sporax.common.parameter.Parameter`)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from .._engine import jax
from . import dtype as mstype
from .tensor import Tensor

__all__ = ["ParameterMembers"]


class ParameterMembers:
    """Mixin of :class:`Parameter` (it has a ``__dict__`` for the flags below)."""

    __slots__ = ()

    # An XLA array owns its buffer: a Parameter is never a view of another tensor, and it is filled when made.
    index_of_parent_ = None
    parent_tensor_ = None
    init = None
    init_finished = True
    symbolic_shape = None
    virtual_flag = False

    @property
    def const_arg(self) -> bool:
        """Whether the tensor is a constant of compiled programs (always False for a Parameter)."""
        return False

    @property
    def init_flag(self) -> bool:
        """The flag :meth:`set_init_flag` set (MindSpore: the parameter was initialised in a graph)."""
        return self.__dict__.get("_init_flag", False)

    def set_init_flag(self, flag: bool) -> None:
        self.__dict__["_init_flag"] = bool(flag)

    def set_cast_dtype(self, dtype: Any = None) -> None:
        """Record the dtype the parameter is cast to where it is used (mixed precision); the value keeps its
        dtype, as in MindSpore."""
        self.__dict__["_cast_dtype"] = dtype

    def set_param_info(self, param_info: Any) -> None:
        self._param_info = param_info

    def assign_value_cpp(self, value: Any) -> Any:
        """Assign another tensor's value to this parameter (MindSpore's C++ ``assign_value``)."""
        return self.assign_value(value)

    @staticmethod
    def convert_bytes_to_tensor(bytes_data: bytes, shape: Any, dtype: Any) -> Tensor:
        """A Tensor of ``shape`` and ``dtype`` holding the raw bytes ``bytes_data``."""
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

    def offload(self, file_path: str) -> bool:
        """Write the value's raw bytes to ``file_path`` (``offload_file_path()`` tells where). The XLA buffer
        stays: compiled steps own the parameters' buffers between calls."""
        with open(file_path, "wb") as f:
            f.write(self.get_bytes())
        self.__dict__["_offload_path"] = os.fspath(file_path)
        return True

    def offload_file_path(self) -> str:
        return self.__dict__.get("_offload_path", "")

    def index(self, indices: Any) -> Tensor:
        """Advanced indexing by a tuple of index Tensors, one per leading dimension (``x[i0, i1, ...]``)."""
        if not isinstance(indices, tuple | list) or not all(isinstance(i, Tensor) for i in indices):
            raise TypeError(
                f"index(): argument 'indices' (position 1) must be tuple of Tensor, not {type(indices).__name__}."
            )
        return self[tuple(indices)]

    def set_(self, source: Any = None, storage_offset: int = 0, size: Any = None, stride: Any = None) -> Any:
        """Make the value ``source`` (empty when None); with ``size`` (and ``stride``), the elements of
        ``source``'s flat storage at ``storage_offset + sum(index * stride)``, as PyTorch's ``set_``."""
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
        self._data = Tensor(value)._data
        return self

    def remove_hook(self, handle_id: int) -> None:
        """Remove the gradient hook whose handle has id ``handle_id`` (``register_hook(...).id``)."""
        if not isinstance(handle_id, int) or isinstance(handle_id, bool):
            raise TypeError(f"argument 1 must be int, not {type(handle_id).__name__}")
        hooks = self._param_hooks
        hook = hooks.__dict__.get("ids", {}).pop(handle_id, None) if hooks is not None else None
        if hook is not None and hook in hooks:
            hooks.remove(hook)

    def set_device_address(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError(
            "set_device_address now only support Ascend backend! An XLA buffer cannot adopt a raw device pointer: "
            "exchange device memory with sporax.utils.from_dlpack."
        )
