"""Functions that exist only in ``mindspore.numpy`` (polynomials, histograms, interp, convolve, gradient...),
written on ``sporax.ops``."""

from __future__ import annotations

import numpy as _np

from .. import _checkparam as validator
from .. import ops
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._utils import _float, _t


def polyval(p, x):
    """Evaluate polynomial ``p`` (highest power first) at ``x`` (Horner's scheme)."""
    p, x = _float(_t(p)), _float(_t(x))
    res = ops.zeros_like(x) + p[0]
    for i in range(1, p.shape[0]):
        res = res * x + p[i]
    return res


def _pad_front(a, n):
    return ops.concat((ops.zeros((n - a.shape[0],), a.dtype), a), 0) if a.shape[0] < n else a


def polyadd(a1, a2):
    """Sum of two polynomials."""
    a1, a2 = _t(a1), _t(a2)
    n = max(a1.shape[0], a2.shape[0])
    return _pad_front(a1, n) + _pad_front(a2, n)


def polysub(a1, a2):
    """Difference of two polynomials."""
    a1, a2 = _t(a1), _t(a2)
    n = max(a1.shape[0], a2.shape[0])
    return _pad_front(a1, n) - _pad_front(a2, n)


def polymul(a1, a2):
    """Product of two polynomials (a full convolution)."""
    return convolve(a1, a2, "full")


def polyder(p, m=1):
    """The ``m``-th derivative of polynomial ``p``."""
    p = _float(_t(p))
    for _ in range(m):
        n = p.shape[0] - 1
        if n <= 0:
            return ops.zeros((1,), p.dtype)
        p = p[:-1] * ops.arange(n, 0, -1, dtype=p.dtype)
    return p


def polyint(p, m=1, k=None):
    """The ``m``-th antiderivative of ``p`` with integration constants ``k``."""
    p = _float(_t(p))
    ks = _np.zeros(m) if k is None else _np.broadcast_to(_np.asarray(k, dtype=_np.float64), (m,))
    for i in range(m):
        n = p.shape[0]
        p = ops.concat((p / ops.arange(n, 0, -1, dtype=p.dtype), Tensor([float(ks[i])], p.dtype)), 0)
    return p


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-D arrays (``full``, ``same``, ``valid``)."""
    a, v = _t(a), _t(v)
    if a.shape[0] < v.shape[0]:
        a, v = v, a
    return _correlate(a, ops.flip(v, (0,)), mode)


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-D arrays."""
    return _correlate(_t(a), _t(v), mode)


def _correlate(a, v, mode):
    validator.check_string(mode, ["full", "same", "valid"], "mode", "correlate")
    n, m = a.shape[0], v.shape[0]
    if mode == "full":
        a = ops.concat((ops.zeros((m - 1,), a.dtype), a, ops.zeros((m - 1,), a.dtype)), 0)
    elif mode == "same":
        left = m // 2
        a = ops.concat((ops.zeros((left,), a.dtype), a, ops.zeros((m - 1 - left,), a.dtype)), 0)
    length = a.shape[0] - m + 1
    idx = _np.arange(length)[:, None] + _np.arange(m)[None, :]
    windows = ops.gather(a, Tensor(idx.astype(_np.int32)), 0)
    _ = n
    return ops.sum(windows * v, -1)


def interp(x, xp, fp, left=None, right=None):
    """1-D piecewise linear interpolation (``xp`` increasing)."""
    x, xp, fp = _float(_t(x)), _float(_t(xp)), _float(_t(fp))
    n = xp.shape[0]
    i = ops.clamp(ops.searchsorted(xp, x, right=True), 1, n - 1)
    x0, x1 = ops.gather(xp, i - 1, 0), ops.gather(xp, i, 0)
    y0, y1 = ops.gather(fp, i - 1, 0), ops.gather(fp, i, 0)
    res = y0 + (x - x0) * (y1 - y0) / (x1 - x0)
    lo = fp[0] if left is None else left
    hi = fp[-1] if right is None else right
    res = ops.where(x < xp[0], ops.zeros_like(res) + lo, res)
    return ops.where(x > xp[-1], ops.zeros_like(res) + hi, res)


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """Bin edges ``histogram`` would use."""
    a = _float(_t(a))
    if not isinstance(bins, int):
        return _float(_t(bins))
    lo, hi = (float(ops.amin(a)), float(ops.amax(a))) if range is None else range
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    _ = weights
    return ops.linspace(lo, hi, bins + 1).astype(a.dtype)


def histogram(a, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """Counts (or densities) of ``a`` in ``bins``; the last bin includes its right edge."""
    a = _float(_t(a)).reshape((-1,))
    edges = histogram_bin_edges(a, bins, range)
    nb = edges.shape[0] - 1
    idx = ops.searchsorted(edges, a, right=True) - 1
    idx = ops.where(a == edges[-1], ops.full_like(idx, nb - 1), idx)
    inside = ops.logical_and(idx >= 0, idx < nb)
    w = ops.ones_like(a) if weights is None else _float(_t(weights)).reshape((-1,))
    onehot = ops.equal(ops.expand_dims(idx, -1), ops.arange(0, nb, 1, dtype=idx.dtype))
    onehot = ops.logical_and(onehot, ops.expand_dims(inside, -1))
    counts = ops.sum(ops.where(onehot, ops.expand_dims(w, -1), ops.zeros((), w.dtype)), 0)
    if density:
        counts = counts / ops.sum(counts) / ops.diff(edges)
    elif weights is None:
        counts = counts.astype(mstype.int32)
    return counts, edges


def histogramdd(sample, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """Multidimensional histogram of ``sample`` (N, D)."""
    s = _float(_t(sample))
    if isinstance(sample, list | tuple):
        s = ops.stack([_float(_t(v)) for v in sample], -1)
    d = s.shape[1]
    nbins = [bins] * d if isinstance(bins, int) else list(bins)
    edges = [histogram_bin_edges(s[:, i], nbins[i], None if range is None else range[i]) for i in _np.arange(d)]
    flat = None
    sizes = [e.shape[0] - 1 for e in edges]
    valid = ops.ones((s.shape[0],), mstype.bool_)
    for i, e in enumerate(edges):
        col = s[:, i]
        idx = ops.searchsorted(e, col, right=True) - 1
        idx = ops.where(col == e[-1], ops.full_like(idx, sizes[i] - 1), idx)
        valid = ops.logical_and(valid, ops.logical_and(idx >= 0, idx < sizes[i]))
        flat = idx if flat is None else flat * sizes[i] + idx
    total = int(_np.prod(sizes))
    w = ops.ones((s.shape[0],), s.dtype) if weights is None else _float(_t(weights))
    onehot = ops.logical_and(
        ops.equal(ops.expand_dims(flat, -1), ops.arange(0, total, 1, dtype=flat.dtype)), ops.expand_dims(valid, -1)
    )
    counts = ops.sum(ops.where(onehot, ops.expand_dims(w, -1), ops.zeros((), w.dtype)), 0).reshape(tuple(sizes))
    if density:
        vol = None
        for i, e in enumerate(edges):
            de = ops.diff(e).reshape(tuple(-1 if j == i else 1 for j in _np.arange(d)))
            vol = de if vol is None else vol * de
        counts = counts / ops.sum(counts) / vol
    return counts, edges


def histogram2d(x, y, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """2-D histogram of ``x`` and ``y``."""
    h, edges = histogramdd(ops.stack((_float(_t(x)), _float(_t(y))), -1), bins, range, weights, density)
    return h, edges[0], edges[1]


def gradient(f, *varargs, axis=None, edge_order=1):
    """Central differences inside, one-sided at the edges (``edge_order=1``)."""
    f = _float(_t(f))
    axes = list(range(f.ndim)) if axis is None else ([axis] if isinstance(axis, int) else list(axis))
    spacing = list(varargs) if varargs else [1.0] * len(axes)
    if len(spacing) == 1 and len(axes) > 1:
        spacing = spacing * len(axes)
    outs = []
    for ax, h in zip(axes, spacing, strict=True):
        n = f.shape[ax]
        a = ops.moveaxis(f, ax, 0)
        mid = (a[2:] - a[:-2]) / (2.0 * h)
        first = (a[1:2] - a[0:1]) / h
        last = (a[n - 1 : n] - a[n - 2 : n - 1]) / h
        outs.append(ops.moveaxis(ops.concat((first, mid, last), 0), 0, ax))
    _ = edge_order
    return outs[0] if len(outs) == 1 else outs


def unwrap(p, discont=3.141592653589793, axis=-1):
    """Unwrap phase angles by removing jumps larger than ``discont``."""
    p = _float(_t(p))
    dd = ops.diff(p, 1, axis)
    ddmod = ops.remainder(dd + _np.pi, 2 * _np.pi) - _np.pi
    ddmod = ops.where(ops.logical_and(ddmod == -_np.pi, dd > 0), ops.full_like(ddmod, _np.pi), ddmod)
    corr = ops.where(ops.abs(dd) < discont, ops.zeros_like(dd), ddmod - dd)
    first = ops.narrow(p, axis, 0, 1)
    return ops.concat((first, ops.narrow(p, axis, 1, p.shape[axis] - 1) + ops.cumsum(corr, axis)), axis)


def piecewise(x, condlist, funclist, *args, **kw):
    """``numpy.piecewise``: the value of the function (or constant) whose condition holds."""
    x = _t(x)
    if isinstance(condlist, Tensor) or not isinstance(condlist, list | tuple):
        condlist = [condlist]
    conds = [_t(c).astype(mstype.bool_) for c in condlist]
    if len(funclist) == len(conds) + 1:
        other = conds[0]
        for c in conds[1:]:
            other = ops.logical_or(other, c)
        conds.append(ops.logical_not(other))
    out = ops.zeros_like(x)
    for c, fn in zip(conds, funclist, strict=True):
        val = fn(x, *args, **kw) if callable(fn) else ops.zeros_like(x) + fn
        out = ops.where(c, val, out)
    return out


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Apply ``func1d`` to 1-D slices along ``axis`` (a Python loop over the other axes)."""
    arr = ops.moveaxis(_t(arr), axis, -1)
    lead = arr.shape[:-1]
    flat = arr.reshape((-1, arr.shape[-1]))
    res = ops.stack([_t(func1d(flat[i], *args, **kwargs)) for i in _np.arange(flat.shape[0])], 0)
    res = res.reshape(lead + res.shape[1:])
    return ops.moveaxis(res, len(lead), axis) if res.ndim > len(lead) else res


def apply_over_axes(func, a, axes):
    """Apply ``func(a, axis)`` repeatedly over ``axes``, keeping dimensions."""
    res = _t(a)
    for ax in (axes,) if isinstance(axes, int) else axes:
        out = func(res, ax)
        res = out if out.ndim == res.ndim else ops.expand_dims(out, ax)
    return res


def _ms_promote(a, b):
    """MindSpore's promotion: a float beats any integer or bool, otherwise the wider of the same kind."""
    from ..common.dtype import dtype_to_nptype, pytype_to_dtype

    na, nb = _np.dtype(dtype_to_nptype(a)), _np.dtype(dtype_to_nptype(b))
    if na.kind == "f" and nb.kind != "f":
        return a
    if nb.kind == "f" and na.kind != "f":
        return b
    return pytype_to_dtype(_np.promote_types(na, nb))


def promote_types(type1, type2):
    """The smallest dtype both ``type1`` and ``type2`` cast to safely (MindSpore's rules)."""
    return _ms_promote(type1, type2)


def result_type(*arrays_and_dtypes):
    """The dtype an operation over all arguments returns; Python scalars do not widen a Tensor's kind."""
    res = None
    for v in arrays_and_dtypes:
        if isinstance(v, Tensor):
            d = v.dtype
        elif isinstance(v, bool):
            d = mstype.bool_
        elif isinstance(v, int):
            d = mstype.int32
        elif isinstance(v, float):
            d = mstype.float32
        else:
            d = v
        res = d if res is None else _ms_promote(res, d)
    return res
