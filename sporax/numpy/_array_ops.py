"""Shape, joining, splitting and indexing functions of ``mindspore.numpy``, on ``sporax.ops``."""

from __future__ import annotations

import numpy as _np

from .. import ops
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._utils import _t


def reshape(x, new_shape):
    """``numpy.reshape``."""
    return ops.reshape(_t(x), (new_shape,) if isinstance(new_shape, int) else tuple(new_shape))


def ravel(x):
    """``numpy.ravel``."""
    return ops.reshape(_t(x), (-1,))


def transpose(a, axes=None):
    """``numpy.transpose``: reversed axes by default."""
    a = _t(a)
    return ops.transpose(a, tuple(range(a.ndim))[::-1] if axes is None else tuple(axes))


def swapaxes(x, axis1, axis2):
    """``numpy.swapaxes``."""
    return ops.swapaxes(_t(x), axis1, axis2)


def moveaxis(a, source, destination):
    """``numpy.moveaxis``."""
    return ops.moveaxis(_t(a), source, destination)


def rollaxis(x, axis, start=0):
    """``numpy.rollaxis``: move ``axis`` to before ``start``."""
    x = _t(x)
    axis %= x.ndim
    start = start % (x.ndim + 1) if start < 0 else start
    if axis < start:
        start -= 1
    return ops.moveaxis(x, axis, start) if axis != start else x


def expand_dims(a, axis):
    """``numpy.expand_dims`` (``axis`` may be a tuple)."""
    a = _t(a)
    if isinstance(axis, int):
        return ops.expand_dims(a, axis)
    nd = a.ndim + len(axis)
    for ax in sorted(v % nd for v in axis):
        a = ops.expand_dims(a, ax)
    return a


def squeeze(a, axis=None):
    """``numpy.squeeze``."""
    return ops.squeeze(_t(a), axis)


def broadcast_to(array, shape):
    """``numpy.broadcast_to``."""
    return ops.broadcast_to(_t(array), tuple(shape))


def broadcast_arrays(*args):
    """``numpy.broadcast_arrays``: a list of Tensors broadcast to one shape."""
    ts = [_t(a) for a in args]
    shape = tuple(_np.broadcast_shapes(*[t.shape for t in ts]))
    return [ops.broadcast_to(t, shape) for t in ts]


def atleast_1d(*arys):
    """``numpy.atleast_1d``."""
    res = [_t(a).reshape((1,)) if _t(a).ndim == 0 else _t(a) for a in arys]
    return res[0] if len(res) == 1 else res


def atleast_2d(*arys):
    """``numpy.atleast_2d``."""
    res = [_t(a) if _t(a).ndim >= 2 else _t(a).reshape((1, -1)) for a in arys]
    return res[0] if len(res) == 1 else res


def atleast_3d(*arys):
    """``numpy.atleast_3d``: 1-D ``(N,)`` becomes ``(1, N, 1)``, 2-D ``(M, N)`` becomes ``(M, N, 1)``."""
    res = []
    for a in arys:
        a = _t(a)
        if a.ndim == 0:
            a = a.reshape((1, 1, 1))
        elif a.ndim == 1:
            a = a.reshape((1, -1, 1))
        elif a.ndim == 2:
            a = ops.expand_dims(a, 2)
        res.append(a)
    return res[0] if len(res) == 1 else res


def concatenate(arrays, axis=0):
    """``numpy.concatenate``; ``axis=None`` flattens first."""
    if isinstance(arrays, Tensor):
        arrays = ops.unbind(arrays, 0)
    ts = [_t(a) for a in arrays]
    if axis is None:
        return ops.concat([t.reshape((-1,)) for t in ts], 0)
    return ops.concat(ts, axis)


def append(arr, values, axis=None):
    """``numpy.append``."""
    return concatenate((arr, values), axis)


def stack(arrays, axis=0):
    """``numpy.stack``."""
    return ops.stack([_t(a) for a in arrays], axis)


def hstack(tup):
    """``numpy.hstack``."""
    ts = [_t(a) for a in tup]
    return ops.concat(ts, 0 if ts[0].ndim == 1 else 1)


def vstack(tup):
    """``numpy.vstack``."""
    return ops.concat(atleast_2d(*tup) if len(tup) > 1 else [atleast_2d(*tup)], 0)


def dstack(tup):
    """``numpy.dstack``."""
    return ops.concat(atleast_3d(*tup) if len(tup) > 1 else [atleast_3d(*tup)], 2)


def column_stack(tup):
    """``numpy.column_stack``."""
    return ops.concat([_t(a).reshape((-1, 1)) if _t(a).ndim == 1 else _t(a) for a in tup], 1)


def split(x, indices_or_sections, axis=0):
    """``numpy.split``: an int must divide the axis evenly."""
    x = _t(x)
    if isinstance(indices_or_sections, int) and x.shape[axis] % indices_or_sections:
        raise ValueError("array split does not result in an equal division")
    return array_split(x, indices_or_sections, axis)


def array_split(x, indices_or_sections, axis=0):
    """``numpy.array_split``."""
    return list(ops.tensor_split(_t(x), indices_or_sections, axis))


def hsplit(x, indices_or_sections):
    """``numpy.hsplit``."""
    x = _t(x)
    return split(x, indices_or_sections, 0 if x.ndim == 1 else 1)


def vsplit(x, indices_or_sections):
    """``numpy.vsplit``."""
    return split(x, indices_or_sections, 0)


def dsplit(x, indices_or_sections):
    """``numpy.dsplit``."""
    return split(x, indices_or_sections, 2)


def flip(m, axis=None):
    """``numpy.flip``."""
    m = _t(m)
    axes = tuple(range(m.ndim)) if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
    return ops.flip(m, axes)


def fliplr(m):
    """``numpy.fliplr``."""
    return flip(m, 1)


def flipud(m):
    """``numpy.flipud``."""
    return flip(m, 0)


def roll(a, shift, axis=None):
    """``numpy.roll``; ``axis=None`` rolls the flattened array."""
    a = _t(a)
    if axis is None:
        return ops.roll(a.reshape((-1,)), shift, 0).reshape(a.shape)
    return ops.roll(a, shift, axis)


def rot90(a, k=1, axes=(0, 1)):
    """``numpy.rot90``."""
    return ops.rot90(_t(a), k, list(axes))


def tile(a, reps):
    """``numpy.tile``."""
    return ops.tile(_t(a), (reps,) if isinstance(reps, int) else tuple(reps))


def repeat(a, repeats, axis=None):
    """``numpy.repeat``."""
    a = _t(a)
    if axis is None:
        a, axis = a.reshape((-1,)), 0
    return ops.repeat_interleave(a, repeats, axis)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """``numpy.diagonal``."""
    return ops.diagonal(_t(a), offset, axis1, axis2)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """``numpy.trace``: sum of diagonal ``offset``."""
    res = ops.sum(ops.diagonal(_t(a), offset, axis1, axis2), -1)
    return res if dtype is None else res.astype(dtype)


def _clip_index(idx, n, mode):
    if mode == "wrap":
        return ops.remainder(idx, n)
    return ops.clamp(idx, 0, n - 1)


def take(a, indices, axis=None, mode="clip"):
    """``numpy.take`` with ``clip`` (default) or ``wrap`` out-of-range handling."""
    a = _t(a)
    if axis is None:
        a, axis = a.reshape((-1,)), 0
    idx = _clip_index(_t(indices), a.shape[axis], mode) if mode in ("clip", "wrap") else _t(indices)
    return ops.gather(a, idx, axis)


def take_along_axis(arr, indices, axis):
    """``numpy.take_along_axis``."""
    arr, indices = _t(arr), _t(indices)
    if axis is None:
        arr, axis = arr.reshape((-1,)), 0
    shape = list(_np.broadcast_shapes(arr.shape[:axis] + (1,) + arr.shape[axis + 1 :], indices.shape))
    idx_shape = list(shape)
    shape[axis] = arr.shape[axis]
    return ops.gather_elements(ops.broadcast_to(arr, tuple(shape)), axis, ops.broadcast_to(indices, tuple(idx_shape)))


def choose(a, choices, mode="clip"):
    """``numpy.choose``."""
    a = _t(a)
    ch = stack(broadcast_arrays(*choices)) if not isinstance(choices, Tensor) else choices
    idx = _clip_index(a, ch.shape[0], mode)
    shape = _np.broadcast_shapes(idx.shape, ch.shape[1:])
    ch = ops.broadcast_to(ch, (ch.shape[0],) + tuple(shape))
    return ops.gather_elements(ch, 0, ops.broadcast_to(idx, tuple(shape)).reshape((1,) + tuple(shape)))[0]


def where(condition, x=None, y=None):
    """``numpy.where``; with one argument, the tuple of nonzero indices."""
    condition = _t(condition)
    if x is None and y is None:
        idx = ops.argwhere(condition)
        return tuple(idx[:, i].astype(mstype.int32) for i in range(condition.ndim))
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    x, y = (v if isinstance(v, Tensor) else _t(v) for v in (x, y))
    return ops.where(condition.astype(mstype.bool_), x, y)


def select(condlist, choicelist, default=0):
    """``numpy.select``: the first true condition's choice, else ``default``."""
    conds = [_t(c) for c in condlist]
    choices = [_t(c) for c in choicelist]
    if len(conds) != len(choices):
        raise ValueError("list of cases must be same length as list of conditions")
    out = _t(default, choices[0].dtype)
    for c, v in zip(reversed(conds), reversed(choices), strict=True):
        out = ops.where(c.astype(mstype.bool_), v, out)
    return out


def argwhere(a):
    """``numpy.argwhere``."""
    return ops.argwhere(_t(a))


def ix_(*args):
    """``numpy.ix_``: open mesh of index vectors."""
    n = len(args)
    return tuple(_t(a).reshape((1,) * i + (-1,) + (1,) * (n - i - 1)) for i, a in enumerate(args))


def unravel_index(indices, shape, order="C"):
    """``numpy.unravel_index``."""
    idx = _t(indices)
    dims = list(shape) if order == "C" else list(shape)[::-1]
    out = []
    for d in reversed(dims):
        out.append(ops.remainder(idx, d))
        idx = ops.floor_divide(idx, d)
    out = out[::-1]
    return tuple(out if order == "C" else out[::-1])


def ravel_multi_index(multi_index, dims, mode="clip", order="C"):
    """``numpy.ravel_multi_index``."""
    idx = [_clip_index(_t(i), d, mode) if mode in ("clip", "wrap") else _t(i) for i, d in zip(multi_index, dims)]
    if order == "F":
        idx, dims = idx[::-1], list(dims)[::-1]
    res = idx[0]
    for i, d in zip(idx[1:], dims[1:], strict=True):
        res = res * d + i
    return res


def size(a, axis=None):
    """``numpy.size``."""
    a = _t(a)
    return a.size if axis is None else a.shape[axis]


def isscalar(element):
    """``numpy.isscalar``: Python scalars and strings."""
    return isinstance(element, int | float | bool | complex | str | bytes)


def array_str(a):
    """``numpy.array_str``."""
    return str(_t(a).asnumpy())


def pad(
    arr, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0, reflect_type="even", **kwargs
):  # noqa: E501
    """``numpy.pad`` for ``constant``, ``edge``, ``reflect``, ``symmetric``, ``wrap`` (``ops.pad``)."""
    arr = _t(arr)
    pw = _np.broadcast_to(_np.asarray(pad_width, dtype=_np.int64), (arr.ndim, 2))
    flat = []
    for before, after in pw[::-1]:
        flat += [int(before), int(after)]
    op_mode = {"constant": "constant", "edge": "replicate", "reflect": "reflect", "wrap": "circular"}.get(mode)
    if op_mode is None:
        raise NotImplementedError(f"For 'pad', mode '{mode}' is not supported on this backend.")
    if op_mode == "constant":
        return ops.pad(arr, tuple(flat), "constant", constant_values)
    return ops.pad(arr, tuple(flat), op_mode)
