"""Reductions, statistics, logic and linear algebra of ``mindspore.numpy``, on ``sporax.ops``."""

from __future__ import annotations

import numpy as _np

from .. import _checkparam as validator
from .. import ops
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._utils import _axes, _float, _out, _t


def _where_fill(a, where, fill):
    if where is True or where is None:
        return a
    return ops.where(_t(where).astype(mstype.bool_), a, ops.full_like(a, fill))


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):  # noqa: A001
    """``numpy.sum``; bools and small ints sum as int32."""
    a = _t(a)
    if a.dtype == mstype.bool_:
        a = a.astype(mstype.int32)
    res = ops.sum(a, _axes(axis, a.ndim) if axis is not None else None, keepdims)
    if initial is not None:
        res = res + initial
    return _out(res, dtype)


def _minmax(fn, a, axis, keepdims, initial, where, fill):
    a = _t(a)
    if where is not True and where is not None:
        a = _where_fill(a, where, fill)
    res = fn(a, _axes(axis, a.ndim) if axis is not None else None, keepdims)
    if isinstance(res, tuple):
        res = res[0]
    if initial is not None:
        res = ops.maximum(res, initial) if fn is ops.amax else ops.minimum(res, initial)
    return res


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    """``numpy.amax``."""
    return _minmax(ops.amax, a, axis, keepdims, initial, where, -_np.inf)


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    """``numpy.amin``."""
    return _minmax(ops.amin, a, axis, keepdims, initial, where, _np.inf)


max = amax  # noqa: A001
min = amin  # noqa: A001


def mean(a, axis=None, keepdims=False, dtype=None):
    """``numpy.mean``."""
    a = _float(_t(a))
    return _out(ops.mean(a, _axes(axis, a.ndim) if axis is not None else None, keepdims), dtype)


def var(x, axis=None, ddof=0, keepdims=False):
    """``numpy.var``."""
    x = _float(_t(x))
    return ops.var(x, _axes(axis, x.ndim) if axis is not None else None, ddof, keepdims)


def std(x, axis=None, ddof=0, keepdims=False):
    """``numpy.std``."""
    return ops.sqrt(var(x, axis, ddof, keepdims))


def ptp(x, axis=None, keepdims=False):
    """``numpy.ptp``: max - min."""
    return amax(x, axis, keepdims) - amin(x, axis, keepdims)


def average(x, axis=None, weights=None, returned=False):
    """``numpy.average``."""
    x = _float(_t(x))
    if weights is None:
        avg = mean(x, axis)
        scl = ops.full_like(avg, x.size / avg.size)
    else:
        w = _float(_t(weights))
        if w.ndim == 1 and x.ndim > 1 and axis is not None:
            w = w.reshape(tuple(-1 if i == axis % x.ndim else 1 for i in range(x.ndim)))
        w = ops.broadcast_to(w, x.shape)
        scl = sum(w, axis)
        avg = sum(x * w, axis) / scl
    return (avg, scl) if returned else avg


def _nan_fill(a, fill):
    a = _float(_t(a))
    return ops.where(ops.isnan(a), ops.full_like(a, fill), a), a


def nansum(a, axis=None, dtype=None, keepdims=False):
    """``numpy.nansum``."""
    return sum(_nan_fill(a, 0)[0], axis, dtype, keepdims)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    """``numpy.nanmean``."""
    filled, raw = _nan_fill(a, 0)
    cnt = sum(ops.logical_not(ops.isnan(raw)).astype(filled.dtype), axis, None, keepdims)
    return _out(sum(filled, axis, None, keepdims) / cnt, dtype)


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """``numpy.nanvar``."""
    filled, raw = _nan_fill(a, 0)
    ok = ops.logical_not(ops.isnan(raw)).astype(filled.dtype)
    cnt = sum(ok, axis, None, True)
    mu = sum(filled, axis, None, True) / cnt
    dev = ops.where(ops.isnan(raw), ops.zeros_like(filled), filled - mu)
    res = sum(dev * dev, axis, None, keepdims) / (sum(ok, axis, None, keepdims) - ddof)
    return _out(res, dtype)


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """``numpy.nanstd``."""
    return _out(ops.sqrt(nanvar(a, axis, None, ddof, keepdims)), dtype)


def nanmax(a, axis=None, dtype=None, keepdims=False):
    """``numpy.nanmax``."""
    return _out(amax(_nan_fill(a, -_np.inf)[0], axis, keepdims), dtype)


def nanmin(a, axis=None, dtype=None, keepdims=False):
    """``numpy.nanmin``."""
    return _out(amin(_nan_fill(a, _np.inf)[0], axis, keepdims), dtype)


def _cum(fn, a, axis, dtype):
    a = _t(a)
    if a.dtype == mstype.bool_:
        a = a.astype(mstype.int32)
    if axis is None:
        a, axis = a.reshape((-1,)), 0
    return _out(fn(a, axis), dtype)


def cumsum(a, axis=None, dtype=None):
    """``numpy.cumsum``; ``axis=None`` flattens."""
    return _cum(lambda x, ax: ops.cumsum(x, ax), a, axis, dtype)


def cumprod(a, axis=None, dtype=None):
    """``numpy.cumprod``."""
    return _cum(lambda x, ax: ops.cumprod(x, ax), a, axis, dtype)


def nancumsum(a, axis=None, dtype=None):
    """``numpy.nancumsum``."""
    return cumsum(_nan_fill(a, 0)[0], axis, dtype)


def argmax(a, axis=None):
    """``numpy.argmax``."""
    a = _t(a)
    return ops.argmax(a.reshape((-1,)) if axis is None else a, 0 if axis is None else axis)


def argmin(a, axis=None):
    """``numpy.argmin``."""
    a = _t(a)
    return ops.argmin(a.reshape((-1,)) if axis is None else a, 0 if axis is None else axis)


def count_nonzero(x, axis=None, keepdims=False):
    """``numpy.count_nonzero``."""
    x = _t(x)
    return sum(ops.not_equal(x, 0).astype(mstype.int32), axis, None, keepdims)


def sometrue(a, axis=None, keepdims=False):
    """``numpy.sometrue`` (``any``)."""
    a = _t(a).astype(mstype.bool_)
    return ops.any(a, _axes(axis, a.ndim) if axis is not None else None, keepdims)


def array_equal(a1, a2, equal_nan=False):
    """``numpy.array_equal``: same shape and values."""
    a1, a2 = _t(a1), _t(a2)
    if a1.shape != a2.shape:
        return False
    eq = ops.equal(a1, a2)
    if equal_nan:
        eq = ops.logical_or(eq, ops.logical_and(ops.isnan(_float(a1)), ops.isnan(_float(a2))))
    return bool(ops.all(eq))


def array_equiv(a1, a2):
    """``numpy.array_equiv``: equal after broadcasting."""
    a1, a2 = _t(a1), _t(a2)
    try:
        _np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(ops.all(ops.equal(a1, a2)))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``numpy.isclose``."""
    return ops.isclose(_t(a), _t(b), rtol, atol, equal_nan)


def isneginf(x):
    """``numpy.isneginf``."""
    return ops.isneginf(_t(x))


def isposinf(x):
    """``numpy.isposinf``."""
    return ops.isposinf(_t(x))


def isin(element, test_elements, invert=False):
    """``numpy.isin``."""
    res = ops.isin(_t(element), _t(test_elements))
    return ops.logical_not(res) if invert else res


def in1d(ar1, ar2, invert=False):
    """``numpy.in1d``: ``isin`` on the flattened first array."""
    return isin(_t(ar1).reshape((-1,)), ar2, invert)


def _np_of(x):
    return _t(x).asnumpy()


def unique(x, return_inverse=False):
    """``numpy.unique`` (sorted; data-dependent size, so eager only)."""
    vals, inv = _np.unique(_np_of(x), return_inverse=True)
    out = Tensor(vals)
    return (out, Tensor(inv.reshape(-1).astype(_np.int32))) if return_inverse else out


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """``numpy.intersect1d`` (eager: the size depends on the values)."""
    res = _np.intersect1d(_np_of(ar1), _np_of(ar2), assume_unique, return_indices)
    if return_indices:
        return Tensor(res[0]), Tensor(res[1].astype(_np.int32)), Tensor(res[2].astype(_np.int32))
    return Tensor(res)


def setdiff1d(ar1, ar2, assume_unique=False):
    """``numpy.setdiff1d`` (eager)."""
    return Tensor(_np.setdiff1d(_np_of(ar1), _np_of(ar2), assume_unique))


def dot(a, b):
    """``numpy.dot``: contracts the last axis of ``a`` with the second-to-last of ``b``."""
    a, b = _t(a), _t(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if b.ndim == 1 or a.ndim == 1:
        return ops.tensordot(a, b, ((a.ndim - 1,), (0 if b.ndim == 1 else b.ndim - 2,)))
    return ops.tensordot(a, b, ((a.ndim - 1,), (b.ndim - 2,)))


def inner(a, b):
    """``numpy.inner``."""
    a, b = _t(a), _t(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return ops.tensordot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


def outer(a, b):
    """``numpy.outer``."""
    return ops.outer(_t(a).reshape((-1,)), _t(b).reshape((-1,)))


def tensordot(a, b, axes=2):
    """``numpy.tensordot``."""
    return ops.tensordot(_t(a), _t(b), axes)


def kron(a, b):
    """``numpy.kron``."""
    return ops.kron(_t(a), _t(b))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """``numpy.cross`` of 3-vectors."""
    a, b = _t(a), _t(b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = ops.moveaxis(a, axisa, -1), ops.moveaxis(b, axisb, -1)
    shape = _np.broadcast_shapes(a.shape, b.shape)
    res = ops.cross(ops.broadcast_to(a, shape), ops.broadcast_to(b, shape), -1)
    return ops.moveaxis(res, -1, axisc)


def multi_dot(arrays):
    """``numpy.linalg.multi_dot``: left-to-right products."""
    res = _t(arrays[0])
    for m in arrays[1:]:
        res = dot(res, m)
    return res


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002
    """``numpy.linalg.norm``."""
    x = _float(_t(x))
    if axis is None and ord is None:
        return ops.sqrt(ops.sum(x * x, None, keepdims))
    return ops.norm(x, ord, axis, keepdims)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """``numpy.diff``."""
    return ops.diff(_t(a), n, axis, None if prepend is None else _t(prepend), None if append is None else _t(append))


def ediff1d(ary, to_end=None, to_begin=None):
    """``numpy.ediff1d``."""
    d = ops.diff(_t(ary).reshape((-1,)))
    parts = ([_t(to_begin).reshape((-1,)).astype(d.dtype)] if to_begin is not None else []) + [d]
    if to_end is not None:
        parts.append(_t(to_end).reshape((-1,)).astype(d.dtype))
    return ops.concat(parts, 0)


def trapz(y, x=None, dx=1.0, axis=-1):
    """``numpy.trapz``."""
    y = _float(_t(y))
    return ops.trapz(y, None if x is None else _float(_t(x)), dx=dx, dim=axis)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    """``numpy.cov``."""
    m = _float(_t(m))
    if m.ndim == 1:
        m = m.reshape((1, -1))
    if not rowvar:
        m = m.T
    if y is not None:
        y = _float(_t(y))
        y = y.reshape((1, -1)) if y.ndim == 1 else (y if rowvar else y.T)
        m = ops.concat((m, y), 0)
    if ddof is None:
        ddof = 0 if bias else 1
    fw = None if fweights is None else _t(fweights)
    aw = None if aweights is None else _float(_t(aweights))
    res = ops.cov(m, correction=ddof, fweights=fw, aweights=aw)
    return _out(res, dtype)


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """``numpy.corrcoef``."""
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return _out(c / c, dtype)
    d = ops.sqrt(ops.diagonal(c, 0, 0, 1))
    return _out(c / ops.outer(d, d), dtype)


def searchsorted(a, v, side="left", sorter=None):
    """``numpy.searchsorted``."""
    validator.check_string(side, ["left", "right"], "side", "searchsorted")
    a = _t(a)
    if sorter is not None:
        a = ops.gather(a, _t(sorter), 0)
    return ops.searchsorted(a, _t(v), out_int32=True, right=side == "right")


def digitize(x, bins, right=False):
    """``numpy.digitize``: bin indices for increasing or decreasing ``bins``."""
    x, bins = _t(x), _t(bins)
    b = bins.asnumpy()
    if b.size > 1 and b[0] > b[-1]:
        n = bins.shape[0]
        return n - ops.searchsorted(ops.flip(bins, (0,)), x, out_int32=True, right=not right)
    return ops.searchsorted(bins, x, out_int32=True, right=not right)


def bincount(x, weights=None, minlength=0, length=None):
    """``numpy.bincount`` (``length`` fixes the output size for jit)."""
    x = _t(x)
    n = length if length is not None else _np.maximum(int(ops.amax(x)) + 1 if x.size else 0, minlength)
    w = ops.ones(x.shape, mstype.int32) if weights is None else _t(weights)
    onehot = ops.equal(ops.expand_dims(x, -1), ops.arange(0, int(n), 1, dtype=x.dtype))
    return ops.sum(ops.where(onehot, ops.expand_dims(w, -1), ops.zeros((), w.dtype)), 0)
