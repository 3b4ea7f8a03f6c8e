"""MindSpore's autograd helpers at the top level: ``_no_grad``, ``_Function`` (a custom autograd function in
PyTorch's style), ``saved_tensors_hooks`` and ``register_saved_tensors_hooks``.

JAX differentiates a traced program, so these act where sporax meets the trace:

* ``_no_grad``: every Tensor an op makes while it is open is cut from gradients (``stop_gradient``), which is
  what MindSpore's PyNative tape being off means for the results.
* ``_Function.apply``: a ``custom_vjp`` whose backward is the class's ``backward``; its ``ctx`` is rebuilt in
  the backward pass by running ``forward`` again on the saved inputs (a Python object cannot cross from the
  forward to the backward trace of an XLA program).
* ``register_saved_tensors_hooks``: the tensors kept for the backward pass of the decorated function are its
  Tensor inputs, packed by ``pack_hook``; the backward unpacks them and differentiates the function there.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from typing import Any

from .._engine import custom_vjp_call
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

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> bool:
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


def _with_saved_hooks(func: Any, pack_hook: Any, unpack_hook: Any) -> Any:
    """``func`` whose backward pass keeps ``pack_hook(x)`` of each Tensor input ``x`` and differentiates
    ``func`` at ``unpack_hook(packed)``."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        pos, tensors = _split_tensors(args)

        def forward(*values: Any) -> Any:
            return func(*_merge(args, pos, values), **kwargs)

        def backward(values: Any, out: Any, dout: Any) -> Any:
            restored = [unpack_hook(pack_hook(v)) for v in values]

            def at(*vals: Any) -> Any:
                return func(*_merge(args, pos, vals), **kwargs)

            _, pullback = _ops().vjp(at, *restored)
            grads = pullback(dout)
            return tuple(grads) if isinstance(grads, tuple | list) else (grads,)

        return custom_vjp_call(forward, backward, tensors, [])

    return wrapper


class saved_tensors_hooks:  # noqa: N801 (MindSpore's name)
    """MindSpore's context manager packing (``pack_hook``) the tensors each operation inside keeps for the
    backward pass and unpacking them (``unpack_hook``) when the gradient is computed.

    XLA keeps an operation's residuals inside the compiled program, out of Python's reach, so the ``with``
    form cannot reach them. The object is usable as a decorator instead: ``@saved_tensors_hooks(pack,
    unpack)`` on a function is :func:`register_saved_tensors_hooks` (the tensors kept are the function's
    Tensor inputs).
    """

    def __init__(self, pack_hook: Any, unpack_hook: Any) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __call__(self, func: Any) -> Any:
        return _with_saved_hooks(func, self.pack_hook, self.unpack_hook)

    def __enter__(self) -> None:
        raise RuntimeError(
            "For 'saved_tensors_hooks', the 'with' form is not supported on XLA: an operation's saved tensors "
            "live inside the compiled program. Decorate the function instead: @saved_tensors_hooks(pack_hook, "
            "unpack_hook) or @register_saved_tensors_hooks(pack_hook, unpack_hook)."
        )

    def __exit__(self, *args: Any) -> None:
        return None


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
