"""MindSpore's autograd helpers at the top level: ``_no_grad``, ``_Function`` (a custom autograd function in
PyTorch's style), ``saved_tensors_hooks`` and ``register_saved_tensors_hooks``.

JAX differentiates a traced program, so these act where sporax meets the trace:

* ``_no_grad``: every Tensor an op makes while it is open is cut from gradients (``stop_gradient``), which is
  what MindSpore's PyNative tape being off means for the results.
* ``_Function.apply``: a ``custom_vjp`` whose backward is the class's ``backward``; its ``ctx`` is rebuilt in
  the backward pass by running ``forward`` again on the saved inputs (a Python object cannot cross from the
  forward to the backward trace of an XLA program).
* ``saved_tensors_hooks`` / ``register_saved_tensors_hooks``: the tensors an operation keeps for the backward
  pass are its Tensor inputs, packed by ``pack_hook`` in the forward pass; the backward pass unpacks them and
  differentiates the operation there (``with``: each operator called through ``sporax.ops``; decorator: the
  decorated function).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from typing import Any, Literal

from .._engine import custom_vjp_call
from .._engine._saved_hooks import saved_hooks_call
from . import _op_intercept
from . import dtype as mstype
from ._op_registry import ops as _ops
from .tensor import GRAD_DISABLED, Tensor

__all__ = ["_no_grad", "_Function", "saved_tensors_hooks", "register_saved_tensors_hooks"]


class _no_grad(contextlib.ContextDecorator):  # noqa: N801 (MindSpore's name)
    """Context manager (and decorator) disabling gradient calculation: the results computed inside carry no
    gradient; on exit the previous state is back."""

    def __init__(self) -> None:
        self.prev_state = False

    def __enter__(self) -> None:
        self.prev_state = GRAD_DISABLED[0] == 0
        GRAD_DISABLED[0] += 1

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> Literal[False]:
        GRAD_DISABLED[0] -= 1
        return False


def _split_tensors(args: tuple) -> tuple[list[int], list[Any]]:
    pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    return pos, [args[i] for i in pos]


def _merge(args: tuple, pos: list[int], values: Any) -> list[Any]:
    full = list(args)
    for i, v in zip(pos, values, strict=True):
        full[i] = v
    return full


class _Function:
    """A custom autograd function (MindSpore's ``_Function``, after ``torch.autograd.Function``).

    Subclasses define ``forward(ctx, *args, **kwargs)`` (or ``forward(*args)`` with
    ``setup_context(ctx, inputs, output)``) and ``backward(ctx, *grad_outputs)`` returning one gradient per
    input (``None`` for a non-Tensor input or no gradient); ``Cls.apply(*args)`` runs it. ``ctx`` keeps what
    ``forward`` stores (``ctx.save_for_backward(...)``, ``ctx.saved_tensors``, other attributes).
    """

    _has_setup_context = False

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwars: Any) -> Any:
        raise NotImplementedError("forward function should be customized.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError("backward function should be customized.")

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> Any:
        """Save context information needed for the backward pass."""
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def _run_forward(cls, args: tuple, kwargs: dict) -> tuple[Any, Any]:
        ctx = object.__new__(cls)
        ctx.materialize_grads = True
        if cls._has_setup_context:
            out = cls.forward(*args, **kwargs)
            cls.setup_context(ctx, tuple(args), out)
        else:
            out = cls.forward(ctx, *args, **kwargs)
        return ctx, out

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Apply the custom autograd function."""
        cls._has_setup_context = cls.setup_context is not _Function.setup_context
        if cls._has_setup_context:
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        pos, tensors = _split_tensors(args)

        def forward(*values: Any) -> Any:
            return cls._run_forward(tuple(_merge(args, pos, values)), kwargs)[1]

        def backward(values: Any, out: Any, dout: Any) -> Any:
            ctx, _ = cls._run_forward(tuple(_merge(args, pos, values)), kwargs)
            douts = tuple(dout) if isinstance(out, tuple | list) else (dout,)
            grads = cls.backward(ctx, *douts)
            grads = tuple(grads) if isinstance(grads, tuple | list) else (grads,)
            if len(grads) != len(args):
                raise ValueError(
                    f"For '{cls.__name__}.backward', the number of gradients must be {len(args)} (one per input "
                    f"of forward), but got {len(grads)}."
                )
            return tuple(_ops().zeros_like(values[k]) if grads[i] is None else grads[i] for k, i in enumerate(pos))

        return custom_vjp_call(forward, backward, tensors, [])

    def save_for_backward(self, *tensors: Tensor) -> None:
        self.saved_tensors = tensors

    def mark_dirty(self, *args: Tensor) -> None:
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args: Tensor) -> None:
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value


def _as_tensor(x: Any) -> Any:
    """A Parameter as the Tensor of its current value (only Tensors cross a custom_vjp); others unchanged."""
    return Tensor._from_data(x._data) if isinstance(x, Tensor) and type(x) is not Tensor else x


def _hooked_call(func: Any, args: tuple, kwargs: dict, pack_hook: Any, unpack_hook: Any) -> Any:
    """``func(*args, **kwargs)`` whose backward pass differentiates it at ``unpack_hook(pack_hook(t))`` of each
    Tensor argument ``t`` (packed in the forward pass); calls without a floating Tensor run as they are."""
    pos, tensors = _split_tensors(args)
    if not any(t.dtype in mstype.float_type for t in tensors):
        return func(*args, **kwargs)
    tensors = [_as_tensor(t) for t in tensors]

    def at(*values: Any) -> Any:
        return func(*_merge(args, pos, values), **kwargs)

    return saved_hooks_call(at, tensors, pack_hook, unpack_hook)


def _with_saved_hooks(func: Any, pack_hook: Any, unpack_hook: Any) -> Any:
    """``func`` whose backward pass keeps ``pack_hook(x)`` of each Tensor input ``x`` and differentiates
    ``func`` at ``unpack_hook(packed)``."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return _hooked_call(func, args, kwargs, pack_hook, unpack_hook)

    return wrapper


class saved_tensors_hooks:  # noqa: N801 (MindSpore's name)
    """Context manager packing (``pack_hook``, in the forward pass) the tensors each operation inside keeps for
    the backward pass and unpacking them (``unpack_hook``) when the gradient is computed.

    The tensors an operation keeps are its Tensor inputs: each operator called through ``sporax.ops`` inside the
    context (Tensor operators and methods included) keeps ``pack_hook(x)`` of its floating inputs, and its
    gradient is taken at ``unpack_hook`` of them. ``pack_hook`` must return Tensors (or arrays): XLA keeps the
    residuals inside the program. Also usable as a decorator (the tensors kept are the function's inputs).
    """

    def __init__(self, pack_hook: Any, unpack_hook: Any) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __call__(self, func: Any) -> Any:
        return _with_saved_hooks(func, self.pack_hook, self.unpack_hook)

    def __ms_dispatch__(self, func: Any, args: tuple, kwargs: dict | None = None) -> Any:
        return _hooked_call(func, args, kwargs or {}, self.pack_hook, self.unpack_hook)

    def __enter__(self) -> None:
        _op_intercept.push(self)

    def __exit__(self, *args: Any) -> None:
        _op_intercept.pop(self)


def register_saved_tensors_hooks(pack_hook: Any, unpack_hook: Any) -> Any:
    """Decorator: the gradient of the decorated function is computed from its Tensor inputs packed by
    ``pack_hook`` in the forward pass and restored by ``unpack_hook`` in the backward pass (MindSpore's graph
    mode form of :class:`saved_tensors_hooks`). The function is differentiated again in the backward pass at
    the restored inputs."""
    if not callable(pack_hook) or not callable(unpack_hook):
        raise TypeError("For 'register_saved_tensors_hooks', 'pack_hook' and 'unpack_hook' must be callable.")

    def decorator(func: Any) -> Any:
        wrapper = _with_saved_hooks(func, pack_hook, unpack_hook)
        inner = inspect.unwrap(func)
        inner._saved_tensors_pack_hook = pack_hook
        inner._saved_tensors_unpack_hook = unpack_hook
        return wrapper

    return decorator
