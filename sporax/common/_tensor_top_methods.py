"""Tensor members of MindSpore's list not covered by the op-family mixins: in-place forms (``add_``,
``masked_fill_``, ``index_put_``...), comparison and arithmetic aliases (``greater``, ``divide``...),
conversions (``byte``, ``short``), storage queries (``stride``, ``storage_offset``), sparse conversion
(``to_coo``/``to_csr``) and DLPack. Each delegates to the one op that implements it.

In-place methods update the tensor (MindSpore's Tensors are mutable; so are sporax's, including Parameters
inside jit and gradients, through the state frames) and return it; the result keeps the tensor's dtype.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Self

import numpy as np

from .. import _checkparam as validator
from .._engine import jax
from . import _op_registry
from . import dtype as mstype
from ._op_registry import ops as _ops
from ._tensor_fields import TensorFields

if TYPE_CHECKING:
    from .tensor import Tensor

__all__ = ["TensorTopMethods"]


# Gradient hooks (Tensor.register_hook): each hooked tensor's value passes through an identity whose backward
# runs the tensor's hooks on the gradient. The hook list travels with the program (the backward may run after
# the tensor itself is gone); the tensor only maps to it while it lives.
class _HookList:
    """A tensor's hooks in order, and each by its handle's id. A static argument of the identity: hashed and
    compared by identity (object's own)."""

    __slots__ = ("hooks", "ids")

    def __init__(self) -> None:
        self.hooks: list[Any] = []
        self.ids: dict[int, Any] = {}

    def append(self, hook: Any) -> None:
        self.hooks.append(hook)

    def remove(self, hook: Any) -> None:
        self.hooks.remove(hook)

    def __contains__(self, hook: Any) -> bool:
        return hook in self.hooks

    def __iter__(self) -> Iterator[Any]:
        return iter(self.hooks)

    def __len__(self) -> int:
        return len(self.hooks)


_hooked = jax.custom_vjp(lambda x, hooks: x, nondiff_argnums=(1,))


def _run_hooks(hooks: _HookList, ct: Any) -> Any:
    """The hooks run on the host with the gradient's value, as MindSpore runs them in PyNative, also when the
    gradient is compiled (a host callback), so a hook may print or inspect it and return a replacement."""
    from .tensor import Tensor

    if not hooks:
        return ct

    def on_host(value: Any) -> Any:
        g = Tensor(np.asarray(value))
        for hook in list(hooks):
            out = hook(g)
            if isinstance(out, Tensor):
                g = out
        return np.asarray(g.asnumpy(), dtype=value.dtype).reshape(value.shape)

    return jax.pure_callback(on_host, jax.ShapeDtypeStruct(ct.shape, ct.dtype), ct)


_hooked.defvjp(lambda x, hooks: (x, None), lambda hooks, _res, ct: (_run_hooks(hooks, ct),))

_TENSOR_HOOKS: dict[int, _HookList] = {}


def _hooks_of(t: Any) -> _HookList | None:
    return _TENSOR_HOOKS.get(id(t))


def _hook_list(t: Any) -> _HookList:
    """``t``'s hook list, made on first use."""
    hooks = _TENSOR_HOOKS.get(id(t))
    if hooks is None:
        hooks = _TENSOR_HOOKS[id(t)] = _HookList()
        weakref.finalize(t, _TENSOR_HOOKS.pop, id(t), None)
    return hooks


_hook_ids = itertools.count(1)


class _TensorHookHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook; ``id`` names it for
    ``Parameter.remove_hook``."""

    def __init__(self, hooks: _HookList, hook: Any) -> None:
        self._hooks, self._hook = hooks, hook
        self.id = next(_hook_ids)
        hooks.ids[self.id] = hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


def _host(a: np.ndarray) -> Tensor:
    from .tensor import Tensor

    return Tensor(a)


def _broadcast(*tensors: Any) -> list[Any]:
    items = [t if hasattr(t, "shape") else _host(np.asarray(t)) for t in tensors]
    shape = np.broadcast_shapes(*[tuple(t.shape) for t in items])
    return [_ops().broadcast_to(t, shape) for t in items]


class TensorTopMethods(TensorFields):
    """Mixin of :class:`Tensor`."""

    __slots__ = ()

    def _assign(self, result: Any) -> Any:
        data = result._data
        self._data = data if data.dtype == self._data.dtype else data.astype(self._data.dtype)
        return self

    # ------------------------------------------------------------------ in-place arithmetic
    def add_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        return self._assign(_ops().add(self, other if alpha == 1 else _ops().mul(other, alpha)))

    def sub_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        return self._assign(_ops().sub(self, other if alpha == 1 else _ops().mul(other, alpha)))

    def mul_(self, other: Any) -> Tensor:
        return self._assign(_ops().mul(self, other))

    def div_(self, other: Any, *, rounding_mode: Any = None) -> Tensor:
        return self._assign(_ops().div(self, other, rounding_mode=rounding_mode))

    def remainder_(self, other: Any) -> Tensor:
        return self._assign(_ops().remainder(self, other))

    def floor_divide_(self, other: Any) -> Tensor:
        return self._assign(_ops().floor_divide(self, other))

    def exp_(self) -> Tensor:
        return self._assign(_ops().exp(self))

    def log_(self) -> Tensor:
        return self._assign(_ops().log(self))

    def floor_(self) -> Tensor:
        return self._assign(_ops().floor(self))

    def sigmoid_(self) -> Tensor:
        return self._assign(_ops().sigmoid(self))

    def sign_(self) -> Tensor:
        return self._assign(_ops().sign(self))

    def masked_fill_(self, mask: Any, value: Any) -> Tensor:
        return self._assign(_ops().masked_fill(self, mask, value))

    def masked_scatter_(self, mask: Any, source: Any) -> Tensor:
        return self._assign(_ops().masked_scatter(self, mask, source))

    def scatter_(self, dim: int, index: Any, src: Any, *, reduce: Any = None) -> Tensor:
        if reduce is None:
            return self._assign(_ops().scatter(self, dim, index, src))
        validator.check_choice(reduce, ("add", "multiply"), "reduce", "scatter_")
        if not hasattr(src, "shape"):
            src = _ops().full(index.shape, src, dtype=self.dtype)
        reduction = "add" if reduce == "add" else "mul"
        return self._assign(_ops().tensor_scatter_elements(self, index, src, dim, reduction))

    def copy_(self, src: Any, non_blocking: bool = False) -> Tensor:
        return self._assign(_ops().broadcast_to(_ops().cast(src, self.dtype), self.shape))

    def addmm_(self, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return self._assign(_ops().addmm(self, mat1, mat2, beta=beta, alpha=alpha))

    def addmm(self, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return _ops().addmm(self, mat1, mat2, beta=beta, alpha=alpha)

    def addmv(self, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return _ops().addmv(self, mat, vec, beta=beta, alpha=alpha)

    def baddbmm(self, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return _ops().baddbmm(self, batch1, batch2, beta, alpha)

    # ------------------------------------------------------------------ index updates
    def _dim_front(self, dim: int) -> tuple[int, Any]:
        nd = max(self.ndim, 1)
        if not -nd <= dim < nd:
            raise ValueError(f"For 'index_add', the 'dim' must be in range [{-nd}, {nd - 1}], but got {dim}.")
        return dim % nd, None

    def index_add(self, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Tensor:
        """``self`` with ``alpha * source`` added at positions ``index`` along ``dim`` (repeated indices add up)."""
        d, _ = self._dim_front(dim)
        moved = _ops().moveaxis(self, d, 0)
        src = _ops().moveaxis(_ops().cast(source, self.dtype), d, 0)
        if alpha != 1:
            src = _ops().mul(src, alpha)
        idx = _ops().reshape(_ops().cast(index, mstype.int64), (-1, 1))
        return _ops().moveaxis(_ops().tensor_scatter_add(moved, idx, src), 0, d)

    def index_add_(self, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Tensor:
        return self._assign(self.index_add(dim, index, source, alpha=alpha))

    def index_copy_(self, dim: int, index: Any, tensor: Any) -> Tensor:
        d, _ = self._dim_front(dim)
        moved = _ops().moveaxis(self, d, 0)
        src = _ops().moveaxis(_ops().cast(tensor, self.dtype), d, 0)
        idx = _ops().reshape(_ops().cast(index, mstype.int64), (-1, 1))
        return self._assign(_ops().moveaxis(_ops().tensor_scatter_update(moved, idx, src), 0, d))

    def index_put(self, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
        """``self`` with ``values`` written (``accumulate``: added) at the points given by the tuple of index
        tensors ``indices`` (one per leading dimension, broadcast together)."""
        idx = _broadcast(*[_ops().cast(i, mstype.int64) for i in indices])
        points = _ops().stack(list(idx), -1)
        tail = tuple(self.shape[len(indices) :])
        vals = _ops().broadcast_to(_ops().cast(values, self.dtype), tuple(points.shape[:-1]) + tail)
        if accumulate:
            return _ops().tensor_scatter_add(self, points, vals)
        return _ops().tensor_scatter_update(self, points, vals)

    def index_put_(self, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
        return self._assign(self.index_put(indices, values, accumulate))

    def scatter_sub(self, indices: Any, updates: Any) -> Tensor:
        return _ops().tensor_scatter_sub(self, indices, updates)

    def fill_diagonal(self, fill_value: Any, wrap: bool = False) -> Tensor:
        """NumPy's ``fill_diagonal`` (every dimension of equal length, or a 2-D tensor; ``wrap`` restarts the
        diagonal below a tall matrix's square part), as a new tensor."""
        shape = tuple(self.shape)
        mask = np.zeros(shape, np.bool_)
        np.fill_diagonal(mask, True, wrap=wrap)
        return _ops().masked_fill(self, _host(mask), fill_value)

    def fill_diagonal_(self, fill_value: Any, wrap: bool = False) -> Tensor:
        return self._assign(self.fill_diagonal(fill_value, wrap))

    def itemset(self, *args: Any) -> Tensor:
        """NumPy's ``itemset`` as MindSpore has it: a new tensor with one element replaced
        (``t.itemset(value)`` for a one-element tensor, ``t.itemset(index, value)`` with a flat int or a
        tuple index); this tensor is left alone."""
        if len(args) == 1:
            if self.size != 1:
                raise ValueError("For 'itemset', a single argument needs a tensor of one element.")
            index: Any = (0,) * self.ndim
            value = args[0]
        elif len(args) == 2:
            index, value = args
            if isinstance(index, int):
                index = np.unravel_index(index, self.shape)
        else:
            raise TypeError(f"For 'itemset', expected 1 or 2 arguments, but got {len(args)}.")
        out = self.copy()
        out[tuple(int(i) for i in index)] = value
        return out

    # ------------------------------------------------------------------ aliases of ops
    def divide(self, other: Any, *, rounding_mode: Any = None) -> Tensor:
        return _ops().div(self, other, rounding_mode=rounding_mode)

    def greater(self, other: Any) -> Tensor:
        return _ops().greater(self, other)

    def greater_equal(self, other: Any) -> Tensor:
        return _ops().greater_equal(self, other)

    def less(self, other: Any) -> Tensor:
        return _ops().less(self, other)

    def less_equal(self, other: Any) -> Tensor:
        return _ops().less_equal(self, other)

    def not_equal(self, other: Any) -> Tensor:
        return _ops().not_equal(self, other)

    def bitwise_not(self) -> Tensor:
        return _ops().bitwise_not(self)

    def gcd(self, other: Any) -> Tensor:
        return _ops().gcd(self, other)

    def lcm(self, other: Any) -> Tensor:
        return _ops().lcm(self, other)

    def matrix_power(self, n: int) -> Tensor:
        return _ops().matrix_power(self, n)

    def repeat_interleave(self, repeats: Any, dim: Any = None, *, output_size: Any = None) -> Tensor:
        return _ops().repeat_interleave(self, repeats, dim)

    def unique(
        self, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False, dim: Any = None
    ) -> Any:  # noqa: A002
        """The sorted distinct values (flattened), with the inverse indices and counts on request (eager only)."""
        a = self.asnumpy()
        if dim is not None:
            raise ValueError("For 'unique', 'dim' is not supported by sporax: flatten the tensor first.")
        values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True)
        out = [_host(values)]
        if return_inverse:
            out.append(_host(inverse.reshape(a.shape).astype(np.int64)))
        if return_counts:
            out.append(_host(counts.astype(np.int64)))
        return out[0] if len(out) == 1 else tuple(out)

    def kthvalue(self, k: int, dim: int = -1, keepdim: bool = False) -> Any:
        """``(values, indices)`` of the k-th smallest element along ``dim`` (k from 1)."""
        n = self.shape[dim] if self.ndim else 1
        if not 1 <= k <= n:
            raise ValueError(f"For 'kthvalue', the 'k' must be in range [1, {n}], but got {k}.")
        values, indices = _ops().sort(self, dim)
        v = _ops().narrow(values, dim, k - 1, 1)
        i = _ops().narrow(indices, dim, k - 1, 1)
        if not keepdim:
            v, i = _ops().squeeze(v, dim), _ops().squeeze(i, dim)
        return v, _ops().cast(i, mstype.int64)

    def ptp(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _ops().sub(_ops().amax(self, axis, keepdims), _ops().amin(self, axis, keepdims))

    def choose(self, choices: Any, mode: str = "clip") -> Tensor:
        """NumPy's ``choose``: element i is ``choices[self[i]][i]`` (choices broadcast together); out-of-range
        indices are clipped (``mode='clip'``) or wrapped (``'wrap'``); ``'raise'`` checks them."""
        n = len(choices)
        stacked = _ops().stack(_broadcast(*choices, self)[:n], 0)
        idx = _ops().cast(self, mstype.int64)
        if mode == "clip":
            idx = _ops().clip(idx, 0, n - 1)
        elif mode == "wrap":
            idx = _ops().remainder(idx, n)
        elif mode == "raise":
            a = idx.asnumpy()
            if a.size and (a.min() < 0 or a.max() >= n):
                raise ValueError("For 'choose', invalid entry in choice array.")
        else:
            raise ValueError(f"For 'choose', the 'mode' must be 'clip', 'wrap' or 'raise', but got '{mode}'.")
        idx = _ops().broadcast_to(idx, tuple(stacked.shape[1:]))
        return _ops().squeeze(_ops().gather_elements(stacked, 0, _ops().expand_dims(idx, 0)), 0)

    def sum_to_size(self, *size: Any) -> Self | Tensor:
        """Sum over the dimensions that ``size`` (broadcastable to this shape) makes 1 or leaves out."""
        target = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else tuple(size)
        lead = self.ndim - len(target)
        if lead < 0:
            raise ValueError(
                f"For 'sum_to_size', the size {target} is not expandable to the tensor's shape {self.shape}."
            )
        out = _ops().sum(self, tuple(range(lead))) if lead else self
        axes = tuple(i for i, (t, s) in enumerate(zip(target, out.shape, strict=True)) if t == 1 and s != 1)
        for t, s in zip(target, out.shape, strict=True):
            if t not in (1, s):
                raise ValueError(
                    f"For 'sum_to_size', the size {target} is not expandable to the tensor's shape {self.shape}."
                )
        return _ops().sum(out, axes, True) if axes else out

    # ------------------------------------------------------------------ conversions and views
    def byte(self) -> Tensor:
        return _ops().cast(self, mstype.uint8)

    def short(self) -> Tensor:
        return _ops().cast(self, mstype.int16)

    def ndimension(self) -> int:
        return self.ndim

    @property
    def H(self) -> Tensor:  # noqa: N802
        """The conjugate transpose of a 2-D tensor."""
        if self.ndim != 2:
            raise ValueError(f"For 'H', the tensor must be 2-D, but got {self.ndim}-D.")
        return _ops().conj(_ops().swapaxes(self, 0, 1))

    @property
    def mH(self) -> Tensor:  # noqa: N802
        """The conjugate transpose of the last two dimensions."""
        return _ops().conj(_ops().swapaxes(self, -1, -2))

    def new_full(self, size: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Tensor:
        return _ops().full(tuple(size), fill_value, dtype=dtype or self.dtype)

    def new_empty(self, size: Any, *, dtype: Any = None, device: Any = None) -> Tensor:
        """A tensor of ``size`` (its values unspecified in MindSpore; zeros here)."""
        size = (size,) if isinstance(size, int) else tuple(size)
        return _ops().zeros(size, dtype or self.dtype)

    def untyped_storage(self) -> Any:
        """The Tensor's bytes as an :class:`~sporax.common.storage.UntypedStorage` (dtype-agnostic)."""
        from .storage import UntypedStorage

        return UntypedStorage._of(self)

    def storage(self) -> Any:
        """The Tensor's storage (MindSpore's alias of ``untyped_storage``)."""
        return self.untyped_storage()

    def storage_offset(self) -> int:
        """0: every sporax tensor owns its buffer."""
        return 0

    def stride(self, dim: Any = None) -> Any:
        """The step, in elements, of each dimension of the (row-major, contiguous) layout."""
        steps = [1] * self.ndim
        for i in range(self.ndim - 2, -1, -1):
            steps[i] = steps[i + 1] * self.shape[i + 1]
        return tuple(steps) if dim is None else steps[dim]

    def to_(self, device: Any = None, non_blocking: bool = False) -> Self:
        """Kept where it is: sporax places arrays on the context's device."""
        return self

    def pin_memory(self) -> Self:
        return self

    def is_pinned(self) -> bool:
        return False

    def is_shared(self) -> bool:
        return False

    @property
    def is_meta(self) -> bool:
        return False

    @property
    def data(self) -> Self:
        """The tensor itself (MindSpore's ``Tensor.data``)."""
        return self

    @property
    def device(self) -> str:
        """Where the value lives: ``"CPU"``, ``"GPU:0"``..."""
        devices = getattr(self._data, "devices", None)
        dev = next(iter(devices())) if callable(devices) else None
        if dev is None:
            return "CPU"
        kind = "GPU" if dev.platform in ("gpu", "cuda", "rocm") else dev.platform.upper()
        return kind if kind == "CPU" else f"{kind}:{dev.id}"

    # ------------------------------------------------------------------ random fills
    def cauchy(self, median: float = 0.0, sigma: float = 1.0) -> Tensor:
        """Fill the tensor with draws from the Cauchy distribution (``median + sigma * tan(pi * (u - 1/2))``,
        u uniform on (0, 1), from the global random state) and return it."""
        u = _ops().uniform_(_ops().zeros(self.shape, mstype.float32), 0, 1)
        return self._assign(_ops().add(_ops().mul(_ops().tan(_ops().mul(_ops().sub(u, 0.5), np.pi)), sigma), median))

    def log_normal(self, mean: float = 1.0, std: float = 2.0) -> Tensor:
        """Fill the tensor with draws whose logarithm is normal(``mean``, ``std``) and return it."""
        z = _ops().normal_(_ops().zeros(self.shape, mstype.float32), mean, std)
        return self._assign(_ops().exp(z))

    # ------------------------------------------------------------------ gradient hooks
    def register_hook(self, hook: Any) -> _TensorHookHandle:
        """Call ``hook(grad)`` with the gradient flowing back to this tensor (in ``grad``/``value_and_grad``, jit
        and GRAPH_MODE alike); a Tensor it returns replaces the gradient. Returns a handle with ``remove()``."""
        if not callable(hook):
            raise TypeError(f"Expected a callable hook function, but got {type(hook).__name__}.")
        hooks = _hook_list(self)
        if not hooks:  # the first hook puts the tensor's value behind the hook point
            self._data = _hooked(self._data, hooks)
        hooks.append(hook)
        return _TensorHookHandle(hooks, hook)

    def hooks(self) -> list[Any]:
        """The gradient hooks registered on this tensor."""
        return list(_hooks_of(self) or ())

    def to_dlpack(self) -> Any:
        return _op_registry.utils().to_dlpack(self)

    @staticmethod
    def from_dlpack(dlpack: Any) -> Tensor:
        return _op_registry.utils().from_dlpack(dlpack)
