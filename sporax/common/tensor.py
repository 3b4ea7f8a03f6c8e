"""``Tensor``: a thin, immutable-looking wrapper over a ``jax.Array`` with MindSpore's API.

Construction follows MindSpore's rules: a NumPy float64 array stays Float64, a Python float becomes
Float32, a Python int Int64, a list of floats Float32; ``dtype=`` casts. Arithmetic, methods and
indexing dispatch to :mod:`sporax.ops`, which holds the one implementation of each operation.
Slice assignment (``t[0] = 1``) replaces the wrapped array, so it works on Parameters too, inside
jit and gradients alike.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._engine import concrete, is_tracer, jax, jnp, to_device, traced_text
from . import dtype as mstype
from ._op_registry import ops as _ops
from ._tensor_methods import TensorMethods
from ._tensor_top_methods import TensorTopMethods

__all__ = ["Tensor", "COOTensor", "CSRTensor", "RowTensor", "tensor", "is_tensor", "from_numpy", "frombuffer"]


def _list_to_numpy(data: Any) -> np.ndarray:
    def has_float(x: Any) -> bool:
        if isinstance(x, (list, tuple)):
            return any(has_float(v) for v in x)
        if isinstance(x, Tensor):
            return False
        return isinstance(x, float)

    items = (
        [v.asnumpy() if isinstance(v, Tensor) else v for v in data]
        if any(isinstance(v, Tensor) for v in data)
        else data
    )
    try:
        out = np.asarray(items)
    except ValueError:  # ragged: MindSpore raises TypeError with this message
        out = None
    if out is None or out.dtype == object or out.dtype.kind in "USV":
        raise TypeError(f"For Tensor, the input_data is {data} that contain unsupported element.")
    if out.dtype == np.float64 and has_float(data):
        out = out.astype(np.float32)
    return out


def to_array(data: Any, dtype: Any = None) -> Any:
    """Convert Tensor-constructor input to a jax array, with MindSpore's dtype rules."""
    np_dtype = mstype.to_np(dtype) if dtype is not None else None
    if isinstance(data, Tensor):
        a = data._data
        if type(data) is not Tensor and not is_tracer(a):  # a Parameter: copy, its buffer may be donated
            a = jnp.array(a, copy=True)
        return a if np_dtype is None or a.dtype == np_dtype else a.astype(np_dtype)
    if isinstance(data, jax.Array) or is_tracer(data):
        return data if np_dtype is None or data.dtype == np_dtype else data.astype(np_dtype)
    if isinstance(data, np.ndarray):
        if (
            data.dtype == object
            or data.dtype.kind in "US"
            or (data.dtype.kind == "V" and data.dtype != mstype.bfloat16._np)
        ):
            raise TypeError(f"For 'Tensor', the numpy array's dtype {data.dtype} is not supported.")
        arr = data
    elif isinstance(data, (bool, np.bool_)):
        arr = np.asarray(data, np.bool_)
    elif isinstance(data, np.generic):
        arr = np.asarray(data)
    elif isinstance(data, numbers.Integral):
        arr = np.asarray(data, np.int64)
    elif isinstance(data, numbers.Real):
        arr = np.asarray(data, np.float32)
    elif isinstance(data, numbers.Complex):
        arr = np.asarray(data, np.complex64)
    elif isinstance(data, (list, tuple)):
        arr = _list_to_numpy(data)
    else:
        raise TypeError(
            "For 'Tensor', the type of input_data must be one of Tensor, numpy.ndarray, list, tuple, int, "
            f"float, bool or complex, but got {type(data).__name__}."
        )
    if np_dtype is not None and arr.dtype != np_dtype:
        arr = arr.astype(np_dtype)
    return to_device(arr)


class _DynamicShape:
    """The value of ``Tensor(shape=[None, 3], dtype=...)`` / ``Tensor(shape=None, dtype=...)``: a shape with
    unknown dimensions (-1) or rank (-2) and a dtype, no data (a declaration for ``enable_dynamic`` and
    ``Cell.set_inputs``)."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape: tuple[int, ...], dtype: Any) -> None:
        self.shape = shape
        self.dtype = np.dtype(mstype.to_np(dtype))

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return 0

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        raise ValueError(f"A Tensor of dynamic shape {list(self.shape)} holds no data.")


# >0 while a `_no_grad` context is open (sporax.common._autograd_api): new Tensors are cut from gradients.
GRAD_DISABLED = [0]


class Tensor(TensorMethods, TensorTopMethods):
    """MindSpore's Tensor.

    Args:
        input_data: Tensor, numpy.ndarray, list, tuple, or a Python number.
        dtype: a ``sporax`` dtype (``ms.float32``...). Default: inferred.
        shape: with ``init``, the shape of a lazily initialised tensor.
        init: an ``Initializer`` (or its name) filling a tensor of ``shape``; see :meth:`init_data`.
    """

    __slots__ = ("_data", "__weakref__")
    __array_priority__ = 100

    def __init__(
        self,
        input_data: Any = None,
        dtype: Any = None,
        shape: Any = None,
        init: Any = None,
        internal: bool = False,
        const_arg: bool = False,
        device: Any = None,
    ) -> None:
        if input_data is None:
            if shape is None and dtype is not None and init is None:  # dynamic rank (MindSpore's shape [-2])
                self._data = _DynamicShape((-2,), dtype)
                return
            if shape is None:
                raise ValueError("For 'Tensor', input_data and shape cannot both be None.")
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            if init is None and any(d is None or d == -1 for d in shape):  # dynamic dimensions
                self._data = _DynamicShape(tuple(-1 if d is None else d for d in shape), dtype or mstype.float32)
                return
            if init is None:
                self._data = jnp.zeros(shape, mstype.to_np(dtype or mstype.float32))
                return
            from .initializer import _fill

            self._data = jnp.asarray(_fill(init, shape, dtype or mstype.float32))
            return
        if dtype is not None and not isinstance(dtype, mstype.Type):
            raise TypeError(f"For 'Tensor', the 'dtype' must be a sporax dtype such as ms.float32, but got {dtype!r}.")
        self._data = to_array(input_data, dtype)

    @staticmethod
    def from_numpy(array: Any) -> Tensor:
        """A Tensor holding ``array``'s values and dtype (MindSpore's ``Tensor.from_numpy``).

        MindSpore shares the array's memory; XLA arrays are immutable, so sporax copies: later edits of
        ``array`` do not show in the Tensor."""
        if not isinstance(array, np.ndarray):
            raise TypeError("Expected a NumPy array.")
        return Tensor(array)

    @classmethod
    def _from_data(cls, data: Any) -> Tensor:
        t = object.__new__(Tensor)
        # Inside `_no_grad`, results carry no gradient (MindSpore's PyNative tape is off there).
        t._data = jax.lax.stop_gradient(data) if GRAD_DISABLED[0] and is_tracer(data) else data
        return t

    # ------------------------------------------------------------ attributes
    @property
    def dtype(self) -> mstype.Type:
        return mstype.from_np(self._data.dtype)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._data.shape)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def size(self) -> int:
        return int(self._data.size)

    @property
    def itemsize(self) -> int:
        return self._data.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return int(self._data.size) * self._data.dtype.itemsize

    @property
    def strides(self) -> tuple[int, ...]:
        return (
            np.empty((0,) * 0).strides
            if self.ndim == 0
            else tuple(np.empty(self.shape, np.int8).strides[i] * self.itemsize for i in range(self.ndim))
        )

    @property
    def T(self) -> Tensor:
        return self.transpose()

    @property
    def mT(self) -> Tensor:
        return self.swapaxes(-1, -2)

    def dim(self) -> int:
        return self.ndim

    def numel(self) -> int:
        return self.size

    def nelement(self) -> int:
        return self.size

    def element_size(self) -> int:
        return self.itemsize

    def is_floating_point(self) -> bool:
        return isinstance(self.dtype, mstype.Float)

    def is_complex(self) -> bool:
        return isinstance(self.dtype, mstype.Complex)

    def is_signed(self) -> bool:
        return not isinstance(self.dtype, mstype.UInt) and self.dtype is not mstype.bool_

    def is_contiguous(self) -> bool:
        return True

    def contiguous(self) -> Tensor:
        return self

    def data_ptr(self) -> int:
        return id(self._data)

    @property
    def has_init(self) -> bool:
        return False

    def init_data(self, slice_index: Any = None, shape: Any = None, opt_shard_group: Any = None) -> Tensor:
        return self

    # ------------------------------------------------------------ conversion
    def asnumpy(self) -> np.ndarray:
        """A NumPy copy of the value (writable; the tensor is unaffected by edits)."""
        try:
            return concrete.to_python(self._data, lambda a: np.array(a, copy=True))
        except jax.errors.ConcretizationTypeError:
            raise RuntimeError(
                "For 'asnumpy', the value is not available while the function is being compiled "
                "(GRAPH_MODE / jit). Return the tensor, or run in PYNATIVE_MODE."
            ) from None

    numpy = asnumpy

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        # a host read like asnumpy: it also reads the pending index checks of compiled programs
        a = concrete.to_python(self._data, lambda a: a)
        return a if dtype is None else a.astype(dtype)

    def item(self) -> Any:
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise ValueError(
                f"The tensor should have only one element, but got {self._data.size}, more than one element is "
                "ambiguous."
            )
        return concrete.to_python(self._data, lambda a: a.reshape(()).item())

    def tolist(self) -> Any:
        return self.asnumpy().tolist()

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise ValueError(
                f"The truth value of a Tensor with {self._data.size} elements is ambiguous; use .any() or .all()."
            )
        return concrete.to_python(self._data, lambda a: bool(a.reshape(())))

    def __int__(self) -> int:
        return self._scalar_value("int", int)

    def __float__(self) -> float:
        return self._scalar_value("float", float)

    def __complex__(self) -> complex:
        return self._scalar_value("complex", complex)

    def __index__(self) -> int:
        if not mstype.is_int(self.dtype) and self.dtype is not mstype.bool_:
            raise TypeError(f"Only integer tensors can be used as an index, but got {self.dtype}.")
        return self._scalar_value("index", int)

    def _scalar_value(self, what: str, convert: Any) -> Any:
        if self._data.size != 1:
            raise TypeError(
                f"Only a Tensor with one element can be converted to a Python {what}, but got shape {self.shape}."
            )
        return concrete.to_python(self._data, lambda a: convert(a.reshape(())))

    def __format__(self, spec: str) -> str:
        if spec and self._data.size == 1 and not is_tracer(self._data):
            return format(self.item(), spec)
        return format(str(self), spec)

    def __str__(self) -> str:
        if is_tracer(self._data):
            traced_text()  # a user function printing it under jit is converted to print at run time
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=<traced>)"
        return str(self.asnumpy())

    def __repr__(self) -> str:
        if is_tracer(self._data):
            traced_text()
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=<traced>)"
        value = np.array2string(self.asnumpy(), separator=" ")
        if self.ndim == 0:
            return f"Tensor(shape=[], dtype={self.dtype}, value= {value})"
        if self.ndim == 1:
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value={value})"
        return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=\n{value})"

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of a 0-d Tensor")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d Tensor")
        for i in range(self.shape[0]):
            yield self[i]

    def __hash__(self) -> int:
        return id(self)

    def __reduce__(self):
        return (Tensor, (self.asnumpy(),))

    def __deepcopy__(self, memo: dict) -> Tensor:
        return Tensor._from_data(jnp.array(self._data, copy=True))

    def __copy__(self) -> Tensor:
        return Tensor._from_data(self._data)

    def copy(self) -> Tensor:
        return Tensor._from_data(jnp.array(self._data, copy=True))

    clone = copy

    def value(self) -> Tensor:
        return self.copy()

    def assign_value(self, value: Any) -> Tensor:
        self._data = to_array(value, self.dtype)
        return self

    # ------------------------------------------------------------ operators
    def __add__(self, other):
        return _ops().add(self, other)

    def __radd__(self, other):
        return _ops().add(other, self)

    def __sub__(self, other):
        return _ops().sub(self, other)

    def __rsub__(self, other):
        return _ops().sub(other, self)

    def __mul__(self, other):
        return _ops().mul(self, other)

    def __rmul__(self, other):
        return _ops().mul(other, self)

    def __truediv__(self, other):
        return _ops().div(self, other)

    def __rtruediv__(self, other):
        return _ops().div(other, self)

    def __floordiv__(self, other):
        return _ops().floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _ops().floor_divide(other, self)

    def __mod__(self, other):
        return _ops().remainder(self, other)

    def __rmod__(self, other):
        return _ops().remainder(other, self)

    def __pow__(self, other):
        return _ops().pow(self, other)

    def __rpow__(self, other):
        return _ops().pow(other, self)

    def __matmul__(self, other):
        return _ops().matmul(self, other)

    def __rmatmul__(self, other):
        return _ops().matmul(other, self)

    def __neg__(self):
        return _ops().neg(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _ops().abs(self)

    def __invert__(self):
        return _ops().logical_not(self) if self.dtype is mstype.bool_ else _ops().bitwise_not(self)

    def __and__(self, other):
        return _ops().bitwise_and(self, other)

    def __rand__(self, other):
        return _ops().bitwise_and(other, self)

    def __or__(self, other):
        return _ops().bitwise_or(self, other)

    def __ror__(self, other):
        return _ops().bitwise_or(other, self)

    def __xor__(self, other):
        return _ops().bitwise_xor(self, other)

    def __rxor__(self, other):
        return _ops().bitwise_xor(other, self)

    def __lshift__(self, other):
        return _ops().bitwise_left_shift(self, other)

    def __rshift__(self, other):
        return _ops().bitwise_right_shift(self, other)

    def __eq__(self, other):
        return _ops().equal(self, other)  # type: ignore[override]

    def __ne__(self, other):
        return _ops().not_equal(self, other)  # type: ignore[override]

    def __lt__(self, other):
        return _ops().less(self, other)

    def __le__(self, other):
        return _ops().less_equal(self, other)

    def __gt__(self, other):
        return _ops().greater(self, other)

    def __ge__(self, other):
        return _ops().greater_equal(self, other)

    def __iadd__(self, other):
        return self._inplace(_ops().add(self, other))

    def __isub__(self, other):
        return self._inplace(_ops().sub(self, other))

    def __imul__(self, other):
        return self._inplace(_ops().mul(self, other))

    def __itruediv__(self, other):
        return self._inplace(_ops().div(self, other))

    def _inplace(self, result: Tensor) -> Tensor:
        # MindSpore's `x += y` rebinds for Tensors and updates a Parameter in place.
        if type(self) is Tensor:
            return result
        self._data = result._data.astype(self._data.dtype)
        return self

    # ------------------------------------------------------------ indexing
    def __getitem__(self, index: Any) -> Tensor:
        return _ops().tensor_getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        self._data = _ops().tensor_setitem(self, index, value)._data


jax.tree_util.register_pytree_node(Tensor, lambda t: ((t._data,), None), lambda _, c: Tensor._from_data(c[0]))


def tensor(
    input_data: Any = None,
    dtype: Any = None,
    shape: Any = None,
    init: Any = None,
    const_arg: bool = False,
    device: Any = None,
) -> Tensor:
    """A Tensor (MindSpore's ``mindspore.tensor``); ``device`` is accepted (sporax places arrays by context)."""
    return Tensor(input_data, dtype, shape, init, const_arg=const_arg, device=device)


def frombuffer(buffer: Any, dtype: Any, count: int = -1, offset: int = 0) -> Tensor:
    """A 1-D Tensor of ``dtype`` from ``count`` items (all with -1) of an object with the buffer interface,
    starting ``offset`` bytes in. MindSpore shares the buffer's memory; XLA arrays are immutable, so sporax
    copies."""
    from .._checkparam import ValueRuntimeError

    np_dtype = mstype.to_np(dtype)
    size = memoryview(buffer).nbytes
    if offset < 0 or offset > size:
        raise ValueRuntimeError(
            f"offset ({offset} bytes) must be non-negative and no greater than buffer length ({size} bytes)."
        )
    if count == -1 and (size - offset) % np_dtype.itemsize:
        raise ValueRuntimeError(
            f"buffer length ({size - offset} bytes) after offset ({offset} bytes) must be a multiple of element size "
            f"({np_dtype.itemsize})."
        )
    if count != -1 and (count <= 0 or offset + count * np_dtype.itemsize > size):
        raise ValueRuntimeError(
            f"requested buffer length ({count} * {np_dtype.itemsize} bytes) after offset ({offset} bytes) must not "
            f"be greater than actual buffer length ({size} bytes)."
        )
    return Tensor(np.frombuffer(buffer, np_dtype, count, offset).copy())


def from_numpy(array: Any) -> Tensor:
    """A Tensor from a NumPy array (MindSpore's ``mindspore.from_numpy``); see :meth:`Tensor.from_numpy`."""
    return Tensor.from_numpy(array)


def is_tensor(obj: Any) -> bool:
    return isinstance(obj, Tensor)


# the sparse tensors (they hold Tensors, so they are defined after Tensor)
from ._sparse_tensor import COOTensor, CSRTensor, RowTensor  # noqa: E402
