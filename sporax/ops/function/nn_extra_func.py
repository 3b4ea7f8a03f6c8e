"""Small ``mindspore.ops`` functions: ``is_floating_point``, ``fliplr``, ``flipud``, ``msort``, ``clamp_``,
``intopk``, ``check_valid``, ``pdist``, ``nth_element`` (``ops.NthElement``), ``nuclear_norm``
(``ops.NuclearNorm``) and the data-format helpers of ``ops.DataFormatDimMap``/``ops.DataFormatVecPermute``."""

from __future__ import annotations

from typing import Any

from ... import _checkparam as validator
from ..._checkparam import check_instance
from ..._engine import jnp
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .._amp import amp_black
from .._utils import as_tensor_array, wrap

__all__ = ["is_floating_point", "fliplr", "flipud", "msort", "clamp_", "intopk", "check_valid", "pdist"]


def _tensor(x: Any, name: str, op: str) -> Any:
    check_instance(x, Tensor, name, op)
    return as_tensor_array(x)


def is_floating_point(input: Any) -> bool:
    """Whether ``input``'s dtype is a floating type (float16, bfloat16, float32, float64).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.ops.is_floating_point(ms.Tensor(np.ones(2, np.float32))), ms.ops.is_floating_point(ms.Tensor([1]))
        (True, False)
    """
    a = _tensor(input, "input", "is_floating_point")
    return bool(jnp.issubdtype(a.dtype, jnp.floating))


def fliplr(input: Any) -> Tensor:
    """Reverse the columns (axis 1) of an input of rank >= 2.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.ops.fliplr(ms.Tensor(np.array([[1, 2], [3, 4]], np.int32))).asnumpy().tolist()
        [[2, 1], [4, 3]]
    """
    a = _tensor(input, "input", "fliplr")
    if a.ndim < 2:
        raise ValueError(f"For 'fliplr', the dimension of 'input' must be >= 2, but got {a.ndim}.")
    return wrap(jnp.flip(a, 1))


def flipud(input: Any) -> Tensor:
    """Reverse the rows (axis 0) of an input of rank >= 1.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.ops.flipud(ms.Tensor(np.array([[1, 2], [3, 4]], np.int32))).asnumpy().tolist()
        [[3, 4], [1, 2]]
    """
    a = _tensor(input, "input", "flipud")
    if a.ndim < 1:
        raise ValueError(f"For 'flipud', the dimension of 'input' must be >= 1, but got {a.ndim}.")
    return wrap(jnp.flip(a, 0))


def msort(input: Any) -> Tensor:
    """Sort along the first axis, ascending (``ops.sort(input, axis=0)[0]``).

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.ops.msort(ms.Tensor(np.array([[3.0, 1.0], [2.0, 5.0]], np.float32))).asnumpy().tolist()
        [[2.0, 1.0], [3.0, 5.0]]
    """
    from .sort_search_func import sort

    _tensor(input, "input", "msort")
    return sort(input, axis=0)[0]


def clamp_(input: Any, min: Any = None, max: Any = None) -> Tensor:
    """:func:`ops.clamp` in place: ``input`` (a Tensor or Parameter) takes the clipped values and is returned.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.array([-1.0, 0.5, 3.0], np.float32))
        >>> _ = ms.ops.clamp_(x, 0, 1)
        >>> x.asnumpy().tolist()
        [0.0, 0.5, 1.0]
    """
    from .clip_func import clamp
    from .gather_scatter_func import _write_back

    return _write_back(input, clamp(input, min, max))


def intopk(x1: Any, x2: Any, k: int) -> Tensor:
    """For each row ``i`` of ``x1`` ``(N, C)``, whether ``x1[i, x2[i]]`` is among the ``k`` largest (ties counted
    in its favour, as MindSpore's kernel). Returns bool ``(N,)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.array([[1, 3, 2], [4, 1, 0]], np.float32))
        >>> ms.ops.intopk(x, ms.Tensor(np.array([1, 2], np.int32)), 1).asnumpy().tolist()
        [True, False]
    """
    validator.check_value_type("k", k, [int], "InTopK")
    a = _tensor(x1, "x1", "InTopK")
    t = _tensor(x2, "x2", "InTopK")
    validator.check_type_name("x1", mstype.from_np(a.dtype), [mstype.float16, mstype.float32], "InTopK")
    validator.check_type_name("x2", mstype.from_np(t.dtype), [mstype.int32, mstype.int64], "InTopK")
    if a.ndim != 2 or t.ndim != 1 or t.shape[0] != a.shape[0]:
        raise ValueError(
            f"For 'InTopK', 'x1' must be 2-D and 'x2' 1-D with x1.shape[0] elements, but got x1 shape "
            f"{tuple(a.shape)} and x2 shape {tuple(t.shape)}."
        )
    target = jnp.take_along_axis(a, t.astype(jnp.int32)[:, None], axis=1)
    greater = jnp.sum(a > target, axis=1)
    valid = (t >= 0) & (t < a.shape[1])
    return wrap((greater < k) & valid)


def check_valid(bboxes: Any, img_metas: Any) -> Tensor:
    """Whether each ``[x1, y1, x2, y2]`` box of ``bboxes`` ``(N, 4)`` lies inside the image of ``img_metas``
    ``(height, width, ratio)`` scaled by ``ratio`` (``x1, y1 >= 0``, ``x2 <= width * ratio - 1``,
    ``y2 <= height * ratio - 1``; the corners' order is not checked, as in MindSpore). Returns bool ``(N,)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> boxes = ms.Tensor(np.array([[0, 0, 10, 10], [5, 5, 3, 3]], np.float32))
        >>> ms.ops.check_valid(boxes, ms.Tensor(np.array([100, 100, 1], np.float32))).asnumpy().tolist()
        [True, True]
    """
    b = _tensor(bboxes, "bboxes", "CheckValid")
    m = _tensor(img_metas, "img_metas", "CheckValid")
    if b.ndim != 2 or b.shape[1] != 4:
        raise ValueError(f"For 'CheckValid', the shape of 'bboxes' must be (N, 4), but got {tuple(b.shape)}.")
    if m.shape != (3,):
        raise ValueError(f"For 'CheckValid', the shape of 'img_metas' must be (3,), but got {tuple(m.shape)}.")
    bf, mf = b.astype(jnp.float32), m.astype(jnp.float32)
    h, w = mf[0] * mf[2], mf[1] * mf[2]
    x1, y1, x2, y2 = bf[:, 0], bf[:, 1], bf[:, 2], bf[:, 3]
    ok = (x1 >= 0) & (y1 >= 0) & (x2 <= w - 1) & (y2 <= h - 1)
    return wrap(ok)


@amp_black
def pdist(input: Any, p: float = 2.0) -> Tensor:
    """The ``p``-norm distances between every pair of rows of ``input`` ``(N, M)``: the upper triangle of the
    distance matrix, row by row, ``(N * (N - 1) / 2,)``.

    Examples:
        >>> import numpy as np
        >>> import sporax as ms
        >>> ms.ops.pdist(ms.Tensor(np.array([[0, 0], [3, 4], [6, 8]], np.float32))).asnumpy().tolist()
        [5.0, 10.0, 5.0]
    """
    a = _tensor(input, "input", "Pdist")
    validator.check_value_type("p", p, [float], "Pdist")
    if p < 0:
        raise ValueError(f"For 'Pdist', the 'p' must be greater than or equal to 0, but got {p}.")
    if a.ndim != 2:
        raise ValueError(f"For primitive[Pdist], the x dim must be equal to 2, but got {a.ndim}.")
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For 'Pdist', the dtype of 'input' must be float, but got {mstype.from_np(a.dtype)}.")
    n = a.shape[-2]
    i, j = jnp.triu_indices(n, 1)
    diff = jnp.abs(a[..., i, :] - a[..., j, :])
    if p == 0:
        out = jnp.sum(diff != 0, axis=-1).astype(a.dtype)
    elif p == float("inf"):
        out = jnp.max(diff, axis=-1)
    elif p == 2.0:  # a zero distance has a zero (not NaN) gradient
        sq = jnp.sum(diff * diff, axis=-1)
        safe = jnp.where(sq > 0, sq, 1.0)
        out = jnp.where(sq > 0, jnp.sqrt(safe), 0.0)
    else:
        out = jnp.sum(diff**p, axis=-1) ** (1.0 / p)
    return wrap(out.astype(a.dtype))


def nth_element(input: Any, n: Any, reverse: bool = False) -> Tensor:
    """The ``n``-th smallest (``reverse``: largest) value along the last axis (``ops.NthElement``)."""
    a = _tensor(input, "input", "NthElement")
    k = int(as_tensor_array(n)) if isinstance(n, Tensor) else n
    validator.check_value_type("n", k, [int], "NthElement")
    if not 0 <= k < a.shape[-1]:
        raise ValueError(
            f"For 'NthElement', the 'n' must be in range [0, {a.shape[-1]}) (the last dimension of 'input'), "
            f"but got {k}."
        )
    s = jnp.sort(a, axis=-1)
    return wrap(s[..., -1 - k] if reverse else s[..., k])


def nuclear_norm(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    """The sum of the singular values of the matrices on axes ``dim`` (default the last two)
    (``ops.NuclearNorm``)."""
    a = _tensor(input, "input", "NuclearNorm")
    if dim is None and a.ndim != 2:
        raise ValueError(
            f"For 'NuclearNorm', when dim is not set, or dim is None, the input_size must be equal to 2, but got "
            f"{a.ndim}."
        )
    if a.ndim < 2:
        raise ValueError(f"For 'NuclearNorm', the dimension of 'input' must be >= 2, but got {a.ndim}.")
    d = (a.ndim - 2, a.ndim - 1) if dim is None else tuple(x % a.ndim for x in dim)
    if len(d) != 2 or d[0] == d[1]:
        raise ValueError(f"For 'NuclearNorm', the 'dim' must be two different axes, but got {dim}.")
    moved = jnp.moveaxis(a, d, (-2, -1))
    out = jnp.sum(jnp.linalg.svd(moved, compute_uv=False), axis=-1)
    if keepdim:
        out = jnp.expand_dims(out, tuple(sorted(d)))
    return wrap(out.astype(a.dtype))


def data_format_dim_map(x: Any, src_format: str, dst_format: str) -> Tensor:
    """For each axis index ``i`` (in ``[-4, 4)``) of ``dst_format``, the index in ``src_format`` of the same
    axis (``ops.DataFormatDimMap``)."""
    a = _tensor(x, "x", "DataFormatDimMap")
    perm = jnp.asarray([src_format.index(c) for c in dst_format], a.dtype)
    return wrap(perm[jnp.mod(a, 4)])


def data_format_vec_permute(x: Any, src_format: str, dst_format: str) -> Tensor:
    """``x`` (a shape vector ``(4,)`` or a ``(4, 2)`` table) reordered from ``src_format`` to ``dst_format``
    (``ops.DataFormatVecPermute``)."""
    a = _tensor(x, "x", "DataFormatVecPermute")
    if a.shape not in ((4,), (4, 2)):
        raise ValueError(
            f"For 'DataFormatVecPermute', the shape of 'x' must be (4,) or (4, 2), but got {tuple(a.shape)}."
        )
    idx = [src_format.index(c) for c in dst_format]
    return wrap(a[jnp.asarray(idx)])
