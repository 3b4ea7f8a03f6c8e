"""Array creation of ``mindspore.numpy`` (float32 and int32 by default), on ``sporax.ops``."""

from __future__ import annotations

import math as _math

import numpy as _np

from .. import ops
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._utils import _float, _t


def _shape(shape):
    if isinstance(shape, int):
        return (shape,)
    if isinstance(shape, Tensor):
        return tuple(int(v) for v in shape.asnumpy().reshape(-1))
    return tuple(int(s) for s in shape)


def array(obj, dtype=None, copy=True, ndmin=0):
    """A Tensor from array-like data (``numpy.array``)."""
    out = _t(obj, dtype)
    if copy and isinstance(obj, Tensor):
        out = out.copy()
    while out.ndim < ndmin:
        out = ops.expand_dims(out, 0)
    return out


def asarray(a, dtype=None):
    """``numpy.asarray``: Tensors pass through."""
    return _t(a, dtype)


def asfarray(a, dtype=mstype.float32):
    """``numpy.asfarray``: a float Tensor (integer dtypes become float32)."""
    if dtype not in (mstype.float16, mstype.float32, mstype.float64):
        dtype = mstype.float32
    return _t(a, dtype)


def zeros(shape, dtype=mstype.float32):
    """``numpy.zeros``."""
    return ops.zeros(_shape(shape), dtype)


def ones(shape, dtype=mstype.float32):
    """``numpy.ones``."""
    return ops.ones(_shape(shape), dtype)


def empty(shape, dtype=mstype.float32):
    """``numpy.empty``: XLA has no uninitialised memory, so it is zeros."""
    return ops.zeros(_shape(shape), dtype)


def full(shape, fill_value, dtype=None):
    """``numpy.full``."""
    if dtype is None:
        dtype = fill_value.dtype if isinstance(fill_value, Tensor) else _t(fill_value).dtype
    if isinstance(fill_value, Tensor | list | tuple):
        return ops.broadcast_to(_t(fill_value, dtype), _shape(shape))
    return ops.full(_shape(shape), fill_value, dtype=dtype)


def _like(a, shape, dtype):
    a = _t(a)
    return (a.shape if shape is None else _shape(shape)), (a.dtype if dtype is None else dtype)


def zeros_like(a, dtype=None, shape=None):
    """``numpy.zeros_like``."""
    s, d = _like(a, shape, dtype)
    return ops.zeros(s, d)


def ones_like(a, dtype=None, shape=None):
    """``numpy.ones_like``."""
    s, d = _like(a, shape, dtype)
    return ops.ones(s, d)


def empty_like(prototype, dtype=None, shape=None):
    """``numpy.empty_like`` (zeros on XLA)."""
    s, d = _like(prototype, shape, dtype)
    return ops.zeros(s, d)


def full_like(a, fill_value, dtype=None, shape=None):
    """``numpy.full_like``."""
    s, d = _like(a, shape, dtype)
    return full(s, fill_value, d)


def arange(start, stop=None, step=None, dtype=None):
    """``numpy.arange``: int32 for integer arguments, float32 otherwise."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if dtype is None:
        dtype = mstype.int32 if all(isinstance(v, int) for v in (start, stop, step)) else mstype.float32
    return ops.arange(start, stop, step, dtype=dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``numpy.linspace``; ``start``/``stop`` may be arrays (a new axis at ``axis``)."""
    start, stop = _float(_t(start)), _float(_t(stop))
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else stop - start
    idx = ops.arange(0, num, 1, dtype=start.dtype).reshape((num,) + (1,) * start.ndim)
    out = idx * step + start
    if endpoint and num > 1:
        last = ops.expand_dims(ops.broadcast_to(stop, out.shape[1:]), 0)
        out = ops.concat((out[:-1], last), 0)
    if axis != 0:
        out = ops.moveaxis(out, 0, axis)
    out = out if dtype is None else out.astype(dtype)
    return (out, step) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``numpy.logspace``."""
    out = ops.pow(base, linspace(start, stop, num, endpoint, axis=axis))
    return out if dtype is None else out.astype(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``numpy.geomspace``: log-spaced between ``start`` and ``stop``."""
    start, stop = _float(_t(start)), _float(_t(stop))
    out = ops.exp(linspace(ops.log(start), ops.log(stop), num, endpoint, axis=axis))
    return out if dtype is None else out.astype(dtype)


def eye(N, M=None, k=0, dtype=mstype.float32):  # noqa: N803
    """``numpy.eye`` with diagonal offset ``k``."""
    M = N if M is None else M  # noqa: N806
    return Tensor(_np.eye(N, M, k), dtype)


def identity(n, dtype=mstype.float32):
    """``numpy.identity``."""
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=mstype.float32):  # noqa: N803
    """``numpy.tri``: ones at and below diagonal ``k``."""
    return Tensor(_np.tri(N, M, k), dtype)


def tril(m, k=0):
    """``numpy.tril``."""
    return ops.tril(_t(m), k)


def triu(m, k=0):
    """``numpy.triu``."""
    return ops.triu(_t(m), k)


def _idx_pair(arr):
    return tuple(Tensor(a.astype(_np.int32)) for a in arr)


def tril_indices(n, k=0, m=None):
    """``numpy.tril_indices`` (static shapes: computed from Python ints)."""
    return _idx_pair(_np.tril_indices(n, k, m))


def triu_indices(n, k=0, m=None):
    """``numpy.triu_indices``."""
    return _idx_pair(_np.triu_indices(n, k, m))


def tril_indices_from(arr, k=0):
    """``numpy.tril_indices_from``."""
    return tril_indices(arr.shape[-2], k, arr.shape[-1])


def triu_indices_from(arr, k=0):
    """``numpy.triu_indices_from``."""
    return triu_indices(arr.shape[-2], k, arr.shape[-1])


def diag_indices(n, ndim=2):
    """``numpy.diag_indices``."""
    return tuple(Tensor(_np.arange(n, dtype=_np.int32)) for _ in range(ndim))


def indices(dimensions, dtype=mstype.int32, sparse=False):
    """``numpy.indices``."""
    res = _np.indices(tuple(dimensions), sparse=sparse)
    return tuple(Tensor(r, dtype) for r in res) if sparse else Tensor(res, dtype)


def diag(v, k=0):
    """``numpy.diag``: a 1-D input builds a matrix, a 2-D input gives its diagonal ``k``."""
    v = _t(v)
    if v.ndim == 1:
        return ops.diagflat(v, k)
    return ops.diagonal(v, k, 0, 1)


def diagflat(v, k=0):
    """``numpy.diagflat``."""
    return ops.diagflat(_t(v).reshape(-1), k)


def vander(x, N=None, increasing=False):  # noqa: N803
    """``numpy.vander``."""
    x = _t(x)
    n = x.shape[0] if N is None else N
    powers = ops.arange(0, n, 1, dtype=x.dtype)
    if not increasing:
        powers = ops.flip(powers, (0,))
    return ops.pow(ops.expand_dims(x, 1), powers)


def meshgrid(*xi, sparse=False, indexing="xy"):
    """``numpy.meshgrid``."""
    outs = ops.meshgrid(*[_t(x) for x in xi], indexing=indexing)
    if not sparse:
        return tuple(outs)
    n = len(xi)
    res = []
    for i, x in enumerate(xi):
        shape = [1] * n
        j = (1 - i if i < 2 else i) if indexing == "xy" and n > 1 else i
        shape[j] = -1
        res.append(_t(x).reshape(tuple(shape)))
    return tuple(res)


class _Grid:
    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, keys):
        if not isinstance(keys, tuple):
            keys = (keys,)
        axes = []
        for s in keys:
            step = 1 if s.step is None else s.step
            start = 0 if s.start is None else s.start
            if isinstance(step, complex):
                axes.append(_np.linspace(start, s.stop, int(abs(step))).astype(_np.float32))
            else:
                axes.append(_np.arange(start, s.stop, step))
        dtype = mstype.float32 if any(a.dtype.kind == "f" for a in axes) else mstype.int32
        grids = _np.meshgrid(*axes, indexing="ij", sparse=self.sparse)
        if len(keys) == 1:
            return Tensor(axes[0], dtype)
        if self.sparse:
            return tuple(Tensor(g, dtype) for g in grids)
        return Tensor(_np.stack(grids), dtype)


class MGridClass(_Grid):
    """``mindspore.numpy.mgrid``: dense mesh grids from slices."""

    def __init__(self):
        super().__init__(False)


class OGridClass(_Grid):
    """``mindspore.numpy.ogrid``: open (broadcastable) mesh grids from slices."""

    def __init__(self):
        super().__init__(True)


mgrid = MGridClass()
ogrid = OGridClass()


def _window(m, fn):
    return Tensor(fn(m), mstype.float32)


def bartlett(M):  # noqa: N803
    """The Bartlett window of length ``M`` (``numpy.bartlett``)."""
    return _window(M, _np.bartlett)


def blackman(M):  # noqa: N803
    """The Blackman window."""
    return _window(M, _np.blackman)


def hamming(M):  # noqa: N803
    """The Hamming window."""
    return _window(M, _np.hamming)


def hanning(M):  # noqa: N803
    """The Hann window."""
    return _window(M, _np.hanning)


def rand(*shape, dtype=mstype.float32):
    """Uniform [0, 1) samples (``numpy.random.rand``), from sporax's RNG state."""
    if len(shape) == 1 and isinstance(shape[0], tuple | list):
        shape = tuple(shape[0])
    return ops.rand(*shape, dtype=dtype)


def randn(*shape, dtype=mstype.float32):
    """Standard normal samples."""
    if len(shape) == 1 and isinstance(shape[0], tuple | list):
        shape = tuple(shape[0])
    return ops.randn(*shape, dtype=dtype)


def randint(minval, maxval=None, shape=None, dtype=mstype.int32):
    """Integers in [minval, maxval)."""
    if maxval is None:
        minval, maxval = 0, minval
    shape = () if shape is None else _shape(shape)
    return ops.randint(minval, maxval, shape, dtype=dtype)


_ = _math
