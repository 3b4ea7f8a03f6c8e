"""``mindspore.mint``'s PyTorch-style functions: ``dim``/``keepdim`` names, torch defaults, overloads,
each delegating to the one ``sporax.ops`` kernel."""

from __future__ import annotations

from .. import ops
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..ops import (  # noqa: F401  (same signature as MindSpore's mint: re-exported as they are)
    abs,
    acos,
    acosh,
    addbmm,
    addmm,
    addmv,
    arange,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    argmax,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    bincount,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    broadcast_to,
    ceil,
    clone,
    cos,
    cosh,
    cross,
    cumprod,
    divide,
    dot,
    dstack,
    einsum,
    equal,
    erf,
    erfc,
    erfinv,
    exp,
    exp2,
    expm1,
    eye,
    flip,
    float_power,
    floor,
    full,
    full_like,
    gcd,
    greater,
    gt,
    histc,
    hstack,
    inverse,
    isclose,
    isfinite,
    isinf,
    isneginf,
    le,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logaddexp,
    logaddexp2,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    logsumexp,
    masked_select,
    matmul,
    maximum,
    minimum,
    mm,
    nan_to_num,
    ne,
    neg,
    negative,
    nonzero,
    not_equal,
    ones_like,
    outer,
    polar,
    pow,
    ravel,
    reciprocal,
    roll,
    round,
    rsqrt,
    searchsorted,
    sigmoid,
    sign,
    sin,
    sinc,
    sinh,
    square,
    sum,
    swapaxes,
    take,
    tan,
    tanh,
    tile,
    trace,
    tril,
    triu,
    trunc,
    unbind,
    unique_consecutive,
    unsqueeze,
    zeros_like,
)


def _arg(args, kwargs, i, name, default=None):
    if len(args) > i:
        return args[i]
    return kwargs.get(name, default)


def _binary(fn, args, kwargs, name_a="input", name_b="other"):
    return fn(_arg(args, kwargs, 0, name_a), _arg(args, kwargs, 1, name_b))


def add(*args, **kwargs):
    """``add(input, other, *, alpha=1)``: input + alpha * other."""
    alpha = kwargs.get("alpha", 1)
    other = _arg(args, kwargs, 1, "other")
    return ops.add(_arg(args, kwargs, 0, "input"), other if alpha == 1 else other * alpha)


def sub(*args, **kwargs):
    """``sub(input, other, *, alpha=1)``: input - alpha * other."""
    alpha = kwargs.get("alpha", 1)
    other = _arg(args, kwargs, 1, "other")
    return ops.sub(_arg(args, kwargs, 0, "input"), other if alpha == 1 else other * alpha)


def mul(*args, **kwargs):
    """``mul(input, other)``."""
    return _binary(ops.mul, args, kwargs)


def div(*args, **kwargs):
    """``div(input, other, *, rounding_mode=None)``."""
    return ops.div(
        _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "other"), rounding_mode=kwargs.get("rounding_mode")
    )


def addcdiv(*args, **kwargs):
    """``addcdiv(input, tensor1, tensor2, *, value=1)``."""
    return ops.addcdiv(
        _arg(args, kwargs, 0, "input"),
        _arg(args, kwargs, 1, "tensor1"),
        _arg(args, kwargs, 2, "tensor2"),
        _arg(args, kwargs, 3, "value", 1),
    )


def addcmul(input, tensor1, tensor2, *, value=1):  # noqa: A002
    """input + value * tensor1 * tensor2."""
    return ops.addcmul(input, tensor1, tensor2, value)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002
    """beta * input + alpha * (batch1 @ batch2)."""
    return ops.baddbmm(input, batch1, batch2, beta, alpha)


def addr_(input, vec1, vec2, beta=1, alpha=1):  # noqa: A002
    """In place: input = beta * input + alpha * outer(vec1, vec2)."""
    input.assign_value(beta * input + alpha * ops.outer(vec1, vec2))
    return input


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    """Whether every element is close (a Python bool)."""
    return bool(ops.all(ops.isclose(input, other, rtol, atol, equal_nan)))


def _dims(dim):
    if dim is None or dim == ():
        return None
    return dim


def all(input, dim=None, keepdim=False):  # noqa: A001, A002
    """Logical AND over ``dim``."""
    return ops.all(input, _dims(dim), keepdim)


def any(*args, **kwargs):  # noqa: A001
    """``any(input, dim=None, keepdim=False)``."""
    return ops.any(
        _arg(args, kwargs, 0, "input"), _dims(_arg(args, kwargs, 1, "dim")), _arg(args, kwargs, 2, "keepdim", False)
    )


def amax(input, dim=(), keepdim=False):  # noqa: A002
    """Max over ``dim`` (all dims for ``()``)."""
    return ops.amax(input, _dims(dim), keepdim)


def amin(input, dim=(), keepdim=False):  # noqa: A002
    """Min over ``dim``."""
    return ops.amin(input, _dims(dim), keepdim)


def _reduce_pair(fn_val, fn_arg, args, kwargs):
    x = _arg(args, kwargs, 0, "input")
    dim = _arg(args, kwargs, 1, "dim")
    if dim is None:
        other = args[1] if len(args) > 1 and isinstance(args[1], Tensor) else kwargs.get("other")
        if other is not None:
            return None, other
        return fn_val(x, None, False), None
    if isinstance(dim, Tensor):
        return None, dim
    keep = _arg(args, kwargs, 2, "keepdim", False)
    return (fn_val(x, dim, keep), fn_arg(x, dim, keep)), None


def max(*args, **kwargs):  # noqa: A001
    """``max(input)``, ``max(input, dim, keepdim=False)`` -> (values, indices), ``max(input, other)``."""
    res, other = _reduce_pair(ops.amax, ops.argmax, args, kwargs)
    return ops.maximum(_arg(args, kwargs, 0, "input"), other) if other is not None else res


def min(*args, **kwargs):  # noqa: A001
    """``min(input)``, ``min(input, dim, keepdim=False)`` -> (values, indices), ``min(input, other)``."""
    res, other = _reduce_pair(ops.amin, ops.argmin, args, kwargs)
    return ops.minimum(_arg(args, kwargs, 0, "input"), other) if other is not None else res


def argmin(input, dim=None, keepdim=False):  # noqa: A002
    """Index of the minimum (flattened when ``dim`` is None)."""
    if dim is None:
        return ops.argmin(input.reshape((-1,)), 0)
    return ops.argmin(input, dim, keepdim)


def argsort(input, dim=-1, descending=False, stable=False):  # noqa: A002
    """Indices that sort ``input`` along ``dim``."""
    return ops.sort(input, dim, descending)[1]


def sort(input, *, dim=-1, descending=False, stable=False):  # noqa: A002
    """(values, indices) sorted along ``dim``."""
    return ops.sort(input, dim, descending)


def bernoulli(input, *, generator=None):  # noqa: A002
    """0/1 samples with probabilities ``input``."""
    return (ops.rand_like(input) < input).astype(input.dtype)


def bitwise_not(*args, **kwargs):
    """``bitwise_not(input)``."""
    return ops.invert(_arg(args, kwargs, 0, "input"))


def bmm(input, mat2):  # noqa: A002
    """Batched matrix product."""
    return ops.bmm(input, mat2)


def cat(tensors, dim=0):
    """Concatenate along ``dim``."""
    return ops.concat(tensors, dim)


concat = cat


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Pairwise p-norm distances."""
    return ops.cdist(x1, x2, p)


def chunk(input, chunks, dim=0):  # noqa: A002
    """Split into ``chunks`` pieces along ``dim``."""
    return ops.chunk(input, chunks, dim)


def clamp(*args, **kwargs):
    """``clamp(input, min=None, max=None)``."""
    return ops.clamp(_arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "min"), _arg(args, kwargs, 2, "max"))


clip = clamp


def count_nonzero(input, dim=None):  # noqa: A002
    """Number of nonzero elements over ``dim`` (int64)."""
    return ops.sum(ops.not_equal(input, 0).astype(mstype.int64), _dims(dim))


def cummax(input, dim):  # noqa: A002
    """(values, indices) of the running max."""
    return ops.cummax(input, dim)


def cummin(input, dim):  # noqa: A002
    """(values, indices) of the running min."""
    return ops.cummin(input, dim)


def cumsum(input, dim, dtype=None):  # noqa: A002
    """Running sum along ``dim``."""
    return ops.cumsum(input, dim, dtype)


def diag(input, diagonal=0):  # noqa: A002
    """1-D: a matrix with ``input`` on diagonal ``diagonal``; 2-D: that diagonal."""
    if input.ndim == 1:
        return ops.diagflat(input, diagonal)
    return ops.diagonal(input, diagonal, 0, 1)


def diff(input, n=1, dim=-1, prepend=None, append=None):  # noqa: A002
    """n-th forward difference along ``dim``."""
    return ops.diff(input, n, dim, prepend, append)


def _size(args, kwargs):
    size = args[0] if len(args) == 1 and isinstance(args[0], tuple | list) else args
    return tuple(kwargs.get("size", size))


def empty(*args, **kwargs):
    """``empty(*size, dtype=None)``: zeros (XLA has no uninitialised memory)."""
    return ops.zeros(_size(args, kwargs), kwargs.get("dtype") or mstype.float32)


def empty_like(*args, **kwargs):
    """``empty_like(input, *, dtype=None)``."""
    x = _arg(args, kwargs, 0, "input")
    return ops.zeros(x.shape, kwargs.get("dtype") or x.dtype)


def eq(*args, **kwargs):
    """Element-wise ==."""
    return _binary(ops.equal, args, kwargs)


def ge(*args, **kwargs):
    """Element-wise >=."""
    return _binary(ops.greater_equal, args, kwargs)


greater_equal = ge


def lt(*args, **kwargs):
    """Element-wise <."""
    return _binary(ops.less, args, kwargs)


less = lt


def floor_divide(*args, **kwargs):
    """Floor division."""
    return _binary(ops.floor_divide, args, kwargs)


def fmod(*args, **kwargs):
    """C-style remainder (sign of the dividend)."""
    return _binary(ops.fmod, args, kwargs)


def remainder(*args, **kwargs):
    """Python-style remainder (sign of the divisor)."""
    return _binary(ops.remainder, args, kwargs)


def xlogy(*args, **kwargs):
    """input * log(other), 0 where input == 0."""
    return _binary(ops.xlogy, args, kwargs)


def fix(input):  # noqa: A002
    """Round toward zero."""
    return ops.trunc(input)


def flatten(*args, **kwargs):
    """``flatten(input, start_dim=0, end_dim=-1)``."""
    return ops.flatten(
        _arg(args, kwargs, 0, "input"),
        start_dim=_arg(args, kwargs, 1, "start_dim", 0),
        end_dim=_arg(args, kwargs, 2, "end_dim", -1),
    )


def frac(input):  # noqa: A002
    """Fractional part."""
    return ops.frac(input)


def gather(input, dim, index):  # noqa: A002
    """torch.gather: ``out[i][j] = input[index[i][j]][j]`` for ``dim=0``."""
    return ops.gather_elements(input, dim, index)


def imag(*args, **kwargs):
    """Imaginary part."""
    return ops.imag(_arg(args, kwargs, 0, "input"))


def real(*args, **kwargs):
    """Real part."""
    return ops.real(_arg(args, kwargs, 0, "input"))


def index_add(*args, **kwargs):
    """``index_add(input, dim, index, source, *, alpha=1)``: add ``alpha * source`` rows at ``index`` along ``dim``."""
    x, dim, index, source = (_arg(args, kwargs, i, n) for i, n in enumerate(("input", "dim", "index", "source")))
    alpha = _arg(args, kwargs, 4, "alpha", 1)
    dim %= x.ndim
    shape = [1] * source.ndim
    shape[dim] = -1
    idx = ops.broadcast_to(index.reshape(tuple(shape)), source.shape)
    return ops.tensor_scatter_elements(x, idx, source * alpha if alpha != 1 else source, dim, "add")


def index_select(input, dim, index):  # noqa: A002
    """Rows/columns of ``input`` at ``index`` along ``dim``."""
    return ops.index_select(input, dim, index)


def isnan(tensor):
    """Element-wise NaN test."""
    return ops.isnan(tensor)


def item(input):  # noqa: A002
    """The single element as a Python scalar."""
    return input.item()


def kthvalue(*args, **kwargs):
    """``kthvalue(input, k, dim=-1, keepdim=False)`` -> (values, indices) of the k-th smallest."""
    x, k = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "k")
    dim, keep = _arg(args, kwargs, 2, "dim", -1), _arg(args, kwargs, 3, "keepdim", False)
    vals, idx = ops.sort(x, dim, False)
    v, i = ops.narrow(vals, dim, k - 1, 1), ops.narrow(idx, dim, k - 1, 1)
    return (v, i) if keep else (ops.squeeze(v, dim), ops.squeeze(i, dim))


def lerp(*args, **kwargs):
    """input + weight * (end - input)."""
    return ops.lerp(_arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "end"), _arg(args, kwargs, 2, "weight"))


def linspace(start, end, steps, *, dtype=None):
    """``steps`` evenly spaced values from ``start`` to ``end``."""
    out = ops.linspace(start, end, steps)
    return out if dtype is None else out.astype(dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """Mean over ``dim``."""
    x = input if dtype is None else input.astype(dtype)
    return ops.mean(x, _dims(dim), keepdim)


def median(input, dim=None, keepdim=False):  # noqa: A002
    """Median (the lower one for even counts); with ``dim``: (values, indices)."""
    if dim is None:
        flat = ops.sort(input.reshape((-1,)))[0]
        return flat[(flat.shape[0] - 1) // 2]
    return ops.median(input, dim, keepdim)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids; ``indexing`` defaults to ``'ij'`` as in PyTorch."""
    if len(tensors) == 1 and isinstance(tensors[0], list | tuple):
        tensors = tuple(tensors[0])
    return ops.meshgrid(*tensors, indexing="ij" if indexing is None else indexing)


def multinomial(input, num_samples, replacement=False, *, generator=None):  # noqa: A002
    """Indices sampled from the rows of ``input``."""
    return ops.multinomial(input, num_samples, replacement)


def mv(input, vec):  # noqa: A002
    """Matrix-vector product."""
    return ops.mv(input, vec)


def nansum(*args, **kwargs):
    """``nansum(input, dim=None, keepdim=False, *, dtype=None)``."""
    return ops.nansum(
        _arg(args, kwargs, 0, "input"),
        _dims(_arg(args, kwargs, 1, "dim")),
        _arg(args, kwargs, 2, "keepdim", False),
        dtype=kwargs.get("dtype"),
    )


def narrow(input, dim, start, length):  # noqa: A002
    """A slice of ``length`` from ``start`` along ``dim``."""
    return ops.narrow(input, dim, start, length)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """Vector/matrix norm; ``'fro'`` over all elements is the 2-norm of the flattened input."""
    if p == "fro" and (dim is None or (isinstance(dim, tuple | list) and len(dim) == 2)):
        axes = None if dim is None else tuple(dim)
        return ops.sqrt(ops.sum(input * input, axes, keepdim))
    return ops.norm(input, p, dim, keepdim, dtype=dtype)


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Normal samples with ``mean``/``std`` (Tensors broadcast, or floats with ``size``)."""
    shape = (
        tuple(size)
        if size is not None
        else ops.broadcast_to(mean if isinstance(mean, Tensor) else std, (mean * 0 + std * 0).shape).shape
    )
    return ops.randn(*shape, dtype=mstype.float32) * std + mean


def npu_gelu(input, approximate="none"):  # noqa: A002
    """GELU (Ascend's fused kernel name): the same function as ``nn.functional.gelu``."""
    return ops.gelu(input, approximate)


def ones(size, *, dtype=None):
    """Ones of ``size`` (float32 by default)."""
    return ops.ones((size,) if isinstance(size, int) else tuple(size), dtype or mstype.float32)


def zeros(size, *, dtype=None):
    """Zeros of ``size`` (float32 by default)."""
    return ops.zeros((size,) if isinstance(size, int) else tuple(size), dtype or mstype.float32)


def permute(input, dims):  # noqa: A002
    """Reorder dimensions."""
    return ops.permute(input, tuple(dims))


def prod(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """Product over ``dim``."""
    return ops.prod(input, dim, keepdim, dtype)


def rand(*size, generator=None, dtype=None, device=None):
    """Uniform [0, 1) samples."""
    return ops.rand(*size, dtype=dtype or mstype.float32)


def randn(*size, generator=None, dtype=None, device=None):
    """Standard normal samples."""
    return ops.randn(*size, dtype=dtype or mstype.float32)


def rand_like(input, *, dtype=None, device=None):  # noqa: A002
    """Uniform samples shaped like ``input``."""
    return ops.rand_like(input, dtype=dtype)


def randn_like(input, *, dtype=None, device=None):  # noqa: A002
    """Normal samples shaped like ``input``."""
    return ops.randn_like(input, dtype=dtype)


def randint(*args, generator=None, dtype=None, device=None):
    """``randint(low=0, high, size)``: int64 by default."""
    if len(args) == 2:
        args = (0,) + tuple(args)
    low, high, size = args
    return ops.randint(low, high, tuple(size), dtype=dtype or mstype.int64)


def randint_like(*args, dtype=None, device=None):
    """``randint_like(input, low=0, high)``."""
    x = args[0]
    low, high = (0, args[1]) if len(args) == 2 else args[1:3]
    return ops.randint(low, high, x.shape, dtype=mstype.int64).astype(dtype or x.dtype)


def randperm(n, *, generator=None, dtype=mstype.int64):
    """A random permutation of 0..n-1."""
    return ops.argsort(ops.rand(n)).astype(dtype)


def repeat_interleave(*args, **kwargs):
    """``repeat_interleave(input, repeats, dim=None, *, output_size=None)``."""
    x, rep, dim = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "repeats"), _arg(args, kwargs, 2, "dim")
    if dim is None:
        x, dim = x.reshape((-1,)), 0
    return ops.repeat_interleave(x, rep, dim)


def reshape(*args, **kwargs):
    """``reshape(input, shape)``."""
    return ops.reshape(_arg(args, kwargs, 0, "input"), tuple(_arg(args, kwargs, 1, "shape")))


def scatter(input, dim, index, src):  # noqa: A002
    """torch.scatter: write ``src`` at ``index`` along ``dim``."""
    if not isinstance(src, Tensor):
        src = ops.full(index.shape, src, dtype=input.dtype)
    return ops.scatter(input, dim, index, src)


def scatter_add(input, dim, index, src):  # noqa: A002
    """torch.scatter_add: accumulate ``src`` at ``index`` along ``dim``."""
    return ops.tensor_scatter_elements(input, index, src, dim, "add")


def select(input, dim, index):  # noqa: A002
    """The slice at ``index`` along ``dim`` (that dim removed)."""
    return ops.squeeze(ops.narrow(input, dim, index % input.shape[dim], 1), dim)


def softmax(input, dim, *, dtype=None):  # noqa: A002
    """Softmax along ``dim``."""
    return ops.softmax(input, dim, dtype=dtype)


def split(tensor, split_size_or_sections, dim=0):
    """Split into pieces of ``split_size_or_sections`` along ``dim``."""
    return ops.split(tensor, split_size_or_sections, dim)


def sqrt(input):  # noqa: A002
    """Square root."""
    return ops.sqrt(input)


def squeeze(*args, **kwargs):
    """``squeeze(input, dim=None)``."""
    return ops.squeeze(_arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "dim"))


def stack(tensors, dim=0):
    """Stack along a new ``dim``."""
    return ops.stack(tensors, dim)


def var(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    """Variance with Bessel's ``correction`` (1 by default, as in PyTorch)."""
    return ops.var(input, _dims(dim), correction, keepdim)


def std(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    """Standard deviation with ``correction``."""
    return ops.sqrt(var(input, dim, correction=correction, keepdim=keepdim))


def var_mean(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    """(variance, mean)."""
    return var(input, dim, correction=correction, keepdim=keepdim), ops.mean(input, _dims(dim), keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    """(standard deviation, mean)."""
    return std(input, dim, correction=correction, keepdim=keepdim), ops.mean(input, _dims(dim), keepdim)


def t(*args, **kwargs):
    """Transpose of a matrix (0-D and 1-D unchanged)."""
    x = _arg(args, kwargs, 0, "input")
    return x if x.ndim < 2 else ops.swapaxes(x, 0, 1)


def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    """(values, indices) of the ``k`` largest (or smallest) along ``dim``."""
    return ops.topk(input, k, dim, largest, sorted)


def transpose(input, dim0, dim1):  # noqa: A002
    """Swap ``dim0`` and ``dim1``."""
    return ops.swapaxes(input, dim0, dim1)


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):  # noqa: N803
    """Solve A X = b for triangular A; returns (X, A)."""
    a = ops.triu(A) if upper else ops.tril(A)
    if unitriangular:
        n = A.shape[-1]
        eye_ = ops.eye(n, n, A.dtype)
        a = a * (1 - eye_) + eye_
    if transpose:
        a = ops.swapaxes(a, -1, -2)
    return ops.matmul(ops.inverse(a), b), A


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """Sorted unique values, with inverse indices and counts on request (eager: data-dependent size)."""
    import numpy as np

    vals, inv, cnt = np.unique(input.asnumpy(), return_inverse=True, return_counts=True, axis=dim)
    res = [Tensor(vals)]
    if return_inverse:
        res.append(Tensor(inv.reshape(input.shape if dim is None else (-1,)).astype(np.int64)))
    if return_counts:
        res.append(Tensor(cnt.astype(np.int64)))
    return res[0] if len(res) == 1 else tuple(res)


def vdot(input, other):  # noqa: A002
    """Dot product of flattened inputs, conjugating the first."""
    return ops.sum(ops.conj(input).reshape((-1,)) * other.reshape((-1,)))


def where(*args, **kwargs):
    """``where(condition, input, other)``; ``where(condition)`` gives the nonzero index tuple."""
    cond = _arg(args, kwargs, 0, "condition")
    if len(args) + len(kwargs) == 1:
        return ops.nonzero(cond, as_tuple=True)
    return ops.where(cond, _arg(args, kwargs, 1, "input"), _arg(args, kwargs, 2, "other"))


def batch_norm_stats(input, eps):  # noqa: A002
    """Per-channel (mean, 1/sqrt(var + eps)) over all but dim 1."""
    axes = (0,) + tuple(range(2, input.ndim))
    mu = ops.mean(input, axes)
    v = ops.var(input, axes, 0)
    return mu, ops.rsqrt(v + eps)


def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05):  # noqa: A002
    """(input - mean) * invstd * weight + bias, per channel (dim 1)."""
    shape = (1, -1) + (1,) * (input.ndim - 2)
    out = (input - mean.reshape(shape)) * invstd.reshape(shape)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out


def batch_norm_gather_stats_with_counts(
    input,
    mean,
    invstd,
    running_mean=None,
    running_var=None,
    momentum=0.1,  # noqa: A002
    eps=1e-05,
    counts=None,
):
    """Combine per-device (mean, invstd, count) into global (mean, invstd); update running stats in place."""
    counts = counts.astype(mean.dtype).reshape((-1, 1))
    total = ops.sum(counts)
    gmean = ops.sum(mean * counts, 0) / total
    var_i = 1.0 / (invstd * invstd) - eps
    gvar = ops.sum((var_i + (mean - gmean) ** 2) * counts, 0) / total
    if running_mean is not None:
        running_mean.assign_value((1 - momentum) * running_mean + momentum * gmean)
    if running_var is not None:
        running_var.assign_value((1 - momentum) * running_var + momentum * gvar * total / (total - 1))
    return gmean, ops.rsqrt(gvar + eps)


def conv_tbc(input, weight, bias, pad=0):  # noqa: A002
    """1-D convolution on (time, batch, channel) input with a (width, in, out) weight."""
    x = ops.transpose(input, (1, 2, 0))
    w = ops.transpose(weight, (2, 1, 0))
    out = ops.conv1d(x, w, bias, 1, "pad", pad)
    return ops.transpose(out, (2, 0, 1))
