"""``UntypedStorage``: the bytes behind a Tensor (``Tensor.untyped_storage()``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._tensor_fields import TensorFields
from .tensor import Tensor, _DynamicShape

__all__ = ["UntypedStorage"]


class UntypedStorage:
    """The storage of a Tensor, as bytes (MindSpore's ``UntypedStorage``; made by ``Tensor.untyped_storage()``,
    not directly).

    ``resize_(0)`` releases the Tensor's buffer (XLA frees it once nothing else holds it; the Tensor keeps its
    shape and dtype, holding no data), ``resize_(n)`` gives it a zero-filled buffer again, ``copy_(other)``
    copies another storage's bytes into it: MindSpore's way of offloading a weight between steps.
    """

    _tensor: TensorFields  # the Tensor whose buffer this is
    _shape: tuple[int, ...]
    _np_dtype: np.dtype

    def __init__(self) -> None:
        raise TypeError("cannot create 'UntypedStorage' instances")

    @classmethod
    def _of(cls, tensor: TensorFields) -> UntypedStorage:
        s = object.__new__(cls)
        s._tensor = tensor
        s._shape, s._np_dtype = tuple(tensor.shape), np.dtype(tensor._data.dtype)
        return s

    def _released(self) -> bool:
        return isinstance(self._tensor._data, _DynamicShape)

    def nbytes(self) -> int:
        return 0 if self._released() else int(np.prod(self._shape, dtype=np.int64)) * self._np_dtype.itemsize

    def size(self) -> int:
        return self.nbytes()

    def element_size(self) -> int:
        return 1

    @property
    def dtype(self) -> Any:
        return self._tensor.dtype

    @property
    def device(self) -> str:
        if self._released():
            return "CPU"
        platform = next(iter(self._tensor._data.devices())).platform
        return {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU"}.get(platform, platform.upper())

    def data_ptr(self) -> int:
        return 0 if self._released() else int(self._tensor._data.unsafe_buffer_pointer())

    def is_shared(self) -> bool:
        return False

    def resize_(self, size: int) -> None:
        if size == 0:
            self._tensor._data = _DynamicShape(self._shape, self._tensor.dtype)
            return
        full = int(np.prod(self._shape, dtype=np.int64)) * self._np_dtype.itemsize
        if size != full:
            raise ValueError(
                f"For 'UntypedStorage.resize_', the size must be 0 or {full} (the tensor's bytes), but got {size}."
            )
        self._tensor._data = Tensor(np.zeros(self._shape, self._np_dtype))._data

    def copy_(self, src: UntypedStorage) -> UntypedStorage:
        if not isinstance(src, UntypedStorage):
            raise TypeError(
                f"For 'UntypedStorage.copy_', the 'src' must be an UntypedStorage, but got {type(src).__name__}."
            )
        if src.nbytes() != self.nbytes() and not self._released():
            raise ValueError(f"For 'UntypedStorage.copy_', the sizes differ: {self.nbytes()} and {src.nbytes()}.")
        data = np.asarray(src._tensor._data).tobytes()
        self._tensor._data = Tensor(np.frombuffer(data, self._np_dtype).reshape(self._shape).copy())._data
        return self
